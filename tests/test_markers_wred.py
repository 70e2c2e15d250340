"""Markers and WRED end to end on the kernel (node contract rules 1a, 2a): an AF class under WRED
drops red packets more than yellow and yellow more than green; a run cut into batches or windows
equals one run with colours and RED draws."""

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
from pqlab.node.engine import EARLY_DROP, run_kernel, validate_arrivals
from pqlab.node.markers import FlowColours
from pqlab.streaming import run_batches, simulate_summary
from pqlab.traffic import TrafficWindows, merge_streams

AF = 1


def af_node():
    """2 Mbit/s line; EF priority queue; an AF class (WFQ) under WRED, thresholds per colour
    as Cisco's AF11/AF12/AF13 profiles (red's lowest), and a best-effort class."""
    return Node(
        line_rate_bps=2e6,
        framing="none",
        ring_limit_particles=2,
        particle_bytes=1500,
        queues=(
            Queue("priority", 10),
            Queue(
                "wfq",
                100,
                weight_bps=1.5e6,
                red_min_packets=(30, 15, 5),
                red_max_packets=(60, 40, 20),
                red_max_p=(0.1, 0.2, 0.5),
                red_weight=2.0**-5,
            ),
            Queue("wfq", 50, weight_bps=5e5),
        ),
    )


def af_scenario(duration_s=20.0):
    """AF traffic of 2.4 Mbit/s into a class of about 1.5 Mbit/s: three Poisson streams, each
    marked by a trTCM or srTCM (green within its committed rate, yellow up to its peak, red
    beyond), and best effort beside it."""
    return Scenario(
        node=af_node(),
        duration_s=duration_s,
        warmup_s=1.0,
        streams=(
            CBRStream(2e5, Deterministic(200), 0, 0),
            PoissonStream(8e5, Uniform(200, 1500), AF, 1, marker=TrTCM(4e5, 6000, 6e5, 6000)),
            PoissonStream(8e5, Uniform(200, 1500), AF, 2, marker=TrTCM(2e5, 6000, 6e5, 6000)),
            PoissonStream(8e5, Uniform(200, 1500), AF, 3, marker=SrTCM(3e5, 6000, 12000)),
            PoissonStream(6e5, Deterministic(1000), 2, 4),
        ),
    )


def test_wred_drops_red_more_than_yellow_more_than_green():
    ds = pqlab.simulate(af_scenario(), seed=3)
    af = ds["queue"].values == AF
    colour, drop = ds["colour"].values[af], ds["drop"].values[af]
    early = [np.mean(drop[colour == c] == EARLY_DROP) for c in (0, 1, 2)]
    lost = [np.mean(drop[colour == c] != 0) for c in (0, 1, 2)]
    counts = [int(np.sum(colour == c)) for c in (0, 1, 2)]
    assert min(counts) > 1000, counts  # every colour is well represented
    assert early[2] > early[1] > early[0], early
    assert lost[2] > lost[1] > lost[0], lost
    assert early[2] > 0.2 and lost[0] < 0.1, (early, lost)
    # the loss summary counts them apart; only the RED queue drops early
    loss = metrics.loss(ds, by="queue", include_warmup=True)  # every packet, as the sum below
    assert int(loss["early_drop"].sel(traffic_class=AF)) == int(np.sum(drop == EARLY_DROP)) > 0
    assert (
        int(loss["early_drop"].sel(traffic_class=0))
        == int(loss["early_drop"].sel(traffic_class=2))
        == 0
    )


def test_same_seed_same_run_and_the_seed_moves_the_red_draws():
    a, b = pqlab.simulate(af_scenario(5.0), seed=8), pqlab.simulate(af_scenario(5.0), seed=8)
    assert a.identical(b)
    c = pqlab.simulate(af_scenario(5.0), seed=9)
    assert not np.array_equal(a["drop"].values, c["drop"].values)


@pytest.mark.parametrize("seed", range(4))
def test_batches_with_colours_and_red_draws_equal_one_run(seed):
    sc = af_scenario(4.0)
    rng = np.random.default_rng(seed)
    t, s, q, f = merge_streams(sc.streams, rng, sc.duration_s)
    t, s, q = validate_arrivals(sc.node, t, s, q)
    colour = FlowColours(sc.streams).colour(t, s, f)
    red = rng.random(t.size)
    whole = run_kernel(sc.node, t, s, q, colour=colour, red_uniform=red)
    assert np.any(whole[2] == EARLY_DROP)
    cuts = np.sort(rng.integers(0, t.size, 9))
    edges = [0, *cuts, t.size]
    out = list(
        run_batches(
            sc.node,
            [
                (t[a:b], s[a:b], q[a:b], None, colour[a:b], red[a:b])
                for a, b in zip(edges[:-1], edges[1:])
            ],
        )
    )
    for k, ref in zip((4, 5, 6), whole):
        np.testing.assert_array_equal(np.concatenate([o[k] for o in out]), ref)


def test_streaming_summary_counts_early_drops_as_the_one_shot_run_with_its_draws():
    """The streaming summary's counts are those of the in-memory run on the same traffic,
    colours and RED draws (the seed's spawned child's draws: simulate_summary's rule)."""
    sc = af_scenario(6.0)
    summary = simulate_summary(sc, seed=2, window_s=1.0)
    # Poisson windows draw per window: the traffic rebuilt window by window as simulate_summary
    # draws it
    tw = TrafficWindows(sc.streams, np.random.default_rng(2))
    parts = [tw.window(a, b) for a, b in zip(np.arange(0.0, 6.0, 1.0), np.arange(1.0, 7.0, 1.0))]
    t, s, q, f = (np.concatenate([p[k] for p in parts]) for k in range(4))
    t, s, q = validate_arrivals(sc.node, t, s, q)
    colour = FlowColours(sc.streams).colour(t, s, f)
    red = np.random.default_rng(np.random.SeedSequence(2).spawn(1)[0]).random(t.size)
    drop = run_kernel(sc.node, t, s, q, colour=colour, red_uniform=red)[2]
    after = t >= sc.warmup_s
    for flow in summary.flow.values:
        mine = after & (f == flow)
        assert int(summary["early_drop"].sel(flow=flow)) == int(np.sum(drop[mine] == EARLY_DROP))
    assert int(summary["early_drop"].sum()) > 0
