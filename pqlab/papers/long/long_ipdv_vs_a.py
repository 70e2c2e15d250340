"""Long version Sec. 6.2: IPDV of the reference stream vs the Aggregation Degree A.

Its |IPDV| distributions and their peaks, the mean and the maximum |IPDV| per A.

The artefact's computation (:func:`compute`), claims (:func:`claims`) and figure (:func:`figure`);
the notebook ``notebooks/03_aggregation`` runs them on the aggregation sweep of
:mod:`pqlab.papers.globecom01.aggregation_runs` (the papers' "IPDV" is jitter, mean |IPDV|: see
there). The Dataset is in SI units (times in seconds, rates in bit/s); the claims state times
in ms (or us) and in transmission units, the figure in ms and transmission units.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...base._validate import check_real
from ...base.units import to_kbps, to_ms, to_us
from ...measure import cache, metrics
from ...measure.analysis import count_peaks, trend
from ...node.framing import line_time_s
from .. import judge, kit
from ..globecom01 import aggregation_claims as wording
from ..globecom01 import aggregation_figures as drawing
from ..globecom01.aggregation_runs import (
    RUN_ATTRS,
    a_key,
    a_text,
    add_per_run,
    aggregation_sweep,
    attrs,
    delay_spread,
    mtu_runs,
    samples,
    unit_s,
    with_frequency,
)
from ..presets import real_be_sizes
from ..registry import Artefact
from ..stated import EF_AGGREGATE_BPS, EF_FRAME_BYTES, EF_IP_BYTES, MTU_BYTES, PAPERS, REF_RATES_BPS

__all__ = [
    "ARTEFACT",
    "compute",
    "claims",
    "figure",
    "LOG_PEAK_DECADES",
    "LOG_PEAK_MIN_SAMPLES",
    "INDEPENDENCE_TOLERANCE",
    "MTU_LINE_TIME_S",
    "PAPER_N_PEAKS",
]

ARTEFACT = Artefact(__name__, notebook="03_aggregation")

#: Log-scale peak counting (a secondary check): a peak must be twice its trough ...
LOG_PEAK_DECADES = float(np.log10(2.0))
#: ... and its bin must hold this many samples or more (pooled).
LOG_PEAK_MIN_SAMPLES = 30
#: Relative tolerance (of the overall mean) within which per-A maxima count as "independent of A".
INDEPENDENCE_TOLERANCE = 0.10
#: Line time of a 1500-byte IP packet on the papers' ATM line, seconds (32 cells at 2 Mbit/s).
MTU_LINE_TIME_S = float(line_time_s(MTU_BYTES, PAPERS.framing, PAPERS.line_rate_bps))
#: Peaks the long version sees in every |IPDV| histogram vs A ("two peaks"): the count each A must
#: show.
PAPER_N_PEAKS = 2


@cache.artefact(ARTEFACT.id)
def compute(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    *,
    ref_rates_bps=REF_RATES_BPS,
    ef_aggregate_bps: float = EF_AGGREGATE_BPS,
    common_be: bool = True,
    bin_width_units: float = 0.5,
    smooth_units: float = 0.5,
    min_prominence: float = 0.05,
    mtu_reference: bool = True,
) -> xr.Dataset:
    """IPDV (RFC 3393) of the reference stream vs Aggregation Degree (long version Sec. 6.2).

    Parameters
    ----------
    n_ef_samples, seeds, ref_rates_bps, ef_aggregate_bps, common_be
        The aggregation sweep (:func:`pqlab.papers.globecom01.aggregation_runs.aggregation_sweep`):
        reference packets per run (the papers: 10,000), seeds (every number is a mean over them),
        reference rates and EF aggregate (bit/s of frames; 300 kbit/s), BE generated first.
    bin_width_units : float
        Bin width of the |IPDV| frequency distributions, transmission units (> 0).
    smooth_units, min_prominence : float
        Peak counting (:func:`pqlab.measure.analysis.count_peaks`): Gaussian smoothing in
        transmission units, and the prominence a peak needs, as a fraction of the tallest bin.
    mtu_reference : bool
        Also run :func:`pqlab.scenarios.base_case` with 1500-byte BE packets (A = 0,
        same seeds): ``mtu_jitter_mean``, ``mtu_jitter_max (seed)``, to tell the BE
        mix's share of a gap.

    Returns
    -------
    xarray.Dataset
        ``ipdv (aggregation_degree, seed, sample)`` signed, s; per run ``jitter_mean``
        (mean |IPDV|), ``ipdv_mean`` (signed), ``jitter_max`` (max |IPDV|), ``ipdv_std``,
        ``jitter_std`` (s) and ``fraction_below_unit`` (share of |IPDV| below one
        transmission unit), with ``_mean``/``_ci``; pooled ``frequency`` and
        ``smoothed`` |IPDV| distributions on ``ipdv_bin``, ``is_peak`` and ``n_peaks``.
    """
    width_u = check_real("bin_width_units", bin_width_units, 0.0, strict_minimum=True)
    check_real("smooth_units", smooth_units, 0.0)
    check_real("min_prominence", min_prominence, 0.0, 1.0, strict_minimum=True)
    mtu = kit.check_bool("mtu_reference", mtu_reference)
    scs, runs, coords = aggregation_sweep(
        n_ef_samples, seeds, ref_rates_bps, ef_aggregate_bps, common_be
    )
    unit = unit_s(scs[0])
    ipdv = samples(runs, "ipdv")
    jitter = metrics.jitter_of_ipdv(ipdv)
    dims = ("aggregation_degree", "seed")
    s = {"units": "s"}
    ds = xr.Dataset(coords=coords)
    ds["ipdv"] = (
        ("aggregation_degree", "seed", "sample"),
        ipdv,
        {**s, "long_name": "IPDV D[i+1] - D[i] of the reference stream (NaN: padding)"},
    )
    with np.errstate(invalid="ignore"):
        per_run = {
            "jitter_mean": (np.nanmean(jitter, axis=2), "mean |IPDV| (the papers' 'average IPDV')"),
            "ipdv_mean": (np.nanmean(ipdv, axis=2), "mean signed IPDV (telescopes to ~0)"),
            "jitter_max": (np.nanmax(jitter, axis=2), "maximum |IPDV|"),
            "jitter_std": (np.nanstd(jitter, axis=2, ddof=1), "standard deviation of |IPDV|"),
            "ipdv_std": (np.nanstd(ipdv, axis=2, ddof=1), "standard deviation of signed IPDV"),
        }
    for name, (values, long_name) in per_run.items():
        ds[name] = (dims, values, {**s, "long_name": long_name})
    finite = np.isfinite(jitter)
    ds["fraction_below_unit"] = (
        dims,
        np.sum((jitter < unit) & finite, axis=2) / np.sum(finite, axis=2),
        {"units": "1", "long_name": "share of |IPDV| below one transmission unit"},
    )
    add_per_run(ds, runs, dims, "be_kept_mean_bytes")
    spread = delay_spread(samples(runs, "delay"))
    for name, values in spread.items():
        ds[name] = (dims, values, dict(RUN_ATTRS[name]))
    ref = [kit.ef_streams(sc)[0] for sc in scs]
    ds["ref_interval"] = (
        "aggregation_degree",
        [s.size.mean_bytes * 8.0 / s.rate_bps for s in ref],
        {"units": "s", "long_name": "time between consecutive reference packets"},
    )
    kit.add_mean_ci(ds, [*per_run, "fraction_below_unit", "be_kept_mean_bytes", *spread])
    width = width_u * unit
    ds, freq = with_frequency(
        ds,
        jitter,
        width,
        width_u,
        point="aggregation_degree",
        bin_dim="ipdv_bin",
        bins_text="|IPDV| bins",
        of="|IPDV|",
    )
    smoothed, is_peak = np.zeros_like(freq), np.zeros(freq.shape, dtype=bool)
    is_peak_log = np.zeros(freq.shape, dtype=bool)
    for i in range(freq.shape[0]):
        smoothed[i], peaks = count_peaks(
            freq[i], width_u, smooth=smooth_units, min_prominence=min_prominence
        )
        is_peak[i, peaks] = True
        floor = LOG_PEAK_MIN_SAMPLES / np.isfinite(jitter[i]).sum()
        _, peaks = count_peaks(
            freq[i],
            width_u,
            smooth=smooth_units,
            min_prominence=LOG_PEAK_DECADES,
            scale="log",
            floor=floor,
        )
        is_peak_log[i, peaks] = True
    ds["smoothed"] = (
        ("aggregation_degree", "ipdv_bin"),
        smoothed,
        {"units": "1", "long_name": f"frequency smoothed (Gaussian, sigma {smooth_units:g} units)"},
    )
    ds["is_peak"] = (
        ("aggregation_degree", "ipdv_bin"),
        is_peak,
        {"units": "1", "long_name": "peak of the smoothed frequency"},
    )
    ds["n_peaks"] = (
        "aggregation_degree",
        is_peak.sum(axis=1),
        {"units": "1", "long_name": "peaks of the |IPDV| distribution"},
    )
    ds["is_peak_log"] = (
        ("aggregation_degree", "ipdv_bin"),
        is_peak_log,
        {"units": "1", "long_name": "peak of the smoothed frequency on a log scale"},
    )
    ds["n_peaks_log"] = (
        "aggregation_degree",
        is_peak_log.sum(axis=1),
        {"units": "1", "long_name": "peaks of the |IPDV| distribution on a log scale"},
    )
    if mtu:
        ref = mtu_runs(int(n_ef_samples), list(coords["seed"][1]))
        ds["mtu_jitter_mean"] = (
            "seed",
            ref["jitter_mean"][0],
            {
                "units": "s",
                "long_name": "mean |IPDV| with deterministic 1500-byte BE packets, A = 0",
            },
        )
        ds["mtu_jitter_max"] = (
            "seed",
            ref["jitter_max"][0],
            {
                "units": "s",
                "long_name": "max |IPDV| with deterministic 1500-byte BE packets, A = 0",
            },
        )
    law = real_be_sizes()
    pmf = law.pmf()
    top = np.argsort(pmf)[::-1][:PAPER_N_PEAKS]
    a = ds["aggregation_degree"].values
    jm_slope, jm_half, jm_holds = trend(ds["jitter_mean"].values, a)
    fb_slope, fb_half, fb_holds = trend(ds["fraction_below_unit"].values, a)
    ds.attrs = attrs(
        ARTEFACT.id,
        __name__,
        scs,
        list(coords["seed"][1]),
        common_be,
        "Long version Sec. 6.2: IPDV of the reference stream vs Aggregation Degree (stand-in BE"
        " sizes)",
        bin_width_s=width,
        smooth_units=float(smooth_units),
        min_prominence=float(min_prominence),
        jitter_mean_slope_s=jm_slope,
        jitter_mean_slope_ci_s=jm_half,
        jitter_mean_increases=int(jm_holds),
        fraction_below_unit_slope=fb_slope,
        fraction_below_unit_slope_ci=fb_half,
        fraction_below_unit_increases=int(fb_holds),
        be_law_top_sizes_bytes=[int(law.sizes_bytes[i]) for i in sorted(top)],
        be_law_top_share=float(np.sum(pmf[top])),
    )
    return ds


def _trend_reasons(ds: xr.Dataset) -> dict:
    """The reasons of the trend rows along A: the reference packets' spacing decorrelates their
    delays."""
    a = ds["aggregation_degree"].values
    top, zero = int(np.argmax(a)), int(np.argmin(a))
    at = lambda name, i: float(ds[f"{name}_mean"].values[i])  # noqa: E731
    spacing = [
        judge.fact("a_top", a[top], "1"),
        judge.fact("gap_top", to_ms(float(ds["ref_interval"].values[top])), "ms"),
        judge.fact("gap_0", to_ms(float(ds["ref_interval"].values[zero])), "ms"),
        judge.fact("lag1_top", at("delay_lag1", top), "1"),
        judge.fact("lag1_0", at("delay_lag1", zero), "1"),
    ]
    mean = judge.reason(
        "mechanism",
        "at A = {a_top} the slower reference stream spaces its packets {gap_top} apart instead of"
        " {gap_0} at A = 0, so consecutive delays decorrelate (lag-1 correlation {lag1_top} vs"
        " {lag1_0}), but the delay standard deviation stays {std_top} vs {std_0}: mean |IPDV| goes"
        " from {ipdv_0} to {ipdv_top}",
        [
            *spacing,
            judge.fact("std_top", to_ms(at("delay_std", top)), "ms"),
            judge.fact("std_0", to_ms(at("delay_std", zero)), "ms"),
            judge.fact("ipdv_0", to_ms(at("jitter_mean", zero)), "ms"),
            judge.fact("ipdv_top", to_ms(at("jitter_mean", top)), "ms"),
        ],
    )
    share = [
        *spacing,
        judge.fact("share_0", at("fraction_below_unit", zero), "1"),
        judge.fact("share_top", at("fraction_below_unit", top), "1"),
        judge.fact("slope", ds.attrs["fraction_below_unit_slope"], "1"),
    ]
    text = (
        "the share of |IPDV| below one transmission unit goes from {share_0} at A = 0 to"
        " {share_top} at A = {a_top}, a slope of {slope} per unit A"
    )
    if np.isfinite(ds.attrs["fraction_below_unit_slope_ci"]):
        text += " against a 95 % CI half-width of {slope_ci} over the seeds"
        share.append(judge.fact("slope_ci", ds.attrs["fraction_below_unit_slope_ci"], "1"))
    order = np.argsort(a, kind="stable")
    steps = np.diff(ds["fraction_below_unit_mean"].values[order])
    if (
        steps.size and steps.min() <= 0
    ):  # the trend rule needs every step up (pqlab.measure.analysis.trend)
        text += ", but it falls by {largest_fall} from one A to the next"
        share.append(judge.fact("largest_fall", -float(steps.min()), "1"))
    text += (
        "; the slower reference stream spaces its packets {gap_top} apart instead of {gap_0}, which"
        " decorrelates consecutive delays (lag-1 correlation {lag1_top} vs {lag1_0})"
    )
    concentrated = judge.reason("mechanism", text, share)
    return {"mean": mean, "concentrated": concentrated}


def claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`compute`'s Dataset: mean and max |IPDV| per A, peaks, the IPDV
    definition."""
    art = ARTEFACT.id
    a, jm_holds, seeds = wording.begin(ds, art, "aggregation_degree", "jitter_mean_increases")
    unit = ds.attrs["transmission_unit_s"]
    kept = float(np.mean(ds["be_kept_mean_bytes_mean"].values))
    mtu_max = ""
    if "mtu_jitter_mean" in ds:
        mtu_max = (
            "; with deterministic 1500-byte BE (A=0): mean"
            f" {wording.ms(float(ds['mtu_jitter_mean'].mean())):.2f} ms, max"
            f" {float(ds['mtu_jitter_max'].mean()) / unit:.1f} units"
        )
    rows = []
    for i, av in enumerate(a):
        key = f"mean_ipdv_{a_key(av)}"
        mean, half = ds["jitter_mean_mean"].values[i], ds["jitter_mean_ci"].values[i]
        signed = ds["ipdv_mean_mean"].values[i]
        note = (
            f"mean |IPDV| (jitter, the papers' 'ipdv'; signed mean {to_us(signed):+.1f} us"
            f" telescopes to ~0) {wording.ci_text(mean, half)} ({seeds}); delay std"
            f" {wording.ci_text(ds['delay_std_mean'].values[i], ds['delay_std_ci'].values[i])};"
            f" {wording.be_reading(kept)}"
        )
        paper = kit.paper_value(art, key)[0]
        why = (
            None
            if np.isnan(paper)
            else wording.ipdv_spread_reason(
                paper,
                wording.ms(mean),
                wording.ms(ds["delay_std_mean"].values[i]),
                float(ds["delay_lag1_mean"].values[i]),
            )
        )
        rows.append(kit.claim(art, key, wording.ms(mean), "ms", note, reason=why))
    maxima = ds["jitter_max"].values / unit
    per_a = maxima.mean(axis=1)
    overall = float(maxima.mean())
    per_a_text = ", ".join(f"A={a_text(v)}: {m:.1f}" for v, m in zip(a, per_a))
    independent = bool(np.all(np.abs(per_a - overall) <= INDEPENDENCE_TOLERANCE * overall))
    ranges = ds["delay_range"].values / unit
    range_why = wording.ipdv_range_reason(
        kit.paper_value(art, "max_ipdv")[0],
        float(maxima.max()),
        float(ranges.min()),
        float(ranges.max()),
        "units",
    )
    rows += [
        kit.claim(
            art,
            "max_ipdv",
            overall,
            "units",
            f"max |IPDV| per run in {to_ms(unit):.3f}-ms units, mean over A and {seeds} (the runs'"
            f" range {maxima.min():.1f} to {maxima.max():.1f}): {per_a_text}; largest"
            f" {maxima.max():.1f} (= {maxima.max() * unit / MTU_LINE_TIME_S:.1f} line times of a"
            f" 1500-byte BE packet){mtu_max}",
            reason=range_why,
        ),
        kit.claim(
            art,
            "max_ipdv_ms",
            to_ms(overall * unit),
            "ms",
            f"{overall:.1f} units x {to_ms(unit):.3f} ms",
            reason=range_why,
        ),
        kit.claim(
            art,
            "tx_time_ref_packet",
            to_ms(unit),
            "ms",
            f"line time of the {EF_IP_BYTES}-byte IP packet of a {EF_FRAME_BYTES}-byte frame: "
            f"{PAPERS.atm_cells()} ATM cells at {PAPERS.line_text}",
        ),
        kit.claim(
            art,
            "ef_aggregate_load",
            to_kbps(ds.attrs["ef_aggregate_bps"]),
            "kbit/s",
            "sum of the preset's EF stream rates (frames)",
        ),
        kit.claim(
            art,
            "ref_load_min",
            to_kbps(float(ds["ref_rate_bps"].min())),
            "kbit/s",
            "smallest reference rate simulated",
        ),
        kit.claim(
            art,
            "ref_load_max",
            to_kbps(float(ds["ref_rate_bps"].max())),
            "kbit/s",
            "largest reference rate simulated",
        ),
    ]
    n_peaks = ds["n_peaks"].values
    peaks_text = ", ".join(
        f"A={a_text(v)}: {int(k)} at "
        + "/".join(
            f"{x / unit:.1f}"
            for x in ds["ipdv_bin"].values[ds["is_peak"].values[i]] + ds.attrs["bin_width_s"] / 2
        )
        for i, (v, k) in enumerate(zip(a, n_peaks))
    )
    log_text = ", ".join(
        f"{int(k)} at "
        + "/".join(
            f"{x / unit:.1f}"
            for x in (
                ds["ipdv_bin"].values[ds["is_peak_log"].values[i]] + ds.attrs["bin_width_s"] / 2
            )
        )
        for i, k in enumerate(ds["n_peaks_log"].values)
    )
    small, large = ds.attrs["be_law_top_sizes_bytes"]
    peaks_why = judge.reason(
        "input",
        "the paper ties its two peaks to its BE trace, which is not published: the stand-in law"
        " puts {top_share} of its packets at {small_size} and {large_size}, and our |IPDV|"
        " histograms show {fewest} to {most} per A (prominence {prominence} of the tallest bin)",
        [
            judge.fact("top_share", ds.attrs["be_law_top_share"], "1"),
            judge.fact("small_size", small, "bytes"),
            judge.fact("large_size", large, "bytes"),
            judge.fact("fewest", int(n_peaks.min()), "peaks"),
            judge.fact("most", int(n_peaks.max()), "peaks"),
            judge.fact("prominence", ds.attrs["min_prominence"], "1"),
        ],
    )
    rows.append(
        kit.claim(
            art,
            "two_peaks",
            None,
            "-",
            f"peaks of the pooled |IPDV| histogram ({ds.attrs['bin_width_s'] / unit:g}-unit bins, "
            f"Gaussian sigma {ds.attrs['smooth_units']:g} units, prominence >= "
            f"{ds.attrs['min_prominence']:.0%} of the tallest, as a linear plot shows them) "
            f"[count at units]: {peaks_text}; on a log scale (peak >= 2x its trough, "
            f">= {LOG_PEAK_MIN_SAMPLES} samples per bin): {log_text}; stand-in BE sizes",
            bool(np.all(n_peaks == PAPER_N_PEAKS)),
            reason=peaks_why,
        )
    )
    spread_why = judge.reason(
        "mechanism",
        "the per-A means of the largest |IPDV| span {lowest} to {highest} around their mean"
        " {overall}, against a tolerance of {tolerance} of it",
        [
            judge.fact("lowest", float(per_a.min()), "units"),
            judge.fact("highest", float(per_a.max()), "units"),
            judge.fact("overall", overall, "units"),
            judge.fact("tolerance", INDEPENDENCE_TOLERANCE, "1"),
        ],
    )
    rows.append(
        kit.claim(
            art,
            "max_independent_of_a",
            None,
            "-",
            f"per-A mean of the max |IPDV| (units): {per_a_text}; independent = all within "
            f"{INDEPENDENCE_TOLERANCE:.0%} of their mean {overall:.1f}",
            independent,
            reason=spread_why,
        )
    )
    fb = wording.series(
        ds, "fraction_below_unit", "aggregation_degree", convert=wording.same, digits=3
    )
    fb_holds = bool(ds.attrs["fraction_below_unit_increases"])
    trends = _trend_reasons(ds)
    rows.append(
        kit.claim(
            art,
            "higher_a_concentrated",
            None,
            "-",
            f"share of |IPDV| below one unit per A ({seeds}): {fb}; "
            + wording.trend_text(
                fb_holds,
                ds.attrs["fraction_below_unit_slope"],
                ds.attrs["fraction_below_unit_slope_ci"],
                wording.same,
                "per unit A",
            ),
            fb_holds,
            reason=trends["concentrated"],
        )
    )
    rows.append(
        kit.claim(
            art,
            "mean_ipdv_increases_with_a",
            None,
            "-",
            f"mean |IPDV| per A (ms, {seeds}, paired BE mixes): "
            f"{wording.series(ds, 'jitter_mean', 'aggregation_degree')}; "
            + wording.trend_text(
                jm_holds,
                ds.attrs["jitter_mean_slope_s"],
                ds.attrs["jitter_mean_slope_ci_s"],
                to_ms,
                "ms per unit A",
            ),
            jm_holds,
            reason=trends["mean"],
        )
    )
    rows.append(
        kit.claim(
            art,
            "ipdv_definition",
            None,
            "-",
            "pqlab follows it: 'average IPDV' = mean |D_i - D_(i-1)| of consecutive reference"
            " packets (pqlab.metrics.jitter); signed IPDV is kept as mean_signed_ipdv",
            True,
        )
    )
    rows.append(
        kit.claim(
            art,
            "mean_signed_ipdv",
            to_ms(float(np.mean(ds["ipdv_mean_mean"].values))),
            "ms",
            "mean of signed IPDV over A and seeds: ~0 by telescoping, hence not the papers' "
            "'average IPDV'",
        )
    )
    return rows


def figure(ds: xr.Dataset, paper_values=None):
    """|IPDV| distributions per A with their peaks (left), mean |IPDV| (middle), max |IPDV| (right).

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`compute`.
    paper_values : pandas.DataFrame, optional
        :func:`pqlab.papers.records.load_paper_values`; adds the paper's values.

    Returns
    -------
    matplotlib.figure.Figure
    """
    unit, width, edges = drawing.bins(ds, "ipdv_bin")
    a = ds["aggregation_degree"].values
    fig, (ax_f, ax_m, ax_x) = kit.subplots(
        1, 3, figsize=(15, 4.6), footer=True, gridspec_kw={"width_ratios": [2, 1, 1]}
    )
    colors = drawing.palette(len(a))
    for i in range(len(a)):
        p = ds["frequency"].values[i]
        ax_f.step(
            np.r_[edges, edges[-1] + width],
            np.r_[p, 0.0],
            where="post",
            color=colors[i],
            lw=1,
            label=(
                f"{drawing.a_label(ds, i)}: {int(ds['n_peaks'].values[i])} peak(s), "
                f"log scale {int(ds['n_peaks_log'].values[i])}"
            ),
        )
        centers = edges + width / 2
        ax_f.plot(centers, ds["smoothed"].values[i], color=colors[i], lw=2, alpha=0.6)
        peaks = ds["is_peak"].values[i]
        ax_f.plot(
            centers[peaks],
            ds["smoothed"].values[i][peaks] * 1.6,
            "v",
            color=colors[i],
            ms=9,
            mec="k",
        )
        if "is_peak_log" in ds:
            peaks = ds["is_peak_log"].values[i]
            ax_f.plot(
                centers[peaks],
                ds["smoothed"].values[i][peaks] * 1.6,
                "v",
                color=colors[i],
                ms=9,
                mfc="none",
                mec=colors[i],
                mew=1.5,
            )
    ax_f.set_yscale("log")
    ax_f.set_ylim(1e-4, 1)
    ax_f.set_xlim(
        0, edges[np.flatnonzero(ds["frequency"].values.max(axis=0) > 0).max()] + 2 * width
    )
    ax_f.set_xlabel(f"|IPDV| (transmission units of {to_ms(unit):.3f} ms)")
    ax_f.set_ylabel(f"frequency (bins of {width:g} units, log)")
    ax_f.set_title(
        "|IPDV| distribution (thick: smoothed; filled: peaks, hollow: log-scale peaks)", fontsize=11
    )
    ax_f.legend(fontsize=8)
    drawing.errorbar_vs(ax_m, a, ds, "jitter_mean", to_ms)
    paper = drawing.paper_series(paper_values, ARTEFACT.id, [f"mean_ipdv_{a_key(v)}" for v in a])
    drawing.plot_paper(ax_m, a, paper, "paper, Sec. 6.2")
    if "mtu_jitter_mean" in ds:
        ax_m.axhline(
            to_ms(float(ds["mtu_jitter_mean"].mean())), color="C4", ls="-.", label=drawing.MTU_LABEL
        )
    if (
        "delay_std_mean" in ds
    ):  # E|D_i - D_(i-1)| <= 2 sigma (pqlab.measure.analysis.min_delay_std_for_mean_ipdv)
        ax_m.plot(
            a,
            2.0 * to_ms(ds["delay_std_mean"].values),
            "v:",
            color="0.4",
            label="bound: 2 x pqlab delay std (no mean |IPDV| above)",
        )
    ax_m.set_ylim(0, None)
    ax_m.set_xlabel("Aggregation Degree A")
    ax_m.set_ylabel("mean |IPDV| (ms)")
    ax_m.set_title("average IPDV (= mean |IPDV|)")
    ax_m.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.2))  # below the x label
    drawing.errorbar_vs(
        ax_x, a, ds, "jitter_max", lambda seconds: seconds * (1.0 / unit)
    )  # in transmission units
    top = drawing.paper(paper_values, ARTEFACT.id, "max_ipdv")
    if top is not None:
        ax_x.axhline(top, color="C3", ls="--", label="paper: about 30 units")
    if "mtu_jitter_max" in ds:
        ax_x.axhline(
            float(ds["mtu_jitter_max"].mean()) / unit, color="C4", ls="-.", label=drawing.MTU_LABEL
        )
    if (
        "delay_range" in ds
    ):  # |D_i - D_(i-1)| <= max D - min D (pqlab.measure.analysis.min_delay_range_for_max_ipdv)
        ax_x.plot(
            a,
            ds["delay_range"].values.max(axis=1) / unit,
            "v:",
            color="0.4",
            label="bound: pqlab delay range, widest seed (no |IPDV| above)",
        )
    ax_x.set_ylim(0, None)
    ax_x.set_xlabel("Aggregation Degree A")
    ax_x.set_ylabel(f"max |IPDV| (units of {to_ms(unit):.3f} ms)")
    ax_x.set_title("maximum |IPDV| per run")
    ax_x.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.2))
    fig.suptitle(
        f"{ARTEFACT.id}: |IPDV| (jitter, the papers' 'ipdv'; RFC 3393 IPDV in absolute value) of"
        " the reference stream vs Aggregation Degree A"
    )
    drawing.stand_in_footer(fig, ds)
    return fig
