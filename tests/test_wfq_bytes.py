"""What a WFQ finish tag counts: IP bytes (rule 2) or the line's wire bytes (``Node.wfq_bytes``).

Issue 21 item 6: the EF weight counted IP bytes, the EF rate Ethernet frames, the line ATM
cells. Hand trace on an Ethernet line of 8 bit/s (1 byte/s; wire = IP + 38 bytes), a ring of
one packet, two WFQ queues of equal weight.
"""

import dataclasses

import numpy as np
import pytest

import pqlab
from pqlab import Node, Queue


def _node(wfq_bytes):
    return Node(
        8.0,
        "ethernet",
        1,
        65_535,
        (Queue("wfq", 10, weight_bps=8), Queue("wfq", 10, weight_bps=8)),
        wfq_bytes=wfq_bytes,
    )


# A (q1, 100 B) takes the empty ring at 0; then B, C, D (q0, 10 B) and E (q1, 40 B) wait.
ARRIVAL, SIZE, QUEUE = [0.0] * 5, [100, 10, 10, 10, 40], [1, 0, 0, 0, 1]


def test_ip_tags_hand_trace():
    # V = 100 after A; tags B 110, C 120, D 130, E 140: B, C, D, E; line times 48, 48, 48, 78 s
    ds = pqlab.simulate_arrivals(_node("ip"), ARRIVAL, SIZE, QUEUE)
    np.testing.assert_array_equal(ds.departure.values, [138.0, 186.0, 234.0, 282.0, 360.0])


def test_wire_tags_hand_trace():
    # V = 138 after A; tags B 186, C 234, D 282, E 138 + 78 = 216: B, E, C, D
    ds = pqlab.simulate_arrivals(_node("wire"), ARRIVAL, SIZE, QUEUE)
    np.testing.assert_array_equal(ds.departure.values, [138.0, 186.0, 312.0, 360.0, 264.0])


def test_default_and_validation():
    assert Node.cisco7200_atm().wfq_bytes == "ip"
    with pytest.raises(ValueError, match="wfq_bytes"):
        dataclasses.replace(Node.cisco7200_atm(), wfq_bytes="cells")
    node = dataclasses.replace(Node.cisco7200_atm(), wfq_bytes="wire")
    assert Node.from_dict(node.to_dict()) == node


def test_star_counts_its_rates_and_the_tags_in_one_unit():
    from pqlab import scenarios

    # 1024-byte frames: IP 1006 bytes, 22 cells = 1166 wire bytes; EF 300 kbit/s of frames
    ip = scenarios.tftant_star(star=2.0, ef_frame_bytes=1024, n_ef_samples=10)
    assert ip.node.wfq_bytes == "ip"
    assert ip.node.queues[0].weight_bps == pytest.approx(2.0 * 300e3 * 1006 / 1024)
    wire = scenarios.tftant_star(star=2.0, ef_frame_bytes=1024, n_ef_samples=10, accounting="wire")
    assert wire.node.wfq_bytes == "wire"
    assert wire.node.queues[0].weight_bps == pytest.approx(2.0 * 300e3 * 1166 / 1024)
    frames = scenarios.tftant_star(
        star=2.0, ef_frame_bytes=1024, n_ef_samples=10, accounting="frames"
    )
    assert (
        frames.node.queues[0].weight_bps == pytest.approx(600e3) and frames.node.wfq_bytes == "ip"
    )
    for sc in (ip, wire, frames):  # the BE queue gets the remaining bandwidth
        assert sum(q.weight_bps for q in sc.node.queues) == pytest.approx(2e6)
    with pytest.raises(ValueError, match="accounting"):
        scenarios.tftant_star(star=1.0, accounting="cells")
