"""Execute notebooks with papermill in a worker process (started
by :mod:`pqlab.pipeline.reproduce`).

``python -m pqlab.pipeline._notebook_worker --serve SOCKET_DIR LOG`` starts its kernel at once, then
reads task files from its standard input, one path per line: each ``{"source", "executed",
"parameters", "result", "log"}``. It runs the notebooks one after the other in ONE kernel, kept
for the worker's life (so ``import pqlab`` and the kernel's start are paid once per worker, not
once per notebook); before each notebook the kernel's namespace is reset (``%reset -f``: no name of
one notebook is seen by the next), its figures closed, its execution count set back to 1 and
its working folder set to the notebook's. Only state that does not change results survives:
imported modules and the process's memoised simulations (deterministic copies). A kernel that
died is replaced before the next notebook. After each notebook it writes
``{"cell_index", "ename", "evalue"}`` (all None on success) to the task's ``result`` file (an
atomic rename: the parent waits for it). Papermill's messages go to the task's ``log``, the
kernel's own output to ``LOG``. The kernel talks over IPC sockets in ``SOCKET_DIR`` (no TCP
port, so no "Kernel is running over TCP without encryption" warning). The worker ends, shutting
its kernel down, when its standard input closes; the parent kills it and its kernel on Ctrl-C.

``python -m pqlab.pipeline._notebook_worker TASK.json`` runs one task in its own kernel.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import tempfile

from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.blocking import BlockingKernelClient
from jupyter_client.manager import KernelManager
from jupyter_client.utils import run_sync

from pqlab.pipeline import orphans
from pqlab.pipeline.notebook_html import (
    INJECTED_TAG,
)  # papermill's tag of the injected parameters cell

#: Optional modules that our processes never need but whose import is slow: jsonschema (under
#: nbformat, under papermill and nbconvert) imports ``rfc3987_syntax`` when it is installed (a
#: dependency of JupyterLab's jupyter-events) to check the "iri" string formats, and that module
#: compiles 38 lark grammars on import: 1.6 s in every process. Notebook schemas use no string
#: format, so validation is the same without it.
UNNEEDED_SLOW_IMPORTS = ("rfc3987_syntax",)


def skip_unneeded_imports() -> None:
    """Mark :data:`UNNEEDED_SLOW_IMPORTS` absent in this process (an import of one raises
    ImportError, which jsonschema handles as "not installed"). Only for processes pqlab owns:
    the notebook workers and the ``pqlab`` command, never a user's kernel or server."""
    for name in UNNEEDED_SLOW_IMPORTS:
        sys.modules.setdefault(name, None)


#: Added to every kernel's command line. ``HistoryManager.enabled=False``: the kernels keep no
#: IPython history. Two kernels running at once shared one history database, and a kept kernel
#: whose execution count is set back to 1 for each notebook wrote the same (session, line)
#: again: IPython then printed "ERROR! Session/line number was not unique in database" into the
#: notebook. A batch run never reads its history.
KERNEL_ARGUMENTS = ("--HistoryManager.enabled=False",)

_ERROR_TAG = "papermill-error-cell-tag"
#: Name of a kernel's connection file inside its socket folder.
CONNECTION_FILE = "kernel.json"


#: How long one wait for the kernel's answer on a channel lasts before the request is sent again
#: (seconds): jupyter_client's own wait sends its ``kernel_info_request`` again each second.
READY_RETRY_S = 1.0


async def _wait_for_ready(self, timeout: float | None = None) -> None:
    """Wait until the kernel answers a ``kernel_info_request`` on its shell AND its iopub channel.

    jupyter_client's wait ends by reading iopub until a fixed silence passes without a message,
    so every client made for a kept kernel waited that silence out for nothing, twice per
    notebook (the reset's client and papermill's). This one reads iopub
    until the kernel's ``idle`` status for this very request: what comes before it is flushed,
    as upstream's wait flushes it, and its arrival proves iopub connected (a fresh subscription
    can miss the first messages: the request is then sent again, as upstream does).
    """
    import math
    import time

    deadline = time.monotonic() + (math.inf if timeout is None else timeout)
    while True:
        msg_id = self.kernel_info()
        reply = await self._async_wait_reply(msg_id, "shell_channel", deadline)
        if (
            reply is not None
            and await self._async_wait_reply(msg_id, "iopub_channel", deadline, idle=True)
            is not None
        ):
            self._handle_kernel_info_reply(reply)
            return
        if not await self._async_is_alive():
            raise RuntimeError("Kernel died before replying to kernel_info")
        if time.monotonic() > deadline:
            raise RuntimeError(f"Kernel didn't respond in {timeout:g} seconds")


async def _wait_reply(self, msg_id: str, channel: str, deadline: float, idle: bool = False):
    """The first message on ``channel`` answering ``msg_id`` (with ``idle``: the kernel's idle
    status for it), or None if none came within :data:`READY_RETRY_S` or by ``deadline``."""
    import time
    from queue import Empty

    from jupyter_client.utils import ensure_async

    give_up = min(deadline, time.monotonic() + READY_RETRY_S)
    while (left := give_up - time.monotonic()) > 0:
        try:
            msg = await ensure_async(getattr(self, channel).get_msg(timeout=left))
        except Empty:
            return None
        if msg.get("parent_header", {}).get("msg_id") != msg_id:
            continue  # an earlier request's message: flushed
        if not idle or (
            msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle"
        ):
            return msg
    return None


class ReadyAsyncKernelClient(AsyncKernelClient):
    """nbclient's client (asynchronous) with the quick :func:`_wait_for_ready`."""

    _async_wait_reply = _wait_reply
    wait_for_ready = _wait_for_ready


class ReadyBlockingKernelClient(BlockingKernelClient):
    """The reset's client (blocking) with the quick :func:`_wait_for_ready`."""

    _async_wait_reply = _wait_reply
    wait_for_ready = run_sync(_wait_for_ready)


class IPCKernelManager(KernelManager):
    """A kernel manager whose kernel listens on IPC sockets in a private temporary folder.

    The folder is made inside :attr:`root` (the parent's socket folder, which the parent
    removes even if this process is killed, and the next run removes if the parent was killed:
    :func:`pqlab.pipeline.orphans.remove_stale_socket_dirs`), or in the system's temporary folder.
    The kernel's connection file (:data:`CONNECTION_FILE`, holding its HMAC key) is written there
    too: jupyter_client's default, ``$TMPDIR/tmpXXXX.json``, outlived every killed worker.
    """

    #: Folder in which the socket folders are made (None: the system's temporary folder).
    root: str | None = None
    #: Socket folders made by this process (removed when the worker ends).
    folders: list = []

    def __init__(self, **kwargs):
        # nbclient polls the kernel from an event loop: with the blocking client a dead kernel
        # leaves it waiting for output forever; the asynchronous client lets it notice the death
        kwargs.setdefault("client_class", "pqlab.pipeline._notebook_worker.ReadyAsyncKernelClient")
        super().__init__(**kwargs)
        self.transport = "ipc"
        folder = tempfile.mkdtemp(prefix="pqlab-kernel-", dir=IPCKernelManager.root)
        IPCKernelManager.folders.append(folder)
        self.ip = os.path.join(folder, "kernel")
        self.connection_file = os.path.join(folder, CONNECTION_FILE)

    def format_kernel_cmd(self, extra_arguments=None):
        """The kernel's command line, with :data:`KERNEL_ARGUMENTS` added."""
        return super().format_kernel_cmd([*(extra_arguments or []), *KERNEL_ARGUMENTS])


def source_cell_index(source, executed, cell_index: int) -> int:
    """Map a cell index of the executed notebook back to the source notebook."""
    import nbformat

    def injected(path):
        # positions as papermill counted them: without the error cells it adds when writing
        cells = [
            c
            for c in nbformat.read(str(path), as_version=4).cells
            if _ERROR_TAG not in c.get("metadata", {}).get("tags", [])
        ]
        return [
            i for i, c in enumerate(cells) if INJECTED_TAG in c.get("metadata", {}).get("tags", [])
        ]

    try:
        added = injected(executed) if not injected(source) else []
    except (OSError, ValueError):  # executed copy unreadable: keep papermill's index
        return cell_index
    return cell_index - sum(1 for i in added if i < cell_index)


def execute(
    source: str,
    executed: str,
    parameters: dict,
    kernel_name: str = "python3",
    km=None,
    cell_timeout_s: float | None = None,
) -> dict:
    """Run ``source`` into ``executed``; return the failure as a dict (all None on success).

    ``km``: a started kernel manager to run in (kept running), else a new kernel is started
    and shut down. ``cell_timeout_s``: a cell running longer fails the notebook
    (``CellTimeoutError``), None: no limit."""
    import papermill
    from papermill.exceptions import PapermillExecutionError

    kernel = {"km": km} if km is not None else {"kernel_manager_class": IPCKernelManager}
    try:
        papermill.execute_notebook(
            source,
            executed,
            parameters=parameters,
            kernel_name=kernel_name,
            progress_bar=False,
            # written once at the end (and on an error): after every cell, papermill rewrote and
            # validated megabytes of images (14 of 100 CPU-s of a full reproduction)
            request_save_on_cell_execute=False,
            cwd=os.path.dirname(source),
            execution_timeout=cell_timeout_s,
            **kernel,
        )
    except PapermillExecutionError as exc:
        return {
            "cell_index": source_cell_index(source, executed, exc.cell_index),
            "ename": exc.ename,
            "evalue": exc.evalue,
        }
    except Exception as exc:  # noqa: BLE001 - reported by the parent as this notebook's failure
        return {"cell_index": None, "ename": type(exc).__name__, "evalue": str(exc)}
    return {"cell_index": None, "ename": None, "evalue": None}


#: Run in the kept kernel before each notebook (not stored in its history). ``%reset -f`` ends
#: with a full garbage collection; what survives it (modules, numba's and matplotlib's caches)
#: is then frozen (:func:`gc.freeze`): no later collection scans it again, neither the next
#: reset's nor those the notebook's own allocations start. Results do not depend on it.
RESET_CODE = """\
get_ipython().run_line_magic("reset", "-f")
import gc as _pqlab_gc, os as _pqlab_os, matplotlib.pyplot as _pqlab_plt
_pqlab_plt.close("all")
_pqlab_gc.freeze()
_pqlab_os.chdir({cwd!r})
get_ipython().execution_count = 1
del _pqlab_gc, _pqlab_os, _pqlab_plt
"""


def _reset(km, cwd: str) -> None:
    """Reset the kept kernel for the next notebook (see :data:`RESET_CODE`)."""
    # parent=km: "alive" is asked of the kernel's process (a client without a parent asks the
    # heartbeat, which a kernel still starting does not answer yet: "Kernel died before replying")
    kc = ReadyBlockingKernelClient(
        **km.get_connection_info(session=True), connection_file=km.connection_file, parent=km
    )
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        reply = kc.execute_interactive(
            RESET_CODE.format(cwd=cwd),
            store_history=False,
            timeout=60,
            output_hook=lambda msg: None,
        )
        if reply["content"]["status"] != "ok":
            raise RuntimeError(f"could not reset the kernel: {reply['content'].get('evalue')}")
    finally:
        kc.stop_channels()


def _write_result(path: str, outcome: dict) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(outcome, fh)
    os.replace(tmp, path)


def _start_kernel(kernel_name: str, log_fd: int) -> IPCKernelManager:
    km = IPCKernelManager(kernel_name=kernel_name)
    # SIGKILL when this worker ends, even by kill -9: no kernel outlives its run
    km.start_kernel(stdout=log_fd, stderr=log_fd, preexec_fn=orphans.die_with_parent())
    return km


def _shut_down(km) -> None:
    """Shut ``km``'s kernel down now (SIGKILL); None, for ``km = _shut_down(km)``."""
    with contextlib.suppress(Exception):
        km.shutdown_kernel(now=True)


def serve(socket_dir: str, kernel_log: str, kernel_name: str = "python3", tasks=None) -> int:
    """Run the tasks whose files are named on ``tasks`` (standard input), in one kept kernel."""
    IPCKernelManager.root = socket_dir
    km = None
    retiring = None  # a kernel still running a timed-out cell: shut down once its successor started
    log_fd = os.open(kernel_log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        try:  # at once: the kernel boots while papermill is imported and the first task is written
            km = _start_kernel(kernel_name, log_fd)
        except Exception as exc:  # noqa: BLE001 - tried again, and reported, with the first task
            print(f"pqlab: could not start the kernel yet: {type(exc).__name__}: {exc}", flush=True)
        import papermill  # noqa: F401 - imported while the kernel starts

        for line in tasks if tasks is not None else sys.stdin:
            if not line.strip():
                continue
            with open(line.strip(), encoding="utf-8") as fh:
                task = json.load(fh)
            with open(task["log"], "ab", buffering=0) as log:
                os.dup2(log.fileno(), 1)  # papermill's messages about this notebook go to its log
                os.dup2(log.fileno(), 2)
                try:
                    wanted = task.get("kernel_name", kernel_name)
                    if km is None or not km.is_alive() or km.kernel_name != wanted:
                        if km is not None and km.is_alive():  # another kernel asked for
                            km.shutdown_kernel(now=True)
                        elif km is not None:
                            print("pqlab: the kernel died; starting a new one", flush=True)
                            km.cleanup_resources()
                        km = _start_kernel(wanted, log_fd)
                    if retiring is not None:
                        retiring = _shut_down(retiring)
                    _reset(km, os.path.dirname(task["source"]))
                    outcome = execute(
                        task["source"],
                        task["executed"],
                        task["parameters"],
                        wanted,
                        km=km,
                        cell_timeout_s=task.get("cell_timeout"),
                    )
                except Exception as exc:  # noqa: BLE001 - reported by the parent as this notebook's failure
                    outcome = {"cell_index": None, "ename": type(exc).__name__, "evalue": str(exc)}
            _write_result(task["result"], outcome)
            if km is not None and outcome.get("ename") == "CellTimeoutError":
                # the cell still runs in it: a fresh kernel for the next notebook. The old one is
                # shut down only when the next notebook's task came (the parent has then taken this
                # result: it never sees this shutdown as the timed-out notebook's kernel dying) and
                # its successor was started (the next notebook's watch is never left without a
                # kernel, which it would take for a dead one)
                retiring, km = km, None
    finally:
        for kept in (km, retiring):
            if kept is not None:
                _shut_down(kept)
        os.close(log_fd)
        for folder in IPCKernelManager.folders:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


def main(argv=None) -> int:
    skip_unneeded_imports()
    args = sys.argv[1:] if argv is None else list(argv)
    if args and args[0] == "--serve":
        return serve(*args[1:3])
    (task_file,) = args
    with open(task_file, encoding="utf-8") as fh:
        task = json.load(fh)
    IPCKernelManager.root = task.get("socket_dir")
    try:
        outcome = execute(
            task["source"], task["executed"], task["parameters"], task.get("kernel_name", "python3")
        )
    finally:
        for folder in IPCKernelManager.folders:
            shutil.rmtree(folder, ignore_errors=True)
    _write_result(task["result"], outcome)
    return 0


if __name__ == "__main__":  # pragma: no cover - run as a subprocess
    sys.exit(main())
