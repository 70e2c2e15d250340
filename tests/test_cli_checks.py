"""The command line's checks and listings; every refusal is made before any notebook runs.

``pqlab reproduce`` refuses, with one line and exit 2, what would otherwise fail later or mislead:
a ``-p`` value out of the range its notebook declares, one parameter given under two spellings of
its notebook, with ``--quick`` a parameter the quick profile sets (it would be reported as used
while the profile overrode it), a control character in ``--out``/``--build``; echoes are at most
80 characters; a run refused with exit 3 leaves no folder it made. One reader of notebook names
serves ``--notebooks``, ``-p`` and ``pqlab params``. ``pqlab --help`` is plain text,
``pqlab params`` lists the shared parameters once, ``pqlab demo`` never writes into the published
figures folder.
"""

import json
import os

import pytest
from conftest import write_notebook

from pqlab import cli
from pqlab.base import locations
from pqlab.pipeline import parameters, publish, reproduce, runlock

ONE = "01_background_traffic"


def _refused(capsys, argv, *names):
    """``pqlab argv`` exits 2 with one ``pqlab: error:`` line naming each of ``names``."""
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pqlab: error: "), err
    for name in names:
        assert name in lines[0], (name, lines[0])
    return lines[0]


def _reproduce(tmp_path, *argv):
    return ["reproduce", "--out", str(tmp_path / "run"), "--no-progress", *argv]


def test_quick_refuses_a_parameter_its_profile_sets(capsys, tmp_path):
    argv = _reproduce(tmp_path, "--quick", "--notebooks", ONE, "-p", f"{ONE}:n_seeds=2")
    line = _refused(capsys, argv, f"{ONE}:n_seeds", "--quick")
    assert "ran with" not in line
    assert not (tmp_path / "run").exists()
    plan = reproduce.validate(
        [ONE], parameters={ONE: {"n_seeds": "2"}}, out_dir=tmp_path / "f", build_dir=tmp_path / "b"
    )
    assert plan.parameters == {ONE: {"n_seeds": 2}}  # without --quick the value is used
    plan = reproduce.validate(
        [ONE],
        quick=True,
        parameters={ONE: {"n_show": "20"}},
        out_dir=tmp_path / "f",
        build_dir=tmp_path / "b",
    )
    assert plan.parameters == {ONE: {"n_show": 20}}  # one the profile leaves alone is used


def test_the_quick_profile_is_read_from_the_notebooks_code():
    sets = {s.stem: parameters.quick_sets(s) for s in parameters.shipped_notebooks()}
    assert sets[ONE] == {"n_seeds", "n_ef_samples", "payload_step_bytes"}
    assert sets["09_tftant_be_streams_and_aggregation"] >= {"loss_ef_packets", "n_tandem_nodes"}
    assert "propagation_ms" not in sets["09_tftant_be_streams_and_aggregation"]


def test_one_parameter_under_two_spellings_of_its_notebook_is_given_twice(capsys, tmp_path):
    argv = _reproduce(tmp_path, "--notebooks", ONE, "-p", "01:n_seeds=3", "-p", f"{ONE}:n_seeds=5")
    _refused(capsys, argv, f"{ONE}:n_seeds is given twice", "01:n_seeds=3", f"{ONE}:n_seeds=5")
    assert not (tmp_path / "run").exists()
    plan = reproduce.validate(
        [ONE],
        parameters={"01": {"n_seeds": "4"}, ONE: {"n_seeds": 4}},
        out_dir=tmp_path / "f",
        build_dir=tmp_path / "b",
    )
    assert plan.parameters == {ONE: {"n_seeds": 4}}  # the same value twice is one value


@pytest.mark.parametrize(
    "notebook, setting, allowed",
    [
        (ONE, "n_seeds=0", "from 1 to 1,000"),
        ("05_worst_case", "burst_packets=-1", "from 1 to 10,000"),
        ("07_tftant_pq_vs_wfq", "ef_service_rate_kbps=1e9", "from 1.0 to 2,000.0"),
        # values the artefacts' own checks refuse (fewer than 100 EF packets): a range declared
        # wider than what the code accepts lets them through to fail inside the notebook
        ("10_testbed_model", "n_ef_samples=50", "from 100 to 10,000,000"),
        ("09_tftant_be_streams_and_aggregation", "loss_ef_packets=50", "from 100 to 10,000,000"),
    ],
)
def test_a_value_out_of_its_declared_range_is_refused_before_anything_runs(
    capsys, tmp_path, notebook, setting, allowed
):
    name = setting.partition("=")[0]
    _refused(
        capsys,
        _reproduce(tmp_path, "--notebooks", notebook, "-p", f"{notebook}:{setting}"),
        f"{notebook}:{name}",
        allowed,
    )
    assert not (tmp_path / "run").exists()


def test_a_range_is_read_from_the_end_of_the_comment(tmp_path):
    path = write_notebook(
        tmp_path / "x.ipynb",
        "a: int = 3  # a count [1..]\n"
        "b: float = 0.5  # a step (0 to 1) [0.0..1.0]\n"
        "c: int = 1  # no range\n",
    )
    a, b, c = parameters.read_parameters(path)
    assert (a.comment, a.minimum, a.maximum) == ("a count", 1, None)
    assert (b.comment, b.minimum, b.maximum) == ("a step (0 to 1)", 0.0, 1.0)
    assert (c.minimum, c.maximum) == (None, None)
    with pytest.raises(ValueError, match=r"x:a must be at least 1 \(its range in the .*\), got 0"):
        parameters.resolve({"x": {"a": "0"}}, [path])
    assert parameters.resolve({"x": {"a": "2", "c": "-7"}}, [path]) == {"x": {"a": 2, "c": -7}}


def test_every_numeric_parameter_of_the_paper_notebooks_declares_its_range():
    for source in parameters.shipped_notebooks():
        for p in parameters.read_parameters(source):
            if p.type in ("int", "float") and p.set_by is None:
                assert p.minimum is not None and p.maximum is not None, (source.stem, p.name)
                assert p.minimum <= p.default <= p.maximum, (source.stem, p.name)


@pytest.mark.parametrize(
    "setting", ["n_ef_samples=" + "x" * 1_000_000, "label" + "x" * 1_000_000 + "=1"]
)
def test_a_huge_value_or_name_is_echoed_at_most_80_characters(capsys, tmp_path, setting):
    line = _refused(capsys, _reproduce(tmp_path, "--notebooks", ONE, "-p", f"{ONE}:{setting}"), ONE)
    assert "x" * 81 not in line and len(line) < 400, len(line)
    assert "characters)" in line  # it says it was cut


@pytest.mark.parametrize("command", ["params", "reproduce --notebooks"])
def test_a_huge_notebook_name_is_one_short_line(capsys, tmp_path, command):
    """A name longer than a file name may be (the system's ENAMETOOLONG) is no file: it is
    read as a notebook's name, and not found."""
    argv = [*command.split(), "x" * 100_000, *(["--out", str(tmp_path)] if "--" in command else [])]
    line = _refused(capsys, argv, "notebook not found", "characters)", ONE)
    assert "x" * 81 not in line and len(line) < 600, len(line)


@pytest.mark.parametrize("option", ["--out", "--build"])
def test_a_newline_in_an_output_folder_is_refused(capsys, tmp_path, option):
    folder = tmp_path / "a\nb"
    name = option.lstrip("-")
    other = "--build" if option == "--out" else "--out"  # the other one valid, in tmp_path
    argv = [
        "reproduce",
        option,
        str(folder),
        other,
        str(tmp_path / "x"),
        "--notebooks",
        ONE,
        "--no-progress",
    ]
    _refused(capsys, argv, f"{name} folder", "control character")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("holder", ["figures folder", "build folder"])
def test_a_run_refused_by_the_lock_leaves_no_folder_it_made(capsys, tmp_path, holder):
    """Refused by either lock, a run whose other folder is new removes every folder it made."""
    if holder == "figures folder":
        where = ["--out", str(tmp_path / "out"), "--build", str(tmp_path / "new" / "build")]
        lock = runlock.out_lock(tmp_path / "out" / "figures")
    else:
        where = ["--out", str(tmp_path / "new" / "out"), "--build", str(tmp_path / "build")]
        lock = (tmp_path / "build", runlock.LOCK_NAME)
    with runlock.held([lock], command="the test"):
        assert cli.main(["reproduce", *where, "--notebooks", ONE, "--no-progress"]) == 3
        err = capsys.readouterr().err
        assert (
            "the test" in err and f"pid {os.getpid()}" in err and len(err.strip().splitlines()) == 1
        )
        assert not (tmp_path / "new").exists()
    assert list(tmp_path.iterdir()) == []  # the holder's lock and folder went with it


def test_one_reader_of_notebook_names_for_notebooks_parameters_and_params(capsys, tmp_path):
    eight = "08_tftant_ring_and_star"
    by_name = parameters.find_notebooks([eight])
    for key in ("08", f"{eight}.ipynb", "tftant_slides_ring", str(by_name[0])):
        assert parameters.find_notebooks([key]) == by_name, key
        assert parameters.match_notebook(key, by_name) == by_name[0], key
    # the run resolves "08" and goes on to check the parameter: the name was understood
    _refused(
        capsys,
        _reproduce(tmp_path, "--notebooks", "08", "-p", "08:nope=1"),
        f"{eight}:nope",
        "has no parameter 'nope'",
    )
    assert cli.main(["params", "08", "--json"]) == 0
    assert list(json.loads(capsys.readouterr().out)) == [eight]
    line = _refused(capsys, ["params", "99"], "notebook not found: 99", ONE)
    assert line == _refused(capsys, _reproduce(tmp_path, "--notebooks", "99"))


def test_help_is_plain_text(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    assert "``" not in out and ":mod:" not in out and ":func:" not in out
    assert "pqlab reproduce" in out and "exit" in out.lower()


def test_params_lists_the_shared_parameters_once(capsys):
    assert cli.main(["params"]) == 0
    out = capsys.readouterr().out
    rows = [line.split()[0] for line in out.splitlines() if line.startswith("  ")]
    notebooks = parameters.shipped_notebooks()
    for shared in ("seed", "quick", "figures_dir", "results_dir"):
        assert rows.count(shared) == 1, shared
    # a notebook declaring a shared one otherwise (its own default) lists it as its own
    defaults = [
        next(p.default for p in parameters.read_parameters(s) if p.name == "n_seeds")
        for s in notebooks
    ]
    assert rows.count("n_seeds") == 1 + sum(d != 3 for d in defaults)
    for source in notebooks:
        assert source.stem in out
    assert len(out.splitlines()) < 60
    assert cli.main(["params", "--json"]) == 0  # the program-readable form: every notebook's list
    listed = json.loads(capsys.readouterr().out)
    assert all("seed" in {p["name"] for p in found} for found in listed.values())
    assert len(listed) == len(notebooks)


def test_demo_writes_into_a_scratch_or_named_folder_never_the_published_figures(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    scratch = cli._made(cli._demo_folder(None))
    assert scratch.is_dir() and tmp_path / locations.SCRATCH_NAME in scratch.parents
    assert cli._made(cli._demo_folder(tmp_path / "mine")) == (tmp_path / "mine").resolve()
    assert (tmp_path / "mine").is_dir()
    _refused(capsys, ["demo", "--n-ef-samples", "0"], "n_ef_samples")  # no scratch folder made
    assert len(list((tmp_path / locations.SCRATCH_NAME).iterdir())) == 1
    figures = locations.FIGURES
    before = sorted(figures.rglob("*")) if figures.exists() else None
    _refused(capsys, ["demo", "--out", str(figures)], "--out", "published figures folder")
    _refused(capsys, ["demo", "--out", str(figures / "demo")], "published figures folder")
    assert (sorted(figures.rglob("*")) if figures.exists() else None) == before
    # a reproduction published elsewhere (pqlab reproduce --out DIR) holds its publish record
    elsewhere = tmp_path / "elsewhere" / "figures"
    elsewhere.mkdir(parents=True)
    (elsewhere / publish.MANIFEST).write_text("{}", encoding="utf-8")
    _refused(
        capsys,
        ["demo", "--n-ef-samples", "100", "--out", str(elsewhere / "demo")],
        f"inside the published figures folder {elsewhere}",
    )
    assert [p.name for p in elsewhere.iterdir()] == [publish.MANIFEST]
