"""``pqlab reproduce -p NOTEBOOK:NAME=VALUE`` and ``pqlab params``, run as a user runs them (a
subprocess).

A tiny notebook records its parameters as numbers: a ``-p`` value must reach the kernel, change the
section's key (rerun, never a stale section) and be named in the report's provenance (report.md,
report.csv, the site); the same value again reuses the published section. Bad input is one line on
stderr naming the notebook, the parameter and what is allowed, exit 2, nothing run.
"""

import json
import subprocess
import sys

import pandas as pd
import pytest
from conftest import write_notebook

from pqlab import cli
from pqlab.base import locations
from pqlab.pipeline import parameters, report

PARAMETERS_CELL = (
    'figures_dir: str = "."  # where figures go\n'
    'results_dir: str = "."  # where results go\n'
    "quick: bool = False  # fewer samples\n"
    "seed: int = 0  # first seed\n"
    "n_packets: int = 3  # packets counted (the recorded number)\n"
    'label: str = "plain"  # a label, recorded as the note\n'
    "rate_kbps: float = 2.5  # a rate, kbit/s\n"
    "verbose: bool = False  # print more\n"
)
RECORD_CELL = (
    "from pathlib import Path\nimport"
    " pqlab.papers.records\npqlab.papers.records.record(results_dir, 'tiny_fig1', 'mean delay',"
    " float(n_packets) + rate_kbps, 'ms',\n                            note=f'{label} {verbose}',"
    " seed=seed)\n"
)
PAPER = pd.DataFrame(
    [["tiny_fig1", "mean delay", "5.5", "ms", "tiny paper Fig. 1", "mean delay is 5.5 ms"]],
    columns=list(report.PAPER_COLUMNS),
)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny")
    path = write_notebook(folder / "07_tiny.ipynb", PARAMETERS_CELL, RECORD_CELL)
    PAPER.to_csv(folder / "paper_values.csv", index=False)
    return path


def pqlab_command(*argv, timeout=600):
    return subprocess.run(
        [sys.executable, "-m", "pqlab.cli", *argv], capture_output=True, text=True, timeout=timeout
    )


def _reproduce(tiny, out, *argv):
    return pqlab_command(
        "reproduce",
        "--notebooks",
        str(tiny),
        "--out",
        str(out),
        "--paper-values",
        str(tiny.parent / "paper_values.csv"),
        "--no-progress",
        "--jobs",
        "1",
        *argv,
    )


def _ours(out) -> float:
    table = pd.read_csv(out / "figures" / "report.csv")
    return float(table.set_index("artefact").loc["tiny_fig1", "ours"])


@pytest.mark.slow  # three pqlab reproduce runs
def test_a_parameter_reaches_the_notebook_the_key_and_the_report(tiny, tmp_path):
    out = tmp_path / "run"
    first = _reproduce(
        tiny,
        out,
        "-p",
        "07_tiny:n_packets=5",
        "-p",
        "07:label=hello world",
        "-p",
        f"{tiny.name}:verbose=true",
    )
    assert first.returncode == 0, first.stderr
    assert _ours(out) == 5 + 2.5
    figures = out / "figures"
    line = (
        "Notebook parameters other than the defaults (pqlab reproduce -p): 07_tiny ran with "
        "label='hello world', n_packets=5, verbose=True."
    )
    assert line in (figures / "report.md").read_text(encoding="utf-8")
    table = pd.read_csv(figures / "report.csv", keep_default_na=False)
    assert (
        table.set_index("artefact").loc["tiny_fig1", "parameters"]
        == "label='hello world', n_packets=5, verbose=True"
    )
    assert table.set_index("artefact").loc["tiny_fig1", "explanation"] == "hello world True"
    for page in (figures / "report.html", figures / "site" / "index.html"):
        assert "07_tiny ran with label=&#39;hello world&#39;, n_packets=5" in page.read_text(
            encoding="utf-8"
        ), page
    assert "parameters" in pd.read_csv(figures / "site" / "report.csv").columns
    assert "07_tiny ran with" in first.stdout

    # the same values again (in another order and spelling): the published section is reused
    again = _reproduce(
        tiny,
        out,
        "--no-site",
        "-p",
        "07:verbose=True",
        "-p",
        "07_tiny:label=hello world",
        "-p",
        "07_tiny:n_packets=5",
    )
    assert again.returncode == 0, again.stderr
    assert "up to date, not rerun: 07_tiny" in again.stdout
    # another value: rerun, never the stale section
    other = _reproduce(
        tiny, out, "--no-site", "-p", "07_tiny:n_packets=6", "-p", "07_tiny:rate_kbps=1"
    )
    assert other.returncode == 0, other.stderr
    assert "up to date" not in other.stdout and _ours(out) == 6 + 1.0
    assert "07_tiny ran with n_packets=6, rate_kbps=1.0." in (figures / "report.md").read_text(
        encoding="utf-8"
    )
    # back to the defaults: rerun (the published section was computed with n_packets=6), no
    # provenance line
    plain = _reproduce(tiny, out, "--no-site")
    assert plain.returncode == 0, plain.stderr
    assert "up to date" not in plain.stdout and _ours(out) == 3 + 2.5
    text = (figures / "report.md").read_text(encoding="utf-8")
    assert parameters.PROVENANCE_PREFIX not in text
    assert "parameters" not in pd.read_csv(figures / "report.csv").columns
    # a value equal to the default is no override: the default section is reused
    default = _reproduce(tiny, out, "--no-site", "-p", "07_tiny:n_packets=3")
    assert default.returncode == 0, default.stderr
    assert "up to date, not rerun: 07_tiny" in default.stdout


@pytest.mark.parametrize(
    "option, names",
    [
        ("99_nothing:n_packets=1", ["'99_nothing' is not a notebook of this run", "07_tiny"]),
        (
            "07_tiny:n_packet=1",
            [
                "07_tiny:n_packet",
                "no parameter 'n_packet'",
                "n_packets (int)",
                "rate_kbps (float)",
                "label (str)",
            ],
        ),
        ("07_tiny:n_packets=2.5", ["07_tiny:n_packets must be an integer", "default 3", "'2.5'"]),
        ("07_tiny:n_packets=many", ["07_tiny:n_packets must be an integer", "'many'"]),
        ("07_tiny:rate_kbps=fast", ["07_tiny:rate_kbps must be a finite number", "type float"]),
        ("07_tiny:verbose=maybe", ["07_tiny:verbose must be True or False"]),
        ("07_tiny:seed=3", ["07_tiny:seed", "--seed"]),
        ("07_tiny:quick=True", ["07_tiny:quick", "--quick"]),
        ("07_tiny:results_dir=/tmp", ["07_tiny:results_dir", "--out"]),
        ("n_packets=3", ["-p must be NOTEBOOK:NAME=VALUE", "'n_packets=3'"]),
        ("07_tiny:n_packets", ["-p must be NOTEBOOK:NAME=VALUE"]),
    ],
)
def test_bad_parameters_are_refused_naming_them(tiny, tmp_path, capsys, option, names):
    """The command's main in this process (each case checked before anything runs); the same as a
    subprocess in :func:`test_a_bad_parameter_is_one_line_and_exit_2_from_the_command`."""
    code = cli.main(
        [
            "reproduce",
            "--notebooks",
            str(tiny),
            "--out",
            str(tmp_path / "run"),
            "--paper-values",
            str(tiny.parent / "paper_values.csv"),
            "--no-progress",
            "-p",
            option,
        ]
    )
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pqlab: error: "), err
    for name in names:
        assert name in lines[0], (name, lines[0])
    assert not (tmp_path / "run").exists()  # nothing touched


def test_a_bad_parameter_is_one_line_and_exit_2_from_the_command(tiny, tmp_path):
    done = _reproduce(tiny, tmp_path / "run", "-p", "07_tiny:n_packet=1")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.strip().splitlines() == [
        "pqlab: error: 07_tiny:n_packet: 07_tiny has no parameter 'n_packet'; its parameters:"
        " n_packets (int), label (str), rate_kbps (float), verbose (bool)"
    ]
    assert not (tmp_path / "run").exists()


def test_one_parameter_given_two_values_is_refused(tiny, tmp_path):
    done = _reproduce(
        tiny, tmp_path / "run", "-p", "07_tiny:n_packets=4", "-p", "07_tiny:n_packets=5"
    )
    assert done.returncode == 2 and "07_tiny:n_packets is given twice" in done.stderr


def test_a_parameter_of_a_notebook_not_run_is_refused():
    done = pqlab_command(
        "reproduce", "--notebooks", "01_background_traffic", "-p", "02:n_seeds_real=3"
    )
    assert done.returncode == 2
    assert "'02' is not a notebook of this run; its notebooks: 01_background_traffic" in done.stderr


def test_params_lists_every_notebook_with_types_defaults_and_comments():
    done = pqlab_command("params")
    assert done.returncode == 0, done.stderr
    notebooks = sorted(
        p.stem for p in locations.NOTEBOOKS.glob("*.ipynb") if not p.name.startswith("_")
    )
    headings = [line for line in done.stdout.splitlines() if not line.startswith(" ")]
    for name in notebooks:  # each notebook heads its own parameters (the shared ones listed first)
        assert any(line.split()[0] == name for line in headings), name
    assert (
        "payload_step_bytes" in done.stdout
        and "Fig. 3-1: BE payload sweep step, bytes" in done.stdout
    )
    row = next(line for line in done.stdout.splitlines() if "ef_service_rate_kbps" in line)
    assert row.split()[:3] == ["ef_service_rate_kbps", "float", "400.0"]


def test_params_of_one_notebook_as_json():
    done = pqlab_command("params", "07", "--json")
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)
    assert list(listed) == ["07_tftant_pq_vs_wfq"]
    by_name = {p["name"]: p for p in listed["07_tftant_pq_vs_wfq"]}
    assert by_name["ef_service_rate_kbps"] == {
        "name": "ef_service_rate_kbps",
        "type": "float",
        "default": 400.0,
        "comment": "EF service rate: WFQ weight of the EF queue, PQ policing rate",
        "set_by": None,
        "minimum": 1.0,
        "maximum": 2000.0,
    }
    assert by_name["seed"]["set_by"] == "--seed" and by_name["n_seeds"]["default"] == 3


def test_an_artefact_id_names_the_notebook_that_runs_it():
    sources = sorted(p for p in locations.NOTEBOOKS.glob("*.ipynb") if not p.name.startswith("_"))
    assert parameters.match_notebook("globecom01_fig3_1", sources).stem == "01_background_traffic"
    assert parameters.match_notebook("07", sources).stem == "07_tftant_pq_vs_wfq"
    with pytest.raises(ValueError, match="'globecom01_nothing' is not a notebook of this run"):
        parameters.match_notebook("globecom01_nothing", sources)


def test_params_of_an_unknown_notebook_is_one_line():
    done = pqlab_command("params", "nothing_like_it")
    assert done.returncode == 2
    assert done.stderr.startswith("pqlab: error: ") and len(done.stderr.strip().splitlines()) == 1
    assert "01_background_traffic" in done.stderr


def test_the_parameters_cell_is_read_with_its_types_defaults_and_comments(tmp_path):
    path = write_notebook(
        tmp_path / "x.ipynb",
        "import math  # not a parameter\n"
        "a: int = 1_000  # a count\n"
        "b = 2.5  # untyped: its value's type\n"
        "c: 'str' = 'x'\n"
        "d: list = [1, 2]  # not settable from text, any literal\n"
        "e: float = math.pi  # not a literal\n"
        "f: bool = True\n",
    )
    got = {p.name: (p.type, p.default, p.comment) for p in parameters.read_parameters(path)}
    assert got == {
        "a": ("int", 1000, "a count"),
        "b": ("float", 2.5, "untyped: its value's type"),
        "c": ("str", "x", ""),
        "d": ("any", [1, 2], "not settable from text, any literal"),
        "e": ("float", None, "not a literal"),
        "f": ("bool", True, ""),
    }
    resolved = parameters.resolve(
        {"x": {"a": "2_000", "b": "3", "d": "[3]", "f": "false", "c": "x"}}, [path]
    )
    assert resolved == {"x": {"a": 2000, "b": 3.0, "d": [3], "f": False}}
    assert (
        parameters.resolve({"x": {"a": 1000, "b": 2.5}}, [path]) == {}
    )  # the defaults: no override
    with pytest.raises(ValueError, match=r"x:b must be a finite number .* got nan"):
        parameters.resolve({"x": {"b": float("nan")}}, [path])
    with pytest.raises(ValueError, match=r"x:a must be an integer .* got True"):
        parameters.resolve({"x": {"a": True}}, [path])
