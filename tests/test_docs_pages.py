"""The README stays a page a newcomer reads, and links every page of the manual under docs/.

The README says what pqlab is, its two commands, what they produce and where the rest is; the
manual (the build, the environment, the API, the architecture, the tests, what is reproduced)
lives in ``docs/``. A README that grows back into a manual, or a page nobody links, fails here.
"""

import re
from pathlib import Path

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
