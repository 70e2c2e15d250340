"""pqlab.papers.long.long_fig7_tab3: |IPDV| vs EF frame size (small runs, one seed)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from aggregation_verdicts import facts, judged, number_rows  # noqa: E402

from pqlab.papers.long import long_fig7_tab3  # noqa: E402
from pqlab.pipeline import report  # noqa: E402

N = 300  # EF reference packets per run
SEEDS = (3,)


@pytest.fixture(scope="module")
def frame():
    return long_fig7_tab3.compute(N, SEEDS)


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


def test_claims_use_the_papers_keys_and_units(frame):
    rows = [{**c, "seed": SEEDS[0]} for c in long_fig7_tab3.claims(frame)]
    assert all(c["artefact"] == frame.attrs["artefact"] == long_fig7_tab3.ARTEFACT.id for c in rows)
    mine = judged(
        rows, long_fig7_tab3.ARTEFACT.id
    )  # raises on a unit that differs from the paper's
    missing = mine[mine["verdict"] == "missing"]
    assert missing.empty, missing[["artefact", "quantity", "explanation"]].to_string()
    by_key = {r["quantity"]: r for r in rows}
    assert by_key["ipdv_std_ef_128"]["unit"] == "us"
    for r in rows:
        assert r["note"] and "\n" not in r["note"]


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: long_fig7_tab3.compute(N, SEEDS, ef_frame_bytes=(32,)), "ef_frame_bytes"),
        (lambda: long_fig7_tab3.compute(N, SEEDS, interval_units=-1.0), "interval_units"),
        (
            lambda: long_fig7_tab3.compute(N, SEEDS, interval_widths_units=(0.0,)),
            "interval_widths_units",
        ),
        (lambda: long_fig7_tab3.compute(N, SEEDS, grid_offsets=(1.0,)), "grid_offsets"),
        (lambda: long_fig7_tab3.mode_fraction(np.array([0.001]), 0.001, offset=-0.5), "offset"),
    ],
)
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_figure_has_labelled_axes_and_titles_what_it_plots(frame):
    for paper in (report.load_paper_values(), None):
        fig = long_fig7_tab3.figure(frame, paper_values=paper)
        assert isinstance(fig, matplotlib.figure.Figure)
        assert long_fig7_tab3.ARTEFACT.id in fig._suptitle.get_text()
        # issue 21: the figure plots |IPDV| (the papers' 'ipdv'), not signed RFC 3393 IPDV
        assert "|IPDV|" in fig._suptitle.get_text()
        assert any("stand-in" in t.get_text() for t in fig.texts)
        for ax in fig.axes:
            assert ax.get_xlabel() and ax.get_ylabel()
            assert ax.get_legend() is not None
        plt.close(fig)


def test_std_rows_are_plain_numbers_with_a_reason(frame):
    """Issue 30 items 1-2: the std at 1024 bytes (-21 %) was 'shape only'; a number has no shape
    credit."""
    art = long_fig7_tab3.ARTEFACT.id
    rows = [{**c, "seed": SEEDS[0]} for c in long_fig7_tab3.claims(frame)]
    numbers = number_rows(art)
    assert {"ipdv_std_ef_128", "ipdv_std_ef_512", "ipdv_std_ef_1024"} <= numbers
    assert all(r["shape_ok"] is None for r in rows if r["quantity"] in numbers)
    mine = judged(rows, art)
    assert set(mine["verdict"]) <= {"reproduced", "differs", "not checkable", "pqlab only"}
    differs = mine[(mine["verdict"] == "differs") & (mine["kind"] == "result")]
    assert all(differs["reason"] != ""), differs[differs["reason"] == ""].index.tolist()
    by_key = {r["quantity"]: r for r in rows}
    for f in (128, 512, 1024):
        assert facts(by_key[f"ipdv_std_ef_{f}"])  # a reason with numbers on every std row
        # a mix of BE sizes widens the |IPDV| spread: all-MTU BE is no upper end, so no 'bound' over
        # mixes
        assert by_key[f"ipdv_std_ef_{f}"]["reason"]["kind"] == "input"


def test_mode_fraction_is_not_checkable_and_says_how_far_the_width_moves_it(frame):
    """Issue 30 item 2: the 60 % 'in a single interval' moves with the interval width and grid
    offset."""
    art = long_fig7_tab3.ARTEFACT.id
    rows = [{**c, "seed": SEEDS[0]} for c in long_fig7_tab3.claims(frame)]
    assert judged(rows, art).loc["mode_fraction_ef_128", "verdict"] == "not checkable"
    record = {r["quantity"]: r for r in rows}["mode_fraction_ef_128"]
    assert record["reason"]["kind"] == "definition"
    got = facts(record)
    spread = frame["mode_fraction_grid"].sel(ef_frame_bytes=128).mean("seed")
    assert got["lowest"][0] == pytest.approx(float(spread.min()))
    assert got["highest"][0] == pytest.approx(float(spread.max()))
    assert got["lowest"][0] < got["highest"][0]
    assert got["narrowest"][0] < got["widest"][0]
    # the grid holds the Dataset's own width at offset 0
    own = frame["mode_fraction_grid"].sel(
        ef_frame_bytes=128, interval_width=frame.attrs["interval_units"], grid_offset=0.0
    )
    np.testing.assert_allclose(own.values, frame["mode_fraction"].sel(ef_frame_bytes=128).values)


def test_figure_shows_the_interval_width_is_ours(frame):
    """Issue 30 item 7: the paper's 60 % was drawn over an interval width the paper never gives."""
    fig = long_fig7_tab3.figure(frame, paper_values=report.load_paper_values())
    labels = [
        t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()
    ]
    assert any("width not given" in t for t in labels), labels
    footer = " ".join(t.get_text() for t in fig.texts)
    assert "one size per" not in footer and "by packet count" in footer
    plt.close(fig)
