"""Every notebook runs under papermill in quick mode, and the report covers every artefact."""

import re
from pathlib import Path

from conftest import NOTEBOOKS

from pqlab.base import versions
from pqlab.pipeline import reportdiff
from pqlab.pipeline.report import load_paper_values


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
        outputs = [
            o
            for c in nbformat.read(run.executed, as_version=4).cells
            if c.cell_type == "code"
            for o in c.get("outputs", [])
        ]
        # pqlab.papers.kit.save displays each figure it writes, naming the file in the output's
        # metadata
        figures = [
            o["metadata"]["pqlab"]["figure"]
            for o in outputs
            if "image/png" in o.get("data", {}) and "pqlab" in o.get("metadata", {})
        ]
        assert figures, f"{run.name} shows no figure inline"
        shown |= set(figures)
    assert saved and saved <= shown, f"saved but not shown inline: {sorted(saved - shown)}"


#: The quick run's report as committed: every number, verdict and word (tests/data/README.md).
GOLDEN = Path(__file__).resolve().parent / "data"


def _committed_report() -> tuple:
    return (
        reportdiff.read_table(GOLDEN / "quick_report.csv"),
        (GOLDEN / "quick_report.md.txt").read_text(encoding="utf-8"),
    )


def test_the_quick_report_is_the_committed_one_row_for_row(quick_run):
    """The whole quick report equals ``tests/data/quick_report.csv and quick_report.md.txt``: a
    refactoring changes
    no number of the report, and a change that does is made on purpose (regenerate the two files
    as tests/data/README.md says and give the reason in the commit).

    Verdicts, units, statements and explanations must be equal; numbers equal within a relative
    1e-9 (another numpy's last digit is not a change), and exactly in the environment the
    committed report was made in (the lock, on the same Python). report.md equal line for line
    but for its environment block."""
    _, out = quick_run
    golden, golden_text = _committed_report()
    rel_tol = reportdiff.tolerance_against(golden_text)
    now = reportdiff.read_table(out / "report.csv")
    differing = reportdiff.compare_tables(golden, now, rel_tol=rel_tol)
    assert not differing, (
        f"{len(differing)} cells differ from the committed report (relative tolerance "
        f"{rel_tol:g}):\n" + "\n".join(map(str, differing[:12]))
    )
    diff = reportdiff.compare_markdown(golden_text, (out / "report.md").read_text(encoding="utf-8"))
    assert not diff, "report.md differs:\n" + "\n".join(line[:300] for line in diff[:20])


def test_the_committed_report_was_made_on_the_lock():
    """The committed report names its environment, and it was the lock this checkout ships."""
    _, text = _committed_report()
    made_in = reportdiff.report_environment(text)
    assert made_in["on_lock"], (
        "the committed report was made off the lock: regenerate it on the lock"
    )
    assert versions.lock_sha256().startswith(made_in["lock_sha256"]), (
        "the lock changed since the committed report was made: regenerate it (tests/data/README.md)"
    )


def _nudge(table, row: int, column: str, factor: float | None = None):
    import numpy as np

    changed = table.copy()
    value = float(changed.at[row, column])
    changed.at[row, column] = repr(
        float(np.nextafter(value, np.inf)) if factor is None else value * factor
    )
    return changed


def test_float_noise_passes_and_a_real_change_fails():
    """On the committed report itself: one ulp of a number is noise; 1e-6 relative, a verdict, a
    word are changes."""
    golden, _ = _committed_report()
    row = int(golden.index[(golden["ours"] != "") & (golden["paper value"] != "")][0])
    for column in ("ours", "difference", "difference %", "paper value"):
        assert reportdiff.compare_tables(golden, _nudge(golden, row, column)) == [], column
    for column in ("ours", "paper value"):
        moved = reportdiff.compare_tables(golden, _nudge(golden, row, column, 1 + 1e-6))
        assert [(d.row, d.column) for d in moved] == [
            (tuple(golden.loc[row, ["artefact", "quantity", "model"]]), column)
        ]
        assert 9e-7 < moved[0].relative < 1.1e-6
    # exactly, where the environment is the committed one
    assert len(reportdiff.compare_tables(golden, _nudge(golden, row, "ours"), rel_tol=0)) == 1
    for column, text in (("verdict", "differs"), ("unit", "ms"), ("explanation", "another reason")):
        changed = golden.copy()
        changed.at[row, column] = text
        assert [d.column for d in reportdiff.compare_tables(golden, changed)] == [column]
    assert (
        reportdiff.compare_tables(golden, golden.drop(index=row).reset_index(drop=True))[0].after
        is None
    )


def test_the_report_states_no_number_past_seven_significant_digits(quick_run):
    _, out = quick_run
    for text in ((out / "report.md").read_text(encoding="utf-8"), _committed_report()[1]):
        body = "\n".join(
            line
            for line in text.splitlines()
            if not line.startswith(versions.ENVIRONMENT_LINE_PREFIXES)
        )
        numbers = re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", body)
        too_long = [
            n
            for n in numbers
            if len(n.split("e")[0].split("E")[0].replace(".", "").lstrip("0")) > 7
        ]
        assert too_long == [], too_long[:10]
        assert body.count("Environment: ") == 0 and "Environment: Python" in text


def test_no_figure_is_cut_at_its_edges(quick_run):
    """Titles, labels and footers stay inside the saved PNG: no dark pixel on its outermost 2 px."""
    import numpy as np
    from PIL import Image

    _, out = quick_run
    cut = {}
    for png in sorted(out.glob("*.png")):
        pixels = np.asarray(Image.open(png).convert("L"))
        edges = np.concatenate(
            [pixels[:, :2].ravel(), pixels[:, -2:].ravel(), pixels[:2].ravel(), pixels[-2:].ravel()]
        )
        if (edges < 200).any():
            cut[png.name] = int((edges < 200).sum())
    assert cut == {}, f"figures with text or lines at their edge (dark pixels): {cut}"
