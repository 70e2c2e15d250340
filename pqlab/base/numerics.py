"""Sums, dot products and line fits whose result does not depend on the CPU, BLAS or thread count.

``a @ b``, :func:`numpy.dot` and :func:`numpy.polyfit` (LAPACK's least squares) call the BLAS
that numpy ships (OpenBLAS), which picks a kernel for the CPU it runs on (Haswell, SkylakeX,
Zen, ...) and a summation order for it: the same inputs give results that differ in the last
digit between two machines (the stand-in BE law's mean: 413.4382836402509 bytes with the
Haswell and Zen kernels, 413.438283640251 with SkylakeX). A reproduction must not depend on the
machine, so every reduction behind a reported number goes through these functions instead:
an element-wise product (exact IEEE operations) summed by :func:`numpy.sum`, numpy's own
pairwise summation in a fixed order on every CPU.
"""

from __future__ import annotations

import numpy as np

from ._validate import check_unmasked

__all__ = ["dot", "line_fit"]


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
        raise ValueError(f"dot needs two 1-D arrays of one length, got shapes {a.shape} and {b.shape}")
    return float(np.sum(a * b))


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
        raise ValueError(f"line_fit needs two 1-D arrays of one length >= 2, got shapes {x.shape} and {y.shape}")
    if not (np.all(np.isfinite(x)) and np.ptp(x) > 0):
        raise ValueError("line_fit needs at least two distinct finite x values")
    dx = x - np.sum(x) / x.size
    spread = dot(dx, dx)
    slope = dot(dx, y - np.sum(y) / y.size) / spread
    return slope, float(np.sum(y) / y.size - slope * np.sum(x) / x.size)
