"""Configuration of the modelled node: its queues, transmission ring and line.

The semantics these objects parameterise are the node contract of
``docs/model.md`` (policer, queue admission with WFQ finish tags, scheduler to
ring, ring particles, line framing, release). Every field is validated on
construction; a bad value raises ``ValueError`` naming the field and its
allowed range, so nothing invalid can reach the numba kernel.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import ClassVar

from ..base._validate import (
    check_choice,
    check_fields,
    check_int,
    check_mapping,
    check_real,
    from_part,
)
from .framing import FRAMING_CODES
from .plausibility import (
    check_line_rate,
    check_priority_order,
    check_queue_rates,
    check_red_thresholds,
)
from .wfq import wfq_tag_steps

#: Queue kinds: strict priority (with levels), and the disciplines of the non-priority queues.
QUEUE_KINDS = ("priority", "wfq", "drr", "wrr")
#: Kinds that share the lowest level, one discipline per node (node contract rules 3, 3b, 3c).
SHARED_KINDS = ("wfq", "drr", "wrr")
#: Colours (drop precedences) of RED/WRED thresholds, in order (node contract rule 1a).
COLOURS = ("green", "yellow", "red")
#: Cisco's default WRED exponential weighting constant 9: ``red_weight = 2**-9``.
DEFAULT_RED_WEIGHT = 2.0**-9
#: Priority levels allowed (0 is served first).
MAX_PRIORITY_LEVEL = 15
MAX_QUANTUM_BYTES = 10**9
MAX_WEIGHT_PACKETS = 10**6
MAX_LIMIT_BYTES = 10**10
MAX_RING_PACKETS = 1_000_000
MAX_RING_BYTES = 10**10
#: Most whole packets the adapter after the ring may hold (:attr:`Node.adapter_packets`, rule 5'').
MAX_ADAPTER_PACKETS = 8
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
#: ``limit_bytes``               [1, 1e10] bytes        queue buffers (at most one packet a byte)
#: ``quantum_bytes`` (DRR)       [1, 1e9] bytes         integer deficits
#: ``weight_packets`` (WRR)      [1, 1e6] packets       integer turn counts
#: ``level`` (priority)          [0, 15]                priority levels
#: ``shape_rate_bps``            [1, 1e12] bit/s        as the policer's rate
#: ``shape_burst_bytes``         [1, 1e12] bytes        as the policer's burst
#: ``red_min_packets``           [0, 1e7] packets       RED thresholds on the average queue
#: ``red_max_packets``           (min, 1e7] packets
#: ``red_max_p``                 (0, 1]                 a probability
#: ``red_weight``                (0, 1]                 EWMA weight
#: ``ring_limit_particles``      [1, 1e6] particles     ring buffer
#: ``ring_limit_packets``        [1, 1e6] packets       ring buffer
#: ``ring_limit_bytes``          [1, 1e10] bytes        ring buffer (at most one packet a byte)
#: ``adapter_packets``           [0, 8] packets         whole packets after the ring (rule 5'')
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


#: The one parameter each non-priority kind requires (and no other kind allows): its name, its
#: check and the allowed values as the error states them.
DISCIPLINE_PARAMETERS = {
    "wfq": (
        "weight_bps",
        lambda name, v: check_real(name, v, *RATE_RANGE_BPS),
        f"a finite number in [{RATE_RANGE_BPS[0]}, {RATE_RANGE_BPS[1]}] bit/s",
    ),
    "drr": (
        "quantum_bytes",
        lambda name, v: check_int(name, v, 1, MAX_QUANTUM_BYTES),
        f"an integer in [1, {MAX_QUANTUM_BYTES}] bytes",
    ),
    "wrr": (
        "weight_packets",
        lambda name, v: check_int(name, v, 1, MAX_WEIGHT_PACKETS),
        f"an integer in [1, {MAX_WEIGHT_PACKETS}] packets",
    ),
}


@dataclass(frozen=True)
class Queue:
    """One queue of the node's queueing system (node contract rules 1-3e, ``docs/model.md``).

    Parameters
    ----------
    kind : {"priority", "wfq", "drr", "wrr"}
        ``"priority"``: strict priority over every non-priority queue; several priority queues
        are served by ``level`` (rule 3a). The non-priority queues of a node share one
        discipline: ``"wfq"`` self-clocked fair queueing with finish tags
        ``F = max(V, F_last) + size * 8 / weight_bps`` (rule 2), ``"drr"`` deficit round robin
        with ``quantum_bytes`` (rule 3b), ``"wrr"`` weighted round robin with ``weight_packets``
        (rule 3c). A FIFO is one queue of any kind.
    limit_packets : int or None
        Packets the queue holds waiting (packets in the ring do not count), in [1, 1e7].
        An arrival to a full queue is dropped (drop code 2). ``None``: no packet limit
        (then ``limit_bytes`` is required).
    weight_bps : float, optional
        WFQ weight as a configured bandwidth, bit/s, in [1, 1e12] (see :data:`RATE_RANGE_BPS`).
        Required for ``"wfq"``, not allowed for the other kinds.
    police_rate_bps : float, optional
        Token-bucket policer rate, bit/s, in [1, 1e12]. ``None``: no policer.
    police_burst_bytes : float, optional
        Bucket depth, bytes, in (0, 1e12], full at time 0. Defaults to Cisco's 200 ms of
        traffic at ``police_rate_bps`` (7500 bytes at 300 kbit/s) when a rate is set;
        not allowed without a rate.
    level : int
        Priority level of a ``"priority"`` queue, in [0, 15]; level 0 is served first, and
        queues of one level share its FIFO (rule 3a). Must be 0 for the other kinds.
    quantum_bytes : int, optional
        DRR quantum, bytes added to the queue's deficit at each turn, in [1, 1e9]. Required for
        ``"drr"``, not allowed for the other kinds.
    weight_packets : int, optional
        WRR weight, packets sent per turn, in [1, 1e6]. Required for ``"wrr"``, not allowed for
        the other kinds.
    limit_bytes : int, optional
        IP bytes the queue holds waiting, in [1, 1e10]: a packet that would take the queue
        above it is dropped (drop code 2), whichever of the two limits is hit first (rule 2b).
    shape_rate_bps : float, optional
        Token-bucket shaper rate, bit/s, in [1, 1e12] (rule 3d): holds the queue's head until
        the bucket holds its size, never drops. ``None``: not shaped.
    shape_burst_bytes : float, optional
        Shaper bucket depth, bytes, in [1, 1e12], full at time 0; required with a shaper rate,
        and every packet of the queue must fit in it.
    red_min_packets, red_max_packets, red_max_p : float or sequence of 3, optional
        RED (one value each) or WRED (one per colour: green, yellow, red) thresholds on the
        average queue, packets, ``0 <= min < max <= 1e7``, and the drop probability at ``max``,
        in (0, 1] (rule 2a; drop code 3). All three or none.
    red_weight : float, optional
        EWMA weight of the average queue, in (0, 1]; default 2**-9 (Cisco's exponential
        weighting constant 9) when RED is set; not allowed without RED, except the default
        (so ``dataclasses.replace(q, red_min_packets=None, red_max_packets=None,
        red_max_p=None)`` removes RED).
    name : str, optional
        The label of the queue's traffic class in results (e.g. ``"voice"``), 1 to
        :data:`MAX_NAME_CHARS` printable characters; ``None`` (default): ``"queue <index>"``
        (:attr:`Node.class_names`). A label only: the node runs the same with or without it.
    """

    kind: str
    limit_packets: int | None
    weight_bps: float | None = None
    police_rate_bps: float | None = None
    police_burst_bytes: float | None = None
    level: int = 0
    quantum_bytes: int | None = None
    weight_packets: int | None = None
    limit_bytes: int | None = None
    shape_rate_bps: float | None = None
    shape_burst_bytes: float | None = None
    red_min_packets: tuple | float | None = None
    red_max_packets: tuple | float | None = None
    red_max_p: tuple | float | None = None
    red_weight: float | None = None
    name: str | None = None

    def __post_init__(self) -> None:
        if self.kind == "fifo":
            raise ValueError(
                f"kind must be one of {', '.join(map(repr, QUEUE_KINDS))}, got 'fifo' (a FIFO is a"
                " node with one queue of any kind, e.g. Queue('priority', limit_packets))"
            )
        check_choice("kind", self.kind, QUEUE_KINDS)
        if self.limit_packets is not None:
            object.__setattr__(
                self,
                "limit_packets",
                check_int("limit_packets", self.limit_packets, 1, MAX_LIMIT_PACKETS),
            )
        if self.limit_bytes is not None:
            object.__setattr__(
                self, "limit_bytes", check_int("limit_bytes", self.limit_bytes, 1, MAX_LIMIT_BYTES)
            )
        if self.limit_packets is None and self.limit_bytes is None:
            raise ValueError(
                "limit_packets must be an integer in [1, 10000000] packets, or None with"
                " limit_bytes set, got None and no limit_bytes"
            )
        self._check_discipline()
        self._check_policer()
        self._check_shaper()
        self._check_red()
        check_name(self.name)

    def _only_for(self, name: str, kind: str) -> None:
        if getattr(self, name) is not None and self.kind != kind:
            raise ValueError(
                f"{name} must be None for a {self.kind!r} queue (it is the {kind!r} parameter), "
                f"got {getattr(self, name)!r}"
            )

    def _check_discipline(self) -> None:
        for kind, (name, _, _) in DISCIPLINE_PARAMETERS.items():
            self._only_for(name, kind)
        parameter = DISCIPLINE_PARAMETERS.get(self.kind)
        if parameter is not None:
            name, check, allowed = parameter
            if getattr(self, name) is None:
                raise ValueError(f"{name} must be {allowed} for a {self.kind!r} queue, got None")
            object.__setattr__(self, name, check(name, getattr(self, name)))
        if self.kind == "priority":
            object.__setattr__(self, "level", check_int("level", self.level, 0, MAX_PRIORITY_LEVEL))
        elif self.level != 0:
            raise ValueError(
                f"level must be 0 for a {self.kind!r} queue (levels order 'priority' queues), "
                f"got {self.level!r}"
            )

    def _check_policer(self) -> None:
        if self.police_rate_bps is None:
            if self.police_burst_bytes is not None:
                raise ValueError(
                    "police_burst_bytes must be None when police_rate_bps is None, "
                    f"got {self.police_burst_bytes!r}"
                )
            return
        rate = check_real("police_rate_bps", self.police_rate_bps, *RATE_RANGE_BPS)
        object.__setattr__(self, "police_rate_bps", rate)
        burst = self.police_burst_bytes
        if burst is None:
            burst = rate * DEFAULT_POLICE_BURST_S / 8.0
        object.__setattr__(
            self,
            "police_burst_bytes",
            check_real(
                "police_burst_bytes", burst, 0.0, MAX_POLICE_BURST_BYTES, strict_minimum=True
            ),
        )

    def _check_shaper(self) -> None:
        if self.shape_rate_bps is None:
            if self.shape_burst_bytes is not None:
                raise ValueError(
                    "shape_burst_bytes must be None when shape_rate_bps is None, "
                    f"got {self.shape_burst_bytes!r}"
                )
            return
        object.__setattr__(
            self,
            "shape_rate_bps",
            check_real("shape_rate_bps", self.shape_rate_bps, *RATE_RANGE_BPS),
        )
        if self.shape_burst_bytes is None:
            raise ValueError(
                f"shape_burst_bytes must be a number in [1, {MAX_POLICE_BURST_BYTES:g}] bytes with "
                "shape_rate_bps (at least the queue's largest packet), got None"
            )
        object.__setattr__(
            self,
            "shape_burst_bytes",
            check_real("shape_burst_bytes", self.shape_burst_bytes, 1.0, MAX_POLICE_BURST_BYTES),
        )

    def _check_red(self) -> None:
        names = ("red_min_packets", "red_max_packets", "red_max_p")
        given = [getattr(self, n) is not None for n in names]
        if not any(given):
            if self.red_weight == DEFAULT_RED_WEIGHT:  # set by RED: dataclasses.replace removes RED
                object.__setattr__(self, "red_weight", None)
            if self.red_weight is not None:
                raise ValueError(
                    f"red_weight must be None without RED thresholds, got {self.red_weight!r}"
                )
            return
        if not all(given):
            missing = ", ".join(n for n, g in zip(names, given) if not g)
            raise ValueError(
                "RED needs red_min_packets, red_max_packets and red_max_p together; missing"
                f" {missing}"
            )
        lows = _per_colour("red_min_packets", self.red_min_packets, 0.0, MAX_LIMIT_PACKETS)
        highs = _per_colour("red_max_packets", self.red_max_packets, 0.0, MAX_LIMIT_PACKETS)
        probs = _per_colour("red_max_p", self.red_max_p, 0.0, 1.0, strict_minimum=True)
        for colour, low, high in zip(COLOURS, lows, highs):
            if not high > low:
                raise ValueError(
                    f"red_max_packets must exceed red_min_packets for {colour} packets, "
                    f"got min {low!r} and max {high!r}"
                )
        check_red_thresholds(lows, self.limit_packets, COLOURS)  # a warning: RED that never drops
        object.__setattr__(self, "red_min_packets", lows)
        object.__setattr__(self, "red_max_packets", highs)
        object.__setattr__(self, "red_max_p", probs)
        weight = DEFAULT_RED_WEIGHT if self.red_weight is None else self.red_weight
        object.__setattr__(
            self, "red_weight", check_real("red_weight", weight, 0.0, 1.0, strict_minimum=True)
        )

    def __repr__(self) -> str:
        return _short_repr(self, QUEUE_OPTIONAL_DEFAULTS)

    @property
    def policed(self) -> bool:
        """Whether the queue has a token-bucket policer."""
        return self.police_rate_bps is not None

    @property
    def shaped(self) -> bool:
        """Whether the queue has a token-bucket shaper (rule 3d)."""
        return self.shape_rate_bps is not None

    @property
    def red(self) -> bool:
        """Whether the queue drops early by RED/WRED (rule 2a)."""
        return self.red_min_packets is not None

    @property
    def max_waiting_packets(self) -> int:
        """The most packets the queue can hold waiting (each packet is at least 1 byte)."""
        limits = [v for v in (self.limit_packets, self.limit_bytes) if v is not None]
        return int(min(limits))


#: The toolbox's fields and their defaults (off): left out of ``to_dict`` and ``repr`` when at them.
QUEUE_TOOLBOX_DEFAULTS = {
    "level": 0,
    "quantum_bytes": None,
    "weight_packets": None,
    "limit_bytes": None,
    "shape_rate_bps": None,
    "shape_burst_bytes": None,
    "red_min_packets": None,
    "red_max_packets": None,
    "red_max_p": None,
    "red_weight": None,
}
NODE_TOOLBOX_DEFAULTS = {"ring_limit_packets": None, "ring_limit_bytes": None, "adapter_packets": 0}
TOOLBOX_FIELDS = (*QUEUE_TOOLBOX_DEFAULTS, *NODE_TOOLBOX_DEFAULTS)
#: A queue's fields left out of ``to_dict`` and ``repr`` at their defaults: the toolbox's and its
#: name,
#: so a node without them has the JSON (and the cache keys and digests made of it) it had before.
QUEUE_OPTIONAL_DEFAULTS = {**QUEUE_TOOLBOX_DEFAULTS, "name": None}
#: Longest :attr:`Queue.name`, characters.
MAX_NAME_CHARS = 64


def default_class_name(index: int) -> str:
    """The label of an unnamed queue's traffic class: ``"queue <index>"``."""
    return f"queue {index}"


def check_name(name) -> str | None:
    """Return a queue's ``name`` if it is None or a str of 1 to :data:`MAX_NAME_CHARS` printable
    characters, not only spaces."""
    if name is None:
        return None
    if not (
        isinstance(name, str)
        and 0 < len(name) <= MAX_NAME_CHARS
        and name.isprintable()
        and name.strip()
    ):
        raise ValueError(
            f"name must be None or a str of 1 to {MAX_NAME_CHARS} printable characters "
            f"(not only spaces), got {name!r}"
        )
    return name


def _without_defaults(data: dict, defaults: dict) -> dict:
    return {
        k: list(v) if isinstance(v, tuple) and k != "queues" else v
        for k, v in data.items()
        if not (k in defaults and v == defaults[k])
    }


def _short_repr(obj, defaults: dict) -> str:
    shown_fields = ", ".join(
        f"{f.name}={getattr(obj, f.name)!r}"
        for f in fields(obj)
        if not (f.name in defaults and getattr(obj, f.name) == defaults[f.name])
    )
    return f"{type(obj).__name__}({shown_fields})"


def _per_colour(
    name: str, value, minimum: float, maximum: float, *, strict_minimum: bool = False
) -> tuple:
    """One value for every colour, or one per colour (green, yellow, red), as a tuple of 3
    floats."""
    if isinstance(value, (list, tuple)):
        if len(value) != len(COLOURS):
            raise ValueError(
                f"{name} must be one number or {len(COLOURS)} (green, yellow, red), got {value!r}"
            )
        values = value
    else:
        values = (value,) * len(COLOURS)
    return tuple(
        check_real(
            f"{name}[{c}]" if isinstance(value, (list, tuple)) else name,
            v,
            minimum,
            maximum,
            strict_minimum=strict_minimum,
        )
        for c, v in zip(COLOURS, values)
    )


@dataclass(frozen=True)
class Node:
    """A router output interface: queues, scheduler, transmission ring and line.

    Parameters
    ----------
    line_rate_bps : float
        Line rate, bit/s, in [1, 1e12]. For ATM the rate counts whole 53-byte cells.
    framing : {"none", "atm-aal5", "ethernet"}
        How an IP packet maps to wire bytes (see :func:`pqlab.node.framing.wire_bytes`).
    ring_limit_particles : int or None
        The transmission ring ("tx-ring-limit"), particles, in [1, 1e6]. A packet may enter
        while fewer than this many particles are in use. ``None``: no particle limit (then
        ``ring_limit_packets`` or ``ring_limit_bytes`` is required).
    particle_bytes : int or None
        Size of one ring particle, bytes, in [1, 1e6]; ``None`` only without a particle limit.
    queues : sequence of Queue
        At least one queue; the non-priority queues all of one kind (``"wfq"``, ``"drr"`` or
        ``"wrr"``). The index of a queue in this sequence is the ``queue`` value of its packets.
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
        shares of the line in the unit the line rate counts. DRR deficits (rule 3b) count the
        same bytes.
    ring_limit_packets : int, optional
        The ring also has room only while fewer than this many packets are in it, in [1, 1e6]
        (rule 3e: a descriptor ring). ``None``: no packet limit.
    ring_limit_bytes : int, optional
        The ring also has room only while fewer than this many IP bytes are in it, in
        [1, 1e10] (rule 3e: byte queue limits). ``None``: no byte limit.
    adapter_packets : int
        Whole packets the port adapter holds after the ring, in [0, 8] (rule 5'', a named variant:
        a Cisco PA-A3's SAR buffer, the 7200's driver freeing a packet's particles once the adapter
        has copied it). ``0`` (default): no adapter, rules 5 and 5' as they are. With ``N >= 1`` the
        ring's head packet leaves the ring (its particles, place and bytes return) when it moves
        into
        the adapter, at ``max(ring entry, departure of the packet N places ahead in line order)``;
        departures are rule 4's. Only with ``ring_release="packet"``.
    """

    line_rate_bps: float
    framing: str
    ring_limit_particles: int | None
    particle_bytes: int | None
    queues: tuple = field(default_factory=tuple)
    ring_release: str = "packet"
    wfq_bytes: str = "ip"
    ring_limit_packets: int | None = None
    ring_limit_bytes: int | None = None
    adapter_packets: int = 0
    #: The papers' router (pqlab.Node.cisco7200_atm()), set by pqlab.papers.stated (the papers'
    #: layer).
    cisco7200_atm: ClassVar[Callable[..., Node]]

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "line_rate_bps", check_real("line_rate_bps", self.line_rate_bps, *RATE_RANGE_BPS)
        )
        check_choice("framing", self.framing, tuple(FRAMING_CODES))
        check_line_rate(
            self.line_rate_bps, self.framing
        )  # a warning: 10 bit/s on Ethernet is a unit slip
        check_choice("ring_release", self.ring_release, RING_RELEASES)
        check_choice("wfq_bytes", self.wfq_bytes, WFQ_BYTES)
        self._check_ring()
        try:
            queues = tuple(self.queues)
        except TypeError:
            raise ValueError(
                f"queues must be a sequence of pqlab.Queue, got {self.queues!r}"
            ) from None
        if not queues:
            raise ValueError("queues must hold at least one pqlab.Queue, got an empty sequence")
        for i, q in enumerate(queues):
            if not isinstance(q, Queue):
                raise ValueError(f"queues[{i}] must be a pqlab.Queue, got {type(q).__name__}")
        shared = sorted({q.kind for q in queues if q.kind != "priority"}, key=SHARED_KINDS.index)
        if len(shared) > 1:
            raise ValueError(
                "queues must hold non-priority queues of one kind (they share the lowest level's "
                f"discipline), got {', '.join(map(repr, shared))}"
            )
        object.__setattr__(self, "queues", queues)
        check_queue_rates(self)  # warnings: a policer of 10 bit/s is a unit slip, ...
        check_priority_order(queues)  # ... a priority queue after fair-queued ones outranks them
        labels: dict = {}
        for i, label in enumerate(self.class_names):
            if label in labels:
                raise ValueError(
                    f"queues[{i}]'s class label {label!r} is already queues[{labels[label]}]'s: "
                    "queue names must differ from each other and from the default 'queue <index>'"
                )
            labels[label] = i
        wfq_tag_steps(self)  # the engine's tag unit; rejects weights too far apart

    def _check_ring(self) -> None:
        for name, top in (
            ("ring_limit_particles", MAX_RING_PARTICLES),
            ("ring_limit_packets", MAX_RING_PACKETS),
            ("ring_limit_bytes", MAX_RING_BYTES),
        ):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, check_int(name, getattr(self, name), 1, top))
        if (
            self.ring_limit_particles is None
            and self.ring_limit_packets is None
            and self.ring_limit_bytes is None
        ):
            raise ValueError(
                "ring_limit_particles must be an integer in [1, 1000000] particles, or None with "
                "ring_limit_packets or ring_limit_bytes set, got no ring limit"
            )
        if self.particle_bytes is not None:
            object.__setattr__(
                self,
                "particle_bytes",
                check_int("particle_bytes", self.particle_bytes, 1, MAX_PARTICLE_BYTES),
            )
        elif self.ring_limit_particles is not None:
            raise ValueError(
                "particle_bytes must be an integer in [1, 1000000] bytes with ring_limit_particles,"
                " got None"
            )
        if self.ring_release == "unit" and self.ring_limit_particles is None:
            raise ValueError(
                "ring_release must be 'packet' without ring_limit_particles (rule 5' returns "
                "particles), got 'unit'"
            )
        object.__setattr__(
            self,
            "adapter_packets",
            check_int("adapter_packets", self.adapter_packets, 0, MAX_ADAPTER_PACKETS),
        )
        if self.adapter_packets and self.ring_release != "packet":
            raise ValueError(
                "adapter_packets must be 0 with ring_release='unit' (rule 5'' moves whole packets "
                "out of the ring; rule 5' returns units of the line's head), got "
                f"adapter_packets={self.adapter_packets} with ring_release={self.ring_release!r}: "
                "set ring_release='packet' or adapter_packets=0"
            )

    @property
    def ring_capacity_packets(self) -> int:
        """The most packets the ring can hold (each uses at least 1 particle and 1 byte)."""
        return int(
            min(
                v
                for v in (self.ring_limit_particles, self.ring_limit_packets, self.ring_limit_bytes)
                if v is not None
            )
        )

    @property
    def class_names(self) -> tuple:
        """The label of each queue's traffic class, in queue order: its :attr:`Queue.name`, or
        ``"queue <index>"`` (:func:`default_class_name`) for an unnamed queue; all distinct."""
        return tuple(
            default_class_name(i) if q.name is None else q.name for i, q in enumerate(self.queues)
        )

    @property
    def shared_kind(self) -> str | None:
        """The discipline of the non-priority queues (rules 3, 3b, 3c), or None if all are
        priority."""
        return next((q.kind for q in self.queues if q.kind != "priority"), None)

    @property
    def priority_index(self) -> int:
        """Index of the priority queue served first (lowest level, then lowest index), or -1 if
        none."""
        levels = [(q.level, i) for i, q in enumerate(self.queues) if q.kind == "priority"]
        return min(levels)[1] if levels else -1

    def to_dict(self) -> dict:
        """Plain-data form (JSON-serialisable) for provenance.

        The DiffServ toolbox's fields (:data:`TOOLBOX_FIELDS`) appear only when set, so a node
        without them has the JSON (and the cache keys and digests made of it) it had before
        they existed.
        """
        data = asdict(self)
        data["queues"] = [_without_defaults(q, QUEUE_OPTIONAL_DEFAULTS) for q in data["queues"]]
        return _without_defaults(data, NODE_TOOLBOX_DEFAULTS)

    def __repr__(self) -> str:
        return _short_repr(self, NODE_TOOLBOX_DEFAULTS)

    @classmethod
    def from_dict(cls, data: dict) -> Node:
        """Inverse of :meth:`to_dict`."""
        data = check_mapping("node", data)
        queues = data.get("queues", ())
        if not isinstance(queues, (list, tuple)):
            raise ValueError(f"node.queues must be a list of queue mappings, got {queues!r}")
        data["queues"] = tuple(
            from_part(
                f"node.queues[{i}]",
                lambda q: Queue(**check_fields(Queue, check_mapping("queue", q))),
                q,
            )
            for i, q in enumerate(queues)
        )
        return from_part("node", lambda d: cls(**check_fields(cls, d)), data)
