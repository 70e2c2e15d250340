"""Ctrl-C (SIGINT) and SIGTERM acted on at known points of a run, in every thread.

Python runs a signal's handler in the main thread, whichever thread of the process the
kernel gave the signal to (numpy's OpenBLAS threads included). A handler installed here
therefore governs the whole process, unlike a thread's signal mask, which the process's
other threads do not share: a SIGINT masked in the publishing thread was taken by an
OpenBLAS thread and raised ``KeyboardInterrupt`` in the middle of a publish.

:func:`caught` installs a handler for SIGINT and SIGTERM that records the signal in a
:class:`Catcher` and raises ``KeyboardInterrupt`` wherever the main thread is (a sleep, a
wait, an import), unless the catcher is *deferring*: then the signal is only recorded and
the code acts on it at its next safe point (:meth:`Catcher.check`). The record stays even
where Python drops the exception (a ``KeyboardInterrupt`` raised inside a finalizer such as
``__del__``), so code that checks at its known points never misses a signal; and Python's report
of that dropped exception ("Exception ignored in ..." and a traceback, through
``sys.unraisablehook``) is not printed while a block runs: the catcher has the signal, and a
Ctrl-C stays the one line the command prints. While the main thread forks (``os.fork``, a
``subprocess.Popen`` with a ``preexec_fn``) a signal is only recorded: its handler would run in
an at-fork callback (logging's ``_releaseLock``), whose exception Python drops and whose lock it
would leave held; the run acts on it at its next check.

A SIGINT that the process was started ignoring (``SIG_IGN``: a background job of a shell
without job control, ``nohup``-like launchers) stays ignored, as Unix programs do; SIGTERM is
always caught.
"""

from __future__ import annotations

import contextlib
import logging  # noqa: F401  (its at-fork callbacks are registered before this module's: see _fork_starts)
import os
import signal
import sys
import threading

#: The signals a run stops on.
SIGNALS = (signal.SIGINT, signal.SIGTERM)

_ACTIVE: list["Catcher"] = []  # the catchers of the blocks being run, innermost last
_FORKING: list[int] = []  # the thread forking now (its identifier), between the at-fork callbacks


def _fork_starts() -> None:
    """At-fork ``before`` callback: the fork's thread, until the callbacks after the fork have run.

    Python calls the ``before`` callbacks in reverse order of registration and the ``after`` ones in
    order: registered after logging's, this one runs before logging takes its lock and
    :func:`_fork_ended` after logging released it, so a signal the handler takes in between is
    only recorded."""
    _FORKING[:] = [threading.get_ident()]


def _fork_ended() -> None:
    """At-fork ``after`` callback (parent and child): the fork is over."""
    _FORKING.clear()


os.register_at_fork(before=_fork_starts, after_in_parent=_fork_ended, after_in_child=_fork_ended)


class Catcher:
    """The signal a :func:`caught` block received, and whether it raises at once.

    Attributes
    ----------
    received : int or None
        The first signal received (``signal.SIGINT`` or ``signal.SIGTERM``); None if none.
    deferring : bool
        False: a signal also raises ``KeyboardInterrupt`` at once in the main thread; True:
        it is only recorded (the code acts on it with :meth:`check` when it is safe).
    """

    def __init__(self, deferring: bool = False):
        self.received: int | None = None
        self.deferring = deferring

    def __call__(self, signum, frame) -> None:
        if self.received is None:
            self.received = signum
        if not self.deferring and threading.get_ident() not in _FORKING:
            raise KeyboardInterrupt

    def check(self) -> None:
        """Raise ``KeyboardInterrupt`` if a signal was received (a known point to stop at)."""
        if self.received is not None:
            raise KeyboardInterrupt


def check() -> None:
    """Raise ``KeyboardInterrupt`` if a signal reached any :func:`caught` block being run."""
    for catcher in _ACTIVE:
        catcher.check()


def _silencing(previous):
    """A ``sys.unraisablehook`` that drops the report of a ``KeyboardInterrupt`` a :func:`caught`
    block recorded (the run acts on it at its next check) and passes every other on to ``previous``.
    """

    def hook(unraisable) -> None:
        if not (
            issubclass(unraisable.exc_type, KeyboardInterrupt)
            and any(c.received is not None for c in _ACTIVE)
        ):
            previous(unraisable)

    return hook


@contextlib.contextmanager
def caught(deferring: bool = False):
    """Handle SIGINT and SIGTERM with a :class:`Catcher` for the ``with`` block.

    Parameters
    ----------
    deferring : bool
        Start deferring (see :class:`Catcher`); the block may change ``catcher.deferring``.

    Yields
    ------
    Catcher
        What the block received. Outside the main thread no handler can be installed (Python
        runs handlers in the main thread only): the catcher then never records anything.
    """
    catcher = Catcher(deferring)
    previous = {}
    try:
        for number in SIGNALS:
            if number == signal.SIGINT and signal.getsignal(number) is signal.SIG_IGN:
                continue  # ignored by whoever started this process: stays ignored
            previous[number] = signal.signal(number, catcher)
    except ValueError:  # not the main thread
        pass
    hook = silencing = sys.unraisablehook
    if (
        threading.current_thread() is threading.main_thread()
    ):  # the hook is the process's, as the handlers
        sys.unraisablehook = silencing = _silencing(hook)
    _ACTIVE.append(catcher)
    try:
        yield catcher
    finally:
        catcher.deferring = (
            True  # the block is over: a late signal no longer cuts the restoring short
        )
        _ACTIVE.remove(catcher)
        for number, handler in previous.items():
            # signal.signal runs the pending handlers (this catcher's) before it installs the next
            signal.signal(number, signal.SIG_DFL if handler is None else handler)
        if sys.unraisablehook is silencing:  # unless the block installed another one
            sys.unraisablehook = hook
