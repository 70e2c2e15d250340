"""The node contract as a program: an exact, deliberately naive reference of ``docs/model.md``.

Every rule of the node contract (rules 1-5, 5', 5'' and the DiffServ toolbox 1a-3e) is written out
here once more, independently of the kernel (:mod:`pqlab.node.engine`: only its drop codes are
shared, and only :func:`first_mismatch` runs it): an event loop over Python lists in which every
time, token count and WFQ finish tag is a :class:`fractions.Fraction`, so a tie is a tie exactly
and nothing rounds. It is the
contract a reader can execute, and what the kernel is tested against on hand and random traces
(``tests/test_disciplines_traces.py``).

One quantity is deliberately *not* exact: RED's average queue (rule 2a) is computed in float64
with the contract's expression ``(1 - w) * avg + w * n``, so that its decisions match the
kernel's bit for bit (the average is an estimator, not a quantity the contract defines beyond
that expression); the comparisons with the thresholds and the drop probability are then exact.

Events, as rules 3d and 5 order them: ring releases first, then arrivals in input order, then a
shaper's wake-up; the scheduler (rule 3) runs after each release, each admitted arrival and each
wake-up. A dropped packet changes no queue, so it runs nothing.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .engine import EARLY_DROP, KEPT, POLICED, QUEUE_FULL, run_kernel, validate_arrivals
from .framing import (
    AAL5_OVERHEAD_BYTES,
    ATM_CELL_BYTES,
    ATM_CELL_PAYLOAD_BYTES,
    ETHERNET_OVERHEAD_BYTES,
)


def line_bytes(size: int, framing: str) -> int:
    """Rule 4: the bytes a packet of ``size`` IP bytes occupies on the line (written out anew)."""
    if framing == "atm-aal5":
        return ATM_CELL_BYTES * -(-(size + AAL5_OVERHEAD_BYTES) // ATM_CELL_PAYLOAD_BYTES)
    if framing == "ethernet":
        return size + ETHERNET_OVERHEAD_BYTES
    return size


class _Bucket:
    """A token bucket of ``rate`` bytes/s and depth ``depth`` bytes, full at time 0 (rules 1,
    3d)."""

    def __init__(self, rate_bps: float, depth_bytes: float):
        self.rate = Fraction(rate_bps) / 8
        self.depth = Fraction(depth_bytes)
        self.t, self.tokens = Fraction(0), self.depth

    def at(self, now: Fraction) -> Fraction:
        return min(self.depth, self.tokens + (now - self.t) * self.rate)

    def holds_at(self, size: int) -> Fraction:
        """Rule 3d: the first instant the bucket holds ``size`` bytes, ``t0 + (size - tokens0) /
        rate``."""
        return self.t + (size - self.tokens) / self.rate

    def take(self, now: Fraction, size: int) -> None:
        self.t, self.tokens = now, self.at(now) - size


class _Reference:
    """The node's state while the reference runs: queues, schedulers, ring and line."""

    def __init__(self, node):
        self.node = node
        self.qs = node.queues
        n_q = len(self.qs)
        self.waiting = [[] for _ in range(n_q)]  # per queue: [packet index, size, tag]
        self.bytes_waiting = [0] * n_q
        self.police = [
            _Bucket(q.police_rate_bps, q.police_burst_bytes) if q.policed else None for q in self.qs
        ]
        self.shaper = [
            _Bucket(q.shape_rate_bps, q.shape_burst_bytes) if q.shaped else None for q in self.qs
        ]
        self.avg = [0.0] * n_q  # RED's average queue, float64 (rule 2a)
        self.v, self.f_last = (
            Fraction(0),
            [Fraction(0)] * n_q,
        )  # SCFQ virtual time and last tags (rule 2)
        self.active, self.deficit, self.in_turn = [], [0] * n_q, [False] * n_q  # DRR (rule 3b)
        self.wrr = [j for j, q in enumerate(self.qs) if q.kind == "wrr"]
        self.wrr_turn, self.wrr_sent = (
            0,
            0,
        )  # WRR (rule 3c): position in self.wrr, packets sent this turn
        self.levels = sorted({q.level for q in self.qs if q.kind == "priority"})
        # [packet index, units, size, line start, departure, units returned, ring entry]
        self.ring = []
        # rule 5'': departures of the packets in the adapter (left the ring, not departed)
        self.adapter = []
        self.left_ring = Fraction(0)  # rule 5'': when the last of them left the ring
        self.used = self.ring_bytes = 0
        self.line_free = Fraction(0)
        self.line_rate = Fraction(node.line_rate_bps)

    # ------------------------------------------------------------------ arrival (rules 1, 2, 2a,
    # 2b)

    def counted(self, size: int) -> int:
        """The bytes the fair schedulers count (``Node.wfq_bytes``): IP length or wire bytes."""
        return line_bytes(size, self.node.framing) if self.node.wfq_bytes == "wire" else size

    def admit(self, k: int, now: Fraction, size: int, j: int, colour: int, uniform) -> int:
        """Rules 1, 2a, 2 and 2b for packet ``k``; return its drop code (the packet waits if
        KEPT)."""
        q = self.qs[j]
        bucket = self.police[j]
        if bucket is not None:  # rule 1: exact token bucket
            bucket.t, bucket.tokens = now, bucket.at(now)
            if bucket.tokens < size:
                return POLICED
            bucket.tokens -= size
        if q.red:  # rule 2a: the float64 EWMA, then exact comparisons
            w = q.red_weight
            avg = self.avg[j] = (1 - w) * self.avg[j] + w * len(self.waiting[j])
            low, high, max_p = (
                q.red_min_packets[colour],
                q.red_max_packets[colour],
                q.red_max_p[colour],
            )
            if avg >= high or (
                avg >= low
                and Fraction(uniform)
                < Fraction(max_p)
                * (Fraction(avg) - Fraction(low))
                / (Fraction(high) - Fraction(low))
            ):
                return EARLY_DROP
        if (q.limit_packets is not None and len(self.waiting[j]) >= q.limit_packets) or (  # rule 2
            q.limit_bytes is not None and self.bytes_waiting[j] + size > q.limit_bytes
        ):  # rule 2b
            return QUEUE_FULL
        tag = None
        if q.kind == "wfq":  # rule 2: F = max(V, F_last) + size * 8 / weight, exact
            tag = self.f_last[j] = max(self.v, self.f_last[j]) + Fraction(
                8 * self.counted(size)
            ) / Fraction(q.weight_bps)
        if q.kind == "drr" and not self.waiting[j]:
            self.active.append(j)  # rule 3b: joins the active list's tail with deficit 0
        self.waiting[j].append([k, size, tag])
        self.bytes_waiting[j] += size
        return KEPT

    # ------------------------------------------------------------------ selection (rules 3, 3a-3d)

    def eligible(self, j: int, now: Fraction) -> bool:
        """Rule 3d: queue ``j`` has a head and its shaper (if any) holds the head's IP size."""
        if not self.waiting[j]:
            return False
        return self.shaper[j] is None or now >= self.shaper[j].holds_at(self.waiting[j][0][1])

    def select(self, now: Fraction):
        """The queue whose head enters the ring now, or None if no head is eligible."""
        for level in self.levels:  # rule 3a: lowest level first; within it, the head admitted first
            heads = [
                (self.waiting[j][0][0], j)
                for j, q in enumerate(self.qs)
                if q.kind == "priority" and q.level == level and self.eligible(j, now)
            ]
            if heads:
                return min(heads)[1]
        kind = self.node.shared_kind
        if kind == "wfq":  # rule 3: smallest exact tag, ties to the lower index; V becomes that tag
            heads = [
                (self.waiting[j][0][2], j)
                for j, q in enumerate(self.qs)
                if q.kind == "wfq" and self.eligible(j, now)
            ]
            if not heads:
                return None
            self.v, j = min(heads)
            return j
        if kind == "drr":
            return self.select_drr(now)
        if kind == "wrr":
            return self.select_wrr(now)
        return None

    def select_drr(self, now: Fraction):
        """Rule 3b: the first eligible queue of the active list; quantum at the start of its
        turn."""
        while True:
            eligible = [j for j in self.active if self.eligible(j, now)]
            if not eligible:
                return None
            j = eligible[0]  # ineligible queues before it keep their place, deficit and turn
            if not self.in_turn[j]:
                self.in_turn[j] = True
                self.deficit[j] += self.qs[j].quantum_bytes
            if self.counted(self.waiting[j][0][1]) <= self.deficit[j]:
                return j  # keeps its turn: the next selection looks at it again
            self.in_turn[j] = False  # its turn ends: to the tail, with its deficit
            self.active.remove(j)
            self.active.append(j)

    def select_wrr(self, now: Fraction):
        """Rule 3c: turns in index order; a turn sends at most ``weight_packets`` packets and ends
        early at a queue without an eligible head. With no eligible WRR head, the turn stays."""
        turn, sent = self.wrr_turn, self.wrr_sent
        for _ in range(len(self.wrr) + 1):
            j = self.wrr[turn]
            if sent < self.qs[j].weight_packets and self.eligible(j, now):
                self.wrr_turn, self.wrr_sent = turn, sent + 1
                return j
            turn, sent = (turn + 1) % len(self.wrr), 0
        return None

    # ------------------------------------------------------------------ ring and line (rules 3, 3e,
    # 4, 5, 5', 5'')

    def units(self, size: int) -> int:
        pb = self.node.particle_bytes
        return 1 if pb is None else max(1, -(-size // pb))

    def ring_has_room(self) -> bool:
        """Rule 3e: below every set limit (particles, packets, IP bytes); a packet may overshoot."""
        node = self.node
        return (
            (node.ring_limit_particles is None or self.used < node.ring_limit_particles)
            and (node.ring_limit_packets is None or len(self.ring) < node.ring_limit_packets)
            and (node.ring_limit_bytes is None or self.ring_bytes < node.ring_limit_bytes)
        )

    def schedule(self, now: Fraction, entry: list, departure: list) -> None:
        """Rule 3: move eligible heads into the ring while it has room."""
        while self.ring_has_room():
            j = self.select(now)
            if j is None:
                return
            k, size, _ = self.waiting[j].pop(0)
            self.bytes_waiting[j] -= size
            if self.qs[j].kind == "drr":
                self.deficit[j] -= self.counted(size)
                if not self.waiting[j]:  # leaves the active list; its deficit returns to 0
                    self.active.remove(j)
                    self.deficit[j], self.in_turn[j] = 0, False
            if self.shaper[j] is not None:
                self.shaper[j].take(now, size)
            start = max(self.line_free, now)  # rule 4: FCFS, back to back
            self.line_free = (
                start + Fraction(8 * line_bytes(size, self.node.framing)) / self.line_rate
            )
            units = self.units(size)
            self.ring.append([k, units, size, start, self.line_free, 0, now])
            self.used += units
            self.ring_bytes += size
            entry[k], departure[k] = now, self.line_free

    def next_release(self):
        """When the ring's head returns its next unit (rule 5'), all of them (rule 5), or moves into
        the
        adapter (rule 5''); None if the ring is empty."""
        if not self.ring:
            return None
        _, units, size, start, dep, freed, entered = self.ring[0]
        n_adapter = self.node.adapter_packets
        if (
            n_adapter
        ):  # the first instant, not before its entry nor before the packet ahead of it left the
            # ring (FIFO), at which the adapter holds fewer than N packets (a packet stays until it
            # departs)
            earliest = max(entered, self.left_ring)
            return min(
                t
                for t in [earliest, *self.adapter]
                if t >= earliest and sum(1 for d in self.adapter if d > t) < n_adapter
            )
        if self.node.ring_release == "unit" and freed + 1 < units:
            return start + (dep - start) * (freed + 1) * self.node.particle_bytes / size
        return dep

    def release(self, now) -> None:
        head = self.ring[0]
        if self.node.ring_release == "unit" and head[5] + 1 < head[1]:
            head[5] += 1
            self.used -= 1
            return
        self.ring.pop(0)
        self.used -= head[1] - head[5]
        self.ring_bytes -= head[2]
        if (
            self.node.adapter_packets
        ):  # rule 5'': into the adapter, which its departed packets have left
            self.adapter = [d for d in self.adapter if d > now] + [head[4]]
            self.left_ring = now

    def next_wakeup(self):
        """Rule 3d: with room in the ring and packets waiting, the first instant a shaped head is
        eligible."""
        if not self.ring_has_room():
            return None
        return min(
            (
                self.shaper[j].holds_at(w[0][1])
                for j, w in enumerate(self.waiting)
                if w and self.shaper[j]
            ),
            default=None,
        )


def reference_schedule(node, arrival_s, size_bytes, queue, colour=None, red_uniform=None):
    """Run the node contract exactly on one trace.

    Parameters
    ----------
    node : pqlab.Node
        Any valid node (every rule of ``docs/model.md``).
    arrival_s : sequence of float
        Arrival times, seconds, non-decreasing (each float is read exactly, as a Fraction).
    size_bytes, queue : sequence of int
        IP length (bytes) and queue index of each packet.
    colour : sequence of int, optional
        Each packet's colour (rule 1a: 0 green, 1 yellow, 2 red); default all green.
    red_uniform : sequence of float, optional
        Each packet's uniform draw in [0, 1) for RED/WRED (rule 2a); required when a queue has RED.

    Returns
    -------
    ring_entry, departure : list of Fraction or None
        Seconds; None for a dropped packet.
    drop : list of int
        0 kept, 1 policed, 2 queue full, 3 early drop.

    Raises
    ------
    ValueError
        If a queue has RED and ``red_uniform`` is None, or a packet of a shaped queue exceeds
        its ``shape_burst_bytes`` (rule 3d: it would wait forever).
    """
    times = [Fraction(float(t)) for t in arrival_s]
    sizes = [int(s) for s in size_bytes]
    qidx = [int(j) for j in queue]
    n = len(times)
    colours = [0] * n if colour is None else [int(c) for c in colour]
    if any(q.red for q in node.queues) and red_uniform is None:
        raise ValueError(
            "red_uniform must be given (one float in [0, 1) per packet) for a node with RED"
        )
    for k in range(n):
        q = node.queues[qidx[k]]
        if q.shaped and sizes[k] > q.shape_burst_bytes:
            raise ValueError(
                f"size_bytes[{k}] = {sizes[k]} exceeds shape_burst_bytes {q.shape_burst_bytes!r} "
                f"of queue {qidx[k]}"
            )
    state = _Reference(node)
    entry, departure, drop = [None] * n, [None] * n, [KEPT] * n
    k, wakeup = 0, None
    while True:
        release = state.next_release()
        arrival = times[k] if k < n else None
        if release is not None and all(t is None or release <= t for t in (arrival, wakeup)):
            now = release
            state.release(now)
        elif arrival is not None and (wakeup is None or arrival <= wakeup):
            now = arrival
            drop[k] = state.admit(
                k,
                now,
                sizes[k],
                qidx[k],
                colours[k],
                None if red_uniform is None else float(red_uniform[k]),
            )
            k += 1
            if drop[k - 1] != KEPT:
                continue
        elif wakeup is not None:
            now = wakeup
        else:
            return entry, departure, drop
        state.schedule(now, entry, departure)
        wakeup = state.next_wakeup() if any(state.waiting) else None


def first_mismatch(node, arrival_s, size_bytes, queue, colour=None, red_uniform=None):
    """Run the kernel and the reference on one trace; describe their first difference, or None.

    The kernel (:func:`pqlab.node.engine.run_kernel`) must agree exactly: the same drop codes,
    and every kept packet's ring entry and departure equal to the reference's Fractions (use
    times and rates float64 holds exactly, e.g. dyadic ones, for a bit-for-bit comparison).

    Returns
    -------
    str or None
        ``"packet k (t=..., size ..., queue j): kernel ... != reference ..."``, or None when
        they agree on every packet.
    """
    arrival, size, q = validate_arrivals(node, arrival_s, size_bytes, queue)
    marks = {}
    if colour is not None:
        marks["colour"] = np.asarray(colour, dtype=np.int64)
    if red_uniform is not None:
        marks["red_uniform"] = np.asarray(red_uniform, dtype=np.float64)
    got = run_kernel(node, arrival, size, q, **marks)
    ref = reference_schedule(node, arrival, size, q, colour, red_uniform)
    for k in range(arrival.shape[0]):
        kernel = (float(got[0][k]), float(got[1][k]), int(got[2][k]))
        expected = (ref[0][k], ref[1][k], ref[2][k])
        if expected[0] is None:
            same = kernel[2] == expected[2] and np.isnan(kernel[0]) and np.isnan(kernel[1])
        else:
            same = (
                kernel[2] == KEPT
                and not np.isnan(kernel[0])
                and not np.isnan(kernel[1])
                and (Fraction(kernel[0]), Fraction(kernel[1])) == expected[:2]
            )
        if not same:
            shown = tuple(None if e is None else float(e) for e in expected[:2]) + (expected[2],)
            return (
                f"packet {k} (t={arrival[k]!r}, size {size[k]}, queue {q[k]}): kernel (entry,"
                f" departure, drop) {kernel} != reference {shown}"
            )
    return None


def matches_reference(node, arrival_s, size_bytes, queue, colour=None, red_uniform=None) -> bool:
    """Whether the kernel's outputs equal the exact reference's on one trace
    (see :func:`first_mismatch`)."""
    return first_mismatch(node, arrival_s, size_bytes, queue, colour, red_uniform) is None
