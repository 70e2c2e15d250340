"""Memory and time of long streaming runs, with and without quantiles, each in a fresh process.

Runs ``pqlab.streaming.simulate_summary`` on the papers' base case (S1: one EF CBR stream of
300 kbit/s, 20 BE CBR streams overloading the 2 Mbit/s ATM line) stretched to 1e6, 1e7 and 1e8
packets, once with the default percentiles and once with ``percentiles=None``, each case in a new
Python process (numba's on-disk cache warm: a small run first loads the kernels). For every run
it prints:

* the wall time of the ``simulate_summary`` call (``time.perf_counter``), its packets per second
  and its CPU time (``time.process_time``: less sensitive than the wall time to other jobs on a
  shared machine);
* the process's resident memory before that call (imports and loaded kernels: what the run
  itself does not hold) and its peak resident memory (``ru_maxrss`` of that one child, from
  ``os.wait4``, the figure ``/usr/bin/time -v`` prints as "Maximum resident set size");
* with ``--tracemalloc``, the peak of the Python/numpy allocations during the call (a separate
  run: tracing slows it down).

With ``--marked``, each BE stream has a trTCM marker (RFC 2698; CIR 50 kbit/s, PIR 100 kbit/s):
the colours are computed window by window and the summary counts the packets per colour.
With ``--ci 0.95``, the summary also gives each class's confidence intervals of one run (batch
means and sectioning over ``n_batches=20`` batches of time: a sum, a count and, with quantiles, a
log-binned histogram per class and batch).

Then, per size, the medians over ``--repeats`` runs (with and without quantiles alternate, so both
see the same load) and the ratios of the times with and without quantiles. The machine, the date
and the versions head the output. Usage::

    python benchmarks/streaming_memory.py                     # 1e6, 1e7, 1e8; 1 run each
    python benchmarks/streaming_memory.py --packets 1e6 1e7 --repeats 3 --tracemalloc
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
n_packets, window_s = float(sys.argv[1]), float(sys.argv[2])
with_quantiles, trace, marked = sys.argv[3] == "yes", sys.argv[4] == "yes", sys.argv[5] == "yes"
ci = None if sys.argv[6] == "none" else float(sys.argv[6])
from dataclasses import replace
import numpy as np
from pqlab import scenarios
from pqlab.streaming import simulate_summary
from pqlab.traffic import merge_streams

def resident_mib():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024

kw = {} if with_quantiles else {"percentiles": None}
if ci is not None:
    kw["ci"] = ci
base = scenarios.base_case()
_, _, _, flow = merge_streams(base.streams, np.random.default_rng(1), base.duration_s)
per_ef = flow.size / np.count_nonzero(flow == scenarios.REFERENCE_FLOW)  # packets per EF sample

def marking(scenario):
    # the scenario, its BE streams with a trTCM each when marked
    if not marked:
        return scenario
    from pqlab import TrTCM
    marker = TrTCM(5e4, 3000, 1e5, 6000)
    return replace(scenario, streams=[replace(s, marker=marker) if s.queue else s
                                      for s in scenario.streams])

# the kernels
simulate_summary(marking(scenarios.base_case(n_ef_samples=100)), seed=1, window_s=1.0, **kw)
scenario = marking(scenarios.base_case(n_ef_samples=int(n_packets / per_ef)))
before = resident_mib()
if trace:
    import tracemalloc
    tracemalloc.start()
t0, c0 = time.perf_counter(), time.process_time()
ds = simulate_summary(scenario, seed=1, window_s=window_s, **kw)
seconds, cpu_seconds = time.perf_counter() - t0, time.process_time() - c0
traced = tracemalloc.get_traced_memory()[1] / 2**20 if trace else None
print(json.dumps({"packets": int(ds.sent.sum()), "seconds": seconds, "cpu_seconds": cpu_seconds,
                  "before_mib": before, "traced_mib": traced,
                  "self_peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run_case(
    n_packets: float,
    window_s: float,
    with_quantiles: bool,
    trace: bool = False,
    marked: bool = False,
    ci: float | None = None,
) -> dict:
    """One run in a fresh process: its printed record plus its peak RSS from ``os.wait4``."""
    args = [
        sys.executable,
        "-c",
        CHILD,
        repr(n_packets),
        repr(window_s),
        "yes" if with_quantiles else "no",
        "yes" if trace else "no",
        "yes" if marked else "no",
        "none" if ci is None else repr(ci),
    ]
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)  # this child's own resource usage
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise RuntimeError(f"the run of {n_packets:g} packets failed:\n{out}")
    record = json.loads(out.strip().splitlines()[-1])
    record["peak_mib"] = usage.ru_maxrss / 1024  # KiB on Linux
    return record


def machine() -> str:
    """The CPU, cores and load, as this benchmark's numbers depend on them."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            model = next(
                line.split(":", 1)[1].strip() for line in info if line.startswith("model name")
            )
    except (OSError, StopIteration):
        pass
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"{model}, {os.cpu_count()} cores, load average {load}"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--packets",
        type=float,
        nargs="+",
        default=[1e6, 1e7, 1e8],
        help="run sizes, packets offered (default 1e6 1e7 1e8)",
    )
    parser.add_argument(
        "--repeats", type=int, default=1, help="runs of each case (median reported)"
    )
    parser.add_argument(
        "--window-s",
        type=float,
        default=10.0,
        help="simulate_summary's window_s (default 10, its default)",
    )
    parser.add_argument(
        "--tracemalloc",
        action="store_true",
        help="also one traced run per case: peak of the Python/numpy allocations",
    )
    parser.add_argument(
        "--marked", action="store_true", help="each BE stream with a trTCM marker (colours counted)"
    )
    parser.add_argument(
        "--ci",
        type=float,
        default=None,
        help="confidence level of the per-class intervals (default: none)",
    )
    args = parser.parse_args(argv)
    import numba
    import numpy

    import pqlab

    print(f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; {machine()}")
    print(
        f"pqlab {pqlab.__version__}, python {platform.python_version()}, "
        f"numpy {numpy.__version__}, numba {numba.__version__}; S1 base case, "
        f"window_s={args.window_s:g}{', BE streams marked' if args.marked else ''}"
        f"{'' if args.ci is None else f', ci={args.ci:g}'}, "
        "fresh process per run"
    )
    print(
        f"{'packets':>12} {'quantiles':>9} {'wall s':>7} {'Mpkt/s':>6} {'CPU s':>6} "
        f"{'RSS before MiB':>14} {'peak RSS MiB':>12} {'traced MiB':>10}"
    )
    for n_packets in args.packets:
        runs = {True: [], False: []}
        for _ in range(args.repeats):
            for with_quantiles in (True, False):
                r = run_case(
                    n_packets, args.window_s, with_quantiles, marked=args.marked, ci=args.ci
                )
                runs[with_quantiles].append(r)
                print(_row(r, with_quantiles), flush=True)
        if args.tracemalloc:
            for with_quantiles in (True, False):
                r = run_case(
                    n_packets,
                    args.window_s,
                    with_quantiles,
                    trace=True,
                    marked=args.marked,
                    ci=args.ci,
                )
                print(_row(r, with_quantiles, traced=True), flush=True)
        med = {
            q: {
                k: statistics.median(r[k] for r in runs[q])
                for k in ("seconds", "cpu_seconds", "peak_mib")
            }
            for q in runs
        }
        print(
            f"  {n_packets:.0e} packets, medians of {args.repeats}: with quantiles "
            f"{med[True]['seconds']:.2f} s wall, {med[True]['cpu_seconds']:.2f} s CPU, "
            f"{med[True]['peak_mib']:.0f} MiB peak; without {med[False]['seconds']:.2f} s wall, "
            f"{med[False]['cpu_seconds']:.2f} s CPU, {med[False]['peak_mib']:.0f} MiB peak; "
            "ratio "
            f"{med[True]['seconds'] / med[False]['seconds']:.2f} wall, "
            f"{med[True]['cpu_seconds'] / med[False]['cpu_seconds']:.2f} CPU",
            flush=True,
        )


def _row(r: dict, with_quantiles: bool, traced: bool = False) -> str:
    """One run's line of the table (a traced run: its allocations' peak, not its times)."""
    times = (
        f"{'(traced)':>7} {'':>6} {'':>6}"
        if traced
        else f"{r['seconds']:7.2f} {r['packets'] / r['seconds'] / 1e6:6.2f} {r['cpu_seconds']:6.2f}"
    )
    traced_mib = f"{r['traced_mib']:10.1f}" if traced else ""
    return (
        f"{r['packets']:>12,} {'yes' if with_quantiles else 'no':>9} {times} "
        f"{r['before_mib']:14.0f} {r['peak_mib']:12.0f} {traced_mib}"
    )


if __name__ == "__main__":
    main()
