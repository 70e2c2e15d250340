"""Streaming quantiles (issue 33): log-binned histograms within their stated relative error,
mergeable exactly across batches, runs and workers; per-class totals; overflow counted, never
hidden.
"""

import functools
import pickle
import re

import numpy as np
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st

import pqlab
from pqlab import scenarios
from pqlab.base.sketch import LogBins
from pqlab.node import summary as summary_module
from pqlab.node.engine import POLICED
from pqlab.streaming import FlowSummary, merge_summaries, run_batches, simulate_summary, summarize
from pqlab.traffic import TrafficWindows, merge_streams

ALPHA = 0.005
QS = np.array([0.0, 0.01, 0.25, 0.5, 0.9, 0.99, 0.999, 1.0])


def _within(est, exact, alpha=ALPHA, floor=1e-9):
    """The stated error: relative ``alpha`` (plus a few ulps of the log at a bin edge), absolute
    ``floor`` for values below the range's start (they count as 0)."""
    est, exact = np.asarray(est), np.asarray(exact)
    return np.abs(est - exact) <= alpha * (1 + 1e-9) * np.abs(exact) + floor


# --------------------------------------------------------------------------- the sketch alone


def _sketch_quantiles(values, q=QS, bins=None):
    bins = bins or LogBins(ALPHA)
    counts = bins.zeros(1)
    bins.add(values, np.zeros(len(values), np.int64), counts)
    return bins.quantiles(counts, q)[0]


positive = st.floats(1e-9, 1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(positive, min_size=1, max_size=300), st.lists(st.floats(0, 1), min_size=1, max_size=5)
)
def test_quantiles_are_within_alpha_of_numpys_percentiles(values, q):
    q = np.unique(q)
    values = np.array(values)
    assert _within(_sketch_quantiles(values, q), np.percentile(values, 100 * q)).all()


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["edges", "clusters", "ties", "zeros", "heavy"]))
def test_quantiles_hold_on_adversarial_data(seed, kind):
    rng = np.random.default_rng(seed)
    bins = LogBins(ALPHA)
    gamma = (1 + ALPHA) / (1 - ALPHA)
    if kind == "edges":  # exactly on bin edges and one ulp either side
        k = rng.integers(bins.k_min, bins.k_min + bins.n_bins - 2, 200)
        v = gamma ** k.astype(float)
        values = np.concatenate([v, np.nextafter(v, 0), np.nextafter(v, np.inf)])
        values = values[(values >= 1e-9) & (values <= 1e6)]
    elif kind == "clusters":  # two far-apart modes: interpolation across a huge gap
        values = np.concatenate([rng.uniform(1e-6, 2e-6, 500), rng.uniform(1e5, 2e5, 3)])
    elif kind == "ties":
        values = np.repeat(rng.uniform(1e-4, 1.0, 3), rng.integers(1, 400, 3))
    elif kind == "zeros":  # |IPDV| of a flow that never queues: mostly exactly 0, below the range
        values = np.concatenate(
            [np.zeros(900), rng.uniform(0, 1e-9, 50), rng.exponential(1e-4, 50)]
        )
    else:  # a heavy tail over 12 decades
        values = np.minimum(rng.pareto(0.3, 2000) * 1e-6 + 1e-9, 1e6)
    assert _within(_sketch_quantiles(values, QS, bins), np.percentile(values, 100 * QS)).all()


def test_a_fine_alpha_over_a_wide_range_still_finds_every_bin_exactly():
    bins = LogBins(2e-4, 1e-100, 1e100)  # 1.15 million bins, 2.7 million cells of the bits table
    values = 10.0 ** np.random.default_rng(0).uniform(-100, 100, 5000)
    assert _within(
        _sketch_quantiles(values, QS, bins), np.percentile(values, 100 * QS), alpha=2e-4
    ).all()
    counts = bins.zeros(1)
    bins.add(values, np.zeros(values.size, np.int64), counts)
    # each value's bin is the one of the logarithm's definition: (gamma**(k-1), gamma**k]
    gamma = (1 + 2e-4) / (1 - 2e-4)
    keys = np.ceil(np.log(values) / np.log(gamma)).astype(np.int64)
    np.testing.assert_array_equal(np.flatnonzero(counts[0]), np.unique(keys - bins.k_min + 1))


@pytest.mark.parametrize(
    "args",
    [
        (ALPHA, 1e-9, 1e6),
        (2e-4, 1e-100, 1e100),
        (0.5, 1e-9, 1e6),
        (0.3, 1.0, 2.0),
        (0.01, 1e-300, 1e300),
        (1e-3, 3e-7, 5e2),
    ],
)
def test_one_comparison_finds_every_bin_of_the_table_even_on_its_edges(args):
    """The bits table's cells span at most two bins each, so bin_of's single comparison gives the
    bin the table of edges defines (``(upper[j-1], upper[j]]``) for every value, edges included."""
    bins = LogBins(*args)
    cells = np.arange(bins.start.size) + bins.base
    lowest = (cells << bins.shift).view(np.float64)
    highest = (((cells + 1) << bins.shift) - 1).view(np.float64)
    last = np.clip(np.searchsorted(bins.upper, highest, side="left"), 1, bins.n_bins - 2)
    assert (last - bins.start <= 1).all()
    rng = np.random.default_rng(1)
    edges = bins.upper[rng.integers(0, bins.upper.size, 20_000)]
    top = bins.max_value
    values = np.concatenate(
        [
            edges,
            np.nextafter(edges, 0),
            np.nextafter(edges, np.inf),
            lowest[:1000],
            highest[-1000:],
            [0.0, np.inf, top, np.nextafter(top, np.inf)],
        ]
    )  # add refuses NaN, < 0
    counts = bins.zeros(1)
    bins.add(values, np.zeros(values.size, np.int64), counts)
    expected = np.searchsorted(bins.upper, values, side="left")
    expected[values > top] = bins.n_bins - 1
    expected[~(values > bins.upper[0])] = 0  # at or below the first edge
    np.testing.assert_array_equal(counts[0], np.bincount(expected, minlength=bins.n_bins))


def test_values_above_the_range_are_counted_and_their_quantiles_are_nan_not_folded_in():
    bins = LogBins(ALPHA, 1e-9, 1.0)
    values = np.r_[np.full(98, 0.5), 7.0, 1e300]
    counts = bins.zeros(1)
    bins.add(values, np.zeros(values.size, np.int64), counts)
    assert counts[0, -1] == 2 and counts.sum() == 100
    got = bins.quantiles(counts, [0.5, 0.98, 0.995])[0]
    assert _within(got[0], 0.5) and np.isnan(got[1:]).all()


@pytest.mark.parametrize(
    "kw, message",
    [
        (dict(alpha=0), r"alpha must be a finite number in \(0\.0, 0\.5\]"),
        (dict(alpha=0.7), r"alpha must be a finite number in \(0\.0, 0\.5\]"),
        (dict(alpha=float("nan")), "alpha"),
        (dict(sketch_min_s=0), r"sketch_min_s must be a finite number > 0\.0"),
        (dict(sketch_max_s=1e-12), r"sketch_max_s must be a finite number > 1e-09"),
        (dict(sketch_max_s=float("inf")), "sketch_max_s"),
        (dict(alpha=1e-12), r"alpha, sketch_min_s, sketch_max_s \(log bins per row\) would need"),
        (dict(percentiles=(50, 150)), r"percentiles must be .*in \[0\.0, 100\.0\]"),
        (
            dict(percentiles=(0.5, 0.99)),
            "percentiles are percents in \\[0, 100\\], .* read as fractions",
        ),
        (dict(percentiles=(99, 99.0)), "percentiles must be distinct percents"),
        (dict(percentiles="p99"), "percentiles"),
    ],
)
def test_bad_sketch_settings_are_refused_naming_the_parameter_and_range(kw, message):
    with pytest.raises(ValueError, match=message):
        FlowSummary(**kw)
    with pytest.raises(ValueError, match=message):
        simulate_summary(scenarios.base_case(n_ef_samples=10), **kw)


# --------------------------------------------------------------------------- one run in memory


@functools.lru_cache(maxsize=None)
def _packets(seed=3, n=600):
    """A base-case run (losses at the full BE queue) as resolved per-packet arrays."""
    sc = scenarios.base_case(n_ef_samples=n)
    t, s, q, f = merge_streams(sc.streams, np.random.default_rng(seed), sc.duration_s)
    out = list(run_batches(sc.node, [(t, s, q, f)]))[0]
    arrival, size, queue, flow, _entry, departure, drop = out
    return sc, arrival, size, queue, flow, departure, drop


def _summary(packets, lo=0, hi=None, start_s=0.5, **kw):
    sc, arrival, size, queue, flow, departure, drop = packets
    s = FlowSummary(sc.path, start_s=start_s, n_classes=len(sc.node.queues), **kw)
    sl = slice(lo, hi)
    s.update(arrival[sl], size[sl], flow[sl], departure[sl], drop[sl], queue[sl])
    return s


def _assert_same(a: FlowSummary, b: FlowSummary):
    """Counts, histograms, extremes and quantiles equal exactly; sums up to rounding."""
    assert (a.n_flows, a.n_classes) == (b.n_flows, b.n_classes)
    for name, arr in a._arrays().items():
        other = getattr(b, name)
        if arr.dtype == np.int64:
            np.testing.assert_array_equal(arr, other, err_msg=name)
        else:
            np.testing.assert_allclose(arr, other, rtol=1e-12, atol=1e-15, err_msg=name)
    da, db = a.to_dataset(), b.to_dataset()
    for v in (
        "delay_p99",
        "jitter_p99.9",
        "class_delay_p50",
        "class_jitter_p90",
        "delay_min",
        "delay_max",
        "class_delay_max",
        "sent",
        "class_kept_bytes",
        "ipdv_count",
    ):
        np.testing.assert_array_equal(da[v].values, db[v].values, err_msg=v)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_consecutive_batches_joined_in_any_grouping_equal_the_one_shot_summary(cuts, rnd):
    packets = _packets()
    n = packets[1].size
    edges = np.unique(np.r_[0, np.array(cuts) % n, n])
    parts = [_summary(packets, a, b) for a, b in zip(edges[:-1], edges[1:])]
    whole = _summary(packets)
    while len(parts) > 1:  # join random neighbours, in time order: any grouping
        i = rnd.randrange(len(parts) - 1)
        parts[i : i + 2] = [parts[i].followed_by(parts[i + 1])]
    _assert_same(parts[0], whole)


def test_joining_batches_is_associative_equals_the_one_shot_and_leaves_its_operands_alone():
    packets = _packets()
    n = packets[1].size
    a, b, c = (
        _summary(packets, lo, hi) for lo, hi in ((0, n // 3), (n // 3, n // 2), (n // 2, None))
    )
    before = a.copy()
    _assert_same(a.followed_by(b).followed_by(c), a.followed_by(b.followed_by(c)))
    _assert_same(merge_summaries([a, b, c], consecutive=True), _summary(packets))
    _assert_same(a, before)


def test_the_pair_spanning_two_batches_is_formed_by_the_join():
    packets = _packets()
    n = packets[1].size
    a, b = _summary(packets, 0, n // 2), _summary(packets, n // 2)
    whole = _summary(packets)
    paired_apart = a._ints[:, 4].sum() + b._ints[:, 4].sum()  # IPDV_COUNT
    assert a.followed_by(b)._ints[:, 4].sum() == whole._ints[:, 4].sum() > paired_apart


def test_a_join_out_of_time_order_is_refused_naming_the_flow():
    packets = _packets()
    n = packets[1].size
    a, b = _summary(packets, 0, n // 2), _summary(packets, n // 2)
    with pytest.raises(
        ValueError, match=r"the later summary must follow this one: flow \d+'s first packet"
    ):
        b.followed_by(a)


def test_pooling_runs_is_commutative_and_associative_and_adds_their_counts():
    sc = scenarios.base_case(n_ef_samples=300)
    one, two, three = (summarize(sc, seed=s, window_s=0.5) for s in (1, 2, 3))
    _assert_same(one.merge(two), two.merge(one))
    _assert_same(one.merge(two).merge(three), one.merge(two.merge(three)))
    _assert_same(merge_summaries([three, one, two]), one.merge(two).merge(three))
    pooled = one.merge(two)
    for k in ("sent", "ipdv_count", "class_queue_full", "class_kept_bytes"):  # no pair between runs
        np.testing.assert_array_equal(
            pooled.to_dataset()[k], one.to_dataset()[k] + two.to_dataset()[k]
        )
    np.testing.assert_array_equal(pooled._delay_sketch, one._delay_sketch + two._delay_sketch)


def test_summaries_with_other_settings_do_not_merge():
    packets = _packets()
    with pytest.raises(ValueError, match=r"differ in alpha \(0.005 vs 0.01\)"):
        _summary(packets).merge(_summary(packets, alpha=0.01))
    with pytest.raises(ValueError, match="start_s"):
        _summary(packets).merge(_summary(packets, start_s=0.0))
    with pytest.raises(ValueError, match="summaries must hold at least one"):
        merge_summaries([])


def test_per_class_totals_sum_to_the_flow_totals_and_match_the_packets():
    sc, arrival, size, queue, flow, departure, drop = _packets()
    ds = _summary(_packets()).to_dataset()
    counted = arrival >= 0.5
    for var in (
        "sent",
        "kept",
        "policed",
        "queue_full",
        "early_drop",
        "sent_bytes",
        "kept_bytes",
        "ipdv_count",
    ):
        assert int(ds[f"class_{var}"].sum()) == int(ds[var].sum()), var
    kept = counted & (drop == 0)
    n_q = len(sc.node.queues)
    np.testing.assert_array_equal(ds.class_sent, np.bincount(queue[counted], minlength=n_q))
    np.testing.assert_array_equal(ds.class_kept, np.bincount(queue[kept], minlength=n_q))
    np.testing.assert_array_equal(
        ds.class_sent_bytes, np.bincount(queue[counted], size[counted], minlength=n_q)
    )
    np.testing.assert_array_equal(
        ds.class_kept_bytes, np.bincount(queue[kept], size[kept], minlength=n_q)
    )
    assert int(ds.class_queue_full.sum()) > 0 and ds.traffic_class.values.tolist() == list(
        range(n_q)
    )
    assert ds.attrs["warmup_s"] == 0.5


def test_policed_packets_count_in_their_class():
    sc, arrival, size, queue, flow, departure, drop = _packets()
    drop = drop.copy()
    drop[-5:] = POLICED
    s = FlowSummary(sc.path, n_classes=len(sc.node.queues))
    s.update(arrival, size, flow, departure, drop, queue)
    ds = s.to_dataset()
    assert int(ds.class_policed.sum()) == 5 == int(ds.policed.sum())


def test_delays_above_the_range_warn_and_are_counted_in_the_dataset():
    packets = _packets()
    s = _summary(packets, sketch_max_s=1e-3)  # below the BE queue's delays
    with pytest.warns(UserWarning, match=r"one-way delays .* above sketch_max_s=0.001 s"):
        ds = s.to_dataset()
    delays = packets[5] - packets[1]
    over = int(np.count_nonzero((packets[6] == 0) & (packets[1] >= 0.5) & (delays > 1e-3)))
    assert int(ds.delay_overflow.sum()) == ds.attrs["sketch_overflow_delay"] == over > 0
    assert np.isnan(ds["class_delay_p99.9"].values).any()


# --------------------------------------------------------------------------- whole runs


def _exact(delay, arrival, flow, queue, drop, warmup_s, n_flows, n_q):
    """Per flow and per class: the kept packets' delays and |IPDV| (RFC 3393 pairs), in arrival
    order."""
    counted = arrival >= warmup_s
    d, f, c, kept = delay[counted], flow[counted], queue[counted], drop[counted] == 0
    out = {"delay": {}, "ipdv": {}, "class_delay": {}, "class_ipdv": {}}
    for k in range(n_flows):
        mine = f == k
        dd, kk, cc = d[mine], kept[mine], c[mine]
        pair = kk[1:] & kk[:-1]
        out["delay"][k] = dd[kk]
        out["ipdv"][k] = np.abs(np.diff(dd))[pair]
        for q in range(n_q):
            out["class_delay"].setdefault(q, []).append(dd[kk & (cc == q)])
            out["class_ipdv"].setdefault(q, []).append(np.abs(np.diff(dd))[pair & (cc[1:] == q)])
    for key in ("class_delay", "class_ipdv"):
        out[key] = {q: np.concatenate(v) for q, v in out[key].items()}
    return out


def _check_quantiles(ds, exact, percentiles=(50, 90, 99, 99.9)):
    for var, key, dim in (
        ("delay", "delay", "flow"),
        ("jitter", "ipdv", "flow"),
        ("class_delay", "class_delay", "traffic_class"),
        ("class_jitter", "class_ipdv", "traffic_class"),
    ):
        for k in ds[dim].values:
            values = exact[key][int(k)]
            got = np.array([ds[f"{var}_p{p:g}"].sel({dim: k}).values for p in percentiles])
            if values.size == 0:
                assert np.isnan(got).all()
            else:
                assert _within(got, np.percentile(values, percentiles)).all(), (var, k)


def test_streaming_quantiles_agree_with_the_one_shot_simulate_within_alpha():
    """One window: the traffic is simulate's (same seed, same draws); the delays are exact there."""
    sc = scenarios.real_distribution(n_ef_samples=3000)
    ds = pqlab.simulate(sc, seed=7)
    summary = simulate_summary(sc, seed=7, window_s=sc.duration_s * 2)
    delay = (ds.departure - ds.arrival).values + sc.path.extra_delay_s(ds["size"].values)
    assert int(summary.sent.sum()) == int((ds.arrival >= sc.warmup_s).sum())
    exact = _exact(
        delay,
        ds.arrival.values,
        ds.flow.values,
        ds.queue.values,
        ds["drop"].values,
        sc.warmup_s,
        int(ds.flow.max()) + 1,
        len(sc.node.queues),
    )
    _check_quantiles(summary, exact)


def test_streaming_in_many_windows_agrees_with_the_same_traffic_in_memory():
    sc = scenarios.base_case(n_ef_samples=2000)
    window_s = 0.7
    percentiles = (10, 50, 95, 99, 100)
    summary = simulate_summary(sc, seed=4, window_s=window_s, percentiles=percentiles)
    tw = TrafficWindows(sc.streams, np.random.default_rng(4))
    edges = np.append(np.arange(0.0, sc.duration_s, window_s), sc.duration_s)
    t, s, q, f = (
        np.concatenate(c) for c in zip(*(tw.window(a, b) for a, b in zip(edges[:-1], edges[1:])))
    )
    ds = pqlab.simulate_arrivals(sc.node, t, s, q)
    delay = (ds.departure - ds.arrival).values + sc.path.extra_delay_s(s)
    exact = _exact(
        delay, t, f, q, ds["drop"].values, sc.warmup_s, int(f.max()) + 1, len(sc.node.queues)
    )
    _check_quantiles(summary, exact, percentiles)
    assert (
        summary.attrs["sketch_relative_accuracy"] == ALPHA
        and summary.attrs["sketch_overflow_delay"] == 0
    )


def test_summaries_pickle_and_merge_across_dask_workers_as_in_one_process():
    distributed = pytest.importorskip(
        "distributed", reason="dask.distributed is the optional backend"
    )
    sc = scenarios.base_case(n_ef_samples=300)
    local = merge_summaries(summarize(sc, seed=s, window_s=0.5) for s in (1, 2, 3))
    _assert_same(pickle.loads(pickle.dumps(local)), local)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        futures = client.map(functools.partial(summarize, sc, window_s=0.5), [1, 2, 3])
        remote = merge_summaries(client.gather(futures))
    _assert_same(remote, local)


def test_without_percentiles_the_summary_keeps_everything_else_and_merges():
    packets = _packets()
    n = packets[1].size
    full, bare = _summary(packets), _summary(packets, percentiles=None)
    joined = _summary(packets, 0, n // 2, percentiles=None).followed_by(
        _summary(packets, n // 2, percentiles=None)
    )
    for s in (bare, joined):
        ds = s.to_dataset()
        assert (
            not [v for v in ds if re.search(r"_p[0-9]", v)]
            and "sketch_overflow_delay" not in ds.attrs
        )
        ref = full.to_dataset()
        for v in (
            "sent",
            "kept_bytes",
            "class_queue_full",
            "ipdv_count",
            "delay_max",
            "delay_hist",
            "ipdv_hist",
        ):
            np.testing.assert_array_equal(ds[v].values, ref[v].values, err_msg=v)
    with pytest.raises(ValueError, match="percentiles"):
        full.merge(bare)


def test_a_batch_cut_into_chunks_with_ever_longer_packets_equals_one_kernel_call(monkeypatch):
    """update accumulates a batch CHUNK_PACKETS packets at a time and extends its table of the
    path's delay by IP length when longer packets come: the same bits as one call on it all."""
    sc = scenarios.real_distribution(n_ef_samples=300)
    t, s, q, f = merge_streams(sc.streams, np.random.default_rng(5), sc.duration_s)
    arrival, size, queue, flow, _entry, departure, drop = list(
        run_batches(sc.node, [(t, s, q, f)])
    )[0]
    whole = FlowSummary(sc.path, start_s=0.5, n_classes=2)
    whole.update(arrival, size, flow, departure, drop, queue)
    monkeypatch.setattr(summary_module, "CHUNK_PACKETS", 37)
    first_longest = int(np.argmax(size == size.max()))
    cuts = [0, first_longest, first_longest + 300, size.size]
    assert 0 < size[:first_longest].max() < size.max()  # the table grows at the second part
    parts = FlowSummary(sc.path, start_s=0.5, n_classes=2)
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        parts.update(
            arrival[lo:hi], size[lo:hi], flow[lo:hi], departure[lo:hi], drop[lo:hi], queue[lo:hi]
        )
    xr.testing.assert_identical(parts.to_dataset(), whole.to_dataset())


@pytest.mark.parametrize("bad", [-1, 65_536])
def test_sizes_that_are_not_ip_lengths_are_refused(bad):
    sc, arrival, size, queue, flow, departure, drop = _packets()
    size = size.copy()
    size[3] = bad
    with pytest.raises(ValueError, match=r"size_bytes must be IP lengths in \[0, 65535\]"):
        FlowSummary(sc.path).update(arrival, size, flow, departure, drop, queue)


def test_arrays_of_other_lengths_are_refused_before_the_kernel():
    sc, arrival, size, queue, flow, departure, drop = _packets()
    with pytest.raises(ValueError, match="must be 1-D arrays of one length"):
        FlowSummary(sc.path).update(arrival, size, flow, departure[:-1], drop, queue)


def test_the_streaming_summary_and_summary_table_name_percentiles_alike():
    """One convention (percents) and one naming (``delay_p<q>``, ``jitter_p<q>``) in both, the
    streaming summary's class rows ``class_``-prefixed; both refuse fractions alike."""
    sc = scenarios.base_case(n_ef_samples=300)
    percentiles = (50, 99.9, 90)  # any order, a fractional percent
    table = pqlab.summary_table(pqlab.simulate(sc, seed=1), percentiles=percentiles, path=sc.path)
    streamed = simulate_summary(sc, seed=1, window_s=sc.duration_s * 2, percentiles=percentiles)
    named = {f"{q}_p{p}" for q in ("delay", "jitter") for p in ("50", "99.9", "90")}
    assert named <= set(table.data_vars) and named <= set(streamed.data_vars)
    assert {f"class_{v}" for v in named} <= set(streamed.data_vars)
    assert (
        not [v for v in streamed.data_vars if "quantile" in v] and "quantile" not in streamed.coords
    )
    for name in named:  # the same quantity: within the sketch's relative error of the exact one
        assert (
            table[name].attrs["long_name"].split(" (relative")[0]
            == streamed[f"class_{name}"].attrs["long_name"].split(" (relative")[0]
        ), name
        exact = table[name].sel(traffic_class=0).item()
        assert _within(streamed[f"class_{name}"].sel(traffic_class=0).item(), exact), name
    for call in (
        lambda: pqlab.summary_table(pqlab.simulate(sc, seed=1), percentiles=(0.5, 0.99)),
        lambda: simulate_summary(sc, seed=1, percentiles=(0.5, 0.99)),
    ):
        with pytest.raises(ValueError, match=r"percentiles are percents .* read as fractions"):
            call()
