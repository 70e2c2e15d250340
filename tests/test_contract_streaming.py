"""Streaming carry-over, exactly at completion instants (node contract rule 5).

A batch boundary may fall exactly on a ring completion, and a batch's first arrival
may coincide with one. The contract handles a completion at the same instant as an
arrival first, and a run split into batches equals the one-shot run bit for bit,
wherever the batches are cut. ``NodeState.advance`` processes completions up to AND
including its horizon (the next batch's first arrival).

The line runs at 8000 bit/s without framing, so a packet of ``s`` bytes takes
``s`` ms; sizes are multiples of 125 bytes and arrivals multiples of 1/8 s, so every
instant is an exact binary fraction and arrivals fall on completions.
"""

import itertools

import numpy as np
import pytest

from pqlab import Node, Queue, simulate_arrivals
from pqlab.node.engine import NodeState, run_kernel, validate_arrivals
from pqlab.streaming import run_batches

PRIO, BE = 0, 1


def small_ring_node(ring=1, particle=125):
    return Node(
        line_rate_bps=8000.0,
        framing="none",
        ring_limit_particles=ring,
        particle_bytes=particle,
        queues=(
            Queue("priority", 10),
            Queue("wfq", 10, weight_bps=1e3),
            Queue("wfq", 10, weight_bps=3e3),
        ),
    )


# (arrival s, size bytes, queue): three BE packets at 0 behind a one-packet ring; a priority packet
# arrives at 0.125 exactly when BE0 completes, a BE packet at 0.5 exactly when the ring empties.
TRACE = [
    (0.0, 125, BE),
    (0.0, 125, BE),
    (0.0, 125, BE),
    (0.125, 125, PRIO),
    (0.5, 125, BE),
    (0.625, 125, PRIO),
    (0.625, 250, BE),
    (0.75, 125, PRIO),
]
# completions first: at 0.125 BE1 enters the ring before the priority packet arriving then is
# queued;
# at 0.25 the priority packet (queued since 0.125) goes before BE2; at 0.75 the
# completion lets BE6 into the ring before the priority packet arriving at that instant is even
# queued
EXPECTED_ENTRY = [0.0, 0.125, 0.375, 0.25, 0.5, 0.625, 0.75, 1.0]
EXPECTED_DEPARTURE = [0.125, 0.25, 0.5, 0.375, 0.625, 0.75, 1.0, 1.125]


def _arrays(trace):
    t, s, q = (np.array(c) for c in zip(*trace))
    return t.astype(float), s.astype(np.int64), q.astype(np.int64)


def _streamed(node, t, s, q, cuts):
    edges = [0, *cuts, t.size]
    batches = [(t[a:b], s[a:b], q[a:b], None) for a, b in zip(edges[:-1], edges[1:])]
    out = list(run_batches(node, batches))
    assert len(out) == len(batches)
    return tuple(np.concatenate([o[k] for o in out]) for k in (4, 5, 6))


def test_one_shot_run_handles_the_completion_before_the_simultaneous_arrival():
    ds = simulate_arrivals(small_ring_node(), *_arrays(TRACE))
    assert ds.ring_entry.values.tolist() == EXPECTED_ENTRY
    assert ds.departure.values.tolist() == EXPECTED_DEPARTURE
    assert ds["drop"].values.tolist() == [0] * len(TRACE)


@pytest.mark.parametrize(
    "cuts", [c for r in range(1, 4) for c in itertools.combinations(range(1, len(TRACE)), r)]
)
def test_every_split_of_the_trace_equals_the_one_shot_run(cuts):
    t, s, q = _arrays(TRACE)
    entry, dep, drop = _streamed(small_ring_node(), t, s, q, list(cuts))
    assert entry.tolist() == EXPECTED_ENTRY
    assert dep.tolist() == EXPECTED_DEPARTURE
    assert drop.tolist() == [0] * len(TRACE)


def test_advance_processes_completions_up_to_and_including_its_horizon():
    """A batch whose horizon equals a ring completion resolves the packet that enters then."""
    t, s, q = _arrays(TRACE[:3])
    state = NodeState(small_ring_node())
    entry, dep, drop, carry = state.advance(t, s, q, horizon_s=0.125)
    # BE0 completes at the horizon 0.125 and BE1 enters the ring then, within this call
    assert entry[:2].tolist() == [0.0, 0.125] and np.isnan(entry[2])
    assert dep[:2].tolist() == [0.125, 0.25]
    assert state.waiting_packets == 1 and carry[0].size == 0
    # the next batch starts exactly at that completion: a priority arrival that must not overtake
    # BE1
    entry2, dep2, _, (cid, centry, cdep) = state.advance(*_arrays(TRACE[3:4]), horizon_s=np.inf)
    assert entry2.tolist() == [0.25] and dep2.tolist() == [0.375]
    assert cid.tolist() == [2] and centry.tolist() == [0.375] and cdep.tolist() == [0.5]


def _grid_trace(seed, n):
    """Arrivals on a 1/8 s grid (often equal to completions), sizes multiples of 125 bytes, mixed
    queues."""
    rng = np.random.default_rng(seed)
    t = np.cumsum(rng.choice([0, 0, 1, 1, 2, 3], size=n)) / 8.0
    s = rng.choice([125, 250, 375, 1000], size=n).astype(np.int64)
    q = rng.choice([PRIO, BE, 2], size=n, p=[0.3, 0.4, 0.3]).astype(np.int64)
    return t, s, q


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("ring", [1, 3])
def test_batches_cut_at_completion_instants_equal_the_one_shot_run(seed, ring):
    node = small_ring_node(ring=ring)
    t, s, q = _grid_trace(seed, 300)
    ref = run_kernel(node, *validate_arrivals(node, t, s, q))
    completions = set(ref[1][np.isfinite(ref[1])].tolist())
    # cut before every packet arriving exactly at a completion instant (the first of equal times)
    at_completion = [i for i in range(1, t.size) if t[i] in completions and t[i] != t[i - 1]]
    assert len(at_completion) > 10  # the trace exercises the coincidence
    for cuts in (at_completion, at_completion[::3], at_completion[1::4]):
        got = _streamed(node, t, s, q, cuts)
        for a, b in zip(got, ref):
            np.testing.assert_array_equal(a, b)
