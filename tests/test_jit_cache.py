"""numba's on-disk cache never runs stale code: a cached jitted function is keyed on what it calls.

numba keys a cached function on its own file; the machine code it stores also holds the jitted
functions it calls and the global constants it reads, from other files. Each test copies the
package to a temporary folder, runs a program in a fresh process (which fills the cache), edits a
callee or a constant in another file, and runs the program again in a fresh process: it must see
the edit. A last test checks that every cached jitted function of the package is keyed this way.
"""

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import pqlab

#: Every test here compiles the package's kernels afresh in child processes: the slow tier.
pytestmark = pytest.mark.slow

PACKAGE = Path(pqlab.__file__).resolve().parent

#: One summary of 50 packets of flow 0 (delays 1-2 ms; packets 10-19 marked ``drop``=1):
#: its median delay and its ``policed`` and ``queue_full`` counts.
SUMMARY = textwrap.dedent("""\
    import numpy as np
    from pqlab.node.summary import FlowSummary
    n = 50
    arrival = np.arange(n) * 0.01
    departure = arrival + np.linspace(1e-3, 2e-3, n)
    drop = np.zeros(n, dtype=np.int8)
    drop[10:20] = 1
    zeros = np.zeros(n, dtype=np.int64)
    summary = FlowSummary(percentiles=(50,))
    summary.update(arrival, np.full(n, 100, dtype=np.int64), zeros, departure, drop, zeros)
    ds = summary.to_dataset(warn=False)
    print(float(ds["delay_p50"].values.ravel()[0]), int(ds["policed"].values[0]),
          int(ds["queue_full"].values[0]))
""")


def _run(root: Path, cache: Path) -> list:
    env = {"PYTHONPATH": str(root), "NUMBA_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", SUMMARY], capture_output=True, text=True, env=env, cwd=root
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} not found once in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture
def copied(tmp_path):
    """A copy of the package (no numba cache files) and an empty numba cache folder."""
    shutil.copytree(
        PACKAGE, tmp_path / "src" / "pqlab", ignore=shutil.ignore_patterns("__pycache__")
    )
    return tmp_path / "src", tmp_path / "numba_cache"


@pytest.mark.parametrize(
    "module, old, new, changed",
    [
        # a jitted callee in another file: every value falls in the first bin, which stands for 0
        ("base/sketch.py", "    return j if x > upper[0] else 0\n", "    return 0\n", 0),
        # a global constant of another file, compiled in: drop code 1 now counts as a full queue
        (
            "node/engine.py",
            "KEPT, POLICED, QUEUE_FULL, EARLY_DROP = 0, 1, 2, 3",
            "KEPT, POLICED, QUEUE_FULL, EARLY_DROP = 0, 5, 1, 3",
            2,
        ),
    ],
    ids=["callee", "constant"],
)
def test_an_edit_of_what_a_cached_function_calls_is_run_next_time(
    copied, module, old, new, changed
):
    root, cache = copied
    before = _run(root, cache)
    assert float(before[0]) > 1e-3 and before[1:] == ["10", "0"]
    assert _run(root, cache) == before  # the cache is read back: same answer
    _edit(root / "pqlab" / module, old, new)
    after = _run(root, cache)
    expected = list(before)
    if changed == 0:
        expected[0] = "0.0"
    else:
        expected[1:] = ["0", "10"]
    assert after == expected


#: After :data:`SUMMARY`: the cache misses of the package's jitted functions in this process.
MISSES = textwrap.dedent("""\
    import sys
    from numba.core.registry import CPUDispatcher
    found = {v for name, m in list(sys.modules.items()) if name.startswith("pqlab.") and m
             for v in vars(m).values() if isinstance(v, CPUDispatcher)}
    print(sum(sum(d.stats.cache_misses.values()) for d in found),
          sum(sum(d.stats.cache_hits.values()) for d in found))
""")


def test_the_key_is_the_same_in_every_process(copied):
    """A fresh process finds every function in the cache the previous one filled (the key holds
    no per-process value, e.g. a set's order): no miss, no compilation."""
    root, cache = copied
    env = {"PYTHONPATH": str(root), "NUMBA_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"}
    runs = [
        subprocess.run(
            [sys.executable, "-c", SUMMARY + MISSES],
            capture_output=True,
            text=True,
            env=env,
            cwd=root,
        )
        for _ in range(2)
    ]
    assert all(r.returncode == 0 for r in runs), runs[-1].stderr
    (misses_first, _), (misses_then, hits_then) = (map(int, r.stdout.split()[-2:]) for r in runs)
    assert misses_first > 0 and misses_then == 0 and hits_then > 0


def test_every_cached_jitted_function_is_keyed_on_its_callees():
    from numba.core.registry import CPUDispatcher

    import pqlab.lab  # noqa: F401  (loads every layer)
    import pqlab.node.captures  # noqa: F401
    import pqlab.node.markers  # noqa: F401
    import pqlab.node.streaming  # noqa: F401
    import pqlab.node.summary  # noqa: F401
    from pqlab.base import jitcache

    found = []
    for name, module in list(sys.modules.items()):
        if not name.startswith("pqlab.") or module is None:
            continue
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == name:
                found.append(value)
    cached = [
        d
        for d in found
        if getattr(d, "_cache", None) is not None and type(d._cache).__name__ != "NullCache"
    ]
    assert len(cached) >= 20
    unkeyed = [d.py_func.__qualname__ for d in cached if not jitcache.is_keyed(d)]
    assert not unkeyed
    sources = [p for p in PACKAGE.rglob("*.py") if p.name != "jitcache.py"]
    assert not [str(p) for p in sources if "cache=True" in p.read_text(encoding="utf-8")]
