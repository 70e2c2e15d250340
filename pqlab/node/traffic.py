"""Traffic: packet size distributions and streams turned into sorted arrival arrays.

A *size distribution* draws IP payload or packet lengths (bytes); a *stream*
turns one into arrival times (seconds) and IP lengths for one queue and flow.
Everything is vectorised with numpy and all randomness comes from a
``numpy.random.Generator`` passed in, so a seed fixes every array.

The papers' EF reference stream is a :class:`CBRStream` of 128-byte packets at
300 kbit/s; their best-effort (BE) streams are constant-rate UDP streams whose
single packet size is drawn from a distribution (``size_per="stream"``), with
the UDP/IP header (:data:`UDP_IP_HEADER_BYTES`) added to the drawn payload.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, fields

import numpy as np
from numba import njit

from ..base._validate import check_array, check_choice, check_int, check_real
from .engine import MAX_SIZE_BYTES
from ..base.numerics import dot

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


def _set(obj, name, value):
    object.__setattr__(obj, name, value)


def _check_rng(rng) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def _check_sorted(name: str, values: np.ndarray) -> None:
    bad = np.flatnonzero(np.diff(values) < 0)
    if bad.size:
        i = int(bad[0]) + 1
        raise ValueError(
            f"{name} must be sorted in non-decreasing order, "
            f"got {values[i]!r} after {values[i - 1]!r} at index {i}"
        )


def _check_packet_count(n_packets: float) -> None:
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

    ``encoded``: placeholder string -> JSON text already encoded (as :meth:`_Plain.to_dict` with
    ``encoded`` leaves them): each placeholder is replaced by its text, which gives byte for
    byte the encoding of ``value`` holding the decoded objects."""
    text = json.dumps(value, sort_keys=True, default=plain_json)
    for placeholder, json_text in (encoded or {}).items():
        text = text.replace(json.dumps(placeholder), json_text)
    return text


class _Plain:
    """``to_dict`` for the dataclasses of this module (``"type"`` + fields)."""

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
            elif isinstance(value, _Plain):
                value = value.to_dict(encoded)
            elif isinstance(value, np.ndarray):
                value = value.tolist()
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out


# --------------------------------------------------------------------------- sizes


class SizeDistribution(_Plain):
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
        return np.asarray(self._draw(_check_rng(rng), check_int("n", n, 0)), dtype=np.int64)

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

    def __post_init__(self):
        _set(self, "size_bytes", _check_size("size_bytes", self.size_bytes))

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

    def __post_init__(self):
        low = _check_size("low_bytes", self.low_bytes)
        _set(self, "low_bytes", low)
        _set(self, "high_bytes", check_int("high_bytes", self.high_bytes, low, MAX_SIZE_BYTES))

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

    def __post_init__(self):
        low = _check_size("min_bytes", self.min_bytes)
        _set(self, "min_bytes", low)
        _set(self, "max_bytes", check_int("max_bytes", self.max_bytes, low, MAX_SIZE_BYTES))
        mean = check_real("untruncated_mean_bytes", self.untruncated_mean_bytes, low, MAX_SIZE_BYTES)
        _set(self, "untruncated_mean_bytes", mean)
        if self._acceptance < MIN_GEOMETRIC_ACCEPTANCE:
            raise ValueError(
                f"untruncated_mean_bytes is too large for max_bytes={self.max_bytes}: "
                f"P(size <= max_bytes) must be >= {MIN_GEOMETRIC_ACCEPTANCE}, got {self._acceptance:.3g}"
            )

    @property
    def p(self) -> float:
        """Success probability of the geometric law, ``1 / (untruncated_mean_bytes - min_bytes + 1)``."""
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
        the last equal to 1 within ``1e-9``. Stored, like ``sizes_bytes``, as a tuple.
    """

    sizes_bytes: tuple
    cdf: tuple

    def __post_init__(self):
        sizes = check_array("sizes_bytes", self.sizes_bytes, kind="int", minimum=1, maximum=MAX_SIZE_BYTES)
        if sizes.size == 0:
            raise ValueError("sizes_bytes must hold at least one size, got an empty array")
        if np.any(np.diff(sizes) <= 0):
            raise ValueError(f"sizes_bytes must be strictly increasing, got {sizes.tolist()!r}")
        cdf = check_array("cdf", self.cdf, kind="float", minimum=0.0, maximum=1.0 + CDF_TOLERANCE)
        if cdf.size != sizes.size:
            raise ValueError(f"cdf must have one value per entry of sizes_bytes ({sizes.size}), got {cdf.size}")
        if np.any(np.diff(cdf) < 0):
            raise ValueError(f"cdf must be non-decreasing, got {cdf.tolist()!r}")
        if abs(cdf[-1] - 1.0) > CDF_TOLERANCE:
            raise ValueError(f"cdf must end at 1 (within {CDF_TOLERANCE}), got {cdf[-1]!r}")
        _set(self, "sizes_bytes", tuple(sizes.tolist()))
        _set(self, "cdf", tuple(cdf.tolist()))

    def to_json(self) -> str:
        """:meth:`to_dict` as canonical JSON, encoded once for every equal law (1,461 sizes take
        about 1 ms to encode, and each scenario rebuilt from JSON holds a new but equal law)."""
        return _empirical_json(self)

    @classmethod
    def from_csv(cls, path) -> "Empirical":
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
                f"path {str(path)!r} must be a CSV with columns size_bytes,cdf; missing {sorted(missing)}"
            )
        return cls(table["size_bytes"].to_numpy(), table["cdf"].to_numpy())

    def pmf(self) -> np.ndarray:
        """Probability of each size in ``sizes_bytes`` (the CDF's steps, last one closing to 1)."""
        cdf = np.minimum(np.array(self.cdf), 1.0)
        cdf[-1] = 1.0
        return np.diff(cdf, prepend=0.0)

    @property
    def mean_bytes(self) -> float:
        return dot(self.sizes_bytes, self.pmf())

    @property
    def max_bytes(self) -> int:
        return self.sizes_bytes[-1]

    def _draw(self, rng, n):
        return rng.choice(np.array(self.sizes_bytes, dtype=np.int64), size=n, p=self.pmf())


@functools.lru_cache(maxsize=64)
def _empirical_json(law: Empirical) -> str:
    """The JSON of an empirical law, keyed by its value (sizes are ints and the CDF floats, as
    ``__post_init__`` stores them, so equal laws have equal encodings)."""
    return canonical_json(law.to_dict())


# --------------------------------------------------------------------------- streams


class Stream(_Plain):
    """Base of the streams: packets of one flow into one queue of the node.

    Subclasses have integer fields ``queue`` (index into ``node.queues``, >= 0)
    and ``flow`` (flow id, >= 0) and a method :meth:`generate`.
    """

    def _check_ids(self):
        _set(self, "queue", check_int("queue", self.queue, 0))
        _set(self, "flow", check_int("flow", self.flow, 0))

    def generate(self, rng: np.random.Generator, duration_s: float):
        """Arrivals in ``[0, duration_s)``.

        Parameters
        ----------
        rng : numpy.random.Generator
            Source of randomness.
        duration_s : float
            End of the generation window, seconds (> 0).

        Returns
        -------
        arrival_s : numpy.ndarray of float64
            Arrival times, seconds, non-decreasing.
        size_bytes : numpy.ndarray of int64
            IP lengths, bytes.
        """
        duration_s = check_real("duration_s", duration_s, 0.0, strict_minimum=True)
        return self.windows(rng)(0.0, duration_s)

    def windows(self, rng: np.random.Generator):
        """A generator of consecutive windows of this stream, for runs in bounded memory.

        Stream-level draws (phase, a per-stream size) are made now; each call
        ``window(t0_s, t1_s)`` returns the arrivals in ``[t0_s, t1_s)`` and their
        sizes, drawing per-packet values from ``rng``. Consecutive windows
        partition the stream: ``generate(rng, d)`` is the single window ``[0, d)``.
        """
        return self._windows(_check_rng(rng))

    def _windows(self, rng):  # pragma: no cover - overridden
        raise NotImplementedError


class _SizedStream(Stream):
    """Shared part of the rate-driven streams (:class:`CBRStream`, :class:`PoissonStream`).

    Fields ``rate_bps``, ``size``, ``queue``, ``flow``, ``header_bytes``,
    ``size_per`` and ``start_s``; subclasses implement ``_arrivals``.
    """

    def _check_common(self):
        _set(self, "rate_bps", check_real("rate_bps", self.rate_bps, 0.0, strict_minimum=True))
        if not isinstance(self.size, SizeDistribution):
            raise ValueError(
                "size must be a size distribution (Deterministic, Uniform, Geometric, Empirical), "
                f"got {type(self.size).__name__}"
            )
        self._check_ids()
        _set(
            self,
            "header_bytes",
            check_int("header_bytes", self.header_bytes, 0, MAX_SIZE_BYTES - self.size.max_bytes),
        )
        check_choice("size_per", self.size_per, SIZE_PER_CHOICES)
        _set(self, "start_s", check_real("start_s", self.start_s, 0.0))

    @property
    def _mean_ip_bytes(self) -> float:
        """Mean IP length with a fresh draw per packet, bytes (drawn size + header)."""
        return self.size.mean_bytes + self.header_bytes

    def _windows(self, rng):
        fixed = None
        if isinstance(self.size, Deterministic):  # draws nothing from rng, whatever size_per says
            if self.size_per == "stream":
                fixed = self.size.size_bytes + self.header_bytes
        elif self.size_per == "stream":
            fixed = int(self.size.sample(rng, 1)[0]) + self.header_bytes
        arrivals = self._arrival_windows(rng, self._mean_ip_bytes if fixed is None else float(fixed))
        # Per-packet sizes come from the stream's own generator, seeded by one stream-level draw: a
        # stream's k-th size then does not depend on how many packets the other streams sent (common
        # random numbers across runs of different lengths, e.g. the aggregation sweep).
        size_rng = None if fixed is not None or isinstance(self.size, Deterministic) else \
            np.random.default_rng(int(rng.integers(0, 2**63 - 1)))

        def window(t0_s, t1_s):
            arrival = arrivals(t0_s, t1_s)
            if fixed is not None:
                return arrival, np.full(arrival.shape[0], fixed, dtype=np.int64)
            return arrival, self.size.sample(size_rng, arrival.shape[0]) + self.header_bytes

        # For TrafficWindows' vectorised path: a periodic stream whose sizes draw nothing.
        if fixed is None and isinstance(self.size, Deterministic):
            fixed = self.size.size_bytes + self.header_bytes
        window.periodic = getattr(arrivals, "periodic", None)
        window.fixed_bytes = fixed
        return window

    def _arrival_windows(self, rng, ip_bytes):  # pragma: no cover - overridden
        raise NotImplementedError


@dataclass(frozen=True)
class CBRStream(_SizedStream):
    """Constant bit rate: one packet every ``ip_bytes * 8 / rate_bps`` seconds.

    ``ip_bytes`` is the mean IP length (mean drawn size + ``header_bytes``), or
    the stream's single size when ``size_per="stream"``; with fixed sizes the
    interval is exactly ``size * 8 / rate_bps`` (3.41333 ms for 128 bytes at
    300 kbit/s). Packet ``k`` arrives at ``start_s + phase + k * interval``.

    Parameters
    ----------
    rate_bps : float
        Bit rate counted on IP lengths, bit/s (> 0).
    size : SizeDistribution
        Packet (or UDP payload, see ``header_bytes``) sizes, bytes.
    queue : int
        Index into ``node.queues`` (>= 0).
    flow : int
        Flow id (>= 0).
    phase_s : float, optional
        Offset of the first packet after ``start_s``, seconds, in ``[0, interval)``.
        ``None``: drawn uniformly in ``[0, interval)`` from the generator.
    header_bytes : int
        Bytes added to every drawn size (``UDP_IP_HEADER_BYTES`` for UDP payloads), >= 0.
    size_per : {"packet", "stream"}
        ``"packet"``: a fresh size per packet; ``"stream"``: one size drawn for
        the whole stream (the papers' BE streams).
    start_s : float
        Start of the stream, seconds (>= 0).
    """

    rate_bps: float
    size: SizeDistribution
    queue: int
    flow: int
    phase_s: float | None = None
    header_bytes: int = 0
    size_per: str = "packet"
    start_s: float = 0.0

    def __post_init__(self):
        self._check_common()
        if self.phase_s is not None:
            _set(self, "phase_s", check_real("phase_s", self.phase_s, 0.0))
            if self.size_per == "packet":
                self._phase(None, self._interval_s(self._mean_ip_bytes))

    def _interval_s(self, ip_bytes: float) -> float:
        return ip_bytes * 8.0 / self.rate_bps

    def _phase(self, rng, interval_s: float) -> float:
        if self.phase_s is None:
            return interval_s * rng.random()
        if self.phase_s >= interval_s:
            raise ValueError(f"phase_s must be in [0, interval) = [0, {interval_s!r}) s, got {self.phase_s!r}")
        return self.phase_s

    def _arrival_windows(self, rng, ip_bytes):
        interval = self._interval_s(ip_bytes)
        first = self.start_s + self._phase(rng, interval)

        def window(t0_s, t1_s):
            # packet k arrives at first + k * interval, computed the same way in every window
            k0 = max(0.0, math.floor((t0_s - first) / interval) - 1.0)
            k1 = max(k0, math.floor((t1_s - first) / interval) + 2.0)
            _check_packet_count(k1 - k0)
            arrival = first + interval * np.arange(int(k0), int(k1), dtype=np.float64)
            return arrival[(arrival >= t0_s) & (arrival < t1_s)]

        window.periodic = (first, interval)
        return window


@dataclass(frozen=True)
class PoissonStream(_SizedStream):
    """Poisson arrivals (exponential gaps) at ``rate_bps / (8 * ip_bytes)`` packets/s.

    ``ip_bytes`` is the mean IP length (mean drawn size + ``header_bytes``), or
    the stream's single size when ``size_per="stream"``. The process runs from
    ``start_s``: the number of packets in ``[start_s, duration_s)`` is Poisson
    and, given it, their times are uniform on the window. Parameters are those
    of :class:`CBRStream` without ``phase_s``.
    """

    rate_bps: float
    size: SizeDistribution
    queue: int
    flow: int
    header_bytes: int = 0
    size_per: str = "packet"
    start_s: float = 0.0

    def __post_init__(self):
        self._check_common()

    def _arrival_windows(self, rng, ip_bytes):
        def window(t0_s, t1_s):
            lo = max(t0_s, self.start_s)
            span_s = t1_s - lo
            if span_s <= 0:
                return np.empty(0, dtype=np.float64)
            expected = span_s * self.rate_bps / (8.0 * ip_bytes)
            _check_packet_count(expected)
            # A Poisson process on [lo, t1_s): a Poisson number of points placed
            # uniformly, sorted (their gaps are i.i.d. exponential); windows are
            # independent, as the process's increments are.
            arrival = lo + np.sort(rng.uniform(0.0, span_s, rng.poisson(expected)))
            return arrival[arrival < t1_s]

        return window


@dataclass(frozen=True, eq=False)
class TraceStream(Stream):
    """Explicit packets (a trace): ``generate`` returns those arriving before ``duration_s``.

    Parameters
    ----------
    arrival_s : array_like of float
        Arrival times, seconds, finite, >= 0, non-decreasing.
    size_bytes : array_like of int
        IP lengths, bytes, in ``[1, 65535]``, one per arrival.
    queue : int
        Index into ``node.queues`` (>= 0).
    flow : int
        Flow id (>= 0).
    """

    arrival_s: np.ndarray
    size_bytes: np.ndarray
    queue: int
    flow: int

    def __post_init__(self):
        arrival = check_array("arrival_s", self.arrival_s, kind="float", minimum=0.0)
        _check_sorted("arrival_s", arrival)
        size = check_array("size_bytes", self.size_bytes, kind="int", minimum=1, maximum=MAX_SIZE_BYTES)
        if size.shape != arrival.shape:
            raise ValueError(f"size_bytes must have one value per arrival ({arrival.size}), got {size.size}")
        for name, arr in (("arrival_s", arrival), ("size_bytes", size)):
            arr.flags.writeable = False
            _set(self, name, arr)
        self._check_ids()

    def __eq__(self, other):
        if type(other) is not TraceStream:
            return NotImplemented
        return (self.queue, self.flow) == (other.queue, other.flow) and all(
            np.array_equal(getattr(self, a), getattr(other, a)) for a in ("arrival_s", "size_bytes")
        )

    def _windows(self, rng):
        def window(t0_s, t1_s):
            lo, hi = np.searchsorted(self.arrival_s, [t0_s, t1_s], side="left")
            return self.arrival_s[lo:hi].copy(), self.size_bytes[lo:hi].copy()

        return window


# --------------------------------------------------------------------------- merge, dicts


def check_streams(streams) -> tuple:
    """Return ``streams`` as a tuple after checking it is a list or tuple of :class:`Stream` with distinct flow ids."""
    if not isinstance(streams, (list, tuple)):
        raise ValueError(f"streams must be a list or tuple of streams, got {type(streams).__name__}")
    for i, stream in enumerate(streams):
        if not isinstance(stream, Stream):
            raise ValueError(
                f"streams[{i}] must be a stream (CBRStream, PoissonStream, TraceStream), "
                f"got {type(stream).__name__}"
            )
    first = {}
    for i, stream in enumerate(streams):
        if stream.flow in first:
            raise ValueError(
                f"streams[{i}].flow must differ from every other stream's flow id (flows identify "
                f"streams in the results), got {stream.flow}, already used by streams[{first[stream.flow]}]"
            )
        first[stream.flow] = i
    return tuple(streams)


def _fixed_cbr_schedule(streams, rng: np.random.Generator):
    """``(first_s, interval_s, size_bytes)`` arrays of streams that are all :class:`CBRStream` of a
    :class:`Deterministic` size, else None (nothing drawn).

    The set-up of every stream's own :meth:`CBRStream.windows` done for all streams at once: the
    interval is ``ip_bytes * 8 / rate_bps`` with ``ip_bytes = size_bytes + header_bytes``, and the
    phase of each stream without ``phase_s`` is ``interval * u`` with ``u`` drawn from ``rng`` in
    stream order (``rng.random(m)`` draws the same numbers as ``m`` calls of ``rng.random()``), so
    first arrivals and the generator's state equal the per-stream set-up's bit for bit (tested).
    """
    if not streams or not all(type(s) is CBRStream and type(s.size) is Deterministic for s in streams):
        return None
    ip_bytes = np.array([s.size.size_bytes + s.header_bytes for s in streams], dtype=np.float64)
    interval = ip_bytes * 8.0 / np.array([s.rate_bps for s in streams], dtype=np.float64)
    drawn = np.array([s.phase_s is None for s in streams])
    phase = np.empty(len(streams))
    phase[drawn] = interval[drawn] * rng.random(int(drawn.sum()))
    for i in np.flatnonzero(~drawn):  # a given phase: checked against the interval as the stream does
        phase[i] = streams[i]._phase(None, float(interval[i]))
    start = np.array([s.start_s for s in streams], dtype=np.float64)
    return start + phase, interval, ip_bytes.astype(np.int64)


def merge_streams(streams, rng: np.random.Generator, duration_s: float):
    """Generate every stream (in list order) and merge them by arrival time.

    Ties keep list order (stable sort), so the result is fixed by the seed.

    Parameters
    ----------
    streams : sequence of Stream
        The streams.
    rng : numpy.random.Generator
        Source of randomness, used by the streams in order.
    duration_s : float
        End of the generation window, seconds (> 0).

    Returns
    -------
    arrival_s : numpy.ndarray of float64
        Arrival times, seconds, sorted.
    size_bytes : numpy.ndarray of int64
        IP lengths, bytes.
    queue : numpy.ndarray of int64
        Queue index of each packet.
    flow : numpy.ndarray of int64
        Flow id of each packet.
    """
    duration_s = check_real("duration_s", duration_s, 0.0, strict_minimum=True)
    return TrafficWindows(streams, rng).window(0.0, duration_s)


class TrafficWindows:
    """All streams of a scenario generated window by window (bounded memory).

    Stream-level draws happen on construction, in stream order; each
    :meth:`window` draws per-packet values stream by stream, so a sequence of
    windows is fixed by the seed and the window boundaries.

    Parameters
    ----------
    streams : sequence of Stream
        The streams.
    rng : numpy.random.Generator
        Source of randomness.
    vectorised : bool
        True (default): periodic streams of fixed sizes (the papers' CBR presets) are set up and
        generated for all streams at once, bit-identical to each stream's own windows. False:
        every stream generates its own windows (the reference the vectorised path is tested
        against).
    """

    def __init__(self, streams, rng: np.random.Generator, *, vectorised: bool = True):
        self.streams = check_streams(streams)
        rng = _check_rng(rng)
        self._queues = np.array([s.queue for s in self.streams], dtype=np.int64)
        self._flows = np.array([s.flow for s in self.streams], dtype=np.int64)
        self._periodic = _fixed_cbr_schedule(self.streams, rng) if vectorised else None
        self._windows = None
        if self._periodic is None:
            self._windows = [s.windows(rng) for s in self.streams]
            # Every stream periodic with sizes that draw nothing per packet (a size per stream):
            # all streams in one vectorised pass, the same floating-point operations as each
            # stream's own window.
            periodic = [getattr(w, "periodic", None) for w in self._windows]
            fixed = [getattr(w, "fixed_bytes", None) for w in self._windows]
            if (vectorised and self.streams and all(p is not None for p in periodic)
                    and all(f is not None for f in fixed)):
                first, interval = np.ascontiguousarray(np.array(periodic, dtype=np.float64).T)
                self._periodic = (first, interval, np.array(fixed, dtype=np.int64))
        if self._periodic is not None:
            self._round_robin_group, self._others = _round_robin_group(*self._periodic[:2])

    def window(self, t0_s: float, t1_s: float):
        """Packets of every stream arriving in ``[t0_s, t1_s)``, merged by time (stable: ties in stream order).

        Returns
        -------
        arrival_s, size_bytes, queue, flow : numpy.ndarray
        """
        if not self.streams:
            return tuple(np.empty(0, dtype) for dtype in (np.float64, np.int64, np.int64, np.int64))
        if self._periodic is not None:
            return self._periodic_window(t0_s, t1_s)
        arrivals, sizes = zip(*(window(t0_s, t1_s) for window in self._windows))
        counts = [a.shape[0] for a in arrivals]
        arrival = np.concatenate(arrivals)
        order = np.argsort(arrival, kind="stable")
        return (arrival[order], np.concatenate(sizes)[order], np.repeat(self._queues, counts)[order],
                np.repeat(self._flows, counts)[order])

    def _periodic_window(self, t0_s: float, t1_s: float):
        """:meth:`window` for periodic fixed-size streams: packet ``k`` of stream ``i`` at
        ``first[i] + interval[i] * k``, exactly as :class:`CBRStream` computes it, for all streams
        in one pass (:func:`_periodic_arrivals`), then merged by time, ties in stream order (the
        order of a stable sort of the packets listed stream after stream).

        The merge: the round-robin group (streams of one interval whose first arrivals lie within
        one interval, e.g. the papers' BE streams: their packets follow each other in a fixed
        cycle) is one sorted run, built by :func:`_round_robin_run`, which checks the order it
        builds packet by packet; the other streams' packets are sorted (stable) and the two runs
        merged (:func:`_merge_runs`). Should the check fail (rounding at a cycle boundary), the
        run is the longest single stream instead."""
        first, interval, fixed = self._periodic
        k0, k1 = np.empty_like(first), np.empty_like(first)
        most = _periodic_extent(first, interval, float(t0_s), float(t1_s), k0, k1)
        _check_packet_count(most)
        cap = int(np.sum(k1 - k0))
        arrival, stream = np.empty(cap), np.empty(cap, dtype=np.int64)
        starts, k_first = np.empty(first.shape[0] + 1, dtype=np.int64), np.empty(first.shape[0], dtype=np.int64)
        n = _periodic_arrivals(first, interval, k0, k1, float(t0_s), float(t1_s), arrival, stream, starts, k_first)
        group, rest = self._round_robin_group, self._others
        counts = starts[1:] - starts[:-1]
        size = int(counts[group].sum())
        run_arrival, run_stream = np.empty(size), np.empty(size, dtype=np.int64)
        if group.shape[0] < 2 or _round_robin_run(arrival, stream, starts, k_first, group, run_arrival,
                                                  run_stream) < 0:
            group = np.array([np.argmax(counts)], dtype=np.int64)
            rest = np.flatnonzero(np.arange(first.shape[0]) != group[0])
            run_arrival, run_stream = (a[starts[group[0]]:starts[group[0] + 1]] for a in (arrival, stream))
        if rest.size == 1:  # one stream: already in time order
            other_arrival, other_stream = (a[starts[rest[0]]:starts[rest[0] + 1]] for a in (arrival, stream))
        else:
            others = np.concatenate([np.arange(starts[i], starts[i + 1]) for i in rest]) if rest.size else starts[:0]
            others = others[np.argsort(arrival[others], kind="stable")]
            other_arrival, other_stream = arrival[others], stream[others]
        out = (np.empty(n), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64))
        _merge_runs(run_arrival, run_stream, other_arrival, other_stream, fixed, self._queues, self._flows, *out)
        return out


@njit(cache=True, nogil=True)
def _periodic_extent(first, interval, t0_s, t1_s, out_k0, out_k1):
    """The packet numbers ``k0 <= k < k1`` of each periodic stream to look at for ``[t0_s, t1_s)``
    (one packet of margin each side, as :class:`CBRStream`'s own window); returns the largest
    ``k1 - k0``."""
    most = 0.0
    for s in range(first.shape[0]):
        k0 = max(0.0, np.floor((t0_s - first[s]) / interval[s]) - 1.0)
        k1 = max(k0, np.floor((t1_s - first[s]) / interval[s]) + 2.0)
        out_k0[s] = k0
        out_k1[s] = k1
        most = max(most, k1 - k0)
    return most


def _round_robin_group(first: np.ndarray, interval: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the streams merged as one cycle by :meth:`TrafficWindows._periodic_window`, and
    of the other streams (ascending).

    The cycle: among the sets of two or more streams with the same interval whose first arrivals
    all lie within one interval, the one with the most packets per second (empty if none); its
    streams in order of first arrival (ties by index), the order in which their packets follow
    each other in every cycle.
    """
    groups: dict = {}
    for i, (t, step) in enumerate(zip(first.tolist(), interval.tolist())):
        groups.setdefault(step, []).append((t, i))
    best, best_rate = [], 0.0
    for step, members in groups.items():
        members.sort()
        if len(members) > 1 and members[-1][0] - members[0][0] < step and len(members) / step > best_rate:
            best, best_rate = members, len(members) / step
    cycle = {i for _, i in best}
    return (np.array([i for _, i in best], dtype=np.int64),
            np.array([i for i in range(first.shape[0]) if i not in cycle], dtype=np.int64))


@njit(cache=True, nogil=True)
def _periodic_arrivals(first, interval, k0, k1, t0_s, t1_s, out_arrival, out_stream, out_starts, out_k_first):
    """Arrivals ``first[i] + interval[i] * k`` for ``k0[i] <= k < k1[i]`` that fall in ``[t0_s, t1_s)``,
    stream after stream (each in time order), with their stream index; stream ``i``'s packets are
    ``out_starts[i]:out_starts[i + 1]``, the first of them packet ``out_k_first[i]``. Returns how many."""
    n = 0
    for s in range(first.shape[0]):
        out_starts[s] = n
        out_k_first[s] = 0
        k = k0[s]
        while k < k1[s]:
            t = first[s] + interval[s] * k
            if t >= t0_s and t < t1_s:
                if n == out_starts[s]:
                    out_k_first[s] = np.int64(k)
                out_arrival[n] = t
                out_stream[n] = s
                n += 1
            k += 1.0
    out_starts[first.shape[0]] = n
    return n


@njit(cache=True, nogil=True)
def _round_robin_run(arrival, stream, starts, k_first, group, out_arrival, out_stream):
    """The ``group``'s packets in cycle order (packet ``k`` of every stream of the group, in the
    group's order, then packet ``k + 1``...), checking that each is later than the one before, or
    at the same time and of a higher stream index. Returns how many, or -1 if the check fails."""
    k_lo = np.int64(2**62)  # no packet in the window: the loop below does nothing
    k_hi = np.int64(0)
    for s in group:
        count = starts[s + 1] - starts[s]
        if count > 0:
            k_lo = min(k_lo, k_first[s])
            k_hi = max(k_hi, k_first[s] + count)
    n = 0
    prev_t = -np.inf
    prev_s = -1
    for k in range(k_lo, k_hi):
        for s in group:
            j = k - k_first[s]
            if j >= 0 and j < starts[s + 1] - starts[s]:
                t = arrival[starts[s] + j]
                if t < prev_t or (t == prev_t and s < prev_s):
                    return -1
                out_arrival[n] = t
                out_stream[n] = s
                prev_t = t
                prev_s = s
                n += 1
    return n


@njit(cache=True, nogil=True)
def _merge_runs(a_arrival, a_stream, b_arrival, b_stream, size, queue, flow, out_arrival, out_size, out_queue,
                out_flow):
    """Merge two runs of packets (times and stream indices), each sorted by (time, stream index), by
    (time, stream index): the order of a stable sort of all packets listed stream after stream.
    Writes each packet's time and its stream's size, queue and flow."""
    i = 0
    j = 0
    n_a = a_arrival.shape[0]
    n_b = b_arrival.shape[0]
    inf = np.inf
    ta = a_arrival[0] if n_a > 0 else inf
    tb = b_arrival[0] if n_b > 0 else inf
    for n in range(out_arrival.shape[0]):
        if ta < tb or (ta == tb and (j >= n_b or (i < n_a and a_stream[i] < b_stream[j]))):
            s = a_stream[i]
            out_arrival[n] = ta
            i += 1
            ta = a_arrival[i] if i < n_a else inf
        else:
            s = b_stream[j]
            out_arrival[n] = tb
            j += 1
            tb = b_arrival[j] if j < n_b else inf
        out_size[n] = size[s]
        out_queue[n] = queue[s]
        out_flow[n] = flow[s]


_SIZE_TYPES = {c.__name__: c for c in (Deterministic, Uniform, Geometric, Empirical)}
_STREAM_TYPES = {c.__name__: c for c in (CBRStream, PoissonStream, TraceStream)}


def _kwargs_for(data, registry):
    kind = data.get("type") if isinstance(data, dict) else None
    if kind not in registry:
        raise ValueError(f"type must be one of {', '.join(map(repr, registry))}, got {kind!r}")
    return registry[kind], {k: v for k, v in data.items() if k != "type"}


def size_from_dict(data: dict) -> SizeDistribution:
    """Inverse of ``SizeDistribution.to_dict``."""
    cls, kwargs = _kwargs_for(data, _SIZE_TYPES)
    return cls(**kwargs)


def stream_from_dict(data: dict) -> Stream:
    """Inverse of ``Stream.to_dict``."""
    cls, kwargs = _kwargs_for(data, _STREAM_TYPES)
    if "size" in kwargs:
        kwargs["size"] = size_from_dict(kwargs["size"])
    return cls(**kwargs)
