"""Markers per class (node contract rule 1a): ``Scenario(class_markers={queue: marker})`` meters
all the streams of a class together, with one marker, in the order the packets reach the node.

An exact trace of two streams sharing one class marker, its colours computed by hand; per-class
marking of a class of one stream equals that stream's own marker; the streaming summary and
``loss(by="colour")`` see the class's packets as marked; what cannot be meant is refused.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pqlab
from pqlab import Node, PoissonStream, Queue, Scenario, SrTCM, TraceStream, TrTCM, Uniform
from pqlab.measure import metrics
from pqlab.streaming import simulate_summary

GREEN, YELLOW, RED = 0, 1, 2


def _node():
    return Node(
        2e6,
        "ethernet",
        4,
        512,
        (Queue("priority", 20, name="ef"), Queue("wfq", 64, weight_bps=1e6, name="af21")),
    )


def test_two_streams_share_one_class_marker_colours_by_hand():
    """RFC 2698 trTCM, CIR 1000 B/s, CBS 1000 B, PIR 2000 B/s, PBS 1500 B, both buckets full at 0,
    fed by flows 0 and 1 of class 1 in arrival order (the tie at 0 in the streams' order):

    ======  ====  =====  ========================  ==========================  =======
    t (s)   flow  bytes  P before (refill)          C before (refill)           colour
    ======  ====  =====  ========================  ==========================  =======
    0       0     500    1500                      1000                        green
    0       1     500    1000                      500                         green
    0.1     0     500    500 + 200 = 700           0 + 100 = 100 < 500         yellow
    0.1     1     500    200 < 500                 100                         red
    0.5     1     500    200 + 800 = 1000          100 + 400 = 500             green
    0.6     0     1000   500 + 200 = 700 < 1000    0 + 100 = 100               red
    1.6     0     500    700 + 2000 -> 1500        100 + 1000 -> 1000          green
    ======  ====  =====  ========================  ==========================  =======

    Each stream with its own marker of the same settings would colour all its packets green
    but its last-but-one (flow 0: 0.6 s, 1000 B yellow).
    """
    f0 = TraceStream([0.0, 0.1, 0.6, 1.6], [500, 500, 1000, 500], 1, 0)
    f1 = TraceStream([0.0, 0.1, 0.5], [500, 500, 500], 1, 1)
    marker = TrTCM(cir_bps=8_000, cbs_bytes=1_000, pir_bps=16_000, pbs_bytes=1_500)
    sc = Scenario(_node(), [f0, f1], duration_s=2.0, class_markers={1: marker})
    ds = pqlab.simulate(sc, seed=1)
    order = np.lexsort((ds["flow"].values, ds["arrival"].values))  # ties: flow 0 first, as merged
    assert ds["arrival"].values[order].tolist() == [0.0, 0.0, 0.1, 0.1, 0.5, 0.6, 1.6]
    assert ds["colour"].values[order].tolist() == [GREEN, GREEN, YELLOW, RED, GREEN, RED, GREEN]
    own = Scenario(
        _node(),
        [
            TraceStream(f0.arrival_s, f0.size_bytes, 1, 0, marker=marker),
            TraceStream(f1.arrival_s, f1.size_bytes, 1, 1, marker=marker),
        ],
        duration_s=2.0,
    )
    mine = pqlab.simulate(own, seed=1)
    assert mine["colour"].values[order].tolist() == [GREEN] * 5 + [YELLOW, GREEN]
    # the name of the class does as its index; the scenario's JSON keeps the marker
    by_name = Scenario(_node(), [f0, f1], duration_s=2.0, class_markers={"af21": marker})
    assert by_name == sc and by_name.to_json() == sc.to_json()
    assert Scenario.from_json(sc.to_json()) == sc
    assert json.loads(sc.to_json())["class_markers"] == [{"queue": 1, "marker": marker.to_dict()}]
    assert "class_markers" not in json.loads(own.to_json())  # without: the JSON of before


def test_the_class_marker_colours_streaming_runs_and_loss_by_colour_as_marked():
    f0 = TraceStream([0.0, 0.1, 0.6, 1.6], [500, 500, 1000, 500], 1, 0)
    f1 = TraceStream([0.0, 0.1, 0.5], [500, 500, 500], 1, 1)
    ef = TraceStream([0.05, 0.2], [100, 100], 0, 2)  # no marker: its own group
    marker = TrTCM(cir_bps=8_000, cbs_bytes=1_000, pir_bps=16_000, pbs_bytes=1_500)
    sc = Scenario(_node(), [f0, f1, ef], duration_s=2.0, class_markers={1: marker})
    table = metrics.loss(pqlab.simulate(sc, seed=1), by="colour")
    assert dict(zip(table["colour"].values.tolist(), table["sent"].values.tolist())) == {
        -1: 2,
        GREEN: 4,
        YELLOW: 1,
        RED: 2,
    }
    for window_s in (0.3, 5.0):  # the marker's buckets carried across windows
        streamed = simulate_summary(sc, seed=1, window_s=window_s)
        sent = streamed["class_colour_sent"].sel(traffic_class=1)
        assert dict(zip(streamed["colour"].values.tolist(), sent.values.tolist())) == {
            -1: 0,
            GREEN: 4,
            YELLOW: 1,
            RED: 2,
        }


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    kind=st.sampled_from(["srtcm", "trtcm"]),
    rate_bps=st.sampled_from([2e5, 6e5, 1.5e6]),
    burst=st.integers(100, 20_000),
)
def test_a_class_marker_on_a_class_of_one_stream_equals_the_streams_own_marker(
    seed, kind, rate_bps, burst
):
    marker = (
        SrTCM(rate_bps, burst, 2 * burst)
        if kind == "srtcm"
        else TrTCM(rate_bps, burst, 2 * rate_bps, 2 * burst)
    )
    af = dict(rate_bps=8e5, size=Uniform(64, 1500), queue=1, flow=1)
    ef = PoissonStream(rate_bps=1e5, size=Uniform(64, 200), queue=0, flow=0)
    per_class = Scenario(
        _node(), [ef, PoissonStream(**af)], duration_s=0.5, class_markers={1: marker}
    )
    per_stream = Scenario(_node(), [ef, PoissonStream(**af, marker=marker)], duration_s=0.5)
    a, b = pqlab.simulate(per_class, seed=seed), pqlab.simulate(per_stream, seed=seed)
    for v in ("arrival", "colour", "departure", "drop", "flow"):
        np.testing.assert_array_equal(a[v].values, b[v].values, err_msg=v)
    np.testing.assert_array_equal(
        metrics.loss(a, by="colour").to_array().values,
        metrics.loss(b, by="colour").to_array().values,
    )


MARKER = SrTCM(1e6, 3000, 6000)


@pytest.mark.parametrize(
    "class_markers, message",
    [
        ({2: MARKER}, r"class_markers: queue 2 must be an index into node.queues, in \[0, 1\]"),
        ({-1: MARKER}, r"class_markers: queue -1 must be an index"),
        (
            {"video": MARKER},
            r"class_markers: 'video' names no class of the node \(its classes: " r"'ef', 'af21'\)",
        ),
        ({"1": MARKER}, r"class_markers: '1' names no class"),
        (
            {1.0: MARKER},
            r"class_markers: a key must be a queue index \(int\) or a class name \(str\), "
            r"got 1.0",
        ),
        ({True: MARKER}, r"class_markers: a key must be a queue index"),
        ({1: None}, r"class_markers\[1\] must be a pqlab.SrTCM or a pqlab.TrTCM, got NoneType"),
        ({1: MARKER, "af21": MARKER}, r"class_markers: queue 1 is given twice \(1 and 'af21'\)"),
        (
            [MARKER],
            r"class_markers must be a mapping of queue index or class name to marker, " r"got list",
        ),
        (MARKER, r"class_markers must be a mapping .* got SrTCM"),
    ],
)
def test_bad_class_markers_are_refused_in_one_line(class_markers, message):
    stream = PoissonStream(rate_bps=1e5, size=Uniform(64, 200), queue=1, flow=0)
    with pytest.raises(ValueError, match=message) as exc:
        Scenario(_node(), [stream], duration_s=1.0, class_markers=class_markers)
    assert "\n" not in str(exc.value)


def test_a_stream_with_its_own_marker_in_a_marked_class_is_refused():
    """A packet is coloured once (rule 1a): the stream's marker or its class's, not both."""
    streams = [
        PoissonStream(rate_bps=1e5, size=Uniform(64, 200), queue=1, flow=0),
        PoissonStream(rate_bps=1e5, size=Uniform(64, 200), queue=1, flow=3, marker=MARKER),
    ]
    message = r"streams\[1\] \(flow 3\) has a marker and its class, queue 1 \('af21'\), has one"
    with pytest.raises(ValueError, match=message + " in class_markers") as exc:
        Scenario(_node(), streams, duration_s=1.0, class_markers={1: MARKER})
    assert "\n" not in str(exc.value)


def test_a_class_marker_on_a_class_no_stream_feeds_is_warned_once():
    """A marker that meters no packet is an implausible setting (a class index or name typed
    wrong): one warning naming the class; a fed class's marker gives none."""
    import warnings

    stream = PoissonStream(rate_bps=1e5, size=Uniform(64, 200), queue=1, flow=0)
    with pytest.warns(
        pqlab.ImplausibleSettingWarning,
        match=r"class_markers: queue 0 \('ef'\) is fed by no stream: its marker "
        r"colours no packet",
    ) as caught:
        Scenario(_node(), [stream], duration_s=1.0, class_markers={"ef": MARKER})
    assert len(caught) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error", pqlab.ImplausibleSettingWarning)
        Scenario(_node(), [stream], duration_s=1.0, class_markers={"af21": MARKER})
