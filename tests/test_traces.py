"""Tests of pqlab.node.traces (issue 33, "traces in") and of the window rule on Unix-time traces."""

import json
import warnings

import numpy as np
import pytest

from pqlab import CBRStream, Deterministic, Node, Scenario, TraceStream, simulate
from pqlab.base.memory import NotEnoughMemory
from pqlab.streaming import simulate_summary


def epoch_scenario(duration_s):
    """The papers' node, an EF CBR stream (flow 0) and 1,000 packets of a trace at Unix times
    (flow 3)."""
    t = 1.7e9 + np.arange(1000) * 1e-3
    return Scenario(
        Node.cisco7200_atm(),
        [CBRStream(300e3, Deterministic(128), 0, 0), TraceStream(t, np.full(t.size, 100), 1, 3)],
        duration_s=duration_s,
    )


# ----------------------------------------------------------------------------- defects of issue 33


def test_an_epoch_trace_beside_a_rate_driven_stream_is_refused_naming_it_not_a_huge_memory_request():  # noqa: E501
    """Issue 33: duration_s = 1.7e9 + 40 made the memory guard ask for 1.4e12 packets (the CBR
    stream runs from 0): the run is refused naming the trace, its Unix times and the way out."""
    sc = epoch_scenario(1.7e9 + 40)
    for run in (lambda: simulate(sc), lambda: simulate_summary(sc, window_s=1e3)):
        try:
            run()
        except NotEnoughMemory as exc:  # the defect: a memory request for ~1e12 packets
            pytest.fail(f"a memory request instead of the trace named: {exc}")
        except ValueError as exc:
            text = str(exc)
            assert text.startswith(
                "streams[1] (TraceStream, flow 3): its first packet arrives at 1.7e+09 s"
            ), text
            assert "Unix" in text and "pqlab.traces.rebase" in text and "\n" not in text
        else:
            pytest.fail("ran")


# ----------------------------------------------------------------------------- files written by
# standard tools

from decimal import Decimal  # noqa: E402

import pandas as pd  # noqa: E402

import pqlab  # noqa: E402
from pqlab.traces import read_trace, rebase  # noqa: E402
from pqlab.traffic import TRACE_JSON_MAX_PACKETS  # noqa: E402

T0_US = 1_700_000_000_123_456  # a Unix time, microseconds (2023-11-14)
HOSTS = [
    ("10.0.0.1", "10.0.0.9", 5000, 6000, 46),
    ("10.0.0.2", "10.0.0.9", 5001, 6000, 0),
    ("2001:db8::1", "2001:db8::9", 7000, 8000, 10),
]


def capture(n=30):
    """n packets: (offset µs after T0_US, host index, UDP payload bytes), the three hosts in
    turn."""
    return [(k * 137 + (k % 3), k % 3, 50 + 37 * k % 1400) for k in range(n)]


def scapy_frames(packets, vlan=False, arp=False):
    from scapy.layers.inet import IP, UDP
    from scapy.layers.inet6 import IPv6
    from scapy.layers.l2 import ARP, Dot1Q, Ether
    from scapy.packet import Raw

    frames = []
    for offset, host, payload in packets:
        src, dst, sport, dport, dscp = HOSTS[host]
        ip = (
            IPv6(src=src, dst=dst, tc=dscp << 2)
            if ":" in src
            else IP(src=src, dst=dst, tos=dscp << 2)
        )
        mac = dict(src="02:00:00:00:00:01", dst="02:00:00:00:00:02")
        link = Ether(**mac) / Dot1Q(vlan=7) if vlan and host == 1 else Ether(**mac)
        frame = link / ip / UDP(sport=sport, dport=dport) / Raw(b"x" * payload)
        frame.time = Decimal(T0_US + offset) / Decimal(10**6)
        frames.append(frame)
    if arp:
        extra = Ether(src="02:00:00:00:00:01", dst="ff:ff:ff:ff:ff:ff") / ARP(
            psrc="10.0.0.1", pdst="10.0.0.9"
        )
        extra.time = frames[-1].time
        frames.append(extra)
    return frames


def ip_length(host, payload):
    return (40 if ":" in HOSTS[host][0] else 20) + 8 + payload


def check_capture(streams, packets, *, queues=None):
    """The streams read from a capture of ``packets`` hold exactly its packets, one flow per host in
    order of first packet, rebased exactly to the first packet."""
    assert [s.flow for s in streams] == [0, 1, 2]
    for host, stream in enumerate(streams):
        mine = [(o, p) for o, h, p in packets if h == host]
        expected_us = np.array([o for o, _ in mine], dtype=np.int64)
        assert stream.arrival_s.tolist() == (expected_us / 1e6).tolist()  # exact: integer ticks
        assert stream.size_bytes.tolist() == [ip_length(host, p) for _, p in mine]
        assert stream.time_origin_s == T0_US * 1e-6
        src, dst, sport, dport, dscp = HOSTS[host]
        tail = f" queue {queues.get(dscp, 0)}" if queues else ""
        assert stream.source["key"] == f"udp {src} > {dst} {sport}>{dport}{tail}"
        assert stream.queue == (queues or {}).get(dscp, 0)


@pytest.mark.parametrize("writer", ["pcap", "pcap-ns", "pcapng"])
def test_a_capture_written_by_scapy_is_read_exactly(tmp_path, writer):
    from scapy.utils import wrpcap, wrpcapng

    packets = capture()
    path = tmp_path / ("t.pcapng" if writer == "pcapng" else "t.pcap")
    frames = scapy_frames(packets, vlan=True)
    if writer == "pcapng":
        wrpcapng(str(path), frames)
    else:
        wrpcap(str(path), frames, nano=writer == "pcap-ns")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        streams = read_trace(path)
    check_capture(streams, packets)
    assert streams[0].source["format"] == "pcap" and streams[0].source["path"] == str(
        path.resolve()
    )
    again = read_trace(path, queues={46: 1, 10: 2}, first_flow=0)
    check_capture(again, packets, queues={46: 1, 10: 2})
    one = read_trace(path, flows="none", first_flow=4)
    assert len(one) == 1 and one[0].flow == 4 and one[0].arrival_s.shape[0] == len(packets)


@pytest.mark.parametrize("writer", ["pcap", "pcapng"])
def test_a_capture_written_by_dpkt_is_read_and_non_ip_frames_are_skipped_with_a_count(
    tmp_path, writer
):
    import dpkt

    packets = capture(12)
    frames = scapy_frames(packets, arp=True)
    path = tmp_path / f"t.{writer}"
    with open(path, "wb") as f:
        out = dpkt.pcapng.Writer(f) if writer == "pcapng" else dpkt.pcap.Writer(f)
        for frame in frames:
            out.writepkt(bytes(frame), ts=float(frame.time))
    with pytest.warns(UserWarning, match=r"t\.pcap(ng)?': 1 of 13 packets are not IPv4/IPv6"):
        streams = read_trace(path)
    assert [s.arrival_s.shape[0] for s in streams] == [4, 4, 4]
    for host, stream in enumerate(
        streams
    ):  # dpkt writes float seconds: the µs survive the round trip
        expected = np.array([o for o, h, _ in packets if h == host])
        assert np.allclose(stream.arrival_s, expected * 1e-6, rtol=0, atol=1e-12)
        assert stream.size_bytes.tolist() == [
            ip_length(host, p) for _, h, p in packets if h == host
        ]


def test_a_file_that_is_not_a_capture_and_a_capture_cut_short_are_refused_naming_the_file(tmp_path):
    from scapy.utils import wrpcap

    bad = tmp_path / "bad.pcap"
    bad.write_bytes(b"not a capture at all, just text\n" * 4)
    with pytest.raises(ValueError, match=r"bad\.pcap' is not a pcap or pcapng file"):
        read_trace(bad)
    good = tmp_path / "cut.pcap"
    wrpcap(str(good), scapy_frames(capture(5)))
    whole = read_trace(good)
    data = good.read_bytes()
    good.write_bytes(data[:-10])  # the last packet's payload cut: its size is its IP header's
    with pytest.warns(
        UserWarning, match=r"cut\.pcap': the last record .* is cut: .* read 5 packets"
    ):
        cut = read_trace(good)
    assert [s.size_bytes.tolist() for s in cut] == [s.size_bytes.tolist() for s in whole]
    good.write_bytes(data + b"\x00" * 6)  # a record header cut short
    with pytest.raises(
        ValueError, match=r"cut\.pcap': the capture is cut or damaged after 5 packets"
    ):
        read_trace(good)
    with pytest.raises(ValueError, match=r"^flow_column is for tables"):
        read_trace(good, flow_column="flow")
    empty = tmp_path / "empty.pcap"
    empty.write_bytes(data[:24])  # the file header alone
    with pytest.raises(ValueError, match=r"empty\.pcap' holds no packet"):
        read_trace(empty)


# ----------------------------------------------------------------------------- tables


def table(n=12):
    """A trace table: Unix times (µs), IP sizes, flow names and classes."""
    k = np.arange(n)
    return pd.DataFrame(
        {
            "t_us": T0_US + k * 250,
            "len": 100 + 10 * k,
            "who": np.where(k % 2, "video", "voice"),
            "cls": np.where(k % 2, "BE", "EF"),
        }
    )


def test_a_csv_is_read_into_one_stream_per_flow_with_the_classes_queues_and_the_origin(tmp_path):
    df = table()
    path = tmp_path / "trace.csv"
    df.to_csv(path, index=False)
    streams = read_trace(
        path,
        time_column="t_us",
        time_unit="us",
        size_column="len",
        flow_column="who",
        class_column="cls",
        queues={"EF": 0, "BE": 1},
        first_flow=1,
    )
    assert [(s.flow, s.queue, s.source["key"]) for s in streams] == [
        (1, 0, "voice"),
        (2, 1, "video"),
    ]
    assert streams[0].arrival_s.tolist() == (np.arange(0, 12, 2) * 250 / 1e6).tolist()
    assert streams[1].size_bytes.tolist() == (100 + 10 * np.arange(1, 12, 2)).tolist()
    assert all(s.time_origin_s == T0_US * 1e-6 for s in streams)
    frames = read_trace(
        path, time_column="t_us", time_unit="us", size_column="len", size_is="frame"
    )
    assert len(frames) == 1 and frames[0].size_bytes.tolist() == (86 + 10 * np.arange(12)).tolist()
    seconds = tmp_path / "seconds.csv"
    pd.DataFrame({"time_s": [5.0, 5.5, 7.25], "size_bytes": [64, 1500, 576]}).to_csv(
        seconds, index=False
    )
    kept = read_trace(seconds, origin_s=0)
    assert kept[0].arrival_s.tolist() == [5.0, 5.5, 7.25] and kept[0].time_origin_s == 0.0
    rebased = read_trace(seconds)
    assert rebased[0].arrival_s.tolist() == [0.0, 0.5, 2.25] and rebased[0].time_origin_s == 5.0


def test_a_parquet_file_with_datetimes_is_read_as_its_csv(tmp_path):
    df = table()
    df["when"] = pd.to_datetime(df["t_us"], unit="us", utc=True)
    csv, parquet = tmp_path / "t.csv", tmp_path / "t.parquet"
    df.to_csv(csv, index=False)
    df.to_parquet(parquet)
    kw = dict(size_column="len", flow_column="who", class_column="cls", queues={"EF": 0, "BE": 1})
    from_csv = read_trace(csv, time_column="t_us", time_unit="us", **kw)
    from_parquet = read_trace(parquet, time_column="when", **kw)
    for a, b in zip(from_csv, from_parquet):
        assert np.array_equal(a.arrival_s, b.arrival_s) and np.array_equal(
            a.size_bytes, b.size_bytes
        )
        assert (a.flow, a.queue, a.time_origin_s) == (b.flow, b.queue, b.time_origin_s)
        assert b.source["format"] == "parquet"


def test_integer_flow_ids_are_kept_and_integer_classes_are_queue_indices(tmp_path):
    path = tmp_path / "ids.csv"
    pd.DataFrame(
        {
            "time_s": [0.0, 0.1, 0.2, 0.3],
            "size_bytes": [100, 200, 300, 400],
            "flow": [7, 3, 7, 3],
            "q": [1, 0, 1, 0],
        }
    ).to_csv(path, index=False)
    streams = read_trace(path, flow_column="flow", class_column="q")
    assert [(s.flow, s.queue, s.size_bytes.tolist()) for s in streams] == [
        (3, 0, [200, 400]),
        (7, 1, [100, 300]),
    ]


@pytest.mark.parametrize(
    "rows, kw, message",
    [
        (
            {"time_s": [0.0, 1.0], "size": [100, 200]},
            {},
            r"t\.csv' has no column 'size_bytes' \(size_column\); its " r"columns: time_s, size",
        ),
        (
            {"time_s": [0.0, 1.0], "size_bytes": [100, -5]},
            {},
            r"size_column\): every IP length must be in \[1, 65535\] " r"bytes, got -5 at row 1",
        ),
        (
            {"time_s": [0.0, 1.0], "size_bytes": [100, 14]},
            {"size_is": "frame"},
            r"frame length - frame_header_bytes = 14\) must be in \[1, 65535\] bytes, got a frame"
            r" length "
            r"of 14 at row 1",
        ),
        (
            {"time_s": [0.0, 2.0, 1.0], "size_bytes": [1, 2, 3]},
            {},
            r"the times are out of order \(row 2: 1\.0 s after " r"2\.0 s\); pass sort=True",
        ),
        (
            {"time_s": [0.0, float("nan")], "size_bytes": [1, 2]},
            {},
            r"time_s \(time_column\) must hold finite numbers, " r"got nan at row 1",
        ),
        (
            {"time_s": [0.0, 1.0], "size_bytes": [1.5, 2]},
            {},
            r"must hold whole bytes, got 1\.5 at row 0",
        ),
        (
            {"time_s": ["a", "b"], "size_bytes": [1, 2]},
            {},
            r"time_s \(time_column\) must hold numbers",
        ),
        (
            {"time_s": [3.0, 4.0], "size_bytes": [1, 2]},
            {"origin_s": 3.5},
            r"origin_s must be at or before the trace's " r"first packet \(3\.0 s\)",
        ),
        (
            {"time_s": [0.0, 1.0], "size_bytes": [1, 2], "c": ["EF", "AF"]},
            {"class_column": "c", "queues": {"EF": 0}},
            r"class 'AF' of c \(class_column\) has no queue: give queues=",
        ),
        (
            {"time_s": [0.0, 1.0], "size_bytes": [1, 2], "f": [0, 0], "c": [0, 1]},
            {"class_column": "c", "flow_column": "f"},
            r"flow 0 has packets of classes in queues \[0, 1\]",
        ),
        ({"time_s": [], "size_bytes": []}, {}, r"t\.csv' holds no packet"),
    ],
)
def test_bad_tables_are_refused_in_one_line_naming_the_file_and_the_parameter(
    tmp_path, rows, kw, message
):
    path = tmp_path / "t.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    with pytest.raises(ValueError, match=message) as caught:
        read_trace(path, **kw)
    assert "\n" not in str(caught.value) and str(path) in str(caught.value)


def test_times_out_of_order_are_sorted_when_asked(tmp_path):
    path = tmp_path / "t.csv"
    pd.DataFrame({"time_s": [10.0, 12.0, 11.0, 11.0], "size_bytes": [1, 2, 3, 4]}).to_csv(
        path, index=False
    )
    (stream,) = read_trace(path, sort=True)
    assert stream.arrival_s.tolist() == [0.0, 1.0, 1.0, 2.0] and stream.size_bytes.tolist() == [
        1,
        3,
        4,
        2,
    ]


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"format": "xls"}, r"^format must be one of 'csv', 'parquet', 'pcap', got 'xls'"),
        ({"time_unit": "h"}, r"^time_unit must be one of"),
        ({"size_is": "udp"}, r"^size_is must be one of 'ip', 'frame'"),
        ({"queue": -1}, r"^queue must be an integer"),
        ({"origin_s": "last"}, r"^origin_s must be one of 'first'"),
        ({"origin_s": float("inf")}, r"^origin_s must be"),
        ({"sort": 1}, r"^sort must be True or False"),
        ({"queues": [46]}, r"^queues must be None or a mapping"),
    ],
)
def test_bad_options_are_refused_naming_the_option(tmp_path, kw, message):
    path = tmp_path / "t.csv"
    pd.DataFrame({"time_s": [0.0], "size_bytes": [1]}).to_csv(path, index=False)
    with pytest.raises(ValueError, match=message):
        read_trace(path, **kw)


def test_a_file_of_unknown_suffix_or_missing_is_refused_naming_it(tmp_path):
    with pytest.raises(
        ValueError, match=r"the format cannot be told from the suffix '\.dat'; pass format="
    ):
        read_trace(tmp_path / "t.dat")
    with pytest.raises(ValueError, match=r"missing\.csv' is not a file"):
        read_trace(tmp_path / "missing.csv")


# ----------------------------------------------------------------------------- runs: origin,
# window, digest


def long_trace_file(tmp_path, n=5000, name="long.csv"):
    path = tmp_path / name
    k = np.arange(n)
    pd.DataFrame({"time_ns": T0_US * 1000 + k * 2_000_000, "size_bytes": 100 + k % 1000}).to_csv(
        path, index=False
    )
    return path


def test_an_epoch_trace_read_from_a_file_runs_every_packet_and_keeps_its_origin(tmp_path):
    """Issue 33: a trace of Unix times in a 30-s run simulated none of its packets; read with
    read_trace it is rebased, every packet runs and the origin is in the result's attrs."""
    (stream,) = read_trace(
        long_trace_file(tmp_path), time_column="time_ns", time_unit="ns", first_flow=3, queue=1
    )
    sc = Scenario(
        Node.cisco7200_atm(), [CBRStream(300e3, Deterministic(128), 0, 0), stream], duration_s=30.0
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ds = simulate(sc)
    assert np.count_nonzero(ds["flow"].values == 3) == 5000
    assert json.loads(ds.attrs["trace_time_origin_s"]) == {"3": T0_US * 1e-6}
    assert json.loads(ds.attrs["trace_packets_outside_window"]) == {"3": 0}
    absolute = (
        ds["arrival"].values[ds["flow"].values == 3]
        + json.loads(ds.attrs["trace_time_origin_s"])["3"]
    )
    assert np.allclose(absolute, T0_US * 1e-6 + np.arange(5000) * 2e-3, rtol=0, atol=1e-6)
    summary = simulate_summary(sc, window_s=1.0)
    assert summary.attrs["trace_time_origin_s"] == ds.attrs["trace_time_origin_s"]


def test_a_read_trace_partly_or_wholly_outside_the_window_warns_or_is_refused(tmp_path):
    (stream,) = read_trace(
        long_trace_file(tmp_path), time_column="time_ns", time_unit="ns", first_flow=3
    )
    node = Node.cisco7200_atm()
    with pytest.warns(
        UserWarning, match=r"flow 3\): 4,500 of 5,000 packets arrive at or after duration_s"
    ):
        ds = simulate(Scenario(node, [stream], duration_s=1.0))
    assert json.loads(ds.attrs["trace_packets_outside_window"]) == {"3": 4500}
    (kept,) = read_trace(
        long_trace_file(tmp_path), time_column="time_ns", time_unit="ns", origin_s=0
    )
    with pytest.raises(
        ValueError, match=r"^streams\[0\] \(TraceStream, flow 0\): none of its 5,000 packets"
    ):
        simulate(Scenario(node, [kept], duration_s=30.0))


def test_rebase_moves_a_trace_built_in_memory_and_keeps_its_origin():
    t = 1.7e9 + np.arange(10) * 0.5
    stream = TraceStream(t, np.full(10, 100), 0, 2)
    moved = rebase(stream)
    assert (
        moved.arrival_s.tolist() == (np.arange(10) * 0.5).tolist() and moved.time_origin_s == 1.7e9
    )
    assert rebase(moved, 0.0) == moved
    with pytest.raises(
        ValueError, match=r"^origin_s must be at or before the trace's first packet"
    ):
        rebase(stream, 1.8e9)
    ds = simulate(Scenario(Node.cisco7200_atm(), [moved], duration_s=10.0))
    assert json.loads(ds.attrs["trace_time_origin_s"]) == {"2": 1.7e9}


def test_a_long_trace_is_recorded_by_digest_and_source_and_read_back_from_the_file(tmp_path):
    path = long_trace_file(tmp_path)
    (stream,) = read_trace(path, time_column="time_ns", time_unit="ns")
    sc = Scenario(Node.cisco7200_atm(), [stream], duration_s=11.0)
    ds = simulate(sc)
    text = ds.attrs["scenario"]
    assert len(text) < 3000  # not the 5,000 packets (120 kB of JSON)
    recorded = json.loads(text)["streams"][0]
    assert recorded["sha256"] == stream.sha256 and recorded["packets"] == 5000
    assert recorded["source"]["path"] == str(path.resolve()) and "arrival_s" not in recorded
    assert Scenario.from_json(text) == sc  # read back from the file
    full = sc.to_json(full_traces=True)
    assert len(full) > 50_000 and Scenario.from_json(full) == sc
    pd.DataFrame(
        {
            "time_ns": T0_US * 1000 + np.arange(5000) * 2_000_001,
            "size_bytes": 100 + np.arange(5000) % 1000,
        }
    ).to_csv(path, index=False)
    with pytest.raises(
        ValueError, match=r"long\.csv' no longer holds it .* the file changed since the run"
    ):
        Scenario.from_json(text)
    path.unlink()
    with pytest.raises(ValueError, match=r"long\.csv', which is not a file"):
        Scenario.from_json(text)


def test_a_long_trace_built_in_memory_is_recorded_by_digest_and_said_not_to_be_readable_back():
    n = TRACE_JSON_MAX_PACKETS + 1
    stream = TraceStream(np.arange(n) * 1e-3, np.full(n, 100), 0, 0)
    small = TraceStream(np.arange(3) * 1e-3, np.full(3, 100), 0, 1)
    sc = Scenario(Node.cisco7200_atm(), [stream, small], duration_s=2.0)
    data = json.loads(sc.to_json())
    assert "arrival_s" not in data["streams"][0] and data["streams"][1]["arrival_s"] == [
        0.0,
        0.001,
        0.002,
    ]
    with pytest.raises(
        ValueError,
        match=r"streams\[0\].*recorded by its digest only and was built in memory: it "
        r"cannot be read back; record the scenario with "
        r"Scenario.to_json\(full_traces=True\)",
    ):
        Scenario.from_json(sc.to_json())
    assert Scenario.from_json(sc.to_json(full_traces=True)) == sc


def test_the_cache_key_and_the_recorded_digest_change_with_the_traces_content():
    from pqlab.measure.cache import key

    def run(scenario):
        return scenario

    n = 2000
    a = TraceStream(np.arange(n) * 1e-3, np.full(n, 100), 0, 0)
    b = TraceStream(np.arange(n) * 1e-3, np.r_[np.full(n - 1, 100), 101], 0, 0)
    sa, sb = (Scenario(Node.cisco7200_atm(), [s], duration_s=3.0) for s in (a, b))
    assert sa.to_json() != sb.to_json() and a.sha256 != b.sha256
    assert key("t", run, (sa,), {})[0] != key("t", run, (sb,), {})[0]
    assert (
        key("t", run, (sa,), {})[0]
        == key("t", run, (Scenario(Node.cisco7200_atm(), [a], duration_s=3.0),), {})[0]
    )


def test_a_short_trace_without_origin_or_source_has_the_json_it_had_before():
    stream = TraceStream([0.1, 0.2], [64, 1500], 1, 3)
    assert stream.to_dict() == {
        "type": "TraceStream",
        "arrival_s": [0.1, 0.2],
        "size_bytes": [64, 1500],
        "queue": 1,
        "flow": 3,
    }


def test_the_public_names():
    assert pqlab.read_trace is read_trace and pqlab.traces.rebase is rebase
    assert pqlab.traffic.read_trace is read_trace


def test_a_parquet_file_without_pyarrow_names_the_extra_to_install(tmp_path, monkeypatch):
    path = tmp_path / "t.parquet"
    pd.DataFrame({"time_s": [0.0], "size_bytes": [100]}).to_parquet(path)
    monkeypatch.setitem(__import__("sys").modules, "pyarrow", None)  # as if it were not installed
    with pytest.raises(
        ImportError, match=r"^reading a Parquet trace needs pyarrow: pip install 'pqlab\[parquet\]'"
    ):
        read_trace(path)


def test_a_capture_read_with_dscp_queues_is_read_back_from_its_digest_with_the_same_flows(
    tmp_path, monkeypatch
):
    from scapy.utils import wrpcap

    import pqlab.node.sources

    path = tmp_path / "t.pcap"
    wrpcap(str(path), scapy_frames(capture()))
    streams = read_trace(path, queues={46: 1, 10: 0}, first_flow=5, queue=1)
    sc = Scenario(Node.cisco7200_atm(), list(streams), duration_s=1.0)
    monkeypatch.setattr(
        pqlab.node.sources, "TRACE_JSON_MAX_PACKETS", 0
    )  # every trace by its digest
    text = sc.to_json()
    assert all("sha256" in s and "arrival_s" not in s for s in json.loads(text)["streams"])
    again = Scenario.from_json(text)
    assert again == sc and [(s.flow, s.queue) for s in again.streams] == [(5, 1), (6, 1), (7, 0)]


def test_a_big_endian_raw_ip_capture_with_a_fragment_and_tcp_is_read(tmp_path):
    from scapy.layers.inet import IP, TCP, UDP
    from scapy.packet import Raw
    from scapy.utils import PcapWriter

    packets = [
        IP(src="10.0.0.1", dst="10.0.0.2", tos=46 << 2) / UDP(sport=1, dport=2) / Raw(b"a" * 100),
        IP(src="10.0.0.1", dst="10.0.0.2", frag=100, proto=17)
        / Raw(b"b" * 300),  # no ports: not the first
        IP(src="10.0.0.3", dst="10.0.0.2") / TCP(sport=80, dport=8080) / Raw(b"c" * 10),
    ]
    for k, p in enumerate(packets):
        p.time = Decimal(T0_US + 1000 * k) / Decimal(10**6)
    path = tmp_path / "raw.pcap"
    with PcapWriter(str(path), linktype=101, endianness=">") as out:
        for p in packets:
            out.write(p)
    assert path.read_bytes()[:4] == bytes.fromhex("a1b2c3d4")  # big-endian magic
    streams = read_trace(path, queues={46: 1})
    assert [
        (s.source["key"], s.queue, s.size_bytes.tolist(), s.arrival_s.tolist()) for s in streams
    ] == [
        ("udp 10.0.0.1 > 10.0.0.2 1>2 queue 1", 1, [128], [0.0]),
        ("udp 10.0.0.1 > 10.0.0.2 queue 0", 0, [320], [0.001]),
        ("tcp 10.0.0.3 > 10.0.0.2 80>8080 queue 0", 0, [50], [0.002]),
    ]


def test_a_linux_cooked_capture_is_read_and_an_unread_link_type_is_refused_naming_it(tmp_path):
    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import CookedLinux
    from scapy.packet import Raw
    from scapy.utils import wrpcap

    frames = [
        CookedLinux(proto=0x0800)
        / IP(src="10.0.0.1", dst="10.0.0.2")
        / UDP(sport=1, dport=2)
        / Raw(b"x" * n)
        for n in (10, 20)
    ]
    for k, frame in enumerate(frames):
        frame.time = Decimal(T0_US + k) / Decimal(10**6)
    path = tmp_path / "sll.pcap"
    wrpcap(str(path), frames, linktype=113)
    (stream,) = read_trace(path)
    assert stream.size_bytes.tolist() == [38, 48] and stream.arrival_s.tolist() == [0.0, 1e-6]
    other = tmp_path / "wifi.pcap"
    wrpcap(str(other), [IP()], linktype=105)  # 802.11
    with pytest.raises(
        ValueError, match=r"wifi\.pcap': link type 105 is not read \(read: Ethernet 1"
    ):
        read_trace(other)
