"""Cross-check of the engine against independent implementations from ``benchmarks/peers.py``
and ``benchmarks/peers_diffserv.py``.

The hand-written SimPy model (and ns.py's SPServer, when installed) simulate the node
where its model coincides with theirs: ``framing="none"``, a ring of one packet (non-
preemptive strict priority, one packet in service), no policer, FIFO tail drop at the
limits. On the same arrival trace every packet's departure must agree to ``TOL`` seconds
and the same packets must be dropped. simpy and ns-py are benchmark-only dependencies.

The same holds for DRR (rule 3b) against ns.py's DRRServer while every queue stays backlogged,
and for RED (rule 2a) against ns.py's REDPort fed pqlab's draws (peers_diffserv's docstring
says where the models coincide and how the scenarios keep them there); where they do not
(DRR queues that empty), the long-run byte shares agree.
"""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip(
    "simpy",
    reason="simpy is a benchmark-only dependency (pip install simpy) needed by benchmarks/peers.py",
)

import pqlab  # noqa: E402
from pqlab import Node, PoissonStream, Queue, Scenario, Uniform  # noqa: E402

TOL = 1e-9  # seconds, per packet

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _load(name):
    spec = importlib.util.spec_from_file_location(
        f"pqlab_benchmark_{name}", BENCHMARKS / f"{name}.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


peers = _load("peers")
diffserv = _load("peers_diffserv")


def _small_s1():
    """S1 with 1,000 EF samples (about 1,940 packets); the BE queue fills and drops."""
    sc = peers.s1_scenario(0.1)
    return sc, peers.make_trace(sc, seed=3)


def test_simpy_model_matches_pqlab_on_small_s1():
    sc, (arrival, size, queue) = _small_s1()
    assert 1_500 < arrival.size < 2_500
    ds = pqlab.simulate_arrivals(sc.node, arrival, size, queue)
    dep = peers.simpy_node(
        arrival,
        size,
        queue,
        line_rate_bps=sc.node.line_rate_bps,
        limits=[q.limit_packets for q in sc.node.queues],
    )
    np.testing.assert_array_equal(np.isnan(dep), np.isnan(ds.departure.values))
    np.testing.assert_allclose(dep, ds.departure.values, rtol=0, atol=TOL)
    be_drops = np.count_nonzero(np.isnan(dep) & (queue == peers.BE_QUEUE))
    assert be_drops > 0  # tail drop was exercised
    ef = queue == peers.EF_QUEUE
    np.testing.assert_allclose(
        (dep - arrival)[ef], (ds.departure - ds.arrival).values[ef], rtol=0, atol=TOL
    )


def test_simpy_model_matches_pqlab_with_ef_drops_and_random_sizes():
    """Poisson traffic with random sizes and short queues: EF and BE drops, varied service times."""
    node = Node(
        line_rate_bps=1e6,
        framing="none",
        ring_limit_particles=1,
        particle_bytes=1500,
        queues=(Queue("priority", 2), Queue("wfq", 3, weight_bps=1e5)),
    )
    sc = Scenario(
        node=node,
        duration_s=10.0,
        streams=(
            PoissonStream(500e3, Uniform(40, 1500), queue=0, flow=0),
            PoissonStream(700e3, Uniform(40, 1500), queue=1, flow=1),
        ),
    )
    ds = pqlab.simulate(sc, seed=5)
    arrival, size, queue = ds.arrival.values, ds["size"].values, ds.queue.values
    assert 1_500 < arrival.size < 2_500
    dep = peers.simpy_node(arrival, size, queue, line_rate_bps=1e6, limits=[2, 3])
    np.testing.assert_array_equal(np.isnan(dep), ds["drop"].values != 0)
    np.testing.assert_allclose(dep, ds.departure.values, rtol=0, atol=TOL)
    for q in (0, 1):
        assert np.count_nonzero((ds["drop"].values != 0) & (queue == q)) > 0


def test_ns_py_spserver_with_tail_drop_matches_pqlab_on_small_s1():
    pytest.importorskip(
        "ns.scheduler.sp", reason="ns.py is a benchmark-only dependency (pip install ns-py)"
    )
    sc, trace = _small_s1()
    ref = peers.pqlab_results(pqlab.simulate_arrivals(sc.node, *trace))
    ok, details = peers.compare(ref, peers.run_ns_sp(trace), tol=TOL)
    assert ok, details
    assert details[peers.BE_QUEUE]["drops"] > 0


def _needs_ns_py():
    pytest.importorskip(
        "ns.scheduler.drr", reason="ns.py is a benchmark-only dependency (pip install ns-py)"
    )


def test_emptied_takes_counts_a_take_that_empties_a_queue_before_more_of_it_arrives():
    """Queue 0: the trace's lone first packet (exempt: the prologue's), a take at 1 s leaving it
    empty with a packet to come at 5 s (counted), the last take (nothing to come). Queue 1: a
    take leaving one waiting, then its last."""
    arrival = np.array([0.0, 0.5, 0.6, 1.0, 5.0])
    queue = np.array([0, 1, 1, 0, 0])
    ring_entry = np.array([0.0, 2.0, 3.0, 1.0, 5.0])
    assert diffserv.emptied_takes(arrival, queue, ring_entry) == 1
    ring_entry[3] = np.nan  # the 1 s packet dropped: only the exempt first take empties queue 0
    assert diffserv.emptied_takes(arrival, queue, ring_entry) == 0
    ring_entry[1] = 0.55  # queue 1's first take now leaves it empty before its 0.6 s packet
    assert diffserv.emptied_takes(arrival, queue, ring_entry) == 1
    arrival[0] = ring_entry[0] = 0.5  # the first packet no longer alone at its instant: not exempt
    assert diffserv.emptied_takes(arrival, queue, ring_entry) == 2


def test_ns_py_drr_matches_pqlab_packet_by_packet_while_every_queue_is_backlogged():
    _needs_ns_py()
    trace = diffserv.drr_trace(diffserv.DRR_SATURATED, 0.3, 4)
    assert 3_000 < trace[0].size < 8_000
    ds = diffserv.pqlab_drr(trace)
    assert (
        diffserv.emptied_takes(trace[0], trace[2], ds.ring_entry.values) == 0
    )  # the models coincide
    rec = diffserv.agreement(
        trace, ds.departure.values, diffserv.run_ns_drr(trace), len(diffserv.DRR_LIMITS)
    )
    assert rec["exact"] and rec["departures_differing"] == 0, rec
    assert min(rec["drops_pqlab"]) > 0 and rec["arrivals_at_departures"] == 0


def test_ns_py_drr_long_run_shares_agree_where_queues_empty():
    _needs_ns_py()
    trace = diffserv.drr_trace(diffserv.DRR_UNSATURATED, 3.0, 4)
    ds = diffserv.pqlab_drr(trace)
    assert diffserv.emptied_takes(trace[0], trace[2], ds.ring_entry.values) > 0  # the models part
    rec = diffserv.agreement(
        trace, ds.departure.values, diffserv.run_ns_drr(trace), len(diffserv.DRR_LIMITS)
    )
    assert rec["departures_differing"] > 0
    assert rec["max_share_diff"] <= diffserv.SHARE_TOL, rec


@pytest.mark.parametrize(
    "case", [diffserv.RED_BELOW_MAX, diffserv.RED_ABOVE_MAX], ids=["below-max", "above-max"]
)
def test_ns_py_red_port_with_pqlab_draws_drops_the_same_packets(case):
    _needs_ns_py()
    seed = 6
    trace = diffserv.red_trace(case, 1.0, seed)
    assert 1_500 < trace[0].size < 6_000
    ds = diffserv.pqlab_red(trace, case, seed)
    dep_ns, draws = diffserv.run_ns_red(trace, case, diffserv.red_uniforms(seed, trace[0].size))
    rec = diffserv.agreement(trace, ds.departure.values, dep_ns, 1)
    assert rec["exact"] and rec["departures_differing"] == 0, rec
    early = int(np.count_nonzero(ds["drop"].values == 3))
    assert (
        early > 0 and draws > early
    )  # early drops exercised; ns.py drew for the packets it kept too


def test_ns_py_drr_parts_from_pqlab_when_a_queue_refills_while_its_last_packet_is_sent():
    """Where the models do not coincide ((a) in peers_diffserv's docstring), on the smallest trace:
    queue 0's lone packet at 0, queue 1's at 1 us, queue 0's next at 2 us (100 bytes each, 80 us
    on the line). pqlab: queue 0 emptied when its packet entered the ring, so it rejoins the
    active list behind queue 1; ns.py: queue 0 still counts its packet in service and goes on
    with its deficit."""
    _needs_ns_py()
    trace = (np.array([0.0, 1e-6, 2e-6]), np.array([100, 100, 100]), np.array([0, 1, 0]))
    line_s = 100 * 8 / diffserv.LINE_RATE_BPS
    np.testing.assert_allclose(
        diffserv.pqlab_drr(trace).departure.values, [line_s, 2 * line_s, 3 * line_s]
    )
    np.testing.assert_allclose(diffserv.run_ns_drr(trace), [line_s, 3 * line_s, 2 * line_s])
