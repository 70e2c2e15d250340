"""Named scenario presets: one per experiment of the papers, built from their stated parameters.

Every preset is the papers' test bed (GLOBECOM'01 Sec. III, Tables I-II; long
version Tables 2-3): the Cisco 7200 ATM node (:meth:`pqlab.Node.cisco7200_atm`),
an EF CBR reference stream (flow 0) in the priority queue, optional further EF
streams (aggregation, flows 1..m), and 20 CBR best-effort UDP streams (flows
100..119) whose total rate (2.2 Mbit/s) overloads the 2 Mbit/s line.

Assumptions, each stated once here and in the report:

* EF "frame sizes" (128, 512, 1024 bytes) are SmartBits Ethernet frames:
  IP length = frame - 18 (Ethernet header 14 + FCS 4), and the EF rate counts
  frames (300 kbit/s of 128-byte frames = 292.97 packets/s, as the paper says).
  On the ATM line a 110-byte IP packet takes the same 3 cells (0.636 ms) as the
  paper's 128 bytes, and 494/1006 bytes take the same cells and particles as 512/1024.
* BE sizes are UDP payloads: IP length = payload + 28. Each BE stream keeps one
  packet size (TF-TANT test page: "constant for a given stream"); with a random
  distribution each stream draws its size once (``be_size_per="stream"``).
* Every stream starts at a random phase (independent sources, no synchronisation).
* The path outside the C7200 is :func:`paper_path`.
"""

from __future__ import annotations

import math

from ._validate import check_choice, check_int, check_real
from .model import Node
from .path import Hop, PathModel
from .paths import DATA
from .scenario import Scenario
from .traffic import UDP_IP_HEADER_BYTES, CBRStream, Deterministic, Empirical, SizeDistribution

#: Queue indices of :meth:`pqlab.Node.cisco7200_atm`.
EF_QUEUE, BE_QUEUE = 0, 1
#: Flow id of the EF reference stream; other EF streams take 1..m, BE streams 100..
REFERENCE_FLOW = 0
FIRST_BE_FLOW = 100
#: Ethernet header (14) + FCS (4): SmartBits frame size minus IP length, bytes.
ETHERNET_FRAME_OVERHEAD_BYTES = 18
#: The papers' EF reference frame, bytes.
EF_FRAME_BYTES = 128
#: The stand-in for the papers' "real" BE packet size distribution (see data/README.md).
REAL_BE_CDF = DATA / "be_size_cdf_standin.csv"


def paper_path() -> PathModel:
    """The uncongested rest of the papers' path, fixed once from what they state.

    GLOBECOM'01 Sec. III: after the C7200 (simulated) the packets cross two
    uncongested C7500 routers that "introduce a constant transmission delay which
    is only a function of the EF packet size": two store-and-forward ATM hops at
    2 Mbit/s (AAL5). No further fixed latency (a metropolitan network). A
    64-byte packet then takes 3 x 0.424 ms = 1.27 ms one way, 2.54 ms round trip
    against the paper's "approximately 2 ms": the report shows both.
    """
    return PathModel(fixed_s=0.0, hops=(Hop(2e6, "atm-aal5"), Hop(2e6, "atm-aal5")))


def real_be_sizes() -> Empirical:
    """The stand-in "real" BE IP length distribution (``data/be_size_cdf_standin.csv``)."""
    return Empirical.from_csv(REAL_BE_CDF)


def ef_ip_bytes(frame_bytes: int) -> int:
    """IP length of an EF packet sent as an Ethernet frame of ``frame_bytes`` bytes."""
    check_int("ef_frame_bytes", frame_bytes, ETHERNET_FRAME_OVERHEAD_BYTES + 1, 65_535)
    return frame_bytes - ETHERNET_FRAME_OVERHEAD_BYTES


def _ef_stream(rate_bps: float, frame_bytes: int, flow: int) -> CBRStream:
    """EF CBR stream of ``rate_bps`` counted on frames (interval = frame * 8 / rate)."""
    ip = ef_ip_bytes(frame_bytes)
    return CBRStream(rate_bps * ip / frame_bytes, Deterministic(ip), queue=EF_QUEUE, flow=flow)


def papers_node(*, ring_limit_particles: int = 5) -> Node:
    """The papers' C7200 node (:meth:`pqlab.Node.cisco7200_atm`)."""
    return Node.cisco7200_atm(ring_limit_particles=ring_limit_particles)


def pq_experiment(
    *,
    be_size: SizeDistribution | None = None,
    be_payload_bytes: int | None = 1000,
    be_size_per: str = "stream",
    ef_frame_bytes: int = EF_FRAME_BYTES,
    ef_rate_bps: float = 300e3,
    ef_aggregate_bps: float | None = None,
    n_ef_samples: int = 10_000,
    n_be_streams: int = 20,
    be_stream_rate_bps: float = 110e3,
    warmup_s: float = 2.0,
    node: Node | None = None,
    path: PathModel | None = None,
    name: str = "",
) -> Scenario:
    """The papers' PQ experiment: EF reference stream (+ aggregation) behind overloading BE.

    Parameters
    ----------
    be_size : SizeDistribution, optional
        BE IP length distribution (e.g. :func:`real_be_sizes`); overrides ``be_payload_bytes``.
    be_payload_bytes : int, optional
        Deterministic BE UDP payload, bytes (IP length = payload + 28).
    be_size_per : {"stream", "packet"}
        One size per BE stream (the papers) or a fresh draw per packet (a hypothesis).
    ef_frame_bytes : int
        EF frame size, bytes (IP length = frame - 18).
    ef_rate_bps : float
        Rate of the EF reference stream, bit/s of frames.
    ef_aggregate_bps : float, optional
        Total EF (behaviour aggregate) rate, bit/s. The rest beyond the reference
        stream is carried by ``ceil((aggregate - ref) / ref)`` equal streams no
        faster than the reference, so ``A = 1 - ref / aggregate`` (GLOBECOM'01 eq. 1).
        ``None``: the reference stream alone (A = 0).
    n_ef_samples : int
        Reference packets sent after the warm-up (the papers: 10,000).
    n_be_streams, be_stream_rate_bps : int, float
        BE streams (20) and the rate of each, bit/s of IP packets (110 kbit/s: 2.2 Mbit/s in all).
    warmup_s : float
        Simulated seconds before the measurement window (the BE queue fills in < 0.5 s).
    node : Node, optional
        Defaults to :func:`papers_node`.
    path : PathModel, optional
        Defaults to :func:`paper_path`.
    name : str
        Label.

    Returns
    -------
    Scenario
    """
    check_choice("be_size_per", be_size_per, ("stream", "packet"))
    n_samples = check_int("n_ef_samples", n_ef_samples, 1, 10_000_000_000)
    n_be = check_int("n_be_streams", n_be_streams, 0, 10_000)
    ef_rate = check_real("ef_rate_bps", ef_rate_bps, 0.0, strict_minimum=True)
    warmup = check_real("warmup_s", warmup_s, 0.0)
    if be_size is None:
        if be_payload_bytes is None:
            raise ValueError("be_payload_bytes must be an integer >= 1 when be_size is None, got None")
        check_int("be_payload_bytes", be_payload_bytes, 1, 65_535 - UDP_IP_HEADER_BYTES)
        be_size, header = Deterministic(be_payload_bytes), UDP_IP_HEADER_BYTES
    elif isinstance(be_size, SizeDistribution):
        header = 0
    else:
        raise ValueError(f"be_size must be a pqlab size distribution, got {type(be_size).__name__}")

    streams = [_ef_stream(ef_rate, ef_frame_bytes, REFERENCE_FLOW)]
    if ef_aggregate_bps is not None:
        aggregate = check_real("ef_aggregate_bps", ef_aggregate_bps, ef_rate)
        rest = aggregate - ef_rate
        n_other = math.ceil(rest / ef_rate - 1e-9) if rest > 0 else 0
        streams += [_ef_stream(rest / n_other, ef_frame_bytes, 1 + k) for k in range(n_other)]
    streams += [
        CBRStream(be_stream_rate_bps, be_size, queue=BE_QUEUE, flow=FIRST_BE_FLOW + k,
                  header_bytes=header, size_per=be_size_per)
        for k in range(n_be)
    ]
    return Scenario(
        node=papers_node() if node is None else node,
        streams=tuple(streams),
        duration_s=warmup + n_samples * ef_frame_bytes * 8 / ef_rate,
        warmup_s=warmup,
        path=paper_path() if path is None else path,
        name=name or "pq_experiment",
    )


def base_case(*, be_payload_bytes: int = 1000, n_ef_samples: int = 10_000, **kw) -> Scenario:
    """GLOBECOM'01 Table I with deterministic BE payloads (Fig. 3): see :func:`pq_experiment`."""
    return pq_experiment(be_payload_bytes=be_payload_bytes, n_ef_samples=n_ef_samples,
                         name=f"base_case(be_payload_bytes={be_payload_bytes})", **kw)


def real_distribution(*, n_ef_samples: int = 10_000, **kw) -> Scenario:
    """GLOBECOM'01 Sec. IV-B / Fig. 5: BE sizes from the stand-in "real" distribution."""
    return pq_experiment(be_size=real_be_sizes(), n_ef_samples=n_ef_samples, name="real_distribution", **kw)


def aggregation(*, ref_rate_bps: float, ef_aggregate_bps: float = 300e3, n_ef_samples: int = 10_000,
                **kw) -> Scenario:
    """GLOBECOM'01 Sec. V, Table II/III (long version 6): EF aggregate 300 kbit/s, reference 50..300 kbit/s."""
    return pq_experiment(be_size=real_be_sizes(), ef_rate_bps=ref_rate_bps, ef_aggregate_bps=ef_aggregate_bps,
                         n_ef_samples=n_ef_samples,
                         name=f"aggregation(ref_rate_bps={ref_rate_bps:g})", **kw)


def ef_frame_size(*, ef_frame_bytes: int, n_ef_samples: int = 10_000, **kw) -> Scenario:
    """Long version Sec. 7, Table 3: one EF stream of 300 kbit/s, frames of 128/512/1024 bytes."""
    return pq_experiment(be_size=real_be_sizes(), ef_frame_bytes=ef_frame_bytes, n_ef_samples=n_ef_samples,
                         name=f"ef_frame_size(ef_frame_bytes={ef_frame_bytes})", **kw)


def full_units(*, k: int, particle_bytes: int = 512, n_ef_samples: int = 10_000, **kw) -> Scenario:
    """GLOBECOM'01 Table IV's W_m: deterministic BE packets that exactly fill ``k`` particles.

    The BE IP length is ``k * particle_bytes`` (payload ``k * particle_bytes - 28``).
    """
    check_int("k", k, 1, 100)
    return pq_experiment(be_payload_bytes=k * particle_bytes - UDP_IP_HEADER_BYTES, n_ef_samples=n_ef_samples,
                         name=f"full_units(k={k})", **kw)
