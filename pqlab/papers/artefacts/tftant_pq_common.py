"""TF-TANT PQ with multiple BE/EF streams: what its two figure groups share (readings of the sources, helpers).

Used by :mod:`pqlab.papers.artefacts.tftant_streams` and :mod:`pqlab.papers.artefacts.tftant_tandem`;
:mod:`pqlab.papers.artefacts.tftant_pq` re-exports the public names.
"""

from __future__ import annotations

import math

import numpy as np

from .. import presets
from ...base._validate import check_choice, check_int, check_real
from ...node.model import Node
from ..stated import IPDV_EF_LOAD_BPS, LOSS_EF_LOAD_BPS, PAPERS, cisco7200_atm, transmission_unit_s
from ...node.scenario import Scenario
from ._common import MTU_BYTES, MTU_PAYLOAD_BYTES


#: Means (of the untruncated law) of the geometric BE sizes of test page Fig. 4, bytes.
GEOMETRIC_MEANS_BYTES = (100, 300, 500, 800)
#: Range of the geometric BE IP lengths, bytes (a bare TCP/IP header .. the Ethernet MTU).
GEOMETRIC_RANGE_BYTES = (40, MTU_BYTES)
#: Label of the STAND-IN real distribution on the ``distribution`` dimension.
REAL = "real (stand-in)"
#: Percentiles whose span measures "the range" a delay distribution covers.
SPAN_PERCENTILES = (1.0, 99.0)
#: Line rate of the papers' PVC, bit/s.
LINE_RATE_BPS = PAPERS.line_rate_bps
#: A second EF load (30% of the line) to see whether the load matters ("EF load irrelevant").
LOSS_SECOND_LOAD_BPS = 0.3 * LINE_RATE_BPS
#: EF stream counts of the loss sweep: 1..20 (every second count above 2).
LOSS_STREAMS = (1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20)
#: Slide "effect on ipdv": EF load of 600 kbit/s and the stream counts compared.
IPDV_STREAMS = (1, 20)
#: BE traffic of the IPDV runs: STAND-IN real sizes (the claims), MTU-size packets (a bracket), none.
BE_TRAFFIC = ("real", "mtu", "none")
#: Tandem: EF aggregate rate, bit/s of frames, and the EF frame sizes and stream counts compared.
TANDEM_EF_AGGREGATE_BPS = 300e3
TANDEM_FRAMES = (128, 1024)
TANDEM_STREAMS = (1, 5)
#: Slide "EF packet size and ipdv": EF frame sizes (the slide shows 256 and 1518; 128 and 1024 added).
IPDV_SIZE_FRAMES = (128, 256, 1024, 1518)


# --------------------------------------------------------------------------- helpers


def _unit_s(node: Node) -> float:
    """The transmission unit on ``node``'s line, seconds (:func:`pqlab.papers.transmission_unit_s`)."""
    return transmission_unit_s(node)


def _be_kwargs(be_traffic: str) -> dict:
    check_choice("be_traffic", be_traffic, BE_TRAFFIC)
    if be_traffic == "real":
        return {"be_size": presets.real_be_sizes()}
    if be_traffic == "mtu":
        return {"be_payload_bytes": MTU_PAYLOAD_BYTES}
    return {"n_be_streams": 0}


def ef_split_scenario(n_streams: int, ef_aggregate_bps: float, *, ef_frame_bytes: int = presets.EF_FRAME_BYTES,
                      be_traffic: str = "real", n_ef_samples: int = 10_000, total_samples: bool = False,
                      warmup_s: float = 2.0) -> Scenario:
    """The papers' experiment with the EF load split equally over ``n_streams`` CBR streams.

    :func:`pqlab.scenarios.pq_experiment` with ``ef_rate_bps = ef_aggregate_bps / n_streams``
    (reference stream = flow 0) and the priority queue of :meth:`pqlab.Node.cisco7200_atm`
    policed at ``ef_aggregate_bps`` (IOS default burst), BE streams generated first.

    Parameters
    ----------
    n_streams : int
        EF streams, >= 1.
    ef_aggregate_bps : float
        EF load, bit/s of frames (> 0).
    ef_frame_bytes : int
        EF frame size, bytes.
    be_traffic : {"real", "mtu", "none"}
        20 BE streams of STAND-IN real sizes, of 1500-byte IP packets, or no BE (no congestion).
    n_ef_samples : int
        Packets of the reference stream (``total_samples=False``) or of all EF streams.
    total_samples : bool
        How ``n_ef_samples`` counts (see above).
    warmup_s : float
        Seconds before the measurement window.

    Returns
    -------
    Scenario
    """
    n = check_int("n_streams", n_streams, 1, 1000)
    load = check_real("ef_aggregate_bps", ef_aggregate_bps, 0.0, strict_minimum=True)
    n_ref = math.ceil(n_ef_samples / n) if total_samples else n_ef_samples
    sc = presets.pq_experiment(
        ef_rate_bps=load / n, ef_aggregate_bps=load if n > 1 else None, ef_frame_bytes=ef_frame_bytes,
        n_ef_samples=n_ref, node=cisco7200_atm(ef_police_rate_bps=load), warmup_s=warmup_s,
        name=f"ef_split(n_streams={n}, ef_aggregate_bps={load:g}, ef_frame_bytes={ef_frame_bytes}, "
             f"be_traffic={be_traffic})",
        **_be_kwargs(be_traffic))
    return presets.be_streams_first(sc)


def min_bucket_bytes(arrival_s, size_bytes, rate_bps: float) -> float:
    """Smallest token-bucket depth (full at 0) that passes every packet at ``rate_bps``, bytes.

    ``max over i <= j`` of ``sum(size[i..j]) - rate (t_j - t_i)``: the burstiness of the
    arrivals against the policed rate. A policer whose burst is at least this drops nothing.
    """
    t = np.asarray(arrival_s, dtype=float)
    s = np.asarray(size_bytes, dtype=float)
    if t.size == 0:
        return 0.0
    r = check_real("rate_bps", rate_bps, 0.0, strict_minimum=True) / 8.0
    cum = np.cumsum(s)
    after = cum - r * t  # tokens taken up to and including packet j, minus refill
    before = cum - s - r * t  # the same just before packet i
    return float(np.max(after - np.minimum.accumulate(before)))


def _percentile_span(values: np.ndarray) -> float:
    v = values[np.isfinite(values)]
    lo, hi = np.percentile(v, SPAN_PERCENTILES)
    return float(hi - lo)
