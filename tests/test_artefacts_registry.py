"""pqlab.papers.artefacts.registry: the one table of artefacts, and what reads it."""

import json
import re
from pathlib import Path

import pytest

from pqlab import cli
from pqlab.papers.artefacts import _common, registry

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"


def _code(notebook: str) -> str:
    cells = json.loads((NOTEBOOKS / f"{notebook}.ipynb").read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


def test_every_entry_names_functions_that_exist():
    for entry in registry.ARTEFACTS:
        for role in ("compute", "figure"):
            assert callable(entry.function(role)), (entry.id, role)
        claims = entry.function("claims")
        assert callable(claims) or entry.id == "globecom01_fig1", entry.id
        assert entry.source.key == entry.document
    with pytest.raises(ValueError, match="role"):
        registry.ARTEFACTS[0].function("notebook")


def test_each_notebook_runs_exactly_its_registered_artefacts():
    recorded = re.compile(r"(?:save_and_record\(.*?|record_figure\(results_dir),\s*\"(\w+)\"", re.S)
    for path in sorted(NOTEBOOKS.glob("[0-9]*.ipynb")):
        code = _code(path.stem)
        registered = {a.id for a in registry.ARTEFACTS if a.notebook == path.stem}
        assert set(recorded.findall(code)) == registered, path.stem
        for artefact_id in registered:
            assert registry.artefact(artefact_id).output_stem in code


def test_claims_live_apart_from_the_compute_modules():
    import importlib

    for entry in registry.ARTEFACTS:
        compute_module = importlib.import_module(entry.compute.split(":")[0])
        own = [n for n, v in vars(compute_module).items()
               if n.endswith("_claims") and getattr(v, "__module__", "") == compute_module.__name__]
        assert not own, compute_module.__name__
        if entry.claims is not None:
            claims = entry.function("claims")
            assert claims.__module__.startswith("pqlab.papers.artefacts.claims."), entry.id
            # the compute module does not reach its claims: a caller imports the claims module
            assert not hasattr(compute_module, claims.__name__), entry.id
