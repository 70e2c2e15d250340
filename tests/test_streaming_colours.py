"""Colours in streaming summaries: per flow and per class, the packets offered and dropped by cause
per colour group (-1 unmarked, 0 green, 1 yellow, 2 red), as ``metrics.loss(by="colour")`` counts
them; the same counts whatever the windows; nothing new in a run without markers."""

from __future__ import annotations

import numpy as np
import pytest
from test_markers import marked_scenario

import pqlab
from pqlab import Node, PoissonStream, Queue, Scenario, TraceStream, TrTCM, Uniform
from pqlab.measure import metrics
from pqlab.streaming import FlowSummary, merge_summaries, simulate_summary, summarize
from pqlab.traffic import merge_streams

COUNTS = ("sent", "policed", "queue_full", "early_drop")


def _wred_scenario():
    """An AF class under WRED, two streams with a trTCM each, beside an unmarked EF stream; their
    packets drawn once, as traces (a run cut into any windows gets the same packets)."""
    af = Queue(
        "wfq",
        24,
        weight_bps=6e5,
        red_min_packets=(12, 8, 4),
        red_max_packets=(20, 16, 12),
        red_max_p=(0.1, 0.2, 0.5),
        red_weight=0.05,
    )
    node = Node(2e6, "atm-aal5", 5, 512, (Queue("priority", 10, police_rate_bps=3e5), af))
    marker = TrTCM(2e5, 3000, 4e5, 6000)
    laws = [
        PoissonStream(3e5, Uniform(64, 200), 0, 0),
        PoissonStream(9e5, Uniform(40, 1500), 1, 1),
        PoissonStream(9e5, Uniform(40, 1500), 1, 2),
    ]
    arrival, size, _, flow = merge_streams(laws, np.random.default_rng(3), 3.0)
    traces = [
        TraceStream(
            arrival[flow == s.flow],
            size[flow == s.flow],
            s.queue,
            s.flow,
            marker=marker if s.queue == 1 else None,
        )
        for s in laws
    ]
    return Scenario(node, traces, duration_s=3.0, warmup_s=0.5)


@pytest.mark.parametrize("make", [marked_scenario, _wred_scenario])
def test_streaming_counts_by_colour_equal_loss_by_colour_of_the_same_run(make):
    """One window: the traffic is simulate's (same seed and draws), so each class's and each
    flow's counts per colour equal loss(by="colour") of the per-packet run, warm-up left out (but
    the early drops: RED's draws come from a generator of their own when streaming)."""
    sc = make()
    ds = pqlab.simulate(sc, seed=5)
    streamed = simulate_summary(sc, seed=5, window_s=sc.duration_s * 2)
    assert streamed["colour"].values.tolist() == [-1, 0, 1, 2]
    assert streamed["colour_name"].values.tolist() == ["unmarked", "green", "yellow", "red"]
    for dim, key in (("traffic_class", "queue"), ("flow", "flow")):
        prefix = "class_" if dim == "traffic_class" else ""
        for label in streamed[dim].values:
            mine = ds.where(ds[key] == label, drop=True)
            table = metrics.loss(mine, by="colour") if mine.sizes["packet"] else None
            for count in COUNTS if make is marked_scenario else ("sent",):
                got = streamed[f"{prefix}colour_{count}"].sel({dim: label})
                want = dict.fromkeys((-1, 0, 1, 2), 0)
                if table is not None:
                    want.update(zip(table["colour"].values.tolist(), table[count].values.tolist()))
                assert got.values.tolist() == list(want.values()), (dim, label, count)
    total = streamed["class_colour_sent"].sum("traffic_class")
    assert total.sum().item() == streamed["class_sent"].sum().item() > 0
    assert (total.sel(colour=[0, 1, 2]) > 0).all() and total.sel(colour=-1).item() > 0
    if make is _wred_scenario:  # WRED drops red before yellow before green (rule 2a)
        ratio = streamed["class_colour_loss_ratio"].sel(traffic_class=1).values
        assert 0 < ratio[1] < ratio[2] < ratio[3] <= 1, ratio


def test_streaming_counts_by_colour_do_not_depend_on_the_windows_and_merge():
    sc = _wred_scenario()
    one = simulate_summary(sc, seed=2, window_s=10.0)
    many = simulate_summary(sc, seed=2, window_s=0.37)
    for v in ("class_colour_sent", "class_colour_early_drop", "colour_queue_full"):
        np.testing.assert_array_equal(one[v].values, many[v].values, err_msg=v)
    pooled = merge_summaries(summarize(sc, seed=s, window_s=1.0) for s in (1, 2)).to_dataset()
    apart = [summarize(sc, seed=s, window_s=1.0).to_dataset() for s in (1, 2)]
    both = apart[0]["class_colour_sent"].values + apart[1]["class_colour_sent"].values
    np.testing.assert_array_equal(pooled["class_colour_sent"].values, both)


def test_a_summary_without_markers_has_no_colour_variables():
    ds = simulate_summary(pqlab.scenarios.base_case(n_ef_samples=200), seed=1, window_s=1.0)
    assert "colour" not in ds.coords and not [v for v in ds.data_vars if "colour" in v]


@pytest.mark.parametrize(
    "colours, colour, message",
    [
        (
            True,
            None,
            r"colour must be given if and only if the summary counts colours \(colours=Tr",
        ),
        (False, [0, 0, 0], r"colour must be given if and only if .*colours=False"),
        (True, [0, 3, 0], r"colour must be .*\[-1, 2\]"),
        (True, [0, -2, 0], r"colour must be .*\[-1, 2\]"),
        (True, [0.5, 0, 0], r"colour"),
        (True, [0, 0], r"colour 2"),
        ("yes", None, r"colours must be True or False"),
    ],
)
def test_bad_colours_are_refused_before_any_count_changes(colours, colour, message):
    arrival = np.array([0.0, 0.1, 0.2])
    ones = np.ones(3, dtype=np.int64)
    with pytest.raises(ValueError, match=message) as exc:
        summary = FlowSummary(colours=colours)
        summary.update(
            arrival,
            ones * 100,
            ones,
            arrival + 0.01,
            np.zeros(3, np.int8),
            ones,
            colour=None if colour is None else np.asarray(colour),
        )
    assert "\n" not in str(exc.value)


def test_a_summary_with_colours_does_not_merge_with_one_without():
    with pytest.raises(ValueError, match="colours"):
        FlowSummary(colours=True).merge(FlowSummary())


def test_colours_are_set_by_the_scenario_not_given():
    with pytest.raises(ValueError, match="colours is set by the scenario"):
        simulate_summary(marked_scenario(), seed=1, colours=False)
