"""Where inputs come from and outputs go: package resources, output folders, notebooks run by
hand."""

import hashlib
from pathlib import Path

import papermill
import pytest

from pqlab.base import locations


def _tree(folder: Path) -> dict:
    if not folder.is_dir():
        return {}
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_inputs_are_package_resources():
    from importlib import resources

    assert (locations.DATA / "paper_values.csv").is_file()
    assert (locations.DATA / "be_size_cdf_standin.csv").is_file()
    assert len(list(locations.NOTEBOOKS.glob("*.ipynb"))) >= 9
    assert (locations.LAB_NOTEBOOKS / "01_priority_queue_and_ring.ipynb").is_file()
    assert (
        resources.files("pqlab._data").joinpath("paper_values.csv").read_bytes()
        == (locations.DATA / "paper_values.csv").read_bytes()
    )


def test_outputs_go_to_the_checkout_or_to_pqlab_output(tmp_path, monkeypatch):
    if locations.is_source_checkout():
        assert locations.default_output_dirs() == (
            locations.ROOT / "figures",
            locations.ROOT / "build",
        )
    monkeypatch.setattr(locations, "is_source_checkout", lambda: False)
    figures, build = locations.default_output_dirs(tmp_path)
    assert figures == tmp_path.resolve() / "pqlab-output" / "figures"
    assert build == tmp_path.resolve() / "pqlab-output" / "build"


def test_notebook_outputs_passes_given_folders_and_otherwise_makes_a_scratch_folder(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    given = locations.notebook_outputs(str(tmp_path / "f"), str(tmp_path / "r"), "nb")
    assert given == (str(tmp_path / "f"), str(tmp_path / "r")) and capsys.readouterr().out == ""
    figures, results = locations.notebook_outputs("", "", "05_worst_case")
    scratch = Path(figures).parent
    assert scratch.parent == tmp_path / locations.SCRATCH_NAME and scratch.name.startswith(
        "05_worst_case-"
    )
    assert (
        Path(results) == scratch / "results" and Path(figures).is_dir() and Path(results).is_dir()
    )
    assert str(scratch) in capsys.readouterr().out
    again, _ = locations.notebook_outputs("", "", "05_worst_case")
    assert Path(again).parent != scratch  # each run by hand gets its own folder


def test_writable_dir_error_names_the_problem(tmp_path):
    assert locations.writable_dir_error(tmp_path / "new" / "sub") is None
    (tmp_path / "file").write_text("x")
    assert "is not a folder" in locations.writable_dir_error(tmp_path / "file" / "sub")


@pytest.mark.slow  # a paper notebook under papermill
def test_a_notebook_run_by_hand_never_writes_into_the_reproduction(tmp_path):
    """papermill without figures_dir/results_dir, as in the issue: nothing under figures/ or build/
    changes."""
    figures, results = locations.FIGURES, locations.BUILD / "results"
    before = (_tree(figures), _tree(results))
    out = tmp_path / "out.ipynb"
    papermill.execute_notebook(
        str(locations.NOTEBOOKS / "05_worst_case.ipynb"),
        str(out),
        parameters={"quick": True, "seed": 2},
        kernel_name="python3",
        progress_bar=False,
        cwd=str(tmp_path),
    )
    assert (_tree(figures), _tree(results)) == before
    scratch = list((tmp_path / locations.SCRATCH_NAME).iterdir())
    assert len(scratch) == 1 and list((scratch[0] / "figures").glob("*.png"))
    assert (scratch[0] / "results" / "results.jsonl").is_file()
    assert str(scratch[0]) in out.read_text()  # the notebook names its scratch folder in its output
