"""Ctrl-C recorded by :mod:`pqlab.pipeline.interrupts`: in whichever thread it lands, even where Python
drops its exception, deferred while a block must not be cut, and ignored when the process was started
ignoring it. Each signal is sent by the test itself at a known point: no timing."""

import signal
import subprocess
import sys
import textwrap
import threading

import pytest

from pqlab.pipeline import interrupts


def _in_child(body: str) -> subprocess.CompletedProcess:
    """Run ``body`` in a fresh interpreter whose SIGINT is at its default (whatever the harness's)."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(body)], capture_output=True, text=True, timeout=120,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def test_a_ctrl_c_whose_exception_a_finalizer_drops_is_still_acted_on():
    """A KeyboardInterrupt raised inside ``__del__`` is only printed ("Exception ignored in"): the run
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
    assert "Exception ignored" in done.stderr and "KeyboardInterrupt" in done.stderr


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
    """)
    assert done.stdout.split("\n")[:4] == ["recorded True", "acted on at the check", "stopped True",
                                           "restored True"], done


def test_a_ctrl_c_the_process_was_started_ignoring_stays_ignored():
    """A shell without job control starts a background job with SIGINT ignored: it stays ignored
    (as Unix programs do), SIGTERM still stops the run."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent("""
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
    """)], capture_output=True, text=True, timeout=120, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
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
