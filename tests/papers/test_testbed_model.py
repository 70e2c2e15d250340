"""pqlab.papers.analysis.testbed_model: both models on every numeric measured result, its claims, figures and report rows."""

import math

import numpy as np
import pytest

from pqlab.pipeline import report
from pqlab.papers.analysis import testbed_model as tm
from pqlab.papers.testbed import TESTBED
from pqlab.papers.testbed_eval import RESULTS


@pytest.fixture(scope="module")
def data():
    return tm.compute(n_ef_samples=100, seeds=(1,))


def test_every_numeric_measured_result_under_both_models(data):
    assert data.sizes["result"] == len(RESULTS)
    assert list(data["model"].values) == ["papers_node", "testbed"]
    assert set(data["role"].values) == {"calibration", "held_out"}
    paper = data["paper"]
    np.testing.assert_allclose(data["rel_err"], (data["value"] - paper) / abs(paper) * 100)
    # the frozen preset's hop count in the cross table is the test-bed model itself
    np.testing.assert_array_equal(data["hop_value"].sel(hops=TESTBED.store_forward_hops),
                                  data["value"].sel(model="testbed"))
    # one seed: the per-seed value is the mean
    np.testing.assert_array_equal(data["value_per_seed"].isel(seed=0), data["value"])
    assert data.attrs["artefact"] == "testbed_model" and data.attrs["seeds"] == [1]


def test_no_simulated_delay_exceeds_the_path_bound(data):
    assert bool((data["max_delay"] <= data["bound"]).all())
    # the test bed's path adds hops: its bound and its delays are above the papers' node's
    assert bool((data["bound"].sel(model="testbed") > data["bound"].sel(model="papers_node")).all())


def test_the_delay_tables_grow_with_the_hop_count_and_the_jitter_results_do_not(data):
    w_m = data["hop_value"].sel(result="globecom01_tab4/w_m_k3").values
    assert np.all(np.diff(w_m) > 0)
    gap = data["hop_value"].sel(result="tftant_wfq_fig1/gap_1024_be_tx").values
    assert np.ptp(gap) == 0


def test_hops_needed_interpolates_and_extrapolates():
    assert tm.hops_needed([10.0, 20.0, 30.0], 25.0) == pytest.approx(1.5)
    assert tm.hops_needed([10.0, 20.0, 30.0], 40.0) == pytest.approx(3.0)  # beyond the grid
    assert tm.hops_needed([10.0, 20.0, 30.0], 5.0) == pytest.approx(-0.5)
    assert math.isnan(tm.hops_needed([10.0, 10.0, 10.0], 5.0))
    assert math.isnan(tm.hops_needed([10.0, np.nan, 30.0], 20.0))


def test_claims_name_the_paper_rows_and_give_computed_reasons(data, tmp_path):
    claims = tm.claims(data)
    per_result = [c for c in claims if c["artefact"] != "testbed_model"]
    assert len(per_result) == len(RESULTS)
    assert all(c["model"] == "testbed" and c["role"] in ("calibration", "held_out") for c in per_result)
    k3 = next(c for c in per_result if c["quantity"] == "w_m_k3")
    assert "store-and-forward hops" in k3["note"] and "seeds" in k3["note"]
    count, note = tm.inconsistency_note(data)
    assert 0 <= count <= len(RESULTS) and "globecom01_tab4" in note
    margin = next(c for c in claims if c["quantity"] == "bound_margin_min")
    assert margin["shape_ok"] is True and margin["value"] > 0
    # recorded and reported next to the papers' node rows
    for c in claims:
        report.record(tmp_path, c["artefact"], c["quantity"], c["value"], c["unit"], note=c["note"],
                      shape_ok=c["shape_ok"], model=c["model"], role=c["role"])
    table = report.build_report(tmp_path, tmp_path / "out")
    bed = table[table["model"] == "testbed"]
    assert (bed[bed["artefact"] != "testbed_model"]["kind"] == "result").all()
    counts = report.measured_counts(table).set_index(["model", "role"])
    assert counts.loc[("testbed", "all"), "total"] == len(RESULTS)
    assert counts.loc[("testbed", "calibration"), "total"] == sum(r.role == "calibration" for r in RESULTS)


def test_the_figure_draws_every_result_once_in_panels_of_one_named_unit(data):
    """Panels grouped by unit (ms, transmission times, bytes, ratios), each y axis naming its unit (no bare
    "1" or "units"), microseconds drawn in ms, every result's paper value drawn once; 8 panels, was 18."""
    fig = tm.figure(data)
    titled = [ax for ax in fig.axes if ax.get_title()]
    assert {"one-way delay", "delay variation (IPDV)"} <= {ax.get_title() for ax in titled}
    assert any("bound" in ax.get_title() for ax in titled) and len(titled) <= 8
    labels = [ax.get_ylabel() for ax in titled]
    assert all(label and label.strip() not in {"1", "units", "us"} for label in labels), labels
    paper = [line for ax in titled for line in ax.get_lines() if line.get_marker() == "D"]
    assert sum(len(line.get_xdata()) for line in paper) == data.sizes["result"]
    drawn = np.concatenate([line.get_ydata() for line in paper])
    us = data["unit"].values == "us"
    assert np.isin(np.round(data["paper"].values[us] / 1000, 9), np.round(drawn, 9)).all()  # us shown in ms


def test_bad_hops_are_rejected():
    with pytest.raises(ValueError, match="hops must be distinct hop counts in"):
        tm.compute(n_ef_samples=100, seeds=(1,), hops=(3,))


def test_the_papers_curves_under_both_models(data):
    """Fig. 3-1's curve drops after each local maximum the report names; Fig. 5's CCDF is a CCDF."""
    from pqlab.papers.testbed_eval import local_max_position

    curve = data["fig3_1_mean_delay"]
    for model in data["model"].values:
        first = curve.sel(model=model, be_payload_bytes=slice(400, 700))
        found = local_max_position(first["be_payload_bytes"].values, first.values)
        assert found == float(data["value"].sel(model=model, result="globecom01_fig3_1/local_max_be_payload_1"))
        ccdf = data["fig5_ccdf"].sel(model=model).values
        assert ccdf[0] <= 1.0 and np.all(np.diff(ccdf) <= 0) and ccdf[-1] >= 0.0
    # the test bed's delays are longer: its CCDF lies above the papers' node's
    assert bool((data["fig5_ccdf"].sel(model="testbed") >= data["fig5_ccdf"].sel(model="papers_node")).all())
    axes = tm.figure_curves(data).axes
    assert any("Fig. 3-1" in ax.get_title() for ax in axes) and any("Fig. 5" in ax.get_title() for ax in axes)


def test_the_figure_draws_a_value_outside_its_per_seed_range(data):
    """A pooled std or quantile can lie outside the per-seed range (the default profile's run
    failed on this with "'yerr' must not contain negative values"): the range is drawn apart."""
    odd = data.copy(deep=True)
    odd["value"][:] = odd["value_per_seed"].max("seed") + 1.0
    fig = tm.figure(odd)
    assert any(ax.collections for ax in fig.axes)


def test_test_bed_positions_are_judged_by_the_position_rule(data):
    # issue 21: the test bed's Fig. 3-1 maxima too: the paper's 485/1000 must lie in our drop interval
    from pqlab.papers.testbed_eval import next_swept_payload

    assert next_swept_payload(0, 484) == 488 and next_swept_payload(1, 996) == 1000
    assert math.isnan(next_swept_payload(0, math.nan))
    rows = {r["quantity"]: r for r in tm.claims(data) if r["quantity"].startswith("local_max_be_payload")}
    assert len(rows) == 2
    for r in rows.values():
        assert r["shape_ok"] is not None and "drop interval" in r["note"]


def test_the_claims_and_figures_refuse_another_artefacts_data(data):
    other = data.copy()
    other.attrs = {**data.attrs, "artefact": "gap"}
    for function in (tm.claims, tm.figure, tm.figure_curves):
        with pytest.raises(ValueError, match="'testbed_model'"):
            function(other)
