"""One ``pqlab reproduce`` per output tree: operating-system file locks (``flock``, by filelock).

A run holds two locks: its build folder's (``<build>/reproduce.lock``) and its figures folder's
(``.pqlab-lock-<name>`` next to it), so neither two figures folders sharing one build folder
nor two build folders publishing into one figures folder ever run at once. The lock is the
operating system's (``flock``): it is released when its holder ends, however it ends (``kill
-9`` included), so there is no stale or damaged lock to judge or take over. While it holds a
lock, a run names itself (command, pid and start time) in a side file (``<lock>.holder``) that
a refused run quotes. A run removes its lock files while it still holds them (filelock retries
a lock whose file was removed meanwhile), and a refused run removes every folder it made for
them: a refusal leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

#: Name of the lock file inside the build folder.
LOCK_NAME = "reproduce.lock"
#: Name prefix of the lock file of a figures folder, next to it (``.pqlab-lock-figures``).
OUT_LOCK_PREFIX = ".pqlab-lock-"
#: Suffix of the side file naming a lock's holder.
HOLDER_SUFFIX = ".holder"


class RunLocked(RuntimeError):
    """Another live ``pqlab reproduce`` holds the lock of this output tree."""


def out_lock(out_dir) -> tuple[Path, str]:
    """``(folder, name)`` of the lock of the figures folder ``out_dir``."""
    out_dir = Path(out_dir)
    return out_dir.parent, f"{OUT_LOCK_PREFIX}{out_dir.name}"


@contextlib.contextmanager
def held(locks, *, wait_s: float = 0.0, poll_s: float = 0.2, command: str = "pqlab reproduce"):
    """Hold every lock of ``locks`` for the ``with`` block, in the order given.

    Parameters
    ----------
    locks : list of (str or os.PathLike, str)
        ``(folder, lock file name)``; a missing folder is made (and removed again on refusal).
    wait_s : float
        Seconds to wait, in all, for live holders to finish; 0 refuses at once.
    poll_s : float
        Seconds between two tries of a held lock.
    command : str
        How this run is named to a run it refuses.

    Raises
    ------
    RunLocked
        A lock is still held by another process after ``wait_s`` seconds (one line naming it
        and its holder); every lock taken is released and every folder made is removed.
    """
    import filelock

    files = [Path(folder) / name for folder, name in locks]
    made = sorted({f for file in files for f in _missing(file.parent)}, key=lambda f: -len(f.parts))
    deadline = time.monotonic() + max(0.0, float(wait_s))
    taken = []
    try:
        for file in files:
            file.parent.mkdir(parents=True, exist_ok=True)
            lock = filelock.FileLock(file)
            try:
                lock.acquire(timeout=max(0.0, deadline - time.monotonic()), poll_interval=poll_s)
            except filelock.Timeout:
                raise RunLocked(
                    f"another {_holder(file)} is writing this reproduction (lock "
                    f"{file}); wait for it to finish or pass --wait SECONDS"
                ) from None
            taken.append((file, lock))
            started = time.strftime("%Y-%m-%d %H:%M:%S")
            with contextlib.suppress(OSError):  # only quoted to a refused run
                _holder_file(file).write_text(
                    f"{command} (pid {os.getpid()}, started {started})", encoding="utf-8"
                )
        yield
    finally:
        for file, lock in reversed(taken):
            with contextlib.suppress(OSError):
                _holder_file(file).unlink(missing_ok=True)
                file.unlink(missing_ok=True)  # while held: a waiter on this file tries again
            lock.release()
        for folder in made:  # left empty by a refusal (or the run's end): removed
            with contextlib.suppress(OSError):
                folder.rmdir()


def _holder_file(lock_file: Path) -> Path:
    return lock_file.with_name(f"{lock_file.name}{HOLDER_SUFFIX}")


def _holder(lock_file: Path) -> str:
    """The holder a lock's side file names (its first line, at most 300 characters)."""
    try:
        text = _holder_file(lock_file).read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    line = (text.strip().splitlines() or [""])[0][:300]
    return line or "pqlab reproduce (starting)"


def _missing(folder: Path) -> list[Path]:
    """``folder`` and its ancestors that do not exist."""
    missing = []
    while not folder.exists() and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    return missing
