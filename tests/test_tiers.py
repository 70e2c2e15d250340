"""The two tiers: the README's test command leaves the ``slow`` tests out, CI runs them after.

pyproject.toml's pytest ``addopts`` hold ``-m "not slow"``, so ``python -m pytest -q`` (the README's
command, run word for word by ``.ci/run``) is the development loop; ``.ci/run`` then runs
``-m slow`` with the venv the README's command made, and ``.ci/other_pythons`` runs both tiers of
its files on every other Python.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CI = ROOT / ".ci"

TWO_TESTS = """
import pytest

def test_quick():
    pass

@pytest.mark.slow
def test_long():
    pass
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """A folder with this checkout's pyproject.toml (its pytest section as it is) and two tests."""
    folder = tmp_path_factory.mktemp("tiers")
    shutil.copy(ROOT / "pyproject.toml", folder / "pyproject.toml")
    (folder / "tests").mkdir()
    (folder / "tests" / "test_two.py").write_text(TWO_TESTS, encoding="utf-8")
    return folder


def _ran(project: Path, *args: str) -> tuple[int, set[str]]:
    """pytest's exit code and the names of the tests that passed, run in ``project`` (pytest's own
    plugins only: the installed ones take seconds to load and play no part in selecting by mark)."""
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    argv = [sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", *args]
    done = subprocess.run(argv, cwd=project, env=env, capture_output=True, text=True, timeout=120)
    return done.returncode, set(re.findall(r"^PASSED tests/test_two.py::(\w+)", done.stdout, re.M))


@pytest.mark.parametrize(
    "args, code, passed",
    [
        ((), 0, {"test_quick"}),  # the README's command: no slow tier
        (("-m", "slow"), 0, {"test_long"}),  # .ci/run's slow step: a later -m wins
        (("-m", ""), 0, {"test_quick", "test_long"}),  # both tiers
        (("-m", "slow", "-k", "quick"), 5, set()),  # none collected: exit 5, .ci/run accepts it
    ],
)
def test_the_readme_command_leaves_the_slow_tier_out_and_a_later_m_selects_it(
    project, args, code, passed
):
    assert _ran(project, *args) == (code, passed)


def test_ci_runs_the_slow_tier_after_the_readme_command_with_its_venv():
    """``.ci/run``: the README's command, then ``-m slow`` with ``.venv/bin/python``; exit 5 is no
    failure, any other failure of the slow tier fails CI."""
    run = (CI / "run").read_text(encoding="utf-8")
    slow = "slow=(.venv/bin/python -m pytest -q -m slow)"
    assert slow in run
    step = '"${slow[@]}" || slow_rc=$?'
    assert run.index('bash -c "$cmd"') < run.index(slow) < run.index(step)
    assert re.search(r'if \[ "\$slow_rc" = 5 \]; then\n\s+slow_rc=0', run)
    assert 'exit "$slow_rc"' in run


def test_other_pythons_run_both_tiers_of_their_files():
    """Another Python runs its files' slow tests too (the golden quick report among them)."""
    text = (CI / "other_pythons").read_text(encoding="utf-8")
    assert re.search(r'-m pytest -q -p no:cacheprovider -m "" "\$\{TESTS\[@\]\}"', text)


def test_every_test_reading_the_quick_reproduction_is_in_the_slow_tier():
    """conftest's hook marks ``slow`` a test that uses ``quick_run``, and no other test."""
    import conftest

    class Item:
        def __init__(self, fixturenames):
            self.fixturenames, self.marks = fixturenames, []

        def add_marker(self, mark):
            self.marks.append(mark.name)

    reads, other = Item(["tmp_path", "quick_run"]), Item(["tmp_path"])
    conftest.pytest_collection_modifyitems(None, [reads, other])
    assert (reads.marks, other.marks) == (["slow"], [])
