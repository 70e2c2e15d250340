"""Lab 05's experiments and figures (pqlab.lab.diffserv, diffserv_figures, panel): bounds by hand,
the schedulers against them, WRED's colours in precedence order, bad input named."""

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

from pqlab.lab import diffserv, diffserv_figures, panel  # noqa: E402

#: 1000-byte BE and 1006-byte EF packets on the 2 Mbit/s ATM line: 22 cells of 53 bytes each.
T_22_CELLS_S = 22 * 53 * 8 / 2e6


def test_pq_and_drr_bounds_by_hand():
    assert diffserv.be_line_time_s() == pytest.approx(T_22_CELLS_S, rel=1e-12)  # 4.664 ms
    # 3 BE packets of 2 particles fit a ring of 5 (entered while < 5 in use), then the EF packet
    # itself
    assert diffserv.pq_bound_s() == pytest.approx(4 * T_22_CELLS_S, rel=1e-12)
    assert diffserv.pq_bound_s(ring_limit_particles=2) == pytest.approx(2 * T_22_CELLS_S, rel=1e-12)
    # one DRR turn of BE: deficit < 1000 + quantum 4024 -> at most 5 packets of 1000 bytes
    assert diffserv.drr_quanta(1006, 400e3) == (1006, 4024)
    assert diffserv.drr_bound_s() == pytest.approx(9 * T_22_CELLS_S, rel=1e-12)
    assert diffserv.drr_bound_s(be_quantum_bytes=1000) == pytest.approx(5 * T_22_CELLS_S, rel=1e-12)


def test_the_nodes_have_the_disciplines_named():
    assert [q.kind for q in diffserv.ef_node("pq").queues] == ["priority", "wfq"]
    assert [q.kind for q in diffserv.ef_node("wfq").queues] == ["wfq", "wfq"]
    drr = diffserv.ef_node("drr", ef_frame_bytes=512)
    assert [(q.kind, q.quantum_bytes) for q in drr.queues] == [("drr", 494), ("drr", 1976)]
    af = diffserv.af_node()
    assert af.queues[0].red and not af.queues[1].red
    assert af.queues[0].red_min_packets == (32.0, 24.0, 16.0)  # staggered: green, yellow, red


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: diffserv.ef_node("fifo"), "scheduler"),
        (lambda: diffserv.ef_node("drr", ef_frame_bytes=20), "ef_frame_bytes"),
        (lambda: diffserv.drr_quanta(1006, 2e6), "ef_service_rate_bps"),
        (lambda: diffserv.ef_node("drr", be_quantum_bytes=0), "be_quantum_bytes"),
        (lambda: diffserv.af_node(af_weight_bps=3e6), "af_weight_bps"),
        (lambda: diffserv.af_scenario(cir_bps=1e6, pir_bps=5e5), "pir_bps"),
        (lambda: diffserv.af_scenario(af_ip_bytes=500, bucket_bytes=100), "bucket_bytes"),
        (lambda: diffserv.af_colour_drops([-1.0]), "af_loads_bps"),
        (lambda: diffserv.ef_delays(seed=-1), "seed"),
    ],
)
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


@pytest.fixture(scope="module")
def ef():
    delays = diffserv.ef_delays(n_ef_samples=1_000, seed=1)
    return delays, diffserv.ef_summary(delays)


def test_each_scheduler_keeps_its_bound_and_pq_is_lowest(ef):
    delays, summary = ef
    assert list(summary.index) == ["pq", "wfq", "drr"]
    assert (summary["loss_ratio"] == 0).all()
    assert summary.at["pq", "max_ms"] <= diffserv.pq_bound_s() * 1e3 + 1e-9
    assert summary.at["drr", "max_ms"] <= diffserv.drr_bound_s() * 1e3 + 1e-9
    assert summary.at["pq", "max_ms"] < summary.at["wfq", "max_ms"]
    assert summary.at["pq", "max_ms"] < summary.at["drr", "max_ms"]
    # the PQ bound is reached within a BE line time (a CBR EF stream meets every ring phase)
    assert summary.at["pq", "max_ms"] > (diffserv.pq_bound_s() - diffserv.be_line_time_s()) * 1e3


def test_the_comparison_reads_the_tftant_page(ef):
    _, summary = ef
    table = diffserv.ef_comparison(summary)
    gap = table.loc["WFQ - PQ, largest EF delay (BE line times of 4.664 ms)"]
    assert gap["expected"] == 4.0  # data/paper_values.csv, tftant_wfq_fig1/gap_1024_be_tx
    assert abs(gap["ours"] - gap["expected"]) < 0.5
    assert table.loc["PQ's largest EF delay the smallest (1 yes, 0 no)", "ours"] == 1.0
    assert np.isnan(
        diffserv.ef_comparison(summary, ef_frame_bytes=512).loc[
            "WFQ - PQ, largest EF delay (BE line times of 4.664 ms)", "expected"
        ]
    )


def test_the_drr_quantum_moves_drr_delay_only(ef):
    small = diffserv.ef_summary(
        diffserv.ef_delays(("drr",), be_quantum_bytes=1000, n_ef_samples=1_000)
    )
    _, summary = ef
    assert small.at["drr", "max_ms"] < summary.at["drr", "max_ms"]
    assert small.at["drr", "max_ms"] <= diffserv.drr_bound_s(be_quantum_bytes=1000) * 1e3 + 1e-9


@pytest.fixture(scope="module")
def drops():
    return diffserv.af_colour_drops([0.4e6, 0.8e6, 1.6e6], duration_s=20.0)


def test_wred_drops_red_before_yellow_before_green(drops):
    check = diffserv.precedence_holds(drops)
    assert check["holds"].all(), check
    light = check.loc[0.4]  # within the class's share (about 0.5 Mbit/s): no drop
    assert np.nanmax(light[["green", "yellow", "red"]].to_numpy(dtype=float)) == 0
    heavy = check.loc[1.6]
    assert heavy["red"] > 0.9 and 0.1 < heavy["yellow"] < heavy["red"] and heavy["green"] < 0.05
    mix = drops[drops["af_load_mbps"] == 1.6].set_index("colour")["offered_share"]
    assert mix.sum() == pytest.approx(1.0)
    # the trTCMs colour about min(L, CIR)/L green and (L - PIR)/L red (Poisson: a few points off)
    assert mix["green"] == pytest.approx(0.4 / 1.6, abs=0.05)
    assert mix["red"] == pytest.approx(0.8 / 1.6, abs=0.05)


def test_cisco_overlapping_defaults_drop_the_colours_alike_under_overload():
    """The notebook's question 7: with one maximum (40) for every colour, a sustained overload keeps
    the average above it, where rule 2a drops every colour."""
    check = diffserv.precedence_holds(
        diffserv.af_colour_drops([2.0e6], duration_s=20.0, thresholds=diffserv.CISCO_DSCP_WRED)
    )
    row = check.loc[2.0, ["green", "yellow", "red"]]
    assert row.min() > 0.5 and row.max() - row.min() < 0.1


def test_precedence_leaves_out_a_colour_never_offered():
    import pandas as pd

    drops = pd.DataFrame(
        {
            "af_load_mbps": [1.0] * 3 + [2.0] * 3,
            "colour": ["green", "yellow", "red"] * 2,
            "drop_fraction": [0.0, 0.1, np.nan, 0.2, 0.1, 0.3],
        }
    )
    assert diffserv.precedence_holds(drops)["holds"].tolist() == [True, False]


def test_the_drops_sweep_declares_units():
    attrs = diffserv.colour_drops.attrs
    assert (
        attrs["red_drop_fraction"]["units"] == "1" and attrs["green_offered"]["units"] == "packets"
    )


def test_the_figures_label_units(ef, drops):
    delays, _ = ef
    fig = diffserv_figures.ef_delay_figure(
        delays, pq_bound_ms=18.656, drr_bound_ms=41.976, title="t"
    )
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    assert all(ax.get_xlabel() == "EF node delay (ms)" for ax in fig.axes)
    legend = [t.get_text() for t in fig.axes[1].get_legend().get_texts()]
    assert [t.split(":")[0] for t in legend] == ["PQ", "WFQ", "DRR"] and all(
        "ms" in t for t in legend
    )
    fig = diffserv_figures.af_drop_figure(drops, cir_mbps=0.4, pir_mbps=0.8)
    assert fig.axes[0].get_xlabel() == "offered AF load (Mbit/s of IP packets)"
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == [
        "green",
        "yellow",
        "red",
        "best effort",
    ]


def test_the_slider_panel_redraws():
    shown = diffserv_figures.interactive_ef(True, n_ef_samples=300)
    assert isinstance(shown, panel.Panel) and shown.redraws == 1
    first = shown.figure
    shown.controls["be_quantum_bytes"].value = 1000
    assert shown.redraws == 2 and shown.figure is not first
    assert "BE 1000 B" in shown.figure.texts[0].get_text()
    assert isinstance(diffserv_figures.interactive_ef(False, n_ef_samples=300), Figure)
    with pytest.raises(ValueError, match="interactive"):
        diffserv_figures.interactive_ef("yes")
