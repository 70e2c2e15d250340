"""Sums, dot products and line fits whose result does not depend on the CPU, BLAS or thread count.

``a @ b``, :func:`numpy.dot` and :func:`numpy.polyfit` (LAPACK's least squares) call the BLAS
that numpy ships (OpenBLAS), which picks a kernel for the CPU it runs on (Haswell, SkylakeX,
Zen, ...) and a summation order for it: the same inputs give results that differ in the last
digit between two machines (the stand-in BE law's mean: 413.4382836402509 bytes with the
Haswell and Zen kernels, 413.438283640251 with SkylakeX). A reproduction must not depend on the
machine, so every reduction behind a reported number goes through these functions instead:
an element-wise product (exact IEEE operations) summed by :func:`numpy.sum`, numpy's own
pairwise summation in a fixed order on every CPU (:func:`lagged_dots` sums in compiled code in
that very order).
"""

from __future__ import annotations

import numpy as np

from ._validate import check_int, check_unmasked
from .jitcache import cached_njit

__all__ = ["dot", "lagged_dots", "line_fit"]

#: numpy's pairwise summation: runs shorter than this are summed in one pass (8 partial sums).
PAIRWISE_BLOCK = 128


def dot(a, b) -> float:
    """The dot product of two 1-D arrays, summed in an order fixed on every machine.

    Parameters
    ----------
    a, b : array_like
        Equal-length 1-D arrays (any numeric dtype; computed in float64; a masked array with a
        masked entry is refused).

    Returns
    -------
    float
        ``sum_i a_i b_i``.
    """
    a = np.asarray(check_unmasked("dot: a", a), dtype=float)
    b = np.asarray(check_unmasked("dot: b", b), dtype=float)
    if a.ndim != 1 or a.shape != b.shape:
        raise ValueError(
            f"dot needs two 1-D arrays of one length, got shapes {a.shape} and {b.shape}"
        )
    return float(np.sum(a * b))


def lagged_dots(x, max_lag: int) -> np.ndarray:
    """:func:`dot` of a series with itself shifted by each lag, in one compiled pass.

    Parameters
    ----------
    x : array_like
        A 1-D series (computed in float64).
    max_lag : int
        The largest lag (>= 0).

    Returns
    -------
    numpy.ndarray
        ``max_lag + 1`` values: element ``k`` is ``dot(x[:len(x) - k], x[k:])`` (0.0 from
        ``k = len(x)`` on), equal to it bit for bit (the products summed in numpy's pairwise
        order, as :func:`numpy.sum` sums them).
    """
    x = np.ascontiguousarray(check_unmasked("lagged_dots: x", x), dtype=float)
    max_lag = check_int("max_lag", max_lag, 0)
    if x.ndim != 1:
        raise ValueError(f"lagged_dots needs a 1-D array, got shape {x.shape}")
    out = np.empty(max_lag + 1)
    _lagged_dots(x, out)
    return out


@cached_njit(nogil=True)
def _lagged_dots(x, out):
    """``out[k] = numpy.sum(x[:n - k] * x[k:])`` for every ``k`` of ``out``: the sum from 0 of
    numpy's pairwise sum of the products. A run longer than :data:`PAIRWISE_BLOCK` is the sum of
    its two halves (the first a multiple of 8 long), each summed apart: done here with a stack,
    left half, right half, then their sum (the order numpy's recursion adds them in)."""
    n = x.shape[0]
    start = np.empty(64, dtype=np.int64)  # the runs being summed: 64 halvings reach one element
    length = np.empty(64, dtype=np.int64)
    stage = np.empty(64, dtype=np.int64)  # 0: neither half summed, 1: the left one, 2: both
    value = np.empty(64)
    for k in range(out.shape[0]):
        depth = 0
        start[0], length[0], stage[0] = 0, max(n - k, 0), 0
        values = 0
        while depth >= 0:
            lo, m = start[depth], length[depth]
            if m <= PAIRWISE_BLOCK:
                value[values] = _block_of_products(x, k, lo, m)
                values += 1
                depth -= 1
                continue
            half = m // 2
            half -= half % 8
            if stage[depth] == 0:
                stage[depth] = 1
                start[depth + 1], length[depth + 1], stage[depth + 1] = lo, half, 0
                depth += 1
            elif stage[depth] == 1:
                stage[depth] = 2
                start[depth + 1], length[depth + 1], stage[depth + 1] = lo + half, m - half, 0
                depth += 1
            else:
                values -= 1
                value[values - 1] = value[values - 1] + value[values]
                depth -= 1
        out[k] = 0.0 + value[0]


@cached_njit(nogil=True)
def _block_of_products(x, lag, lo, n):
    """numpy's pairwise sum of ``x[i] * x[i + lag]`` for ``lo <= i < lo + n``, ``n`` at most
    :data:`PAIRWISE_BLOCK`: fewer than 8 summed in turn; else eight partial sums combined as
    ``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))``, the rest added in turn."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += x[i] * x[i + lag]
        return res
    r0 = x[lo] * x[lo + lag]
    r1 = x[lo + 1] * x[lo + 1 + lag]
    r2 = x[lo + 2] * x[lo + 2 + lag]
    r3 = x[lo + 3] * x[lo + 3 + lag]
    r4 = x[lo + 4] * x[lo + 4 + lag]
    r5 = x[lo + 5] * x[lo + 5 + lag]
    r6 = x[lo + 6] * x[lo + 6 + lag]
    r7 = x[lo + 7] * x[lo + 7 + lag]
    i = lo + 8
    end = lo + n - (n % 8)
    while i < end:
        r0 += x[i] * x[i + lag]
        r1 += x[i + 1] * x[i + 1 + lag]
        r2 += x[i + 2] * x[i + 2 + lag]
        r3 += x[i + 3] * x[i + 3 + lag]
        r4 += x[i + 4] * x[i + 4 + lag]
        r5 += x[i + 5] * x[i + 5 + lag]
        r6 += x[i + 6] * x[i + 6 + lag]
        r7 += x[i + 7] * x[i + 7 + lag]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < lo + n:
        res += x[i] * x[i + lag]
        i += 1
    return res


def line_fit(x, y) -> tuple[float, float]:
    """Least-squares line ``y = slope x + intercept`` in closed form, summed in a fixed order.

    ``slope = sum (x - mean x)(y - mean y) / sum (x - mean x)^2``, ``intercept = mean y -
    slope mean x``: the same line as :func:`numpy.polyfit` with degree 1, without LAPACK.

    Parameters
    ----------
    x, y : array_like
        Equal-length 1-D arrays of at least two points, ``x`` not all equal (a masked array with a
        masked entry is refused).

    Returns
    -------
    slope, intercept : float
        In units of ``y`` per unit of ``x``, and of ``y``.
    """
    x = np.asarray(check_unmasked("line_fit: x", x), dtype=float)
    y = np.asarray(check_unmasked("line_fit: y", y), dtype=float)
    if x.ndim != 1 or x.shape != y.shape or x.size < 2:
        raise ValueError(
            f"line_fit needs two 1-D arrays of one length >= 2, got shapes {x.shape} and {y.shape}"
        )
    if not (np.all(np.isfinite(x)) and np.ptp(x) > 0):
        raise ValueError("line_fit needs at least two distinct finite x values")
    dx = x - np.sum(x) / x.size
    spread = dot(dx, dx)
    slope = dot(dx, y - np.sum(y) / y.size) / spread
    return slope, float(np.sum(y) / y.size - slope * np.sum(x) / x.size)
