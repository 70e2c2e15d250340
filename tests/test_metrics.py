"""Tests of pqlab.metrics on small hand-built engine datasets."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from pqlab import metrics
from pqlab.node.engine import packets_dataset, simulate_arrivals
from pqlab.node.model import Node, Queue
from pqlab.node.path import Hop, PathModel
from pqlab.papers import transmission_units

NAN = np.nan

# packet: arrival s, size bytes, queue, flow, departure s, drop
PACKETS = [
    (0.000, 100, 0, 0, 0.0010, 0),
    (0.001, 200, 1, 1, 0.0030, 0),
    (0.002, 100, 0, 0, 0.0035, 0),
    (0.003, 100, 0, 0, NAN, 1),
    (0.004, 300, 1, 1, NAN, 2),
    (0.005, 100, 0, 0, 0.0080, 0),
    (0.006, 100, 0, 0, 0.0075, 0),
    (0.007, 300, 1, 2, 0.0120, 0),
]
# departure - arrival
NODE_DELAY_S = [0.001, 0.002, 0.0015, NAN, NAN, 0.003, 0.0015, 0.005]


def make_ds(packets=PACKETS, flow=True) -> xr.Dataset:
    arrival, size, queue, flows, departure, drop = (np.array(c) for c in zip(*packets))
    ds = packets_dataset(
        arrival.astype(float),
        size.astype(np.int64),
        queue.astype(np.int64),
        departure.astype(float),  # ring_entry: not used by the metrics
        departure.astype(float),
        drop.astype(np.int8),
    )
    if flow:
        ds["flow"] = ("packet", flows.astype(np.int64))
    return ds


@pytest.fixture
def ds():
    return make_ds()


# --------------------------------------------------------------------------- one-way delay


def test_one_way_delay_by_hand(ds):
    delay = metrics.one_way_delay(ds)
    assert isinstance(delay, xr.DataArray)
    assert delay.dims == ("packet",)
    assert delay.attrs["units"] == "s"
    assert "one-way delay" in delay.attrs["long_name"]
    np.testing.assert_allclose(delay.values, NODE_DELAY_S, rtol=0, atol=1e-15)
    assert np.isnan(delay.values[[3, 4]]).all()


def test_one_way_delay_adds_path(ds):
    # extra = 10 ms + size * 8 / 8 Mbit/s = 10 ms + size us
    path = PathModel(fixed_s=0.01, hops=(Hop(8e6, "none"),))
    delay = metrics.one_way_delay(ds, path)
    sizes = np.array([p[1] for p in PACKETS])
    np.testing.assert_allclose(
        delay.values, np.array(NODE_DELAY_S) + 0.01 + sizes * 1e-6, rtol=0, atol=1e-15
    )


def test_one_way_delay_is_nan_for_drop_even_with_departure(ds):
    ds = ds.copy()
    ds["departure"][3] = 0.004  # inconsistent input: a dropped packet must still count as lost
    assert np.isnan(metrics.one_way_delay(ds).values[3])


def test_one_way_delay_from_engine_run():
    node = Node.cisco7200_atm()
    ds = simulate_arrivals(node, [0.0, 0.0], [128, 128], [0, 0])
    # 128 bytes on atm-aal5 at 2 Mbit/s: 0.636 ms each, back to back.
    np.testing.assert_allclose(metrics.one_way_delay(ds).values, [0.636e-3, 1.272e-3], rtol=1e-12)


# --------------------------------------------------------------------------- IPDV, jitter


def test_ipdv_by_hand(ds):
    # flow 0 = packets 0, 2, 3 (policed), 5, 6 with D = 1, 1.5, -, 3, 1.5 ms.
    got = metrics.ipdv(ds, 0)
    assert got.dims == ("packet",)
    assert got.attrs["units"] == "s"
    np.testing.assert_allclose(got.values, [0.0005, -0.0015], rtol=0, atol=1e-15)
    assert got["packet"].values.tolist() == [2, 6]
    assert got["previous_packet"].values.tolist() == [0, 5]


def test_ipdv_keeps_lost_pairs_as_nan(ds):
    got = metrics.ipdv(ds, 0, dropna=False)
    np.testing.assert_allclose(got.values, [0.0005, NAN, NAN, -0.0015], rtol=0, atol=1e-15)
    assert got["packet"].values.tolist() == [2, 3, 5, 6]
    assert got["previous_packet"].values.tolist() == [0, 2, 3, 5]


def test_ipdv_other_flows(ds):
    assert metrics.ipdv(ds, 1).size == 0  # flow 1: its second packet is lost
    assert metrics.ipdv(ds, 1, dropna=False).values.tolist() == [pytest.approx(NAN, nan_ok=True)]
    assert metrics.ipdv(ds, 2).size == 0  # a single packet has no pair


def test_ipdv_uses_arrival_order_not_dataset_order(ds):
    shuffled = ds.isel(packet=[6, 5, 4, 3, 2, 1, 0, 7])
    got = metrics.ipdv(shuffled, 0)
    np.testing.assert_allclose(got.values, [0.0005, -0.0015], rtol=0, atol=1e-15)
    assert got["packet"].values.tolist() == [2, 6]


def test_ipdv_constant_path_delay_cancels(ds):
    path = PathModel(fixed_s=0.02, hops=(Hop(1e6, "ethernet"),))  # flow 0 is all 100-byte packets
    np.testing.assert_allclose(
        metrics.ipdv(ds, 0, path).values, metrics.ipdv(ds, 0).values, atol=1e-15
    )


def test_jitter_is_absolute_ipdv(ds):
    got = metrics.jitter(ds, 0)
    np.testing.assert_allclose(got.values, [0.0005, 0.0015], rtol=0, atol=1e-15)
    assert got.attrs["units"] == "s"
    assert got.name == "jitter"
    assert np.isnan(metrics.jitter(ds, 0, dropna=False).values[1])


def test_ipdv_of_delays_by_hand():
    # delays in sending order in units of 2**-10 s (exact in binary); packets 2, 5 and 6 lost (NaN)
    unit = 2.0**-10
    delay_s = np.array([1.0, 1.5, NAN, 3.0, 1.5, NAN, NAN, 2.0, 2.25]) * unit
    got = metrics.ipdv_of_delays(delay_s, dropna=False)
    expected = np.array([0.5, NAN, NAN, -1.5, NAN, NAN, NAN, 0.25]) * unit
    np.testing.assert_array_equal(got, expected)  # NaN pairs: one value per consecutive pair
    np.testing.assert_array_equal(
        metrics.ipdv_of_delays(delay_s), np.array([0.5, -1.5, 0.25]) * unit
    )
    np.testing.assert_array_equal(
        metrics.ipdv_of_delays(delay_s), delay_s[[1, 4, 8]] - delay_s[[0, 3, 7]]
    )
    assert metrics.ipdv_of_delays([]).size == 0 and metrics.ipdv_of_delays([0.1]).size == 0
    assert metrics.ipdv_of_delays([0.1, NAN]).size == 0
    assert metrics.ipdv_of_delays([0.1, NAN], dropna=False).size == 1


def test_jitter_of_ipdv_and_of_delays_by_hand():
    np.testing.assert_array_equal(
        metrics.jitter_of_ipdv([0.5e-3, NAN, -1.5e-3, -0.0]), [0.5e-3, NAN, 1.5e-3, 0.0]
    )
    padded = np.array([[0.001, -0.002], [NAN, -0.003]])  # any shape: NaN padding stays NaN
    np.testing.assert_array_equal(metrics.jitter_of_ipdv(padded), [[0.001, 0.002], [NAN, 0.003]])
    unit = 2.0**-10
    delay_s = np.array([1.0, 1.5, NAN, 3.0, 1.5, 1.0]) * unit  # packet 2 lost
    np.testing.assert_array_equal(
        metrics.jitter_of_delays(delay_s), np.array([0.5, 1.5, 0.5]) * unit
    )
    np.testing.assert_array_equal(
        metrics.jitter_of_delays(delay_s, dropna=False), np.array([0.5, NAN, NAN, 1.5, 0.5]) * unit
    )


def test_ipdv_and_jitter_of_a_dataset_are_the_array_functions(ds):
    for dropna in (True, False):
        ipdv = metrics.ipdv(ds, 0, dropna=dropna)
        jitter = metrics.jitter(ds, 0, dropna=dropna)
        np.testing.assert_array_equal(jitter.values, np.abs(ipdv.values))
        np.testing.assert_array_equal(jitter.values, metrics.jitter_of_ipdv(ipdv.values))
        delay = metrics.one_way_delay(
            ds.isel(packet=[0, 2, 3, 5, 6])
        ).values  # flow 0 in sending order
        np.testing.assert_array_equal(ipdv.values, metrics.ipdv_of_delays(delay, dropna=dropna))
        np.testing.assert_array_equal(jitter.values, metrics.jitter_of_delays(delay, dropna=dropna))
        assert jitter["packet"].values.tolist() == ipdv["packet"].values.tolist()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: metrics.ipdv_of_delays([[0.1, 0.2]]), "delay_s must be a 1-D array"),
        (lambda: metrics.ipdv_of_delays(["a", "b"]), "delay_s must hold numbers"),
        (lambda: metrics.ipdv_of_delays([True, False]), "delay_s must hold numbers"),
        (lambda: metrics.ipdv_of_delays([0.1, np.inf]), "delay_s must be finite or NaN"),
        (lambda: metrics.ipdv_of_delays([0.1, 0.2], dropna="yes"), "dropna"),
        (lambda: metrics.jitter_of_ipdv(["a"]), "ipdv_s must hold numbers"),
        (lambda: metrics.jitter_of_delays([[0.1]]), "delay_s must be a 1-D array"),
    ],
)
def test_array_ipdv_and_jitter_reject_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# --------------------------------------------------------------------------- loss


def test_loss_by_flow(ds):
    got = metrics.loss(ds)
    assert got["flow"].values.tolist() == [0, 1, 2]
    assert got["sent"].values.tolist() == [5, 2, 1]
    assert got["policed"].values.tolist() == [1, 0, 0]
    assert got["queue_full"].values.tolist() == [0, 1, 0]
    assert got["lost"].values.tolist() == [1, 1, 0]
    np.testing.assert_allclose(got["loss_ratio"].values, [0.2, 0.5, 0.0])
    assert got["loss_ratio"].attrs["units"] == "1"
    assert got["sent"].attrs["units"] == "packets"


def test_loss_by_queue(ds):
    got = metrics.loss(ds, by="queue")
    assert got["lost"].dims == ("traffic_class",)
    assert got["traffic_class"].values.tolist() == [0, 1]
    assert got["sent"].values.tolist() == [5, 3]
    assert got["policed"].values.tolist() == [1, 0]
    assert got["queue_full"].values.tolist() == [0, 1]
    np.testing.assert_allclose(got["loss_ratio"].values, [0.2, 1 / 3])


def test_loss_after_where_keeps_integer_labels(ds):
    # ds.where(..., drop=True) turns int variables into floats; the labels stay integers.
    got = metrics.loss(ds.where(ds["flow"] == 1, drop=True))
    assert got["flow"].dtype == np.int64
    assert got["flow"].values.tolist() == [1]
    assert got["queue_full"].values.tolist() == [1]
    with pytest.raises(ValueError, match="ds\\['flow'\\] must hold integers"):
        metrics.loss(ds.where(ds["flow"] == 1))  # masked packets become NaN labels


def test_loss_by_queue_needs_no_flow():
    assert metrics.loss(make_ds(flow=False), by="queue")["sent"].sum() == 8


def test_loss_counts_early_drops_and_groups_by_colour():
    """Drop code 3 (RED/WRED's early drop, node contract rule 2a) is a loss like codes 1 and 2,
    counted apart as ``early_drop``; ``by="colour"`` groups by the markers' colour (rule 1a)."""
    ds = xr.Dataset(
        {
            "drop": ("packet", np.array([0, 3, 1, 2, 3, 0], dtype=np.int8)),
            "queue": ("packet", np.array([0, 0, 0, 0, 1, 1])),
            "colour": ("packet", np.array([0, 2, 1, 2, 2, 0], dtype=np.int8)),
        }
    )
    by_queue = metrics.loss(ds, by="queue")
    assert by_queue["early_drop"].values.tolist() == [1, 1]
    assert by_queue["lost"].values.tolist() == [3, 1]
    np.testing.assert_allclose(by_queue["loss_ratio"].values, [0.75, 0.5])
    by_colour = metrics.loss(ds, by="colour")
    assert by_colour["colour"].values.tolist() == [0, 1, 2]
    assert by_colour["sent"].values.tolist() == [2, 1, 3]
    assert by_colour["early_drop"].values.tolist() == [0, 0, 2]
    assert by_colour["lost"].values.tolist() == [0, 1, 3]
    assert by_colour["early_drop"].attrs["units"] == "packets"


# --------------------------------------------------------------------------- distributions


def test_frequency_distribution_by_hand():
    edges, prob = metrics.frequency_distribution([1.0, 2.5, 3.0, NAN, 0.5, 3.5], 1.0)
    np.testing.assert_array_equal(edges, [0.0, 1.0, 2.0, 3.0, 4.0])
    np.testing.assert_allclose(prob, [0.2, 0.2, 0.2, 0.4])


def test_frequency_distribution_with_start():
    edges, prob = metrics.frequency_distribution([-1.0, -0.25, 0.0, 0.75], 0.5, start=-1.0)
    np.testing.assert_array_equal(edges, [-1.0, -0.5, 0.0, 0.5, 1.0])
    np.testing.assert_allclose(prob, [0.25, 0.25, 0.25, 0.25])


def test_ccdf_by_hand():
    thresholds, prob = metrics.ccdf([1.0, 2.0, 2.0, 3.0, NAN])
    np.testing.assert_array_equal(thresholds, [1.0, 2.0, 3.0])
    np.testing.assert_allclose(prob, [0.75, 0.25, 0.0])
    thresholds, prob = metrics.ccdf([1.0, 2.0, 2.0, 3.0], thresholds=[0.0, 1.5, 2.0, 10.0])
    np.testing.assert_array_equal(thresholds, [0.0, 1.5, 2.0, 10.0])
    np.testing.assert_allclose(prob, [1.0, 0.75, 0.25, 0.0])


samples = arrays(
    np.float64,
    st.integers(1, 200),
    elements=st.one_of(st.floats(-1e3, 1e3), st.just(np.nan)),
).filter(lambda a: not np.isnan(a).all())


@settings(max_examples=200, deadline=None)
@given(samples, arrays(np.float64, st.integers(0, 50), elements=st.floats(-2e3, 2e3)))
def test_ccdf_is_non_increasing_in_unit_interval(values, thresholds):
    for d, p in (metrics.ccdf(values), metrics.ccdf(values, np.sort(thresholds))):
        assert np.all((p >= 0) & (p <= 1))
        assert np.all(np.diff(p) <= 0)
        assert d.shape == p.shape
    d, p = metrics.ccdf(values)
    assert p[-1] == 0.0  # nothing exceeds the sample maximum
    finite = values[~np.isnan(values)]
    assert p[0] == pytest.approx(np.mean(finite > finite.min()))


@settings(max_examples=200, deadline=None)
@given(samples, st.floats(1e-3, 1e3))
def test_frequency_distribution_sums_to_one(values, width):
    start = float(np.nanmin(values))
    edges, prob = metrics.frequency_distribution(values, width, start=start)
    assert prob.sum() == pytest.approx(1.0, rel=1e-12)
    assert edges.shape == (prob.size + 1,)
    assert np.all(prob >= 0)
    assert edges[0] == start and edges[-1] > np.nanmax(values)
    np.testing.assert_allclose(np.diff(edges), width, rtol=1e-9)


# --------------------------------------------------------------------------- units, A, summary


def test_transmission_units_atm_128_bytes():
    node = Node.cisco7200_atm()
    assert transmission_units(0.636e-3, node) == pytest.approx(1.0, rel=1e-12)
    assert transmission_units(36 * 0.636e-3, node) == pytest.approx(36.0, rel=1e-12)
    # 512-byte reference: 11 cells = 583 bytes = 2.332 ms.
    assert transmission_units(2.332e-3, node, ref_size_bytes=512) == pytest.approx(1.0, rel=1e-12)
    np.testing.assert_allclose(transmission_units([0.0, 1.272e-3], node), [0.0, 2.0], rtol=1e-12)


def test_transmission_units_keeps_dataarray(ds):
    node = Node.cisco7200_atm()
    delay = metrics.one_way_delay(ds)
    units = transmission_units(delay, node)
    assert isinstance(units, xr.DataArray)
    assert units["packet"].values.tolist() == list(range(8))
    assert units.attrs["units"].startswith("transmission units")
    np.testing.assert_allclose(units.values, np.array(NODE_DELAY_S) / 0.636e-3, rtol=1e-12)


@pytest.mark.parametrize(
    "loads_kbps, expected",
    [
        ([50] * 6, 5 / 6),  # Table III header prints 1/6: an erratum, 1 - 50/300 = 5/6
        ([100, 100, 100], 2 / 3),
        ([200, 100], 1 / 3),
        ([300], 0.0),
        ([50, 0, 250], 1 / 6),
    ],
)
def test_aggregation_degree_paper_values(loads_kbps, expected):
    got = metrics.aggregation_degree(np.array(loads_kbps) * 1e3)
    assert got == pytest.approx(expected, rel=1e-14, abs=1e-15)


def test_summary_by_hand():
    got = metrics.summary([1.0, 2.0, 3.0, 4.0, NAN])
    assert got["count"] == 4
    assert got["lost"] == 1
    assert got["mean"] == 2.5
    assert got["std"] == pytest.approx(np.sqrt(5 / 3))
    assert (got["min"], got["max"]) == (1.0, 4.0)
    assert got["p50"] == 2.5
    assert got["p90"] == pytest.approx(3.7)
    assert got["p99"] == pytest.approx(3.97)
    one = metrics.summary([2.0], percentiles=(99.9,))
    assert np.isnan(one["std"]) and one["p99.9"] == 2.0


# --------------------------------------------------------------------------- bad inputs


@pytest.mark.parametrize(
    "func", [metrics.one_way_delay, lambda d: metrics.ipdv(d, 0), metrics.loss]
)
def test_dataset_functions_reject_non_dataset(func):
    with pytest.raises(ValueError, match="ds must be an xarray.Dataset"):
        func({"arrival": [0.0]})


def test_one_way_delay_bad_inputs(ds):
    with pytest.raises(ValueError, match="ds must have a 'departure'"):
        metrics.one_way_delay(ds.drop_vars("departure"))
    with pytest.raises(ValueError, match="path"):
        metrics.one_way_delay(ds, path=0.01)


def test_ipdv_bad_inputs(ds):
    with pytest.raises(ValueError, match="'flow' variable"):
        metrics.ipdv(make_ds(flow=False), 0)
    with pytest.raises(ValueError, match=r"flow must be one of the flows in ds \[0, 1, 2\], got 7"):
        metrics.ipdv(ds, 7)
    with pytest.raises(ValueError, match="flow must be an integer"):
        metrics.ipdv(ds, "0")
    with pytest.raises(ValueError, match="dropna"):
        metrics.ipdv(ds, 0, dropna="yes")
    with pytest.raises(ValueError, match="path"):
        metrics.jitter(ds, 0, path="none")


def test_loss_bad_inputs(ds):
    with pytest.raises(ValueError, match="by must be one of"):
        metrics.loss(ds, by="packet")
    with pytest.raises(ValueError, match="'flow' variable"):
        metrics.loss(make_ds(flow=False))


@pytest.mark.parametrize(
    "args, name",
    [
        (([[1.0, 2.0]], 1.0), "values must be a 1-D"),
        (([1.0, np.inf], 1.0), "values must be finite or NaN"),
        (([NAN, NAN], 1.0), "values must hold at least one"),
        (([], 1.0), "values must hold at least one"),
        ((["a"], 1.0), "values must hold numbers"),
        (([1.0], 0.0), "bin_width"),
        (([1.0], -1.0), "bin_width"),
        (([1.0], np.nan), "bin_width"),
        (([1.0], 1e-9), "bin_width must give at most"),
        (([1e300], 1e-300), "bin_width must give at most"),
        (([-1.0, 1.0], 1.0), r"start must be <= every value \(the smallest is -1.0\)"),
        (([1.0], 1.0, np.inf), "start"),
    ],
)
def test_frequency_distribution_bad_inputs(args, name):
    with pytest.raises(ValueError, match=name):
        metrics.frequency_distribution(*args)


@pytest.mark.parametrize(
    "args, name",
    [
        (([[1.0]],), "values"),
        (([NAN],), "values"),
        (([1.0], [np.inf]), "thresholds"),
        (([1.0], [[1.0]]), "thresholds"),
    ],
)
def test_ccdf_bad_inputs(args, name):
    with pytest.raises(ValueError, match=name):
        metrics.ccdf(*args)


def test_transmission_units_bad_inputs():
    node = Node.cisco7200_atm()
    with pytest.raises(ValueError, match="node must be a pqlab.Node"):
        transmission_units(1e-3, "cisco")
    with pytest.raises(ValueError, match="ref_size_bytes"):
        transmission_units(1e-3, node, ref_size_bytes=0)
    with pytest.raises(ValueError, match="ref_size_bytes"):
        transmission_units(1e-3, node, ref_size_bytes=128.5)
    with pytest.raises(ValueError, match="delay_s"):
        transmission_units("abc", node)


@pytest.mark.parametrize(
    "loads, name",
    [
        ([], "loads_bps must hold at least one load > 0"),
        ([0.0, 0.0], "loads_bps must hold at least one load > 0"),
        ([100.0, -1.0], "loads_bps must be >= 0"),
        ([100.0, np.nan], "loads_bps must be finite"),
        ([[100.0]], "loads_bps must be a 1-D"),
    ],
)
def test_aggregation_degree_bad_inputs(loads, name):
    with pytest.raises(ValueError, match=name):
        metrics.aggregation_degree(loads)


def test_summary_bad_inputs():
    with pytest.raises(ValueError, match="values"):
        metrics.summary([NAN])
    with pytest.raises(ValueError, match="percentiles"):
        metrics.summary([1.0], percentiles=(101,))
    with pytest.raises(ValueError, match="percentiles"):
        metrics.summary([1.0], percentiles=(-1,))


def test_engine_dataset_with_wfq_and_police_counts_loss():
    # EF policed with a 100-byte bucket: the second 100-byte EF packet at t=0 is policed.
    node = Node(
        line_rate_bps=1e6,
        framing="none",
        ring_limit_particles=1,
        particle_bytes=512,
        queues=(
            Queue("priority", 1, police_rate_bps=8e3, police_burst_bytes=100),
            Queue("wfq", 1, weight_bps=1e6),
        ),
    )
    ds = simulate_arrivals(
        node, [0.0, 0.0, 0.0, 0.0, 0.0], [100, 100, 100, 100, 100], [0, 0, 1, 1, 1]
    )
    got = metrics.loss(ds, by="queue")
    assert got["policed"].values.tolist() == [1, 0]
    # EF packet 0 takes the ring; BE packet 2 waits (limit 1); BE packets 3 and 4 find the queue
    # full.
    assert got["queue_full"].values.tolist() == [0, 2]
    assert got["sent"].values.tolist() == [2, 3]
