"""The toolbox's disciplines against their theory, on the kernel and on the exact reference.

Each test states what theory says and the tolerance it allows, on fixed seeds (no test depends
on a run's luck or on timing):

* DRR (Shreedhar and Varghese 1996): under saturation each queue's bytes are its quantum's share
  of the bytes sent, up to ``2 * n_queues * max(max packet, max quantum)`` bytes in all;
* WRR: under saturation, every window of ``sum(weights)`` consecutive ring entries holds exactly
  ``weight`` packets of each queue;
* RED at a held average queue ``avg`` drops the fraction ``max_p * (avg - min) / (max - min)``
  of packets, within 5 binomial standard deviations (and exactly those with ``u`` below it);
* the shaper's output (bytes entering the ring) in any interval ``[a, b]`` is at most
  ``burst + rate * (b - a)`` and, for a saturated queue that the ring never blocks, more than
  ``burst + rate * b - max packet`` from 0 to ``b``;
* strict priority with levels: no packet enters the ring while a packet of a lower level waits.
"""

from fractions import Fraction

import numpy as np
import pytest
from reference_traces import BYTE_S

from pqlab import Node, Queue, simulate_arrivals
from pqlab.node.engine import run_kernel, validate_arrivals
from pqlab.node.reference import EARLY_DROP, KEPT, QUEUE_FULL, reference_schedule

LINE_BPS = 8192.0
ENGINES = ("reference", "kernel")


def run(engine, node, arrival, size, queue, colour=None, red_uniform=None):
    """``(ring_entry, departure, drop)`` as lists (Fractions, None when dropped) from either
    engine."""
    if engine == "reference":
        return reference_schedule(node, arrival, size, queue, colour, red_uniform)
    marks = {} if colour is None else {"colour": np.asarray(colour, dtype=np.int64)}
    if red_uniform is not None:
        marks["red_uniform"] = np.asarray(red_uniform, dtype=np.float64)
    entry, dep, drop = run_kernel(node, *validate_arrivals(node, arrival, size, queue), **marks)
    as_fraction = [None if e != e else Fraction(float(e)) for e in entry]
    return (
        as_fraction,
        [None if d != d else Fraction(float(d)) for d in dep],
        [int(c) for c in drop],
    )


def saturated(rng, n_queues, per_queue, low=40, high=1500):
    """Every queue's packets at time 0 (interleaved): the queues stay backlogged."""
    queue = np.tile(np.arange(n_queues), per_queue)
    return np.zeros(queue.size), rng.integers(low, high + 1, queue.size), queue


def ring_order(entry, departure):
    """Packet indices in the order they entered the ring (kept packets only)."""
    kept = [k for k, e in enumerate(entry) if e is not None]
    return sorted(kept, key=lambda k: departure[k])


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "seed, quanta", [(1, (500, 1000, 1500)), (2, (64, 300, 1500, 9000)), (3, (1500, 1500))]
)
def test_drr_byte_shares_are_the_quantum_shares_under_saturation(engine, seed, quanta):
    node = Node(
        LINE_BPS,
        "none",
        1,
        2000,
        tuple(Queue("drr", None, quantum_bytes=q, limit_bytes=10**9) for q in quanta),
    )
    t, s, q = saturated(
        np.random.default_rng(seed), len(quanta), 1500 if engine == "kernel" else 400
    )
    entry, dep, _ = run(engine, node, t, s, q)
    order = ring_order(entry, dep)
    # the window: up to the first queue's last packet (all queues backlogged throughout)
    end = min(max(i for i, k in enumerate(order) if q[k] == j) for j in range(len(quanta)))
    sent = np.bincount(q[order[:end]], weights=s[order[:end]], minlength=len(quanta))
    total = sent.sum()
    share = sent / total
    expected = np.asarray(quanta) / sum(quanta)
    tolerance = 2 * len(quanta) * max(1500, max(quanta)) / total
    assert np.all(np.abs(share - expected) <= tolerance), (share, expected, tolerance)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("weights", [(1, 2, 3), (5, 1), (2, 2, 1, 7)])
def test_wrr_packet_shares_are_the_weights_in_every_cycle(engine, weights):
    node = Node(
        LINE_BPS, "none", 1, 2000, tuple(Queue("wrr", 10**6, weight_packets=w) for w in weights)
    )
    t, s, q = saturated(np.random.default_rng(sum(weights)), len(weights), 40 * max(weights))
    entry, dep, _ = run(engine, node, t, s, q)
    order = q[ring_order(entry, dep)]
    end = min(
        np.flatnonzero(order == j).max() for j in range(len(weights))
    )  # all backlogged before
    cycle = sum(weights)
    for start in range(
        1, end - cycle
    ):  # every window after the first entry (arrivals still coming)
        assert np.bincount(order[start : start + cycle], minlength=len(weights)).tolist() == list(
            weights
        )


def _held_queue_trace(held, n_probe):
    """A queue held at ``held`` packets: a 65,535-byte packet occupies the 1-byte/s line for 65,535
    s,
    ``held`` green packets wait behind it, then ``n_probe`` yellow packets arrive one a second."""
    arrival = np.r_[np.zeros(held + 1), 1.0 + np.arange(n_probe)]
    size = np.r_[65535, np.full(held + n_probe, 100)]
    colour = np.r_[np.zeros(held + 1, dtype=np.int64), np.ones(n_probe, dtype=np.int64)]
    return arrival, size, np.zeros(arrival.size, dtype=np.int64), colour


@pytest.mark.parametrize("held", [4, 10, 17])
def test_red_drop_fraction_at_a_held_average_queue(held):
    # red_weight 1: avg = n, the queue's length, held at `held` (a yellow packet that RED passes
    # finds
    # the queue full and is dropped with code 2, so the queue never grows). Green packets never drop
    # early (thresholds far above); yellow: min 2, max 18, max_p 0.5 -> p = 0.5 * (held - 2) / 16.
    node = Node(
        8.0,
        "none",
        1,
        65535,
        (
            Queue(
                "priority",
                held,
                red_min_packets=(1e6, 2, 0),
                red_max_packets=(2e6, 18, 1),
                red_max_p=(0.1, 0.5, 1),
                red_weight=1.0,
            ),
        ),
    )
    n_probe, seed = 20_000, 7
    arrival, size, queue, colour = _held_queue_trace(held, n_probe)
    ds = simulate_arrivals(node, arrival, size, queue, colour=colour, seed=seed)
    drop = ds["drop"].values[held + 1 :]
    p = 0.5 * (held - 2) / 16
    assert set(np.unique(drop)) <= {EARLY_DROP, QUEUE_FULL}
    fraction = np.mean(drop == EARLY_DROP)
    assert abs(fraction - p) <= 5 * np.sqrt(p * (1 - p) / n_probe), (fraction, p)
    # exactly the packets whose uniform draw is below p, as the reference says
    uniform = np.random.default_rng(seed).random(arrival.size)
    np.testing.assert_array_equal(drop == EARLY_DROP, uniform[held + 1 :] < p)
    _, _, ref_drop = reference_schedule(
        node,
        arrival[: held + 400],
        size[: held + 400],
        queue[: held + 400],
        colour[: held + 400],
        uniform[: held + 400],
    )
    assert ref_drop == ds["drop"].values[: held + 400].tolist()


def shaper_envelope_excess(entry, size, queue, j, rate_Bps, burst):
    """The largest ``bytes entering the ring in [a, b] - (burst + rate * (b - a))`` over the entry
    instants ``a <= b`` of queue ``j``'s packets (exact when the entries are Fractions); <= 0 holds.
    """
    mine = sorted(
        (entry[k], int(size[k]))
        for k in range(len(entry))
        if entry[k] is not None and queue[k] == j
    )
    worst = None
    for a in range(len(mine)):
        total = 0
        for b in range(a, len(mine)):
            total += mine[b][1]
            excess = total - (burst + rate_Bps * (mine[b][0] - mine[a][0]))
            worst = excess if worst is None or excess > worst else worst
    return worst


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("seed", range(6))
def test_shaped_output_stays_inside_its_envelope(engine, seed):
    rng = np.random.default_rng(seed)
    rate_bps, burst = 8.0 * 2 ** int(rng.integers(6, 10)), int(rng.integers(1500, 4000))
    node = Node(
        LINE_BPS,
        "none",
        2,
        512,
        (
            Queue("priority", 5),
            Queue("wfq", 20, weight_bps=1024.0, shape_rate_bps=rate_bps, shape_burst_bytes=burst),
            Queue("wfq", 20, weight_bps=2048.0),
        ),
    )
    n = 250
    t = np.cumsum(rng.integers(0, 600, n)) * BYTE_S
    s, q = rng.integers(40, 1501, n), rng.integers(0, 3, n)
    entry, _, _ = run(engine, node, t, s, q)
    excess = shaper_envelope_excess(entry, s, q, 1, Fraction(rate_bps) / 8, burst)
    assert excess <= 0


@pytest.mark.parametrize("engine", ENGINES)
def test_a_saturated_shaped_queue_sends_at_its_rate_from_a_full_bucket(engine):
    # A large ring and a line 8x faster than the shaper: the shaper alone spaces the packets. The
    # bucket never fills again after time 0, so after the entries at an instant b it holds
    # burst + rate * b - sent >= 0 bytes, fewer than the next head's (<= 1500) or that head would
    # have entered at b too: burst + rate * b - 1500 < sent <= burst + rate * b.
    rate_Bps, burst = 128, 3000
    node = Node(
        LINE_BPS,
        "none",
        100,
        2000,
        (Queue("priority", 10**4, shape_rate_bps=8.0 * rate_Bps, shape_burst_bytes=burst),),
    )
    t, s, q = saturated(np.random.default_rng(11), 1, 300)
    entry, _, _ = run(engine, node, t, s, q)
    instants = sorted(set(entry))
    assert len(instants) > 100
    for b in instants:  # the bytes that entered by b, all of b's entries included
        sent = sum(int(s[k]) for k in range(len(entry)) if entry[k] <= b)
        assert burst + rate_Bps * b - 1500 < sent <= burst + rate_Bps * b


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("seed", range(8))
def test_no_packet_enters_while_a_lower_level_packet_waits(engine, seed):
    rng = np.random.default_rng(seed)
    levels = rng.integers(0, 3, 4)
    node = Node(
        LINE_BPS,
        "none",
        int(rng.integers(1, 4)),
        512,
        tuple(Queue("priority", 6, level=int(v)) for v in levels)
        + (Queue("drr", 6, quantum_bytes=500),),
    )
    n = 200
    t = np.cumsum(rng.integers(0, 500, n) * (rng.random(n) < 0.6)) * BYTE_S
    s, q = rng.integers(40, 1501, n), rng.integers(0, 5, n)
    entry, _, drop = run(engine, node, t, s, q)
    level = [int(levels[j]) if j < 4 else 99 for j in q]  # the DRR queue below every level
    kept = [k for k in range(n) if drop[k] == KEPT]
    for k in kept:
        for h in kept:
            if level[h] < level[k]:
                # h waited (arrived strictly before k entered, entered after): a violation
                assert not (t[h] < entry[k] < entry[h]), (h, k)
            if level[h] == level[k] and h < k:
                assert entry[h] <= entry[k]  # one FIFO per level, by admission
