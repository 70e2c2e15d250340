"""pqlab.papers.long.long_ipdv_vs_a: |IPDV| vs A, its peaks and claims (small runs, one seed)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from aggregation_verdicts import facts, judged, number_rows  # noqa: E402

from pqlab.measure.analysis import (  # noqa: E402
    count_peaks,
    min_delay_range_for_max_ipdv,
    min_delay_std_for_mean_ipdv,
)
from pqlab.papers import kit, presets  # noqa: E402
from pqlab.papers.globecom01 import aggregation_figures  # noqa: E402
from pqlab.papers.long import long_ipdv_vs_a  # noqa: E402
from pqlab.pipeline import report  # noqa: E402

N = 300  # EF reference packets per run
SEEDS = (3,)


@pytest.fixture(scope="module")
def ipdv():
    return long_ipdv_vs_a.compute(N, SEEDS)


def test_ipdv_telescopes_and_bounds(ipdv):
    ip = ipdv["ipdv"].values
    for i in range(ip.shape[0]):
        x = ip[i, 0][np.isfinite(ip[i, 0])]
        # the signed mean telescopes: |sum| = |D_last - D_first| <= max - min of the delays
        assert abs(x.sum()) <= 0.05  # seconds; far below the sum of |IPDV|
        assert np.abs(x).sum() > 10 * abs(x.sum())
    assert np.all(ipdv["jitter_mean"] >= np.abs(ipdv["ipdv_mean"]))
    assert np.all(ipdv["jitter_max"] >= ipdv["jitter_mean"])
    assert np.all((ipdv["fraction_below_unit"] > 0) & (ipdv["fraction_below_unit"] <= 1))
    # every |IPDV| distribution has a peak (with the BE law by packet count not always at 0: the
    # ring
    # holds large BE packets often enough that consecutive EF packets see different rings)
    assert np.all(ipdv["n_peaks"] >= 1)
    assert np.allclose(ipdv["frequency"].sum("ipdv_bin"), 1.0)


def test_count_peaks_on_known_histograms():
    p = np.array([0.50, 0.20, 0.05, 0.01, 0.03, 0.01, 0.0, 0.0])
    _, peaks = count_peaks(p, 1.0, smooth=0.0, min_prominence=0.01)
    assert list(peaks) == [0, 4]
    _, peaks = count_peaks(
        p, 1.0, smooth=0.0, min_prominence=0.05
    )  # bump too small on a linear plot
    assert list(peaks) == [0]
    _, peaks = count_peaks(p, 1.0, smooth=0.0, min_prominence=np.log10(2), scale="log", floor=1e-3)
    assert list(peaks) == [0, 4]
    _, peaks = count_peaks(np.array([0.1, 0.2, 0.7]), 1.0, smooth=0.0)  # a maximum at the last bin
    assert list(peaks) == [2]


def test_claims_use_the_papers_keys_and_units(ipdv):
    rows = [{**c, "seed": SEEDS[0]} for c in long_ipdv_vs_a.claims(ipdv)]
    assert all(c["artefact"] == ipdv.attrs["artefact"] == long_ipdv_vs_a.ARTEFACT.id for c in rows)
    mine = judged(
        rows, long_ipdv_vs_a.ARTEFACT.id
    )  # raises on a unit that differs from the paper's
    missing = mine[mine["verdict"] == "missing"]
    assert missing.empty, missing[["artefact", "quantity", "explanation"]].to_string()
    by_key = {r["quantity"]: r for r in rows}
    assert by_key["tx_time_ref_packet"]["value"] == pytest.approx(0.636, abs=1e-3)
    for r in rows:
        assert r["note"] and "\n" not in r["note"]


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: long_ipdv_vs_a.compute(N, SEEDS, min_prominence=0), "min_prominence"),
        (lambda: count_peaks([0.5, 0.5], 1.0, smooth=0.0, scale="dB"), "scale"),
    ],
)
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_figure_has_labelled_axes_and_titles_what_it_plots(ipdv):
    for paper in (report.load_paper_values(), None):
        fig = long_ipdv_vs_a.figure(ipdv, paper_values=paper)
        assert isinstance(fig, matplotlib.figure.Figure)
        assert long_ipdv_vs_a.ARTEFACT.id in fig._suptitle.get_text()
        # issue 21: the figure plots |IPDV| (the papers' 'ipdv'), not signed RFC 3393 IPDV
        assert "|IPDV|" in fig._suptitle.get_text()
        assert any("stand-in" in t.get_text() for t in fig.texts)
        for ax in fig.axes:
            assert ax.get_xlabel() and ax.get_ylabel()
            assert ax.get_legend() is not None
        plt.close(fig)


def test_numbers_are_judged_by_their_number_and_each_miss_has_a_reason_with_numbers(ipdv):
    """Issue 30: no shape credit on a number; every measured result that differs says why, with
    numbers."""
    art = long_ipdv_vs_a.ARTEFACT.id
    rows = [{**c, "seed": SEEDS[0]} for c in long_ipdv_vs_a.claims(ipdv)]
    numbers = number_rows(art)
    assert all(r["shape_ok"] is None for r in rows if r["quantity"] in numbers)
    mine = judged(rows, art)
    differs = mine[(mine["verdict"] == "differs") & (mine["kind"] == "result")]
    assert not differs.empty
    assert all(differs["reason"] != ""), differs[differs["reason"] == ""].index.tolist()
    assert all(differs["facts"] != "")


def test_mean_ipdv_reason_is_the_spread_bound_next_to_the_models_delay_std(ipdv):
    """Issue 30 item 2: a mean |IPDV| m needs a delay std >= m / 2; the reason gives it next to
    ours."""
    a = ipdv["aggregation_degree"].values
    by_key = {c["quantity"]: c for c in long_ipdv_vs_a.claims(ipdv)}
    for i, av in enumerate(a):
        key = f"mean_ipdv_{long_ipdv_vs_a.a_key(av)}"
        paper = kit.paper_value(long_ipdv_vs_a.ARTEFACT.id, key)[0]
        if np.isnan(paper):
            continue
        record = by_key[key]
        got = facts(record)
        model_std = float(ipdv["delay_std_mean"].values[i]) * 1e3  # ms
        assert got["model_std"] == (pytest.approx(model_std), "ms")
        assert got["paper_mean"] == (pytest.approx(paper), "ms")
        needed = min_delay_std_for_mean_ipdv(paper)
        if model_std < needed:
            assert record["reason"]["kind"] == "bound"
            assert got["needed_std"] == (pytest.approx(needed), "ms")
        else:  # the bound does not bind: the consecutive delays' correlation is the mechanism
            assert record["reason"]["kind"] == "mechanism"
            assert got["model_lag1"][0] == pytest.approx(float(ipdv["delay_lag1_mean"].values[i]))


def test_max_ipdv_reason_is_the_range_bound_next_to_the_models_delay_range(ipdv):
    """Issue 30 item 2: a max |IPDV| of 30 units needs a delay range of 30 units; ours is given next
    to it."""
    record = {c["quantity"]: c for c in long_ipdv_vs_a.claims(ipdv)}["max_ipdv"]
    got = facts(record)
    unit = ipdv.attrs["transmission_unit_s"]
    assert got["needed_range"] == (pytest.approx(min_delay_range_for_max_ipdv(30.0)), "units")
    assert got["largest_range"] == (pytest.approx(float(ipdv["delay_range"].max()) / unit), "units")
    assert record["reason"]["kind"] == ("bound" if got["largest_range"][0] < 30.0 else "mechanism")
    # every |IPDV| is at most its run's delay range (the bound holds in our own runs)
    assert np.all(ipdv["jitter_max"].values <= ipdv["delay_range"].values + 1e-12)


def test_footer_states_the_be_reading_the_runs_use():
    """Issue 30 item 7: the footer said 'one size per BE stream' while the runs draw sizes per
    packet."""
    sc = presets.be_streams_first(presets.aggregation(ref_rate_bps=100e3, n_ef_samples=10))
    text = aggregation_figures.be_sizes_text([sc])
    assert "one size per" not in text and "by packet count" in text
    per_stream = presets.pq_experiment(
        be_size=presets.real_be_sizes(), be_size_per="stream", n_ef_samples=10
    )
    assert "one size per stream" in aggregation_figures.be_sizes_text([per_stream])
    assert "one size per" not in aggregation_figures.STAND_IN_NOTE


def test_figure_footer_is_not_stale(ipdv):
    fig = long_ipdv_vs_a.figure(ipdv)
    footer = " ".join(t.get_text() for t in fig.texts)
    assert "stand-in" in footer and "one size per" not in footer and "by packet count" in footer
    plt.close(fig)


def test_max_ipdv_is_one_quantity_for_every_model(ipdv):
    """The long version's largest |IPDV| ("30 times the transmission time ... independently of the
    aggregation pattern") is one run's largest per A: every model measures it per run (one A, one
    seed, the run's samples) and gives the mean over the runs, with the runs' range. It was the mean
    of the per-run maxima for the papers' node and the largest over 3 seeds x 3 A for the test
    bed."""
    from pqlab.papers import testbed_eval as te
    from pqlab.papers.testbed import PAPERS_NODE

    claim = {c["quantity"]: c for c in long_ipdv_vs_a.claims(ipdv)}["max_ipdv"]
    per_run = ipdv["jitter_max"].values / ipdv.attrs["transmission_unit_s"]
    assert claim["value"] == pytest.approx(per_run.mean())
    assert f"the runs' range {per_run.min():.1f} to {per_run.max():.1f}" in claim["note"]
    # the evaluation's (the test bed's) measure of the same runs gives the same number
    assert te.max_ipdv_units(PAPERS_NODE, N, SEEDS) == pytest.approx(claim["value"], rel=1e-9)
    low, high = te.max_ipdv_run_range(PAPERS_NODE, N, SEEDS)
    assert (low, high) == pytest.approx((per_run.min(), per_run.max()), rel=1e-9)
