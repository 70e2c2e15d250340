"""Fixtures shared by test modules: one quick reproduction per test session."""

from pathlib import Path

import pytest

from pqlab.base import locations
from pqlab.pipeline import reproduce

#: The paper notebooks, in name order.
NOTEBOOKS = sorted(p for p in locations.NOTEBOOKS.glob("*.ipynb") if not p.name.startswith("_"))


@pytest.fixture(scope="session")
def quick_run(tmp_path_factory):
    """``pqlab reproduce --quick`` (seed 1) into a temporary folder: (ReproduceResult, figures folder).

    Shared by the notebook tests (``test_notebooks``) and the browser tests of the published
    site (``test_reading``): the quick reproduction runs once per session.
    """
    out = tmp_path_factory.mktemp("figures")
    build = tmp_path_factory.mktemp("build")
    return reproduce.run_all(NOTEBOOKS, quick=True, out_dir=out, build_dir=build, seed=1, progress=False), Path(out)
