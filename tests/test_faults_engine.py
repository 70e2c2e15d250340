"""The engine at any valid time origin (issue 22): exact relative times, or a clear refusal."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pqlab
from pqlab.node import timeorigin


def _ethernet(rate_bps):
    return pqlab.Node(
        rate_bps, "ethernet", 5, 512, (pqlab.Queue("priority", 10), pqlab.Queue("wfq", 1000, 1e6))
    )


def test_1500_byte_packets_at_a_unix_timestamp_drain_exactly():
    n, t0 = 100, 1.7e9
    ds = pqlab.simulate_arrivals(_ethernet(1e9), np.full(n, t0), np.full(n, 1500), np.ones(n, int))
    assert ds.attrs["time_origin_s"] == t0
    drain = float(ds.departure.max() - ds.arrival.min())
    assert drain == pytest.approx(n * 1538 * 8 / 1e9, abs=1e-15)  # 1230.400 us (1239.777 before)


def test_64_byte_packets_at_10_gbe_depart_in_81_6_ns_steps():
    n, t0 = 50, 1.7e9
    ds = pqlab.simulate_arrivals(_ethernet(10e9), np.full(n, t0), np.full(n, 64), np.ones(n, int))
    steps = np.diff(ds.departure.values)
    np.testing.assert_allclose(steps, 81.6e-9, rtol=1e-9)


def test_at_1e17_s_delays_are_not_zero():
    ds = pqlab.simulate_arrivals(_ethernet(1e9), [1e17, 1e17], [1500, 1500], [1, 1])
    np.testing.assert_allclose(
        (ds.departure - ds.arrival).values, [12.304e-6, 24.608e-6], rtol=1e-12
    )


def test_a_span_float64_cannot_resolve_is_refused_naming_arrival_s_and_the_resolution():
    with pytest.raises(
        ValueError, match=r"arrival_s spans .* float64 resolves only 16 s"
    ) as caught:
        pqlab.simulate_arrivals(_ethernet(1e9), [0.0, 1e17], [1500, 1500], [1, 1])
    assert "\n" not in str(caught.value)


def test_runs_that_start_near_zero_keep_absolute_times():
    ds = pqlab.simulate_arrivals(
        pqlab.Node.cisco7200_atm(), [0.5, 0.5, 0.5], [1500, 128, 1500], [1, 0, 1]
    )
    assert "time_origin_s" not in ds.attrs and ds.arrival.values[0] == 0.5


@settings(max_examples=60, deadline=None)
@given(
    ticks=st.lists(st.integers(0, 4000), min_size=1, max_size=60),
    sizes=st.lists(st.integers(1, 1500), min_size=60, max_size=60),
    queues=st.lists(st.integers(0, 1), min_size=60, max_size=60),
    origin=st.floats(1e4, 1e17),
    rate_bps=st.sampled_from([2e6, 1e9, 10e9]),
)
def test_departures_minus_arrivals_are_invariant_under_a_large_origin(
    ticks, sizes, queues, origin, rate_bps
):
    """The same packets shifted by ``origin`` (exactly: arrivals on a grid the shifted times
    represent) give the same drops and the same departure - arrival and ring_entry - arrival:
    bit-identical when the run was rebased on its first arrival, else (absolute times kept,
    origins below about 8e6 s) within 4 float64 spacings of the largest time (spacing <= 1 ns)."""
    step = max(2.0**-24, 4 * float(np.spacing(origin)))  # a power of two at least 4 ulp(origin)
    step = 2.0 ** np.ceil(np.log2(step))
    origin = np.round(origin / step) * step
    k = np.sort(np.asarray(ticks)) - min(ticks)
    n = k.size
    arrival = k * step
    node = pqlab.Node(
        rate_bps,
        "ethernet",
        5,
        512,
        (
            pqlab.Queue("priority", 10, police_rate_bps=rate_bps / 4, police_burst_bytes=3000),
            pqlab.Queue("wfq", 20, rate_bps / 2),
        ),
    )
    shifted = arrival + origin
    assert np.array_equal(shifted - origin, arrival)  # the shift itself is exact
    try:
        base = pqlab.simulate_arrivals(node, arrival, sizes[:n], queues[:n])
    except (
        ValueError
    ) as exc:  # the unshifted span is itself too long to resolve: so is the shifted one
        with pytest.raises(ValueError, match="arrival_s"):
            pqlab.simulate_arrivals(node, shifted, sizes[:n], queues[:n])
        assert "arrival_s" in str(exc)
        return
    moved = pqlab.simulate_arrivals(node, shifted, sizes[:n], queues[:n])
    rebased = moved.attrs.get("time_origin_s") == shifted[0]
    assert rebased or "time_origin_s" not in moved.attrs
    if origin > 2.0**24:
        assert rebased
    spacing = float(np.spacing(np.nanmax(moved.departure.values, initial=origin)))
    assert rebased or spacing <= timeorigin.resolution_s(node)  # kept absolute only where resolved
    tolerance = 0.0 if rebased else 4 * spacing
    for name in ("departure", "ring_entry"):
        np.testing.assert_allclose(
            (moved[name] - moved.arrival).values,
            (base[name] - base.arrival).values,
            rtol=0,
            atol=tolerance,
        )
    np.testing.assert_array_equal(moved["drop"].values, base["drop"].values)


def test_resolution_is_one_nanosecond_or_a_thousandth_of_a_byte_time():
    assert timeorigin.resolution_s(_ethernet(10e9)) == 1e-9
    assert timeorigin.resolution_s(pqlab.Node.cisco7200_atm()) == pytest.approx(4e-9)


def test_a_run_in_batches_refuses_times_float64_cannot_resolve():
    from pqlab import streaming

    node = _ethernet(1e9)
    near_zero = [(np.array([0.0, 1e-6]), np.array([1500, 64]), np.array([1, 1]), None)]
    assert len(list(streaming.run_batches(node, near_zero))) == 1
    epoch = [(np.array([1.7e9, 1.7e9]), np.array([1500, 64]), np.array([1, 1]), None)]
    with pytest.raises(
        ValueError, match=r"arrival_s spans 1\.7e\+09 s from 0 .* resolves only 2\.38e-07 s"
    ):
        list(streaming.run_batches(node, epoch))
