"""pqlab.papers.long.long_ipdv_vs_a: |IPDV| vs A, its peaks and claims (small runs, one seed)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from pqlab.measure.analysis import count_peaks  # noqa: E402
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
    # every |IPDV| distribution has a peak (with the BE law by packet count not always at 0: the ring
    # holds large BE packets often enough that consecutive EF packets see different rings)
    assert np.all(ipdv["n_peaks"] >= 1)
    assert np.allclose(ipdv["frequency"].sum("ipdv_bin"), 1.0)


def test_count_peaks_on_known_histograms():
    p = np.array([0.50, 0.20, 0.05, 0.01, 0.03, 0.01, 0.0, 0.0])
    _, peaks = count_peaks(p, 1.0, smooth=0.0, min_prominence=0.01)
    assert list(peaks) == [0, 4]
    _, peaks = count_peaks(p, 1.0, smooth=0.0, min_prominence=0.05)  # bump too small on a linear plot
    assert list(peaks) == [0]
    _, peaks = count_peaks(p, 1.0, smooth=0.0, min_prominence=np.log10(2), scale="log", floor=1e-3)
    assert list(peaks) == [0, 4]
    _, peaks = count_peaks(np.array([0.1, 0.2, 0.7]), 1.0, smooth=0.0)  # a maximum at the last bin
    assert list(peaks) == [2]


def test_claims_use_the_papers_keys_and_units(ipdv):
    rows = [{**c, "seed": SEEDS[0]} for c in long_ipdv_vs_a.claims(ipdv)]
    assert all(c["artefact"] == ipdv.attrs["artefact"] == long_ipdv_vs_a.ARTEFACT.id for c in rows)
    results = pd.DataFrame(rows)[["artefact", "quantity", "value", "unit", "note", "shape_ok", "seed"]]
    table = report.compare(report.load_paper_values(), results)  # raises on a unit that differs from the paper's
    mine = table[table["artefact"] == long_ipdv_vs_a.ARTEFACT.id]
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
