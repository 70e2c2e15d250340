"""Watch the kernel of a notebook being run: hung, died, out of memory, or over its time.

``pqlab reproduce`` looks at each busy worker's kernel every :data:`POLL_S` seconds
(:meth:`Watch.check`) and fails the notebook, naming the cause, when

* the notebook runs longer than its time limit (``--notebook-timeout``, default
  :data:`NOTEBOOK_TIMEOUT_S`; a single cell's limit, ``--cell-timeout``, is enforced inside the
  kernel's client by papermill);
* its kernel process is stopped (SIGSTOP, a debugger) for :data:`STOPPED_GRACE_S` seconds: hung;
* its kernel process ended while the notebook ran (``kill -9``, a crash): died, and "out of
  memory" when the cgroup's OOM killer count rose or the kernel last held nearly all the
  memory it could use.

The defaults never cut a normal run: the longest paper notebook takes under a minute on two
cores, its longest cell under 30 s.
"""

from __future__ import annotations

import time

from ..base import memory

#: Default limit of one notebook's run, seconds (1 hour).
NOTEBOOK_TIMEOUT_S = 3600.0
#: Default limit of one cell's run, seconds (30 minutes).
CELL_TIMEOUT_S = 1800.0
#: Seconds a kernel may stay stopped before its notebook is failed as hung.
STOPPED_GRACE_S = 3.0
#: Seconds between two looks at a kernel.
POLL_S = 0.5
#: A kernel that last held this share of the memory it could use, and then died, ran out of it.
OOM_SHARE = 0.9


def _kernels(worker_pid: int) -> dict:
    """The worker's live kernel processes (``ipykernel`` in the command line; an ended one, a
    zombie, is not counted): pid -> psutil.Process."""
    import psutil

    try:
        children = psutil.Process(worker_pid).children()
    except psutil.Error:
        return {}
    found = {}
    for child in children:
        try:
            if child.status() != psutil.STATUS_ZOMBIE and "ipykernel" in " ".join(child.cmdline()):
                found[child.pid] = child
        except psutil.Error:
            continue
    return found


class Watch:
    """One notebook's run in one worker, watched (see the module docstring).

    Parameters
    ----------
    worker_pid : int
        The worker process (the kernel is its child).
    limit_s : float
        The notebook's time limit, seconds.
    """

    def __init__(self, worker_pid: int, limit_s: float):
        self.worker_pid = worker_pid
        self.limit_s = float(limit_s)
        self.started = time.monotonic()
        self.kernel = None
        self.stopped_since = None
        self.last_look = 0.0
        self.rss_share = 0.0
        self.oom_kills = memory.oom_kills()

    def check(self) -> tuple[str, str] | None:
        """``(ename, evalue)`` if the notebook must be failed now, else None."""
        import psutil

        now = time.monotonic()
        if now - self.last_look < POLL_S:
            return None
        self.last_look = now
        if now - self.started > self.limit_s:
            return (
                "NotebookTimeout",
                (
                    f"still running after {self.limit_s:g} s, the notebook time limit "
                    "(--notebook-timeout); its kernel was stopped"
                ),
            )
        kernels = _kernels(self.worker_pid)
        if self.kernel is not None and self.kernel.pid not in kernels:
            if (
                kernels
            ):  # the worker started a fresh kernel (the previous one died between notebooks)
                self.kernel = next(iter(kernels.values()))
                return None
            return (
                "KernelDied",
                f"its kernel (pid {self.kernel.pid}) died while running it: {self._why_died()}",
            )
        if self.kernel is None:
            self.kernel = next(iter(kernels.values()), None)
            return None
        try:
            status = self.kernel.status()
            room, _ = memory.available_bytes()
            rss = self.kernel.memory_info().rss
            self.rss_share = rss / max(1, rss + room)
        except psutil.Error:
            return None  # ended just now: seen at the next look
        if status == psutil.STATUS_ZOMBIE:
            return None  # ended just now: at the next look it is not counted, and replaced or died
        if status == psutil.STATUS_STOPPED:
            self.stopped_since = self.stopped_since or now
            if now - self.stopped_since >= STOPPED_GRACE_S:
                return (
                    "KernelHung",
                    (
                        f"its kernel (pid {self.kernel.pid}) is hung: its process has been stopped "
                        f"(SIGSTOP or a debugger) for {now - self.stopped_since:.0f} s"
                    ),
                )
        else:
            self.stopped_since = None
        return None

    def _why_died(self) -> str:
        kills = memory.oom_kills()
        if kills is not None and self.oom_kills is not None and kills > self.oom_kills:
            return "out of memory (the out-of-memory killer ended it)"
        if self.rss_share >= OOM_SHARE:
            return f"out of memory (it last held {self.rss_share:.0%} of the memory it could use)"
        return "its process ended (killed by a signal such as kill -9, or crashed)"
