"""Ctrl-C recorded by :mod:`pqlab.pipeline.interrupts`: in whichever thread it lands, even where
Python
drops its exception, deferred while a block must not be cut, and ignored when the process was
started
ignoring it. Each signal is sent by the test itself at a known point: no timing."""

import signal
import subprocess
import sys
import textwrap
import threading

from pqlab.pipeline import interrupts


def _in_child(body: str) -> subprocess.CompletedProcess:
    """Run ``body`` in a fresh interpreter whose SIGINT is at its default (whatever the
    harness's)."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(body)],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def test_a_ctrl_c_whose_exception_a_finalizer_drops_is_still_acted_on():
    """A KeyboardInterrupt raised inside ``__del__`` is only printed ("Exception ignored in"): the
    run
    would go on. The catcher's record survives it, and the run's next check stops it."""
    done = _in_child("""
        import os, signal
        from pqlab.pipeline import interrupts

        class Dropped:
            def __del__(self):
                os.kill(os.getpid(), signal.SIGINT)
                (lambda: None)()  # the handler runs here, inside the finalizer

        with interrupts.caught() as stop:
            Dropped()  # dropped at once: its finalizer takes the Ctrl-C
            print("went on", stop.received == signal.SIGINT, flush=True)
            try:
                interrupts.check()
            except KeyboardInterrupt:
                print("stopped at the check", flush=True)
    """)
    assert done.stdout.split("\n")[:2] == ["went on True", "stopped at the check"], done
    # issue 29: nor is it printed ("Exception ignored in" and a traceback broke the one-line Ctrl-C)
    assert done.stderr == "", done.stderr


def test_a_ctrl_c_while_the_process_forks_is_recorded_silently_and_leaves_logging_unlocked():
    """Issue 29 (a flaky ``pqlab reproduce`` Ctrl-C test): a SIGINT that arrives while the run forks
    a worker (``Popen`` with a ``preexec_fn`` runs the at-fork callbacks) ran its handler in
    logging's
    at-fork callback ``_releaseLock``: the KeyboardInterrupt was printed ("Exception ignored in:
    <function _releaseLock ...>" and a traceback) and logging's lock was left held. The C-level
    ``kill`` below, the last callback before the fork, makes the signal pending at exactly that
    moment: its handler runs in the first Python code after the fork, the parent's callbacks."""
    done = _in_child("""
        import ctypes, functools, os, signal
        os.register_at_fork(before=functools.partial(ctypes.CDLL(None).kill, os.getpid(), signal.SIGINT))
        import logging, subprocess, sys, threading
        from pqlab.pipeline import interrupts

        with interrupts.caught() as stop:
            try:
                subprocess.Popen([sys.executable, "-c", "pass"], preexec_fn=lambda: None).wait()
            except KeyboardInterrupt:
                print("raised at once", flush=True)
            print("recorded", stop.received == signal.SIGINT, flush=True)
            try:
                interrupts.check()
            except KeyboardInterrupt:
                print("stopped at the check", flush=True)
        free = []

        def probe_lock():
            free.append(logging._lock.acquire(blocking=False))
            if free[0]:
                logging._lock.release()

        probe = threading.Thread(target=probe_lock)
        probe.start()
        probe.join()
        print("logging unlocked", free == [True], flush=True)
    """)  # noqa: E501
    assert done.stdout.split("\n")[-4:-1] == [
        "recorded True",
        "stopped at the check",
        "logging unlocked True",
    ], done
    assert done.stderr == "", done.stderr


def test_only_a_recorded_ctrl_c_is_silenced_and_the_hook_is_restored():
    """Other exceptions a finalizer drops are still printed, in the block and after it, and a block
    leaves ``sys.unraisablehook`` as it found it."""
    done = _in_child("""
        import sys
        from pqlab.pipeline import interrupts

        class Faulty:
            def __del__(self):
                raise ValueError("finalizer fault")

        before = sys.unraisablehook
        with interrupts.caught():
            Faulty()
        print("restored", sys.unraisablehook is before, flush=True)
    """)
    assert done.stdout.strip() == "restored True", done
    assert "Exception ignored" in done.stderr and "ValueError: finalizer fault" in done.stderr


def test_a_signal_taken_by_another_thread_is_deferred_then_acted_on():
    """The kernel gives a process-directed SIGINT to any thread not blocking it (numpy's OpenBLAS
    threads): the handler still runs in the main thread, and while deferring only records it."""
    done = _in_child("""
        import signal, threading, time
        from pqlab.pipeline import interrupts
        idle = threading.Thread(target=threading.Event().wait, daemon=True)
        idle.start()
        before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
        with interrupts.caught(deferring=True) as stop:
            signal.pthread_kill(idle.ident, signal.SIGINT)
            while stop.received is None:  # the other thread takes it when it runs: wait for that
                time.sleep(0.01)
            print("recorded", stop.received == signal.SIGINT, flush=True)  # no exception: the block goes on
            try:
                stop.check()
            except KeyboardInterrupt:
                print("acted on at the check", flush=True)
        try:
            with interrupts.caught() as stop:
                signal.pthread_kill(idle.ident, signal.SIGTERM)  # SIGTERM too, at once when not deferring
                while True:
                    time.sleep(0.01)
        except KeyboardInterrupt:
            print("stopped", stop.received == signal.SIGTERM, flush=True)
        print("restored", before == (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)))
    """)  # noqa: E501
    assert done.stdout.split("\n")[:4] == [
        "recorded True",
        "acted on at the check",
        "stopped True",
        "restored True",
    ], done


def test_a_ctrl_c_the_process_was_started_ignoring_stays_ignored():
    """A shell without job control starts a background job with SIGINT ignored: it stays ignored
    (as Unix programs do), SIGTERM still stops the run."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent("""
        import os, signal
        from pqlab.pipeline import interrupts
        with interrupts.caught() as stop:
            os.kill(os.getpid(), signal.SIGINT)
            (lambda: None)()
            print("ignored", stop.received, flush=True)
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                (lambda: None)()
            except KeyboardInterrupt:
                print("stopped by SIGTERM", flush=True)
    """),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    assert done.stdout.split("\n")[:2] == ["ignored None", "stopped by SIGTERM"], done


def test_outside_the_main_thread_nothing_is_installed():
    found = []

    def run():
        with interrupts.caught() as stop:
            found.append((stop.received, signal.getsignal(signal.SIGINT)))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert found == [(None, signal.getsignal(signal.SIGINT))]
