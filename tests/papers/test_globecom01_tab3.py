"""pqlab.papers.globecom01.globecom01_tab3: mean delay per A and its parts (small runs, one
seed)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from aggregation_verdicts import facts, judged, number_rows  # noqa: E402

from pqlab.papers import testbed, testbed_eval  # noqa: E402
from pqlab.papers.globecom01 import globecom01_tab3  # noqa: E402
from pqlab.pipeline import report  # noqa: E402

N = 300  # EF reference packets per run
SEEDS = (3,)
UNIT_S = 0.636e-3  # one transmission unit: a 128-byte frame on the 2 Mbit/s ATM line


@pytest.fixture(scope="module")
def tab3():
    return globecom01_tab3.compute(N, SEEDS)


def test_tab3_parts_add_up_and_mtu_reference_is_larger(tab3):
    path = tab3.attrs["path_delay_ef_s"]
    assert path == pytest.approx(2 * UNIT_S, rel=1e-3)
    np.testing.assert_allclose(tab3["delay_mean"], tab3["node_delay_mean"] + path, rtol=1e-9)
    assert np.all(tab3["mtu_delay_mean"].values[None, :] > tab3["delay_mean"].values)
    assert np.all((tab3["be_kept_mean_bytes"] >= 40) & (tab3["be_kept_mean_bytes"] <= 1500))


def test_claims_use_the_papers_keys_and_units(tab3):
    rows = [{**c, "seed": SEEDS[0]} for c in globecom01_tab3.claims(tab3)]
    assert all(c["artefact"] == tab3.attrs["artefact"] == globecom01_tab3.ARTEFACT.id for c in rows)
    mine = judged(
        rows, globecom01_tab3.ARTEFACT.id
    )  # raises on a unit that differs from the paper's
    missing = mine[mine["verdict"] == "missing"]
    assert missing.empty, missing[["artefact", "quantity", "explanation"]].to_string()
    by_key = {r["quantity"]: r for r in rows}
    assert by_key["a_ref_load_50"]["value"] == pytest.approx(5 / 6)
    assert by_key["mean_delay_a_0"]["value"] == pytest.approx(
        float(tab3["delay_mean_mean"].sel(aggregation_degree=0.0)) * 1e3
    )
    for r in rows:
        assert r["note"] and "\n" not in r["note"]


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: globecom01_tab3.compute(N, SEEDS, common_be="yes"), "common_be"),
        (lambda: globecom01_tab3.compute(N, SEEDS, mtu_reference=1), "mtu_reference"),
        (lambda: globecom01_tab3.compute(N, SEEDS, testbed_model="yes"), "testbed_model"),
    ],
)
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_figure_has_labelled_axes_and_draws_the_paper(tab3):
    paper = report.load_paper_values()
    fig = globecom01_tab3.figure(tab3, paper_values=paper)
    assert isinstance(fig, matplotlib.figure.Figure)
    assert globecom01_tab3.ARTEFACT.id in fig._suptitle.get_text()
    assert any("stand-in" in t.get_text() for t in fig.texts)
    for ax in fig.axes:
        assert ax.get_xlabel() and ax.get_ylabel()
        assert ax.get_legend() is not None
    # the paper's values are drawn when given
    labels = [h.get_label() for h in fig.axes[0].get_lines()]
    assert "paper, Table III" in labels
    plt.close(fig)


def test_mean_rows_are_numbers_with_the_all_mtu_bound(tab3):
    """Issue 30 items 1-2: the means carried a shape_ok; each miss gives its numbers (all-MTU BE
    stays below)."""
    art = globecom01_tab3.ARTEFACT.id
    rows = [{**c, "seed": SEEDS[0]} for c in globecom01_tab3.claims(tab3)]
    numbers = number_rows(art)
    assert all(r["shape_ok"] is None for r in rows if r["quantity"] in numbers)
    mine = judged(rows, art)
    differs = mine[(mine["verdict"] == "differs") & (mine["kind"] == "result")]
    assert not differs.empty and all(differs["reason"] != "")
    by_key = {r["quantity"]: r for r in rows}
    mtu = float(tab3["mtu_delay_mean"].mean()) * 1e3  # ms
    for key in ("a_5_6", "a_0"):
        got = facts(by_key[f"mean_delay_{key}"])
        assert got["mtu_delay"] == (pytest.approx(mtu), "ms")
        bound = (
            got["ours_delay"][0] <= mtu < got["paper_delay"][0]
        )  # all-MTU BE is the upper end, still below
        assert by_key[f"mean_delay_{key}"]["reason"]["kind"] == ("bound" if bound else "input")
    trend = by_key["mean_delay_increases_with_a"]
    assert trend["reason"] and facts(trend)


def test_tab3_holds_the_calibrated_test_bed_models_means(tab3):
    """Issue 30 item 7: the figure showed only the papers' node, not the calibrated test-bed
    model."""
    got = tab3["testbed_delay_mean"]
    assert got.attrs["units"] == "s" and got.dims == ("aggregation_degree", "seed")
    expected = testbed_eval.tab3_mean("0")(testbed.TESTBED, N, SEEDS)  # ms
    assert float(got.sel(aggregation_degree=0.0).mean()) * 1e3 == pytest.approx(expected)


def test_figure_draws_the_test_bed_model_and_a_fresh_footer(tab3):
    fig = globecom01_tab3.figure(tab3, paper_values=report.load_paper_values())
    labels = [h.get_label() for h in fig.axes[0].get_lines()] + [
        t.get_text() for t in fig.axes[0].get_legend().get_texts()
    ]
    assert any("test-bed model" in label for label in labels), labels
    footer = " ".join(t.get_text() for t in fig.texts)
    assert "one size per" not in footer and "by packet count" in footer
    plt.close(fig)
