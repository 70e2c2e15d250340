"""One run of ``pqlab reproduce``: staged in its own folder, published in one step, or kept failed.

Layout of a build folder ``<build>``::

    runs/<run id>/                     one run: out/ results/ notebooks/ html/ logs/
    results/<notebook>/results.jsonl   published results, one folder per section
    results/results.jsonl              all sections merged (what the report was built from)
    notebooks/<notebook>.ipynb         executed notebooks
    html/<notebook>.html               the same as HTML
    logs/<notebook>.log                the last run's kernel output per notebook (warnings, errors)
    cache/                             the artefact cache (pqlab.measure.cache)

``results``, ``notebooks``, ``html`` and ``logs`` are links to the run the figures folder shows
(itself a link to that run's ``out/``): :mod:`pqlab.pipeline.publish`. A run starts as a copy of
the published figures folder (without the report, the site and the figures of the sections
being rerun) and of the other sections' results; :meth:`RunFolder.publish` switches the figures
folder to it in one atomic step. A failed run's folder is kept (``failed``) for inspection.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import html_pages, publish, report

#: Files of the figures folder that a run always rewrites.
REPORT_FILES = ("report.md", "report.html", "report.csv")
#: The per-artefact status of the published run (JSON).
STATUS_FILE = "status.json"
#: Inside a section's results folder: the key of the inputs it was computed from (JSON).
SECTION_FILE = "section.json"
#: What ``section.json`` holds: the key (and the seed, ``quick`` and the notebook's parameters other
#: than its defaults, ``pqlab reproduce -p``, it was computed with).
SECTION_SCHEMA = {
    "type": "object",
    "required": ["key"],
    "properties": {"key": {"type": "string"}, "parameters": {"type": "object"}},
}
#: Files of these kinds in an untrusted figures folder are never carried into a run.
FIGURE_SUFFIXES = (".png", ".pdf", ".svg", ".jpg", ".jpeg")


def _in_run(name: str, doc: str) -> property:
    """A read-only property: the path ``name`` inside the run folder (``self.root``)."""
    return property(lambda self: self.root / name, doc=f"{doc}: ``<run>/{name}``.")


@dataclass
class RunFolder:
    """A staged run: its folders and what it kept from the published reproduction."""

    root: Path
    out_dir: Path  # the published figures folder
    build_dir: Path
    kept: list[str] = field(default_factory=list)

    @property
    def run_id(self) -> str:
        return self.root.name

    out = _in_run("out", "the run's figures folder (published as the figures folder)")
    results = _in_run("results", "the run's results, one folder per section")
    notebooks = _in_run("notebooks", "the run's executed notebooks")
    html = _in_run("html", "the run's notebooks as HTML")
    logs = _in_run("logs", "the run's kernel output per notebook")
    cache_log = _in_run("cache-events.jsonl", "the run's artefact cache events (JSON lines)")
    paper_values = _in_run(
        "paper_values.csv", "the papers' values the run read, as its kernels read them"
    )

    def discard(self) -> None:
        """Remove the run folder (an interrupted run leaves nothing behind)."""
        shutil.rmtree(self.root, ignore_errors=True)

    def keep_failed(self) -> None:
        """Keep this failed run's folder for inspection; remove older failed runs."""
        (self.root / "failed").write_text(time.strftime("%Y-%m-%d %H:%M:%S\n"), encoding="utf-8")
        publish.clean_runs(self.build_dir, keep=self.root, failed=False)

    def merge_results(self) -> Path:
        """Write ``results/results.jsonl``: every section's records, sections in name order."""
        lines = []
        for section in sorted(p for p in self.results.iterdir() if p.is_dir()):
            file = section / report.RESULTS_FILE
            if file.is_file():
                lines += [
                    line for line in file.read_text(encoding="utf-8").splitlines() if line.strip()
                ]
        merged = self.results / report.RESULTS_FILE
        merged.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        return merged

    def section_artefacts(self) -> dict[str, set[str]]:
        """Section (notebook) -> the artefact ids its records name."""
        return report.section_artefacts(self.results)

    def section_parameters(self) -> dict[str, dict]:
        """Section (notebook) -> the parameters other than its defaults it was computed with
        (:func:`read_section_parameters`), the sections computed with the defaults left out."""
        found = {
            p.name: read_section_parameters(p) for p in sorted(self.results.iterdir()) if p.is_dir()
        }
        return {name: values for name, values in found.items() if values}

    def publish(self, sections: dict, about: dict) -> None:
        """Show this run's figures, results, executed notebooks and HTML as the published ones.

        One atomic switch (:func:`pqlab.pipeline.publish.switch`), after writing the manifest
        (``sections``: name -> input key, ``about``: seed and parameters) that the next run
        verifies before it trusts anything published.

        Raises
        ------
        pqlab.pipeline.publish.OutputError
            The switch could not be made (e.g. a full disk): nothing changed.
        """
        _rewrite_figure_paths(self.results, self.out, self.out_dir)
        publish.write_manifest(self.root, out_dir=self.out_dir, sections=sections, about=about)
        publish.switch(self.root, self.out_dir, self.build_dir)


def read_section_key(section: Path) -> str | None:
    """The input key a published section was computed from (:data:`SECTION_SCHEMA`), None if
    unknown: absent or damaged (the section is then not up to date, never wrongly current)."""
    try:
        entry = publish.load_state(section / SECTION_FILE, SECTION_SCHEMA)
    except publish.Damaged:
        return None
    return entry["key"] if entry is not None else None


def read_section_parameters(section: Path) -> dict:
    """The parameters other than its notebook's defaults a published section was computed with
    (``{}``: the defaults, or a section.json that is absent or damaged: such a section is never
    up to date, :func:`read_section_key`)."""
    try:
        entry = publish.load_state(section / SECTION_FILE, SECTION_SCHEMA)
    except publish.Damaged:
        return {}
    return dict(entry.get("parameters") or {}) if isinstance(entry, dict) else {}


def write_section_key(section: Path, key: str, **about) -> None:
    """Store the input key of a section computed by this run."""
    (section / SECTION_FILE).write_text(json.dumps({"key": key, **about}), encoding="utf-8")


def _records(section: Path) -> list[dict]:
    try:
        return report.load_records(section)
    except ValueError:
        return []


def stage(
    out_dir: Path,
    build_dir: Path,
    names,
    *,
    keep_others: bool,
    up_to_date=(),
    trusted: bool = True,
    published_out: Path | None = None,
) -> RunFolder:
    """Create a run folder for the notebooks ``names`` (see the module docstring).

    Parameters
    ----------
    out_dir, build_dir : pathlib.Path
        The published figures folder and the build folder.
    names : list of str
        The sections (notebook names) this run recomputes.
    keep_others : bool
        Keep every other section's results, figures and executed notebooks (``--notebooks``);
        otherwise a full run drops them, except ``up_to_date``.
    up_to_date : iterable of str
        Sections whose published results are current (kept, not rerun).
    trusted : bool
        Whether the published reproduction passed :func:`pqlab.pipeline.publish.verified`. If not,
        nothing of the build's results is kept and of the figures folder only the files that
        are not figures (nor the report, site, status and manifest, always rewritten) are
        carried over.
    published_out : pathlib.Path, optional
        Where the published figures folder was when it was published (its manifest's
        ``out_path``): the kept records' figure paths are pointed from there into the run,
        so a tree moved whole never links into its old place.
    """
    runs = build_dir / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    stamp = f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    root = next(
        runs / f"{stamp}-{n}" for n in itertools.count() if not (runs / f"{stamp}-{n}").exists()
    )
    run = RunFolder(root, out_dir, build_dir)
    for folder in (run.out, run.results, run.notebooks, run.html, run.logs):
        folder.mkdir(parents=True)
    shown = publish.shown_run(out_dir) if trusted else None
    published = shown / "results" if shown else None
    found = published.iterdir() if published and published.is_dir() else ()
    sections = sorted(p for p in found if p.is_dir())
    rerun, current = set(names), set(up_to_date)
    kept = [p for p in sections if p.name not in rerun and (keep_others or p.name in current)]
    dropped_figures = set()
    for section in sections:
        if section not in kept:
            dropped_figures |= _figure_files(section)
    for section in kept:
        dropped_figures -= _figure_files(section)
    if not trusted and out_dir.is_dir():
        dropped_figures |= _untrusted_outputs(out_dir)
    if out_dir.is_dir():
        shutil.copytree(
            out_dir,
            run.out,
            symlinks=True,
            dirs_exist_ok=True,
            ignore=lambda folder, entries: _not_copied(
                Path(folder), entries, out_dir, dropped_figures
            ),
        )
    for section in kept:
        shutil.copytree(section, run.results / section.name)
        for source, target in (
            (shown / "notebooks" / f"{section.name}.ipynb", run.notebooks),
            (shown / "html" / f"{section.name}.html", run.html),
        ):
            if source.is_file():
                shutil.copy2(source, target / source.name)
    _rewrite_figure_paths(run.results, out_dir, run.out)
    if published_out is not None and Path(published_out) != out_dir:
        _rewrite_figure_paths(run.results, Path(published_out), run.out)
    run.kept = [p.name for p in kept]
    return run


def _untrusted_outputs(out_dir: Path) -> set[Path]:
    """Files of an untrusted figures folder never carried into a run: every figure and the
    manifest (the report, site and status are rewritten anyway); what is left is the user's own,
    e.g. a README."""
    found = {p for p in out_dir.rglob("*") if p.suffix.lower() in FIGURE_SUFFIXES}
    return found | {out_dir / publish.MANIFEST}


def _figure_files(results_dir: Path) -> set[Path]:
    return {
        Path(p)
        for r in _records(results_dir)
        if r.get("kind") == "figure"
        for p in r.get("paths", [])
    }


def _not_copied(folder: Path, entries, out_dir: Path, dropped: set[Path]) -> list[str]:
    skip = []
    for entry in entries:
        path = folder / entry
        if folder == out_dir and entry in (*REPORT_FILES, "site", STATUS_FILE, publish.MANIFEST):
            skip.append(entry)
        elif path in dropped:
            skip.append(entry)
    return skip


def _rewrite_figure_paths(results: Path, old: Path, new: Path) -> None:
    """Point the figure records of every results file under ``results`` from ``old`` to ``new``."""
    for file in results.rglob(report.RESULTS_FILE):
        lines = []
        for line in file.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            entry = json.loads(line)
            if entry.get("kind") == "figure":
                entry["paths"] = [str(_moved(Path(p), old, new)) for p in entry.get("paths", [])]
                line = json.dumps(entry, allow_nan=False)
            lines.append(line)
        file.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")


def _moved(path: Path, old: Path, new: Path) -> Path:
    try:
        return new / path.relative_to(old)
    except ValueError:
        return path


def write_status(out: Path, statuses: list[dict], failures: list[str], run: dict) -> Path:
    """Write ``status.json``: the run (seed, quick, id), failures, and a status per artefact."""
    target = out / STATUS_FILE
    target.write_text(
        json.dumps(
            {"run": run, "ok": not failures, "failures": failures, "artefacts": statuses}, indent=1
        ),
        encoding="utf-8",
    )
    return target


def add_failure_banner(out: Path, statuses: list[dict], failures: list[str]) -> None:
    """Name the failed notebooks, with a status per artefact, atop the report and every site
    page."""
    failed = [s for s in statuses if s["status"] == "failed"]
    md = [
        "> **This run FAILED and was not published** (the previous reproduction is unchanged).",
        ">",
    ]
    md += [f"> - {line}" for line in failures]
    md += ["", "| artefact | notebook | status |", "| --- | --- | --- |"]
    md += [f"| {s['artefact']} | {s['notebook']} | {s['status']} |" for s in statuses]
    md += ["", ""]
    report_md = out / "report.md"
    if report_md.is_file():
        report_md.write_text(
            "\n".join(md) + report_md.read_text(encoding="utf-8"), encoding="utf-8"
        )
    banner = html_pages.render(
        "failure_banner.html", failures=failures, statuses=statuses, n_failed=len(failed)
    )
    pages = (
        [out / "report.html", *sorted((out / "site").rglob("*.html"))]
        if (out / "site").is_dir()
        else [out / "report.html"]
    )
    for page in pages:
        if page.is_file():
            text = page.read_text(encoding="utf-8")
            at = text.find(">", text.find("<body")) + 1 if "<body" in text else 0
            page.write_text(text[:at] + banner + text[at:], encoding="utf-8")
