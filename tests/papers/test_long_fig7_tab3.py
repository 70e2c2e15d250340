"""pqlab.papers.long.long_fig7_tab3: |IPDV| vs EF frame size (small runs, one seed)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

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
    results = pd.DataFrame(rows)[["artefact", "quantity", "value", "unit", "note", "shape_ok", "seed"]]
    table = report.compare(report.load_paper_values(), results)  # raises on a unit that differs from the paper's
    mine = table[table["artefact"] == long_fig7_tab3.ARTEFACT.id]
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
