"""TF-TANT, streams and aggregation at one node: the test page's Fig. 4 (geometric BE sizes), EF loss vs number of EF streams, IPDV vs aggregation.

One compute function per artefact id (``tftant_be_fig4``, ``tftant_slides_loss``,
``tftant_slides_ipdv_aggregation``) and its statistics; the section
:mod:`pqlab.papers.artefacts.tftant_pq` re-exports them (and finds their claims).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...measure import cache, experiments
from .. import presets
from ...measure.analysis import pooled_frequencies
from ...base._validate import check_choice, check_int, check_real
from ...node.framing import line_time_s
from ...node.scenario import Scenario, simulate
from ...node.traffic import Geometric
from ._common import add_mean_ci, be_streams, check_n_ef_samples, check_seeds, check_values, paper_value, provenance, renamed_keyword
from .tftant_pq_common import (BE_TRAFFIC, GEOMETRIC_MEANS_BYTES, GEOMETRIC_RANGE_BYTES, IPDV_EF_LOAD_BPS,
                               IPDV_STREAMS, LOSS_EF_LOAD_BPS, LOSS_SECOND_LOAD_BPS, LOSS_STREAMS, REAL,
                               SPAN_PERCENTILES, _percentile_span, _unit_s, ef_split_scenario,
                               min_bucket_bytes)


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
    laws.append((REAL, presets.real_be_sizes()))

    units = np.full((len(laws), len(seeds), n), np.nan)
    be_mean = np.zeros((len(laws), len(seeds)))
    sc = None
    for i, (label, law) in enumerate(laws):
        sc = presets.pq_experiment(be_size=law, n_ef_samples=n, name=f"tftant_be_fig4({label})")
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
        path_ef_delay_units=float(sc.path.extra_delay_s(presets.ef_ip_bytes(presets.EF_FRAME_BYTES))
                                  / _unit_s(sc.node)))
    return ds


# --------------------------------------------------------------------------- tftant_slides_loss


def _loss_measure(ds: xr.Dataset, sc: Scenario) -> dict:
    """EF loss by cause in the measurement window, and the EF arrivals' burstiness (the sweep's measure)."""
    ef = ds["queue"].values == presets.EF_QUEUE
    win = ef & (ds["arrival"].values >= sc.warmup_s)
    drop = ds["drop"].values[win]
    pq = sc.node.queues[presets.EF_QUEUE]
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
    ef_frame_bytes: int = presets.EF_FRAME_BYTES,
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
    frame = check_int("ef_frame_bytes", ef_frame_bytes, presets.ETHERNET_FRAME_OVERHEAD_BYTES + 1, 65_535)

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
    pq = sc.node.queues[presets.EF_QUEUE]
    ip = presets.ef_ip_bytes(frame)
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
        transmission_unit_s=unit_s, real_be_mean_bytes=presets.real_be_sizes().mean_bytes)
    return ds
