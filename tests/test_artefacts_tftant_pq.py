"""TF-TANT test page "PQ performance with multiple BE streams" and the slides on aggregation and congestion.

Small runs (a few hundred EF packets, one seed) checked against what the mechanism fixes
exactly: CBR streams whose rates sum to the policing rate are never policed, a lone EF
stream without BE has zero IPDV, a tandem's end-to-end delay is the sum of what each node
adds, the token-bucket depth of hand-built arrivals.
"""

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

from pqlab.pipeline import report  # noqa: E402
from pqlab import scenarios  # noqa: E402
from pqlab.papers.artefacts import tftant_pq  # noqa: E402
from pqlab.papers.artefacts.claims import tftant_pq as tftant_pq_claims  # noqa: E402
from pqlab.papers.figures import tftant_pq as figures  # noqa: E402
from pqlab.node.framing import line_time_s  # noqa: E402

N = 300
EF_IP = 110  # IP length of a 128-byte EF frame
UNIT_S = line_time_s(EF_IP, "atm-aal5", 2e6)


@pytest.fixture(scope="module")
def fig4():
    return tftant_pq.tftant_be_fig4(n_ef_samples=N, seeds=(1,), geometric_means_bytes=(100, 800))


@pytest.fixture(scope="module")
def loss():
    return tftant_pq.tftant_slides_loss(n_ef_samples=2_000, seeds=(1,), n_streams=(1, 4, 20))


@pytest.fixture(scope="module")
def ipdv_agg():
    return tftant_pq.tftant_slides_ipdv_aggregation(n_ef_samples=N, seeds=(1,))


@pytest.fixture(scope="module")
def tandem():
    return tftant_pq.tftant_slides_tandem(n_ef_samples=N, seeds=(1,), n_nodes=3, ef_frames_bytes=(128, 1024),
                                          n_streams=(1, 3), propagation_s=1e-3)


@pytest.fixture(scope="module")
def ipdv_size():
    return tftant_pq.tftant_slides_ipdv_size(n_ef_samples=N, seeds=(1,), ef_frames_bytes=(128, 1518))


@pytest.fixture(scope="module")
def paper():
    return report.load_paper_values()


POINTERS = {"fig2_not_linear", "fig3_same_shape_different_minimum", "fig6_inverse_probability"}


def _check_claims(claims, artefact, paper):
    """Every paper row of ``artefact`` has a claim with the paper's unit; numeric rows a value.

    The pointer rows of ``tftant_be_fig4`` come from ``tftant_be_same_experiment_claims``
    (:mod:`pqlab.papers.artefacts.claims.tftant_pq`).
    """
    rows = paper[(paper["artefact"] == artefact) & ~paper["quantity"].isin(POINTERS)]
    got = {c["quantity"]: c for c in claims}
    assert set(rows["quantity"]) <= set(got), set(rows["quantity"]) - set(got)
    for q, unit, value in zip(rows["quantity"], rows["unit"], rows["value"]):
        assert got[q]["unit"] == unit, q
        if np.isfinite(value):
            assert got[q]["value"] is not None, q
        else:
            assert got[q]["shape_ok"] is not None, q
    assert all(c["artefact"] == artefact and c["note"] for c in claims)


# --------------------------------------------------------------------------- helpers


def test_ef_split_scenario_splits_the_load_and_polices_at_it():
    sc = tftant_pq.ef_split_scenario(4, 1.2e6, n_ef_samples=100)
    ef = [s for s in sc.streams if s.queue == scenarios.EF_QUEUE]
    assert [s.flow for s in ef] == [0, 1, 2, 3]
    np.testing.assert_allclose([s.rate_bps for s in ef], 1.2e6 / 4 * EF_IP / 128)  # frames -> IP
    assert sc.node.queues[scenarios.EF_QUEUE].police_rate_bps == 1.2e6
    assert sc.node.queues[scenarios.EF_QUEUE].police_burst_bytes == pytest.approx(1.2e6 * 0.2 / 8)
    assert sc.streams[0].queue == scenarios.BE_QUEUE  # BE generated first: paired comparisons
    assert len([s for s in tftant_pq.ef_split_scenario(3, 3e5, be_traffic="none").streams
                if s.queue == scenarios.BE_QUEUE]) == 0
    # n_ef_samples counts the reference stream, or all EF streams
    one = tftant_pq.ef_split_scenario(4, 1.2e6, n_ef_samples=400)
    total = tftant_pq.ef_split_scenario(4, 1.2e6, n_ef_samples=400, total_samples=True)
    assert one.duration_s - one.warmup_s == pytest.approx(4 * (total.duration_s - total.warmup_s))
    with pytest.raises(ValueError, match="n_streams"):
        tftant_pq.ef_split_scenario(0, 1e6)
    with pytest.raises(ValueError, match="be_traffic"):
        tftant_pq.ef_split_scenario(1, 1e6, be_traffic="uniform")


def test_min_bucket_bytes_by_hand():
    rate = 8_000.0  # 1000 bytes/s
    # one packet: its size; two at once: both; at exactly the rate, one packet's worth
    assert tftant_pq.min_bucket_bytes([0.0], [100], rate) == 100
    assert tftant_pq.min_bucket_bytes([1.0, 1.0], [100, 150], rate) == 250
    assert tftant_pq.min_bucket_bytes(np.arange(10) * 0.1, [100] * 10, rate) == pytest.approx(100)
    # a burst of 3 after a quiet second: the quiet time does not help a bucket capped at its depth
    assert tftant_pq.min_bucket_bytes([0.0, 1.0, 1.0, 1.0], [100] * 4, rate) == 300
    assert tftant_pq.min_bucket_bytes([], [], rate) == 0.0
    with pytest.raises(ValueError, match="rate_bps"):
        tftant_pq.min_bucket_bytes([0.0], [1], 0.0)


# --------------------------------------------------------------------------- tftant_be_fig4


def test_fig4_distributions(fig4, paper):
    assert list(fig4["distribution"].values) == ["geometric 100", "geometric 800", tftant_pq.REAL]
    np.testing.assert_allclose(fig4["frequency"].sum("bin"), 1.0)
    law = fig4["law_mean_bytes"].values
    assert law[0] == pytest.approx(100, abs=1) and law[1] < 800  # truncation at 1500 lowers the mean
    assert law[2] == pytest.approx(413.4, abs=0.5)  # the STAND-IN's mean
    assert np.isnan(fig4["untruncated_mean_bytes"].values[2])
    small, large = fig4.sel(distribution="geometric 100"), fig4.sel(distribution="geometric 800")
    assert float(large["mean_delay_mean"]) > float(small["mean_delay_mean"]) + 1  # > one unit
    assert float(large["span_mean"]) > float(small["span_mean"])
    # every EF packet waits at least its own line time through the node and the 2-hop path
    assert float(fig4["delay_units"].min()) >= 3.0 - 1e-9
    assert fig4.attrs["transmission_unit_s"] == pytest.approx(0.636e-3)
    _check_claims(tftant_pq_claims.tftant_be_fig4_claims(fig4), "tftant_be_fig4", paper)
    fig = figures.tftant_be_fig4(fig4)
    assert isinstance(fig, Figure) and "tftant_be_fig4" in fig._suptitle.get_text()
    assert all(ax.get_xlabel() and ax.get_ylabel() for ax in fig.axes)


def test_fig4_bad_arguments():
    with pytest.raises(ValueError, match="geometric_means_bytes"):
        tftant_pq.tftant_be_fig4(n_ef_samples=10, seeds=(1,), geometric_means_bytes=(20,))
    with pytest.raises(ValueError, match="geometric_means_bytes"):
        tftant_pq.tftant_be_fig4(n_ef_samples=10, seeds=(1,), geometric_means_bytes=(100, 100))
    with pytest.raises(ValueError, match="bin_units"):
        tftant_pq.tftant_be_fig4(n_ef_samples=10, seeds=(1,), bin_units=0)
    with pytest.raises(ValueError, match="seeds"):
        tftant_pq.tftant_be_fig4(n_ef_samples=10, seeds=())


def test_same_experiment_rows_point_to_globecom_artefacts(paper):
    claims = tftant_pq_claims.tftant_be_same_experiment_claims()
    keys = set(zip(paper["artefact"], paper["quantity"]))
    for c in claims:
        assert (c["artefact"], c["quantity"]) in keys
        assert c["value"] is None and c["shape_ok"] is None
        pointed = c["note"].split("same experiment as ")[1].split(" ")[0]
        assert pointed in set(paper["artefact"]) and pointed.startswith("globecom01_")


# --------------------------------------------------------------------------- tftant_slides_loss


def test_loss_is_never_policed_when_the_rates_sum_to_the_policing_rate(loss, paper):
    assert float(loss["policed"].sum()) == 0
    ratio = loss["loss_ratio"]
    np.testing.assert_allclose(ratio, loss["policed_ratio"] + loss["queue_full_ratio"])
    assert float(loss["sent"].min()) >= 1_900  # ~2000 EF packets after the warm-up, whatever the stream count
    # the other load runs only the fewest and the most streams
    assert loss["ef_load"].attrs["units"] == "bit/s"
    other = loss["loss_ratio"].sel(ef_load=600e3)
    assert np.isfinite(other.sel(n_streams=[1, 20])).all() and np.isnan(other.sel(n_streams=4)).all()
    # burstiness: one stream needs one packet's tokens, n streams at most one packet each
    b = loss["min_bucket_bytes"]
    assert float(b.sel(n_streams=1).max()) == pytest.approx(EF_IP)
    for n in loss["n_streams"].values:
        assert float(b.sel(n_streams=n).max()) <= n * EF_IP + 1e-6
    assert float(b.sel(n_streams=20).min()) > EF_IP
    assert float(loss["police_burst_bytes"]) == pytest.approx(1.2e6 * 0.2 / 8)
    assert float(loss["ef_wire_share"].sel(ef_load=1.2e6)) == pytest.approx(1.2e6 / 1024 * 159 * 8 / 2e6)
    claims = {c["quantity"]: c for c in tftant_pq_claims.tftant_slides_loss_claims(loss)}
    assert claims["dropped_by_policer"]["shape_ok"] is False
    _check_claims(claims.values(), "tftant_slides_loss", paper)
    fig = figures.tftant_slides_loss(loss)
    assert isinstance(fig, Figure) and "tftant_slides_loss" in fig._suptitle.get_text()
    assert all(ax.get_xlabel() and ax.get_ylabel() for ax in fig.axes)


def test_loss_bad_arguments():
    with pytest.raises(ValueError, match="n_ef_samples"):
        tftant_pq.tftant_slides_loss(n_ef_samples=10)
    with pytest.raises(ValueError, match="n_streams"):
        tftant_pq.tftant_slides_loss(n_ef_samples=100, n_streams=(0, 2))
    with pytest.raises(ValueError, match="other_loads_bps"):
        tftant_pq.tftant_slides_loss(n_ef_samples=100, other_loads_bps=(-1.0,))
    with pytest.raises(ValueError, match="other_loads_bps"):
        tftant_pq.tftant_slides_loss(n_ef_samples=100, other_loads_bps=(1.2e6,))
    with pytest.raises(ValueError, match="ef_load_bps"):
        tftant_pq.tftant_slides_loss(n_ef_samples=100, ef_load_bps=0.0)



def test_n_ef_packets_is_a_deprecated_name_of_n_ef_samples():
    """The loss test counts EF packets of all streams, as tandem and ipdv_size do: one name, n_ef_samples."""
    small = dict(seeds=(1,), n_streams=(1, 2), other_loads_bps=())
    with pytest.warns(FutureWarning, match="n_ef_packets is deprecated, use n_ef_samples"):
        old = tftant_pq.tftant_slides_loss(n_ef_packets=300, **small)
    new = tftant_pq.tftant_slides_loss(n_ef_samples=300, **small)
    assert old.identical(new) and new.attrs["n_ef_samples"] == 300
    with pytest.warns(FutureWarning), pytest.raises(ValueError, match="not both"):
        tftant_pq.tftant_slides_loss(n_ef_samples=300, n_ef_packets=300, **small)


# --------------------------------------------------------------------------- tftant_slides_ipdv_aggregation


def test_ipdv_aggregation(ipdv_agg, paper):
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
    claims = {c["quantity"]: c for c in tftant_pq_claims.tftant_slides_ipdv_aggregation_claims(ipdv_agg)}
    assert claims["transmission_unit"]["value"] == pytest.approx(UNIT_S * 1e3) and claims["ef_load"]["value"] == 600
    _check_claims(tftant_pq_claims.tftant_slides_ipdv_aggregation_claims(ipdv_agg), "tftant_slides_ipdv_aggregation", paper)
    fig = figures.tftant_slides_ipdv_aggregation(ipdv_agg)
    assert isinstance(fig, Figure) and "tftant_slides_ipdv_aggregation" in fig.axes[0].get_title()
    assert fig.axes[0].get_xlabel() and fig.axes[0].get_ylabel()
    with pytest.raises(ValueError, match="be_traffic"):
        tftant_pq.tftant_slides_ipdv_aggregation(n_ef_samples=10, seeds=(1,), be_traffic=("real", "real"))
    with pytest.raises(ValueError, match="ef_load_bps"):
        tftant_pq.tftant_slides_ipdv_aggregation(n_ef_samples=10, seeds=(1,), ef_load_bps=0)


# --------------------------------------------------------------------------- tftant_slides_tandem


def test_tandem_delays_add_up(tandem, paper):
    assert float(tandem["sum_error"].max()) < 1e-12  # each node's own record adds up to the end-to-end delay
    assert {tandem[v].attrs["units"] for v in ("increment", "end_to_end_mean", "aggregation_contribution_mean",
                                               "ef_line_time")} == {"s"}
    inc, e2e = tandem["increment_mean"], tandem["end_to_end_mean"]
    # end-to-end after node i = sum of the increments up to i + the propagation between the nodes
    expected = inc.cumsum("node") + (tandem["node"] - 1) * tandem.attrs["propagation_s"]
    np.testing.assert_allclose(e2e, expected, rtol=1e-9)
    assert (inc > tandem["ef_line_time"]).all()  # every congested node adds more than the EF line time
    assert (tandem["ring_time_mean"] <= inc + 1e-12).all()
    assert (tandem["loss_mean"] == 0).all()
    assert float(tandem["loss_mean"].sum()) == 0
    np.testing.assert_allclose(tandem["aggregation_contribution_mean"],
                               e2e.sel(n_streams=3) - e2e.sel(n_streams=1))
    claims = {c["quantity"]: c for c in tftant_pq_claims.tftant_slides_tandem_claims(tandem)}
    assert claims["delay_increments_add_up"]["shape_ok"] is True
    _check_claims(claims.values(), "tftant_slides_tandem", paper)
    fig = figures.tftant_slides_tandem(tandem)
    assert isinstance(fig, Figure) and "tftant_slides_tandem" in fig._suptitle.get_text()
    assert all(ax.get_xlabel() and ax.get_ylabel() for ax in fig.axes)


def test_tandem_bad_arguments():
    with pytest.raises(ValueError, match="n_nodes"):
        tftant_pq.tftant_slides_tandem(n_ef_samples=10, seeds=(1,), n_nodes=0)
    with pytest.raises(ValueError, match="propagation_s"):
        tftant_pq.tftant_slides_tandem(n_ef_samples=10, seeds=(1,), propagation_s=-1e-3)
    with pytest.raises(ValueError, match="ef_frames_bytes"):
        tftant_pq.tftant_slides_tandem(n_ef_samples=10, seeds=(1,), ef_frames_bytes=(10,))


# --------------------------------------------------------------------------- tftant_slides_ipdv_size


def test_ipdv_size(ipdv_size, paper):
    s = ipdv_size["ipdv_std_mean"]
    assert s.attrs["units"] == "s"
    np.testing.assert_allclose(s.sel(congestion=False), 0.0, atol=1e-12)  # no BE: constant delays
    assert (s.sel(congestion=True) > 0.5e-3).all()  # BE in the ring moves the delay
    mx = ipdv_size["jitter_max_mean"].sel(congestion=True)
    assert (mx >= ipdv_size["jitter_p999_mean"].sel(congestion=True)).all()
    assert (mx < 2 * line_time_s(1500, "atm-aal5", 2e6) * 5).all()  # bounded by a few BE MTU times
    _check_claims(tftant_pq_claims.tftant_slides_ipdv_size_claims(ipdv_size), "tftant_slides_ipdv_size", paper)
    fig = figures.tftant_slides_ipdv_size(ipdv_size)
    assert isinstance(fig, Figure) and "tftant_slides_ipdv_size" in fig._suptitle.get_text()
    assert all(ax.get_xlabel() and ax.get_ylabel() for ax in fig.axes)
    with pytest.raises(ValueError, match="ef_aggregate_bps"):
        tftant_pq.tftant_slides_ipdv_size(n_ef_samples=10, seeds=(1,), ef_aggregate_bps=-1)


def test_claims_reject_other_data(fig4):
    with pytest.raises(ValueError, match="tftant_slides_loss"):
        tftant_pq_claims.tftant_slides_loss_claims(fig4)


def test_ipdv_aggregation_figure_labels_the_assumed_unit(ipdv_agg):
    # issue 21: the slide never states the 0.636 ms EF transmission time the figure divides by
    fig = figures.tftant_slides_ipdv_aggregation(ipdv_agg)
    assert "ASSUMED" in fig.axes[0].get_ylabel()
    assert any("ASSUMPTION" in t.get_text() for t in fig.texts)
