"""Colours and RED draws through a run (node contract rules 1a, 2a): ``pqlab.simulate`` and
``pqlab.streaming.simulate_summary`` colour each flow's packets with its stream's marker and, when
a queue has RED, draw one uniform per packet; without markers and RED nothing changes.

What reaches the kernel is read by wrapping ``run_kernel`` / ``NodeState.advance`` (the wrapper
records the keyword arguments); the end-to-end drops are checked on the real kernel.
"""

import hashlib
import json
import re

import numpy as np
import pytest

import pqlab
from pqlab import (
    CBRStream,
    Deterministic,
    Node,
    PoissonStream,
    Queue,
    Scenario,
    SrTCM,
    TrTCM,
    Uniform,
)
from pqlab.measure import metrics
from pqlab.node import scenario as scenario_module
from pqlab.node import streaming as streaming_module
from pqlab.node.engine import COLOUR_ATTRS, EARLY_DROP, NodeState, run_kernel
from pqlab.node.markers import FlowColours
from pqlab.streaming import run_batches, simulate_summary
from pqlab.traffic import merge_streams


def digest(ds, skip=()):
    """sha256 of a Dataset's variables (names, dtypes, shapes, attributes but the drop codes'
    ``flag_meanings``, values) and its ``scenario`` and ``seed`` attributes."""
    h = hashlib.sha256()
    for name in sorted(ds.variables):
        if name in skip:
            continue
        v = ds.variables[name]
        attrs = {
            k: str(a) for k, a in v.attrs.items() if not (name == "drop" and k == "flag_meanings")
        }
        h.update(json.dumps([name, v.dtype.str, list(v.shape), attrs], sort_keys=True).encode())
        h.update(np.ascontiguousarray(v.values).tobytes())
    h.update(json.dumps([ds.attrs["scenario"], ds.attrs["seed"]]).encode())
    return h.hexdigest()


#: ``digest`` of ``simulate(real_distribution(n_ef_samples=500), seed=3)`` and of its streaming
#: summary
#: (``window_s=0.7``, without the new ``early_drop`` count), computed at commit 29fe44c, before
#: markers.
PLAIN_RUN_SHA256 = "b756adaaabf716b41cc6bbb4d4092e378fa7d820233126605c55ac62b22e67a8"
PLAIN_SUMMARY_SHA256 = "40053b87039f324df91ec157f296ae56e5bb65a70f95c3c952118ec5bdf52977"
#: The summary's variables added since (issue 33: per-class totals ``class_*``, bytes, overflows;
#: the percentiles, ``delay_p<q>`` and ``jitter_p<q>``: :data:`PERCENTILE_VARIABLE`).
ADDED_BY_ISSUE_33 = {
    "kept",
    "sent_bytes",
    "kept_bytes",
    "delay_overflow",
    "ipdv_abs_overflow",
    "traffic_class",
}
PERCENTILE_VARIABLE = re.compile(r"(delay|jitter)_p[0-9.]+")


def test_a_run_without_markers_and_red_is_byte_identical_to_before():
    sc = pqlab.scenarios.real_distribution(n_ef_samples=500)
    ds = pqlab.simulate(sc, seed=3)
    assert "colour" not in ds.variables
    assert digest(ds) == PLAIN_RUN_SHA256
    summary = simulate_summary(sc, seed=3, window_s=0.7)
    added = [
        v
        for v in summary.variables
        if v.startswith("class_") or v in ADDED_BY_ISSUE_33 or PERCENTILE_VARIABLE.fullmatch(v)
    ]
    assert digest(summary, skip=("early_drop", *added)) == PLAIN_SUMMARY_SHA256
    assert int(summary["early_drop"].sum()) == 0


class Recorded:
    """Wraps a kernel entry: records the keyword arguments of each call and passes them on."""

    def __init__(self):
        self.calls = []

    def run_kernel(self, node, arrival, size, queue, **options):
        self.calls.append(options)
        return run_kernel(node, arrival, size, queue, **options)

    def node_state(self):
        calls = self.calls

        class RecordingState(NodeState):
            def advance(self, arrival, size, queue, horizon_s=np.inf, **options):
                calls.append(options)
                return super().advance(arrival, size, queue, horizon_s, **options)

        return RecordingState


@pytest.fixture
def recorded(monkeypatch):
    rec = Recorded()
    monkeypatch.setattr(scenario_module, "run_kernel", rec.run_kernel)
    monkeypatch.setattr(streaming_module, "NodeState", rec.node_state())
    return rec


def red_node():
    return Node(
        line_rate_bps=2e6,
        framing="none",
        ring_limit_particles=2,
        particle_bytes=1500,
        queues=(
            Queue("priority", 10),
            Queue(
                "wfq",
                200,
                weight_bps=1e6,
                red_min_packets=(20, 10, 5),
                red_max_packets=(60, 40, 20),
                red_max_p=(0.1, 0.2, 0.5),
                red_weight=0.02,
            ),
        ),
    )


def marked_streams():
    return (
        CBRStream(3e5, Deterministic(200), 0, 0, phase_s=0.0),
        CBRStream(1.2e6, Deterministic(1000), 1, 1, phase_s=0.0005, marker=SrTCM(6e5, 3000, 6000)),
        PoissonStream(1.2e6, Uniform(100, 1500), 1, 2, marker=TrTCM(4e5, 3000, 8e5, 3000)),
    )


def test_plain_runs_pass_nothing_new_to_the_kernel(recorded):
    sc = pqlab.scenarios.base_case(n_ef_samples=200)
    pqlab.simulate(sc, seed=1)
    simulate_summary(sc, seed=1, window_s=0.5)
    assert recorded.calls and all(call == {} for call in recorded.calls)


def test_simulate_colours_each_flow_with_its_marker_and_draws_nothing(recorded):
    plain_node = Node(
        line_rate_bps=2e6,
        framing="none",
        ring_limit_particles=2,
        particle_bytes=1500,
        queues=(Queue("priority", 10), Queue("wfq", 200, weight_bps=1e6)),
    )
    sc = Scenario(node=plain_node, streams=marked_streams(), duration_s=3.0)
    ds = pqlab.simulate(sc, seed=7)
    (call,) = recorded.calls
    assert set(call) == {"colour"}  # no RED: no draws
    colour = ds["colour"].values
    assert colour.dtype == np.int8 and ds["colour"].attrs == COLOUR_ATTRS
    assert np.array_equal(call["colour"], colour)
    flow, arrival, size = ds["flow"].values, ds["arrival"].values, ds["size"].values
    for s in sc.streams:
        mine = flow == s.flow
        expected = (
            s.marker.colour(arrival[mine], size[mine])
            if s.marker
            else np.zeros(mine.sum(), np.int8)
        )
        assert np.array_equal(colour[mine], expected)
    assert set(colour.tolist()) == {0, 1, 2}
    # markers draw nothing: the traffic is that of the same streams without markers
    unmarked = Scenario(
        node=plain_node,
        streams=tuple(
            type(s)(**{**{f: getattr(s, f) for f in s.__dataclass_fields__}, "marker": None})
            for s in sc.streams
        ),
        duration_s=3.0,
    )
    plain = pqlab.simulate(unmarked, seed=7)
    for name in ("arrival", "size", "queue", "flow", "ring_entry", "departure"):
        np.testing.assert_array_equal(plain[name].values, ds[name].values)


def test_simulate_draws_red_uniforms_after_the_traffic(recorded):
    sc = Scenario(node=red_node(), streams=marked_streams(), duration_s=3.0)
    ds = pqlab.simulate(sc, seed=11)
    (call,) = recorded.calls
    rng = np.random.default_rng(11)
    arrival, *_ = merge_streams(sc.streams, rng, sc.duration_s)
    np.testing.assert_array_equal(
        ds["arrival"].values, arrival
    )  # the traffic the node without RED sees
    np.testing.assert_array_equal(call["red_uniform"], rng.random(arrival.size))
    assert call["red_uniform"].dtype == np.float64 and call["colour"].dtype == np.int8
    # a RED node and streams without markers: uniforms, no colours
    recorded.calls.clear()
    plain = pqlab.simulate(
        Scenario(node=red_node(), streams=(marked_streams()[0],), duration_s=1.0), seed=2
    )
    assert set(recorded.calls[0]) == {"red_uniform"} and "colour" not in plain.variables


def _streamed_inputs(recorded, sc, seed, window_s):
    recorded.calls.clear()
    simulate_summary(sc, seed=seed, window_s=window_s)
    return {key: np.concatenate([c[key] for c in recorded.calls]) for key in recorded.calls[0]}


def test_streaming_colours_and_draws_do_not_depend_on_the_windows(recorded):
    """CBR streams of fixed phases give the same packets whatever the windows: every packet then
    gets the same colour and the same RED draw, from the seed's spawned child generator."""
    streams = marked_streams()[:2] + (
        CBRStream(
            1.2e6, Uniform(100, 1500), 1, 2, phase_s=0.0001, marker=TrTCM(4e5, 3000, 8e5, 3000)
        ),
    )
    sc = Scenario(node=red_node(), streams=streams, duration_s=4.0)
    whole = _streamed_inputs(recorded, sc, 5, 4.0)
    assert set(whole) == {"colour", "red_uniform"} and set(whole["colour"].tolist()) == {0, 1, 2}
    for window_s in (0.3, 1.0, 0.0517):
        cut = _streamed_inputs(recorded, sc, 5, window_s)
        np.testing.assert_array_equal(cut["colour"], whole["colour"])
        np.testing.assert_array_equal(cut["red_uniform"], whole["red_uniform"])
    child = np.random.default_rng(np.random.SeedSequence(5).spawn(1)[0])
    np.testing.assert_array_equal(whole["red_uniform"], child.random(whole["red_uniform"].size))
    # and the colours are the one-shot run's
    arrival, size, _q, flow = merge_streams(sc.streams, np.random.default_rng(5), sc.duration_s)
    np.testing.assert_array_equal(
        whole["colour"], FlowColours(sc.streams).colour(arrival, size, flow)
    )


def test_run_batches_passes_each_batch_colours_and_draws(recorded):
    node = red_node()
    arrival = np.arange(10) * 1e-3
    size, queue = np.full(10, 500), np.ones(10, np.int64)
    colour, red = (np.arange(10) % 3).astype(np.int8), np.linspace(0, 0.9, 10)
    batches = [
        (arrival[:4], size[:4], queue[:4], None, colour[:4], red[:4]),
        (arrival[4:], size[4:], queue[4:], None, colour[4:], red[4:]),
    ]
    list(run_batches(node, batches))
    assert [c["colour"].tolist() for c in recorded.calls] == [
        colour[:4].tolist(),
        colour[4:].tolist(),
    ]
    assert [c["red_uniform"].tolist() for c in recorded.calls] == [
        red[:4].tolist(),
        red[4:].tolist(),
    ]
    recorded.calls.clear()
    plain = Node(
        line_rate_bps=2e6,
        framing="none",
        ring_limit_particles=2,
        particle_bytes=1500,
        queues=(Queue("priority", 10), Queue("wfq", 200, weight_bps=1e6)),
    )
    list(run_batches(plain, [(arrival, size, queue, None)]))  # the 4-tuple form: nothing passed
    assert recorded.calls == [{}]
    with pytest.raises(
        ValueError, match="red_uniform must be an array"
    ):  # a RED node needs the draws
        list(run_batches(node, [(arrival, size, queue, None)]))


# --------------------------------------------------------------------------- drop code 3


def test_loss_and_summaries_count_early_drops_apart():
    ds = pqlab.simulate(pqlab.scenarios.base_case(n_ef_samples=200), seed=1)
    drop = ds["drop"].values.copy()
    drop[:7] = EARLY_DROP  # as RED would mark them
    faked = ds.assign(drop=("packet", drop))
    got = metrics.loss(
        faked, by="flow", include_warmup=True
    )  # every packet, as FlowSummary(start_s=0)
    assert int(got["early_drop"].sum()) == 7
    np.testing.assert_array_equal(
        got["lost"].values,
        got["policed"].values + got["queue_full"].values + got["early_drop"].values,
    )
    summary = streaming_module.FlowSummary()
    summary.update(
        ds["arrival"].values,
        ds["size"].values,
        ds["flow"].values,
        ds["departure"].values,
        drop,
        ds["queue"].values,
    )
    out = summary.to_dataset()
    assert int(out["early_drop"].sum()) == 7
    kept = out["sent"] - out["policed"] - out["queue_full"] - out["early_drop"]
    np.testing.assert_allclose(out["loss_ratio"].values, 1 - kept.values / out["sent"].values)


def test_the_drop_code_texts_name_early_drop():
    from pqlab.measure.cache import DROP_FLAGS
    from pqlab.node.engine import DROP_MEANINGS

    assert "3 early drop" in DROP_MEANINGS
    assert DROP_FLAGS["flag_values"].tolist() == [0, 1, 2, 3]
    assert DROP_FLAGS["flag_meanings"].split()[EARLY_DROP] == "early_drop"


def test_a_cached_run_with_colours_writes_both_flag_sets_and_reads_back_identical(
    tmp_path, monkeypatch
):
    import xarray as xr

    from pqlab.measure import cache

    @cache.artefact("tiny_colours")
    def compute(seed):
        rng = np.random.default_rng(seed)
        return xr.Dataset(
            {
                "drop": ("packet", rng.integers(0, 4, 20).astype(np.int8)),
                "colour": ("packet", rng.integers(0, 3, 20).astype(np.int8), COLOUR_ATTRS),
            }
        )

    monkeypatch.setenv(cache.ENV_DIR, str(tmp_path))
    monkeypatch.delenv(cache.ENV_FORCE, raising=False)
    first = compute(4)
    (file,) = (tmp_path / "tiny_colours").glob("*.nc")
    with xr.open_dataset(file) as raw:
        assert raw["drop"].attrs["flag_meanings"] == "kept policed queue_full early_drop"
        assert raw["drop"].attrs["flag_values"].tolist() == [0, 1, 2, 3]
        assert raw["colour"].attrs["flag_meanings"] == "green yellow red"
        assert raw["colour"].attrs["flag_values"].tolist() == [0, 1, 2]
    assert compute(4).identical(first)
