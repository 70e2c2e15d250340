"""Worst case (GLOBECOM'01 Table IV), the 5.12 ms bound and the path.

Small runs (300 EF samples, one seed) checked against what the mechanism fixes
exactly: the bound's values, the tail drop of a 10-packet queue, 10 EF line times
for a full queue and store-and-forward lags of deterministic packets.
"""

import functools

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

from pqlab.pipeline import report  # noqa: E402
from pqlab import scenarios  # noqa: E402
from pqlab.papers.artefacts import paper_value, worst_case  # noqa: E402
from pqlab.papers.artefacts.claims import worst_case as worst_case_claims  # noqa: E402
from pqlab.papers.figures import worst_case as figures  # noqa: E402
from pqlab.node.framing import line_time_s  # noqa: E402

N = 300
MS = 1e3
#: Line times on the 2 Mbit/s ATM line, ms: 128-byte EF frame (110 IP), 512- and 1500-byte IP.
EF_MS = line_time_s(110, "atm-aal5", 2e6) * MS
BE512_MS = line_time_s(512, "atm-aal5", 2e6) * MS


@pytest.fixture(scope="module")
def tab4():
    return worst_case.globecom01_tab4(N, (1,))


@pytest.fixture(scope="module")
def pq_bound():
    return worst_case.globecom01_pq_bound(n_bursts=4, burst_packets=12, seeds=(1,), n_ef_samples=N)


@pytest.fixture(scope="module")
def path():
    return worst_case.path(n_ef_samples=N, seed=1)


# --------------------------------------------------------------------------- Table IV


def test_tab4_bound_is_the_papers_table(tab4):
    np.testing.assert_allclose(tab4["w"].values, tab4["paper_w"].values, atol=0.0051e-6)  # s
    np.testing.assert_allclose(tab4["w_pq"].values, tab4["paper_w_pq"].values, atol=0.0051e-6)
    assert float(tab4["w_pq"].sel(k=3)) == pytest.approx(3 * 2048e-6 / 0.85)  # 7228.235... us, printed 7228.23
    assert {tab4[v].attrs["units"] for v in ("w", "w_m", "w_m_mean", "paper_w_m", "t_u", "path_delay",
                                              "ef_service_time")} == {"s"}
    assert tab4["ef_rate"].attrs["units"] == "bit/s" and float(tab4.ef_rate) == pytest.approx(300e3, rel=1e-9)
    assert float(tab4.rho) == pytest.approx(0.15, rel=1e-3)


def test_tab4_simulated_mechanism(tab4):
    wm = tab4["w_m_mean"]
    assert (wm < tab4["w"]).all()  # the bound overestimates
    assert (tab4["ring_time_mean"] > tab4["pq_wait_mean"]).all()  # the transmission queue dominates
    assert (tab4["pq_wait_mean"].diff("k") > 0).all()  # a longer BE packet in service: longer PQ wait
    # k = 1: 512-byte BE take one particle whatever the particle size, so H1 changes nothing
    assert float(tab4["w_m_ring_packets_mean"].sel(k=1)) == pytest.approx(float(wm.sel(k=1)), abs=1e-12)
    assert (tab4["w_m_ring_packets_mean"].sel(k=[2, 3]) > wm.sel(k=[2, 3]) + 1e-3).all()  # s
    # H7: each C7500 hop lags by the BE line time instead of the EF one, for every EF packet
    lag_s = (tab4["w_m_hops_mean"] - wm).sel(k=1)
    assert float(lag_s) == pytest.approx(2 * (BE512_MS - EF_MS) * 1e-3, abs=0.5e-6)
    assert float(wm.sel(k=1)) == pytest.approx(float(tab4["paper_w_m"].sel(k=1)), rel=0.15)
    assert (tab4["n_samples"] == N).all()
    assert np.isnan(tab4["w_m_ci"]).all()  # one seed: no CI


def test_tab4_claims_cover_every_paper_row(tab4):
    claims = {c["quantity"]: c for c in worst_case_claims.globecom01_tab4_claims(tab4)}
    paper = report.load_paper_values()
    rows = paper[paper["artefact"] == "globecom01_tab4"]
    assert set(rows["quantity"]) <= set(claims)
    units = dict(zip(rows["quantity"], rows["unit"]))
    assert all(units[q] == c["unit"] for q, c in claims.items() if q in units)
    assert claims["overestimates_measured"]["shape_ok"] is True
    assert abs(report.relative_percent(claims["w_k3"]["value"], paper_value("globecom01_tab4", "w_k3")[0])) < 1e-3
    assert claims["w_m_k1"]["note"]


# --------------------------------------------------------------------------- 5.12 ms bound


def test_pq_bound_full_queue(pq_bound):
    assert float(pq_bound.bound_unframed) == pytest.approx(5.12e-3)  # s
    assert float(pq_bound.bound_atm) == pytest.approx(10 * EF_MS / MS)
    admitted = pq_bound["admitted"]
    assert (admitted.sum("position") == 10).all()  # the queue limit; the rest are tail-dropped
    assert not admitted.sel(position=[11, 12]).any()
    # the 10 queued EF packets leave back to back: the EF part of the last is 10 EF line times
    np.testing.assert_allclose(pq_bound["ef_part"].sel(position=10).values, 10 * EF_MS / MS, atol=1e-12)
    kept = pq_bound["sojourn"].where(admitted)
    assert (kept >= pq_bound["ef_part"] - 1e-12).sum() == admitted.sum()
    assert float(pq_bound["pq_wait"].max()) > float(pq_bound.bound_atm)  # the ring's BE goes first


def test_pq_bound_lone_wait_is_about_one_mtu(pq_bound):
    lone = float(pq_bound["lone_max_pq_wait"].max())
    mtu = float(pq_bound.mtu_line_time)
    assert mtu * 0.99 <= lone <= mtu + EF_MS / MS + 1e-12  # s
    claims = {c["quantity"]: c for c in worst_case_claims.globecom01_pq_bound_claims(pq_bound)}
    assert claims["max_pq_delay"]["value"] == pytest.approx(5.12)
    assert claims["ef_queue_limit"]["value"] == 10
    assert claims["max_pq_wait_one_mtu"]["shape_ok"] is True


# --------------------------------------------------------------------------- path


def test_path_rtt_and_hops(path):
    assert float(path["rtt"].sel(size=64)) == pytest.approx(2 * 3 * 0.424e-3)  # s; 2 cells per hop
    assert path["line_rate"].attrs["units"] == "bit/s" and float(path.line_rate) == 2e6
    assert (path["rtt"].diff("size") >= -1e-12).all()
    assert (path["rtt_unframed"] < path["rtt"]).all()
    # simulated C7500 hops: every EF packet lags by the 1028-byte BE line time at each hop, constantly
    assert float(path.ef_hop_delay_mean) == pytest.approx(2 * float(path.be_line_time), abs=1e-12)
    assert float(path.ef_hop_delay_std) < 1e-12
    assert float(path.hop_max_wait) == pytest.approx(2 * (float(path.be_line_time) - EF_MS / MS), abs=1e-12)
    claims = {c["quantity"]: c for c in worst_case_claims.path_claims(path, n_ef_samples_measured=N)}
    assert claims["rtt_64_byte_packet"]["unit"] == "ms"
    assert claims["c7500_hops_uncongested"]["shape_ok"] is False


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: worst_case.globecom01_tab4(n_ef_samples=0), "n_ef_samples"),
        (lambda: worst_case.globecom01_tab4(N, seeds=()), "seeds"),
        (lambda: worst_case.globecom01_tab4(N, seeds=(-1,)), "seeds"),
        (lambda: worst_case.globecom01_tab4(N, ks=[0]), "ks"),
        (lambda: worst_case.globecom01_pq_bound(burst_packets=0), "burst_packets"),
        (lambda: worst_case.globecom01_pq_bound(spacing_s=0.0), "spacing_s"),
        (lambda: worst_case.path(sizes_bytes=[0]), "sizes_bytes"),
    ],
)
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# --------------------------------------------------------------------------- figures


@pytest.mark.parametrize("artefact", ["globecom01_tab4", "globecom01_pq_bound", "path"])
def test_figures_have_labelled_axes(artefact, tab4, pq_bound, path):
    import matplotlib.pyplot as plt

    data = {"globecom01_tab4": tab4, "globecom01_pq_bound": pq_bound, "path": path}
    fig = getattr(figures, artefact)(data[artefact])
    assert isinstance(fig, Figure)
    axes = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
    assert axes and all(ax.get_xlabel() and ax.get_ylabel() for ax in axes)
    titles = [fig._suptitle.get_text() if fig._suptitle else ""] + [ax.get_title() for ax in axes]
    assert any(artefact in t for t in titles)
    plt.close(fig)


def test_tab4_claims_in_the_papers_unit_are_the_pre_si_arithmetic():
    """The SI Dataset gives the claims bit-for-bit the numbers of the paper-unit (us) Dataset it replaced.

    Two seeds, so that the order "convert, then average over seeds" matters: the
    report's ``ours`` column is written with ``repr`` and must not move by one ulp.
    """
    from pqlab import bounds, experiments
    from pqlab.papers.artefacts.claims.worst_case import globecom01_tab4_claims

    ds = worst_case.globecom01_tab4(60, (1, 2))
    claims = {c["quantity"]: c["value"] for c in globecom01_tab4_claims(ds)}
    table = bounds.table_iv(rho=float(ds.rho), q_t=int(ds.q_t), t_u_s=float(ds.t_u), ks=[1, 2, 3])
    for k, row in zip((1, 2, 3), table.itertuples()):
        assert claims[f"w_pq_k{k}"] == row.W_pq_us and claims[f"w_k{k}"] == row.W_us  # exact, as bounds.table_iv
    make = functools.partial(scenarios.full_units, n_ef_samples=60)
    delay_us = experiments.sweep(make, {"k": [1, 2, 3]}, (1, 2))["delay_mean_s"] * 1e6
    for k in (1, 2, 3):
        assert claims[f"w_m_k{k}"] == float(delay_us.sel(k=k).mean("seed"))  # us, averaged after converting
    assert claims["t_u"] == float(ds.t_u) * 1e6 and claims["ef_rate"] == float(ds.ef_rate) / 1e3  # kbit/s


def test_units_helpers_convert_both_ways():
    from pqlab.base import units

    assert units.to_ms(0.5) == 500.0 and units.to_us(2.5e-3) == 2500.0 and units.to_kbps(300e3) == 300.0
    assert units.ms_to_s(5.12) == pytest.approx(5.12e-3, rel=1e-15) and units.us_to_s(636.0) == pytest.approx(636e-6)
    assert units.kbps_to_bps(units.to_kbps(1.7e6)) == pytest.approx(1.7e6, rel=1e-15)


def test_tab4_figure_says_the_k3_size_cannot_cross_the_ethernet(tab4):
    # issue 21: the k = 3 preset asks for 1536-byte BE packets, above the workstations' 1500-byte MTU
    fig = figures.globecom01_tab4(tab4)
    ticks = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert "not sendable" in ticks[-1] and "1536" in ticks[-1]
    assert all("not sendable" not in t for t in ticks[:-1])
