"""The atomic publish without kernels: run folders staged and published by hand.

The figures folder is a link to the ``out/`` of the run it shows, replaced by one rename; a
plain folder is swapped for it with its own files carried over; runs no figures folder shows
are removed; a state file of the wrong shape is named in one line.
"""

import json
import os

import pytest

from pqlab.pipeline import publish, report, runfolder


def _published(out, build, value: str, **stage):
    """Stage a run whose figure ``x.png`` holds ``value``, and publish it."""
    run = runfolder.stage(out, build, ["a"], keep_others=False, **stage)
    (run.out / "x.png").write_text(value)
    report.record_figure(run.results / "a", "xa", [run.out / "x.png"])
    run.merge_results()
    run.publish({"a": value}, {"seed": 1, "quick": True})
    return run


def test_a_publish_switches_one_link_and_removes_the_run_it_replaced(tmp_path):
    out, build = tmp_path / "figures", tmp_path / "build"
    first = _published(out, build, "1", trusted=False)
    assert publish.shown_run(out) == first.root and (out / "x.png").read_text() == "1"
    assert (build / "results").resolve() == first.results and publish.verified(out, build)[
        1
    ] is None
    second = _published(out, build, "2", trusted=True)
    assert publish.shown_run(out) == second.root and (out / "x.png").read_text() == "2"
    assert (build / "results").resolve() == second.results
    assert list((build / "runs").iterdir()) == [second.root]
    (record,) = report.load_records(build / "results" / "a")
    assert record["paths"] == [str(out / "x.png")]  # where readers find it, through the link


def test_a_plain_figures_folder_is_swapped_for_the_link_keeping_its_own_files(tmp_path):
    out, build = tmp_path / "figures", tmp_path / "build"
    out.mkdir()
    (out / "README.md").write_text("mine")
    (out / "old.png").write_text("a figure of an earlier pqlab")
    (out / "report.md").write_text("an earlier report")
    assert "not a link" in publish.verified(out, build)[1]
    run = _published(out, build, "1", trusted=False)
    assert out.is_symlink() and publish.shown_run(out) == run.root
    assert sorted(p.name for p in out.iterdir()) == [publish.MANIFEST, "README.md", "x.png"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".pqlab")] == []


def test_a_figures_folder_whose_build_folder_was_removed_is_published_again(tmp_path):
    import shutil

    out, build = tmp_path / "figures", tmp_path / "build"
    _published(out, build, "1", trusted=False)
    shutil.rmtree(build)  # the link dangles
    assert publish.verified(out, build) == (None, None)
    run = _published(out, build, "2", trusted=False)
    assert publish.shown_run(out) == run.root and (out / "x.png").read_text() == "2"


def test_runs_another_figures_folder_shows_are_kept(tmp_path):
    build = tmp_path / "build"
    a = _published(tmp_path / "A", build, "1", trusted=False)
    (build / "runs" / "interrupted").mkdir()  # a run killed before it was published
    c = _published(tmp_path / "C", build, "2", trusted=False)
    assert sorted((build / "runs").iterdir()) == sorted([a.root, c.root])


def test_the_published_path_of_a_figures_folder_keeps_its_link(tmp_path):
    out, build = tmp_path / "figures", tmp_path / "build"
    _published(out, build, "1", trusted=False)
    assert publish.published_path(out, out.resolve()) == out
    mine = tmp_path / "mine"
    mine.symlink_to(tmp_path / "elsewhere")  # a link of the user's own: followed
    assert publish.published_path(mine, mine.resolve()) == tmp_path / "elsewhere"


@pytest.mark.parametrize(
    "text, named",
    [
        ("{", "not JSON"),
        ("[1]", "its content"),
        ('{"key": 5}', "key"),
        ('{"key": "k", "parameters": 1}', "parameters"),
    ],
)
def test_a_state_file_of_the_wrong_shape_is_named_in_one_line(tmp_path, text, named):
    (tmp_path / runfolder.SECTION_FILE).write_text(text)
    with pytest.raises(publish.Damaged, match=named) as caught:
        publish.load_state(tmp_path / runfolder.SECTION_FILE, runfolder.SECTION_SCHEMA)
    assert str(tmp_path / runfolder.SECTION_FILE) in str(caught.value) and "\n" not in str(
        caught.value
    )
    assert runfolder.read_section_key(tmp_path) is None
    (tmp_path / runfolder.SECTION_FILE).write_text(json.dumps({"key": "k", "seed": 1}))
    assert runfolder.read_section_key(tmp_path) == "k"
    assert os.listdir(tmp_path) == [runfolder.SECTION_FILE]
