"""GLOBECOM'01 Sec. II-IV artefacts: compute functions, claims and figures (small runs)."""

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import pqlab  # noqa: E402
from pqlab import bounds  # noqa: E402
from pqlab.measure import analysis  # noqa: E402
from pqlab.pipeline import report  # noqa: E402
from pqlab.papers.artefacts import background as bg  # noqa: E402
from pqlab.papers.artefacts.claims import background as bg_claims  # noqa: E402
from pqlab.papers.artefacts import background_deterministic  # noqa: E402
from pqlab.papers.artefacts import paper_vs_ours, record_claims  # noqa: E402
from pqlab.papers.figures import background as bgfig  # noqa: E402
from pqlab.base.units import to_ms  # noqa: E402

N = 300  # EF packets per run: enough for the deterministic cases, fast


@pytest.fixture(scope="module")
def paper():
    """(artefact, quantity) -> unit of every row of data/paper_values.csv."""
    table = report.load_paper_values()
    return dict(zip(zip(table.artefact, table.quantity), table.unit))


@pytest.fixture(scope="module")
def fig3_1_data():
    return bg.globecom01_fig3_1(n_ef_samples=N, seeds=(1, 2), step_bytes=150)


@pytest.fixture(scope="module")
def fig3_2_data():
    return bg.globecom01_fig3_2(n_ef_samples=N, seeds=(1,))


@pytest.fixture(scope="module")
def fig5_data():
    return bg.globecom01_fig5(n_ef_samples=N, seeds=(1, 2))


@pytest.fixture(scope="module")
def tab1_data():
    return bg.globecom01_tab1(seed=1, n_ef_samples=N)


# --------------------------------------------------------------------------- compute functions


def test_fig3_1_payload_grid_holds_the_full_particle_points():
    grid = bg.globecom01_fig3_1_payloads(150)
    assert grid[0] == 100 and grid[-1] == 1450
    assert {484, 996} <= set(grid)  # IP 512 and 1024 bytes
    assert 1508 not in grid
    assert bg.globecom01_fig3_1_payloads(25)[:3] == [100, 125, 150]


def test_local_maxima_are_the_right_ends_of_plateaus_before_a_drop():
    y = np.array([1.0, 2.0, 3.0, 3.0, 3.0, 1.0, 2.0, 4.0, 4.0, 2.0, 3.0])
    assert background_deterministic._local_maxima(y, np.zeros_like(y), 0.02) == [4, 8]
    # a drop smaller than the threshold, or within the CIs, is no maximum
    y = np.array([1.0, 2.0, 1.99, 3.0])
    assert background_deterministic._local_maxima(y, np.zeros_like(y), 0.02) == []
    assert background_deterministic._local_maxima(y, np.full_like(y, 0.1), 0.001) == []
    assert background_deterministic._local_maxima(y, np.zeros_like(y), 0.001) == [1]


def test_fig3_1_maxima_sit_where_be_packets_fill_whole_particles(fig3_1_data):
    d = fig3_1_data
    a = d.attrs
    assert a["local_max_payload_bytes"] == [484, 996]
    assert a["local_max_ip_bytes"] == [512, 1024] and a["local_max_particles"] == [1, 2]
    # the delay drops by far more than the noise right after each maximum
    for p, nxt in zip(a["local_max_mean_s"], a["next_after_max_mean_s"]):
        assert nxt < 0.9 * p
    assert a["sawtooth"] and a["non_monotone"] and a["w_bounds_maxima"]
    assert all(0.3 < r < 1.0 for r in a["local_max_ratio_to_w"])
    # W is Table IV's formula with k = particles of the BE packet
    k = d["particles"].values
    want = [bounds.worst_case_delay(int(kk), 0.15, 5, 2048e-6).w_s for kk in k]
    np.testing.assert_allclose(d["worst_case_w"].values, want)
    assert d["worst_case_w"].attrs["units"] == "s" and d["mean_delay"].attrs["units"] == "s"
    # two seeds give a finite CI that contains both seeds' means
    ci = d["mean_delay_ci"].values
    assert np.all(np.isfinite(ci)) and np.all(ci >= 0)
    runs = d["delay_mean"].values
    assert np.all(np.abs(runs - d["mean_delay"].values[:, None]) <= ci[:, None] + 1e-12)
    # the path adds 2 x 0.636 ms for the EF packet
    assert a["path_ef_delay_s"] == pytest.approx(1.272e-3)
    # the claims state the maxima in ms, from the statistics of the ms values (the same maxima)
    c = {r["quantity"]: r for r in bg_claims.globecom01_fig3_1_claims(d)}
    assert c["local_max_1_mean_delay"]["value"] == float(to_ms(d["mean_delay"].sel(be_payload_bytes=484)))
    assert c["local_max_2_ratio_to_w"]["value"] == pytest.approx(a["local_max_ratio_to_w"][1], rel=1e-12)
    assert "local_max_mean_ms" not in a  # the claims' ms view left the Dataset as it was


def test_fig3_2_payloads_450_and_475_take_one_particle_and_coincide(fig3_2_data):
    d = fig3_2_data
    assert list(d["particles"].values) == [1, 1] and list(d["cells"].values) == [11, 11]
    assert d["delay"].shape == (2, 1, N) and d["delay"].attrs["units"] == "s"
    assert d["delay_p95"].attrs["units"] == "s" and "be_line_time_s" in d.attrs
    assert d.attrs["ks_max"] < d.attrs["ks_critical"]
    assert abs(d.attrs["mean_difference_s"]) < 0.05e-3
    # a periodic sawtooth whose period is the phase slip of the EF packets against the BE departures
    assert d.attrs["periodic"]
    assert abs(d.attrs["acf_peak_lag_mode"] - d.attrs["predicted_period_packets"][0]) <= 1
    assert 0.2 < d.attrs["fluctuation_fraction"] < 0.6
    assert d.attrs["first_two_particle_payload"] == 485


def test_fig3_2_tells_apart_payloads_that_take_different_particles():
    d = bg.globecom01_fig3_2(n_ef_samples=N, seeds=(1,), payloads=(450, 500))
    assert list(d["particles"].values) == [1, 2]
    assert d.attrs["ks_max"] > d.attrs["ks_critical"]
    assert d.attrs["mean_difference_s"] < -1.0e-3  # 500 bytes: fragmented particles, lower delay


def test_fig5_ccdfs_in_transmission_units(fig5_data):
    d = fig5_data
    a = d.attrs
    assert a["transmission_unit_s"] == pytest.approx(0.636e-3) and a["ef_ip_bytes"] == 110 and a["ef_cells"] == 3
    ccdf = d["ccdf"].values
    assert np.all(np.diff(ccdf, axis=1) <= 0) and np.all(ccdf[:, 0] == 1.0)
    pooled = d["ccdf_pooled"].values
    assert np.all(pooled >= ccdf.min(axis=0) - 1e-12) and np.all(pooled <= ccdf.max(axis=0) + 1e-12)
    # the offered BE packets follow the stand-in CDF by count (mean 413 bytes), in every seed
    be = d["be_mean_ip_bytes"].values
    assert be.shape == (2,) and np.all(np.abs(be - 413) < 0.06 * 413)
    # numbers consistent with the samples
    units = d["delay_units"].values
    np.testing.assert_allclose(d["mean_delay"].values, units.mean(axis=1) * a["transmission_unit_s"])
    assert d["mean_delay"].attrs["units"] == "s"
    assert a["pooled_p_above_threshold"] == pytest.approx(np.mean(units > 36))
    assert a["pooled_tail_units"] <= a["pooled_max_units"]
    # every BE packet at the MTU delays EF more than the mixed sizes
    assert a["mtu_mean_s"] > d["mean_delay"].max()


def test_fig4_quantiles_of_the_standin():
    d = bg.globecom01_fig4()
    assert d["cdf"].values[-1] == pytest.approx(1.0)
    assert list(d["quantile_bytes"].values) == [40, 40, 93, 576, 1500]
    assert d.attrs["mean_bytes"] == pytest.approx(413.4, abs=0.5)
    assert d.attrs["modes_bytes"] == [40, 576, 1500]
    assert "STAND-IN" in d.attrs["title"]


def test_fig4_cites_the_repositorys_data_file_also_from_an_installed_package(monkeypatch, tmp_path):
    """A wheel reads the stand-in from pqlab/_data/; readers are pointed to the repository's data/ file."""
    from pqlab import scenarios

    installed = tmp_path / "site-packages" / "pqlab" / "_data" / "be_size_cdf_standin.csv"
    installed.parent.mkdir(parents=True)
    installed.write_bytes(scenarios.REAL_BE_CDF.read_bytes())
    monkeypatch.setattr(scenarios, "REAL_BE_CDF", installed)
    assert bg.globecom01_fig4().attrs["file"] == "data/be_size_cdf_standin.csv"


def test_tab1_renders_table_i_from_the_presets(tab1_data):
    t = tab1_data
    assert len(t) == 2
    assert list(t["EF load (kbit/s)"]) == pytest.approx([300, 300])
    assert list(t["EF frame size (bytes)"]) == [128, 128] and list(t["BE streams"]) == [20, 20]
    assert (t["BE load (kbit/s)"] > 2000).all()
    a = t.attrs
    assert (a["pq_limit"], a["be_queue_limit"], a["tx_queue_limit"], a["tx_unit_bytes"]) == (10, 64, 5, 512)
    assert a["tx_queue_max_units"] == a["tx_queue_max_units_rule"] == 7
    assert a["ef_rate_fraction"] == pytest.approx(0.15)


def test_tab2_renders_table_ii_from_the_aggregation_preset():
    t = bg.globecom01_tab2(n_ef_samples=10)
    assert list(t["EF BA load (kbit/s)"]) == pytest.approx([300] * 4)
    assert list(t["EF streams"]) == [6, 3, 2, 1]
    assert list(t["Aggregation degree A"]) == pytest.approx([5 / 6, 2 / 3, 1 / 3, 0])
    assert list(t["BE size min (bytes)"]) == [40] * 4 and list(t["BE size max (bytes)"]) == [1500] * 4


def test_max_ring_particles_on_the_papers_seven_units():
    node = pqlab.Node.cisco7200_atm()
    ds = pqlab.simulate_arrivals(node, [0.0, 0.0, 0.0], [1500, 128, 1500], [1, 0, 1])
    assert analysis.max_ring_particles(ds, node) == 7
    ds = pqlab.simulate_arrivals(node, [0.0, 0.0], [128, 128], [0, 0])
    assert analysis.max_ring_particles(ds, node) == 2


def test_fig1_is_computed_from_the_node():
    node = pqlab.Node(1e6, "ethernet", 3, 256, (pqlab.Queue("priority", 4), pqlab.Queue("wfq", 9, weight_bps=5e5)))
    d = bg.globecom01_fig1(node)
    assert d.attrs["max_ring_particles"] == 3 - 1 + 6  # 1500 bytes = 6 particles of 256
    assert list(d["limit_packets"].values) == [4, 9] and math.isnan(float(d["police_rate_bps"][0]))
    fig = bgfig.globecom01_fig1(d)
    texts = " ".join(t.get_text() for t in fig.axes[0].texts)
    assert "3 particles x 256 B" in texts and "limit 9 packets" in texts and "1 Mbit/s" in texts
    assert "no policer" in texts and "globecom01_fig1" in fig.axes[0].get_title()
    plt.close(fig)


def test_fig1_text_is_at_least_the_axis_label_size_and_stays_inside_the_figure():
    """The schematic reads at the size of the other figures: no text smaller than their axis labels
    (12 pt in the seaborn notebook theme; it was 7.5-8.5 pt), and none cut off at the figure's edge."""
    fig = bgfig.globecom01_fig1(bg.globecom01_fig1())
    ax = fig.axes[0]
    texts = [t for t in [*ax.texts, ax.title] if t.get_text().strip()]
    assert bgfig.label_size() == 12.0
    small = [(t.get_text()[:30], t.get_fontsize()) for t in texts if t.get_fontsize() < bgfig.label_size()]
    assert not small, small
    fig.canvas.draw()
    frame = fig.bbox
    outside = [t.get_text()[:30] for t in texts
               if not frame.contains(*t.get_window_extent().p0) or not frame.contains(*t.get_window_extent().p1)]
    assert not outside, outside
    plt.close(fig)


# --------------------------------------------------------------------------- claims


def test_claims_use_the_paper_keys_and_units_and_can_be_recorded(
    tmp_path, paper, fig3_1_data, fig3_2_data, fig5_data, tab1_data
):
    cases = {
        "globecom01_tab1": bg_claims.globecom01_tab1_claims(tab1_data),
        "globecom01_tab2": bg_claims.globecom01_tab2_claims(bg.globecom01_tab2(n_ef_samples=10)),
        "globecom01_fig3_1": bg_claims.globecom01_fig3_1_claims(fig3_1_data),
        "globecom01_fig3_2": bg_claims.globecom01_fig3_2_claims(fig3_2_data),
        "globecom01_fig4": bg_claims.globecom01_fig4_claims(bg.globecom01_fig4()),
        "globecom01_fig5": bg_claims.globecom01_fig5_claims(fig5_data),
    }
    for artefact, rows in cases.items():
        quantities = [r["quantity"] for r in rows]
        assert len(set(quantities)) == len(quantities)
        claims = {q for (a, q) in paper if a == artefact}
        assert claims <= set(quantities), (artefact, sorted(claims - set(quantities)))
        for row in rows:
            assert row["artefact"] == artefact
            if (artefact, row["quantity"]) in paper:
                assert row["unit"] == paper[(artefact, row["quantity"])], (artefact, row)
            assert row["note"] and "{" not in row["note"]
            assert paper_vs_ours(row).startswith(f"{artefact} / {row['quantity']}")
        record_claims(tmp_path, rows, show=False)
    table = report.compare(report.load_paper_values(), report._results_frame(report.load_records(tmp_path)))
    verdicts = dict(zip(zip(table.artefact, table.quantity), table.verdict))
    assert verdicts[("globecom01_fig3_1", "local_max_be_payload_1")] == "reproduced"
    assert verdicts[("globecom01_fig3_2", "lower_delay_longer_be")] == "differs"
    assert verdicts[("globecom01_fig3_2", "erratum_475_two_units")] == "reproduced"
    assert verdicts[("globecom01_tab1", "tx_queue_max_units")] == "reproduced"


# --------------------------------------------------------------------------- figures and tables


def _check_axes(fig):
    plotted = [ax for ax in fig.axes if ax.axison and (ax.lines or ax.collections or ax.patches)]
    assert plotted
    for ax in plotted:
        assert ax.get_xlabel() and ax.get_ylabel(), ax
    return plotted


def test_figure_functions_return_labelled_figures(fig3_1_data, fig3_2_data, fig5_data):
    figs = [
        bgfig.globecom01_fig3_1(fig3_1_data, paper_maxima_bytes=(485, 1000)),
        bgfig.globecom01_fig3_2(fig3_2_data, n_show=50),
        bgfig.globecom01_fig4(bg.globecom01_fig4()),
        bgfig.globecom01_fig5(fig5_data),
    ]
    for fig in figs:
        assert isinstance(fig, matplotlib.figure.Figure)
        plotted = _check_axes(fig)
        title = (fig._suptitle.get_text() if fig._suptitle else "") + " ".join(ax.get_title() for ax in plotted)
        assert "globecom01_fig" in title
        plt.close(fig)
    ax = figs[0].axes[0]
    assert "(ms)" in ax.get_ylabel() and "(bytes)" in ax.get_xlabel()
    assert any("Table IV" in t.get_text() for t in ax.get_legend().get_texts())
    assert any("STAND-IN" in t.get_text() for t in figs[3].axes[0].texts)
    assert figs[3].axes[0].get_yscale() == "log"


def test_figure_functions_reject_other_data(fig3_1_data):
    with pytest.raises(ValueError, match="fig3_1"):
        bgfig.globecom01_fig3_1(fig3_1_data.drop_vars("worst_case_w"))
    with pytest.raises(ValueError, match="fig5"):
        bgfig.globecom01_fig5("not a dataset")
    with pytest.raises(ValueError, match="n_show"):
        bgfig.globecom01_fig3_2(bg.globecom01_fig3_2(n_ef_samples=20, seeds=(1,), max_lag=5), n_show=1)


def test_claims_reject_another_artefacts_data(fig3_1_data):
    with pytest.raises(ValueError, match="globecom01_fig3_2"):
        bg_claims.globecom01_fig3_2_claims(fig3_1_data)


def test_save_table_writes_markdown_and_csv(tmp_path):
    t = bg.globecom01_tab2(n_ef_samples=10)
    paths = bgfig.save_table(t, tmp_path / "globecom01_tab2")
    assert [p.rsplit(".", 1)[1] for p in paths] == ["md", "csv"]
    lines = (tmp_path / "globecom01_tab2.md").read_text().splitlines()
    assert lines[0].startswith("| ref_load_kbps | EF BA load (kbit/s)") and set(lines[1]) <= set("|-")
    assert len([x for x in lines if x.startswith("| ")]) == len(t) + 1
    assert lines[-1].startswith("Table: globecom01_tab2")
    assert (tmp_path / "globecom01_tab2.csv").read_text().count("\n") == len(t) + 1


# --------------------------------------------------------------------------- bad arguments


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: bg.globecom01_fig3_1(seeds=()), "seeds"),
        (lambda: bg.globecom01_fig3_1(seeds=(1, 1)), "seeds"),
        (lambda: bg.globecom01_fig3_1(n_ef_samples=0), "n_ef_samples"),
        (lambda: bg.globecom01_fig3_1(step_bytes=0), "step_bytes"),
        (lambda: bg.globecom01_fig3_1(min_drop_fraction=1.5), "min_drop_fraction"),
        (lambda: bg.globecom01_fig3_2(payloads=(450,)), "payloads"),
        (lambda: bg.globecom01_fig3_2(payloads=(450, 2000)), "payloads"),
        (lambda: bg.globecom01_fig3_2(max_lag=1), "max_lag"),
        (lambda: bg.globecom01_fig3_2(acf_threshold=0.0), "acf_threshold"),
        (lambda: bg.globecom01_fig5(percentile=100.0), "percentile"),
        (lambda: bg.globecom01_fig5(seeds=(-1,)), "seeds"),
        (lambda: bg.globecom01_fig5(bin_units=0.0), "bin_units"),
        (lambda: bg.globecom01_fig4(mode_min_probability=0.0), "mode_min_probability"),
        (lambda: bg.globecom01_tab1(seed=-1), "seed"),
        (lambda: bg.globecom01_tab2(ref_rates_bps=[0.0]), "ref_rates_bps"),
        (lambda: bg.globecom01_tab2(ref_rates_bps=[]), "ref_rates_bps"),
        (lambda: bg.globecom01_fig1(node="c7200"), "node"),
        (lambda: bg.globecom01_fig1(path=3), "path"),
    ],
)
def test_bad_arguments_raise_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_position_rule_judges_the_particle_boundary_not_ten_percent():
    # issue 21: a +-10 % band around 485 (+-48 bytes) spans both sides of the 512-byte boundary
    from pqlab.papers.artefacts.claims.rules import position_ok, position_text

    assert position_ok(484, 500, 485)  # the paper's 485 (IP 513) is our first drop side, within one step
    assert position_ok(996, 1000, 1000)
    assert not position_ok(484, 500, 470)  # within 10 % of 484, but on the one-particle side
    assert not position_ok(484, 500, 525)  # beyond one sweep step
    assert not position_ok(484, 500, 484)  # the maximum itself is not past the boundary
    assert position_text(484, 500, 485).startswith("lies in our drop interval (484, 500]")
    assert position_text(484, 500, 525).startswith("lies outside")


def test_fig3_1_shows_the_papers_measured_delay_at_its_maxima(fig3_1_data):
    # issue 21: the paper ties W_m (10.16, 15.95 ms) to Fig. 3-1's maxima; drawn there, not as ticks at y = 0
    fig = bgfig.globecom01_fig3_1(fig3_1_data, paper_maxima_bytes=[485, 1000], paper_w_m_ms=[10.16, 15.95])
    ax = fig.axes[0]
    line = next(l for l in ax.get_lines() if "measured W_m" in l.get_label())
    np.testing.assert_allclose(line.get_xydata(), [[485, 10.16], [1000, 15.95]])
    assert ax.get_ylim()[1] > 15.95
    plt.close(fig)
