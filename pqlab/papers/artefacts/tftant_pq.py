"""TF-TANT: "PQ performance with multiple BE streams" (test page) and the slides on delay and IPDV.

One compute function per artefact id, each building its scenarios from the presets
(:func:`pqlab.scenarios.pq_experiment`, :func:`pqlab.node.tandem.simulate_tandem`), running the
engine for every point and seed and returning an ``xarray.Dataset`` (no plotting, no I/O);
``<id>_claims(data)`` in :mod:`pqlab.papers.artefacts.claims.tftant_pq` turns it into claim
records (``from pqlab.papers.artefacts.claims import tftant_pq as tftant_pq_claims``: this
module does not import or offer the claims). Figures: :mod:`pqlab.papers.figures.tftant_pq`; notebook
``notebooks/09_tftant_be_streams_and_aggregation``.

==================================  ================================================================
artefact id                         what it reproduces
==================================  ================================================================
``tftant_be_fig4``                  test page Fig. 4: EF delay distributions with geometric BE sizes
                                    of several means, next to the STAND-IN real sizes (Fig. 5's claim)
``tftant_slides_loss``              slide "EF load and aggregation (PQ): packet clustering": EF loss
                                    vs number of EF streams at 60% EF load, split by cause
``tftant_slides_ipdv_aggregation``  slide "EF aggregation and load: effect on ipdv": mean |IPDV| with
                                    1 and 20 EF streams at 600 kbit/s with congestion
``tftant_slides_tandem``            slide "Aggregation and congestion (PQ): one-way delay": 1..n
                                    congested C7200 nodes in tandem, dD = dD_1 + ... + dD_n, and the
                                    contribution of aggregation for small and large EF packets
``tftant_slides_ipdv_size``         slide "EF packet size and ipdv (with aggregation and congestion)":
                                    IPDV standard deviation per EF size with and without each
==================================  ================================================================

The test page's Fig. 2 and 3 are the experiments of GLOBECOM'01 Fig. 3-1 and 3-2, and its
Fig. 5 and 6 that of GLOBECOM'01 Fig. 5: they are not rerun here;
``tftant_be_same_experiment_claims`` (in the claims module) records the page's statements on them as rows of
``tftant_be_fig4`` that point to those artefacts' rows.

Choices, each stated once here and in the notes:

* Geometric BE sizes are IP lengths from :class:`pqlab.Geometric` with the stated mean as the
  law's (untruncated) mean, truncated to 40..1500 bytes (the truncated means are smaller and
  reported); the offered BE packets follow the law by count (the test page's "constant for a
  given stream" with 20 streams at equal packet rates gives this mix; one draw per packet is
  what is run, :data:`pqlab.scenarios.BE_SIZE_READINGS`); every number is a mean over seeds
  with a Student-t 95% CI and the distributions are pooled over seeds. "real" is the STAND-IN distribution
  (:func:`pqlab.scenarios.real_be_sizes`).
* Where EF configurations are compared (number of streams, frame size, congestion) the BE
  streams are generated first (:func:`pqlab.scenarios.be_streams_first`), so one seed
  gives the same BE sizes and phases in every configuration: paired comparisons.
* EF loads are counted on 128-byte (or the stated) Ethernet frames, as the presets do; the
  priority queue is policed at that frame rate with the IOS default burst (200 ms), so the
  policer sees IP packets at ``(frame - 18) / frame`` of its rate.
* "IPDV" of a slide's average is mean |IPDV| (the papers' "jitter"); its standard deviation
  is reported for signed IPDV (RFC 3393, the slides' IPPM metric) and for |IPDV|.
* Runs that compare EF split over different numbers of streams count EF packets of all
  streams and measure every EF stream (``n_ef_samples`` of :func:`tftant_slides_loss`,
  :func:`tftant_slides_tandem`, :func:`tftant_slides_ipdv_size`), so every configuration sends
  the same EF volume; elsewhere ``n_ef_samples`` are packets of the reference stream, as in the
  papers (:func:`tftant_be_fig4`, :func:`tftant_slides_ipdv_aggregation`).
* Transmission unit: line time of the 128-byte EF frame (IP 110 bytes, 3 ATM cells), 0.636 ms.

Every Dataset is in SI units (times in seconds, rates in bit/s, sizes in bytes; each
variable's ``units`` attr says which) or in transmission units where the papers count
delays in them. The claims state times in the slides' milliseconds: they convert the
per-seed values first and compute the statistics again with the function of
:data:`STATISTICS` that made them here (:func:`pqlab.papers.artefacts._common.statistics_in_ms`).

The compute functions live in two modules by figure group,
:mod:`~pqlab.papers.artefacts.tftant_streams` (one node: streams and aggregation) and
:mod:`~pqlab.papers.artefacts.tftant_tandem` (nodes in tandem, EF size), over what they share
(:mod:`~pqlab.papers.artefacts.tftant_pq_common`); this module is the section and re-exports them.
"""

from __future__ import annotations

from .tftant_pq_common import (GEOMETRIC_MEANS_BYTES, GEOMETRIC_RANGE_BYTES, REAL, SPAN_PERCENTILES,
                               LINE_RATE_BPS, LOSS_EF_LOAD_BPS, LOSS_SECOND_LOAD_BPS, LOSS_STREAMS,
                               IPDV_EF_LOAD_BPS, IPDV_STREAMS, BE_TRAFFIC, TANDEM_EF_AGGREGATE_BPS,
                               TANDEM_FRAMES, TANDEM_STREAMS, IPDV_SIZE_FRAMES, ef_split_scenario,
                               min_bucket_bytes)  # noqa: F401  (re-exported)
from .tftant_streams import (tftant_be_fig4, LOSS_N_EF_SAMPLES, tftant_slides_loss,
                             tftant_slides_ipdv_aggregation)  # noqa: F401  (re-exported)
from .tftant_tandem import (tftant_slides_tandem, tandem_statistics, tftant_slides_ipdv_size,
                            ipdv_size_statistics)  # noqa: F401  (re-exported)

__all__ = [
    "GEOMETRIC_MEANS_BYTES",
    "tftant_be_fig4",
    "tftant_slides_loss",
    "tftant_slides_ipdv_aggregation",
    "tftant_slides_tandem",
    "tftant_slides_ipdv_size",
    "ef_split_scenario",
    "min_bucket_bytes",
    "STATISTICS",
]

#: The function that adds each artefact's time statistics to its per-seed values, in whatever
#: time unit they hold (the claims: :func:`pqlab.papers.artefacts._common.statistics_in_ms`); the other
#: artefacts hold no times (transmission units, ratios, bytes).
STATISTICS = {
    "tftant_slides_tandem": tandem_statistics,
    "tftant_slides_ipdv_size": ipdv_size_statistics,
}
