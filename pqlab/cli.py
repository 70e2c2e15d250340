"""pqlab: the router of Ferrari, Pau and Raffaelli (GLOBECOM'01) simulated, its figures reproduced.

pqlab demo simulates the papers' base case (EF 300 kbit/s of 128-byte packets behind 20 BE CBR
streams of 1000-byte payload on the Cisco 7200 ATM node), prints EF delay statistics next to the
GLOBECOM'01 Table IV bound and writes a figure of the delay distribution into a new scratch
folder (./pqlab-scratch/demo-<time>) or the folder --out names, never into a published
reproduction.

pqlab reproduce runs every paper notebook with papermill and publishes the figures, the
paper-vs-reproduced report (report.md, report.html) and a static site. Exit codes: 0 done,
1 a notebook failed (nothing published), 2 bad arguments or an unusable output folder (nothing
touched), 3 another run holds the tree (nothing left behind), 4 the reproduction could not be
written (a full disk, an I/O error; nothing published, nothing left behind), 130 interrupted.
A notebook whose kernel hung, died or ran out of memory, or that ran over --notebook-timeout or
--cell-timeout, is a failed notebook (1), the cause named.

pqlab reproduce -p NOTEBOOK:NAME=VALUE (repeatable) sets a parameter of one notebook's parameters
cell for the run. NOTEBOOK is named as --notebooks and pqlab params name it: its name
(01_background_traffic), number (01), path, or the id of an artefact it runs. Refused before
anything runs (exit 2): an unknown notebook or name, a value of the wrong type or outside the
range its comment declares ([MIN..MAX]), one parameter given twice, and with --quick a parameter
the notebook's quick profile sets (its value would not be used).

pqlab params [NOTEBOOK ...] lists the parameters every notebook has once, then each notebook's
own: type, default, comment and range (--json: every notebook's, machine-readable).

pqlab lab [DIR] copies the teaching lab's notebooks into DIR and starts JupyterLab.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
import time
import warnings
from pathlib import Path

# pqlab's modules are imported by the commands, inside main()'s handling of Ctrl-C (one line,
# exit 130); a Ctrl-C while pqlab's package is imported is handled in pqlab/__init__.py.


def _demo(args) -> int:
    import matplotlib

    matplotlib.use("Agg")
    import numpy as np

    from ._version import __version__
    from .measure import bounds, metrics
    from .node.scenario import simulate
    from .node.traffic import UDP_IP_HEADER_BYTES
    from .papers import kit, presets
    from .papers.stated import transmission_unit_s

    out = _demo_folder(args.out)  # checked before the simulation, made after it
    started = time.perf_counter()
    sc = presets.base_case(be_payload_bytes=args.be_payload_bytes, n_ef_samples=args.n_ef_samples)
    ds = simulate(sc, seed=args.seed)
    elapsed = time.perf_counter() - started

    node = sc.node
    ef = (ds["flow"] == presets.REFERENCE_FLOW) & (ds.arrival >= sc.warmup_s)
    delay = metrics.one_way_delay(ds, sc.path).where(ef, drop=True).values
    unit_s = transmission_unit_s(node)  # one transmission unit: the line time of the EF packet
    stats = metrics.summary(delay)
    loss = metrics.loss(ds.where(ef, drop=True), by="flow")

    be_ip_bytes = args.be_payload_bytes + UDP_IP_HEADER_BYTES
    k = math.ceil(be_ip_bytes / node.particle_bytes)
    rho = node.queues[presets.EF_QUEUE].police_rate_bps / node.line_rate_bps
    bound = bounds.worst_case_delay(
        k,
        rho,
        node.ring_limit_particles,
        bounds.particle_time_s(node.particle_bytes, node.line_rate_bps),
    )

    print(f"pqlab {__version__} demo: {sc.name}, seed {args.seed}")
    print(
        f"  {ds.sizes['packet']:,} packets simulated in {elapsed:.2f} s (including numba start-up)"
    )
    print(f"  EF reference packets after warm-up: {delay.size:,}; lost: {int(loss['lost'].sum())}")
    print(
        "  EF one-way delay (simulated C7200 node + the papers' uncongested path,"
        " pqlab.scenarios.paper_path):"
    )
    for name in ("mean", "std", "min", "max"):
        print(
            f"    {name:>4}: {stats[name] * 1e3:8.3f} ms = {stats[name] / unit_s:6.2f} transmission"
            " units"
        )
    print(
        f"  Table IV worst-case average bound for k = {k} ({be_ip_bytes}-byte BE packets, "
        f"rho = {rho:.2f}, Q_t = {node.ring_limit_particles}): W = {bound.w_s * 1e3:.3f} ms"
    )
    print(f"  one transmission unit (128-byte EF packet on {node.framing}) = {unit_s * 1e3:.3f} ms")

    out = _made(out)
    fig = kit.delay_distribution(
        delay,
        unit_s=unit_s,
        bound_s=bound.w_s,
        title=(
            f"EF one-way delay, BE payload {args.be_payload_bytes} bytes (pqlab {__version__}, seed"
            f" {args.seed})"
        ),
    )
    for path in kit.save(fig, out / "demo_ef_delay"):
        print(f"  wrote {path}")
    if args.save_data:
        nc = out / "demo_packets.nc"
        ds.to_netcdf(nc, engine="h5netcdf")
        print(f"  wrote {nc}")
    return 0 if np.isfinite(stats["mean"]) else 1


def _demo_folder(out) -> Path | None:
    """The folder ``pqlab demo --out`` names, absolute (None: none named); never inside a
    published reproduction: the default figures folder, or any folder holding a publish record
    (:data:`pqlab.pipeline.publish.MANIFEST`; a ValueError naming it)."""
    import os

    from .base import locations
    from .pipeline.publish import MANIFEST

    if out is None:
        return None
    folder = Path(out).resolve()
    figures = Path(locations.FIGURES).resolve()
    for published in (folder, *folder.parents):
        if published == figures or os.path.isfile(published / MANIFEST):
            raise ValueError(
                f"--out {folder} is inside the published figures folder {published}, "
                "which only pqlab reproduce writes; name another folder (default: a "
                "new scratch folder)"
            )
    return folder


def _made(folder: Path | None) -> Path:
    """``folder`` (created), or a new scratch folder ``./pqlab-scratch/demo-<time>`` if None."""
    from .base import locations

    if folder is None:
        return locations.scratch_dir("demo")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _reproduce(args) -> int:
    if args.list:
        from .papers.registry import listing

        print(listing())
        return 0
    from .base import versions
    from .pipeline import parameters, report
    from .pipeline._notebook_worker import skip_unneeded_imports
    from .pipeline.publish import OutputError
    from .pipeline.reproduce import Interrupted, run_all
    from .pipeline.runlock import RunLocked

    skip_unneeded_imports()  # the command's own process: nbconvert's import 1.6 s shorter
    started = time.perf_counter()
    figures_dir, build_dir = _output_dirs(args)
    overrides = parameters.collect(args.parameters)
    try:
        with _warnings_as_lines():
            result = run_all(
                args.notebooks,
                quick=args.quick,
                out_dir=figures_dir,
                build_dir=build_dir,
                seed=args.seed,
                progress=not args.no_progress,
                paper_values=args.paper_values,
                jobs=args.jobs,
                site=not args.no_site,
                force=args.force,
                wait_s=args.wait,
                notebook_timeout_s=args.notebook_timeout,
                cell_timeout_s=args.cell_timeout,
                parameters=overrides,
            )
    except RunLocked as exc:
        print(f"pqlab: {exc}", file=sys.stderr)
        return 3
    except OutputError as exc:
        print(f"pqlab: error: {exc}", file=sys.stderr)
        return 4
    except Interrupted as exc:  # what is on disk: published whole (0), or unchanged (130)
        print(f"pqlab: {exc}", file=sys.stderr)
        return 0 if exc.published else 130
    print("Verdicts per artefact (the papers' node model):")
    print(report.verdict_summary(result.report).to_string())
    print(
        f"The papers' numeric measured results within {report.TOLERANCE_PERCENT:g} %, "
        "per model and role:"
    )
    print(report.measured_counts(result.report).to_string(index=False))
    print("Notebooks (wall time):")
    for run in result.runs:
        print(f"  {run.name:<40} {run.status:<6} {run.seconds:8.1f} s")
    if result.up_to_date:
        print(f"  up to date, not rerun: {', '.join(result.up_to_date)}")
    others = [n for n in result.kept_sections if n not in result.up_to_date]
    if others:
        print(f"  kept from earlier runs: {', '.join(others)}")
    counts = result.cache_counts
    print(
        f"  cache: {counts.get('computed', 0)} artefacts computed, {counts.get('reused', 0)}"
        f" reused, {counts.get('simulation', 0)} simulations"
    )
    print(f"  total wall time {time.perf_counter() - started:.1f} s")
    provenance = parameters.provenance_text(result.parameters)
    if provenance:
        print(provenance)
    print(f"Report: {result.report_dir / 'report.md'} and report.html")
    off_lock = versions.differences_text(versions.lock_differences())
    if off_lock:
        print(f"Note: {off_lock} (the report says so too)")
    if result.site_index is not None:
        print(f"Site: {result.site_index}")
    if not result.html_exported:
        print("(nbconvert not installed: executed notebooks not written as HTML)")
    for failure in result.failures:
        print(f"pqlab: {failure}", file=sys.stderr)
        print(f"  executed notebook: {failure.executed}", file=sys.stderr)
    if not result.published:
        print(
            "pqlab: the run failed and was not published; the previous reproduction is unchanged. "
            f"This run's report: {result.report_dir / 'report.md'}",
            file=sys.stderr,
        )
    return 0 if result.ok else 1


def _params(args) -> int:
    import json

    from .pipeline import parameters
    from .pipeline._notebook_worker import skip_unneeded_imports

    skip_unneeded_imports()  # papermill reads the cells: its import without the slow optional one
    listed = {
        source.stem: parameters.read_parameters(source)
        for source in parameters.find_notebooks(args.notebooks or None)
    }
    if args.json:
        print(
            json.dumps(
                {name: [p.to_dict() for p in found] for name, found in listed.items()}, indent=1
            )
        )
        return 0
    shared = _shared_parameters(listed) if len(listed) > 1 else {}
    own = {
        name: [
            p for p in found if p.name not in shared or _listed_as(p) != _listed_as(shared[p.name])
        ]
        for name, found in listed.items()
    }
    width = max(
        (len(p.name) for found in (shared.values(), *own.values()) for p in found), default=0
    )
    if shared:
        print(f"Every notebook ({len(listed)}) has:")
        for p in shared.values():
            print(_parameter_line(p, width))
    for name, found in own.items():
        heading = (" also has:" if found else " (only the shared ones)") if shared else ""
        print(name + heading)
        for p in found:
            print(_parameter_line(p, width))
        if not listed[name]:
            print("  (no parameters cell)")
    print(
        "Set one for a run: pqlab reproduce -p NOTEBOOK:NAME=VALUE (NOTEBOOK: its name or number,"
        " e.g. 01)"
    )
    return 0


def _listed_as(p) -> tuple:
    """What ``pqlab params`` compares to list a parameter once for all notebooks (not the
    comment)."""
    return p.type, repr(p.default), p.minimum, p.maximum, p.set_by


def _shared_parameters(listed: dict) -> dict:
    """The parameters every listed notebook has, in the first notebook's order, each as most
    notebooks declare it (a notebook declaring it otherwise lists it as its own)."""
    from collections import Counter

    names = set.intersection(*({p.name for p in found} for found in listed.values()))
    shared = {}
    for p in next(iter(listed.values())):
        if p.name in names:
            forms = Counter(
                _listed_as(q) for found in listed.values() for q in found if q.name == p.name
            )
            common = forms.most_common(1)[0][0]
            shared[p.name] = next(
                q
                for found in listed.values()
                for q in found
                if q.name == p.name and _listed_as(q) == common
            )
    return shared


def _parameter_line(p, width: int) -> str:
    """One row of ``pqlab params``: name, type, default, range and comment."""
    notes = (
        [p.comment]
        + ([f"[{p.range_text()}]"] if p.range_text() else [])
        + ([f"[set by pqlab reproduce {p.set_by}]"] if p.set_by else [])
    )
    text = " ".join(n for n in notes if n)
    return f"  {p.name:<{width}}  {p.type:<5}  {p.default!r:<8}  {text}".rstrip()


@contextlib.contextmanager
def _warnings_as_lines():
    """Show warnings as ``pqlab: warning: ...`` lines on stderr (no file and line of pqlab's
    code)."""

    def show(message, category, filename, lineno, file=None, line=None):
        print(f"pqlab: warning: {message}", file=sys.stderr)

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield


def _output_dirs(args) -> tuple[Path, Path]:
    """(figures folder, build folder) of ``pqlab reproduce`` from ``--out``/``--build``."""
    from .base import locations

    if args.out is None:
        figures_dir, build_dir = locations.FIGURES, locations.BUILD
    else:
        root = Path(args.out)
        if root.exists() and not root.is_dir():
            raise ValueError(f"--out must be a folder, {root} is a file")
        figures_dir, build_dir = root / "figures", root / "build"
    return figures_dir, Path(args.build) if args.build else build_dir


def _lab(args) -> int:
    from .lab import jupyter as labfolder

    done = labfolder.copy_notebooks(args.dir, force=args.force)
    for kind, files in done.items():
        for file in files:
            print(f"  {kind:<9} {file}")
    if done["kept"]:
        print(
            f"  ({len(done['kept'])} edited notebook(s) kept; --force replaces them with the"
            " shipped ones)"
        )
    token = args.token if args.token is not None else labfolder.new_token()
    command = labfolder.jupyterlab_command(
        args.dir, port=args.port, browser=not args.no_browser, token=token
    )
    print(f"  access token: {token}\n  open: {labfolder.lab_url(token, args.port)}", flush=True)
    if args.dry_run:
        print("would run: " + " ".join(command))
        return 0
    return labfolder.start(args.dir, port=args.port, browser=not args.no_browser, token=token)


class _DeprecatedAlias(argparse.Action):
    """An option's former name: stores into the new one and warns once on stderr."""

    def __call__(self, parser, namespace, values, option_string=None):
        new = "--" + self.dest.replace("_", "-")
        print(f"pqlab: warning: {option_string} is deprecated, use {new}", file=sys.stderr)
        setattr(namespace, self.dest, values)


def build_parser() -> argparse.ArgumentParser:
    from .pipeline import kernelwatch

    parser = argparse.ArgumentParser(
        prog="pqlab", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="simulate the papers' base case and plot the EF delay")
    demo.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    demo.add_argument(
        "--n-ef-samples",
        type=int,
        default=10_000,
        dest="n_ef_samples",
        help="EF reference packets measured after the warm-up (default 10000)",
    )
    demo.add_argument(
        "--samples", type=int, dest="n_ef_samples", action=_DeprecatedAlias, help=argparse.SUPPRESS
    )  # the former name of --n-ef-samples
    demo.add_argument(
        "--be-payload-bytes", type=int, default=1000, help="BE UDP payload, bytes (default 1000)"
    )
    demo.add_argument(
        "--out",
        metavar="DIR",
        default=None,
        help="output folder (default: a new scratch folder, ./pqlab-scratch/demo-<time>)",
    )
    demo.add_argument(
        "--save-data", action="store_true", help="also write the per-packet Dataset as NetCDF"
    )
    demo.set_defaults(func=_demo)

    rep = sub.add_parser(
        "reproduce", help="run every notebook and write the figures and the report"
    )
    rep.add_argument(
        "--quick", action="store_true", help="fewer samples: a fast check, not the papers' numbers"
    )
    rep.add_argument(
        "--seed", type=int, default=1, help="random seed passed to the notebooks (default 1)"
    )
    rep.add_argument(
        "--out",
        metavar="DIR",
        default=None,
        help=(
            "output folder: figures, report and site go to DIR/figures, executed notebooks, results"
            " and cache to DIR/build (default: the repository in a source checkout, else"
            " ./pqlab-output)"
        ),
    )
    rep.add_argument(
        "--build", metavar="DIR", default=None, help="build folder (default: DIR/build of --out)"
    )
    rep.add_argument(
        "--notebooks",
        nargs="+",
        metavar="NAME",
        help="notebooks to run: names in notebooks/, .ipynb paths or folders (default all)",
    )
    rep.add_argument(
        "--paper-values",
        metavar="CSV",
        default=None,
        help="the papers' values (default data/paper_values.csv)",
    )
    rep.add_argument(
        "--list", action="store_true", help="list the artefacts (id, document, notebook) and exit"
    )
    rep.add_argument("--no-progress", action="store_true", help="no progress bar")
    rep.add_argument(
        "--no-site", action="store_true", help="do not write the static HTML site (<out>/site/)"
    )
    rep.add_argument(
        "--jobs",
        type=int,
        default=None,
        help=(
            "notebooks run at once, by as many workers, each keeping one kernel whose namespace "
            "is reset between notebooks (default: the number of cores)"
        ),
    )
    rep.add_argument(
        "--force", action="store_true", help="recompute every artefact instead of reusing the cache"
    )
    rep.add_argument(
        "--wait",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help=(
            "wait up to SECONDS for another run of the same tree to finish (default: refuse at"
            " once)"
        ),
    )
    rep.add_argument(
        "--notebook-timeout",
        type=float,
        default=kernelwatch.NOTEBOOK_TIMEOUT_S,
        metavar="SECONDS",
        help=(
            "fail a notebook still running after SECONDS (default %(default)g: never a normal run)"
        ),
    )
    rep.add_argument(
        "--cell-timeout",
        type=float,
        default=kernelwatch.CELL_TIMEOUT_S,
        metavar="SECONDS",
        help="fail a notebook whose cell runs longer than SECONDS (default %(default)g)",
    )
    rep.add_argument(
        "-p",
        "--parameter",
        action="append",
        dest="parameters",
        metavar="NOTEBOOK:NAME=VALUE",
        help=(
            "set a parameter of a notebook's parameters cell for this run (repeatable; NOTEBOOK:"
            " its name, e.g. 01_background_traffic, or number, e.g. 01; pqlab params lists the"
            " names, types, defaults and ranges; with --quick, one the quick profile sets is"
            " refused); part of the section's key and named in the report"
        ),
    )
    rep.set_defaults(func=_reproduce)

    params = sub.add_parser(
        "params", help="list the notebooks' parameters: names, types, defaults and comments"
    )
    params.add_argument(
        "notebooks",
        nargs="*",
        metavar="NOTEBOOK",
        help=(
            "notebook names (e.g. 01_background_traffic), numbers (01), .ipynb files or folders "
            "(default: every notebook)"
        ),
    )
    params.add_argument(
        "--json",
        action="store_true",
        help=(
            "machine-readable: {notebook: [{name, type, default, "
            "comment, set_by, minimum, maximum}]}"
        ),
    )
    params.set_defaults(func=_params)

    lab = sub.add_parser(
        "lab", help="copy the teaching lab's notebooks into a folder and start JupyterLab there"
    )
    lab.add_argument("dir", nargs="?", default="pqlab-lab", help="lab folder (default ./pqlab-lab)")
    lab.add_argument(
        "--force", action="store_true", help="replace edited copies with the shipped notebooks"
    )
    lab.add_argument("--no-browser", action="store_true", help="do not open a browser")
    lab.add_argument("--port", type=int, default=None, help="serve on 127.0.0.1:PORT")
    lab.add_argument(
        "--token",
        default=None,
        help=(
            "the server's access token (default: a new random one); printed with the address to"
            " open"
        ),
    )
    lab.add_argument(
        "--dry-run", action="store_true", help="copy the notebooks, print the command, do not start"
    )
    lab.set_defaults(func=_lab)
    return parser


def main(argv=None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except ValueError as exc:
        print(f"pqlab: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("pqlab: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
