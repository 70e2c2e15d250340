"""The scheduler seam (issue 32): named kernel state, features compiled in, inputs checked before the kernel.

The mechanisms themselves are checked against the executable contract (``pqlab.node.reference``)
and against theory elsewhere; these tests hold the seam's own promises.
"""

import numpy as np
import pytest

from pqlab import Node, Queue, simulate_arrivals
from pqlab.node import engine
from pqlab.node.engine import (EARLY_DROP, FEATURE_QUEUE_BYTES, FEATURE_RED, FEATURE_RING_COUNTS, FEATURE_SHAPER,
                               NodeState, kernel_features, run_kernel)
from pqlab.node.disciplines import KIND_CODES


def test_features_name_the_mechanisms_a_node_uses():
    papers = Node.cisco7200_atm()
    assert kernel_features(papers) == KIND_CODES["wfq"] << engine.FEATURE_KIND_SHIFT
    shaped = Node(1e6, "none", 2, 512, (Queue("priority", 5, shape_rate_bps=1e5, shape_burst_bytes=1500),
                                         Queue("drr", 5, quantum_bytes=500, limit_bytes=3000)))
    assert kernel_features(shaped) == (KIND_CODES["drr"] << engine.FEATURE_KIND_SHIFT) | FEATURE_SHAPER \
        | FEATURE_QUEUE_BYTES
    red = Node(1e6, "none", None, None, (Queue("wrr", 5, weight_packets=1, red_min_packets=1, red_max_packets=3,
                                                red_max_p=0.5),), ring_limit_packets=2)
    assert kernel_features(red) == (KIND_CODES["wrr"] << engine.FEATURE_KIND_SHIFT) | FEATURE_RED | FEATURE_RING_COUNTS


def test_after_the_first_run_the_kernel_is_called_without_numbas_dispatcher():
    """numba.literally re-types every dispatcher call by compiling (about 8 ms a call): the entry point
    of the compiled version must be cached, or every run of the papers' node pays it."""
    node = Node.cisco7200_atm()
    run_kernel(node, np.zeros(1), np.array([128]), np.array([0]))
    assert kernel_features(node) in engine._ENTRIES


def test_the_state_is_named_arrays_a_reader_can_inspect():
    node = Node(8000.0, "none", None, None, (Queue("drr", 10, quantum_bytes=100),
                                             Queue("drr", 10, quantum_bytes=100)), ring_limit_packets=1)
    state = NodeState(node)
    t = np.zeros(4)
    out = state.advance(t, np.array([100, 100, 50, 50], dtype=np.int64), np.array([0, 0, 1, 1], dtype=np.int64),
                        horizon_s=0.0)
    assert out[2].tolist() == [0, 0, 0, 0]
    # pkt 0 went to the ring at once (queue 0 took its quantum of 100 and emptied: deficit back to 0);
    # pkt 1 and both of queue 1 wait; the active list holds queue 0 then queue 1.
    assert state.queues["length"].tolist() == [1, 2]
    assert state.queues["deficit_bytes"].tolist() == [0, 0]
    assert state.state["n_active"][0] == 2 and state.active[:2].tolist() == [0, 1]
    assert state.ring["size"][0] == 100 and state.state["ring_len"][0] == 1


@pytest.mark.parametrize("name, array", [("arrival", np.zeros(2, dtype=np.float32)),
                                          ("size", np.array([100, 100], dtype=np.int32)),
                                          ("queue", np.zeros(3, dtype=np.int64))])
def test_advance_refuses_arrays_the_compiled_kernel_would_misread(name, array):
    """The cached entry point does no type checks of its own: advance names the array instead."""
    node = Node(8000.0, "none", 2, 512, (Queue("priority", 10),))
    arrays = {"arrival": np.zeros(2), "size": np.array([100, 100], dtype=np.int64),
              "queue": np.zeros(2, dtype=np.int64)}
    arrays[name] = array
    with pytest.raises(ValueError, match=name):
        NodeState(node).advance(arrays["arrival"], arrays["size"], arrays["queue"])


RED_NODE = Node(8000.0, "none", 1, 1500, (Queue("priority", 10, red_min_packets=0, red_max_packets=2,
                                                 red_max_p=1.0, red_weight=1.0),))


def test_red_needs_a_seed_and_draws_one_uniform_per_packet():
    with pytest.raises(ValueError, match="seed must be an integer >= 0 for a node with RED"):
        simulate_arrivals(RED_NODE, np.zeros(3), [100] * 3, [0] * 3)
    with pytest.raises(ValueError, match="seed must be None for a node without RED"):
        simulate_arrivals(Node(8000.0, "none", 1, 1500, (Queue("priority", 10),)), [0.0], [100], [0], seed=1)
    a = simulate_arrivals(RED_NODE, np.zeros(50), [100] * 50, [0] * 50, seed=7)
    b = simulate_arrivals(RED_NODE, np.zeros(50), [100] * 50, [0] * 50, seed=7)
    assert a["drop"].values.tolist() == b["drop"].values.tolist() and a.attrs["seed"] == 7
    assert EARLY_DROP in a["drop"].values


def test_bad_marks_are_refused_naming_them():
    with pytest.raises(ValueError, match="colour"):
        simulate_arrivals(RED_NODE, np.zeros(2), [100, 100], [0, 0], colour=[0, 3], seed=1)
    with pytest.raises(ValueError, match="red_uniform"):
        run_kernel(RED_NODE, np.zeros(2), np.array([100, 100]), np.array([0, 0]), None, np.array([0.5, 1.0]))
    with pytest.raises(ValueError, match="red_uniform must be an array"):
        run_kernel(RED_NODE, np.zeros(2), np.array([100, 100]), np.array([0, 0]))


def test_a_packet_larger_than_its_shapers_bucket_is_refused_not_held_forever():
    node = Node(8000.0, "none", 1, 1500, (Queue("priority", 10, shape_rate_bps=800, shape_burst_bytes=100),))
    with pytest.raises(ValueError, match=r"shape_burst_bytes of queue 0 .* got 100.0 bytes and a packet of 101 bytes"):
        simulate_arrivals(node, [0.0, 1.0], [100, 101], [0, 0])


def test_the_colour_is_returned_when_given():
    ds = simulate_arrivals(RED_NODE, np.zeros(3), [100] * 3, [0] * 3, colour=[0, 1, 2], seed=3)
    assert ds["colour"].values.tolist() == [0, 1, 2] and ds["colour"].attrs["flag_meanings"] == "green yellow red"
