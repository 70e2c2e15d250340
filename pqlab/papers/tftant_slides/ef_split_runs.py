"""TF-TANT slides on EF aggregation: the runs with the EF load split over several streams, and their
arguments.

What the slides' loss, IPDV-aggregation, tandem and IPDV-size artefacts
(:mod:`~pqlab.papers.tftant_slides.tftant_slides_loss`,
:mod:`~pqlab.papers.tftant_slides.tftant_slides_ipdv_aggregation`,
:mod:`~pqlab.papers.tftant_slides.tftant_slides_tandem`,
:mod:`~pqlab.papers.tftant_slides.tftant_slides_ipdv_size`) share: the scenario
(:func:`ef_split_scenario`), the BE traffic cases, the tandem's EF aggregate and stream counts
(also the IPDV-size runs') and the check of their common arguments (:func:`checked_ef_split`).

Choices, each stated once here and in the notes:

* Where EF configurations are compared (number of streams, frame size, congestion) the BE
  streams are generated first (:func:`pqlab.scenarios.be_streams_first`), so one seed
  gives the same BE sizes and phases in every configuration: paired comparisons.
* EF loads are counted on 128-byte (or the stated) Ethernet frames, as the presets do; the
  priority queue is policed at that frame rate with the IOS default burst (200 ms), so the
  policer sees IP packets at ``(frame - 18) / frame`` of its rate.
* Runs that compare EF split over different numbers of streams count EF packets of all
  streams and measure every EF stream (``n_ef_samples`` of the loss, tandem and IPDV-size
  artefacts), so every configuration sends the same EF volume; elsewhere ``n_ef_samples`` are
  packets of the reference stream, as in the papers (``tftant_be_fig4``,
  ``tftant_slides_ipdv_aggregation``).

Rates in bit/s of Ethernet frames, sizes in bytes, times in seconds.
"""

from __future__ import annotations

import math

from ...base._validate import check_choice, check_int, check_real
from ...node.scenario import Scenario
from .. import kit, presets
from ..stated import MTU_PAYLOAD_BYTES, cisco7200_atm

__all__ = [
    "BE_TRAFFIC",
    "TANDEM_EF_AGGREGATE_BPS",
    "TANDEM_STREAMS",
    "ef_split_scenario",
    "checked_ef_split",
]

#: BE traffic of the runs: STAND-IN real sizes (the claims), MTU-size packets (a bracket), none.
BE_TRAFFIC = ("real", "mtu", "none")
#: Tandem and IPDV size: EF aggregate rate, bit/s of frames, and the EF stream counts compared.
TANDEM_EF_AGGREGATE_BPS = 300e3
TANDEM_STREAMS = (1, 5)


def _be_kwargs(be_traffic: str) -> dict:
    check_choice("be_traffic", be_traffic, BE_TRAFFIC)
    if be_traffic == "real":
        return {"be_size": presets.real_be_sizes()}
    if be_traffic == "mtu":
        return {"be_payload_bytes": MTU_PAYLOAD_BYTES}
    return {"n_be_streams": 0}


def ef_split_scenario(
    n_streams: int,
    ef_aggregate_bps: float,
    *,
    ef_frame_bytes: int = presets.EF_FRAME_BYTES,
    be_traffic: str = "real",
    n_ef_samples: int = 10_000,
    total_samples: bool = False,
    warmup_s: float = 2.0,
) -> Scenario:
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
        ef_rate_bps=load / n,
        ef_aggregate_bps=load if n > 1 else None,
        ef_frame_bytes=ef_frame_bytes,
        n_ef_samples=n_ref,
        node=cisco7200_atm(ef_police_rate_bps=load),
        warmup_s=warmup_s,
        name=(
            f"ef_split(n_streams={n}, ef_aggregate_bps={load:g}, ef_frame_bytes={ef_frame_bytes}, "
            f"be_traffic={be_traffic})"
        ),
        **_be_kwargs(be_traffic),
    )
    return presets.be_streams_first(sc)


def checked_ef_split(n_ef_samples, seeds, ef_frames_bytes, n_streams, ef_aggregate_bps) -> tuple:
    """The arguments the tandem and IPDV-size artefacts give :func:`ef_split_scenario`, checked.

    Returns the EF packets of all streams per run, the seeds, the EF frame sizes (bytes) and the
    EF stream counts (each sorted) and the EF aggregate rate (bit/s, > 0).
    """
    n = kit.check_n_ef_samples(n_ef_samples)
    seeds = kit.check_seeds(seeds)
    frames = sorted(
        kit.check_values(
            "ef_frames_bytes",
            ef_frames_bytes,
            presets.ETHERNET_FRAME_OVERHEAD_BYTES + 1,
            integer=True,
        )
    )
    counts = sorted(kit.check_values("n_streams", n_streams, 1, integer=True))
    load = check_real("ef_aggregate_bps", ef_aggregate_bps, 0.0, strict_minimum=True)
    return n, seeds, frames, counts, load
