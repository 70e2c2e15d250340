"""pqlab.papers.globecom01.globecom01_fig3_1: mean EF delay vs deterministic BE payload, claims and
figure."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from globecom01_claim_rows import recorded_verdicts  # noqa: E402

from pqlab import bounds  # noqa: E402
from pqlab.base.units import to_ms  # noqa: E402
from pqlab.papers import judge, kit  # noqa: E402
from pqlab.papers.globecom01 import globecom01_fig3_1 as fig3_1  # noqa: E402
from pqlab.pipeline import report  # noqa: E402

N = 300  # EF packets per run: enough for the deterministic cases, fast


@pytest.fixture(scope="module")
def fig3_1_data():
    return fig3_1.compute(n_ef_samples=N, seeds=(1, 2), step_bytes=150)


def test_fig3_1_payload_grid_holds_the_full_particle_points():
    grid = fig3_1.sweep_payloads(150)
    assert grid[0] == 100 and grid[-1] == 1450
    assert {484, 996} <= set(grid)  # IP 512 and 1024 bytes
    assert 1508 not in grid
    assert fig3_1.sweep_payloads(25)[:3] == [100, 125, 150]


def test_local_maxima_are_the_right_ends_of_plateaus_before_a_drop():
    y = np.array([1.0, 2.0, 3.0, 3.0, 3.0, 1.0, 2.0, 4.0, 4.0, 2.0, 3.0])
    assert fig3_1.local_maxima(y, np.zeros_like(y), 0.02) == [4, 8]
    # a drop smaller than the threshold, or within the CIs, is no maximum
    y = np.array([1.0, 2.0, 1.99, 3.0])
    assert fig3_1.local_maxima(y, np.zeros_like(y), 0.02) == []
    assert fig3_1.local_maxima(y, np.full_like(y, 0.1), 0.001) == []
    assert fig3_1.local_maxima(y, np.zeros_like(y), 0.001) == [1]


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
    c = {r["quantity"]: r for r in fig3_1.claims(d)}
    assert c["local_max_1_mean_delay"]["value"] == float(
        to_ms(d["mean_delay"].sel(be_payload_bytes=484))
    )
    assert c["local_max_2_ratio_to_w"]["value"] == pytest.approx(
        a["local_max_ratio_to_w"][1], rel=1e-12
    )
    assert "local_max_mean_ms" not in a  # the claims' ms view left the Dataset as it was


def test_claims_use_the_paper_keys_and_units_and_can_be_recorded(tmp_path, fig3_1_data):
    verdicts = recorded_verdicts(fig3_1.ARTEFACT.id, fig3_1.claims(fig3_1_data), tmp_path)
    assert verdicts["local_max_be_payload_1"] == verdicts["local_max_be_payload_2"] == "reproduced"
    assert verdicts["maxima_match_worst_case"] == "differs"


def test_the_figure_is_labelled(fig3_1_data):
    fig = fig3_1.figure(fig3_1_data, paper_maxima_bytes=(485, 1000))
    ax = fig.axes[0]
    assert ax.get_xlabel() and ax.get_ylabel() and "globecom01_fig3_1" in ax.get_title()
    assert "(ms)" in ax.get_ylabel() and "(bytes)" in ax.get_xlabel()
    assert any("Table IV" in t.get_text() for t in ax.get_legend().get_texts())
    plt.close(fig)


def test_the_figure_rejects_other_data(fig3_1_data):
    with pytest.raises(ValueError, match="fig3_1"):
        fig3_1.figure(fig3_1_data.drop_vars("worst_case_w"))


def test_fig3_1_shows_the_papers_measured_delay_at_its_maxima(fig3_1_data):
    # issue 21: the paper ties W_m (10.16, 15.95 ms) to Fig. 3-1's maxima; drawn there, not as ticks
    # at y = 0
    fig = fig3_1.figure(fig3_1_data, paper_maxima_bytes=[485, 1000], paper_w_m_ms=[10.16, 15.95])
    ax = fig.axes[0]
    line = next(ln for ln in ax.get_lines() if "measured W_m" in ln.get_label())
    np.testing.assert_allclose(line.get_xydata(), [[485, 10.16], [1000, 15.95]])
    assert ax.get_ylim()[1] > 15.95
    plt.close(fig)


def test_position_rule_judges_the_particle_boundary_not_ten_percent():
    # issue 21: a +-10 % band around 485 (+-48 bytes) spans both sides of the 512-byte boundary
    assert kit.position_ok(
        484, 500, 485
    )  # the paper's 485 (IP 513) is our first drop side, within one step
    assert kit.position_ok(996, 1000, 1000)
    assert not kit.position_ok(484, 500, 470)  # within 10 % of 484, but on the one-particle side
    assert not kit.position_ok(484, 500, 525)  # beyond one sweep step
    assert not kit.position_ok(484, 500, 484)  # the maximum itself is not past the boundary
    assert kit.position_text(484, 500, 485).startswith("lies in our drop interval (484, 500]")
    assert kit.position_text(484, 500, 525).startswith("lies outside")


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"seeds": ()}, "seeds"),
        ({"seeds": (1, 1)}, "seeds"),
        ({"n_ef_samples": 0}, "n_ef_samples"),
        ({"step_bytes": 0}, "step_bytes"),
        ({"min_drop_fraction": 1.5}, "min_drop_fraction"),
    ],
)
def test_bad_arguments_raise_value_error_naming_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        fig3_1.compute(**kwargs)


def _reason_facts(row):
    return {f["name"]: f["value"] for f in row["reason"]["facts"]}


def test_maxima_match_worst_case_compares_our_ratios_to_w_with_the_papers(fig3_1_data):
    # issue 30: "reproduced" at 0.73 / 0.59 of W against the paper's W_m / W of 0.80 / 0.93 (W only
    # bounded ours)
    row = {r["quantity"]: r for r in fig3_1.claims(fig3_1_data)}["maxima_match_worst_case"]
    facts = _reason_facts(row)
    paper_1 = (
        kit.paper_value("globecom01_tab4", "w_m_k1")[0]
        / kit.paper_value("globecom01_tab4", "w_k1")[0]
    )
    paper_2 = (
        kit.paper_value("globecom01_tab4", "w_m_k2")[0]
        / kit.paper_value("globecom01_tab4", "w_k2")[0]
    )
    assert facts["paper_ratio_1"] == pytest.approx(paper_1) and facts[
        "paper_ratio_2"
    ] == pytest.approx(paper_2)
    ours = fig3_1_data.attrs["local_max_ratio_to_w"]
    assert facts["ours_ratio_1"] == pytest.approx(ours[0]) and facts[
        "ours_ratio_2"
    ] == pytest.approx(ours[1])
    assert row["shape_ok"] is False  # 0.59 is 36 % below 0.93
    # our maxima at the paper's ratios of W (within the one tolerance) reproduce it
    fake = fig3_1_data.copy(deep=True)
    w = fake["worst_case_w"]
    for payload, ratio in ((484, paper_1 * 0.95), (996, paper_2 * 1.05)):
        fake["mean_delay"].loc[{"be_payload_bytes": payload}] = ratio * float(
            w.sel(be_payload_bytes=payload)
        )
    row = {r["quantity"]: r for r in fig3_1.claims(fake)}["maxima_match_worst_case"]
    assert row["shape_ok"] is True


def test_position_rows_carry_first_after_and_no_shape(tmp_path, fig3_1_data):
    rows = {r["quantity"]: r for r in fig3_1.claims(fig3_1_data)}
    for key, after in (("local_max_be_payload_1", 550), ("local_max_be_payload_2", 1000)):
        assert rows[key]["shape_ok"] is None
        assert judge.fact_value(rows[key]["reason"], "first_after") == after
    # no number row passes a shape: the judge would refuse it
    numbers = report.load_paper_values()
    numeric = set(
        numbers.loc[(numbers.artefact == fig3_1.ARTEFACT.id) & numbers.value.notna(), "quantity"]
    )
    assert all(rows[q]["shape_ok"] is None for q in numeric)
