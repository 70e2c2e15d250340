"""Every notebook runs under papermill in quick mode, and the report covers every artefact."""

from pathlib import Path

from conftest import NOTEBOOKS
from pqlab.report import load_paper_values


def test_there_are_notebooks_for_the_paper_sections():
    assert len(NOTEBOOKS) >= 5


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


#: The quick run's report as committed: every number, verdict and word (tests/data/README.md).
GOLDEN = Path(__file__).resolve().parent / "data"


def test_the_quick_report_is_the_committed_one_row_for_row(quick_run):
    """The whole quick report equals ``tests/data/quick_report.csv and quick_report.md.txt``: a refactoring changes
    no number of the report, and a change that does is made on purpose (regenerate the two files
    as tests/data/README.md says and give the reason in the commit)."""
    import difflib

    import pandas as pd

    _, out = quick_run
    golden = pd.read_csv(GOLDEN / "quick_report.csv", keep_default_na=False, dtype=str)
    now = pd.read_csv(out / "report.csv", keep_default_na=False, dtype=str)
    assert list(now.columns) == list(golden.columns)
    assert len(now) == len(golden), f"{len(now)} rows, the committed report has {len(golden)}"
    differing = []
    for i in range(len(now)):
        for column in now.columns:
            if now.at[i, column] != golden.at[i, column]:
                row = now.loc[i, ["artefact", "quantity", "model"]].tolist()
                differing.append(f"row {i} {row} {column}: committed {golden.at[i, column]!r}, now {now.at[i, column]!r}")
    assert not differing, f"{len(differing)} cells differ:\n" + "\n".join(differing[:12])
    text_now = (out / "report.md").read_text(encoding="utf-8").splitlines()
    text_golden = (GOLDEN / "quick_report.md.txt").read_text(encoding="utf-8").splitlines()
    diff = list(difflib.unified_diff(text_golden, text_now, "committed", "now", n=0, lineterm=""))
    assert not diff, "report.md differs:\n" + "\n".join(line[:300] for line in diff[:20])
