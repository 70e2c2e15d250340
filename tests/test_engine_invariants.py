"""Invariants of the node contract on random nodes and random traffic (hypothesis).

Each invariant is checked from the engine's outputs alone (ring entry,
departure, drop), independently of how the kernel computes them.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pqlab import Node, Queue, simulate_arrivals
from pqlab.node.engine import KEPT, POLICED, QUEUE_FULL
from pqlab.node.framing import line_time_s

REL = 1e-9  # relative float tolerance on reconstructed times


@st.composite
def queues(draw):
    n = draw(st.integers(1, 3))
    has_prio = draw(st.booleans())
    out = []
    for j in range(n):
        limit = draw(st.integers(1, 6))
        police = draw(st.booleans())
        kw = {}
        if police:
            kw = dict(police_rate_bps=draw(st.floats(1e4, 2e6)), police_burst_bytes=draw(st.floats(64, 5000)))
        if has_prio and j == 0:
            out.append(Queue("priority", limit, **kw))
        else:
            out.append(Queue("wfq", limit, weight_bps=draw(st.floats(1e3, 1e6)), **kw))
    if has_prio and n > 1 and draw(st.booleans()):
        out.reverse()  # the priority queue need not be queue 0
    return out


@st.composite
def scenarios(draw):
    qs = draw(queues())
    node = Node(
        line_rate_bps=draw(st.sampled_from([64e3, 2e6, 10e6])),
        framing=draw(st.sampled_from(["none", "atm-aal5", "ethernet"])),
        ring_limit_particles=draw(st.integers(1, 8)),
        particle_bytes=draw(st.sampled_from([64, 256, 512, 1024])),
        queues=tuple(qs),
    )
    n = draw(st.integers(0, 120))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    mean_gap_s = draw(st.sampled_from([1e-5, 1e-4, 1e-3, 1e-2]))
    gaps = rng.exponential(mean_gap_s, n)
    gaps[rng.random(n) < 0.2] = 0.0  # simultaneous arrivals
    t = np.cumsum(gaps)
    sizes = rng.integers(1, 1600, n)
    q = rng.integers(0, len(qs), n)
    return node, t, sizes, q


def _kept(ds):
    return ds["drop"].values == KEPT


@settings(max_examples=300, deadline=None)
@given(scenarios())
def test_every_packet_is_kept_or_dropped_never_both(sc):
    node, t, s, q = sc
    ds = simulate_arrivals(node, t, s, q)
    drop = ds["drop"].values
    assert set(np.unique(drop)) <= {KEPT, POLICED, QUEUE_FULL}
    kept = drop == KEPT
    assert np.all(np.isfinite(ds.departure.values[kept])) and np.all(np.isfinite(ds.ring_entry.values[kept]))
    assert np.all(np.isnan(ds.departure.values[~kept])) and np.all(np.isnan(ds.ring_entry.values[~kept]))
    if not any(qq.policed for qq in node.queues):
        assert not np.any(drop == POLICED)


@settings(max_examples=300, deadline=None)
@given(scenarios())
def test_line_is_fcfs_back_to_back_and_never_idles_while_the_ring_holds_a_packet(sc):
    node, t, s, q = sc
    ds = simulate_arrivals(node, t, s, q)
    k = _kept(ds)
    entry, dep, arr = ds.ring_entry.values[k], ds.departure.values[k], ds.arrival.values[k]
    tx = line_time_s(ds["size"].values[k], node.framing, node.line_rate_bps)
    order = np.argsort(dep, kind="stable")
    entry, dep, arr, tx = entry[order], dep[order], arr[order], tx[order]
    # departures in ring-entry order
    assert np.all(np.diff(entry) >= 0)
    assert np.all(entry >= arr)
    # each packet starts when it enters the ring or when the previous one has left, whichever is later
    prev = np.concatenate([[0.0], dep[:-1]])
    np.testing.assert_allclose(dep, np.maximum(entry, prev) + tx, rtol=REL, atol=1e-12)


@settings(max_examples=300, deadline=None)
@given(scenarios())
def test_ring_admission_and_occupancy_bound(sc):
    node, t, s, q = sc
    ds = simulate_arrivals(node, t, s, q)
    k = _kept(ds)
    entry, dep = ds.ring_entry.values[k], ds.departure.values[k]
    need = np.maximum(1, -(-ds["size"].values[k] // node.particle_bytes))
    order = np.argsort(dep, kind="stable")
    entry, dep, need = entry[order], dep[order], need[order]
    max_need = need.max() if need.size else 1
    for i in range(entry.size):
        # particles in use just before packet i entered: earlier packets still in the ring
        in_use = need[:i][dep[:i] > entry[i]].sum()
        assert in_use < node.ring_limit_particles, "a packet entered a full ring"
        assert in_use + need[i] <= node.ring_limit_particles - 1 + max_need


@settings(max_examples=300, deadline=None)
@given(scenarios())
def test_fifo_within_each_queue_and_priority_and_work_conservation(sc):
    node, t, s, q = sc
    ds = simulate_arrivals(node, t, s, q)
    kept = _kept(ds)
    entry, dep, arr = ds.ring_entry.values, ds.departure.values, ds.arrival.values
    for j in range(len(node.queues)):
        idx = np.flatnonzero(kept & (q == j))  # arrival order
        assert np.all(np.diff(entry[idx]) >= 0)
        assert np.all(np.diff(dep[idx]) > 0)
    deps = set(dep[kept].tolist())
    waited = kept & (entry > arr)
    # a packet leaves its queue later than its arrival only when a departure frees particles
    assert all(e in deps for e in entry[waited])
    p = node.priority_index
    if p >= 0:
        prio = np.flatnonzero(kept & (q == p))
        for i in np.flatnonzero(kept & (q != p)):
            # no WFQ packet enters the ring while a priority packet is waiting
            assert not np.any((arr[prio] < entry[i]) & (entry[prio] > entry[i]))


@settings(max_examples=300, deadline=None)
@given(scenarios())
def test_tail_drop_only_when_the_queue_holds_limit_packets(sc):
    node, t, s, q = sc
    ds = simulate_arrivals(node, t, s, q)
    drop = ds["drop"].values
    entry = ds.ring_entry.values
    for i in range(t.size):
        if drop[i] == POLICED:
            continue
        earlier = np.arange(i)
        same = earlier[(q[:i] == q[i]) & (drop[:i] == KEPT)]
        waiting = int(np.sum(entry[same] > t[i]))
        limit = node.queues[q[i]].limit_packets
        if drop[i] == QUEUE_FULL:
            assert waiting == limit
        else:
            assert waiting < limit


@settings(max_examples=50, deadline=None)
@given(scenarios())
def test_same_input_same_output(sc):
    node, t, s, q = sc
    a = simulate_arrivals(node, t, s, q)
    b = simulate_arrivals(node, t, s, q)
    assert a.identical(b)
