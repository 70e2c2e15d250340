"""The array forms of the papers' measurements give exactly the numbers of their xarray forms."""

import numpy as np
import pytest

from pqlab import scenarios, simulate
from pqlab.measure import experiments
from pqlab.papers import testbed


def _cases():
    base = scenarios.base_case(n_ef_samples=300)
    lossy = scenarios.aggregation(ref_rate_bps=100e3, ef_aggregate_bps=300e3, n_ef_samples=300)
    yield "base case", simulate(base, seed=3), base, 0
    yield "aggregation, another EF flow", simulate(lossy, seed=1), lossy, 1
    yield (
        "test bed (hops, send times)",
        testbed.simulate_testbed(base, 2, testbed.TESTBED),
        testbed.testbed_scenario(base, testbed.TESTBED),
        0,
    )


@pytest.mark.parametrize("case", list(_cases()), ids=lambda c: c[0])
def test_values_equal_the_dataarrays_bit_for_bit(case):
    _, ds, sc, flow = case
    delay = experiments.reference_delay(ds, sc, flow).values
    ipdv = experiments.reference_ipdv(ds, sc, flow).values
    assert delay.size > 100 and ipdv.size > 100
    np.testing.assert_array_equal(experiments.reference_delay_values(ds, sc, flow), delay)
    np.testing.assert_array_equal(experiments.reference_ipdv_values(ds, sc, flow), ipdv)


def test_a_lost_packet_is_nan_in_both_forms():
    sc = scenarios.base_case(n_ef_samples=300)
    ds = simulate(sc, seed=1)
    drop = ds["drop"].values.copy()
    ref = np.flatnonzero((ds["flow"].values == 0) & (ds["arrival"].values >= sc.warmup_s))
    drop[ref[[5, 6, 40]]] = 2  # three reference packets lost: two pairs around 5-6, two around 40
    ds["drop"] = ("packet", drop)
    delay = experiments.reference_delay_values(ds, sc)
    assert np.isnan(delay[[5, 6, 40]]).all()
    np.testing.assert_array_equal(delay, experiments.reference_delay(ds, sc).values)
    ipdv = experiments.reference_ipdv_values(ds, sc)
    np.testing.assert_array_equal(ipdv, experiments.reference_ipdv(ds, sc).values)
    assert ipdv.size == ref.size - 1 - 5


def test_a_flow_without_measured_packets_is_refused_by_both():
    sc = scenarios.base_case(n_ef_samples=300)
    ds = simulate(sc, seed=1)
    with pytest.raises(ValueError, match="flow must be one of"):
        experiments.reference_ipdv(ds, sc, flow=7)
    with pytest.raises(ValueError, match="flow must be one of"):
        experiments.reference_ipdv_values(ds, sc, flow=7)


def test_measurement_rows_are_the_window_s_packets():
    sc = scenarios.aggregation(ref_rate_bps=100e3, ef_aggregate_bps=300e3, n_ef_samples=200)
    ds = simulate(sc, seed=2)
    for flow in (0, 1):
        rows = experiments.measurement_rows(ds, sc, flow)
        np.testing.assert_array_equal(
            rows, experiments.measurement_window(ds, sc, flow)["packet"].values
        )
        assert (ds["arrival"].values[rows] >= sc.warmup_s).all() and (
            ds["flow"].values[rows] == flow
        ).all()


def test_a_flow_of_many_sizes_and_losses_gives_the_dataarray_s_delays():
    sc = scenarios.real_distribution(n_ef_samples=300)  # BE sizes per packet, BE queue overflows
    ds = simulate(sc, seed=4)
    flow = 100
    sizes = ds["size"].values[ds["flow"].values == flow]
    assert np.unique(sizes).size > 10 and (ds["drop"].values[ds["flow"].values == flow] != 0).any()
    np.testing.assert_array_equal(
        experiments.reference_delay_values(ds, sc, flow),
        experiments.reference_delay(ds, sc, flow).values,
    )
