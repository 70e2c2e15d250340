"""pqlab.measure.analysis: each shared computation once, on small exact inputs."""

import math

import numpy as np
import pytest
import xarray as xr

from pqlab import Node, simulate_arrivals
from pqlab.measure import analysis


def test_trend_needs_the_ci_across_seeds_to_exclude_zero():
    x = np.array([0.0, 1.0, 2.0])
    up = np.column_stack([2 * x + 1, 2 * x + 1.5, 2 * x + 0.5])
    slope, half, holds = analysis.trend(up, x)
    assert slope == pytest.approx(2.0) and half == pytest.approx(0.0, abs=1e-12) and holds
    mixed = np.column_stack([x, -x, 0.5 * x])
    assert analysis.trend(mixed, x)[2] is False
    one = analysis.trend((3 * x)[:, None], x)
    assert one[0] == pytest.approx(3.0) and math.isnan(one[1]) and one[2]


def test_trend_needs_every_step_up():
    # issue 21: long_fig7_tab3's 1057, 1325, 1274 us has a positive, significant slope but falls at
    # its
    # last step: not "increases with frame size"
    x = np.array([128.0, 512.0, 1024.0])
    series = np.array([1057.0, 1325.0, 1274.0])
    values = np.column_stack([series, series + 5, series - 5])
    slope, half, holds = analysis.trend(values, x)
    assert slope > 0 and slope - half > 0 and holds is False
    assert (
        analysis.trend(values[[1, 0, 2]], x[[1, 0, 2]])[2] is False
    )  # the order of x, not of the rows
    assert analysis.trend(np.column_stack([x, x + 1]), x)[2] is True


def test_pooled_frequencies_pool_seeds_and_ignore_nan():
    samples = np.array(
        [[[0.1, 0.2, np.nan], [1.5, np.nan, np.nan]], [[2.2, 2.4, 2.6], [0.5, 0.5, 0.5]]]
    )
    edges, freq = analysis.pooled_frequencies(samples, 1.0)
    assert edges.tolist() == [0.0, 1.0, 2.0, 3.0]
    np.testing.assert_allclose(freq[0], [2 / 3, 1 / 3, 0.0, 0.0])
    np.testing.assert_allclose(freq[1], [0.5, 0.0, 0.5, 0.0])


def test_count_peaks_sees_a_peak_at_zero_and_at_the_last_bin():
    _, peaks = analysis.count_peaks([0.5, 0.1, 0.05, 0.3, 0.05], 1.0, smooth=0.0)
    assert peaks.tolist() == [0, 3]
    _, peaks = analysis.count_peaks([0.1, 0.2, 0.7], 1.0, smooth=0.0)
    assert peaks.tolist() == [2]
    with pytest.raises(ValueError, match="scale"):
        analysis.count_peaks([0.5, 0.5], 1.0, smooth=0.0, scale="dB")


def test_acf_and_its_first_peak_find_the_period():
    x = np.tile([0.0, 1.0, 0.0, 0.0], 25)  # period 4
    r = analysis.acf(x, 10)
    assert r[0] == 1.0 and r.size == 11
    assert r[4] == pytest.approx(96 / 100, rel=0.05)
    assert analysis.first_peak(r) == (4, pytest.approx(r[4]))
    assert analysis.first_peak(r, threshold=0.99) == (-1, pytest.approx(math.nan, nan_ok=True))
    assert analysis.acf_first_peak(x, 10) == analysis.first_peak(r)
    assert analysis.acf(np.ones(5), 3).tolist() == [1.0, 0.0, 0.0, 0.0]
    lag, value = analysis.acf_first_peak(np.ones(50), 10)
    assert lag == -1 and math.isnan(value)
    assert analysis.acf_first_peak(x[:4], 10)[0] == -1  # too short for three lags


def test_max_ring_particles_counts_releases_before_entries():
    node = Node.cisco7200_atm()
    ds = simulate_arrivals(node, [0.0, 0.0, 0.0], [1500, 128, 1500], [1, 0, 1])
    assert analysis.max_ring_particles(ds, node) == 7  # 3 + 1 + 3 particles of 512 bytes
    ds["particles"] = ("packet", np.array([3, 1, 3]))
    assert analysis.max_ring_particles(ds) == 7
    # one packet leaves the ring at the instant the next enters: never both
    touching = xr.Dataset(
        {
            "drop": ("packet", [0, 0]),
            "ring_entry": ("packet", [0.0, 1.0]),
            "departure": ("packet", [1.0, 2.0]),
            "particles": ("packet", [2, 2]),
        }
    )
    assert analysis.max_ring_particles(touching) == 2
    assert analysis.max_ring_particles(touching.isel(packet=[])) == 0
    with pytest.raises(ValueError, match="node"):
        analysis.max_ring_particles(ds, node="c7200")
    with pytest.raises(ValueError, match="particles"):
        analysis.max_ring_particles(ds.drop_vars("particles"))


def test_sweep_takes_units_from_the_measure_not_from_the_name():
    from pqlab import experiments, scenarios

    def measure(ds, sc):
        return {"wait_s": 1.0, "ratio": 0.5}

    measure.attrs = {
        "wait_s": {"units": "s", "long_name": "declared wait"},
        "ratio": {"units": "%", "long_name": "r"},
    }
    out = experiments.sweep(
        scenarios.base_case, {"be_payload_bytes": [100]}, seeds=[1], measure=measure
    )
    assert out["wait_s"].attrs == {"units": "s", "long_name": "declared wait"}
    assert out["ratio"].attrs["units"] == "%"

    def undeclared(ds, sc):
        return {"wait_s": 1.0, "odd_s": 2.0}

    undeclared.attrs = {"wait_s": {"units": "s", "long_name": "declared wait"}}
    with pytest.raises(ValueError, match=r"measure must declare.*\['odd_s'\]"):
        experiments.sweep(
            scenarios.base_case, {"be_payload_bytes": [100]}, seeds=[1], measure=undeclared
        )
    summary = experiments.sweep(scenarios.base_case, {"be_payload_bytes": [100]}, seeds=[1])
    assert summary["loss_ratio"].attrs == experiments.DELAY_STATISTICS_ATTRS["loss_ratio"]
    assert summary.attrs["pqlab_version"] and summary.attrs["preset"] == "base_case"
