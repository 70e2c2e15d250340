"""pqlab.papers.tftant_slides.tftant_slides_ipdv_aggregation: mean |IPDV| with 1 and 20 EF streams.

A lone EF stream without BE has zero IPDV; the claims and the figure name the assumed unit.
"""

import matplotlib
import pytest

matplotlib.use("Agg")

import numpy as np  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from pq_streams_claim_rows import check_claims  # noqa: E402

from pqlab.node.framing import line_time_s  # noqa: E402
from pqlab.papers import kit  # noqa: E402
from pqlab.papers.tftant_slides import (  # noqa: E402
    tftant_slides_ipdv_aggregation as ipdv_aggregation,
)

N = 300
UNIT_S = line_time_s(110, "atm-aal5", 2e6)  # line time of the 128-byte EF frame


@pytest.fixture(scope="module")
def ipdv_agg():
    return ipdv_aggregation.compute(n_ef_samples=N, seeds=(1,))


def test_ipdv_aggregation(ipdv_agg):
    m = ipdv_agg["ipdv_abs_mean_mean"]
    # without BE a lone CBR EF stream, or equal-rate streams, keep a constant delay: no IPDV
    np.testing.assert_allclose(m.sel(be_traffic="none"), 0.0, atol=1e-9)
    assert (m.sel(be_traffic="mtu") > 1.0).all() and (m.sel(be_traffic="real") > 0).all()
    gmd = ipdv_agg["delay_gmd_mean"]
    np.testing.assert_allclose(gmd.sel(be_traffic="none"), 0.0, atol=1e-9)
    assert (gmd.sel(be_traffic=["real", "mtu"]) > 0.5).all()
    # no BE, one stream: its own line time at the C7200 and at the 2 path hops, 3 units; never less
    alone = ipdv_agg["delay_mean_mean"].sel(be_traffic="none")
    assert float(alone.sel(n_streams=1)) == pytest.approx(3.0)
    assert (alone >= 3.0 - 1e-9).all()
    np.testing.assert_allclose(ipdv_agg["paper_ipdv_abs_mean"], [2.5, 6.0])
    assert ipdv_agg.attrs["transmission_unit_s"] == pytest.approx(UNIT_S)
    claims = {c["quantity"]: c for c in kit.claims(ipdv_aggregation.ARTEFACT, ipdv_agg)}
    assert (
        claims["transmission_unit"]["value"] == pytest.approx(UNIT_S * 1e3)
        and claims["ef_load"]["value"] == 600
    )
    check_claims(kit.claims(ipdv_aggregation.ARTEFACT, ipdv_agg), "tftant_slides_ipdv_aggregation")
    fig = ipdv_aggregation.figure(ipdv_agg)
    assert isinstance(fig, Figure) and "tftant_slides_ipdv_aggregation" in fig.axes[0].get_title()
    assert fig.axes[0].get_xlabel() and fig.axes[0].get_ylabel()
    with pytest.raises(ValueError, match="be_traffic"):
        ipdv_aggregation.compute(n_ef_samples=10, seeds=(1,), be_traffic=("real", "real"))
    with pytest.raises(ValueError, match="ef_load_bps"):
        ipdv_aggregation.compute(n_ef_samples=10, seeds=(1,), ef_load_bps=0)


def test_ipdv_aggregation_figure_labels_the_assumed_unit(ipdv_agg):
    # issue 21: the slide never states the 0.636 ms EF transmission time the figure divides by
    fig = ipdv_aggregation.figure(ipdv_agg)
    assert "ASSUMED" in fig.axes[0].get_ylabel()
    assert any("ASSUMPTION" in t.get_text() for t in fig.texts)


def test_transmission_unit_is_not_an_echo_of_a_slide_value():
    """Issue 30 item 4: the slide gives no tx time; 0.636 ms (GLOBECOM'01's) was shown as an echoed
    setup value."""
    from pqlab.pipeline import report

    paper = report.load_paper_values()
    r = paper[
        (paper["artefact"] == "tftant_slides_ipdv_aggregation")
        & (paper["quantity"] == "transmission_unit")
    ]
    assert len(r) == 1
    assert r["rule"].iloc[0] == "not_checkable" and np.isnan(r["value"].iloc[0])


def test_mean_ipdv_rows_carry_the_spread_bound_and_the_be_size_input(ipdv_agg):
    """Issue 30 item 2: the 20-stream mean |IPDV| needs a reason with numbers, not a generic
    sentence."""
    from pqlab.measure.analysis import min_delay_std_for_mean_ipdv

    claims = {c["quantity"]: c for c in kit.claims(ipdv_aggregation.ARTEFACT, ipdv_agg)}
    why = claims["mean_ipdv_20_streams"]["reason"]
    facts = {f["name"]: f["value"] for f in why["facts"]}
    assert facts["needed"] == pytest.approx(min_delay_std_for_mean_ipdv(6.0))
    assert facts["std"] == pytest.approx(
        float(ipdv_agg["delay_std_mean"].sel(be_traffic="real", n_streams=20))
    )
    assert facts["mtu_ipdv"] == pytest.approx(
        float(ipdv_agg["ipdv_abs_mean_mean"].sel(be_traffic="mtu", n_streams=20))
    )
    assert why["kind"] == ("bound" if facts["std"] < facts["needed"] else "input")
    assert claims["mean_ipdv_ratio_20_to_1"]["reason"]["kind"] == "mechanism"
