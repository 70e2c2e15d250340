"""``pqlab lab``: the lab notebooks copied from the package, a student's copy kept, JupyterLab
started."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from pqlab import cli
from pqlab.base import locations
from pqlab.lab import jupyter as labfolder

SHIPPED = sorted(p.name for p in locations.LAB_NOTEBOOKS.glob("*.ipynb"))


def test_lab_copies_the_notebooks_and_keeps_an_edited_copy(tmp_path, capsys):
    folder = tmp_path / "class"
    assert cli.main(["lab", str(folder), "--dry-run", "--no-browser"]) == 0
    out = capsys.readouterr().out
    assert sorted(p.name for p in folder.glob("*.ipynb")) == SHIPPED and len(SHIPPED) >= 4
    assert "-m jupyterlab" in out and f"--ServerApp.root_dir={folder.resolve()}" in out
    edited = folder / SHIPPED[0]
    edited.write_text(edited.read_text() + " ")
    done = labfolder.copy_notebooks(folder)
    assert done["kept"] == [edited] and len(done["unchanged"]) == len(SHIPPED) - 1
    assert edited.read_text().endswith(" ")
    assert labfolder.copy_notebooks(folder, force=True)["copied"] == [edited]
    assert edited.read_bytes() == (locations.LAB_NOTEBOOKS / SHIPPED[0]).read_bytes()


def test_lab_prints_its_access_token_and_takes_one(tmp_path, capsys):
    """``pqlab lab`` prints the token and the address to open; ``--token`` sets it; an empty one is
    refused."""
    assert (
        cli.main(["lab", str(tmp_path / "a"), "--dry-run", "--no-browser", "--port", "8899"]) == 0
    )
    out = capsys.readouterr().out
    token = out.split("access token: ")[1].split()[0]
    assert len(token) == 48 and f"open: http://127.0.0.1:8899/lab?token={token}" in out
    assert f"--IdentityProvider.token={token}" in out
    assert cli.main(["lab", str(tmp_path / "b"), "--dry-run", "--token", "s3cret"]) == 0
    out = capsys.readouterr().out
    assert "access token: s3cret" in out and "--IdentityProvider.token=s3cret" in out
    assert cli.main(["lab", str(tmp_path / "c"), "--dry-run", "--token", " "]) == 2
    assert "must not be empty" in capsys.readouterr().err


def test_lab_without_jupyterlab_says_how_to_install_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(labfolder, "have_jupyterlab", lambda: False)
    assert cli.main(["lab", str(tmp_path / "l"), "--no-browser"]) == 2
    assert 'pip install "pqlab[lab]"' in capsys.readouterr().err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow  # a JupyterLab server
def test_lab_starts_a_jupyterlab_server(tmp_path):
    pytest.importorskip("jupyterlab", reason='JupyterLab is the "lab" extra')
    port = _free_port()
    env = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(tmp_path / "cfg"),
        JUPYTER_RUNTIME_DIR=str(tmp_path / "rt"),
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pqlab.cli",
            "lab",
            str(tmp_path / "lab"),
            "--no-browser",
            "--port",
            str(port),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env=env,
    )
    try:
        deadline, answer = time.monotonic() + 120, None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api", timeout=2) as response:
                    answer = (response.status, json.loads(response.read()))
                break
            except OSError:
                time.sleep(0.5)
        assert answer is not None, (
            proc.stdout.read().decode() if proc.poll() is not None else "no answer"
        )
        assert answer[0] == 200 and "version" in answer[1]
        assert sorted(p.name for p in (tmp_path / "lab").glob("*.ipynb")) == SHIPPED
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
