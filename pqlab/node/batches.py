"""Per-class, per-batch sums, counts and log-binned histograms of a streaming run's delays.

A long run's measurement interval ``[start_s, end_s)`` is cut into ``k`` equal batches of time
(:func:`pqlab.base.confidence.batch_of`: a packet in the batch of its arrival). For each class
(queue index) and batch, :class:`BatchSums` keeps the sum and count of the kept packets' one-way
delays and, with percentiles, their log-binned histogram (:class:`pqlab.base.sketch.LogBins`):
``classes x k`` numbers and histograms, whatever the run's length. :meth:`BatchSums.intervals`
turns them into the confidence intervals of :func:`pqlab.streaming.simulate_summary` (batch means
for the mean, sectioning for the percentiles: :mod:`pqlab.base.confidence`), the ones
:func:`pqlab.summary_table` gives from a per-packet run.
"""

from __future__ import annotations

import numpy as np

from ..base.confidence import batch_of, ratio_batch_means, sectioning_half_width
from ..base.percentiles import percentile_names
from ..base.sketch import LogBins
from .engine import KEPT
from .measured import is_measured
from .path import PathModel


class BatchSums:
    """Delay sums, counts and histograms per class and batch of time (bounded memory).

    Parameters
    ----------
    interval_s : tuple of float
        ``(start_s, end_s)``: the measurement interval, seconds (packets arriving before
        ``start_s``, the warm-up, are not counted).
    n_batches : int
        Batches ``k`` (checked by the caller: :func:`pqlab.base.confidence.check_batches`).
    bins : LogBins or None
        The histograms' bins (the summary's, so the batches' quantiles are read as its are);
        None: no histograms, no percentile intervals.
    """

    def __init__(self, interval_s: tuple, n_batches: int, bins: LogBins | None = None):
        self.interval_s, self.n_batches, self.bins = interval_s, n_batches, bins
        self.sums = np.zeros((0, n_batches))
        self.counts = np.zeros((0, n_batches), np.int64)
        self.sketch = np.zeros((0, bins.n_bins if bins is not None else 0), np.int64)

    def add(self, arrival_s: np.ndarray, delay_s: np.ndarray, row: np.ndarray) -> None:
        """Add measured packets' one-way delays (finite, seconds), with their arrivals (seconds)
        and rows (class or group index >= 0), checked arrays of one length."""
        if row.shape[0] == 0:
            return
        n_rows = max(int(row.max()) + 1, self.sums.shape[0])
        if n_rows > self.sums.shape[0]:  # a new class: its rows
            grow = n_rows - self.sums.shape[0]
            self.sums = np.vstack([self.sums, np.zeros((grow, self.n_batches))])
            self.counts = np.vstack([self.counts, np.zeros((grow, self.n_batches), np.int64)])
            self.sketch = np.vstack(
                [self.sketch, np.zeros((grow * self.n_batches, self.sketch.shape[1]), np.int64)]
            )
        cell = row * self.n_batches + batch_of(arrival_s, *self.interval_s, self.n_batches)
        cells = self.sums.size
        self.sums += np.bincount(cell, weights=delay_s, minlength=cells).reshape(self.sums.shape)
        self.counts += np.bincount(cell, minlength=cells).reshape(self.counts.shape)
        if self.bins is not None:
            self.bins.add(delay_s, cell, self.sketch)

    def add_packets(self, path: PathModel, arrival_s, size_bytes, queue, departure_s, drop) -> None:
        """Add one resolved batch of the engine's packets (checked arrays of one length): the kept
        packets arriving at or after ``start_s``, in the row of their queue, their one-way delay
        ``departure - arrival + path.extra_delay_s(size)``."""
        kept = (drop == KEPT) & is_measured(arrival_s, self.interval_s[0])
        arrival = arrival_s[kept]
        self.add(
            arrival, departure_s[kept] - arrival + path.extra_delay_s(size_bytes[kept]), queue[kept]
        )

    def intervals(
        self,
        centres: dict,
        percentiles,
        confidence: float,
        batch_quantiles: np.ndarray | None = None,
    ) -> dict:
        """The intervals per row, ``{name: (values, long name)}``.

        Parameters
        ----------
        centres : dict
            The run's ``mean`` and ``p<q>`` per row (as many rows as reported), seconds.
        percentiles : array_like or None
            The percents ``q`` of the ``p<q>`` intervals (None: none).
        confidence : float
            Confidence level in (0, 1).
        batch_quantiles : numpy.ndarray, optional
            ``(rows, batches, percentiles)`` quantiles of each batch, seconds; default: read from
            the histograms.

        Returns
        -------
        dict
            ``delay_mean_ci_low``/``_ci_high`` (batch means), ``delay_batch_lag1`` (1) and
            ``delay_p<q>_ci_low``/``_ci_high`` (sectioning), values per row.
        """
        n, k = centres["mean"].shape[0], self.n_batches
        sums, counts = np.zeros((n, k)), np.zeros((n, k), np.int64)
        sums[: self.sums.shape[0]], counts[: self.counts.shape[0]] = self.sums, self.counts
        core = ratio_batch_means(sums, counts, confidence)
        level = f"{confidence:.0%}"
        out = {
            "delay_mean_ci_low": (
                centres["mean"] - core["half_width"],
                f"{level} batch-means CI of the mean delay, low end",
            ),
            "delay_mean_ci_high": (
                centres["mean"] + core["half_width"],
                f"{level} batch-means CI of the mean delay, high end",
            ),
            "delay_batch_lag1": (core["lag1"], "lag-1 autocorrelation of the delay's batch means"),
        }
        if percentiles is None:
            return out
        q = np.asarray(percentiles, dtype=float)
        if batch_quantiles is None:
            order = np.argsort(q)
            batch_quantiles = np.full((n * k, q.size), np.nan)
            rows = min(n * k, self.sketch.shape[0])
            batch_quantiles[:rows, order] = self.bins.quantiles(self.sketch[:rows], q[order] / 100)
            batch_quantiles = batch_quantiles.reshape(n, k, q.size)
        halves = sectioning_half_width(np.moveaxis(batch_quantiles, 1, 2), confidence)
        for j, name in enumerate(percentile_names(q)):
            out[f"delay_{name}_ci_low"] = (
                centres[name] - halves[:, j],
                f"{level} sectioning CI of delay_{name}, low end",
            )
            out[f"delay_{name}_ci_high"] = (
                centres[name] + halves[:, j],
                f"{level} sectioning CI of delay_{name}, high end",
            )
        return out
