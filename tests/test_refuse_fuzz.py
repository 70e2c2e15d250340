"""Fuzzing the public entry points of compiled code: no crash, no traceback, no silent count.

Hundreds of calls with random, mostly wrong inputs (fixed seeds) to
:meth:`pqlab.base.sketch.LogBins.add`, :meth:`~pqlab.base.sketch.LogBins.quantiles` and
:meth:`pqlab.node.summary.FlowSummary.update` run in a child process, so that a segmentation
fault fails the test instead of ending pytest. Each call either succeeds, counting exactly the
values it was given, or raises a one-line ``ValueError``/``TypeError`` naming its parameter and
changing no count.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

CASES_PER_SEED = 150
SEEDS = (1, 2, 3)

CHILD = textwrap.dedent('''
    import sys
    import traceback

    import numpy as np

    from pqlab.base.sketch import LogBins
    from pqlab.node.summary import FlowSummary

    SEEDS, CASES = [int(x) for x in sys.argv[1].split(",")], int(sys.argv[2])
    POOL = [0, 1, 2, 3, 5, 9, -1, -10**9, 10**9, 2**31, 2**63 - 1, 0.5, -0.0, 1e-300, 1e300,
            np.nan, np.inf, -np.inf]
    DTYPES = [np.int8, np.int64, np.uint64, np.float32, np.float64, bool, object, str, None]

    def anything(n):
        """An array (or list, or scalar) of about ``n`` values, often of a wrong kind."""
        pick = rng.integers(12)
        if pick == 0:
            return ["x", None, 3.5, [[1, 2], [3]], {"a": 1}, "y" * 500][rng.integers(6)]
        if pick == 1:
            return [POOL[i] for i in rng.integers(0, len(POOL), n)]
        if pick == 2:
            return np.zeros((n, 2))
        if pick == 3:
            return np.arange(n).astype("m8[ms]")
        n = max(0, n + int(rng.choice([0, 0, 0, 0, -1, 1, 1000])))
        values = ([POOL[i] for i in rng.integers(0, len(POOL), n)] if pick < 6
                  else rng.integers(0, 4, n).tolist())
        dtype = DTYPES[rng.integers(len(DTYPES))] if pick < 9 else None
        try:
            with np.errstate(all="ignore"):
                return np.array(values, dtype=dtype)
        except (ValueError, TypeError, OverflowError):
            return values

    def refused(exc, names):
        text = str(exc)
        ok = ("\\n" not in text and len(text) <= 400 and any(n in text for n in names)
              and "9223372036854775808" not in text)
        if not ok:
            print(f"BAD MESSAGE {type(exc).__name__}: {text[:500]!r}")
            sys.exit(2)

    bins = LogBins()
    failures = 0
    for SEED, case in [(seed, case) for seed in SEEDS for case in range(CASES)]:
        if case == 0:
            rng = np.random.default_rng(SEED)
        kind = case % 3
        n = int(rng.integers(0, 6))
        try:
            if kind == 0:  # LogBins.add
                counts = bins.zeros(int(rng.integers(1, 4))) if rng.random() < 0.8 else anything(n)
                before = np.array(counts, copy=True) if isinstance(counts, np.ndarray) else None
                values = rng.random(n) if rng.random() < 0.5 else anything(n)
                rows = rng.integers(0, 3, n) if rng.random() < 0.4 else anything(n)
                try:
                    bins.add(values, rows, counts)
                except (ValueError, TypeError) as exc:
                    refused(exc, ("values", "rows", "counts"))
                    unchanged = before is None or np.array_equal(before, counts)
                    assert unchanged, "a refused call counted"
                else:
                    added = counts.sum() - before.sum()
                    assert added == np.size(values), "a value not counted once"
            elif kind == 1:  # LogBins.quantiles
                counts = bins.zeros(2) if rng.random() < 0.5 else anything(n)
                if isinstance(counts, np.ndarray) and counts.ndim == 2 and counts.shape[1] == 2:
                    counts = np.zeros((2, bins.n_bins), np.int64) + rng.integers(0, 3)
                q = [0.5, 0.99] if rng.random() < 0.3 else anything(n)
                try:
                    bins.quantiles(counts, q)
                except (ValueError, TypeError) as exc:
                    refused(exc, ("counts", "q"))
            else:  # FlowSummary.update
                good = dict(arrival_s=np.sort(rng.random(n)), size_bytes=rng.integers(1, 1500, n),
                            flow=rng.integers(0, 4, n), departure_s=None,
                            drop=rng.integers(0, 4, n), queue=rng.integers(0, 3, n))
                good["departure_s"] = np.where(good["drop"] == 0, good["arrival_s"] + 0.1, np.nan)
                args = {k: (v if rng.random() < 0.8 else anything(n)) for k, v in good.items()}
                summary = FlowSummary()
                try:
                    summary.update(**args)
                except (ValueError, TypeError) as exc:
                    refused(exc, tuple(good))
                    assert summary.n_flows == 0, "a refused call counted"
                else:
                    sent = int(summary.to_dataset(warn=False).sent.sum())
                    assert sent == len(args["flow"]), "a packet not counted once"
        except SystemExit:
            raise
        except BaseException:
            print(f"CASE {case} (seed {SEED}) RAISED:")
            traceback.print_exc(file=sys.stdout)
            failures += 1
    print(f"{len(SEEDS) * CASES} cases, {failures} failures")
    sys.exit(1 if failures else 0)
''')


def test_fuzzed_calls_succeed_or_refuse_in_one_line():
    seeds = ",".join(map(str, SEEDS))  # one child for all: one import, one load of the kernels
    done = subprocess.run(
        [sys.executable, "-c", CHILD, seeds, str(CASES_PER_SEED)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, (
        f"exit {done.returncode} (a negative code is a signal: -11 a segmentation fault)\n"
        f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
