"""Run the notebooks with papermill and publish the paper-vs-reproduced report, safely.

:func:`run_all` is a small, safe, incremental build:

1. **Validate, then act.** Every argument, the notebooks, the papers' values and the
   output folders are checked (:func:`validate`) before anything is touched; a bad one
   raises :class:`ValueError` with one clear line.
2. **One run per tree.** The build folder's and the figures folder's locks
   (:mod:`pqlab.pipeline.runlock`) make a second concurrent run of either wait (``wait_s``) or
   refuse; two runs never mix their results.
3. **A fresh run folder.** The run builds in ``<build>/runs/<run id>/``
   (:mod:`pqlab.pipeline.runfolder`):
   the previous figures and the other sections' results are copied in first, the figures of
   the sections being rerun are dropped (never shown stale), then the notebooks execute in
   ``jobs`` worker processes (``python -m pqlab.pipeline._notebook_worker``), the longest of the
   previous run first, with ``figures_dir``, ``results_dir`` (one per section), ``quick`` and
   ``seed``. A worker keeps one kernel for the notebooks it runs (``import pqlab`` and the
   kernel's start paid once per worker), its namespace reset before each notebook.
4. **Publish in one step, only on success.** The report (``report.md``, ``.html``, ``.csv``)
   and the static site (:func:`pqlab.pipeline.website.build_site`) are written into the run folder,
   with a manifest of every published file, then the figures folder (a symbolic link) is
   switched to the run in one atomic rename (:mod:`pqlab.pipeline.publish`): ``kill -9`` at any
   instant leaves the previous reproduction or the new one whole. A run with a failed notebook
   publishes nothing: its report and site, in the kept run folder, name the notebook in a
   banner with a status per artefact. Ctrl-C (SIGINT or SIGTERM), at any moment and in
   whichever thread it lands (:mod:`pqlab.pipeline.interrupts`), kills every worker and kernel
   of the run within seconds, removes the run folder and raises :class:`Interrupted`; the
   published reproduction stays byte-identical, or, if the Ctrl-C came after the switch, the
   new one is published whole and :class:`Interrupted` says so.
5. **Sections in place.** With ``notebooks`` given, only those sections are recomputed; the
   other sections' current results, figures and executed notebooks are kept. A section whose
   inputs did not change since it was published (the notebook, ``quick``, ``seed``, the notebook's
   parameters other than its defaults, pqlab's code, data files and version, the papers' values:
   :func:`section_key`) is not rerun at all
   unless ``force`` is given; what was published is checked first
   (:func:`pqlab.pipeline.publish.verified`: the manifest of the run the figures folder shows
   matches its schema and every file its digest), else every section is recomputed.
6. **Faults are named.** A hung, dead or over-time kernel fails its notebook naming the cause
   (:mod:`pqlab.pipeline.kernelwatch`); workers and kernels end with this process
   (:mod:`pqlab.pipeline.orphans`);
   a full disk or a damaged state file raises :class:`pqlab.pipeline.publish.OutputError` (one line,
   the run folder removed, nothing published).

The notebooks' simulations are cached per artefact (:mod:`pqlab.measure.cache`) in
``<build>/cache``.
The kernels read the papers' values the run read (``<run>/paper_values.csv``, named by
``PQLAB_PAPER_VALUES``), so the notes of the claims quote what the report's paper column shows.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .._version import __version__
from ..base import locations, versions
from ..base._validate import check_int
from ..measure import cache
from ..papers import judge
from . import interrupts, kernelwatch, orphans, publish, report, runfolder, runlock, schedule
from . import parameters as notebook_parameters
from .notebook_html import export_html, html_available, html_exporter, shown_paths
from .parameters import find_notebooks  # noqa: F401  (pqlab.pipeline.reproduce.find_notebooks)

#: The Jupyter kernel the notebooks run in.
KERNEL_NAME = "python3"
#: Largest seed the notebooks accept (numpy's SeedSequence takes any non-negative int;
#: seeds are stored in netCDF attributes as 64-bit integers).
MAX_SEED = 2**63 - 1
#: Seconds a worker gets to end after SIGTERM before it is killed.
KILL_GRACE_S = 2.0
#: Seconds the workers get to shut their kernels down and end once every notebook ran.
WORKER_END_S = 30.0
#: Name prefix of the temporary folders holding the kernels' IPC sockets (one per worker,
#: made and removed by this process; the parent's pid follows, so a run's folders are known).
SOCKET_PREFIX = "pqlab-kernel-"


class Interrupted(Exception):
    """The run was stopped by Ctrl-C (SIGINT) or SIGTERM.

    Attributes
    ----------
    published : bool
        False: nothing was published (the previous reproduction is unchanged); True: the signal
        came once the publish was decided, and the run's reproduction was published whole first.
    """

    def __init__(self, message: str, published: bool = False):
        super().__init__(message)
        self.published = published


@dataclass(frozen=True)
class Failure:
    """Where a notebook failed.

    Attributes
    ----------
    notebook : str
        The notebook's name (file stem).
    cell_index : int or None
        0-based index of the failing cell in the source notebook (papermill's injected
        parameters cell not counted); None if the notebook failed outside a cell.
    ename, evalue : str
        The exception's type name and message.
    executed : pathlib.Path
        The executed copy, holding the traceback.
    """

    notebook: str
    cell_index: int | None
    ename: str
    evalue: str
    executed: Path

    def __str__(self) -> str:
        where = "" if self.cell_index is None else f" in cell {self.cell_index}"
        return f"notebook {self.notebook} failed{where}: {self.ename}: {self.evalue}"


@dataclass(frozen=True)
class NotebookRun:
    """One notebook's execution: name, files, wall time (s) and failure if any."""

    name: str
    source: Path
    executed: Path
    seconds: float
    failure: Failure | None = None
    html: Path | None = None
    log: Path | None = None

    @property
    def status(self) -> str:
        """``"ok"`` or ``"failed"``."""
        return "ok" if self.failure is None else "failed"


@dataclass(frozen=True)
class ReproduceResult:
    """What :func:`run_all` did.

    Attributes
    ----------
    runs : tuple of NotebookRun
        One per notebook, in the order given.
    report : pandas.DataFrame
        The paper-vs-reproduced table (see :mod:`pqlab.pipeline.report`).
    report_dir : pathlib.Path
        Folder of ``report.md``, ``report.html`` and ``report.csv``: the published figures
        folder if the run succeeded, else the kept run folder's.
    html_exported : bool
        Whether nbconvert was available to write the executed notebooks as HTML.
    site_index : pathlib.Path or None
        The static site's ``index.html`` (None if not built).
    published : bool
        Whether this run replaced the published reproduction.
    run_dir : pathlib.Path or None
        The kept run folder of a failed run (None once published).
    cache_counts : dict
        ``{"computed": n, "reused": m}``: artefact computations of this run's notebooks
        done and taken from the cache.
    kept_sections : tuple of str
        Sections not rerun whose published results were kept (``up_to_date`` included).
    up_to_date : tuple of str
        Sections of this run not rerun because nothing they depend on changed.
    parameters : dict
        Notebook -> {parameter: value}: the sections of the report computed with parameters other
        than their notebook's defaults (``pqlab reproduce -p``), kept sections' included.
    """

    runs: tuple[NotebookRun, ...]
    report: pd.DataFrame
    report_dir: Path
    html_exported: bool
    site_index: Path | None = None
    published: bool = True
    run_dir: Path | None = None
    cache_counts: dict = dataclasses.field(default_factory=dict)
    kept_sections: tuple[str, ...] = ()
    up_to_date: tuple[str, ...] = ()
    parameters: dict = dataclasses.field(default_factory=dict)

    @property
    def status(self) -> dict[str, str]:
        """Notebook name -> ``"ok"`` or ``"failed"``."""
        return {r.name: r.status for r in self.runs}

    @property
    def timings(self) -> dict[str, float]:
        """Notebook name -> wall time, seconds."""
        return {r.name: r.seconds for r in self.runs}

    @property
    def failures(self) -> list[Failure]:
        """The failed notebooks, in the order given."""
        return [r.failure for r in self.runs if r.failure is not None]

    @property
    def ok(self) -> bool:
        """True if every notebook ran to the end."""
        return not self.failures


@dataclass(frozen=True)
class Plan:
    """A validated run: everything :func:`run_all` needs, checked before anything is touched."""

    sources: tuple[Path, ...]
    explicit: bool  # notebooks were named: keep the other sections
    quick: bool
    seed: int
    out_dir: Path
    build_dir: Path
    paper_values: pd.DataFrame
    jobs: int
    site: bool
    force: bool
    wait_s: float
    notebook_timeout_s: float = kernelwatch.NOTEBOOK_TIMEOUT_S
    cell_timeout_s: float = kernelwatch.CELL_TIMEOUT_S
    parameters: dict = dataclasses.field(
        default_factory=dict
    )  # notebook -> {name: value}, not the defaults


def validate(
    notebooks=None,
    *,
    quick=False,
    out_dir=None,
    build_dir=None,
    seed=1,
    paper_values=None,
    jobs=None,
    site=True,
    force=False,
    wait_s=0.0,
    notebook_timeout_s=kernelwatch.NOTEBOOK_TIMEOUT_S,
    cell_timeout_s=kernelwatch.CELL_TIMEOUT_S,
    parameters=None,
) -> Plan:
    """Check every argument of :func:`run_all` without touching any file.

    Raises
    ------
    ValueError
        One line naming the bad argument and what is allowed.
    """
    given = locations.FIGURES if out_dir is None else out_dir
    out_dir = publish.published_path(given, _absolute_folder("out", given))  # its link kept
    build_dir = _absolute_folder("build", locations.BUILD if build_dir is None else build_dir)
    for name, flag in (("quick", quick), ("site", site), ("force", force)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be True or False, got {flag!r}")
    seed = check_int("seed", seed, 0, MAX_SEED)
    jobs = check_int("jobs", (os.cpu_count() or 1) if jobs is None else jobs, 1, 64)
    try:
        wait_s = float(wait_s)
    except (TypeError, ValueError):
        raise ValueError(f"wait must be a number of seconds >= 0, got {wait_s!r}") from None
    if not wait_s >= 0:
        raise ValueError(f"wait must be a number of seconds >= 0, got {wait_s!r}")
    notebook_timeout_s = _seconds("notebook timeout", notebook_timeout_s)
    cell_timeout_s = _seconds("cell timeout", cell_timeout_s)
    sources = tuple(find_notebooks(notebooks))
    if not sources:
        raise ValueError(f"no notebooks to run in {notebooks!r}")
    overrides = notebook_parameters.resolve(parameters, sources, quick=quick)
    if paper_values is None:
        table = report.load_paper_values()
    elif isinstance(paper_values, pd.DataFrame):
        table = report.check_paper_values(paper_values, "paper_values")
    else:
        if not Path(paper_values).is_file():
            raise ValueError(f"paper values file not found: {paper_values}")
        table = report.load_paper_values(paper_values)
    for name, folder in (("out", out_dir), ("build", build_dir)):
        problem = locations.writable_dir_error(folder)
        if problem:
            raise ValueError(f"{name} folder {folder} cannot be written: {problem}")
        if not locations.is_source_checkout() and _inside(folder, locations.ROOT):
            raise ValueError(
                f"{name} folder {folder} is inside the installed package ({locations.ROOT}); "
                "choose a folder of your own (default ./pqlab-output)"
            )
    for folder in (out_dir, *(build_dir / part for part in publish.BUILD_PARTS)):
        if os.path.ismount(folder):
            raise ValueError(
                f"{folder} is a mount point: pqlab publishes a run by replacing that "
                "folder by a link, which a mount point refuses; mount the volume one "
                "level up, or pass a folder inside it"
            )
    if _inside(out_dir, build_dir) or _inside(build_dir, out_dir):
        raise ValueError(
            f"the figures folder {out_dir} and the build folder {build_dir} must not contain "
            "each other"
        )
    return Plan(
        sources,
        notebooks is not None,
        quick,
        seed,
        out_dir,
        build_dir,
        table,
        jobs,
        site,
        force,
        wait_s,
        notebook_timeout_s,
        cell_timeout_s,
        overrides,
    )


def _absolute_folder(name: str, folder) -> Path:
    """``folder`` absolute, its symbolic links resolved; a loop of links, or a control character in
    its name (a newline, a NUL), is a one-line ValueError naming the ``name`` folder."""
    text = os.fsdecode(folder) if isinstance(folder, (str, bytes, os.PathLike)) else str(folder)
    if any(ord(c) < 32 or ord(c) == 127 for c in text):
        raise ValueError(
            f"{name} folder {notebook_parameters.shown(text)} cannot be used: its "
            "name holds a control character (a newline, a tab, a NUL); pass a folder "
            "name without one"
        )
    try:
        return Path(folder).resolve()
    except RuntimeError:  # "Symlink loop from ..." (Python < 3.13; later ones raise OSError ELOOP)
        why = "it passes through a loop of symbolic links"
    except (OSError, ValueError) as exc:  # ValueError: a NUL character
        why = (
            "it passes through a loop of symbolic links"
            if getattr(exc, "errno", None) == errno.ELOOP
            else exc
        )
    raise ValueError(
        f"{name} folder {folder} cannot be used: {why}; pass a folder that exists or can be created"
    )


def _seconds(name: str, value) -> float:
    """``value`` as a finite number of seconds > 0, else a one-line ValueError naming ``name``."""
    try:
        seconds = float(value)
    except (TypeError, ValueError, OverflowError):
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        raise ValueError(f"{name} must be a finite number of seconds > 0, got {value!r}")
    return seconds


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def run_all(
    notebooks=None,
    *,
    quick: bool = False,
    out_dir=None,
    build_dir=None,
    seed: int = 1,
    progress: bool = True,
    paper_values=None,
    jobs: int | None = None,
    site: bool = True,
    force: bool = False,
    wait_s: float = 0.0,
    notebook_timeout_s: float = kernelwatch.NOTEBOOK_TIMEOUT_S,
    cell_timeout_s: float = kernelwatch.CELL_TIMEOUT_S,
    parameters=None,
) -> ReproduceResult:
    """Execute the notebooks and publish the figures, report and site (see the module docstring).

    Parameters
    ----------
    notebooks : iterable of str or os.PathLike, optional
        What to run (see :func:`find_notebooks`); default every paper notebook. When given,
        the other sections' current results are kept.
    quick : bool
        Passed to the notebooks: fewer samples, for a fast check.
    out_dir : str or os.PathLike, optional
        The published figures, report and site (default :data:`pqlab.base.locations.FIGURES`).
    build_dir : str or os.PathLike, optional
        Executed notebooks (``notebooks/``), their HTML (``html/``), the results per section
        (``results/<notebook>/``), the cache (``cache/``), run folders (``runs/``) and the
        lock (default :data:`pqlab.base.locations.BUILD`).
    seed : int
        Random seed passed to the notebooks, 0 to 2**63 - 1.
    progress : bool
        Show a progress bar over the notebooks.
    paper_values : pandas.DataFrame, str or os.PathLike, optional
        The papers' values for the report; default ``data/paper_values.csv``.
    jobs : int, optional
        Notebooks executed at once, 1 to 64: worker processes, each keeping one kernel whose
        namespace is reset before each notebook (default: the number of cores). Results do
        not depend on it.
    site : bool
        Also write the static HTML site into ``<out_dir>/site/``.
    force : bool
        Recompute every artefact instead of reusing the cache.
    wait_s : float
        Seconds to wait for another run holding the lock; 0 refuses at once.
    notebook_timeout_s, cell_timeout_s : float
        Time limits of one notebook and of one cell, seconds (defaults: 1 hour, 30 minutes,
        far above a normal run's). A notebook over its limit, or whose kernel is stopped
        (hung) or died (killed, crashed, out of memory), fails naming the cause
        (:mod:`pqlab.pipeline.kernelwatch`).
    parameters : dict, optional
        Notebook (name, file name, number or path) -> {parameter name: value}: values for the
        notebooks' parameters cells (``pqlab reproduce -p NOTEBOOK:NAME=VALUE``; text is read as
        the parameter's type), checked by :func:`pqlab.pipeline.parameters.resolve` (an unknown
        notebook or name, a wrong type, or ``seed``/``quick``/``figures_dir``/``results_dir``, set
        by
        the other arguments, is a ValueError). Those other than the defaults are part of the
        section's key and named in the report's provenance.

    Returns
    -------
    ReproduceResult

    Raises
    ------
    ValueError
        A bad argument (nothing touched).
    pqlab.pipeline.runlock.RunLocked
        Another run holds the lock of the build folder or of the figures folder (nothing left
        behind: the folders made to hold the locks are removed again).
    pqlab.pipeline.publish.OutputError
        The reproduction could not be written (a full disk, an I/O error): one line naming the
        file; the run folder is removed and the previous reproduction is unchanged.
    Interrupted
        Ctrl-C or SIGTERM: workers and kernels stopped, nothing published (or, once the publish
        came after the switch, published whole: ``Interrupted.published``).
    """
    plan = validate(
        notebooks,
        quick=quick,
        out_dir=out_dir,
        build_dir=build_dir,
        seed=seed,
        paper_values=paper_values,
        jobs=jobs,
        site=site,
        force=force,
        wait_s=wait_s,
        notebook_timeout_s=notebook_timeout_s,
        cell_timeout_s=cell_timeout_s,
        parameters=parameters,
    )
    holder = f"pqlab reproduce of {plan.build_dir} into {plan.out_dir}"
    try:
        with interrupts.caught():
            with runlock.held(
                [runlock.out_lock(plan.out_dir), (plan.build_dir, runlock.LOCK_NAME)],
                wait_s=plan.wait_s,
                command=holder,
            ):
                return _run_locked(plan, progress)
    except (
        KeyboardInterrupt
    ):  # before the run folder was made (later: Interrupted, from _run_locked)
        raise Interrupted(
            f"interrupted before the run started: the published reproduction ({plan.out_dir}) "
            "is unchanged"
        ) from None
    except (
        OSError
    ) as exc:  # a full disk, an I/O error: the run folder is gone, nothing was published
        raise publish.output_error(exc, "writing the reproduction") from None
    except (
        judge.ClaimError
    ) as exc:  # a notebook recorded a claim the judge cannot judge: the code's defect
        raise publish.OutputError(
            f"a recorded claim breaks the judge's contract: {' '.join(str(exc).split())}; "
            "nothing was published"
        ) from None
    except (
        ValueError
    ) as exc:  # after validation: a damaged state file (never exit 2, "bad arguments")
        raise publish.OutputError(
            f"{' '.join(str(exc).split())}; nothing was published: a state file of "
            f"{plan.build_dir} is damaged: remove it (or the whole build folder) and "
            "run again"
        ) from None


def _run_locked(plan: Plan, progress: bool) -> ReproduceResult:
    orphans.remove_stale_socket_dirs(SOCKET_PREFIX)  # left by runs killed with kill -9
    publish.remove_leftovers(plan.out_dir, plan.build_dir)  # and their run folders
    sources = cache.Sources.now()  # read once for every section's key
    keys = {s.stem: section_key(s, plan, sources) for s in plan.sources}
    manifest, distrust = publish.verified(plan.out_dir, plan.build_dir)
    if distrust:
        warnings.warn(
            f"not trusting the published reproduction: {distrust}; recomputing its sections "
            "(cached artefacts are reused)",
            stacklevel=3,
        )
    sections = (manifest or {}).get("sections", {})
    current = [] if plan.force else [n for n, k in keys.items() if sections.get(n) == k]
    todo = [s for s in plan.sources if s.stem not in current]
    run = runfolder.stage(
        plan.out_dir,
        plan.build_dir,
        [s.stem for s in todo],
        keep_others=plan.explicit,
        up_to_date=current,
        trusted=manifest is not None,
        published_out=(manifest or {}).get("out_path"),
    )
    try:
        return _build_and_publish(
            dataclasses.replace(plan, sources=tuple(todo)),
            run,
            progress,
            keys,
            tuple(n for n in current if n in run.kept),
        )
    except publish.OutputError:
        run.discard()
        raise
    except OSError as exc:
        run.discard()
        raise publish.output_error(exc, f"writing the run folder {run.root}") from None
    except KeyboardInterrupt:
        with interrupts.caught(deferring=True):  # a second Ctrl-C does not cut the cleaning short
            published = publish.holds_publish(plan.out_dir, run.run_id)
            if not published:
                run.discard()
        if published:  # the message says what is on disk
            raise Interrupted(
                "interrupted once the publish was decided: this run's reproduction was published "
                f"whole first ({plan.out_dir})",
                published=True,
            ) from None
        raise Interrupted(
            "interrupted: every notebook and kernel of the run stopped; the published reproduction"
            f" ({plan.out_dir}) is unchanged"
        ) from None


def section_key(source: Path, plan: Plan, sources: cache.Sources | None = None) -> str:
    """What a section's results depend on (a published section with the same key is not rerun).

    The notebook, ``quick``, ``seed``, the notebook's parameters other than its defaults
    (``plan.parameters``; not in the key when there are none), pqlab's version, the environment
    (:func:`pqlab.base.versions.fingerprint`), every pqlab module and every file of the data folder
    (``sources``, a :class:`pqlab.measure.cache.Sources`: default read now) and the papers' values
    of the run (:func:`paper_values_text`), which the notes of the section's claims quote.
    """
    sources = cache.Sources.now() if sources is None else sources
    digest = hashlib.sha256()
    digest.update(Path(source).read_bytes())
    inputs = {
        "quick": plan.quick,
        "seed": plan.seed,
        "version": __version__,
        "environment": versions.fingerprint(),
        "code": sources.code_digest(),
        "data": sources.data_digest(),
        "paper_values": hashlib.sha256(paper_values_text(plan).encode()).hexdigest(),
    }
    overrides = plan.parameters.get(Path(source).stem)
    if overrides:
        inputs["parameters"] = overrides
    digest.update(json.dumps(inputs).encode())
    return digest.hexdigest()


def paper_values_text(plan: Plan) -> str:
    """The papers' values of the run (``plan.paper_values``, read once by :func:`validate`) as the
    CSV
    its kernels read (:func:`pqlab.base.locations.paper_values_file`): the notes of the claims and
    the report's paper column come from this one read."""
    return plan.paper_values.to_csv(index=False, lineterminator="\n")


def _build_and_publish(
    plan: Plan, run, progress: bool, keys: dict, current: tuple
) -> ReproduceResult:
    html = html_available()
    runs = _execute(plan, run, progress, html=html)
    full = [r.failure for r in runs if r.failure is not None and _disk_full(r.failure)]
    if full:  # not the notebook's fault: nothing is kept (the disk is full), one clear error
        raise OSError(
            errno.ENOSPC, f"No space left on device (notebook {full[0].notebook}: {full[0].evalue})"
        )
    for r in runs:
        if r.failure is None:
            runfolder.write_section_key(
                run.results / r.name,
                keys[r.name],
                seed=plan.seed,
                quick=plan.quick,
                parameters=plan.parameters.get(r.name, {}),
            )
    counts = cache.read_counts(run.cache_log)
    run.merge_results()
    provenance = run.section_parameters()
    table = report.build_report(run.results, run.out, plan.paper_values, parameters=provenance)
    sections = run.section_artefacts()
    statuses = _artefact_statuses(table, runs, sections, run.kept, current)
    failures = [r.failure for r in runs if r.failure is not None]
    runfolder.write_status(
        run.out,
        statuses,
        [str(f) for f in failures],
        {"seed": plan.seed, "quick": plan.quick, "run": run.run_id},
    )
    index = None
    if plan.site:
        from . import (
            website as site_pages,
        )  # imported once the notebooks ran (not before the workers start)

        index = site_pages.build_site(
            table,
            run.out,
            run.html,
            run.out / "site",
            results_dir=run.results,
            parameters=provenance,
        )
    if failures:
        runfolder.add_failure_banner(run.out, statuses, [str(f) for f in failures])
        run.keep_failed()
        return ReproduceResult(
            tuple(runs),
            table,
            run.out,
            html,
            index,
            published=False,
            run_dir=run.root,
            cache_counts=counts,
            kept_sections=tuple(run.kept),
            up_to_date=current,
            parameters=provenance,
        )
    # a Ctrl-C whose exception was lost (e.g. in a finalizer) never lets a run publish
    interrupts.check()
    run.publish(
        {
            p.name: runfolder.read_section_key(p)
            for p in sorted(run.results.iterdir())
            if p.is_dir()
        },
        {"seed": plan.seed, "quick": plan.quick},
    )
    index = plan.out_dir / "site" / "index.html" if index is not None else None
    runs = [
        dataclasses.replace(
            r,
            executed=plan.build_dir / "notebooks" / r.executed.name,
            html=(plan.build_dir / "html" / r.html.name) if r.html else None,
            log=None,
        )
        for r in runs
    ]
    return ReproduceResult(
        tuple(runs),
        table,
        plan.out_dir,
        html,
        index,
        published=True,
        cache_counts=counts,
        kept_sections=tuple(run.kept),
        up_to_date=current,
        parameters=provenance,
    )


def _disk_full(failure: Failure) -> bool:
    """Whether a notebook failed because its disk is full (errno 28 ENOSPC, or 122 EDQUOT)."""
    text = f"{failure.ename}: {failure.evalue}"
    return (
        any(f"[Errno {code}]" in text for code in (errno.ENOSPC, errno.EDQUOT))
        or "No space left" in text
    )


def _artefact_statuses(table: pd.DataFrame, runs, sections: dict, kept, current=()) -> list[dict]:
    """One status per artefact: ok (this run), up to date, kept (an earlier run's), failed,
    missing."""
    owner = {a: name for name, artefacts in sections.items() for a in artefacts}
    failed = {r.name for r in runs if r.failure is not None}
    rows = []
    for artefact in sorted(set(table["artefact"])):
        section = owner.get(artefact)
        if section in failed:
            status = "failed"
        elif section is None:
            status = "missing"
        elif section in current:
            status = "ok (up to date)"
        elif section in kept:
            status = "kept from an earlier run"
        else:
            status = "ok"
        rows.append({"artefact": artefact, "notebook": section or "", "status": status})
    return rows


def _execute(plan: Plan, run, progress: bool, html: bool = False) -> list[NotebookRun]:
    """Run the notebooks in ``plan.jobs`` worker processes; Ctrl-C kills them all.

    Each worker keeps one kernel for the notebooks it runs (:mod:`pqlab.pipeline._notebook_worker`,
    namespace reset between notebooks) and is given the next notebook when it finishes one,
    the longest first (:func:`pqlab.pipeline.schedule.longest_first`, from the previous run's
    times). With ``html``,
    each executed notebook is written as HTML as soon as it finishes, while the others run
    (nbconvert is imported when the first notebook finished, not while the kernels start).
    """
    from tqdm.auto import tqdm

    run.paper_values.write_text(paper_values_text(plan), encoding="utf-8")
    env = dict(
        os.environ,
        MPLBACKEND="Agg",
        **cache.environment(plan.build_dir / "cache", run.cache_log, force=plan.force),
        **{locations.ENV_PAPER_VALUES: str(run.paper_values)},
    )
    env = {**schedule.thread_limits(plan.jobs), **env}  # the user's own settings win
    pending = schedule.longest_first(
        list(enumerate(plan.sources)), schedule.previous_seconds(plan.build_dir)
    )
    workers: list[_Worker] = []
    exporter = None
    runs: list[NotebookRun | None] = [None] * len(plan.sources)
    bar = tqdm(total=len(plan.sources), desc="notebooks", unit="notebook", disable=not progress)
    try:
        while pending or any(w.busy for w in workers):
            # the loop's known point: a Ctrl-C stops it even if its exception was lost
            interrupts.check()
            done = []
            for w in workers:
                if w.busy and (w.result_ready(run) or w.proc.poll() is not None):
                    k, started = w.task
                    w.task = None
                    runs[k] = _finished(plan.sources[k], run, time.perf_counter() - started)
                    done.append(k)
                elif (
                    w.busy and (problem := w.watch.check()) is not None
                ):  # hung, died or over its time
                    orphans.kill_trees([w.proc], KILL_GRACE_S)
                    k, started = w.task
                    w.task = None
                    runs[k] = _stopped(
                        plan.sources[k], run, time.perf_counter() - started, *problem
                    )
                    done.append(k)
            for w in [w for w in workers if not w.busy and w.proc.poll() is not None]:
                shutil.rmtree(w.sockets, ignore_errors=True)  # ended (or died): replaced if needed
                workers.remove(w)
            while len(workers) < plan.jobs and len(pending) > sum(not w.busy for w in workers):
                # a new worker starts its kernel at once (while the others run or this loop goes on)
                workers.append(_Worker.start(plan, run, env, len(workers)))
            for w in workers:  # refill before the slower HTML export
                if not w.busy and pending:
                    w.give(*pending.pop(0), plan, run)
            if html and exporter is None and done:  # imported when first needed: not while the
                exporter = html_exporter()  # kernels start and import what their notebooks need
                html = exporter is not None  # tried once
            if not pending:
                for w in workers:
                    if not w.busy:
                        w.close()
            for k in done:
                if exporter is not None:
                    runs[k] = dataclasses.replace(
                        runs[k],
                        html=export_html(
                            exporter, runs[k].executed, run.html, shown_paths(plan, run)
                        ),
                    )
                bar.set_postfix_str(runs[k].name)
                bar.update()
            time.sleep(0.05)
        for w in workers:
            w.close()
        _wait_ended([w.proc for w in workers], WORKER_END_S)
        for w in workers:
            shutil.rmtree(w.sockets, ignore_errors=True)
    except BaseException:
        with interrupts.caught(deferring=True):  # a second Ctrl-C does not cut the killing short
            orphans.kill_trees([w.proc for w in workers], KILL_GRACE_S)
            for w in workers:
                shutil.rmtree(w.sockets, ignore_errors=True)
        raise
    finally:
        bar.close()
    schedule.save_seconds(plan.build_dir, [r for r in runs if r is not None])
    return runs


@dataclasses.dataclass
class _Worker:
    """A worker process (:func:`pqlab.pipeline._notebook_worker.serve`): its kernel's socket folder
    and
    the notebook it runs (index and start time), fed task files on its standard input."""

    proc: subprocess.Popen
    sockets: Path
    task: tuple | None = None
    source: Path | None = None
    watch: kernelwatch.Watch | None = None

    @property
    def busy(self) -> bool:
        return self.task is not None

    @classmethod
    def start(cls, plan: Plan, run, env: dict, number: int) -> "_Worker":
        """Start a worker. Its kernel's socket folder is made here (short path under the
        system's temporary folder: Unix socket paths are limited to about 100 bytes) so that
        this process removes it even when the worker is killed."""
        sockets = Path(tempfile.mkdtemp(prefix=f"{SOCKET_PREFIX}{os.getpid()}-"))
        log = open(run.logs / f"worker-{number}.log", "ab")  # noqa: SIM115 - closed below, the child has its copy
        try:
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "pqlab.pipeline._notebook_worker",
                    "--serve",
                    str(sockets),
                    str(run.logs / f"worker-{number}.kernel.log"),
                ],
                stdin=subprocess.PIPE,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,  # Ctrl-C in a terminal reaches only us
                preexec_fn=orphans.die_with_parent(),
            )  # SIGKILL when we end, even by kill -9
        except BaseException:
            shutil.rmtree(sockets, ignore_errors=True)
            raise
        finally:
            log.close()
        return cls(proc, sockets)

    def give(self, k: int, source: Path, plan: Plan, run) -> None:
        """Send notebook ``k`` (its task file) to the worker."""
        name = source.stem
        results = run.results / name
        results.mkdir(parents=True, exist_ok=True)
        task = run.logs / f"{name}.task.json"
        task.write_text(
            json.dumps(
                {
                    "source": str(source),
                    "executed": str(run.notebooks / source.name),
                    "kernel_name": KERNEL_NAME,
                    "result": str(_result_file(run, name)),
                    "log": str(run.logs / f"{name}.log"),
                    "cell_timeout": plan.cell_timeout_s,
                    "parameters": {
                        **plan.parameters.get(name, {}),
                        "figures_dir": str(run.out),
                        "results_dir": str(results),
                        "quick": plan.quick,
                        "seed": plan.seed,
                    },
                }
            ),
            encoding="utf-8",
        )
        self.task = (k, time.perf_counter())
        self.source = source
        self.watch = kernelwatch.Watch(self.proc.pid, plan.notebook_timeout_s)
        try:
            self.proc.stdin.write(f"{task}\n".encode())
            self.proc.stdin.flush()
        except (
            OSError
        ):  # the worker died: found by the caller's poll, reported as this notebook's failure
            pass

    def result_ready(self, run) -> bool:
        return _result_file(run, self.source.stem).is_file()

    def close(self) -> None:
        """No more notebooks: the worker shuts its kernel down and ends."""
        with contextlib.suppress(OSError):
            if not self.proc.stdin.closed:
                self.proc.stdin.close()


def _result_file(run, name: str) -> Path:
    """Where the worker writes a notebook's outcome (atomically: the parent waits for it)."""
    return run.logs / f"{name}.result.json"


def _finished(source: Path, run, seconds: float) -> NotebookRun:
    name = source.stem
    executed = run.notebooks / source.name
    log = run.logs / f"{name}.log"
    try:
        outcome = json.loads(_result_file(run, name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        tail = (
            log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-1:]
            if log.is_file()
            else []
        )
        outcome = {
            "cell_index": None,
            "ename": "WorkerError",
            "evalue": f"the notebook's worker process ended without a result ({' '.join(tail)})",
        }
    failure = None
    if outcome.get("ename"):
        failure = Failure(
            name, outcome.get("cell_index"), outcome["ename"], outcome.get("evalue") or "", executed
        )
    return NotebookRun(name, source, executed, seconds, failure, log=log)


def _stopped(source: Path, run, seconds: float, ename: str, evalue: str) -> NotebookRun:
    """A notebook whose kernel was stopped by the parent: hung, died or over its time."""
    executed = run.notebooks / source.name
    return NotebookRun(
        source.stem,
        source,
        executed,
        seconds,
        Failure(source.stem, None, ename, evalue, executed),
        log=run.logs / f"{source.stem}.log",
    )


def _wait_ended(procs, timeout_s: float) -> None:
    """Wait up to ``timeout_s`` for the workers to end (their kernels shut down), honouring
    Ctrl-C."""
    deadline = time.monotonic() + timeout_s
    while any(p.poll() is None for p in procs) and time.monotonic() < deadline:
        interrupts.check()
        time.sleep(0.05)
