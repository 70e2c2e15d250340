"""pqlab.papers.analysis.testbed_model: both models on every numeric measured result, its claims,
figures and report rows."""

import json
import math

import numpy as np
import pytest
import xarray as xr

from pqlab.papers import judge, ledger
from pqlab.papers import testbed_eval as te
from pqlab.papers.analysis import testbed_model as tm
from pqlab.papers.testbed import TESTBED
from pqlab.papers.testbed_eval import RESULTS
from pqlab.papers.testbed_reasons import HOP_SENSITIVE_TABLES
from pqlab.pipeline import report


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
    np.testing.assert_array_equal(
        data["hop_value"].sel(hops=TESTBED.store_forward_hops), data["value"].sel(model="testbed")
    )
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
    assert all(
        c["model"] == "testbed" and c["role"] in ("calibration", "held_out") for c in per_result
    )
    k3 = next(c for c in per_result if c["quantity"] == "w_m_k3")
    assert "seeds" in k3["note"] and k3["reason"]["kind"] == "mechanism"
    assert judge.fact_value(k3["reason"], "hop_lag") > 0
    count, note = tm.inconsistency_note(data)
    assert 0 <= count <= len(RESULTS) and "globecom01_tab4" in note
    margin = next(c for c in claims if c["quantity"] == "bound_margin_min")
    assert margin["shape_ok"] is True and margin["value"] > 0
    # recorded and reported next to the papers' node rows
    for c in claims:
        report.record(
            tmp_path,
            c["artefact"],
            c["quantity"],
            c["value"],
            c["unit"],
            note=c["note"],
            shape_ok=c["shape_ok"],
            model=c["model"],
            role=c["role"],
            reason=c["reason"],
        )
    table = report.build_report(tmp_path, tmp_path / "out")
    bed = table[table["model"] == "testbed"]
    assert (bed[bed["artefact"] != "testbed_model"]["kind"] == "result").all()
    counts = report.measured_counts(table).set_index(["model", "role"])
    rules = report.load_paper_values().set_index(["artefact", "quantity"])["rule"]
    checkable = [
        r for r in RESULTS if rules[(r.artefact, r.quantity)] != "not_checkable"
    ]  # the 60 % mode share
    assert len(checkable) == len(RESULTS) - 1
    assert counts.loc[("testbed", "all"), "total"] == len(checkable)
    # the calibration set, and the results data/standing.csv names as calibrated (earlier targets)
    named = ledger.load_standing()
    earlier = {
        (a, q)
        for a, q, s in zip(named["artefact"], named["quantity"], named["standing"])
        if s == "calibration"
    }
    calibrated = sum(
        r.role == "calibration" or (r.artefact, r.quantity) in earlier for r in checkable
    )
    assert counts.loc[("testbed", "calibration"), "total"] == calibrated


def test_the_figure_draws_every_result_once_in_panels_of_one_named_unit(data):
    """Panels grouped by unit (ms, transmission times, bytes, ratios), each y axis naming its unit
    (no bare
    "1" or "units"), microseconds drawn in ms, every result's paper value drawn once; 8 panels,
    was 18.
    """
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
    assert np.isin(
        np.round(data["paper"].values[us] / 1000, 9), np.round(drawn, 9)
    ).all()  # us shown in ms


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
        assert found == float(
            data["value"].sel(model=model, result="globecom01_fig3_1/local_max_be_payload_1")
        )
        ccdf = data["fig5_ccdf"].sel(model=model).values
        assert ccdf[0] <= 1.0 and np.all(np.diff(ccdf) <= 0) and ccdf[-1] >= 0.0
    # the test bed's delays are longer: its CCDF lies above the papers' node's
    assert bool(
        (data["fig5_ccdf"].sel(model="testbed") >= data["fig5_ccdf"].sel(model="papers_node")).all()
    )
    axes = tm.figure_curves(data).axes
    assert any("Fig. 3-1" in ax.get_title() for ax in axes) and any(
        "Fig. 5" in ax.get_title() for ax in axes
    )


def test_the_figure_draws_a_value_outside_its_per_seed_range(data):
    """A pooled std or quantile can lie outside the per-seed range (the default profile's run
    failed on this with "'yerr' must not contain negative values"): the range is drawn apart."""
    odd = data.copy(deep=True)
    odd["value"][:] = odd["value_per_seed"].max("seed") + 1.0
    fig = tm.figure(odd)
    assert any(ax.collections for ax in fig.axes)


def test_test_bed_positions_are_judged_by_the_position_rule(data):
    """Issue 30 item 1: the position rows carry no shape_ok; their reason carries the fact
    first_after (our first
    swept payload past the drop), from which the judge applies the position rule."""
    from pqlab.papers.testbed_eval import next_swept_payload

    assert next_swept_payload(0, 484) == 488 and next_swept_payload(1, 996) == 1000
    assert math.isnan(next_swept_payload(0, math.nan))
    rows = {
        r["quantity"]: r
        for r in tm.claims(data)
        if r["quantity"].startswith("local_max_be_payload")
    }
    assert len(rows) == 2
    for i, r in enumerate(sorted(rows)):
        record = rows[r]
        assert record["shape_ok"] is None
        assert judge.fact_value(record["reason"], "first_after") == next_swept_payload(
            i, record["value"]
        )


def _table(claims):
    return report.judge_claims(claims)


@pytest.fixture(scope="module")
def bed_rows(data):
    table = _table(tm.claims(data))
    return table[table["model"] == "testbed"].set_index(["artefact", "quantity"])


def test_the_report_and_the_evaluation_give_one_verdict(data, bed_rows):
    """Issue 30 item 1: the evaluation's verdict of every test-bed result is the report's (one
    judge)."""
    for rid in data["result"].values:
        a, q = str(rid).split("/")
        value = float(data["value"].sel(result=rid, model="testbed"))
        assert bed_rows.loc[(a, q), "verdict"] == te.verdict_of(a, q, value), rid
    counts = tm.verdict_counts(data).set_index(["model", "role"])
    results = bed_rows[bed_rows["kind"] == "result"]
    assert (
        counts.loc[("testbed", "all"), "reproduced"] == (results["verdict"] == "reproduced").sum()
    )
    assert counts.loc[("testbed", "all"), "total"] == (results["verdict"] != "not checkable").sum()


GENERIC = ("the hop count does not move it", "store-and-forward hops (frozen", "needs about")


def test_every_test_bed_result_that_differs_has_a_reason_with_a_number(bed_rows):
    """Issue 30 item 2: a reason of a known kind with facts for every differing measured result,
    none generic;
    two differing rows share a text only with the same facts (the same computation)."""
    results = bed_rows[bed_rows["kind"] == "result"]
    differ = results[results["verdict"] == "differs"]
    assert not differ.empty
    for key, row in differ.iterrows():
        assert row["reason"] and row["reason kind"] in judge.REASON_KINDS, key
        assert json.loads(row["facts"]), key
        assert not any(g in row["reason"] for g in GENERIC), (key, row["reason"])
    for _, rows in differ.groupby("reason"):
        assert rows["facts"].nunique() == 1


def _reason(data, artefact, quantity):
    return next(
        c["reason"]
        for c in tm.claims(data)
        if (c["artefact"], c["quantity"]) == (artefact, quantity)
    )


def test_the_ipdv_rows_give_the_spread_bounds_next_to_the_test_beds_own_spread(data):
    """Issue 30 item 2: a mean |IPDV| m needs a delay std >= m/2 (measure.analysis); the test bed's
    own delay std
    in that scenario stands next to it; max |IPDV| needs a delay range >= m, next to our range."""
    from pqlab.measure.analysis import min_delay_range_for_max_ipdv, min_delay_std_for_mean_ipdv

    why = _reason(data, "long_ipdv_vs_a", "mean_ipdv_a_2_3")
    assert judge.fact_value(why, "std_needed") == pytest.approx(min_delay_std_for_mean_ipdv(6.05))
    sc = te.aggregation_scenario(te.TAB3_REF_RATES["2_3"], int(data.attrs["n_ef_samples"]), None)
    std = (
        np.mean([np.nanstd(te.run(sc, s, TESTBED)["delay"], ddof=1) for s in data["seed"].values])
        * 1e3
    )
    assert judge.fact_value(why, "our_std") == pytest.approx(std)
    why = _reason(data, "long_ipdv_vs_a", "max_ipdv")
    assert why["kind"] == "bound"
    assert judge.fact_value(why, "range_needed") == pytest.approx(
        min_delay_range_for_max_ipdv(30.0)
    )
    assert judge.fact_value(why, "our_range") < judge.fact_value(why, "range_needed")


def test_the_four_max_ipdv_twins_give_the_sawtooth_arithmetic(data):
    """Issue 30 item 2: the same exact arithmetic the papers' node twins give: max(s, t_BE - s) /
    t_BE."""
    from pqlab.papers.tftant_wfq.pq_vs_wfq_testbed import beat_max_be_tx, beat_slip_s

    slip = beat_slip_s(te.TFTANT_IPDV_FRAME_BYTES)
    sawtooth = float(beat_max_be_tx(xr.DataArray(slip), te.BE_TX_S)[0])
    for a, q in (
        ("tftant_wfq_fig6_7", "max_ipdv_fig7_pq"),
        ("tftant_wfq_fig6_7", "max_ipdv_fig7_wfq"),
        ("tftant_slides_ring", "max_ipdv_one_be_tx"),
        ("tftant_slides_star", "max_ipdv_one_be_tx"),
    ):
        why = _reason(data, a, q)
        assert why["kind"] == "arithmetic"
        assert judge.fact_value(why, "sawtooth_max") == pytest.approx(sawtooth)
        assert judge.fact_value(why, "slip") == pytest.approx(float(slip[0]) / te.BE_TX_S)


def test_the_rtt_row_gives_the_idle_paths_arithmetic(data):
    why = _reason(data, "path", "rtt_64_byte_packet")
    assert why["kind"] == "arithmetic"
    hops = judge.fact_value(why, "serialisations")
    line = judge.fact_value(why, "line_time")
    rtt = float(data["value"].sel(result="path/rtt_64_byte_packet", model="testbed"))
    assert (
        hops == 3 and 2 * hops * line < rtt
    )  # ms: the ATM serialisations are most of the round trip


def test_the_mode_fraction_is_a_definition_range(data):
    why = _reason(data, "long_fig7_tab3", "mode_fraction_ef_128")
    assert why["kind"] == "definition"
    assert judge.fact_value(why, "lowest") < judge.fact_value(why, "highest")


def test_the_near_ties_are_on_their_rows(data):
    """Issue 30 item 3: the value under the other ring-release rule and both calibration objectives
    on the
    PQ-vs-WFQ rows; Fig. 3-2's ratio without the hop's constant lag."""
    for q in ("max_gain_mtu", "gap_1518_be_tx"):
        why = _reason(data, "tftant_wfq_fig1", q)
        other = float(data["other_release_value"].sel(result=f"tftant_wfq_fig1/{q}"))
        assert judge.fact_value(why, "other_rule_value") == pytest.approx(other)
        assert judge.fact_value(why, "objective_chosen") <= judge.fact_value(why, "objective_other")
    assert float(data["other_release_value"].sel(result="tftant_wfq_fig1/max_gain_mtu")) < float(
        data["value"].sel(result="tftant_wfq_fig1/max_gain_mtu", model="testbed")
    )
    why = _reason(data, "globecom01_fig3_2", "fluctuation_fraction")
    ours = float(
        data["value"].sel(result="globecom01_fig3_2/fluctuation_fraction", model="testbed")
    )
    assert (
        judge.fact_value(why, "ratio_without_lag") > ours and judge.fact_value(why, "hop_lag") > 0
    )


def test_the_inconsistency_record_carries_its_numbers_as_facts(data):
    """Issue 30 item 4: frozen_hops and one needs__<artefact>__<quantity> fact (hops) per
    hop-sensitive result:
    the report reads fact names, not prose."""
    record = next(c for c in tm.claims(data) if c["quantity"] == "mutually_inconsistent")
    facts = {f["name"]: f for f in record["reason"]["facts"]}
    assert facts["frozen_hops"]["value"] == TESTBED.store_forward_hops
    hops = [int(h) for h in data["hops"].values]
    for rid in data["result"].values:
        row = data.sel(result=rid)
        if str(row["artefact"].values) not in HOP_SENSITIVE_TABLES:
            continue
        need = tm.hops_needed(row["hop_value"].values, float(row["paper"]), hops)
        name = f"needs__{row['artefact'].values}__{row['quantity'].values}"
        if math.isfinite(need):
            assert facts[name]["value"] == pytest.approx(need) and facts[name]["unit"] == "hops"
        else:
            assert name not in facts
    # the hop-insensitive results that differ (the sawtooth rows do not move with the hop count)
    assert facts["hop_insensitive"]["value"] >= 4 and facts["hop_counts_together"]["value"] >= 0


def test_the_curves_show_the_papers_levels_for_fig_3_1(data):
    """Issue 30 item 6: Fig. 3-1's panel marks the paper's levels (Table IV's W_m at the two
    maxima)."""
    fig = tm.figure_curves(data)
    left = fig.axes[0]
    levels = [line for line in left.get_lines() if line.get_marker() == "D"]
    assert len(levels) == 1
    np.testing.assert_allclose(levels[0].get_ydata(), [10.16251, 15.94906])
    np.testing.assert_allclose(levels[0].get_xdata(), [485, 1000])


def test_the_claims_and_figures_refuse_another_artefacts_data(data):
    other = data.copy()
    other.attrs = {**data.attrs, "artefact": "gap"}
    for function in (tm.claims, tm.figure, tm.figure_curves):
        with pytest.raises(ValueError, match="'testbed_model'"):
            function(other)


def test_a_reproduction_every_be_law_gives_carries_no_reason(data):
    """A reproduced row with a reason reads as a near-tie in the report's opening: the BE-law band
    is a reason
    only where the law decides the verdict (or the row differs)."""
    odd = data.copy(deep=True)
    rid = "globecom01_fig5/ccdf_negligible_above"
    paper = float(odd["paper"].sel(result=rid))
    odd["value"].loc[dict(result=rid, model="testbed")] = paper
    odd["law_min"].loc[dict(result=rid)] = paper * 0.98
    odd["law_max"].loc[dict(result=rid)] = paper * 1.02
    assert tm.result_reason(odd, rid) is None
    odd["law_min"].loc[dict(result=rid)] = paper * 0.8  # a law that misses: the law decides
    assert tm.result_reason(odd, rid)["kind"] == "input"
