"""pqlab.papers: the papers' stated test bed, once; the presets derive from it."""

import pytest

from pqlab import Node, Queue, papers, scenarios
from pqlab.node.framing import line_time_s


def test_the_stated_test_bed_is_the_c7200_preset():
    assert papers.PAPERS.node() == Node.cisco7200_atm()
    assert papers.PAPERS.replace(ring_limit_particles=16).node() == Node.cisco7200_atm(
        ring_limit_particles=16
    )
    assert papers.cisco7200_atm(ring_limit_particles=3) == Node.cisco7200_atm(
        ring_limit_particles=3
    )
    assert scenarios.paper_path().hops[0].rate_bps == papers.PAPERS.line_rate_bps


def test_tftant_nodes_derive_from_it():
    wfq = scenarios.tftant_node("wfq")
    assert wfq == Node(
        2e6,
        "atm-aal5",
        5,
        512,
        (Queue("wfq", 10, weight_bps=400e3), Queue("wfq", 64, weight_bps=1.6e6)),
    )
    pq = scenarios.tftant_node("pq", ring_limit_particles=2)
    assert pq == Node(
        2e6,
        "atm-aal5",
        2,
        512,
        (Queue("priority", 10, police_rate_bps=400e3), Queue("wfq", 64, weight_bps=1.6e6)),
    )
    with pytest.raises(ValueError, match="ef_scheduler"):
        papers.PAPERS.replace(ef_scheduler="fifo").node()


def test_transmission_unit_is_the_line_time_of_the_110_byte_ef_packet():
    assert papers.EF_IP_BYTES == 110 == papers.EF_FRAME_BYTES - papers.ETHERNET_FRAME_OVERHEAD_BYTES
    assert papers.transmission_unit_s() == pytest.approx(
        0.636e-3, rel=1e-12
    )  # 3 ATM cells at 2 Mbit/s
    eth = Node(2e6, "ethernet", 5, 512, (Queue("priority", 10), Queue("wfq", 64, weight_bps=1e6)))
    assert (
        papers.transmission_unit_s(eth)
        == line_time_s(110, "ethernet", 2e6)
        != line_time_s(128, "ethernet", 2e6)
    )
    assert papers.transmission_units(papers.transmission_unit_s(eth), eth) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="ip_bytes"):
        papers.transmission_unit_s(ip_bytes=0)
    with pytest.raises(ValueError, match="node"):
        papers.transmission_unit_s("c7200")


def test_the_test_bed_facts_that_prose_writes_come_from_its_one_definition():
    stated = papers.PAPERS
    assert stated.line_text == "2 Mbit/s"
    assert stated.replace(line_rate_bps=34e6).line_text == "34 Mbit/s"
    assert stated.atm_cells() == 3  # the 110-byte EF packet (the transmission unit's 3 cells)
    assert stated.atm_cells(1500) == 32
    assert stated.atm_cells(1500) * 53 * 8 / stated.line_rate_bps == line_time_s(
        1500, "atm-aal5", 2e6
    )
    with pytest.raises(ValueError, match="atm-aal5"):
        stated.replace(framing="ethernet").atm_cells()
    with pytest.raises(ValueError, match="ip_bytes"):
        stated.atm_cells(0)
