"""The single-node queue engine: one numba kernel and its validating Python entry.

The kernel implements the node contract of ``shared/DESIGN.md`` exactly:

1. policer (token bucket, full at 0, continuous refill) -> drop code 1;
2. queue admission (``limit`` packets waiting) -> drop code 2; WFQ finish tag
   ``F = max(V, F_last[j]) + size * 8 / weight[j]``;
3. scheduler -> ring whenever fewer than ``ring_limit`` particles are in use:
   priority head first, else the WFQ head with the smallest tag (ties to the
   lower queue index); a packet uses ``max(1, ceil(size / particle_bytes))``;
4. the ring is sent FCFS back to back; line time ``wire_bytes * 8 / line_rate``;
5. a packet's particles return when its last bit has left (its ``departure``);
   a completion at the same instant as an arrival is handled first.

There is no event heap: the only events are the next arrival (input order) and
the completion of the ring's head packet. Because the line is FCFS and
work-conserving, a packet's departure is known the moment it enters the ring,
``departure = max(entry, previous departure) + line time``.
"""

from __future__ import annotations

import numpy as np
import xarray as xr
from numba import njit

from ._validate import check_array
from .framing import FRAMING_CODES, particles_needed, wire_bytes
from .model import Node

#: Drop codes of the ``drop`` variable.
KEPT, POLICED, QUEUE_FULL = 0, 1, 2
DROP_MEANINGS = "0 kept, 1 policed, 2 queue full"

#: Tolerance, bytes, on the token-bucket test so that a stream at exactly the
#: policed rate is not dropped by float rounding of the refill.
POLICE_TOLERANCE_BYTES = 1e-9

#: Largest packet the engine accepts, bytes (an IPv4 jumbogram bound).
MAX_SIZE_BYTES = 65_535


@njit(cache=True, nogil=True)
def _node_kernel(
    arrival_s,
    size_bytes,
    queue,
    is_priority,
    limit_packets,
    inv_weight_bps,
    police_rate_Bps,
    police_burst_bytes,
    ring_limit_particles,
    particle_bytes,
    framing_code,
    line_rate_bps,
    ring_entry_s,
    departure_s,
    drop,
):
    """Fill ``ring_entry_s``, ``departure_s`` and ``drop`` for every packet.

    All inputs are validated by :func:`simulate_arrivals`; per-queue arrays have
    one element per queue (``police_rate_Bps <= 0`` means no policer,
    ``inv_weight_bps`` is 0 for the priority queue). Outputs are preallocated.
    """
    n = arrival_s.shape[0]
    n_queues = limit_packets.shape[0]

    # Queues: one circular buffer of capacity limit_packets[j] per queue, packed.
    q_offset = np.zeros(n_queues + 1, dtype=np.int64)
    for j in range(n_queues):
        q_offset[j + 1] = q_offset[j] + limit_packets[j]
    q_buf = np.empty(q_offset[n_queues], dtype=np.int64)
    q_tag = np.empty(q_offset[n_queues], dtype=np.float64)
    q_head = np.zeros(n_queues, dtype=np.int64)
    q_len = np.zeros(n_queues, dtype=np.int64)
    f_last = np.zeros(n_queues, dtype=np.float64)
    tokens = police_burst_bytes.copy()
    police_t = np.zeros(n_queues, dtype=np.float64)
    prio = -1
    for j in range(n_queues):
        if is_priority[j]:
            prio = j
    virtual_time = 0.0
    queued_total = 0

    # Ring: at most ring_limit packets (each uses >= 1 particle and enters only
    # while fewer than ring_limit particles are in use).
    ring_buf = np.empty(ring_limit_particles, dtype=np.int64)
    ring_particles = np.empty(ring_limit_particles, dtype=np.int64)
    ring_head = 0
    ring_len = 0
    used = 0
    line_free_s = 0.0
    bits_per_s = line_rate_bps / 8.0

    head_dep_s = np.inf  # departure of the ring's head packet; inf while the ring is empty
    i = 0
    while i < n or ring_len > 0:
        if i >= n or head_dep_s <= arrival_s[i]:
            # Rule 5: the head's last bit leaves, its particles return (before a
            # simultaneous arrival).
            now = head_dep_s
            used -= ring_particles[ring_head]
            ring_head += 1
            if ring_head == ring_limit_particles:
                ring_head = 0
            ring_len -= 1
            head_dep_s = departure_s[ring_buf[ring_head]] if ring_len > 0 else np.inf
            if queued_total == 0:
                continue
        else:
            now = arrival_s[i]
            j = queue[i]
            size = size_bytes[i]
            # Rule 1: policer.
            if police_rate_Bps[j] > 0.0:
                t = tokens[j] + (now - police_t[j]) * police_rate_Bps[j]
                if t > police_burst_bytes[j]:
                    t = police_burst_bytes[j]
                tokens[j] = t
                police_t[j] = now
                if t + POLICE_TOLERANCE_BYTES < size:
                    drop[i] = POLICED
                    ring_entry_s[i] = np.nan
                    departure_s[i] = np.nan
                    i += 1
                    continue
                tokens[j] = t - size
            # Rule 2: admission.
            if q_len[j] >= limit_packets[j]:
                drop[i] = QUEUE_FULL
                ring_entry_s[i] = np.nan
                departure_s[i] = np.nan
                i += 1
                continue
            drop[i] = KEPT
            slot = q_head[j] + q_len[j]
            if slot >= limit_packets[j]:
                slot -= limit_packets[j]
            q_buf[q_offset[j] + slot] = i
            if j != prio:
                base = f_last[j] if f_last[j] > virtual_time else virtual_time
                tag = base + size * 8.0 * inv_weight_bps[j]
                f_last[j] = tag
                q_tag[q_offset[j] + slot] = tag
            q_len[j] += 1
            queued_total += 1
            i += 1
        # Rule 3: scheduler -> ring while particles are free and a packet waits.
        while used < ring_limit_particles and queued_total > 0:
            sel = -1
            if prio >= 0 and q_len[prio] > 0:
                sel = prio
            else:
                best = np.inf
                for k in range(n_queues):
                    if k != prio and q_len[k] > 0:
                        tag_k = q_tag[q_offset[k] + q_head[k]]
                        if tag_k < best:
                            best = tag_k
                            sel = k
                virtual_time = best
            p = q_buf[q_offset[sel] + q_head[sel]]
            q_head[sel] += 1
            if q_head[sel] == limit_packets[sel]:
                q_head[sel] = 0
            q_len[sel] -= 1
            queued_total -= 1
            need = particles_needed(size_bytes[p], particle_bytes)
            used += need
            slot = ring_head + ring_len
            if slot >= ring_limit_particles:
                slot -= ring_limit_particles
            ring_buf[slot] = p
            ring_particles[slot] = need
            ring_len += 1
            ring_entry_s[p] = now
            # Rule 4: FCFS, back to back.
            start = line_free_s if line_free_s > now else now
            line_free_s = start + wire_bytes(size_bytes[p], framing_code) / bits_per_s
            departure_s[p] = line_free_s
            if ring_len == 1:
                head_dep_s = line_free_s


def _queue_arrays(node: Node):
    """Per-queue parameter arrays in the kernel's units (bytes/s for the policer)."""
    qs = node.queues
    is_priority = np.array([q.kind == "priority" for q in qs], dtype=np.bool_)
    limit = np.array([q.limit_packets for q in qs], dtype=np.int64)
    inv_weight = np.array([0.0 if q.weight_bps is None else 1.0 / q.weight_bps for q in qs])
    rate = np.array([0.0 if q.police_rate_bps is None else q.police_rate_bps / 8.0 for q in qs])
    burst = np.array([0.0 if q.police_burst_bytes is None else q.police_burst_bytes for q in qs])
    return is_priority, limit, inv_weight, rate, burst


def validate_arrivals(node: Node, arrival_s, size_bytes, queue):
    """Check per-packet inputs and return them as contiguous kernel arrays.

    Raises
    ------
    ValueError
        If ``node`` is not a :class:`pqlab.Node`, the arrays differ in length,
        ``arrival_s`` is not finite, >= 0 and non-decreasing, a size is outside
        ``[1, 65535]`` bytes, or a queue index is outside ``[0, len(node.queues) - 1]``.
    """
    if not isinstance(node, Node):
        raise ValueError(f"node must be a pqlab.Node, got {type(node).__name__}")
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


def run_kernel(node: Node, arrival, size, queue):
    """Run the kernel on already validated arrays; return (ring_entry_s, departure_s, drop)."""
    n = arrival.shape[0]
    ring_entry = np.empty(n, dtype=np.float64)
    departure = np.empty(n, dtype=np.float64)
    drop = np.empty(n, dtype=np.int8)
    _node_kernel(
        arrival,
        size,
        queue,
        *_queue_arrays(node),
        np.int64(node.ring_limit_particles),
        np.int64(node.particle_bytes),
        np.int64(FRAMING_CODES[node.framing]),
        float(node.line_rate_bps),
        ring_entry,
        departure,
        drop,
    )
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

    Returns
    -------
    xarray.Dataset
        Dimension ``packet``; variables ``arrival``, ``ring_entry``,
        ``departure`` (seconds; NaN when dropped), ``size`` (bytes), ``queue``
        and ``drop`` (int8: 0 kept, 1 policed, 2 queue full), each with
        ``units`` and ``long_name``. Read the last as ``ds["drop"]``:
        ``ds.drop`` is xarray's method of that name.

    Raises
    ------
    ValueError
        On any invalid input (see :func:`validate_arrivals`).
    """
    arrival, size, q = validate_arrivals(node, arrival_s, size_bytes, queue)
    ring_entry, departure, drop = run_kernel(node, arrival, size, q)
    return packets_dataset(arrival, size, q, ring_entry, departure, drop)


def packets_dataset(arrival, size, queue, ring_entry, departure, drop) -> xr.Dataset:
    """Wrap per-packet arrays as the engine's ``xarray.Dataset`` (dimension ``packet``)."""
    dims = ("packet",)
    return xr.Dataset(
        {
            "arrival": (dims, arrival, {"units": "s", "long_name": "arrival time at the node"}),
            "size": (dims, size, {"units": "bytes", "long_name": "IP packet length"}),
            "queue": (dims, queue, {"units": "1", "long_name": "queue index in node.queues"}),
            "ring_entry": (
                dims,
                ring_entry,
                {"units": "s", "long_name": "time the packet entered the transmission ring (NaN if dropped)"},
            ),
            "departure": (
                dims,
                departure,
                {"units": "s", "long_name": "time the last bit left the line (NaN if dropped)"},
            ),
            "drop": (
                dims,
                drop,
                {"units": "1", "long_name": "drop code", "flag_meanings": DROP_MEANINGS},
            ),
        },
        coords={"packet": np.arange(arrival.shape[0], dtype=np.int64)},
    )
