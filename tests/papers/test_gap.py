"""pqlab.papers.analysis.gap: the hypotheses for the gap on Table IV's W_m (and Table III), claims
and figure.

Small runs (300 EF samples, one seed) checked against the identities between hypotheses that
cannot differ for a given k.
"""

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from pqlab.papers.analysis import gap  # noqa: E402

N = 300


@pytest.fixture(scope="module")
def gap_data():
    return gap.compute(N, (1,), ring_limit_particles=(8,), particle_sizes=(1024,), table_iii=True)


def test_gap_identities_between_hypotheses(gap_data):
    assert {
        gap_data[v].attrs["units"]
        for v in ("w_m", "w_m_mean", "tab3_a0", "paper_w_m", "paper_tab3_a0", "fixed_s_needed")
    } == {"s"}
    wm = gap_data["w_m_mean"]
    base = wm.sel(case="base")
    assert float(wm.sel(case="H1", k=1)) == pytest.approx(float(base.sel(k=1)), abs=1e-12)
    np.testing.assert_allclose(
        wm.sel(case="H4").values, base.values, atol=1e-12
    )  # deterministic BE
    np.testing.assert_allclose(
        wm.sel(case="H3 particle=1024", k=[1, 2]).values,
        wm.sel(case="H1", k=[1, 2]).values,
        atol=1e-12,
    )
    shift = (wm.sel(case="H5") - base).values
    np.testing.assert_allclose(shift, shift[0], atol=1e-12)  # a fixed latency shifts every k alike
    assert shift[0] == pytest.approx(float(gap_data["fixed_s_needed"].mean()), abs=1e-9)  # s
    assert (wm.sel(case="H6") < base).all()  # no cell tax: everything faster
    assert (wm.sel(case="H7") > base).all()
    assert (wm.sel(case="H2 ring=8") > base).all()
    t3 = gap_data["tab3_a0_mean"]
    # H4: the former per-stream equal-bit-rate reading skews the BE mix to small packets: less delay
    assert float(t3.sel(case="H4")) < float(t3.sel(case="base"))
    # H8: per-unit release is rule 5 for 1-unit BE packets, and never lets EF leave earlier with
    # more units
    assert float(wm.sel(case="H8", k=1)) == pytest.approx(float(base.sel(k=1)), abs=1e-12)
    assert float(wm.sel(case="H8", k=max(gap_data["k"].values))) > float(
        base.sel(k=max(gap_data["k"].values))
    )
    assert (
        float(t3.sel(case="H7")) > float(t3.sel(case="base")) + 5e-3
    )  # s; MTU BE ahead at each hop


def test_gap_scores_and_best(gap_data):
    rel = (gap_data["w_m_mean"] - gap_data["paper_w_m"]) / gap_data["paper_w_m"] * 100
    np.testing.assert_allclose(gap_data["rel_err"].values, rel.values)
    best = gap_data.attrs["best_case"]
    assert bool(gap_data["plausible"].sel(case=best))
    plausible = gap_data["rms_err_all"].where(gap_data["plausible"])
    assert float(gap_data["rms_err_all"].sel(case=best)) == pytest.approx(float(plausible.min()))
    assert not bool(gap_data["plausible"].sel(case="H6"))
    table = gap.gap_table(gap_data)
    assert list(table.index) == list(gap_data["case"].values)
    claims = gap.claims(gap_data)
    hyps = set(gap_data["hypothesis"].values)
    assert {"best_hypothesis", "best_hypothesis_table_iv"} <= {c["quantity"] for c in claims}
    assert len(claims) == 2 + len(hyps)
    assert all(c["note"] and c["artefact"] == "gap" for c in claims)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"ring_limit_particles": [3]}, "ring_limit_particles"),
        ({"particle_sizes": [512]}, "particle_sizes"),
        ({"table_iii": "yes"}, "table_iii"),
    ],
)
def test_bad_arguments_name_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        gap.compute(N, **kwargs)


def test_the_figure_has_labelled_axes_and_names_the_artefact(gap_data):
    fig = gap.figure(gap_data)
    assert isinstance(fig, Figure)
    axes = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
    assert axes and all(ax.get_xlabel() and ax.get_ylabel() for ax in axes)
    titles = [fig._suptitle.get_text() if fig._suptitle else ""] + [ax.get_title() for ax in axes]
    assert any(gap.ARTEFACT.id in t for t in titles)
    plt.close(fig)


def test_gap_figure_reads_at_the_theme_size(gap_data):
    """The heatmap's numbers, its row labels and the hypotheses' legend at the theme's sizes
    (were 7.5,
    8 and 8 pt), the legend under the axes (inside, it covered the lines it names)."""
    fig = gap.figure(gap_data)
    ax, hm = fig.axes[0], fig.axes[1]
    assert min(t.get_fontsize() for t in hm.texts) >= 11
    assert min(t.get_fontsize() for t in hm.get_yticklabels()) >= 11
    legend = ax.get_legend()
    assert (
        min(t.get_fontsize() for t in legend.get_texts()) >= plt.rcParams["legend.fontsize"] - 1e-9
    )
    fig.canvas.draw()
    assert legend.get_window_extent().y1 <= ax.get_window_extent().y0  # below the axes
    plt.close(fig)


def test_the_claims_and_figure_refuse_another_artefacts_data(gap_data):
    other = gap_data.copy()
    other.attrs = {**gap_data.attrs, "artefact": "globecom01_tab4"}
    for function in (gap.claims, gap.figure):
        with pytest.raises(ValueError, match="'gap'"):
            function(other)


def test_the_figure_title_names_the_artefact_by_its_id(gap_data):
    """Issue 30 item 6: the title said "gap_table_iv:" (a former name); it starts with the artefact
    id."""
    fig = gap.figure(gap_data)
    title = fig._suptitle.get_text()
    assert title.startswith(f"{gap.ARTEFACT.id}:") and "gap_table_iv" not in title
    plt.close(fig)
