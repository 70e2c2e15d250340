"""Student-t confidence intervals: across independent runs, and from the batches of one long run.

:func:`t_quantile` is the one place the Student-t quantile is taken (the CIs over seeds of
:func:`pqlab.experiments.across_seeds` and the batch CIs here). A long run's measurement
interval ``[start_s, end_s)`` is cut into ``k`` batches of equal length (:func:`batch_of`: a
packet belongs to the batch of its arrival); from each batch's sum ``Y_j`` and count ``N_j``
:func:`ratio_batch_means` gives the mean's CI, from each batch's quantile
:func:`sectioning_half_width` the quantile's. These are the low-level kernels (numbers in, numbers
out); the documented entry point is :func:`pqlab.measure.batchmeans.batch_means`.
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import check_int, check_real

#: Fewest batches of a batch CI: its variance estimate has ``k - 1`` degrees of freedom.
MIN_BATCHES = 2
#: Most batches (the per-batch accumulators of a streaming run are ``classes x batches``).
MAX_BATCHES = 10_000
#: Default batch count: Schmeiser (1982) finds 10 to 30 batches lose little against the
#: best count; 20 is in the middle.
DEFAULT_BATCHES = 20


def t_quantile(confidence: float, dof):
    """The ``0.5 + confidence / 2`` quantile of Student's t with ``dof`` degrees of freedom.

    ``dof`` may be an array (one quantile each). scipy is imported by the first call.
    """
    from scipy import stats  # imported by the first confidence interval, not with this module

    return stats.t.ppf(0.5 + confidence / 2, dof)


def check_confidence(confidence) -> float:
    """``confidence`` as a float in (0, 1), else ``ValueError`` naming it."""
    value = check_real("confidence", confidence, 0.0, 1.0, strict_minimum=True)
    if value == 1.0:  # an interval of confidence 1 is unbounded
        raise ValueError(f"confidence must be a finite number in (0, 1), got {value!r}")
    return value


def check_batches(n_batches, name: str = "n_batches") -> int:
    """``n_batches`` as an int in [:data:`MIN_BATCHES`, :data:`MAX_BATCHES`], else ``ValueError``
    naming it and the minimum (a CI needs at least 2 batches: ``k - 1`` degrees of freedom)."""
    return check_int(name, n_batches, MIN_BATCHES, MAX_BATCHES)


def batch_of(arrival_s: np.ndarray, start_s: float, end_s: float, n_batches: int) -> np.ndarray:
    """Batch index of each arrival: ``floor((t - start_s) k / (end_s - start_s))`` in [0, k - 1].

    The ``k`` batches are equal lengths of ``[start_s, end_s)``, seconds; arrivals outside it are
    clipped to the first or last batch (the callers pass measured packets only).
    """
    span_s = end_s - start_s
    index = np.floor((np.asarray(arrival_s, dtype=float) - start_s) * (n_batches / span_s))
    return np.clip(index, 0, n_batches - 1).astype(np.int64)


def ratio_batch_means(sums: np.ndarray, counts: np.ndarray, confidence: float) -> dict:
    """The mean ``R = sum_j Y_j / sum_j N_j`` of batches and its Student-t CI half-width.

    Rows are independent (e.g. traffic classes); the last axis holds the ``k`` batches. With
    ``N = sum_j N_j / k``, the half-width is the ratio estimator's (the delta method; Law and
    Kelton, "Simulation Modeling and Analysis", 5th ed. 2015, sec. 9.5.3; Alexopoulos and Seila
    1998, "Output data analysis", sec. 7.3):

    ``h = t_{k-1, (1+c)/2} * sqrt(S^2 / k) / N``,  ``S^2 = sum_j (Y_j - R N_j)^2 / (k - 1)``;

    with equal counts ``N_j = m`` it is the classical batch-means interval of the batch means
    ``Y_j / m`` (Schmeiser 1982). ``lag1`` is the lag-1 autocorrelation of the batch means
    ``Y_j / N_j``, ``sum_j (x_j - x)(x_{j+1} - x) / sum_j (x_j - x)^2``: near 0 when the batches
    are long enough to be nearly independent (Law and Kelton, sec. 9.5.3). NaN where a row has no
    count (``R``, ``h``), or a batch without a count (``lag1``).
    """
    sums, counts = np.asarray(sums, dtype=float), np.asarray(counts, dtype=float)
    k = sums.shape[-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        total = counts.sum(axis=-1)
        mean = sums.sum(axis=-1) / total
        residual = sums - mean[..., None] * counts
        variance = (residual**2).sum(axis=-1) / (k - 1)
        half = t_quantile(confidence, k - 1) * np.sqrt(variance / k) / (total / k)
        means = sums / counts
        deviation = means - means.mean(axis=-1, keepdims=True)
        lag1 = (deviation[..., :-1] * deviation[..., 1:]).sum(axis=-1) / (deviation**2).sum(axis=-1)
    return {"mean": mean, "half_width": half, "lag1": lag1}


def sectioning_half_width(batch_values: np.ndarray, confidence: float) -> np.ndarray:
    """Half-width of the sectioning CI of a quantile from its ``k`` batch quantiles (last axis).

    ``h = t_{k-1, (1+c)/2} * S / sqrt(k)``, ``S^2 = sum_j (Q_j - mean_j Q_j)^2 / (k - 1)``,
    centred on the quantile of the whole run (sectioning: Asmussen and Glynn, "Stochastic
    Simulation", 2007, sec. III.5a; the batch quantiles' spread: Seila 1982, "A batching
    approach to quantile estimation in regenerative simulations", Management Science 28(5)).
    NaN where a batch has no quantile.
    """
    values = np.asarray(batch_values, dtype=float)
    k = values.shape[-1]
    return t_quantile(confidence, k - 1) * values.std(axis=-1, ddof=1) / math.sqrt(k)
