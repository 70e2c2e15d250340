"""Inputs a user can give, right or refused: one-line errors that echo what was given, refusals
of what cannot be meant, and one warning per call for what is implausible.

Each error is a ``ValueError`` or ``TypeError`` on one line, naming the parameter and its
allowed range, echoing the value given (never an int64 wrap-around of it) in at most
:data:`pqlab.base.echo.ECHO_CHARS` characters.
"""

from __future__ import annotations

import pytest
from test_refuse_captures import ipv4, pcap

from pqlab import CBRStream, Deterministic, Node, PoissonStream, Scenario, TraceStream
from pqlab.node.traces import read_trace


def one_line(exc, *names, wrapped=("-9223372036854775808", "9223372036854775794")):
    """The error's text, checked: one line, naming each of ``names``, no int64 wrap-around
    (``wrapped``: what a value beyond int64 prints as once wrapped)."""
    text = str(exc.value)
    assert "\n" not in text and len(text) <= 400, text
    assert not any(w in text for w in wrapped), text
    for name in names:
        assert name in text, text
    return text


def write(tmp_path, text, name="t.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


# ---------------------------------------------------------------------- errors say what was given


@pytest.mark.parametrize("cells", ["a,,b", "1,,2"])
def test_an_empty_flow_cell_in_a_csv_is_refused_naming_its_row(tmp_path, cells):
    flows = cells.split(",")
    path = write(
        tmp_path,
        "time_s,size_bytes,flow\n" + "".join(f"0.{k},100,{f}\n" for k, f in enumerate(flows)),
    )
    with pytest.raises(ValueError) as exc:
        read_trace(path, flow_column="flow")
    assert "row 1" in one_line(exc, "flow_column", "empty")


def test_a_first_flow_beyond_int64_is_refused_naming_its_range(tmp_path):
    path = write(tmp_path, "time_s,size_bytes\n0.0,100\n")
    with pytest.raises(ValueError) as exc:
        read_trace(path, first_flow=2**70)
    one_line(exc, "first_flow", str(2**63 - 1), str(2**70))


def test_numbered_flows_that_would_pass_int64_are_refused(tmp_path):
    path = write(tmp_path, "time_s,size_bytes,flow\n0.0,100,a\n0.1,100,b\n")
    with pytest.raises(ValueError) as exc:
        read_trace(path, flow_column="flow", first_flow=2**63 - 1)
    one_line(exc, "first_flow", "2 flows")


def test_a_huge_queue_index_of_a_pcap_class_is_no_traceback(tmp_path):
    path = tmp_path / "c.pcap"
    path.write_bytes(pcap([(1, i, ipv4(dscp=46 if i % 2 else 0)) for i in range(4)]))
    streams = read_trace(path, queues={46: 2**63 - 1})
    assert sorted(s.queue for s in streams) == [0, 2**63 - 1]
    assert [s.size_bytes.size for s in streams] == [2, 2]


def test_a_huge_origin_is_a_one_line_error(tmp_path):
    path = write(tmp_path, "time_s,size_bytes\n1.0,100\n")
    with pytest.raises(ValueError) as exc:
        read_trace(path, origin_s=1e300)
    one_line(exc, "origin_s", "1e+300")


@pytest.mark.parametrize(
    "size, shown",
    [
        ("1e300", "1e+300"),
        ("-1e300", "-1e+300"),
        ("9.3e18", "9.3e+18"),
        ("-9223372036854775800", "-9223372036854775800"),
    ],
)
@pytest.mark.parametrize("size_is", ["ip", "frame"])
def test_a_size_beyond_int64_is_echoed_as_given_not_wrapped(tmp_path, size, shown, size_is):
    path = write(tmp_path, f"time_s,size_bytes\n0.0,100\n0.1,{size}\n")
    with pytest.raises(ValueError) as exc:
        read_trace(path, size_is=size_is)
    one_line(exc, "size_column", f"{shown} at row 1")


def test_a_duration_beyond_any_run_is_refused_at_the_scenario(tmp_path):
    stream = CBRStream(1e5, Deterministic(100), 0, 1)
    for duration in (1e308, 1e300):
        with pytest.raises(ValueError) as exc:
            Scenario(Node.cisco7200_atm(), [stream], duration_s=duration)
        one_line(exc, "duration_s", "1000000000000")


@pytest.mark.parametrize(
    "make",
    [
        lambda f: CBRStream(1e5, Deterministic(100), 0, f),
        lambda f: PoissonStream(1e5, Deterministic(100), 0, f),
        lambda f: TraceStream([0.0], [100], 0, f),
    ],
)
def test_a_flow_id_beyond_int64_is_refused_naming_its_range(make):
    for flow in (2**63, 2**70):
        with pytest.raises(ValueError) as exc:
            make(flow)
        one_line(exc, "flow", str(2**63 - 1), str(flow), wrapped=[str(flow - 2**64)])
    assert make(2**63 - 1).flow == 2**63 - 1


def test_a_stream_rate_beyond_any_line_is_refused():
    with pytest.raises(ValueError) as exc:
        PoissonStream(1e300, Deterministic(100), 0, 1)
    one_line(exc, "rate_bps", "1e+300")


# -------------------------------------------------------------------- refuse what cannot be meant


def test_first_flow_offsets_integer_flow_ids_too(tmp_path):
    """Integer flow ids read beside another stream's flow 0 no longer collide with it."""
    path = write(tmp_path, "time_s,size_bytes,flow\n0.0,100,0\n0.1,100,5\n0.2,100,0\n")
    assert [s.flow for s in read_trace(path, flow_column="flow")] == [0, 5]
    streams = read_trace(path, flow_column="flow", first_flow=1000)
    assert [(s.flow, s.arrival_s.tolist()) for s in streams] == [(1000, [0.0, 0.2]), (1005, [0.1])]


@pytest.mark.parametrize("flows", ["0.5,1,1", "1,1.5,2"])
def test_a_fractional_flow_id_is_refused_naming_its_row(tmp_path, flows):
    path = write(
        tmp_path,
        "time_s,size_bytes,flow\n"
        + "".join(f"0.{k},100,{f}\n" for k, f in enumerate(flows.split(","))),
    )
    with pytest.raises(ValueError) as exc:
        read_trace(path, flow_column="flow")
    one_line(exc, "flow_column", "integers or names", "at row")


def test_whole_float_flow_ids_are_the_integer_ids(tmp_path):
    path = write(tmp_path, "time_s,size_bytes,flow\n0.0,100,2.0\n0.1,100,7.0\n")
    assert [s.flow for s in read_trace(path, flow_column="flow")] == [2, 7]


@pytest.fixture(scope="module")
def run():
    """A short run of the papers' PQ node (EF beside best effort)."""
    import pqlab

    return pqlab.simulate(pqlab.scenarios.pq_vs_wfq(n_ef_samples=200), seed=1)


def test_summaries_of_two_scenarios_do_not_merge():
    import pqlab
    from pqlab.streaming import merge_summaries, summarize

    pq, wfq = (pqlab.scenarios.pq_vs_wfq(scheduler=s, n_ef_samples=50) for s in ("pq", "wfq"))
    seeds = [summarize(pq, seed=s, window_s=1.0) for s in (1, 2)]
    assert merge_summaries(seeds).to_dataset()["sent"].sum() > 0  # seeds of one scenario pool
    with pytest.raises(ValueError) as exc:
        seeds[0].merge(summarize(wfq, seed=1, window_s=1.0))
    one_line(exc, "scenario")


@pytest.mark.parametrize("bad", [float("nan"), -1e-3])
def test_a_nan_or_negative_value_is_not_counted_as_zero_in_the_sketch(bad):
    from pqlab.base.sketch import LogBins

    bins = LogBins()
    counts = bins.zeros(1)
    with pytest.raises(ValueError) as exc:
        bins.add([1e-3, bad], [0, 0], counts)
    one_line(exc, "values", "index 1")
    assert counts.sum() == 0


@pytest.mark.parametrize("change", ["nan", "early"])
def test_a_kept_packet_without_a_departure_after_its_arrival_is_refused_in_the_delays(run, change):
    import numpy as np

    from pqlab import metrics, summary_table

    departure = run["departure"].values.copy()
    kept = int(np.flatnonzero(run["drop"].values == 0)[-1])
    departure[kept] = np.nan if change == "nan" else run["arrival"].values[kept] - 1e-3
    bad = run.assign(departure=("packet", departure))
    for call in (metrics.one_way_delay, summary_table):
        with pytest.raises(ValueError) as exc:
            call(bad)
        one_line(exc, "departure", f"index {kept}")


def test_an_unknown_drop_code_is_refused_by_loss(run):
    import numpy as np

    from pqlab import metrics

    drop = run["drop"].values.copy()
    last = drop.size - 1  # measured (after the warm-up)
    drop[last] = 9
    with pytest.raises(ValueError) as exc:
        metrics.loss(run.assign(drop=("packet", drop)))
    one_line(exc, "drop", f"got 9 at packet {last}")
    assert np.all(metrics.loss(run)["sent"].values > 0)


def test_a_text_key_of_queues_is_refused_where_classes_are_integers(tmp_path):
    path = tmp_path / "c.pcap"
    path.write_bytes(pcap([(1, i, ipv4(dscp=46 if i % 2 else 0)) for i in range(4)]))
    with pytest.raises(ValueError) as exc:
        read_trace(path, queues={"46": 1})
    one_line(exc, "queues", "'46'", "46")
    table = write(tmp_path, "time_s,size_bytes,cls\n0.0,100,46\n0.1,100,0\n")
    with pytest.raises(ValueError) as exc:
        read_trace(table, class_column="cls", queues={"46": 1, 0: 0})
    one_line(exc, "queues", "'46'")
    names = write(tmp_path, "time_s,size_bytes,cls\n0.0,100,ef\n0.1,100,be\n", "n.csv")
    with pytest.raises(ValueError) as exc:
        read_trace(names, class_column="cls", queues={"ef": 0, 1: 1})
    one_line(exc, "queues", "1")


def test_a_dscp_key_outside_0_to_63_is_refused(tmp_path):
    path = tmp_path / "c.pcap"
    path.write_bytes(pcap([(1, 0, ipv4(dscp=46))]))
    with pytest.raises(ValueError) as exc:
        read_trace(path, queues={64: 1})
    one_line(exc, "queues", "64", "63")


def test_red_is_removed_with_dataclasses_replace():
    import dataclasses

    from pqlab import Queue

    red = Queue("priority", 20, red_min_packets=5, red_max_packets=10, red_max_p=0.1)
    plain = dataclasses.replace(red, red_min_packets=None, red_max_packets=None, red_max_p=None)
    assert plain == Queue("priority", 20) and not plain.red
    with pytest.raises(ValueError, match="red_weight must be None without RED"):
        Queue("priority", 20, red_weight=0.5)


# ------------------------------------------------------------------------ warnings, once per call


def _caught(make):
    """What ``make()`` returns and the warnings it gives."""
    import warnings

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        out = make()
    return out, [w for w in seen]


def _edge(*queues, rate=100e6):
    from pqlab import Queue

    queues = queues or (Queue("priority", 20), Queue("drr", 50, quantum_bytes=1500))
    return Node(rate, "ethernet", 16, 512, queues)


def test_a_policer_a_thousand_times_below_the_line_warns_once_naming_each():
    from pqlab import Queue
    from pqlab.node.plausibility import ImplausibleRateWarning

    queues = (
        Queue("priority", 20, police_rate_bps=10),
        Queue("drr", 50, quantum_bytes=1500, shape_rate_bps=80, shape_burst_bytes=1500),
        Queue("drr", 50, quantum_bytes=1500, police_rate_bps=10e6),
    )
    _, seen = _caught(lambda: _edge(*queues))
    (w,) = seen
    text = str(w.message)
    assert w.category is ImplausibleRateWarning and w.filename == __file__, text
    assert "\n" not in text and "queues[0].police_rate_bps = 10 bit/s" in text, text
    assert "queues[1].shape_rate_bps = 80 bit/s" in text, text
    assert "queues[2]" not in text and "100 Mbit/s" in text, text
    _, none = _caught(lambda: _edge(Queue("priority", 20, police_rate_bps=100e3)))
    assert none == []


def test_streams_a_thousand_times_below_the_line_or_without_a_packet_warn_once_per_scenario():
    from pqlab.node.plausibility import ImplausibleRateWarning

    node = Node.cisco7200_atm()  # 2 Mbit/s
    streams = [
        CBRStream(300e3, Deterministic(128), 0, 0),
        CBRStream(80, Deterministic(1000), 1, 1),
        CBRStream(90, Deterministic(1000), 1, 2),
        PoissonStream(1e6, Deterministic(100), 1, 3, start_s=2.0),
    ]
    _, seen = _caught(lambda: Scenario(node, streams, duration_s=1.0))
    assert len(seen) == 2
    assert all(w.category is ImplausibleRateWarning and w.filename == __file__ for w in seen)
    slow, empty = sorted((str(w.message) for w in seen), key=lambda t: "no packet" in t)
    assert "streams[1].rate_bps = 80 bit/s" in slow, slow
    assert "streams[2].rate_bps = 90 bit/s" in slow, slow
    assert "streams[0]" not in slow and "\n" not in slow, slow
    assert "streams[1]" in empty and "streams[2]" in empty and "streams[3]" in empty, empty
    assert "streams[0]" not in empty and "duration_s" in empty, empty
    _, none = _caught(lambda: Scenario(node, streams[:1], duration_s=1.0))
    assert none == []


def test_red_thresholds_at_or_above_the_queue_limit_warn():
    from pqlab import Queue

    _, seen = _caught(
        lambda: Queue(
            "drr",
            20,
            quantum_bytes=1500,
            red_min_packets=(40, 10, 5),
            red_max_packets=(60, 30, 15),
            red_max_p=0.1,
        )
    )
    (w,) = seen
    text = str(w.message)
    assert "red_min_packets" in text and "green 40" in text and "limit_packets = 20" in text, text
    assert "yellow" not in text and w.filename == __file__, text
    _, none = _caught(
        lambda: Queue(
            "drr", 20, quantum_bytes=1500, red_min_packets=5, red_max_packets=25, red_max_p=0.1
        )
    )
    assert none == []


def test_a_priority_queue_listed_after_fair_queued_classes_warns_that_it_outranks_them():
    from pqlab import Queue

    queues = (
        Queue("priority", 20, name="voice"),
        Queue("drr", 50, quantum_bytes=3000, name="af21"),
        Queue("drr", 50, quantum_bytes=1500, name="af41"),
        Queue("priority", 50, level=7, name="be"),
    )
    _, seen = _caught(lambda: _edge(*queues))
    (w,) = seen
    text = str(w.message)
    assert "queues[3] (level 7)" in text and "before" in text and "quantum_bytes" in text, text
    assert w.filename == __file__ and "\n" not in text
    _, none = _caught(lambda: _edge(*queues[:3]))
    assert none == []


def test_trace_streams_partly_outside_the_window_warn_once_per_call():
    import numpy as np

    traces = [TraceStream(np.arange(10) * 0.2, np.full(10, 100), 0, f) for f in (1, 2, 3)]
    _, seen = _caught(
        lambda: __import__("pqlab").simulate(
            Scenario(Node.cisco7200_atm(), traces, duration_s=1.0), seed=1
        )
    )
    (w,) = seen
    text = str(w.message)
    assert "\n" not in text and "5 of 10" in text, text
    assert all(f"flow {f}" in text for f in (1, 2, 3)), text


# ---------------------------------------------------------------------------- tables read exactly

T0_NS = 1_700_000_000_123_456_000  # a Unix time (2023-11-14), nanoseconds, whole microseconds


def _trace_packets(n=400, seed=5):
    """``n`` packets of three flows: (ns after T0_NS, flow, DSCP, IP length), ties included."""
    import numpy as np

    rng = np.random.default_rng(seed)
    offset_us = np.cumsum(rng.choice([0, 1, 7, 190, 1311], n))  # repeated times: ties
    flow = np.r_[0, 1, 2, rng.integers(0, 3, n - 3)]  # a pcap numbers its flows by first packet
    return [
        (int(o) * 1000, int(f), (46, 0, 10)[f], int(60 + 37 * k % 1400))
        for k, (o, f) in enumerate(zip(offset_us, flow))
    ]


def test_the_digest_covers_the_origin_and_the_packet_count(tmp_path):
    from pqlab.node.sources import trace_sha256
    from pqlab.traces import from_digest

    a = TraceStream([0.0, 0.5], [100, 200], 0, 0)
    moved = TraceStream([0.0, 0.5], [100, 200], 0, 0, time_origin_s=3.0)
    assert a.sha256 != moved.sha256
    assert trace_sha256([], [], 0.0) != trace_sha256([], [], 1.0)
    path = write(tmp_path, f"time_ns,size_bytes\n{T0_NS},100\n{T0_NS + 10**9},200\n")
    (stream,) = read_trace(path, time_column="time_ns", time_unit="ns")
    data = {"sha256": stream.sha256, "packets": 2, "source": stream.source, "flow": 0, "queue": 0}
    assert from_digest(data).sha256 == stream.sha256
    year_ns = 365 * 86400 * 10**9  # the same file rewritten a year later: the same rebased times
    write(tmp_path, f"time_ns,size_bytes\n{T0_NS + year_ns},100\n{T0_NS + year_ns + 10**9},200\n")
    with pytest.raises(ValueError, match="the file changed since the run"):
        from_digest(data)


def test_csv_epoch_seconds_are_rebased_exactly(tmp_path):
    """Decimal seconds are read as integer ticks: 1700000000.123457 - 1700000000.123456 is 1 us,
    where float64 seconds (2.4e-7 s apart at 1.7e9 s) gave 0.95367431640625 us."""
    path = write(
        tmp_path,
        "time_s,size_bytes\n1700000000.123456,100\n1700000000.123457,100\n"
        "1700000001.5,100\n 1700000001.5000001,100\n",
    )
    (stream,) = read_trace(path)
    assert stream.arrival_s.tolist() == [0.0, 1e-6, 1.376544, 1.3765441]
    assert stream.time_origin_s == 1700000000.123456
    ms_csv = write(
        tmp_path, "t,size_bytes\n1700000000123.456,100\n1700000000123.457,100\n", "ms.csv"
    )
    (ms,) = read_trace(ms_csv, time_column="t", time_unit="ms")
    assert ms.arrival_s.tolist() == [0.0, 1e-6] and ms.time_origin_s == 1700000000.123456


def test_the_same_packets_from_pcap_pcapng_csv_and_parquet_give_identical_runs(tmp_path):
    """One trace written in the four formats: the streams, their digests and the whole run are
    byte-identical, ties kept in the file's order."""
    import numpy as np
    import pandas as pd
    from test_refuse_captures import pcapng

    import pqlab

    packets = _trace_packets()
    frames = [(t, ipv4(size, dscp=dscp, src=1 + f)) for t, f, dscp, size in packets]
    (tmp_path / "t.pcap").write_bytes(
        pcap([((T0_NS + t) // 10**9, (T0_NS + t) % 10**9 // 1000, fr) for t, fr in frames])
    )
    (tmp_path / "t.pcapng").write_bytes(
        pcapng([(101, 9, None)], [(0, T0_NS + t, fr) for t, fr in frames])
    )
    seconds = [f"{(T0_NS + t) // 10**9}.{(T0_NS + t) % 10**9 // 1000:06d}" for t, *_ in packets]
    rows = "".join(f"{s},{size},{f},{dscp}\n" for s, (_, f, dscp, size) in zip(seconds, packets))
    write(tmp_path, "time_s,size_bytes,flow,dscp\n" + rows)
    pd.DataFrame(
        {
            "time": pd.to_datetime([T0_NS + t for t, *_ in packets], unit="ns"),
            "size_bytes": [p[3] for p in packets],
            "flow": [p[1] for p in packets],
            "dscp": [p[2] for p in packets],
        }
    ).to_parquet(tmp_path / "t.parquet")
    queues = {46: 0, 0: 1, 10: 1}
    read = {
        "pcap": read_trace(tmp_path / "t.pcap", queues=queues),
        "pcapng": read_trace(tmp_path / "t.pcapng", queues=queues),
        "csv": read_trace(
            tmp_path / "t.csv", flow_column="flow", class_column="dscp", queues=queues
        ),
        "parquet": read_trace(
            tmp_path / "t.parquet",
            time_column="time",
            flow_column="flow",
            class_column="dscp",
            queues=queues,
        ),
    }
    digests = {
        k: [(s.flow, s.queue, s.sha256, s.time_origin_s) for s in v] for k, v in read.items()
    }
    assert digests["pcap"] == digests["pcapng"] == digests["csv"] == digests["parquet"], digests
    runs = {}
    for k, streams in read.items():
        queues_of_node = (pqlab.Queue("priority", 20), pqlab.Queue("wfq", 8, weight_bps=1e6))
        node = Node(2e6, "ethernet", 4, 512, queues_of_node)
        ds = pqlab.simulate(Scenario(node, list(streams), duration_s=1.0), seed=1)
        runs[k] = [ds[v].values.tobytes() for v in ("arrival", "size", "flow", "departure", "drop")]
    assert runs["pcap"] == runs["pcapng"] == runs["csv"] == runs["parquet"]
    tied = np.flatnonzero(np.diff([t for t, *_ in packets]) == 0)
    assert tied.size > 20  # the trace has ties across flows


# -------------------------------------------------------------------- colours and percentiles


@pytest.mark.parametrize("percentiles", [(0.5, 0.99), (1,), (0.1, 0.5, 1.0)])
def test_percentiles_that_read_as_fractions_are_refused(run, percentiles):
    import numpy as np

    from pqlab import metrics, summary_table

    with pytest.raises(ValueError) as exc:
        summary_table(run, percentiles=percentiles)
    one_line(exc, "percentiles", "percents", "fractions")
    with pytest.raises(ValueError) as exc:
        metrics.summary(np.arange(10.0), percentiles=percentiles)
    one_line(exc, "percentiles", "percents")
    assert "delay_p0.1" in summary_table(run, percentiles=(0.1, 99.9))
    assert "p0" in metrics.summary(np.arange(10.0), percentiles=(0,))


def test_loss_by_colour_counts_unmarked_traffic_apart():
    """Unmarked packets enter the node as green (rule 1a) but are not green traffic: loss by
    colour puts them in a group of their own, ``unmarked`` (-1)."""
    import numpy as np

    import pqlab
    from pqlab import SrTCM, metrics

    node = Node.cisco7200_atm()
    marked = CBRStream(1.5e6, Deterministic(500), 1, 1, marker=SrTCM(1e6, 3000, 3000))
    plain = CBRStream(1.5e6, Deterministic(500), 1, 2)
    ds = pqlab.simulate(Scenario(node, [marked, plain], duration_s=2.0), seed=1)
    table = metrics.loss(ds, by="colour")
    assert -1 in table["colour"].values
    assert table["colour_name"].sel(colour=-1).item() == "unmarked"
    flow = ds["flow"].values
    assert int(table["sent"].sel(colour=-1)) == np.count_nonzero(flow == 2)
    assert int(table["sent"].sel(colour=[0, 1, 2]).sum()) == np.count_nonzero(flow == 1)
    alone = pqlab.simulate(Scenario(node, [marked], duration_s=2.0), seed=1)
    assert -1 not in metrics.loss(alone, by="colour")["colour"].values


def test_ties_across_flows_keep_the_files_order(tmp_path):
    """Packets of two flows at one time stamp enter the node in the file's order (A then B at
    1 ms, B then A at 2 ms), not stream after stream; read back from the JSON alike."""
    import numpy as np

    import pqlab
    from pqlab.traffic import merge_streams

    path = write(
        tmp_path,
        "time_s,size_bytes,flow\n0.000,100,0\n0.001,101,0\n0.001,102,1\n"
        "0.002,103,1\n0.002,104,0\n0.003,105,1\n",
    )
    streams = read_trace(path, flow_column="flow")
    _, size, _, flow = merge_streams(streams, np.random.default_rng(1), 1.0)
    assert size.tolist() == [100, 101, 102, 103, 104, 105] and flow.tolist() == [0, 0, 1, 1, 0, 1]
    sc = Scenario(Node.cisco7200_atm(), list(streams), duration_s=1.0)
    again = Scenario.from_json(sc.to_json())
    assert again == sc
    runs = [pqlab.simulate(s, seed=1)["size"].values.tolist() for s in (sc, again)]
    assert runs[0] == runs[1] == [100, 101, 102, 103, 104, 105]


def test_a_negative_time_in_a_file_is_refused_naming_the_times(tmp_path):
    path = write(tmp_path, "time_s,size_bytes\n-1.5,100\n0.5,100\n")
    with pytest.raises(ValueError) as exc:
        read_trace(path)
    one_line(exc, "times must be >= 0", "-1.5")


@pytest.mark.parametrize(
    "make",
    [
        lambda v: CBRStream(1e5, Deterministic(100), 0, v),
        lambda v: read_trace("t.csv", time_unit=v),
        lambda v: read_trace("t.csv", format=v),
        lambda v: Scenario(
            Node.cisco7200_atm(), [CBRStream(1e5, Deterministic(100), 0, 1)], duration_s=v
        ),
    ],
)
def test_a_long_value_is_echoed_in_at_most_80_characters(make):
    from pqlab.base.echo import ECHO_CHARS

    given = "x" * 5000
    with pytest.raises(ValueError) as exc:
        make(given)
    text = one_line(exc)
    assert "x" * (ECHO_CHARS + 1) not in text and "xxx" in text, text
