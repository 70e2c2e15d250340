"""Colour markers on streams: RFC 2697's srTCM and RFC 2698's trTCM, colour-blind (node contract
rule 1a).

A marker sets each packet's colour (drop precedence: 0 green, 1 yellow, 2 red) from its stream's
arrival times and IP lengths, before the node, as ``docs/model.md`` rule 1a states:

* :class:`SrTCM` (``cir_bps``, ``cbs_bytes``, ``ebs_bytes``): buckets C and E, full at time 0; C
  refilled continuously at CIR up to CBS, its overflow into E up to EBS. A packet of ``size``
  bytes is green if C holds >= size (C -= size), else yellow if E holds >= size (E -= size),
  else red.
* :class:`TrTCM` (``cir_bps``, ``cbs_bytes``, ``pir_bps``, ``pbs_bytes``): buckets P (PIR, PBS)
  and C (CIR, CBS), full at 0, refilled continuously; red if P < size, else yellow if C < size
  (P -= size), else green (P -= size, C -= size).

Rates are bit/s (RFC 2697/2698 count bytes of IP packets per second: ``cir_bps / 8``), bursts
bytes. Each bucket is kept as the policer's (:mod:`pqlab.node.engine`, rule 1): an anchor (time,
tokens) plus the bytes taken since, so its value is computed with one rounding however long the
run, and a packet conforms if it would in exact arithmetic on arrival times perturbed by at most
``POLICE_RELATIVE_TOLERANCE * now`` (a stream at exactly the committed rate stays green). The
kernels are small pure numba functions; every check is made in Python before them.

:class:`FlowColours` colours the merged packets of a scenario's streams, flow by flow and, for a
class with a marker of its own (``Scenario.class_markers``), class by class, carrying each
marker's buckets from one window of packets to the next (a run cut into windows colours every
packet as one run does).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..base._validate import check_array, check_real
from ..base.jitcache import cached_njit
from .disciplines.admission import POLICE_REANCHOR_BYTES, POLICE_RELATIVE_TOLERANCE
from .framing import MAX_SIZE_BYTES
from .model import COLOURS, MAX_POLICE_BURST_BYTES, RATE_RANGE_BPS
from .sizes import PlainData, check_sorted

#: Colour codes of the ``colour`` variable (node contract rule 1a; its attributes:
#: :data:`pqlab.node.engine.COLOUR_ATTRS`).
GREEN, YELLOW, RED = range(len(COLOURS))  # indices of pqlab.node.model.COLOURS
#: The group of the packets no marker colours (they enter the node green, rule 1a, but are no
#: marked traffic) in counts by colour (:func:`pqlab.metrics.loss`, the streaming summary), and
#: each group's name.
UNMARKED = -1
COLOUR_NAMES = {UNMARKED: "unmarked", **{i: c for i, c in enumerate(COLOURS)}}


# --------------------------------------------------------------------------- kernels

# A bucket's state: 3 floats at offset k of a state array: anchor time (s), tokens at the anchor
# (bytes), bytes taken since the anchor (an exact integer sum).
_ANCHOR, _TOKENS, _TAKEN = 0, 1, 2


@cached_njit(nogil=True)
def _refill(state, k, now, rate_Bps, burst):
    """The bucket at ``state[k:k+3]`` at time ``now`` (s): returns ``(tokens, overflow)`` in bytes,
    ``tokens`` capped at ``burst`` and ``overflow`` what the cap cut off since the last update.
    Re-anchors the bucket (one rounding) when it is full or has counted many bytes."""
    t = state[k + _TOKENS] + (now - state[k + _ANCHOR]) * rate_Bps - state[k + _TAKEN]
    overflow = 0.0
    if t >= burst or state[k + _TAKEN] >= POLICE_REANCHOR_BYTES:
        if t > burst:
            overflow = t - burst
            t = burst
        state[k + _ANCHOR] = now
        state[k + _TOKENS] = t
        state[k + _TAKEN] = 0.0
    return t, overflow


@cached_njit(nogil=True)
def _slack(state, k, now, rate_Bps, burst):
    """Tolerance of the test ``tokens >= size`` of the bucket at ``state[k:k+3]``, bytes (as rule
    1's)."""
    return POLICE_RELATIVE_TOLERANCE * (abs(now) * rate_Bps + burst + state[k + _TAKEN])


@cached_njit(nogil=True)
def _srtcm_kernel(arrival_s, size_bytes, cir_Bps, cbs, ebs, state, out):
    """RFC 2697 colour-blind: ``state`` = C's bucket (3 floats), then E's tokens; updated in
    place."""
    for i in range(arrival_s.shape[0]):
        now = arrival_s[i]
        size = size_bytes[i]
        c, overflow = _refill(state, 0, now, cir_Bps, cbs)
        e = min(ebs, state[3] + overflow)  # C's overflow goes to E
        slack = _slack(state, 0, now, cir_Bps, cbs) + POLICE_RELATIVE_TOLERANCE * ebs
        if c + slack >= size:
            out[i] = GREEN
            state[_TAKEN] += size
        elif e + slack >= size:
            out[i] = YELLOW
            e -= size
        else:
            out[i] = RED
        state[3] = e


@cached_njit(nogil=True)
def _trtcm_kernel(arrival_s, size_bytes, cir_Bps, cbs, pir_Bps, pbs, state, out):
    """RFC 2698 colour-blind: ``state`` = P's bucket, then C's (3 floats each); updated in place."""
    for i in range(arrival_s.shape[0]):
        now = arrival_s[i]
        size = size_bytes[i]
        p, _ = _refill(state, 0, now, pir_Bps, pbs)
        c, _ = _refill(state, 3, now, cir_Bps, cbs)
        if p + _slack(state, 0, now, pir_Bps, pbs) < size:
            out[i] = RED
        elif c + _slack(state, 3, now, cir_Bps, cbs) < size:
            out[i] = YELLOW
            state[_TAKEN] += size
        else:
            out[i] = GREEN
            state[_TAKEN] += size
            state[3 + _TAKEN] += size


# --------------------------------------------------------------------------- markers


def _check_burst(name: str, value, *, zero_allowed: bool = False) -> float:
    return check_real(name, value, 0.0, MAX_POLICE_BURST_BYTES, strict_minimum=not zero_allowed)


class Marker(PlainData):
    """Base of the colour markers (RFC 2697, 2698): :meth:`colour` of a stream's packets."""

    def colour(self, arrival_s, size_bytes) -> np.ndarray:
        """The colour of each packet of one stream, its buckets full at time 0.

        Parameters
        ----------
        arrival_s : array_like of float
            Arrival times, seconds, finite, >= 0, non-decreasing (the stream's order).
        size_bytes : array_like of int
            IP lengths, bytes, in ``[1, 65535]``, one per arrival.

        Returns
        -------
        numpy.ndarray of int8
            0 green, 1 yellow, 2 red.

        Raises
        ------
        ValueError
            Naming ``arrival_s`` or ``size_bytes`` and what is wrong.
        """
        arrival = check_array("arrival_s", arrival_s, kind="float", minimum=0.0)
        check_sorted("arrival_s", arrival)
        size = check_array(
            "size_bytes",
            size_bytes,
            kind="int",
            minimum=1,
            maximum=MAX_SIZE_BYTES,
            length=arrival.shape[0],
        )
        return self._advance(self._full_buckets(), arrival, size)

    def _full_buckets(self) -> np.ndarray:  # pragma: no cover - overridden
        raise NotImplementedError

    def _advance(self, state, arrival, size) -> np.ndarray:  # pragma: no cover - overridden
        raise NotImplementedError


@dataclass(frozen=True)
class SrTCM(Marker):
    """RFC 2697's single-rate three-colour marker, colour-blind (node contract rule 1a).

    Parameters
    ----------
    cir_bps : float
        Committed information rate, bit/s of IP bytes, in [1, 1e12].
    cbs_bytes : float
        Committed burst size (bucket C), bytes, in [0, 1e12].
    ebs_bytes : float
        Excess burst size (bucket E), bytes, in [0, 1e12]. RFC 2697 Sec. 2: "The CBS and EBS
        must be configured so that at least one of them is larger than 0" (and should be at
        least the largest packet when larger than 0).
    """

    cir_bps: float
    cbs_bytes: float
    ebs_bytes: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "cir_bps", check_real("cir_bps", self.cir_bps, *RATE_RANGE_BPS))
        object.__setattr__(
            self, "cbs_bytes", _check_burst("cbs_bytes", self.cbs_bytes, zero_allowed=True)
        )
        object.__setattr__(
            self, "ebs_bytes", _check_burst("ebs_bytes", self.ebs_bytes, zero_allowed=True)
        )
        if self.cbs_bytes == 0.0 and self.ebs_bytes == 0.0:
            raise ValueError(
                "cbs_bytes and ebs_bytes must not both be 0 (RFC 2697: at least one of them is"
                " larger than 0), got cbs_bytes 0 and ebs_bytes 0"
            )

    def _full_buckets(self) -> np.ndarray:
        return np.array([0.0, self.cbs_bytes, 0.0, self.ebs_bytes])

    def _advance(self, state, arrival, size) -> np.ndarray:
        out = np.empty(arrival.shape[0], dtype=np.int8)
        _srtcm_kernel(arrival, size, self.cir_bps / 8.0, self.cbs_bytes, self.ebs_bytes, state, out)
        return out


@dataclass(frozen=True)
class TrTCM(Marker):
    """RFC 2698's two-rate three-colour marker, colour-blind (node contract rule 1a).

    Parameters
    ----------
    cir_bps : float
        Committed information rate, bit/s of IP bytes, in [1, 1e12].
    cbs_bytes : float
        Committed burst size (bucket C), bytes, in (0, 1e12].
    pir_bps : float
        Peak information rate, bit/s, in [1, 1e12] and >= ``cir_bps`` (RFC 2698 Sec. 2: "The
        PIR must be equal to or greater than the CIR").
    pbs_bytes : float
        Peak burst size (bucket P), bytes, in (0, 1e12] (RFC 2698: both bursts larger than 0).
    """

    cir_bps: float
    cbs_bytes: float
    pir_bps: float
    pbs_bytes: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "cir_bps", check_real("cir_bps", self.cir_bps, *RATE_RANGE_BPS))
        object.__setattr__(self, "cbs_bytes", _check_burst("cbs_bytes", self.cbs_bytes))
        object.__setattr__(self, "pir_bps", check_real("pir_bps", self.pir_bps, *RATE_RANGE_BPS))
        object.__setattr__(self, "pbs_bytes", _check_burst("pbs_bytes", self.pbs_bytes))
        if self.pir_bps < self.cir_bps:
            raise ValueError(
                f"pir_bps must be >= cir_bps = {self.cir_bps!r} bit/s (RFC 2698: the PIR must be"
                f" equal to or greater than the CIR), got {self.pir_bps!r}"
            )

    def _full_buckets(self) -> np.ndarray:
        return np.array([0.0, self.pbs_bytes, 0.0, 0.0, self.cbs_bytes, 0.0])

    def _advance(self, state, arrival, size) -> np.ndarray:
        out = np.empty(arrival.shape[0], dtype=np.int8)
        _trtcm_kernel(
            arrival,
            size,
            self.cir_bps / 8.0,
            self.cbs_bytes,
            self.pir_bps / 8.0,
            self.pbs_bytes,
            state,
            out,
        )
        return out


MARKER_TYPES = (SrTCM, TrTCM)


def check_marker(marker):
    """Return ``marker`` if it is None or a marker (:class:`SrTCM`, :class:`TrTCM`)."""
    if marker is not None and not isinstance(marker, Marker):
        raise ValueError(
            f"marker must be None, a pqlab.SrTCM or a pqlab.TrTCM, got {type(marker).__name__}"
        )
    return marker


class FlowColours:
    """The colours of a scenario's merged packets, stream by stream and class by class, window
    after window.

    Each stream with a marker colours its own packets in its arrival order; each class (queue)
    with a marker of its own (``Scenario.class_markers``) colours the packets of all its streams
    together, in the order they reach the node; other packets are green (node contract rule 1a).
    The markers' buckets are carried from one call to the next, so consecutive windows of packets
    get the colours one call on all of them gives (bit for bit: the kernels update their state
    packet by packet, whatever the batches).

    Parameters
    ----------
    streams : sequence of Stream
        The streams (each with ``flow`` and ``marker``).
    class_markers : sequence of (int, Marker)
        ``(queue index, marker)`` pairs (a scenario's ``class_markers``); no stream of a class
        in it has a marker of its own (:class:`pqlab.Scenario` checks).
    """

    def __init__(self, streams, class_markers=()):
        self._marked = [
            ("flow", s.flow, s.marker, s.marker._full_buckets())
            for s in streams
            if getattr(s, "marker", None) is not None
        ]
        self._marked += [("queue", q, m, m._full_buckets()) for q, m in class_markers]
        self._last_s = -np.inf

    @property
    def active(self) -> bool:
        """Whether any stream or class has a marker (else :meth:`colour` returns None)."""
        return bool(self._marked)

    def colour(
        self,
        arrival_s: np.ndarray,
        size_bytes: np.ndarray,
        flow: np.ndarray,
        queue: np.ndarray | None = None,
    ) -> np.ndarray | None:
        """Colours (int8: 0 green, 1 yellow, 2 red) of the next packets, merged by time (validated
        arrays, one element per packet, none earlier than the previous call's; ``queue`` needed
        when a class has a marker), or None if no stream or class has a marker."""
        return self.colour_marked(arrival_s, size_bytes, flow, queue)[0]

    def colour_marked(
        self,
        arrival_s: np.ndarray,
        size_bytes: np.ndarray,
        flow: np.ndarray,
        queue: np.ndarray | None = None,
    ) -> tuple:
        """:meth:`colour` and whether a marker coloured each packet (bool; the others are
        green), or ``(None, None)`` if no stream or class has a marker."""
        if not self._marked:
            return None, None
        if arrival_s.shape[0] and arrival_s[0] < self._last_s:
            raise ValueError(
                f"arrival_s must not precede the previous window's last arrival {self._last_s!r}, "
                f"got {arrival_s[0]!r}"
            )
        out = np.zeros(arrival_s.shape[0], dtype=np.int8)
        marked = np.zeros(arrival_s.shape[0], dtype=bool)
        for by, key, marker, state in self._marked:
            if by == "queue" and queue is None:
                raise ValueError(f"queue must be given: class {key} has a marker")
            mine = np.flatnonzero((flow if by == "flow" else queue) == key)
            if mine.size:
                marked[mine] = True
                out[mine] = marker._advance(
                    state,
                    np.ascontiguousarray(arrival_s[mine], dtype=np.float64),
                    np.ascontiguousarray(size_bytes[mine], dtype=np.int64),
                )
        if arrival_s.shape[0]:
            self._last_s = float(arrival_s[-1])
        return out, marked
