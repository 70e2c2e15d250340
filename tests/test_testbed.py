"""Tests of the test-bed model (pqlab.papers.testbed) and its evaluation
(pqlab.papers.testbed_eval)."""

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pqlab
from pqlab import scenarios
from pqlab.base.locations import DATA
from pqlab.node.framing import line_time_s
from pqlab.node.scenario import Scenario
from pqlab.papers import cisco7200_atm
from pqlab.papers import testbed as tb
from pqlab.papers import testbed_eval as te
from pqlab.traffic import TraceStream

#: What benchmarks/calibrate_testbed.py wrote: the grid, every score and the chosen values.
CALIBRATION_RECORD = (
    Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "testbed_calibration.json"
)
ATM = 2e6
T_EF = 3 * 53 * 8 / ATM  # 110-byte IP (128-byte frame): 3 cells, 0.636 ms
T_1500 = 32 * 53 * 8 / ATM  # 1500-byte IP: 32 cells, 6.784 ms


def trace_scenario(ef_times, be_times, be_size=1500, ef_size=110):
    """The papers' C7200 and path with explicit packets: EF flow 0 (queue 0), BE flow 100
    (queue 1)."""
    streams = (
        TraceStream(np.array(ef_times, float), np.full(len(ef_times), ef_size), 0, 0),
        TraceStream(np.array(be_times, float), np.full(len(be_times), be_size), 1, 100),
    )
    return Scenario(
        node=cisco7200_atm(), streams=streams, duration_s=1.0, path=scenarios.paper_path()
    )


def ef_delay(sc, model, seed=0):
    ds = tb.simulate_testbed(sc, seed, model)
    path = tb.testbed_scenario(sc, model).path
    delay = pqlab.metrics.one_way_delay(ds, path).values
    return delay[ds["flow"].values == 0]


# --------------------------------------------------------------------------- papers' node =
# pqlab.simulate


@pytest.mark.parametrize(
    "make",
    [
        lambda: scenarios.full_units(k=2, n_ef_samples=300),
        lambda: scenarios.aggregation(ref_rate_bps=100e3, n_ef_samples=300),
    ],
)
def test_mechanisms_off_is_the_papers_node_model_exactly(make):
    sc = make()
    a = pqlab.simulate(sc, seed=3)
    b = tb.simulate_testbed(sc, 3, tb.PAPERS_NODE)
    assert a.drop_attrs().equals(b.drop_attrs())
    assert tb.testbed_scenario(sc, tb.PAPERS_NODE) is sc
    assert tb.PAPERS_NODE.is_papers_node and not tb.TESTBED.is_papers_node
    np.testing.assert_array_equal(
        tb.reference_delays(sc, 3, tb.PAPERS_NODE), pqlab.experiments.reference_delay(a, sc).values
    )


# --------------------------------------------------------------------------- each mechanism by hand


def test_store_and_forward_hops_by_hand():
    # BE 1500 B at t=0, EF at 0.1 ms: the C7200 sends BE (6.784 ms) then EF (0.636 ms)
    sc = trace_scenario([1e-4], [0.0])
    papers = ef_delay(sc, tb.PAPERS_NODE)[0]
    assert papers == pytest.approx(T_1500 + T_EF - 1e-4 + 2 * T_EF, abs=1e-12)
    # each same-rate store-and-forward hop: EF waits for the BE ahead, so it leaves one BE line time
    # later
    one = ef_delay(sc, tb.Testbed(store_forward_hops=1))[0]
    two = ef_delay(sc, tb.Testbed(store_forward_hops=2))[0]
    assert one == pytest.approx(2 * T_1500 + T_EF - 1e-4 + T_EF, abs=1e-12)
    assert two == pytest.approx(3 * T_1500 + T_EF - 1e-4, abs=1e-12)
    # alone on the path, a hop adds only the packet's own line time (no change)
    alone = trace_scenario([1e-4], [0.5])
    assert ef_delay(alone, tb.Testbed(store_forward_hops=2))[0] == pytest.approx(
        3 * T_EF, abs=1e-12
    )


def test_os_tick_releases_software_packets_at_the_hosts_ticks():
    sc = scenarios.aggregation(ref_rate_bps=100e3, n_ef_samples=200)
    model = tb.Testbed(os_tick_s=0.01)
    ds = tb.simulate_testbed(sc, 5, model)
    flow, send, at = ds["flow"].values, ds["arrival"].values, ds["node_arrival"].values
    ref = flow == 0
    np.testing.assert_array_equal(at[ref], send[ref])  # the SmartBits is hardware-timed
    for mask in ((flow > 0) & (flow < 100), flow >= 100):
        delay = at[mask] - send[mask]
        assert delay.min() >= -1e-12 and delay.max() < 0.01 + 1e-9
        steps = (at[mask] - at[mask][0]) / 0.01
        np.testing.assert_allclose(steps, np.round(steps), atol=1e-6)  # one host: one tick grid


def test_input_ethernet_port_and_timestamps_by_hand():
    sc = trace_scenario([1e-4], [0.5])
    eth = line_time_s(110, "ethernet", 1e8)
    model = tb.Testbed(input_ethernet_bps=1e8)
    ds = tb.simulate_testbed(sc, 0, model)
    ef = ds["flow"].values == 0
    # own serialisation at the sender, then the switch's port (store-and-forward): 2 frame times
    assert ds["node_arrival"].values[ef][0] == pytest.approx(1e-4 + 2 * eth, abs=1e-12)
    rfc = ef_delay(sc, model)[0]
    assert rfc == pytest.approx(2 * eth + 3 * T_EF + eth, abs=1e-12)  # + the receive port
    cut = ef_delay(sc, tb.Testbed(input_ethernet_bps=1e8, timestamp="cut_through"))[0]
    assert rfc - cut == pytest.approx(eth, abs=1e-12)


def test_ethernet_port_queues_packets_released_together():
    # two packets at the same instant: the second waits for the first's serialisation on the port
    sc = trace_scenario([0.0], [0.0])
    ds = tb.simulate_testbed(sc, 0, tb.Testbed(input_ethernet_bps=1e8))
    at = ds["node_arrival"].values
    e110, e1500 = line_time_s(110, "ethernet", 1e8), line_time_s(1500, "ethernet", 1e8)
    # at the switch: EF at e110, BE at e1500; EF goes first, BE leaves at e1500 + e1500
    assert sorted(at) == pytest.approx(sorted([2 * e110, 2 * e1500]), abs=1e-12)


@pytest.mark.parametrize("accounting, counted", [("ip", 110), ("aal5", 126), ("cells", 159)])
def test_policer_accounting_scales_rate_and_burst(accounting, counted):
    sc = scenarios.full_units(k=1, n_ef_samples=10)
    q = tb.testbed_node(sc, tb.Testbed(police_accounting=accounting)).queues[0]
    assert q.police_rate_bps == pytest.approx(300e3 * 110 / counted)
    assert q.police_burst_bytes == pytest.approx(7500 * 110 / counted)


def test_cell_accounting_polices_a_stream_under_its_ip_rate():
    # 300 kbit/s of 128-byte frames = 257.8 kbit/s of IP, 372.7 kbit/s of cells against a 300 kbit/s
    # policer:
    # in the long run 1 - 300/372.7 = 19.5 % is dropped (after the 7500-byte bucket is spent)
    sc = scenarios.full_units(k=1, n_ef_samples=3000)
    r = te.run(sc, 1, tb.Testbed(police_accounting="cells"))
    assert r["ef_loss"] == pytest.approx(1 - 300e3 / (159 * 8 * 300e3 / (128 * 8)), abs=0.02)
    assert te.run(sc, 1, tb.PAPERS_NODE)["ef_loss"] == 0.0


def test_ring_unit_particles_and_be_conversations():
    sc = scenarios.real_distribution(n_ef_samples=10)
    assert (
        tb.testbed_node(sc, tb.Testbed(ring_unit="packets")).particle_bytes
        == tb.PACKET_PARTICLE_BYTES
    )
    assert tb.testbed_node(sc, tb.Testbed(particle_bytes=576)).particle_bytes == 576
    flow_sc = tb.testbed_scenario(sc, tb.Testbed(be_queueing="flow"))
    assert len(flow_sc.node.queues) == 1 + 20
    assert all(q.kind == "wfq" and q.limit_packets == 64 for q in flow_sc.node.queues[1:])
    be_queues = [s.queue for s in flow_sc.streams if s.flow >= 100]
    assert sorted(be_queues) == list(range(1, 21))
    assert [s.queue for s in flow_sc.streams if s.flow < 100] == [0]


def test_per_flow_fair_queueing_serves_conversations_in_turn():
    # two BE conversations backlogged at t=0 (A: three 1500 B, B: three 40 B): one class serves in
    # arrival
    # order (A, A, A, B, B, B); flow-based WFQ alternates by finish tags, so B's small packets go
    # early
    streams = (
        TraceStream(np.array([0.0]), np.array([110]), 0, 0),
        TraceStream(np.zeros(3), np.full(3, 1500), 1, 100),
        TraceStream(np.full(3, 1e-9), np.full(3, 40), 1, 101),
    )
    sc = Scenario(
        node=cisco7200_atm(), streams=streams, duration_s=1.0, path=scenarios.paper_path()
    )
    one = tb.simulate_testbed(sc, 0, tb.Testbed(be_queueing="class", store_forward_hops=1))
    per = tb.simulate_testbed(sc, 0, tb.Testbed(be_queueing="flow", store_forward_hops=1))
    last_small = lambda ds: ds["node_departure"].values[ds["flow"].values == 101].max()  # noqa: E731
    assert last_small(per) < last_small(one)


def test_be_size_mix_per_packet_gives_the_law_by_packet_count():
    sc = scenarios.real_distribution(n_ef_samples=300)
    per_stream = tb.simulate_testbed(
        sc, 2, tb.Testbed(store_forward_hops=1, be_size_mix="per_stream")
    )
    per_packet = tb.simulate_testbed(sc, 2, tb.Testbed(store_forward_hops=1))
    assert tb.Testbed().be_size_mix == "per_packet"  # the papers' reading is the default
    for ds, sizes_per_flow in ((per_stream, 1), (per_packet, None)):
        be = ds["flow"].values >= 100
        counts = [
            np.unique(ds["size"].values[be & (ds["flow"].values == f)]).size
            for f in range(100, 120)
        ]
        if sizes_per_flow:
            assert set(counts) == {1}
        else:
            assert min(counts) > 10
    # by count the sent BE packets follow the law: about 33 % are 40 bytes (stand-in), against far
    # more
    # when every stream sends 110 kbit/s whatever its size
    sent = per_packet["size"].values[per_packet["flow"].values >= 100]
    assert np.mean(sent == 40) == pytest.approx(0.33, abs=0.03)
    assert {
        s.size_per
        for s in tb.testbed_scenario(sc, tb.Testbed(be_size_mix="per_packet")).streams
        if s.flow >= 100
    } == {"packet"}
    assert {
        s.size_per
        for s in tb.testbed_scenario(sc, tb.Testbed(be_size_mix="per_stream")).streams
        if s.flow >= 100
    } == {"stream"}


def test_same_rate_hop_delays_by_the_largest_packet_of_the_busy_period():
    # back-to-back packets from a saturated line: every later packet's sojourn is the largest line
    # time so far
    sc = trace_scenario([2e-3], [0.0, 1e-9, 2e-9], be_size=1500)
    ds = tb.simulate_testbed(sc, 0, tb.Testbed(store_forward_hops=1))
    extra = ds["departure"].values - ds["node_departure"].values
    assert extra == pytest.approx(np.full(4, T_1500), abs=1e-12)


def test_be_mtu_caps_workstation_packets():
    sc = scenarios.full_units(k=3, n_ef_samples=50)  # asks for 1536-byte BE packets
    ds = tb.simulate_testbed(sc, 1, tb.Testbed(be_mtu_bytes=1500))
    be = ds["flow"].values >= 100
    assert set(np.unique(ds["size"].values[be])) == {1500}


# --------------------------------------------------------------------------- bound, determinism


BOUND_CASES = [
    (lambda: scenarios.full_units(k=1, n_ef_samples=400), tb.TESTBED),
    (lambda: scenarios.full_units(k=3, n_ef_samples=400), tb.TESTBED),
    (lambda: scenarios.real_distribution(n_ef_samples=400), tb.TESTBED),
    (lambda: scenarios.aggregation(ref_rate_bps=50e3, n_ef_samples=200), tb.TESTBED),
    (lambda: scenarios.real_distribution(n_ef_samples=400), tb.PAPERS_NODE),
    (
        lambda: scenarios.pq_vs_wfq(scheduler="pq", ef_frame_bytes=1518, n_ef_samples=300),
        tb.TESTBED,
    ),
]


@pytest.mark.parametrize("make, model", BOUND_CASES)
@pytest.mark.parametrize("seed", [1, 2])
def test_no_simulated_ef_delay_exceeds_the_test_bed_bound(make, model, seed):
    sc = make()
    bound = tb.worst_case_bound(sc, model)
    delay = tb.reference_delays(sc, seed, model)
    assert np.nanmax(delay) <= bound
    assert np.nanmax(delay) > 0.25 * bound  # not vacuous


@settings(max_examples=8, deadline=None)
@given(
    hops=st.integers(0, 2),
    particle=st.sampled_from([512, 576]),
    tick=st.sampled_from([0.0, 0.01]),
    payload=st.integers(40, 1472),
    seed=st.integers(0, 50),
)
def test_bound_holds_over_configurations(hops, particle, tick, payload, seed):
    model = tb.Testbed(store_forward_hops=hops, particle_bytes=particle, os_tick_s=tick)
    sc = scenarios.pq_experiment(
        be_payload_bytes=payload,
        ef_aggregate_bps=300e3,
        ef_rate_bps=100e3,
        n_ef_samples=100,
        warmup_s=1.0,
    )
    for flow in (0, 1):
        ds = tb.simulate_testbed(sc, seed, model)
        delay = pqlab.metrics.one_way_delay(
            ds, tb.testbed_scenario(sc, model).path, include_warmup=True
        ).values
        mine = (ds["flow"].values == flow) & np.isfinite(delay)
        assert delay[mine].max() <= tb.worst_case_bound(sc, model, flow=flow)


def test_bound_by_hand_for_the_papers_node():
    # PQ limit 10 x 0.636 + ring (5 - 1 + 3 particles of 512 B: 11 cells) + own + 2 path hops of the
    # EF packet
    sc = scenarios.real_distribution(n_ef_samples=10)
    t_particle = 11 * 53 * 8 / ATM
    assert tb.worst_case_bound(sc, tb.PAPERS_NODE) == pytest.approx(
        10 * T_EF + 7 * t_particle + T_EF + 2 * T_EF
    )
    # each store-and-forward hop carries at most the largest packet's line time
    two = tb.worst_case_bound(sc, tb.Testbed(store_forward_hops=2))
    assert two == pytest.approx(10 * T_EF + 7 * t_particle + T_EF + 2 * T_1500)


def test_determinism_per_seed():
    sc = scenarios.aggregation(ref_rate_bps=50e3, n_ef_samples=200)
    a = tb.simulate_testbed(sc, 7, tb.TESTBED)
    b = tb.simulate_testbed(sc, 7, tb.TESTBED)
    c = tb.simulate_testbed(sc, 8, tb.TESTBED)
    assert a.identical(b)
    assert not np.array_equal(a["departure"].values, c["departure"].values)
    assert json.loads(a.attrs["testbed"]) == tb.TESTBED.to_dict()
    assert Scenario.from_json(a.attrs["scenario"]) == tb.testbed_scenario(sc, tb.TESTBED)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"store_forward_hops": -1}, "store_forward_hops"),
        ({"particle_bytes": 0}, "particle_bytes"),
        ({"ring_unit": "bytes"}, "ring_unit"),
        ({"be_queueing": "fifo"}, "be_queueing"),
        ({"police_accounting": "frames"}, "police_accounting"),
        ({"os_tick_s": 2.0}, "os_tick_s"),
        ({"os_tick_s": float("nan")}, "os_tick_s"),
        ({"input_ethernet_bps": 10.0}, "input_ethernet_bps"),
        ({"timestamp": "gps"}, "timestamp"),
        ({"be_mtu_bytes": 20}, "be_mtu_bytes"),
        ({"be_size_mix": "random"}, "be_size_mix"),
    ],
)
def test_bad_options_raise_naming_the_option(kwargs, name):
    with pytest.raises(ValueError, match=name):
        tb.Testbed(**kwargs)


def test_bad_calls_raise():
    sc = scenarios.full_units(k=1, n_ef_samples=10)
    with pytest.raises(ValueError, match="unknown Testbed option"):
        tb.testbed(hops=2)
    with pytest.raises(ValueError, match="unknown Testbed option"):
        tb.Testbed.from_dict({"store_forward_hops": 1, "colour": 2})
    with pytest.raises(ValueError, match="seed"):
        tb.simulate_testbed(sc, -1)
    with pytest.raises(ValueError, match="seed"):
        tb.simulate_testbed(sc, True)
    with pytest.raises(ValueError, match="model"):
        tb.simulate_testbed(sc, 1, "testbed")
    with pytest.raises(ValueError, match="scenario"):
        tb.testbed_scenario("full_units")
    with pytest.raises(ValueError, match="store_forward_hops"):
        tb.testbed_scenario(sc, tb.Testbed(store_forward_hops=3))
    with pytest.raises(ValueError, match="flow"):
        tb.worst_case_bound(sc, flow=55)
    with pytest.raises(ValueError, match="priority queue"):
        tb.worst_case_bound(sc, flow=100)
    mixed = scenarios.ef_frame_size(ef_frame_bytes=512, n_ef_samples=10)
    second_ef = dataclasses.replace(
        scenarios.ef_frame_size(ef_frame_bytes=128, n_ef_samples=10).streams[0], flow=999
    )  # flow ids are unique per scenario
    mixed = Scenario(
        node=mixed.node, streams=mixed.streams + (second_ef,), duration_s=1.0, path=mixed.path
    )
    with pytest.raises(ValueError, match="one EF packet size"):
        tb.testbed_node(mixed, tb.Testbed(police_accounting="cells"))
    with pytest.raises(ValueError, match="n_ef_samples"):
        te.evaluate(n_ef_samples=10)
    with pytest.raises(ValueError, match="models"):
        te.evaluate({"x": "testbed"})


# --------------------------------------------------------------------------- calibration record,
# evaluation


def test_frozen_preset_is_the_calibration_result():
    record = json.loads(CALIBRATION_RECORD.read_text())
    assert record["calibration_set"] == [f"{r.artefact}/{r.quantity}" for r in te.CALIBRATION]
    assert record["chosen"] == {
        k: v for k, v in tb.TESTBED.to_dict().items() if k in record["chosen"]
    }
    assert set(record["chosen"]) == set(tb.TESTBED.to_dict())
    assert len(record["points"]) == 216 and record["seeds"] and record["pqlab_version"]
    best = min(p["objective_rms_pct"] for p in record["points"])
    assert record["chosen_objective_rms_pct"] == best


def test_every_numeric_measured_row_is_evaluated_once():
    pv = pd.read_csv(DATA / "paper_values.csv", dtype=str, keep_default_na=False)
    numeric = pv[(pv.kind == "result") & (pv.value != "")]
    keys = {(a, q) for a, q in zip(numeric.artefact, numeric.quantity)}
    mine = [(r.artefact, r.quantity) for r in te.RESULTS]
    assert len(mine) == len(set(mine)) and set(mine) == keys
    assert {r.role for r in te.RESULTS} == {"calibration", "held_out"}


def test_local_max_position():
    assert te.local_max_position([1, 2, 3, 4], [1.0, 3.0, 2.0, 2.5]) == 2.0
    assert math.isnan(te.local_max_position([1, 2, 3], [1.0, 2.0, 3.0]))


def test_evaluate_small_and_counts():
    frame = te.evaluate(
        n_ef_samples=200, seeds=(1,), results=[r for r in te.RESULTS if r.quantity == "w_m_k1"]
    )
    assert list(frame["quantity"]) == ["w_m_k1"]
    row = frame.iloc[0]
    assert row["paper"] == pytest.approx(10162.51)
    assert row["testbed"] > row["papers_node"]  # the hops add the BE packet ahead
    assert row["papers_node_err_pct"] == pytest.approx(
        (row["papers_node"] - row["paper"]) / abs(row["paper"]) * 100
    )
    c = te.counts(frame)
    assert (
        set(c["model"]) == {"papers_node", "testbed"}
        and (c["total"][c["role"] == "all"] == 1).all()
    )


def test_the_testbed_applies_the_trace_window_rule_to_the_scenario_it_is_given():
    """Issue 28 item 3: the test-bed model generates the scenario's streams itself; a trace outside
    the run's window is refused or counted as by pqlab.simulate, never a numpy error or a wrong 0.
    """
    model = tb.Testbed(store_forward_hops=1)
    epoch = 1.7e9 + np.arange(1000) * 1e-3
    with pytest.raises(
        ValueError, match=r"^streams\[0\] \(TraceStream, flow 0\): none of its 1,000 packets"
    ):
        tb.simulate_testbed(trace_scenario(epoch, [0.5]), 0, model)
    with pytest.warns(UserWarning, match=r"streams\[1\] \(TraceStream, flow 100\): 1 of 2 packets"):
        ds = tb.simulate_testbed(trace_scenario([0.1], [0.5, 3.0]), 0, model)
    assert json.loads(ds.attrs["trace_packets_outside_window"]) == {"0": 0, "100": 1}
    preset = tb.simulate_testbed(scenarios.base_case(n_ef_samples=20), 0, model)
    assert "trace_packets_outside_window" not in preset.attrs  # its streams are no traces


def _fixed(value):
    """A Measured compute function that returns ``value`` whatever the model (no simulation)."""
    return lambda model, n, seeds, be_size=None: value


def test_evaluate_judges_every_row_by_its_rule_through_the_judge():
    """Issue 30 item 1: the evaluation's verdicts are the judge's (the row's rule of
    data/paper_values.csv),
    not a 10 % test of its own: a payload 9.3 % below the paper's 485 but outside our drop interval
    differs
    (position rule), a row the paper leaves undefined is not checkable, whatever its number."""
    rows = [
        te.Measured("globecom01_fig3_1", "local_max_be_payload_1", "calibration", _fixed(440.0)),
        te.Measured("globecom01_fig3_1", "local_max_be_payload_2", "calibration", _fixed(996.0)),
        te.Measured("long_fig7_tab3", "mode_fraction_ef_128", "held_out", _fixed(0.6)),
        te.Measured("globecom01_tab4", "w_m_k1", "calibration", _fixed(10162.51 * 1.095)),
        te.Measured("globecom01_tab4", "w_m_k2", "calibration", _fixed(15949.06 * 0.89)),
    ]
    frame = te.evaluate(n_ef_samples=100, seeds=(1,), results=rows)
    for model in te.MODELS:
        assert list(frame[f"{model}_verdict"]) == [
            "differs",
            "reproduced",
            "not checkable",
            "reproduced",
            "differs",
        ]
        assert list(frame[f"{model}_within"]) == [False, True, False, True, False]
    counts = te.counts(frame).set_index(["model", "role"])
    assert counts.loc[("testbed", "all"), "reproduced"] == 2
    assert counts.loc[("testbed", "all"), "total"] == 4  # the not checkable row in no count
    assert counts.loc[("testbed", "calibration"), "reproduced"] == 2
    assert ("testbed", "held_out") not in counts.index  # its one held-out row is not checkable
    # the one verdict function: what the report's judge says for the same numbers
    assert te.verdict_of("globecom01_fig3_1", "local_max_be_payload_1", 484.0) == "reproduced"
    assert te.verdict_of("globecom01_fig3_1", "local_max_be_payload_1", 440.0) == "differs"


def test_the_20_stream_loss_is_the_largest_over_the_seeds_runs():
    """Issue 30 item 4: the slide says "up to 12 %" (a maximum): the evaluation takes the largest
    loss of the
    seeds' runs, not their mean."""
    model = (
        tb.TESTBED_ISSUE13
    )  # a preset that loses packets here (the frozen one loses none at 20 streams)
    each = [te.loss_20_streams(model, 100, (s,)) for s in (1, 2, 3)]
    assert len(set(each)) > 1  # the seeds differ, so a mean would not be the maximum
    assert te.loss_20_streams(model, 100, (1, 2, 3)) == max(each)
