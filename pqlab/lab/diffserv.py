"""The DiffServ lab (``notebooks/lab/05_diffserv_pq_wfq_drr_and_wred``): EF under PQ, WFQ and DRR;
AF under WRED.

The other half of the TF-TANT programme, as experiments a student runs with one call each:

* **EF under three schedulers** (:func:`ef_delays`, :func:`ef_summary`): the TF-TANT PQ-vs-WFQ
  test (:func:`pqlab.scenarios.pq_vs_wfq`: one EF CBR stream of 300 kbit/s behind 2 Mbit/s of
  1000-byte BE packets on the 2 Mbit/s ATM PVC, ring of 5 particles of 512 bytes, EF queue of 10)
  with EF in a priority queue (``"pq"``, policed at the EF service rate), in a WFQ queue of weight
  the EF service rate (``"wfq"``, BE weighted with the rest of the line) or in a DRR queue
  (``"drr"``, quanta in the same ratio as the WFQ weights, :func:`drr_quanta`). Next to the
  measured delays: :func:`pq_bound_s` (node contract rules 3-5: what a priority queue can still
  wait for) and :func:`drr_bound_s` (the same plus one BE turn of DRR, rule 3b).
* **AF under WRED with colour marking** (:func:`af_scenario`, :func:`af_colour_drops`): an AF
  class of Poisson streams, each coloured by an RFC 2698 two-rate three-colour marker
  (:class:`pqlab.traffic.TrTCM`, rule 1a), in a WFQ queue with per-colour WRED thresholds
  (rule 2a, staggered: :data:`WRED_THRESHOLDS`; Cisco's overlapping
  defaults :data:`CISCO_DSCP_WRED`),
  next to an overloading best-effort class; the drop fraction of each colour against the offered AF
  load.

Units: times in seconds, rates in bit/s, sizes in IP bytes, unless a name says otherwise
(``_ms``: milliseconds, ``_mbps``: Mbit/s). The figures are :mod:`pqlab.lab.diffserv_figures`.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import xarray as xr

from ..base._validate import check_choice, check_int, check_real
from ..base.units import to_mbps, to_ms
from ..measure import experiments, metrics
from ..node.framing import line_time_s, particles_needed
from ..node.measured import is_measured
from ..node.model import COLOURS, DEFAULT_RED_WEIGHT, Node, Queue
from ..node.path import PathModel
from ..node.scenario import Scenario, simulate
from ..node.traffic import CBRStream, Deterministic, PoissonStream, TrTCM
from ..papers import presets
from ..papers.stated import PAPERS

__all__ = [
    "SCHEDULERS",
    "WRED_THRESHOLDS",
    "CISCO_DSCP_WRED",
    "AF_CIR_BPS",
    "AF_PIR_BPS",
    "AF_QUEUE",
    "BE_QUEUE",
    "drr_quanta",
    "ef_node",
    "ef_scenario",
    "ef_delays",
    "ef_summary",
    "pq_bound_s",
    "drr_bound_s",
    "af_node",
    "af_scenario",
    "colour_drops",
    "af_colour_drops",
    "be_line_time_s",
    "ef_comparison",
    "precedence_holds",
]

#: The EF schedulers compared: strict priority, self-clocked WFQ, deficit round robin.
SCHEDULERS = ("pq", "wfq", "drr")
#: WRED thresholds of the AF queue per colour (green, yellow, red), staggered: each colour's range
#: lies below the next better colour's (red 16-24, yellow 24-32, green 32-40 packets of the
#: average queue), drop probability rising to 0.1 at each maximum, so red is dropped whole before
#: yellow is touched, and yellow before green (rule 2a).
WRED_THRESHOLDS = {
    "red_min_packets": (32, 24, 16),
    "red_max_packets": (40, 32, 24),
    "red_max_p": (0.1, 0.1, 0.1),
}
#: Cisco IOS's defaults of ``random-detect dscp-based`` for AFx1, AFx2, AFx3 (minimum 32, 28, 24
#: packets, one maximum of 40, mark probability denominator 10): overlapping ranges. Under a
#: sustained overload the average stays above 40, where every colour is dropped alike.
CISCO_DSCP_WRED = {
    "red_min_packets": (32, 28, 24),
    "red_max_packets": (40, 40, 40),
    "red_max_p": (0.1, 0.1, 0.1),
}
#: The AF class's committed and peak rates (RFC 2698), bit/s of IP packets.
AF_CIR_BPS, AF_PIR_BPS = 400e3, 800e3
#: Queue indices of the AF experiment's node.
AF_QUEUE, BE_QUEUE = 0, 1
#: First flow id of the AF streams and the flow of the best-effort stream.
FIRST_AF_FLOW, AF_BE_FLOW = 10, presets.FIRST_BE_FLOW


# --------------------------------------------------------------------------- EF under PQ, WFQ and
# DRR


def drr_quanta(
    ef_ip_bytes: int, ef_service_rate_bps: float, line_rate_bps: float = PAPERS.line_rate_bps
) -> tuple:
    """DRR quanta ``(EF, BE)`` in bytes in the ratio of the WFQ weights ``rate : line - rate``.

    The EF quantum is one EF packet (``ef_ip_bytes``: a turn sends one EF packet), the BE quantum
    ``round(ef_ip_bytes * (line_rate_bps - ef_service_rate_bps) / ef_service_rate_bps)``: 4024
    bytes for 1006-byte EF packets at 400 kbit/s of 2 Mbit/s, about four 1000-byte BE packets a
    turn.
    """
    ef = check_int("ef_ip_bytes", ef_ip_bytes, 1, 65_535)
    line = check_real("line_rate_bps", line_rate_bps, 0.0, strict_minimum=True)
    rate = check_real("ef_service_rate_bps", ef_service_rate_bps, 0.0, line, strict_minimum=True)
    if rate >= line:
        raise ValueError(
            f"ef_service_rate_bps must be below the line rate {line:g} bit/s, got"
            f" {ef_service_rate_bps!r}"
        )
    return ef, max(1, round(ef * (line - rate) / rate))


def ef_node(
    scheduler: str = "pq",
    *,
    ef_frame_bytes: int = 1024,
    ef_service_rate_bps: float = 400e3,
    ring_limit_particles: int = 5,
    be_quantum_bytes: int | None = None,
) -> Node:
    """The TF-TANT C7200 with EF (queue 0) under ``scheduler``, BE in queue 1.

    Parameters
    ----------
    scheduler : {"pq", "wfq", "drr"}
        ``"pq"`` and ``"wfq"``: :func:`pqlab.scenarios.tftant_node` (priority queue policed at
        ``ef_service_rate_bps``, or WFQ with that weight and BE weighted with the rest);
        ``"drr"``: both queues DRR (node contract rule 3b) with :func:`drr_quanta`.
    ef_frame_bytes : int
        EF Ethernet frame, bytes (IP length = frame - 18), in [64, 1518].
    ef_service_rate_bps : float
        EF service rate, bit/s, in (0, 2e6): policing rate, WFQ weight, DRR quantum ratio.
    ring_limit_particles : int
        tx-ring-limit, particles of 512 bytes (>= 1).
    be_quantum_bytes : int, optional
        DRR quantum of the BE queue, bytes; default :func:`drr_quanta`'s.
    """
    check_choice("scheduler", scheduler, SCHEDULERS)
    frame = check_int("ef_frame_bytes", ef_frame_bytes, 64, 1518)
    if scheduler != "drr":
        return presets.tftant_node(
            scheduler,
            ef_service_rate_bps=ef_service_rate_bps,
            ring_limit_particles=ring_limit_particles,
        )
    ef_quantum, be_quantum = drr_quanta(presets.ef_ip_bytes(frame), ef_service_rate_bps)
    if be_quantum_bytes is not None:
        be_quantum = check_int("be_quantum_bytes", be_quantum_bytes, 1, 10**9)
    return Node(
        PAPERS.line_rate_bps,
        PAPERS.framing,
        check_int("ring_limit_particles", ring_limit_particles, 1, 10**6),
        PAPERS.particle_bytes,
        (
            Queue("drr", presets.TFTANT_EF_QUEUE_LIMIT, quantum_bytes=ef_quantum),
            Queue("drr", presets.TFTANT_BE_QUEUE_LIMIT, quantum_bytes=be_quantum),
        ),
    )


def ef_scenario(
    scheduler: str = "pq",
    *,
    ef_frame_bytes: int = 1024,
    ef_service_rate_bps: float = 400e3,
    ring_limit_particles: int = 5,
    be_quantum_bytes: int | None = None,
    n_ef_samples: int = 2_000,
    warmup_s: float = 2.0,
) -> Scenario:
    """The TF-TANT PQ-vs-WFQ test (:func:`pqlab.scenarios.pq_vs_wfq`) on :func:`ef_node` of
    ``scheduler``.

    The traffic is the same for every scheduler: one EF CBR stream (flow 0) of 300 kbit/s of
    ``ef_frame_bytes`` frames, one CBR BE stream of 2 Mbit/s of 1000-byte IP packets (it
    overloads the line), ``n_ef_samples`` EF packets after ``warmup_s`` seconds.
    """
    node = ef_node(
        scheduler,
        ef_frame_bytes=ef_frame_bytes,
        ef_service_rate_bps=ef_service_rate_bps,
        ring_limit_particles=ring_limit_particles,
        be_quantum_bytes=be_quantum_bytes,
    )
    base = presets.pq_vs_wfq(
        scheduler="pq",
        ef_frame_bytes=ef_frame_bytes,
        ef_service_rate_bps=ef_service_rate_bps,
        ring_limit_particles=ring_limit_particles,
        n_ef_samples=n_ef_samples,
        warmup_s=warmup_s,
    )
    return dataclasses.replace(
        base, node=node, name=f"diffserv lab: EF under {scheduler}, {ef_frame_bytes}-byte frames"
    )


def ef_delays(schedulers=SCHEDULERS, *, seed: int = 1, **kw) -> pd.DataFrame:
    """Node delay (departure - arrival) of the measured EF packets under each scheduler.

    Parameters
    ----------
    schedulers : sequence of {"pq", "wfq", "drr"}
        The schedulers to run, each on the same traffic (same seed).
    seed : int
        Seed of every run (>= 0).
    **kw
        Keywords of :func:`ef_scenario` (``ef_frame_bytes``, ``n_ef_samples``, ...).

    Returns
    -------
    pandas.DataFrame
        One row per measured EF packet: ``scheduler`` and ``delay_ms`` (NaN: lost).
    """
    seed = check_int("seed", seed, 0)
    frames = []
    for scheduler in schedulers:
        sc = ef_scenario(scheduler, **kw)
        window = experiments.measurement_window(simulate(sc, seed=seed), sc)
        delay_ms = to_ms(metrics.one_way_delay(window, PathModel()).values)
        frames.append(pd.DataFrame({"scheduler": scheduler, "delay_ms": delay_ms}))
    return pd.concat(frames, ignore_index=True)


def ef_summary(delays: pd.DataFrame) -> pd.DataFrame:
    """Mean, 99th percentile and maximum EF delay (ms) and loss ratio per scheduler
    of :func:`ef_delays`."""
    rows = {}
    for scheduler, group in delays.groupby("scheduler", sort=False):
        d = group["delay_ms"].to_numpy()
        kept = d[np.isfinite(d)]
        rows[scheduler] = {
            "mean_ms": kept.mean() if kept.size else np.nan,
            "p99_ms": np.percentile(kept, 99) if kept.size else np.nan,
            "max_ms": kept.max() if kept.size else np.nan,
            "loss_ratio": 1.0 - kept.size / d.size,
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("scheduler")


def _ring_ahead(ring_limit_particles: int, be_ip_bytes: int) -> int:
    """BE packets the ring can hold when an EF packet arrives: packets enter while fewer than R
    particles are in use."""
    k = int(particles_needed(be_ip_bytes, PAPERS.particle_bytes))
    return math.ceil(ring_limit_particles / k)


def pq_bound_s(
    *,
    ef_frame_bytes: int = 1024,
    be_ip_bytes: int = presets.TFTANT_BE_IP_BYTES,
    ring_limit_particles: int = 5,
) -> float:
    """Largest node delay of an EF packet in the priority queue with no EF packet ahead, seconds.

    Rules 3-5: no BE packet enters the ring while the EF packet waits, so it waits for the BE
    packets the ring holds at most, ``ceil(R / k)`` of ``k`` particles each (a packet enters
    while fewer than ``R`` particles are in use: 3 packets of 1000 bytes in a ring of 5), then
    its own line time: ``ceil(R / k) t_BE + t_EF``. For 1024-byte frames behind 1000-byte BE on
    the 2 Mbit/s ATM line: 4 x 4.664 = 18.66 ms. Valid while the EF stream's interval exceeds
    this bound (a CBR EF packet then never finds another one queued).
    """
    ef_ip = presets.ef_ip_bytes(check_int("ef_frame_bytes", ef_frame_bytes, 64, 1518))
    be = check_int("be_ip_bytes", be_ip_bytes, 1, 65_535)
    ring = check_int("ring_limit_particles", ring_limit_particles, 1, 10**6)
    t_be = float(line_time_s(be, PAPERS.framing, PAPERS.line_rate_bps))
    t_ef = float(line_time_s(ef_ip, PAPERS.framing, PAPERS.line_rate_bps))
    return _ring_ahead(ring, be) * t_be + t_ef


def drr_bound_s(
    *,
    ef_frame_bytes: int = 1024,
    ef_service_rate_bps: float = 400e3,
    be_quantum_bytes: int | None = None,
    be_ip_bytes: int = presets.TFTANT_BE_IP_BYTES,
    ring_limit_particles: int = 5,
) -> float:
    """Largest node delay of an EF packet in its DRR queue (quantum >= one EF packet), seconds.

    Rule 3b: an EF packet that finds its queue empty joins the active list behind BE, whose
    turn may still send ``floor((quantum + L - 1) / L)`` BE packets of ``L`` bytes (its deficit
    before the turn is below one BE packet); those, and the BE packets already in the ring,
    go first: :func:`pq_bound_s` plus ``floor((quantum + L - 1) / L)`` BE line times.
    """
    ef_ip = presets.ef_ip_bytes(check_int("ef_frame_bytes", ef_frame_bytes, 64, 1518))
    quantum = (
        drr_quanta(ef_ip, ef_service_rate_bps)[1]
        if be_quantum_bytes is None
        else check_int("be_quantum_bytes", be_quantum_bytes, 1, 10**9)
    )
    be = check_int("be_ip_bytes", be_ip_bytes, 1, 65_535)
    turn = (quantum + be - 1) // be
    return pq_bound_s(
        ef_frame_bytes=ef_frame_bytes, be_ip_bytes=be, ring_limit_particles=ring_limit_particles
    ) + turn * float(line_time_s(be, PAPERS.framing, PAPERS.line_rate_bps))


def be_line_time_s(be_ip_bytes: int = presets.TFTANT_BE_IP_BYTES) -> float:
    """Line time of one BE packet on the 2 Mbit/s ATM line, seconds: 4.664 ms for 1000 bytes (22
    cells)."""
    return float(
        line_time_s(
            check_int("be_ip_bytes", be_ip_bytes, 1, 65_535), PAPERS.framing, PAPERS.line_rate_bps
        )
    )


def ef_comparison(
    summary: pd.DataFrame, *, ef_frame_bytes: int = 1024, be_quantum_bytes: int | None = None
) -> pd.DataFrame:
    """What theory and the TF-TANT PQ-vs-WFQ page say next to what we get, from :func:`ef_summary`.

    Rows: the PQ maximum against :func:`pq_bound_s`; the DRR maximum against
    :func:`drr_bound_s`; the WFQ - PQ gap of the maxima in BE line times against the page's
    (``data/paper_values.csv``: about 4 for 1024-byte frames, 5 for 1518; none stated for other
    sizes); whether PQ's maximum is the smallest (the page: "with Priority Queuing one-way delay
    is always less than with WFQ"). Columns ``expected`` (theory or the page), ``ours`` and
    ``source``.
    """
    from ..papers import kit

    t_be = be_line_time_s()
    rows = []
    if "pq" in summary.index:
        rows.append(
            (
                "PQ: largest EF delay (ms)",
                to_ms(pq_bound_s(ef_frame_bytes=ef_frame_bytes)),
                summary.at["pq", "max_ms"],
                "theory: pq_bound_s (rules 3-5)",
            )
        )
    if "drr" in summary.index:
        rows.append(
            (
                "DRR: largest EF delay (ms)",
                to_ms(
                    drr_bound_s(ef_frame_bytes=ef_frame_bytes, be_quantum_bytes=be_quantum_bytes)
                ),
                summary.at["drr", "max_ms"],
                "theory: drr_bound_s (rule 3b)",
            )
        )
    if {"pq", "wfq"} <= set(summary.index):
        gap = (summary.at["wfq", "max_ms"] - summary.at["pq", "max_ms"]) / to_ms(t_be)
        stated = {1024: "gap_1024_be_tx", 1518: "gap_1518_be_tx"}.get(int(ef_frame_bytes))
        paper = kit.paper_value("tftant_wfq_fig1", stated)[0] if stated else np.nan
        rows.append(
            (
                "WFQ - PQ, largest EF delay (BE line times of 4.664 ms)",
                paper,
                gap,
                "TF-TANT PQ-vs-WFQ page (1024, 1518 B)",
            )
        )
        others = summary.drop(index="pq")["max_ms"]
        rows.append(
            (
                "PQ's largest EF delay the smallest (1 yes, 0 no)",
                1.0,
                float(summary.at["pq", "max_ms"] <= others.min()),
                "TF-TANT: PQ always less than WFQ",
            )
        )
    return pd.DataFrame(rows, columns=["quantity", "expected", "ours", "source"]).set_index(
        "quantity"
    )


# --------------------------------------------------------------------------- AF under WRED


def af_node(
    *, af_weight_bps: float = 0.6e6, red_weight: float = DEFAULT_RED_WEIGHT, thresholds=None
) -> Node:
    """The 2 Mbit/s ATM C7200 with an AF queue (0) under WRED and a best-effort queue (1), both WFQ.

    Parameters
    ----------
    af_weight_bps : float
        WFQ weight of the AF queue, bit/s, in (0, 2e6); BE is weighted with the rest of the line.
        The default 0.6 Mbit/s gives AF about 0.5 Mbit/s of IP packets of 500 bytes on the ATM line
        (cells: 583 wire bytes per 500): more than its CIR of 0.4, less than its PIR of 0.8.
    red_weight : float
        WRED's averaging weight ``w`` (rule 2a), in (0, 1]; Cisco's default ``2**-9``.
    thresholds : dict, optional
        ``red_min_packets``, ``red_max_packets``, ``red_max_p`` (each one value or three: green,
        yellow, red); default :data:`WRED_THRESHOLDS`.
    """
    line = PAPERS.line_rate_bps
    weight = check_real("af_weight_bps", af_weight_bps, 0.0, line, strict_minimum=True)
    if weight >= line:
        raise ValueError(
            f"af_weight_bps must be below the line rate {line:g} bit/s, got {af_weight_bps!r}"
        )
    wred = dict(WRED_THRESHOLDS if thresholds is None else thresholds)
    return Node(
        line,
        PAPERS.framing,
        PAPERS.ring_limit_particles,
        PAPERS.particle_bytes,
        (
            Queue(
                "wfq",
                presets.TFTANT_BE_QUEUE_LIMIT,
                weight_bps=weight,
                red_weight=red_weight,
                **wred,
            ),
            Queue("wfq", presets.TFTANT_BE_QUEUE_LIMIT, weight_bps=line - weight),
        ),
    )


def af_scenario(
    af_load_bps: float = 1.2e6,
    *,
    cir_bps: float = AF_CIR_BPS,
    pir_bps: float = AF_PIR_BPS,
    n_af_streams: int = 4,
    af_ip_bytes: int = 500,
    be_rate_bps: float = 1.5e6,
    bucket_bytes: int = 3_000,
    duration_s: float = 20.0,
    warmup_s: float = 5.0,
    **node_kw,
) -> Scenario:
    """An AF class coloured by trTCMs next to overloading best effort on :func:`af_node`.

    Parameters
    ----------
    af_load_bps : float
        Offered AF rate, bit/s of IP packets (> 0), split evenly over ``n_af_streams`` Poisson
        streams (flows 10, 11, ...) of ``af_ip_bytes``.
    cir_bps, pir_bps : float
        Committed and peak rates of the AF class, bit/s (0 < CIR <= PIR); each stream's
        :class:`~pqlab.traffic.TrTCM` (RFC 2698) gets its share, ``cir_bps / n_af_streams`` and
        ``pir_bps / n_af_streams``, with buckets of ``bucket_bytes`` (CBS = PBS).
    n_af_streams : int
        AF streams (>= 1).
    af_ip_bytes : int
        AF packet size, bytes.
    be_rate_bps : float
        One CBR best-effort stream of 1500-byte packets (flow 100), bit/s.
    duration_s, warmup_s : float
        Simulated seconds and the warm-up before the counts (WRED's average needs about
        ``1 / red_weight`` AF arrivals to settle: 512 at Cisco's default).
    **node_kw
        Keywords of :func:`af_node`.
    """
    load = check_real("af_load_bps", af_load_bps, 0.0, strict_minimum=True)
    cir = check_real("cir_bps", cir_bps, 0.0, strict_minimum=True)
    pir = check_real("pir_bps", pir_bps, cir)
    n = check_int("n_af_streams", n_af_streams, 1, 1000)
    size = check_int("af_ip_bytes", af_ip_bytes, 1, 65_535)
    bucket = check_int("bucket_bytes", bucket_bytes, size, 10**9)
    af = [
        PoissonStream(
            load / n,
            Deterministic(size),
            queue=AF_QUEUE,
            flow=FIRST_AF_FLOW + k,
            marker=TrTCM(cir / n, bucket, pir / n, bucket),
        )
        for k in range(n)
    ]
    be = CBRStream(
        check_real("be_rate_bps", be_rate_bps, 0.0, strict_minimum=True),
        Deterministic(1500),
        queue=BE_QUEUE,
        flow=AF_BE_FLOW,
    )
    return Scenario(
        node=af_node(**node_kw),
        streams=(*af, be),
        duration_s=duration_s,
        warmup_s=warmup_s,
        name=(
            f"diffserv lab: AF {to_mbps(load):g} Mbit/s under WRED (CIR {to_mbps(cir):g}, "
            f"PIR {to_mbps(pir):g} Mbit/s)"
        ),
    )


#: Units and long names of :func:`colour_drops`' numbers (a sweep's ``measure`` declares them).
COLOUR_DROP_ATTRS = {
    **{
        f"{c}_offered": {
            "units": "packets",
            "long_name": f"{c} AF packets offered after the warm-up",
        }
        for c in COLOURS
    },
    **{
        f"{c}_drop_fraction": {
            "units": "1",
            "long_name": f"share of the {c} AF packets dropped (any drop code)",
        }
        for c in COLOURS
    },
    **{
        f"{c}_early_drop_fraction": {
            "units": "1",
            "long_name": f"share of the {c} AF packets dropped early by WRED (drop code 3)",
        }
        for c in COLOURS
    },
    "be_drop_fraction": {"units": "1", "long_name": "share of the best-effort packets dropped"},
}


def colour_drops(ds: xr.Dataset, scenario: Scenario) -> dict:
    """Per colour, the AF packets offered after the warm-up and the share dropped (a sweep's
    ``measure``).

    Counts from :func:`pqlab.metrics.loss` grouped by ``colour`` on the AF queue's packets
    (``ds["colour"]``: 0 green, 1 yellow, 2 red, set by the streams' markers), and by queue for
    best effort. A colour no packet had gives NaN fractions.
    """
    after = ds.isel(packet=np.flatnonzero(is_measured(ds["arrival"].values, scenario.warmup_s)))
    af = after.isel(packet=np.flatnonzero(after["queue"].values == AF_QUEUE))
    by_colour = metrics.loss(af, by="colour")
    out = {}
    for code, name in enumerate(COLOURS):
        if code in by_colour["colour"].values:
            row = by_colour.sel(colour=code)
            sent = int(row["sent"])
            out.update(
                {
                    f"{name}_offered": sent,
                    f"{name}_drop_fraction": float(row["loss_ratio"]),
                    f"{name}_early_drop_fraction": float(row["early_drop"]) / sent,
                }
            )
        else:
            out.update(
                {
                    f"{name}_offered": 0,
                    f"{name}_drop_fraction": np.nan,
                    f"{name}_early_drop_fraction": np.nan,
                }
            )
    by_queue = metrics.loss(after, by="queue")
    out["be_drop_fraction"] = float(by_queue["loss_ratio"].sel(traffic_class=BE_QUEUE))
    return out


colour_drops.attrs = COLOUR_DROP_ATTRS


def af_colour_drops(af_loads_bps, *, seeds=(1,), backend="serial", **kw) -> pd.DataFrame:
    """Drop fraction of each colour against the offered AF load: a sweep of :func:`af_scenario`.

    Parameters
    ----------
    af_loads_bps : sequence of float
        Offered AF rates, bit/s.
    seeds : sequence of int
        Seeds (the mean over them is returned).
    backend : str or dask.distributed.Client
        :func:`pqlab.experiments.sweep`'s backend.
    **kw
        Fixed keywords of :func:`af_scenario` (``cir_bps``, ``duration_s``, ...).

    Returns
    -------
    pandas.DataFrame
        Long form, one row per load and colour: ``af_load_mbps``, ``colour`` ("green", "yellow",
        "red"), ``offered_share`` (of the AF packets), ``drop_fraction``, ``early_drop_fraction``
        (means over seeds) and ``be_drop_fraction``.
    """
    loads = [check_real("af_loads_bps", v, 0.0, strict_minimum=True) for v in af_loads_bps]
    result = experiments.sweep(
        _AFPoint(kw),
        {"af_load_bps": loads},
        seeds=list(seeds),
        measure=colour_drops,
        backend=backend,
    )
    mean = result.mean("seed")
    total = sum(mean[f"{c}_offered"] for c in COLOURS)
    rows = []
    for i, load in enumerate(loads):
        for c in COLOURS:
            rows.append(
                {
                    "af_load_mbps": to_mbps(load),
                    "colour": c,
                    "offered_share": float(mean[f"{c}_offered"][i] / total[i]),
                    "drop_fraction": float(mean[f"{c}_drop_fraction"][i]),
                    "early_drop_fraction": float(mean[f"{c}_early_drop_fraction"][i]),
                    "be_drop_fraction": float(mean["be_drop_fraction"][i]),
                }
            )
    return pd.DataFrame(rows)


@dataclasses.dataclass(frozen=True)
class _AFPoint:
    """:func:`af_scenario` with fixed keywords, picklable for the process and dask backends."""

    fixed: dict

    @property
    def __name__(self) -> str:
        return "af_scenario"

    def __call__(self, **point) -> Scenario:
        return af_scenario(**{**self.fixed, **point})


def precedence_holds(drops: pd.DataFrame) -> pd.DataFrame:
    """Per offered load of :func:`af_colour_drops`: the drop fraction of each colour and whether the
    colours offered there are dropped in precedence order, red >= yellow >= green (RFC 2597: a
    higher drop precedence is dropped first), ``holds``. A colour no packet had (NaN) is left out.
    """
    table = drops.pivot(index="af_load_mbps", columns="colour", values="drop_fraction")[
        list(COLOURS)
    ]

    def ordered(row) -> bool:
        present = row.dropna().to_numpy()
        return bool(np.all(np.diff(present) >= 0))

    table["holds"] = table.apply(ordered, axis=1)
    return table
