"""GLOBECOM'01 Fig. 7-1 / 7-2 (long version Fig. 6): EF one-way delay distribution and CCDF vs the
Aggregation Degree A.

The artefact's computation (:func:`compute`), claims (:func:`claims`) and figure (:func:`figure`);
the notebook ``notebooks/03_aggregation`` runs them on the aggregation sweep of
:mod:`pqlab.papers.globecom01.aggregation_runs` (its choices: stand-in BE sizes, common BE,
trends, the transmission unit). The Dataset is in SI units (times in seconds, rates in bit/s);
the claims state times in ms and rates in kbit/s, the figure draws delays in transmission units.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...base._validate import check_real
from ...base.units import to_kbps, to_ms
from ...measure import cache, metrics
from ...measure.analysis import trend
from .. import judge, kit
from ..presets import base_case
from ..registry import Artefact
from ..stated import EF_AGGREGATE_BPS, EF_FRAME_BYTES, REF_RATES_BPS
from . import aggregation_claims as wording
from . import aggregation_figures as drawing
from .aggregation_runs import a_text, aggregation_sweep, attrs, run, samples, unit_s, with_frequency

__all__ = [
    "ARTEFACT",
    "compute",
    "claims",
    "figure",
    "BE_REFERENCE_PAYLOADS",
    "CCDF_DISTANCE_THRESHOLD",
]

ARTEFACT = Artefact(__name__, notebook="03_aggregation")

#: Deterministic BE payloads (bytes) whose delays show the BE profile's influence: GLOBECOM'01 Fig.
#: 3's range.
BE_REFERENCE_PAYLOADS = (100, 1450)
#: Sup-distance between CCDFs above which "the probability significantly varies with A".
CCDF_DISTANCE_THRESHOLD = 0.05


@cache.artefact(ARTEFACT.id)
def compute(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    *,
    ref_rates_bps=REF_RATES_BPS,
    ef_aggregate_bps: float = EF_AGGREGATE_BPS,
    common_be: bool = True,
    bin_width_units: float = 0.5,
    be_reference_payloads=BE_REFERENCE_PAYLOADS,
) -> xr.Dataset:
    """EF one-way delay distribution and CCDF vs Aggregation Degree (GLOBECOM'01 Fig. 7).

    Parameters
    ----------
    n_ef_samples, seeds, ref_rates_bps, ef_aggregate_bps, common_be
        The aggregation sweep (:func:`pqlab.papers.globecom01.aggregation_runs.aggregation_sweep`):
        reference packets per run (the papers: 10,000), seeds (every number is a mean over them),
        reference rates and EF aggregate (bit/s of frames; 300 kbit/s), BE generated first.
    bin_width_units : float
        Bin width of the frequency distributions, transmission units (> 0).
    be_reference_payloads : sequence of int
        Deterministic BE UDP payloads, bytes, run with :func:`pqlab.scenarios.base_case`
        (A = 0, same seeds): how much the BE profile moves the mean delay, against how
        much A does (the paper: "the influence of the BE traffic profile on delay is
        greater"). Default: the ends of GLOBECOM'01 Fig. 3's range, 100 and 1450 bytes.
        Empty: skip.

    Returns
    -------
    xarray.Dataset
        ``delay (aggregation_degree, seed, sample)`` s; per run ``delay_mean``,
        ``delay_std``, ``delay_p99`` (s) with ``_mean``/``_ci`` over seeds;
        ``frequency (aggregation_degree, delay_bin)`` and ``ccdf (aggregation_degree,
        threshold)`` pooled over seeds; ``ccdf_seed`` per seed;
        ``be_reference_delay_mean (be_payload_bytes, seed)``; attrs with the
        transmission unit, the trend of the spread and the CCDF distances.
    """
    width_u = check_real("bin_width_units", bin_width_units, 0.0, strict_minimum=True)
    try:
        payloads = list(be_reference_payloads)
    except TypeError:
        raise ValueError(
            f"be_reference_payloads must be a sequence of integers, got {be_reference_payloads!r}"
        ) from None
    if payloads:
        payloads = kit.check_values("be_reference_payloads", payloads, 1, integer=True)
    scs, runs, coords = aggregation_sweep(
        n_ef_samples, seeds, ref_rates_bps, ef_aggregate_bps, common_be
    )
    unit = unit_s(scs[0])
    delay = samples(runs, "delay")
    s = {"units": "s"}
    ds = xr.Dataset(coords=coords)
    ds["delay"] = (
        ("aggregation_degree", "seed", "sample"),
        delay,
        {**s, "long_name": "one-way delay of the reference stream (NaN: lost or padding)"},
    )
    ds["delay_mean"] = (
        ("aggregation_degree", "seed"),
        np.nanmean(delay, axis=2),
        {**s, "long_name": "mean one-way delay"},
    )
    ds["delay_std"] = (
        ("aggregation_degree", "seed"),
        np.nanstd(delay, axis=2, ddof=1),
        {**s, "long_name": "standard deviation of one-way delay"},
    )
    ds["delay_p99"] = (
        ("aggregation_degree", "seed"),
        np.nanpercentile(delay, 99, axis=2),
        {**s, "long_name": "99th percentile of one-way delay"},
    )
    kit.add_mean_ci(ds, ("delay_mean", "delay_std", "delay_p99"))
    width = width_u * unit
    ds, _ = with_frequency(
        ds,
        delay,
        width,
        width_u,
        point="aggregation_degree",
        bin_dim="delay_bin",
        bins_text="delay bins",
        of="one-way delay",
    )
    thresholds = np.linspace(0.0, np.nanmax(delay), 600)
    ds = ds.assign_coords(
        threshold=("threshold", thresholds, {"units": "s", "long_name": "delay threshold d"})
    )
    ds["ccdf"] = (
        ("aggregation_degree", "threshold"),
        np.array(
            [metrics.ccdf(delay[i].ravel(), thresholds).probability for i in range(delay.shape[0])]
        ),
        {"units": "1", "long_name": "P(D > d), pooled over seeds"},
    )
    ds["ccdf_seed"] = (
        ("aggregation_degree", "seed", "threshold"),
        np.array(
            [
                [metrics.ccdf(delay[i, j], thresholds).probability for j in range(delay.shape[1])]
                for i in range(delay.shape[0])
            ]
        ),
        {"units": "1", "long_name": "P(D > d) per seed"},
    )
    a = ds["aggregation_degree"].values
    slope, half, holds = trend(ds["delay_std"].values, a)
    hi, lo = int(np.argmax(a)), int(np.argmin(a))
    distance = float(np.max(np.abs(ds["ccdf"].values[hi] - ds["ccdf"].values[lo])))
    seed_distance = [
        float(np.max(np.abs(ds["ccdf_seed"].values[lo, j] - ds["ccdf_seed"].values[lo, k])))
        for j in range(delay.shape[1])
        for k in range(j + 1, delay.shape[1])
    ]
    if payloads:
        seeds_ = [int(x) for x in ds["seed"].values]
        ref = []
        for p in payloads:
            sc = base_case(be_payload_bytes=p, n_ef_samples=int(n_ef_samples))
            ref.append([float(np.nanmean(run(sc, x)["delay"])) for x in seeds_])  # memoised runs
        ds = ds.assign_coords(
            be_payload_bytes=(
                "be_payload_bytes",
                np.array(payloads),
                {"units": "bytes", "long_name": "deterministic BE UDP payload"},
            )
        )
        ds["be_reference_delay_mean"] = (
            ("be_payload_bytes", "seed"),
            np.array(ref),
            {"units": "s", "long_name": "mean one-way delay, deterministic BE, A = 0"},
        )
    ds.attrs = attrs(
        ARTEFACT.id,
        __name__,
        scs,
        coords["seed"][1],
        common_be,
        "GLOBECOM'01 Fig. 7: EF one-way delay distribution vs Aggregation Degree (stand-in BE"
        " sizes)",
        bin_width_s=width,
        delay_std_slope_s=slope,
        delay_std_slope_ci_s=half,
        spread_increases=int(holds),
        ccdf_distance_extreme_a=distance,
        ccdf_distance_between_seeds_a0=float(np.mean(seed_distance)) if seed_distance else np.nan,
    )
    return ds


def claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`compute`'s Dataset: delay spread and CCDF vs A, the BE profile's
    weight."""
    art = ARTEFACT.id
    a, spread, seeds = wording.begin(ds, art, "aggregation_degree", "spread_increases")
    std_text = wording.series(ds, "delay_std", "aggregation_degree")
    multi = ds.sizes["seed"] > 1
    dist, seed_dist = (
        ds.attrs["ccdf_distance_extreme_a"],
        ds.attrs["ccdf_distance_between_seeds_a0"],
    )
    floor = max(CCDF_DISTANCE_THRESHOLD, seed_dist) if multi else CCDF_DISTANCE_THRESHOLD
    a_range = float(np.ptp(ds["delay_mean_mean"].values))
    top, zero = int(np.argmax(a)), int(np.argmin(a))
    std = ds["delay_std_mean"].values
    slope_ci = ds.attrs["delay_std_slope_ci_s"]
    spread_facts = [
        judge.fact("aggregate", to_kbps(ds.attrs["ef_aggregate_bps"]), "kbit/s"),
        judge.fact("std_a0", wording.ms(std[zero]), "ms"),
        judge.fact("std_top", wording.ms(std[top]), "ms"),
        judge.fact("a_top", a[top], "1"),
        judge.fact("slope", wording.ms(ds.attrs["delay_std_slope_s"]), "ms"),
    ]
    spread_text = (
        "the EF aggregate stays {aggregate} at every A, so the EF traffic ahead of a reference"
        " packet hardly changes: the delay standard deviation goes from {std_a0} at A = 0 to"
        " {std_top} at A = {a_top}, a slope of {slope} per unit A"
    )
    if np.isfinite(slope_ci):
        spread_text += " (95 % CI half-width {slope_ci} over the seeds)"
        spread_facts.append(judge.fact("slope_ci", wording.ms(slope_ci), "ms"))
    spread_why = judge.reason("mechanism", spread_text, spread_facts)
    ccdf_why = judge.reason(
        "mechanism",
        "the largest distance between the CCDFs at A = {a_top} and A = 0 is {distance}, against a"
        " significance floor of {floor} (the larger of the threshold and the mean distance between"
        " seeds at A = 0)",
        [
            judge.fact("a_top", a[top], "1"),
            judge.fact("distance", dist, "1"),
            judge.fact("floor", floor, "1"),
        ],
    )
    rows = [
        kit.claim(
            art,
            "ef_aggregate_load",
            to_kbps(ds.attrs["ef_aggregate_bps"]),
            "kbit/s",
            f"sum of the preset's EF stream rates counted on {EF_FRAME_BYTES}-byte frames "
            f"({int(ds['n_ef_streams'].max())} "
            "streams at the highest A)",
        ),
        kit.claim(
            art,
            "spread_increases_with_a",
            None,
            "-",
            f"std of one-way delay per A, mean of {seeds} (ms): {std_text}; "
            + wording.trend_text(
                spread,
                ds.attrs["delay_std_slope_s"],
                ds.attrs["delay_std_slope_ci_s"],
                to_ms,
                "ms per unit A",
            )
            + "; stand-in BE sizes",
            spread,
            reason=spread_why,
        ),
        kit.claim(
            art,
            "ccdf_varies_with_a",
            dist,
            "-",
            f"largest |P_A(D>d) - P_0(D>d)| between A={a_text(a.max())} and A=0, pooled over"
            f" {seeds}: {dist:.3f}; counted as significant above max({CCDF_DISTANCE_THRESHOLD:g},"
            " mean distance between seeds at A=0 = "
            + (f"{seed_dist:.3f}" if multi else "n/a with one seed")
            + ")",
            dist > floor,
            reason=ccdf_why,
        ),
    ]
    if "be_reference_delay_mean" in ds:
        ref = ds["be_reference_delay_mean"].values.mean(axis=1)
        be_range = float(np.ptp(ref))
        payloads = ds["be_payload_bytes"].values
        payload_text = " and ".join(f"{p} B: {to_ms(m):.2f} ms" for p, m in zip(payloads, ref))
        profile_why = judge.reason(
            "mechanism",
            "deterministic BE payloads of {smallest} and {largest} move the mean delay over "
            "{be_range}, the Aggregation Degree over {a_range}",
            [
                judge.fact("smallest", float(payloads.min()), "bytes"),
                judge.fact("largest", float(payloads.max()), "bytes"),
                judge.fact("be_range", wording.ms(be_range), "ms"),
                judge.fact("a_range", wording.ms(a_range), "ms"),
            ],
        )
        rows.append(
            kit.claim(
                art,
                "be_profile_dominates_ef_profile",
                be_range / a_range if a_range > 0 else None,
                "-",
                f"mean delay with deterministic BE payloads (A=0) {payload_text}: range"
                f" {to_ms(be_range):.2f} ms vs range over A {to_ms(a_range):.2f} ms (value: their"
                " ratio)",
                be_range > a_range,
                reason=profile_why,
            )
        )
    return rows


def figure(ds: xr.Dataset):
    """EF one-way delay frequency distribution (left) and CCDF (right) per Aggregation Degree.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`compute`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    unit, width, edges = drawing.bins(ds, "delay_bin")
    fig, (ax_f, ax_c) = kit.subplots(1, 2, figsize=(12, 4.6), footer=True)
    colors = drawing.palette(ds.sizes["aggregation_degree"])
    for i in range(ds.sizes["aggregation_degree"]):
        p = ds["frequency"].values[i]
        ax_f.step(
            np.r_[edges, edges[-1] + width],
            np.r_[p, 0.0],
            where="post",
            color=colors[i],
            label=drawing.a_label(ds, i),
        )
        thr = ds["threshold"].values / unit
        for j in range(ds.sizes["seed"]):
            ax_c.plot(thr, ds["ccdf_seed"].values[i, j], color=colors[i], lw=0.8, alpha=0.35)
        ax_c.plot(thr, ds["ccdf"].values[i], color=colors[i], lw=2, label=drawing.a_label(ds, i))
    last = edges[np.flatnonzero(ds["frequency"].values.max(axis=0) > 0).max()] + 2 * width
    ax_f.set_xlim(0, last)
    ax_f.set_xlabel(f"one-way delay (transmission units of {to_ms(unit):.3f} ms)")
    ax_f.set_ylabel(f"frequency (bins of {width:g} units)")
    ax_f.set_title("Fig. 7-1: frequency distribution")
    ax_f.legend(fontsize=8)
    n = np.isfinite(ds["delay"].values[0]).sum()
    ax_c.set_yscale("log")
    ax_c.set_ylim(max(0.5 / max(n, 1), 1e-5), 1.05)
    ax_c.set_xlim(0, last)
    ax_c.set_xlabel(f"delay threshold d (transmission units of {to_ms(unit):.3f} ms)")
    ax_c.set_ylabel("P(D > d)")
    ax_c.set_title("Fig. 7-2: complementary distribution (thin: per seed)")
    ax_c.legend(fontsize=8, loc="lower left")
    fig.suptitle(
        f"{ARTEFACT.id}: EF one-way delay vs Aggregation Degree A (EF aggregate 300 kbit/s)"
    )
    drawing.stand_in_footer(fig, ds)
    return fig
