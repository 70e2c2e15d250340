"""pqlab.papers.tftant_wfq.pq_vs_wfq_testbed: the TF-TANT PQ-vs-WFQ test bed, and what every
artefact on it keeps.

Small runs (300 EF packets, one seed) checked against what the mechanism fixes exactly: a
1000-byte BE packet is 22 ATM cells (4.664 ms) and 2 ring particles. The artefacts on the test
bed (the page's ``tftant_wfq_*``, the slides' ring, STAR and no-BE tests) hold SI units, claims
for every paper row with its unit, and figures with labelled axes.
"""

import matplotlib
import pytest

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

from pqlab import experiments, scenarios, simulate  # noqa: E402
from pqlab.papers import kit  # noqa: E402
from pqlab.papers.records import load_paper_values  # noqa: E402
from pqlab.papers.tftant_slides import (  # noqa: E402
    tftant_slides_no_be,
    tftant_slides_ring,
    tftant_slides_star,
)
from pqlab.papers.tftant_wfq import pq_vs_wfq_testbed as testbed  # noqa: E402
from pqlab.papers.tftant_wfq import (  # noqa: E402
    tftant_wfq_fig1,
    tftant_wfq_fig2_4,
    tftant_wfq_fig5,
    tftant_wfq_fig6_7,
)

N = 300
SEEDS = (1,)
BE_TX_S = 22 * 53 * 8 / 2e6  # 1000-byte IP packet, AAL5 + LLC/SNAP: 22 cells (4.664 ms)
MODULES = {
    m.ARTEFACT.id: m
    for m in (
        tftant_wfq_fig1,
        tftant_wfq_fig2_4,
        tftant_wfq_fig5,
        tftant_wfq_fig6_7,
        tftant_slides_ring,
        tftant_slides_star,
        tftant_slides_no_be,
    )
}


def _claims(artefact):
    """The artefact's claims function: its own, or the kit's reading of its Dataset."""
    module = MODULES[artefact]
    return getattr(module, "claims", None) or (lambda ds: kit.claims(module.ARTEFACT, ds))


@pytest.fixture(scope="module")
def data():
    frames = testbed.SOURCE_FRAME_SIZES
    return {
        "tftant_wfq_fig1": tftant_wfq_fig1.compute(N, SEEDS, frames),
        "tftant_wfq_fig5": tftant_wfq_fig5.compute(N, SEEDS, frames),
        "tftant_wfq_fig2_4": tftant_wfq_fig2_4.compute(N, SEEDS),
        "tftant_wfq_fig6_7": tftant_wfq_fig6_7.compute(N, SEEDS),
        "tftant_slides_ring": tftant_slides_ring.compute(
            N, SEEDS, ring_limit_particles=(1, 2, 3, 4, 5, 6)
        ),
        "tftant_slides_star": tftant_slides_star.compute(
            N, SEEDS, stars=(1.0, 2.0, 4.0), frame_sizes=(128, 1024)
        ),
        "tftant_slides_no_be": tftant_slides_no_be.compute(N, SEEDS),
    }


def test_presets_build_the_stated_nodes():
    wfq = scenarios.pq_vs_wfq(scheduler="wfq", n_ef_samples=N)
    ef_q, be_q = wfq.node.queues
    assert (ef_q.kind, ef_q.weight_bps, ef_q.limit_packets) == ("wfq", 400e3, 10)
    assert (be_q.kind, be_q.weight_bps) == ("wfq", 1.6e6)  # the remaining bandwidth
    pq = scenarios.pq_vs_wfq(scheduler="pq", n_ef_samples=N)
    assert (pq.node.queues[0].kind, pq.node.queues[0].police_rate_bps) == ("priority", 400e3)
    assert (pq.node.ring_limit_particles, pq.node.particle_bytes, pq.node.framing) == (
        5,
        512,
        "atm-aal5",
    )
    ef, be = pq.streams
    assert ef.size.size_bytes == 1006 and be.size.size_bytes == 1000 and be.rate_bps == 2e6
    assert len(scenarios.pq_vs_wfq(with_be=False, n_ef_samples=N).streams) == 1
    st = scenarios.tftant_star(star=2.5, n_ef_samples=N)
    # STAR in IP bytes (issue 21): 2.5 x 300 kbit/s of 1024-byte frames = 2.5 x 294.7 kbit/s of IP
    # packets
    assert st.node.queues[0].weight_bps == pytest.approx(2.5 * 300e3 * 1006 / 1024)
    assert st.node.queues[1].weight_bps == pytest.approx(2e6 - 2.5 * 300e3 * 1006 / 1024)
    assert testbed.be_tx_time_s() == pytest.approx(BE_TX_S)  # 4.664 ms


def test_measure_equals_delay_summary_also_with_loss():
    for sc in (
        scenarios.tftant_star(star=1.0, n_ef_samples=1000),  # EF overloaded: losses
        scenarios.pq_vs_wfq(scheduler="pq", ef_frame_bytes=128, n_ef_samples=N),
    ):
        ds = simulate(sc, seed=4)
        ours, ref = testbed.measure(ds, sc), experiments.delay_summary(ds, sc)
        for key, value in ref.items():
            assert ours[key] == pytest.approx(value, rel=1e-12, nan_ok=True), key
    assert ours["loss_ratio"] == 0.0


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: scenarios.pq_vs_wfq(scheduler="fifo"), "scheduler"),
        (lambda: scenarios.pq_vs_wfq(ef_frame_bytes=18), "ef_frame_bytes"),
        (lambda: scenarios.pq_vs_wfq(with_be="yes"), "with_be"),
        (lambda: scenarios.pq_vs_wfq(be_ip_bytes=0), "be_ip_bytes"),
        (lambda: scenarios.pq_vs_wfq(n_be_streams=0), "n_be_streams"),
        (lambda: scenarios.pq_vs_wfq(ring_limit_particles=0), "ring_limit_particles"),
        (lambda: scenarios.tftant_star(star=-1), "star"),
        (lambda: scenarios.tftant_node("pq", ef_service_rate_bps=-1), "ef_service_rate_bps"),
        (lambda: testbed.check_frames("frame_sizes", [10]), "frame_sizes"),
    ],
)
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


@pytest.mark.parametrize("artefact", sorted(MODULES))
def test_datasets_are_in_si_units_with_long_names(artefact, data):
    for name, var in data[artefact].data_vars.items():
        unit = var.attrs.get("units")
        claimed = var.attrs.get("role") == kit.CLAIM_VALUE_ROLE  # "" is a claim's pure number
        assert (unit or (claimed and unit == "")) and var.attrs.get("long_name"), (artefact, name)
        if var.attrs.get("role") != kit.CLAIM_VALUE_ROLE:  # a claim's number is in the claim's unit
            assert "ms" not in unit and "kbit" not in unit, (artefact, name, unit)


@pytest.mark.parametrize("artefact", sorted(MODULES))
def test_claims_cover_every_paper_row_with_its_unit(artefact, data):
    claims = {c["quantity"]: c for c in _claims(artefact)(data[artefact])}
    assert all(c["artefact"] == artefact and c["note"] for c in claims.values())
    paper = load_paper_values()
    rows = paper[paper["artefact"] == artefact]
    assert len(rows) and set(rows["quantity"]) <= set(claims)
    units = dict(zip(rows["quantity"], rows["unit"]))
    assert all(units[q] == c["unit"] for q, c in claims.items() if q in units)


@pytest.mark.parametrize("artefact", sorted(MODULES))
def test_figures_have_labelled_axes(artefact, data):
    import matplotlib.pyplot as plt

    fig = MODULES[artefact].figure(data[artefact])
    assert isinstance(fig, Figure)
    axes = [ax for ax in fig.axes if ax.get_label() != "<colorbar>" and ax.get_visible()]
    main = [ax for ax in axes if ax.get_xlabel() or ax.get_ylabel()]
    assert main and all(ax.get_xlabel() and ax.get_ylabel() for ax in main)
    titles = [fig._suptitle.get_text() if fig._suptitle else ""] + [ax.get_title() for ax in axes]
    assert any(artefact in t for t in titles)
    plt.close(fig)


@pytest.mark.parametrize("artefact", sorted(MODULES))
def test_the_claims_and_figure_refuse_another_artefacts_data(artefact, data):
    other = next(a for a in sorted(MODULES) if a != artefact)
    for function in (_claims(artefact), MODULES[artefact].figure):
        with pytest.raises(ValueError, match=artefact):
            function(data[other])
