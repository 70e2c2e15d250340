"""The papers' stated test bed, defined once: line, framing, ring, queues, EF frame, transmission
unit.

GLOBECOM'01 Sec. II-III (and its long version, the TF-TANT pages on the same test bed)
state one router output: a Cisco 7200 ATM PVC of 2 Mbit/s with AAL5/LLC-SNAP framing, a
transmission ring (tx-ring-limit) of 5 particles of 512 bytes, a priority queue of 10
packets for EF policed at 300 kbit/s and one WFQ best-effort queue of 64 packets; EF
sent by SmartBits as 128-byte Ethernet frames at 300 kbit/s of frames. :data:`PAPERS`
holds those numbers as a :class:`StatedTestBed`; every preset of
:mod:`pqlab.scenarios` derives its node from it with :func:`dataclasses.replace`
(:meth:`StatedTestBed.node`).

This is the test bed *as the papers state it*. The calibrated model of the test bed as
it was *measured* is a different thing (the ``pqlab.papers.testbed`` module of issue 13).

The papers' **transmission unit** (GLOBECOM'01 Sec. IV-B: "the transmission time of an
EF packet of known size at a given line rate (for an EF payload size of 128 by it
corresponds to 0.636 msec)") is the line time of the EF packet: the papers' "128 bytes"
is the SmartBits Ethernet frame, so the IP packet is 128 - 18 = 110 bytes
(:data:`EF_IP_BYTES`); on the ATM line 110 and 128 bytes both take 3 cells, 159 bytes,
0.636 ms, so the number does not depend on the reading there, but on other framings it
does, and pqlab uses the 110-byte IP packet everywhere (:func:`transmission_unit_s`).
Not to be confused with Table IV's ``T_u``, the line time of one 512-byte ring particle
(:func:`pqlab.bounds.particle_time_s`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import xarray as xr

from ..base._validate import check_int
from ..base.units import to_mbps
from ..node.framing import atm_cells, line_time_s
from ..node.model import Node, Queue
from ..node.traffic import UDP_IP_HEADER_BYTES

__all__ = [
    "ETHERNET_FRAME_OVERHEAD_BYTES",
    "EF_FRAME_BYTES",
    "EF_IP_BYTES",
    "StatedTestBed",
    "PAPERS",
    "cisco7200_atm",
    "transmission_unit_s",
    "transmission_units",
    "MTU_BYTES",
    "MTU_PAYLOAD_BYTES",
    "REF_RATES_BPS",
    "EF_FRAME_SIZES",
    "EF_AGGREGATE_BPS",
    "PAPER_FIG3_2_PAYLOADS",
    "MTU_FRAME_BYTES",
    "LOSS_EF_LOAD_BPS",
    "IPDV_EF_LOAD_BPS",
]

#: Ethernet header (14) + FCS (4): SmartBits frame size minus IP length, bytes.
ETHERNET_FRAME_OVERHEAD_BYTES = 18
#: The papers' EF reference frame ("EF packets are 128 byte long"), bytes.
EF_FRAME_BYTES = 128
#: IP length of that frame's packet, bytes (128 - 18).
EF_IP_BYTES = EF_FRAME_BYTES - ETHERNET_FRAME_OVERHEAD_BYTES
#: Largest BE IP packet (Ethernet MTU), bytes: GLOBECOM'01 Sec. II "the MTU size is 1500 by".
MTU_BYTES = 1500
#: BE UDP payload of an MTU packet (IP length 1500 bytes), bytes.
MTU_PAYLOAD_BYTES = MTU_BYTES - UDP_IP_HEADER_BYTES
#: The MTU-size EF frame of the TF-TANT pages (1500-byte IP packets), bytes.
MTU_FRAME_BYTES = MTU_BYTES + ETHERNET_FRAME_OVERHEAD_BYTES
#: Reference stream rates of GLOBECOM'01 Tables II-III, bit/s of frames (A = 5/6, 2/3, 1/3, 0).
REF_RATES_BPS = (50e3, 100e3, 200e3, 300e3)
#: EF frame sizes of the long version's Table 3, bytes.
EF_FRAME_SIZES = (128, 512, 1024)
#: EF aggregate (behaviour aggregate) rate of GLOBECOM'01 Table II, bit/s of frames.
EF_AGGREGATE_BPS = 300e3
#: GLOBECOM'01 Fig. 3-2: the two BE payloads whose delay is plotted over time, bytes.
PAPER_FIG3_2_PAYLOADS = (450, 475)
#: TF-TANT slides "packet clustering": EF load 60% of the 2 Mbit/s line, bit/s of frames.
LOSS_EF_LOAD_BPS = 0.6 * 2e6
#: TF-TANT slides "effect on ipdv": EF load, bit/s of frames.
IPDV_EF_LOAD_BPS = 600e3


@dataclass(frozen=True)
class StatedTestBed:
    """The router output the papers state (GLOBECOM'01 Sec. II-III, Table I).

    Parameters
    ----------
    line_rate_bps : float
        ATM PVC rate, bit/s (2 Mbit/s).
    framing : str
        Line framing (``"atm-aal5"``: AAL5 + LLC/SNAP in whole 53-byte cells).
    ring_limit_particles : int
        tx-ring-limit, particles (5).
    particle_bytes : int
        Ring particle size, bytes (512).
    ef_scheduler : {"pq", "wfq"}
        How queue 0 (EF) is served: ``"pq"`` the priority queue (the GLOBECOM test bed),
        ``"wfq"`` a WFQ queue (the TF-TANT PQ-vs-WFQ page's other case).
    ef_queue_limit_packets : int
        EF queue limit, packets (10).
    ef_service_rate_bps : float
        EF service rate, bit/s: the policing rate of the priority queue (300 kbit/s;
        burst: IOS default 200 ms), or the WFQ weight of the EF queue with ``"wfq"``.
    be_queue_limit_packets : int
        WFQ best-effort queue limit, packets (64).
    be_weight_bps : float
        WFQ weight of the best-effort queue, bit/s (with one WFQ queue its value does
        not change the schedule).
    """

    line_rate_bps: float = 2e6
    framing: str = "atm-aal5"
    ring_limit_particles: int = 5
    particle_bytes: int = 512
    ef_scheduler: str = "pq"
    ef_queue_limit_packets: int = 10
    ef_service_rate_bps: float = 300e3
    be_queue_limit_packets: int = 64
    be_weight_bps: float = 1.7e6

    def node(self) -> Node:
        """The :class:`pqlab.Node`: queue 0 EF (policed priority queue, or WFQ), queue 1 the WFQ BE
        queue."""
        if self.ef_scheduler == "pq":
            ef = Queue(
                "priority", self.ef_queue_limit_packets, police_rate_bps=self.ef_service_rate_bps
            )
        elif self.ef_scheduler == "wfq":
            ef = Queue("wfq", self.ef_queue_limit_packets, weight_bps=self.ef_service_rate_bps)
        else:
            raise ValueError(f"ef_scheduler must be 'pq' or 'wfq', got {self.ef_scheduler!r}")
        return Node(
            line_rate_bps=self.line_rate_bps,
            framing=self.framing,
            ring_limit_particles=self.ring_limit_particles,
            particle_bytes=self.particle_bytes,
            queues=(ef, Queue("wfq", self.be_queue_limit_packets, weight_bps=self.be_weight_bps)),
        )

    def replace(self, **changes) -> StatedTestBed:
        """:func:`dataclasses.replace`: the same test bed with some stated values changed."""
        return dataclasses.replace(self, **changes)

    @property
    def line_text(self) -> str:
        """The line rate as claims and figures write it: ``"2 Mbit/s"``."""
        return f"{to_mbps(self.line_rate_bps):g} Mbit/s"

    def atm_cells(self, ip_bytes: int = EF_IP_BYTES) -> int:
        """ATM cells of an IP packet of ``ip_bytes`` on the line (3 for the papers' 110-byte EF
        packet).

        Raises
        ------
        ValueError
            If the line's framing is not ``"atm-aal5"``.
        """
        if self.framing != "atm-aal5":
            raise ValueError(
                f"atm_cells needs framing 'atm-aal5', the test bed has {self.framing!r}"
            )
        ip_bytes = check_int("ip_bytes", ip_bytes, 1, 65_535)
        return atm_cells(ip_bytes)


#: The papers' test bed as stated.
PAPERS = StatedTestBed()


def cisco7200_atm(
    *,
    ring_limit_particles: int = 5,
    ef_police_rate_bps: float = 300e3,
    be_weight_bps: float = 1.7e6,
) -> Node:
    """The papers' router: a Cisco 7200 ATM PVC output interface (:data:`PAPERS`, as
    a :class:`pqlab.Node`).

    2 Mbit/s line with AAL5/LLC-SNAP framing, a transmission ring of 5
    particles of 512 bytes, queue 0 = priority (EF) limit 10 policed at
    300 kbit/s (burst: IOS default 200 ms = 7500 bytes), queue 1 = one WFQ
    best-effort queue of limit 64 (GLOBECOM'01, Sec. II and III). The one way the papers'
    node is built: ``PAPERS.replace(...).node()``; ``pqlab.Node.cisco7200_atm()`` is this
    function under the name users know.

    Parameters
    ----------
    ring_limit_particles : int
        tx-ring-limit, particles (the papers vary it in the TF-TANT slides).
    ef_police_rate_bps : float
        Priority-queue policing rate, bit/s.
    be_weight_bps : float
        WFQ weight of the best-effort queue, bit/s; with a single WFQ queue
        its value does not change the schedule.
    """
    return PAPERS.replace(
        ring_limit_particles=ring_limit_particles,
        ef_scheduler="pq",
        ef_service_rate_bps=ef_police_rate_bps,
        be_weight_bps=be_weight_bps,
    ).node()


# The papers' router as a Node constructor too, under the name users know
# (pqlab.Node.cisco7200_atm()): the papers' layer builds it, which the node layer may not import.
Node.cisco7200_atm = staticmethod(cisco7200_atm)


def transmission_unit_s(node: Node | None = None, ip_bytes: int = EF_IP_BYTES) -> float:
    """The papers' transmission unit: the line time of one EF packet, seconds (GLOBECOM'01 Sec.
    IV-B).

    ``line_time_s(ip_bytes, node.framing, node.line_rate_bps)``: 0.636 ms for the papers'
    110-byte IP packet (128-byte frame) on the 2 Mbit/s ATM line (3 cells).

    Parameters
    ----------
    node : Node, optional
        Whose line framing and rate define the unit; default ``PAPERS.node()``.
    ip_bytes : int
        IP length of the reference packet, bytes, in ``[1, 65535]`` (default :data:`EF_IP_BYTES`).
    """
    node = PAPERS.node() if node is None else node
    if not isinstance(node, Node):
        raise ValueError(f"node must be a pqlab.Node, got {type(node).__name__}")
    size = check_int("ip_bytes", ip_bytes, 1, 65_535)
    return float(line_time_s(size, node.framing, node.line_rate_bps))


def transmission_units(delay_s, node: Node, ref_size_bytes: int = EF_IP_BYTES):
    """Delay in transmission units: line times of a reference packet (GLOBECOM'01 Sec. IV-B).

    ``delay_s / transmission_unit_s(node, ref_size_bytes)`` (:func:`transmission_unit_s`);
    the papers' EF packet (a 128-byte frame, 110-byte IP packet) on ``atm-aal5`` at
    2 Mbit/s takes 0.636 ms (3 cells, 159 bytes on the wire).

    Parameters
    ----------
    delay_s : float, array_like or xarray.DataArray
        Delays, seconds.
    node : Node
        The node whose line framing and rate define the unit.
    ref_size_bytes : int
        Reference packet IP length, bytes, in ``[1, 65535]`` (default the papers' 110).

    Returns
    -------
    float, numpy.ndarray or xarray.DataArray
        Like ``delay_s``, in transmission units (a DataArray keeps its coords
        and gets ``units`` attrs).
    """
    if not isinstance(node, Node):
        raise ValueError(f"node must be a pqlab.Node, got {type(node).__name__}")
    ref = check_int("ref_size_bytes", ref_size_bytes, 1, 65_535)
    unit_s = transmission_unit_s(node, ref)
    if isinstance(delay_s, xr.DataArray):
        out = delay_s / unit_s
        out.attrs = {
            "units": f"transmission units ({unit_s * 1e3:.6g} ms)",
            "long_name": (
                f"{delay_s.attrs.get('long_name', 'delay')} in line times of a {ref}-byte packet"
            ),
        }
        return out
    try:
        arr = np.asarray(delay_s, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"delay_s must be numbers (seconds), got {delay_s!r}") from None
    out = arr / unit_s
    return float(out) if out.ndim == 0 else out
