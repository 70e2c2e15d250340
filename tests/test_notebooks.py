"""Every notebook runs under papermill in quick mode, and the report covers every artefact."""

import pytest

from pqlab import paths, reproduce
from pqlab.report import load_paper_values

NOTEBOOKS = sorted(p for p in paths.NOTEBOOKS.glob("*.ipynb") if not p.name.startswith("_"))


def test_there_are_notebooks_for_the_paper_sections():
    assert len(NOTEBOOKS) >= 5


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("figures")
    build = tmp_path_factory.mktemp("build")
    return reproduce.run_all(NOTEBOOKS, quick=True, out_dir=out, build_dir=build, seed=1, progress=False), out


def test_every_notebook_runs_in_quick_mode(quick_run):
    result, _ = quick_run
    assert result.failures == [], [str(f) for f in result.failures]


def test_report_has_a_result_for_every_artefact_of_the_papers(quick_run):
    result, out = quick_run
    table = result.report
    artefacts = set(load_paper_values()["artefact"])
    reproduced = set(table.loc[table["verdict"] != "missing", "artefact"])
    assert artefacts <= reproduced, sorted(artefacts - reproduced)
    for name in ("report.md", "report.html", "report.csv"):
        assert (out / name).stat().st_size > 0
    # every figure an artefact recorded exists as PNG and PDF
    pngs = {p.stem for p in out.glob("*.png")}
    pdfs = {p.stem for p in out.glob("*.pdf")}
    assert pngs and pngs == pdfs


def test_every_saved_figure_shows_inline_in_its_notebook(quick_run):
    import nbformat

    result, out = quick_run
    saved = {p.stem for p in out.glob("*.png")}
    shown = set()
    for run in result.runs:
        outputs = [o for c in nbformat.read(run.executed, as_version=4).cells if c.cell_type == "code"
                   for o in c.get("outputs", [])]
        # pqlab.figures.save displays each figure it writes, naming the file in the output's metadata
        figures = [o["metadata"]["pqlab"]["figure"] for o in outputs
                   if "image/png" in o.get("data", {}) and "pqlab" in o.get("metadata", {})]
        assert figures, f"{run.name} shows no figure inline"
        shown |= set(figures)
    assert saved and saved <= shown, f"saved but not shown inline: {sorted(saved - shown)}"
