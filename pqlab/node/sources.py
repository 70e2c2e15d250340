"""Traffic sources: the streams, each a size law turned into arrival times (seconds) and IP lengths
for one queue and flow.

:class:`CBRStream` (constant rate; the papers' EF reference stream is one of 128-byte packets at
300 kbit/s), :class:`PoissonStream` and :class:`TraceStream` (given arrays). Part of
:mod:`pqlab.traffic`, which re-exports every name and merges streams into one arrival array.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass

import numpy as np

from ..base._validate import check_array, check_choice, check_int, check_real
from .framing import MAX_SIZE_BYTES
from .markers import Marker, check_marker
from .model import RATE_RANGE_BPS
from .sizes import (
    SIZE_PER_CHOICES,
    Deterministic,
    PlainData,
    SizeDistribution,
    canonical_json,
    check_packet_count,
    check_rng,
    check_sorted,
    set_field,
)

#: Longest trace whose packets a scenario's JSON holds in full (:meth:`TraceStream.to_dict`): a
#: longer one is written as its digest and source (100,000 packets are 2.4 MB of JSON).
TRACE_JSON_MAX_PACKETS = 1000
#: Largest flow id and queue index, the largest int64 (a run's ``flow`` and ``queue`` are int64;
#: a scenario's queue indices are bounded by its node's queues).
MAX_FLOW_ID = MAX_QUEUE_INDEX = 2**63 - 1


# --------------------------------------------------------------------------- streams


class Stream(PlainData):
    """Base of the streams: packets of one flow into one queue of the node.

    Subclasses have integer fields ``queue`` (index into ``node.queues``, >= 0)
    and ``flow`` (flow id, >= 0), a field ``marker`` (None, or a :class:`~pqlab.SrTCM` or
    :class:`~pqlab.TrTCM` that colours the stream's packets before the node: node contract
    rule 1a) and a method :meth:`generate`.
    """

    marker: Marker | None = None

    def _check_ids(self):
        set_field(self, "queue", check_int("queue", self.queue, 0, MAX_QUEUE_INDEX))
        set_field(self, "flow", check_int("flow", self.flow, 0, MAX_FLOW_ID))
        check_marker(self.marker)

    def to_dict(self, encoded: dict | None = None) -> dict:
        """Plain-data form (see :meth:`pqlab.node.sizes.PlainData.to_dict`); ``marker`` only when
        set,
        so a stream without one has the JSON (and the cache keys and digests made of it) it had
        before markers existed."""
        out = super().to_dict(encoded)
        if out.get("marker") is None:
            out.pop("marker", None)
        return out

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
        return self._windows(check_rng(rng))

    def _windows(self, rng):  # pragma: no cover - overridden
        raise NotImplementedError


class _SizedStream(Stream):
    """Shared part of the rate-driven streams (:class:`CBRStream`, :class:`PoissonStream`).

    Fields ``rate_bps``, ``size``, ``queue``, ``flow``, ``header_bytes``,
    ``size_per`` and ``start_s``; subclasses implement ``_arrivals``.
    """

    # the fields of the subclasses (dataclasses), declared for type checkers
    rate_bps: float
    size: SizeDistribution
    header_bytes: int
    size_per: str
    start_s: float

    def _check_common(self):
        set_field(
            self,
            "rate_bps",
            check_real("rate_bps", self.rate_bps, 0.0, RATE_RANGE_BPS[1], strict_minimum=True),
        )
        if not isinstance(self.size, SizeDistribution):
            raise ValueError(
                "size must be a size distribution (Deterministic, Uniform, Geometric, Empirical), "
                f"got {type(self.size).__name__}"
            )
        self._check_ids()
        set_field(
            self,
            "header_bytes",
            check_int("header_bytes", self.header_bytes, 0, MAX_SIZE_BYTES - self.size.max_bytes),
        )
        check_choice("size_per", self.size_per, SIZE_PER_CHOICES)
        set_field(self, "start_s", check_real("start_s", self.start_s, 0.0))

    def expected_packets(self, duration_s: float) -> float:
        """The mean number of packets in ``[0, duration_s)`` (s): the rate over the mean IP
        length."""
        span_s = max(0.0, duration_s - float(self.start_s))
        return span_s * self.rate_bps / (8.0 * max(1.0, self._mean_ip_bytes))

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
        arrivals = self._arrival_windows(
            rng, self._mean_ip_bytes if fixed is None else float(fixed)
        )
        # Per-packet sizes come from the stream's own generator, seeded by one stream-level draw: a
        # stream's k-th size then does not depend on how many packets the other streams sent (common
        # random numbers across runs of different lengths, e.g. the aggregation sweep).
        size_rng = (
            None
            if fixed is not None or isinstance(self.size, Deterministic)
            else np.random.default_rng(int(rng.integers(0, 2**63 - 1)))
        )

        def sizes(n):
            if fixed is not None:
                return np.full(n, fixed, dtype=np.int64)
            return self.size.sample(size_rng, n) + self.header_bytes

        def window(t0_s, t1_s):
            arrival = arrivals(t0_s, t1_s)
            return arrival, sizes(arrival.shape[0])

        # For TrafficWindows' vectorised path: a periodic stream whose sizes draw nothing.
        if fixed is None and isinstance(self.size, Deterministic):
            fixed = self.size.size_bytes + self.header_bytes
        window.periodic = getattr(arrivals, "periodic", None)
        window.fixed_bytes = fixed
        window.sizes = sizes  # the sizes of the next n packets, as window() draws them
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
        Bit rate counted on IP lengths, bit/s, in (0, 1e12].
    size : SizeDistribution
        Packet (or UDP payload, see ``header_bytes``) sizes, bytes.
    queue : int
        Index into ``node.queues`` (>= 0).
    flow : int
        Flow id, in [0, 2**63 - 1].
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
    marker : SrTCM or TrTCM, optional
        Colours the stream's packets (node contract rule 1a); None (default): all green.
    """

    rate_bps: float
    size: SizeDistribution
    queue: int
    flow: int
    phase_s: float | None = None
    header_bytes: int = 0
    size_per: str = "packet"
    start_s: float = 0.0
    marker: Marker | None = None

    def __post_init__(self) -> None:
        self._check_common()
        if self.phase_s is not None:
            set_field(self, "phase_s", check_real("phase_s", self.phase_s, 0.0))
            if self.size_per == "packet":
                self._phase(None, self._interval_s(self._mean_ip_bytes))

    def _interval_s(self, ip_bytes: float) -> float:
        return ip_bytes * 8.0 / self.rate_bps

    def _phase(self, rng, interval_s: float) -> float:
        if self.phase_s is None:
            return interval_s * rng.random()
        if self.phase_s >= interval_s:
            raise ValueError(
                f"phase_s must be in [0, interval) = [0, {interval_s!r}) s, got {self.phase_s!r}"
            )
        return self.phase_s

    def _arrival_windows(self, rng, ip_bytes):
        interval = self._interval_s(ip_bytes)
        first = self.start_s + self._phase(rng, interval)

        def window(t0_s, t1_s):
            # packet k arrives at first + k * interval, computed the same way in every window
            k0 = max(0.0, math.floor((t0_s - first) / interval) - 1.0)
            k1 = max(k0, math.floor((t1_s - first) / interval) + 2.0)
            check_packet_count(k1 - k0)
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
    of :class:`CBRStream` (``marker`` included) without ``phase_s``.
    """

    rate_bps: float
    size: SizeDistribution
    queue: int
    flow: int
    header_bytes: int = 0
    size_per: str = "packet"
    start_s: float = 0.0
    marker: Marker | None = None

    def __post_init__(self) -> None:
        self._check_common()

    def _arrival_windows(self, rng, ip_bytes):
        def window(t0_s, t1_s):
            lo = max(t0_s, self.start_s)
            span_s = t1_s - lo
            if span_s <= 0:
                return np.empty(0, dtype=np.float64)
            expected = span_s * self.rate_bps / (8.0 * ip_bytes)
            check_packet_count(expected)
            # A Poisson process on [lo, t1_s): a Poisson number of points placed
            # uniformly, sorted (their gaps are i.i.d. exponential); windows are
            # independent, as the process's increments are.
            arrival = lo + np.sort(rng.uniform(0.0, span_s, rng.poisson(expected)))
            return arrival[arrival < t1_s]

        return window


@dataclass(frozen=True, eq=False)
class TraceStream(Stream):
    """Explicit packets (a trace): ``generate`` returns those arriving before ``duration_s``.

    The window rule: a run (:func:`pqlab.simulate`, :func:`pqlab.streaming.simulate_summary`)
    simulates the packets in its window ``[0, duration_s)`` (packets in the warm-up
    ``[0, warmup_s)`` are inside: they are simulated, not measured). Packets at or after
    ``duration_s`` (:meth:`outside`) are not simulated: if that is every packet of a non-empty
    trace the run is refused with a ``ValueError`` naming the stream, the window and the
    trace's time range (Unix times such as 1.7e9 s must be rebased, e.g.
    ``arrival_s - arrival_s[0]``); if it is some, a ``UserWarning`` says how many of how many,
    and the result's attribute ``trace_packets_outside_window`` holds the count per flow.

    Parameters
    ----------
    arrival_s : array_like of float
        Arrival times, seconds, finite, >= 0, non-decreasing.
    size_bytes : array_like of int
        IP lengths, bytes, in ``[1, 65535]``, one per arrival. For either, a numpy masked
        array with a masked entry is refused (drop the masked packets first).
    queue : int
        Index into ``node.queues`` (>= 0).
    flow : int
        Flow id, in [0, 2**63 - 1].
    marker : SrTCM or TrTCM, optional
        Colours the trace's packets (node contract rule 1a); None (default): all green.
    time_origin_s : float
        The absolute time of ``arrival_s = 0``, seconds (finite, >= 0; default 0: the times are
        the run's): a trace read from a file is rebased to its first packet
        (:func:`pqlab.traces.read_trace`), and this is that packet's Unix time, kept in the
        result's attribute ``trace_time_origin_s`` so absolute times can be recovered.
    source : dict, optional
        Where the packets were read from (``path``, ``format``, the reader's ``options`` and the
        flow's ``key`` in the file), written by :mod:`pqlab.traces`: a scenario recorded by its
        traces' digests (:meth:`to_dict`) is read back from there. None (default): built in memory.
    file_order : array_like of int, optional
        Each packet's position in its file (a table's row, a capture's record; >= 0), written by
        :mod:`pqlab.traces`: packets of several such streams of one file that arrive at the same
        time are merged in the file's order (:func:`file_order_window`), not stream after stream.
        None (default): ties keep stream order.

    JSON: :meth:`to_dict` writes the arrays in full for a trace of at most
    :data:`TRACE_JSON_MAX_PACKETS` packets; a longer one is written as its digest
    (:attr:`sha256`, ``packets``) and its ``source``, not copied into every result's
    ``scenario`` attribute (``to_dict(full=True)`` writes every packet).
    """

    arrival_s: np.ndarray
    size_bytes: np.ndarray
    queue: int
    flow: int
    marker: Marker | None = None
    time_origin_s: float = 0.0
    source: dict | None = None
    file_order: np.ndarray | None = None

    def __post_init__(self) -> None:
        arrival = check_array("arrival_s", self.arrival_s, kind="float", minimum=0.0)
        check_sorted("arrival_s", arrival)
        size = check_array(
            "size_bytes", self.size_bytes, kind="int", minimum=1, maximum=MAX_SIZE_BYTES
        )
        if size.shape != arrival.shape:
            raise ValueError(
                f"size_bytes must have one value per arrival ({arrival.size}), got {size.size}"
            )
        for name, arr in (("arrival_s", arrival), ("size_bytes", size)):
            arr.flags.writeable = False
            set_field(self, name, arr)
        self._check_ids()
        set_field(self, "time_origin_s", check_real("time_origin_s", self.time_origin_s, 0.0))
        if self.source is not None:
            if not isinstance(self.source, dict) or not isinstance(self.source.get("path"), str):
                raise ValueError(
                    "source must be None or a mapping with a path (as pqlab.traces writes it), "
                    f"got {self.source!r}"
                )
            set_field(self, "source", json.loads(canonical_json(self.source)))  # a plain-data copy
        if self.file_order is not None:
            order = check_array(
                "file_order", self.file_order, kind="int", minimum=0, length=arrival.shape[0]
            )
            order.flags.writeable = False
            set_field(self, "file_order", order)

    def __eq__(self, other):
        if type(other) is not TraceStream:
            return NotImplemented
        mine, theirs = self.file_order, other.file_order
        same_order = (mine is None and theirs is None) or (
            mine is not None and theirs is not None and np.array_equal(mine, theirs)
        )
        return (
            (self.queue, self.flow, self.marker, self.time_origin_s, self.source)
            == (other.queue, other.flow, other.marker, other.time_origin_s, other.source)
            and all(
                np.array_equal(getattr(self, a), getattr(other, a))
                for a in ("arrival_s", "size_bytes")
            )
            and same_order
        )

    @property
    def sha256(self) -> str:
        """SHA-256 (hex) of the packets: :func:`trace_sha256` of ``arrival_s``, ``size_bytes``,
        ``time_origin_s`` and ``file_order``."""
        digest = self.__dict__.get("_sha256")
        if digest is None:
            digest = trace_sha256(
                self.arrival_s, self.size_bytes, self.time_origin_s, self.file_order
            )
            self.__dict__["_sha256"] = digest
        return digest

    def to_dict(self, encoded: dict | None = None, *, full: bool = False) -> dict:
        """Plain-data form: the arrays in full for a trace of at most :data:`TRACE_JSON_MAX_PACKETS`
        packets or with ``full``, else ``packets`` and ``sha256`` in their place (read back from
        ``source`` by :func:`pqlab.traffic.stream_from_dict`); ``time_origin_s`` and ``source``
        only when set, so a trace built in memory has the JSON it had before they existed."""
        n = self.arrival_s.shape[0]
        if full or n <= TRACE_JSON_MAX_PACKETS:
            out = super().to_dict(encoded)
        else:  # the arrays are never listed (a list of 100,000 floats takes 0.1 s)
            out = {
                "type": type(self).__name__,
                "packets": int(n),
                "sha256": self.sha256,
                "queue": self.queue,
                "flow": self.flow,
                "time_origin_s": self.time_origin_s,
                "source": self.source,
            }
            if self.marker is not None:
                out["marker"] = self.marker.to_dict(encoded)
        if not self.time_origin_s:
            out.pop("time_origin_s")
        if self.source is None:
            out.pop("source")
        if self.file_order is None:
            out.pop("file_order", None)
        return out

    def expected_packets(self, duration_s: float) -> float:
        """The packets in ``[0, duration_s)`` (s): those a run of that window simulates."""
        return float(self.arrival_s.shape[0] - self.outside(duration_s))

    def outside(self, duration_s: float) -> int:
        """How many packets arrive at or after ``duration_s`` (s): outside a run's window
        ``[0, duration_s)``, as no arrival is before 0."""
        return int(
            self.arrival_s.shape[0] - np.searchsorted(self.arrival_s, duration_s, side="left")
        )

    def _windows(self, rng):
        def window(t0_s, t1_s):
            lo, hi = np.searchsorted(self.arrival_s, [t0_s, t1_s], side="left")
            return self.arrival_s[lo:hi].copy(), self.size_bytes[lo:hi].copy()

        return window


def trace_sha256(
    arrival_s: np.ndarray,
    size_bytes: np.ndarray,
    time_origin_s: float = 0.0,
    file_order: np.ndarray | None = None,
) -> str:
    """SHA-256 (hex) of a trace's packets: the packet count as a little-endian int64, the bytes of
    ``arrival_s`` as little-endian float64, of ``size_bytes`` as little-endian int64, then of
    ``time_origin_s`` as a little-endian float64 and, if given, of ``file_order`` as
    little-endian int64 (the same on every machine; the same file rewritten with other absolute
    times has another digest)."""
    digest = hashlib.sha256()
    digest.update(np.array([len(arrival_s)], dtype="<i8").tobytes())
    digest.update(np.ascontiguousarray(arrival_s, dtype="<f8").tobytes())
    digest.update(np.ascontiguousarray(size_bytes, dtype="<i8").tobytes())
    digest.update(np.array([time_origin_s], dtype="<f8").tobytes())
    if file_order is not None:
        digest.update(np.ascontiguousarray(file_order, dtype="<i8").tobytes())
    return digest.hexdigest()


def file_order_window(streams, t0_s: float, t1_s: float) -> np.ndarray | None:
    """The file positions (:attr:`TraceStream.file_order`) of the packets of ``streams`` in
    ``[t0_s, t1_s)``, stream after stream, if every stream is a trace of one file that has them,
    else None: a merge sorts by time, then by these (ties in the file's order)."""
    sources = {
        (
            None
            if not isinstance(s, TraceStream) or s.file_order is None or s.source is None
            else s.source["path"]
        )
        for s in streams
    }
    if len(streams) < 2 or len(sources) != 1 or None in sources:
        return None
    parts = []
    for s in streams:
        lo, hi = np.searchsorted(s.arrival_s, [t0_s, t1_s], side="left")
        parts.append(s.file_order[lo:hi])
    return np.concatenate(parts)


def expected_packets(streams, duration_s: float) -> int:
    """About how many packets ``streams`` generate in ``[0, duration_s)`` (s), before any is drawn
    (for a memory check): a rate-driven stream's rate over its mean IP length, a trace's length."""
    return int(
        sum(
            s.expected_packets(duration_s) + (2 if isinstance(s, _SizedStream) else 0)
            for s in streams
        )
    )
