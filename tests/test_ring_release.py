"""Ring release rules: rule 5 (a packet's units at its departure) and 5' (unit by unit).

GLOBECOM'01 Sec. II: "as soon as one unit is freed, the unit can be immediately
allocated to store a new packet". ``Node(ring_release="unit")`` releases the head
packet's unit ``u < n`` once its first ``u * particle_bytes`` bytes have been sent
(docs/model.md, rule 5'); the default keeps rule 5. Hand-computed traces on a
framing-``none`` line of 8 bit/s (1 byte per second, so every time is an integer
number of seconds and exact in float64).
"""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_traces import assert_batches_equal_one_run

import pqlab
from pqlab import Node, Queue, scenarios
from pqlab.node.engine import run_kernel, validate_arrivals


def _node(release):
    # ring of 2 units of 100 bytes, queue 0 priority (EF), queue 1 WFQ (BE); 1 byte/s
    return Node(
        8.0,
        "none",
        2,
        100,
        (Queue("priority", 10), Queue("wfq", 10, weight_bps=8)),
        ring_release=release,
    )


# A: BE 300 B (3 units) at 0; D: BE 100 B at 0; E: EF 100 B at 250.
ARRIVAL, SIZE, QUEUE = [0.0, 0.0, 250.0], [300, 100, 100], [1, 1, 0]


def test_packet_release_hand_trace():
    # A enters at 0 (3 units, ring full) and leaves at 300, freeing all 3 units; E (priority) then D
    # enter at 300: E leaves at 400, D at 500.
    ds = pqlab.simulate_arrivals(_node("packet"), ARRIVAL, SIZE, QUEUE)
    np.testing.assert_array_equal(ds.ring_entry.values, [0.0, 300.0, 300.0])
    np.testing.assert_array_equal(ds.departure.values, [300.0, 500.0, 400.0])


def test_unit_release_hand_trace():
    # A's units return at 100 (2 in use: ring still full), 200 (1 in use: D enters, leaves at 400)
    # and
    # 300 (its departure): E, arrived at 250 behind a ring that D filled, enters at 300 and leaves
    # at 500.
    ds = pqlab.simulate_arrivals(_node("unit"), ARRIVAL, SIZE, QUEUE)
    np.testing.assert_array_equal(ds.ring_entry.values, [0.0, 200.0, 300.0])
    np.testing.assert_array_equal(ds.departure.values, [300.0, 400.0, 500.0])


def test_unit_release_of_a_partial_last_unit():
    # 250 B = 3 units (100, 100, 50): units return at 100 and 200, the last at 250; a 1-unit packet
    # waiting behind a 2-unit ring enters at 100 once one unit is free.
    node = dataclasses.replace(_node("unit"), ring_limit_particles=3)
    ds = pqlab.simulate_arrivals(node, [0.0, 0.0, 0.0], [250, 100, 100], [1, 1, 1])
    np.testing.assert_array_equal(ds.ring_entry.values, [0.0, 100.0, 200.0])
    np.testing.assert_array_equal(ds.departure.values, [250.0, 350.0, 450.0])


def test_seven_particle_overshoot_under_both_rules():
    # docs/model.md's worked example: BE 1500, EF 128, BE 1500 at t = 0 on the C7200: the EF packet
    # leaves after 32 + 3 cells, 7.42 ms, whichever rule frees the units.
    for release in ("packet", "unit"):
        node = dataclasses.replace(Node.cisco7200_atm(), ring_release=release)
        ds = pqlab.simulate_arrivals(node, [0.0, 0.0, 0.0], [1500, 128, 1500], [1, 0, 1])
        assert ds.departure.values[1] == pytest.approx(7.42e-3, abs=1e-12)


def test_default_is_rule_5_and_bad_values_are_refused():
    assert Node.cisco7200_atm().ring_release == "packet"
    with pytest.raises(ValueError, match="ring_release"):
        dataclasses.replace(Node.cisco7200_atm(), ring_release="bytes")
    node = dataclasses.replace(Node.cisco7200_atm(), ring_release="unit")
    assert Node.from_dict(node.to_dict()) == node


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_one_unit_packets_are_released_identically(seed):
    # every packet of one unit: the two rules are the same rule
    rng = np.random.default_rng(seed)
    n = 300
    t = np.sort(rng.random(n) * 0.2)
    s = rng.integers(40, 513, n)
    q = rng.integers(0, 2, n)
    base = Node.cisco7200_atm()
    a = run_kernel(base, *validate_arrivals(base, t, s, q))
    unit = dataclasses.replace(base, ring_release="unit")
    b = run_kernel(unit, *validate_arrivals(unit, t, s, q))
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 1000), st.lists(st.integers(1, 3000), min_size=1, max_size=6))
def test_unit_release_batches_equal_one_run(seed, cuts):
    sc = scenarios.real_distribution(n_ef_samples=200)
    # and the rule matters on this traffic: some packet enters the ring earlier than under rule 5
    assert_batches_equal_one_run(
        dataclasses.replace(sc.node, ring_release="unit"), sc.node, sc, seed, cuts
    )
