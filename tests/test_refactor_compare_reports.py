"""benchmarks/compare_reports.py: the check that a refactor leaves the report unchanged."""

import importlib.util
from pathlib import Path

_SPEC = importlib.util.spec_from_file_location(
    "compare_reports", Path(__file__).resolve().parents[1] / "benchmarks" / "compare_reports.py"
)
compare_reports = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(compare_reports)

HEAD = "artefact,quantity,ours,verdict\n"


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_identical_files_have_no_difference(tmp_path):
    a = _write(tmp_path / "a.csv", HEAD + "x,q,1.5,differs\n")
    b = _write(tmp_path / "b.csv", HEAD + "x,q,1.5,differs\n")
    assert compare_reports.differences(a, b) == []
    assert compare_reports.main([str(a), str(b)]) == 0


def test_changed_missing_and_added_rows_are_named(tmp_path):
    """A changed cell is named even where rows were also lost and added (reportdiff, exactly:
    rel_tol=0)."""
    a = _write(tmp_path / "a.csv", HEAD + "x,q,1.5,differs\nx,gone,2,pqlab only\n")
    b = _write(tmp_path / "b.csv", HEAD + "x,q,1.25,differs\ny,new,3,pqlab only\n")
    lines = compare_reports.differences(a, b)
    assert lines == [
        "x/gone row: 'present' -> None",
        "y/new row: None -> 'present'",
        "x/q ours: '1.5' -> '1.25' (relative 0.167)",
    ]
    assert compare_reports.main([str(a), str(b)]) == 1


def test_a_last_digit_is_a_difference(tmp_path):
    """No tolerance: one ulp of a number, which the golden test lets pass, is reported."""
    a = _write(tmp_path / "a.csv", HEAD + "x,q,0.1,differs\n")
    b = _write(tmp_path / "b.csv", HEAD + "x,q,0.10000000000000002,differs\n")
    assert [line.split(" (")[0] for line in compare_reports.differences(a, b)] == [
        "x/q ours: '0.1' -> '0.10000000000000002'"
    ]


def test_rows_are_keyed_by_model_too(tmp_path):
    """The same quantity under two models is two rows: a change of either is found."""
    head = "artefact,quantity,model,ours\n"
    a = _write(tmp_path / "a.csv", head + "x,q,papers_node,1\nx,q,testbed,2\n")
    b = _write(tmp_path / "b.csv", head + "x,q,papers_node,3\nx,q,testbed,2\n")
    assert compare_reports.differences(a, b) == [
        "x/q/papers_node ours: '1' -> '3' (relative 0.667)"
    ]


def test_row_order_alone_is_reported(tmp_path):
    a = _write(tmp_path / "a.csv", HEAD + "x,q,1,a\ny,q,2,b\n")
    b = _write(tmp_path / "b.csv", HEAD + "y,q,2,b\nx,q,1,a\n")
    assert compare_reports.differences(a, b) == ["rows order: 'committed order' -> 'another order'"]


def test_formatting_alone_is_reported(tmp_path):
    a = _write(tmp_path / "a.csv", HEAD + "x,q,1.5,a\n")
    b = _write(tmp_path / "b.csv", HEAD + 'x,q,1.50,"a"\n')
    assert compare_reports.differences(a, b) == [
        "the files differ in formatting only (the same cells)"
    ]
    assert compare_reports.main([str(a), str(b)]) == 1
