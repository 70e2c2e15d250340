"""data/ holds inputs only; what the benchmarks write is in benchmarks/results/, each file with its
writer.

``data/`` ships in the wheel as ``pqlab._data`` and every file in it is part of every cached
result's key (:mod:`pqlab.measure.cache`): a file there is one the installed package reads. A
benchmark's output that nothing in the package reads (the test-bed calibration, evaluation and
ablation) is in ``benchmarks/results/``, named in its README with the script that writes it.
"""

import ast
import re
from pathlib import Path

import pytest

from pqlab.base.locations import DATA

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "pqlab"
RESULTS = ROOT / "benchmarks" / "results"
#: The data files that are read: tables and records (the folder's README, package marker and
#: the script that regenerates the stand-in are not inputs of a run).
INPUT_SUFFIXES = (".csv", ".json")


def _docstrings(tree: ast.AST) -> set[int]:
    """Ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body
        ):
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def string_constants(path: Path) -> set[str]:
    """The string literals of a Python file that are code, not docstrings (comments are not
    literals)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
    }


def _package_strings() -> set[str]:
    return set().union(*(string_constants(p) for p in PACKAGE.rglob("*.py")))


def _data_files() -> list[str]:
    return sorted(p.name for p in DATA.iterdir() if p.is_file() and p.suffix in INPUT_SUFFIXES)


def test_the_check_sees_code_and_not_docstrings(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        '"""Reads ``data/a.csv``."""\n# data/b.csv\nFILE = "c.csv"\n\n\ndef f():\n    """d.csv"""\n'
    )
    assert string_constants(module) == {"c.csv"}


@pytest.mark.parametrize("name", _data_files())
def test_every_data_file_is_read_by_the_package(name):
    """A file of data/ is named by the package's code (a docstring or comment naming it is not
    reading it)."""
    assert any(name in text for text in _package_strings()), (
        f"data/{name}: no pqlab module reads it; a benchmark's output nothing in the package reads"
        " belongs in benchmarks/results/ (named with its writer in benchmarks/results/README.md)"
    )


def _results_table() -> dict[str, str]:
    """File -> the writer's script, from the table of benchmarks/results/README.md."""
    rows = {}
    for line in (RESULTS / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`"):
            scripts = re.findall(r"`(benchmarks/[\w.]+\.py)`", cells[2])
            for name in re.findall(r"`([\w.]+)`", cells[0]):
                rows[name] = scripts[0] if scripts else ""
    return rows


def test_every_benchmark_result_is_named_with_its_writer_and_the_writer_names_it():
    assert (RESULTS / "README.md").is_file(), (
        "benchmarks/results/README.md names the benchmarks' outputs"
    )
    files = sorted(p.name for p in RESULTS.iterdir() if p.is_file() and p.name != "README.md")
    assert files, "benchmarks/results/ holds the benchmarks' outputs"
    table = _results_table()
    assert sorted(table) == files
    for name, script in table.items():
        assert script and (ROOT / script).is_file(), (
            f"{name}: its writer {script!r} is not a benchmark"
        )
        assert any(name in text for text in string_constants(ROOT / script)), (
            f"{script} does not write {name}"
        )
