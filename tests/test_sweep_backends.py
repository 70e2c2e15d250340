"""Sweeps give the same Dataset on every backend: in-process, a process pool, a dask
LocalCluster."""

import pytest
import xarray as xr

from pqlab import experiments, scenarios

SEEDS = [1, 2]


def test_sweep_dims_and_ci():
    r = experiments.sweep(
        scenarios.base_case, {"be_payload_bytes": [484, 500], "n_ef_samples": [200]}, SEEDS
    )
    assert r["delay_mean_s"].dims == ("be_payload_bytes", "n_ef_samples", "seed")
    a = experiments.across_seeds(r)
    assert (
        a["delay_mean_s"].sel(be_payload_bytes=484) > a["delay_mean_s"].sel(be_payload_bytes=500)
    ).all()
    assert (a["delay_mean_s_ci"] >= 0).all()


def test_process_pool_backend_equals_serial():
    grid = {"be_payload_bytes": [200, 484], "n_ef_samples": [200]}
    serial = experiments.sweep(scenarios.base_case, grid, SEEDS)
    pooled = experiments.sweep(scenarios.base_case, grid, SEEDS, backend="processes", max_workers=2)
    xr.testing.assert_identical(serial, pooled)


def test_dask_local_cluster_backend_equals_serial():
    distributed = pytest.importorskip(
        "distributed", reason="dask.distributed is the optional sweep backend"
    )
    grid = {"be_payload_bytes": [200, 484], "n_ef_samples": [200]}
    serial = experiments.sweep(scenarios.base_case, grid, SEEDS)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = experiments.sweep(scenarios.base_case, grid, SEEDS, backend=client, progress=True)
        by_address = experiments.sweep(
            scenarios.base_case, grid, SEEDS, backend=cluster.scheduler_address
        )
    xr.testing.assert_identical(serial, on_dask)
    xr.testing.assert_identical(serial, by_address)


def test_bad_backend_and_grid_are_rejected():
    with pytest.raises(ValueError, match="backend"):
        experiments.sweep(scenarios.base_case, {"n_ef_samples": [100]}, [1], backend="cluster")
    with pytest.raises(ValueError, match="grid"):
        experiments.sweep(scenarios.base_case, {}, [1])
    with pytest.raises(ValueError, match="seeds"):
        experiments.sweep(scenarios.base_case, {"n_ef_samples": [100]}, [-1])
