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
   departure. With ``Node.adapter_packets = N >= 1`` (rule 5'', a named option)
   the ring's head leaves the ring into an adapter of N whole packets, at
   ``max(now, departure of the packet N places ahead)``.

There is no event heap: the only events are the next arrival (input order), the
next release of the ring's head packet (its completion, under rule 5' its next
unit, under rule 5'' its move into the adapter) and, when a queue is shaped
(rule 3d), the next shaper wake-up. Because the line is FCFS and
work-conserving, a packet's departure is known the moment it enters the ring,
``departure = max(entry, previous departure) + line time``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pandas as pd
import xarray as xr
from numba import literally, types

from ..base._validate import check_array, check_int, check_memory
from ..base.jitcache import cached_njit
from .disciplines import KIND_CODES, PRIORITY, admission, fair, layout, priority, shaper
from .disciplines.admission import (  # noqa: F401  (re-exported)
    POLICE_REANCHOR_BYTES,
    POLICE_RELATIVE_TOLERANCE,
)
from .framing import (  # noqa: F401  (MAX_SIZE_BYTES re-exported)
    MAX_SIZE_BYTES,
    particles_needed,
    wire_bytes,
)
from .model import Node
from .timeorigin import origin_attrs, rebase
from .wfq import (  # noqa: F401  (re-exported)
    MIN_FALLBACK_STEP,
    TAG_REBASE,
    TAG_SPREAD_BUDGET,
    wfq_tag_steps,
)

#: Drop codes of the ``drop`` variable.
KEPT, POLICED, QUEUE_FULL, EARLY_DROP = 0, 1, 2, 3
DROP_MEANINGS = "0 kept, 1 policed, 2 queue full, 3 early drop (RED/WRED)"

#: Bytes of state per queue slot (packet id, size, finish tag: three int64).
QUEUE_SLOT_BYTES = layout.QUEUE_SLOT_BYTES

#: Ring release rules (``Node.ring_release``) and their kernel codes.
RING_RELEASE_CODES = {"packet": 0, "unit": 1}


#: Bits of the kernel's compiled-in ``features`` (see :func:`kernel_features`).
FEATURE_SHAPER, FEATURE_RED, FEATURE_RING_COUNTS, FEATURE_QUEUE_BYTES, FEATURE_KIND_SHIFT = (
    1,
    2,
    4,
    8,
    4,
)
NO_LIMIT = layout.NO_LIMIT


def kernel_features(node: Node) -> int:
    """The mechanisms ``node`` uses, as the kernel's compile-time constant.

    Bits: 1 a queue is shaped (rule 3d), 2 a queue has RED (rule 2a), 4 the ring counts packets
    or bytes (rule 3e), 8 a queue has a byte limit (rule 2b); above them the kind code of the
    non-priority queues' discipline (:data:`pqlab.node.disciplines.KIND_CODES`; 0 when every queue
    is a priority queue).
    """
    qs = node.queues
    kind = 0 if node.shared_kind is None else KIND_CODES[node.shared_kind]
    ring_counts = node.ring_limit_packets is not None or node.ring_limit_bytes is not None
    return (
        (kind << FEATURE_KIND_SHIFT)
        | FEATURE_SHAPER * any(q.shaped for q in qs)
        | FEATURE_RED * any(q.red for q in qs)
        | FEATURE_RING_COUNTS * ring_counts
        | FEATURE_QUEUE_BYTES * any(q.limit_bytes is not None for q in qs)
    )


@cached_njit(nogil=True, _nrt=False)
def _node_kernel(
    arrival_s,
    size_bytes,
    queue,
    colour,
    red_uniform,
    node_params,
    queue_params,
    queue_state,
    slots,
    ring,
    node_state,
    active,
    priority_order,
    fair_order,
    id_offset,
    horizon_s,
    ring_entry_s,
    departure_s,
    drop,
    carry_id,
    carry_entry_s,
    carry_departure_s,
    features,
):
    """Advance the node over one batch of arrivals; fill the batch's outputs.

    All inputs are validated by :func:`simulate_arrivals` / :class:`NodeState`. The node's
    parameters and state are the named arrays of :mod:`pqlab.node.disciplines.layout`
    (``node_params``, ``queue_params`` read only; ``queue_state``, ``slots`` (the queues'
    circular buffers), ``ring``, ``node_state``, ``active`` (DRR's active list) updated in place),
    so consecutive calls on consecutive batches are exactly one run. ``colour`` and
    ``red_uniform`` (one per packet) are read only when a queue has RED. Packet ``i`` of this
    batch has id ``id_offset + i``. Completions are processed up to and including ``horizon_s``
    (the next batch's first arrival; ``inf`` for the last batch), shaper wake-ups before it. A
    packet of an earlier batch that enters the ring now is written to the ``carry_*`` log instead
    of the batch outputs. Returns the number of carry-log entries.

    ``features`` (:func:`kernel_features`) is compiled in as a constant (``numba.literally``):
    the mechanisms a node does not use (shapers, RED, ring limits in packets or bytes, the other
    disciplines) cost it nothing, so the papers' node runs at the speed it had before they existed.
    (Rule 5'''s adapter is a run-time parameter, ``node_params.adapter_packets``: it is tested once
    per ring release, which measured no cost on the papers' node, and it does not double the
    compiled
    versions.)

    What a queue does is in :mod:`pqlab.node.disciplines` (admission: rules 1, 2, 2a, 2b;
    selection: 3, 3a-3d); the kernel runs the events (arrivals, ring releases: rules 5 and 5',
    shaper wake-ups) and the ring and line (rules 3e, 4).
    """
    features = literally(features)
    any_shaper = features & FEATURE_SHAPER
    any_red = features & FEATURE_RED
    ring_counts = features & FEATURE_RING_COUNTS
    queue_bytes = features & FEATURE_QUEUE_BYTES
    kind = features >> FEATURE_KIND_SHIFT
    n = arrival_s.shape[0]
    node = node_params[0]
    ns = node_state[0]
    ring_limit_particles = node.ring_limit_particles
    ring_limit_packets = node.ring_limit_packets if ring_counts else NO_LIMIT
    ring_limit_bytes = node.ring_limit_bytes if ring_counts else NO_LIMIT
    ring_capacity = node.ring_capacity
    particle_bytes = node.particle_bytes
    framing_code = node.framing
    per_unit = node.per_unit
    fair_wire = node.fair_wire
    adapter_packets = node.adapter_packets
    adapter = (
        adapter_packets > 0
    )  # rule 5'': a run-time test, once per ring release (measured: no cost)
    adapter_departure_s = (
        ns.adapter_departure_s
    )  # rule 5'': departures of the last packets that left the ring
    adapter_next = ns.adapter_next
    n_priority = priority_order.shape[0]
    ring_head = ns.ring_head
    ring_len = ns.ring_len
    used = ns.used_particles
    ring_bytes = ns.ring_bytes
    queued_total = ns.queued
    head_freed = ns.head_freed
    line_free_s = ns.line_free_s
    head_dep_s = (
        ns.head_release_s
    )  # next release of the ring's head packet; inf while the ring is empty
    wakeup_s = ns.wakeup_s  # next shaper wake-up; inf: none
    bits_per_s = node.line_rate_bps / 8.0
    n_carry = 0

    i = 0
    while True:
        if i < n and arrival_s[i] < head_dep_s and (not any_shaper or arrival_s[i] <= wakeup_s):
            now = arrival_s[i]
            j = queue[i]
            size = size_bytes[i]
            p = queue_params[j]
            s = queue_state[j]
            if not admission.police(p, s, now, size):  # rule 1
                drop[i] = POLICED
                ring_entry_s[i] = np.nan
                departure_s[i] = np.nan
                i += 1
                continue
            if any_red and admission.red_drops(p, s, colour[i], red_uniform[i]):  # rule 2a
                drop[i] = EARLY_DROP
                ring_entry_s[i] = np.nan
                departure_s[i] = np.nan
                i += 1
                continue
            if s.length >= p.limit_packets or (
                queue_bytes and admission.over_bytes(p, s, size)
            ):  # rules 2, 2b
                drop[i] = QUEUE_FULL
                ring_entry_s[i] = np.nan
                departure_s[i] = np.nan
                i += 1
                continue
            drop[i] = KEPT
            ring_entry_s[i] = np.nan  # until it enters the ring (perhaps in a later batch)
            departure_s[i] = np.nan
            k = s.head + s.length
            if k >= p.capacity:
                k -= p.capacity
            slot = slots[p.offset + k]
            slot.pid = id_offset + i
            slot.size = size
            if p.kind != PRIORITY:
                fair.admitted(
                    kind,
                    j,
                    p,
                    s,
                    slot,
                    wire_bytes(size, framing_code) if fair_wire else size,
                    ns,
                    active,
                )
            s.length += 1
            if queue_bytes:
                s.bytes += size
            queued_total += 1
            i += 1
        elif (
            ring_len > 0 and head_dep_s <= horizon_s and (not any_shaper or head_dep_s <= wakeup_s)
        ):
            # Rule 5: the head's last bit leaves, its particles return (a
            # completion at the same instant as an arrival goes first).
            # Rule 5': one unit of the head returns before its last bit leaves.
            # Rule 5'': the head moves into the adapter, which has room.
            now = head_dep_s
            head = ring[ring_head]
            if per_unit and head_freed + 1 < head.particles:
                head_freed += 1
                used -= 1
                head_dep_s = _unit_release_s(
                    head.start,
                    head.departure,
                    head.size,
                    head_freed + 1,
                    head.particles,
                    particle_bytes,
                )
            else:
                used -= head.particles - head_freed
                if ring_counts:
                    ring_bytes -= head.size
                head_freed = 0
                ring_head += 1
                if ring_head == ring_capacity:
                    ring_head = 0
                ring_len -= 1
                if adapter:
                    adapter_departure_s[adapter_next] = head.departure
                    adapter_next += 1
                    if adapter_next == adapter_packets:
                        adapter_next = 0
                head_dep_s = np.inf
                if ring_len > 0:
                    head = ring[ring_head]
                    if adapter:  # the next head entered by now: it leaves when the adapter has room
                        head_dep_s = max(now, adapter_departure_s[adapter_next])
                    else:
                        head_dep_s = (
                            _unit_release_s(
                                head.start,
                                head.departure,
                                head.size,
                                1,
                                head.particles,
                                particle_bytes,
                            )
                            if per_unit
                            else head.departure
                        )
            if queued_total == 0:
                continue
        elif any_shaper and wakeup_s < horizon_s:
            now = wakeup_s  # rule 3d: a shaped head becomes eligible
            wakeup_s = np.inf
        else:
            break
        # Rule 3: scheduler -> ring while the ring has room (3e) and an eligible packet waits.
        while (
            used < ring_limit_particles
            and ring_len < ring_limit_packets
            and ring_bytes < ring_limit_bytes
            and queued_total > 0
        ):
            sel = -1
            if n_priority > 0:
                sel = priority.select(priority_order, queue_params, queue_state, slots, now)
            if sel < 0:
                sel = fair.select(
                    kind,
                    fair_order,
                    queue_params,
                    queue_state,
                    slots,
                    now,
                    ns,
                    active,
                    fair_wire,
                    framing_code,
                )
            if sel < 0:  # every waiting head is held by its shaper
                break
            p = queue_params[sel]
            s = queue_state[sel]
            slot = slots[p.offset + s.head]
            pid = slot.pid
            size = slot.size
            s.head += 1
            if s.head == p.capacity:
                s.head = 0
            s.length -= 1
            if queue_bytes:
                s.bytes -= size
            queued_total -= 1
            if p.kind != PRIORITY:
                fair.taken(
                    kind,
                    sel,
                    p,
                    s,
                    wire_bytes(size, framing_code) if fair_wire else size,
                    ns,
                    active,
                )
            if any_shaper:
                shaper.take(p, s, now, size)
            need = particles_needed(size, particle_bytes)
            used += need
            if ring_counts:
                ring_bytes += size
            # Rule 4: FCFS, back to back.
            start = line_free_s if line_free_s > now else now
            line_free_s = start + wire_bytes(size, framing_code) / bits_per_s
            rslot = ring_head + ring_len
            if rslot >= ring_capacity:
                rslot -= ring_capacity
            entry = ring[rslot]
            entry.pid = pid
            entry.particles = need
            entry.size = size
            entry.start = start
            entry.departure = line_free_s
            ring_len += 1
            if ring_len == 1:
                if (
                    adapter
                ):  # rule 5'': into the adapter now, or when the packet N places ahead departs
                    head_dep_s = max(now, adapter_departure_s[adapter_next])
                else:
                    head_dep_s = (
                        _unit_release_s(start, line_free_s, size, 1, need, particle_bytes)
                        if per_unit
                        else line_free_s
                    )
            local = pid - id_offset
            if local >= 0:
                ring_entry_s[local] = now
                departure_s[local] = line_free_s
            else:
                carry_id[n_carry] = pid
                carry_entry_s[n_carry] = now
                carry_departure_s[n_carry] = line_free_s
                n_carry += 1
        if any_shaper:
            wakeup_s = np.inf
            if (
                queued_total > 0
                and used < ring_limit_particles
                and ring_len < ring_limit_packets
                and ring_bytes < ring_limit_bytes
            ):
                wakeup_s = _next_wakeup(queue_params, queue_state, slots)

    ns.ring_head = ring_head
    ns.ring_len = ring_len
    ns.used_particles = used
    ns.ring_bytes = ring_bytes
    ns.queued = queued_total
    ns.head_freed = head_freed
    ns.line_free_s = line_free_s
    ns.head_release_s = head_dep_s
    ns.wakeup_s = wakeup_s
    ns.adapter_next = adapter_next
    return n_carry


@cached_njit(nogil=True)
def _next_wakeup(queue_params, queue_state, slots):
    """Rule 3d: the earliest instant a waiting shaped head becomes eligible (inf: none waits)."""
    first = np.inf
    for j in range(queue_params.shape[0]):
        p = queue_params[j]
        s = queue_state[j]
        if s.length > 0 and p.shape_rate_Bps > 0.0:
            t = shaper.eligible_at(p, s, slots[p.offset + s.head].size)
            if t < first:
                first = t
    return first


@cached_njit(nogil=True)
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


def _node_layout(node: Node):
    """The node's parameter arrays (:mod:`pqlab.node.disciplines.layout`) and its queues' packet
    limits.

    Computed once per (frozen) node and cached on it; the kernel never writes them.
    """
    cached = node.__dict__.get("_kernel_layout")
    if cached is None:
        limits = np.array([q.max_waiting_packets for q in node.queues], dtype=np.int64)
        params = layout.queue_params_template(node)
        cached = (
            layout.node_params(node),
            limits,
            layout.priority_order(node),
            layout.shared_order(node),
            kernel_features(node),
            params,
            layout.queue_state(params),
            layout.node_state(),
        )
        node.__dict__["_kernel_layout"] = cached
    return cached


@cached_njit(nogil=True)
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
        _is_kernel_array(arrival_s, np.float64)
        and _is_kernel_array(size_bytes, np.int64)
        and _is_kernel_array(queue, np.int64)
        and arrival_s.shape == size_bytes.shape == queue.shape
        and _packets_ok(arrival_s, size_bytes, queue, len(node.queues), MAX_SIZE_BYTES)
    ):
        return arrival_s, size_bytes, queue
    arrival = check_array("arrival_s", arrival_s, kind="float", minimum=0.0)
    n = arrival.shape[0]
    size = check_array(
        "size_bytes", size_bytes, kind="int", minimum=1, maximum=MAX_SIZE_BYTES, length=n
    )
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


def check_shaped_sizes(node: Node, size, queue) -> None:
    """Rule 3d: every packet of a shaped queue fits its bucket (else it would wait forever).

    Raises
    ------
    ValueError
        Naming the queue, its ``shape_burst_bytes`` and the first packet larger than it.
    """
    for j, q in enumerate(node.queues):
        if q.shaped:
            too_big = np.flatnonzero((queue == j) & (size > q.shape_burst_bytes))
            if too_big.size:
                k = int(too_big[0])
                raise ValueError(
                    f"shape_burst_bytes of queue {j} must be at least the size of each of its"
                    " packets (a shaper holds a packet until its bucket holds it), got"
                    f" {q.shape_burst_bytes!r} bytes and a packet of {int(size[k])} bytes at"
                    f" index {k}"
                )


def check_marks(node: Node, n: int, colour, red_uniform, has_red: bool | None = None):
    """Validate the per-packet colour and RED draws for the kernel (rules 1a, 2a).

    Returns kernel arrays: ``colour`` as int64 in {0, 1, 2} (zeros when None and a queue has
    RED) and ``red_uniform`` float64 in [0, 1) (required when a queue has RED); length-0 arrays
    when no queue has RED (the kernel then reads neither).

    Raises
    ------
    ValueError
        Naming ``colour`` or ``red_uniform``, their length and range.
    """
    if colour is not None:
        colour = check_array("colour", colour, kind="int", minimum=0, maximum=2, length=n)
    if has_red is None:
        has_red = any(q.red for q in node.queues)
    if not has_red:
        if red_uniform is not None:
            raise ValueError(
                "red_uniform must be None for a node without RED (no queue sets red_min_packets)"
            )
        return _EMPTY_INT, _EMPTY_FLOAT
    if red_uniform is None:
        raise ValueError(
            "red_uniform must be an array of n floats in [0, 1) for a node with RED "
            "(pass seed= to simulate_arrivals to draw them)"
        )
    red_uniform = check_array("red_uniform", red_uniform, kind="float", minimum=0.0, length=n)
    if red_uniform.size and not np.max(red_uniform) < 1.0:
        raise ValueError(
            "red_uniform must hold floats in [0, 1), got a maximum of"
            f" {float(np.max(red_uniform))!r}"
        )
    return (np.zeros(n, dtype=np.int64) if colour is None else colour), red_uniform


_EMPTY_INT = np.zeros(0, dtype=np.int64)
_EMPTY_FLOAT = np.zeros(0, dtype=np.float64)


def _is_kernel_array(a, dtype) -> bool:
    return (
        isinstance(a, np.ndarray)
        and not isinstance(a, np.ma.MaskedArray)  # a masked one: check_array refuses
        and a.dtype == dtype
        and a.ndim == 1
        and a.flags.c_contiguous
    )


class NodeState:
    """The complete state of a node between batches of arrivals (queues, ring, line, policers,
    shapers, RED).

    ``advance`` runs the kernel on the next batch and updates the state in
    place, so a run split into consecutive batches gives exactly the outputs of
    one run over all arrivals (the streaming mode relies on this). The state is held in the
    named arrays of :mod:`pqlab.node.disciplines.layout`: ``queues`` (per queue: length, bytes,
    WFQ ``f_last``, policer and shaper buckets, RED average, DRR deficit), ``slots`` (the
    waiting packets), ``ring`` (the packets in the ring) and ``node`` (ring and line scalars).

    Parameters
    ----------
    node : Node
        The node; the state starts empty at time 0 with full policer and shaper buckets.
    max_packets : int, optional
        The most packets this state will be offered (sizes the queues' buffers); ``None``:
        each queue's buffer holds its full limit.
    """

    def __init__(self, node: Node, max_packets: int | None = None):
        if not isinstance(node, Node):
            raise ValueError(f"node must be a pqlab.Node, got {type(node).__name__}")
        self.node = node
        (
            self.params,
            limits,
            self.priority_order,
            self.fair_order,
            self.features,
            params,
            queues,
            state,
        ) = _node_layout(node)
        self.max_packets = None if max_packets is None else check_int("max_packets", max_packets, 0)
        # A queue never holds more packets than are offered: O(packets) buffers for one run.
        capacity = (
            limits if self.max_packets is None else np.minimum(limits, max(1, self.max_packets))
        )
        check_memory(
            "limit_packets (queue buffers, all queues)", int(capacity.sum()), QUEUE_SLOT_BYTES
        )
        self.queue_params = layout.copy_records(params)
        self.queue_params["capacity"] = capacity
        self.queue_params["offset"][1:] = np.cumsum(capacity)[:-1]
        self.queues = layout.copy_records(queues)
        self.slots = np.empty(int(capacity.sum()), dtype=layout.QUEUE_SLOT)
        self.ring = np.empty(node.ring_capacity_packets, dtype=layout.RING_SLOT)
        self.state = layout.copy_records(state)
        self.active = np.zeros(len(node.queues), dtype=np.int64)
        self.next_id = 0  # id of the next packet offered
        self.last_arrival_s = 0.0

    @property
    def waiting_packets(self) -> int:
        """Packets waiting in the queues (admitted, not yet in the ring)."""
        return int(self.state["queued"][0])

    def advance(
        self, arrival, size, queue, horizon_s: float = np.inf, colour=None, red_uniform=None
    ):
        """Run the next batch of validated arrivals; return its outputs and the carry log.

        Parameters
        ----------
        arrival, size, queue : numpy.ndarray
            The batch (validated: see :func:`validate_arrivals`), not earlier than
            any previous batch.
        horizon_s : float
            Completions up to this time are processed: the next batch's first
            arrival, or ``inf`` for the last batch (everything drains).
        colour, red_uniform : numpy.ndarray, optional
            Per packet: colour (0 green, 1 yellow, 2 red; default green) and RED's uniform
            draw in [0, 1) (required when a queue has RED); see :func:`check_marks`.

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
                f"this NodeState was sized for max_packets={self.max_packets}, got"
                f" {self.next_id + n} packets"
            )
        if n and arrival[0] < self.last_arrival_s:
            raise ValueError(
                "arrival_s must not precede the previous batch (last arrival"
                f" {self.last_arrival_s!r}), got {arrival[0]!r}"
            )
        if self.features & FEATURE_SHAPER:
            check_shaped_sizes(self.node, size, queue)
        colour, red_uniform = check_marks(
            self.node, n, colour, red_uniform, bool(self.features & FEATURE_RED)
        )
        ring_entry = np.empty(n)
        departure = np.empty(n)
        drop = np.empty(n, dtype=np.int8)
        cap = self.waiting_packets
        carry = (np.empty(cap, dtype=np.int64), np.empty(cap), np.empty(cap))
        for name, array, dtype in (
            ("arrival", arrival, np.float64),
            ("size", size, np.int64),
            ("queue", queue, np.int64),
            ("colour", colour, np.int64),
            ("red_uniform", red_uniform, np.float64),
        ):
            if not (_is_kernel_array(array, dtype) and array.shape in ((n,), (0,))):
                raise ValueError(
                    f"{name} must be a C-contiguous 1-D {np.dtype(dtype).name} array of the batch's"
                    " length (validate it with validate_arrivals / check_marks first)"
                )
        n_carry = _kernel_entry(self.features)(
            arrival,
            size,
            queue,
            colour,
            red_uniform,
            self.params,
            self.queue_params,
            self.queues,
            self.slots,
            self.ring,
            self.state,
            self.active,
            self.priority_order,
            self.fair_order,
            np.int64(self.next_id),
            float(horizon_s),
            ring_entry,
            departure,
            drop,
            *carry,
            self.features,
        )
        self.next_id += n
        if n:
            self.last_arrival_s = float(arrival[-1])
        return ring_entry, departure, drop, tuple(c[:n_carry] for c in carry)


_ENTRIES: dict = {}


def _kernel_entry(features: int):
    """The kernel compiled for ``features``, called without numba's dispatcher.

    ``numba.literally`` makes the dispatcher compile one machine-code version per value of
    ``features``, but then it re-types every call by trying to compile (about 8 ms a call), and
    its first call types the whole kernel once for nothing before it asks for the literal. So the
    first call of a ``features`` value asks the dispatcher for the version of those argument types
    with ``features`` literal (compiled, or loaded from numba's on-disk cache); that version's entry
    point is called directly from then on. The argument types are fixed by
    :meth:`NodeState.advance`, which checks them.
    """
    entry = _ENTRIES.get(features)
    if entry is not None:
        return entry

    def first_call(*args):
        signature = (*(_node_kernel.typeof_pyval(a) for a in args[:-1]), types.literal(features))
        _ENTRIES[features] = _node_kernel.compile(signature)
        return _ENTRIES[features](*args)

    return first_call


def run_kernel(node: Node, arrival, size, queue, colour=None, red_uniform=None):
    """Run the kernel on already validated arrays; return (ring_entry_s, departure_s, drop).

    ``colour`` and ``red_uniform``: see :meth:`NodeState.advance`.
    """
    ring_entry, departure, drop, _ = NodeState(node, max_packets=arrival.shape[0]).advance(
        arrival, size, queue, colour=colour, red_uniform=red_uniform
    )
    return ring_entry, departure, drop


def simulate_arrivals(
    node: Node,
    arrival_s: npt.ArrayLike,
    size_bytes: npt.ArrayLike,
    queue: npt.ArrayLike,
    *,
    colour: npt.ArrayLike | None = None,
    seed: int | None = None,
) -> xr.Dataset:
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
    colour : array_like(int, ndim=1), optional
        Each packet's colour (drop precedence, rule 1a): 0 green, 1 yellow, 2 red; default all
        green. Read by WRED (rule 2a); e.g. from :class:`pqlab.SrTCM` or :class:`pqlab.TrTCM`.
    seed : int, optional
        Seed (>= 0) of RED's per-packet uniform draws, ``numpy.random.default_rng(seed).random(n)``;
        required when a queue has RED (rule 2a), not allowed otherwise.

    A numpy masked array with a masked entry is refused for any of the three (its masked
    entries hold numbers that would be simulated): select the unmasked packets of all three
    first (``keep = ~numpy.ma.getmaskarray(arrival_s)``).

    Returns
    -------
    xarray.Dataset
        Dimension ``packet``; variables ``arrival``, ``ring_entry``,
        ``departure`` (seconds; NaN when dropped), ``size`` (bytes), ``queue``
        and ``drop`` (int8: 0 kept, 1 policed, 2 queue full, 3 early drop), each with
        ``units`` and ``long_name``, and ``colour`` when given. Read the drop codes as
        ``ds["drop"]``: ``ds.drop`` is xarray's method of that name. Times are absolute unless the
        arrivals are too large for float64 to resolve 1 ns (e.g. Unix timestamps): then
        they are seconds after the first arrival, stated in the attribute
        ``time_origin_s`` (see :mod:`pqlab.node.timeorigin`). A RED run records ``seed``.

    Raises
    ------
    ValueError
        On any invalid input (see :func:`validate_arrivals`, :func:`check_marks`,
        :func:`check_shaped_sizes`), or arrivals spanning more than float64 resolves to 1 ns
        (:func:`pqlab.node.timeorigin.rebase`).
    """
    arrival, size, q = validate_arrivals(node, arrival_s, size_bytes, queue)
    has_red = any(queue_.red for queue_ in node.queues)
    red_uniform = None
    if has_red:
        if seed is None:
            raise ValueError(
                "seed must be an integer >= 0 for a node with RED (it draws each packet's uniform "
                "for the early-drop test), got None"
            )
        red_uniform = np.random.default_rng(check_int("seed", seed, 0)).random(arrival.shape[0])
    elif seed is not None:
        raise ValueError(
            f"seed must be None for a node without RED (nothing is random), got {seed!r}"
        )
    colour_in = (
        None
        if colour is None
        else check_array(
            "colour", colour, kind="int", minimum=0, maximum=2, length=arrival.shape[0]
        )
    )
    arrival, origin = rebase(node, arrival, size)
    ring_entry, departure, drop = run_kernel(node, arrival, size, q, colour_in, red_uniform)
    attrs = origin_attrs(origin) if origin else {}
    if has_red:
        attrs["seed"] = int(seed)  # type: ignore[arg-type]  # not None: checked above for a RED node
    extra = None
    if colour_in is not None:
        extra = {"colour": (colour_in.astype(np.int8), dict(COLOUR_ATTRS))}
    return packets_dataset(
        arrival, size, q, ring_entry, departure, drop, extra=extra, attrs=attrs or None
    )


#: Attributes of the per-packet ``colour`` variable (rule 1a).
COLOUR_ATTRS = {
    "units": "1",
    "long_name": "colour (drop precedence)",
    "flag_values": [0, 1, 2],
    "flag_meanings": "green yellow red",
}


#: Attributes of the engine's per-packet variables.
PACKET_VARIABLE_ATTRS = {
    "arrival": {"units": "s", "long_name": "arrival time at the node"},
    "size": {"units": "bytes", "long_name": "IP packet length"},
    "queue": {"units": "1", "long_name": "queue index in node.queues"},
    "ring_entry": {
        "units": "s",
        "long_name": "time the packet entered the transmission ring (NaN if dropped)",
    },
    "departure": {"units": "s", "long_name": "time the last bit left the line (NaN if dropped)"},
    "drop": {"units": "1", "long_name": "drop code", "flag_meanings": DROP_MEANINGS},
}


def packets_dataset(
    arrival,
    size,
    queue,
    ring_entry,
    departure,
    drop,
    *,
    extra=None,
    attrs=None,
    variable_attrs=None,
) -> xr.Dataset:
    """Wrap per-packet arrays as the engine's ``xarray.Dataset`` (dimension ``packet``), without
    copies.

    Parameters
    ----------
    arrival, size, queue, ring_entry, departure, drop : numpy.ndarray
        One element per packet (the arrays are used, not copied).
    extra : dict, optional
        Further per-packet variables, ``name -> (array, attrs)`` (e.g. ``flow``).
    attrs : dict, optional
        Dataset attributes.
    variable_attrs : dict, optional
        Attributes in place of :data:`PACKET_VARIABLE_ATTRS` for some of the six variables above,
        ``name -> attrs`` (e.g. a test bed's ``arrival`` is a send time).

    Returns
    -------
    xarray.Dataset
        The variables above with :data:`PACKET_VARIABLE_ATTRS` and a ``packet``
        coordinate 0 .. n-1 (a ``pandas.RangeIndex``: no array is built for it).
    """
    arrays = dict(zip(PACKET_VARIABLE_ATTRS, (arrival, size, queue, ring_entry, departure, drop)))
    own = variable_attrs or {}
    variables = {
        name: (array, dict(own.get(name, PACKET_VARIABLE_ATTRS[name])))
        for name, array in arrays.items()
    }
    variables.update(extra or {})
    n = arrival.shape[0]
    for name, (array, _) in variables.items():
        if not (isinstance(array, np.ndarray) and array.shape == (n,)):
            raise ValueError(f"{name} must be a 1-D numpy array of {n} elements (one per packet)")
    index = pd.RangeIndex(n, name="packet")
    try:  # xarray's direct constructor: no alignment or index building (about 10x faster)
        from xarray.core.indexes import PandasIndex

        xindex = PandasIndex(index, "packet")
        var = {
            name: xr.Variable(("packet",), array, dict(a), fastpath=True)
            for name, (array, a) in variables.items()
        }
        var["packet"] = xindex.create_variables()["packet"]
        return xr.Dataset._construct_direct(
            var, {"packet"}, {"packet": n}, dict(attrs or {}), {"packet": xindex}
        )
    except (ImportError, AttributeError, TypeError):  # pragma: no cover - another xarray version
        return public_packets_dataset(variables, index, attrs)


def public_packets_dataset(variables, index, attrs=None) -> xr.Dataset:
    """:func:`packets_dataset` through xarray's public constructor (the fallback; tested to be
    identical)."""
    return xr.Dataset(
        {name: (("packet",), array, dict(a)) for name, (array, a) in variables.items()},
        coords={"packet": index},
        attrs=dict(attrs or {}),
    )
