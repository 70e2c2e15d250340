"""pqlab.papers.artefacts.setup: the one setup of the paper notebooks (folders, quick profile, seeds)."""

import json
from pathlib import Path

import pytest

from pqlab.base import locations
from pqlab.papers.artefacts import notebook, setup

NOTEBOOKS = sorted(Path(__file__).resolve().parents[1].glob("notebooks/[0-9]*.ipynb"))


def test_full_run_keeps_the_parameters_and_makes_the_figures_folder(tmp_path):
    run = setup(quick=False, seed=3, n_seeds=2, n_ef_samples=10_000,
                figures_dir=str(tmp_path / "fig"), results_dir=str(tmp_path / "res"))
    assert run == (str(tmp_path / "fig"), str(tmp_path / "res"), 10_000, 2, (3, 4))
    assert (tmp_path / "fig").is_dir() and (tmp_path / "res").is_dir()


def test_quick_profile_is_defined_once(tmp_path):
    folders = {"figures_dir": str(tmp_path), "results_dir": str(tmp_path)}
    run = setup(quick=True, seed=1, n_seeds=3, n_ef_samples=10_000, **folders)
    assert (run.n_ef_samples, run.n_seeds, run.seeds) == (notebook.QUICK_N_EF_SAMPLES, notebook.QUICK_N_SEEDS, (1,))
    assert setup(quick=True, seed=1, n_seeds=3, n_ef_samples=10_000, quick_n_ef_samples=1_000,
                 **folders).n_ef_samples == 1_000
    assert setup(quick=True, seed=1, n_seeds=3, n_ef_samples=200, **folders).n_ef_samples == 200


def test_empty_folders_mean_a_scratch_folder_never_the_reproductions(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    run = setup(quick=True, seed=1, n_seeds=1, n_ef_samples=10, notebook="05_worst_case")
    for folder in (run.figures_dir, run.results_dir):
        assert Path(folder).is_dir() and Path(folder).is_relative_to(tmp_path)
        assert not Path(folder).is_relative_to(locations.FIGURES) and not Path(folder).is_relative_to(locations.BUILD)
    assert "05_worst_case" in run.figures_dir and "scratch" in capsys.readouterr().out


@pytest.mark.parametrize("bad, name", [({"quick": 1}, "quick"), ({"seed": -1}, "seed"), ({"n_seeds": 0}, "n_seeds"),
                                       ({"n_ef_samples": 2.5}, "n_ef_samples")])
def test_bad_parameters_are_named(tmp_path, bad, name):
    kwargs = {"quick": False, "seed": 1, "n_seeds": 1, "n_ef_samples": 10, "figures_dir": str(tmp_path), **bad}
    with pytest.raises(ValueError, match=name):
        setup(**kwargs)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_paper_notebook_calls_setup_and_repeats_none_of_it(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells
                     if c["cell_type"] == "code" and "parameters" not in c["metadata"].get("tags", []))
    # the kit's setup (issue 29: pqlab.papers.kit.setup), or its transitional import from pqlab.papers.artefacts
    assert code.count("pqlab.papers.artefacts.setup(") + code.count("kit.setup(") == 1
    for copied in ("pqlab.base.locations.FIGURES", "seeds = tuple(range(", "n_seeds = 1", ".mkdir("):
        assert copied not in code, copied
