"""Time ``pqlab reproduce``: cold (two definitions), warm rerun, and a rerun after one parameter
changed.

Usage::

    python benchmarks/reproduce.py            # the full reproduction (papers' sample counts)
    python benchmarks/reproduce.py --quick    # quick mode, as the tests run it

Runs go into a temporary tree (or ``--keep DIR``), from a copy of the paper notebooks so that one
parameter can be changed without touching the repository: ``05_worst_case``'s
``burst_packets`` (12 -> 11). The runs, in order:

1. **fully cold**: empty results cache (fresh tree) AND empty numba cache (``NUMBA_CACHE_DIR``
   set to a fresh empty folder for this script, inherited by every notebook's kernel), so
   every kernel is compiled once (then read from that folder by the other notebooks);
2. **warm rerun**, nothing changed (target < 5 s, simulations = 0);
3. **one parameter changed** in ``05_worst_case``: only that section's artefacts that depend
   on it are computed;
4. **results-cold, numba warm**: a second fresh tree with the numba cache of run 1.

Printed per run: wall time, CPU time of the whole build (this process, its workers and their
kernels: what two cores share), artefacts computed and reused, and simulations, counted by
:mod:`pqlab.measure.cache`, and the slowest notebooks. The target (issue 10, 2 cores): cold < 45 s.

Its last figures, with the machine and the date: docs/performance.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from pqlab.base import locations
from pqlab.pipeline import reproduce, schedule

CHANGED_NOTEBOOK = "05_worst_case"
CHANGED_FROM, CHANGED_TO = "burst_packets: int = 12", "burst_packets: int = 11"


def machine_speed_s() -> float:
    """Seconds a fixed pure-Python loop takes (20 million additions): the VM's speed at that moment.

    This shared VM's speed varies: within minutes this loop took 1.1 to 1.8 s (Python 3.11,
    2026-11-23), and the same code's fully cold reproduction took 37 s at 13:00 and 73-76 s at
    13:55 (the commit measured at 37 s and the final one, alternated: 75.8/72.7 and 75.0/77.9 s).
    Compare reproduce times only between runs made close together, or with similar values.
    """
    started = time.perf_counter()
    total = 0
    for i in range(20_000_000):
        total += i
    return time.perf_counter() - started


def _cpu_s() -> float:
    """CPU seconds (user + system) of this process and of its ended, waited-for descendants:
    the workers and, through them, their kernels."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    ended = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + ended.ru_utime + ended.ru_stime


def _timed(
    label: str, folder: Path, tree: Path, quick: bool, jobs: int | None
) -> reproduce.ReproduceResult:
    started, cpu = time.perf_counter(), _cpu_s()
    result = reproduce.run_all(
        [folder],
        quick=quick,
        out_dir=tree / "figures",
        build_dir=tree / "build",
        progress=False,
        jobs=jobs,
    )
    seconds, cpu = time.perf_counter() - started, _cpu_s() - cpu
    counts = result.cache_counts
    slowest = ", ".join(
        f"{r.name} {r.seconds:.1f} s" for r in sorted(result.runs, key=lambda r: -r.seconds)[:3]
    )
    print(
        f"{label:<28} {seconds:7.1f} s  CPU {cpu:5.1f} s  ok={result.ok}  "
        f"computed {counts.get('computed', 0):3d}  reused {counts.get('reused', 0):3d}  "
        f"simulations {counts.get('simulation', 0):5d}  (slowest: {slowest})"
    )
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--quick", action="store_true", help="quick mode (small sample counts)")
    parser.add_argument("--jobs", type=int, default=None, help="notebooks at once (default: cores)")
    parser.add_argument(
        "--write-order",
        action="store_true",
        help=(
            "write the results-cold run's notebook times to data/notebook_seconds.json "
            "(the order of a build folder's first run; full mode only)"
        ),
    )
    parser.add_argument(
        "--keep",
        type=Path,
        default=None,
        help="empty folder to run in and keep (e.g. to compare its figures/report.csv)",
    )
    args = parser.parse_args(argv)
    if args.keep is not None and args.keep.exists() and any(args.keep.iterdir()):
        raise SystemExit(f"--keep {args.keep}: the folder must be empty or not exist")
    with (
        contextlib.nullcontext(str(args.keep))
        if args.keep is not None
        else tempfile.TemporaryDirectory(prefix="pqlab-bench-")
    ) as tmp:
        tmp = Path(tmp)
        tmp.mkdir(parents=True, exist_ok=True)
        notebooks = tmp / "notebooks"
        notebooks.mkdir()
        for source in locations.NOTEBOOKS.glob("*.ipynb"):
            shutil.copyfile(source, notebooks / source.name)
        os.environ["NUMBA_CACHE_DIR"] = str(tmp / "numba")  # empty: numba compiles on first use
        tree = tmp / "tree"
        print(
            f"pqlab reproduce{' --quick' if args.quick else ''},"
            f" {len(list(notebooks.glob('*.ipynb')))} notebooks; machine speed"
            f" {machine_speed_s():.2f} s (a fixed Python loop: lower is faster)"
        )
        _timed("fully cold (results+numba)", notebooks, tree, args.quick, args.jobs)
        _timed("warm rerun, nothing changed", notebooks, tree, args.quick, args.jobs)
        changed = notebooks / f"{CHANGED_NOTEBOOK}.ipynb"
        text = changed.read_text(encoding="utf-8")
        if CHANGED_FROM not in text:
            raise SystemExit(f"{changed.name} has no '{CHANGED_FROM}' to change")
        changed.write_text(text.replace(CHANGED_FROM, CHANGED_TO), encoding="utf-8")
        result = _timed(f"{CHANGED_NOTEBOOK} param changed", notebooks, tree, args.quick, args.jobs)
        print(
            f"  computed in that run: {result.cache_counts.get('computed', 0)} artefact(s) "
            f"(only {CHANGED_NOTEBOOK}'s that depend on burst_packets)"
        )
        changed.write_text(text, encoding="utf-8")
        result = _timed("results-cold, numba warm", notebooks, tmp / "tree2", args.quick, args.jobs)
        print(f"machine speed after the runs {machine_speed_s():.2f} s")
        if args.write_order and not args.quick and result.ok:
            seconds = {r.name: round(r.seconds, 1) for r in result.runs}
            schedule.SHIPPED_SECONDS.write_text(
                json.dumps(seconds, indent=1, sort_keys=True) + "\n", encoding="utf-8"
            )
            print(f"wrote {schedule.SHIPPED_SECONDS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
