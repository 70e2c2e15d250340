"""``run_all`` and ``pqlab reproduce`` on two tiny notebooks: one records, one fails."""

import os
import sys
import types

import nbformat
import pandas as pd
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from pqlab import cli
from pqlab.pipeline import notebook_html, report, reproduce, schedule

GOOD = [
    new_markdown_cell("A tiny notebook that records one number and one figure."),
    new_code_cell(
        'figures_dir: str = "."  # where figures go\nresults_dir: str = "."  # where results go\n'
        "quick: bool = False\nseed: int = 0",
        metadata={"tags": ["parameters"]},
    ),
    new_code_cell(
        "import os\nfrom pathlib import Path\nimport pqlab.papers.records\nfigure ="
        " Path(figures_dir) /"
        " 'tiny_fig1.png'\nfigure.write_bytes(b'png')\npqlab.papers.records.record(results_dir,"
        " 'tiny_fig1', 'mean delay', 1.05, 'ms',\n                    note=f\"quick={quick}"
        " backend={os.environ.get('MPLBACKEND')}\","
        " seed=seed)\npqlab.papers.records.record_figure(results_dir, 'tiny_fig1', [figure])"
    ),
]
BAD = [
    new_code_cell("x = 1"),
    new_code_cell("raise RuntimeError('boom <2>')"),
    new_code_cell("x = 2"),
]
PAPER = pd.DataFrame(
    [
        ["tiny_fig1", "mean delay", "1.0", "ms", "tiny paper Fig. 1", "mean delay is 1 ms"],
        ["tiny_fig2", "max delay", "3.0", "ms", "tiny paper Fig. 2", "never reached"],
    ],
    columns=list(report.PAPER_COLUMNS),
)


@pytest.fixture(scope="module")
def notebooks(tmp_path_factory):
    folder = tmp_path_factory.mktemp("notebooks")
    files = []
    for name, cells in (("a_good", GOOD), ("b_bad", BAD)):
        path = folder / f"{name}.ipynb"
        nb = new_notebook(cells=cells)
        nb.metadata["kernelspec"] = {
            "name": "python3",
            "display_name": "Python 3",
            "language": "python",
        }
        nbformat.write(nb, str(path))
        files.append(path)
    (folder / "_draft.ipynb").write_text("not a notebook")  # skipped: leading underscore
    return files


@pytest.fixture(scope="module")
def result(notebooks, tmp_path_factory):
    root = tmp_path_factory.mktemp("run")
    stale = root / "build" / "results"
    stale.mkdir(parents=True)
    report.record(stale, "stale_fig", "old", 1.0, "ms")
    return reproduce.run_all(
        [notebooks[0].parent],
        quick=True,
        out_dir=root / "figures",
        build_dir=root / "build",
        seed=7,
        progress=False,
        paper_values=PAPER,
    )


@pytest.mark.slow  # Jupyter kernels
def test_good_notebook_result_is_in_the_report(result):
    assert result.status == {"a_good": "ok", "b_bad": "failed"}
    row = result.report.set_index(["artefact", "quantity"]).loc[("tiny_fig1", "mean delay")]
    assert (row["ours"], row["seed"], row["verdict"]) == (1.05, 7, "reproduced")
    assert row["explanation"] == "quick=True backend=Agg"
    assert result.report.set_index("artefact").loc["tiny_fig2", "verdict"] == "missing"
    assert "stale_fig" not in set(result.report["artefact"])
    md = (result.report_dir / "report.md").read_text()
    assert "[tiny_fig1.png](<tiny_fig1.png>)" in md
    assert (result.report_dir / "report.html").is_file() and (
        result.report_dir / "report.csv"
    ).is_file()


@pytest.mark.slow  # Jupyter kernels
def test_failing_notebook_is_reported_by_name_and_cell(result):
    (failure,) = result.failures
    assert (failure.notebook, failure.cell_index, failure.ename) == ("b_bad", 1, "RuntimeError")
    assert str(failure) == "notebook b_bad failed in cell 1: RuntimeError: boom <2>"
    assert failure.executed.is_file()
    assert set(result.timings) == {"a_good", "b_bad"} and all(
        t > 0 for t in result.timings.values()
    )


@pytest.mark.slow  # Jupyter kernels
def test_cli_exits_1_and_names_the_failure(notebooks, tmp_path, capsys):
    csv = tmp_path / "paper_values.csv"
    PAPER.to_csv(csv, index=False)
    argv = [
        "reproduce",
        "--notebooks",
        *map(str, notebooks),
        "--out",
        str(tmp_path),
        "--paper-values",
        str(csv),
        "--no-progress",
    ]
    assert cli.main(argv) == 1
    out, err = capsys.readouterr()
    assert "notebook b_bad failed in cell 1: RuntimeError: boom <2>" in err
    assert "a_good" in out and "reproduced" in out
    assert "was not published" in err
    assert not (tmp_path / "figures" / "report.md").exists()  # a failed run publishes nothing


def test_find_notebooks_resolves_files_folders_and_names(notebooks, tmp_path, monkeypatch):
    folder = notebooks[0].parent
    (folder / "sub").mkdir(exist_ok=True)
    (folder / "sub" / "c.ipynb").write_text("{}")
    assert reproduce.find_notebooks([folder]) == [p.resolve() for p in notebooks]
    assert reproduce.find_notebooks([notebooks[1], folder]) == [
        notebooks[1].resolve(),
        notebooks[0].resolve(),
    ]
    monkeypatch.setattr(reproduce.locations, "NOTEBOOKS", folder)
    assert reproduce.find_notebooks(["b_bad"]) == [notebooks[1].resolve()]
    assert reproduce.find_notebooks() == [p.resolve() for p in notebooks]
    with pytest.raises(ValueError, match="notebook not found: nope"):
        reproduce.find_notebooks(["nope"])
    (tmp_path / "a_good.ipynb").write_text("{}")
    with pytest.raises(ValueError, match="share a name"):
        reproduce.find_notebooks([folder, tmp_path / "a_good.ipynb"])


def test_html_export_uses_nbconvert_when_present(notebooks, tmp_path, monkeypatch):
    class FakeExporter:
        def from_notebook_node(self, nb, resources):
            return f"<html>{resources['metadata']['name']}: {len(nb.cells)} cells</html>", {}

    monkeypatch.setitem(sys.modules, "nbconvert", types.SimpleNamespace(HTMLExporter=FakeExporter))
    exporter = notebook_html.html_exporter()
    written = notebook_html.export_html(exporter, notebooks[0], tmp_path / "html")
    assert written == tmp_path / "html" / "a_good.html"
    cells = len(nbformat.read(str(notebooks[0]), as_version=4).cells)
    assert written.read_text() == f"<html>a_good: {cells} cells</html>"
    assert notebook_html.export_html(exporter, tmp_path / "absent.ipynb", tmp_path / "html") is None


def test_html_pages_show_the_published_folders_not_the_run_folder(tmp_path):
    """The parameters cell papermill added shows ``figures`` and ``build/results/<name>``, not
    absolute
    run-folder paths; the executed notebook itself keeps them."""
    from nbconvert import HTMLExporter

    run = tmp_path / "build" / "runs" / "20261125-000000-1"
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell(
        f'figures_dir = "{run}/out"\nresults_dir = "{run}/results/01_x"\nquick = True'
    )
    cell.metadata["tags"] = [notebook_html.INJECTED_TAG]
    nb.cells = [nbformat.v4.new_code_cell("x = 1"), cell]
    executed = tmp_path / "01_x.ipynb"
    nbformat.write(nb, str(executed))
    shown = {str(run / "out"): "figures", str(run / "results"): "build/results"}
    page = notebook_html.export_html(HTMLExporter(), executed, tmp_path / "html", shown).read_text(
        encoding="utf-8"
    )
    assert str(tmp_path) not in page and "runs/" not in page
    assert "build/results/01_x" in page and "folders relative to the output folder" in page
    assert str(run) in executed.read_text(encoding="utf-8")
    assert notebook_html.relative_parameters("quick = True", shown) == "quick = True"


# ------------------------------------------------------------------ workers keep one kernel


def _write(folder, name, cells):
    path = folder / f"{name}.ipynb"
    nb = new_notebook(cells=[GOOD[1], *cells])
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, str(path))
    return path


@pytest.mark.slow  # Jupyter kernels
def test_one_worker_runs_notebooks_in_one_kernel_with_a_fresh_namespace_each(tmp_path):
    """jobs=1: three notebooks in one worker. The kernel is kept (same pid for the 1st and 3rd
    when the 2nd does not kill it), no name of one notebook reaches the next, the execution count
    restarts at 1, each runs in its own folder; a notebook that kills its kernel fails alone."""
    folder = tmp_path / "nbs"
    (folder / "sub").mkdir(parents=True)
    pid_file = tmp_path / "pids.txt"
    probe = (
        f"import os\nopen({str(pid_file)!r}, 'a').write(f'{{os.getpid()}} "
        f'{{os.environ.get("OPENBLAS_NUM_THREADS")}} {{os.getcwd()}}\\n\')\n'
        "assert 'leaked' not in globals(), 'a name of the previous notebook is still defined'\n"
        "leaked = 1"
    )
    first = _write(folder, "n1", [new_code_cell(probe)])
    second = _write(folder / "sub", "n2", [new_code_cell(probe)])
    killer = _write(folder, "n3", [new_code_cell(probe), new_code_cell("import os\nos._exit(3)")])
    last = _write(folder, "n4", [new_code_cell(probe)])
    result = reproduce.run_all(
        [first, second, killer, last],
        quick=True,
        out_dir=tmp_path / "figures",
        build_dir=tmp_path / "build",
        progress=False,
        paper_values=PAPER,
        jobs=1,
        site=False,
    )
    assert result.status == {"n1": "ok", "n2": "ok", "n3": "failed", "n4": "ok"}
    pids, threads, cwds = zip(*(line.split(" ", 2) for line in pid_file.read_text().splitlines()))
    assert pids[0] == pids[1] == pids[2] != pids[3]  # one kernel, replaced after n3 killed it
    # the kernels' BLAS thread pools sized for the workers (unless the user set it)
    expected = os.environ.get(
        "OPENBLAS_NUM_THREADS", schedule.thread_limits(1)["OPENBLAS_NUM_THREADS"]
    )
    assert set(threads) == {expected}
    assert [c.strip() for c in cwds] == [str(folder), str(folder / "sub"), str(folder), str(folder)]
    for run in result.runs:
        if run.failure is None:
            counts = [
                c.execution_count
                for c in nbformat.read(str(run.executed), 4).cells
                if c.cell_type == "code"
            ]
            assert counts == list(range(1, len(counts) + 1))


def test_longest_notebooks_of_the_previous_run_go_first(tmp_path):
    pending = [(i, tmp_path / f"{n}.ipynb") for i, n in enumerate(["a", "b", "c", "d"])]
    order = schedule.longest_first(pending, {"a": 3.0, "b": 30.0, "d": 10.0})
    assert [p.stem for _, p in order] == ["c", "b", "d", "a"]  # c: no time yet, first
    schedule.save_seconds(
        tmp_path,
        [
            types.SimpleNamespace(name="a", seconds=4.0, failure=None),
            types.SimpleNamespace(name="b", seconds=9.0, failure="x"),
        ],
    )
    assert schedule.previous_seconds(tmp_path) == {"a": 4.0}
    (tmp_path / schedule.SECONDS_FILE).write_text("not json")
    shipped = schedule.read_seconds(schedule.SHIPPED_SECONDS)
    assert schedule.previous_seconds(tmp_path) == shipped  # unreadable: the shipped times
    assert schedule.previous_seconds(tmp_path / "fresh") == shipped  # a first run too


def test_a_first_run_orders_the_notebooks_by_the_shipped_times():
    """``data/notebook_seconds.json`` has a time for every paper notebook (update it with
    ``benchmarks/reproduce.py --write-order`` when a notebook is added)."""
    shipped = schedule.read_seconds(schedule.SHIPPED_SECONDS)
    names = {p.stem for p in reproduce.find_notebooks()}
    assert set(shipped) == names
    assert all(s > 0 for s in shipped.values())


def test_workers_get_one_thread_pool_share_each(monkeypatch):
    monkeypatch.setattr(reproduce.os, "cpu_count", lambda: 2)
    assert schedule.thread_limits(2) == {v: "1" for v in schedule.THREAD_VARIABLES}
    assert schedule.thread_limits(1)["OPENBLAS_NUM_THREADS"] == "2"
    monkeypatch.setattr(reproduce.os, "cpu_count", lambda: None)
    assert schedule.thread_limits(4)["OMP_NUM_THREADS"] == "1"


@pytest.mark.slow  # Jupyter kernels
def test_a_kernel_slow_to_start_is_waited_for(tmp_path, monkeypatch):
    """A kernel that takes seconds to answer (a fresh install compiles its imports) runs the
    notebook: the worker asks the kernel's process, not its heartbeat, whether it is alive
    (with the heartbeat, a fresh wheel install failed "Kernel died before replying to kernel_info").
    """
    import json
    import os

    from pqlab.pipeline import _notebook_worker

    spec = tmp_path / "jupyter" / "kernels" / "slowpython"
    spec.mkdir(parents=True)
    start = (
        "import sys, time; time.sleep(4); from ipykernel import kernelapp; sys.argv[1:] = ['-f',"
        " sys.argv[1]]; kernelapp.launch_new_instance()"
    )
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [sys.executable, "-c", start, "{connection_file}"],
                "display_name": "slow",
                "language": "python",
            }
        )
    )
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    notebook = _write(tmp_path, "slow", [new_code_cell("answer = 6 * 7")])
    task = tmp_path / "slow.task.json"
    task.write_text(
        json.dumps(
            {
                "source": str(notebook),
                "executed": str(tmp_path / "slow.out.ipynb"),
                "kernel_name": "slowpython",
                "parameters": {},
                "result": str(tmp_path / "slow.result.json"),
                "log": str(tmp_path / "slow.log"),
            }
        )
    )
    saved = os.dup(1), os.dup(2)  # the worker points its output at the task's log
    try:
        _notebook_worker.serve(
            str(tmp_path), str(tmp_path / "kernel.log"), "slowpython", tasks=[f"{task}\n"]
        )
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
    assert json.loads((tmp_path / "slow.result.json").read_text()) == {
        "cell_index": None,
        "ename": None,
        "evalue": None,
    }


def test_kernels_keep_no_ipython_history():
    """Every kernel a worker starts runs with IPython's history off: no shared history database, so
    no
    "ERROR! Session/line number was not unique in database" in an executed notebook."""
    from pqlab.pipeline._notebook_worker import KERNEL_ARGUMENTS, IPCKernelManager

    km = IPCKernelManager(kernel_name="python3")
    assert "--HistoryManager.enabled=False" in KERNEL_ARGUMENTS
    assert set(KERNEL_ARGUMENTS) <= set(km.format_kernel_cmd())
