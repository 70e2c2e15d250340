"""End to end in a real JupyterLab: every lab notebook and one paper notebook, run in headless
Chromium.

One JupyterLab server (``python -m jupyterlab``) is started on 127.0.0.1 at a free port
with a random token, in a temporary copy of the notebooks; selenium drives Debian's
Chromium through chromedriver. For each lab notebook (``notebooks/lab/*.ipynb``, with
``n_ef_samples`` lowered by an injected cell, ``interactive`` left True) it opens the
notebook, runs all cells (JupyterLab's ``notebook:run-all-cells`` command, what the Run
menu's "Run All Cells" does), waits until every cell has run and the kernel is idle, and
checks that no cell shows an error, that the sliders render as ipywidgets views (not the
"widgets unavailable" fallback), then presses an arrow key on a slider's handle and
checks that the plot image below the sliders changed. It then runs the paper notebook
``05_worst_case`` with ``quick = True`` (figures and results written to the temporary
folder) and checks that each figure the notebook saved also shows inline as an image.

Kernels are shut down through the server's REST API, then the server's process group is
terminated (killed if it does not stop), in ``finally`` blocks. Skipped, with the reason,
when Chromium, chromedriver, selenium or jupyterlab is missing. Screenshots of each
notebook go to ``$PQLAB_SCREENSHOTS`` when that variable names a folder.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import nbformat
import pytest
from _browser import browser_missing, headless_chromium

# Slow tier: JupyterLab driven by a browser (.ci/run runs it).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
LAB_NOTEBOOKS = sorted((ROOT / "notebooks" / "lab").glob("*.ipynb"))
PAPER_NOTEBOOK = ROOT / "notebooks" / "05_worst_case.ipynb"
#: EF samples per lab run: the notebooks' 10,000 would only make the test slower.
LAB_N_EF_SAMPLES = 1_000
SERVER_START_TIMEOUT_S = 120
NOTEBOOK_RUN_TIMEOUT_S = 240
REDRAW_TIMEOUT_S = 60


def _missing() -> str | None:
    reason = browser_missing()
    if reason:
        return reason
    try:
        import jupyterlab  # noqa: F401
    except ImportError:
        return "jupyterlab not installed (pip install -e '.[test]')"
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _inject_after_parameters(source: Path, target: Path, code: str) -> None:
    """Copy a notebook, adding a cell of ``code`` right after its ``parameters`` cell (as papermill
    does)."""
    nb = nbformat.read(source, as_version=4)
    index = next(
        i for i, c in enumerate(nb.cells) if "parameters" in c.get("metadata", {}).get("tags", [])
    )
    cell = nbformat.v4.new_code_cell(code)
    cell.metadata["tags"] = ["injected-parameters"]
    nb.cells.insert(index + 1, cell)
    nbformat.write(nb, target)


class JupyterLab:
    """A JupyterLab server in its own process group, with a REST client (token auth)."""

    def __init__(self, root: Path, home: Path):
        self.root, self.port, self.token = root, _free_port(), secrets.token_hex(24)
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
            "JUPYTER_CONFIG_DIR": str(home / "config"),
            "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
            "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
            "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
        }
        # no news or update pop-ups over the notebook
        notification = (
            home
            / "settings"
            / "@jupyterlab"
            / "apputils-extension"
            / "notification.jupyterlab-settings"
        )
        notification.parent.mkdir(parents=True)
        notification.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))
        self.log = open(home / "jupyterlab.log", "wb")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "jupyterlab",
                "--no-browser",
                "--expose-app-in-browser",
                "--allow-root",
                "--ServerApp.terminals_enabled=False",
                "--LabApp.extension_manager=readonly",
                "--ServerApp.ip=127.0.0.1",
                f"--ServerApp.port={self.port}",
                "--ServerApp.port_retries=0",
                f"--IdentityProvider.token={self.token}",
                f"--ServerApp.root_dir={root}",
                "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            ],
            cwd=root,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while True:
            try:
                self.api("GET", "status")
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    log = self.log_text()
                    self.stop()
                    raise RuntimeError(f"JupyterLab did not start: {log[-3000:]}") from None
                time.sleep(0.5)

    def api(self, method: str, path: str):
        request = urllib.request.Request(
            f"{self.url}/api/{path}",
            method=method,
            headers={"Authorization": f"token {self.token}"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return json.loads(body) if body else None

    def kernels(self) -> list[dict]:
        return self.api("GET", "kernels")

    def shutdown_kernels(self) -> None:
        for session in self.api("GET", "sessions"):
            self.api("DELETE", f"sessions/{session['id']}")
        for kernel in self.kernels():
            self.api("DELETE", f"kernels/{kernel['id']}")

    def log_text(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text(errors="replace")

    def descendants(self) -> list[int]:
        """Process ids of the server's children, grandchildren, ... (the kernels), from
        ``/proc``."""
        parents = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
        found, todo = [], [self.process.pid]
        while todo:
            children = parents.get(todo.pop(), [])
            found += children
            todo += children
        return found

    def stop(self) -> list[int]:
        """Shut the kernels down, stop the server (SIGTERM, SIGKILL after 20 s), then any kernel
        left.

        Kernels run in sessions of their own (jupyter_client starts them so), so they are
        found as the server's descendants before it stops and killed by id if they outlive
        it. Returns the ids of the processes still alive afterwards (none expected).
        """
        kernels = self.descendants() if Path("/proc").is_dir() else []
        try:
            if self.process.poll() is None:
                try:
                    self.shutdown_kernels()
                except OSError:
                    pass
                os.killpg(self.process.pid, signal.SIGTERM)
                try:
                    self.process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(self.process.pid, signal.SIGKILL)
                    self.process.wait(timeout=10)
            deadline = time.monotonic() + 10
            while [p for p in kernels if _alive(p)] and time.monotonic() < deadline:
                time.sleep(0.2)
            for pid in kernels:
                if _alive(pid):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.2)
            return [p for p in kernels if _alive(p)]
        finally:
            self.log.close()


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _shutdown_kernels_quietly(lab: "JupyterLab") -> None:
    try:
        lab.shutdown_kernels()
    except OSError:  # a dead server: the fixture's stop() reports it
        pass


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """A temporary copy of the notebooks the server serves: lab notebooks + the paper notebook
    (quick)."""
    root = tmp_path_factory.mktemp("jupyterlab-root")
    for nb in LAB_NOTEBOOKS:
        _inject_after_parameters(nb, root / nb.name, f"n_ef_samples = {LAB_N_EF_SAMPLES}")
    out = root / "paper-output"
    (out / "figures").mkdir(parents=True)
    _inject_after_parameters(
        PAPER_NOTEBOOK,
        root / PAPER_NOTEBOOK.name,
        f"quick = True\nfigures_dir = {str(out / 'figures')!r}\n"
        f"results_dir = {str(out / 'results')!r}",
    )
    return root


@pytest.fixture(scope="module")
def lab(workspace, tmp_path_factory):
    reason = _missing()
    if reason:
        pytest.skip(reason)
    server = JupyterLab(workspace, tmp_path_factory.mktemp("jupyter-home"))
    left = []
    try:
        yield server
    finally:
        left = server.stop()
    assert server.process.poll() is not None and left == [], f"processes left behind: {left}"


@pytest.fixture(scope="module")
def browser(lab):
    with headless_chromium(window_size="1400,1800", page_load_timeout_s=60) as driver:
        yield driver


# --------------------------------------------------------------------------- in the page

_CELLS_JS = """
const panel = window.jupyterapp.shell.currentWidget;
if (!panel || !panel.content || !panel.content.model || !panel.sessionContext) return null;
const cells = [];
for (const cell of panel.content.model.cells) {
  if (cell.type !== 'code') continue;
  const outputs = [];
  for (let i = 0; i < cell.outputs.length; i++) outputs.push(cell.outputs.get(i).toJSON());
  cells.push({count: cell.executionCount, outputs: outputs});
}
const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
return {path: panel.context.path, cells: cells, status: kernel ? kernel.status : 'no kernel'};
"""


def _notebook_state(driver):
    return driver.execute_script(_CELLS_JS)


def _wait(predicate, timeout_s: float, what: str, interval_s: float = 0.5):
    deadline = time.monotonic() + timeout_s
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s:.0f} s waiting for {what}")
        time.sleep(interval_s)


def _open_and_run_all(driver, lab: JupyterLab, name: str) -> dict:
    """Open ``name`` in a fresh workspace, wait for its kernel, run all cells, wait until all ran;
    the state."""
    workspace = "w" + secrets.token_hex(4)
    driver.get(f"{lab.url}/lab/workspaces/{workspace}/tree/{name}?token={lab.token}")
    _wait(
        lambda: driver.execute_script("return !!(window.jupyterapp && window.jupyterapp.shell)"),
        60,
        "the JupyterLab application",
    )

    def ready():
        state = _notebook_state(driver)
        return state if state and state["path"] == name and state["status"] == "idle" else None

    _wait(ready, 120, f"{name} open with an idle kernel")
    driver.execute_script("return window.jupyterapp.commands.execute('notebook:run-all-cells')")

    def finished():
        state = _notebook_state(driver)
        done = (
            state
            and state["status"] == "idle"
            and all(c["count"] is not None for c in state["cells"])
        )
        errors = [
            o
            for c in (state or {"cells": []})["cells"]
            for o in c["outputs"]
            if o["output_type"] == "error"
        ]
        return state if done or errors else None

    state = _wait(finished, NOTEBOOK_RUN_TIMEOUT_S, f"every cell of {name} to run")
    return state


def _errors(state: dict) -> list[str]:
    return [
        f"{o['ename']}: {o['evalue']}"
        for c in state["cells"]
        for o in c["outputs"]
        if o["output_type"] == "error"
    ]


def _text(state: dict) -> str:
    parts = []
    for c in state["cells"]:
        for o in c["outputs"]:
            text = o.get("text") or o.get("data", {}).get("text/plain", "")
            parts.append("".join(text) if isinstance(text, list) else str(text))
    return "\n".join(parts)


def _screenshot(driver, name: str) -> None:
    folder = os.environ.get("PQLAB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(folder) / f"{Path(name).stem}.png"))


_WIDGET_PANEL_JS = """
const sliders = Array.from(document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .widget-slider'));
return sliders.map(s => {
  const box = s.closest('.widget-vbox');
  const img = box ? box.querySelector('.widget-output img') : null;
  const readout = s.querySelector('.widget-readout');
  return {label: (s.querySelector('.widget-label') || {}).textContent || '',
          readout: readout ? readout.textContent : null,
          img: img ? img.getAttribute('src') : null};
});
"""  # noqa: E501


def _sliders(driver) -> list[dict]:
    return driver.execute_script(_WIDGET_PANEL_JS)


@pytest.mark.parametrize("notebook", LAB_NOTEBOOKS, ids=lambda p: p.stem)
def test_lab_notebook_runs_in_jupyterlab_with_live_sliders(notebook, lab, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    try:
        state = _open_and_run_all(browser, lab, notebook.name)
        assert _errors(state) == [], f"{notebook.name}: cells with errors"
        assert "widgets unavailable" not in _text(state)
        sliders = _wait(
            lambda: [s for s in _sliders(browser) if s["img"]],
            REDRAW_TIMEOUT_S,
            "sliders with a plot below them",
        )
        assert browser.find_elements(By.CSS_SELECTOR, ".jupyter-widgets.widget-slider")
        before = sliders[0]
        handle = browser.find_elements(
            By.CSS_SELECTOR, ".jp-NotebookPanel:not(.lm-mod-hidden) .widget-slider .noUi-handle"
        )[0]
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", handle)
        _screenshot(browser, notebook.name)
        at_minimum = float(handle.get_attribute("aria-valuenow")) <= float(
            handle.get_attribute("aria-valuemin")
        )
        handle.send_keys(
            Keys.ARROW_RIGHT if at_minimum else Keys.ARROW_LEFT
        )  # one step, as a student would
        after = _wait(
            lambda: [
                s
                for s in _sliders(browser)
                if s["label"] == before["label"] and s["img"] and s["img"] != before["img"]
            ],
            REDRAW_TIMEOUT_S,
            f"the plot of {notebook.name} to redraw after moving '{before['label']}'",
        )[0]
        assert after["readout"] != before["readout"]
        assert after["img"].startswith("data:image/png;base64,")
        state = _notebook_state(browser)
        assert _errors(state) == []
        assert not browser.find_elements(
            By.CSS_SELECTOR,
            ".jp-NotebookPanel:not(.lm-mod-hidden) .widget-output "
            "[data-mime-type='application/vnd.jupyter.stderr']",
        ), "the redraw printed an error"
        _screenshot(browser, notebook.stem + "-moved")
    finally:
        _shutdown_kernels_quietly(lab)


def test_paper_notebook_shows_its_figures_inline(lab, browser, workspace):
    try:
        state = _open_and_run_all(browser, lab, PAPER_NOTEBOOK.name)
        assert _errors(state) == [], f"{PAPER_NOTEBOOK.name}: cells with errors"
        saved = sorted(p.stem for p in (workspace / "paper-output" / "figures").glob("*.png"))
        assert saved, "the notebook saved no figure into the temporary folder"
        inline = [
            o["metadata"]["pqlab"]["figure"]
            for c in state["cells"]
            for o in c["outputs"]
            if "image/png" in o.get("data", {}) and "pqlab" in o.get("metadata", {})
        ]
        assert sorted(inline) == saved
        images = browser.execute_script(
            "return Array.from(document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
            ".jp-OutputArea-output img')).map(i => [i.complete, i.naturalWidth]);"
        )
        assert len(images) >= len(saved) and all(ok and width > 0 for ok, width in images), images
        _screenshot(browser, PAPER_NOTEBOOK.name)
    finally:
        _shutdown_kernels_quietly(lab)
