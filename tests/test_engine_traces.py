"""Hand-computed packet traces: every departure time checked exactly (node contract rules 1-5).

Most traces use ``framing="none"`` and a line of 8000 bit/s, so a packet of
``s`` bytes takes exactly ``s`` milliseconds on the line.
"""

import numpy as np
import pytest

from pqlab import Node, Queue, simulate_arrivals
from pqlab.node.engine import KEPT, POLICED, QUEUE_FULL

LINE_BPS = 8000.0  # 1 byte per millisecond


def node(queues, ring=100, particle=1000, framing="none", rate=LINE_BPS):
    return Node(
        line_rate_bps=rate,
        framing=framing,
        ring_limit_particles=ring,
        particle_bytes=particle,
        queues=tuple(queues),
    )


def run(n, packets):
    """packets: list of (arrival_s, size_bytes, queue)."""
    t, s, q = zip(*packets)
    return simulate_arrivals(n, np.array(t, float), np.array(s), np.array(q))


def test_lone_packet():
    ds = run(node([Queue("wfq", 10, weight_bps=1e3)]), [(1.0, 100, 0)])
    assert ds.ring_entry.values.tolist() == [1.0]
    assert ds.departure.values.tolist() == [1.1]
    assert ds["drop"].values.tolist() == [KEPT]


def test_128_byte_packet_takes_0636_ms_on_atm_aal5_at_2mbps():
    ds = simulate_arrivals(Node.cisco7200_atm(), [0.0], [128], [0])
    # 128 + 16 bytes -> 3 cells of 53 bytes = 159 bytes = 1272 bits at 2 Mbit/s
    assert ds.departure.values[0] == pytest.approx(0.636e-3, abs=1e-15)


def test_back_to_back_packets_share_the_line_fcfs():
    ds = run(
        node([Queue("wfq", 10, weight_bps=1e3)]), [(0.0, 100, 0), (0.0, 200, 0), (0.05, 50, 0)]
    )
    # all enter the (large) ring at arrival; the line sends them back to back
    assert ds.ring_entry.values.tolist() == [0.0, 0.0, 0.05]
    np.testing.assert_allclose(ds.departure.values, [0.1, 0.3, 0.35], rtol=0, atol=1e-15)


def test_back_to_back_with_one_particle_ring_waits_in_queue():
    ds = run(
        node([Queue("wfq", 10, weight_bps=1e3)], ring=1),
        [(0.0, 100, 0), (0.0, 200, 0), (0.0, 50, 0)],
    )
    np.testing.assert_allclose(ds.ring_entry.values, [0.0, 0.1, 0.3], atol=1e-15)
    np.testing.assert_allclose(ds.departure.values, [0.1, 0.3, 0.35], atol=1e-15)


def test_ring_overshoot_to_seven_particles_on_the_cisco_node():
    """Two 1500-byte BE packets and one EF packet: 3 + 1 + 3 = 7 particles in a 5-particle ring."""
    n = Node.cisco7200_atm()
    # BE, EF, BE, BE all at t = 0 (input order); queue 0 = EF priority, 1 = BE WFQ
    ds = simulate_arrivals(n, [0.0, 0.0, 0.0, 0.0], [1500, 128, 1500, 1500], [1, 0, 1, 1])
    be_s = 53 * 32 * 8 / 2e6  # ceil(1516 / 48) = 32 cells: 6.784 ms
    ef_s = 0.636e-3
    # BE1 (3 particles, 0 in use) enters, EF (3 in use) enters, BE2 (4 in use) enters -> 7 in use;
    # BE3 must wait until BE1 leaves (7 - 3 = 4 < 5).
    np.testing.assert_allclose(ds.ring_entry.values, [0.0, 0.0, 0.0, be_s], atol=1e-15)
    np.testing.assert_allclose(
        ds.departure.values, [be_s, be_s + ef_s, 2 * be_s + ef_s, 3 * be_s + ef_s], atol=1e-15
    )
    assert be_s == pytest.approx(6.784e-3, abs=1e-15)


def test_priority_overtakes_queued_be_but_not_the_ring():
    n = node([Queue("priority", 10), Queue("wfq", 10, weight_bps=1e3)], ring=1, particle=2000)
    ds = run(n, [(0.0, 100, 1), (0.01, 100, 1), (0.02, 50, 0)])
    # BE A is on the line until 0.1; EF arrives later than BE B but enters the ring first
    np.testing.assert_allclose(ds.ring_entry.values, [0.0, 0.15, 0.1], atol=1e-15)
    np.testing.assert_allclose(ds.departure.values, [0.1, 0.25, 0.15], atol=1e-15)


def test_wfq_order_for_two_weights():
    """Weights 1024 and 512 bit/s, 128-byte packets: tags advance by 1 and 2 exactly.

    X enters the ring (V = tag 1). Then a1..a4 (queue 0) and b1..b4 (queue 1) arrive,
    interleaved: queue 0 tags 2, 3, 4, 5; queue 1 tags 3, 5, 7, 9. Ties go to queue 0.
    """
    n = node(
        [Queue("wfq", 10, weight_bps=1024.0), Queue("wfq", 10, weight_bps=512.0)],
        ring=1,
        particle=1000,
        rate=8192.0,
    )
    pkts = [(0.0, 128, 0)]
    for k in range(4):
        pkts += [(0.001, 128, 1), (0.001, 128, 0)]
    ds = run(n, pkts)
    labels = ["X"] + [f"{q}{k}" for k in range(1, 5) for q in ("b", "a")]
    order = [labels[i] for i in np.argsort(ds.departure.values)]
    assert order == ["X", "a1", "a2", "b1", "a3", "a4", "b2", "b3", "b4"]
    # 128 bytes at 8192 bit/s = 0.125 s each, back to back
    np.testing.assert_allclose(np.sort(ds.departure.values), 0.125 * np.arange(1, 10), atol=1e-12)


def test_wfq_tie_goes_to_the_lower_queue_index():
    n = node(
        [Queue("wfq", 10, weight_bps=1024.0), Queue("wfq", 10, weight_bps=1024.0)],
        ring=1,
        rate=8192.0,
    )
    # blocker, then equal tags in queue 1 (arrives first) and queue 0
    ds = run(n, [(0.0, 128, 0), (0.001, 128, 1), (0.002, 128, 0)])
    assert ds.departure.values[2] < ds.departure.values[1]


def test_policed_burst():
    # 1000 bytes/s, bucket 300 bytes full at t = 0
    n = node([Queue("priority", 100, police_rate_bps=8000.0, police_burst_bytes=300.0)])
    ds = run(n, [(0.0, 100, 0)] * 5 + [(0.1, 100, 0), (0.15, 100, 0), (0.25, 100, 0)])
    # 3 pass (300 bytes), 2 policed; +100 bytes by 0.1 s -> pass; only 50 by 0.15 -> policed;
    # 0.25: 50 + 100 = 150 -> pass
    assert ds["drop"].values.tolist() == [KEPT] * 3 + [POLICED] * 2 + [KEPT, POLICED, KEPT]
    assert np.isnan(ds.departure.values[3]) and np.isnan(ds.ring_entry.values[3])
    np.testing.assert_allclose(
        ds.departure.values[[0, 1, 2, 5, 7]], [0.1, 0.2, 0.3, 0.4, 0.5], atol=1e-12
    )


def test_policer_at_exactly_its_rate_drops_nothing():
    # 300 kbit/s CBR of 128-byte packets into a 300 kbit/s policer with a one-packet bucket
    n = node([Queue("priority", 10, police_rate_bps=300e3, police_burst_bytes=128.0)], rate=2e6)
    t = np.arange(10_000) * (128 * 8 / 300e3)
    ds = simulate_arrivals(n, t, np.full(t.size, 128), np.zeros(t.size, int))
    assert int((ds["drop"] != KEPT).sum()) == 0


def test_tail_drop_at_the_queue_limit():
    n = node([Queue("wfq", 2, weight_bps=1e3)], ring=1)
    ds = run(n, [(0.0, 100, 0), (0.0, 100, 0), (0.0, 100, 0), (0.0, 100, 0), (0.15, 100, 0)])
    # first in the ring, two wait (limit 2), fourth dropped; at 0.15 one slot is free again
    assert ds["drop"].values.tolist() == [KEPT, KEPT, KEPT, QUEUE_FULL, KEPT]
    np.testing.assert_allclose(ds.departure.values[[0, 1, 2, 4]], [0.1, 0.2, 0.3, 0.4], atol=1e-12)


def test_completion_at_the_same_instant_as_an_arrival_is_handled_first():
    n = node([Queue("wfq", 1, weight_bps=1e3)], ring=1)
    # A on the line until exactly 0.1; B waits (queue full); C arrives at 0.1:
    # A's completion moves B to the ring first, so C finds room and is kept.
    ds = run(n, [(0.0, 100, 0), (0.05, 100, 0), (0.1, 100, 0)])
    assert ds["drop"].values.tolist() == [KEPT, KEPT, KEPT]
    np.testing.assert_allclose(ds.departure.values, [0.1, 0.2, 0.3], atol=1e-12)


def test_policed_tokens_are_taken_even_if_the_queue_then_drops():
    """Rule 1 precedes rule 2: a packet that passes the policer takes its tokens."""
    n = node([Queue("priority", 1, police_rate_bps=8.0, police_burst_bytes=300.0)], ring=1)
    ds = run(n, [(0.0, 100, 0), (0.0, 100, 0), (0.0, 100, 0), (0.0, 100, 0)])
    # first -> ring, second waits, third passes the policer (100 left) but finds the queue full,
    # fourth finds 0 tokens: policed
    assert ds["drop"].values.tolist() == [KEPT, KEPT, QUEUE_FULL, POLICED]


def test_empty_input_gives_an_empty_dataset():
    ds = simulate_arrivals(Node.cisco7200_atm(), [], [], [])
    assert ds.sizes["packet"] == 0
    for name in ("arrival", "size", "queue", "ring_entry", "departure", "drop"):
        assert "units" in ds[name].attrs and "long_name" in ds[name].attrs
