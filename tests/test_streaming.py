"""Streaming mode: batches through a carried node state equal one in-memory run, exactly."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pqlab
from pqlab import experiments, scenarios
from pqlab.node.engine import run_kernel, validate_arrivals
from pqlab.streaming import FlowSummary, run_batches, simulate_summary
from pqlab.traffic import TrafficWindows, merge_streams


def _trace(seed, n):
    sc = scenarios.real_distribution(n_ef_samples=n)
    t, s, q, f = merge_streams(sc.streams, np.random.default_rng(seed), sc.duration_s)
    return sc, t, s, q, f


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31), st.lists(st.integers(1, 3000), min_size=1, max_size=8))
def test_batches_equal_one_in_memory_run_bit_for_bit(seed, cuts):
    sc, t, s, q, f = _trace(seed % 1000, 200)
    edges = np.unique(np.clip(np.cumsum(cuts), 0, t.size))
    edges = np.r_[0, edges[edges < t.size], t.size]
    batches = [(t[a:b], s[a:b], q[a:b], f[a:b]) for a, b in zip(edges[:-1], edges[1:])]
    out = list(run_batches(sc.node, batches))
    assert len(out) == len(batches)
    entry, dep, drop = (np.concatenate([o[k] for o in out]) for k in (4, 5, 6))
    ref = run_kernel(sc.node, *validate_arrivals(sc.node, t, s, q))
    np.testing.assert_array_equal(entry, ref[0])
    np.testing.assert_array_equal(dep, ref[1])
    np.testing.assert_array_equal(drop, ref[2])


def test_tiny_batches_keep_packets_waiting_across_many_boundaries():
    sc, t, s, q, f = _trace(3, 100)
    batches = [
        (t[i : i + 7], s[i : i + 7], q[i : i + 7], f[i : i + 7]) for i in range(0, t.size, 7)
    ]
    out = list(run_batches(sc.node, batches))
    ref = run_kernel(sc.node, *validate_arrivals(sc.node, t, s, q))
    np.testing.assert_array_equal(np.concatenate([o[5] for o in out]), ref[1])


def test_windows_partition_the_streams():
    sc = scenarios.base_case(n_ef_samples=300)
    whole = merge_streams(sc.streams, np.random.default_rng(5), sc.duration_s)
    tw = TrafficWindows(sc.streams, np.random.default_rng(5))
    edges = np.linspace(0, sc.duration_s, 8)
    parts = [tw.window(a, b) for a, b in zip(edges[:-1], edges[1:])]
    for k in range(4):  # deterministic sizes: windows reproduce the single window exactly
        np.testing.assert_array_equal(np.concatenate([p[k] for p in parts]), whole[k])


def test_streaming_summary_matches_the_in_memory_metrics():
    sc = scenarios.real_distribution(n_ef_samples=2000)
    window_s = 0.7
    summary = simulate_summary(sc, seed=4, window_s=window_s, delay_bin_s=1e-3, delay_max_s=0.1)
    # the same traffic in memory: the windows concatenated, one engine run, pqlab.metrics
    tw = TrafficWindows(sc.streams, np.random.default_rng(4))
    edges = np.append(np.arange(0.0, sc.duration_s, window_s), sc.duration_s)
    t, s, q, f = (
        np.concatenate(c) for c in zip(*(tw.window(a, b) for a, b in zip(edges[:-1], edges[1:])))
    )
    ds = pqlab.simulate_arrivals(sc.node, t, s, q)
    ds["flow"] = ("packet", f)
    ref_delay = experiments.reference_delay(ds, sc).values
    ref_ipdv = experiments.reference_ipdv(ds, sc).values
    row = summary.sel(flow=scenarios.REFERENCE_FLOW)
    assert int(row.sent) == ref_delay.size
    assert float(row.delay_mean) == pytest.approx(np.nanmean(ref_delay), rel=1e-12)
    assert float(row.delay_std) == pytest.approx(np.nanstd(ref_delay, ddof=1), rel=1e-9)
    assert float(row.delay_max) == np.nanmax(ref_delay)
    assert int(row.ipdv_count) == ref_ipdv.size
    assert float(row.ipdv_abs_mean) == pytest.approx(np.mean(np.abs(ref_ipdv)), rel=1e-12)
    hist, _ = np.histogram(
        ref_delay[np.isfinite(ref_delay)], bins=np.arange(0, 0.1 + 1e-3 / 2, 1e-3)
    )
    np.testing.assert_array_equal(row.delay_hist.values[:-1], hist[:-1])
    assert summary.attrs["seed"] == 4 and "scenario" in summary.attrs


def test_summary_counts_losses_and_rejects_bad_settings():
    sc = scenarios.base_case(n_ef_samples=500)
    summary = simulate_summary(sc, seed=1, window_s=0.5)
    be = summary.sel(flow=summary.flow[summary.flow >= scenarios.FIRST_BE_FLOW])
    assert int(be.queue_full.sum()) > 0 and float(summary.sel(flow=0).loss_ratio) == 0.0
    with pytest.raises(ValueError, match="window_s"):
        simulate_summary(sc, window_s=0)
    with pytest.raises(ValueError, match="delay_bin_s"):
        FlowSummary(delay_bin_s=-1)
