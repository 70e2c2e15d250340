"""Random traces for comparing the kernel with the exact reference (:mod:`pqlab.node.reference`).

Every trace here is *dyadic*: the line sends one byte in 1/1024 s (framing ``none`` at 8192
bit/s, or whole wire bytes with the other framings), arrivals fall on multiples of 1/1024 s,
and every policer and shaper rate is a power of two bytes per second, so every time and token
count the kernel computes in float64 is exact and the kernel must equal the reference bit for
bit. Only ``Node(ring_release="unit")`` needs framing ``none`` for that (rule 5' divides a line
time by the IP size).
"""

from __future__ import annotations

import numpy as np

from pqlab import Node, Queue

#: Weights (bit/s) of the equal-weight traces: integers, a float that is not, and extremes.
EQUAL_WEIGHTS_BPS = (3.0, 7.0, 1e3, 3e5, 1e6, 1.7e6, 1234567.0, 1e6 / 3, 1.0, 1e12)
#: Sizes (bytes) drawn for the equal-weight traces: few, so that sums of sizes, and so tags, often
#: tie.
TIE_SIZES_BYTES = (40, 64, 100, 128, 411, 451, 576, 1000, 1500)
#: One byte's line time on the traces' line (8192 bit/s, framing none), seconds.
BYTE_S = 1 / 1024


def equal_weight_trace(seed: int):
    """A random trace of 3-4 WFQ queues of equal weight, with exactly representable times.

    The line (framing "none", 8192 bit/s) sends one byte in 1/1024 s and arrivals
    fall on multiples of 1/1024 s, so every time is a dyadic rational the kernel's
    float64 holds exactly: only the finish tags can round.
    """
    rng = np.random.default_rng(seed)
    n_queues = int(rng.integers(3, 5))
    weight = float(EQUAL_WEIGHTS_BPS[rng.integers(len(EQUAL_WEIGHTS_BPS))])
    node = Node(
        8192.0,
        "none",
        int(rng.integers(1, 4)),
        512,
        tuple(Queue("wfq", int(rng.integers(2, 12)), weight_bps=weight) for _ in range(n_queues)),
    )
    n = int(rng.integers(10, 80))
    gaps = rng.integers(0, 400, n)
    gaps[rng.random(n) < 0.4] = 0
    arrival = np.cumsum(gaps) / 1024.0
    size = np.asarray(TIE_SIZES_BYTES)[rng.integers(len(TIE_SIZES_BYTES), size=n)]
    queue = rng.integers(0, n_queues, n)
    return node, arrival, size, queue


def _power_of_two_bps(rng, low: int, high: int) -> float:
    """A rate of 2**k bytes/s (k in [low, high]) in bit/s: refills and wake-ups stay dyadic."""
    return 8.0 * 2.0 ** int(rng.integers(low, high + 1))


def _queue(rng, kind: str, level: int, features: frozenset) -> Queue:
    kw = {}
    if kind == "wfq":
        kw["weight_bps"] = float(rng.choice([1024.0, 2048.0, 3000.0, 5000.0, 8192.0]))
    elif kind == "drr":
        kw["quantum_bytes"] = int(rng.choice([64, 300, 500, 1000, 1500]))
    elif kind == "wrr":
        kw["weight_packets"] = int(rng.integers(1, 4))
    else:
        kw["level"] = level
    limit_packets = int(rng.integers(1, 9))
    if "bytes" in features and rng.random() < 0.5:
        kw["limit_bytes"] = int(rng.integers(1500, 6000))
        if rng.random() < 0.3:
            limit_packets = None
    if "police" in features and rng.random() < 0.3:
        kw.update(
            police_rate_bps=_power_of_two_bps(rng, 7, 11),
            police_burst_bytes=float(rng.integers(1500, 5000)),
        )
    if "shaper" in features and rng.random() < 0.5:
        kw.update(
            shape_rate_bps=_power_of_two_bps(rng, 6, 10),
            shape_burst_bytes=float(rng.integers(1500, 4000)),
        )
    if "red" in features and rng.random() < 0.5:
        if rng.random() < 0.5:  # RED: one triple
            kw.update(red_min_packets=1.0, red_max_packets=5.0, red_max_p=0.5)
        else:  # WRED: one per colour
            kw.update(
                red_min_packets=(3.0, 2.0, 0.0),
                red_max_packets=(7.0, 6.0, 4.0),
                red_max_p=(0.25, 0.5, 1.0),
            )
        kw["red_weight"] = float(rng.choice([1.0, 0.5, 0.25, 2.0**-3]))
    return Queue(kind, limit_packets, **kw)


def toolbox_node(
    rng, kind: str | None = None, features=("levels", "bytes", "police", "shaper", "red", "ring")
):
    """A random node with the DiffServ toolbox's ``features`` and non-priority queues of ``kind``.

    ``kind``: "wfq", "drr", "wrr", "priority" (priority queues only) or None (drawn).
    ``features``: any of "levels" (several priority queues and levels), "bytes" (queue byte
    limits), "police", "shaper", "red", "ring" (ring limits in packets and bytes, rule 5'),
    "adapter" (an adapter of 1-8 whole packets after the ring, rule 5'', on about 3 nodes in 4 whose
    ring releases whole packets; drawn last, so the other feature sets' traces are unchanged).
    """
    features = frozenset(features)
    kind = kind or str(rng.choice(["wfq", "drr", "wrr"]))
    n_prio = (
        int(rng.integers(1, 4))
        if kind == "priority"
        else (int(rng.integers(0, 4)) if "levels" in features else int(rng.integers(0, 2)))
    )
    n_shared = 0 if kind == "priority" else int(rng.integers(1, 5))
    max_level = 2 if "levels" in features else 0
    queues = [
        _queue(rng, "priority", int(rng.integers(0, max_level + 1)), features)
        for _ in range(n_prio)
    ]
    queues += [_queue(rng, kind, 0, features) for _ in range(n_shared)]
    order = rng.permutation(len(queues))
    queues = [queues[i] for i in order]
    release = "packet"
    ring = dict(
        ring_limit_particles=int(rng.integers(1, 7)), particle_bytes=int(rng.choice([64, 256, 512]))
    )
    if "ring" in features:
        choice = rng.integers(0, 4)
        if choice == 1:
            ring = dict(ring_limit_particles=None, particle_bytes=None)
        if choice >= 1:
            ring["ring_limit_packets" if choice != 2 else "ring_limit_bytes"] = (
                int(rng.integers(1, 5)) if choice != 2 else int(rng.integers(100, 4000))
            )
        if choice == 3:
            ring["ring_limit_bytes"] = int(rng.integers(100, 4000))
        if ring["ring_limit_particles"] is not None and rng.random() < 0.4:
            release = "unit"
    framing = (
        "none" if release == "unit" else str(rng.choice(["none", "none", "ethernet", "atm-aal5"]))
    )
    wfq_bytes = str(rng.choice(["ip", "wire"]))
    adapter = 0
    if "adapter" in features and release == "packet" and rng.random() < 0.75:
        adapter = int(rng.choice([1, 1, 2, 2, 3, 8]))
    return Node(
        8192.0,
        framing,
        queues=tuple(queues),
        ring_release=release,
        wfq_bytes=wfq_bytes,
        adapter_packets=adapter,
        **ring,
    )


def toolbox_trace(
    seed: int,
    kind: str | None = None,
    features=("levels", "bytes", "police", "shaper", "red", "ring"),
    n_max: int = 120,
):
    """A random dyadic trace on :func:`toolbox_node`: ``(node, arrival, size, queue, colour,
    red_uniform)``.

    ``red_uniform`` is None when no queue has RED (as the kernel requires); colours are drawn
    only for nodes with RED (they are read only by WRED).
    """
    rng = np.random.default_rng(seed)
    node = toolbox_node(rng, kind, features)
    n = int(rng.integers(5, n_max + 1))
    gaps = rng.integers(0, 1200, n)
    gaps[rng.random(n) < 0.4] = 0  # simultaneous arrivals
    arrival = np.cumsum(gaps) * BYTE_S
    size = rng.integers(40, 1501, n)
    queue = rng.integers(0, len(node.queues), n)
    red = any(q.red for q in node.queues)
    colour = rng.integers(0, 3, n) if red else None
    uniform = rng.random(n) if red else None
    return node, arrival, size, queue, colour, uniform


def assert_batches_equal_one_run(node, base_node, scenario, seed: int, cuts) -> None:
    """``scenario``'s traffic (``seed``) cut into batches after the packet counts ``cuts``
    (cumulated) gives
    through ``run_batches`` exactly ``node``'s one-shot run, and ``node`` differs from ``base_node``
    on it:
    some packet enters the ring earlier."""
    from pqlab.node.engine import run_kernel, validate_arrivals
    from pqlab.streaming import run_batches
    from pqlab.traffic import merge_streams

    t, s, q, f = merge_streams(scenario.streams, np.random.default_rng(seed), scenario.duration_s)
    edges = np.unique(np.clip(np.cumsum(cuts), 0, t.size))
    edges = np.r_[0, edges[edges < t.size], t.size]
    out = list(
        run_batches(node, [(t[a:b], s[a:b], q[a:b], f[a:b]) for a, b in zip(edges[:-1], edges[1:])])
    )
    ref = run_kernel(node, *validate_arrivals(node, t, s, q))
    for k, r in zip((4, 5, 6), ref):
        np.testing.assert_array_equal(np.concatenate([o[k] for o in out]), r)
    base = run_kernel(base_node, *validate_arrivals(base_node, t, s, q))
    assert np.nanmin(ref[0] - base[0]) < 0
