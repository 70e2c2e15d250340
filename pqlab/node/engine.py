"""The single-node queue engine: one numba kernel and its validating Python entry.

The kernel implements the node contract of ``docs/model.md`` exactly:

1. policer (token bucket, full at 0, continuous refill) -> drop code 1;
2. queue admission (``limit`` packets waiting) -> drop code 2; WFQ finish tag
   ``F = max(V, F_last[j]) + size * 8 / weight[j]``, held as an exact int64 count
   of a unit derived from the weights (:func:`wfq_tag_steps`);
3. scheduler -> ring whenever fewer than ``ring_limit`` particles are in use:
   priority head first, else the WFQ head with the smallest tag (ties, exact, to
   the lower queue index); a packet uses ``max(1, ceil(size / particle_bytes))``;
4. the ring is sent FCFS back to back; line time ``wire_bytes * 8 / line_rate``;
5. a packet's particles return when its last bit has left (its ``departure``);
   a completion at the same instant as an arrival is handled first. With
   ``Node.ring_release="unit"`` (rule 5', a named option) the head packet's
   units return one by one as its bytes leave: unit ``u < n`` of a packet of
   ``n`` units at ``start + line_time * u * particle_bytes / size``, the last at
   departure.

There is no event heap: the only events are the next arrival (input order) and
the next release of the ring's head packet (its completion, or under rule 5' its
next unit). Because the line is FCFS and
work-conserving, a packet's departure is known the moment it enters the ring,
``departure = max(entry, previous departure) + line time``.
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import xarray as xr
from numba import njit

from ..base._validate import check_array, check_int, check_memory
from .framing import FRAMING_CODES, MAX_SIZE_BYTES, particles_needed, wire_bytes  # noqa: F401  (MAX_SIZE_BYTES re-exported)
from .model import Node
from .timeorigin import origin_attrs, rebase
from .wfq import MIN_FALLBACK_STEP, TAG_REBASE, TAG_SPREAD_BUDGET, wfq_tag_steps  # noqa: F401  (re-exported)

#: Drop codes of the ``drop`` variable.
KEPT, POLICED, QUEUE_FULL, EARLY_DROP = 0, 1, 2, 3
DROP_MEANINGS = "0 kept, 1 policed, 2 queue full, 3 early drop"

#: Relative tolerance of the token-bucket test (rule 1). The bucket is kept as an
#: anchor (time, tokens) plus the bytes taken since, so its value is computed with
#: one rounding however long the run: the only error left is that of
#: ``(now - anchor) * rate``, a few units in the last place of ``now * rate``. A
#: packet conforms if it would conform in exact arithmetic on arrival times
#: perturbed by at most ``POLICE_RELATIVE_TOLERANCE * now`` (0.9 ns at 1000 s,
#: far below one bit time): a stream at exactly the policed rate is never
#: policed, however long it runs.
POLICE_RELATIVE_TOLERANCE = 2.0**-50

#: The policer's anchor is moved forward (one rounding) once this many bytes were
#: taken since it was set without the bucket filling up, so the byte count stays
#: exact (an integer far below 2**53) and the refill product small.
POLICE_REANCHOR_BYTES = 2.0**40


#: Bytes of state per queue slot (packet id, size, finish tag: three int64).
QUEUE_SLOT_BYTES = 24


# Layout of the node state carried between kernel calls (see NodeState).
_RING_HEAD, _RING_LEN, _USED, _QUEUED, _VIRTUAL_TIME, _HEAD_FREED = 0, 1, 2, 3, 4, 5
_LINE_FREE, _HEAD_DEP = 0, 1

#: Ring release rules (``Node.ring_release``) and their kernel codes.
RING_RELEASE_CODES = {"packet": 0, "unit": 1}



@njit(cache=True, nogil=True)
def _node_kernel(
    arrival_s,
    size_bytes,
    queue,
    is_priority,
    limit_packets,
    q_capacity,
    tag_step,
    police_rate_Bps,
    police_burst_bytes,
    ring_limit_particles,
    particle_bytes,
    framing_code,
    line_rate_bps,
    per_unit,
    wfq_wire,
    q_offset,
    q_pid,
    q_size,
    q_tag,
    q_head,
    q_len,
    f_last,
    tokens,
    police_t,
    police_used,
    ring_pid,
    ring_particles,
    ring_dep,
    ring_start,
    ring_size,
    state_i,
    state_f,
    id_offset,
    horizon_s,
    ring_entry_s,
    departure_s,
    drop,
    carry_id,
    carry_entry_s,
    carry_departure_s,
):
    """Advance the node over one batch of arrivals; fill the batch's outputs.

    All inputs are validated by :func:`simulate_arrivals` / :class:`NodeState`;
    per-queue arrays have one element per queue (``police_rate_Bps <= 0``: no
    policer; ``tag_step``: the WFQ finish-tag increment per byte, an integer
    in the unit of :func:`wfq_tag_steps`, 0 for the priority queue;
    ``q_capacity``: slots of the queue's circular buffer, >= the packets it can
    hold in this run). The node's state
    (queues, ring, line, policers, WFQ virtual time) lives in the state arrays
    and is updated in place, so consecutive calls on consecutive batches are
    exactly one run. Packet ``i`` of this batch has id ``id_offset + i``.
    Completions are processed up to and including ``horizon_s`` (the next
    batch's first arrival; ``inf`` for the last batch). A packet of an earlier
    batch that enters the ring now is written to the ``carry_*`` log instead of
    the batch outputs. Returns the number of carry-log entries.

    ``wfq_wire`` (0 or 1): a WFQ tag counts the IP length (0) or the line's wire bytes
    (1, ``Node.wfq_bytes="wire"``). ``per_unit`` (0 or 1) selects the release rule: 0, a packet's units return
    at its departure (rule 5); 1, the head packet's unit ``u`` of ``n``
    (``u < n``) returns at :func:`_unit_release_s`, the last at departure
    (rule 5'). ``ring_start``/``ring_size`` hold each ring packet's line start,
    seconds, and IP length, bytes; ``state_i[_HEAD_FREED]`` the head's units
    already returned.
    """
    n = arrival_s.shape[0]
    n_queues = limit_packets.shape[0]
    prio = -1
    for j in range(n_queues):
        if is_priority[j]:
            prio = j
    ring_head = state_i[_RING_HEAD]
    ring_len = state_i[_RING_LEN]
    used = state_i[_USED]
    queued_total = state_i[_QUEUED]
    virtual_time = state_i[_VIRTUAL_TIME]
    head_freed = state_i[_HEAD_FREED]
    line_free_s = state_f[_LINE_FREE]
    head_dep_s = state_f[_HEAD_DEP]  # next release of the ring's head packet; inf while the ring is empty
    bits_per_s = line_rate_bps / 8.0
    n_carry = 0

    i = 0
    while True:
        if i < n and arrival_s[i] < head_dep_s:
            now = arrival_s[i]
            j = queue[i]
            size = size_bytes[i]
            # Rule 1: policer. Tokens now = tokens at the anchor + refill since it - bytes taken
            # since it (an exact integer sum), capped at the burst: one rounding, no drift.
            rate = police_rate_Bps[j]
            if rate > 0.0:
                burst = police_burst_bytes[j]
                t = tokens[j] + (now - police_t[j]) * rate - police_used[j]
                if t >= burst or police_used[j] >= POLICE_REANCHOR_BYTES:
                    if t > burst:
                        t = burst
                    tokens[j] = t  # new anchor: the bucket is full (exact) or re-anchored
                    police_t[j] = now
                    police_used[j] = 0.0
                tolerance = POLICE_RELATIVE_TOLERANCE * (abs(now) * rate + burst + police_used[j])
                if t + tolerance < size:
                    drop[i] = POLICED
                    ring_entry_s[i] = np.nan
                    departure_s[i] = np.nan
                    i += 1
                    continue
                police_used[j] += size
            # Rule 2: admission.
            if q_len[j] >= limit_packets[j]:
                drop[i] = QUEUE_FULL
                ring_entry_s[i] = np.nan
                departure_s[i] = np.nan
                i += 1
                continue
            drop[i] = KEPT
            ring_entry_s[i] = np.nan  # until it enters the ring (perhaps in a later batch)
            departure_s[i] = np.nan
            slot = q_head[j] + q_len[j]
            if slot >= q_capacity[j]:
                slot -= q_capacity[j]
            slot += q_offset[j]
            q_pid[slot] = id_offset + i
            q_size[slot] = size
            if j != prio:
                # Exact integer tag: F = max(V, F_last) + size * step (step = 8 / weight in tag units).
                base = f_last[j] if f_last[j] > virtual_time else virtual_time
                tag = base + (wire_bytes(size, framing_code) if wfq_wire else size) * tag_step[j]
                f_last[j] = tag
                q_tag[slot] = tag
            q_len[j] += 1
            queued_total += 1
            i += 1
        elif ring_len > 0 and head_dep_s <= horizon_s:
            # Rule 5: the head's last bit leaves, its particles return (a
            # completion at the same instant as an arrival goes first).
            # Rule 5': one unit of the head returns before its last bit leaves.
            now = head_dep_s
            if per_unit and head_freed + 1 < ring_particles[ring_head]:
                head_freed += 1
                used -= 1
                head_dep_s = _unit_release_s(ring_start[ring_head], ring_dep[ring_head], ring_size[ring_head],
                                             head_freed + 1, ring_particles[ring_head], particle_bytes)
            else:
                used -= ring_particles[ring_head] - head_freed
                head_freed = 0
                ring_head += 1
                if ring_head == ring_limit_particles:
                    ring_head = 0
                ring_len -= 1
                head_dep_s = np.inf
                if ring_len > 0:
                    head_dep_s = _unit_release_s(ring_start[ring_head], ring_dep[ring_head], ring_size[ring_head],
                                                 1, ring_particles[ring_head], particle_bytes) if per_unit \
                        else ring_dep[ring_head]
            if queued_total == 0:
                continue
        else:
            break
        # Rule 3: scheduler -> ring while particles are free and a packet waits.
        while used < ring_limit_particles and queued_total > 0:
            sel = -1
            if prio >= 0 and q_len[prio] > 0:
                sel = prio
            else:
                best = 0
                for k in range(n_queues):
                    if k != prio and q_len[k] > 0:
                        tag_k = q_tag[q_offset[k] + q_head[k]]
                        if sel < 0 or tag_k < best:  # strict: an equal tag keeps the lower index
                            best = tag_k
                            sel = k
                if sel < 0:  # unreachable while queued_total counts the queues; never index with -1
                    break
                virtual_time = best
                if virtual_time > TAG_REBASE:
                    virtual_time = _rebase_tags(virtual_time, prio, q_offset, q_capacity, q_head, q_len,
                                                q_tag, f_last)
            slot = q_offset[sel] + q_head[sel]
            pid = q_pid[slot]
            size = q_size[slot]
            q_head[sel] += 1
            if q_head[sel] == q_capacity[sel]:
                q_head[sel] = 0
            q_len[sel] -= 1
            queued_total -= 1
            need = particles_needed(size, particle_bytes)
            used += need
            # Rule 4: FCFS, back to back.
            start = line_free_s if line_free_s > now else now
            line_free_s = start + wire_bytes(size, framing_code) / bits_per_s
            rslot = ring_head + ring_len
            if rslot >= ring_limit_particles:
                rslot -= ring_limit_particles
            ring_pid[rslot] = pid
            ring_particles[rslot] = need
            ring_dep[rslot] = line_free_s
            ring_start[rslot] = start
            ring_size[rslot] = size
            ring_len += 1
            if ring_len == 1:
                head_dep_s = _unit_release_s(start, line_free_s, size, 1, need, particle_bytes) if per_unit \
                    else line_free_s
            local = pid - id_offset
            if local >= 0:
                ring_entry_s[local] = now
                departure_s[local] = line_free_s
            else:
                carry_id[n_carry] = pid
                carry_entry_s[n_carry] = now
                carry_departure_s[n_carry] = line_free_s
                n_carry += 1

    state_i[_RING_HEAD] = ring_head
    state_i[_RING_LEN] = ring_len
    state_i[_USED] = used
    state_i[_QUEUED] = queued_total
    state_i[_VIRTUAL_TIME] = virtual_time
    state_i[_HEAD_FREED] = head_freed
    state_f[_LINE_FREE] = line_free_s
    state_f[_HEAD_DEP] = head_dep_s
    return n_carry


@njit(cache=True, nogil=True)
def _unit_release_s(start_s, departure_s, size, unit, n_units, particle_bytes):
    """Rule 5': when unit ``unit`` (1-based) of a ring packet returns to the pool, seconds.

    The packet's line time ``departure_s - start_s`` is shared evenly over its ``size``
    bytes; unit ``u < n_units`` returns once the first ``u * particle_bytes`` bytes
    have been sent, ``start_s + (departure_s - start_s) * u * particle_bytes / size``
    (with framing ``none`` exactly when those bytes have left); the last unit at
    ``departure_s``.
    """
    if unit >= n_units:
        return departure_s
    return start_s + (departure_s - start_s) * (unit * particle_bytes) / size


@njit(cache=True, nogil=True)
def _rebase_tags(virtual_time, prio, q_offset, q_capacity, q_head, q_len, q_tag, f_last):
    """Shift every WFQ tag down by ``virtual_time`` (exact); return the new virtual time, 0.

    Every queued tag is >= the virtual time (it is the smallest head tag and tags
    grow along a queue), and the tag of an empty queue's last packet is <= it, so
    after the shift queued tags are >= 0 and an empty queue's ``F_last`` can be
    clamped to 0 without changing ``max(V, F_last)``: the order of all tags, and
    so the schedule, is unchanged.
    """
    for k in range(q_len.shape[0]):
        if k == prio:
            continue
        f = f_last[k] - virtual_time
        f_last[k] = f if f > 0 else 0
        for m in range(q_len[k]):
            slot = q_head[k] + m
            if slot >= q_capacity[k]:
                slot -= q_capacity[k]
            q_tag[q_offset[k] + slot] -= virtual_time
    return 0


def key_cache_on_sources(dispatcher, *modules) -> None:
    """Make numba's on-disk cache of ``dispatcher`` depend on the source of ``modules`` too.

    numba keys a cached function on its own file and bytecode, but the machine code it stores
    includes the jitted functions it calls from other files (here :mod:`pqlab.node.framing`'s
    ``wire_bytes`` and ``particles_needed``): after an edit of those, the stale code would be
    loaded. The SHA-256 of the modules' source is added to the cache's index key, so an edit
    recompiles. (Uses numba's ``FunctionCache._index_key``; without it, nothing is changed.)
    """
    import hashlib
    from pathlib import Path

    cache = getattr(dispatcher, "_cache", None)
    index_key = getattr(cache, "_index_key", None)
    if index_key is None:  # pragma: no cover - another numba version
        return
    digest = hashlib.sha256(b"".join(Path(m.__file__).read_bytes() for m in modules)).hexdigest()
    cache._index_key = lambda sig, codegen: (*index_key(sig, codegen), digest)


key_cache_on_sources(_node_kernel, sys.modules[particles_needed.py_func.__module__])


def _queue_arrays(node: Node):
    """Per-queue parameter arrays in the kernel's units (bytes/s for the policer, tag units for WFQ).

    Computed once per (frozen) node and cached on it; the kernel never writes them.
    """
    cached = node.__dict__.get("_kernel_queue_arrays")
    if cached is None:
        cached = _compute_queue_arrays(node)
        node.__dict__["_kernel_queue_arrays"] = cached
    return cached


def _compute_queue_arrays(node: Node):
    qs = node.queues
    is_priority = np.array([q.kind == "priority" for q in qs], dtype=np.bool_)
    limit = np.array([q.limit_packets for q in qs], dtype=np.int64)
    steps, _ = wfq_tag_steps(node)
    rate = np.array([0.0 if q.police_rate_bps is None else q.police_rate_bps / 8.0 for q in qs])
    burst = np.array([0.0 if q.police_burst_bytes is None else q.police_burst_bytes for q in qs])
    return is_priority, limit, steps, rate, burst


@njit(cache=True, nogil=True)
def _packets_ok(arrival, size, queue, n_queues, max_size):
    """One pass over kernel-typed arrays: ``True`` when every packet is valid.

    The same conditions as :func:`pqlab.base._validate.check_array` plus the order of
    arrivals; on ``False`` the slower checks run again to name the first problem.
    """
    prev = 0.0
    for i in range(arrival.shape[0]):
        t = arrival[i]
        if not (t >= prev and t < np.inf):  # also false for NaN and for a first arrival < 0
            return False
        prev = t
        if size[i] < 1 or size[i] > max_size or queue[i] < 0 or queue[i] >= n_queues:
            return False
    return True


def validate_arrivals(node: Node, arrival_s, size_bytes, queue):
    """Check per-packet inputs and return them as contiguous kernel arrays.

    float64 arrivals and int64 sizes and queues (what :func:`pqlab.traffic.merge_streams`
    returns) are checked in one compiled pass without copies; other inputs are
    converted first (see :func:`pqlab.base._validate.check_array`: ``timedelta64``
    arrivals are read as seconds, complex values rejected).

    Raises
    ------
    ValueError
        If ``node`` is not a :class:`pqlab.Node`, the arrays differ in length,
        ``arrival_s`` is not finite, >= 0 and non-decreasing, a size is outside
        ``[1, 65535]`` bytes, or a queue index is outside ``[0, len(node.queues) - 1]``.
    """
    if not isinstance(node, Node):
        raise ValueError(f"node must be a pqlab.Node, got {type(node).__name__}")
    if (
        _is_kernel_array(arrival_s, np.float64) and _is_kernel_array(size_bytes, np.int64)
        and _is_kernel_array(queue, np.int64) and arrival_s.shape == size_bytes.shape == queue.shape
        and _packets_ok(arrival_s, size_bytes, queue, len(node.queues), MAX_SIZE_BYTES)
    ):
        return arrival_s, size_bytes, queue
    arrival = check_array("arrival_s", arrival_s, kind="float", minimum=0.0)
    n = arrival.shape[0]
    size = check_array("size_bytes", size_bytes, kind="int", minimum=1, maximum=MAX_SIZE_BYTES, length=n)
    q = check_array("queue", queue, kind="int", minimum=0, maximum=len(node.queues) - 1, length=n)
    if n > 1:
        step = np.diff(arrival)
        if np.any(step < 0):
            bad = int(np.flatnonzero(step < 0)[0]) + 1
            raise ValueError(
                f"arrival_s must be sorted in non-decreasing order, got {arrival[bad]!r} "
                f"after {arrival[bad - 1]!r} at index {bad}"
            )
    return arrival, size, q


def _is_kernel_array(a, dtype) -> bool:
    return (isinstance(a, np.ndarray) and not isinstance(a, np.ma.MaskedArray)  # a masked one: check_array refuses
            and a.dtype == dtype and a.ndim == 1 and a.flags.c_contiguous)


class NodeState:
    """The complete state of a node between batches of arrivals (queues, ring, line, policers, WFQ).

    ``advance`` runs the kernel on the next batch and updates the state in
    place, so a run split into consecutive batches gives exactly the outputs of
    one run over all arrivals (the streaming mode relies on this).

    Parameters
    ----------
    node : Node
        The node; the state starts empty at time 0 with full policer buckets.
    """

    def __init__(self, node: Node, max_packets: int | None = None):
        if not isinstance(node, Node):
            raise ValueError(f"node must be a pqlab.Node, got {type(node).__name__}")
        self.node = node
        is_priority, limits, steps, rate, burst = _queue_arrays(node)
        self.max_packets = None if max_packets is None else check_int("max_packets", max_packets, 0)
        # A queue never holds more packets than are offered: O(packets) buffers for one run.
        capacity = limits if max_packets is None else np.minimum(limits, max(1, self.max_packets))
        check_memory("limit_packets (queue buffers, all queues)", int(capacity.sum()), QUEUE_SLOT_BYTES)
        self._params = (is_priority, limits, capacity, steps, rate, burst)
        self.q_offset = np.concatenate([[0], np.cumsum(capacity)]).astype(np.int64)
        cap = int(self.q_offset[-1])
        n_q = limits.shape[0]
        self.q_pid = np.empty(cap, dtype=np.int64)
        self.q_size = np.empty(cap, dtype=np.int64)
        self.q_tag = np.empty(cap, dtype=np.int64)
        self.q_head = np.zeros(n_q, dtype=np.int64)
        self.q_len = np.zeros(n_q, dtype=np.int64)
        self.f_last = np.zeros(n_q, dtype=np.int64)
        self.tokens = burst.copy()
        self.police_t = np.zeros(n_q, dtype=np.float64)  # policer anchor time, s
        self.police_used = np.zeros(n_q, dtype=np.float64)  # bytes taken since the anchor (integer valued)
        ring = node.ring_limit_particles
        self.ring_pid = np.empty(ring, dtype=np.int64)
        self.ring_particles = np.empty(ring, dtype=np.int64)
        self.ring_dep = np.empty(ring, dtype=np.float64)
        self.ring_start = np.empty(ring, dtype=np.float64)
        self.ring_size = np.empty(ring, dtype=np.int64)
        self.state_i = np.zeros(6, dtype=np.int64)
        self.state_f = np.array([0.0, np.inf])
        self._scalars = (np.int64(ring), np.int64(node.particle_bytes),
                         np.int64(FRAMING_CODES[node.framing]), float(node.line_rate_bps),
                         np.int64(RING_RELEASE_CODES[node.ring_release]), np.int64(node.wfq_bytes == "wire"))
        self.next_id = 0  # id of the next packet offered
        self.last_arrival_s = 0.0

    @property
    def waiting_packets(self) -> int:
        """Packets waiting in the queues (admitted, not yet in the ring)."""
        return int(self.state_i[_QUEUED])

    def advance(self, arrival, size, queue, horizon_s: float = np.inf):
        """Run the next batch of validated arrivals; return its outputs and the carry log.

        Parameters
        ----------
        arrival, size, queue : numpy.ndarray
            The batch (validated: see :func:`validate_arrivals`), not earlier than
            any previous batch.
        horizon_s : float
            Completions up to this time are processed: the next batch's first
            arrival, or ``inf`` for the last batch (everything drains).

        Returns
        -------
        ring_entry_s, departure_s, drop : numpy.ndarray
            Per packet of this batch; NaN times for a packet still waiting at
            ``horizon_s`` (it is resolved in a later batch's carry log).
        carry : tuple of numpy.ndarray
            ``(packet id, ring_entry_s, departure_s)`` of earlier batches'
            packets that entered the ring during this call. Ids count packets
            offered since the state was created.
        """
        n = arrival.shape[0]
        if self.max_packets is not None and self.next_id + n > self.max_packets:
            raise ValueError(
                f"this NodeState was sized for max_packets={self.max_packets}, got {self.next_id + n} packets"
            )
        if n and arrival[0] < self.last_arrival_s:
            raise ValueError(
                f"arrival_s must not precede the previous batch (last arrival {self.last_arrival_s!r}), "
                f"got {arrival[0]!r}"
            )
        ring_entry = np.empty(n)
        departure = np.empty(n)
        drop = np.empty(n, dtype=np.int8)
        cap = self.waiting_packets
        carry = (np.empty(cap, dtype=np.int64), np.empty(cap), np.empty(cap))
        n_carry = _node_kernel(
            arrival, size, queue, *self._params, *self._scalars,
            self.q_offset, self.q_pid, self.q_size, self.q_tag, self.q_head, self.q_len,
            self.f_last, self.tokens, self.police_t, self.police_used,
            self.ring_pid, self.ring_particles, self.ring_dep, self.ring_start, self.ring_size,
            self.state_i, self.state_f,
            np.int64(self.next_id), float(horizon_s),
            ring_entry, departure, drop, *carry,
        )
        self.next_id += n
        if n:
            self.last_arrival_s = float(arrival[-1])
        return ring_entry, departure, drop, tuple(c[:n_carry] for c in carry)


def run_kernel(node: Node, arrival, size, queue):
    """Run the kernel on already validated arrays; return (ring_entry_s, departure_s, drop)."""
    ring_entry, departure, drop, _ = NodeState(node, max_packets=arrival.shape[0]).advance(arrival, size, queue)
    return ring_entry, departure, drop


def simulate_arrivals(node: Node, arrival_s, size_bytes, queue) -> xr.Dataset:
    """Pass packets through ``node`` and return what happened to each.

    Parameters
    ----------
    node : Node
        The node (queues, ring, line).
    arrival_s : array_like(float, ndim=1)
        Arrival times, seconds, finite, >= 0, non-decreasing. Equal times are
        processed in input order.
    size_bytes : array_like(int, ndim=1)
        IP length of each packet, bytes, in ``[1, 65535]``.
    queue : array_like(int, ndim=1)
        Index into ``node.queues`` of each packet's queue.

    A numpy masked array with a masked entry is refused for any of the three (its masked
    entries hold numbers that would be simulated): select the unmasked packets of all three
    first (``keep = ~numpy.ma.getmaskarray(arrival_s)``).

    Returns
    -------
    xarray.Dataset
        Dimension ``packet``; variables ``arrival``, ``ring_entry``,
        ``departure`` (seconds; NaN when dropped), ``size`` (bytes), ``queue``
        and ``drop`` (int8: 0 kept, 1 policed, 2 queue full), each with
        ``units`` and ``long_name``. Read the last as ``ds["drop"]``:
        ``ds.drop`` is xarray's method of that name. Times are absolute unless the
        arrivals are too large for float64 to resolve 1 ns (e.g. Unix timestamps): then
        they are seconds after the first arrival, stated in the attribute
        ``time_origin_s`` (see :mod:`pqlab.node.timeorigin`).

    Raises
    ------
    ValueError
        On any invalid input (see :func:`validate_arrivals`), or arrivals spanning more
        than float64 resolves to 1 ns (:func:`pqlab.node.timeorigin.rebase`).
    """
    arrival, size, q = validate_arrivals(node, arrival_s, size_bytes, queue)
    arrival, origin = rebase(node, arrival, size)
    ring_entry, departure, drop = run_kernel(node, arrival, size, q)
    return packets_dataset(arrival, size, q, ring_entry, departure, drop, attrs=origin_attrs(origin) if origin else None)


#: Attributes of the engine's per-packet variables.
PACKET_VARIABLE_ATTRS = {
    "arrival": {"units": "s", "long_name": "arrival time at the node"},
    "size": {"units": "bytes", "long_name": "IP packet length"},
    "queue": {"units": "1", "long_name": "queue index in node.queues"},
    "ring_entry": {"units": "s", "long_name": "time the packet entered the transmission ring (NaN if dropped)"},
    "departure": {"units": "s", "long_name": "time the last bit left the line (NaN if dropped)"},
    "drop": {"units": "1", "long_name": "drop code", "flag_meanings": DROP_MEANINGS},
}


def packets_dataset(arrival, size, queue, ring_entry, departure, drop, *, extra=None, attrs=None) -> xr.Dataset:
    """Wrap per-packet arrays as the engine's ``xarray.Dataset`` (dimension ``packet``), without copies.

    Parameters
    ----------
    arrival, size, queue, ring_entry, departure, drop : numpy.ndarray
        One element per packet (the arrays are used, not copied).
    extra : dict, optional
        Further per-packet variables, ``name -> (array, attrs)`` (e.g. ``flow``).
    attrs : dict, optional
        Dataset attributes.

    Returns
    -------
    xarray.Dataset
        The variables above with :data:`PACKET_VARIABLE_ATTRS` and a ``packet``
        coordinate 0 .. n-1 (a ``pandas.RangeIndex``: no array is built for it).
    """
    arrays = dict(zip(PACKET_VARIABLE_ATTRS, (arrival, size, queue, ring_entry, departure, drop)))
    variables = {name: (array, dict(PACKET_VARIABLE_ATTRS[name])) for name, array in arrays.items()}
    variables.update(extra or {})
    n = arrival.shape[0]
    for name, (array, _) in variables.items():
        if not (isinstance(array, np.ndarray) and array.shape == (n,)):
            raise ValueError(f"{name} must be a 1-D numpy array of {n} elements (one per packet)")
    index = pd.RangeIndex(n, name="packet")
    try:  # xarray's direct constructor: no alignment or index building (about 10x faster)
        from xarray.core.indexes import PandasIndex

        xindex = PandasIndex(index, "packet")
        var = {name: xr.Variable(("packet",), array, dict(a), fastpath=True) for name, (array, a) in variables.items()}
        var["packet"] = xindex.create_variables()["packet"]
        return xr.Dataset._construct_direct(var, {"packet"}, {"packet": n}, dict(attrs or {}), {"packet": xindex})
    except (ImportError, AttributeError, TypeError):  # pragma: no cover - another xarray version
        return public_packets_dataset(variables, index, attrs)


def public_packets_dataset(variables, index, attrs=None) -> xr.Dataset:
    """:func:`packets_dataset` through xarray's public constructor (the fallback; tested to be identical)."""
    return xr.Dataset({name: (("packet",), array, dict(a)) for name, (array, a) in variables.items()},
                      coords={"packet": index}, attrs=dict(attrs or {}))
