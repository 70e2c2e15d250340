"""Processes and folders that must not outlive the ``pqlab reproduce`` that made them.

Worker processes and their kernels are started with :func:`die_with_parent`: Linux sends
them SIGKILL the moment their parent ends, even by ``kill -9`` (``PR_SET_PDEATHSIG``), so
no worker or kernel keeps writing into a run folder the next run deletes. The kernels'
socket folders (``<tmp>/pqlab-kernel-<pid>-*``: their IPC sockets and connection files, which
hold each kernel's HMAC key) of a process that no longer runs are removed by the next run
(:func:`remove_stale_socket_dirs`); nothing else of a run is written to the temporary folder. A
run stopped by Ctrl-C ends its workers and their kernels itself (:func:`kill_trees`).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import shutil
import signal
import sys
import tempfile
from pathlib import Path

#: ``prctl`` option: the signal a process gets when its parent ends (linux/prctl.h).
PR_SET_PDEATHSIG = 1


def die_with_parent(sig: int = signal.SIGKILL):
    """A ``preexec_fn`` for :class:`subprocess.Popen`: the child gets ``sig`` when its parent ends.

    Linux only (elsewhere a function that does nothing). If the parent already ended before
    the child could ask (a race), the child ends at once.
    """
    if not sys.platform.startswith("linux"):
        return None
    parent = os.getpid()

    def arm():
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl in this libc
            return
        if os.getppid() != parent:
            os.kill(os.getpid(), sig)

    return arm


def remove_stale_socket_dirs(prefix: str, folder=None) -> list[Path]:
    """Remove ``<folder>/<prefix><pid>-*`` socket folders whose process ``pid`` has ended.

    Parameters
    ----------
    prefix : str
        The folders' name prefix, followed by the creating process's id and ``-``.
    folder : str or os.PathLike, optional
        Where they are (default: the system's temporary folder).

    Returns
    -------
    list of pathlib.Path
        The folders removed.
    """
    import psutil

    removed = []
    pattern = re.compile(rf"^{re.escape(prefix)}(\d+)-")
    for path in Path(folder or tempfile.gettempdir()).glob(f"{prefix}*"):
        found = pattern.match(path.name)
        if not found or not path.is_dir():
            continue
        pid = int(found.group(1))
        alive = psutil.pid_exists(pid)
        with contextlib.suppress(psutil.Error):
            alive = alive and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
        if not alive:
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def kill_trees(procs, grace_s: float) -> None:
    """SIGTERM every process of ``procs`` (:class:`subprocess.Popen`) and all its descendants
    (a worker's kernels), then SIGKILL what is left after ``grace_s`` seconds; reap them."""
    import psutil

    victims = []
    for proc in procs:
        try:
            parent = psutil.Process(proc.pid)
            victims += [parent, *parent.children(recursive=True)]
        except psutil.NoSuchProcess:
            continue
    for victim in victims:
        with contextlib.suppress(psutil.NoSuchProcess):
            victim.terminate()
    _, alive = psutil.wait_procs(victims, timeout=grace_s)
    for victim in alive:
        with contextlib.suppress(psutil.NoSuchProcess):
            victim.kill()
    psutil.wait_procs(alive, timeout=grace_s)
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.wait(timeout=grace_s)
