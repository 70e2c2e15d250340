"""Tests of pqlab.papers.artefacts.aggregation and pqlab.papers.figures.aggregation (small runs, one seed)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
import xarray as xr  # noqa: E402

from pqlab.pipeline import report  # noqa: E402
from pqlab import scenarios, simulate  # noqa: E402
from pqlab.papers.artefacts import aggregation as agg  # noqa: E402
from pqlab.papers.artefacts.claims import aggregation as agg_claims  # noqa: E402
from pqlab.papers.figures import aggregation as figs  # noqa: E402

N = 300  # EF reference packets per run
SEEDS = (3,)
UNIT_S = 0.636e-3  # one transmission unit: a 128-byte frame on the 2 Mbit/s ATM line


@pytest.fixture(scope="module")
def fig7():
    return agg.globecom01_fig7(N, SEEDS)


@pytest.fixture(scope="module")
def tab3():
    return agg.globecom01_tab3(N, SEEDS)


@pytest.fixture(scope="module")
def ipdv():
    return agg.long_ipdv_vs_a(N, SEEDS)


@pytest.fixture(scope="module")
def frame():
    return agg.long_fig7_tab3(N, SEEDS)


# --------------------------------------------------------------------------- compute functions


def test_fig7_aggregation_degrees_and_distributions(fig7):
    assert np.allclose(fig7["aggregation_degree"], [5 / 6, 2 / 3, 1 / 3, 0])
    assert list(fig7["n_ef_streams"].values) == [6, 3, 2, 1]
    assert fig7.attrs["ef_aggregate_bps"] == pytest.approx(300e3)
    assert np.allclose(fig7["frequency"].sum("delay_bin"), 1.0)
    ccdf = fig7["ccdf"].values
    assert np.all(np.diff(ccdf, axis=1) <= 1e-12) and np.allclose(ccdf[:, 0], 1.0)
    # every delay holds at least the path (2 hops) and the packet's own line time: 3 units
    assert np.nanmin(fig7["delay"].values) >= 3 * UNIT_S - 1e-9
    assert fig7.transmission_unit_s == pytest.approx(UNIT_S, rel=1e-3)
    # larger deterministic BE packets give a larger mean delay (GLOBECOM'01 Fig. 3's ends)
    ref = fig7["be_reference_delay_mean"].sel(seed=SEEDS[0]).values
    assert ref[1] > ref[0]


def test_tab3_parts_add_up_and_mtu_reference_is_larger(tab3):
    path = tab3.attrs["path_delay_ef_s"]
    assert path == pytest.approx(2 * UNIT_S, rel=1e-3)
    np.testing.assert_allclose(tab3["delay_mean"], tab3["node_delay_mean"] + path, rtol=1e-9)
    assert np.all(tab3["mtu_delay_mean"].values[None, :] > tab3["delay_mean"].values)
    assert np.all((tab3["be_kept_mean_bytes"] >= 40) & (tab3["be_kept_mean_bytes"] <= 1500))


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
    # every |IPDV| distribution has a peak (with the BE law by packet count not always at 0: the ring
    # holds large BE packets often enough that consecutive EF packets see different rings)
    assert np.all(ipdv["n_peaks"] >= 1)
    assert np.allclose(ipdv["frequency"].sum("ipdv_bin"), 1.0)


def test_frame_size_statistics(frame):
    assert list(frame["ef_ip_bytes"].values) == [110, 494, 1006]
    ip = frame["ipdv"].values
    for i in range(ip.shape[0]):
        x = ip[i, 0][np.isfinite(ip[i, 0])]
        assert frame["jitter_std"].values[i, 0] == pytest.approx(np.abs(x).std(ddof=1))
        assert frame["ipdv_std"].values[i, 0] == pytest.approx(x.std(ddof=1))
        # the most populated 1-unit interval of |IPDV|, counted by hand
        counts = np.bincount((np.abs(x) // frame.attrs["bin_width_s"]).astype(int))
        assert frame["mode_fraction"].values[i, 0] == pytest.approx(counts.max() / x.size)
    assert frame.attrs["n_ef_streams"] == 1 and frame.attrs["n_be_streams"] == 20


def test_count_peaks_on_known_histograms():
    p = np.array([0.50, 0.20, 0.05, 0.01, 0.03, 0.01, 0.0, 0.0])
    _, peaks = agg.count_peaks(p, 1.0, smooth=0.0, min_prominence=0.01)
    assert list(peaks) == [0, 4]
    _, peaks = agg.count_peaks(p, 1.0, smooth=0.0, min_prominence=0.05)  # bump too small on a linear plot
    assert list(peaks) == [0]
    _, peaks = agg.count_peaks(p, 1.0, smooth=0.0, min_prominence=np.log10(2), scale="log", floor=1e-3)
    assert list(peaks) == [0, 4]
    _, peaks = agg.count_peaks(np.array([0.1, 0.2, 0.7]), 1.0, smooth=0.0)  # a maximum at the last bin
    assert list(peaks) == [2]


def test_a_keys():
    assert [agg.a_key(a) for a in (5 / 6, 2 / 3, 1 / 3, 0.0)] == ["a_5_6", "a_2_3", "a_1_3", "a_0"]
    assert agg.a_text(0.8333333) == "5/6"


# --------------------------------------------------------------------------- claims and the report


def test_claims_use_the_papers_keys_and_units(fig7, tab3, ipdv, frame):
    paper = report.load_paper_values()
    rows = []
    for ds, claims in ((fig7, agg_claims.globecom01_fig7_claims), (tab3, agg_claims.globecom01_tab3_claims),
                       (ipdv, agg_claims.long_ipdv_vs_a_claims), (frame, agg_claims.long_fig7_tab3_claims)):
        for c in claims(ds):
            assert c["artefact"] == ds.attrs["artefact"]
            rows.append({**c, "seed": SEEDS[0]})
    results = pd.DataFrame(rows).rename(columns={"value": "value"})[
        ["artefact", "quantity", "value", "unit", "note", "shape_ok", "seed"]]
    table = report.compare(paper, results)  # raises on a unit that differs from the paper's
    mine = table[table["artefact"].isin(["globecom01_fig7", "globecom01_tab3", "long_ipdv_vs_a", "long_fig7_tab3"])]
    missing = mine[mine["verdict"] == "missing"]
    assert missing.empty, missing[["artefact", "quantity", "explanation"]].to_string()
    by_key = {(r["artefact"], r["quantity"]): r for r in rows}
    assert by_key["globecom01_tab3", "a_ref_load_50"]["value"] == pytest.approx(5 / 6)
    assert by_key["globecom01_tab3", "mean_delay_a_0"]["value"] == pytest.approx(
        float(tab3["delay_mean_mean"].sel(aggregation_degree=0.0)) * 1e3)
    assert by_key["long_fig7_tab3", "ipdv_std_ef_128"]["unit"] == "us"
    assert by_key["long_ipdv_vs_a", "tx_time_ref_packet"]["value"] == pytest.approx(0.636, abs=1e-3)
    for r in rows:
        assert r["note"] and "\n" not in r["note"]


# --------------------------------------------------------------------------- bad arguments


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: agg.globecom01_fig7(N, ()), "seeds"),
        (lambda: agg.globecom01_fig7(N, (1, 1)), "seeds"),
        (lambda: agg.globecom01_fig7(1, SEEDS), "n_ef_samples"),
        (lambda: agg.globecom01_fig7(N, SEEDS, ref_rates_bps=(400e3,)), "ref_rates_bps"),
        (lambda: agg.globecom01_fig7(N, SEEDS, bin_width_units=0), "bin_width_units"),
        (lambda: agg.globecom01_fig7(N, SEEDS, be_reference_payloads=(0,)), "be_reference_payloads"),
        (lambda: agg.globecom01_tab3(N, SEEDS, common_be="yes"), "common_be"),
        (lambda: agg.globecom01_tab3(N, SEEDS, mtu_reference=1), "mtu_reference"),
        (lambda: agg.long_ipdv_vs_a(N, SEEDS, min_prominence=0), "min_prominence"),
        (lambda: agg.long_fig7_tab3(N, SEEDS, ef_frame_bytes=(32,)), "ef_frame_bytes"),
        (lambda: agg.long_fig7_tab3(N, SEEDS, interval_units=-1.0), "interval_units"),
        (lambda: agg.count_peaks([0.5, 0.5], 1.0, smooth=0.0, scale="dB"), "scale"),
        (lambda: agg_claims.globecom01_fig7_claims(xr.Dataset()), "data"),
    ],
)
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# --------------------------------------------------------------------------- figures


def test_figures_have_labelled_axes(fig7, tab3, ipdv, frame):
    paper = report.load_paper_values()
    made = [
        ("globecom01_fig7", figs.globecom01_fig7(fig7)),
        ("globecom01_tab3", figs.globecom01_tab3(tab3, paper_values=paper)),
        ("long_ipdv_vs_a", figs.long_ipdv_vs_a(ipdv, paper_values=paper)),
        ("long_fig7_tab3", figs.long_fig7_tab3(frame, paper_values=paper)),
    ]
    for artefact, fig in made:
        assert isinstance(fig, matplotlib.figure.Figure)
        assert artefact in fig._suptitle.get_text()
        assert any("stand-in" in t.get_text() for t in fig.texts)
        for ax in fig.axes:
            assert ax.get_xlabel() and ax.get_ylabel()
            assert ax.get_legend() is not None
        plt.close(fig)
    # the paper's values are drawn when given
    fig = figs.globecom01_tab3(tab3, paper_values=paper)
    labels = [h.get_label() for h in fig.axes[0].get_lines()]
    assert "paper, Table III" in labels
    plt.close(fig)


def test_fig7_be_reference_means_are_the_base_case_reference_delays(fig7):
    """The memoised A = 0 reference runs give the mean reference delay of the plain simulation."""
    from pqlab.experiments import reference_delay

    for p in agg.BE_REFERENCE_PAYLOADS:
        sc = scenarios.base_case(be_payload_bytes=p, n_ef_samples=N)
        expected = [float(np.nanmean(reference_delay(simulate(sc, seed=s), sc).values)) for s in SEEDS]
        got = fig7["be_reference_delay_mean"].sel(be_payload_bytes=p).values
        assert np.array_equal(got, expected)


def test_ipdv_figures_title_what_they_plot(ipdv, frame):
    # issue 21: the figures plot |IPDV| (the papers' 'ipdv'), not signed RFC 3393 IPDV
    for fig in (figs.long_ipdv_vs_a(ipdv), figs.long_fig7_tab3(frame)):
        assert "|IPDV|" in fig._suptitle.get_text()
        plt.close(fig)
