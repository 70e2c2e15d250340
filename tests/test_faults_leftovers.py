"""Nothing of an interrupted or killed ``pqlab reproduce`` outlives it in the temporary folder
(issue 28, item 9): a kernel's connection file (``tmpXXXX.json``, holding its HMAC key) and its
IPC sockets live in the run's socket folder, which Ctrl-C removes at once and the next run removes
after a ``kill -9``.
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from test_reproduce_safety import PAPER, _notebook, _recording

# Slow tier: pqlab reproduce interrupted, then run again (.ci/run runs it).
pytestmark = pytest.mark.slow


@pytest.fixture
def scratch(tmp_path):
    """(tiny notebooks, papers' values, output root, a temporary folder of its own for the runs)."""
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    marker = tmp_path / "running"
    hold = _notebook(
        nbs,
        "a_first",
        f"from pathlib import Path\nimport time\nPath({str(marker)!r}).write_text('x')\n"
        "for _ in range(6000):\n    time.sleep(0.1)",
    )
    quick = _notebook(tmp_path, "a_first", _recording("tiny_a"))
    paper = tmp_path / "paper.csv"
    PAPER.to_csv(paper, index=False)
    temp = Path(
        tempfile.mkdtemp(prefix="pqlt", dir="/tmp")
    )  # short: Unix socket paths are limited to ~100 bytes
    yield hold, quick, marker, paper, tmp_path / "tree", temp
    shutil.rmtree(temp, ignore_errors=True)


def _start(notebook, paper, root, temp) -> subprocess.Popen:
    argv = [
        sys.executable,
        "-m",
        "pqlab.cli",
        "reproduce",
        "--out",
        str(root),
        "--no-progress",
        "--no-site",
        "--jobs",
        "1",
        "--paper-values",
        str(paper),
        "--notebooks",
        str(notebook),
    ]
    return subprocess.Popen(
        argv,
        env=dict(os.environ, TMPDIR=str(temp)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _running(proc: subprocess.Popen, marker: Path) -> None:
    """Wait until the notebook runs in its kernel (it wrote ``marker``)."""
    deadline = time.monotonic() + 300  # a bound for a hung start, not a measurement
    while not marker.exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.1)


def _left(temp: Path) -> list:
    return sorted(str(p.relative_to(temp)) for p in temp.rglob("*"))


@pytest.mark.parametrize("stop", ["ctrl-c", "kill -9"])
def test_an_interrupted_run_leaves_nothing_in_the_temporary_folder(scratch, stop):
    hold, quick, marker, paper, root, temp = scratch
    proc = _start(hold, paper, root, temp)
    _running(proc, marker)
    assert [p for p in temp.rglob("*.json")], (
        "the kernel's connection file is in the run's temporary folder"
    )
    if stop == "ctrl-c":
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 130, err
        assert _left(temp) == []  # removed by the interrupted run itself
    else:
        proc.kill()
        proc.communicate(timeout=300)
    again = _start(quick, paper, root, temp)
    _, err = again.communicate(timeout=600)
    assert again.returncode == 0, err
    assert _left(temp) == []
