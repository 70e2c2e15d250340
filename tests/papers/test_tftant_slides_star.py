"""pqlab.papers.tftant_slides.tftant_slides_star: the slides' "EF queue service rate" test (delay vs
STAR, WFQ).

300 EF packets, one seed: at STAR 1 the EF queue is overloaded; above the STAR where an EF tag
step falls below one BE tag step WFQ gives PQ's delay.
"""

import matplotlib
import matplotlib.pyplot as plt
import pytest
from pq_vs_wfq_judged import judged

from pqlab.papers import presets
from pqlab.papers.tftant_slides import tftant_slides_star as star_module
from pqlab.papers.tftant_wfq.pq_vs_wfq_testbed import wfq_tag_s

matplotlib.use("Agg")

N = 300
SEEDS = (1,)
BE_TX_S = 22 * 53 * 8 / 2e6  # 1000-byte IP packet, AAL5 + LLC/SNAP: 22 cells (4.664 ms)


def test_star_overload_at_one_and_pq_reached_above_the_tag_threshold():
    star = star_module.compute(N, SEEDS, stars=(1.0, 2.0, 4.0), frame_sizes=(128, 1024))
    assert float(star["loss"].sel(star=1.0, ef_frame_bytes=1024).max()) > 0.1
    assert float(star["star_one_be_tag"].sel(ef_frame_bytes=1024)) == pytest.approx(
        1024 * 2e6 / (300e3 * 2006)
    )
    for f in (128, 1024):
        assert float(star["delay_mean"].sel(star=4.0, ef_frame_bytes=f)) == pytest.approx(
            float(star["pq_delay_mean"].sel(ef_frame_bytes=f)), abs=1e-9
        )
    # at STAR 2 a 1024-byte tag (1006 x 8 / 600 kbit/s = 13.4 ms) still lets 2 BE packets (tags 5.7
    # ms) ahead
    assert float(
        star["delay_mean"].sel(star=2.0, ef_frame_bytes=1024)
        - star["pq_delay_mean"].sel(ef_frame_bytes=1024)
    ) == pytest.approx(2 * BE_TX_S, abs=1e-9)
    assert float(star["ef_ip_rate"].sel(ef_frame_bytes=1024)) == pytest.approx(
        300e3 * 1006 / 1024
    )  # bit/s


@pytest.mark.parametrize("frame", [128, 1024, 1518])
def test_the_tag_threshold_is_the_star_where_the_scenarios_tag_steps_are_equal(frame):
    """The EF weight is STAR x the EF rate of IP packets (tftant_star, accounting "ip"): at
    star_one_be_tag an EF
    finish-tag step equals one BE tag step (the former formula took the weight as STAR x the frame
    rate).
    """
    s = float(star_module.star_one_be_tag(frame))
    sc = presets.tftant_star(star=s, ef_frame_bytes=frame)
    ef_w, be_w = (sc.node.queues[q].weight_bps for q in (presets.EF_QUEUE, presets.BE_QUEUE))
    assert wfq_tag_s(presets.ef_ip_bytes(frame), ef_w) == pytest.approx(
        wfq_tag_s(1000, be_w), rel=1e-12
    )


@pytest.fixture(scope="module")
def star():
    return star_module.compute(
        N, SEEDS, stars=(1.0, 2.0, 3.0, 4.0), frame_sizes=(128, 256, 1024, 1518)
    )


def test_the_figure_states_the_weight_the_code_uses(star):
    """Issue 30: the EF WFQ weight is STAR x the EF rate of IP packets (258 kbit/s at 128 bytes),
    not x 300."""
    fig = star_module.figure(star)
    text = " ".join([t.get_text() for t in fig.findobj(matplotlib.text.Text)])
    plt.close(fig)
    assert "x 300 kbit/s" not in text and "/ 300 kbit/s" not in text
    for f, kbps in ((128, 300 * 110 / 128), (1518, 300 * 1500 / 1518)):
        assert f"{f} B: {kbps:.0f}" in text


def test_the_misses_carry_numbers(star):
    j = judged(star_module.ARTEFACT.id, star_module.claims(star))
    for q in (
        "delay_flat_small_packets",
        "no_decrease_above_3",
        "ipdv_independent_of_star",
        "max_ipdv_one_be_tx",
    ):
        assert j[q]["verdict"] == "differs" and j[q]["reason"], q
    assert j["max_ipdv_one_be_tx"]["shape_ok"] is None


def test_bad_arguments_name_the_parameter():
    with pytest.raises(ValueError, match="stars"):
        star_module.compute(N, stars=[0.0])
