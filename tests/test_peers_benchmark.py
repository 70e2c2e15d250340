"""Cross-check of the engine against independent implementations from ``benchmarks/peers.py``.

The hand-written SimPy model (and ns.py's SPServer, when installed) simulate the node
where its model coincides with theirs: ``framing="none"``, a ring of one packet (non-
preemptive strict priority, one packet in service), no policer, FIFO tail drop at the
limits. On the same arrival trace every packet's departure must agree to ``TOL`` seconds
and the same packets must be dropped. simpy and ns-py are benchmark-only dependencies.
"""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip(
    "simpy", reason="simpy is a benchmark-only dependency (pip install simpy) needed by benchmarks/peers.py"
)

import pqlab  # noqa: E402
from pqlab import Node, PoissonStream, Queue, Scenario, Uniform  # noqa: E402

TOL = 1e-9  # seconds, per packet

PEERS_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "peers.py"


def _load_peers():
    spec = importlib.util.spec_from_file_location("pqlab_benchmark_peers", PEERS_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


peers = _load_peers()


def _small_s1():
    """S1 with 1,000 EF samples (about 1,940 packets); the BE queue fills and drops."""
    sc = peers.s1_scenario(0.1)
    return sc, peers.make_trace(sc, seed=3)


def test_simpy_model_matches_pqlab_on_small_s1():
    sc, (arrival, size, queue) = _small_s1()
    assert 1_500 < arrival.size < 2_500
    ds = pqlab.simulate_arrivals(sc.node, arrival, size, queue)
    dep = peers.simpy_node(arrival, size, queue, line_rate_bps=sc.node.line_rate_bps,
                           limits=[q.limit_packets for q in sc.node.queues])
    np.testing.assert_array_equal(np.isnan(dep), np.isnan(ds.departure.values))
    np.testing.assert_allclose(dep, ds.departure.values, rtol=0, atol=TOL)
    be_drops = np.count_nonzero(np.isnan(dep) & (queue == peers.BE_QUEUE))
    assert be_drops > 0  # tail drop was exercised
    ef = queue == peers.EF_QUEUE
    np.testing.assert_allclose((dep - arrival)[ef], (ds.departure - ds.arrival).values[ef], rtol=0, atol=TOL)


def test_simpy_model_matches_pqlab_with_ef_drops_and_random_sizes():
    """Poisson traffic with random sizes and short queues: EF and BE drops, varied service times."""
    node = Node(line_rate_bps=1e6, framing="none", ring_limit_particles=1, particle_bytes=1500,
                queues=(Queue("priority", 2), Queue("wfq", 3, weight_bps=1e5)))
    sc = Scenario(node=node, duration_s=10.0, streams=(
        PoissonStream(500e3, Uniform(40, 1500), queue=0, flow=0),
        PoissonStream(700e3, Uniform(40, 1500), queue=1, flow=1),
    ))
    ds = pqlab.simulate(sc, seed=5)
    arrival, size, queue = ds.arrival.values, ds["size"].values, ds.queue.values
    assert 1_500 < arrival.size < 2_500
    dep = peers.simpy_node(arrival, size, queue, line_rate_bps=1e6, limits=[2, 3])
    np.testing.assert_array_equal(np.isnan(dep), ds["drop"].values != 0)
    np.testing.assert_allclose(dep, ds.departure.values, rtol=0, atol=TOL)
    for q in (0, 1):
        assert np.count_nonzero((ds["drop"].values != 0) & (queue == q)) > 0


def test_ns_py_spserver_with_tail_drop_matches_pqlab_on_small_s1():
    pytest.importorskip("ns.scheduler.sp", reason="ns.py is a benchmark-only dependency (pip install ns-py)")
    sc, trace = _small_s1()
    ref = peers.pqlab_results(pqlab.simulate_arrivals(sc.node, *trace))
    ok, details = peers.compare(ref, peers.run_ns_sp(trace), tol=TOL)
    assert ok, details
    assert details[peers.BE_QUEUE]["drops"] > 0
