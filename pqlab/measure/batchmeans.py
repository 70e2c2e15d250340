"""One long run's confidence intervals: batch means for the mean, sectioning for quantiles.

The observations of one run are correlated (a packet waits behind the one before), so the
spread of single delays says nothing about the error of their mean. Non-overlapping batch means
(Law and Kelton, "Simulation Modeling and Analysis", 5th ed. 2015, sec. 9.5.3; Alexopoulos and
Seila, "Output data analysis", Handbook of Simulation, 1998; Schmeiser, "Batch size effects in
the analysis of simulation output", Operations Research 30(3), 1982) cut the run into ``k``
batches long enough to be nearly independent and read the error from the spread of their means;
a quantile's interval comes from the spread of the batches' quantiles (sectioning). The
arithmetic is :mod:`pqlab.base.confidence`'s (also the streaming summary's); this module is its
entry point for a sequence (:func:`batch_means`) and the per-class interval variables of
:func:`pqlab.summary_table` (:func:`batch_ci_variables`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..base._validate import check_array
from ..base.confidence import (
    DEFAULT_BATCHES,
    batch_of,
    check_batches,
    check_confidence,
    ratio_batch_means,
    sectioning_half_width,
)
from ..base.percentiles import check_percentiles, percentile_names
from ..node.batches import BatchSums

__all__ = ["DEFAULT_BATCHES", "batch_means", "batch_ci_variables"]


def batch_means(
    values,
    n_batches: int = DEFAULT_BATCHES,
    *,
    confidence: float = 0.95,
    percentiles: Sequence[float] = (),
) -> dict:
    """Confidence intervals of the mean and quantiles of one run's sequence, by batch means.

    The ``n`` values, in the order the run produced them, are cut into ``k = n_batches``
    consecutive batches of ``m = floor(n / k)`` values; the ``n - k m`` oldest values (nearest
    the warm-up) are left out. With the batch means ``x_j`` (``j = 1..k``), their mean ``x``
    and ``S^2 = sum_j (x_j - x)^2 / (k - 1)``, the interval of the mean is

    ``x +- t_{k-1, (1+c)/2} S / sqrt(k)``

    (non-overlapping batch means: Law and Kelton 2015, sec. 9.5.3; Schmeiser 1982, who finds 10 to
    30 batches a good choice: the default is 20). The batches must be long enough for their means
    to be nearly independent: ``lag1``, the lag-1 autocorrelation of the batch means, should be
    near 0 (its standard error is about ``1 / sqrt(k)``); if not, use fewer, longer batches or a
    longer run. A percentile ``q`` is centred on the sample percentile ``Q`` of the ``k m`` values
    and its half-width is ``t_{k-1, (1+c)/2} S_Q / sqrt(k)``, ``S_Q`` the standard deviation of
    the batches' percentiles (sectioning: Asmussen and Glynn, "Stochastic Simulation", 2007, sec.
    III.5a). Percentiles are numpy's linear interpolation, as in :func:`pqlab.summary_table`.

    Parameters
    ----------
    values : array_like
        1-D finite observations in run order (e.g. one class's one-way delays, seconds, in
        arrival order); the results are in their unit.
    n_batches : int
        Batches ``k``, in [2, 10000] (a CI needs ``k - 1 >= 1`` degrees of freedom), at most the
        number of values.
    confidence : float
        Confidence level ``c`` in (0, 1).
    percentiles : sequence of float
        Percentiles in [0, 100] whose intervals to give, named ``p<q>`` (``p99``), as
        :func:`pqlab.summary_table` names them.

    Returns
    -------
    dict
        ``mean``, ``half_width``, ``ci_low``, ``ci_high`` (unit of ``values``), ``lag1`` (1),
        ``batch_size`` ``m`` and ``n_batches`` ``k`` (counts), ``batch_means`` (array of ``k``),
        and per percentile ``p<q>``, ``p<q>_ci_low``, ``p<q>_ci_high``.

    Raises
    ------
    ValueError
        On a bad argument: ``n_batches`` below 2 or above the number of values (naming it and
        the bound), values not 1-D finite numbers, a confidence outside (0, 1).
    """
    k = check_batches(n_batches)
    c = check_confidence(confidence)
    x = check_array("values", values, kind="float")
    if x.shape[0] < k:
        raise ValueError(
            f"n_batches must be at most the number of values ({x.shape[0]}: a batch "
            f"needs at least one value), got {k}"
        )
    q = check_percentiles(percentiles)
    m = x.shape[0] // k
    batches = x[x.shape[0] - k * m :].reshape(k, m)
    core = ratio_batch_means(batches.sum(axis=1), np.full(k, m), c)
    mean, half = float(core["mean"]), float(core["half_width"])
    out = {
        "mean": mean,
        "half_width": half,
        "ci_low": mean - half,
        "ci_high": mean + half,
        "lag1": float(core["lag1"]),
        "batch_size": m,
        "n_batches": k,
        "batch_means": batches.mean(axis=1),
    }
    if q.size:
        overall = np.percentile(batches, q)
        per_batch = np.percentile(batches, q, axis=1)  # (percentiles, batches)
        halves = sectioning_half_width(per_batch, c)
        for name, centre, h in zip(percentile_names(q), overall, halves):
            out.update(
                {
                    name: float(centre),
                    f"{name}_ci_low": float(centre - h),
                    f"{name}_ci_high": float(centre + h),
                }
            )
    return out


def batch_ci_variables(
    delay_s: np.ndarray,
    arrival_s: np.ndarray,
    row: np.ndarray,
    n_rows: int,
    interval_s: tuple,
    n_batches: int,
    confidence: float,
    q: np.ndarray,
    centres: dict,
) -> dict:
    """The interval variables of :func:`pqlab.summary_table`: time batches per group.

    The measurement interval ``interval_s = (start_s, end_s)`` is cut into ``n_batches`` equal
    lengths by arrival, as the streaming summary cuts it (:class:`pqlab.node.batches.BatchSums`);
    per group the mean's interval is the ratio batch-means interval around ``centres["mean"]``
    and a percentile's the sectioning interval (numpy's percentiles of each batch) around
    ``centres["p<q>"]`` (:meth:`pqlab.node.batches.BatchSums.intervals`). ``delay_s`` holds the
    measured packets' delays (NaN: lost, left out), ``arrival_s`` their arrivals and ``row``
    their group's index in ``[0, n_rows)``.
    """
    kept = ~np.isnan(delay_s)
    delay_s, arrival_s, row = delay_s[kept], arrival_s[kept], row[kept]
    batches = BatchSums(interval_s, n_batches)
    batches.add(arrival_s, delay_s, row)
    per_batch = None
    if q.size:
        per_batch = np.full((n_rows * n_batches, q.size), np.nan)
        cell = row * n_batches + batch_of(arrival_s, *interval_s, n_batches)
        order = np.argsort(cell, kind="stable")
        ends = np.searchsorted(cell[order], np.arange(n_rows * n_batches + 1))
        for c in np.flatnonzero(np.diff(ends)):
            per_batch[c] = np.percentile(delay_s[order[ends[c] : ends[c + 1]]], q)
        per_batch = per_batch.reshape(n_rows, n_batches, q.size)
    return batches.intervals(centres, q if q.size else None, confidence, per_batch)
