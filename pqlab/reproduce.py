"""Run every notebook with papermill, then build the paper-vs-reproduced report.

:func:`run_all` executes ``notebooks/*.ipynb`` (sorted; names starting with ``_`` and
subfolders are skipped) into ``<build_dir>/notebooks/``, passing each the parameters
``figures_dir``, ``results_dir``, ``quick`` and ``seed``. The notebooks record their
numbers with :func:`pqlab.report.record` into ``<build_dir>/results/``, which is emptied
first so stale results never leak into the report. A notebook that fails does not stop
the others; its name and failing cell are reported. Last, :func:`pqlab.report.build_report`
writes ``report.md``, ``report.html`` and ``report.csv`` into the figures folder, and
:func:`pqlab.site.build_site` a static HTML site of it into ``<figures folder>/site/``.

The kernels run with ``MPLBACKEND=Agg`` and with the notebook's own folder as working
directory; the paths passed to them are absolute.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import time
import warnings
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from . import paths, report
from . import site as site_pages
from ._validate import check_int

#: The Jupyter kernel the notebooks run in.
KERNEL_NAME = "python3"
_INJECTED_TAG = "injected-parameters"


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
        One per notebook, in execution order.
    report : pandas.DataFrame
        The paper-vs-reproduced table (see :mod:`pqlab.report`).
    report_dir : pathlib.Path
        Folder of ``report.md``, ``report.html`` and ``report.csv``.
    html_exported : bool
        Whether nbconvert was available to write the executed notebooks as HTML.
    site_index : pathlib.Path or None
        The static site's ``index.html`` (None if not built).
    """

    runs: tuple[NotebookRun, ...]
    report: pd.DataFrame
    report_dir: Path
    html_exported: bool
    site_index: Path | None = None

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
        """The failed notebooks, in execution order."""
        return [r.failure for r in self.runs if r.failure is not None]

    @property
    def ok(self) -> bool:
        """True if every notebook ran to the end."""
        return not self.failures


def find_notebooks(notebooks=None) -> list[Path]:
    """Resolve the notebooks to run.

    Parameters
    ----------
    notebooks : iterable of str or os.PathLike, optional
        Notebook files, folders (their notebooks), or names of notebooks in
        ``notebooks/`` with or without ``.ipynb``. Default: every notebook of
        ``notebooks/``.

    Returns
    -------
    list of pathlib.Path
        Absolute paths, each once, in the order given (a folder's sorted).

    Raises
    ------
    ValueError
        If a name resolves to no file, or two notebooks share a name.
    """
    items = [paths.NOTEBOOKS] if notebooks is None else list(notebooks)
    found: list[Path] = []
    for item in items:
        for path in _resolve(item):
            if path not in found:
                found.append(path)
    names = [p.stem for p in found]
    clash = sorted({n for n in names if names.count(n) > 1})
    if clash:
        raise ValueError(f"notebooks share a name, their outputs would collide: {clash}")
    return found


def _resolve(item) -> list[Path]:
    path = Path(item)
    if path.is_dir():
        return sorted(p.resolve() for p in path.glob("*.ipynb") if not p.name.startswith("_"))
    candidates = [path, paths.NOTEBOOKS / path, paths.NOTEBOOKS / f"{path}.ipynb"]
    for candidate in candidates:
        if candidate.is_file() and candidate.suffix == ".ipynb":
            return [candidate.resolve()]
    raise ValueError(f"notebook not found: {item!s} (looked for {', '.join(map(str, candidates))})")


def run_all(
    notebooks=None,
    *,
    quick: bool = False,
    out_dir=paths.FIGURES,
    build_dir=paths.BUILD,
    seed: int = 1,
    progress: bool = True,
    paper_values=None,
    jobs: int | None = None,
    site: bool = True,
) -> ReproduceResult:
    """Execute the notebooks with papermill and build the report.

    Parameters
    ----------
    notebooks : iterable of str or os.PathLike, optional
        What to run (see :func:`find_notebooks`); default every notebook of ``notebooks/``.
    quick : bool
        Passed to the notebooks: fewer samples, for a fast check.
    out_dir : str or os.PathLike
        Figures and the report (``figures_dir`` of the notebooks).
    build_dir : str or os.PathLike
        Executed notebooks (``notebooks/``), their HTML (``html/``) and the recorded
        results (``results/``, emptied first).
    seed : int
        Random seed passed to the notebooks.
    progress : bool
        Show a progress bar over the notebooks.
    paper_values : pandas.DataFrame, str or os.PathLike, optional
        The papers' values for the report; default ``data/paper_values.csv``.
    jobs : int, optional
        Notebooks executed at once, each in its own kernel (default: the number
        of cores). Results do not depend on it.
    site : bool
        Also write the static HTML site (:func:`pqlab.site.build_site`) into
        ``<out_dir>/site/``.

    Returns
    -------
    ReproduceResult
        Per-notebook status, timings and failures, and the report table.

    Raises
    ------
    ValueError
        If a notebook is not found, or the report's inputs are invalid.
    """
    from tqdm.auto import tqdm

    sources = find_notebooks(notebooks)
    out_dir, build_dir = Path(out_dir).resolve(), Path(build_dir).resolve()
    results_dir = _fresh_folder(build_dir / "results")
    out_dir.mkdir(parents=True, exist_ok=True)
    parameters = {"figures_dir": str(out_dir), "results_dir": str(results_dir), "quick": bool(quick),
                  "seed": int(seed)}
    jobs = check_int("jobs", (os.cpu_count() or 1) if jobs is None else jobs, 1, 64)
    exporter = _html_exporter()
    runs = [None] * len(sources)
    with _environment(MPLBACKEND="Agg"), ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(run_notebook, source, build_dir / "notebooks", parameters): k
                   for k, source in enumerate(sources)}
        bar = tqdm(total=len(sources), desc="notebooks", unit="notebook", disable=not progress)
        for future in as_completed(futures):
            run = future.result()
            bar.set_postfix_str(run.name)
            bar.update()
            if exporter is not None:
                run = dataclasses.replace(run, html=_export_html(exporter, run.executed, build_dir / "html"))
            runs[futures[future]] = run
        bar.close()
    table = report.build_report(results_dir, out_dir, paper_values)
    index = (site_pages.build_site(table, out_dir, build_dir / "html", out_dir / "site", results_dir=results_dir)
             if site else None)
    return ReproduceResult(tuple(runs), table, out_dir, exporter is not None, index)


def run_notebook(source: Path, executed_dir: Path, parameters: dict) -> NotebookRun:
    """Execute one notebook into ``executed_dir/<name>.ipynb``; catch and describe a failure."""
    import papermill
    from papermill.exceptions import PapermillExecutionError

    executed_dir.mkdir(parents=True, exist_ok=True)
    executed = executed_dir / source.name
    started = time.perf_counter()
    failure = None
    try:
        papermill.execute_notebook(
            str(source), str(executed), parameters=parameters, kernel_name=KERNEL_NAME,
            progress_bar=False, cwd=str(source.parent),
        )
    except PapermillExecutionError as exc:
        cell = _source_cell_index(source, executed, exc.cell_index)
        failure = Failure(source.stem, cell, exc.ename, exc.evalue, executed)
    except Exception as exc:  # noqa: BLE001 - a broken notebook must not stop the others
        failure = Failure(source.stem, None, type(exc).__name__, str(exc), executed)
    return NotebookRun(source.stem, source, executed, time.perf_counter() - started, failure)


def _source_cell_index(source: Path, executed: Path, cell_index: int) -> int:
    """Map a cell index of the executed notebook back to the source notebook."""
    import nbformat

    def injected(path):
        cells = nbformat.read(str(path), as_version=4).cells
        return [i for i, c in enumerate(cells) if _INJECTED_TAG in c.get("metadata", {}).get("tags", [])]

    try:
        added = injected(executed) if not injected(source) else []
    except (OSError, ValueError):  # executed copy unreadable: keep papermill's index
        return cell_index
    return cell_index - sum(1 for i in added if i < cell_index)


def _fresh_folder(folder: Path) -> Path:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder


@contextlib.contextmanager
def _environment(**variables):
    """Set environment variables (inherited by kernels) for the block, then restore them."""
    saved = {k: os.environ.get(k) for k in variables}
    os.environ.update(variables)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _html_exporter():
    """nbconvert's HTMLExporter, or None if nbconvert is not installed."""
    try:
        from nbconvert import HTMLExporter
    except ImportError:
        return None
    return HTMLExporter()


def _export_html(exporter, executed: Path, html_dir: Path) -> Path | None:
    """Write ``executed`` as ``html_dir/<name>.html``; None if there is no copy or export fails."""
    if not executed.is_file():
        return None
    html_dir.mkdir(parents=True, exist_ok=True)
    try:
        body, _ = exporter.from_filename(str(executed))
    except Exception as exc:  # noqa: BLE001 - the HTML view is a convenience, not a result
        warnings.warn(f"could not write {executed.name} as HTML: {type(exc).__name__}: {exc}", stacklevel=2)
        return None
    target = html_dir / f"{executed.stem}.html"
    target.write_text(body, encoding="utf-8")
    return target
