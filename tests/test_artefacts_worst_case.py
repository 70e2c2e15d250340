"""The gap hypotheses (why GLOBECOM'01 Table IV's W_m differs from ours), and the units helpers.

Small runs (300 EF samples, one seed) checked against the identities between hypotheses
that cannot differ for a given k. (Table IV, the 5.12 ms bound and the path are tested in
tests/papers/test_globecom01_tab4.py, test_globecom01_pq_bound.py and test_path.py.)
"""

import matplotlib
import numpy as np
import pytest
import xarray as xr

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

from pqlab.pipeline import report  # noqa: E402
from pqlab.papers.artefacts import gap  # noqa: E402
from pqlab.papers.artefacts.claims import gap as gap_claims  # noqa: E402
from pqlab.papers.figures import worst_case as figures  # noqa: E402

N = 300


@pytest.fixture(scope="module")
def gap_data():
    return gap.gap_table_iv(N, (1,), ring_limit_particles=(8,), particle_sizes=(1024,), table_iii=True)


# --------------------------------------------------------------------------- gap


def test_gap_identities_between_hypotheses(gap_data):
    assert {gap_data[v].attrs["units"] for v in ("w_m", "w_m_mean", "tab3_a0", "paper_w_m", "paper_tab3_a0",
                                                  "fixed_s_needed")} == {"s"}
    wm = gap_data["w_m_mean"]
    base = wm.sel(case="base")
    assert float(wm.sel(case="H1", k=1)) == pytest.approx(float(base.sel(k=1)), abs=1e-12)
    np.testing.assert_allclose(wm.sel(case="H4").values, base.values, atol=1e-12)  # deterministic BE
    np.testing.assert_allclose(wm.sel(case="H3 particle=1024", k=[1, 2]).values,
                               wm.sel(case="H1", k=[1, 2]).values, atol=1e-12)
    shift = (wm.sel(case="H5") - base).values
    np.testing.assert_allclose(shift, shift[0], atol=1e-12)  # a fixed latency shifts every k alike
    assert shift[0] == pytest.approx(float(gap_data["fixed_s_needed"].mean()), abs=1e-9)  # s
    assert (wm.sel(case="H6") < base).all()  # no cell tax: everything faster
    assert (wm.sel(case="H7") > base).all()
    assert (wm.sel(case="H2 ring=8") > base).all()
    t3 = gap_data["tab3_a0_mean"]
    # H4: the former per-stream equal-bit-rate reading skews the BE mix to small packets: less delay
    assert float(t3.sel(case="H4")) < float(t3.sel(case="base"))
    # H8: per-unit release is rule 5 for 1-unit BE packets, and never lets EF leave earlier with more units
    assert float(wm.sel(case="H8", k=1)) == pytest.approx(float(base.sel(k=1)), abs=1e-12)
    assert float(wm.sel(case="H8", k=max(gap_data["k"].values))) > float(base.sel(k=max(gap_data["k"].values)))
    assert float(t3.sel(case="H7")) > float(t3.sel(case="base")) + 5e-3  # s; MTU BE ahead at each hop


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
    claims = gap_claims.gap_claims(gap_data)
    hyps = set(gap_data["hypothesis"].values)
    assert {"best_hypothesis", "best_hypothesis_table_iv"} <= {c["quantity"] for c in claims}
    assert len(claims) == 2 + len(hyps)
    assert all(c["note"] and c["artefact"] == "gap" for c in claims)


def test_gap_ring_limits_is_a_deprecated_name_of_ring_limit_particles():
    small = dict(ks=(1,), particle_sizes=(1024,), table_iii=False)
    new = gap.gap_table_iv(N, (1,), ring_limit_particles=(7,), **small)
    with pytest.warns(FutureWarning, match="ring_limit_particles") as caught:
        old = gap.gap_table_iv(N, (1,), ring_limits=(7,), **small)
    assert caught[0].filename == __file__  # the warning points at the caller
    xr.testing.assert_identical(old, new)
    assert "H2 ring=7" in new["case"].values
    with pytest.raises(ValueError, match="not both"), pytest.warns(FutureWarning):
        gap.gap_table_iv(N, (1,), ring_limit_particles=(7,), ring_limits=(8,), **small)


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: gap.gap_table_iv(N, ring_limit_particles=[3]), "ring_limit_particles"),
        (lambda: gap.gap_table_iv(N, particle_sizes=[512]), "particle_sizes"),
        (lambda: gap.gap_table_iv(N, table_iii="yes"), "table_iii"),
    ],
)
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# --------------------------------------------------------------------------- figures


def test_gap_figure_has_labelled_axes(gap_data):
    import matplotlib.pyplot as plt

    artefact = "gap_table_iv"
    fig = figures.gap_table_iv(gap_data)
    assert isinstance(fig, Figure)
    axes = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
    assert axes and all(ax.get_xlabel() and ax.get_ylabel() for ax in axes)
    titles = [fig._suptitle.get_text() if fig._suptitle else ""] + [ax.get_title() for ax in axes]
    assert any(artefact in t for t in titles)
    plt.close(fig)


def test_gap_figure_reads_at_the_theme_size(gap_data):
    """The heatmap's numbers, its row labels and the hypotheses' legend at the theme's sizes (were 7.5,
    8 and 8 pt), the legend under the axes (inside, it covered the lines it names)."""
    import matplotlib.pyplot as plt

    fig = figures.gap_table_iv(gap_data)
    ax, hm = fig.axes[0], fig.axes[1]
    assert min(t.get_fontsize() for t in hm.texts) >= 11
    assert min(t.get_fontsize() for t in hm.get_yticklabels()) >= 11
    legend = ax.get_legend()
    assert min(t.get_fontsize() for t in legend.get_texts()) >= plt.rcParams["legend.fontsize"] - 1e-9
    fig.canvas.draw()
    assert legend.get_window_extent().y1 <= ax.get_window_extent().y0  # below the axes
    plt.close(fig)


def test_units_helpers_convert_both_ways():
    from pqlab.base import units

    assert units.to_ms(0.5) == 500.0 and units.to_us(2.5e-3) == 2500.0 and units.to_kbps(300e3) == 300.0
    assert units.ms_to_s(5.12) == pytest.approx(5.12e-3, rel=1e-15) and units.us_to_s(636.0) == pytest.approx(636e-6)
    assert units.kbps_to_bps(units.to_kbps(1.7e6)) == pytest.approx(1.7e6, rel=1e-15)
