"""The documentation stays inside the repository: no path leaves it, every relative link resolves.

A clone has only this repository, so README, docs, notebooks, data notes and docstrings
must not point at files outside it (the papers are cited by full reference in
``docs/references.md``; the node contract lives in ``docs/model.md``).
"""

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP_DIRS = {
    ".git",
    ".venv",
    "venv",
    "build",
    "figures",
    "node_modules",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    "pqlab-output",
}
SUFFIXES = {".md", ".py", ".ipynb", ".yml", ".yaml", ".toml", ".cfg", ".txt", ".csv"}
UP_PATH = re.compile(r"(?:\.\./)+[A-Za-z0-9_.-][A-Za-z0-9_./-]*")
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")


def text_files(skip_dirs=SKIP_DIRS, suffixes=SUFFIXES):
    """The repository's text files (documentation, code, notebooks, data notes), outside
    ``skip_dirs``."""
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in skip_dirs and not d.endswith(".egg-info")]
        for name in files:
            if Path(name).suffix in suffixes:
                yield Path(folder) / name


def _escapes(base: Path, target: str) -> bool:
    return not (base / target).resolve().is_relative_to(ROOT)


def test_no_path_leaves_the_repository():
    leaving = [
        f"{path.relative_to(ROOT)}: {match}"
        for path in text_files()
        for match in UP_PATH.findall(path.read_text(encoding="utf-8", errors="replace"))
        if _escapes(path.parent, match)
    ]
    assert leaving == []


def test_the_pattern_sees_a_path_leaving():
    text = "the texts are in `../elsewhere/papers/`"
    assert [m for m in UP_PATH.findall(text) if _escapes(ROOT, m)] == ["../elsewhere/papers/"]


def test_relative_links_of_the_markdown_files_resolve():
    broken = []
    for path in text_files():
        if path.suffix != ".md":
            continue
        for target in MD_LINK.findall(path.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            if not (path.parent / target.split("#")[0]).exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert broken == []


def test_the_model_and_references_are_in_the_repository():
    model = (ROOT / "docs" / "model.md").read_text(encoding="utf-8")
    for rule in (
        "**Policer**",
        "**Queue admission**",
        "**Scheduler -> ring**",
        "**Line**",
        "**Release**",
    ):
        assert rule in model
    references = (ROOT / "docs" / "references.md").read_text(encoding="utf-8")
    assert "10.1109/GLOCOM.2001.965892" in references
