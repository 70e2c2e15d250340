"""The kernel's state and parameters as named (structured) numpy arrays, built from a node.

Every array the kernel reads or writes has named fields, so a reader (or a test) can look at
``state.queues["deficit_bytes"]`` instead of an integer slot. Parameters are computed once per
(frozen) node and never written by the kernel; state arrays are updated in place between
batches (:class:`pqlab.node.engine.NodeState`).
"""

from __future__ import annotations

import numpy as np

from ..framing import FRAMING_CODES
from ..model import COLOURS, MAX_ADAPTER_PACKETS, Node
from ..wfq import wfq_tag_steps
from . import KIND_CODES

#: A limit that is not set: larger than any count the kernel can reach.
NO_LIMIT = 2**62
#: Particle size used when the ring counts no particles (every packet is one particle).
NO_PARTICLES_BYTES = 2**20  # > the largest packet; particles_needed divides in uint32

#: Per-queue parameters (read only in the kernel). Rates in bytes/s; ``red_*`` per colour.
QUEUE_PARAMS = np.dtype(
    [
        ("kind", np.int64),
        ("level", np.int64),
        ("limit_packets", np.int64),
        ("limit_bytes", np.int64),
        ("offset", np.int64),
        ("capacity", np.int64),  # the queue's slots: [offset, offset + capacity)
        ("tag_step", np.int64),
        ("quantum_bytes", np.int64),
        ("weight_packets", np.int64),
        ("police_rate_Bps", np.float64),
        ("police_burst_bytes", np.float64),
        ("shape_rate_Bps", np.float64),
        ("shape_burst_bytes", np.float64),
        ("red", np.int64),
        ("red_weight", np.float64),
        ("red_min_packets", np.float64, (len(COLOURS),)),
        ("red_max_packets", np.float64, (len(COLOURS),)),
        ("red_max_p", np.float64, (len(COLOURS),)),
    ]
)

#: Per-queue state. ``police_*``: the policer's anchor (time, tokens) and bytes taken since
#: (rule 1); ``shape_*``: the shaper's bucket after the queue's last take (rule 3d).
QUEUE_STATE = np.dtype(
    [
        ("head", np.int64),
        ("length", np.int64),
        ("bytes", np.int64),
        ("f_last", np.int64),
        ("police_tokens", np.float64),
        ("police_t", np.float64),
        ("police_used", np.float64),
        ("shape_tokens", np.float64),
        ("shape_t", np.float64),
        ("red_avg_packets", np.float64),
        ("deficit_bytes", np.int64),
        ("in_turn", np.int64),
    ]
)

#: One waiting packet: its id, IP length (bytes) and WFQ finish tag (tag units).
QUEUE_SLOT = np.dtype([("pid", np.int64), ("size", np.int64), ("tag", np.int64)])
#: Bytes of state per queue slot.
QUEUE_SLOT_BYTES = QUEUE_SLOT.itemsize

#: One packet in the ring: id, units (particles), IP length, line start and departure (s).
RING_SLOT = np.dtype(
    [
        ("pid", np.int64),
        ("particles", np.int64),
        ("size", np.int64),
        ("start", np.float64),
        ("departure", np.float64),
    ]
)

#: The node's parameters (one record).
NODE_PARAMS = np.dtype(
    [
        ("ring_limit_particles", np.int64),
        ("ring_limit_packets", np.int64),
        ("ring_limit_bytes", np.int64),
        ("ring_capacity", np.int64),
        ("particle_bytes", np.int64),
        ("framing", np.int64),
        ("line_rate_bps", np.float64),
        ("per_unit", np.int64),
        ("fair_wire", np.int64),
        ("adapter_packets", np.int64),
    ]
)

#: The node's scalar state (one record). ``head_release_s``: next release of the ring's head
#: (inf while the ring is empty); ``wakeup_s``: next shaper wake-up (inf: none).
#: ``adapter_departure_s``: rule 5'', a circular array of the departures of the last
#: ``adapter_packets`` packets that left the ring (0 before any), ``adapter_next`` its slot that
#: holds the departure of the packet ``adapter_packets`` places ahead of the ring's head.
NODE_STATE = np.dtype(
    [
        ("ring_head", np.int64),
        ("ring_len", np.int64),
        ("used_particles", np.int64),
        ("ring_bytes", np.int64),
        ("queued", np.int64),
        ("virtual_time", np.int64),
        ("head_freed", np.int64),
        ("n_active", np.int64),
        ("wrr_current", np.int64),
        ("wrr_sent", np.int64),
        ("line_free_s", np.float64),
        ("head_release_s", np.float64),
        ("wakeup_s", np.float64),
        ("adapter_next", np.int64),
        ("adapter_departure_s", np.float64, (MAX_ADAPTER_PACKETS,)),
    ]
)


def _limit(value) -> int:
    return NO_LIMIT if value is None else int(value)


def copy_records(records: np.ndarray) -> np.ndarray:
    """A writeable copy of a 1-D structured array, copied as bytes (numpy's field-wise copy is 10x
    slower)."""
    return records.view(np.uint8).copy().view(records.dtype)


def queue_params_template(node: Node) -> np.ndarray:
    """The per-queue parameter records without their slots (capacity 0); computed once per node."""
    cached = node.__dict__.get("_queue_params_template")
    if cached is not None:
        return cached
    qs = node.queues
    params = np.zeros(len(qs), dtype=QUEUE_PARAMS)
    steps, _ = wfq_tag_steps(node)
    params["tag_step"] = steps
    for j, q in enumerate(qs):
        p = params[j]
        p["kind"] = KIND_CODES[q.kind]
        p["level"] = q.level
        p["limit_packets"] = _limit(q.limit_packets)
        p["limit_bytes"] = _limit(q.limit_bytes)
        p["quantum_bytes"] = q.quantum_bytes or 0
        p["weight_packets"] = q.weight_packets or 0
        p["police_rate_Bps"] = 0.0 if q.police_rate_bps is None else q.police_rate_bps / 8.0
        p["police_burst_bytes"] = 0.0 if q.police_burst_bytes is None else q.police_burst_bytes
        p["shape_rate_Bps"] = 0.0 if q.shape_rate_bps is None else q.shape_rate_bps / 8.0
        p["shape_burst_bytes"] = 0.0 if q.shape_burst_bytes is None else q.shape_burst_bytes
        if q.red:
            p["red"] = 1
            p["red_weight"] = q.red_weight
            p["red_min_packets"] = q.red_min_packets
            p["red_max_packets"] = q.red_max_packets
            p["red_max_p"] = q.red_max_p
    params.flags.writeable = False
    node.__dict__["_queue_params_template"] = params
    return params


def queue_state(params: np.ndarray) -> np.ndarray:
    """Empty queues at time 0: policer and shaper buckets full."""
    state = np.zeros(params.shape[0], dtype=QUEUE_STATE)
    state["police_tokens"] = params["police_burst_bytes"]
    state["shape_tokens"] = params["shape_burst_bytes"]
    return state


def node_params(node: Node) -> np.ndarray:
    """The node's parameter record."""
    params = np.zeros(1, dtype=NODE_PARAMS)
    p = params[0]
    p["ring_limit_particles"] = _limit(node.ring_limit_particles)
    p["ring_limit_packets"] = _limit(node.ring_limit_packets)
    p["ring_limit_bytes"] = _limit(node.ring_limit_bytes)
    p["ring_capacity"] = node.ring_capacity_packets
    p["particle_bytes"] = NO_PARTICLES_BYTES if node.particle_bytes is None else node.particle_bytes
    p["framing"] = FRAMING_CODES[node.framing]
    p["line_rate_bps"] = node.line_rate_bps
    p["per_unit"] = int(node.ring_release == "unit")
    p["fair_wire"] = int(node.wfq_bytes == "wire")
    p["adapter_packets"] = node.adapter_packets
    return params


def node_state() -> np.ndarray:
    """An empty ring and line at time 0."""
    state = np.zeros(1, dtype=NODE_STATE)
    state["head_release_s"] = np.inf
    state["wakeup_s"] = np.inf
    return state


def priority_order(node: Node) -> np.ndarray:
    """Indices of the priority queues by (level, index): the order rule 3a scans them in."""
    return (
        np.array(
            sorted((q.level, j) for j, q in enumerate(node.queues) if q.kind == "priority"),
            dtype=np.int64,
        )
        .reshape(-1, 2)[:, 1]
        .copy()
    )


def shared_order(node: Node) -> np.ndarray:
    """Indices of the non-priority queues, ascending (WFQ ties, WRR turns)."""
    return np.array([j for j, q in enumerate(node.queues) if q.kind != "priority"], dtype=np.int64)
