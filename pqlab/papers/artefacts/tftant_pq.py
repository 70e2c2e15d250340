"""TF-TANT: "PQ performance with multiple BE streams" (test page) and the slides on delay and IPDV.

One compute function per artefact id, each building its scenarios from the presets
(:func:`pqlab.scenarios.pq_experiment`, :func:`pqlab.node.tandem.simulate_tandem`), running the
engine for every point and seed and returning an ``xarray.Dataset`` (no plotting, no I/O);
``<id>_claims(data)`` in :mod:`pqlab.papers.artefacts.claims.tftant_pq` turns it into claim
records. Figures: :mod:`pqlab.papers.figures.tftant_pq`; notebook
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
:func:`tftant_be_same_experiment_claims` records the page's statements on them as rows of
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
  streams are generated first (:func:`pqlab.papers.artefacts.aggregation.be_streams_first`), so one seed
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
"""

from __future__ import annotations

import math

import numpy as np
import xarray as xr

from ...measure import cache, experiments
from .. import scenarios
from ...measure.analysis import pooled_frequencies
from ...base._validate import check_choice, check_int, check_real
from ...node.framing import line_time_s
from ...node.model import Node
from ..stated import PAPERS, cisco7200_atm, transmission_unit_s
from ...node.scenario import Scenario, simulate
from ...node.tandem import TandemHop, simulate_tandem
from ...node.traffic import Geometric
from ._common import (
    add_mean_ci,
    be_streams,
    check_n_ef_samples,
    check_seeds,
    check_values,
    ef_streams,
    forward_claims,
    MTU_BYTES,
    MTU_PAYLOAD_BYTES,
    paper_value,
    provenance,
    renamed_keyword,
)
from .aggregation import be_streams_first

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
#: Slide "packet clustering": EF load 60% of the line, bit/s of frames.
LOSS_EF_LOAD_BPS = 0.6 * LINE_RATE_BPS
#: A second EF load (30% of the line) to see whether the load matters ("EF load irrelevant").
LOSS_SECOND_LOAD_BPS = 0.3 * LINE_RATE_BPS
#: EF stream counts of the loss sweep: 1..20 (every second count above 2).
LOSS_STREAMS = (1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20)
#: Slide "effect on ipdv": EF load of 600 kbit/s and the stream counts compared.
IPDV_EF_LOAD_BPS = 600e3
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
        return {"be_size": scenarios.real_be_sizes()}
    if be_traffic == "mtu":
        return {"be_payload_bytes": MTU_PAYLOAD_BYTES}
    return {"n_be_streams": 0}


def ef_split_scenario(n_streams: int, ef_aggregate_bps: float, *, ef_frame_bytes: int = scenarios.EF_FRAME_BYTES,
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
    sc = scenarios.pq_experiment(
        ef_rate_bps=load / n, ef_aggregate_bps=load if n > 1 else None, ef_frame_bytes=ef_frame_bytes,
        n_ef_samples=n_ref, node=cisco7200_atm(ef_police_rate_bps=load), warmup_s=warmup_s,
        name=f"ef_split(n_streams={n}, ef_aggregate_bps={load:g}, ef_frame_bytes={ef_frame_bytes}, "
             f"be_traffic={be_traffic})",
        **_be_kwargs(be_traffic))
    return be_streams_first(sc)


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


# --------------------------------------------------------------------------- tftant_be_fig4


@cache.artefact()
def tftant_be_fig4(
    *,
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    geometric_means_bytes=GEOMETRIC_MEANS_BYTES,
    bin_units: float = 0.5,
) -> xr.Dataset:
    """Test page Fig. 4: EF one-way delay distributions with geometric BE sizes, and the real stand-in.

    For each mean of ``geometric_means_bytes`` the papers' experiment
    (:func:`pqlab.scenarios.pq_experiment`: EF 300 kbit/s of 128-byte frames, 20 CBR BE streams
    of 110 kbit/s, the C7200) with BE IP lengths from ``Geometric(mean, 40, 1500)`` by packet
    count; and the same with the STAND-IN real distribution (the GLOBECOM'01 Fig. 5 experiment,
    for the page's Fig. 5 comparison). Delays (incl. the path) in transmission units.

    Parameters
    ----------
    n_ef_samples : int
        EF reference packets per run (the papers: 10,000).
    seeds : sequence of int
        Seeds (>= 0, distinct); each is one draw of the 20 BE stream sizes.
    geometric_means_bytes : sequence of float
        Means of the untruncated geometric laws, bytes, in [40, 1500], distinct.
    bin_units : float
        Width of the frequency distribution's bins, transmission units (> 0).

    Returns
    -------
    xarray.Dataset
        Dims ``distribution`` (the geometric laws, then ``REAL``), ``seed``, ``ef_packet``, ``bin``:
        ``delay_units`` (distribution, seed, ef_packet); per run ``mean_delay``, ``std_delay``,
        ``span`` (1st-99th percentile), ``max_delay`` (units) and ``be_mean_ip_bytes`` with their
        ``*_mean``/``*_ci`` over seeds; ``frequency`` (distribution, bin) pooled over seeds;
        ``law_mean_bytes`` (the truncated law's mean) and ``untruncated_mean_bytes`` (NaN for real).
    """
    n = check_n_ef_samples(n_ef_samples)
    seeds = check_seeds(seeds)
    means = check_values("geometric_means_bytes", geometric_means_bytes, GEOMETRIC_RANGE_BYTES[0], strict=False)
    for m in means:
        check_real("geometric_means_bytes", m, GEOMETRIC_RANGE_BYTES[0], GEOMETRIC_RANGE_BYTES[1])
    width = check_real("bin_units", bin_units, 0.0, 10.0, strict_minimum=True)
    laws = [(f"geometric {m:g}", Geometric(m, *GEOMETRIC_RANGE_BYTES)) for m in sorted(means)]
    laws.append((REAL, scenarios.real_be_sizes()))

    units = np.full((len(laws), len(seeds), n), np.nan)
    be_mean = np.zeros((len(laws), len(seeds)))
    sc = None
    for i, (label, law) in enumerate(laws):
        sc = scenarios.pq_experiment(be_size=law, n_ef_samples=n, name=f"tftant_be_fig4({label})")
        unit_s = _unit_s(sc.node)
        for j, seed in enumerate(seeds):
            ds = simulate(sc, seed=seed)
            d = experiments.reference_delay(ds, sc).values[:n]
            units[i, j, :d.size] = d / unit_s
            flows = ds["flow"].values
            be_mean[i, j] = np.mean([ds["size"].values[np.argmax(flows == st.flow)] for st in be_streams(sc)])
    edges, freq = pooled_frequencies(units, width)
    u = {"units": "transmission units"}
    per_run = {
        "mean_delay": (np.nanmean(units, axis=2), u, "mean EF one-way delay"),
        "std_delay": (np.nanstd(units, axis=2, ddof=1), u, "standard deviation of the EF one-way delay"),
        "span": (np.array([[_percentile_span(x) for x in row] for row in units]), u,
                 "1st-99th percentile span of the EF one-way delay"),
        "max_delay": (np.nanmax(units, axis=2), u, "largest EF one-way delay"),
        "be_mean_ip_bytes": (be_mean, {"units": "bytes"}, "mean of the 20 BE stream sizes drawn"),
    }
    dims = ("distribution", "seed")
    ds = xr.Dataset(
        {name: (dims, v, {**a, "long_name": ln}) for name, (v, a, ln) in per_run.items()},
        coords={
            "distribution": ("distribution", [lab for lab, _ in laws], {"long_name": "BE IP length distribution"}),
            "seed": ("seed", np.array(seeds), {"units": "1", "long_name": "random seed"}),
            "ef_packet": ("ef_packet", np.arange(n), {"units": "1", "long_name": "EF reference packet"}),
            "bin": ("bin", edges, {**u, "long_name": "left edge of the delay bin"}),
        },
    )
    ds["delay_units"] = (("distribution", "seed", "ef_packet"), units,
                         {**u, "long_name": "EF one-way delay in line times of the 128-byte EF frame"})
    ds["frequency"] = (("distribution", "bin"), freq,
                       {"units": "1", "long_name": "relative frequency, all seeds pooled"})
    ds["law_mean_bytes"] = ("distribution", [law.mean_bytes for _, law in laws],
                            {"units": "bytes", "long_name": "mean of the BE size law (after truncation)"})
    ds["untruncated_mean_bytes"] = ("distribution", [float(law.untruncated_mean_bytes)
                                                     if isinstance(law, Geometric) else np.nan for _, law in laws],
                                    {"units": "bytes", "long_name": "mean of the untruncated geometric law"})
    add_mean_ci(ds, per_run)
    ds.attrs = provenance(
        "tftant_be_fig4", "tftant_be_fig4: EF one-way delay distributions with geometric BE sizes "
        "(TF-TANT test page Fig. 4) and the STAND-IN real sizes (Fig. 5)", __name__, seeds,
        scenario=sc.to_json(), n_ef_samples=n, bin_units=width, transmission_unit_s=_unit_s(sc.node),
        geometric_range_bytes=list(GEOMETRIC_RANGE_BYTES), span_percentiles=list(SPAN_PERCENTILES),
        path_ef_delay_units=float(sc.path.extra_delay_s(scenarios.ef_ip_bytes(scenarios.EF_FRAME_BYTES))
                                  / _unit_s(sc.node)))
    return ds


# --------------------------------------------------------------------------- tftant_slides_loss


def _loss_measure(ds: xr.Dataset, sc: Scenario) -> dict:
    """EF loss by cause in the measurement window, and the EF arrivals' burstiness (the sweep's measure)."""
    ef = ds["queue"].values == scenarios.EF_QUEUE
    win = ef & (ds["arrival"].values >= sc.warmup_s)
    drop = ds["drop"].values[win]
    pq = sc.node.queues[scenarios.EF_QUEUE]
    return {
        "sent": float(win.sum()),
        "policed": float(np.sum(drop == 1)),
        "queue_full": float(np.sum(drop == 2)),
        "min_bucket_bytes": min_bucket_bytes(ds["arrival"].values[ef], ds["size"].values[ef], pq.police_rate_bps),
    }


_loss_measure.attrs = {
    "sent": {"units": "1", "long_name": "EF packets sent in the measurement window"},
    "policed": {"units": "1", "long_name": "EF packets dropped by the policer"},
    "queue_full": {"units": "1", "long_name": "EF packets dropped at the full EF queue"},
    "min_bucket_bytes": {"units": "bytes", "long_name": "smallest token bucket that passes every EF packet"},
}


#: EF packets (of all streams) per run of the loss test.
LOSS_N_EF_SAMPLES = 40_000


def tftant_slides_loss(
    *,
    n_ef_samples: int = LOSS_N_EF_SAMPLES,
    seeds=(1, 2, 3),
    n_streams=LOSS_STREAMS,
    ef_load_bps: float = LOSS_EF_LOAD_BPS,
    other_loads_bps=(LOSS_SECOND_LOAD_BPS,),
    ef_frame_bytes: int = scenarios.EF_FRAME_BYTES,
    n_ef_packets=None,
) -> xr.Dataset:
    """Slide "EF load and aggregation (PQ): packet clustering": EF loss vs number of EF streams, by cause.

    :func:`ef_split_scenario` (STAND-IN real BE, the C7200 with its priority queue policed at
    the EF load, IOS default burst) for every stream count at the slide's EF load, and for the
    fewest and most streams at other loads (NaN at the counts not run); loss over all EF
    packets after the warm-up, split into policed (drop code 1) and queue full (code 2), and
    the smallest bucket depth that would police nothing (:func:`min_bucket_bytes`).

    Parameters
    ----------
    n_ef_samples : int
        EF packets of all streams per run (>= 100): every stream count sees the same EF traffic
        volume (as in :func:`tftant_slides_tandem` and :func:`tftant_slides_ipdv_size`).
    seeds : sequence of int
        Seeds (>= 0, distinct).
    n_streams : sequence of int
        EF stream counts (>= 1, distinct).
    ef_load_bps : float
        EF load swept over ``n_streams``, bit/s of frames (> 0); the slide's: 60% of the line, 1.2 Mbit/s.
    other_loads_bps : sequence of float
        Further EF loads (> 0, distinct, none equal to ``ef_load_bps``; may be empty), run with the
        fewest and the most streams only: does the load matter?
    ef_frame_bytes : int
        EF frame size, bytes.
    n_ef_packets : int, optional
        Deprecated name of ``n_ef_samples`` (a ``FutureWarning``); not both.

    Returns
    -------
    xarray.Dataset
        Dims ``ef_load`` (bit/s of frames), ``n_streams``, ``seed``: ``sent``, ``policed``, ``queue_full``
        (packets), ``loss_ratio``, ``policed_ratio``, ``queue_full_ratio`` (1), ``min_bucket_bytes``
        (bytes) with ``*_mean``/``*_ci``; scalars ``police_burst_bytes``, ``ef_ip_bytes``.
    """
    n_ef_samples = renamed_keyword("tftant_slides_loss", "n_ef_samples", n_ef_samples, LOSS_N_EF_SAMPLES,
                                   "n_ef_packets", n_ef_packets)
    return _slides_loss(n_ef_samples, seeds, n_streams, ef_load_bps, other_loads_bps, ef_frame_bytes)


@cache.artefact("tftant_slides_loss")
def _slides_loss(n_ef_samples, seeds, n_streams, ef_load_bps, other_loads_bps, ef_frame_bytes) -> xr.Dataset:
    n = check_int("n_ef_samples", n_ef_samples, 100, 1_000_000_000)
    seeds = check_seeds(seeds)
    counts = sorted(check_values("n_streams", n_streams, 1, integer=True))
    load = check_real("ef_load_bps", ef_load_bps, 0.0, strict_minimum=True)
    try:
        others = list(other_loads_bps)
    except TypeError:
        raise ValueError(f"other_loads_bps must be a sequence of numbers > 0, got {other_loads_bps!r}") from None
    others = check_values("other_loads_bps", others, 0.0) if others else []
    if load in others:
        raise ValueError(f"other_loads_bps must not hold ef_load_bps={load:g}, got {others!r}")
    loads = sorted([load, *others])
    frame = check_int("ef_frame_bytes", ef_frame_bytes, scenarios.ETHERNET_FRAME_OVERHEAD_BYTES + 1, 65_535)

    def point(n_streams, ef_load_bps):
        return ef_split_scenario(n_streams, ef_load_bps, ef_frame_bytes=frame, n_ef_samples=n, total_samples=True)

    ends = sorted({counts[0], counts[-1]})
    raw = xr.concat([experiments.sweep(point, {"ef_load_bps": [x], "n_streams": counts if x == load else ends},
                                       seeds, measure=_loss_measure) for x in loads],
                    dim="ef_load_bps", join="outer", combine_attrs="drop_conflicts")
    raw = raw.reindex(n_streams=counts).transpose("ef_load_bps", "n_streams", "seed")
    ds = xr.Dataset(coords={
        "ef_load": ("ef_load", np.array(loads), {"units": "bit/s", "long_name": "EF load (frames)"}),
        "n_streams": ("n_streams", np.array(counts), {"units": "streams", "long_name": "EF streams"}),
        "seed": ("seed", np.array(seeds), {"units": "1", "long_name": "random seed"}),
    })
    dims = ("ef_load", "n_streams", "seed")
    for name, long_name in (("sent", "EF packets sent after the warm-up"), ("policed", "EF packets policed"),
                            ("queue_full", "EF packets dropped at the full priority queue")):
        ds[name] = (dims, raw[name].values, {"units": "packets", "long_name": long_name})
    sent = ds["sent"].values
    for name, num, long_name in (("loss_ratio", ds["policed"].values + ds["queue_full"].values, "EF loss ratio"),
                                 ("policed_ratio", ds["policed"].values, "EF loss ratio, policed"),
                                 ("queue_full_ratio", ds["queue_full"].values, "EF loss ratio, queue full")):
        ds[name] = (dims, num / sent, {"units": "1", "long_name": long_name})
    ds["min_bucket_bytes"] = (dims, raw["min_bucket_bytes"].values,
                              {"units": "bytes", "long_name": "smallest policer burst that drops nothing"})
    add_mean_ci(ds, ("loss_ratio", "policed_ratio", "queue_full_ratio", "min_bucket_bytes"))
    sc = point(counts[-1], load)
    pq = sc.node.queues[scenarios.EF_QUEUE]
    ip = scenarios.ef_ip_bytes(frame)
    ds["police_burst_bytes"] = ((), pq.police_burst_bytes,
                                {"units": "bytes", "long_name": "policer burst at the largest load (IOS default)"})
    ds["police_burst_per_load"] = ("ef_load", np.array(loads) * 0.2 / 8.0,
                                   {"units": "bytes", "long_name": "policer burst: 200 ms at the EF load"})
    ds["ef_ip_bytes"] = ((), float(ip), {"units": "bytes", "long_name": "EF IP packet length"})
    ds["ef_wire_share"] = ("ef_load", [load / (8.0 * frame) * line_time_s(ip, sc.node.framing, 1.0)
                                       / sc.node.line_rate_bps for load in loads],
                           {"units": "1", "long_name": "share of the line the EF load takes in ATM cells"})
    ds.attrs = provenance(
        "tftant_slides_loss", "tftant_slides_loss: EF loss vs number of EF streams at 60% EF load, by cause "
        "(TF-TANT slides, packet clustering)", __name__, seeds, scenario=sc.to_json(), n_ef_samples=n,
        ef_frame_bytes=frame, line_rate_bps=sc.node.line_rate_bps, ef_queue_limit=pq.limit_packets,
        swept_load_bps=load)
    return ds


# --------------------------------------------------------------------------- tftant_slides_ipdv_aggregation


def _ipdv_measure(ds: xr.Dataset, sc: Scenario) -> dict:
    """:func:`pqlab.experiments.delay_summary` plus the mean |difference| of two unrelated delays.

    ``delay_gmd_s``: mean of ``|D_i - D_perm(i)|`` over a fixed random pairing of the reference
    packets (Gini's mean difference): what the mean |IPDV| would be if consecutive packets saw
    independent queue states, its ceiling when the packets are far apart.
    """
    out = experiments.delay_summary(ds, sc)
    d = experiments.reference_delay(ds, sc).values
    d = d[np.isfinite(d)]
    pairing = np.random.default_rng(0).permutation(d.size)
    out["delay_gmd_s"] = float(np.mean(np.abs(d - d[pairing]))) if d.size > 1 else np.nan
    return out


_ipdv_measure.attrs = {
    **experiments.DELAY_STATISTICS_ATTRS,
    "delay_gmd_s": {"units": "s", "long_name": "mean |difference| of two randomly paired delays (Gini)"},
}


@cache.artefact()
def tftant_slides_ipdv_aggregation(
    *,
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    n_streams=IPDV_STREAMS,
    ef_load_bps: float = IPDV_EF_LOAD_BPS,
    be_traffic=BE_TRAFFIC,
) -> xr.Dataset:
    """Slide "EF aggregation and load: effect on ipdv": mean |IPDV| with 1 and 20 EF streams at 600 kbit/s.

    :func:`ef_split_scenario` for each stream count and BE traffic (STAND-IN real sizes: the
    claims; 1500-byte packets: a bracket for the page's unknown BE sizes; none: no congestion);
    IPDV of the reference stream (flow 0), in transmission units.

    Parameters
    ----------
    n_ef_samples : int
        Packets of the reference stream per run.
    seeds : sequence of int
        Seeds (>= 0, distinct).
    n_streams : sequence of int
        EF stream counts (>= 1, distinct).
    ef_load_bps : float
        EF load, bit/s of frames (> 0).
    be_traffic : sequence of {"real", "mtu", "none"}
        BE traffic cases.

    Returns
    -------
    xarray.Dataset
        Dims ``be_traffic``, ``n_streams``, ``seed``: ``ipdv_abs_mean``, ``ipdv_std``,
        ``delay_mean``, ``delay_gmd`` (mean |D_i - D_j| of unrelated packets; transmission units),
        ``loss_ratio`` (1), with ``*_mean``/``*_ci``;
        ``paper_ipdv_abs_mean`` (n_streams; units, NaN where the slide has none).
    """
    n = check_n_ef_samples(n_ef_samples)
    seeds = check_seeds(seeds)
    counts = sorted(check_values("n_streams", n_streams, 1, integer=True))
    load = check_real("ef_load_bps", ef_load_bps, 0.0, strict_minimum=True)
    try:
        cases = [check_choice("be_traffic", b, BE_TRAFFIC) for b in be_traffic]
    except TypeError:
        raise ValueError(f"be_traffic must be a sequence of {BE_TRAFFIC}, got {be_traffic!r}") from None
    if not cases or len(set(cases)) != len(cases):
        raise ValueError(f"be_traffic must hold distinct values of {BE_TRAFFIC}, got {be_traffic!r}")

    def point(be_traffic, n_streams):
        return ef_split_scenario(n_streams, load, be_traffic=be_traffic, n_ef_samples=n)

    raw = experiments.sweep(point, {"be_traffic": cases, "n_streams": counts}, seeds, measure=_ipdv_measure)
    sc = point(cases[0], counts[-1])
    unit_s = _unit_s(sc.node)
    dims = ("be_traffic", "n_streams", "seed")
    u = {"units": "transmission units"}
    ds = xr.Dataset(
        {
            "ipdv_abs_mean": (dims, raw["ipdv_abs_mean_s"].values / unit_s, {**u, "long_name": "mean |IPDV|"}),
            "ipdv_std": (dims, raw["ipdv_std_s"].values / unit_s, {**u, "long_name": "std of the signed IPDV"}),
            "delay_mean": (dims, raw["delay_mean_s"].values / unit_s, {**u, "long_name": "mean one-way delay"}),
            "delay_gmd": (dims, raw["delay_gmd_s"].values / unit_s,
                          {**u, "long_name": "mean |difference| of two unrelated delays (|IPDV| ceiling)"}),
            "loss_ratio": (dims, raw["loss_ratio"].values, {"units": "1", "long_name": "reference stream loss"}),
        },
        coords={
            "be_traffic": ("be_traffic", cases, {"long_name": "BE traffic (real = STAND-IN sizes)"}),
            "n_streams": ("n_streams", np.array(counts), {"units": "streams", "long_name": "EF streams"}),
            "seed": ("seed", np.array(seeds), {"units": "1", "long_name": "random seed"}),
        },
    )
    add_mean_ci(ds, ("ipdv_abs_mean", "ipdv_std", "delay_mean", "delay_gmd", "loss_ratio"))
    art = "tftant_slides_ipdv_aggregation"
    ds["paper_ipdv_abs_mean"] = ("n_streams", [paper_value(art, f"mean_ipdv_{c}_stream{'s' if c > 1 else ''}")[0]
                                               for c in counts], {**u, "long_name": "TF-TANT slides: avg ipdv"})
    ds.attrs = provenance(
        art, "tftant_slides_ipdv_aggregation: mean |IPDV| with 1 and 20 EF streams at 600 kbit/s with congestion "
        "(TF-TANT slides)", __name__, seeds, scenario=sc.to_json(), n_ef_samples=n, ef_load_bps=load,
        transmission_unit_s=unit_s, real_be_mean_bytes=scenarios.real_be_sizes().mean_bytes)
    return ds


# --------------------------------------------------------------------------- tftant_slides_tandem


def _tandem_run(sc: Scenario, n_nodes: int, propagation_s: float, seed: int) -> dict:
    """One tandem of ``n_nodes``: per-node delay of every measured EF packet, read from each node's own Dataset."""
    hops = [TandemHop(sc.node, tuple(be_streams(sc)), queue=scenarios.EF_QUEUE, propagation_s=propagation_s)
            for _ in range(n_nodes - 1)]
    flows = [s.flow for s in ef_streams(sc)]
    per_hop, dep = simulate_tandem(sc, hops, flows, seed=seed)
    idx = dep["packet"].values  # first-node indices of the EF packets, sorted
    arrival = per_hop[0]["arrival"].values[idx]
    keep = arrival >= sc.warmup_s
    # each node's own record of each EF packet: departure - arrival there, and departure - ring entry
    increment, ring = np.full(dep.shape, np.nan), np.full(dep.shape, np.nan)
    for h, node_ds in enumerate(per_hop):
        pid = node_ds["packet_id"].values
        mine = np.flatnonzero(np.isin(node_ds["flow"].values, flows) & (pid >= 0))
        row = np.searchsorted(idx, pid[mine])
        departure = node_ds["departure"].values[mine]
        increment[row, h] = departure - node_ds["arrival"].values[mine]
        ring[row, h] = departure - node_ds["ring_entry"].values[mine]
    d, a, increment, ring = dep.values[keep], arrival[keep], increment[keep], ring[keep]
    through = np.isfinite(d[:, -1])
    end_to_end = d - a[:, None]
    error = end_to_end[through, -1] - increment[through].sum(axis=1) - (n_nodes - 1) * propagation_s
    return {
        "increment": np.nanmean(increment, axis=0),
        "ring": np.nanmean(ring, axis=0),
        "end_to_end": np.nanmean(end_to_end, axis=0),
        "loss": np.mean(np.isnan(d), axis=0),
        "sum_error": float(np.max(np.abs(error))) if error.size else np.nan,
    }


@cache.artefact()
def tftant_slides_tandem(
    *,
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    n_nodes: int = 4,
    ef_frames_bytes=TANDEM_FRAMES,
    n_streams=TANDEM_STREAMS,
    ef_aggregate_bps: float = TANDEM_EF_AGGREGATE_BPS,
    propagation_s: float = 0.0,
) -> xr.Dataset:
    """Slide "Aggregation and congestion (PQ): one-way delay": EF through 1..n congested C7200 nodes.

    The first node is :func:`ef_split_scenario` (STAND-IN real BE, EF split over the streams,
    the priority queue policed at the aggregate); ``n_nodes - 1`` further identical nodes
    (:class:`pqlab.node.tandem.TandemHop`) each get their own 20 BE streams (fresh sizes and
    phases) and every EF packet after ``propagation_s``. Node delays only (no path model).
    Measured over every EF packet (all streams) after the warm-up.

    Parameters
    ----------
    n_ef_samples : int
        EF packets of all streams per run.
    seeds : sequence of int
        Seeds (>= 0, distinct).
    n_nodes : int
        Congested nodes in tandem, in [1, 16].
    ef_frames_bytes : sequence of int
        EF frame sizes, bytes (distinct).
    n_streams : sequence of int
        EF stream counts (>= 1, distinct); the EF aggregate is the same for each.
    ef_aggregate_bps : float
        EF aggregate, bit/s of frames (> 0).
    propagation_s : float
        Delay between two nodes, seconds (>= 0).

    Returns
    -------
    xarray.Dataset
        Dims ``ef_frame_bytes``, ``n_streams``, ``node`` (1..n), ``seed``: ``increment``
        (dD_i, mean delay added by node i), ``ring_time`` (its part spent in node i's ring),
        ``end_to_end`` (mean delay from the first arrival to the departure from node i), s;
        ``loss`` (1); ``sum_error`` (s, largest |end-to-end - sum of the nodes' own delays -
        propagation| of any packet); ``*_mean``/``*_ci``; and
        ``aggregation_contribution`` (s, end-to-end with the most streams minus with one, paired
        per seed) with its mean and CI; ``ef_line_time`` (s) per frame.
    """
    n = check_n_ef_samples(n_ef_samples)
    seeds = check_seeds(seeds)
    nodes = check_int("n_nodes", n_nodes, 1, 16)
    frames = sorted(check_values("ef_frames_bytes", ef_frames_bytes, scenarios.ETHERNET_FRAME_OVERHEAD_BYTES + 1,
                                 integer=True))
    counts = sorted(check_values("n_streams", n_streams, 1, integer=True))
    load = check_real("ef_aggregate_bps", ef_aggregate_bps, 0.0, strict_minimum=True)
    prop = check_real("propagation_s", propagation_s, 0.0, 1.0)

    shape = (len(frames), len(counts), nodes, len(seeds))
    out = {k: np.full(shape, np.nan) for k in ("increment", "ring", "end_to_end", "loss")}
    sum_error = np.full(shape[:2] + shape[3:], np.nan)
    sc = None
    for i, f in enumerate(frames):
        for j, c in enumerate(counts):
            sc = ef_split_scenario(c, load, ef_frame_bytes=f, n_ef_samples=n, total_samples=True)
            for k, seed in enumerate(seeds):
                run = _tandem_run(sc, nodes, prop, seed)
                for key in out:
                    out[key][i, j, :, k] = run[key]
                sum_error[i, j, k] = run["sum_error"]
    dims = ("ef_frame_bytes", "n_streams", "node", "seed")
    ds = xr.Dataset(
        {
            "increment": (dims, out["increment"], {"units": "s", "long_name": "delay added by node i (dD_i)"}),
            "ring_time": (dims, out["ring"], {"units": "s", "long_name": "time in node i's ring (incl. line)"}),
            "end_to_end": (dims, out["end_to_end"],
                           {"units": "s", "long_name": "delay from the first node's arrival to leaving node i"}),
            "loss": (dims, out["loss"], {"units": "1", "long_name": "EF packets lost up to node i"}),
            "sum_error": (("ef_frame_bytes", "n_streams", "seed"), sum_error,
                          {"units": "s", "long_name": "largest |end-to-end - sum of increments - propagation|"}),
        },
        coords={
            "ef_frame_bytes": ("ef_frame_bytes", np.array(frames), {"units": "bytes", "long_name": "EF frame size"}),
            "n_streams": ("n_streams", np.array(counts), {"units": "streams", "long_name": "EF streams"}),
            "node": ("node", np.arange(1, nodes + 1), {"units": "1", "long_name": "congested node"}),
            "seed": ("seed", np.array(seeds), {"units": "1", "long_name": "random seed"}),
        },
    )
    ds["ef_line_time"] = ("ef_frame_bytes", [line_time_s(scenarios.ef_ip_bytes(f), sc.node.framing,
                                                         sc.node.line_rate_bps) for f in frames],
                          {"units": "s", "long_name": "line time of one EF packet"})
    ds.attrs = provenance(
        "tftant_slides_tandem", "tftant_slides_tandem: EF one-way delay through 1..n congested nodes "
        "(TF-TANT slides, aggregation and congestion)", __name__, seeds, scenario=sc.to_json(), n_ef_samples=n,
        ef_aggregate_bps=load, propagation_s=prop)
    return tandem_statistics(ds)


def tandem_statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`tftant_slides_tandem`'s statistics to its per-seed values (in place; returned).

    Means and CIs over seeds of ``increment``, ``ring_time``, ``end_to_end`` and ``loss``, and
    the aggregation contribution (end-to-end with the most streams minus with the fewest,
    paired per seed; absolute and relative) with its mean and CI, in the time unit of the
    Dataset (s; the claims' ms through :func:`pqlab.papers.artefacts._common.statistics_in_ms`).
    """
    counts = ds["n_streams"].values
    add_mean_ci(ds, ("increment", "ring_time", "end_to_end", "loss"))
    contrib = ds["end_to_end"].isel(n_streams=-1) - ds["end_to_end"].isel(n_streams=0)
    ds["aggregation_contribution"] = contrib.assign_attrs(
        units=ds["end_to_end"].attrs["units"],
        long_name=f"end-to-end delay with {counts[-1]} EF streams minus with {counts[0]}")
    rel = contrib / ds["end_to_end"].isel(n_streams=0)
    ds["aggregation_contribution_rel"] = rel.assign_attrs(units="1", long_name="aggregation contribution / delay")
    return add_mean_ci(ds, ("aggregation_contribution", "aggregation_contribution_rel"))


# --------------------------------------------------------------------------- tftant_slides_ipdv_size


def _ipdv_size_measure(ds: xr.Dataset, sc: Scenario) -> dict:
    """IPDV of every EF stream after the warm-up, pooled: std (signed and absolute), max and mean |IPDV|."""
    ipdv = np.concatenate([experiments.reference_ipdv(ds, sc, flow=s.flow).values for s in ef_streams(sc)])
    jitter = np.abs(ipdv)
    return {
        "ipdv_std_s": float(ipdv.std(ddof=1)),
        "jitter_std_s": float(jitter.std(ddof=1)),
        "jitter_max_s": float(jitter.max()),
        "jitter_p999_s": float(np.percentile(jitter, 99.9)),
        "jitter_mean_s": float(jitter.mean()),
    }


_ipdv_size_measure.attrs = {
    "ipdv_std_s": {"units": "s", "long_name": "standard deviation of the pooled IPDV of every EF stream"},
    "jitter_std_s": {"units": "s", "long_name": "standard deviation of the pooled |IPDV|"},
    "jitter_max_s": {"units": "s", "long_name": "largest pooled |IPDV|"},
    "jitter_p999_s": {"units": "s", "long_name": "99.9th percentile of the pooled |IPDV|"},
    "jitter_mean_s": {"units": "s", "long_name": "mean pooled |IPDV|"},
}


@cache.artefact()
def tftant_slides_ipdv_size(
    *,
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    ef_frames_bytes=IPDV_SIZE_FRAMES,
    n_streams=TANDEM_STREAMS,
    ef_aggregate_bps: float = TANDEM_EF_AGGREGATE_BPS,
) -> xr.Dataset:
    """Slide "EF packet size and ipdv (with aggregation and congestion)": IPDV spread per EF size.

    For every EF frame size: one EF stream or several sharing the same aggregate
    (aggregation), with or without the 20 STAND-IN real BE streams (congestion), on the
    C7200 (:func:`ef_split_scenario`). IPDV of every EF stream, pooled.

    Parameters
    ----------
    n_ef_samples : int
        EF packets of all streams per run.
    seeds : sequence of int
        Seeds (>= 0, distinct).
    ef_frames_bytes : sequence of int
        EF frame sizes, bytes (distinct).
    n_streams : sequence of int
        EF stream counts (>= 1, distinct): the first is "no aggregation".
    ef_aggregate_bps : float
        EF aggregate, bit/s of frames (> 0).

    Returns
    -------
    xarray.Dataset
        Dims ``ef_frame_bytes``, ``n_streams``, ``congestion`` (False, True), ``seed``:
        ``ipdv_std`` (signed), ``jitter_std`` (of |IPDV|), ``jitter_max``, ``jitter_p999``,
        ``jitter_mean`` (s) with ``*_mean``/``*_ci``.
    """
    n = check_n_ef_samples(n_ef_samples)
    seeds = check_seeds(seeds)
    frames = sorted(check_values("ef_frames_bytes", ef_frames_bytes, scenarios.ETHERNET_FRAME_OVERHEAD_BYTES + 1,
                                 integer=True))
    counts = sorted(check_values("n_streams", n_streams, 1, integer=True))
    load = check_real("ef_aggregate_bps", ef_aggregate_bps, 0.0, strict_minimum=True)

    def point(ef_frame_bytes, n_streams, congestion):
        return ef_split_scenario(n_streams, load, ef_frame_bytes=ef_frame_bytes,
                                 be_traffic="real" if congestion else "none", n_ef_samples=n, total_samples=True)

    raw = experiments.sweep(point, {"ef_frame_bytes": frames, "n_streams": counts, "congestion": [False, True]},
                            seeds, measure=_ipdv_size_measure)
    dims = ("ef_frame_bytes", "n_streams", "congestion", "seed")
    ds = xr.Dataset(
        {k: (dims, raw[f"{k}_s"].values, {"units": "s", "long_name": v}) for k, v in _IPDV_SIZE_NAMES.items()},
        coords={
            "ef_frame_bytes": ("ef_frame_bytes", np.array(frames), {"units": "bytes", "long_name": "EF frame size"}),
            "n_streams": ("n_streams", np.array(counts), {"units": "streams", "long_name": "EF streams"}),
            "congestion": ("congestion", np.array([False, True]), {"long_name": "20 BE streams (STAND-IN real)"}),
            "seed": ("seed", np.array(seeds), {"units": "1", "long_name": "random seed"}),
        },
    )
    sc = point(frames[0], counts[-1], True)
    ds.attrs = provenance(
        "tftant_slides_ipdv_size", "tftant_slides_ipdv_size: IPDV per EF frame size with and without aggregation "
        "and congestion (TF-TANT slides)", __name__, seeds, scenario=sc.to_json(), n_ef_samples=n,
        ef_aggregate_bps=load)
    return ipdv_size_statistics(ds)


#: The per-seed variables of :func:`tftant_slides_ipdv_size` and their long names.
_IPDV_SIZE_NAMES = {"ipdv_std": "std of the signed IPDV", "jitter_std": "std of |IPDV|",
                    "jitter_max": "largest |IPDV|", "jitter_p999": "99.9th percentile of |IPDV|",
                    "jitter_mean": "mean |IPDV|"}


def ipdv_size_statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`tftant_slides_ipdv_size`'s means and CIs over seeds (in the Dataset's time unit, as
    :func:`tandem_statistics`)."""
    return add_mean_ci(ds, _IPDV_SIZE_NAMES)


#: The function that adds each artefact's time statistics to its per-seed values, in whatever
#: time unit they hold (the claims: :func:`pqlab.papers.artefacts._common.statistics_in_ms`); the other
#: artefacts hold no times (transmission units, ratios, bytes).
STATISTICS = {
    "tftant_slides_tandem": tandem_statistics,
    "tftant_slides_ipdv_size": ipdv_size_statistics,
}


__getattr__ = forward_claims(__name__)  # <artefact id>_claims: pqlab.papers.artefacts.claims.tftant_pq
