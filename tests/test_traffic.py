"""Tests of pqlab.traffic: size distributions, streams, merge, dict round trips."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from pqlab.traffic import (
    MAX_STREAM_PACKETS,
    UDP_IP_HEADER_BYTES,
    CBRStream,
    Deterministic,
    Empirical,
    Geometric,
    PoissonStream,
    TraceStream,
    TrafficWindows,
    Uniform,
    merge_streams,
    size_from_dict,
    stream_from_dict,
)


def test_the_streams_module_is_named_for_what_it_holds():
    """Issue 29: ``pqlab/node/streams.py`` (the traffic sources) and ``pqlab/node/streaming.py``
    (long runs in bounded memory) looked alike; the sources are ``pqlab.node.sources``, re-exported
    by ``pqlab.traffic``, and ``pqlab.streaming`` stays the long runs."""
    import importlib.util

    import pqlab
    from pqlab.node import sources

    assert importlib.util.find_spec("pqlab.node.streams") is None
    assert (CBRStream, PoissonStream, TraceStream) == (
        sources.CBRStream,
        sources.PoissonStream,
        sources.TraceStream,
    )
    assert pqlab.streaming.simulate_summary is pqlab.node.streaming.simulate_summary


def rng(seed=0):
    return np.random.default_rng(seed)


EF_INTERVAL_S = 128 * 8 / 300e3  # 3.41333 ms, the papers' EF reference stream


# ----------------------------------------------------------------------------- CBR


def test_cbr_exact_timing_papers_ef_stream():
    arrival, size = CBRStream(300e3, Deterministic(128), 0, 0, phase_s=0.0).generate(rng(), 1.0)
    assert EF_INTERVAL_S == pytest.approx(3.413333e-3, rel=1e-6)
    # k * 3.41333 ms < 1 s for k = 0..292
    assert arrival.shape == (293,) and size.shape == (293,)
    np.testing.assert_allclose(arrival, np.arange(293) * EF_INTERVAL_S, rtol=1e-12, atol=0)
    assert size.dtype == np.int64 and np.all(size == 128)
    assert arrival.dtype == np.float64


def test_cbr_given_phase_and_start():
    stream = CBRStream(300e3, Deterministic(128), 0, 0, phase_s=1e-3, start_s=0.5)
    arrival, _ = stream.generate(rng(), 1.0)
    assert arrival[0] == pytest.approx(0.501)
    assert np.all(arrival < 1.0) and np.all(arrival >= 0.5)
    assert arrival.size == math.floor((1.0 - 0.501) / EF_INTERVAL_S) + 1
    np.testing.assert_allclose(np.diff(arrival), EF_INTERVAL_S, rtol=1e-9)


def test_cbr_random_phase_within_interval_and_varies_with_seed():
    stream = CBRStream(300e3, Deterministic(128), 0, 0)
    firsts = np.array([stream.generate(rng(seed), 1.0)[0][0] for seed in range(200)])
    assert np.all(firsts >= 0) and np.all(firsts < EF_INTERVAL_S)
    # Uniform on [0, interval): the 200 phases spread over the interval.
    assert stats.kstest(firsts / EF_INTERVAL_S, "uniform").pvalue > 1e-3
    assert np.unique(firsts).size == 200


def test_cbr_interval_uses_mean_ip_size_with_header():
    # Uniform 100..200 payload + 28 header: mean IP size 178 bytes.
    stream = CBRStream(1e6, Uniform(100, 200), 0, 0, phase_s=0.0, header_bytes=UDP_IP_HEADER_BYTES)
    arrival, size = stream.generate(rng(), 1.0)
    np.testing.assert_allclose(np.diff(arrival), 178 * 8 / 1e6, rtol=1e-9)
    assert size.min() >= 128 and size.max() <= 228
    assert len(np.unique(size)) > 50  # fresh draw per packet


def test_header_added_to_deterministic_size():
    for size_per in ("packet", "stream"):
        stream = CBRStream(300e3, Deterministic(100), 0, 0, header_bytes=28, size_per=size_per)
        arrival, size = stream.generate(rng(), 0.1)
        assert np.all(size == 128)
        np.testing.assert_allclose(np.diff(arrival), EF_INTERVAL_S, rtol=1e-9)


def test_cbr_window_is_half_open():
    # 1000 bytes at 8 kbit/s: exactly 1 s apart; a packet due at duration_s is excluded.
    arrival, _ = CBRStream(8e3, Deterministic(1000), 0, 0, phase_s=0.0).generate(rng(), 3.0)
    assert arrival.tolist() == [0.0, 1.0, 2.0]


def test_size_per_stream_one_size_and_interval_from_it():
    streams = [
        CBRStream(110e3, Uniform(72, 1472), 1, f, header_bytes=28, size_per="stream")
        for f in range(20)
    ]
    g = rng(3)
    drawn = []
    for s in streams:
        arrival, size = s.generate(g, 2.0)
        assert np.unique(size).size == 1
        np.testing.assert_allclose(np.diff(arrival), size[0] * 8 / 110e3, rtol=1e-9)
        drawn.append(size[0])
    assert len(set(drawn)) > 10  # each stream draws its own size
    assert 100 <= min(drawn) and max(drawn) <= 1500


def test_size_per_stream_poisson_one_size():
    _, size = PoissonStream(1e6, Uniform(40, 1500), 0, 0, size_per="stream").generate(rng(), 1.0)
    assert size.size > 10 and np.unique(size).size == 1


def test_phase_checked_against_drawn_stream_interval():
    # Drawn size 1..2 bytes at 8 bit/s: interval 1..2 s; phase 5 s is always too large.
    stream = CBRStream(8.0, Uniform(1, 2), 0, 0, phase_s=5.0, size_per="stream")
    with pytest.raises(ValueError, match="phase_s"):
        stream.generate(rng(), 10.0)


def test_stream_starting_after_duration_is_empty():
    for stream in (
        CBRStream(300e3, Deterministic(128), 0, 0, start_s=2.0),
        PoissonStream(300e3, Deterministic(128), 0, 0, start_s=2.0),
    ):
        arrival, size = stream.generate(rng(), 1.0)
        assert arrival.size == 0 and size.size == 0


@settings(max_examples=60, deadline=None)
@given(
    rate_bps=st.floats(1e3, 1e8),
    size_bytes=st.integers(1, 1500),
    duration_s=st.floats(1e-3, 2.0),
    phase_frac=st.floats(0.0, 0.999),
)
def test_cbr_property(rate_bps, size_bytes, duration_s, phase_frac):
    interval = size_bytes * 8 / rate_bps
    stream = CBRStream(rate_bps, Deterministic(size_bytes), 0, 0, phase_s=phase_frac * interval)
    arrival, _ = stream.generate(rng(), duration_s)
    assert np.all(arrival < duration_s)
    if arrival.size:
        assert arrival[0] == phase_frac * interval
        np.testing.assert_allclose(np.diff(arrival), interval, rtol=1e-6)
    # the packet after the last one would be at or beyond the end
    next_s = phase_frac * interval + arrival.size * interval
    assert next_s >= duration_s * (1 - 1e-12)


def test_packet_count_guard_names_duration():
    with pytest.raises(ValueError, match="duration_s"):
        CBRStream(1e9, Deterministic(1), 0, 0).generate(rng(), 10.0)  # 1.25e9 packets
    with pytest.raises(ValueError, match="duration_s"):
        PoissonStream(1e9, Deterministic(1), 0, 0).generate(rng(), 10.0)
    assert MAX_STREAM_PACKETS == 200_000_000


# ----------------------------------------------------------------------------- Poisson


def test_poisson_rate_and_exponential_gaps():
    # 1 Mbit/s of 125-byte packets = 1000 packets/s; 100 s -> 1e5 expected, sd 316.
    arrival, size = PoissonStream(1e6, Deterministic(125), 0, 0).generate(rng(42), 100.0)
    assert abs(arrival.size - 1e5) < 5 * math.sqrt(1e5)  # 5 sigma
    assert np.all(np.diff(arrival) >= 0) and arrival[-1] < 100.0 and arrival[0] > 0
    gaps = np.diff(arrival)
    assert gaps.mean() == pytest.approx(1e-3, rel=0.02)
    assert gaps.std() / gaps.mean() == pytest.approx(1.0, abs=0.02)  # exponential: CV = 1
    assert stats.kstest(gaps, "expon", args=(0, 1e-3)).pvalue > 1e-3
    assert np.all(size == 125)


def test_poisson_rate_uses_mean_ip_size():
    # Uniform 100..200 + 28 header -> mean 178 bytes; 1 Mbit/s -> 702.2 packets/s; 50 s.
    arrival, _ = PoissonStream(1e6, Uniform(100, 200), 0, 0, header_bytes=28).generate(rng(7), 50.0)
    expected = 1e6 / (8 * 178) * 50
    assert abs(arrival.size - expected) < 5 * math.sqrt(expected)


def test_poisson_start():
    arrival, _ = PoissonStream(1e6, Deterministic(125), 0, 0, start_s=3.0).generate(rng(), 4.0)
    assert arrival[0] >= 3.0 and arrival[-1] < 4.0
    assert abs(arrival.size - 1000) < 5 * math.sqrt(1000)


# ----------------------------------------------------------------------------- sizes


def test_deterministic_and_uniform():
    assert Deterministic(77).mean_bytes == 77.0
    assert np.all(Deterministic(77).sample(rng(), 5) == 77)
    u = Uniform(10, 13)
    assert u.mean_bytes == 11.5
    x = u.sample(rng(1), 40_000)
    assert x.dtype == np.int64 and set(np.unique(x)) == {10, 11, 12, 13}  # both ends inclusive
    assert x.mean() == pytest.approx(11.5, abs=5 * math.sqrt(1.25 / 40_000))
    assert Uniform(5, 5).sample(rng(), 3).tolist() == [5, 5, 5]
    assert Deterministic(1).sample(rng(), 0).shape == (0,)


def _truncated_geometric_pmf(g):
    k = np.arange(g.min_bytes, g.max_bytes + 1)
    w = (1 - g.p) ** (k - g.min_bytes)
    return k, w / w.sum()


@pytest.mark.parametrize(
    "mean, low, high", [(300, 40, 1500), (1000, 1, 1500), (60, 40, 50), (40, 40, 1500)]
)
def test_geometric_mean_is_exact_truncated_mean(mean, low, high):
    g = Geometric(mean, low, high)
    k, pmf = _truncated_geometric_pmf(g)
    assert g.mean_bytes == pytest.approx(float(np.dot(k, pmf)), rel=1e-10)


def test_geometric_untruncated_mean_when_truncation_negligible():
    assert Geometric(100, 1, 65535).mean_bytes == pytest.approx(100, rel=1e-12)


def test_geometric_sampling_mean_and_truncation():
    g = Geometric(1000, 1, 1500)  # P(> 1500) = 0.999^1500 ~ 22%: truncation matters
    assert g.mean_bytes < 700
    x = g.sample(rng(11), 200_000)
    assert x.min() >= 1 and x.max() <= 1500
    k, pmf = _truncated_geometric_pmf(g)
    sd = math.sqrt(np.dot(k**2, pmf) - g.mean_bytes**2)
    assert abs(x.mean() - g.mean_bytes) < 5 * sd / math.sqrt(x.size)  # 5 standard errors


def test_geometric_shift_and_degenerate():
    x = Geometric(300, 40, 1500).sample(rng(5), 100_000)
    assert x.min() == 40  # P(min) = 1/261 per draw
    assert np.all(Geometric(40, 40, 1500).sample(rng(), 100) == 40)  # p = 1
    assert np.all(Geometric(80, 64, 64).sample(rng(), 100) == 64)  # P(accept) = 1/17


def test_geometric_distribution_chi_square():
    g = Geometric(20, 5, 30)
    x = g.sample(rng(9), 50_000)
    k, pmf = _truncated_geometric_pmf(g)
    observed = np.bincount(x - g.min_bytes, minlength=k.size)
    assert stats.chisquare(observed, pmf * x.size).pvalue > 1e-3


def test_empirical_frequencies_chi_square():
    e = Empirical([40, 576, 1000, 1500], [0.5, 0.8, 0.8, 1.0])
    assert e.pmf().tolist() == pytest.approx([0.5, 0.3, 0.0, 0.2])
    assert e.mean_bytes == pytest.approx(0.5 * 40 + 0.3 * 576 + 0.2 * 1500)
    x = e.sample(rng(2), 100_000)
    assert 1000 not in x  # zero-probability step never drawn
    observed = np.array([(x == s).sum() for s in (40, 576, 1500)])
    assert observed.sum() == x.size
    assert stats.chisquare(observed, np.array([0.5, 0.3, 0.2]) * x.size).pvalue > 1e-3


def test_empirical_cdf_tolerance_and_single_point():
    for last in (1 - 5e-10, 1 + 5e-10):
        pmf = Empirical([10, 20], [0.3, last]).pmf()
        assert pmf.sum() == 1.0 and pmf.tolist() == pytest.approx([0.3, 0.7], abs=1e-15)
    assert Empirical([99], [1.0]).sample(rng(), 4).tolist() == [99] * 4


def test_empirical_from_csv_round_trip(tmp_path):
    e = Empirical([40, 576, 1500], [0.45, 0.7, 1.0])
    path = tmp_path / "real.csv"
    path.write_text(
        "# provenance: read off GLOBECOM'01 Fig. 4\n# second comment\nsize_bytes,cdf\n"
        + "".join(f"{s},{c!r}\n" for s, c in zip(e.sizes_bytes, e.cdf))
    )
    assert Empirical.from_csv(path) == e
    assert Empirical.from_csv(str(path)).cdf == (0.45, 0.7, 1.0)


def test_empirical_from_csv_missing_column(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("size,cdf\n40,1.0\n")
    with pytest.raises(ValueError, match="size_bytes"):
        Empirical.from_csv(path)


# ----------------------------------------------------------------------------- trace


def test_trace_stream_cut_at_duration():
    t = TraceStream([0.0, 0.5, 0.5, 1.0, 2.0], [10, 20, 30, 40, 50], 1, 4)
    arrival, size = t.generate(rng(), 1.0)
    assert arrival.tolist() == [0.0, 0.5, 0.5] and size.tolist() == [10, 20, 30]
    arrival[0] = 9.0  # returned copies, the stream is unchanged
    assert t.arrival_s[0] == 0.0
    assert t == TraceStream(np.array([0.0, 0.5, 0.5, 1.0, 2.0]), [10, 20, 30, 40, 50], 1, 4)
    assert t != TraceStream([0.0, 0.5, 0.5, 1.0, 2.0], [10, 20, 30, 40, 51], 1, 4)


# ----------------------------------------------------------------------------- merge, determinism


def test_merge_sorted_and_stable_ties_in_list_order():
    a = CBRStream(300e3, Deterministic(128), 0, 7, phase_s=0.0)
    b = CBRStream(300e3, Deterministic(128), 1, 3, phase_s=0.0)
    arrival, size, queue, flow = merge_streams([a, b], rng(), 0.1)
    assert np.all(np.diff(arrival) >= 0)
    n = arrival.size // 2
    assert flow.tolist() == [7, 3] * n and queue.tolist() == [0, 1] * n
    _, _, _, flow_rev = merge_streams([b, a], rng(), 0.1)
    assert flow_rev.tolist() == [3, 7] * n


def test_merge_interleaves_and_keeps_columns_together():
    ef = CBRStream(300e3, Deterministic(128), 0, 0)
    be = PoissonStream(1.5e6, Uniform(40, 1500), 1, 1)
    trace = TraceStream([0.25, 0.25], [64, 65], 1, 2)
    arrival, size, queue, flow = merge_streams([ef, be, trace], rng(8), 0.5)
    assert np.all(np.diff(arrival) >= 0)
    assert (
        np.all(size[flow == 0] == 128)
        and np.all(queue[flow == 0] == 0)
        and np.all(queue[flow == 1] == 1)
    )
    assert size[flow == 2].tolist() == [64, 65]
    assert {a.dtype for a in (size, queue, flow)} == {np.dtype(np.int64)}
    assert flow.tolist().count(0) in (146, 147)  # 0.5 s / 3.41333 ms = 146.5


def test_merge_empty_and_bad_input():
    out = merge_streams([], rng(), 1.0)
    assert [a.size for a in out] == [0, 0, 0, 0]
    with pytest.raises(ValueError, match=r"streams\[1\]"):
        merge_streams([CBRStream(1e3, Deterministic(1), 0, 0), "x"], rng(), 1.0)
    with pytest.raises(ValueError, match="streams"):
        merge_streams(CBRStream(1e3, Deterministic(1), 0, 0), rng(), 1.0)


def _mixed_streams():
    return [
        CBRStream(300e3, Deterministic(128), 0, 0),
        CBRStream(110e3, Geometric(400, 40, 1472), 1, 1, header_bytes=28, size_per="stream"),
        PoissonStream(800e3, Empirical([64, 576, 1500], [0.4, 0.7, 1.0]), 1, 2),
    ]


def test_determinism_per_seed():
    first = merge_streams(_mixed_streams(), rng(123), 2.0)
    again = merge_streams(_mixed_streams(), rng(123), 2.0)
    other = merge_streams(_mixed_streams(), rng(124), 2.0)
    for x, y in zip(first, again):
        np.testing.assert_array_equal(x, y)
    assert first[0].shape != other[0].shape or not np.array_equal(first[0], other[0])


# ----------------------------------------------------------------------------- dicts

ALL_SIZES = [
    Deterministic(128),
    Uniform(72, 1472),
    Geometric(400.5, 40, 1472),
    Empirical([64, 1500], [0.25, 1.0]),
]
ALL_STREAMS = [
    CBRStream(300e3, Deterministic(128), 0, 0, phase_s=1e-3),
    CBRStream(
        110e3,
        Empirical([64, 1500], [0.25, 1.0]),
        1,
        5,
        header_bytes=28,
        size_per="stream",
        start_s=0.1,
    ),
    PoissonStream(1e6, Geometric(300), 1, 2, header_bytes=8, start_s=0.2),
    TraceStream([0.0, 0.1], [64, 1500], 1, 9),
]


@pytest.mark.parametrize("obj", ALL_SIZES, ids=lambda o: type(o).__name__)
def test_size_dict_round_trip(obj):
    d = json.loads(json.dumps(obj.to_dict()))
    assert d["type"] == type(obj).__name__
    assert size_from_dict(d) == obj


@pytest.mark.parametrize("obj", ALL_STREAMS, ids=lambda o: type(o).__name__)
def test_stream_dict_round_trip(obj):
    d = json.loads(json.dumps(obj.to_dict()))
    assert d["type"] == type(obj).__name__
    back = stream_from_dict(d)
    assert back == obj
    for x, y in zip(back.generate(rng(4), 1.0), obj.generate(rng(4), 1.0)):
        np.testing.assert_array_equal(x, y)


def test_dict_unknown_type():
    with pytest.raises(ValueError, match="type"):
        size_from_dict({"type": "Pareto", "alpha": 1.2})
    with pytest.raises(ValueError, match="type"):
        stream_from_dict({"type": "Deterministic", "size_bytes": 3})
    with pytest.raises(ValueError, match="type"):
        stream_from_dict({"rate_bps": 3})


# ----------------------------------------------------------------------------- bad inputs

D = Deterministic(128)

BAD_SIZES = [
    (lambda: Deterministic(0), "size_bytes"),
    (lambda: Deterministic(65536), "size_bytes"),
    (lambda: Deterministic(12.5), "size_bytes"),
    (lambda: Deterministic(True), "size_bytes"),
    (lambda: Uniform(0, 10), "low_bytes"),
    (lambda: Uniform("1", 10), "low_bytes"),
    (lambda: Uniform(10, 9), "high_bytes"),
    (lambda: Uniform(10, 65536), "high_bytes"),
    (lambda: Geometric(300, 0), "min_bytes"),
    (lambda: Geometric(300, 40, 39), "max_bytes"),
    (lambda: Geometric(300, 40, 70000), "max_bytes"),
    (lambda: Geometric(30, 40), "untruncated_mean_bytes"),
    (lambda: Geometric(float("nan")), "untruncated_mean_bytes"),
    (lambda: Geometric(70000, 1, 65535), "untruncated_mean_bytes"),
    (lambda: Geometric(5000, 1, 10), "untruncated_mean_bytes"),  # P(size <= 10) = 0.2%
    (lambda: Empirical([], []), "sizes_bytes"),
    (lambda: Empirical([0, 10], [0.5, 1.0]), "sizes_bytes"),
    (lambda: Empirical([10, 70000], [0.5, 1.0]), "sizes_bytes"),
    (lambda: Empirical([10, 10], [0.5, 1.0]), "sizes_bytes"),
    (lambda: Empirical([20, 10], [0.5, 1.0]), "sizes_bytes"),
    (lambda: Empirical([[10, 20]], [[0.5, 1.0]]), "sizes_bytes"),
    (lambda: Empirical([10.5, 20], [0.5, 1.0]), "sizes_bytes"),
    (lambda: Empirical([10, 20], [1.0]), "cdf"),
    (lambda: Empirical([10, 20], [0.6, 0.5]), "cdf"),
    (lambda: Empirical([10, 20], [0.5, 0.99]), "cdf"),
    (lambda: Empirical([10, 20], [-0.1, 1.0]), "cdf"),
    (lambda: Empirical([10, 20], [0.5, float("nan")]), "cdf"),
    (lambda: Empirical([10, 20], [0.5, 1.01]), "cdf"),
    (lambda: D.sample(rng(), -1), "n"),
    (lambda: D.sample(rng(), 2.0), "n"),
    (lambda: D.sample(0, 2), "rng"),
]

BAD_STREAMS = [
    (lambda: CBRStream(0, D, 0, 0), "rate_bps"),
    (lambda: CBRStream(-1e3, D, 0, 0), "rate_bps"),
    (lambda: CBRStream(float("inf"), D, 0, 0), "rate_bps"),
    (lambda: CBRStream(1e3, 128, 0, 0), "size"),
    (lambda: CBRStream(1e3, D, -1, 0), "queue"),
    (lambda: CBRStream(1e3, D, 0.5, 0), "queue"),
    (lambda: CBRStream(1e3, D, 0, -1), "flow"),
    (lambda: CBRStream(1e3, D, 0, "a"), "flow"),
    (lambda: CBRStream(300e3, D, 0, 0, phase_s=-1e-3), "phase_s"),
    (lambda: CBRStream(300e3, D, 0, 0, phase_s=EF_INTERVAL_S), "phase_s"),
    (lambda: CBRStream(300e3, D, 0, 0, phase_s="0"), "phase_s"),
    (lambda: CBRStream(1e3, D, 0, 0, header_bytes=-1), "header_bytes"),
    (lambda: CBRStream(1e3, D, 0, 0, header_bytes=65535 - 127), "header_bytes"),
    (lambda: CBRStream(1e3, D, 0, 0, size_per="flow"), "size_per"),
    (lambda: CBRStream(1e3, D, 0, 0, start_s=-1.0), "start_s"),
    (lambda: CBRStream(1e3, D, 0, 0, start_s=float("nan")), "start_s"),
    (lambda: PoissonStream(0, D, 0, 0), "rate_bps"),
    (lambda: PoissonStream(1e3, Uniform, 0, 0), "size"),
    (lambda: PoissonStream(1e3, D, -2, 0), "queue"),
    (lambda: PoissonStream(1e3, D, 0, -2), "flow"),
    (lambda: PoissonStream(1e3, Uniform(1, 65000), 0, 0, header_bytes=536), "header_bytes"),
    (lambda: PoissonStream(1e3, D, 0, 0, size_per=None), "size_per"),
    (lambda: PoissonStream(1e3, D, 0, 0, start_s=-0.1), "start_s"),
    (lambda: TraceStream([0.0, float("nan")], [1, 1], 0, 0), "arrival_s"),
    (lambda: TraceStream([-1.0, 0.0], [1, 1], 0, 0), "arrival_s"),
    (lambda: TraceStream([1.0, 0.5], [1, 1], 0, 0), "arrival_s"),
    (lambda: TraceStream([[1.0]], [1], 0, 0), "arrival_s"),
    (lambda: TraceStream([0.0, 1.0], [1, 0], 0, 0), "size_bytes"),
    (lambda: TraceStream([0.0, 1.0], [1, 65536], 0, 0), "size_bytes"),
    (lambda: TraceStream([0.0, 1.0], [1, 1.5], 0, 0), "size_bytes"),
    (lambda: TraceStream([0.0, 1.0], [1], 0, 0), "size_bytes"),
    (lambda: TraceStream([0.0], [1], -1, 0), "queue"),
    (lambda: TraceStream([0.0], [1], 0, -1), "flow"),
]

BAD_GENERATE = [
    (lambda s: s.generate(rng(), 0.0), "duration_s"),
    (lambda s: s.generate(rng(), -1.0), "duration_s"),
    (lambda s: s.generate(rng(), float("inf")), "duration_s"),
    (lambda s: s.generate(rng(), "1"), "duration_s"),
    (lambda s: s.generate(1, 1.0), "rng"),
    (lambda s: merge_streams([s], rng(), 0.0), "duration_s"),
    (lambda s: merge_streams([s], None, 1.0), "rng"),
]


@pytest.mark.parametrize("make, field", BAD_SIZES + BAD_STREAMS)
def test_bad_input_names_field(make, field):
    with pytest.raises(ValueError, match=field):
        make()


@pytest.mark.parametrize("call, field", BAD_GENERATE)
@pytest.mark.parametrize("stream", ALL_STREAMS, ids=lambda o: type(o).__name__)
def test_bad_generate_arguments(stream, call, field):
    with pytest.raises(ValueError, match=field):
        call(stream)


def test_valid_edge_values_accepted():
    CBRStream(300e3, D, 0, 0, phase_s=0.0, header_bytes=65535 - 128, start_s=0.0)
    Uniform(1, 65535)
    Geometric(65535, 1, 65535)
    TraceStream([], [], 0, 0).generate(rng(), 1.0)


# --------------------------------------------------------------------------- the vectorised
# periodic path


def _both_paths(streams, seed, windows):
    """Each window through TrafficWindows' vectorised periodic path and through each stream's own
    window."""
    fast = TrafficWindows(streams, np.random.default_rng(seed))
    slow = TrafficWindows(streams, np.random.default_rng(seed), vectorised=False)
    assert (
        fast._periodic is not None and slow._periodic is None
    )  # slow: each stream's own window, a stable sort
    return [(fast.window(a, b), slow.window(a, b)) for a, b in windows]


@pytest.mark.parametrize("preset", ["base_case", "full_units", "pq_vs_wfq", "tftant_star"])
def test_periodic_streams_merge_exactly_like_each_stream_alone(preset):
    from pqlab import scenarios

    kwargs = {"full_units": {"k": 2}, "tftant_star": {"star": 3.0}}.get(preset, {})
    sc = getattr(scenarios, preset)(n_ef_samples=2_000, **kwargs)
    edges = np.linspace(0.0, sc.duration_s, 7)
    for fast, slow in _both_paths(
        sc.streams, 3, [(0.0, sc.duration_s), *zip(edges[:-1], edges[1:])]
    ):
        for a, b in zip(fast, slow):
            np.testing.assert_array_equal(a, b)
            assert a.dtype == b.dtype


@settings(max_examples=60, deadline=None)
@given(
    rates=st.lists(st.floats(1e3, 1e7), min_size=1, max_size=6),
    sizes=st.lists(st.integers(40, 1500), min_size=6, max_size=6),
    starts=st.lists(st.sampled_from([0.0, 0.0, 0.01, 0.5]), min_size=6, max_size=6),
    same_phase=st.booleans(),
    seed=st.integers(0, 2**31),
    t0_frac=st.floats(0.0, 0.9),
)
def test_periodic_merge_property(rates, sizes, starts, same_phase, seed, t0_frac):
    """Random periodic streams (equal phases force ties across streams): the vectorised merge is the
    stable sort of the streams' own windows, bit for bit, in any window."""
    streams = [
        CBRStream(
            r,
            Deterministic(sizes[i]),
            queue=i % 2,
            flow=i,
            start_s=starts[i],
            phase_s=0.0 if same_phase else None,
        )
        for i, r in enumerate(rates)
    ]
    duration = 0.2
    for fast, slow in _both_paths(streams, seed, [(0.0, duration), (t0_frac * duration, duration)]):
        for a, b in zip(fast, slow):
            np.testing.assert_array_equal(a, b)


def test_periodic_streams_that_draw_sizes_merge_exactly_like_each_stream_alone():
    """Sizes drawn per packet (each stream's own generator) on the vectorised path: the same sizes
    in the same order as each stream's own windows, in any sequence of windows."""
    streams = [
        CBRStream(1e5, Uniform(40, 1500), queue=0, flow=1),
        CBRStream(1e5, Deterministic(100), queue=0, flow=2),
        CBRStream(2e5, Empirical((64, 1500), (0.4, 1.0)), queue=1, flow=3, header_bytes=28),
    ] + [
        CBRStream(5e4, Geometric(500, 40, 1500), queue=1, flow=4 + i, phase_s=0.001 * i)
        for i in range(3)
    ]
    fast = TrafficWindows(streams, np.random.default_rng(0))
    assert fast._periodic is not None and fast._periodic[2] is None
    edges = [0.0, 0.013, 0.2, 0.21, 0.7]
    for fast_window, slow_window in _both_paths(streams, 5, list(zip(edges[:-1], edges[1:]))):
        for a, b in zip(fast_window, slow_window):
            np.testing.assert_array_equal(a, b)
            assert a.dtype == b.dtype


def test_poisson_streams_use_the_per_stream_path():
    streams = [
        PoissonStream(1e5, Uniform(40, 1500), queue=0, flow=1),
        CBRStream(1e5, Deterministic(100), queue=0, flow=2),
    ]
    assert TrafficWindows(streams, np.random.default_rng(0))._periodic is None


@pytest.mark.parametrize("n_streams", [1, 2, 5, 21])
def test_periodic_merge_breaks_every_tie_by_stream_order(n_streams):
    """Identical streams (every packet of every stream tied), the lower stream first, in any window;
    a heap keyed by time alone would interleave them in another order."""
    streams = [
        CBRStream(3e5, Deterministic(128), queue=i % 3, flow=10 + i, phase_s=0.0, start_s=0.0)
        for i in range(n_streams)
    ]
    for fast, slow in _both_paths(streams, 0, [(0.0, 0.05), (0.0123, 0.05), (0.05, 0.05)]):
        for a, b in zip(fast, slow):
            np.testing.assert_array_equal(a, b)
    arrival, _, _, flow = TrafficWindows(streams, np.random.default_rng(0)).window(0.0, 0.01)
    assert list(flow[:n_streams]) == [10 + i for i in range(n_streams)]
    assert np.all(np.diff(arrival) >= 0)


@pytest.mark.parametrize("preset", ["base_case", "tftant_star", "real_distribution"])
def test_vectorised_set_up_draws_like_each_stream(preset):
    """First arrivals, intervals, sizes and the generator's state after set-up equal the per-stream
    set-up's (CBR + Deterministic: all at once; other streams: the per-stream set-up, then one
    pass).
    """
    from pqlab import scenarios

    kw = {"tftant_star": {"star": 3.0}, "real_distribution": {"be_size_per": "stream"}}.get(
        preset, {}
    )
    sc = getattr(scenarios, preset)(**kw)
    fast_rng, slow_rng = np.random.default_rng(11), np.random.default_rng(11)
    fast = TrafficWindows(sc.streams, fast_rng)
    per_stream = [s.windows(slow_rng) for s in sc.streams]
    first, interval = np.array([w.periodic for w in per_stream]).T
    np.testing.assert_array_equal(fast._periodic[0], first)
    np.testing.assert_array_equal(fast._periodic[1], interval)
    np.testing.assert_array_equal(fast._periodic[2], [w.fixed_bytes for w in per_stream])
    assert fast_rng.random() == slow_rng.random()


def test_per_packet_sizes_come_from_each_streams_own_generator():
    """A stream's k-th per-packet size does not depend on how long the other streams ran."""
    from pqlab import scenarios

    sc = scenarios.real_distribution(n_ef_samples=10)
    short, long = (
        TrafficWindows(sc.streams, np.random.default_rng(3)).window(0.0, d) for d in (1.0, 3.0)
    )
    for flow in (100, 119):
        a, b = short[1][short[3] == flow], long[1][long[3] == flow]
        np.testing.assert_array_equal(a, b[: a.size])


def test_vectorised_set_up_checks_a_given_phase_against_the_interval():
    streams = [
        CBRStream(1e5, Deterministic(100), queue=0, flow=1),
        CBRStream(1e5, Deterministic(100), queue=0, flow=2, phase_s=0.5, size_per="stream"),
    ]
    with pytest.raises(
        ValueError, match=r"phase_s must be in \[0, interval\) = \[0, 0.008\) s, got 0.5"
    ):
        TrafficWindows(streams, np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"phase_s must be in \[0, interval\)"):
        TrafficWindows(streams, np.random.default_rng(0), vectorised=False)


def test_round_robin_group_with_streams_silent_in_a_window():
    """Streams of one interval, some starting late: windows where some (or all) of the group send
    nothing merge exactly like each stream alone."""
    streams = [CBRStream(2e5, Deterministic(200), queue=0, flow=1)] + [
        CBRStream(1e5, Deterministic(500), queue=1, flow=2 + i, start_s=0.0099 * i, phase_s=0.0)
        for i in range(4)
    ]
    fast = TrafficWindows(streams, np.random.default_rng(2))
    assert list(fast._round_robin_group) == [
        1,
        2,
        3,
        4,
    ]  # interval 0.04 s, first arrivals within 0.03 s
    edges = [0.0, 0.005, 0.012, 0.6, 0.95, 1.2]
    for a_b in [(0.0, 0.2), *zip(edges[:-1], edges[1:])]:
        for a, b in zip(*(_both_paths(streams, 2, [a_b])[0])):
            np.testing.assert_array_equal(a, b)


def test_a_cycle_order_that_does_not_hold_falls_back_to_the_exact_merge():
    """The cycle is checked packet by packet: given a wrong cycle order (reversed), the window is
    still the stable sort of every stream's own packets."""
    from pqlab import scenarios

    sc = scenarios.base_case(n_ef_samples=500)
    fast = TrafficWindows(sc.streams, np.random.default_rng(4))
    slow = TrafficWindows(sc.streams, np.random.default_rng(4), vectorised=False)
    assert fast._round_robin_group.size == 20
    fast._round_robin_group = fast._round_robin_group[::-1].copy()
    for a, b in zip(fast.window(0.0, sc.duration_s), slow.window(0.0, sc.duration_s)):
        np.testing.assert_array_equal(a, b)


def test_a_cbr_schedule_set_up_again_for_the_same_streams_draws_the_same():
    from pqlab.node.traffic import fixed_cbr_schedule

    streams = [
        CBRStream(300e3, Deterministic(128), 0, 0),
        CBRStream(200e3, Deterministic(64), 0, 1, phase_s=1e-3),
    ]
    first = fixed_cbr_schedule(streams, np.random.default_rng(5))
    first[1][:] = 0.0  # the caller's copies: the next call's arrays do not move
    again = fixed_cbr_schedule(list(streams), np.random.default_rng(5))
    want = [np.array([128 * 8 / 300e3, 64 * 8 / 200e3]), np.array([128, 64])]
    np.testing.assert_array_equal(again[1], want[0])
    np.testing.assert_array_equal(again[2], want[1])
    np.testing.assert_array_equal(again[0], first[0])
    assert again[0][1] == 1e-3
    other = [CBRStream(100e3, Deterministic(128), 0, 0), streams[1]]  # another first, same length
    np.testing.assert_array_equal(
        fixed_cbr_schedule(other, np.random.default_rng(5))[1], [128 * 8 / 100e3, want[0][1]]
    )
    assert (
        fixed_cbr_schedule(
            [*streams, PoissonStream(1e5, Deterministic(128), 0, 2)], np.random.default_rng(5)
        )
        is None
    )
