"""Batched runs: each seed's arrays equal simulate's Dataset, and a sweep's numbers do not move."""

import functools
from dataclasses import replace

import numpy as np
import pytest

from pqlab import scenarios, simulate
from pqlab.measure import experiments
from pqlab.node.scenario import RUN_VARIABLES, simulate_runs
from pqlab.traffic import SrTCM


def _marked():
    """A scenario whose reference stream has a marker (a ``colour`` variable)."""
    sc = scenarios.base_case(n_ef_samples=200)
    first = replace(sc.streams[0], marker=SrTCM(cir_bps=200e3, cbs_bytes=300, ebs_bytes=300))
    return replace(sc, streams=(first, *sc.streams[1:]))


@pytest.mark.parametrize(
    "sc",
    [
        scenarios.base_case(n_ef_samples=300),
        _marked(),
        scenarios.aggregation(ref_rate_bps=100e3, ef_aggregate_bps=300e3, n_ef_samples=200),
    ],
    ids=["base case", "marked", "aggregation"],
)
def test_each_seed_of_a_batch_is_simulate_of_that_seed(sc):
    seeds = (3, 1, 3)
    runs = simulate_runs(sc, seeds)
    assert len(runs) == len(seeds)
    for seed, run in zip(seeds, runs):
        ds = simulate(sc, seed=seed)
        assert set(ds.data_vars) == set(run) - {"time_origin_s"}
        assert set(RUN_VARIABLES) <= set(run)
        for name in ds.data_vars:
            assert run[name].dtype == ds[name].dtype, name
            np.testing.assert_array_equal(run[name], ds[name].values, err_msg=name)
        assert run["time_origin_s"] == ds.attrs.get("time_origin_s", 0.0)
    np.testing.assert_array_equal(runs[0]["departure"], runs[2]["departure"])
    assert not np.array_equal(runs[0]["arrival"], runs[1]["arrival"])


def test_a_batch_checks_every_seed_before_running_any():
    sc = scenarios.base_case(n_ef_samples=100)
    for bad in (-1, True, 1.5):
        with pytest.raises(ValueError, match="seed"):
            simulate_runs(sc, (0, bad))
    with pytest.raises(ValueError, match="seeds"):
        simulate_runs(sc, 0)
    with pytest.raises(ValueError, match="scenario"):
        simulate_runs("base_case", (0,))
    assert simulate_runs(sc, ()) == []


def test_measure_runs_gives_the_numbers_of_the_datasets():
    sc = scenarios.aggregation(ref_rate_bps=100e3, ef_aggregate_bps=300e3, n_ef_samples=200)
    batched = experiments.measure_runs(sc, (1, 2))
    single = [experiments.delay_summary(simulate(sc, seed=s), sc) for s in (1, 2)]
    assert batched == single

    def loss(ds, scenario):  # reads a Dataset: given simulate's
        return {"n": float(ds["drop"].values.sum()), "packets": float(ds.sizes["packet"])}

    assert experiments.measure_runs(sc, (1,), loss) == [loss(simulate(sc, seed=1), sc)]


def test_a_batched_sweep_equals_its_points_run_one_by_one():
    grid = {"be_payload_bytes": [100, 1400]}
    make = functools.partial(scenarios.base_case, n_ef_samples=300)
    got = experiments.sweep(make, grid, seeds=(1, 2))
    for i, payload in enumerate(grid["be_payload_bytes"]):
        for j, seed in enumerate((1, 2)):
            point = experiments.run_point(
                make, {"be_payload_bytes": payload}, seed, experiments.delay_summary
            )
            for name, value in point.items():
                np.testing.assert_array_equal(got[name].values[i, j], value, err_msg=name)


def test_a_flow_without_measured_packets_is_refused_in_a_run_too():
    sc = scenarios.base_case(n_ef_samples=300)
    run = simulate_runs(sc, (1,))[0]
    with pytest.raises(ValueError, match="flow must be one of"):
        experiments.reference_ipdv_values(run, sc, flow=7)
    with pytest.raises(ValueError, match="flow must be one of"):
        experiments.delay_summary(run, sc, flow=7)
    late = replace(sc, warmup_s=float(np.nextafter(sc.duration_s, 0.0)))  # no packet measured
    assert experiments.measurement_rows(run, late).size == 0
    with pytest.raises(ValueError, match=r"flow must be one of the flows in ds \[\]"):
        experiments.reference_ipdv_values(run, late)
