"""Per-class and per-flow results (issue 33): named queues, one warm-up rule, the summary table.

Exact values on a hand-built dataset, properties on random ones (hypothesis), the rule shared with
the streaming summaries, and the papers' scenario JSON unchanged by the queues' new ``name``.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st

import pqlab
from pqlab import experiments, metrics, scenarios, streaming
from pqlab.node.engine import packets_dataset
from pqlab.node.measured import is_measured, measured_packets, warmup_of
from pqlab.node.model import Node, Queue
from pqlab.node.scenario import Scenario
from pqlab.node.sources import TraceStream

NAN = np.nan
WARMUP_S = 0.002

# packet: arrival s, size bytes, queue, flow, departure s, drop
PACKETS = [
    (0.000, 100, 0, 0, 0.0040, 0),  # warm-up
    (0.001, 100, 1, 2, 0.0020, 0),  # warm-up
    (0.002, 100, 0, 0, 0.0030, 0),  # delay 1 ms
    (0.003, 100, 0, 1, 0.0050, 0),  # 2 ms
    (0.004, 100, 0, 0, NAN, 2),  # queue full
    (0.005, 100, 0, 0, 0.0080, 0),  # 3 ms
    (0.006, 100, 0, 1, 0.0100, 0),  # 4 ms
    (0.007, 200, 1, 2, 0.0120, 0),  # 5 ms
    (0.008, 200, 1, 2, 0.0110, 0),  # 3 ms
    (0.009, 200, 1, 2, NAN, 1),  # policed
    (0.010, 100, 0, 0, 0.0115, 0),  # 1.5 ms
]


def make_ds(packets=PACKETS, warmup_s=WARMUP_S) -> xr.Dataset:
    arrival, size, queue, flows, departure, drop = (np.array(c) for c in zip(*packets))
    ds = packets_dataset(
        arrival.astype(float),
        size.astype(np.int64),
        queue.astype(np.int64),
        departure.astype(float),
        departure.astype(float),
        drop.astype(np.int8),
    )
    ds["flow"] = ("packet", flows.astype(np.int64))
    if warmup_s is not None:
        ds.attrs["warmup_s"] = warmup_s
    return ds


@pytest.fixture
def ds():
    return make_ds()


# --------------------------------------------------------------------------- named queues


def test_a_queue_has_an_optional_name_and_a_node_labels_its_classes():
    voice = Queue("priority", 20, name="voice")
    node = Node(
        10e6,
        "ethernet",
        None,
        None,
        (voice, Queue("wfq", 64, weight_bps=6e6)),
        ring_limit_packets=4,
    )
    assert voice.name == "voice" and "name='voice'" in repr(voice)
    assert node.class_names == ("voice", "queue 1")
    assert node.to_dict()["queues"][0]["name"] == "voice"
    assert "name" not in node.to_dict()["queues"][1]  # at its default: not in the JSON
    assert Node.from_dict(node.to_dict()) == node


def test_an_unnamed_queue_leaves_repr_json_and_the_papers_digest_as_they_were():
    assert (
        repr(Queue("priority", 10)) == "Queue(kind='priority', limit_packets=10, weight_bps=None, "
        "police_rate_bps=None, police_burst_bytes=None)"
    )
    # the papers' base case as it was before queues had names (cache keys and digests are made of
    # it)
    digest = hashlib.sha256(scenarios.base_case().to_json().encode()).hexdigest()
    assert digest == "fe679dbfb4c6db032944d56c77c9720244d3f046fc233efc2a238771a2e54722"
    assert "name" not in scenarios.base_case().to_dict()["node"]["queues"][0]


@pytest.mark.parametrize(
    "name, match",
    [
        ("", "name must be None or a str of 1 to 64 printable characters"),
        ("   ", "name must be None or a str of 1 to 64 printable characters"),
        ("a\nb", "name must be None or a str of 1 to 64 printable characters"),
        ("x" * 65, "name must be None or a str of 1 to 64 printable characters"),
        (
            3,
            (
                r"name must be None or a str of 1 to 64 printable characters \(not only spaces\),"
                r" got 3"
            ),
        ),
    ],
)
def test_a_bad_queue_name_is_refused_naming_the_field(name, match):
    with pytest.raises(ValueError, match=match):
        Queue("priority", 10, name=name)


@pytest.mark.parametrize("names", [("a", "a"), ("queue 1", None)])
def test_two_classes_with_one_label_are_refused(names):
    queues = tuple(Queue("wfq", 10, weight_bps=1e6, name=n) for n in names)
    with pytest.raises(ValueError, match=r"queues\[1\]'s class label .* is already queues\[0\]'s"):
        Node(1e6, "none", None, None, queues, ring_limit_packets=1)


# --------------------------------------------------------------------------- the warm-up rule


def test_the_rule_is_arrival_at_or_after_the_datasets_warmup(ds):
    assert warmup_of(ds) == WARMUP_S
    assert warmup_of(make_ds(warmup_s=None)) == 0.0  # simulate_arrivals' output: no warm-up
    np.testing.assert_array_equal(
        is_measured(np.array([0.0, 0.002, 0.003]), 0.002), [False, True, True]
    )
    assert measured_packets(ds)["packet"].values.tolist() == list(range(2, 11))
    assert measured_packets(ds, include_warmup=True).sizes["packet"] == 11


def test_one_way_delay_ipdv_jitter_and_loss_leave_the_warmup_out(ds):
    delay = metrics.one_way_delay(ds)
    assert delay["packet"].values.tolist() == list(range(2, 11))
    assert metrics.one_way_delay(ds, include_warmup=True).sizes["packet"] == 11
    assert metrics.ipdv(ds, 0).values == pytest.approx([-0.0015])  # (p0, p2) was a warm-up pair
    assert metrics.ipdv(ds, 0, include_warmup=True).values == pytest.approx([-0.003, -0.0015])
    assert metrics.jitter(ds, 2).values == pytest.approx([0.002])
    assert metrics.loss(ds)["sent"].values.tolist() == [4, 2, 3]
    assert metrics.loss(ds, include_warmup=True)["sent"].values.tolist() == [5, 2, 4]


@pytest.mark.parametrize("bad", [-1.0, float("nan"), "2", float("inf")])
def test_a_bad_recorded_warmup_is_an_error_naming_the_attribute(ds, bad):
    ds.attrs["warmup_s"] = bad
    with pytest.raises(ValueError, match=r"ds.attrs\['warmup_s'\] must be"):
        metrics.one_way_delay(ds)


def test_no_arrival_variable_is_needed_when_nothing_is_left_out():
    ds = make_ds(warmup_s=None).drop_vars("arrival")
    assert metrics.loss(ds)["sent"].sum() == 11
    with pytest.raises(ValueError, match="'arrival'"):
        metrics.loss(make_ds().drop_vars("arrival"))


# --------------------------------------------------------------------------- every flow, every
# class


def test_ipdv_of_every_flow_pairs_packets_within_their_flow(ds):
    got = metrics.ipdv(ds)
    assert got["flow"].values.tolist() == [0, 1, 2]
    assert got["queue"].values.tolist() == [0, 0, 1]
    assert got.values == pytest.approx([-0.0015, 0.002, -0.002])
    assert got["packet"].values.tolist() == [10, 6, 8]
    assert got["previous_packet"].values.tolist() == [5, 3, 7]
    assert (
        metrics.ipdv(ds, dropna=False).sizes["packet"] == 3 + 1 + 2
    )  # 4, 2 and 3 packets per flow


def test_delay_summary_measures_any_flow():
    sc = scenarios.base_case(n_ef_samples=200)
    ds = pqlab.simulate(sc, seed=1)
    assert experiments.delay_summary(ds, sc) == experiments.delay_summary(ds, sc, flow=0)
    other = experiments.delay_summary(ds, sc, flow=100)
    window = ds.isel(packet=(ds["flow"].values == 100) & (ds["arrival"].values >= sc.warmup_s))
    delay = (
        window["departure"].values
        - window["arrival"].values
        + sc.path.extra_delay_s(window["size"].values)
    )
    assert other["delay_mean_s"] == pytest.approx(np.nanmean(delay), rel=1e-12)
    assert other != experiments.delay_summary(ds, sc)
    with pytest.raises(ValueError, match=r"flow must be one of the flows in ds \[0, 100, 101,"):
        experiments.delay_summary(ds, sc, flow=1)


def test_loss_by_class_is_labelled_by_the_class_names(ds):
    got = metrics.loss(ds, by="class", class_names=("voice", "data"))
    assert got["traffic_class"].values.tolist() == [0, 1]
    assert got["class_name"].values.tolist() == ["voice", "data"]
    assert got["sent"].values.tolist() == [6, 3]
    assert metrics.loss(ds, by="queue")["class_name"].values.tolist() == ["queue 0", "queue 1"]


def test_packets_of_one_class_by_name_or_index(ds):
    voice = metrics.measured(ds, traffic_class="voice", class_names=("voice", "data"))
    assert voice["packet"].values.tolist() == [2, 3, 4, 5, 6, 10]
    assert metrics.measured(ds, traffic_class=1)["packet"].values.tolist() == [7, 8, 9]
    assert metrics.measured(ds, flow=1)["packet"].values.tolist() == [3, 6]


# --------------------------------------------------------------------------- the summary table


def test_summary_by_class_by_hand(ds):
    table = pqlab.summary_table(ds, by="class", class_names=("voice", "data"), percentiles=(50, 90))
    assert table["class_name"].values.tolist() == ["voice", "data"]
    assert table["sent"].values.tolist() == [6, 3]
    assert table["received"].values.tolist() == [5, 2]
    assert table["lost"].values.tolist() == [1, 1]
    assert table["queue_full"].values.tolist() == [1, 0] and table["policed"].values.tolist() == [
        0,
        1,
    ]
    np.testing.assert_allclose(table["loss_ratio"], [1 / 6, 1 / 3], rtol=1e-12)
    np.testing.assert_allclose(table["delay_mean"], [0.0023, 0.004], rtol=1e-9)
    np.testing.assert_allclose(table["delay_min"], [0.001, 0.003], rtol=1e-9)
    np.testing.assert_allclose(table["delay_max"], [0.004, 0.005], rtol=1e-9)
    np.testing.assert_allclose(table["delay_p50"], [0.002, 0.004], rtol=1e-9)
    np.testing.assert_allclose(table["delay_p90"], [0.0036, 0.0048], rtol=1e-9)
    assert table["ipdv_count"].values.tolist() == [2, 1]
    np.testing.assert_allclose(table["ipdv_mean"], [0.00025, -0.002], rtol=1e-9)
    np.testing.assert_allclose(table["ipdv_abs_mean"], [0.00175, 0.002], rtol=1e-9)
    np.testing.assert_allclose(table["jitter_p50"], [0.00175, 0.002], rtol=1e-9)
    assert table["delay_mean"].attrs["units"] == "s" and table["loss_ratio"].attrs["units"] == "1"
    assert table["sent"].attrs["units"] == "packets"
    assert table.attrs["warmup_s"] == WARMUP_S and table.attrs["include_warmup"] == 0


def test_summary_by_flow_by_hand(ds):
    table = pqlab.summary_table(ds, by="flow", class_names=("voice", "data"))
    assert table["flow"].values.tolist() == [0, 1, 2]
    assert table["traffic_class"].values.tolist() == [0, 0, 1]
    assert table["class_name"].values.tolist() == ["voice", "voice", "data"]
    np.testing.assert_allclose(table["delay_mean"], [0.0055 / 3, 0.003, 0.004], rtol=1e-9)
    assert table["ipdv_count"].values.tolist() == [1, 1, 1]


def test_the_table_is_tidy_for_seaborn(ds):
    frame = pqlab.summary_table(ds).to_dataframe()
    assert list(frame.index.names) == ["traffic_class"]
    assert {"class_name", "sent", "loss_ratio", "delay_p99", "ipdv_abs_mean", "jitter_p99"} <= set(
        frame.columns
    )
    assert len(frame) == 2
    import matplotlib

    matplotlib.use("Agg")
    import seaborn as sns

    sns.barplot(data=frame, x="class_name", y="delay_mean")


def test_class_names_come_from_the_simulated_scenario():
    node = Node(
        10e6,
        "ethernet",
        None,
        None,
        (Queue("priority", 20, name="voice"), Queue("wfq", 64, weight_bps=4e6, name="best effort")),
        ring_limit_packets=4,
    )
    sc = Scenario(
        node,
        [
            pqlab.CBRStream(80e3, pqlab.Deterministic(200), queue=0, flow=0),
            pqlab.PoissonStream(12e6, pqlab.Deterministic(1500), queue=1, flow=1),
        ],
        duration_s=2.0,
        warmup_s=0.5,
    )
    table = pqlab.summary_table(pqlab.simulate(sc, seed=1))
    assert table["class_name"].values.tolist() == ["voice", "best effort"]
    assert float(table["loss_ratio"].sel(traffic_class=0)) == 0.0
    assert float(table["loss_ratio"].sel(traffic_class=1)) > 0.0
    assert table["sent"].sum() == np.count_nonzero(
        pqlab.simulate(sc, seed=1)["arrival"].values >= 0.5
    )


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda ds: pqlab.summary_table(ds, by="queues"), r"by must be one of 'class', 'flow'"),
        (
            lambda ds: metrics.loss(ds, by="klass"),
            r"by must be one of 'flow', 'class', 'queue', 'colour'",
        ),
        (
            lambda ds: metrics.measured(ds, traffic_class="vioce", class_names=("voice", "data")),
            (
                r"traffic_class must be one of 'voice', 'data' \(or a queue index in \[0, 1\]\),"
                r" got 'vioce'"
            ),
        ),
        (
            lambda ds: metrics.measured(ds, traffic_class=5),
            r"traffic_class must be one of 'queue 0', 'queue 1'",
        ),
        (
            lambda ds: metrics.measured(ds, flow=9),
            r"flow must be one of the flows in ds \[0, 1, 2\], got 9",
        ),
        (
            lambda ds: pqlab.summary_table(ds, class_names=("voice",)),
            r"class_names must name every queue index in ds \(0 to 1\), got 1 name",
        ),
        (
            lambda ds: pqlab.summary_table(ds, class_names=("a", "a")),
            r"class_names must be distinct",
        ),
        (
            lambda ds: pqlab.summary_table(ds, class_names=("a", 3)),
            r"class_names\[1\] must be a str of 1 to 64",
        ),
        (
            lambda ds: pqlab.summary_table(ds, class_names="ab"),
            r"class_names must be a sequence of str",
        ),
        (
            lambda ds: pqlab.summary_table(ds.assign_attrs(scenario="{not json"), by="flow"),
            r"ds.attrs\['scenario'\] must be a scenario's JSON .* pass class_names=",
        ),
        (lambda ds: pqlab.summary_table(ds, percentiles=(101,)), r"percentiles"),
        (
            lambda ds: pqlab.summary_table(ds, include_warmup="no"),
            r"include_warmup must be True or False",
        ),
        (lambda ds: pqlab.summary_table(ds.drop_vars("flow")), r"'flow' variable"),
        (
            lambda ds: pqlab.summary_table(ds.isel(packet=[0, 1])),
            r"no packet of ds arrives at or after",
        ),
    ],
)
def test_bad_input_is_one_line_naming_the_parameter(ds, call, match):
    with pytest.raises(ValueError, match=match):
        call(ds)


# --------------------------------------------------------------------------- properties


@st.composite
def random_datasets(draw, one_flow_per_class=False):
    n = draw(st.integers(1, 40))
    gaps = draw(st.lists(st.floats(0.0, 1e-3), min_size=n, max_size=n))
    arrival = np.cumsum(gaps)
    queue = np.array(draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)), np.int64)
    if one_flow_per_class:
        flow = queue * 10 + 3
    else:
        flow = queue * 10 + np.array(
            draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)), np.int64
        )
    drop = np.array(
        draw(st.lists(st.sampled_from([0, 0, 0, 1, 2, 3]), min_size=n, max_size=n)), np.int8
    )
    wait = np.array(draw(st.lists(st.floats(0.0, 0.01), min_size=n, max_size=n)))
    departure = np.where(drop == 0, arrival + wait, np.nan)
    ds = packets_dataset(arrival, np.full(n, 100, np.int64), queue, departure, departure, drop)
    ds["flow"] = ("packet", flow)
    ds.attrs["warmup_s"] = float(draw(st.sampled_from([0.0, *arrival.tolist()])))
    return ds


@settings(max_examples=60, deadline=None)
@given(ds=random_datasets())
def test_every_function_measures_the_same_packets(ds):
    measured = ds["arrival"].values >= ds.attrs["warmup_s"]
    n = int(measured.sum())
    assert metrics.one_way_delay(ds).sizes["packet"] == n
    assert (
        int(metrics.loss(ds)["sent"].sum()) == int(metrics.loss(ds, by="class")["sent"].sum()) == n
    )
    pairs = metrics.ipdv(ds, dropna=False)
    assert np.all(measured[pairs["packet"].values]) and np.all(
        measured[pairs["previous_packet"].values]
    )
    assert int(metrics.loss(ds, include_warmup=True)["sent"].sum()) == ds.sizes["packet"]
    for by in ("class", "flow"):
        table = pqlab.summary_table(ds, by=by)
        assert int(table["sent"].sum()) == n  # per-class (per-flow) counts sum to the total
        assert int((table["received"] + table["lost"]).sum()) == n
        assert int(table["ipdv_count"].sum()) == metrics.ipdv(ds).sizes["packet"]


@settings(max_examples=60, deadline=None)
@given(ds=random_datasets(one_flow_per_class=True))
def test_by_flow_and_by_class_agree_when_each_class_is_one_flow(ds):
    by_class = pqlab.summary_table(ds, by="class")
    by_flow = pqlab.summary_table(ds, by="flow").swap_dims(flow="traffic_class").drop_vars("flow")
    xr.testing.assert_identical(by_class.drop_attrs(), by_flow.drop_attrs())


# --------------------------------------------------------------------------- the streaming
# summaries


def test_the_streaming_summary_measures_the_packets_the_metrics_measure():
    rng = np.random.default_rng(5)
    node = Node(
        1e6,
        "none",
        None,
        None,
        (Queue("priority", 5), Queue("wfq", 8, weight_bps=5e5)),
        ring_limit_packets=1,
    )
    streams = [
        TraceStream(np.sort(rng.uniform(0, 3.0, 400)), rng.integers(64, 1500, 400), q, f)
        for q, f in ((0, 0), (1, 1), (1, 2))
    ]
    sc = Scenario(node, streams, duration_s=3.0, warmup_s=1.0)
    table = pqlab.summary_table(pqlab.simulate(sc, seed=0), by="flow")
    streamed = streaming.simulate_summary(sc, seed=0, window_s=0.7)
    assert table["sent"].values.tolist() == streamed["sent"].values.tolist()
    for name in ("loss_ratio", "delay_mean", "delay_max", "ipdv_abs_mean"):
        np.testing.assert_allclose(
            table[name].values, streamed[name].values, rtol=1e-9, err_msg=name
        )
    assert table["ipdv_count"].values.tolist() == streamed["ipdv_count"].values.tolist()


def test_the_streaming_summary_labels_its_classes_as_the_table_does():
    rng = np.random.default_rng(6)
    node = Node(
        1e6,
        "none",
        None,
        None,
        (Queue("priority", 5, name="voice"), Queue("wfq", 8, weight_bps=5e5)),
        ring_limit_packets=1,
    )
    streams = [
        TraceStream(np.sort(rng.uniform(0, 2.0, 200)), rng.integers(64, 1500, 200), q, f)
        for q, f in ((0, 0), (1, 1))
    ]
    sc = Scenario(node, streams, duration_s=2.0, warmup_s=0.5)
    table = pqlab.summary_table(pqlab.simulate(sc, seed=0), by="class")
    streamed = streaming.simulate_summary(sc, seed=0, window_s=0.5)
    assert (
        streamed["class_name"].values.tolist()
        == table["class_name"].values.tolist()
        == ["voice", "queue 1"]
    )
    assert streamed["class_sent"].values.tolist() == table["sent"].values.tolist()


def test_a_flow_in_two_queues_is_labelled_as_in_several_classes():
    packets = [
        (0.0, 100, 0, 7, 0.001, 0),
        (0.001, 100, 1, 7, 0.003, 0),
        (0.002, 100, 1, 8, 0.004, 0),
    ]
    table = pqlab.summary_table(make_ds(packets, warmup_s=None), by="flow")
    assert table["traffic_class"].values.tolist() == [-1, 1]
    assert table["class_name"].values.tolist() == ["several classes", "queue 1"]
    assert table["ipdv_count"].values.tolist() == [1, 0]  # a flow's pairs, whatever the queues
