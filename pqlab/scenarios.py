"""Named scenario presets for the papers' experiments.

Each preset builds a :class:`pqlab.Scenario` from the papers' stated test
parameters (GLOBECOM'01 Table I): the Cisco 7200 ATM node, one EF CBR reference
stream in the priority queue, and 20 CBR best-effort UDP streams whose total
rate overloads the 2 Mbit/s line.
"""

from __future__ import annotations

from ._validate import check_int, check_real
from .model import Node
from .path import PathModel
from .scenario import Scenario
from .traffic import UDP_IP_HEADER_BYTES, CBRStream, Deterministic

#: Queue indices of :meth:`pqlab.Node.cisco7200_atm`.
EF_QUEUE, BE_QUEUE = 0, 1
#: Flow id of the EF reference stream; BE streams take 1..n.
REFERENCE_FLOW = 0


def base_case(
    *,
    be_payload_bytes: int = 1000,
    n_ef_samples: int = 10_000,
    n_be_streams: int = 20,
    be_stream_rate_bps: float = 110e3,
    ef_rate_bps: float = 300e3,
    ef_size_bytes: int = 128,
    warmup_s: float = 1.0,
    node: Node | None = None,
    path: PathModel | None = None,
) -> Scenario:
    """The papers' base experiment: one EF CBR stream behind 20 overloading BE CBR streams.

    Parameters
    ----------
    be_payload_bytes : int
        UDP payload of every BE packet, bytes; the IP length adds
        ``UDP_IP_HEADER_BYTES`` (28). GLOBECOM'01 Fig. 3 sweeps 100..1450.
    n_ef_samples : int
        EF reference packets sent after the warm-up (the papers use 10,000).
    n_be_streams : int
        Number of BE CBR streams (20 in the papers).
    be_stream_rate_bps : float
        Rate of each BE stream, bit/s of IP packets; 20 x 110 kbit/s = 2.2 Mbit/s > 2 Mbit/s.
    ef_rate_bps : float
        EF reference stream rate, bit/s (300 kbit/s).
    ef_size_bytes : int
        EF IP packet length, bytes (128: 0.636 ms on the ATM line).
    warmup_s : float
        Seconds simulated before the EF samples are counted (BE queue fills).
    node : Node, optional
        Defaults to :meth:`pqlab.Node.cisco7200_atm`.
    path : PathModel, optional
        Uncongested rest of the path; defaults to none (node delay only).

    Returns
    -------
    Scenario
        Flow 0 is the EF reference stream (queue 0), flows 1..n the BE streams (queue 1).
    """
    check_int("be_payload_bytes", be_payload_bytes, 1, 65_535 - UDP_IP_HEADER_BYTES)
    n_samples = check_int("n_ef_samples", n_ef_samples, 1, 100_000_000)
    n_be = check_int("n_be_streams", n_be_streams, 0, 10_000)
    ef_rate = check_real("ef_rate_bps", ef_rate_bps, 0.0, strict_minimum=True)
    check_int("ef_size_bytes", ef_size_bytes, 1, 65_535)
    warmup = check_real("warmup_s", warmup_s, 0.0)
    ef_interval_s = ef_size_bytes * 8 / ef_rate
    streams = [CBRStream(ef_rate, Deterministic(ef_size_bytes), queue=EF_QUEUE, flow=REFERENCE_FLOW)]
    streams += [
        CBRStream(
            be_stream_rate_bps,
            Deterministic(be_payload_bytes),
            queue=BE_QUEUE,
            flow=REFERENCE_FLOW + 1 + k,
            header_bytes=UDP_IP_HEADER_BYTES,
        )
        for k in range(n_be)
    ]
    return Scenario(
        node=Node.cisco7200_atm() if node is None else node,
        streams=tuple(streams),
        duration_s=warmup + n_samples * ef_interval_s,
        warmup_s=warmup,
        path=PathModel() if path is None else path,
        name=f"base_case(be_payload_bytes={be_payload_bytes})",
    )
