"""pqlab.papers.tftant_slides.tftant_slides_ipdv_size: IPDV per EF frame size, its claims and
figure.

Without BE equal-rate CBR streams keep constant delays (no IPDV); with BE the largest |IPDV| is
bounded by a few BE MTU line times.
"""

import matplotlib
import pytest

matplotlib.use("Agg")

import numpy as np  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from pq_streams_claim_rows import check_claims  # noqa: E402

from pqlab.node.framing import line_time_s  # noqa: E402
from pqlab.papers import kit  # noqa: E402
from pqlab.papers.tftant_slides import tftant_slides_ipdv_size  # noqa: E402

N = 300


@pytest.fixture(scope="module")
def ipdv_size():
    return tftant_slides_ipdv_size.compute(n_ef_samples=N, seeds=(1,), ef_frames_bytes=(128, 1518))


def test_ipdv_size(ipdv_size):
    s = ipdv_size["ipdv_std_mean"]
    assert s.attrs["units"] == "s"
    np.testing.assert_allclose(s.sel(congestion=False), 0.0, atol=1e-12)  # no BE: constant delays
    assert (s.sel(congestion=True) > 0.5e-3).all()  # BE in the ring moves the delay
    mx = ipdv_size["jitter_max_mean"].sel(congestion=True)
    assert (mx >= ipdv_size["jitter_p999_mean"].sel(congestion=True)).all()
    assert (mx < 2 * line_time_s(1500, "atm-aal5", 2e6) * 5).all()  # bounded by a few BE MTU times
    check_claims(kit.claims(tftant_slides_ipdv_size.ARTEFACT, ipdv_size), "tftant_slides_ipdv_size")
    fig = tftant_slides_ipdv_size.figure(ipdv_size)
    assert isinstance(fig, Figure) and "tftant_slides_ipdv_size" in fig._suptitle.get_text()
    assert all(ax.get_xlabel() and ax.get_ylabel() for ax in fig.axes)
    with pytest.raises(ValueError, match="ef_aggregate_bps"):
        tftant_slides_ipdv_size.compute(n_ef_samples=10, seeds=(1,), ef_aggregate_bps=-1)


def test_std_growth_row_names_the_size_where_aggregation_does_not_raise_it(ipdv_size):
    """Issue 30 item 2: a differing qualitative row needs a reason with numbers."""
    row = [
        c
        for c in kit.claims(tftant_slides_ipdv_size.ARTEFACT, ipdv_size)
        if c["quantity"] == "ipdv_std_grows_with_aggregation_and_congestion"
    ][0]
    if row["shape_ok"]:
        assert row["reason"] is None
        return
    facts = {f["name"]: f["value"] for f in row["reason"]["facts"]}
    s = ipdv_size["ipdv_std_mean"].sel(congestion=True) * 1e3  # ms
    gain = (s.isel(n_streams=-1) - s.isel(n_streams=0)).values
    k = int(np.argmin(gain))
    assert facts["one"] == pytest.approx(float(s.isel(n_streams=0).values[k]))
    assert facts["both"] == pytest.approx(float(s.isel(n_streams=-1).values[k]))
    assert facts["both"] <= facts["one"] and facts["quiet"] == 0
