"""Fuzzing the readers' and the constructors' arguments: a result or a one-line error.

Hundreds of calls (fixed seeds) of :func:`pqlab.read_trace` on small CSV files with random
options and cells, and of the streams', queues' and scenario's constructors with random values
from a pool of wrong ones (huge, negative, fractional, NaN, text, wrong types). Each call either
returns, or raises a ``ValueError``/``TypeError`` on one line, at most 400 characters, that names
one of the parameters given and prints no int64 wrap-around.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from pqlab import CBRStream, Deterministic, Node, PoissonStream, Queue, Scenario, TraceStream
from pqlab.node.traces import read_trace

POOL = [
    0,
    1,
    2,
    46,
    -1,
    0.5,
    2**63 - 1,
    2**63,
    2**70,
    -(2**63),
    1e300,
    -1e300,
    float("nan"),
    float("inf"),
    1e-300,
    "46",
    "",
    "x" * 300,
    None,
    True,
    [1, 2],
    {"a": 1},
]
CELLS = [
    "0",
    "1",
    "0.5",
    "",
    "1e300",
    "-1",
    "9223372036854775808",
    "abc",
    "1700000000.123456",
    "nan",
    "inf",
    "46",
    " 7 ",
]
WRAPPED = ("-9223372036854775808", "9223372036854775794")


def _check(exc, names, given: str) -> None:
    """One line, naming one of ``names``, and no wrap-around unless ``given`` (the arguments' text)
    holds that very number."""
    text = str(exc)
    assert "\n" not in text and len(text) <= 400, text
    assert not any(w in text and w not in given for w in WRAPPED), (given, text)
    assert any(n in text for n in names), (names, text)


@pytest.mark.parametrize("seed", [1, 2])
def test_read_trace_with_random_cells_and_options_returns_or_refuses_in_one_line(tmp_path, seed):
    rng = np.random.default_rng(seed)
    options = {
        "flow_column": ["flow", None],
        "class_column": ["cls", None],
        "first_flow": POOL,
        "queue": POOL,
        "origin_s": POOL + ["first"],
        "time_unit": ["s", "us", "h"],
        "size_is": ["ip", "frame"],
        "sort": [True, False, 1],
        "queues": [None, {46: 1}, {"46": 1}, {0: 2**63}],
    }
    for case in range(150):
        rows = int(rng.integers(1, 5))
        cells = [[CELLS[i] for i in rng.integers(0, len(CELLS), 4)] for _ in range(rows)]
        if rng.random() < 0.5:  # mostly valid rows, so the options are reached
            cells = [[f"0.{k}", "100", str(k % 2), "46"] for k in range(rows)]
        path = tmp_path / f"t{case}.csv"
        path.write_text("time_s,size_bytes,flow,cls\n" + "".join(",".join(r) + "\n" for r in cells))
        kw = {k: v[int(rng.integers(len(v)))] for k, v in options.items() if rng.random() < 0.4}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                read_trace(path, **kw)
            except (ValueError, TypeError) as exc:
                _check(
                    exc,
                    [
                        *kw,
                        "path",
                        "time_column",
                        "size_column",
                        "flow_column",
                        "class_column",
                        "queues",
                    ],
                    repr((kw, cells)),
                )


def _make(rng, kind):
    value = POOL[int(rng.integers(len(POOL)))]
    node = Node.cisco7200_atm()
    given = repr(value)
    if kind == 0:
        name = ["rate_bps", "queue", "flow", "start_s", "header_bytes"][int(rng.integers(5))]
        args = {"rate_bps": 1e5, "size": Deterministic(100), "queue": 0, "flow": 1, name: value}
        return name, given, lambda: (CBRStream if rng.random() < 0.5 else PoissonStream)(**args)
    if kind == 1:
        name = ["arrival_s", "size_bytes", "queue", "flow", "time_origin_s"][int(rng.integers(5))]
        args = {"arrival_s": [0.0, 0.1], "size_bytes": [100, 200], "queue": 0, "flow": 1}
        args[name] = [value, value] if name in ("arrival_s", "size_bytes") else value
        return name, given, lambda: TraceStream(**args)
    if kind == 2:
        name = ["limit_packets", "police_rate_bps", "red_min_packets", "level", "limit_bytes"][
            int(rng.integers(5))
        ]
        args = {"kind": "priority", "limit_packets": 20, name: value}
        if name == "red_min_packets":
            args.update(red_max_packets=30, red_max_p=0.1)
        return name, given, lambda: Queue(**args)
    name = ["duration_s", "warmup_s"][int(rng.integers(2))]
    args = {
        "node": node,
        "streams": [CBRStream(1e5, Deterministic(100), 0, 1)],
        "duration_s": 1.0,
        name: value,
    }
    return name, given, lambda: Scenario(**args)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_constructors_with_random_values_return_or_refuse_in_one_line(seed):
    rng = np.random.default_rng(seed)
    for case in range(150):
        name, given, make = _make(rng, case % 4)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                make()
            except (ValueError, TypeError) as exc:
                _check(exc, [name, "RED", "limit"], given)
