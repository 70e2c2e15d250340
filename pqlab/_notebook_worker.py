"""Execute one notebook with papermill in its own process (started by :mod:`pqlab.reproduce`).

``python -m pqlab._notebook_worker TASK.json`` reads ``{"source", "executed", "parameters",
"result"}``, runs the notebook and writes ``{"cell_index", "ename", "evalue"}`` (all None on
success) to ``result``. Its kernel talks over IPC sockets (no TCP port, so no "Kernel is
running over TCP without encryption" warning); its output goes to the log file the parent
gives it, so the parent's progress output shows only pqlab's lines. The parent kills this
process and its kernel on Ctrl-C.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile

from jupyter_client.manager import KernelManager

_INJECTED_TAG = "injected-parameters"
_ERROR_TAG = "papermill-error-cell-tag"


class IPCKernelManager(KernelManager):
    """A kernel manager whose kernel listens on IPC sockets in a private temporary folder.

    The folder is made inside :attr:`root` (the parent's socket folder, which the parent
    removes even if this process is killed), or in the system's temporary folder.
    """

    #: Folder in which the socket folders are made (None: the system's temporary folder).
    root: str | None = None
    #: Socket folders made by this process (removed when the worker ends).
    folders: list = []

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.transport = "ipc"
        folder = tempfile.mkdtemp(prefix="pqlab-kernel-", dir=IPCKernelManager.root)
        IPCKernelManager.folders.append(folder)
        self.ip = os.path.join(folder, "kernel")


def source_cell_index(source, executed, cell_index: int) -> int:
    """Map a cell index of the executed notebook back to the source notebook."""
    import nbformat

    def injected(path):
        # positions as papermill counted them: without the error cells it adds when writing
        cells = [c for c in nbformat.read(str(path), as_version=4).cells
                 if _ERROR_TAG not in c.get("metadata", {}).get("tags", [])]
        return [i for i, c in enumerate(cells) if _INJECTED_TAG in c.get("metadata", {}).get("tags", [])]

    try:
        added = injected(executed) if not injected(source) else []
    except (OSError, ValueError):  # executed copy unreadable: keep papermill's index
        return cell_index
    return cell_index - sum(1 for i in added if i < cell_index)


def execute(source: str, executed: str, parameters: dict, kernel_name: str = "python3") -> dict:
    """Run ``source`` into ``executed``; return the failure as a dict (all None on success)."""
    import papermill
    from papermill.exceptions import PapermillExecutionError

    try:
        papermill.execute_notebook(
            source, executed, parameters=parameters, kernel_name=kernel_name, progress_bar=False,
            cwd=os.path.dirname(source), kernel_manager_class=IPCKernelManager,
        )
    except PapermillExecutionError as exc:
        return {"cell_index": source_cell_index(source, executed, exc.cell_index), "ename": exc.ename,
                "evalue": exc.evalue}
    except Exception as exc:  # noqa: BLE001 - reported by the parent as this notebook's failure
        return {"cell_index": None, "ename": type(exc).__name__, "evalue": str(exc)}
    return {"cell_index": None, "ename": None, "evalue": None}


def main(argv=None) -> int:
    (task_file,) = sys.argv[1:] if argv is None else argv
    with open(task_file, encoding="utf-8") as fh:
        task = json.load(fh)
    IPCKernelManager.root = task.get("socket_dir")
    try:
        outcome = execute(task["source"], task["executed"], task["parameters"], task.get("kernel_name", "python3"))
    finally:
        for folder in IPCKernelManager.folders:
            shutil.rmtree(folder, ignore_errors=True)
    tmp = task["result"] + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(outcome, fh)
    os.replace(tmp, task["result"])
    return 0


if __name__ == "__main__":  # pragma: no cover - run as a subprocess
    sys.exit(main())
