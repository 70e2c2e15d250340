"""The scheduler seam (issue 32): named kernel state, features compiled in, inputs checked before
the kernel.

The mechanisms themselves are checked against the executable contract (``pqlab.node.reference``)
and against theory elsewhere; these tests hold the seam's own promises.
"""

import numpy as np
import pytest

from pqlab import Node, Queue, simulate_arrivals
from pqlab.node import engine
from pqlab.node.disciplines import KIND_CODES
from pqlab.node.engine import (
    EARLY_DROP,
    FEATURE_QUEUE_BYTES,
    FEATURE_RED,
    FEATURE_RING_COUNTS,
    FEATURE_SHAPER,
    NodeState,
    kernel_features,
    run_kernel,
)


def test_features_name_the_mechanisms_a_node_uses():
    papers = Node.cisco7200_atm()
    assert kernel_features(papers) == KIND_CODES["wfq"] << engine.FEATURE_KIND_SHIFT
    shaped = Node(
        1e6,
        "none",
        2,
        512,
        (
            Queue("priority", 5, shape_rate_bps=1e5, shape_burst_bytes=1500),
            Queue("drr", 5, quantum_bytes=500, limit_bytes=3000),
        ),
    )
    assert (
        kernel_features(shaped)
        == (KIND_CODES["drr"] << engine.FEATURE_KIND_SHIFT) | FEATURE_SHAPER | FEATURE_QUEUE_BYTES
    )
    red = Node(
        1e6,
        "none",
        None,
        None,
        (Queue("wrr", 5, weight_packets=1, red_min_packets=1, red_max_packets=3, red_max_p=0.5),),
        ring_limit_packets=2,
    )
    assert (
        kernel_features(red)
        == (KIND_CODES["wrr"] << engine.FEATURE_KIND_SHIFT) | FEATURE_RED | FEATURE_RING_COUNTS
    )


def test_after_the_first_run_the_kernel_is_called_without_numbas_dispatcher():
    """numba.literally re-types every dispatcher call by compiling (about 8 ms a call): the entry
    point
    of the compiled version must be cached, or every run of the papers' node pays it."""
    node = Node.cisco7200_atm()
    run_kernel(node, np.zeros(1), np.array([128]), np.array([0]))
    assert kernel_features(node) in engine._ENTRIES


def test_the_state_is_named_arrays_a_reader_can_inspect():
    node = Node(
        8000.0,
        "none",
        None,
        None,
        (Queue("drr", 10, quantum_bytes=100), Queue("drr", 10, quantum_bytes=100)),
        ring_limit_packets=1,
    )
    state = NodeState(node)
    t = np.zeros(4)
    out = state.advance(
        t,
        np.array([100, 100, 50, 50], dtype=np.int64),
        np.array([0, 0, 1, 1], dtype=np.int64),
        horizon_s=0.0,
    )
    assert out[2].tolist() == [0, 0, 0, 0]
    # pkt 0 went to the ring at once (queue 0 took its quantum of 100 and emptied: deficit back
    # to 0);
    # pkt 1 and both of queue 1 wait; the active list holds queue 0 then queue 1.
    assert state.queues["length"].tolist() == [1, 2]
    assert state.queues["deficit_bytes"].tolist() == [0, 0]
    assert state.state["n_active"][0] == 2 and state.active[:2].tolist() == [0, 1]
    assert state.ring["size"][0] == 100 and state.state["ring_len"][0] == 1


@pytest.mark.parametrize(
    "name, array",
    [
        ("arrival", np.zeros(2, dtype=np.float32)),
        ("size", np.array([100, 100], dtype=np.int32)),
        ("queue", np.zeros(3, dtype=np.int64)),
    ],
)
def test_advance_refuses_arrays_the_compiled_kernel_would_misread(name, array):
    """The cached entry point does no type checks of its own: advance names the array instead."""
    node = Node(8000.0, "none", 2, 512, (Queue("priority", 10),))
    arrays = {
        "arrival": np.zeros(2),
        "size": np.array([100, 100], dtype=np.int64),
        "queue": np.zeros(2, dtype=np.int64),
    }
    arrays[name] = array
    with pytest.raises(ValueError, match=name):
        NodeState(node).advance(arrays["arrival"], arrays["size"], arrays["queue"])


RED_NODE = Node(
    8000.0,
    "none",
    1,
    1500,
    (Queue("priority", 10, red_min_packets=0, red_max_packets=2, red_max_p=1.0, red_weight=1.0),),
)


def test_red_needs_a_seed_and_draws_one_uniform_per_packet():
    with pytest.raises(ValueError, match="seed must be an integer >= 0 for a node with RED"):
        simulate_arrivals(RED_NODE, np.zeros(3), [100] * 3, [0] * 3)
    with pytest.raises(ValueError, match="seed must be None for a node without RED"):
        simulate_arrivals(
            Node(8000.0, "none", 1, 1500, (Queue("priority", 10),)), [0.0], [100], [0], seed=1
        )
    a = simulate_arrivals(RED_NODE, np.zeros(50), [100] * 50, [0] * 50, seed=7)
    b = simulate_arrivals(RED_NODE, np.zeros(50), [100] * 50, [0] * 50, seed=7)
    assert a["drop"].values.tolist() == b["drop"].values.tolist() and a.attrs["seed"] == 7
    assert EARLY_DROP in a["drop"].values


def test_bad_marks_are_refused_naming_them():
    with pytest.raises(ValueError, match="colour"):
        simulate_arrivals(RED_NODE, np.zeros(2), [100, 100], [0, 0], colour=[0, 3], seed=1)
    with pytest.raises(ValueError, match="red_uniform"):
        run_kernel(
            RED_NODE,
            np.zeros(2),
            np.array([100, 100]),
            np.array([0, 0]),
            None,
            np.array([0.5, 1.0]),
        )
    with pytest.raises(ValueError, match="red_uniform must be an array"):
        run_kernel(RED_NODE, np.zeros(2), np.array([100, 100]), np.array([0, 0]))


def test_a_packet_larger_than_its_shapers_bucket_is_refused_not_held_forever():
    node = Node(
        8000.0, "none", 1, 1500, (Queue("priority", 10, shape_rate_bps=800, shape_burst_bytes=100),)
    )
    with pytest.raises(
        ValueError,
        match=r"shape_burst_bytes of queue 0 .* got 100.0 bytes and a packet of 101 bytes",
    ):
        simulate_arrivals(node, [0.0, 1.0], [100, 101], [0, 0])


def test_the_colour_is_returned_when_given():
    ds = simulate_arrivals(RED_NODE, np.zeros(3), [100] * 3, [0] * 3, colour=[0, 1, 2], seed=3)
    assert (
        ds["colour"].values.tolist() == [0, 1, 2]
        and ds["colour"].attrs["flag_meanings"] == "green yellow red"
    )


def _advance_in_batches(node, t, s, q, cuts):
    """Run ``node`` on the trace cut before each index of ``cuts``; reassemble per-packet
    outputs."""
    state = NodeState(node)
    entry, dep, drop = (
        np.full(t.size, np.nan),
        np.full(t.size, np.nan),
        np.zeros(t.size, dtype=np.int8),
    )
    bounds = [0, *cuts, t.size]
    for k in range(len(bounds) - 1):
        lo, hi = bounds[k], bounds[k + 1]
        horizon = t[hi] if hi < t.size else np.inf
        e, d, dr, (cid, ce, cd) = state.advance(t[lo:hi], s[lo:hi], q[lo:hi], horizon)
        entry[lo:hi], dep[lo:hi], drop[lo:hi] = e, d, dr
        entry[cid], dep[cid] = ce, cd
    return entry, dep, drop


TOOLBOX_NODES = {
    "shaped levels": Node(
        8192.0,
        "none",
        None,
        None,
        (
            Queue("priority", 6, shape_rate_bps=2048.0, shape_burst_bytes=512),
            Queue("priority", 6, level=1, shape_rate_bps=4096.0, shape_burst_bytes=1024),
            Queue("priority", 8, level=1),
        ),
        ring_limit_packets=2,
    ),
    "shaped DRR": Node(
        8192.0,
        "none",
        3,
        256,
        (
            Queue("drr", 6, quantum_bytes=300, shape_rate_bps=2048.0, shape_burst_bytes=512),
            Queue("drr", 6, quantum_bytes=500, limit_bytes=1500),
        ),
        ring_limit_bytes=700,
    ),
    "shaped WRR": Node(
        8192.0,
        "none",
        None,
        None,
        (
            Queue("wrr", 6, weight_packets=2, shape_rate_bps=1024.0, shape_burst_bytes=512),
            Queue("wrr", 6, weight_packets=1),
        ),
        ring_limit_packets=1,
    ),
}


@pytest.mark.parametrize("name", sorted(TOOLBOX_NODES))
@pytest.mark.parametrize("seed", range(4))
def test_batches_cut_at_any_instant_equal_the_one_shot_run_with_shapers(name, seed):
    """A shaper's wake-up is state carried between batches: cut at wake-ups, completions and
    arrivals
    (dyadic times, so these instants coincide exactly), the outputs are the one-shot run's, bit for
    bit.
    """
    node = TOOLBOX_NODES[name]
    rng = np.random.default_rng(seed)
    n = 200
    t = np.cumsum(rng.choice([0, 0, 64, 128, 256, 512], size=n)) / 1024.0
    s = rng.choice([64, 128, 256, 512], size=n).astype(np.int64)
    q = rng.integers(0, len(node.queues), size=n).astype(np.int64)
    ref = run_kernel(node, t, s, q)
    instants = set(ref[0][np.isfinite(ref[0])].tolist()) | set(ref[1][np.isfinite(ref[1])].tolist())
    at_events = [i for i in range(1, n) if t[i] in instants and t[i] != t[i - 1]]
    assert len(at_events) > 5  # the trace exercises the coincidence
    for cuts in (
        at_events,
        at_events[::3],
        sorted(rng.choice(np.arange(1, n), 20, replace=False).tolist()),
    ):
        cuts = [c for c in cuts if t[c] != t[c - 1]]  # equal times belong to one batch
        for got, want in zip(_advance_in_batches(node, t, s, q, cuts), ref):
            np.testing.assert_array_equal(got, want)
