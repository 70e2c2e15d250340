"""Mergeable quantiles with a stated relative error: exact log-binned histograms (DDSketch's bins).

A value ``x`` in ``[min_value, max_value]`` goes to the bin of key ``k = ceil(log_gamma(x))``,
``gamma = (1 + alpha) / (1 - alpha)``, which holds ``(gamma**(k-1), gamma**k]`` (found from the
bits of the value's float and one comparison with the table of
edges: no logarithm per value); the bin stands
for ``2 * gamma**k / (gamma + 1)``, within relative error ``alpha`` of every value in it (the
bins of Masson, Rim and Lee, "DDSketch", VLDB 2019, kept whole: no bin is ever collapsed, so
the error bound holds for every quantile). Values below ``min_value`` (0 included) share the
first bin, which stands for 0 (absolute error < ``min_value``); values above ``max_value``
are counted in the last bin, the overflow, whose quantiles are NaN: a tail is never folded
into the range. Counts are integers: two histograms of the same bins merge by adding, so a
merge equals the one-shot histogram exactly, in any order and grouping.

Quantiles follow numpy's default (``method="linear"``): between the order statistics of
ranks ``floor(q (n-1))`` and the next, interpolated. Each is replaced by its bin's value,
within relative error ``alpha``; the interpolation of two such values lies within ``alpha``
of numpy's interpolation (both weights are >= 0), so ``quantiles`` is within relative error
``alpha`` of ``numpy.percentile(values, 100 q)`` for data in ``[min_value, max_value]``
(up to a few ulps of the logarithm at a bin edge).
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import check_array, check_memory, check_real, echo, shown
from .jitcache import cached_njit

#: Default relative accuracy (0.5 %).
DEFAULT_ALPHA = 0.005
#: Largest histogram of one row (a flow, a class), bytes (16 MiB: 2 million bins).
MAX_ROW_BYTES = 16 * 2**20


class LogBins:
    """The bins of a log-binned histogram: relative accuracy and range.

    Parameters
    ----------
    alpha : float
        Relative accuracy, in (0, 0.5]: every value in the range is reported within
        ``alpha * value``.
    min_value, max_value : float
        The range kept to relative accuracy (units of the values, e.g. s): ``0 < min_value <
        max_value``; below ``min_value`` counts as 0, above ``max_value`` as overflow.
    names : tuple of str
        The names of the three parameters as the caller's user knows them (in error messages).
    """

    def __init__(
        self,
        alpha: float = DEFAULT_ALPHA,
        min_value: float = 1e-9,
        max_value: float = 1e6,
        *,
        names=("alpha", "min_value", "max_value"),
    ):
        self.alpha = check_real(names[0], alpha, 0.0, 0.5, strict_minimum=True)
        self.min_value = check_real(names[1], min_value, 0.0, strict_minimum=True)
        self.max_value = check_real(names[2], max_value, self.min_value, strict_minimum=True)
        gamma = (1.0 + self.alpha) / (1.0 - self.alpha)
        self.log_gamma = math.log(gamma)
        self.k_min = math.ceil(math.log(self.min_value) / self.log_gamma)
        k_max = math.ceil(math.log(self.max_value) / self.log_gamma)
        n = k_max - self.k_min + 3  # the zero bin, the keys k_min..k_max, the overflow bin
        self.n_bins = check_memory(
            f"{names[0]}, {names[1]}, {names[2]} (log bins per row)", n, 8, MAX_ROW_BYTES
        )
        keys = self.k_min + np.arange(self.n_bins - 2)
        #: The upper edges of the bins but the overflow: the zero bin's ``gamma**(k_min - 1)``, then
        #: ``gamma**k`` (bin ``j`` holds ``(upper[j-1], upper[j]]``; this table defines the bins).
        self.upper = np.exp(np.r_[self.k_min - 1, keys] * self.log_gamma)
        self.upper[-1] = max(self.upper[-1], self.max_value)
        #: The value each bin stands for: 0, the keys' values, NaN for the overflow.
        self.values = np.concatenate([[0.0], 2.0 * self.upper[1:] / (gamma + 1.0), [np.nan]])
        # Where to look for a value's bin, by its float's bits (exponent and first ``sub_bits``
        # mantissa bits): cells fine enough that each spans at most two bins, so one comparison
        # with ``upper`` finds the bin exactly, without a logarithm and without a branch.
        self.sub_bits = max(0, math.ceil(-math.log2(gamma - 1.0)))
        while True:
            self.shift = 52 - self.sub_bits
            self.base = int(np.float64(self.upper[0]).view(np.int64)) >> self.shift
            top = int(np.float64(self.max_value).view(np.int64)) >> self.shift
            check_memory(
                f"{names[0]}, {names[1]}, {names[2]} (bit cells of the log bins)",
                top - self.base + 1,
                4,
                4 * MAX_ROW_BYTES,
            )
            cells = np.arange(self.base, top + 1)
            lowest = (cells << self.shift).view(np.float64)
            highest = (((cells + 1) << self.shift) - 1).view(np.float64)
            first = np.clip(np.searchsorted(self.upper, lowest, side="left"), 1, self.n_bins - 2)
            last = np.clip(np.searchsorted(self.upper, highest, side="left"), 1, self.n_bins - 2)
            self.start = first.astype(np.int32)
            if np.all(last - self.start <= 1):  # the floating-point edges checked, not assumed
                break
            self.sub_bits += 1

    def key(self) -> tuple:
        """What two histograms must share to be merged."""
        return self.alpha, self.min_value, self.max_value

    def __eq__(self, other) -> bool:
        return isinstance(other, LogBins) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def zeros(self, rows: int) -> np.ndarray:
        """Empty histograms, ``(rows, n_bins)`` int64 counts."""
        return np.zeros((rows, self.n_bins), np.int64)

    def add(self, values, rows, counts: np.ndarray) -> None:
        """Count ``values[i]`` into the histogram ``counts[rows[i]]``, in place.

        Parameters
        ----------
        values : array_like
            1-D numbers >= 0 (units of the bins' range; infinity counts in the overflow). NaN
            and negative values are refused: a delay or an ``|IPDV|`` is never one, and
            counting it as 0 would move every quantile.
        rows : array_like
            1-D integers in ``[0, counts.shape[0] - 1]``, one per value.
        counts : numpy.ndarray
            The histograms (:meth:`zeros`): C-contiguous, writeable, int64, ``(rows, n_bins)``.

        Raises
        ------
        ValueError
            Naming the parameter and its allowed range, before any count changes.
        """
        counts = self._check_counts(counts, writeable=True)
        values = check_array("values", values, kind="float", finite=False)
        bad = np.flatnonzero(~(values >= 0.0))  # NaN compares false
        if bad.size:
            i = int(bad[0])
            raise ValueError(
                "values must be numbers >= 0 (infinity: overflow), got "
                f"{shown(values[i])} at index {i}"
            )
        rows = check_array(
            "rows", rows, kind="int", minimum=0, maximum=counts.shape[0] - 1, length=values.shape[0]
        )
        add_values(values, rows, *self.kernel_args(), counts)

    def _check_counts(self, counts, *, writeable: bool) -> np.ndarray:
        """``counts`` if it is a table of these bins, else ``ValueError``."""
        ok = (
            isinstance(counts, np.ndarray)
            and counts.dtype == np.int64
            and counts.ndim == 2
            and counts.shape[1] == self.n_bins
        )
        if ok and writeable:
            ok = counts.flags.c_contiguous and counts.flags.writeable
        if not ok:
            got = f"a {type(counts).__name__}"
            if isinstance(counts, np.ndarray):
                got += (
                    f" of dtype {counts.dtype} and shape {counts.shape}"
                    + ("" if counts.flags.c_contiguous else ", strided")
                    + ("" if counts.flags.writeable else ", read-only")
                )
            kind = " C-contiguous, writeable" if writeable else "n"
            raise ValueError(
                f"counts must be a{kind} int64 array of shape (rows, {self.n_bins}) "
                f"(LogBins.zeros), got {got}"
            )
        if not writeable and counts.size and counts.min() < 0:
            raise ValueError(f"counts must be >= 0, got {int(counts.min())}")
        return counts

    def kernel_args(self) -> tuple:
        """``(max_value, upper, start, base, shift)``: what :func:`bin_of` takes after the value."""
        return self.max_value, self.upper, self.start, self.base, self.shift

    def quantiles(self, counts: np.ndarray, q) -> np.ndarray:
        """Quantiles ``q`` (in [0, 1]) of each row of ``counts``, ``(rows, len(q))``.

        NaN for an empty row and where the quantile's rank is in the overflow bin. ``counts``
        is an int64 ``(rows, n_bins)`` table of counts >= 0 (:meth:`zeros`, :meth:`add`);
        otherwise, or if ``q`` is not increasing probabilities, ``ValueError``.
        """
        counts = self._check_counts(counts, writeable=False)
        q = check_quantiles("q", q)
        out = np.empty((counts.shape[0], q.shape[0]))
        row_quantiles(counts, self.values, q, out)
        return out


def check_quantiles(name: str, q) -> np.ndarray:
    """``q`` as a 1-D float array of distinct increasing probabilities in [0, 1], else
    ``ValueError``."""
    try:
        arr = np.asarray(q, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        arr = None
    if (
        arr is None
        or arr.size == 0
        or not np.all(np.isfinite(arr))
        or arr.min() < 0
        or arr.max() > 1
        or np.any(np.diff(arr) <= 0)
    ):
        raise ValueError(
            f"{name} must be increasing probabilities in [0, 1] (e.g. (0.5, 0.99)), got {echo(q)}"
        )
    return arr


@cached_njit(nogil=True, inline="always")
def bin_of(x, max_value, upper, start, base, shift):
    """The bin of value ``x``: 0 at or below ``upper[0]`` (and NaN), ``len(upper)`` above
    ``max_value``.

    Branch-free (selects, one table look-up, one comparison: :class:`LogBins` builds ``start`` so
    that each cell spans at most two bins); a branch or loop here would make numba count
    references to the arrays on every call.
    """
    cell = min(max((np.float64(x).view(np.int64) >> shift) - base, 0), start.shape[0] - 1)
    j = start[cell]
    j += x > upper[j]
    j = upper.shape[0] if x > max_value else j
    return j if x > upper[0] else 0


@cached_njit(nogil=True)
def add_values(values, rows, max_value, upper, start, base, shift, counts):
    """Count each ``values[i]`` in ``counts[rows[i]]``, in place."""
    for i in range(values.shape[0]):
        counts[rows[i], bin_of(values[i], max_value, upper, start, base, shift)] += 1


@cached_njit(nogil=True)
def row_quantiles(counts, bin_values, q, out):
    """numpy's linear-interpolation quantiles of each row of ``counts`` into ``out``, in place."""
    n_rows, n_bins = counts.shape
    for r in range(n_rows):
        total = 0
        for b in range(n_bins):
            total += counts[r, b]
        for j in range(q.shape[0]):
            if total == 0:
                out[r, j] = np.nan
                continue
            h = q[j] * (total - 1)
            lo = int(math.floor(h))
            hi = lo + 1 if lo + 1 < total else lo
            v_lo = _value_of_rank(counts, bin_values, r, lo)
            v_hi = _value_of_rank(counts, bin_values, r, hi)
            out[r, j] = v_lo + (h - lo) * (v_hi - v_lo) if h > lo else v_lo


@cached_njit(nogil=True)
def _value_of_rank(counts, bin_values, r, rank):
    """The value of the bin holding the order statistic ``rank`` (0-based) of row ``r``."""
    seen = 0
    for b in range(counts.shape[1]):
        seen += counts[r, b]
        if seen > rank:
            return bin_values[b]
    return np.nan
