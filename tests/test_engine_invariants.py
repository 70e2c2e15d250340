"""Invariants of the node contract on random nodes and random traffic (hypothesis).

Each invariant is checked from the engine's outputs alone (ring entry,
departure, drop), independently of how the kernel computes them.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pqlab import Node, Queue, simulate_arrivals
from pqlab.node.engine import EARLY_DROP, KEPT, POLICED, QUEUE_FULL
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
            kw = dict(
                police_rate_bps=draw(st.floats(1e4, 2e6)),
                police_burst_bytes=draw(st.floats(64, 5000)),
            )
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
    assert np.all(np.isfinite(ds.departure.values[kept])) and np.all(
        np.isfinite(ds.ring_entry.values[kept])
    )
    assert np.all(np.isnan(ds.departure.values[~kept])) and np.all(
        np.isnan(ds.ring_entry.values[~kept])
    )
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
    # each packet starts when it enters the ring or when the previous one has left, whichever is
    # later
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


# --------------------------------------------------------------------------- the DiffServ toolbox
# (rules 1a-3e)


@st.composite
def toolbox_queue(draw, kind):
    kw = {}
    if kind == "wfq":
        kw["weight_bps"] = draw(st.floats(1e3, 1e6))
    elif kind == "drr":
        kw["quantum_bytes"] = draw(st.integers(1, 3000))
    elif kind == "wrr":
        kw["weight_packets"] = draw(st.integers(1, 4))
    else:
        kw["level"] = draw(st.integers(0, 2))
    if draw(st.booleans()):
        kw["limit_bytes"] = draw(st.integers(1, 8000))
    limit = (
        draw(st.one_of(st.none(), st.integers(1, 6)))
        if "limit_bytes" in kw
        else draw(st.integers(1, 6))
    )
    if draw(st.integers(0, 3)) == 0:
        kw.update(
            police_rate_bps=draw(st.floats(1e4, 2e6)), police_burst_bytes=draw(st.floats(64, 5000))
        )
    if draw(st.integers(0, 2)) == 0:
        kw.update(
            shape_rate_bps=draw(st.floats(1e3, 2e6)), shape_burst_bytes=draw(st.floats(1600, 5000))
        )
    if draw(st.integers(0, 2)) == 0:
        low = draw(st.lists(st.floats(0, 5), min_size=3, max_size=3))
        kw.update(
            red_min_packets=tuple(low),
            red_max_packets=tuple(v + draw(st.floats(0.5, 5)) for v in low),
            red_max_p=draw(st.floats(0.01, 1)),
            red_weight=draw(st.sampled_from([1.0, 0.5, 0.1, 2.0**-9])),
        )
    return Queue(kind, limit, **kw)


@st.composite
def toolbox_scenarios(draw):
    kind = draw(st.sampled_from(["wfq", "drr", "wrr"]))
    n_prio, n_shared = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    qs = [draw(toolbox_queue("priority")) for _ in range(n_prio)] + [
        draw(toolbox_queue(kind)) for _ in range(n_shared)
    ]
    if not qs:
        qs = [draw(toolbox_queue(kind))]
    qs = draw(st.permutations(qs))
    ring = dict(ring_limit_particles=None, particle_bytes=None)
    if draw(st.booleans()):
        ring = dict(
            ring_limit_particles=draw(st.integers(1, 8)),
            particle_bytes=draw(st.sampled_from([64, 256, 512])),
        )
    if draw(st.booleans()) or ring["ring_limit_particles"] is None:
        ring["ring_limit_packets"] = draw(st.one_of(st.none(), st.integers(1, 5)))
        ring["ring_limit_bytes"] = draw(st.one_of(st.none(), st.integers(1, 5000)))
        if ring["ring_limit_particles"] is None and ring["ring_limit_bytes"] is None:
            ring["ring_limit_packets"] = ring["ring_limit_packets"] or 1
    release = (
        draw(st.sampled_from(["packet", "unit"])) if ring["ring_limit_particles"] else "packet"
    )
    adapter = draw(st.sampled_from([0, 0, 1, 2, 3, 8])) if release == "packet" else 0  # rule 5''
    node = Node(
        line_rate_bps=draw(st.sampled_from([64e3, 2e6, 10e6])),
        framing=draw(st.sampled_from(["none", "atm-aal5", "ethernet"])),
        queues=tuple(qs),
        ring_release=release,
        wfq_bytes=draw(st.sampled_from(["ip", "wire"])),
        adapter_packets=adapter,
        **ring,
    )
    n = draw(st.integers(0, 120))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    gaps = rng.exponential(draw(st.sampled_from([1e-5, 1e-4, 1e-3, 1e-2])), n)
    gaps[rng.random(n) < 0.2] = 0.0  # simultaneous arrivals
    return (
        node,
        np.cumsum(gaps),
        rng.integers(1, 1600, n),
        rng.integers(0, len(qs), n),
        rng.integers(0, 3, n),
    )


def _run_toolbox(sc, seed=5):
    node, t, s, q, colour = sc
    red = any(qq.red for qq in node.queues)
    ds = simulate_arrivals(node, t, s, q, colour=colour, seed=seed if red else None)
    uniform = np.random.default_rng(seed).random(t.size) if red else None
    return ds, uniform


def _waiting_at_arrival(t, q, drop, entry, i):
    """Indices of the packets of packet i's queue waiting (admitted, not in the ring) when it
    arrived."""
    earlier = np.flatnonzero((q[:i] == q[i]) & (drop[:i] == KEPT))
    return earlier[entry[earlier] > t[i]]


@settings(max_examples=250, deadline=None)
@given(toolbox_scenarios())
def test_toolbox_conservation_drop_codes_and_causality(sc):
    node, t, s, q, colour = sc
    ds, _ = _run_toolbox(sc)
    drop, entry, dep = ds["drop"].values, ds.ring_entry.values, ds.departure.values
    assert set(np.unique(drop)) <= {KEPT, POLICED, QUEUE_FULL, EARLY_DROP}
    kept = drop == KEPT
    assert np.all(np.isfinite(entry[kept]) & np.isfinite(dep[kept]))
    assert np.all(np.isnan(entry[~kept]) & np.isnan(dep[~kept]))
    assert np.all(entry[kept] >= t[kept]) and np.all(
        dep[kept] > entry[kept]
    )  # no departure before arrival
    for code, has in ((POLICED, "policed"), (EARLY_DROP, "red")):
        assert all(getattr(node.queues[j], has) for j in q[drop == code])
    assert np.array_equal(ds["colour"].values, colour)


@settings(max_examples=250, deadline=None)
@given(toolbox_scenarios())
def test_toolbox_line_is_fcfs_back_to_back_and_queues_are_fifo(sc):
    node, t, s, q, _ = sc
    entry, dep, order = _ring_order(_run_toolbox(sc)[0])
    assert np.all(np.diff(entry[order]) >= 0)
    tx = line_time_s(s[order], node.framing, node.line_rate_bps)
    prev = np.concatenate([[0.0], dep[order][:-1]])
    np.testing.assert_allclose(
        dep[order], np.maximum(entry[order], prev) + tx, rtol=REL, atol=1e-12
    )
    for j in range(len(node.queues)):
        idx = order[q[order] == j]
        assert np.all(np.diff(idx) > 0)  # each queue in arrival order


def _ring_order(ds):
    """Ring entries, departures and the kept packets' indices in ring (= departure) order."""
    entry, dep = ds.ring_entry.values, ds.departure.values
    kept = np.flatnonzero(_kept(ds))
    return entry, dep, kept[np.argsort(dep[kept], kind="stable")]


def ring_exits(node, entry, dep, order):
    """When each packet of ``order`` (line order) leaves the ring: its departure, or under rule 5''
    (``adapter_packets = N``) ``max(its entry, departure of the packet N places ahead)``."""
    n = node.adapter_packets
    exits = dep.copy()
    if n:
        ahead = np.concatenate([np.full(n, -np.inf), dep[order][:-n]])[: order.size]
        exits[order] = np.maximum(entry[order], ahead)
    return exits


def _in_ring(node, s, entry, dep, order, m):
    """Particles, packets and IP bytes in the ring just before ``order[m]`` entered (releases at
    that instant done first; rule 5' returns the head's units one by one; rule 5'' moves packets
    into the adapter)."""
    now = entry[order[m]]
    exits = ring_exits(node, entry, dep, order)
    units = packets = nbytes = 0
    for p in order[:m]:
        if exits[p] <= now:
            continue
        packets += 1
        nbytes += s[p]
        if node.ring_limit_particles is None:
            continue
        n_units = max(1, -(-s[p] // node.particle_bytes))
        if node.ring_release == "unit":
            start = dep[p] - line_time_s(s[p], node.framing, node.line_rate_bps)
            released = start + (dep[p] - start) * np.arange(1, n_units) * node.particle_bytes / s[p]
            n_units -= int(np.sum(released <= now * (1 + 1e-12)))
        units += n_units
    return units, packets, nbytes


@settings(max_examples=150, deadline=None)
@given(toolbox_scenarios())
def test_toolbox_adapter_holds_at_most_n_packets_and_the_ring_empties_in_line_order(sc):
    node, t, s, q, _ = sc
    entry, dep, order = _ring_order(_run_toolbox(sc)[0])
    exits = ring_exits(node, entry, dep, order)[order]
    assert (
        np.all(np.diff(exits) >= 0)
        and np.all(exits >= entry[order])
        and np.all(exits <= dep[order])
    )
    if node.adapter_packets:
        for k in range(
            order.size
        ):  # at each exit: left the ring, not departed (the one leaving included)
            assert (
                np.sum((exits[: k + 1] <= exits[k]) & (dep[order][: k + 1] > exits[k]))
                <= node.adapter_packets
            )


@settings(max_examples=250, deadline=None)
@given(toolbox_scenarios())
def test_toolbox_ring_never_over_its_limits_but_by_one_packet(sc):
    node, t, s, q, _ = sc
    entry, dep, order = _ring_order(_run_toolbox(sc)[0])
    limits = (node.ring_limit_particles, node.ring_limit_packets, node.ring_limit_bytes)
    for m in range(order.size):
        # the ring had room when it entered: below every set limit (the packet itself may overshoot)
        for used, limit in zip(_in_ring(node, s, entry, dep, order, m), limits):
            assert limit is None or used < limit, "a packet entered a full ring"


@settings(max_examples=250, deadline=None)
@given(toolbox_scenarios())
def test_toolbox_admission_limits_and_red_decisions(sc):
    node, t, s, q, colour = sc
    ds, uniform = _run_toolbox(sc)
    drop, entry = ds["drop"].values, ds.ring_entry.values
    avg = [0.0] * len(node.queues)
    for i in range(t.size):
        if drop[i] == POLICED:
            continue
        qq = node.queues[q[i]]
        waiting = _waiting_at_arrival(t, q, drop, entry, i)
        if qq.red:  # rule 2a: the average, then the colour's thresholds
            w, c = qq.red_weight, colour[i]
            avg[q[i]] = (1 - w) * avg[q[i]] + w * waiting.size
            low, high, max_p = qq.red_min_packets[c], qq.red_max_packets[c], qq.red_max_p[c]
            early = avg[q[i]] >= high or (
                avg[q[i]] >= low and uniform[i] < max_p * (avg[q[i]] - low) / (high - low)
            )
            assert (drop[i] == EARLY_DROP) == early
            if early:
                continue
        full = (qq.limit_packets is not None and waiting.size >= qq.limit_packets) or (
            qq.limit_bytes is not None and s[waiting].sum() + s[i] > qq.limit_bytes
        )
        assert (drop[i] == QUEUE_FULL) == full


@settings(max_examples=250, deadline=None)
@given(toolbox_scenarios())
def test_toolbox_shapers_envelopes_and_strict_priority(sc):
    node, t, s, q, _ = sc
    ds, _ = _run_toolbox(sc)
    kept = _kept(ds)
    entry = ds.ring_entry.values
    for j, qq in enumerate(node.queues):
        if not qq.shaped:
            continue
        idx = np.flatnonzero(kept & (q == j))
        e, b = entry[idx], s[idx]
        for a in range(
            idx.size
        ):  # bytes entering the ring in [e[a], e[c]] <= burst + rate * (e[c] - e[a])
            sent = np.cumsum(b[a:])
            bound = qq.shape_burst_bytes + qq.shape_rate_bps / 8 * (e[a:] - e[a])
            assert np.all(sent <= bound * (1 + REL) + 1e-6)
    level = np.array([qq.level if qq.kind == "priority" else 99 for qq in node.queues])[q]
    unshaped = np.array([not qq.shaped for qq in node.queues])[q]
    for i in np.flatnonzero(kept):
        # no packet enters the ring while an unshaped packet of a lower level (or of a priority
        # queue,
        # for a non-priority packet) waits
        waited = kept & unshaped & (level < level[i]) & (t < entry[i]) & (entry > entry[i])
        assert not np.any(waited)
        if (
            unshaped[i] and level[i] < 99
        ):  # one FIFO per level: unshaped packets of a level in admission order
            earlier = np.flatnonzero(kept[:i] & unshaped[:i] & (level[:i] == level[i]))
            assert np.all(entry[earlier] <= entry[i])
