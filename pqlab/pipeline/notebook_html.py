"""Executed notebooks as HTML pages for the site: nbconvert's export, with the run's paths shown as
the reader knows them.

:func:`export_html` writes one executed notebook as a page (the injected parameters cell's
absolute build paths replaced by the published ones, :func:`shown_paths`); used by
:mod:`pqlab.pipeline.reproduce` once a notebook finished, when nbconvert is installed
(:func:`html_available`).
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path


def html_available() -> bool:
    """Whether nbconvert is installed (without importing it)."""
    import importlib.util

    return importlib.util.find_spec("nbconvert") is not None


def html_exporter():
    """nbconvert's HTMLExporter, or None if nbconvert is not installed."""
    try:
        from nbconvert import HTMLExporter
    except ImportError:
        return None
    return HTMLExporter()


def shown_paths(plan, run) -> dict[str, str]:
    """How the notebook pages show the run's folders: where they are published, relative to the
    output folder (``figures``, ``build/results``), never as absolute run-folder paths."""
    base = os.path.commonpath([plan.out_dir.resolve(), plan.build_dir.resolve()])
    return {
        str(run.out): os.path.relpath(plan.out_dir.resolve(), base),
        str(run.results): os.path.join(os.path.relpath(plan.build_dir.resolve(), base), "results"),
    }


#: Tag papermill gives the parameters cell it adds.
INJECTED_TAG = "injected-parameters"


def export_html(
    exporter, executed: Path, html_dir: Path, shown: dict[str, str] | None = None
) -> Path | None:
    """Write ``executed`` as ``html_dir/<name>.html``; None if there is no copy or export fails.

    ``shown`` maps absolute folders to what the page shows in their place in the parameters
    cell papermill added (:func:`shown_paths`); the executed notebook itself is unchanged.
    """
    if (
        not executed.is_file() or executed.stat().st_size == 0
    ):  # empty: its writing failed (e.g. a full
        return None  # disk), which the run reports itself
    html_dir.mkdir(parents=True, exist_ok=True)
    try:
        import nbformat

        notebook = nbformat.read(str(executed), as_version=4)
        for cell in notebook.cells:
            if INJECTED_TAG in cell.get("metadata", {}).get("tags", []):
                cell.source = relative_parameters(cell.source, shown or {})
        body, _ = exporter.from_notebook_node(
            notebook, resources={"metadata": {"name": executed.stem}}
        )
    except Exception as exc:  # noqa: BLE001 - the HTML view is a convenience, not a result
        warnings.warn(
            f"could not write {executed.name} as HTML: {type(exc).__name__}: {exc}", stacklevel=2
        )
        return None
    target = html_dir / f"{executed.stem}.html"
    target.write_text(body, encoding="utf-8")
    return target


def relative_parameters(source: str, shown: dict[str, str]) -> str:
    """A parameters cell with each folder of ``shown`` (longest first) replaced, and a comment
    saying so."""
    changed = source
    for folder in sorted(shown, key=len, reverse=True):
        changed = changed.replace(folder, shown[folder])
    if changed == source:
        return source
    return "# folders relative to the output folder of pqlab reproduce (--out)\n" + changed
