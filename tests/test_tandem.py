"""Tandems of nodes built from the single-node engine."""

import numpy as np
import pytest

from pqlab import CBRStream, Deterministic, experiments, scenarios, simulate
from pqlab.node.framing import line_time_s
from pqlab.node.tandem import TandemHop, simulate_downstream_hops, simulate_tandem


def _sc(n=300):
    return scenarios.base_case(be_payload_bytes=1000, n_ef_samples=n)


def test_an_uncongested_hop_adds_propagation_plus_one_line_time_exactly():
    sc = _sc()
    hop = TandemHop(sc.node, (), queue=scenarios.EF_QUEUE, propagation_s=0.004)
    per_hop, dep = simulate_tandem(sc, [hop, hop], flows=[scenarios.REFERENCE_FLOW], seed=2)
    ef_tx = line_time_s(110, "atm-aal5", 2e6)
    kept = np.isfinite(dep.values[:, 0])
    np.testing.assert_allclose(np.diff(dep.values[kept], axis=1), 0.004 + ef_tx, rtol=0, atol=1e-12)
    assert len(per_hop) == 3 and (per_hop[1]["packet_id"].values >= 0).all()


def test_congested_hops_add_delay_and_keep_packet_identity():
    sc = _sc()
    cross = tuple(
        CBRStream(
            110e3, Deterministic(1000), queue=scenarios.BE_QUEUE, flow=200 + k, header_bytes=28
        )
        for k in range(20)
    )
    hop = TandemHop(sc.node, cross, queue=scenarios.EF_QUEUE, propagation_s=0.001)
    per_hop, dep = simulate_tandem(sc, [hop, hop], flows=[scenarios.REFERENCE_FLOW], seed=2)
    d = dep.values[np.all(np.isfinite(dep.values), axis=1)]
    steps = np.diff(d, axis=1)
    ef_tx = line_time_s(110, "atm-aal5", 2e6)
    assert np.all(steps >= 0.001 + ef_tx - 1e-12)
    # each congested hop adds a priority wait behind BE in the ring: more than the bare line time on
    # average
    assert steps.mean() > 0.001 + 3 * ef_tx
    # first-node ids survive: the arrival of a packet at hop 1 is its hop-0 departure + propagation
    h1 = per_hop[1]
    mine = h1["packet_id"].values >= 0
    ids = h1["packet_id"].values[mine]
    np.testing.assert_allclose(
        h1["arrival"].values[mine], per_hop[0]["departure"].values[ids] + 0.001, atol=1e-12
    )
    # deterministic per seed
    _, again = simulate_tandem(sc, [hop, hop], flows=[scenarios.REFERENCE_FLOW], seed=2)
    assert again.identical(dep)


def test_bad_tandem_input_is_rejected():
    sc = _sc(50)
    with pytest.raises(ValueError, match="propagation_s"):
        TandemHop(sc.node, (), queue=0, propagation_s=-1.0)
    with pytest.raises(ValueError, match="queue"):
        TandemHop(sc.node, (), queue=5)
    with pytest.raises(ValueError, match="hops"):
        simulate_tandem(sc, ["not a hop"], flows=[0])
    with pytest.raises(ValueError, match="flows"):
        simulate_tandem(sc, [], flows=[])


# --------------------------------------------------------------------------- downstream hops


def test_downstream_hops_without_bigger_packets_ahead_add_only_serialisation():
    sc = scenarios.pq_experiment(
        be_payload_bytes=82, n_ef_samples=300, n_be_streams=20
    )  # BE 110 = EF size
    ds = simulate(sc, seed=2)
    out = simulate_downstream_hops(ds, sc.path)
    assert float(np.abs(out["hops_wait"]).max()) < 1e-9
    assert (np.diff(out["node_departure"].values) >= 0).all()
    # then the reference delay through the simulated hops is the path model's
    through_hops = experiments.reference_delay_through_hops(ds, sc)
    model = experiments.reference_delay(ds, sc).values
    np.testing.assert_allclose(through_hops, model[np.isfinite(model)], rtol=0, atol=1e-9)


def test_downstream_hops_reject_a_path_that_is_no_path_model():
    with pytest.raises(ValueError, match="path_model"):
        simulate_downstream_hops(None, "not a path")
