"""TF-TANT: priority queueing vs weighted fair queueing for EF, and the slides' tx-ring, STAR and no-BE tests.

Sources (full references in ``docs/references.md``): the TF-TANT test page "Priority Queuing and
Weighted Fair Queuing for the support of EF traffic" (Dec. 1999,
``tftant-test-pq-vs-wfq.txt``) and the slides "Delay and Delay Variation
Measurements in a Differentiated Services Test Network" (T. Ferrari,
``tftant-slides-delay-and-ipdv.txt``). One compute function per artefact id,
each returning an ``xarray.Dataset`` (no plotting, no I/O), in two modules by figure group,
:mod:`~pqlab.papers.artefacts.tftant_wfq_page` (the test page) and
:mod:`~pqlab.papers.artefacts.tftant_slides` (the slides), over what they share
(:mod:`~pqlab.papers.artefacts.tftant_common`); this module is the section and re-exports them; the claims,
``<id>_claims(data)``, are in :mod:`pqlab.papers.artefacts.claims.tftant_wfq` (``from
pqlab.papers.artefacts.claims import tftant_wfq as tftant_wfq_claims``: this module does not
import or offer them). Figures of
the same names are in :mod:`pqlab.papers.figures.tftant_wfq`; notebooks
``07_tftant_pq_vs_wfq`` and ``08_tftant_ring_and_star``.

========================  ============================================================
artefact id               what it reproduces
========================  ============================================================
``tftant_wfq_fig1``       page Fig. 1: mean EF one-way delay, PQ and WFQ, vs EF frame size
``tftant_wfq_fig2_4``     page Figs. 2-4: delay over time, PQ vs WFQ, 128/1024/1518 bytes
``tftant_wfq_fig5``       page Fig. 5: mean IPDV (mean abs. IPDV), PQ and WFQ, vs frame size
``tftant_wfq_fig6_7``     page Figs. 6-7 (and the slides' "WFQ vs PQ: ipdv"): IPDV over time
``tftant_slides_ring``    slides "Tx queue": delay and IPDV vs tx-ring-limit
``tftant_slides_star``    slides "EF queue service rate": delay and IPDV vs STAR under WFQ
``tftant_slides_no_be``   slides: delay over time with and without best-effort traffic
========================  ============================================================

The test bed is :func:`pqlab.scenarios.pq_vs_wfq` (its readings of the sources,
stated in :mod:`pqlab.scenarios`): one EF CBR stream (IP = frame - 18, 300 kbit/s of
frames) and one CBR BE stream of 1000-byte IP packets, 2.0 Mbit/s, on the C7200's
2 Mbit/s ATM PVC, a ring of 5 particles of 512 bytes, EF queue limit 10. Under
WFQ the EF queue is a WFQ queue of weight 400 kbit/s (the "service rate") and the
BE queue one of the remaining 1.6 Mbit/s; under PQ 400 kbit/s is the priority
queue's policing rate. The BE queue is always backlogged, so every EF packet
finds a full ring: the unit of every effect is the **BE transmission time**, the
line time of one 1000-byte BE packet (22 ATM cells, 4.664 ms).

Every Dataset is in SI units: times in seconds, rates in bit/s, sizes in bytes (each
variable's ``units`` attr says which); multiples of the BE transmission time in "BE tx
times". The claims state delays in the sources' milliseconds: they convert the per-seed
values first (:func:`pqlab.base.units.times_in_ms`) and compute the statistics again with
the function of :data:`STATISTICS` that made them here; figures draw milliseconds.
"""

from __future__ import annotations

from .tftant_common import (BE_TX, SOURCE_FRAME_SIZES, MTU_FRAME_BYTES, EQUIVALENT_BE_TX, PEAK_FRACTION,
                            ACF_MAX_LAG, SERIES_FRAME_SIZES, RING_LIMIT_PARTICLES, STARS, STAR_FRAME_SIZES,
                            PAPER_STAR_PLATEAU, be_tx_time_s, wfq_tag_s, be_tag_steps, beat_slip_s)  # noqa: F401  (re-exported)
from .tftant_slides import (tftant_slides_ring, ring_statistics, star_one_be_tag, tftant_slides_star,
                            star_statistics, tftant_slides_no_be, no_be_statistics)  # noqa: F401  (re-exported)
from .tftant_wfq_page import (tftant_wfq_fig1, fig1_statistics, tftant_wfq_fig5, fig5_statistics,
                              tftant_wfq_fig2_4, NO_SHIFT_BE_TX, fig2_4_statistics, tftant_wfq_fig6_7,
                              fig6_7_statistics)  # noqa: F401  (re-exported)

__all__ = [
    "tftant_wfq_fig1",
    "tftant_wfq_fig2_4",
    "tftant_wfq_fig5",
    "tftant_wfq_fig6_7",
    "tftant_slides_ring",
    "tftant_slides_star",
    "tftant_slides_no_be",
    "be_tx_time_s",
    "wfq_tag_s",
    "be_tag_steps",
    "STATISTICS",
]

#: The function that adds each artefact's statistics to its per-seed (per-packet) values,
#: in whatever time unit they hold (the claims: :func:`pqlab.papers.artefacts._common.statistics_in_ms`).
STATISTICS = {
    "tftant_wfq_fig1": fig1_statistics,
    "tftant_wfq_fig2_4": fig2_4_statistics,
    "tftant_wfq_fig5": fig5_statistics,
    "tftant_wfq_fig6_7": fig6_7_statistics,
    "tftant_slides_ring": ring_statistics,
    "tftant_slides_star": star_statistics,
    "tftant_slides_no_be": no_be_statistics,
}
