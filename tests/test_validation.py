"""Bad input to Node, Queue and simulate_arrivals: a ValueError naming the field, never the
kernel."""

import math

import numpy as np
import pytest
import xarray as xr

from pqlab import Empirical, Node, Queue, Scenario, TraceStream, simulate_arrivals
from pqlab.base.numerics import dot, line_fit
from pqlab.node import engine as engine_module
from pqlab.node.framing import atm_cells, line_time_s
from pqlab.node.path import PathModel
from pqlab.node.streaming import run_batches
from pqlab.node.tandem import forwarded

WFQ = Queue("wfq", 64, weight_bps=1e6)


def node(**kw):
    base = dict(
        line_rate_bps=2e6,
        framing="atm-aal5",
        ring_limit_particles=5,
        particle_bytes=512,
        queues=(WFQ,),
    )
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
        (
            dict(kind="priority", limit_packets=10, police_rate_bps=3e5, police_burst_bytes=0),
            "police_burst_bytes",
        ),
        (dict(kind="priority", limit_packets=10, police_burst_bytes=1500), "police_burst_bytes"),
    ],
)
def test_queue_rejects_each_bad_field(kwargs, field):
    with pytest.raises(ValueError, match=field):
        Queue(**kwargs)


def test_queue_error_message_states_the_allowed_range():
    with pytest.raises(
        ValueError, match=r"limit_packets must be an integer in \[1, 10000000\], got 0"
    ):
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
        (
            dict(queues=(Queue("drr", 10, quantum_bytes=100), Queue("wrr", 10, weight_packets=1))),
            "queues",
        ),
        (dict(ring_limit_particles=None), "ring_limit_particles"),
        (dict(ring_limit_particles=None, ring_limit_packets=0), "ring_limit_packets"),
        (dict(ring_limit_bytes=0), "ring_limit_bytes"),
        (dict(particle_bytes=None), "particle_bytes"),
        (
            dict(ring_limit_particles=None, ring_limit_packets=4, ring_release="unit"),
            "ring_release",
        ),
        (dict(adapter_packets=9), r"adapter_packets must be an integer in \[0, 8\]"),
        (
            dict(adapter_packets=1, ring_release="unit"),
            "adapter_packets must be 0 with ring_release='unit'",
        ),
    ],
)
def test_node_rejects_each_bad_field(kwargs, field):
    with pytest.raises(ValueError, match=field):
        node(**kwargs)


def test_cisco_preset_matches_the_papers():
    n = Node.cisco7200_atm()
    assert (n.line_rate_bps, n.framing, n.ring_limit_particles, n.particle_bytes) == (
        2e6,
        "atm-aal5",
        5,
        512,
    )
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


# ----------------------------------------------------------------------------- masked arrays (issue
# 28, item 10)


def _masked(values, masked_at=-1):
    mask = np.zeros(len(values), dtype=bool)
    mask[masked_at] = True
    return np.ma.masked_array(values, mask=mask)


def _tandem_flows(flows):
    from pqlab.node.tandem import simulate_tandem

    sc = Scenario(
        node=Node.cisco7200_atm(), streams=(TraceStream([0.0], [128], 0, 0),), duration_s=1.0
    )
    return simulate_tandem(sc, [], flows)


#: Every place an array enters pqlab's node and base code, fed a masked array: (call, parameter
#: named).
MASKED_INPUTS = [
    (lambda: TraceStream(_masked([0.0, 0.1, 99.0]), [64, 64, 64], 0, 0), "arrival_s"),
    (lambda: TraceStream([0.0, 0.1, 0.2], _masked([64, 64, 70000]), 0, 0), "size_bytes"),
    (lambda: Empirical(_masked([64, 576, 1500]), [0.4, 0.7, 1.0]), "sizes_bytes"),
    (lambda: Empirical([64, 576, 1500], _masked([0.4, 0.7, 1.0], 0)), "cdf"),
    (
        lambda: simulate_arrivals(Node.cisco7200_atm(), _masked([0.0, 0.001]), [128, 1500], [0, 1]),
        "arrival_s",
    ),
    (
        lambda: simulate_arrivals(Node.cisco7200_atm(), [0.0, 0.001], _masked([128, 1500]), [0, 1]),
        "size_bytes",
    ),
    (
        lambda: simulate_arrivals(Node.cisco7200_atm(), [0.0, 0.001], [128, 1500], _masked([0, 1])),
        "queue",
    ),
    (
        lambda: list(
            run_batches(
                Node.cisco7200_atm(),
                [(_masked([0.0, 0.001]), np.array([128, 1500]), np.array([0, 1]), None)],
            )
        ),
        "arrival_s",
    ),
    (lambda: _tandem_flows(_masked([0, 1])), "flows"),
    (
        lambda: forwarded(
            simulate_arrivals(Node.cisco7200_atm(), [0.0], [128], [0]).assign(flow=("packet", [0])),
            _masked([0, 1]),
        ),
        "flows",
    ),
    (lambda: line_time_s(_masked([128, 1500]), "atm-aal5", 2e6), "size_bytes"),
    (lambda: atm_cells(_masked([128, 1500])), "size_bytes"),
    (lambda: PathModel(fixed_s=1e-3).extra_delay_s(_masked([128, 1500])), "size_bytes"),
    (lambda: dot(_masked([1.0, 2.0]), [1.0, 1.0]), "dot"),
    (lambda: line_fit([0.0, 1.0, 2.0], _masked([1.0, 2.0, 3.0])), "line_fit"),
]


@pytest.mark.parametrize(
    "call, named", MASKED_INPUTS, ids=[f"{i}-{n}" for i, (_, n) in enumerate(MASKED_INPUTS)]
)
def test_a_masked_array_is_refused_naming_the_parameter(call, named):
    """A masked array's masked entries hold data numpy would use silently: refused, with the way
    out."""
    with pytest.raises(ValueError, match=rf"^{named}.* masked .*compressed\(\)") as caught:
        call()
    assert "\n" not in str(caught.value)


def test_a_masked_array_without_masked_entries_is_its_data():
    data = np.array([0.0, 0.001, 0.002])
    plain = simulate_arrivals(Node.cisco7200_atm(), data, [128, 1500, 64], [0, 1, 1])
    masked = simulate_arrivals(
        Node.cisco7200_atm(),
        np.ma.masked_array(data, mask=False),
        [128, 1500, 64],
        np.ma.masked_array([0, 1, 1]),
    )
    xr.testing.assert_identical(plain, masked)
    assert TraceStream(np.ma.masked_array(data), [1, 2, 3], 0, 0) == TraceStream(
        data, [1, 2, 3], 0, 0
    )
