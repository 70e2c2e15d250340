"""Bad input to Node, Queue and simulate_arrivals: a ValueError naming the field, never the kernel."""

import math

import numpy as np
import pytest

from pqlab import Node, Queue, simulate_arrivals
from pqlab.node import engine as engine_module

WFQ = Queue("wfq", 64, weight_bps=1e6)


def node(**kw):
    base = dict(line_rate_bps=2e6, framing="atm-aal5", ring_limit_particles=5, particle_bytes=512, queues=(WFQ,))
    base.update(kw)
    return Node(**base)


@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(kind="fifo", limit_packets=10), "kind"),
        (dict(kind="priority", limit_packets=0), "limit_packets"),
        (dict(kind="priority", limit_packets=2.5), "limit_packets"),
        (dict(kind="priority", limit_packets=True), "limit_packets"),
        (dict(kind="priority", limit_packets=10**9), "limit_packets"),
        (dict(kind="wfq", limit_packets=10), "weight_bps"),
        (dict(kind="wfq", limit_packets=10, weight_bps=0), "weight_bps"),
        (dict(kind="wfq", limit_packets=10, weight_bps=math.nan), "weight_bps"),
        (dict(kind="wfq", limit_packets=10, weight_bps="1e6"), "weight_bps"),
        (dict(kind="priority", limit_packets=10, weight_bps=1e6), "weight_bps"),
        (dict(kind="priority", limit_packets=10, police_rate_bps=-1), "police_rate_bps"),
        (dict(kind="priority", limit_packets=10, police_rate_bps=math.inf), "police_rate_bps"),
        (dict(kind="priority", limit_packets=10, police_rate_bps=3e5, police_burst_bytes=0), "police_burst_bytes"),
        (dict(kind="priority", limit_packets=10, police_burst_bytes=1500), "police_burst_bytes"),
    ],
)
def test_queue_rejects_each_bad_field(kwargs, field):
    with pytest.raises(ValueError, match=field):
        Queue(**kwargs)


def test_queue_error_message_states_the_allowed_range():
    with pytest.raises(ValueError, match=r"limit_packets must be an integer in \[1, 10000000\], got 0"):
        Queue("priority", 0)


def test_queue_default_police_burst_is_200_ms_of_traffic():
    assert Queue("priority", 10, police_rate_bps=300e3).police_burst_bytes == pytest.approx(7500.0)


@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(line_rate_bps=0), "line_rate_bps"),
        (dict(line_rate_bps=-2e6), "line_rate_bps"),
        (dict(line_rate_bps=math.nan), "line_rate_bps"),
        (dict(framing="sonet"), "framing"),
        (dict(ring_limit_particles=0), "ring_limit_particles"),
        (dict(ring_limit_particles=1.5), "ring_limit_particles"),
        (dict(particle_bytes=0), "particle_bytes"),
        (dict(queues=()), "queues"),
        (dict(queues=None), "queues"),
        (dict(queues=(WFQ, "wfq")), r"queues\[1\]"),
        (dict(queues=(Queue("priority", 10), Queue("priority", 10))), "queues"),
    ],
)
def test_node_rejects_each_bad_field(kwargs, field):
    with pytest.raises(ValueError, match=field):
        node(**kwargs)


def test_cisco_preset_matches_the_papers():
    n = Node.cisco7200_atm()
    assert (n.line_rate_bps, n.framing, n.ring_limit_particles, n.particle_bytes) == (2e6, "atm-aal5", 5, 512)
    pq, be = n.queues
    assert (pq.kind, pq.limit_packets, pq.police_rate_bps) == ("priority", 10, 300e3)
    assert (be.kind, be.limit_packets) == ("wfq", 64)
    assert Node.from_dict(n.to_dict()) == n


GOOD = dict(arrival_s=[0.0, 0.001], size_bytes=[128, 1500], queue=[0, 1])


@pytest.mark.parametrize(
    "override, field",
    [
        (dict(arrival_s=[0.001, 0.0]), "arrival_s must be sorted"),
        (dict(arrival_s=[0.0, math.nan]), "arrival_s must be finite"),
        (dict(arrival_s=[0.0, math.inf]), "arrival_s must be finite"),
        (dict(arrival_s=[-1.0, 0.0]), "arrival_s"),
        (dict(arrival_s=[[0.0, 0.001]]), "arrival_s must be a 1-D"),
        (dict(arrival_s=["a", "b"]), "arrival_s must hold numbers"),
        (dict(size_bytes=[128]), "size_bytes must have 2 elements"),
        (dict(size_bytes=[0, 128]), "size_bytes"),
        (dict(size_bytes=[128, 70000]), "size_bytes"),
        (dict(size_bytes=[128.5, 128]), "size_bytes must hold integers"),
        (dict(queue=[0, 2]), "queue"),
        (dict(queue=[-1, 0]), "queue"),
        (dict(queue=[0]), "queue must have 2 elements"),
        (dict(queue=[True, False]), "queue must hold numbers"),
    ],
)
def test_simulate_arrivals_rejects_bad_arrays_before_the_kernel(monkeypatch, override, field):
    called = []
    monkeypatch.setattr(engine_module, "_node_kernel", lambda *a: called.append(a))
    args = dict(GOOD, **override)
    with pytest.raises(ValueError, match=field):
        simulate_arrivals(Node.cisco7200_atm(), **args)
    assert not called


def test_simulate_arrivals_rejects_a_non_node():
    with pytest.raises(ValueError, match="node must be a pqlab.Node"):
        simulate_arrivals({"line_rate_bps": 2e6}, **GOOD)


def test_integral_floats_are_accepted_for_integer_arrays():
    ds = simulate_arrivals(Node.cisco7200_atm(), [0.0], np.array([128.0]), np.array([0.0]))
    assert ds["size"].dtype == np.int64 and ds["queue"].values.tolist() == [0]
