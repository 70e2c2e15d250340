"""Packet size laws: the distributions a stream draws its IP payload or packet lengths from (bytes).

:class:`Deterministic`, :class:`Uniform`, :class:`Geometric` (a truncated geometric law by its
untruncated mean) and :class:`Empirical` (a CDF, e.g. the stand-in for the papers' "real" BE
law); and what every traffic object shares: the checks, the canonical JSON of a scenario.
Randomness comes from a ``numpy.random.Generator`` passed in. Part of :mod:`pqlab.traffic`,
which re-exports every name.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass, fields
from typing import Any, ClassVar

import numpy as np

from ..base._validate import check_array, check_int, check_real
from ..base.jitcache import cached_njit
from ..base.numerics import dot
from .framing import MAX_SIZE_BYTES

#: UDP (8) + IPv4 (20) header, bytes: add it when a size is a UDP payload.
UDP_IP_HEADER_BYTES = 28

#: Largest number of packets one stream may generate (guards memory).
MAX_STREAM_PACKETS = 200_000_000

#: Tolerance on the last value of an :class:`Empirical` CDF (must be 1).
CDF_TOLERANCE = 1e-9

#: Smallest ``P(size <= max_bytes)`` a :class:`Geometric` may have, so that
#: redrawing the truncated values costs at most 100 draws per packet.
MIN_GEOMETRIC_ACCEPTANCE = 0.01

SIZE_PER_CHOICES = ("packet", "stream")


def set_field(obj, name: str, value) -> None:
    """Set field ``name`` of the frozen dataclass ``obj`` to ``value`` (its checked, normalised
    form,
    in ``__post_init__``)."""
    object.__setattr__(obj, name, value)


def check_rng(rng) -> np.random.Generator:
    """Return ``rng`` if it is a ``numpy.random.Generator`` (every draw of the traffic comes from
    one)."""
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def check_sorted(name: str, values: np.ndarray) -> None:
    """Raise ``ValueError`` naming ``name`` and the first offending index unless ``values`` (1-D)
    is non-decreasing."""
    bad = np.flatnonzero(np.diff(values) < 0)
    if bad.size:
        i = int(bad[0]) + 1
        raise ValueError(
            f"{name} must be sorted in non-decreasing order, "
            f"got {values[i]!r} after {values[i - 1]!r} at index {i}"
        )


def check_packet_count(n_packets: float) -> None:
    """Raise ``ValueError`` if one stream would generate more than :data:`MAX_STREAM_PACKETS`
    packets (``n_packets``, expected, before any is drawn): the run's ``duration_s`` is too long."""
    if n_packets > MAX_STREAM_PACKETS:
        raise ValueError(
            f"duration_s is too long: the stream would generate about {n_packets:.3g} packets, "
            f"more than {MAX_STREAM_PACKETS}"
        )


def plain_json(value):
    """``json.dumps`` ``default``: numpy scalars and arrays as Python numbers and lists."""
    if isinstance(value, (np.generic, np.ndarray)):
        return value.tolist()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def canonical_json(value, encoded: dict | None = None) -> str:
    """``value`` as canonical JSON: sorted keys, default separators, numpy values as Python's.

    ``encoded``: placeholder string -> JSON text already encoded (as :meth:`PlainData.to_dict` with
    ``encoded`` leaves them): each placeholder is replaced by its text, which gives byte for
    byte the encoding of ``value`` holding the decoded objects."""
    text = json.dumps(value, sort_keys=True, default=plain_json)
    for placeholder, json_text in (encoded or {}).items():
        text = text.replace(json.dumps(placeholder), json_text)
    return text


class PlainData:
    """``to_dict`` for the traffic's dataclasses, the size laws and the streams (``"type"`` +
    fields)."""

    __dataclass_fields__: ClassVar[
        dict[str, Any]
    ]  # every subclass is a dataclass (for type checkers)

    def to_dict(self, encoded: dict | None = None) -> dict:
        """Plain-data (JSON-serialisable) form with a ``"type"`` key; inverse: ``*_from_dict``.

        With ``encoded`` (a dict), an :class:`Empirical` member is left as a placeholder string
        (NUL-delimited, which no field holds) and its cached JSON added to ``encoded``, for
        :func:`canonical_json`: a law of 1,461 sizes takes about 1 ms to encode and is shared."""
        out = {"type": type(self).__name__}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Empirical) and encoded is not None:
                placeholder = f"\0{type(value).__name__}{id(value)}\0"
                encoded[placeholder] = value.to_json()
                value = placeholder
            elif isinstance(value, PlainData):
                value = value.to_dict(encoded)
            elif isinstance(value, np.ndarray):
                value = value.tolist()
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out


# --------------------------------------------------------------------------- sizes


class SizeDistribution(PlainData):
    """Base of the packet size distributions (sizes in bytes, integers in ``[1, 65535]``)."""

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """Draw ``n`` sizes.

        Parameters
        ----------
        rng : numpy.random.Generator
            Source of randomness.
        n : int
            Number of sizes (>= 0).

        Returns
        -------
        numpy.ndarray of int64
            Sizes, bytes.
        """
        return np.asarray(self._draw(check_rng(rng), check_int("n", n, 0)), dtype=np.int64)

    @property
    def mean_bytes(self) -> float:  # pragma: no cover - overridden
        """Exact mean size of the distribution, bytes."""
        raise NotImplementedError

    @property
    def max_bytes(self) -> int:  # pragma: no cover - overridden
        """Largest size the distribution can draw, bytes."""
        raise NotImplementedError

    def _draw(self, rng, n):  # pragma: no cover - overridden
        raise NotImplementedError


def _check_size(name, value):
    return check_int(name, value, 1, MAX_SIZE_BYTES)


@dataclass(frozen=True)
class Deterministic(SizeDistribution):
    """Every draw is ``size_bytes``.

    Parameters
    ----------
    size_bytes : int
        The size, bytes, in ``[1, 65535]``.
    """

    size_bytes: int

    def __post_init__(self) -> None:
        set_field(self, "size_bytes", _check_size("size_bytes", self.size_bytes))

    @property
    def mean_bytes(self) -> float:
        return float(self.size_bytes)

    @property
    def max_bytes(self) -> int:
        return self.size_bytes

    def _draw(self, rng, n):
        return np.full(n, self.size_bytes, dtype=np.int64)


@dataclass(frozen=True)
class Uniform(SizeDistribution):
    """Integer sizes uniform on ``{low_bytes, ..., high_bytes}`` (both inclusive).

    Parameters
    ----------
    low_bytes, high_bytes : int
        Bounds, bytes, ``1 <= low_bytes <= high_bytes <= 65535``.
    """

    low_bytes: int
    high_bytes: int

    def __post_init__(self) -> None:
        low = _check_size("low_bytes", self.low_bytes)
        set_field(self, "low_bytes", low)
        set_field(self, "high_bytes", check_int("high_bytes", self.high_bytes, low, MAX_SIZE_BYTES))

    @property
    def mean_bytes(self) -> float:
        return (self.low_bytes + self.high_bytes) / 2.0

    @property
    def max_bytes(self) -> int:
        return self.high_bytes

    def _draw(self, rng, n):
        return rng.integers(self.low_bytes, self.high_bytes, size=n, endpoint=True)


@dataclass(frozen=True)
class Geometric(SizeDistribution):
    """Shifted geometric sizes ``{min_bytes, min_bytes + 1, ...}`` truncated at ``max_bytes``.

    Untruncated, ``P(size = min_bytes + k) = p (1 - p)^k`` with
    ``p = 1 / (untruncated_mean_bytes - min_bytes + 1)``, whose mean is
    ``untruncated_mean_bytes``. Draws above ``max_bytes`` are redrawn, so the
    sizes follow that law conditioned on ``size <= max_bytes`` and their mean,
    :attr:`mean_bytes`, is smaller than ``untruncated_mean_bytes``.

    Parameters
    ----------
    untruncated_mean_bytes : float
        Mean of the untruncated law, bytes, in ``[min_bytes, 65535]``, such that
        ``P(size <= max_bytes) >= 0.01`` before truncation.
    min_bytes : int
        Smallest size, bytes, in ``[1, 65535]``.
    max_bytes : int
        Truncation point, bytes, in ``[min_bytes, 65535]``.
    """

    untruncated_mean_bytes: float
    min_bytes: int = 1
    max_bytes: int = 1500

    def __post_init__(self) -> None:
        low = _check_size("min_bytes", self.min_bytes)
        set_field(self, "min_bytes", low)
        set_field(self, "max_bytes", check_int("max_bytes", self.max_bytes, low, MAX_SIZE_BYTES))
        mean = check_real(
            "untruncated_mean_bytes", self.untruncated_mean_bytes, low, MAX_SIZE_BYTES
        )
        set_field(self, "untruncated_mean_bytes", mean)
        if self._acceptance < MIN_GEOMETRIC_ACCEPTANCE:
            raise ValueError(
                f"untruncated_mean_bytes is too large for max_bytes={self.max_bytes}: P(size <="
                f" max_bytes) must be >= {MIN_GEOMETRIC_ACCEPTANCE}, got {self._acceptance:.3g}"
            )

    @property
    def p(self) -> float:
        """Success probability of the geometric law, ``1 / (untruncated_mean_bytes -
        min_bytes + 1)``."""
        return 1.0 / (self.untruncated_mean_bytes - self.min_bytes + 1.0)

    @property
    def _q_pow_k(self) -> float:
        """``(1 - p)^K``, ``K = max_bytes - min_bytes + 1``: the truncated-away probability."""
        return (1.0 - self.p) ** (self.max_bytes - self.min_bytes + 1)

    @property
    def _acceptance(self) -> float:
        return 1.0 - self._q_pow_k

    @property
    def mean_bytes(self) -> float:
        """Exact mean of the truncated law, bytes.

        ``min + q/p - K q^K / (1 - q^K)`` with ``q = 1 - p`` and
        ``K = max_bytes - min_bytes + 1``.
        """
        p, q_k = self.p, self._q_pow_k
        k = self.max_bytes - self.min_bytes + 1
        return self.min_bytes + (1.0 - p) / p - k * q_k / (1.0 - q_k)

    def _draw(self, rng, n):
        out = rng.geometric(self.p, size=n) + (self.min_bytes - 1)
        bad = np.flatnonzero(out > self.max_bytes)
        while bad.size:
            out[bad] = rng.geometric(self.p, size=bad.size) + (self.min_bytes - 1)
            bad = bad[out[bad] > self.max_bytes]
        return out


@dataclass(frozen=True)
class Empirical(SizeDistribution):
    """Discrete sizes with a step CDF: ``P(size <= sizes_bytes[i]) = cdf[i]``.

    Parameters
    ----------
    sizes_bytes : array_like of int
        Support, bytes, strictly increasing, each in ``[1, 65535]`` (at least one).
    cdf : array_like of float
        Cumulative probabilities, one per size, in ``[0, 1]``, non-decreasing,
        the last equal to 1 within ``1e-9``. Stored, like ``sizes_bytes``, as a tuple. For
        either, a numpy masked array with a masked entry is refused.
    """

    sizes_bytes: tuple
    cdf: tuple

    def __post_init__(self) -> None:
        sizes = check_array(
            "sizes_bytes", self.sizes_bytes, kind="int", minimum=1, maximum=MAX_SIZE_BYTES
        )
        if sizes.size == 0:
            raise ValueError("sizes_bytes must hold at least one size, got an empty array")
        if np.any(np.diff(sizes) <= 0):
            raise ValueError(f"sizes_bytes must be strictly increasing, got {sizes.tolist()!r}")
        cdf = check_array("cdf", self.cdf, kind="float", minimum=0.0, maximum=1.0 + CDF_TOLERANCE)
        if cdf.size != sizes.size:
            raise ValueError(
                f"cdf must have one value per entry of sizes_bytes ({sizes.size}), got {cdf.size}"
            )
        if np.any(np.diff(cdf) < 0):
            raise ValueError(f"cdf must be non-decreasing, got {cdf.tolist()!r}")
        if abs(cdf[-1] - 1.0) > CDF_TOLERANCE:
            raise ValueError(f"cdf must end at 1 (within {CDF_TOLERANCE}), got {cdf[-1]!r}")
        set_field(self, "sizes_bytes", tuple(sizes.tolist()))
        set_field(self, "cdf", tuple(cdf.tolist()))

    def __hash__(self) -> int:
        """The hash a frozen dataclass has (of its fields), computed once: a law of 1,461 sizes is
        hashed wherever it keys a cache (the presets' shared scenarios, the laws' JSON)."""
        value = self.__dict__.get("_hash")
        if value is None:
            value = self.__dict__["_hash"] = hash((self.sizes_bytes, self.cdf))
        return value

    def to_json(self) -> str:
        """:meth:`to_dict` as canonical JSON, encoded once for every equal law (1,461 sizes take
        about 1 ms to encode, and each scenario rebuilt from JSON holds a new but equal law)."""
        return _empirical_json(self)

    @classmethod
    def from_csv(cls, path: str | os.PathLike) -> Empirical:
        """Read a CSV with columns ``size_bytes,cdf``; lines starting with ``#`` are comments.

        Parameters
        ----------
        path : str or path-like
            The file (its comment lines hold the data's provenance).
        """
        import pandas as pd

        table = pd.read_csv(path, comment="#", skipinitialspace=True)
        missing = {"size_bytes", "cdf"} - set(table.columns)
        if missing:
            raise ValueError(
                f"path {str(path)!r} must be a CSV with columns size_bytes,cdf; missing"
                f" {sorted(missing)}"
            )
        return cls(table["size_bytes"].to_numpy(), table["cdf"].to_numpy())

    def pmf(self) -> np.ndarray:
        """Probability of each size in ``sizes_bytes`` (the CDF's steps, last one closing to 1)."""
        return self._table()[1].copy()

    def _table(self) -> tuple[np.ndarray, np.ndarray, float, np.ndarray]:
        """``(sizes, pmf, mean_bytes, choice_cdf)``: read-only arrays, computed once per (frozen)
        law;
        ``choice_cdf`` is the pmf's cumulative sum divided by its last value (:meth:`_draw`)."""
        table = self.__dict__.get("_table_cache")
        if table is None:
            cdf = np.minimum(np.array(self.cdf), 1.0)
            cdf[-1] = 1.0
            pmf = np.diff(cdf, prepend=0.0)
            sizes = np.array(self.sizes_bytes, dtype=np.int64)
            choice_cdf = pmf.cumsum()
            choice_cdf /= choice_cdf[-1]
            sizes.flags.writeable = pmf.flags.writeable = choice_cdf.flags.writeable = False
            table = (sizes, pmf, dot(self.sizes_bytes, pmf), choice_cdf)
            self.__dict__["_table_cache"] = table
        return table

    @property
    def mean_bytes(self) -> float:
        return self._table()[2]

    @property
    def max_bytes(self) -> int:
        return self.sizes_bytes[-1]

    def _draw(self, rng, n):
        """``rng.choice(sizes, size=n, p=pmf)`` with the law's tables computed once: numpy's
        ``Generator.choice`` with replacement draws ``rng.random(n)`` and looks each up in the
        normalised cumulative pmf (``searchsorted``, right side), which is done here (the same
        draws and sizes, without re-checking and summing the pmf on every call)."""
        sizes, _, _, choice_cdf = self._table()
        out = np.empty(n, dtype=np.int64)
        _sizes_of_uniforms(choice_cdf, sizes, rng.random(n), out)
        return out


@cached_njit(nogil=True)
def _sizes_of_uniforms(choice_cdf, sizes, uniform, out):
    """``out[i] = sizes[choice_cdf.searchsorted(uniform[i], side="right")]``: the size whose step of
    the cumulative pmf holds each uniform draw (the count of ``choice_cdf`` values at or below it,
    by bisection). ``choice_cdf`` is non-decreasing and ends at exactly 1.0, every draw is in
    ``[0, 1)``, so each index is below ``sizes.shape[0]``."""
    n = choice_cdf.shape[0]
    for i in range(uniform.shape[0]):
        u = uniform[i]
        lo = 0
        hi = n
        while lo < hi:
            mid = (lo + hi) >> 1
            if choice_cdf[mid] <= u:
                lo = mid + 1
            else:
                hi = mid
        out[i] = sizes[lo]


@functools.lru_cache(maxsize=64)
def _empirical_json(law: Empirical) -> str:
    """The JSON of an empirical law, keyed by its value (sizes are ints and the CDF floats, as
    ``__post_init__`` stores them, so equal laws have equal encodings)."""
    return canonical_json(law.to_dict())
