"""One ``pqlab reproduce`` per output tree: a lock file holding the holder's pid and start time.

A run holds two locks: its build folder's (``<build>/reproduce.lock``) and its figures
folder's (``.pqlab-lock-<name>`` next to it: the figures folder itself is renamed when a
run is published), so neither two figures folders sharing one build folder nor two build
folders publishing into one figures folder ever run at once.

The lock is a file created with ``O_CREAT | O_EXCL`` (atomic on every local file system).
A lock whose process is gone (or whose pid now belongs to a process started after the
lock was taken) is stale and taken over; a live one makes :func:`acquire` wait (up to
``wait_s``) or refuse with :class:`RunLocked` naming the holder. An empty lock is one whose
writer died before writing it (or is writing it: it is read again first), and is stale. A lock
holding anything else than :data:`LOCK_SCHEMA` names no holder that could be judged: the run
stops with :class:`LockDamaged` (one line naming the file and the way out; exit code 4).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path

from . import publish, statefile

#: Name of the lock file inside the build folder.
LOCK_NAME = "reproduce.lock"
#: Largest process id on Linux (``PID_MAX_LIMIT``, 2**22).
MAX_PID = 2**22
#: What a lock holds: the holder's process id, its start time (seconds since the epoch, up to
#: the year 5138) and the command shown to a run it refuses.
LOCK_SCHEMA = statefile.record({"pid": statefile.integer(1, MAX_PID), "started": statefile.number(0, 1e11),
                                "command": statefile.text()}, optional=("command",))
#: Name prefix of the lock file of a figures folder, next to it (``.pqlab-lock-figures``).
OUT_LOCK_PREFIX = ".pqlab-lock-"


def out_lock(out_dir) -> tuple[Path, str]:
    """``(folder, name)`` of the lock of the figures folder ``out_dir`` (for :func:`acquire`)."""
    out_dir = Path(out_dir)
    return out_dir.parent, f"{OUT_LOCK_PREFIX}{out_dir.name}"


class RunLocked(RuntimeError):
    """Another live ``pqlab reproduce`` holds the lock of this output tree."""


class LockDamaged(publish.OutputError):
    """The lock file holds no holder pqlab wrote (the message names it and the way out)."""


def _process_start_time(pid: int) -> float | None:
    """Start time (s since the epoch) of a live process, None if it does not exist."""
    import psutil

    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:  # ended, not yet reaped by its parent
            return None
        return process.create_time()
    except (psutil.NoSuchProcess, psutil.ZombieProcess):
        return None
    except psutil.AccessDenied:  # alive but not ours: treat as live
        return 0.0


def holder(lock_file) -> dict | None:
    """The lock's content ``{"pid", "started", "command"}`` (:data:`LOCK_SCHEMA`), None if there
    is no lock or it is empty (being written, or its writer died before writing it).

    Raises
    ------
    LockDamaged
        The file holds anything else (one line naming it and the way out).
    """
    try:
        return statefile.load(lock_file, LOCK_SCHEMA, empty_is_absent=True)
    except statefile.Damaged as exc:
        raise LockDamaged(f"the run lock {exc}; if no other pqlab reproduce is running on this tree, "
                          f"remove {exc.file} and run again") from None


def is_stale(entry: dict | None) -> bool:
    """True if the process that wrote ``entry`` is no longer running."""
    if entry is None:
        return True
    started = _process_start_time(entry["pid"])
    if started is None:
        return True
    # pid reused by a process started after the lock was written (1 s clock slack)
    return bool(started) and started > float(entry.get("started", 0.0)) + 1.0


def _try_create(lock_file: Path, entry: dict) -> bool:
    try:
        fd = os.open(lock_file, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return False
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(entry, fh)
    except OSError:  # e.g. a full disk: leave no empty lock behind
        lock_file.unlink(missing_ok=True)
        raise
    return True


@contextlib.contextmanager
def acquire(folder, *, wait_s: float = 0.0, poll_s: float = 0.2, command: str = "pqlab reproduce",
            name: str = LOCK_NAME):
    """Hold the lock of ``folder`` (created if needed) for the ``with`` block.

    Parameters
    ----------
    folder : str or os.PathLike
        The build folder; the lock is ``<folder>/<name>``.
    wait_s : float
        Seconds to wait for a live holder to finish; 0 refuses at once.
    poll_s : float
        Seconds between two looks at a held lock.
    command : str
        Description stored in the lock for the message another run shows.
    name : str
        The lock file's name (default :data:`LOCK_NAME`; :func:`out_lock` for a figures folder).

    Raises
    ------
    RunLocked
        If a live process still holds the lock after ``wait_s`` seconds.
    """
    lock_file = Path(folder) / name
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    me = os.getpid()
    entry = {"pid": me, "started": _process_start_time(me) or time.time(), "command": command}
    deadline = time.monotonic() + max(0.0, float(wait_s))
    while not _try_create(lock_file, entry):
        current = holder(lock_file)
        if current is None and lock_file.exists():
            time.sleep(poll_s)  # being written right now: look again
            current = holder(lock_file)
        if is_stale(current):
            # take a stale lock over: rename it away first so two takers cannot both win
            with contextlib.suppress(FileNotFoundError):
                os.replace(lock_file, lock_file.with_name(f"{name}.stale-{me}"))
                os.unlink(lock_file.with_name(f"{name}.stale-{me}"))
            continue
        if time.monotonic() >= deadline:
            since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(current.get("started", 0))))
            raise RunLocked(
                f"another {current.get('command', 'pqlab reproduce')} (pid {current['pid']}, started {since}) "
                f"is writing this reproduction (lock {lock_file}); wait for it to finish or pass --wait SECONDS"
            )
        time.sleep(poll_s)
    try:
        yield lock_file
    finally:
        with contextlib.suppress(LockDamaged, FileNotFoundError):  # a damaged lock is not ours
            if holder(lock_file) == entry:
                lock_file.unlink()
