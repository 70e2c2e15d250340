"""A model of the whole measured test bed, next to the papers' node model.

The papers' node model (:mod:`pqlab.scenarios`) simulates only the Cisco 7200's
ATM output interface and adds the rest of the path as a size-only delay
(:func:`pqlab.scenarios.paper_path`). The measured test bed is more: the
SmartBits and the workstations' generators, one switched Ethernet into the
C7200, the C7200 (IOS 12.0(6.5)T7, PA-A3 on a 2 Mbit/s PVC), then the looped-back
path through the C7500s on 2 Mbit/s ATM that EF *and* BE share (GLOBECOM'01
Sec. III: "they share the same data path to the destination"), and the
SmartBits' receive port.

:class:`Testbed` names every mechanism that may separate the two, each a
documented option that is OFF in :data:`PAPERS_NODE` (which then reproduces
``pqlab.simulate`` exactly, packet for packet); each option's mechanism and its source are in
docs/testbed.md, "The mechanisms and their sources".

Simulation reuses the engine and :func:`pqlab.node.tandem.simulate_tandem` (the C7200
then the downstream hops); nothing here changes the kernel.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import asdict, dataclass, fields, replace

import numpy as np
import xarray as xr

from .._version import __version__
from ..base import counts
from ..base._validate import check_choice, check_int, check_real
from ..base.provenance import provenance_attrs
from ..measure import experiments
from ..measure.experiments import REFERENCE_FLOW
from ..node.engine import packets_dataset, run_kernel, validate_arrivals
from ..node.framing import AAL5_OVERHEAD_BYTES, PACKET_PARTICLE_BYTES, line_time_s
from ..node.framing import (
    ATM_CELL_BYTES as CELL_BYTES,
)
from ..node.framing import (
    ATM_CELL_PAYLOAD_BYTES as CELL_PAYLOAD_BYTES,
)
from ..node.model import RING_RELEASES, Node, Queue
from ..node.path import Hop, PathModel
from ..node.scenario import (
    REFERENCES,
    Scenario,
    check_trace_window,
    kernel_options,
    red_uniforms,
    simulate,
)
from ..node.timeorigin import origin_attrs, rebase
from ..node.traffic import CBRStream, Deterministic, Empirical, SizeDistribution, merge_streams
from .presets import FIRST_BE_FLOW, real_be_sizes
from .stated import ETHERNET_FRAME_OVERHEAD_BYTES
from .testbed_input import (
    FIFO_LIMIT_PACKETS,
    ethernet_port_s,
    generator_release_s,
    stable_order,
    stall_windows_s,
    stalled_s,
)

__all__ = [
    "Testbed",
    "PAPERS_NODE",
    "TESTBED",
    "TESTBED_ISSUE13",
    "testbed",
    "testbed_node",
    "testbed_scenario",
    "simulate_testbed",
    "testbed_runs",
    "reference_delays",
    "reference_delay",
    "worst_case_bound",
]

#: IOS flow-based WFQ congestive discard threshold, packets per conversation.
CONVERSATION_LIMIT_PACKETS = 64

RING_UNITS = ("particles", "packets")
BE_QUEUEINGS = ("class", "flow")
POLICE_ACCOUNTINGS = ("ip", "frame", "aal5", "aal5_padded", "cells")
TIMESTAMPS = ("rfc2679", "cut_through", "cut_through_plus_line")
BE_SIZE_MIXES = ("per_stream", "per_packet")
BE_LAWS = ("preset", "bimodal")
#: IP lengths of the bimodal BE law: 64-byte and 1518-byte Ethernet frames (TF-TANT: "64 bytes or
#: MTU-size").
BIMODAL_BE_IP_BYTES = (64 - 18, 1518 - 18)


@dataclass(frozen=True)
class Testbed:
    """The mechanisms of the measured test bed; defaults = the papers' node model.

    Each mechanism and its source: docs/testbed.md, "The mechanisms and their sources".

    Parameters
    ----------
    store_forward_hops : int
        Downstream hops of the scenario's path simulated as FIFO store-and-forward
        nodes carrying EF and BE, in ``[0, len(path.hops)]``; the rest keep the
        path model's serialisation.
    particle_bytes : int
        Ring particle size, bytes (>= 1; papers 512).
    ring_unit : {"particles", "packets"}
        What the tx-ring-limit counts.
    be_queueing : {"class", "flow"}
        One WFQ class for BE, or one conversation per BE stream.
    police_accounting : {"ip", "frame", "aal5", "aal5_padded", "cells"}
        Bytes the priority queue's policer counts: the IP packet, the Ethernet frame (+18),
        the AAL5 frame (+16), the AAL5 frame padded to whole 48-byte cell payloads, or cells.
    os_tick_s : float
        Generator timer tick of the software (non-reference) streams, seconds, in
        ``[0, 1]``; 0 = exact CBR times.
    input_ethernet_bps : float
        Rate of the shared input Ethernet port, bit/s (0 = not modelled, else >= 1e6).
    timestamp : {"rfc2679", "cut_through", "cut_through_plus_line"}
        The SmartBits' delay definition (docs/testbed.md, "The mechanisms and their sources").
    be_mtu_bytes : int
        Largest BE IP packet the workstations can send (Ethernet MTU: 1500); larger
        sizes of a preset (Table IV's ``k = 3`` asks for 1536) are sent at this size.
        0 = off.
    be_size_mix : {"per_packet", "per_stream"}
        How the BE law reaches the queue (docs/testbed.md, "The mechanisms and their sources").
    ring_release : {"packet", "unit"}
        When ring units return (:attr:`pqlab.Node.ring_release`): at the packet's
        departure (rule 5), or one by one as its bytes leave (rule 5').
    adapter_packets : int
        Whole packets the adapter holds after the ring (rule 5''), in ``[0, 8]``; only with
        ``ring_release="packet"``.
    be_law : {"preset", "bimodal"}
        The BE law of the "real distribution" experiments (docs/testbed.md, "The mechanisms and
        their sources").
    be_small_share : float
        Share of 64-byte frames in the bimodal law, in ``(0, 1)``.
    extra_ef_frame_bytes : int
        Frame size of the extra EF streams, bytes: 0 (as the preset) or in ``[64, 1518]``.
    ef_hosts : int
        mgen hosts the extra EF streams are dealt to, in ``[1, 64]``.
    police_burst_s : float
        The priority queue policer's burst, seconds of its rate, in ``[0, 10]``; 0 = the preset's.
    stall_interval_s, stall_s : float
        Mean spacing (s, ``0`` or in ``[1e-3, 1e6]``) and length (s, in ``[0, 1]``) of the
        router's stalls; both 0 or both > 0.
    """

    store_forward_hops: int = 0
    particle_bytes: int = 512
    ring_unit: str = "particles"
    be_queueing: str = "class"
    police_accounting: str = "ip"
    os_tick_s: float = 0.0
    input_ethernet_bps: float = 0.0
    timestamp: str = "rfc2679"
    be_mtu_bytes: int = 0
    be_size_mix: str = "per_packet"
    ring_release: str = "packet"
    adapter_packets: int = 0
    be_law: str = "preset"
    be_small_share: float = 0.5
    extra_ef_frame_bytes: int = 0
    ef_hosts: int = 1
    police_burst_s: float = 0.0
    stall_interval_s: float = 0.0
    stall_s: float = 0.0

    def __post_init__(self):
        check_int("store_forward_hops", self.store_forward_hops, 0, 16)
        check_int("particle_bytes", self.particle_bytes, 1, PACKET_PARTICLE_BYTES)
        check_choice("ring_unit", self.ring_unit, RING_UNITS)
        check_choice("be_queueing", self.be_queueing, BE_QUEUEINGS)
        check_choice("police_accounting", self.police_accounting, POLICE_ACCOUNTINGS)
        object.__setattr__(self, "os_tick_s", check_real("os_tick_s", self.os_tick_s, 0.0, 1.0))
        eth = check_real("input_ethernet_bps", self.input_ethernet_bps, 0.0)
        if 0.0 < eth < 1e6:
            raise ValueError(
                "input_ethernet_bps must be 0 (off) or >= 1e6 bit/s, got"
                f" {self.input_ethernet_bps!r}"
            )
        object.__setattr__(self, "input_ethernet_bps", eth)
        check_choice("timestamp", self.timestamp, TIMESTAMPS)
        check_choice("be_size_mix", self.be_size_mix, BE_SIZE_MIXES)
        check_choice("ring_release", self.ring_release, RING_RELEASES)
        mtu = check_int("be_mtu_bytes", self.be_mtu_bytes, 0, 65_535)
        if 0 < mtu < 68:
            raise ValueError(f"be_mtu_bytes must be 0 (off) or in [68, 65535] bytes, got {mtu}")
        check_int("adapter_packets", self.adapter_packets, 0, 8)
        if self.adapter_packets > 0 and self.ring_release != "packet":
            raise ValueError(
                f"adapter_packets = {self.adapter_packets} needs ring_release='packet' (particles"
                " return when the packet enters the adapter, rule 5''), got"
                f" ring_release={self.ring_release!r}"
            )
        check_choice("be_law", self.be_law, BE_LAWS)
        object.__setattr__(
            self, "be_small_share", check_real("be_small_share", self.be_small_share, 0.0, 1.0)
        )
        if not 0.0 < self.be_small_share < 1.0:
            raise ValueError(f"be_small_share must be in (0, 1), got {self.be_small_share!r}")
        frame = check_int("extra_ef_frame_bytes", self.extra_ef_frame_bytes, 0, 1518)
        if 0 < frame < 64:
            raise ValueError(
                "extra_ef_frame_bytes must be 0 (as the preset) or in [64, 1518] bytes, got"
                f" {frame}"
            )
        check_int("ef_hosts", self.ef_hosts, 1, 64)
        object.__setattr__(
            self, "police_burst_s", check_real("police_burst_s", self.police_burst_s, 0.0, 10.0)
        )
        interval = check_real("stall_interval_s", self.stall_interval_s, 0.0, 1e6)
        stall = check_real("stall_s", self.stall_s, 0.0, 1.0)
        if (interval > 0) != (stall > 0) or 0 < interval < 1e-3:
            raise ValueError(
                "stall_interval_s and stall_s must be both 0 (no stalls) or both > 0 with"
                f" stall_interval_s >= 1e-3 s, got stall_interval_s={self.stall_interval_s!r},"
                f" stall_s={self.stall_s!r}"
            )
        object.__setattr__(self, "stall_interval_s", interval)
        object.__setattr__(self, "stall_s", stall)

    def to_dict(self) -> dict:
        """Plain-data form (JSON-serialisable); inverse :meth:`from_dict`."""
        return asdict(self)

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON with sorted keys (the results' ``testbed`` attribute), computed
        once
        per (frozen) model."""
        text = self.__dict__.get("_json")
        if text is None:
            text = self.__dict__["_json"] = json.dumps(self.to_dict(), sort_keys=True)
        return text

    @classmethod
    def from_dict(cls, data: dict) -> "Testbed":
        """Inverse of :meth:`to_dict`; unknown keys raise ``ValueError``."""
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(
                f"unknown Testbed option(s) {sorted(unknown)}; allowed: {sorted(names)}"
            )
        return cls(**data)

    @property
    def is_papers_node(self) -> bool:
        """True when every mechanism is off (the papers' node model)."""
        return self == PAPERS_NODE


#: The papers' node model: every mechanism off.
PAPERS_NODE = Testbed()

#: The frozen calibrated test-bed preset (issue 31). ``benchmarks/calibrate_testbed.py`` chose, on
#: issue 31's
#: calibration set alone (Table IV's ``W_m`` for k = 1, 2, 3 and Table III's mean delay at A = 0 and
#: 5/6; 2 seeds
#: x 2000 samples; the grid of 216 points and every score in
#: ``benchmarks/results/testbed_calibration.json``):
#: 1 store-and-forward hop, no adapter buffer (the ring released unit by unit), the bimodal BE law
#: of 64- and
#: 1518-byte frames with 40 % small packets, and 1024-byte frames for the extra EF streams (RMS 8.47
#: %).
#: Fixed as issue 13's preset, not fitted: 512-byte particles counted by the ring, 10 ms generator
#: tick (100 Hz
#: Linux 2.2/2.4) on one mgen host, FastEthernet input port, 1500-byte Ethernet MTU for BE, one BE
#: class,
#: IP-byte policing with the preset's 200 ms burst, RFC 2679 timestamps, no stalls. docs/testbed.md
#: has the
#: protocol, written before any held-out run.
TESTBED = Testbed(
    store_forward_hops=1,
    particle_bytes=512,
    ring_unit="particles",
    be_queueing="class",
    police_accounting="ip",
    os_tick_s=0.01,
    input_ethernet_bps=1e8,
    timestamp="rfc2679",
    be_mtu_bytes=1500,
    be_size_mix="per_packet",
    ring_release="unit",
    adapter_packets=0,
    be_law="bimodal",
    be_small_share=0.4,
    extra_ef_frame_bytes=1024,
)

#: Issue 13's frozen preset (its calibration set: Table IV's ``W_m`` and Fig. 3-1's maxima), kept to
#: report
#: every measured result before and after issue 31's mechanisms (docs/testbed.md).
TESTBED_ISSUE13 = Testbed(
    store_forward_hops=1,
    particle_bytes=512,
    ring_unit="particles",
    be_queueing="class",
    police_accounting="ip",
    os_tick_s=0.01,
    input_ethernet_bps=1e8,
    timestamp="rfc2679",
    be_mtu_bytes=1500,
    be_size_mix="per_packet",
    ring_release="unit",
)


def testbed(**overrides) -> Testbed:
    """The frozen test-bed preset :data:`TESTBED`, with optional overrides (sensitivity runs).

    Parameters
    ----------
    **overrides
        Fields of :class:`Testbed` to change.

    Returns
    -------
    Testbed
    """
    names = {f.name for f in fields(Testbed)}
    unknown = set(overrides) - names
    if unknown:
        raise ValueError(f"unknown Testbed option(s) {sorted(unknown)}; allowed: {sorted(names)}")
    return replace(TESTBED, **overrides)


def _check_model(model) -> Testbed:
    if model is None:
        return TESTBED
    if not isinstance(model, Testbed):
        raise ValueError(
            "model must be a pqlab.papers.testbed.Testbed (or None: the test bed), got"
            f" {type(model).__name__}"
        )
    return model


def _counted_bytes(ip_bytes: int, accounting: str) -> int:
    """Bytes the LLQ policer counts for an IP packet of ``ip_bytes`` (``police_accounting``:
    docs/testbed.md, "The mechanisms and their sources")."""
    if accounting == "ip":
        return ip_bytes
    if accounting == "frame":
        return ip_bytes + ETHERNET_FRAME_OVERHEAD_BYTES
    frame = ip_bytes + AAL5_OVERHEAD_BYTES
    if accounting == "aal5":
        return frame
    cells = math.ceil(frame / CELL_PAYLOAD_BYTES)
    return (CELL_PAYLOAD_BYTES if accounting == "aal5_padded" else CELL_BYTES) * cells


def _ef_ip_bytes(scenario: Scenario, queue: int) -> int | None:
    """The single IP length of the packets offered to ``queue`` (ValueError if several)."""
    sizes = set()
    for s in scenario.streams:
        if s.queue != queue:
            continue
        size = getattr(s, "size", None)
        if size is None or getattr(size, "size_bytes", None) is None:
            raise ValueError(
                "police_accounting other than 'ip' needs every priority-queue stream to have one "
                f"deterministic size; stream of flow {s.flow} has {type(size).__name__}"
            )
        sizes.add(int(size.size_bytes) + int(getattr(s, "header_bytes", 0)))
    if len(sizes) > 1:
        raise ValueError(
            f"police_accounting other than 'ip' needs one EF packet size, got {sorted(sizes)}"
        )
    return sizes.pop() if sizes else None


def testbed_node(scenario: Scenario, model: Testbed | None = None) -> Node:
    """The C7200 of ``scenario`` with ``model``'s ring and policer (BE
    queues: :func:`testbed_scenario`).

    Parameters
    ----------
    scenario : Scenario
        A papers' preset (its node is the papers' C7200 or a TF-TANT variant).
    model : Testbed, optional
        Default :data:`TESTBED`.

    Returns
    -------
    Node
    """
    model = _check_model(model)
    node = scenario.node
    particle = PACKET_PARTICLE_BYTES if model.ring_unit == "packets" else model.particle_bytes
    queues = list(node.queues)
    for i, q in enumerate(queues):
        if not q.policed:
            continue
        if model.police_burst_s > 0:
            q = replace(q, police_burst_bytes=q.police_rate_bps * model.police_burst_s / 8.0)
        if model.police_accounting != "ip":
            ip = _ef_ip_bytes(scenario, i)
            if ip is not None:
                scale = ip / _counted_bytes(ip, model.police_accounting)
                q = replace(
                    q,
                    police_rate_bps=q.police_rate_bps * scale,
                    police_burst_bytes=q.police_burst_bytes * scale,
                )
        queues[i] = q
    node = replace(
        node, particle_bytes=particle, queues=tuple(queues), ring_release=model.ring_release
    )
    return replace(node, adapter_packets=model.adapter_packets) if model.adapter_packets else node


def _remaining_path(scenario: Scenario, model: Testbed) -> PathModel:
    """The path model left after the simulated hops, plus the receive port's Ethernet
    serialisation."""
    hops = scenario.path.hops
    if model.store_forward_hops > len(hops):
        raise ValueError(
            f"store_forward_hops must be in [0, {len(hops)}] (the scenario's path hops), "
            f"got {model.store_forward_hops}"
        )
    rest = list(hops[model.store_forward_hops :])
    if model.input_ethernet_bps > 0 and model.timestamp == "rfc2679":
        rest.append(Hop(model.input_ethernet_bps, "ethernet"))
    if model.timestamp == "cut_through_plus_line":
        rest.append(Hop(scenario.node.line_rate_bps, scenario.node.framing))
    return PathModel(fixed_s=scenario.path.fixed_s, hops=tuple(rest))


def testbed_scenario(scenario: Scenario, model: Testbed | None = None) -> Scenario:
    """``scenario`` as the test bed sees it: node (:func:`testbed_node`), BE conversations,
    remaining path.

    With ``be_queueing="flow"`` every BE stream (flow >= 100) gets its own WFQ
    queue of the BE class's weight and a limit of 64 packets; the path keeps the
    hops not simulated (:func:`simulate_testbed` simulates the first
    ``store_forward_hops``) and, with the input Ethernet on and RFC 2679
    timestamps, the receive port's serialisation. Its streams are the scenario's
    (generator timing is applied when simulating). With :data:`PAPERS_NODE` the
    scenario is returned unchanged.

    Parameters
    ----------
    scenario : Scenario
    model : Testbed, optional
        Default :data:`TESTBED`.

    Returns
    -------
    Scenario
    """
    if not isinstance(scenario, Scenario):
        raise ValueError(f"scenario must be a pqlab.Scenario, got {type(scenario).__name__}")
    model = _check_model(model)
    if model.is_papers_node:
        return scenario
    seen = scenario.__dict__.setdefault(
        "_testbed_scenarios", {}
    )  # both frozen: computed once per pair
    if model not in seen:
        seen[model] = _testbed_scenario(scenario, model)
    return seen[model]


def _testbed_scenario(scenario: Scenario, model: Testbed) -> Scenario:
    streams = list(scenario.streams)
    want = "packet" if model.be_size_mix == "per_packet" else "stream"
    streams = [
        (
            replace(s, size_per=want)
            if (s.flow >= FIRST_BE_FLOW and getattr(s, "size_per", want) != want)
            else s
        )
        for s in streams
    ]
    streams = [_generated(s, model) for s in streams]
    node = testbed_node(replace(scenario, streams=tuple(streams)), model)
    if model.be_queueing == "flow":
        be_idx = [i for i, s in enumerate(streams) if s.flow >= FIRST_BE_FLOW]
        if be_idx:
            be_queue = streams[be_idx[0]].queue
            template = node.queues[be_queue]
            if template.kind != "wfq":
                raise ValueError("be_queueing='flow' needs the BE streams in a WFQ queue")
            others = [q for i, q in enumerate(node.queues) if i != be_queue]
            remap = {
                old: new
                for new, old in enumerate(i for i in range(len(node.queues)) if i != be_queue)
            }
            conv = Queue("wfq", CONVERSATION_LIMIT_PACKETS, weight_bps=template.weight_bps)
            node = replace(node, queues=tuple(others) + (conv,) * len(be_idx))
            for k, i in enumerate(be_idx):
                streams[i] = replace(streams[i], queue=len(others) + k)
            for i, s in enumerate(streams):
                if i not in be_idx:
                    streams[i] = replace(s, queue=remap[s.queue])
    return replace(
        scenario,
        node=node,
        streams=tuple(streams),
        path=_remaining_path(scenario, model),
        name=f"testbed({scenario.name})",
    )


def _generated(stream, model: Testbed):
    """A stream as the test bed's generators send it: the bimodal BE law, the extra EF streams'
    frame size."""
    size = getattr(stream, "size", None)
    if (
        model.be_law == "bimodal"
        and stream.flow >= FIRST_BE_FLOW
        and isinstance(size, SizeDistribution)
        and size == real_be_sizes()
    ):
        law = Empirical(BIMODAL_BE_IP_BYTES, (model.be_small_share, 1.0))
        return replace(stream, size=law, header_bytes=0)
    extra_ef = stream.flow != REFERENCE_FLOW and stream.flow < FIRST_BE_FLOW
    if model.extra_ef_frame_bytes and extra_ef and isinstance(stream, CBRStream):
        old_ip = int(stream.size.max_bytes) + int(stream.header_bytes)
        frame_bps = (
            stream.rate_bps * (old_ip + ETHERNET_FRAME_OVERHEAD_BYTES) / old_ip
        )  # the stated rate, on frames
        ip = model.extra_ef_frame_bytes - ETHERNET_FRAME_OVERHEAD_BYTES
        return replace(
            stream,
            rate_bps=frame_bps * ip / model.extra_ef_frame_bytes,
            size=Deterministic(ip),
            header_bytes=0,
        )
    return stream


@functools.lru_cache(maxsize=64)
def _fifo_node(hop: Hop) -> Node:
    """A store-and-forward hop as a node: one FIFO queue, a one-packet ring, the hop's rate and
    framing."""
    return Node(
        hop.rate_bps,
        hop.framing,
        1,
        PACKET_PARTICLE_BYTES,
        (Queue("wfq", FIFO_LIMIT_PACKETS, weight_bps=hop.rate_bps),),
    )


def simulate_testbed(
    scenario: Scenario, seed: int = 0, model: Testbed | None = None, *, record_scenario: bool = True
) -> xr.Dataset:
    """Simulate a papers' preset through the test-bed model: what the SmartBits would measure.

    Steps: the scenario's streams are generated exactly as :func:`pqlab.simulate`
    does (same seed, same packets); software streams are released at timer ticks
    (``os_tick_s``); every packet crosses the shared input Ethernet port
    (``input_ethernet_bps``); the C7200 of :func:`testbed_scenario` runs in the
    engine; every kept packet (EF and BE) then crosses the first
    ``store_forward_hops`` hops of the path as FIFO nodes
    (:func:`pqlab.node.tandem.simulate_tandem`).

    Parameters
    ----------
    scenario : Scenario
        A papers' preset (:mod:`pqlab.scenarios`).
    seed : int
        Seed (>= 0); the same seed gives the same Dataset.
    model : Testbed, optional
        Default :data:`TESTBED`; :data:`PAPERS_NODE` returns ``pqlab.simulate(scenario, seed)``.
    record_scenario : bool
        True (default): attribute ``scenario`` holds the test-bed scenario's JSON. False: it holds
        ``"not recorded"`` (as :func:`pqlab.simulate`'s option), for a caller that measures the run
        and records its own provenance.

    Returns
    -------
    xarray.Dataset
        The C7200's per-packet Dataset (as :func:`pqlab.simulate`) where
        ``arrival`` is the packet's send time at its generator (first bit on the
        wire) and ``departure`` its departure from the last simulated device
        (seconds; NaN if dropped), plus ``node_arrival`` and ``node_departure``
        (at the C7200). ``metrics.one_way_delay(ds, testbed_scenario(...).path)``
        is then the delay the SmartBits measures; attrs ``scenario`` (the
        :func:`testbed_scenario` JSON), ``testbed`` (the model JSON), ``seed``,
        ``pqlab_version``, and for a scenario with trace streams
        ``trace_packets_outside_window`` (the window rule of :class:`pqlab.traffic.TraceStream`:
        a trace none of whose packets is in ``[0, duration_s)`` raises ``ValueError``).
    """
    model = _check_model(model)
    seed = _check_seed(seed)
    sc = testbed_scenario(scenario, model)
    if model.is_papers_node:
        ds = simulate(sc, seed=seed, record_scenario=record_scenario)
        ds.attrs["testbed"] = model.to_json()
        return ds
    window_attrs = check_trace_window(sc)  # the streams are generated here, not by pqlab.simulate
    packets = _testbed_packets(scenario, sc, seed, model)
    origin = origin_attrs(packets["origin"]) if packets["origin"] else {}
    attrs = provenance_attrs(
        title=f"pqlab test-bed simulation: {sc.name}",
        history="simulated by pqlab.papers.testbed.simulate_testbed",
        references=REFERENCES,
        source=f"pqlab {__version__} test-bed model (engine + tandem)",
        seed=seed,
        scenario=sc.to_json() if record_scenario else "not recorded",
        warmup_s=sc.warmup_s,
        duration_s=sc.duration_s,
        **origin,
        testbed=model.to_json(),
        **window_attrs,
    )
    at_c7200 = {
        "node_arrival": "arrival at the C7200",
        "node_departure": "departure from the C7200",
    }
    return packets_dataset(
        packets["arrival"],
        packets["size"],
        packets["queue"],
        packets["ring_entry"],
        packets["departure"],
        packets["drop"],
        attrs=attrs,
        extra={
            "flow": (packets["flow"], {"units": "1", "long_name": "flow id"}),
            **{
                name: (packets[name], {"units": "s", "long_name": text})
                for name, text in at_c7200.items()
            },
        },
        variable_attrs={
            "arrival": {"units": "s", "long_name": "first bit sent by the generator"},
            "departure": {"units": "s", "long_name": "departure from the last simulated device"},
        },
    )


#: The per-packet variables of :func:`testbed_runs` with :data:`PAPERS_NODE` (``pqlab.simulate``'s).
PAPERS_NODE_VARIABLES = ("arrival", "size", "queue", "ring_entry", "departure", "drop", "flow")


def testbed_runs(scenario: Scenario, seeds, model: Testbed | None = None) -> list[dict]:
    """:func:`simulate_testbed`'s per-packet arrays for several seeds, without building Datasets.

    The inputs are validated once; each seed's run draws the same numbers in the same order as
    ``simulate_testbed(scenario, seed, model)``, so every array equals that Dataset's variable.

    Parameters
    ----------
    scenario : Scenario
        A papers' preset (:mod:`pqlab.scenarios`).
    seeds : sequence of int
        Seeds (>= 0), one run each, in this order.
    model : Testbed, optional
        Default :data:`TESTBED`; :data:`PAPERS_NODE` runs ``pqlab.simulate(scenario, seed)``.

    Returns
    -------
    list of dict
        One dict per seed mapping each per-packet variable of :func:`simulate_testbed`'s Dataset
        (``arrival``, ``size``, ``queue``, ``ring_entry``, ``departure``, ``drop``, ``flow``, and
        with the test-bed model ``node_arrival`` and ``node_departure``) to its numpy array.
        A scenario with trace streams follows :func:`pqlab.traffic.TraceStream`'s window rule
        (warning or ``ValueError``) once.
    """
    model = _check_model(model)
    seeds = [_check_seed(seed) for seed in seeds]
    sc = testbed_scenario(scenario, model)
    if model.is_papers_node:
        runs = [simulate(sc, seed=seed, record_scenario=False) for seed in seeds]
        return [{name: ds[name].values for name in PAPERS_NODE_VARIABLES} for ds in runs]
    check_trace_window(sc)
    return [_testbed_packets(scenario, sc, seed, model) for seed in seeds]


def _check_seed(seed) -> int:
    """A seed as an ``int`` (ValueError unless an integer >= 0; ``bool`` rejected)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed must be an integer >= 0, got {seed!r}")
    return check_int("seed", seed, 0)


def _testbed_packets(scenario: Scenario, sc: Scenario, seed: int, model: Testbed) -> dict:
    """One test-bed run on validated inputs: the per-packet arrays of :func:`simulate_testbed`.

    ``sc`` is ``testbed_scenario(scenario, model)``. Besides the Dataset's variables: ``origin``
    (the C7200's time origin, :func:`pqlab.node.timeorigin.rebase`) and ``duration_s`` (the
    provenance's simulated span).
    """
    rng = np.random.default_rng(seed)
    send, size, queue, flow = merge_streams(sc.streams, rng, sc.duration_s)
    if model.be_mtu_bytes > 0:
        size = np.where(
            (flow >= FIRST_BE_FLOW) & (size > model.be_mtu_bytes), model.be_mtu_bytes, size
        )
    timing_rng = np.random.default_rng([seed, 2])
    released = generator_release_s(send, flow, model.os_tick_s, model.ef_hosts, timing_rng)
    at_node = (
        ethernet_port_s(released, size, model.input_ethernet_bps)
        if model.input_ethernet_bps > 0
        else released
    )
    if model.stall_s > 0:
        starts = stall_windows_s(
            float(at_node.max()),
            model.stall_interval_s,
            model.stall_s,
            np.random.default_rng([seed, 3]),
        )
        at_node = stalled_s(at_node, starts, model.stall_s)
    # The C7200 sees one trace per flow, merged as pqlab.simulate merges streams: by time, ties in
    # stream order, then in each trace's own order (the generator's, stable by time).
    stream_of_flow = np.zeros(int(flow.max()) + 1 if flow.size else 1, dtype=np.int64)
    stream_of_flow[[st.flow for st in sc.streams]] = np.arange(len(sc.streams))
    perm = stable_order(at_node, stream_of_flow[flow])
    packets = _c7200_and_hops(
        sc.node,
        at_node[perm],
        size[perm],
        queue[perm],
        seed,
        scenario.path.hops[: model.store_forward_hops],
    )
    counts.note("simulation", "simulate")
    return {
        "arrival": send[perm],
        "size": packets["size"],
        "queue": packets["queue"],
        "ring_entry": packets["ring_entry"],
        "departure": packets["last"],
        "drop": packets["drop"],
        "flow": flow[perm],
        "node_arrival": packets["arrival"],
        "node_departure": packets["departure"],
        "origin": packets["origin"],
        "duration_s": max(sc.duration_s, float(at_node.max()) + 1e-6),
    }


def _c7200_and_hops(node: Node, arrival, size, queue, seed: int, hops) -> dict:
    """The C7200's run on the merged arrivals, then every kept packet through ``hops`` as FIFO
    nodes.

    The steps of :func:`pqlab.simulate` on a scenario of trace streams (validation, RED's draws from
    ``default_rng(seed)``, the time origin, the kernel) and
    of :func:`pqlab.node.tandem.simulate_tandem`
    forwarding every flow, on arrays: ``arrival`` (at the C7200, possibly rebased), ``size``,
    ``queue``,
    ``ring_entry``, ``departure``, ``drop`` of the C7200, ``origin`` and ``last`` (departure from
    the
    last simulated device plus its time origin; NaN if dropped). The C7200's arrivals are validated
    here; each hop's are the kernel's departures of the packets kept, valid by construction, and
    go to the kernel unchecked.
    """
    arrival, size, queue = validate_arrivals(node, arrival, size, queue)
    red_uniform = red_uniforms(node, np.random.default_rng(seed), arrival.shape[0])
    arrival, origin = rebase(node, arrival, size)
    ring_entry, departure, drop = run_kernel(
        node, arrival, size, queue, **kernel_options(None, red_uniform)
    )
    last = departure.copy()
    ids, hop_departure, hop_drop, hop_size = np.arange(arrival.shape[0]), departure, drop, size
    for hop in hops:
        fifo = _fifo_node(hop)
        kept = np.flatnonzero(hop_drop == 0)
        kept = kept[stable_order(hop_departure[kept])]
        # already valid: the previous device's departures of kept packets (finite, >= 0), sorted,
        # and sizes validated at the C7200
        t, hop_size = hop_departure[kept] + 0.0, hop_size[kept]
        hop_queue = np.zeros(kept.size, dtype=np.int64)
        ids = ids[kept]
        t, hop_origin = rebase(fifo, t, hop_size)
        _, hop_departure, hop_drop = run_kernel(fifo, t, hop_size, hop_queue)
        last = np.full(arrival.shape[0], np.nan)
        last[ids] = hop_departure + hop_origin
    return {
        "arrival": arrival,
        "size": size,
        "queue": queue,
        "ring_entry": ring_entry,
        "departure": departure,
        "drop": drop,
        "origin": origin,
        "last": last,
    }


def reference_delays(
    scenario: Scenario, seed: int = 0, model: Testbed | None = None, flow: int = REFERENCE_FLOW
) -> np.ndarray:
    """One-way delays (RFC 2679, as the SmartBits measures) of the reference flow after the warm-up,
    seconds.

    NaN for a lost packet, in sending order.
    """
    model = _check_model(model)
    packets = testbed_runs(scenario, (seed,), model)[0]
    return experiments.reference_delay_values(packets, testbed_scenario(scenario, model), flow)


#: The former name of :func:`reference_delays` (one name was two things: this simulates and
#: returns an array; :func:`pqlab.experiments.reference_delay` selects from a Dataset).
reference_delay = reference_delays


def _size_range(stream) -> tuple[int, int]:
    """Smallest and largest IP length a stream can send, bytes."""
    size, header = stream.size, int(getattr(stream, "header_bytes", 0))
    for lo_name in ("size_bytes", "low_bytes", "min_bytes"):
        lo = getattr(size, lo_name, None)
        if lo is not None:
            break
    if lo is None:
        lo = size.sizes_bytes[0]
    return int(lo) + header, int(size.max_bytes) + header


def _ethernet_port_bound_s(sc: Scenario, ef_ip: int, model: Testbed) -> float:
    """Sender serialisation + FIFO delay bound of the shared input port (network calculus, sum sigma
    / C)."""
    eth = model.input_ethernet_bps
    sigma_bits, rho_bps = 0.0, 0.0
    for s in sc.streams:
        lo, hi = _size_range(s)
        wire_hi = float(line_time_s(hi, "ethernet", 1.0))  # bits of the largest frame
        wire_ratio = float(line_time_s(lo, "ethernet", 1.0)) / (
            8.0 * lo
        )  # wire bits per IP bit, at worst
        if not isinstance(s, CBRStream):
            raise ValueError(
                f"worst_case_bound needs CBR streams (a finite burst), flow {s.flow} is a "
                f"{type(s).__name__}"
            )
        rate = s.rate_bps
        burst = 1.0
        if model.os_tick_s > 0 and s.flow != REFERENCE_FLOW:
            burst += math.ceil(
                model.os_tick_s * rate / (8.0 * lo)
            )  # packets released together at one tick
        sigma_bits += burst * wire_hi
        rho_bps += rate * wire_ratio
    if rho_bps >= eth:
        raise ValueError(
            f"the streams' wire rate ({rho_bps:g} bit/s) must be below input_ethernet_bps ({eth:g})"
        )
    return float(line_time_s(ef_ip, "ethernet", eth)) + sigma_bits / eth


def worst_case_bound(
    scenario: Scenario, model: Testbed | None = None, *, flow: int = REFERENCE_FLOW
) -> float:
    """End-to-end worst-case one-way delay of ``flow``'s packets through the test-bed path, seconds.

    Per-hop latencies in the style of GLOBECOM'01 Table IV and network calculus:

    * generator tick: a software stream's packet leaves at most ``os_tick_s`` late
      (the reference stream is hardware-timed: 0);
    * input Ethernet port (if modelled): the packet's own serialisation at the
      sender, then a FIFO at rate ``C`` fed by CBR streams, each with arrival curve
      ``sigma_i + rho_i t`` (``sigma_i`` = its largest frame, times the packets one
      tick can release): delay <= ``sum sigma_i / C`` (needs ``sum rho_i < C``);
    * router stalls (if modelled): the packet may wait for one stall, ``stall_s``;
    * C7200: at most ``limit`` EF packets ahead in the priority queue (each at most the
      largest EF packet's line time ``t_ef_max``), and no BE packet can enter the ring
      while the EF packet waits; the ring it finds holds at most ``R - 1 + P_max``
      particles (it admits a packet while fewer than ``R`` are in use; GLOBECOM'01's 7
      units), each sent in at most the line time of a full particle, and the adapter
      (rule 5'') up to ``N`` whole packets:
      ``W_c7200 = limit x t_ef_max + (R - 1 + P_max) x t_particle + N x t_max + t_ef``;
    * each store-and-forward hop at the C7200's rate and framing: a FIFO fed no
      faster than it sends has sojourn ``W_n <= max(s_n, W_(n-1))``, so at most the
      largest packet's line time ``t_max`` (the packet ahead still being sent,
      Table IV's "largest packet ahead");
    * the rest of the path model: its serialisation of the packet.

    Parameters
    ----------
    scenario : Scenario
        A papers' preset (EF flows in the priority queue, one size per EF flow).
    model : Testbed, optional
        Default :data:`TESTBED`.
    flow : int
        The flow whose bound is computed (default the reference stream).

    Returns
    -------
    float
        The bound, seconds.
    """
    model = _check_model(model)
    sc = testbed_scenario(scenario, model)
    node = sc.node
    mine = [s for s in sc.streams if s.flow == flow]
    if not mine:
        raise ValueError(
            f"flow must be a flow of the scenario {[s.flow for s in sc.streams]}, got {flow!r}"
        )
    stream = mine[0]
    queue = node.queues[stream.queue]
    if queue.kind != "priority":
        raise ValueError(
            f"flow {flow} must be in the priority queue for this bound, got a {queue.kind} queue"
        )
    ef_ip = int(stream.size.max_bytes) + int(getattr(stream, "header_bytes", 0))
    largest = max(int(s.size.max_bytes) + int(getattr(s, "header_bytes", 0)) for s in sc.streams)
    largest_ef = max(
        int(s.size.max_bytes) + int(getattr(s, "header_bytes", 0))
        for s in sc.streams
        if s.queue == stream.queue
    )
    t_ef = float(line_time_s(ef_ip, node.framing, node.line_rate_bps))
    t_ef_max = float(line_time_s(largest_ef, node.framing, node.line_rate_bps))
    t_max = float(line_time_s(largest, node.framing, node.line_rate_bps))
    t_particle = float(
        line_time_s(min(node.particle_bytes, largest), node.framing, node.line_rate_bps)
    )
    p_max = max(1, math.ceil(largest / node.particle_bytes))
    bound = 0.0
    if flow != REFERENCE_FLOW:
        bound += model.os_tick_s
    if model.input_ethernet_bps > 0:
        bound += _ethernet_port_bound_s(sc, ef_ip, model)
    bound += model.stall_s
    bound += (
        queue.limit_packets * t_ef_max
        + (node.ring_limit_particles - 1 + p_max) * t_particle
        + model.adapter_packets * t_max
        + t_ef
    )
    for hop in scenario.path.hops[: model.store_forward_hops]:
        if hop.rate_bps < node.line_rate_bps or hop.framing != node.framing:
            raise ValueError(
                "worst_case_bound needs every simulated hop at least as fast as the C7200's line "
                f"with the same framing, got {hop.rate_bps:g} bit/s {hop.framing!r}"
            )
        # W_n <= max(s_n, W_(n-1)) at a FIFO fed no faster than it sends: at most the largest line
        # time
        bound += max(t_max, float(line_time_s(ef_ip, hop.framing, hop.rate_bps)))
    bound += float(sc.path.extra_delay_s(ef_ip))
    return bound
