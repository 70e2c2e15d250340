"""Fixtures shared by test modules: one quick reproduction per test session, in the slow tier."""

from pathlib import Path

import pytest

from pqlab.base import locations
from pqlab.pipeline import reproduce

#: The paper notebooks, in name order.
NOTEBOOKS = sorted(p for p in locations.NOTEBOOKS.glob("*.ipynb") if not p.name.startswith("_"))


def write_notebook(path, parameters_cell: str, *cells: str) -> Path:
    """A Python notebook at ``path``: a cell tagged ``parameters`` (papermill's), then
    ``cells``."""
    from nbformat import write
    from nbformat.v4 import new_code_cell, new_notebook

    nb = new_notebook(
        cells=[
            new_code_cell(parameters_cell, metadata={"tags": ["parameters"]}),
            *map(new_code_cell, cells),
        ]
    )
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    write(nb, str(path))
    return Path(path)


@pytest.fixture(scope="session")
def quick_run(tmp_path_factory):
    """``pqlab reproduce --quick`` (seed 1) into a temporary folder: (ReproduceResult, figures
    folder).

    Shared by the notebook tests (``test_notebooks``, the golden quick report among them) and the
    browser tests of the published site (``test_reading``): the quick reproduction runs once per
    session. Every test that reads it is in the slow tier (:func:`pytest_collection_modifyitems`).
    """
    out = tmp_path_factory.mktemp("figures")
    build = tmp_path_factory.mktemp("build")
    return reproduce.run_all(
        NOTEBOOKS, quick=True, out_dir=out, build_dir=build, seed=1, progress=False
    ), Path(out)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Mark ``slow`` every test that reads the session's quick reproduction (``quick_run``).

    The whole reproduction is the cost of the first such test; the README's test command leaves
    the slow tier out (pyproject's ``addopts``) and ``.ci/run`` runs it after, so the reproduction
    runs in that tier only, once. Runs before pytest's own ``-m`` selection (``tryfirst``).
    """
    for item in items:
        if "quick_run" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
