"""Rule 5'': an adapter buffer of N whole packets after the particle ring
(``Node.adapter_packets``).

The 7200's driver frees a packet's ring particles when the port adapter (a PA-A3's SAR buffer) has
copied the packet, and the adapter holds a few whole packets: packet j (in line order) leaves the
ring
at ``max(ring_entry[j], departure[j - N])``, and the line still sends the ring's packets FCFS back
to
back (docs/model.md, rule 5''). Hand traces (the arithmetic in the comments, times in byte times:
the
line is framing ``none`` at 8192 bit/s, one byte in 1/1024 s, so every time is exact in float64) are
asserted on the exact reference (:mod:`pqlab.node.reference`) and on the kernel; then random traces
(kernel == reference bit for bit), properties of the outputs, streaming batches, and N = 0 byte for
byte.
"""

import dataclasses
import hashlib
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_traces import BYTE_S, assert_batches_equal_one_run, toolbox_trace

from pqlab import Node, Queue, scenarios, simulate_arrivals
from pqlab.measure.analysis import max_ring_particles
from pqlab.node.engine import NodeState, kernel_features, run_kernel, validate_arrivals
from pqlab.node.framing import line_time_s
from pqlab.node.reference import first_mismatch, reference_schedule
from pqlab.node.scenario import Scenario
from pqlab.traffic import merge_streams

LINE_BPS = 8192.0  # 1024 bytes/s
B = Fraction(1, 1024)
EF_BE = (Queue("priority", 10), Queue("wfq", 10, weight_bps=1024.0))


def _check(node, t_bytes, sizes, queues, entry_bytes, departure_bytes):
    """Assert the hand-computed outputs on the reference, then the kernel against the reference."""
    arrival = [float(t * B) for t in t_bytes]
    entry, departure, drop = reference_schedule(node, arrival, sizes, queues)
    assert drop == [0] * len(sizes)
    assert entry == [e * B for e in entry_bytes]
    assert departure == [d * B for d in departure_bytes]
    assert first_mismatch(node, arrival, sizes, queues) is None


# --------------------------------------------------------------------------- hand traces

#: Ring of 3 particles of 256 bytes; p0-p3 BE at 0 (600 B: 3 particles, 100: 1, 300: 2, 500: 2);
#: p4 EF 64 B at 650. Line times = sizes in byte times.
PARTICLE_TRACE = ([0, 0, 0, 0, 650], [600, 100, 300, 500, 64], [1, 1, 1, 1, 0])


@pytest.mark.parametrize(
    "n, entry, departure",
    [
        # N = 0 (rule 5): p0 fills the ring (3 >= 3), 0 -> 600. 600: p0 leaves; p1 (1 particle,
        # 600 -> 700)
        # and p2 (2 more: 3, full; 700 -> 1000) enter. 650: p4 waits. 700: p1 leaves, 2 < 3: p4 (EF)
        # enters,
        # 1000 -> 1064 (3 in use again). 1000: p2 leaves, p3 enters, 1064 -> 1564.
        (0, [0, 600, 600, 1000, 700], [600, 700, 1000, 1564, 1064]),
        # N = 1: p0 enters at 0 (0 -> 600) and moves into the empty adapter at once: the ring is
        # empty
        # before p1's arrival at 0. p1 enters (600 -> 700; leaves the ring at max(0, dep p0 = 600));
        # p2
        # enters (1 + 2 = 3: full; 700 -> 1000). 600: p0 departs, p1 into the adapter: 2 in use < 3,
        # p3
        # enters (1000 -> 1500; 4 in use). 650: p4 waits. p2 leaves the ring at max(600, dep
        # p1 = 700) =
        # 700: 2 in use, p4 enters, 1500 -> 1564: behind p2 (in the adapter) and p3 (in the ring).
        (1, [0, 0, 0, 600, 700], [600, 700, 1000, 1500, 1564]),
        # N = 2: p0 (0 -> 600) and p1 (600 -> 700) enter at 0 and move into the adapter at once (2
        # places);
        # p2 enters (700 -> 1000) and stays until max(0, dep p0 = 600); p3 enters (2 + 2 = 4 >= 3:
        # full),
        # 1000 -> 1500. 600: p2 into the adapter (p0 departs): 2 in use. 650: p4 enters at once,
        # 1500 -> 1564.
        (2, [0, 0, 0, 0, 650], [600, 700, 1000, 1500, 1564]),
    ],
)
def test_hand_trace_particle_ring(n, entry, departure):
    node = Node(LINE_BPS, "none", 3, 256, EF_BE, adapter_packets=n)
    _check(node, *PARTICLE_TRACE, entry, departure)


def test_hand_trace_n2_moves_packets_out_of_the_ring_that_n1_keeps():
    # Ring of 2 particles of 100 B, one BE queue: p0 300 B (3), p1 100 (1), p2 200 (2), p3 100 (1),
    # all
    # at 0; line times = sizes.
    # N = 1: p0 enters (0 -> 300), into the adapter at 0. p1 enters (300 -> 400; leaves the ring at
    # max(0, 300) = 300); p2 enters (1 + 2 = 3, full; 400 -> 600). 300: p1 into the adapter (p0
    # departs): 2 in use, full. p2 leaves at max(300, dep p1 = 400) = 400: p3 enters at 400,
    # 600 -> 700.
    node = Node(LINE_BPS, "none", 2, 100, (Queue("wfq", 10, weight_bps=1024.0),), adapter_packets=1)
    _check(node, [0] * 4, [300, 100, 200, 100], [0] * 4, [0, 0, 0, 400], [300, 400, 600, 700])
    # N = 2: p0 and p1 into the adapter at 0; p2 enters (2 in use: full; 400 -> 600), leaves at
    # max(0, dep p0 = 300) = 300: p3 enters at 300, 600 -> 700.
    node = dataclasses.replace(node, adapter_packets=2)
    _check(node, [0] * 4, [300, 100, 200, 100], [0] * 4, [0, 0, 0, 300], [300, 400, 600, 700])


# p0 BE 200, p1 BE 100, p2 BE 300 at 0; p3 EF 50 at 150.
COUNT_TRACE = ([0, 0, 0, 150], [200, 100, 300, 50], [1, 1, 1, 0])


@pytest.mark.parametrize(
    "ring, n, entry, departure",
    [
        # Rule 3e, 1 packet, N = 0: p0 0 -> 200. 200: p3 (EF, arrived 150) 200 -> 250; 250: p1
        # 250 -> 350;
        # 350: p2 350 -> 650.
        (dict(ring_limit_packets=1), 0, [0, 250, 350, 200], [200, 350, 650, 250]),
        # 1 packet, N = 1: p0 0 -> 200, into the adapter at 0; p1 enters (200 -> 300), the ring is
        # full until
        # max(0, dep p0 = 200) = 200. 200: p1 into the adapter; p3 (EF) enters, 300 -> 350, leaves
        # the ring
        # at max(200, dep p1 = 300) = 300. 300: p2 enters, 350 -> 650.
        (dict(ring_limit_packets=1), 1, [0, 0, 300, 200], [200, 300, 650, 350]),
        # 250 IP bytes, N = 0: p0 (0 < 250) 0 -> 200, p1 (200 < 250; 300 in the ring) 200 -> 300.
        # 200: p0's
        # 200 bytes leave: p3 (EF) 300 -> 350 (150 bytes), p2 (150 < 250) 350 -> 650.
        (dict(ring_limit_bytes=250), 0, [0, 0, 200, 200], [200, 300, 650, 350]),
        # 250 bytes, N = 2: p0 and p1 enter and move into the adapter at 0 (their bytes leave the
        # ring); p2
        # enters (300 bytes: full), 300 -> 600, leaves at max(0, dep p0 = 200) = 200. 200: p3
        # enters,
        # 600 -> 650 (behind p1 and p2 in the adapter).
        (dict(ring_limit_bytes=250), 2, [0, 0, 0, 200], [200, 300, 600, 650]),
    ],
)
def test_hand_trace_ring_limits_in_packets_and_bytes(ring, n, entry, departure):
    node = Node(LINE_BPS, "none", None, None, EF_BE, adapter_packets=n, **ring)
    _check(node, *COUNT_TRACE, entry, departure)


def test_hand_trace_with_a_shaper_and_levels():
    # q0: priority level 0 shaped at 4096 bit/s (0.5 byte per byte time), burst 500; q1: priority
    # level 1. Ring of 1 packet, N = 1. p0 (q0, 500), p1 (q0, 200), p2 (q1, 300), p3 (q1, 100) at 0.
    # 0: p0 enters (bucket 500 >= 500), 0 -> 500, bucket 0 at 0; into the adapter at 0, before p1's
    # arrival. p1 is eligible at 0 + 200 / 0.5 = 400. p2 (level 1) enters, 500 -> 800; it leaves the
    # ring at max(0, dep p0 = 500) = 500. p3 waits; the full ring holds the wake-up.
    # 500: p2 into the adapter; p1 (eligible since 400) enters, 800 -> 1000, bucket min(500, 250) -
    # 200 = 50; it leaves at max(500, dep p2 = 800) = 800: p3 enters at 800, 1000 -> 1100.
    shaped = (
        Queue("priority", 10, shape_rate_bps=4096.0, shape_burst_bytes=500.0),
        Queue("priority", 10, level=1),
    )
    node = Node(LINE_BPS, "none", None, None, shaped, ring_limit_packets=1, adapter_packets=1)
    _check(
        node, [0] * 4, [500, 200, 300, 100], [0, 0, 1, 1], [0, 500, 0, 800], [500, 1000, 800, 1100]
    )
    # N = 0: p0 0 -> 500 holds the ring; 500: p1 (eligible) 500 -> 700 (bucket 50); 700: p2 700 ->
    # 1000;
    # 1000: p3 1000 -> 1100.
    _check(
        dataclasses.replace(node, adapter_packets=0),
        [0] * 4,
        [500, 200, 300, 100],
        [0, 0, 1, 1],
        [0, 500, 700, 1000],
        [500, 700, 1000, 1100],
    )


def test_the_papers_worked_example_and_an_ef_packet_behind_a_whole_packet_more():
    # docs/model.md: BE 1500 (3 particles), EF 128 (1), BE 1500 at 0 on the C7200 (ring 5
    # particles):
    # 32 + 3 cells, 7.42 ms, under rule 5. With N = 1, BE1 moves into the adapter at 0, then EF (1
    # in
    # use) and BE2 (4) enter: the line order is the same, and so is the EF packet's 7.42 ms.
    cell_s = 53 * 8 / 2e6
    node = dataclasses.replace(Node.cisco7200_atm(), adapter_packets=1)
    ds = simulate_arrivals(node, [0.0, 0.0, 0.0], [1500, 128, 1500], [1, 0, 1])
    assert ds.departure.values[1] == pytest.approx(35 * cell_s, abs=1e-12)
    # Three BE 1500 at 0, EF 128 at 1 ms. N = 0: BE1 and BE2 enter (3, then 6 in use), BE3 waits; at
    # BE1's departure (32 cells) 3 are in use: EF enters, then BE3: EF leaves after 32 + 32 + 3 = 67
    # cells. N = 1: BE1 into the adapter at 0; BE2 (3) and BE3 (6) enter; at 32 cells BE2 moves into
    # the adapter (3 in use) and EF enters behind BE3: 3 x 32 + 3 = 99 cells. N = 2: BE1 and BE2
    # into
    # the adapter at 0, BE3 enters (3 in use); EF enters at 1 ms behind all three: 99 cells.
    # The ring's most particles, each packet counted until it leaves the ring: N = 0: BE1 + BE2 = 6
    # at 0,
    # then at 32 cells BE3 + EF + BE2 = 7 (rule 3's 5 - 1 + 3). N = 1: BE2 + BE3 = 6 (BE1 left at 0;
    # counted to the departures, 9). N = 2: BE3 + EF = 4 (counted to the departures, 10).
    for n, cells, most in ((0, 67, 7), (1, 99, 6), (2, 99, 4)):
        with_n = dataclasses.replace(node, adapter_packets=n)
        ds = simulate_arrivals(with_n, [0.0, 0.0, 0.0, 1e-3], [1500, 1500, 1500, 128], [1, 1, 1, 0])
        assert ds.departure.values[3] == pytest.approx(cells * cell_s, abs=1e-12)
        assert max_ring_particles(ds, with_n) == most
    assert ds.ring_entry.values[3] == 1e-3


# --------------------------------------------------------------------------- the option itself


@pytest.mark.parametrize("value", [-1, 9, 1.5, True, "2", None])
def test_bad_adapter_packets_is_refused_naming_the_field_and_range(value):
    with pytest.raises(ValueError, match=r"adapter_packets must be an integer in \[0, 8\]"):
        dataclasses.replace(Node.cisco7200_atm(), adapter_packets=value)


def test_adapter_with_unit_release_is_refused_naming_both_fields():
    with pytest.raises(
        ValueError,
        match=r"adapter_packets must be 0 with ring_release='unit'.*ring_release='packet'",
    ):
        dataclasses.replace(Node.cisco7200_atm(), ring_release="unit", adapter_packets=1)
    assert (
        dataclasses.replace(
            Node.cisco7200_atm(), ring_release="unit", adapter_packets=0
        ).adapter_packets
        == 0
    )


def test_default_is_off_and_left_out_of_to_dict_and_repr():
    papers = Node.cisco7200_atm()
    assert papers.adapter_packets == 0
    assert "adapter_packets" not in papers.to_dict() and "adapter_packets" not in repr(papers)
    two = dataclasses.replace(papers, adapter_packets=2)
    assert two.to_dict()["adapter_packets"] == 2 and "adapter_packets=2" in repr(two)
    assert Node.from_dict(two.to_dict()) == two
    # a run-time parameter of the kernel, not a compiled-in feature: one machine-code version for
    # all N
    assert kernel_features(two) == kernel_features(papers)
    # a scenario's JSON carries it, and a papers' scenario's JSON does not mention it
    sc = scenarios.base_case(n_ef_samples=10)
    assert "adapter_packets" not in sc.to_json()
    with_adapter = dataclasses.replace(sc, node=two)
    assert Scenario.from_json(with_adapter.to_json()).node == two


#: sha256 of the papers' base case outputs (ring entry, departure, drop as bytes; seed 1, 2,000 EF
#: samples) computed on the engine before rule 5'' existed (commit 8dd0340).
PAPERS_DIGEST = "5f0a18ebbf0d36a3c5014f24d98f02b924f81f3f5e3c52c4af4f70c2e896bd27"


def _papers_digest(node):
    sc = scenarios.base_case(n_ef_samples=2000)
    t, s, q, _ = merge_streams(sc.streams, np.random.default_rng(1), sc.duration_s)
    out = run_kernel(node, *validate_arrivals(node, t, s, q))
    return hashlib.sha256(b"".join(np.ascontiguousarray(a).tobytes() for a in out)).hexdigest()


def test_n0_is_byte_identical_to_the_engine_before_the_option():
    assert _papers_digest(Node.cisco7200_atm()) == PAPERS_DIGEST
    # and the option changes the run (the digest would notice a mechanism that did nothing)
    assert (
        _papers_digest(dataclasses.replace(Node.cisco7200_atm(), adapter_packets=1))
        != PAPERS_DIGEST
    )


# --------------------------------------------------------------------------- random traces and
# properties

ALL = ("levels", "bytes", "police", "shaper", "red", "ring", "adapter")


@pytest.mark.parametrize(
    "kind, features",
    [
        ("wfq", ("adapter",)),
        ("priority", ("levels", "shaper", "adapter")),
        ("drr", ("bytes", "ring", "adapter")),
        (None, ALL),
    ],
    ids=lambda v: "+".join(v) if isinstance(v, tuple) else str(v),
)
def test_kernel_equals_the_reference_on_fixed_seeds(kind, features):
    n_adapter = 0
    for seed in range(60):
        trace = toolbox_trace(seed, kind, features)
        n_adapter += trace[0].adapter_packets > 0
        mismatch = first_mismatch(*trace)
        assert mismatch is None, f"seed {seed}: {mismatch}"
    assert n_adapter >= 20  # the traces exercise the option


@pytest.mark.slow  # each new trace's mechanisms compile a kernel variant
@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["wfq", "drr", "wrr", "priority"]))
def test_kernel_equals_the_reference_with_every_mechanism_and_an_adapter(seed, kind):
    assert first_mismatch(*toolbox_trace(seed, kind, ALL)) is None


def _ring_exits(entry, dep, order, n):
    """Rule 5'' from the outputs: packet m of ``order`` (line order) leaves the ring at
    max(entry[m], dep[m - n]) (its entry for the first n)."""
    e, d = entry[order], dep[order]
    ahead = np.concatenate([np.full(n, -np.inf), d[:-n]])[: e.size]
    return np.maximum(e, ahead)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(0, 2**32 - 1), st.integers(1, 8), st.sampled_from(["none", "atm-aal5", "ethernet"])
)
def test_properties_departures_ring_time_and_adapter_occupancy(seed, n, framing):
    rng = np.random.default_rng(seed)
    node = Node(
        2e6,
        framing,
        int(rng.integers(1, 8)),
        int(rng.choice([64, 256, 512])),
        (
            Queue("priority", int(rng.integers(1, 6))),
            Queue("wfq", int(rng.integers(1, 20)), weight_bps=1e6),
        ),
        adapter_packets=n,
    )
    m = int(rng.integers(1, 300))
    gaps = rng.exponential(rng.choice([1e-5, 1e-4, 1e-3]), m)
    gaps[rng.random(m) < 0.3] = 0.0
    t, s, q = np.cumsum(gaps), rng.integers(1, 1600, m), rng.integers(0, 2, m)
    ds = simulate_arrivals(node, t, s, q)
    kept = np.flatnonzero(ds["drop"].values == 0)
    entry, dep = ds.ring_entry.values, ds.departure.values
    order = kept[np.argsort(dep[kept], kind="stable")]
    # departures are rule 4's for the same ring entries: FCFS, back to back
    assert np.all(np.diff(entry[order]) >= 0)
    tx = line_time_s(s[order], framing, node.line_rate_bps)
    np.testing.assert_allclose(
        dep[order], np.maximum(entry[order], np.r_[0.0, dep[order][:-1]]) + tx, rtol=1e-9
    )
    # a packet leaves the ring no later than the line starts it, and the ring's exits are in line
    # order
    exits = _ring_exits(entry, dep, order, n)
    assert np.all(exits <= dep[order] - tx * (1 - 1e-9)) and np.all(np.diff(exits) >= 0)
    # the adapter never holds more than n packets: at each exit, packets that left the ring and have
    # not departed (the one leaving now included)
    for k in range(order.size):
        held = np.sum((exits[: k + 1] <= exits[k]) & (dep[order][: k + 1] > exits[k]))
        assert held <= n
    # and the ring, particles counted from the exits, is below its limit when each packet enters
    need = np.maximum(1, -(-s[order] // node.particle_bytes))
    for k in range(order.size):
        in_ring = need[:k][exits[:k] > entry[order][k]].sum()
        assert in_ring < node.ring_limit_particles
    # pqlab's own count of the ring (rule 5'' aware) agrees: at most ring_limit - 1 + the largest
    # packet
    if order.size:
        assert max_ring_particles(ds, node) <= node.ring_limit_particles - 1 + need.max()


@settings(max_examples=15, deadline=None)
@given(
    st.integers(0, 1000), st.integers(1, 8), st.lists(st.integers(1, 3000), min_size=1, max_size=6)
)
def test_streaming_batches_cut_anywhere_equal_the_one_shot_run(seed, n, cuts):
    sc = scenarios.real_distribution(n_ef_samples=200)
    # and the option matters on this traffic: some packet enters the ring earlier than under rule 5
    assert_batches_equal_one_run(
        dataclasses.replace(sc.node, adapter_packets=n), sc.node, sc, seed, cuts
    )


def test_batches_cut_at_the_instants_of_adapter_releases():
    # dyadic times: cuts at arrivals that coincide with a departure (an adapter slot frees) or an
    # entry
    node = Node(LINE_BPS, "none", 2, 256, EF_BE, adapter_packets=2)
    rng = np.random.default_rng(3)
    n = 300
    t = np.cumsum(rng.choice([0, 0, 64, 128, 256, 512], size=n)) * BYTE_S
    s = rng.choice([64, 128, 256, 512], size=n).astype(np.int64)
    q = rng.integers(0, 2, size=n).astype(np.int64)
    ref = run_kernel(node, t, s, q)
    instants = set(ref[1][np.isfinite(ref[1])].tolist())
    cuts = [i for i in range(1, n) if t[i] in instants and t[i] != t[i - 1]]
    assert len(cuts) > 5
    state = NodeState(node)
    entry, dep = np.full(n, np.nan), np.full(n, np.nan)
    bounds = [0, *cuts, n]
    for a, b in zip(bounds[:-1], bounds[1:]):
        e, d, _, (cid, ce, cd) = state.advance(t[a:b], s[a:b], q[a:b], t[b] if b < n else np.inf)
        entry[a:b], dep[a:b] = e, d
        entry[cid], dep[cid] = ce, cd
    np.testing.assert_array_equal(entry, ref[0])
    np.testing.assert_array_equal(dep, ref[1])
