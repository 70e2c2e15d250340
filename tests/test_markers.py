"""The colour markers (node contract rule 1a): RFC 2697's srTCM and RFC 2698's trTCM, colour-blind.

Hand traces computed from the RFCs' rules, an exact ``Fraction`` reference of both markers on
random traces (rates, times and bursts dyadic, so float64 is exact and the kernels must agree
bit for bit), the long-run rate bounds, bad input, JSON and the window-by-window colouring.
"""

from fractions import Fraction

import numpy as np
import pytest

import pqlab
from pqlab import (
    CBRStream,
    Deterministic,
    PoissonStream,
    Scenario,
    SrTCM,
    TraceStream,
    TrTCM,
    Uniform,
)
from pqlab.node.markers import GREEN, RED, YELLOW, FlowColours
from pqlab.traffic import marker_from_dict, merge_streams, stream_from_dict

G, Y, R = GREEN, YELLOW, RED


# --------------------------------------------------------------------------- hand traces


def test_srtcm_hand_trace():
    # CIR 8000 bit/s = 1000 bytes/s, CBS 1000, EBS 500; C = 1000 and E = 500 at time 0.
    m = SrTCM(cir_bps=8000, cbs_bytes=1000, ebs_bytes=500)
    arrival = [0.0, 0.0, 0.0, 0.0, 0.5, 1.0, 2.5, 2.5, 2.5]
    size = [600, 400, 500, 1, 300, 700, 1000, 500, 1]
    # t=0: 600 <= C=1000: green, C=400 | 400 <= C=400: green, C=0 | 500 > C=0, 500 <= E=500: yellow,
    # E=0
    #        1 > C=0, 1 > E=0: red
    # t=0.5: C = 0 + 500 = 500 >= 300: green, C=200
    # t=1.0: C = 200 + 500 = 700 >= 700: green, C=0
    # t=2.5: C would be 0 + 1500 = 1500: capped at CBS 1000, the 500 over it goes to E (0 -> 500);
    #        1000 <= C: green, C=0 | 500 > C=0, 500 <= E=500: yellow, E=0 | 1: red
    assert m.colour(arrival, size).tolist() == [G, G, Y, R, G, G, G, Y, R]


def test_srtcm_e_overflow_is_capped_at_ebs_and_zero_bursts():
    m = SrTCM(cir_bps=8000, cbs_bytes=100, ebs_bytes=300)
    # t=0: 300 > C=100, <= E=300: yellow, E=0. t=10: C refilled 10,000 bytes: C=100, E=min(300,
    # 0+9,900)=300
    # 301 > C, 301 > E: red; 300 > C=100, <= E: yellow, E=0; 100 <= C: green
    assert m.colour([0.0, 10.0, 10.0, 10.0], [300, 301, 300, 100]).tolist() == [Y, R, Y, G]
    # CBS 0 (allowed by RFC 2697 when EBS > 0): never green; the refill all goes to E
    only_e = SrTCM(cir_bps=8000, cbs_bytes=0, ebs_bytes=200)
    # t=0: E=200: 150 yellow (E=50), 100 red; t=0.1: E = 50 + 100 = 150: 100 yellow
    assert only_e.colour([0.0, 0.0, 0.1], [150, 100, 100]).tolist() == [Y, R, Y]
    # EBS 0: never yellow
    only_c = SrTCM(cir_bps=8000, cbs_bytes=200, ebs_bytes=0)
    assert only_c.colour([0.0, 0.0, 0.0], [150, 100, 50]).tolist() == [G, R, G]


def test_trtcm_hand_trace():
    # CIR 1000 bytes/s, CBS 1000; PIR 2000 bytes/s, PBS 1500; P = 1500, C = 1000 at time 0.
    m = TrTCM(cir_bps=8000, cbs_bytes=1000, pir_bps=16000, pbs_bytes=1500)
    arrival = [0.0, 0.0, 0.0, 0.5, 0.5, 5.0]
    size = [600, 500, 500, 900, 600, 1500]
    # t=0:   600 <= P=1500, 600 <= C=1000: green, P=900, C=400
    #        500 <= P=900, 500 > C=400: yellow, P=400 (C unchanged)
    #        500 > P=400: red (nothing taken)
    # t=0.5: P = 400 + 1000 = 1400, C = 400 + 500 = 900: 900 <= both: green, P=500, C=0
    #        600 > P=500: red
    # t=5:   both refilled to their bursts: P=1500, C=1000; 1500 <= P, 1500 > C: yellow
    assert m.colour(arrival, size).tolist() == [G, Y, R, G, R, Y]


def test_trtcm_red_takes_nothing_and_pir_equal_cir():
    m = TrTCM(cir_bps=8000, cbs_bytes=100, pir_bps=8000, pbs_bytes=100)
    # P = C = 100: 101 red (takes nothing), 100 green (P = C = 0), 1 red; t=0.05: P = C = 50: 50
    # green
    assert m.colour([0.0, 0.0, 0.0, 0.05], [101, 100, 1, 50]).tolist() == [R, G, R, G]


# --------------------------------------------------------------------------- exact reference


def srtcm_reference(cir_bps, cbs, ebs, arrival, size):
    """RFC 2697 colour-blind in exact arithmetic, the buckets refilled continuously as the RFC's
    update 'CIR times a second: C += 1 if C < CBS, else E += 1 if E < EBS' becomes."""
    rate = Fraction(cir_bps) / 8
    c, e, last = Fraction(cbs), Fraction(ebs), Fraction(0)
    out = []
    for t, s in zip(arrival, size):
        t = Fraction(t)
        c, e = c + (t - last) * rate, e
        if c > cbs:
            e, c = min(Fraction(ebs), e + c - cbs), Fraction(cbs)
        last = t
        if c >= s:
            c -= s
            out.append(G)
        elif e >= s:
            e -= s
            out.append(Y)
        else:
            out.append(R)
    return out


def trtcm_reference(cir_bps, cbs, pir_bps, pbs, arrival, size):
    """RFC 2698 colour-blind in exact arithmetic."""
    cr, pr = Fraction(cir_bps) / 8, Fraction(pir_bps) / 8
    c, p, last = Fraction(cbs), Fraction(pbs), Fraction(0)
    out = []
    for t, s in zip(arrival, size):
        t = Fraction(t)
        c, p = min(Fraction(cbs), c + (t - last) * cr), min(Fraction(pbs), p + (t - last) * pr)
        last = t
        if p < s:
            out.append(R)
        elif c < s:
            p -= s
            out.append(Y)
        else:
            p, c = p - s, c - s
            out.append(G)
    return out


def dyadic_trace(rng, n, *, mean_gap_units=40):
    """Arrival times on a 2**-10 s grid (some equal) and sizes in [1, 1500]: exact in float64."""
    gaps = rng.integers(0, 2 * mean_gap_units, n) * rng.integers(0, 2, n)  # half of them 0: bursts
    return np.cumsum(gaps) / 1024.0, rng.integers(1, 1501, n)


@pytest.mark.parametrize("seed", range(12))
def test_srtcm_equals_the_exact_reference_on_random_traces(seed):
    rng = np.random.default_rng(seed)
    arrival, size = dyadic_trace(rng, 3000)
    # rates of 2**k * m bit/s: a refill (t - last) * rate / 8 is a dyadic number float64 holds
    # exactly
    cir = float(2 ** int(rng.integers(13, 20)) * int(rng.integers(1, 8)))
    cbs, ebs = (float(rng.integers(0, 3) * rng.integers(1, 4000)) for _ in range(2))
    if cbs == ebs == 0:
        cbs = 1500.0
    marker = SrTCM(cir, cbs, ebs)
    got = marker.colour(arrival, size).tolist()
    assert got == srtcm_reference(cir, cbs, ebs, arrival.tolist(), size.tolist())


@pytest.mark.parametrize("seed", range(12))
def test_trtcm_equals_the_exact_reference_on_random_traces(seed):
    rng = np.random.default_rng(100 + seed)
    arrival, size = dyadic_trace(rng, 3000)
    cir = float(2 ** int(rng.integers(13, 19)) * int(rng.integers(1, 8)))
    pir = cir * int(rng.integers(1, 5))
    cbs, pbs = (float(rng.integers(1, 6000)) for _ in range(2))
    marker = TrTCM(cir, cbs, pir, pbs)
    got = marker.colour(arrival, size).tolist()
    assert got == trtcm_reference(cir, cbs, pir, pbs, arrival.tolist(), size.tolist())


def test_the_random_traces_see_every_colour():
    """The reference comparisons above are not vacuous: the traces mark packets of every colour."""
    seen = set()
    for seed in range(12):
        rng = np.random.default_rng(seed)
        arrival, size = dyadic_trace(rng, 3000)
        seen |= set(SrTCM(2**16 * 3, 3000, 3000).colour(arrival, size).tolist())
        seen |= set(TrTCM(2**15, 3000, 2**17, 3000).colour(arrival, size).tolist())
    assert seen == {G, Y, R}


# --------------------------------------------------------------------------- long-run rates


@pytest.mark.parametrize("seed", range(4))
def test_long_run_rates_are_bounded_by_the_buckets(seed):
    rng = np.random.default_rng(seed)
    n = 200_000
    arrival = np.sort(
        rng.uniform(0.0, 100.0, n)
    )  # ~ 2,000 packets/s of ~750 bytes: 12 Mbit/s offered
    size = rng.integers(40, 1501, n)
    span = arrival[-1]
    sr = SrTCM(cir_bps=4e6, cbs_bytes=20_000, ebs_bytes=40_000)
    c = sr.colour(arrival, size)
    green, yellow = size[c == G].sum(), size[c == Y].sum()
    assert green <= 4e6 / 8 * span + 20_000
    assert green + yellow <= 4e6 / 8 * span + 20_000 + 40_000
    assert green > 0.95 * 4e6 / 8 * span  # overloaded: C is used up, green runs at CIR
    tr = TrTCM(cir_bps=3e6, cbs_bytes=10_000, pir_bps=6e6, pbs_bytes=30_000)
    c = tr.colour(arrival, size)
    green, yellow = size[c == G].sum(), size[c == Y].sum()
    assert green <= 3e6 / 8 * span + 10_000
    assert green + yellow <= 6e6 / 8 * span + 30_000
    assert green + yellow > 0.95 * 6e6 / 8 * span


def test_a_stream_at_exactly_the_committed_rate_stays_green():
    """128-byte packets at 300 kbit/s arrive every 3.41333... ms (not a float64): a bucket at
    exactly that rate and one packet deep must refill exactly in time for every packet, as
    rule 1's policer does, however long the run (a million packets, about an hour)."""
    stream = CBRStream(rate_bps=300e3, size=Deterministic(128), queue=0, flow=0, phase_s=0.0)
    arrival, size = stream.generate(np.random.default_rng(0), 3413.3)
    assert arrival.size > 999_000
    assert not SrTCM(300e3, 128, 128).colour(arrival, size).any()
    assert not TrTCM(300e3, 128, 300e3, 128).colour(arrival, size).any()


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "build, words",
    [
        (
            lambda: SrTCM(0.5, 1000, 1000),
            "cir_bps must be a finite number in [1.0, 1000000000000.0]",
        ),
        (lambda: SrTCM(2e12, 1000, 1000), "cir_bps"),
        (lambda: SrTCM(float("nan"), 1000, 1000), "cir_bps"),
        (lambda: SrTCM("1e6", 1000, 1000), "cir_bps"),
        (
            lambda: SrTCM(1e6, -1, 1000),
            "cbs_bytes must be a finite number in [0.0, 1000000000000.0]",
        ),
        (lambda: SrTCM(1e6, 1000, 2e12), "ebs_bytes"),
        (lambda: SrTCM(1e6, 0, 0), "cbs_bytes and ebs_bytes must not both be 0"),
        (
            lambda: TrTCM(1e6, 0, 2e6, 1000),
            "cbs_bytes must be a finite number in (0.0, 1000000000000.0]",
        ),
        (
            lambda: TrTCM(1e6, 1000, 2e6, 0),
            "pbs_bytes must be a finite number in (0.0, 1000000000000.0]",
        ),
        (
            lambda: TrTCM(1e6, 1000, 0, 1000),
            "pir_bps must be a finite number in [1.0, 1000000000000.0]",
        ),
        (lambda: TrTCM(2e6, 1000, 1e6, 1000), "pir_bps must be >= cir_bps"),
        (lambda: TrTCM(True, 1000, 1e6, 1000), "cir_bps"),
    ],
)
def test_bad_parameters_name_the_field_and_its_range(build, words):
    with pytest.raises(ValueError) as info:
        build()
    assert words in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize(
    "arrival, size, words",
    [
        ([0.0, 1.0], [100], "size_bytes must have 2 elements"),
        ([1.0, 0.5], [100, 100], "arrival_s must be sorted"),
        ([-1.0], [100], "arrival_s must be"),
        ([float("inf")], [100], "arrival_s must be finite"),
        ([0.0], [0], "size_bytes must be"),
        ([0.0], [65536], "size_bytes must be"),
        ([0.0], [1.5], "size_bytes must hold integers"),
        ([[0.0]], [1], "arrival_s must be a 1-D array"),
    ],
)
def test_bad_packets_name_the_array(arrival, size, words):
    with pytest.raises(ValueError, match=None) as info:
        SrTCM(1e6, 1000, 1000).colour(arrival, size)
    assert words in str(info.value)


def test_an_empty_stream_has_no_colours():
    assert SrTCM(1e6, 1000, 1000).colour([], []).shape == (0,)
    assert TrTCM(1e6, 1000, 1e6, 1000).colour(np.empty(0), np.empty(0, np.int64)).dtype == np.int8


def test_a_stream_refuses_a_marker_of_another_type():
    with pytest.raises(
        ValueError, match="marker must be None, a pqlab.SrTCM or a pqlab.TrTCM, got dict"
    ):
        CBRStream(1e5, Deterministic(100), 0, 0, marker={"type": "SrTCM"})


# --------------------------------------------------------------------------- JSON


def marked_scenario():
    node = pqlab.Node.cisco7200_atm()
    return Scenario(
        node=node,
        duration_s=2.0,
        streams=(
            CBRStream(3e5, Deterministic(128), 0, 0, marker=SrTCM(2e5, 1500, 3000)),
            PoissonStream(6e5, Uniform(40, 1500), 1, 1, marker=TrTCM(2e5, 3000, 4e5, 6000)),
            TraceStream(
                np.array([0.0, 0.5]), np.array([100, 200]), 1, 2, marker=SrTCM(8000, 0, 150)
            ),
            CBRStream(1e6, Deterministic(1500), 1, 3),
        ),
    )


def test_markers_round_trip_through_the_scenario_json():
    sc = marked_scenario()
    again = Scenario.from_json(sc.to_json())
    assert again == sc and again.to_json() == sc.to_json()
    assert [s.marker for s in again.streams] == [s.marker for s in sc.streams]
    assert (
        '"marker": {"cbs_bytes": 1500.0, "cir_bps": 200000.0, "ebs_bytes": 3000.0, "type": "SrTCM"}'
        in sc.to_json()
    )
    for marker in (SrTCM(2e5, 1500, 3000), TrTCM(2e5, 3000, 4e5, 6000)):
        assert marker_from_dict(marker.to_dict()) == marker


def test_a_stream_without_a_marker_has_the_json_it_had():
    stream = CBRStream(3e5, Deterministic(128), 0, 0)
    assert "marker" not in stream.to_dict()
    assert stream_from_dict(stream.to_dict()) == stream
    assert stream_from_dict({**stream.to_dict(), "marker": None}) == stream
    # the papers' base case: its JSON as it was before markers existed (sha256 computed on 29fe44c)
    import hashlib

    text = pqlab.scenarios.base_case().to_json()
    assert "marker" not in text
    assert hashlib.sha256(text.encode()).hexdigest() == BASE_CASE_JSON_SHA256


#: sha256 of ``pqlab.scenarios.base_case().to_json()`` at commit 29fe44c (before markers).
BASE_CASE_JSON_SHA256 = "fe679dbfb4c6db032944d56c77c9720244d3f046fc233efc2a238771a2e54722"


@pytest.mark.parametrize(
    "data, words",
    [
        (
            {"type": "SrTCM", "cir_bps": 1e5, "cbs_bytes": 10},
            "streams[0]: marker: SrTCM is missing ebs_bytes",
        ),
        ({"type": "Policer"}, "streams[0]: marker: type must be one of 'SrTCM', 'TrTCM'"),
        ([1, 2], "streams[0]: marker"),
        (
            {"type": "TrTCM", "cir_bps": 1e5, "cbs_bytes": 10, "pir_bps": 1e4, "pbs_bytes": 10},
            "streams[0]: marker: pir_bps must be >= cir_bps",
        ),
    ],
)
def test_a_bad_marker_in_scenario_json_is_named(data, words):
    raw = marked_scenario().to_dict()
    raw["streams"][0]["marker"] = data
    with pytest.raises(ValueError) as info:
        Scenario.from_dict(raw)
    assert str(info.value).startswith(words), str(info.value)


# --------------------------------------------------------------------------- colours of merged
# windows


@pytest.mark.parametrize("seed", range(5))
def test_flow_colours_window_by_window_equal_one_call_and_each_stream_alone(seed):
    sc = marked_scenario()
    arrival, size, _queue, flow = merge_streams(
        sc.streams, np.random.default_rng(seed), sc.duration_s
    )
    whole = FlowColours(sc.streams).colour(arrival, size, flow)
    for s in sc.streams:  # each flow in its own arrival order; no marker: green
        mine = flow == s.flow
        expected = (
            s.marker.colour(arrival[mine], size[mine])
            if s.marker
            else np.zeros(mine.sum(), np.int8)
        )
        assert np.array_equal(whole[mine], expected)
    assert set(whole.tolist()) == {G, Y, R}
    rng = np.random.default_rng(seed)
    cuts = np.sort(rng.integers(0, arrival.size, 6))
    windows = FlowColours(sc.streams)
    parts = [
        windows.colour(arrival[a:b], size[a:b], flow[a:b])
        for a, b in zip([0, *cuts], [*cuts, arrival.size])
    ]
    assert np.array_equal(np.concatenate(parts), whole)


def test_flow_colours_without_markers_is_inactive_and_refuses_going_back():
    streams = (CBRStream(3e5, Deterministic(128), 0, 0),)
    plain = FlowColours(streams)
    assert (
        not plain.active
        and plain.colour(np.zeros(3), np.full(3, 128), np.zeros(3, np.int64)) is None
    )
    marked = FlowColours(marked_scenario().streams)
    marked.colour(np.array([1.0]), np.array([100]), np.array([0]))
    with pytest.raises(
        ValueError, match="arrival_s must not precede the previous window's last arrival 1.0"
    ):
        marked.colour(np.array([0.5]), np.array([100]), np.array([0]))
