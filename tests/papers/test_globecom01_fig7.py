"""pqlab.papers.globecom01.globecom01_fig7: delay distribution and CCDF vs A (small runs, one
seed)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import xarray as xr  # noqa: E402
from aggregation_verdicts import facts, judged  # noqa: E402

from pqlab import scenarios, simulate  # noqa: E402
from pqlab.papers.globecom01 import globecom01_fig7  # noqa: E402

N = 300  # EF reference packets per run
SEEDS = (3,)
UNIT_S = 0.636e-3  # one transmission unit: a 128-byte frame on the 2 Mbit/s ATM line


@pytest.fixture(scope="module")
def fig7():
    return globecom01_fig7.compute(N, SEEDS)


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


def test_claims_use_the_papers_keys_and_units(fig7):
    rows = [{**c, "seed": SEEDS[0]} for c in globecom01_fig7.claims(fig7)]
    assert all(c["artefact"] == fig7.attrs["artefact"] == globecom01_fig7.ARTEFACT.id for c in rows)
    mine = judged(
        rows, globecom01_fig7.ARTEFACT.id
    )  # raises on a unit that differs from the paper's
    missing = mine[mine["verdict"] == "missing"]
    assert missing.empty, missing[["artefact", "quantity", "explanation"]].to_string()
    for r in rows:
        assert r["note"] and "\n" not in r["note"]


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: globecom01_fig7.compute(N, ()), "seeds"),
        (lambda: globecom01_fig7.compute(N, (1, 1)), "seeds"),
        (lambda: globecom01_fig7.compute(1, SEEDS), "n_ef_samples"),
        (lambda: globecom01_fig7.compute(N, SEEDS, ref_rates_bps=(400e3,)), "ref_rates_bps"),
        (lambda: globecom01_fig7.compute(N, SEEDS, bin_width_units=0), "bin_width_units"),
        (
            lambda: globecom01_fig7.compute(N, SEEDS, be_reference_payloads=(0,)),
            "be_reference_payloads",
        ),
        (lambda: globecom01_fig7.claims(xr.Dataset()), "data"),
    ],
)
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_figure_has_labelled_axes(fig7):
    fig = globecom01_fig7.figure(fig7)
    assert isinstance(fig, matplotlib.figure.Figure)
    assert globecom01_fig7.ARTEFACT.id in fig._suptitle.get_text()
    assert any("stand-in" in t.get_text() for t in fig.texts)
    for ax in fig.axes:
        assert ax.get_xlabel() and ax.get_ylabel()
        assert ax.get_legend() is not None
    plt.close(fig)


def test_fig7_be_reference_means_are_the_base_case_reference_delays(fig7):
    """The memoised A = 0 reference runs give the mean reference delay of the plain simulation."""
    from pqlab.experiments import reference_delay

    for p in globecom01_fig7.BE_REFERENCE_PAYLOADS:
        sc = scenarios.base_case(be_payload_bytes=p, n_ef_samples=N)
        expected = [
            float(np.nanmean(reference_delay(simulate(sc, seed=s), sc).values)) for s in SEEDS
        ]
        got = fig7["be_reference_delay_mean"].sel(be_payload_bytes=p).values
        assert np.array_equal(got, expected)


def test_qualitative_rows_carry_their_numbers_as_reasons(fig7):
    """Issue 30 item 2: a differing qualitative result says why, with numbers."""
    rows = [{**c, "seed": SEEDS[0]} for c in globecom01_fig7.claims(fig7)]
    by_key = {r["quantity"]: r for r in rows}
    got = facts(by_key["spread_increases_with_a"])
    assert got["std_a0"][0] == pytest.approx(
        float(fig7["delay_std_mean"].sel(aggregation_degree=0.0)) * 1e3
    )
    mine = judged(rows, globecom01_fig7.ARTEFACT.id)
    differs = mine[(mine["verdict"] == "differs") & (mine["kind"] == "result")]
    assert all(differs["reason"] != ""), differs[differs["reason"] == ""].index.tolist()


def test_figure_footer_is_not_stale(fig7):
    """Issue 30 item 7: the footer said 'one size per BE stream' while the runs draw sizes per
    packet."""
    fig = globecom01_fig7.figure(fig7)
    footer = " ".join(t.get_text() for t in fig.texts)
    assert "one size per" not in footer and "by packet count" in footer
    plt.close(fig)
