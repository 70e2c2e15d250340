"""What a run did, counted: computations, reuses and simulations, per process and in a log file.

:func:`pqlab.simulate` counts every simulation (:func:`counted`), the results cache
(:mod:`pqlab.measure.cache`) every computation and reuse (:func:`note`); :func:`counts` gives
this process's counts. When ``PQLAB_CACHE_LOG`` names a file, each event is also appended to it
as one JSON line: how ``pqlab reproduce`` counts what its notebook kernels did
(:func:`read_counts`). The counter sits here, under both, so that running a simulation does
not need the cache.
"""

from __future__ import annotations

import functools
import json
import os
import threading
from collections import Counter
from pathlib import Path

__all__ = ["ENV_LOG", "note", "counts", "read_counts", "counted"]

#: Environment variable naming the file the events are appended to (set by ``pqlab reproduce``).
ENV_LOG = "PQLAB_CACHE_LOG"

_counts: Counter = Counter()
_lock = threading.Lock()


def note(event: str, artefact: str = "", key: str = "") -> None:
    """Count one event (``"computed"``, ``"reused"``, ``"simulation"``) and log it if asked."""
    with _lock:
        _counts[event] += 1
    log = os.environ.get(ENV_LOG)
    if log:
        with open(log, "a", encoding="utf-8") as fh:
            fh.write(
                json.dumps({"event": event, "artefact": artefact, "key": key, "pid": os.getpid()})
                + "\n"
            )


def counts() -> dict:
    """Events counted in this process: ``{"computed": n, "reused": m, "simulation": k, ...}``."""
    with _lock:
        return dict(_counts)


def read_counts(log_file) -> dict:
    """Count the events of a log written by :func:`note` (absent file: no events; a damaged line
    is skipped: the counts are information, not results)."""
    found: Counter = Counter()
    path = Path(log_file)
    if path.is_file():
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:  # a line cut short by a killed kernel is not counted
                found[json.loads(line)["event"]] += 1
            except (ValueError, KeyError, TypeError):
                continue
    return {
        "computed": found["computed"],
        "reused": found["reused"],
        "simulation": found["simulation"],
    }


def counted(event: str):
    """Decorator: count every call of the function as ``event`` (e.g. ``"simulation"``)."""

    def wrap(func):
        @functools.wraps(func)
        def inner(*args, **kwargs):
            note(event, func.__qualname__)
            return func(*args, **kwargs)

        return inner

    return wrap
