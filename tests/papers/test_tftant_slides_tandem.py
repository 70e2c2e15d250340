"""pqlab.papers.tftant_slides.tftant_slides_tandem: EF through 1..n congested nodes, its claims and
figure.

A tandem's end-to-end delay is the sum of what each node adds.
"""

import matplotlib
import pytest

matplotlib.use("Agg")

import numpy as np  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from pq_streams_claim_rows import check_claims  # noqa: E402

from pqlab.papers import kit  # noqa: E402
from pqlab.papers.tftant_slides import tftant_slides_tandem  # noqa: E402

N = 300


@pytest.fixture(scope="module")
def tandem():
    return tftant_slides_tandem.compute(
        n_ef_samples=N,
        seeds=(1,),
        n_nodes=3,
        ef_frames_bytes=(128, 1024),
        n_streams=(1, 3),
        propagation_s=1e-3,
    )


def test_tandem_delays_add_up(tandem):
    assert (
        float(tandem["sum_error"].max()) < 1e-12
    )  # each node's own record adds up to the end-to-end delay
    assert {
        tandem[v].attrs["units"]
        for v in ("increment", "end_to_end_mean", "aggregation_contribution_mean", "ef_line_time")
    } == {"s"}
    inc, e2e = tandem["increment_mean"], tandem["end_to_end_mean"]
    # end-to-end after node i = sum of the increments up to i + the propagation between the nodes
    expected = inc.cumsum("node") + (tandem["node"] - 1) * tandem.attrs["propagation_s"]
    np.testing.assert_allclose(e2e, expected, rtol=1e-9)
    assert (
        inc > tandem["ef_line_time"]
    ).all()  # every congested node adds more than the EF line time
    assert (tandem["ring_time_mean"] <= inc + 1e-12).all()
    assert (tandem["loss_mean"] == 0).all()
    assert float(tandem["loss_mean"].sum()) == 0
    np.testing.assert_allclose(
        tandem["aggregation_contribution_mean"], e2e.sel(n_streams=3) - e2e.sel(n_streams=1)
    )
    claims = {c["quantity"]: c for c in kit.claims(tftant_slides_tandem.ARTEFACT, tandem)}
    assert claims["delay_increments_add_up"]["shape_ok"] is True
    check_claims(claims.values(), "tftant_slides_tandem")
    fig = tftant_slides_tandem.figure(tandem)
    assert isinstance(fig, Figure) and "tftant_slides_tandem" in fig._suptitle.get_text()
    assert all(ax.get_xlabel() and ax.get_ylabel() for ax in fig.axes)


def test_tandem_footer_states_the_be_size_law_the_runs_use(tandem):
    """Issue 30 item 7: the footer said "one size per stream" while the runs draw one size per
    packet."""

    footer = " ".join(t.get_text() for t in tftant_slides_tandem.figure(tandem).texts)
    assert "one size per" not in footer
    assert "by packet count (one draw per packet" in footer


def test_tandem_bad_arguments():
    with pytest.raises(ValueError, match="n_nodes"):
        tftant_slides_tandem.compute(n_ef_samples=10, seeds=(1,), n_nodes=0)
    with pytest.raises(ValueError, match="propagation_s"):
        tftant_slides_tandem.compute(n_ef_samples=10, seeds=(1,), propagation_s=-1e-3)
    with pytest.raises(ValueError, match="ef_frames_bytes"):
        tftant_slides_tandem.compute(n_ef_samples=10, seeds=(1,), ef_frames_bytes=(10,))


def test_aggregation_contribution_row_gives_its_size_per_frame(tandem):
    """Issue 30 item 2: a differing qualitative row needs a reason with numbers."""
    claims = {c["quantity"]: c for c in kit.claims(tftant_slides_tandem.ARTEFACT, tandem)}
    row = claims["smaller_ef_larger_aggregation_contribution"]
    if row["shape_ok"]:
        assert row["reason"] is None
    else:
        facts = {f["name"]: f["value"] for f in row["reason"]["facts"]}
        c = tandem["aggregation_contribution_mean"].isel(node=-1) * 1e3  # ms
        assert facts["c_small"] == pytest.approx(float(c.sel(ef_frame_bytes=128)))
        assert facts["c_large"] == pytest.approx(float(c.sel(ef_frame_bytes=1024)))
        assert "h_small" not in facts  # one seed: no CI to state
