"""pqlab.papers.tftant_be.tftant_be_fig4: the test page's Fig. 4 (geometric BE sizes), its claims
and figure."""

import matplotlib
import pytest

matplotlib.use("Agg")

import numpy as np  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from pq_streams_claim_rows import check_claims  # noqa: E402

from pqlab.papers.tftant_be import tftant_be_fig4  # noqa: E402
from pqlab.pipeline import report  # noqa: E402

N = 300


@pytest.fixture(scope="module")
def fig4():
    return tftant_be_fig4.compute(n_ef_samples=N, seeds=(1,), geometric_means_bytes=(100, 800))


def test_fig4_distributions(fig4):
    assert list(fig4["distribution"].values) == [
        "geometric 100",
        "geometric 800",
        tftant_be_fig4.REAL,
    ]
    np.testing.assert_allclose(fig4["frequency"].sum("bin"), 1.0)
    law = fig4["law_mean_bytes"].values
    assert (
        law[0] == pytest.approx(100, abs=1) and law[1] < 800
    )  # truncation at 1500 lowers the mean
    assert law[2] == pytest.approx(413.4, abs=0.5)  # the STAND-IN's mean
    assert np.isnan(fig4["untruncated_mean_bytes"].values[2])
    small, large = fig4.sel(distribution="geometric 100"), fig4.sel(distribution="geometric 800")
    assert float(large["mean_delay_mean"]) > float(small["mean_delay_mean"]) + 1  # > one unit
    assert float(large["span_mean"]) > float(small["span_mean"])
    # every EF packet waits at least its own line time through the node and the 2-hop path
    assert float(fig4["delay_units"].min()) >= 3.0 - 1e-9
    assert fig4.attrs["transmission_unit_s"] == pytest.approx(0.636e-3)
    check_claims(tftant_be_fig4.claims(fig4), "tftant_be_fig4")
    fig = tftant_be_fig4.figure(fig4)
    assert isinstance(fig, Figure) and "tftant_be_fig4" in fig._suptitle.get_text()
    assert all(ax.get_xlabel() and ax.get_ylabel() for ax in fig.axes)


def test_fig4_bad_arguments():
    with pytest.raises(ValueError, match="geometric_means_bytes"):
        tftant_be_fig4.compute(n_ef_samples=10, seeds=(1,), geometric_means_bytes=(20,))
    with pytest.raises(ValueError, match="geometric_means_bytes"):
        tftant_be_fig4.compute(n_ef_samples=10, seeds=(1,), geometric_means_bytes=(100, 100))
    with pytest.raises(ValueError, match="bin_units"):
        tftant_be_fig4.compute(n_ef_samples=10, seeds=(1,), bin_units=0)
    with pytest.raises(ValueError, match="seeds"):
        tftant_be_fig4.compute(n_ef_samples=10, seeds=())


def test_same_experiment_rows_point_to_globecom_artefacts():
    paper = report.load_paper_values()
    claims = tftant_be_fig4.same_experiment_claims()
    keys = set(zip(paper["artefact"], paper["quantity"]))
    for c in claims:
        assert (c["artefact"], c["quantity"]) in keys
        assert c["value"] is None and c["shape_ok"] is None
        pointed = c["note"].split("same experiment as ")[1].split(" ")[0]
        assert pointed in set(paper["artefact"]) and pointed.startswith("globecom01_")
