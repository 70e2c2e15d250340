"""TF-TANT PQ vs WFQ page and slides: presets, artefacts, claims and figures.

Small runs (300 EF packets, one seed) checked against what the mechanism fixes
exactly: a 1000-byte BE packet is 22 ATM cells (4.664 ms) and 2 ring particles;
under WFQ an EF finish tag of 1006 x 8 / 400 kbit/s = 20.1 ms lets exactly four BE
packets (tags 5 ms apart) go first; a 128-byte EF packet's tag (2.2 ms) lets none;
with one CBR EF and one CBR BE stream the delay is a sawtooth whose IPDV is fixed by
the slip s = (T_EF - t_EF) mod t_BE.
"""

import matplotlib
import numpy as np
import pytest
import xarray as xr

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

from pqlab import experiments, scenarios, simulate  # noqa: E402
from pqlab.pipeline import report  # noqa: E402
from pqlab.papers.artefacts import tftant_common, tftant_wfq  # noqa: E402
from pqlab.papers.artefacts.claims import tftant_wfq as tftant_wfq_claims  # noqa: E402
from pqlab.papers.figures import tftant_wfq as figures  # noqa: E402
from pqlab.base.units import to_ms  # noqa: E402

N = 300
SEEDS = (1,)
BE_TX_S = 22 * 53 * 8 / 2e6  # 1000-byte IP packet, AAL5 + LLC/SNAP: 22 cells (4.664 ms)
FRAMES = tftant_wfq.SOURCE_FRAME_SIZES  # 64, 128, 256, 512, 1024, 1518


@pytest.fixture(scope="module")
def fig1():
    return tftant_wfq.tftant_wfq_fig1(N, SEEDS, FRAMES)


@pytest.fixture(scope="module")
def fig5():
    return tftant_wfq.tftant_wfq_fig5(N, SEEDS, FRAMES)


@pytest.fixture(scope="module")
def fig2_4():
    return tftant_wfq.tftant_wfq_fig2_4(N, SEEDS)


@pytest.fixture(scope="module")
def fig6_7():
    return tftant_wfq.tftant_wfq_fig6_7(N, SEEDS)


@pytest.fixture(scope="module")
def ring():
    return tftant_wfq.tftant_slides_ring(N, SEEDS, ring_limit_particles=(1, 2, 3, 4, 5, 6))


@pytest.fixture(scope="module")
def star():
    return tftant_wfq.tftant_slides_star(N, SEEDS, stars=(1.0, 2.0, 4.0), frame_sizes=(128, 1024))


@pytest.fixture(scope="module")
def no_be():
    return tftant_wfq.tftant_slides_no_be(N, SEEDS)


@pytest.fixture(scope="module")
def data(fig1, fig5, fig2_4, fig6_7, ring, star, no_be):
    return {"tftant_wfq_fig1": fig1, "tftant_wfq_fig5": fig5, "tftant_wfq_fig2_4": fig2_4,
            "tftant_wfq_fig6_7": fig6_7, "tftant_slides_ring": ring, "tftant_slides_star": star,
            "tftant_slides_no_be": no_be}


# --------------------------------------------------------------------------- presets


def test_presets_build_the_stated_nodes():
    wfq = scenarios.pq_vs_wfq(scheduler="wfq", n_ef_samples=N)
    ef_q, be_q = wfq.node.queues
    assert (ef_q.kind, ef_q.weight_bps, ef_q.limit_packets) == ("wfq", 400e3, 10)
    assert (be_q.kind, be_q.weight_bps) == ("wfq", 1.6e6)  # the remaining bandwidth
    pq = scenarios.pq_vs_wfq(scheduler="pq", n_ef_samples=N)
    assert (pq.node.queues[0].kind, pq.node.queues[0].police_rate_bps) == ("priority", 400e3)
    assert (pq.node.ring_limit_particles, pq.node.particle_bytes, pq.node.framing) == (5, 512, "atm-aal5")
    ef, be = pq.streams
    assert ef.size.size_bytes == 1006 and be.size.size_bytes == 1000 and be.rate_bps == 2e6
    assert len(scenarios.pq_vs_wfq(with_be=False, n_ef_samples=N).streams) == 1
    st = scenarios.tftant_star(star=2.5, n_ef_samples=N)
    # STAR in IP bytes (issue 21): 2.5 x 300 kbit/s of 1024-byte frames = 2.5 x 294.7 kbit/s of IP packets
    assert st.node.queues[0].weight_bps == pytest.approx(2.5 * 300e3 * 1006 / 1024)
    assert st.node.queues[1].weight_bps == pytest.approx(2e6 - 2.5 * 300e3 * 1006 / 1024)
    assert tftant_wfq.be_tx_time_s() == pytest.approx(BE_TX_S)  # 4.664 ms


def test_measure_equals_delay_summary_also_with_loss():
    for sc in (scenarios.tftant_star(star=1.0, n_ef_samples=1000),  # EF overloaded: losses
               scenarios.pq_vs_wfq(scheduler="pq", ef_frame_bytes=128, n_ef_samples=N)):
        ds = simulate(sc, seed=4)
        ours, ref = tftant_common._measure(ds, sc), experiments.delay_summary(ds, sc)
        for key, value in ref.items():
            assert ours[key] == pytest.approx(value, rel=1e-12, nan_ok=True), key
    assert ours["loss_ratio"] == 0.0


# --------------------------------------------------------------------------- page, Figs. 1-7


def test_fig1_pq_never_above_wfq_and_the_wfq_penalty_in_be_packets(fig1):
    gap = fig1["gap_mean"]
    assert gap.attrs["units"] == "s"
    assert (gap >= -1e-12).all()
    assert float(gap.sel(ef_frame_bytes=128)) == pytest.approx(0.0, abs=1e-12)  # 2.2 ms tag < 5 ms: none ahead
    assert float(gap.sel(ef_frame_bytes=256)) == pytest.approx(0.0, abs=1e-12)
    assert float(fig1["gap_be_tx"].sel(ef_frame_bytes=1024)) == pytest.approx(4.0, abs=1e-6)  # 20.1 / 5 ms
    assert float(fig1.be_tx_time) == pytest.approx(BE_TX_S) and fig1["be_tx_time"].attrs["units"] == "s"
    assert (fig1["loss"] == 0).all()
    # either reading of the BE profile keeps the BE queue backlogged: same gain
    np.testing.assert_allclose(fig1["gap_reading_1600k"], fig1["gap_reading_2000k"], atol=0.05e-3)
    assert float(to_ms(fig1.paper_max_gain)) == pytest.approx(24.18, rel=1e-12)
    # rates in bit/s
    assert (float(fig1.ef_service_rate), float(fig1.be_weight), float(fig1.line_rate)) == (400e3, 1.6e6, 2e6)
    assert {fig1[v].attrs["units"] for v in ("ef_rate", "be_rate", "ef_service_rate", "be_weight")} == {"bit/s"}


def test_fig2_4_pq_spread_is_one_be_packet_and_wfq_waits_in_the_ef_queue(fig2_4):
    span = fig2_4["delay_span"].sel(scheduler="pq")
    # the residual of the BE packet in transmission: up to one BE tx time (approached as the phases sweep)
    assert (span <= BE_TX_S + 1e-12).all() and (span >= 0.99 * BE_TX_S).all()
    for f in (128, 1024):
        assert float(fig2_4["corr"].sel(ef_frame_bytes=f).min()) == pytest.approx(1.0, abs=1e-9)
        assert float(fig2_4["shift_std"].sel(ef_frame_bytes=f).max()) < 1e-12  # a constant shift
    assert float(fig2_4["shift"].sel(ef_frame_bytes=1024).mean()) == pytest.approx(4 * BE_TX_S, abs=1e-9)
    assert float(fig2_4["wait_share"].sel(ef_frame_bytes=1024).mean()) == pytest.approx(1.0, abs=1e-9)


def test_fig5_and_fig6_7_ipdv_is_the_sawtooth_of_the_slip(fig5, fig6_7):
    s = tftant_wfq.beat_slip_s(1024)[0]
    pq = fig5.sel(scheduler="pq", ef_frame_bytes=1024)
    assert float(pq["ipdv_mean"]) == pytest.approx(2 * s * (BE_TX_S - s) / BE_TX_S, rel=0.01)  # 299 pairs
    assert float(pq["ipdv_beat_mean"]) == pytest.approx(2 * s * (BE_TX_S - s) / BE_TX_S, rel=1e-12)
    assert float(pq["ipdv_max_be_tx"]) == pytest.approx(max(s, BE_TX_S - s) / BE_TX_S, abs=1e-9)
    # under WFQ every 1024-byte EF packet waits four more BE packets: the same IPDV series
    a = fig6_7["ipdv"].sel(ef_frame_bytes=1024)
    np.testing.assert_allclose(a.sel(scheduler="pq"), a.sel(scheduler="wfq"), atol=1e-12)
    assert float(fig6_7["ipdv_max_be_tx"].sel(scheduler="pq", ef_frame_bytes=1024).max()) < 1.0


# --------------------------------------------------------------------------- slides


def test_ring_delay_grows_one_be_packet_per_two_particles(ring):
    d = ring["delay_mean"].sel(scheduler="pq")
    # rings of 2k - 1 and 2k particles hold the same k two-particle BE packets
    for k in (1, 2, 3):
        assert float(d.sel(ring_limit_particles=2 * k - 1)) == pytest.approx(
            float(d.sel(ring_limit_particles=2 * k)), abs=1e-9)
    assert float(d.sel(ring_limit_particles=4) - d.sel(ring_limit_particles=2)) == pytest.approx(BE_TX_S, abs=1e-9)
    ip = ring["ipdv_mean"].sel(scheduler="pq")
    assert float(ip.max() - ip.min()) < 1e-12  # independent of the ring
    assert float(ring["loss"].sel(scheduler="wfq").max()) > 0.1  # WFQ weight 300 kbit/s: EF overloaded
    assert (ring["slope"] > 0).all() and (ring["r2"] > 0.9).all()
    assert ring["slope"].attrs["units"] == "s/particle" and ring["intercept"].attrs["units"] == "s"


def test_ring_limits_is_a_deprecated_name_of_ring_limit_particles():
    new = tftant_wfq.tftant_slides_ring(N, SEEDS, ring_limit_particles=(1, 2, 3), schedulers=("pq",))
    with pytest.warns(FutureWarning, match="ring_limit_particles"):
        old = tftant_wfq.tftant_slides_ring(N, SEEDS, ring_limits=(1, 2, 3), schedulers=("pq",))
    xr.testing.assert_identical(old, new)
    with pytest.raises(ValueError, match="not both"), pytest.warns(FutureWarning):
        tftant_wfq.tftant_slides_ring(N, SEEDS, ring_limit_particles=(1, 2, 3), ring_limits=(1, 2, 3))


def test_star_overload_at_one_and_pq_reached_above_the_tag_threshold(star):
    assert float(star["loss"].sel(star=1.0, ef_frame_bytes=1024).max()) > 0.1
    assert float(star["star_one_be_tag"].sel(ef_frame_bytes=1024)) == pytest.approx(1006 * 2e6 / (300e3 * 2006))
    for f in (128, 1024):
        assert float(star["delay_mean"].sel(star=4.0, ef_frame_bytes=f)) == pytest.approx(
            float(star["pq_delay_mean"].sel(ef_frame_bytes=f)), abs=1e-9)
    # at STAR 2 a 1024-byte tag (1006 x 8 / 600 kbit/s = 13.4 ms) still lets 2 BE packets (tags 5.7 ms) ahead
    assert float(star["delay_mean"].sel(star=2.0, ef_frame_bytes=1024)
                 - star["pq_delay_mean"].sel(ef_frame_bytes=1024)) == pytest.approx(2 * BE_TX_S, abs=1e-9)
    assert float(star["ef_ip_rate"].sel(ef_frame_bytes=1024)) == pytest.approx(300e3 * 1006 / 1024)  # bit/s


def test_no_be_delay_is_own_line_time_plus_path(no_be):
    wo = no_be.sel(traffic="without BE")
    np.testing.assert_allclose(wo["delay"].values, float(no_be.uncongested_delay), atol=1e-12)
    assert float(no_be["delay_min"].sel(traffic="with BE").min()) > float(wo["delay_max"].max())


def test_datasets_are_in_si_units_with_long_names(data):
    for artefact, ds in data.items():
        for name, var in ds.data_vars.items():
            unit = var.attrs.get("units")
            assert unit and var.attrs.get("long_name"), (artefact, name)
            assert "ms" not in unit and "kbit" not in unit, (artefact, name, unit)


def test_claims_state_milliseconds_computed_before_the_statistics(fig1, ring, no_be):
    """The claims' ms are the statistics of the per-seed values converted first (the report's numbers)."""
    c = {r["quantity"]: r for r in tftant_wfq_claims.tftant_wfq_fig1_claims(fig1)}
    gap_ms = to_ms(fig1["delay"].sel(scheduler="wfq")) - to_ms(fig1["delay"].sel(scheduler="pq"))
    assert c["max_gain_mtu"]["value"] == float(gap_ms.sel(ef_frame_bytes=1518).mean("seed"))
    assert c["max_gain_mtu"]["value"] == pytest.approx(float(to_ms(fig1["gap_mean"].sel(ef_frame_bytes=1518))))
    assert (c["ef_service_rate"]["value"], c["line_rate"]["value"]) == (400.0, 2000.0)  # kbit/s
    r = {x["quantity"]: x for x in tftant_wfq_claims.tftant_slides_ring_claims(ring)}
    assert r["slope_pq"]["unit"] == "ms/particle"
    assert r["slope_pq"]["value"] == pytest.approx(float(to_ms(ring["slope"].sel(scheduler="pq"))), rel=1e-9)
    # issue 21: the slides' tx-ring IPDV test is a WFQ test, in both models (testbed_eval.ring_max_ipdv is WFQ)
    be_tx = tftant_wfq.be_tx_time_s()
    assert r["max_ipdv_one_be_tx"]["value"] == pytest.approx(
        float(ring["ipdv_max"].sel(scheduler="wfq").max()) / be_tx, rel=1e-9)
    b = {x["quantity"]: x for x in tftant_wfq_claims.tftant_slides_no_be_claims(no_be)}
    assert b["mean_delay_without_be"]["value"] == pytest.approx(float(to_ms(no_be.uncongested_delay)), rel=1e-9)
    assert no_be["delay"].attrs["units"] == "s"  # the claims left the Dataset as it was


# --------------------------------------------------------------------------- claims


def test_fig1_left_panel_shows_the_pages_numbers_with_a_legend_that_names_them(fig1):
    """The page's gains (~4 and ~5 BE tx times, 24.18 ms at MTU size) drawn up from our PQ curve in the
    delay panel, in ms; the legend names each entry (no bare "dotted: ..." title)."""
    import matplotlib.pyplot as plt

    fig = figures.tftant_wfq_fig1(fig1)
    left = fig.axes[0]
    legend = left.get_legend()
    assert legend.get_title().get_text() == ""
    names = [t.get_text() for t in legend.get_texts()]
    assert any("page: PQ + max gain 24.18 ms" in n for n in names) and any("frame sizes the page" in n for n in names)
    paper = [line for line in left.get_lines() if line.get_color() == "black" and line.get_marker() in ("D", "*")]
    tops = sorted(float(line.get_ydata()[0]) for line in paper)
    pq = fig1["delay_mean"].sel(scheduler="pq")
    expected = sorted([float(pq.sel(ef_frame_bytes=1024)) * 1e3 + 4 * BE_TX_S * 1e3,
                       float(pq.sel(ef_frame_bytes=1518)) * 1e3 + 5 * BE_TX_S * 1e3,
                       float(pq.sel(ef_frame_bytes=1518)) * 1e3 + 24.18])
    np.testing.assert_allclose(tops, expected, rtol=1e-6)
    plt.close(fig)


@pytest.mark.parametrize("artefact", ["tftant_wfq_fig1", "tftant_wfq_fig5", "tftant_wfq_fig2_4",
                                      "tftant_wfq_fig6_7", "tftant_slides_ring", "tftant_slides_star",
                                      "tftant_slides_no_be"])
def test_claims_cover_every_paper_row_with_its_unit(artefact, data):
    claims = {c["quantity"]: c for c in getattr(tftant_wfq_claims, f"{artefact}_claims")(data[artefact])}
    assert all(c["artefact"] == artefact and c["note"] for c in claims.values())
    paper = report.load_paper_values()
    rows = paper[paper["artefact"] == artefact]
    assert len(rows) and set(rows["quantity"]) <= set(claims)
    units = dict(zip(rows["quantity"], rows["unit"]))
    assert all(units[q] == c["unit"] for q, c in claims.items() if q in units)


def test_claims_verdicts_of_the_mechanism(fig1, ring):
    c = {r["quantity"]: r for r in tftant_wfq_claims.tftant_wfq_fig1_claims(fig1)}
    assert c["pq_always_lower"]["shape_ok"] is True
    assert c["equivalent_up_to_256"]["shape_ok"] is True
    assert c["gap_1024_be_tx"]["value"] == pytest.approx(4.0, abs=1e-6)
    r = {x["quantity"]: x for x in tftant_wfq_claims.tftant_slides_ring_claims(ring)}
    assert r["delay_ratio_512_256"]["shape_ok"] is None  # garbled statement: not judged
    assert r["ipdv_independent_of_ring"]["shape_ok"] is True


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: tftant_wfq.tftant_wfq_fig1(n_ef_samples=0), "n_ef_samples"),
        (lambda: tftant_wfq.tftant_wfq_fig1(N, seeds=()), "seeds"),
        (lambda: tftant_wfq.tftant_wfq_fig1(N, frame_sizes=[10]), "frame_sizes"),
        (lambda: tftant_wfq.tftant_wfq_fig1(N, ef_service_rate_bps=0), "ef_service_rate_bps"),
        (lambda: tftant_wfq.tftant_wfq_fig5(N, frame_sizes=[64, 64]), "frame_sizes"),
        (lambda: tftant_wfq.tftant_wfq_fig6_7(N, peak_fraction=0), "peak_fraction"),
        (lambda: tftant_wfq.tftant_slides_ring(N, ring_limit_particles=[1, 2]), "ring_limit_particles"),
        (lambda: tftant_wfq.tftant_slides_ring(N, ring_limit_particles=[0, 1, 2]), "ring_limit_particles"),
        (lambda: tftant_wfq.tftant_slides_ring(N, schedulers=["fifo"]), "schedulers"),
        (lambda: tftant_wfq.tftant_slides_star(N, stars=[0.0]), "stars"),
        (lambda: tftant_wfq.tftant_slides_no_be(N, scheduler="fifo"), "scheduler"),
        (lambda: tftant_wfq_claims.tftant_wfq_fig1_claims("not a dataset"), "data"),
        (lambda: scenarios.pq_vs_wfq(scheduler="fifo"), "scheduler"),
        (lambda: scenarios.pq_vs_wfq(ef_frame_bytes=18), "ef_frame_bytes"),
        (lambda: scenarios.pq_vs_wfq(with_be="yes"), "with_be"),
        (lambda: scenarios.pq_vs_wfq(be_ip_bytes=0), "be_ip_bytes"),
        (lambda: scenarios.pq_vs_wfq(n_be_streams=0), "n_be_streams"),
        (lambda: scenarios.pq_vs_wfq(ring_limit_particles=0), "ring_limit_particles"),
        (lambda: scenarios.tftant_star(star=-1), "star"),
        (lambda: scenarios.tftant_node("pq", ef_service_rate_bps=-1), "ef_service_rate_bps"),
    ],
)
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# --------------------------------------------------------------------------- figures


@pytest.mark.parametrize("artefact", ["tftant_wfq_fig1", "tftant_wfq_fig5", "tftant_wfq_fig2_4",
                                      "tftant_wfq_fig6_7", "tftant_slides_ring", "tftant_slides_star",
                                      "tftant_slides_no_be"])
def test_figures_have_labelled_axes(artefact, data):
    import matplotlib.pyplot as plt

    fig = getattr(figures, artefact)(data[artefact])
    assert isinstance(fig, Figure)
    axes = [ax for ax in fig.axes if ax.get_label() != "<colorbar>" and ax.get_visible()]
    main = [ax for ax in axes if ax.get_xlabel() or ax.get_ylabel()]
    assert main and all(ax.get_xlabel() and ax.get_ylabel() for ax in main)
    titles = [fig._suptitle.get_text() if fig._suptitle else ""] + [ax.get_title() for ax in axes]
    assert any(artefact in t for t in titles)
    plt.close(fig)
