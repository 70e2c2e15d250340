"""How a run's notebooks share the machine: thread-pool sizes per worker and the order they run in.

:func:`thread_limits` sizes numpy's BLAS, OpenMP and numba thread pools so that the workers share
the cores; :func:`longest_first` orders the notebooks by the wall time of the previous run
(:func:`previous_seconds`, recorded by :func:`save_seconds`), so that the longest start first.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from pathlib import Path

from ..base import locations

#: Environment variables that size the thread pools of numpy's BLAS, OpenMP and numba.
THREAD_VARIABLES = (
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMBA_NUM_THREADS",
)


def thread_limits(jobs: int) -> dict:
    """Thread-pool sizes for ``jobs`` worker processes sharing this machine's cores.

    Each worker gets ``cores // jobs`` threads (at least 1). Without a limit every kernel's
    OpenBLAS starts one thread per core, and its threads spin while they wait: with two
    kernels on two cores a full reproduction took 122 CPU-s instead of 92 (2026-11-23).
    """
    threads = str(max(1, (os.cpu_count() or 1) // max(1, jobs)))
    return {name: threads for name in THREAD_VARIABLES}


#: Notebook name -> wall time (s) of the last run, in the build folder (orders the next run).
SECONDS_FILE = "notebook-seconds.json"
#: The same, measured once and shipped (``data/notebook_seconds.json``, written by
#: ``benchmarks/reproduce.py --write-order``): orders a build folder's first run.
SHIPPED_SECONDS = locations.DATA / "notebook_seconds.json"


def read_seconds(file: Path) -> dict | None:
    """Notebook name -> seconds from ``file``; an unreadable file, or a time that is not a finite
    number of seconds >= 0 (a 400-digit integer, NaN), is ignored: the times only order a run."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # ValueError: also an integer of more digits than Python reads
        return None
    if not isinstance(data, dict):
        return None
    seconds = {}
    for name, value in data.items():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            try:
                value = float(value)
            except OverflowError:
                continue
            if math.isfinite(value) and value >= 0:
                seconds[str(name)] = value
    return seconds


def previous_seconds(build_dir: Path) -> dict:
    """Notebook name -> seconds of the build folder's last run, else the shipped measurement."""
    seconds = read_seconds(build_dir / SECONDS_FILE)
    if seconds is None:
        seconds = read_seconds(SHIPPED_SECONDS)
    return seconds or {}


def save_seconds(build_dir: Path, runs) -> None:
    """Record the wall time (s) of each notebook of ``runs`` that finished in the build folder's
    :data:`SECONDS_FILE`, keeping the others' earlier times (a file that cannot be written:
    skipped).
    """
    seconds = read_seconds(build_dir / SECONDS_FILE) or {}
    seconds.update({r.name: round(r.seconds, 2) for r in runs if r.failure is None})
    with contextlib.suppress(OSError):
        (build_dir / SECONDS_FILE).write_text(
            json.dumps(seconds, indent=1, sort_keys=True), encoding="utf-8"
        )


def longest_first(pending: list, seconds: dict) -> list:
    """``pending`` ``(index, source)`` pairs, the longest notebooks of the previous run first
    (a notebook without a time first of all, in the given order): with the longest last, the
    other workers would idle while it runs."""
    return sorted(pending, key=lambda item: -seconds.get(item[1].stem, float("inf")))
