"""Time ``pqlab reproduce``: cold cache, warm rerun, and a rerun after one notebook's parameter changed.

Usage::

    python benchmarks/reproduce.py            # the full reproduction (papers' sample counts)
    python benchmarks/reproduce.py --quick    # quick mode, as the tests run it

Each run goes into a fresh temporary tree (``--out``), from a copy of the paper notebooks so
that one parameter can be changed without touching the repository: ``05_worst_case``'s
``burst_packets`` (12 -> 11). Printed per run: wall time, artefacts computed and reused, and
simulations, counted by :mod:`pqlab.cache`. The targets (issue 10, 2 cores): cold < 45 s,
warm < 5 s, the changed run recomputing only the changed section.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from pqlab import paths, reproduce

CHANGED_NOTEBOOK = "05_worst_case"
CHANGED_FROM, CHANGED_TO = "burst_packets: int = 12", "burst_packets: int = 11"


def _timed(label: str, folder: Path, tree: Path, quick: bool, jobs: int | None) -> reproduce.ReproduceResult:
    started = time.perf_counter()
    result = reproduce.run_all([folder], quick=quick, out_dir=tree / "figures", build_dir=tree / "build",
                               progress=False, jobs=jobs)
    seconds = time.perf_counter() - started
    counts = result.cache_counts
    slowest = ", ".join(f"{r.name} {r.seconds:.1f} s" for r in sorted(result.runs, key=lambda r: -r.seconds)[:3])
    print(f"{label:<28} {seconds:7.1f} s  ok={result.ok}  computed {counts.get('computed', 0):3d}  "
          f"reused {counts.get('reused', 0):3d}  simulations {counts.get('simulation', 0):5d}  (slowest: {slowest})")
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="quick mode (small sample counts)")
    parser.add_argument("--jobs", type=int, default=None, help="notebooks at once (default: cores)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pqlab-bench-") as tmp:
        tmp = Path(tmp)
        notebooks = tmp / "notebooks"
        notebooks.mkdir()
        for source in paths.NOTEBOOKS.glob("*.ipynb"):
            shutil.copyfile(source, notebooks / source.name)
        tree = tmp / "tree"
        print(f"pqlab reproduce{' --quick' if args.quick else ''}, {len(list(notebooks.glob('*.ipynb')))} notebooks")
        _timed("cold cache", notebooks, tree, args.quick, args.jobs)
        _timed("warm rerun, nothing changed", notebooks, tree, args.quick, args.jobs)
        changed = notebooks / f"{CHANGED_NOTEBOOK}.ipynb"
        text = changed.read_text(encoding="utf-8")
        if CHANGED_FROM not in text:
            raise SystemExit(f"{changed.name} has no '{CHANGED_FROM}' to change")
        changed.write_text(text.replace(CHANGED_FROM, CHANGED_TO), encoding="utf-8")
        result = _timed(f"{CHANGED_NOTEBOOK} param changed", notebooks, tree, args.quick, args.jobs)
        print(f"  computed in that run: {result.cache_counts.get('computed', 0)} artefact(s) "
              f"(only {CHANGED_NOTEBOOK}'s that depend on burst_packets)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
