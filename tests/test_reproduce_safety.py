"""``pqlab reproduce`` as a safe, incremental build, on tiny notebooks (fast kernels, no
simulation).

Bad arguments touch nothing; a failed run is named in its report and site and publishes
nothing; Ctrl-C (a real SIGINT to the process group) stops every kernel and leaves the
previous reproduction byte-identical; a second run of the same tree refuses; ``--notebooks``
keeps the other sections; a warm rerun computes nothing.
"""

import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import nbformat
import pandas as pd
import psutil
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from pqlab import cli
from pqlab.measure import cache
from pqlab.pipeline import publish, report, reproduce, runlock

# Slow tier: every test runs pqlab reproduce with Jupyter kernels (.ci/run runs it).
pytestmark = pytest.mark.slow

PARAMS = 'figures_dir: str = ""\nresults_dir: str = ""\nquick: bool = False\nseed: int = 1'
PAPER = pd.DataFrame(
    [
        ["tiny_a", "value", "1.0", "1", "tiny paper", "a is 1"],
        ["tiny_b", "value", "2.0", "1", "tiny paper", "b is 2"],
    ],
    columns=list(report.PAPER_COLUMNS),
)


def _notebook(folder: Path, name: str, body: str) -> Path:
    nb = new_notebook(
        cells=[new_code_cell(PARAMS, metadata={"tags": ["parameters"]}), new_code_cell(body)]
    )
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    path = folder / f"{name}.ipynb"
    nbformat.write(nb, str(path))
    return path


def _recording(artefact: str, value_expr: str = "float(seed)", extra: str = "") -> str:
    """A notebook body recording one number and one figure of ``artefact`` through the cache."""
    return (
        "import os, time\nfrom pathlib import Path\nimport pandas as pd\nimport"
        " pqlab.papers.records,"
        f" pqlab.measure.cache\n{extra}\n@pqlab.measure.cache.artefact('{artefact}')\ndef"
        f" compute(seed, quick):\n    return pd.DataFrame({{'value': [{value_expr}]}})\nframe ="
        f" compute(seed, quick)\nfig = Path(figures_dir) / '{artefact}.png'\nfig.write_bytes(b'png"
        f" ' + str(seed).encode())\npqlab.papers.records.record(results_dir, '{artefact}', 'value',"
        " float(frame['value'][0]), '1',"
        f" seed=seed)\npqlab.papers.records.record_figure(results_dir, '{artefact}', [fig])\n"
    )


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nbs")
    return {
        "a": _notebook(folder, "a_first", _recording("tiny_a")),
        "b": _notebook(folder, "b_second", _recording("tiny_b", "2.0")),
    }


def _snapshot(root: Path) -> dict:
    """Every file under ``root`` (lock and cache excluded) with the sha256 of its bytes."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "cache" not in p.parts and runlock.LOCK_NAME not in p.name
    }  # the lock and its holder's name: the holder's


def _run(tiny, root, *names, **kwargs):
    return reproduce.run_all(
        [tiny[n] for n in names],
        out_dir=root / "figures",
        build_dir=root / "build",
        progress=False,
        paper_values=PAPER,
        jobs=2,
        **kwargs,
    )


@pytest.fixture(scope="module")
def published(tiny, tmp_path_factory):
    """A complete published reproduction of both tiny sections (seed 1), then a warm rerun."""
    root = tmp_path_factory.mktemp("tree")
    cold = _run(tiny, root, "a", "b")
    warm = _run(tiny, root, "a", "b")
    return root, cold, warm


def test_a_complete_run_publishes_and_a_warm_rerun_computes_nothing(published):
    root, cold, warm = published
    assert cold.ok and cold.published and warm.published
    assert cold.cache_counts["computed"] == 2 and cold.cache_counts["reused"] == 0
    assert warm.runs == () and warm.up_to_date == ("a_first", "b_second")
    assert warm.cache_counts == {"computed": 0, "reused": 0, "simulation": 0}
    pd.testing.assert_frame_equal(warm.report, cold.report)
    figures = root / "figures"
    assert {p.name for p in figures.iterdir()} >= {
        "tiny_a.png",
        "tiny_b.png",
        "report.md",
        "site",
        "status.json",
    }
    status = json.loads((figures / "status.json").read_text())
    assert status["ok"] and {s["artefact"]: s["status"] for s in status["artefacts"]} == {
        "tiny_a": "ok (up to date)",
        "tiny_b": "ok (up to date)",
    }
    assert list((root / "build" / "runs").iterdir()) == [
        publish.shown_run(figures)
    ]  # the earlier run went
    cached = list((root / "build" / "cache" / "tiny_a").glob("*.nc"))
    assert len(cached) == 1


def test_a_changed_notebook_reruns_and_reuses_its_unchanged_artefact(published, tiny, tmp_path):
    root, _, _ = published
    import shutil

    tree = tmp_path / "tree"
    shutil.copytree(root, tree, symlinks=True)
    nb = nbformat.read(str(tiny["a"]), as_version=4)
    nb.cells.append(new_code_cell("print('an added cell')"))
    changed = tmp_path / "nbs" / tiny["a"].name
    changed.parent.mkdir()
    nbformat.write(nb, str(changed))
    result = reproduce.run_all(
        [changed, tiny["b"]],
        out_dir=tree / "figures",
        build_dir=tree / "build",
        progress=False,
        paper_values=PAPER,
    )
    assert [r.name for r in result.runs] == ["a_first"] and result.up_to_date == ("b_second",)
    assert result.cache_counts == {"computed": 0, "reused": 1, "simulation": 0}
    forced = reproduce.run_all(
        [changed],
        out_dir=tree / "figures",
        build_dir=tree / "build",
        progress=False,
        paper_values=PAPER,
        force=True,
    )
    assert forced.cache_counts["computed"] == 1 and forced.kept_sections == ("b_second",)


def test_cache_files_are_netcdf_with_cf_attributes(published):
    import xarray as xr

    root, _, _ = published
    (file,) = (root / "build" / "cache" / "tiny_b").glob("*.nc")
    with xr.open_dataset(file) as ds:  # the format (netCDF-3 or netCDF-4) found by xarray
        assert ds.attrs["Conventions"].startswith("CF-")
        description = json.loads(ds.attrs["pqlab_cache_description"])
        assert description["artefact"] == "tiny_b" and description["arguments"] == {
            "seed": 1,
            "quick": False,
        }
        assert {"pqlab_version", "code_sha256"} <= set(description)
        for var in ds.variables.values():
            assert var.attrs["units"] and var.attrs["long_name"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--jobs", "0"], "jobs"),
        (["--jobs", "-1"], "jobs"),
        (["--seed", "-1"], "seed"),
        (["--paper-values", "/nonexistent/paper.csv"], "paper values file not found"),
        (["--notebooks", "no_such_notebook"], "notebook not found"),
    ],
)
def test_bad_arguments_exit_2_with_one_line_and_touch_nothing(
    published, tiny, argv, message, capsys
):
    root, _, _ = published
    before = _snapshot(root)
    code = cli.main(
        [
            "reproduce",
            "--out",
            str(root),
            "--no-progress",
            *(argv if "--notebooks" in argv else ["--notebooks", str(tiny["a"]), *argv]),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1
    assert _snapshot(root) == before


def test_a_read_only_output_folder_is_refused_before_running(tiny, tmp_path, capsys):
    if os.geteuid() == 0:
        locked = tmp_path / "file"
        locked.write_text(
            "not a folder"
        )  # root can write anywhere: use a file as the parent instead
        out = locked / "sub"
    else:
        out = tmp_path / "ro"
        out.mkdir()
        out.chmod(0o500)
    assert (
        cli.main(["reproduce", "--out", str(out), "--notebooks", str(tiny["a"]), "--no-progress"])
        == 2
    )
    assert "cannot be written" in capsys.readouterr().err


#: Holds the locks ``argv[1:]`` (folder and name pairs), says so on its output and sleeps.
HOLDER = """
import sys, time
from pqlab.pipeline import runlock
pairs = list(zip(sys.argv[1::2], sys.argv[2::2]))
with runlock.held(pairs, command="the holder"):
    print("held", flush=True)
    time.sleep(float(__import__("os").environ.get("HOLD_S", "600")))
"""


def _holder(*locks, hold_s: float = 600) -> subprocess.Popen:
    """A process holding ``locks`` ((folder, name) pairs), once it holds them."""
    argv = [str(part) for lock in locks for part in lock]
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, *argv],
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, HOLD_S=str(hold_s)),
    )
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_a_second_run_of_the_same_tree_refuses_and_a_killed_holder_frees_it_at_once(
    published, tiny, capsys
):
    root, _, _ = published
    before = _snapshot(root)
    holder = _holder((root / "build", runlock.LOCK_NAME))
    try:
        code = cli.main(
            ["reproduce", "--out", str(root), "--notebooks", str(tiny["a"]), "--no-progress"]
        )
        err = capsys.readouterr().err
        assert code == 3 and f"the holder (pid {holder.pid}" in err and "--wait" in err, err
        assert _snapshot(root) == before
    finally:
        holder.kill()  # kill -9: the operating system releases its lock, nothing is left to judge
        holder.wait()
    with runlock.held([(root / "build", runlock.LOCK_NAME)]):
        pass


def test_three_processes_never_hold_one_lock_together(tmp_path):
    """Each of three processes takes the lock 100 times and, holding it, creates a file with
    O_EXCL and removes it: two holders at once would find the other's file."""
    script = textwrap.dedent("""
        import os, sys
        from pathlib import Path
        from pqlab.pipeline import runlock
        folder = Path(sys.argv[1])
        for _ in range(100):
            with runlock.held([(folder, runlock.LOCK_NAME)], wait_s=120, poll_s=0.001):
                fd = os.open(folder / "inside", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
                os.close(fd)
                os.unlink(folder / "inside")
    """)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(tmp_path)], stderr=subprocess.PIPE, text=True
        )
        for _ in range(3)
    ]
    errors = [p.communicate(timeout=600)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], errors
    assert list(tmp_path.iterdir()) == []  # and every lock file went with its last holder


def test_two_concurrent_runs_never_mix(tiny, tmp_path):
    """Two real processes on one tree, seeds 1 and 2: one publishes, the other refuses (exit 3)."""
    argv = [
        sys.executable,
        "-m",
        "pqlab.cli",
        "reproduce",
        "--out",
        str(tmp_path),
        "--no-progress",
        "--no-site",
        "--notebooks",
        str(tiny["a"]),
        str(tiny["b"]),
        "--seed",
    ]
    procs = [
        subprocess.Popen(
            [*argv, str(seed)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for seed in (1, 2)
    ]
    codes = [p.wait(timeout=300) for p in procs]
    outputs = [p.stdout.read() + p.stderr.read() for p in procs]
    assert sorted(codes) == [0, 3], outputs
    assert not any(
        "without encryption" in text for text in outputs
    )  # kernels on IPC: no TCP warning
    winner = 1 + codes.index(0)
    records = report.load_records(tmp_path / "build" / "results")
    assert {r.get("seed") for r in records if r.get("kind") != "figure"} == {winner}
    assert (tmp_path / "figures" / "tiny_a.png").read_bytes() == b"png " + str(winner).encode()


def test_a_failed_notebook_is_named_in_report_and_site_and_nothing_is_published(
    published, tiny, tmp_path_factory
):
    root, _, _ = published
    shown = publish.shown_run(root / "figures")
    before = _snapshot(shown)
    bad = _notebook(
        tmp_path_factory.mktemp("bad"),
        "b_second",
        "import pqlab.papers.records\npqlab.papers.records.record(results_dir, 'tiny_b', 'value',"
        " 2.0, '1')\nraise RuntimeError('made to fail')",
    )
    result = reproduce.run_all(
        [bad],
        out_dir=root / "figures",
        build_dir=root / "build",
        progress=False,
        paper_values=PAPER,
    )
    assert not result.ok and not result.published
    assert publish.shown_run(root / "figures") == shown and _snapshot(shown) == before
    md = (result.report_dir / "report.md").read_text()
    assert "FAILED" in md and str(result.failures[0]) in md
    assert "notebook b_second failed in cell 1: RuntimeError" in str(result.failures[0])
    assert (
        "| tiny_b | b_second | failed |" in md
        and "| tiny_a | a_first | kept from an earlier run |" in md
    )
    index = (result.report_dir / "site" / "index.html").read_text()
    assert "pqlab-run-failed" in index and "b_second" in index
    assert not (
        result.report_dir / "tiny_b.png"
    ).exists()  # the failed section's figure is not shown stale
    assert (result.report_dir / "tiny_a.png").exists()  # the kept section's is


def test_notebooks_option_updates_one_section_in_place(published, tiny, tmp_path):
    root, _, _ = published
    import shutil

    tree = tmp_path / "tree"
    shutil.copytree(root, tree, symlinks=True)
    result = _run(tiny, tree, "b", seed=5)
    assert result.ok and result.kept_sections == ("a_first",)
    rows = result.report.set_index("artefact")
    assert rows.loc["tiny_a", "seed"] == 1 and rows.loc["tiny_b", "seed"] == 5
    assert "missing" not in set(result.report["verdict"])
    assert (tree / "figures" / "tiny_a.png").read_bytes() == b"png 1"
    assert (tree / "figures" / "tiny_b.png").read_bytes() == b"png 5"
    assert result.cache_counts["computed"] == 1  # only the rerun section, with its new seed


def _default_sigint():
    """``preexec_fn``: the child starts with SIGINT at its default, whatever the test harness has
    (a shell runs a background job, e.g. ``pytest ... &`` in a script, with SIGINT ignored, and
    a child inherits that: its Ctrl-C would then be ignored, the test's SIGINT with it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _reproduce_cli(root, *argv, build=None):
    """``pqlab reproduce`` of ``root`` in its own process group (as a terminal's foreground job)."""
    where = ["--out", str(root)] + (["--build", str(build)] if build else [])
    return subprocess.Popen(
        [sys.executable, "-m", "pqlab.cli", "reproduce", *where, "--no-progress", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_default_sigint,
    )


def _wait_for(proc, what: str, happened, deadline_s: float = 300):
    """Poll ``happened()`` until true; fail naming ``what`` if ``proc`` ends or the (generous)
    deadline passes first: no assumption on how fast a loaded machine is."""
    deadline = time.monotonic() + deadline_s
    while not happened():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            out, err = proc.communicate()
            pytest.fail(f"{what}: never seen (exit {proc.returncode}): {err[-3000:]}")
        time.sleep(0.05)


def _children(proc, word: str) -> list:
    try:
        return [
            c
            for c in psutil.Process(proc.pid).children(recursive=True)
            if word in " ".join(c.cmdline())
        ]
    except psutil.Error:
        return []


def _of_run(pid: int) -> list:
    """Live processes of the run of ``pid``: its workers and their kernels name its socket
    folders."""
    mark = f"{reproduce.SOCKET_PREFIX}{pid}-"
    found = []
    for process in psutil.process_iter(["cmdline", "status"]):
        try:
            if process.info["status"] != psutil.STATUS_ZOMBIE and mark in " ".join(
                process.info["cmdline"] or []
            ):
                found.append(process)
        except psutil.Error:
            continue
    return found


def _slow(folder: Path, marker: Path) -> Path:
    """Section a_first, whose cell says it runs (``marker``) and then sleeps 10 minutes: longer
    than any deadline of these tests, so a Ctrl-C that is not honoured always fails them."""
    return _notebook(
        folder,
        "a_first",
        f"import time\nfrom pathlib import Path\nPath({str(marker)!r}).touch()\n"
        "for _ in range(6000):\n    time.sleep(0.1)",
    )


#: Moments of a run at which the Ctrl-C tests send SIGINT, each an observable state.
MOMENTS = {
    "workers started": lambda proc, marker: bool(_children(proc, "_notebook_worker")),
    "kernels started": lambda proc, marker: bool(_children(proc, "ipykernel")),
    "cell running": lambda proc, marker: marker.exists(),
}


@pytest.mark.parametrize("moment", list(MOMENTS))
def test_sigint_stops_every_kernel_and_leaves_the_previous_reproduction_byte_identical(
    published, tiny, tmp_path, moment
):
    root, _, _ = published
    before = _snapshot(root)
    runs_before = set((root / "build" / "runs").iterdir())
    marker = tmp_path / "cell-running"
    proc = _reproduce_cli(
        root, "--jobs", "2", "--notebooks", str(_slow(tmp_path, marker)), str(tiny["b"])
    )
    _wait_for(proc, moment, lambda: MOMENTS[moment](proc, marker))
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)  # the slow cell would run 10 minutes: never reached
    assert proc.returncode == 130, err
    last = err.strip().splitlines()[-1]
    assert "interrupted" in last and "unchanged" in last and "Traceback" not in err, err
    left = _of_run(proc.pid)
    psutil.wait_procs(
        left, timeout=30
    )  # killed already (SIGKILL with their parent): only reaped by now
    assert [p.pid for p in left if p.is_running() and p.status() != psutil.STATUS_ZOMBIE] == []
    assert list(Path(tempfile.gettempdir()).glob(f"{reproduce.SOCKET_PREFIX}{proc.pid}-*")) == []
    assert _snapshot(root) == before
    assert (
        set((root / "build" / "runs").iterdir()) == runs_before
    )  # the interrupted run's folder is gone


#: Sends its process SIGINT when ``module`` is first looked for: a Ctrl-C at that moment of
#: the start of ``pqlab reproduce`` (imports take its first seconds).
SIGINT_AT_IMPORT = """
import os, signal, sys
class SigintAt:
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
            (lambda: None)()  # where the pending handler runs
        return None
sys.meta_path.insert(0, SigintAt())
"""


@pytest.mark.parametrize("command", ["pqlab", "python -m pqlab.cli"])
@pytest.mark.parametrize("module", ["pqlab.pipeline.reproduce", "pandas"])
def test_ctrl_c_while_the_command_starts_is_one_line_and_exit_130(tiny, tmp_path, command, module):
    """A Ctrl-C while the command imports its pipeline, or the pipeline its largest library
    (pandas; numba and the engine are never loaded before the notebooks run)."""
    (tmp_path / "sitecustomize.py").write_text(SIGINT_AT_IMPORT.format(module=module))
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])
    )
    start = (
        [str(Path(sys.executable).with_name("pqlab"))]
        if command == "pqlab"
        else [sys.executable, "-m", "pqlab.cli"]
    )
    done = subprocess.run(
        [
            *start,
            "reproduce",
            "--out",
            str(tmp_path / "tree"),
            "--no-progress",
            "--notebooks",
            str(tiny["a"]),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=_default_sigint,
    )
    assert done.returncode == 130 and done.stderr.strip() == "pqlab: interrupted", done.stderr
    assert not (tmp_path / "tree").exists()


def test_a_second_build_folder_publishing_into_the_same_figures_folder_refuses(
    published, tiny, tmp_path
):
    """Issue 28 item 8: the figures folder has its lock too; the refusal names the holder."""
    import shutil

    root, _, _ = published
    tree = shutil.copytree(root, tmp_path / "tree", symlinks=True)
    before = _snapshot(tree)
    marker = tmp_path / "cell-running"
    holder = _reproduce_cli(tree, "--notebooks", str(_slow(tmp_path, marker)))
    try:
        _wait_for(holder, "the holder's cell running", marker.exists)
        other = subprocess.run(
            [
                sys.executable,
                "-m",
                "pqlab.cli",
                "reproduce",
                "--out",
                str(tree),
                "--build",
                str(tmp_path / "other-build"),
                "--no-progress",
                "--notebooks",
                str(tiny["b"]),
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert other.returncode == 3, other.stderr
        assert f"pid {holder.pid}" in other.stderr and str(tree / "build") in other.stderr
        assert "--wait" in other.stderr and len(other.stderr.strip().splitlines()) == 1
    finally:
        os.killpg(holder.pid, signal.SIGINT)
        holder.communicate(timeout=120)
    assert holder.returncode == 130 and _snapshot(tree) == before
    assert not (tmp_path / "other-build" / "results").exists()


def test_two_build_folders_published_into_one_figures_folder_show_the_last_whole(
    published, tiny, tmp_path
):
    """The figures folder shows the run of the build folder that published last; the other build
    folder's run, no longer shown, goes with that build folder's next run."""
    import shutil

    root, _, _ = published
    tree = shutil.copytree(root, tmp_path / "tree", symlinks=True)
    other = tmp_path / "other-build"
    assert reproduce.run_all(
        [tiny["a"], tiny["b"]],
        out_dir=tree / "figures",
        build_dir=other,
        progress=False,
        paper_values=PAPER,
        seed=2,
    ).published
    assert publish.shown_run(tree / "figures").parent == other / "runs"
    again = _run(tiny, tree, "a", "b")
    assert again.published and publish.shown_run(tree / "figures").parent == tree / "build" / "runs"
    assert {r["seed"] for r in report.load_records(tree / "build" / "results") if "seed" in r} == {
        1
    }
    publish.remove_leftovers(tree / "figures", other)  # the other build folder's next run
    assert list((other / "runs").iterdir()) == []


def test_cache_force_recomputes_and_memoize_computes_once(tmp_path, monkeypatch):
    calls = []

    @cache.artefact("tiny_c")
    def compute(n, seeds=(1, 2)):
        calls.append(n)
        return pd.DataFrame(
            {"n": [n] * len(seeds), "seed": list(seeds), "label": ["x"] * len(seeds)}
        )

    monkeypatch.setenv(cache.ENV_DIR, str(tmp_path))
    monkeypatch.setenv(cache.ENV_LOG, str(tmp_path / "log.jsonl"))
    first = compute(3)
    again = compute(n=3, seeds=[1, 2])  # same call, other spelling: same key
    pd.testing.assert_frame_equal(first, again)
    assert calls == [3]
    compute(4)
    assert calls == [3, 4]
    monkeypatch.setenv(cache.ENV_FORCE, "1")
    compute(3)
    assert calls == [3, 4, 3]
    assert cache.read_counts(tmp_path / "log.jsonl") == {
        "computed": 3,
        "reused": 1,
        "simulation": 0,
    }

    runs = []

    @cache.memoize
    def grid(a, b=2):
        runs.append(a)
        return {"x": [a, b]}

    first = grid(1)
    first["x"].append(99)  # a caller's change never leaks into the next caller's copy
    assert grid(a=1, b=2) == {"x": [1, 2]} and runs == [1]


def test_identical_simulations_in_one_process_run_once():
    """Notebook 03's three artefacts share one grid of runs: the second artefact simulates nothing
    new."""
    from pqlab.papers.globecom01 import globecom01_fig7
    from pqlab.papers.stated import REF_RATES_BPS

    def simulations():
        return cache.counts().get("simulation", 0)

    start = simulations()
    fig7 = globecom01_fig7.compute(50, (1,))
    first = simulations() - start
    grid = len(REF_RATES_BPS)  # one seed: one run per reference rate
    assert first == grid + len(globecom01_fig7.BE_REFERENCE_PAYLOADS)
    again = globecom01_fig7.compute(
        50, [1]
    )  # the same grid and A = 0 references again: all memoised
    assert simulations() - start - first == 0
    assert fig7.identical(again)


def test_a_waiting_run_gets_the_lock_when_the_holder_ends(tmp_path):
    holder = _holder((tmp_path, runlock.LOCK_NAME), hold_s=3)
    with pytest.raises(runlock.RunLocked, match=f"pid {holder.pid}"):
        with runlock.held([(tmp_path, runlock.LOCK_NAME)], wait_s=0.5):
            pass
    started = time.monotonic()
    with runlock.held([(tmp_path, runlock.LOCK_NAME)], wait_s=60):
        assert time.monotonic() - started < 30
    holder.wait()


def test_staging_keeps_current_sections_figures_and_drops_the_rerun_ones(tmp_path):
    from pqlab.pipeline import runfolder

    out, build = tmp_path / "figures", tmp_path / "build"
    first = runfolder.stage(out, build, ["a", "b"], keep_others=False, trusted=False)
    for name in ("x.png", "y.png", "README.md", "report.md"):
        (first.out / name).write_bytes(b"1")
    report.record_figure(first.results / "a", "xa", [first.out / "x.png"])
    report.record_figure(first.results / "b", "xb", [first.out / "y.png"])
    first.merge_results()
    first.publish({"a": "key a", "b": "key b"}, {"seed": 1, "quick": False})
    run = runfolder.stage(out, build, ["b"], keep_others=False, up_to_date=["a"])
    assert sorted(p.name for p in run.out.iterdir()) == ["README.md", "x.png"] and run.kept == ["a"]
    (record,) = report.load_records(run.results / "a")
    assert record["paths"] == [str(run.out / "x.png")]  # points into the run until it is published


def test_a_result_the_cache_cannot_store_is_logged_not_warned(
    tmp_path, monkeypatch, caplog, recwarn
):
    """A DataFrame without a default RangeIndex is computed each time: said at INFO on
    ``pqlab.measure.cache``,
    counted as "uncached", never a warning (which an executed notebook would show its readers)."""

    @cache.artefact("tiny_indexed")
    def compute(n):
        return pd.DataFrame({"n": [n, n]}, index=["a", "b"])

    monkeypatch.setenv(cache.ENV_DIR, str(tmp_path))
    monkeypatch.setenv(cache.ENV_LOG, str(tmp_path / "log.jsonl"))
    with caplog.at_level("INFO", logger="pqlab.measure.cache"):
        compute(1)
    assert [w for w in recwarn if "not cached" in str(w.message)] == []
    assert any(
        "tiny_indexed not cached" in r.getMessage() and r.levelname == "INFO"
        for r in caplog.records
    )
    events = [
        json.loads(line)["event"] for line in (tmp_path / "log.jsonl").read_text().splitlines()
    ]
    assert "uncached" in events and not list(tmp_path.glob("tiny_indexed/*.nc"))
