"""Configuration of the modelled node: its queues, transmission ring and line.

The semantics these objects parameterise are the node contract of
``docs/model.md`` (policer, queue admission with WFQ finish tags, scheduler to
ring, ring particles, line framing, release). Every field is validated on
construction; a bad value raises ``ValueError`` naming the field and its
allowed range, so nothing invalid can reach the numba kernel.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..base._validate import check_choice, check_fields, check_int, check_mapping, check_real, from_part
from .framing import FRAMING_CODES
from .wfq import wfq_tag_steps

QUEUE_KINDS = ("priority", "wfq")
#: Ring release rules of :class:`Node` (rule 5 and the named variant 5' of the node contract).
RING_RELEASES = ("packet", "unit")
#: What WFQ finish tags count (:attr:`Node.wfq_bytes`): IP bytes or the line's wire bytes.
WFQ_BYTES = ("ip", "wire")

#: Cisco IOS default policing burst of the ``priority`` command: 200 ms of traffic at the rate.
DEFAULT_POLICE_BURST_S = 0.2

#: Upper limits that keep preallocated kernel buffers reasonable.
MAX_LIMIT_PACKETS = 10_000_000
MAX_RING_PARTICLES = 1_000_000
MAX_PARTICLE_BYTES = 1_000_000

#: Ranges of the node's rates and sizes, where the engine's arithmetic is exact
#: enough. The engine's times are float64 seconds, its WFQ tags int64 counts of a
#: unit derived from the weights (:func:`pqlab.node.wfq.wfq_tag_steps`).
#:
#: ============================  =====================  ===========================================
#: parameter                     range                  why
#: ============================  =====================  ===========================================
#: ``line_rate_bps``             [1, 1e12] bit/s        a line time of 1 byte at 1 Tbit/s is 8 ps,
#:                                                      still >> float64 spacing of run times
#: ``weight_bps``                [1, 1e12] bit/s        finite, exact integer tag steps (see below)
#: ``police_rate_bps``           [1, 1e12] bit/s        refill ``dt * rate`` finite and > 0
#: ``police_burst_bytes``        (0, 1e12] bytes        token counts exact to << 1 byte
#: ``limit_packets``             [1, 1e7] packets       queue buffers (24 bytes a slot)
#: ``ring_limit_particles``      [1, 1e6] particles     ring buffer
#: ``particle_bytes``            [1, 1e6] bytes         integer particle counts
#: packet ``size_bytes``         [1, 65535] bytes       IPv4 total length
#: ============================  =====================  ===========================================
#:
#: WFQ weights must also keep the integer tag steps within int64: weights that
#: are integers in bit/s with a modest least common multiple give exact tags;
#: otherwise a fixed-point fallback is used and a node whose weights are too far
#: apart for its queue limits is rejected (``pqlab.node.wfq.wfq_tag_steps``).
RATE_RANGE_BPS = (1.0, 1e12)
MAX_POLICE_BURST_BYTES = 1e12


@dataclass(frozen=True)
class Queue:
    """One queue of the node's queueing system.

    Parameters
    ----------
    kind : {"priority", "wfq"}
        ``"priority"``: strict priority over every WFQ queue (at most one per node).
        ``"wfq"``: self-clocked fair queueing with finish tags
        ``F = max(V, F_last) + size * 8 / weight_bps`` (node contract rule 2).
    limit_packets : int
        Packets the queue holds waiting (packets in the ring do not count), in [1, 1e7].
        An arrival to a full queue is dropped (drop code 2).
    weight_bps : float, optional
        WFQ weight as a configured bandwidth, bit/s, in [1, 1e12] (see :data:`RATE_RANGE_BPS`). Required for ``"wfq"``,
        not allowed for ``"priority"``.
    police_rate_bps : float, optional
        Token-bucket policer rate, bit/s, in [1, 1e12]. ``None``: no policer.
    police_burst_bytes : float, optional
        Bucket depth, bytes, in (0, 1e12], full at time 0. Defaults to Cisco's 200 ms of
        traffic at ``police_rate_bps`` (7500 bytes at 300 kbit/s) when a rate is set;
        not allowed without a rate.
    """

    kind: str
    limit_packets: int
    weight_bps: float | None = None
    police_rate_bps: float | None = None
    police_burst_bytes: float | None = None

    def __post_init__(self):
        check_choice("kind", self.kind, QUEUE_KINDS)
        object.__setattr__(self, "limit_packets", check_int("limit_packets", self.limit_packets, 1, MAX_LIMIT_PACKETS))
        if self.kind == "wfq":
            if self.weight_bps is None:
                raise ValueError(
                    f"weight_bps must be a finite number in [{RATE_RANGE_BPS[0]}, {RATE_RANGE_BPS[1]}] bit/s "
                    "for a 'wfq' queue, got None"
                )
            object.__setattr__(self, "weight_bps", check_real("weight_bps", self.weight_bps, *RATE_RANGE_BPS))
        elif self.weight_bps is not None:
            raise ValueError(f"weight_bps must be None for a 'priority' queue, got {self.weight_bps!r}")
        if self.police_rate_bps is None:
            if self.police_burst_bytes is not None:
                raise ValueError(
                    "police_burst_bytes must be None when police_rate_bps is None, "
                    f"got {self.police_burst_bytes!r}"
                )
        else:
            rate = check_real("police_rate_bps", self.police_rate_bps, *RATE_RANGE_BPS)
            object.__setattr__(self, "police_rate_bps", rate)
            burst = self.police_burst_bytes
            if burst is None:
                burst = rate * DEFAULT_POLICE_BURST_S / 8.0
            object.__setattr__(
                self, "police_burst_bytes",
                check_real("police_burst_bytes", burst, 0.0, MAX_POLICE_BURST_BYTES, strict_minimum=True)
            )

    @property
    def policed(self) -> bool:
        """Whether the queue has a token-bucket policer."""
        return self.police_rate_bps is not None


@dataclass(frozen=True)
class Node:
    """A router output interface: queues, scheduler, transmission ring and line.

    Parameters
    ----------
    line_rate_bps : float
        Line rate, bit/s, in [1, 1e12]. For ATM the rate counts whole 53-byte cells.
    framing : {"none", "atm-aal5", "ethernet"}
        How an IP packet maps to wire bytes (see :func:`pqlab.node.framing.wire_bytes`).
    ring_limit_particles : int
        The transmission ring ("tx-ring-limit"), particles (>= 1). A packet may enter
        while fewer than this many particles are in use.
    particle_bytes : int
        Size of one ring particle, bytes, in [1, 1e6].
    queues : sequence of Queue
        At least one queue, at most one of kind ``"priority"``. The index of a
        queue in this sequence is the ``queue`` value of its packets.
    ring_release : {"packet", "unit"}
        When ring particles return to the pool. ``"packet"`` (default, rule 5 of
        the node contract): all of a packet's particles when its last bit has left.
        ``"unit"`` (rule 5', a named variant: GLOBECOM'01 Sec. II "as soon as one
        unit is freed, the unit can be immediately allocated"): the head packet's
        particles one by one as its bytes leave (:func:`pqlab.node.engine._unit_release_s`).
    wfq_bytes : {"ip", "wire"}
        What a WFQ finish tag counts (rule 2): ``"ip"`` (default) the IP length,
        ``F = max(V, F_last) + size * 8 / weight``; ``"wire"`` the bytes the line sends,
        ``wire_bytes(size)`` of the node's framing (53-byte cells on ATM), so weights are
        shares of the line in the unit the line rate counts.
    """

    line_rate_bps: float
    framing: str
    ring_limit_particles: int
    particle_bytes: int
    queues: tuple = field(default_factory=tuple)
    ring_release: str = "packet"
    wfq_bytes: str = "ip"

    def __post_init__(self):
        object.__setattr__(self, "line_rate_bps", check_real("line_rate_bps", self.line_rate_bps, *RATE_RANGE_BPS))
        check_choice("framing", self.framing, tuple(FRAMING_CODES))
        check_choice("ring_release", self.ring_release, RING_RELEASES)
        check_choice("wfq_bytes", self.wfq_bytes, WFQ_BYTES)
        object.__setattr__(self, "ring_limit_particles",
                           check_int("ring_limit_particles", self.ring_limit_particles, 1, MAX_RING_PARTICLES))
        object.__setattr__(self, "particle_bytes",
                           check_int("particle_bytes", self.particle_bytes, 1, MAX_PARTICLE_BYTES))
        try:
            queues = tuple(self.queues)
        except TypeError:
            raise ValueError(f"queues must be a sequence of pqlab.Queue, got {self.queues!r}") from None
        if not queues:
            raise ValueError("queues must hold at least one pqlab.Queue, got an empty sequence")
        for i, q in enumerate(queues):
            if not isinstance(q, Queue):
                raise ValueError(f"queues[{i}] must be a pqlab.Queue, got {type(q).__name__}")
        n_priority = sum(q.kind == "priority" for q in queues)
        if n_priority > 1:
            raise ValueError(f"queues must hold at most one 'priority' queue, got {n_priority}")
        object.__setattr__(self, "queues", queues)
        wfq_tag_steps(self)  # the engine's tag unit; rejects weights too far apart

    @property
    def priority_index(self) -> int:
        """Index of the priority queue, or -1 if the node has none."""
        for i, q in enumerate(self.queues):
            if q.kind == "priority":
                return i
        return -1

    def to_dict(self) -> dict:
        """Plain-data form (JSON-serialisable) for provenance."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Node":
        """Inverse of :meth:`to_dict`."""
        data = check_mapping("node", data)
        queues = data.get("queues", ())
        if not isinstance(queues, (list, tuple)):
            raise ValueError(f"node.queues must be a list of queue mappings, got {queues!r}")
        data["queues"] = tuple(
            from_part(f"node.queues[{i}]", lambda q: Queue(**check_fields(Queue, check_mapping("queue", q))), q)
            for i, q in enumerate(queues))
        return from_part("node", lambda d: cls(**check_fields(cls, d)), data)
