"""Where a reproduction's compute time goes: compiled kernels against the Python around them.

Usage::

    python benchmarks/profile_reproduce.py              # every paper notebook, full mode
    python benchmarks/profile_reproduce.py --quick      # the quick profile
    python benchmarks/profile_reproduce.py -n 10 -n 03  # some notebooks (number or name)
    python benchmarks/profile_reproduce.py --top 30     # more Python costs

Runs, in one process and without the results cache (``PQLAB_CACHE_DIR`` removed from the
environment, so every artefact is computed), the artefact computations of the paper notebooks:
each notebook's parameters cell (its defaults, as ``pqlab reproduce`` runs it) and its code cells
without the statements that draw, save or judge (a statement calling a ``figure*`` function or
a ``save_*`` one or naming ``claims`` or ``verdict``, and bare expressions that only display). Each
call of an artefact's
``compute`` is timed with :func:`time.perf_counter`.

Printed per notebook and for the whole reproduction: the time of the statements run ("cells"), the
compute time (the ``compute`` calls),
the time inside compiled (numba) code and its share, the number of calls into compiled code, the
simulations (:mod:`pqlab.base.counts`), and then, from a second pass under :mod:`cProfile`, the
top Python costs by own time and by cumulative time (with ``--all-cells``, also the time of every
figure saved by :func:`pqlab.papers.artefact_files.save`: "save s" and the slowest figures). Time in
compiled code is summed at every
call from Python into a numba dispatcher and at every call of the node kernel's entry point
(``pqlab.node.engine._kernel_entry``), outermost calls only.

numba's on-disk cache is warmed first by running the quick profile in a child process (skip with
``--no-warm``), so that compilation is not counted as kernel time. ``--all-cells`` runs every
statement of the notebooks (figures, claims, tables) to see what the rest of a notebook costs.

Its last figures, with the machine and the date: docs/performance.md.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import cProfile
import io
import json
import os
import pstats
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
#: A top-level statement matching this draws, saves or judges: not part of the compute.
SKIPPED = re.compile(r"\bfigure\w*\(|\bsave_|claims|verdict")


class KernelClock:
    """Perf-counter accumulator of the time spent in compiled code (outermost calls only)."""

    def __init__(self):
        self.seconds = 0.0
        self.calls = 0
        self._depth = 0

    def timed(self, func):
        def wrapper(*args, **kwargs):
            if self._depth:
                return func(*args, **kwargs)
            self._depth += 1
            started = time.perf_counter()
            try:
                return func(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - started
                self.calls += 1
                self._depth -= 1

        return wrapper

    def install(self) -> None:
        """Time every Python call into a numba dispatcher and into the node kernel's entry point."""
        from numba.core.registry import CPUDispatcher

        from pqlab.node import engine

        call = CPUDispatcher.__call__
        CPUDispatcher.__call__ = self.timed(call)  # compiled code calling compiled code is not seen
        entry = engine._kernel_entry
        engine._kernel_entry = lambda features: self.timed(entry(features))


def compute_source(notebook: Path, quick: bool, out: Path, everything: bool = False) -> str:
    """The notebook's parameters cell and code cells, without the statements that draw, save or
    judge
    (with ``everything``: all of them, bare expressions too)."""
    cells = [
        c
        for c in json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        if c["cell_type"] == "code"
    ]
    parts = []
    for cell in cells:
        source = "".join(cell["source"])
        if "parameters" in (cell.get("metadata", {}).get("tags") or []):
            parts.append(
                f"{source}\nquick = {quick!r}\nfigures_dir = {str(out / 'figures')!r}\n"
                f"results_dir = {str(out / 'results')!r}\n"
            )
            continue
        tree = ast.parse(source)
        lines = source.splitlines()
        for statement in tree.body:
            text = "\n".join(lines[statement.lineno - 1 : statement.end_lineno])
            if not everything and (isinstance(statement, ast.Expr) or SKIPPED.search(text)):
                continue
            parts.append(text)
    return "\n".join(parts) + "\n"


def wrap_computes(clock: dict) -> None:
    """Time every artefact's ``compute`` (``clock[id]`` accumulates seconds)."""
    from pqlab.papers import registry

    for art in registry.artefacts():
        module = sys.modules[art.module]  # imported by the registry
        compute = module.compute

        def timed(*args, _compute=compute, _id=art.id, **kwargs):
            started = time.perf_counter()
            try:
                return _compute(*args, **kwargs)
            finally:
                clock[_id] = clock.get(_id, 0.0) + time.perf_counter() - started

        module.compute = timed


def wrap_figure_saving(clock: dict) -> None:
    """Time every figure written by :func:`pqlab.papers.artefact_files.save` (``clock[file stem]``,
    seconds: both formats, the layout and the drawing), whether called as ``kit.save`` or by
    ``kit.save_figure``."""
    from pqlab.papers import artefact_files, kit

    save = artefact_files.save

    def timed(fig, stem, _save=save):
        started = time.perf_counter()
        try:
            return _save(fig, stem)
        finally:
            clock[Path(stem).name] = clock.get(Path(stem).name, 0.0) + time.perf_counter() - started

    kit.save = artefact_files.save = timed


def select(names) -> list[Path]:
    found = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    if not names:
        return found
    chosen = [
        nb
        for nb in found
        if any(nb.stem == n or nb.stem.startswith(n.zfill(2) + "_") for n in names)
    ]
    if len(chosen) < len(set(names)):
        raise SystemExit(f"unknown notebook in {names}; known: {[nb.stem for nb in found]}")
    return chosen


def run(
    notebooks, quick: bool, profiler: cProfile.Profile | None = None, everything: bool = False
) -> list[dict]:
    from pqlab.base import counts

    kernel = KernelClock()
    kernel.install()
    computes: dict = {}
    wrap_computes(computes)
    figures: dict = {}
    wrap_figure_saving(figures)
    rows = []
    with tempfile.TemporaryDirectory(prefix="pqlab-profile-") as tmp:
        for notebook in notebooks:
            code = compile(
                compute_source(notebook, quick, Path(tmp) / notebook.stem, everything),
                notebook.name,
                "exec",
            )
            exec_globals = {
                "__name__": "__main__",
                "display": lambda *args, **kwargs: None,
            }  # IPython's
            before = (
                sum(computes.values()),
                kernel.seconds,
                kernel.calls,
                counts.counts().get("simulation", 0),
                sum(figures.values()),
            )
            started = time.perf_counter()
            if profiler is not None:
                profiler.enable()
            try:
                with contextlib.redirect_stdout(io.StringIO()):  # what the notebooks print
                    exec(code, exec_globals)
            finally:
                if profiler is not None:
                    profiler.disable()
            wall = time.perf_counter() - started
            rows.append(
                {
                    "notebook": notebook.stem,
                    "cells_s": wall,
                    "compute_s": sum(computes.values()) - before[0],
                    "kernel_s": kernel.seconds - before[1],
                    "kernel_calls": kernel.calls - before[2],
                    "simulations": counts.counts().get("simulation", 0) - before[3],
                    "save_s": sum(figures.values()) - before[4],
                }
            )
    if figures:
        rows.append({"figures": figures})
    return rows


def print_rows(rows, top: int = 10) -> None:
    figures = next((r["figures"] for r in rows if "figures" in r), {})
    rows = [r for r in rows if "figures" not in r]
    print(
        f"{'notebook':<40} {'cells s':>8} {'compute s':>9} {'kernel s':>9} {'share':>6}"
        f" {'k. calls':>8} {'sims':>6} {'save s':>7}"
    )
    keys = ("cells_s", "compute_s", "kernel_s", "kernel_calls", "simulations", "save_s")
    total = {k: sum(r[k] for r in rows) for k in keys}
    for r in [*rows, {"notebook": "whole reproduction", **total}]:
        share = r["kernel_s"] / r["compute_s"] if r["compute_s"] else float("nan")
        print(
            f"{r['notebook']:<40} {r['cells_s']:8.2f} {r['compute_s']:9.2f} {r['kernel_s']:9.2f}"
            f" {share:6.1%} {r['kernel_calls']:8d} {r['simulations']:6d} {r['save_s']:7.2f}"
        )
    if figures:
        print(
            f"\nfigures saved (PNG + PDF), {len(figures)} in {sum(figures.values()):.2f} s; the"
            f" slowest {top}:"
        )
        for name, seconds in sorted(figures.items(), key=lambda item: -item[1])[:top]:
            print(f"  {name:<45} {seconds:6.2f} s")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "-n", "--notebook", action="append", default=[], help="notebook number or name (repeat)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="the quick profile (small sample counts, one seed)"
    )
    parser.add_argument("--top", type=int, default=20, help="Python costs listed (default 20)")
    parser.add_argument("--no-cprofile", action="store_true", help="skip the cProfile pass")
    parser.add_argument("--no-warm", action="store_true", help="do not warm numba's cache first")
    parser.add_argument(
        "--save", type=Path, default=None, help="write the cProfile statistics to this file"
    )
    parser.add_argument(
        "--all-cells",
        action="store_true",
        help=(
            "run every statement of the notebooks (figures, claims, tables) too; 'cells s' "
            "then is their time, 'compute s' still the compute calls'"
        ),
    )
    parser.add_argument("--pass-only", choices=("time", "cprofile"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    os.environ.pop("PQLAB_CACHE_DIR", None)  # no results cache: every artefact is computed
    os.environ.pop("PQLAB_CACHE_LOG", None)
    os.environ.setdefault("MPLBACKEND", "Agg")
    notebooks = select(args.notebook)
    if args.pass_only is None:
        chosen = [a for n in args.notebook for a in ("-n", n)]
        common = (
            chosen
            + (["--quick"] if args.quick else [])
            + (["--all-cells"] if args.all_cells else [])
        )
        if not args.no_warm:
            subprocess.run(
                [sys.executable, __file__, "--quick", "--pass-only", "time", *chosen],
                check=True,
                stdout=subprocess.DEVNULL,
            )
        print(
            f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, {os.cpu_count()} cores, "
            f"{'quick' if args.quick else 'full'} mode; a process per pass"
        )
        subprocess.run(
            [sys.executable, __file__, "--pass-only", "time", "--top", str(args.top), *common],
            check=True,
        )
        if not args.no_cprofile:
            save = [] if args.save is None else ["--save", str(args.save)]
            subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--pass-only",
                    "cprofile",
                    "--top",
                    str(args.top),
                    *save,
                    *common,
                ],
                check=True,
            )
        return 0
    if args.pass_only == "time":
        print_rows(run(notebooks, args.quick, everything=args.all_cells), args.top)
        return 0
    profiler = cProfile.Profile()
    run(notebooks, args.quick, profiler, everything=args.all_cells)
    if args.save is not None:
        profiler.dump_stats(args.save)
    for order in ("tottime", "cumulative"):
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats(order).print_stats(args.top)
        body = text.getvalue()
        print(f"\ncProfile, top {args.top} by {order} (times inflated by the profiler):")
        print(body[body.find("   ncalls") :].rstrip())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
