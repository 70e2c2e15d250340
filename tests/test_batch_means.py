"""One long run's confidence intervals: batch means and sectioning, by hand and against theory.

The hand cases hold the arithmetic (Law and Kelton 2015, sec. 9.5.3; Asmussen and Glynn 2007,
sec. III.5a); the M/D/1 queue, whose mean sojourn the Pollaczek-Khinchine formula gives, holds
the intervals' coverage and their width against the spread of the mean over independent seeds;
the streaming summary gives the per-packet table's intervals from its per-batch accumulators.
"""

import math

import numpy as np
import pytest

import pqlab
from pqlab import Deterministic, Node, PoissonStream, Queue, Scenario
from pqlab.base.confidence import MIN_BATCHES, ratio_batch_means, t_quantile
from pqlab.measure.batchmeans import batch_means
from pqlab.node import streaming
from pqlab.streaming import simulate_summary

#: Student's t quantiles of a 95 % interval (tables: 2 and 3 degrees of freedom).
T95_2DOF, T95_3DOF = 4.302652729749464, 3.182446305284263


def test_the_t_quantile_is_the_tables():
    assert t_quantile(0.95, 2) == pytest.approx(T95_2DOF, rel=1e-12)
    assert t_quantile(0.95, 3) == pytest.approx(T95_3DOF, rel=1e-12)


def test_batch_means_of_a_known_sequence_by_hand():
    # 9 values, 4 batches of 2: the oldest value (9) is left out; batch means 1, 2, 4, 7
    out = batch_means([9.0, 0, 2, 1, 3, 4, 4, 6, 8], 4, percentiles=(50,))
    np.testing.assert_array_equal(out["batch_means"], [1.0, 2.0, 4.0, 7.0])
    assert (out["batch_size"], out["n_batches"], out["mean"]) == (2, 4, 3.5)
    # deviations -2.5, -1.5, 0.5, 3.5: S^2 = 21 / 3 = 7; h = t_{3} sqrt(7 / 4)
    half = T95_3DOF * math.sqrt(7 / 4)
    assert out["half_width"] == pytest.approx(half, rel=1e-12)
    assert (out["ci_low"], out["ci_high"]) == pytest.approx((3.5 - half, 3.5 + half), rel=1e-12)
    # lag 1: (-2.5 * -1.5 + -1.5 * 0.5 + 0.5 * 3.5) / 21 = 4.75 / 21
    assert out["lag1"] == pytest.approx(4.75 / 21, rel=1e-12)
    # median of 0,1,2,3,4,4,6,8 = 3.5; the batches' medians are their means: the same S
    assert out["p50"] == 3.5
    assert (out["p50_ci_low"], out["p50_ci_high"]) == pytest.approx((3.5 - half, 3.5 + half))


def test_unequal_batches_give_the_ratio_estimators_interval_by_hand():
    # sums 2, 9, 4 of 1, 3, 2 values: R = 15 / 6 = 2.5; residuals -0.5, 1.5, -1: S^2 = 3.5 / 2
    out = ratio_batch_means(np.array([[2.0, 9.0, 4.0]]), np.array([[1, 3, 2]]), 0.95)
    assert float(out["mean"][0]) == 2.5
    half = T95_2DOF * math.sqrt(1.75 / 3) / 2
    assert float(out["half_width"][0]) == pytest.approx(half, rel=1e-12)
    # batch means 2, 3, 2: deviations -1/3, 2/3, -1/3: lag 1 = (-4/9) / (6/9)
    assert float(out["lag1"][0]) == pytest.approx(-2 / 3, rel=1e-12)


def test_equal_counts_make_the_ratio_interval_the_classical_one():
    rng = np.random.default_rng(3)
    x = rng.exponential(size=600)
    out = batch_means(x, 20)
    means = x.reshape(20, 30).mean(axis=1)
    classical = t_quantile(0.95, 19) * means.std(ddof=1) / math.sqrt(20)
    assert out["half_width"] == pytest.approx(classical, rel=1e-12)


@pytest.mark.parametrize("n_batches", [1, 0, 2.5, 10_001])
def test_too_few_or_bad_batches_are_refused_naming_the_parameter_and_the_minimum(n_batches):
    with pytest.raises(ValueError, match=rf"n_batches must be an integer in \[{MIN_BATCHES}, "):
        batch_means(np.arange(50.0), n_batches)


def test_fewer_values_than_batches_and_bad_confidence_are_refused():
    with pytest.raises(ValueError, match="n_batches must be at most the number of values"):
        batch_means(np.arange(5.0), 6)
    for bad in (0.0, 1.0, 1.5, float("nan")):
        with pytest.raises(ValueError, match="confidence must be a finite number in"):
            batch_means(np.arange(50.0), 5, confidence=bad)
    with pytest.raises(ValueError, match="values must"):
        batch_means([1.0, np.nan, 2.0], 2)


# --------------------------------------------------------------------------- M/D/1 against theory

LINE_BPS, SIZE_BYTES, LOAD = 1e6, 125, 0.5
SERVICE_S = SIZE_BYTES * 8 / LINE_BPS
#: Pollaczek-Khinchine for M/D/1: sojourn = S + rho S / (2 (1 - rho)) = 1.5 ms at rho = 0.5.
MD1_SOJOURN_S = SERVICE_S + LOAD * SERVICE_S / (2 * (1 - LOAD))
N_SEEDS = 200


def _md1(duration_s: float = 20.0) -> Scenario:
    """One FIFO queue, framing none, one packet in the ring at a time: M/D/1 at load 0.5."""
    node = Node(LINE_BPS, "none", None, None, (Queue("priority", 100_000),), ring_limit_packets=1)
    stream = PoissonStream(LOAD * LINE_BPS, Deterministic(SIZE_BYTES), 0, 0)
    return Scenario(node, (stream,), duration_s=duration_s, warmup_s=1.0)


@pytest.fixture(scope="module")
def md1_tables():
    """summary_table with 95 % intervals (20 batches) of the M/D/1 run of each of 200 seeds."""
    sc = _md1()
    return [
        pqlab.summary_table(pqlab.simulate(sc, seed=seed), ci=0.95, percentiles=(50, 90))
        for seed in range(N_SEEDS)
    ]


def test_the_batch_means_interval_covers_the_pollaczek_khinchine_mean_about_95_percent(md1_tables):
    covered = sum(
        float(t["delay_mean_ci_low"][0]) <= MD1_SOJOURN_S <= float(t["delay_mean_ci_high"][0])
        for t in md1_tables
    )
    # binomial spread of the share covered by a 95 % interval over 200 seeds: sd 1.54 %;
    # within 3 sd: 0.904 to 0.996 (the seeds are fixed: the count is one number)
    sd = math.sqrt(0.95 * 0.05 / N_SEEDS)
    assert 0.95 - 3 * sd <= covered / N_SEEDS <= 0.95 + 3 * sd, covered


def test_one_runs_half_width_agrees_with_the_spread_over_independent_seeds(md1_tables):
    means = np.array([float(t["delay_mean"][0]) for t in md1_tables])
    assert means.mean() == pytest.approx(MD1_SOJOURN_S, rel=0.01)  # the model is M/D/1
    for name in ("delay_mean", "delay_p50", "delay_p90"):
        half = np.median(
            [float(t[f"{name}_ci_high"][0] - t[f"{name}_ci_low"][0]) / 2 for t in md1_tables]
        )
        centres = np.array([float(t[name][0]) for t in md1_tables])
        # what one run's 95 % half-width should be: t_{19} times the std of a run's value
        spread = t_quantile(0.95, 19) * centres.std(ddof=1)
        # within a factor 1.3: the seeds' std is within 5 % (200 seeds), a run's interval
        # from 20 batches within ~16 % (one sd), and the median of 200 of them much closer
        assert 1 / 1.3 < half / spread < 1.3, (name, half, spread)
    lag1 = np.array([float(t["delay_batch_lag1"][0]) for t in md1_tables])
    assert abs(lag1.mean()) < 0.1  # batches of ~500 packets at rho = 0.5: nearly independent


def test_the_streaming_summary_gives_the_tables_intervals_from_its_batches():
    sc = _md1(10.0)
    table = pqlab.summary_table(
        pqlab.simulate(sc, seed=4), ci=0.9, n_batches=8, path=sc.path, percentiles=(50, 99)
    )
    # one window: the traffic of pqlab.simulate; the delays summed per batch, not kept
    summary = simulate_summary(
        sc, seed=4, window_s=sc.duration_s, ci=0.9, n_batches=8, percentiles=(50, 99)
    )
    assert (summary.attrs["ci_confidence"], summary.attrs["ci_batches"]) == (0.9, 8)
    for name in ("delay_mean_ci_low", "delay_mean_ci_high", "delay_batch_lag1"):
        assert float(summary[f"class_{name}"][0]) == pytest.approx(float(table[name][0]), rel=1e-9)
    alpha = summary.attrs["sketch_relative_accuracy"]
    for name in ("delay_p50_ci_low", "delay_p50_ci_high", "delay_p99_ci_high"):
        # each batch's percentile from its log-binned histogram: within alpha of numpy's
        assert float(summary[f"class_{name}"][0]) == pytest.approx(
            float(table[name][0]), rel=4 * alpha
        )


def test_the_streaming_batches_are_bounded_by_classes_and_batches_not_packets():
    sc = _md1(30.0)
    summary, _, batches = streaming._run(sc, 1, 1.0, {}, True, 7)
    assert int(batches.counts.sum()) == int(summary._class_ints[:, 0].sum())  # every kept packet
    assert batches.sums.shape == batches.counts.shape == (1, 7)
    assert batches.sketch.shape == (7, summary.bins.n_bins)


def test_intervals_are_asked_for_and_checked_at_the_boundary():
    sc = _md1(3.0)
    ds = pqlab.simulate(sc, seed=1)
    assert "delay_mean_ci_low" not in pqlab.summary_table(ds)
    with pytest.raises(ValueError, match="confidence must be"):
        pqlab.summary_table(ds, ci=95)
    with pytest.raises(ValueError, match=r"n_batches must be an integer in \[2, "):
        pqlab.summary_table(ds, ci=0.95, n_batches=1)
    with pytest.raises(ValueError, match=r"n_batches must be an integer in \[2, "):
        simulate_summary(sc, seed=1, ci=0.95, n_batches=1)
    assert "class_delay_mean_ci_low" not in simulate_summary(sc, seed=1)
