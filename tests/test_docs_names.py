"""Every dotted ``pqlab.`` name the documentation gives exists: a moved module leaves no stale name.

README, docs, notebooks, benchmarks and the package's own docstrings and comments name modules,
functions and constants as ``pqlab.x.y``; after a module moves (``pqlab.paths`` became
``pqlab.base.locations``) a reader following an old name finds nothing. Each such name must
import (its longest module prefix) and resolve by attribute (the rest).
"""

import importlib
import re
from pathlib import Path

import pytest
import test_docs_paths

ROOT = Path(__file__).resolve().parents[1]
#: The tests are left out: they name stale names on purpose (below).
SKIP_DIRS = test_docs_paths.SKIP_DIRS | {"tests"}
SUFFIXES = {".md", ".py", ".ipynb", ".toml", ".cfg", ".txt"}
#: ``pqlab.`` then identifiers joined by dots (a trailing dot, e.g. at a sentence's end, is not
#: part).
DOTTED = re.compile(r"(?<![\w./-])pqlab(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
#: Names that are not Python objects: the package's resource folders and the command's output
#: folder.
NOT_OBJECTS = {"pqlab._data", "pqlab._notebooks", "pqlab._requirements"}


def resolves(name: str) -> bool:
    """Whether ``pqlab.a.b.c`` is a module, or an attribute chain under the longest importable
    module."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def _named():
    found = {}
    for path in test_docs_paths.text_files(SKIP_DIRS, SUFFIXES):
        for match in DOTTED.findall(path.read_text(encoding="utf-8", errors="replace")):
            if not any(match == n or match.startswith(n + ".") for n in NOT_OBJECTS):
                found.setdefault(match, str(path.relative_to(ROOT)))
    return found


def test_every_dotted_pqlab_name_in_the_docs_resolves():
    stale = sorted(f"{where}: {name}" for name, where in _named().items() if not resolves(name))
    assert stale == []


@pytest.mark.parametrize(
    "name, ok",
    [
        ("pqlab.metrics.ipdv", True),
        ("pqlab.base.locations.DATA", True),
        ("pqlab.paths.notebook_outputs", False),
        ("pqlab.Node.cisco7200_atm", True),
        ("pqlab.metrics.no_such_function", False),
    ],
)
def test_the_check_tells_a_live_name_from_a_stale_one(name, ok):
    assert resolves(name) is ok
