"""The artefact table of docs/reproduction.md against the registry: one artefact, one place.

The page ``docs/reproduction.md`` describes each notebook in a hand-written table and lists,
between two markers under it, the artefact ids each notebook runs, generated from
:mod:`pqlab.papers.registry` (:mod:`pqlab.pipeline.readme_table`). The page must hold the
current list, every notebook the table names must exist and every notebook of the registry must
have a row. The README links to the page.
"""

import re
from pathlib import Path

import pytest

from pqlab.papers import registry
from pqlab.pipeline import readme_table

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / readme_table.PAGE).read_text(encoding="utf-8")
#: The table's rows: | `<notebook>` | what it reproduces |
ROWS = re.findall(r"^\| `([^`]+)` \|", PAGE, flags=re.M)


def test_the_readme_links_the_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"]({readme_table.PAGE})" in readme


def test_the_page_lists_every_registered_artefact_under_its_notebook():
    assert readme_table.listed(PAGE) == readme_table.artefact_list(), (
        f"the artefact ids are stale: run python -m pqlab.pipeline.readme_table {readme_table.PAGE}"
    )
    lines = dict(re.findall(r"^- `([^`]+)`: (.*)$", readme_table.listed(PAGE), flags=re.M))
    for entry in registry.artefacts():
        assert f"`{entry.id}`" in lines[entry.notebook].split(", "), entry.id


def test_every_notebook_the_table_names_exists_and_every_registered_notebook_has_a_row():
    assert ROWS, f"no notebook rows found in the table of {readme_table.PAGE}"
    missing = [n for n in ROWS if not (ROOT / "notebooks" / f"{n}.ipynb").is_file()]
    assert missing == []
    assert sorted({a.notebook for a in registry.artefacts()} - set(ROWS)) == []


def test_the_list_is_rewritten_in_place_and_a_missing_marker_is_named(tmp_path, capsys):
    page = tmp_path / "reproduction.md"
    page.write_text(
        f"intro\n{readme_table.BEGIN}\n- `old`: `gone`\n{readme_table.END}\nafter\n",
        encoding="utf-8",
    )
    assert readme_table.main([str(page)]) == 0
    assert (
        page.read_text(encoding="utf-8")
        == f"intro\n{readme_table.BEGIN}\n{readme_table.artefact_list()}\n{readme_table.END}\nafter\n"  # noqa: E501
    )
    page.write_text("no markers\n", encoding="utf-8")
    assert readme_table.main([str(page)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "must hold the lines" in error
    assert readme_table.main([str(tmp_path / "absent.md")]) == 2
    with pytest.raises(ValueError, match="once each"):
        readme_table.listed(f"{readme_table.END}\n{readme_table.BEGIN}\n")
