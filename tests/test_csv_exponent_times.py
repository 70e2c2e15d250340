"""A CSV's times in exponent form (``1.5e-3``) are read exactly, as its plain decimals are, or
refused naming the column and the row: the same packets written as decimals, in exponent form
and as a pcap give byte-identical streams and runs, ties kept in the file's order."""

from __future__ import annotations

import numpy as np
import pytest
from test_refuse_captures import ipv4, pcap
from test_refuse_inputs import T0_NS, _trace_packets, one_line, write

import pqlab
from pqlab import Node, Scenario
from pqlab.node.traces import read_trace


def _exponent(ns: int) -> str:
    """Seconds ``ns / 1e9`` (whole microseconds) in exponent form: ``1.700000000123456e+09``."""
    digits = str(ns // 1000)  # microseconds
    return f"{digits[0]}.{digits[1:]}e+{len(digits) - 7:02d}"


def _run(streams) -> list:
    node = Node(
        2e6,
        "ethernet",
        4,
        512,
        (pqlab.Queue("priority", 20), pqlab.Queue("wfq", 8, weight_bps=1e6)),
    )
    ds = pqlab.simulate(Scenario(node, list(streams), duration_s=1.0), seed=1)
    return [ds[v].values.tobytes() for v in ("arrival", "size", "flow", "departure", "drop")]


def test_exponent_decimal_and_pcap_times_give_identical_runs(tmp_path):
    packets = _trace_packets()
    frames = [(t, ipv4(size, dscp=dscp, src=1 + f)) for t, f, dscp, size in packets]
    (tmp_path / "t.pcap").write_bytes(
        pcap([((T0_NS + t) // 10**9, (T0_NS + t) % 10**9 // 1000, fr) for t, fr in frames])
    )
    decimal = [f"{(T0_NS + t) // 10**9}.{(T0_NS + t) % 10**9 // 1000:06d}" for t, *_ in packets]
    exponent = [_exponent(T0_NS + t) for t, *_ in packets]
    assert float(exponent[0]) == float(decimal[0]) and "e+09" in exponent[0]
    for name, times in (("decimal.csv", decimal), ("exponent.csv", exponent)):
        rows = "".join(f"{s},{size},{f},{dscp}\n" for s, (_, f, dscp, size) in zip(times, packets))
        write(tmp_path, "time_s,size_bytes,flow,dscp\n" + rows, name)
    queues = {46: 0, 0: 1, 10: 1}
    table = dict(flow_column="flow", class_column="dscp", queues=queues)
    read = {
        "pcap": read_trace(tmp_path / "t.pcap", queues=queues),
        "decimal": read_trace(tmp_path / "decimal.csv", **table),
        "exponent": read_trace(tmp_path / "exponent.csv", **table),
    }
    digests = {
        k: [(s.flow, s.queue, s.sha256, s.time_origin_s, s.arrival_s.tobytes()) for s in v]
        for k, v in read.items()
    }
    assert digests["exponent"] == digests["decimal"] == digests["pcap"]
    assert _run(read["exponent"]) == _run(read["decimal"]) == _run(read["pcap"])
    assert np.flatnonzero(np.diff([t for t, *_ in packets]) == 0).size > 20  # ties across flows


def test_exponent_forms_read_as_their_decimals(tmp_path):
    """Exponent signs and cases, a mantissa without a fraction, exponents that leave whole ticks;
    a tie is kept in the file's order."""
    path = write(
        tmp_path,
        "time_s,size_bytes,flow\n1.7000000000015e9,100,0\n"
        "17000000000015E-4,101,1\n"
        "+1.700000000002e+9,102,0\n0.17000000000025e10,103,1\n"
        "170000000000250000e-8,104,0\n1.700000000003E9,105,1\n",
    )
    streams = read_trace(path, flow_column="flow")
    plain = write(
        tmp_path,
        "time_s,size_bytes,flow\n1700000000.0015,100,0\n1700000000.0015,101,1\n"
        "1700000000.002,102,0\n1700000000.0025,103,1\n"
        "1700000000.0025,104,0\n1700000000.003,105,1\n",
        "plain.csv",
    )
    assert [
        (s.arrival_s.tobytes(), s.sha256, s.time_origin_s, s.file_order.tolist()) for s in streams
    ] == [
        (s.arrival_s.tobytes(), s.sha256, s.time_origin_s, s.file_order.tolist())
        for s in read_trace(plain, flow_column="flow")
    ]
    assert streams[0].arrival_s.tolist() == [0.0, 0.0005, 0.001]
    assert streams[0].time_origin_s == 1700000000.0015


@pytest.mark.parametrize(
    "cell, row", [("1.5e-12", 1), ("1e300", 1), ("1.234567890123456789e9", 1), ("1e-99999999", 1)]
)
def test_exponent_times_not_exact_in_ticks_are_refused(tmp_path, cell, row):
    """Finer than a nanosecond, beyond int64's ticks, more digits than int64 holds, an exponent
    beyond any tick: one line
    naming the column and the row, not a float read silently."""
    path = write(tmp_path, f"t,size_bytes\n1.5e-3,100\n{cell},100\n")
    with pytest.raises(ValueError) as exc:
        read_trace(path, time_column="t")
    one_line(exc, "t (time_column)", f"row {row}", cell)
