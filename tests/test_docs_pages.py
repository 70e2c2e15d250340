"""The README stays a page a newcomer reads, and links every page of the manual under docs/.

The README says what pqlab is, its two commands, what they produce and where the rest is; the
manual (the build, the environment, the API, the architecture, the tests, what is reproduced)
lives in ``docs/``. A README that grows back into a manual, or a page nobody links, fails here,
and so does a Python block of the README or of ``docs/usage.md`` that no longer runs.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: At most two screens.
README_MAX_LINES = 120


def test_the_readme_fits_two_screens():
    assert len(README.splitlines()) <= README_MAX_LINES


def test_the_readme_links_every_page_of_the_docs():
    linked = set(re.findall(r"\]\((docs/[^)#\s]+\.md)", README))
    pages = {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")}
    assert sorted(pages - linked) == []


@pytest.mark.parametrize("page", ["README.md", "docs/usage.md"])
def test_the_python_blocks_run(page):
    blocks = re.findall(
        r"^```python\n(.*?)^```", (ROOT / page).read_text(encoding="utf-8"), flags=re.M | re.S
    )
    assert blocks, f"{page} has no Python block"
    namespace = {"__name__": page}
    for i, block in enumerate(blocks):
        exec(compile(block, f"{page} block {i + 1}", "exec"), namespace)
    assert namespace["ds"].attrs["seed"] == 1
