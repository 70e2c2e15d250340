"""benchmarks/compare_reports.py: the check that a refactor leaves the report unchanged."""

import importlib.util
from pathlib import Path

_SPEC = importlib.util.spec_from_file_location(
    "compare_reports", Path(__file__).resolve().parents[1] / "benchmarks" / "compare_reports.py")
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
    a = _write(tmp_path / "a.csv", HEAD + "x,q,1.5,differs\nx,gone,2,pqlab only\n")
    b = _write(tmp_path / "b.csv", HEAD + "x,q,1.25,differs\ny,new,3,pqlab only\n")
    lines = compare_reports.differences(a, b)
    assert "('x', 'q') ours: '1.5' -> '1.25'" in lines
    assert "('x', 'gone'): only before" in lines
    assert "('y', 'new'): only after" in lines
    assert compare_reports.main([str(a), str(b)]) == 1


def test_row_order_alone_is_reported(tmp_path):
    a = _write(tmp_path / "a.csv", HEAD + "x,q,1,a\ny,q,2,b\n")
    b = _write(tmp_path / "b.csv", HEAD + "y,q,2,b\nx,q,1,a\n")
    assert compare_reports.differences(a, b) == ["the files differ in row order or formatting only"]
