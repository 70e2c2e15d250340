"""Figures of the TF-TANT test page "PQ performance with multiple BE streams" and the slides.

One function per artefact id, each taking the Dataset of the compute function of the same
name in :mod:`pqlab.papers.artefacts.tftant_pq` and returning a matplotlib Figure; nothing is
simulated here. The sources' values are drawn as black diamonds where they give numbers.
The Datasets are in SI units; the figures draw times in ms and rates in kbit/s
(:mod:`pqlab.base.units`).
"""

from __future__ import annotations

import numpy as np
import seaborn as sns
import xarray as xr
from matplotlib.ticker import FuncFormatter, MaxNLocator, NullFormatter

from ..artefacts._common import paper_value
from ..artefacts.tftant_pq import REAL
from ...base.numerics import line_fit
from . import legend_below, subplots
from ...base.units import times_in_ms, to_kbps, to_ms
from ._common import ci_half_widths, footer, seed_count

__all__ = ["tftant_be_fig4", "tftant_slides_loss", "tftant_slides_ipdv_aggregation", "tftant_slides_tandem",
           "tftant_slides_ipdv_size"]

_PAPER = dict(color="black", marker="D", ls="none", ms=8, zorder=6)
_STANDIN = "BE sizes: STAND-IN 'real' distribution (CAIDA AIX 1999 fit, not the papers' trace), one size per stream"


def _plain_log(ax) -> None:
    """A log y axis with plain-number labels (no mathtext) and no minor labels."""
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())


def _seeds(ds: xr.Dataset) -> str:
    return seed_count(ds.sizes["seed"])


def tftant_be_fig4(ds: xr.Dataset):
    """Test page Fig. 4: EF delay frequency distributions for geometric BE sizes, and the real stand-in.

    Left: the frequency distributions (pooled over seeds) in transmission units; right: mean
    delay and the 1st-99th percentile span against the mean BE size, with 95% CIs over seeds.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.tftant_pq.tftant_be_fig4`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, (ax, ax_s) = subplots(1, 2, figsize=(13, 5.0), footer=True, gridspec_kw={"width_ratios": [1.5, 1]})
    dists = list(ds["distribution"].values)
    geo = [d for d in dists if d != REAL]
    colors = dict(zip(geo, sns.color_palette("viridis", len(geo))))
    colors[REAL] = "C3"
    edges = ds["bin"].values
    width = float(ds.attrs["bin_units"])
    for d in dists:
        law = float(ds["law_mean_bytes"].sel(distribution=d))
        label = (f"{d} bytes (mean {law:.0f})" if d != REAL else f"real STAND-IN (mean {law:.0f} bytes)")
        ax.step(edges + width / 2, ds["frequency"].sel(distribution=d), where="mid", color=colors[d],
                lw=2.4 if d == REAL else 1.6, ls="--" if d == REAL else "-", label=label)
    top = edges[np.flatnonzero(ds["frequency"].sum("distribution").values > 0)].max() + 2 * width
    ax.set_xlim(0, top)
    ax.set_xlabel(f"EF one-way delay (transmission units of {to_ms(ds.attrs['transmission_unit_s']):.3f} ms)")
    ax.set_ylabel(f"frequency (bins of {width:g} units)")
    ax.legend(title="BE IP length law (geometric: untruncated mean)", fontsize=8.5, title_fontsize=8.5)
    ax.set_title("frequency distributions, all seeds pooled", fontsize=10)

    x = ds["law_mean_bytes"].values
    order = np.argsort(x)
    for var, marker, label in (("mean_delay", "o", "mean delay"), ("span", "s", "1st-99th percentile span")):
        for d in (geo, [REAL]):
            sel = [dists.index(v) for v in d]
            xs, ys = x[sel], ds[f"{var}_mean"].values[sel]
            ax_s.errorbar(xs, ys, yerr=ci_half_widths(ds[f"{var}_ci"].values[sel]), marker=marker, capsize=3,
                          ls="-" if d is geo else "none", color="C0" if var == "mean_delay" else "C2",
                          mfc="white" if d is not geo else None, ms=8 if d is not geo else 6,
                          label=f"{label}, {'geometric' if d is geo else 'real STAND-IN (open)'}")
    ax_s.set_xlim(0, x[order][-1] * 1.12)
    ax_s.set_ylim(bottom=0)
    ax_s.set_xlabel("mean BE IP length of the law (bytes)")
    ax_s.set_ylabel("transmission units")
    legend_below(ax_s, ncol=1)
    ax_s.set_title(f"mean and range vs BE size (95% CI over {_seeds(ds)})", fontsize=10)
    fig.suptitle("tftant_be_fig4: EF delay with geometric BE sizes (TF-TANT test page Fig. 4) "
                 "and the real STAND-IN (Fig. 5)", fontsize=11.5)
    footer(fig, f"{_STANDIN}; EF 300 kbit/s of 128-byte frames, 20 BE streams; delay incl. the "
                 f"{ds.attrs['path_ef_delay_units']:.0f}-unit path")
    return fig


def tftant_slides_loss(ds: xr.Dataset):
    """EF loss vs number of EF streams at constant EF load, by cause, and the EF burstiness against the policer.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.tftant_pq.tftant_slides_loss`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, (ax, ax_b) = subplots(1, 2, figsize=(13, 5.2), footer=True)
    n = ds["n_streams"].values
    loads = ds["ef_load"].values
    palette = sns.color_palette("deep", 4)
    floor = 1e-4  # % shown for a loss of 0 on the log axis
    for k, load in enumerate(loads):
        d = ds.sel(ef_load=load)
        frac = 100 * float(load) / ds.attrs["line_rate_bps"]
        for var, marker, ls, name in (("queue_full_ratio", "o", "-", "queue full"),
                                      ("policed_ratio", "x", ":", "policed")):
            run = np.isfinite(d[f"{var}_mean"].values)  # other loads: fewest and most streams only
            per_seed = np.maximum(d[var].values[run] * 100, floor)
            ax.plot(np.repeat(n[run], d.sizes["seed"]), per_seed.ravel(), marker, color=palette[k], alpha=0.3, ms=3)
            ax.plot(n[run], np.maximum(d[f"{var}_mean"].values[run] * 100, floor), marker=marker, ls=ls, ms=5,
                    color=palette[k], label=f"{name}, EF {float(to_kbps(load)):g} kbit/s ({frac:.0f}% of the line)")
    paper = paper_value("tftant_slides_loss", "ef_loss_20_streams")[0]
    if np.isfinite(paper):
        ax.plot([20], [paper * 100], label=f"slides: up to {paper:.0%} with 20 streams (policer)", **_PAPER)
    ax.axvspan(0.5, 8.5, color="0.9", zorder=0, label="slides: negligible up to 8 streams")
    _plain_log(ax)
    ax.set_ylim(floor * 0.7, 30)
    ax.set_xlim(0.5, n.max() + 0.5)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("EF streams sharing the load equally")
    ax.set_ylabel(f"EF loss (%; 0 drawn at {floor:g})")
    legend_below(ax, ncol=2)
    ax.set_title(f"EF loss by cause: mean (line) and each of {_seeds(ds)} (dots)", fontsize=10)

    # the needed burst is the same at every load (the arrival pattern scales with the load): draw the swept one
    d = ds.sel(ef_load=ds.attrs["swept_load_bps"])
    ax_b.plot(n, d["min_bucket_bytes_mean"], marker="o", ms=4, color="C3",
              label="needed: smallest burst that polices nothing (mean and seeds; any load)")
    ax_b.plot(np.repeat(n, d.sizes["seed"]), d["min_bucket_bytes"].values.ravel(), "o", ms=3, color="C3", alpha=0.3)
    for k, load in enumerate(loads):
        ax_b.axhline(float(ds["police_burst_per_load"].sel(ef_load=load)), color=palette[k], ls="--", lw=1.2,
                     label=f"configured: IOS default 200 ms at {float(to_kbps(load)):g} kbit/s")
    ip = float(ds["ef_ip_bytes"])
    ax_b.plot(n, n * ip, color="0.4", ls=":", label=f"bound: one EF packet per stream (n x {ip:.0f} bytes)")
    _plain_log(ax_b)
    ax_b.set_xlim(0.5, n.max() + 0.5)
    ax_b.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax_b.set_xlabel("EF streams sharing the load equally")
    ax_b.set_ylabel("policer token-bucket depth (bytes)")
    legend_below(ax_b, ncol=1)
    ax_b.set_title("why nothing is policed: EF burstiness vs the configured burst", fontsize=10)
    fig.suptitle(f"tftant_slides_loss: EF loss vs number of EF streams ({ds.attrs['ef_frame_bytes']}-byte frames, "
                 "priority queue policed at the EF load)", fontsize=11.5)
    footer(fig, f"{_STANDIN}; EF packets of all streams after the warm-up")
    return fig


def tftant_slides_ipdv_aggregation(ds: xr.Dataset):
    """Mean |IPDV| of the reference stream with 1 and 20 EF streams at 600 kbit/s, per BE traffic, and the slide's.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.tftant_pq.tftant_slides_ipdv_aggregation`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = subplots(figsize=(8.6, 5.2), footer=True)
    counts = ds["n_streams"].values
    cases = list(ds["be_traffic"].values)
    names = {"real": "congestion, real STAND-IN BE", "mtu": "congestion, 1500-byte BE", "none": "no BE"}
    x = np.arange(counts.size)
    width = 0.8 / (len(cases) + 1)
    palette = {"real": "C3", "mtu": "C0", "none": "0.6"}
    for k, case in enumerate(cases):
        d = ds.sel(be_traffic=case)
        pos = x + (k - len(cases) / 2) * width
        ax.bar(pos, d["ipdv_abs_mean_mean"], width, yerr=ci_half_widths(d["ipdv_abs_mean_ci"]), capsize=3,
               color=palette.get(case, f"C{k}"), label=f"pqlab, {names.get(case, case)}")
        for p, v in zip(pos, d["ipdv_abs_mean_mean"].values):
            ax.text(p, v + 0.08, f"{v:.2f}", ha="center", va="bottom", fontsize=8)
    paper = ds["paper_ipdv_abs_mean"].values
    ax.plot(x + (len(cases) / 2) * width, paper, label="slides: avg ipdv (with congestion)", **_PAPER)
    for xi, p in zip(x + (len(cases) / 2) * width, paper):
        if np.isfinite(p):
            ax.text(xi, p + 0.15, f"{p:g}", ha="center", va="bottom", fontsize=9)
    ax.set_xticks(x, [f"{int(c)} EF stream{'s' if c > 1 else ''}" for c in counts])
    ax.set_ylabel(f"mean |IPDV| (units of {to_ms(ds.attrs['transmission_unit_s']):.3f} ms, ASSUMED)")
    ax.set_xlabel(f"EF load {to_kbps(ds.attrs['ef_load_bps']):g} kbit/s split equally; IPDV of one stream")
    ax.set_ylim(0, max(np.nanmax(paper), float(ds["ipdv_abs_mean_mean"].max())) * 1.25)
    ax.legend(fontsize=8.5, loc="upper left")
    ax.set_title(f"tftant_slides_ipdv_aggregation: mean |IPDV| with 1 and 20 EF streams ({_seeds(ds)}, 95% CI)",
                 fontsize=10.5)
    footer(fig, "STAND-IN BE (CAIDA AIX 1999 fit). ASSUMPTION: unit = GLOBECOM's EF transmission time, "
                f"{to_ms(ds.attrs['transmission_unit_s']):.3f} ms (128-byte frame on ATM); not on the slide")
    return fig


def tftant_slides_tandem(ds: xr.Dataset):
    """Delay through 1..n congested nodes: per-node increments stacked, and the contribution of aggregation.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.tftant_pq.tftant_slides_tandem`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    ds = times_in_ms(ds)
    fig, (ax, ax_a) = subplots(1, 2, figsize=(13.5, 5.2), footer=True, gridspec_kw={"width_ratios": [1.4, 1]})
    nodes = ds["node"].values
    frames = ds["ef_frame_bytes"].values
    counts = ds["n_streams"].values
    cases = [(f, c) for f in frames for c in counts]
    width = 0.8 / len(cases)
    blues = sns.color_palette("Blues", nodes.size + 1)[1:]
    for k, (f, c) in enumerate(cases):
        d = ds.sel(ef_frame_bytes=f, n_streams=c)
        pos = nodes + (k - (len(cases) - 1) / 2) * width
        for n in nodes:
            bottom = 0.0
            for i in range(int(n)):
                inc = float(d["increment_mean"].isel(node=i))
                label = f"dD_{i + 1}: delay added by node {i + 1}" if k == 0 and n == nodes[-1] else None
                ax.bar(pos[int(n) - 1], inc, width * 0.92, bottom=bottom, color=blues[i], edgecolor="white", lw=0.5,
                       label=label)
                bottom += inc
        ax.errorbar(pos, d["end_to_end_mean"], yerr=ci_half_widths(d["end_to_end_ci"]), fmt="_", color="k", ms=10, capsize=2,
                    label="measured end-to-end (mean, 95% CI)" if k == 0 else None)
        top = float(d["end_to_end_mean"].isel(node=0) + ci_half_widths(d["end_to_end_ci"].isel(node=0)))
        ax.text(pos[0], top + 0.4, f"{int(f)} B x {int(c)}", ha="center", va="bottom", fontsize=7.5, rotation=90)
        slope, icpt = line_fit(nodes, d["end_to_end_mean"].values) if nodes.size > 1 else (np.nan, np.nan)
        if nodes.size > 1:
            ax.plot(pos, slope * nodes + icpt, color="C3", lw=0.8, ls="--",
                    label="linear fit per case" if k == 0 else None)
    ax.set_xticks(nodes, [f"{int(n)}" for n in nodes])
    ax.set_xlabel("congested C7200 nodes in tandem (bars: EF frame size x EF streams)")
    ax.set_ylabel("mean EF delay (ms)")
    ax.set_ylim(0, float(ds["end_to_end_mean"].max()) * 1.2)
    ax.legend(fontsize=8, loc="upper left")
    ax.set_title("end-to-end delay = sum of the per-node increments dD_i", fontsize=10)

    for k, f in enumerate(frames):
        d = ds.sel(ef_frame_bytes=f)
        ax_a.errorbar(nodes + (k - 0.5) * 0.08, d["aggregation_contribution_mean"],
                      yerr=ci_half_widths(d["aggregation_contribution_ci"]), marker="o", capsize=3, color=f"C{k}",
                      label=f"{int(f)}-byte EF frames (EF line time {float(d['ef_line_time']):.2f} ms)")
    ax_a.axhline(0, color="0.5", lw=0.8)
    ax_a.set_xticks(nodes)
    ax_a.set_xlabel("congested nodes")
    ax_a.set_ylabel(f"delay with {int(counts[-1])} EF streams - with {int(counts[0])} (ms)")
    legend_below(ax_a)
    ax_a.set_title(f"contribution of aggregation (paired per seed, {_seeds(ds)})", fontsize=10)
    fig.suptitle(f"tftant_slides_tandem: multiple congestion points, EF {to_kbps(ds.attrs['ef_aggregate_bps']):g} "
                 f"kbit/s in all (TF-TANT slides)", fontsize=11.5)
    footer(fig, f"{_STANDIN}, own BE streams at every node; node delays only, propagation "
                 f"{to_ms(ds.attrs['propagation_s']):g} ms; all EF streams measured")
    return fig


def tftant_slides_ipdv_size(ds: xr.Dataset):
    """IPDV standard deviation per EF frame size without/with aggregation and congestion, and the largest |IPDV|.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.tftant_pq.tftant_slides_ipdv_size`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    ds = times_in_ms(ds)
    fig, (ax, ax_m) = subplots(1, 2, figsize=(13, 5.0), footer=True, gridspec_kw={"width_ratios": [1.5, 1]})
    frames = ds["ef_frame_bytes"].values
    lo, hi = int(ds["n_streams"].values[0]), int(ds["n_streams"].values[-1])
    conditions = [(lo, False, "neither"), (hi, False, f"aggregation ({hi} streams)"),
                  (lo, True, "congestion"), (hi, True, f"aggregation + congestion")]
    colors = ["0.7", "C2", "C0", "C3"]
    x = np.arange(frames.size)
    width = 0.8 / len(conditions)
    for k, (n, cong, label) in enumerate(conditions):
        d = ds.sel(n_streams=n, congestion=cong)
        pos = x + (k - (len(conditions) - 1) / 2) * width
        ax.bar(pos, d["ipdv_std_mean"], width, yerr=ci_half_widths(d["ipdv_std_ci"]), capsize=2, color=colors[k], label=label)
        for xi, v in zip(pos, d["ipdv_std_mean"].values):
            if v < 1e-6:
                ax.text(xi, 0.02, "0", ha="center", va="bottom", fontsize=8, color="0.3")
    ax.set_xticks(x, [f"{int(f)}" for f in frames])
    ax.set_xlabel("EF frame size (bytes)")
    ax.set_ylabel("standard deviation of the IPDV (ms)")
    legend_below(ax, ncol=4)
    ax.set_title(f"std of the signed IPDV (mean of {_seeds(ds)}, 95% CI)", fontsize=10)
    for k, (n, label) in enumerate(((lo, "1 stream"), (hi, f"{hi} streams"))):
        d = ds.sel(n_streams=n, congestion=True)
        ax_m.errorbar(frames, d["jitter_max_mean"], yerr=ci_half_widths(d["jitter_max_ci"]), marker="o", capsize=3,
                      color=f"C{3 + k}", label=f"largest |IPDV|, {label}")
        ax_m.errorbar(frames, d["jitter_mean_mean"], yerr=ci_half_widths(d["jitter_mean_ci"]), marker="s", capsize=3,
                      ls="--", color=f"C{3 + k}", mfc="white", label=f"mean |IPDV|, {label}")
    ax_m.set_ylim(bottom=0)
    ax_m.set_xlabel("EF frame size (bytes)")
    ax_m.set_ylabel("|IPDV| with congestion (ms)")
    legend_below(ax_m, ncol=2)
    ax_m.set_title("a few packets see a high IPDV whatever the size", fontsize=10)
    fig.suptitle(f"tftant_slides_ipdv_size: IPDV vs EF frame size with aggregation and congestion, EF "
                 f"{to_kbps(ds.attrs['ef_aggregate_bps']):g} kbit/s in all (TF-TANT slides)", fontsize=11.5)
    footer(fig, f"congestion: 20 BE streams, {_STANDIN[10:]}; IPDV of every EF stream, pooled")
    return fig
