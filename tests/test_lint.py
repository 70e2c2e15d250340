"""The tree passes ruff, the linter and the formatter, as configured in pyproject.toml.

ruff is pinned in the test lock (requirements/test.txt): its version decides the layout, so the
check runs the lock's ruff, never whichever one is on PATH.
"""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Offending lines quoted in a failure's message.
SHOWN = 20

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("ruff") is None,
    reason="ruff is not installed (it is in requirements/test.txt)",
)


def _ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def _first(lines: str) -> str:
    kept = [line for line in lines.splitlines() if line.strip()]
    more = f"\n... and {len(kept) - SHOWN} more lines" if len(kept) > SHOWN else ""
    return "\n".join(kept[:SHOWN]) + more


def test_ruff_check_finds_nothing():
    done = _ruff("check", "--no-cache", "--output-format", "concise", ".")
    if done.returncode != 0:
        pytest.fail(
            "ruff check (fix with `ruff check --fix`):\n" + _first(done.stdout + done.stderr)
        )


def test_ruff_format_changes_nothing():
    done = _ruff("format", "--no-cache", "--check", ".")
    if done.returncode != 0:
        pytest.fail(
            "ruff format --check (fix with `ruff format`):\n" + _first(done.stdout + done.stderr)
        )
