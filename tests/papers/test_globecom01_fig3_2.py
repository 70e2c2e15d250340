"""pqlab.papers.globecom01.globecom01_fig3_2: EF delay over time for BE payloads 450 and 475
bytes."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from globecom01_claim_rows import recorded_verdicts  # noqa: E402

from pqlab.papers import judge  # noqa: E402
from pqlab.papers.globecom01 import globecom01_fig3_2 as fig3_2  # noqa: E402

N = 300  # EF packets per run: enough for the deterministic cases, fast


@pytest.fixture(scope="module")
def fig3_2_data():
    return fig3_2.compute(n_ef_samples=N, seeds=(1,))


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
    d = fig3_2.compute(n_ef_samples=N, seeds=(1,), payloads=(450, 500))
    assert list(d["particles"].values) == [1, 2]
    assert d.attrs["ks_max"] > d.attrs["ks_critical"]
    assert d.attrs["mean_difference_s"] < -1.0e-3  # 500 bytes: fragmented particles, lower delay


def test_claims_use_the_paper_keys_and_units_and_can_be_recorded(tmp_path, fig3_2_data):
    verdicts = recorded_verdicts(fig3_2.ARTEFACT.id, fig3_2.claims(fig3_2_data), tmp_path)
    assert verdicts["lower_delay_longer_be"] == "differs"
    assert verdicts["erratum_475_two_units"] == "reproduced"
    assert (
        verdicts["fluctuation_fraction"] == "differs"
    )  # about 0.41 against 1/3: no 'factor 1.5' credit
    assert (
        verdicts["be_payload_one_unit"] == "reproduced"
        and verdicts["be_payload_two_units"] == "differs"
    )


def test_claims_reject_another_artefacts_data(fig3_2_data):
    other = fig3_2_data.copy()
    other.attrs["artefact"] = "globecom01_fig3_1"
    with pytest.raises(ValueError, match="globecom01_fig3_2"):
        fig3_2.claims(other)


def test_the_figure_is_labelled(fig3_2_data):
    fig = fig3_2.figure(fig3_2_data, n_show=50)
    plotted = [ax for ax in fig.axes if ax.axison and (ax.lines or ax.collections or ax.patches)]
    assert plotted and all(ax.get_xlabel() and ax.get_ylabel() for ax in plotted)
    assert "globecom01_fig3_2" in fig._suptitle.get_text()
    plt.close(fig)


def test_the_figure_refuses_too_few_packets():
    with pytest.raises(ValueError, match="n_show"):
        fig3_2.figure(fig3_2.compute(n_ef_samples=20, seeds=(1,), max_lag=5), n_show=1)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"payloads": (450,)}, "payloads"),
        ({"payloads": (450, 2000)}, "payloads"),
        ({"max_lag": 1}, "max_lag"),
        ({"acf_threshold": 0.0}, "acf_threshold"),
    ],
)
def test_bad_arguments_raise_value_error_naming_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        fig3_2.compute(**kwargs)


def test_fluctuation_is_a_number_with_its_mechanism_and_the_coinciding_payloads_say_why(
    fig3_2_data,
):
    # issue 30: the fluctuation (+23 % against the paper's 1/3) was credited 'within a factor 1.5';
    # a number is
    # judged by its number, and a result that differs gives its mechanism with numbers
    rows = {r["quantity"]: r for r in fig3_2.claims(fig3_2_data)}
    fl = rows["fluctuation_fraction"]
    assert fl["shape_ok"] is None and fl["reason"]["kind"] == "mechanism"
    spread = judge.fact_value(fl["reason"], "spread")
    mean = judge.fact_value(fl["reason"], "mean")
    assert spread / mean == pytest.approx(fl["value"], rel=0.05)
    assert judge.fact_value(fl["reason"], "be_line_time") == pytest.approx(2.332, abs=1e-3)
    # set against the paper's own measured mean at one full unit (Table IV W_m, k = 1)
    assert judge.fact_value(fl["reason"], "paper_mean") == pytest.approx(10.16251)
    assert judge.fact_value(fl["reason"], "on_paper_mean") == pytest.approx(spread / 10.16251)
    lower = rows["lower_delay_longer_be"]
    assert lower["shape_ok"] is False and lower["reason"]["kind"] == "arithmetic"
    assert judge.fact_value(lower["reason"], "ip_longer") == 503
    assert judge.fact_value(lower["reason"], "particle") == 512
