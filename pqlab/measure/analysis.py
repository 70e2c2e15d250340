"""Analysis shared by the artefacts and the lab: trends across seeds, pooled histograms, peaks, ACF,
ring occupancy.

Each function here is the one place its computation is done; the artefact modules
(:mod:`pqlab.papers.registry`) and the teaching lab (:mod:`pqlab.lab`) import it. Inputs
are arrays (or an engine Dataset for the ring), outputs numbers or arrays: no
simulation, no I/O.
"""

from __future__ import annotations

import math

import numpy as np
import xarray as xr

from ..base._validate import check_choice, check_real
from ..base.numerics import lagged_dots, line_fit
from ..node.framing import particles_needed
from ..node.model import Node
from . import experiments, metrics

__all__ = [
    "CONFIDENCE",
    "mean_ci",
    "trend",
    "pooled_frequencies",
    "count_peaks",
    "acf",
    "first_peak",
    "acf_first_peak",
    "max_ring_particles",
    "ring_exit_s",
]

#: Confidence level of every interval across seeds.
CONFIDENCE = 0.95

_particles = np.vectorize(particles_needed, otypes=[np.int64])


# --------------------------------------------------------------------------- across seeds


def mean_ci(values, confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
    """Mean over the last axis and its Student-t CI half-width (NaN with one value).

    :func:`pqlab.experiments.across_seeds` on an array whose last axis is the seeds.
    """
    values = np.asarray(values, dtype=float)
    dims = [f"dim_{i}" for i in range(values.ndim - 1)] + ["seed"]
    out = experiments.across_seeds(xr.Dataset({"x": (dims, values)}), confidence)
    return out["x"].values, out["x_ci"].values


def trend(values: np.ndarray, x) -> tuple[float, float, bool]:
    """Whether ``values`` increase with ``x``: the per-seed least-squares slope, its mean, CI and
    verdict.

    Parameters
    ----------
    values : numpy.ndarray
        ``(point, seed)``: one column per seed.
    x : array_like of float
        The abscissa of the points.

    Returns
    -------
    slope_mean : float
        Mean over seeds of the slope (unit of ``values`` per unit of ``x``).
    slope_ci : float
        Its 95% Student-t half-width (NaN with one seed).
    increases : bool
        The verdict rule for a trend claim (docs/model.md, "Verdict rules"): the mean slope is
        positive, its CI excludes 0 (one seed: slope > 0), AND every step of the mean over
        seeds, in increasing ``x``, is positive. A positive slope through a non-monotone
        series (1057, 1325, 1274) is not an increase.
    """
    x = np.asarray(x, dtype=float)
    values = np.asarray(values, dtype=float)
    slopes = np.array([line_fit(x, values[:, s])[0] for s in range(values.shape[1])])
    mean, half = mean_ci(slopes)
    mean, half = float(mean), float(half)
    steps = np.diff(np.nanmean(values, axis=1)[np.argsort(x, kind="stable")])
    holds = mean > 0 and (np.isnan(half) or mean - half > 0) and bool(np.all(steps > 0))
    return mean, half, bool(holds)


# --------------------------------------------------------------------------- histograms and peaks


def _pooled_frequency(samples: np.ndarray, bin_width: float, n_bins: int) -> np.ndarray:
    """Relative frequency of ``samples`` (NaN ignored) in ``n_bins`` bins ``[k w, (k+1) w)``."""
    flat = samples[np.isfinite(samples)]
    fd = metrics.frequency_distribution(flat, bin_width, start=0.0)
    out = np.zeros(n_bins)
    k = min(n_bins, fd.probability.size)
    out[:k] = fd.probability[:k]
    return out


def pooled_frequencies(samples: np.ndarray, bin_width: float) -> tuple[np.ndarray, np.ndarray]:
    """Bins ``[k w, (k+1) w)`` from 0 past the largest sample, and each point's frequency pooled
    over seeds.

    ``samples`` is ``(point, seed, sample)`` (NaN ignored); returns the left bin edges and a
    ``(point, bin)`` array of relative frequencies.
    """
    n_bins = int(np.ceil(np.nanmax(samples) / bin_width)) + 1
    return np.arange(n_bins) * bin_width, np.array(
        [_pooled_frequency(s, bin_width, n_bins) for s in samples]
    )


def count_peaks(
    probability,
    bin_width: float,
    *,
    smooth: float,
    min_prominence: float = 0.05,
    scale: str = "linear",
    floor: float = 0.0,
):
    """Peaks of a histogram that starts at 0 (e.g. of |IPDV|), after Gaussian smoothing.

    Parameters
    ----------
    probability : array_like of float
        Relative frequency per bin, bins ``[k w, (k+1) w)`` from 0.
    bin_width : float
        Bin width ``w`` (> 0), in the same unit as ``smooth``.
    smooth : float
        Standard deviation of the Gaussian smoothing kernel (>= 0), same unit; the
        histogram is mirrored at 0 (a distribution of absolute values).
    min_prominence : float
        ``scale="linear"``: a local maximum counts when its prominence is at least this
        fraction of the tallest smoothed bin, in (0, 1] (what a linear plot shows).
        ``scale="log"``: the prominence needed in decades of the smoothed frequency
        (``log10(2)``: a peak twice as high as the trough that separates it).
    scale : {"linear", "log"}
        Where prominence is measured.
    floor : float
        ``scale="log"`` only: bins whose smoothed frequency is below ``floor`` (too few
        samples to trust) are not peaks, and troughs are not taken below it.

    Returns
    -------
    smoothed : numpy.ndarray
        The smoothed histogram.
    peaks : numpy.ndarray of int
        Indices of the peaks (bin 0 included when it is a maximum).
    """
    p = np.asarray(probability, dtype=float)
    if p.ndim != 1 or p.size < 2:
        raise ValueError(f"probability must be a 1-D array of at least 2 bins, got shape {p.shape}")
    width = check_real("bin_width", bin_width, 0.0, strict_minimum=True)
    sigma = check_real("smooth", smooth, 0.0) / width
    scale = check_choice("scale", scale, ("linear", "log"))
    floor = check_real("floor", floor, 0.0)
    if scale == "linear":
        prominence = check_real("min_prominence", min_prominence, 0.0, 1.0, strict_minimum=True)
    else:
        prominence = check_real("min_prominence", min_prominence, 0.0, strict_minimum=True)
    from scipy.ndimage import gaussian_filter1d  # imported by the first call, not with this module
    from scipy.signal import find_peaks

    smoothed = gaussian_filter1d(p, sigma, mode="reflect") if sigma > 0 else p.copy()
    if scale == "linear":
        curve, edge, needed = smoothed, 0.0, prominence * smoothed.max()
    else:
        low = max(floor, 1e-12)
        curve = np.log10(np.maximum(smoothed, low))
        edge, needed = np.log10(low), prominence
    # mirror the histogram at 0 (|x| of a symmetric variable) so a maximum at 0 is an
    # interior peak with its true prominence; a bin past the end lets the last bin peak
    n = curve.size
    padded = np.r_[curve[:0:-1], curve, edge]
    peaks, _ = find_peaks(padded, prominence=needed)
    peaks = peaks - (n - 1)
    peaks = peaks[(peaks >= 0) & (peaks < smoothed.size)]
    if scale == "log":
        peaks = peaks[smoothed[peaks] >= floor]
    return smoothed, peaks


# --------------------------------------------------------------------------- periodicity


def acf(x, max_lag: int) -> np.ndarray:
    """Sample autocorrelation of ``x`` at lags 0..``max_lag`` (all zero past lag 0 for a constant
    ``x``).

    ``r_k = sum_i (x_i - m)(x_{i+k} - m) / sum_i (x_i - m)^2`` with ``m`` the mean of ``x``.
    """
    x = np.asarray(x, dtype=float)
    x = x - x.mean()
    sums = lagged_dots(x, max(max_lag, 0))  # dot(x[:-lag], x[lag:]) of every lag, lag 0 first
    if sums[0] == 0.0:
        return np.r_[1.0, np.zeros(max_lag)]
    return np.r_[1.0, sums[1:] / sums[0]]


def first_peak(acf_values, threshold: float = -math.inf) -> tuple[int, float]:
    """First lag >= 2 where an ACF has a local maximum above ``threshold``: ``(lag, value)`` or
    ``(-1, nan)``.

    The lag of that peak is the period of a periodic series, in samples.
    """
    r = np.asarray(acf_values, dtype=float)
    for lag in range(2, r.size - 1):
        if r[lag] >= r[lag - 1] and r[lag] >= r[lag + 1] and r[lag] > threshold:
            return lag, float(r[lag])
    return -1, math.nan


def acf_first_peak(x, max_lag: int, threshold: float = -math.inf) -> tuple[int, float]:
    """:func:`first_peak` of :func:`acf` of ``x`` up to ``min(max_lag, len(x) - 2)``.

    ``(-1, nan)`` when ``x`` is constant or too short for three lags.
    """
    x = np.asarray(x, dtype=float)
    lags = min(max_lag, x.size - 2)
    if lags < 3 or float(np.sum((x - x.mean()) ** 2)) <= 0.0:
        return -1, math.nan
    return first_peak(acf(x, lags), threshold)


# --------------------------------------------------------------------------- the transmission ring


def ring_exit_s(ds: xr.Dataset, node: Node) -> np.ndarray:
    """When each kept packet left the transmission ring, seconds (node contract rules 5 and 5'').

    Its ``departure`` (rule 5); with ``node.adapter_packets = N >= 1`` (rule 5''), when it moved
    into
    the adapter: ``max(ring_entry, departure of the packet N places ahead in line order)``, the
    first
    N packets at their ring entry. Line order is departure order (rule 4).

    Parameters
    ----------
    ds : xarray.Dataset
        Engine output (``ring_entry``, ``departure``, ``drop``) of ``node``.
    node : Node
        The node simulated.

    Returns
    -------
    numpy.ndarray
        One time per kept packet (``drop == 0``), in the packets' order in ``ds``.
    """
    kept = ds["drop"].values == 0
    entry, dep = ds["ring_entry"].values[kept], ds["departure"].values[kept]
    n = node.adapter_packets
    if not n:
        return dep
    order = np.argsort(dep, kind="stable")
    ahead = np.concatenate([np.full(n, -np.inf), dep[order][:-n]])[: order.size]
    exits = np.empty_like(dep)
    exits[order] = np.maximum(entry[order], ahead)
    return exits


def max_ring_particles(ds: xr.Dataset, node: Node | None = None) -> int:
    """Largest number of particles the transmission ring held at once in a simulation.

    Counts ``+particles`` at each kept packet's ``ring_entry`` and ``-particles`` when it left the
    ring (its ``departure``, or with a node's adapter, rule 5'', :func:`ring_exit_s`); a release at
    the same instant as an entry is counted first (node contract rule 5). O(n log n).

    Parameters
    ----------
    ds : xarray.Dataset
        Engine output (``size``, ``ring_entry``, ``departure``, ``drop``).
    node : Node, optional
        The node simulated: particles per packet from its ``particle_bytes``. Without
        it ``ds`` must hold ``particles`` (packets' particle counts, as
        :func:`pqlab.lab.ring_trace` adds; then the packets leave the ring at their departure).

    Returns
    -------
    int
        0 if no packet entered the ring.
    """
    kept = ds["drop"].values == 0
    leave = ds["departure"].values[kept]
    if node is None:
        if "particles" not in ds:
            raise ValueError(
                "ds must hold 'particles' when no node is given (or pass node=the pqlab.Node)"
            )
        n = np.asarray(ds["particles"].values[kept], dtype=np.int64)
    elif isinstance(node, Node):
        n = _particles(ds["size"].values[kept], node.particle_bytes)
        leave = ring_exit_s(ds, node)
    else:
        raise ValueError(f"node must be a pqlab.Node, got {type(node).__name__}")
    times = np.concatenate([leave, ds["ring_entry"].values[kept]])
    delta = np.concatenate([-n, n])
    kind = np.concatenate([np.zeros(n.size), np.ones(n.size)])  # releases first at equal times
    order = np.lexsort((kind, times))
    return int(np.cumsum(delta[order]).max()) if n.size else 0


# --------------------------------------------------------------------------- spread bounds of IPDV


def min_delay_std_for_mean_ipdv(mean_abs_ipdv: float) -> float:
    """The smallest delay standard deviation any model can have and still give a mean |IPDV|.

    For consecutive delays ``D_i`` of a stationary sequence with standard deviation ``sigma`` and
    lag-1 correlation ``rho``: ``E|D_i - D_(i-1)| <= sqrt(E(D_i - D_(i-1))^2) = sigma sqrt(2 (1 -
    rho))
    <= 2 sigma`` (Cauchy-Schwarz, ``rho >= -1``). So a mean |IPDV| of ``m`` needs ``sigma >= m /
    2``,
    whatever the node, the path or the traffic: a bound over the whole model family.

    Parameters
    ----------
    mean_abs_ipdv : float
        Mean |IPDV| (RFC 3393 with consecutive packets), any time unit (the result has the same).

    Returns
    -------
    float
        ``mean_abs_ipdv / 2``, the same unit.
    """
    value = check_real("mean_abs_ipdv", mean_abs_ipdv, minimum=0.0)
    return value / 2.0


def min_delay_range_for_max_ipdv(max_abs_ipdv: float) -> float:
    """The smallest delay range (max - min) any model can have and still give a maximum |IPDV|.

    ``|D_i - D_(i-1)| <= max D - min D`` for every pair, so a largest |IPDV| of ``m`` needs a
    delay range of at least ``m``: a bound over the whole model family.

    Parameters
    ----------
    max_abs_ipdv : float
        Largest |IPDV|, any time unit (the result has the same).

    Returns
    -------
    float
        ``max_abs_ipdv``, the same unit.
    """
    return check_real("max_abs_ipdv", max_abs_ipdv, minimum=0.0)
