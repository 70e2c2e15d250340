"""How long the test suite takes: the README's test command, then the slow tier, with durations.

Runs ``python -m pytest -q --durations=0 -p no:cacheprovider`` (the README's command: pyproject's
pytest ``addopts`` leave the tests marked ``slow`` out) and then the same with ``-m slow`` (the
tier ``.ci/run`` runs after it), with this interpreter, from the checkout. For each tier it prints
the wall time (``time.perf_counter``), pytest's summary line, the sum of the per-test durations
(setup + call + teardown of every test over 5 ms, the floor of pytest's table: a figure less
sensitive than the wall time to collection and start-up, though still timed on a shared
machine) and the costliest tests and files.

Run: ``python benchmarks/test_suite_time.py [--tier default|slow|both] [--top 15] [-- PYTEST ARGS]``
(the whole suite: tens of minutes on 2 cores; ``--tier default`` alone: a few minutes). With
``--durations-file FILE`` it reads a saved ``--durations=0`` output instead of running pytest.

The file's name starts with ``test_`` but it holds no test: pytest's ``testpaths`` is ``tests``.
"""

from __future__ import annotations

import argparse
import re
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: One line of pytest's ``--durations`` table: seconds, phase, test id.
DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)s (setup|call|teardown)\s+(\S.*)$")
#: pytest's closing summary line (``1234 passed, 5 skipped in 61.02s (0:01:01)``, between ``=``
#: bars unless ``-q``).
SUMMARY = re.compile(
    r"^=* ?(\d+ (?:passed|failed|skipped|deselected|errors?)\b.* in [\d.]+s.*?)"
    r"(?: =+)?$|^=* ?(no tests ran.*?)(?: =+)?$"
)

TIERS = {"default": [], "slow": ["-m", "slow"]}


def per_test_seconds(output: str) -> dict[str, float]:
    """Seconds per test id (setup + call + teardown) from a ``--durations=0`` output.

    Parameters
    ----------
    output : str
        pytest's terminal output.

    Returns
    -------
    dict
        Test id -> seconds.
    """
    seconds: dict[str, float] = defaultdict(float)
    for line in output.splitlines():
        found = DURATION.match(line)
        if found:
            seconds[found.group(3).strip()] += float(found.group(1))
    return dict(seconds)


def summary_line(output: str) -> str:
    """pytest's closing summary line of ``output`` ("" when there is none)."""
    lines = [m.group(1) or m.group(2) for m in map(SUMMARY.match, output.splitlines()) if m]
    return lines[-1] if lines else ""


def report(name: str, output: str, wall_s: float | None, top: int) -> float:
    """Print one tier's totals and costliest tests; return the sum of its per-test seconds."""
    seconds = per_test_seconds(output)
    total_s = sum(seconds.values())
    by_file: dict[str, float] = defaultdict(float)
    for test, s in seconds.items():
        by_file[test.split("::", 1)[0]] += s
    wall = f"{wall_s:.1f} s wall, " if wall_s is not None else ""
    print(
        f"{name}: {wall}{total_s:.1f} s summed over {len(seconds)} tests of 5 ms or more "
        f"({summary_line(output)})"
    )
    for test, s in sorted(seconds.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {s:8.1f} s  {test}")
    print(f"  by file (top {top}):")
    for path, s in sorted(by_file.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {s:8.1f} s  {path}")
    return total_s


def run_tier(extra: list[str], passthrough: list[str]) -> tuple[str, float, int]:
    """Run pytest for one tier with ``--durations=0``: (output, wall seconds, exit code)."""
    argv = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "--durations=0",
        "-p",
        "no:cacheprovider",
        *extra,
        *passthrough,
    ]
    print("+", " ".join(argv[1:]), flush=True)
    start = time.perf_counter()
    # SIGINT at its default: the suite's Ctrl-C tests need it, and a shell's background job (this
    # script run with `&`) starts with SIGINT ignored, which its children would inherit.
    done = subprocess.run(
        argv,
        cwd=ROOT,
        capture_output=True,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    return done.stdout + done.stderr, time.perf_counter() - start, done.returncode


def main(argv: list[str] | None = None) -> int:
    """Run (or read) the tiers and print their totals; the exit code is pytest's worst (5 is 0)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tier", choices=("default", "slow", "both"), default="both")
    parser.add_argument("--top", type=int, default=15, help="costliest tests and files shown")
    parser.add_argument("--durations-file", type=Path, help="read this --durations=0 output")
    parser.add_argument("pytest_args", nargs="*", help="passed to pytest (after --)")
    args = parser.parse_args(argv)
    if args.durations_file:
        report(
            str(args.durations_file),
            args.durations_file.read_text(errors="replace"),
            None,
            args.top,
        )
        return 0
    tiers = list(TIERS) if args.tier == "both" else [args.tier]
    worst = 0
    totals = {}
    walls = {}
    for tier in tiers:
        output, walls[tier], code = run_tier(TIERS[tier], args.pytest_args)
        totals[tier] = report(tier, output, walls[tier], args.top)
        if code not in (0, 5):
            print(output[-3000:])
            worst = max(worst, code)
    if len(tiers) > 1:
        print(
            f"both tiers: {sum(walls.values()):.1f} s wall, "
            f"{sum(totals.values()):.1f} s summed per test"
        )
    return worst


if __name__ == "__main__":
    sys.exit(main())
