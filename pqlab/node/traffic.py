"""Traffic: packet size distributions and streams turned into sorted arrival arrays.

A *size distribution* draws IP payload or packet lengths (bytes); a *stream*
turns one into arrival times (seconds) and IP lengths for one queue and flow.
Everything is vectorised with numpy and all randomness comes from a
``numpy.random.Generator`` passed in, so a seed fixes every array. Three modules, one job each:
:mod:`pqlab.node.sizes` (the size laws), :mod:`pqlab.node.sources` (the streams) and this one
(streams merged into one sorted arrival array, per window for long runs, and the scenario's
dicts), which re-exports the other two: ``pqlab.traffic`` is the public module.

The papers' EF reference stream is a :class:`CBRStream` of 128-byte packets at
300 kbit/s; their best-effort (BE) streams are constant-rate UDP streams whose
single packet size is drawn from a distribution (``size_per="stream"``), with
the UDP/IP header (:data:`UDP_IP_HEADER_BYTES`) added to the drawn payload.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np

from ..base._validate import check_fields, check_mapping, check_real, from_part
from ..base.jitcache import cached_njit
from .markers import Marker, SrTCM, TrTCM  # noqa: F401  (re-exported)
from .sizes import (  # noqa: F401  (re-exported: pqlab.traffic's public names)
    CDF_TOLERANCE,
    MAX_STREAM_PACKETS,
    MIN_GEOMETRIC_ACCEPTANCE,
    SIZE_PER_CHOICES,
    UDP_IP_HEADER_BYTES,
    Deterministic,
    Empirical,
    Geometric,
    SizeDistribution,
    Uniform,
    canonical_json,
    check_packet_count,
    check_rng,
    plain_json,
)
from .sources import (  # noqa: F401  (re-exported)
    TRACE_JSON_MAX_PACKETS,
    CBRStream,
    PoissonStream,
    Stream,
    TraceStream,
    file_order_window,
)
from .traces import from_digest, read_trace  # noqa: F401  (read_trace re-exported)

# --------------------------------------------------------------------------- merge, dicts


def check_streams(streams: Sequence[Stream]) -> tuple:
    """Return ``streams`` as a tuple after checking it is a list or tuple of :class:`Stream` with
    distinct flow ids."""
    if not isinstance(streams, (list, tuple)):
        raise ValueError(
            f"streams must be a list or tuple of streams, got {type(streams).__name__}"
        )
    for i, stream in enumerate(streams):
        if not isinstance(stream, Stream):
            raise ValueError(
                f"streams[{i}] must be a stream (CBRStream, PoissonStream, TraceStream), "
                f"got {type(stream).__name__}"
            )
    first: dict[int, int] = {}
    for i, stream in enumerate(streams):
        if stream.flow in first:
            raise ValueError(
                f"streams[{i}].flow must differ from every other stream's flow id (flows identify"
                f" streams in the results), got {stream.flow}, already used by"
                f" streams[{first[stream.flow]}]"
            )
        first[stream.flow] = i
    return tuple(streams)


def fixed_cbr_schedule(
    streams: Sequence[Stream], rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """``(first_s, interval_s, size_bytes)`` arrays of streams that are all :class:`CBRStream` of a
    :class:`Deterministic` size, else None (nothing drawn).

    The set-up of every stream's own :meth:`CBRStream.windows` done for all streams at once: the
    interval is ``ip_bytes * 8 / rate_bps`` with ``ip_bytes = size_bytes + header_bytes``, and the
    phase of each stream without ``phase_s`` is ``interval * u`` with ``u`` drawn from ``rng`` in
    stream order (``rng.random(m)`` draws the same numbers as ``m`` calls of ``rng.random()``), so
    first arrivals and the generator's state equal the per-stream set-up's bit for bit (tested).
    """
    setup = _cbr_setup(streams)
    if setup is None:
        return None
    interval, drawn, given, start, ip_bytes = setup
    if not given.size:  # every phase drawn
        phase = interval * rng.random(interval.shape[0])
    else:
        phase = np.empty(interval.shape[0])
        phase[drawn] = interval[drawn] * rng.random(int(drawn.sum()))
        for i in given:  # a given phase: checked against the interval as the stream does
            stream = streams[int(i)]
            phase[i] = stream._phase(None, float(interval[i]))  # type: ignore[attr-defined]
    return start + phase, interval.copy(), ip_bytes.copy()


#: The streams of the last :func:`_cbr_setup` call and its arrays (a sweep's seeds, or many phase
#: draws, set up the same stream objects again and again).
_LAST_SETUP: list = [((), None)]


def _cbr_setup(streams: Sequence[Stream]) -> tuple | None:
    """The draw-free part of :func:`fixed_cbr_schedule`: ``(interval_s, drawn, given, start_s,
    ip_bytes)`` (float, bool, int64, float, int64 arrays; ``drawn``: the phase is drawn; ``given``:
    the indices of the streams whose phase is given), or None if a stream is not a
    :class:`CBRStream` of a :class:`Deterministic` size. Kept for the last streams seen: the
    streams are frozen, so the same objects give the same arrays (the caller gets copies)."""
    last, setup = _LAST_SETUP[0]
    if len(last) == len(streams) and all(a is b for a, b in zip(last, streams)):
        return setup
    fixed_cbr = all(type(s) is CBRStream and type(s.size) is Deterministic for s in streams)
    if not streams or not fixed_cbr:
        setup = None
    else:
        cbr = cast(list[CBRStream], list(streams))  # every one a CBRStream of a Deterministic size
        ip_bytes = np.array(
            [cast(Deterministic, s.size).size_bytes + s.header_bytes for s in cbr], dtype=np.float64
        )
        interval = ip_bytes * 8.0 / np.array([s.rate_bps for s in cbr], dtype=np.float64)
        drawn = np.array([s.phase_s is None for s in cbr])
        setup = (
            interval,
            drawn,
            np.flatnonzero(~drawn),
            np.array([s.start_s for s in cbr], dtype=np.float64),
            ip_bytes.astype(np.int64),
        )
    _LAST_SETUP[0] = (tuple(streams), setup)
    return setup


def merge_streams(
    streams: Sequence[Stream], rng: np.random.Generator, duration_s: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
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
        True (default): periodic streams (the papers' CBR presets) are set up and generated for all
        streams at once, their sizes fixed or drawn per packet from each stream's own generator,
        bit-identical to each stream's own windows. False:
        every stream generates its own windows (the reference the vectorised path is tested
        against).
    """

    def __init__(self, streams, rng: np.random.Generator, *, vectorised: bool = True):
        self.streams = check_streams(streams)
        rng = check_rng(rng)
        self._queues = np.array([s.queue for s in self.streams], dtype=np.int64)
        self._flows = np.array([s.flow for s in self.streams], dtype=np.int64)
        self._periodic: tuple[np.ndarray, np.ndarray, np.ndarray | None] | None = (
            fixed_cbr_schedule(self.streams, rng) if vectorised else None
        )
        self._windows = None
        self._sizers: list = []
        if self._periodic is None:
            self._windows = [s.windows(rng) for s in self.streams]
            # Every stream periodic: all streams' arrivals in one vectorised pass, the same
            # floating-point operations as each stream's own window; sizes fixed per stream, or
            # drawn per packet by each stream's own generator (``sizes``, as its window draws them).
            periodic = [getattr(w, "periodic", None) for w in self._windows]
            fixed = [getattr(w, "fixed_bytes", None) for w in self._windows]
            if vectorised and self.streams and all(p is not None for p in periodic):
                first, interval = np.ascontiguousarray(np.array(periodic, dtype=np.float64).T)
                if all(f is not None for f in fixed):
                    self._periodic = (first, interval, np.array(fixed, dtype=np.int64))
                else:
                    self._periodic = (first, interval, None)
                    self._sizers = [w.sizes for w in self._windows]
        if self._periodic is not None:
            self._round_robin_group, self._others = _round_robin_group(*self._periodic[:2])

    def window(
        self, t0_s: float, t1_s: float
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Packets of every stream arriving in ``[t0_s, t1_s)``, merged by time (stable: ties in
        stream order).

        Returns
        -------
        arrival_s, size_bytes, queue, flow : numpy.ndarray
        """
        if not self.streams:
            return (
                np.empty(0, np.float64),
                np.empty(0, np.int64),
                np.empty(0, np.int64),
                np.empty(0, np.int64),
            )
        if self._periodic is not None:
            return self._periodic_window(t0_s, t1_s)
        arrivals, sizes = zip(*(window(t0_s, t1_s) for window in self._windows or ()))
        counts = [a.shape[0] for a in arrivals]
        arrival = np.concatenate(arrivals)
        rows = file_order_window(self.streams, t0_s, t1_s)  # traces of one file: its order
        order = np.argsort(arrival, kind="stable") if rows is None else np.lexsort((rows, arrival))
        return (
            arrival[order],
            np.concatenate(sizes)[order],
            np.repeat(self._queues, counts)[order],
            np.repeat(self._flows, counts)[order],
        )

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
        first, interval, fixed = self._periodic  # type: ignore[misc]  # set: window() calls this only then
        k0, k1 = np.empty_like(first), np.empty_like(first)
        most = _periodic_extent(first, interval, float(t0_s), float(t1_s), k0, k1)
        check_packet_count(most)
        cap = int(np.sum(k1 - k0))
        arrival, stream = np.empty(cap), np.empty(cap, dtype=np.int64)
        starts, k_first = (
            np.empty(first.shape[0] + 1, dtype=np.int64),
            np.empty(first.shape[0], dtype=np.int64),
        )
        n = _periodic_arrivals(
            first, interval, k0, k1, float(t0_s), float(t1_s), arrival, stream, starts, k_first
        )
        group, rest = self._round_robin_group, self._others
        counts = starts[1:] - starts[:-1]
        if fixed is not None:  # a size per stream
            size = fixed
        else:  # a size per packet: each stream's from its own generator, in its packets' order
            size = np.concatenate([sizer(int(c)) for sizer, c in zip(self._sizers, counts)])
        # a packet's position: its index in the stream-after-stream arrays
        run_size = int(counts[group].sum())
        run_arrival, run_position = np.empty(run_size), np.empty(run_size, dtype=np.int64)
        if (
            group.shape[0] < 2
            or _round_robin_run(arrival, starts, k_first, group, run_arrival, run_position) < 0
        ):
            group = np.array([np.argmax(counts)], dtype=np.int64)
            rest = np.flatnonzero(np.arange(first.shape[0]) != group[0])
            run_arrival = arrival[starts[group[0]] : starts[group[0] + 1]]
            run_position = np.arange(starts[group[0]], starts[group[0] + 1])
        if rest.size == 1:  # one stream: already in time order
            other_arrival = arrival[starts[rest[0]] : starts[rest[0] + 1]]
            other_position = np.arange(starts[rest[0]], starts[rest[0] + 1])
        else:  # numpy's stable sort merges the streams' sorted runs
            others = (
                np.concatenate([np.arange(starts[i], starts[i + 1]) for i in rest])
                if rest.size
                else starts[:0]
            )
            other_position = others[np.argsort(arrival[others], kind="stable")]
            other_arrival = arrival[other_position]
        out = (
            np.empty(n),
            np.empty(n, dtype=np.int64),
            np.empty(n, dtype=np.int64),
            np.empty(n, dtype=np.int64),
        )
        _merge_runs(
            run_arrival,
            run_position,
            other_arrival,
            other_position,
            size,
            fixed is not None,
            stream,
            self._queues,
            self._flows,
            *out,
        )
        return out


@cached_njit(nogil=True)
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
        if (
            len(members) > 1
            and members[-1][0] - members[0][0] < step
            and len(members) / step > best_rate
        ):
            best, best_rate = members, len(members) / step
    cycle = {i for _, i in best}
    return (
        np.array([i for _, i in best], dtype=np.int64),
        np.array([i for i in range(first.shape[0]) if i not in cycle], dtype=np.int64),
    )


@cached_njit(nogil=True)
def _periodic_arrivals(
    first, interval, k0, k1, t0_s, t1_s, out_arrival, out_stream, out_starts, out_k_first
):
    """Arrivals ``first[i] + interval[i] * k`` for ``k0[i] <= k < k1[i]`` that fall in ``[t0_s,
    t1_s)``,
    stream after stream (each in time order), with their stream index; stream ``i``'s packets are
    ``out_starts[i]:out_starts[i + 1]``, the first of them packet ``out_k_first[i]``. Returns how
    many.
    """
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


@cached_njit(nogil=True)
def _round_robin_run(arrival, starts, k_first, group, out_arrival, out_position):
    """The ``group``'s packets in cycle order (packet ``k`` of every stream of the group, in the
    group's order, then packet ``k + 1``...), checking that each is later than the one before, or
    at the same time and of a higher stream index: their times and positions in ``arrival``.
    Returns how many, or -1 if the check fails."""
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
                out_position[n] = starts[s] + j
                prev_t = t
                prev_s = s
                n += 1
    return n


@cached_njit(nogil=True)
def _merge_runs(
    a_arrival,
    a_position,
    b_arrival,
    b_position,
    size,
    size_per_stream,
    stream,
    queue,
    flow,
    out_arrival,
    out_size,
    out_queue,
    out_flow,
):
    """Merge two runs of packets (times and positions in the stream-after-stream listing, whose
    ``stream`` is given), each sorted by (time, position), by (time, position): the order of a
    stable sort of all packets listed stream after stream (a stream lies in one run, so at a tie
    across runs the lower position is the lower stream index). Writes each packet's time, size
    (``size[stream]`` if ``size_per_stream``, else ``size[position]``) and its stream's queue and
    flow."""
    i = 0
    j = 0
    n_a = a_arrival.shape[0]
    n_b = b_arrival.shape[0]
    inf = np.inf
    ta = a_arrival[0] if n_a > 0 else inf
    tb = b_arrival[0] if n_b > 0 else inf
    for n in range(out_arrival.shape[0]):
        if ta < tb or (ta == tb and (j >= n_b or (i < n_a and a_position[i] < b_position[j]))):
            p = a_position[i]
            out_arrival[n] = ta
            i += 1
            ta = a_arrival[i] if i < n_a else inf
        else:
            p = b_position[j]
            out_arrival[n] = tb
            j += 1
            tb = b_arrival[j] if j < n_b else inf
        s = stream[p]
        out_size[n] = size[s] if size_per_stream else size[p]
        out_queue[n] = queue[s]
        out_flow[n] = flow[s]


_SIZE_TYPES = {c.__name__: c for c in (Deterministic, Uniform, Geometric, Empirical)}
_STREAM_TYPES = {c.__name__: c for c in (CBRStream, PoissonStream, TraceStream)}
_MARKER_TYPES = {c.__name__: c for c in (SrTCM, TrTCM)}


def _kwargs_for(name, data, registry):
    data = check_mapping(name, data)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in registry:
        raise ValueError(f"type must be one of {', '.join(map(repr, registry))}, got {kind!r}")
    cls = registry[kind]
    return cls, check_fields(cls, {k: v for k, v in data.items() if k != "type"})


def size_from_dict(data: dict) -> SizeDistribution:
    """Inverse of ``SizeDistribution.to_dict``.

    Raises
    ------
    ValueError
        Naming ``size`` if ``data`` is not a mapping, else ``type`` or the field that is unknown,
        missing or wrong.
    """
    cls, kwargs = _kwargs_for("size", data, _SIZE_TYPES)
    return cls(**kwargs)


def marker_from_dict(data: dict) -> Marker:
    """Inverse of ``SrTCM.to_dict`` / ``TrTCM.to_dict``.

    Raises
    ------
    ValueError
        Naming ``marker`` if ``data`` is not a mapping, else ``type`` or the field that is
        unknown, missing or wrong.
    """
    cls, kwargs = _kwargs_for("marker", data, _MARKER_TYPES)
    return cls(**kwargs)


def stream_from_dict(data: dict) -> Stream:
    """Inverse of ``Stream.to_dict``.

    A :class:`TraceStream` written by its digest (``packets``, ``sha256``) is read back from its
    ``source`` file (:func:`pqlab.node.traces.from_digest`).

    Raises
    ------
    ValueError
        Naming ``stream`` if ``data`` is not a mapping, else ``type``, ``size``, ``marker`` or the
        field that is unknown, missing or wrong; a trace written by its digest that cannot be read
        back (no source, the file missing or changed).
    """
    if (
        isinstance(data, dict) and data.get("type") == "TraceStream" and "sha256" in data
    ):  # written by its digest
        marker = data.get("marker")
        marker = from_part("marker", marker_from_dict, marker) if marker is not None else None
        check_fields(
            TraceStream,
            {k: v for k, v in data.items() if k not in ("type", "sha256", "packets")},
            required=False,
        )
        return from_digest(data, marker)
    cls, kwargs = _kwargs_for("stream", data, _STREAM_TYPES)
    if "size" in kwargs:
        kwargs["size"] = from_part("size", size_from_dict, kwargs["size"])
    if kwargs.get("marker") is not None:
        kwargs["marker"] = from_part("marker", marker_from_dict, kwargs["marker"])
    return cls(**kwargs)
