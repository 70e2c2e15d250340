"""Fault injection on kernels and the main process (issue 22): a stopped (hung) kernel, a
kernel killed with kill -9, notebook and cell time limits, and kill -9 of ``pqlab reproduce``
itself: every cause named, detected in seconds, nothing left running or behind."""

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import psutil
import pytest
from nbformat.v4 import new_code_cell

from pqlab import cli
from pqlab.pipeline import kernelwatch, reproduce

from test_reproduce_safety import PAPER, _notebook, _recording


def test_hung_dead_and_slow_kernels_fail_their_notebooks_naming_the_cause(tmp_path):
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    notebooks = [
        _notebook(nbs, "a_hung", "import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)"),
        _notebook(nbs, "b_died", "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)"),
        _notebook(nbs, "c_slow_cell", "import time\ntime.sleep(60)"),
        _notebook(nbs, "d_slow_notebook", "import time"),
        _notebook(nbs, "e_fine", _recording("tiny_a")),
    ]
    slow = nbformat.read(str(notebooks[3]), as_version=4)
    slow.cells += [new_code_cell("time.sleep(1)") for _ in range(60)]  # no cell over its limit, 60 s in all
    nbformat.write(slow, str(notebooks[3]))
    started = time.monotonic()
    result = reproduce.run_all(notebooks, out_dir=tmp_path / "figures", build_dir=tmp_path / "build", progress=False,
                               paper_values=PAPER, jobs=2, notebook_timeout_s=20, cell_timeout_s=8)
    elapsed = time.monotonic() - started
    failures = {f.notebook: f for f in result.failures}
    assert set(failures) == {"a_hung", "b_died", "c_slow_cell", "d_slow_notebook"} and not result.published
    assert result.status["e_fine"] == "ok"  # a fresh kernel after each, never the stuck one
    assert failures["a_hung"].ename == "KernelHung" and "stopped (SIGSTOP" in failures["a_hung"].evalue
    assert failures["b_died"].ename == "KernelDied" and "kill -9" in failures["b_died"].evalue
    assert failures["c_slow_cell"].ename == "CellTimeoutError"
    assert failures["d_slow_notebook"].ename == "NotebookTimeout" and "20 s" in failures["d_slow_notebook"].evalue
    seconds = result.timings
    assert seconds["a_hung"] < kernelwatch.STOPPED_GRACE_S + 10 and seconds["b_died"] < 10, seconds
    assert elapsed < 120
    for name in failures:  # the message names the notebook
        assert f"notebook {name} failed" in str(failures[name])
    assert not [p for p in psutil.process_iter(["cmdline"]) if str(tmp_path) in " ".join(p.info["cmdline"] or [])]


def test_the_cli_exits_1_naming_a_hung_notebook(tmp_path, capsys):
    hung = _notebook(tmp_path, "a_hung", "import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)")
    paper = tmp_path / "paper.csv"
    PAPER.to_csv(paper, index=False)
    code = cli.main(["reproduce", "--out", str(tmp_path / "o"), "--no-progress", "--paper-values", str(paper),
                     "--notebooks", str(hung)])
    err = capsys.readouterr().err
    assert code == 1 and "notebook a_hung failed: KernelHung: its kernel" in err, err


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_bad_timeouts_are_refused_with_exit_2(tmp_path, value, capsys):
    nb = _notebook(tmp_path, "a", "pass")
    assert cli.main(["reproduce", "--out", str(tmp_path / "o"), "--notebooks", str(nb), "--cell-timeout", value]) == 2
    assert "cell timeout must be a finite number of seconds > 0" in capsys.readouterr().err


def test_kill_9_of_reproduce_ends_its_workers_and_kernels_and_the_next_run_cleans_up(tmp_path):
    slow = _notebook(tmp_path, "a_slow", "import time\nfor _ in range(600):\n    time.sleep(0.1)")
    other = _notebook(tmp_path, "b_slow", "import time\nfor _ in range(600):\n    time.sleep(0.1)")
    paper = tmp_path / "paper.csv"
    PAPER.to_csv(paper, index=False)
    argv = [sys.executable, "-m", "pqlab.cli", "reproduce", "--out", str(tmp_path / "o"), "--no-progress",
            "--paper-values", str(paper), "--jobs", "2", "--notebooks"]
    proc = subprocess.Popen([*argv, str(slow), str(other)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    me = psutil.Process(proc.pid)
    deadline = time.monotonic() + 120
    kernels = set()
    while time.monotonic() < deadline and len(kernels) < 2:
        kernels = {c.pid for c in me.children(recursive=True) if "ipykernel" in " ".join(c.cmdline())}
        time.sleep(0.2)
    assert len(kernels) == 2
    descendants = {c.pid for c in me.children(recursive=True)}
    sockets = f"{reproduce.SOCKET_PREFIX}{proc.pid}-*"
    assert list(Path(tempfile.gettempdir()).glob(sockets))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    killed = time.monotonic()

    def alive():
        return [p for p in descendants if psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE]

    while alive() and time.monotonic() - killed < 10:
        time.sleep(0.1)
    assert alive() == [] and time.monotonic() - killed < 5  # workers and kernels end with their parent
    assert list(Path(tempfile.gettempdir()).glob(sockets))  # the killed run could not remove these...
    fine = _notebook(tmp_path, "a_slow", _recording("tiny_a"))
    done = subprocess.run([*argv, str(fine)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert list(Path(tempfile.gettempdir()).glob(sockets)) == []  # ...the next run did
    assert not list((tmp_path / "o" / "build" / "runs").iterdir())


def test_a_kernel_ended_by_the_oom_killer_or_at_its_memory_limit_is_named_out_of_memory(monkeypatch):
    from pqlab.node import memory

    kills = iter([3, 4])
    monkeypatch.setattr(memory, "oom_kills", lambda: next(kills))
    watch = kernelwatch.Watch(os.getpid(), 60)
    assert watch._why_died().startswith("out of memory (the out-of-memory killer")
    monkeypatch.setattr(memory, "oom_kills", lambda: None)
    watch = kernelwatch.Watch(os.getpid(), 60)
    watch.rss_share = 0.97
    assert watch._why_died() == "out of memory (it last held 97% of the memory it could use)"
    watch.rss_share = 0.2
    assert "kill -9" in watch._why_died()
