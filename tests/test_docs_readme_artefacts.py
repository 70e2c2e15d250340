"""The README's artefact table against the registry (issue 29: one artefact, one place).

The section "What is reproduced, and where it differs" describes each notebook in a hand-written
table and lists, between two markers under it, the artefact ids each notebook runs, generated from
:mod:`pqlab.papers.registry` (:mod:`pqlab.pipeline.readme_table`). The README must hold the
current list, every notebook the table names must exist and every notebook of the registry must
have a row.
"""

import re
from pathlib import Path

import pytest

from pqlab.papers import registry
from pqlab.pipeline import readme_table

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SECTION = README[README.index("## What is reproduced, and where it differs"):]
SECTION = SECTION[:SECTION.index("\n## ", 1)]
#: The table's rows: | `<notebook>` | what it reproduces |
ROWS = re.findall(r"^\| `([^`]+)` \|", SECTION, flags=re.M)


def test_the_readme_lists_every_registered_artefact_under_its_notebook():
    assert readme_table.listed(SECTION) == readme_table.artefact_list(), \
        "the README's artefact ids are stale: run python -m pqlab.pipeline.readme_table README.md"
    lines = dict(re.findall(r"^- `([^`]+)`: (.*)$", readme_table.listed(SECTION), flags=re.M))
    for entry in registry.artefacts():
        assert f"`{entry.id}`" in lines[entry.notebook].split(", "), entry.id


def test_every_notebook_the_table_names_exists_and_every_registered_notebook_has_a_row():
    assert ROWS, "no notebook rows found in the README's table"
    missing = [n for n in ROWS if not (ROOT / "notebooks" / f"{n}.ipynb").is_file()]
    assert missing == []
    assert sorted({a.notebook for a in registry.artefacts()} - set(ROWS)) == []


def test_the_list_is_rewritten_in_place_and_a_missing_marker_is_named(tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{readme_table.BEGIN}\n- `old`: `gone`\n{readme_table.END}\nafter\n", encoding="utf-8")
    assert readme_table.main([str(readme)]) == 0
    assert readme.read_text(encoding="utf-8") == (f"intro\n{readme_table.BEGIN}\n{readme_table.artefact_list()}\n"
                                                  f"{readme_table.END}\nafter\n")
    readme.write_text("no markers\n", encoding="utf-8")
    assert readme_table.main([str(readme)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "must hold the lines" in error
    assert readme_table.main([str(tmp_path / "absent.md")]) == 2
    with pytest.raises(ValueError, match="once each"):
        readme_table.listed(f"{readme_table.END}\n{readme_table.BEGIN}\n")
