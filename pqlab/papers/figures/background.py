"""Figures and tables of GLOBECOM'01 Sec. II-IV, one function per artefact id.

Each function takes what the compute function of the same name in
:mod:`pqlab.papers.artefacts.background` returns and gives a matplotlib Figure (axes
labelled with units, legend, the analytical bound where relevant, a STAND-IN note
where the real distribution is used, a title naming the artefact). Tables
(``globecom01_tab1``, ``globecom01_tab2``) are written by :func:`save_table` as
markdown and CSV. The Datasets are in SI units; the figures draw times in ms
(:mod:`pqlab.base.units`), Figs. 3-1 and 3-2 from the statistics of the delays in ms
(:func:`pqlab.papers.artefacts._common.statistics_in_ms`, as the claims).
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
import xarray as xr
from matplotlib import patches
from matplotlib.font_manager import FontProperties

from ..artefacts._common import statistics_in_ms
from ..artefacts.background import STATISTICS
from ...base.units import to_kbps, to_mbps, to_ms, to_us
from . import set_theme, subplots

__all__ = ["markdown_table", "save_table", "globecom01_fig1", "globecom01_fig3_1", "globecom01_fig3_2",
           "globecom01_fig4", "globecom01_fig5"]

_STANDIN = "STAND-IN 'real' BE sizes (CAIDA AIX 1999 fit), not the papers' trace"


def _check_dataset(name: str, data, variables) -> xr.Dataset:
    if not isinstance(data, xr.Dataset):
        raise ValueError(f"{name} must be the xarray.Dataset of pqlab.papers.artefacts.background.{name}, "
                         f"got {type(data).__name__}")
    for var in variables:
        if var not in data.variables:
            raise ValueError(f"{name}: the Dataset must have a '{var}' variable "
                             f"(from pqlab.papers.artefacts.background.{name}), it has none")
    return data


# --------------------------------------------------------------------------- tables


def _cell(value) -> str:
    if isinstance(value, (float, np.floating)):
        return f"{value:.4g}"
    return str(value).replace("|", "\\|")


def markdown_table(frame: pd.DataFrame) -> str:
    """A DataFrame as a GitHub markdown table (index first), with its ``attrs['title']`` as caption."""
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"frame must be a pandas.DataFrame, got {type(frame).__name__}")
    head = [frame.index.name or ""] + [str(c) for c in frame.columns]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for index, row in frame.iterrows():
        lines.append("| " + " | ".join([_cell(index)] + [_cell(v) for v in row]) + " |")
    title = frame.attrs.get("title", "")
    return "\n".join(lines) + (f"\n\nTable: {title}\n" if title else "\n")


def save_table(frame: pd.DataFrame, stem) -> list:
    """Write ``<stem>.md`` (markdown table) and ``<stem>.csv``; return the paths written."""
    text = markdown_table(frame)
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    md, csv = stem.with_name(stem.name + ".md"), stem.with_name(stem.name + ".csv")
    md.write_text(text, encoding="utf-8")
    frame.to_csv(csv)
    return [str(md), str(csv)]


# --------------------------------------------------------------------------- globecom01_fig1


def box(ax, x, y, w, h, text, *, color="#dbe9f6", ls="-", fontsize=None):
    """A rounded box on ``ax`` at ``(x, y)``, ``w`` x ``h``, ``text`` centred (default size :func:`label_size`)."""
    ax.add_patch(patches.FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.3", fc=color, ec="0.2", ls=ls))
    ax.text(x + w / 2, y + h / 2, text, ha="center", va="center", fontsize=fontsize or label_size())


def arrow(ax, x0, y0, x1, y1):
    """An arrow on ``ax`` from ``(x0, y0)`` to ``(x1, y1)``."""
    ax.annotate("", xy=(x1, y1), xytext=(x0, y0), arrowprops=dict(arrowstyle="-|>", color="0.2", lw=1.3))


def label_size() -> float:
    """The axis-label size of the figures' theme (points): the smallest text of the node schematic."""
    set_theme()
    return float(FontProperties(size=plt.rcParams["axes.labelsize"]).get_size_in_points())


def globecom01_fig1(data: xr.Dataset):
    """GLOBECOM'01 Figs. 1-2: the node schematic, drawn from a :class:`pqlab.Node` via the compute function.

    Classifier, per-queue policer, priority and WFQ queues (limits, weights), the
    scheduler, the transmission ring of ``ring_limit`` particles (and the overshoot a
    multi-particle packet can cause), the line and the rest of the path. Every label is
    computed from the Dataset; no text is smaller than the theme's axis labels
    (:func:`label_size`), so the schematic reads at the size of the other figures.
    """
    _check_dataset("globecom01_fig1", data,
                   ("kind", "limit_packets", "weight_bps", "police_rate_bps", "police_burst_bytes"))
    a = data.attrs
    size = label_size()
    fig, ax = subplots(figsize=(13, 7.4))
    ax.set_xlim(0, 110)
    ax.set_ylim(0, 58)
    ax.set_aspect("equal")
    ax.axis("off")

    mid = 29.0
    ax.text(0.3, mid + 1.2, "EF + BE\npackets", ha="left", va="bottom", fontsize=size)
    arrow(ax, 0.3, mid, 8.3, mid)
    box(ax, 9, mid - 6, 11, 12, "classifier\n(DSCP \u2192\nqueue)")

    n = data.sizes["queue"]
    order = sorted(range(n), key=lambda i: (data["kind"].values[i] != "priority", i))
    ys = np.linspace(46, 12, n) if n > 1 else np.array([mid])
    sched_x, sched_y, sched_r = 67.0, mid, 5.2
    for y, i in zip(ys, order):
        kind = str(data["kind"].values[i])
        limit = int(data["limit_packets"].values[i])
        rate = float(data["police_rate_bps"].values[i])
        burst = float(data["police_burst_bytes"].values[i])
        weight = float(data["weight_bps"].values[i])
        arrow(ax, 20.6, mid, 24.5, y)
        if np.isfinite(rate):
            box(ax, 25, y - 4.5, 13, 9, f"policer\n{to_kbps(rate):g} kbit/s\nburst {burst:g} B", color="#fde0c5")
        else:
            ax.text(31.5, y, "(no policer)", ha="center", va="center", fontsize=size, color="0.4")
        arrow(ax, 38.8, y, 42.5, y)
        # the queue: an open-ended buffer with slots
        x0, x1, h = 43, 60, 5.5
        ax.plot([x0, x1, x1, x0], [y + h / 2, y + h / 2, y - h / 2, y - h / 2], color="0.2", lw=1.3)
        shown = min(limit, 10)
        for s in range(1, shown):
            xs = x1 - s * (x1 - x0) / shown
            ax.plot([xs, xs], [y - h / 2, y + h / 2], color="0.6", lw=0.8)
        if limit > shown:
            ax.text(x0 + 0.6, y, "...", ha="left", va="center", fontsize=size)
        if kind == "priority":
            label = f"queue {i}: strict priority (EF)\nlimit {limit} packets"
        else:
            label = f"queue {i}: WFQ (best effort)\nweight {to_mbps(weight):g} Mbit/s, limit {limit} packets"
        ax.text((x0 + x1) / 2, y + h / 2 + 0.6, label, ha="center", va="bottom", fontsize=size)
        dx, dy = sched_x - x1, sched_y - y
        d = np.hypot(dx, dy)
        arrow(ax, x1 + 0.3, y, sched_x - dx / d * sched_r, sched_y - dy / d * sched_r)
    ax.add_patch(patches.Circle((sched_x, sched_y), sched_r, fc="#e5f5e0", ec="0.2"))
    ax.text(sched_x, sched_y, "scheduler\npriority,\nthen WFQ", ha="center", va="center", fontsize=size)

    # the transmission ring: ring_limit particles, plus the overshoot with MTU packets
    ring_limit, max_particles, pb = a["ring_limit_particles"], a["max_ring_particles"], a["particle_bytes"]
    rx0, cell = 74.5, 2.6
    ry = sched_y - cell / 2
    arrow(ax, sched_x + sched_r, sched_y, rx0 - 0.2, sched_y)
    for s in range(max_particles):
        solid = s < ring_limit
        ax.add_patch(patches.Rectangle((rx0 + s * cell, ry), cell * 0.9, cell, fc="#c6dbef" if solid else "white",
                                       ec="0.2", ls="-" if solid else "--"))
    rx1 = rx0 + max_particles * cell
    ax.text((rx0 + rx1) / 2, ry + cell + 0.8, f"transmission ring\n{ring_limit} particles x {pb} B",
            ha="center", va="bottom", fontsize=size)
    ax.text((rx0 + rx1) / 2, ry - 0.8,
            f"up to {ring_limit - 1} + {a['mtu_particles']} = {max_particles} particles\nwith {a['mtu_bytes']}-B "
            "packets\n(dashed)",
            ha="center", va="top", fontsize=size)

    # the line and the rest of the path
    lx = rx1 + 0.5
    arrow(ax, lx, sched_y, 109.5, sched_y)
    framing = {"atm-aal5": "ATM AAL5", "ethernet": "Ethernet", "none": "unframed"}.get(a["framing"], a["framing"])
    ax.text((lx + 109.5) / 2, sched_y + 1.0, f"line\n{to_mbps(a['line_rate_bps']):g} Mbit/s\n{framing}",
            ha="center", va="bottom", fontsize=size)
    ax.text((lx + 109.5) / 2, sched_y - 1.0,
            f"EF {a['ef_ip_bytes']} B:\n{to_ms(a['ef_line_time_s']):.3f} ms\n"
            f"{a['mtu_bytes']} B:\n{to_ms(a['mtu_line_time_s']):.3f} ms", ha="center", va="top", fontsize=size)
    frame = {"atm-aal5": f"ATM AAL5 frames: 53 x ceil((IP + 16) / 48) B (EF: a {a['ef_frame_bytes']}-B frame)",
             "ethernet": "Ethernet frames: IP + 38 B"}.get(a["framing"], "")
    hops = a["path_hops"]
    hops = [hops] if isinstance(hops, str) else list(hops)
    path = (f"then the uncongested path: {len(hops)} hop(s) ({', '.join(hops)}) + {to_ms(a['path_fixed_s']):g} ms "
            f"fixed = +{to_ms(a['path_ef_delay_s']):.3f} ms for an EF packet")
    ax.text(0.3, 0.5, "\n".join(filter(None, [frame, path])), ha="left", va="bottom", fontsize=size, color="0.3")
    ax.set_title("globecom01_fig1: the node model of GLOBECOM'01 Figs. 1-2, drawn from pqlab.Node.cisco7200_atm()",
                 fontsize=size)
    return fig


# --------------------------------------------------------------------------- globecom01_fig3_1


def globecom01_fig3_1(data: xr.Dataset, *, paper_maxima_bytes: Sequence[float] = (),
                      paper_w_m_ms: Sequence[float] = ()):
    """GLOBECOM'01 Fig. 3-1: mean EF one-way delay vs BE payload, 95% CI band, Table IV's W at the maxima.

    Parameters
    ----------
    data : xarray.Dataset
        From :func:`pqlab.papers.artefacts.background.globecom01_fig3_1`.
    paper_maxima_bytes : sequence of float
        The paper's local-maximum payloads, marked for comparison (e.g. from ``data/paper_values.csv``).
    paper_w_m_ms : sequence of float
        The paper's measured mean delay at those maxima, ms (GLOBECOM'01 Table IV ``W_m`` for k = 1, 2,
        which the paper ties to Fig. 3-1's maxima): drawn at the paper's payloads, so a miss reads as
        the distance between the paper's point and ours, not as a gap to the bound.
    """
    _check_dataset("globecom01_fig3_1", data, ("mean_delay", "mean_delay_ci", "worst_case_w", "delay_mean"))
    ci_us = to_us(data["mean_delay_ci"].values)
    data = statistics_in_ms(data, STATISTICS["globecom01_fig3_1"])  # times in ms (the _ms attrs)
    a = data.attrs
    fig, ax = subplots(figsize=(10, 5.6), top_axis=True)
    x = data["be_payload_bytes"].values
    y = data["mean_delay"].values
    ci = data["mean_delay_ci"].values
    n_seeds = data.sizes["seed"]
    if np.isfinite(ci).any():
        ax.fill_between(x, y - ci, y + ci, color="C0", alpha=0.3, lw=0,
                        label=f"95% CI over seeds (at most +/- {np.nanmax(ci_us):.1f} us)")
    ax.plot(x, y, "-o", color="C0", ms=3.5, lw=1.4,
            label=f"mean EF one-way delay ({n_seeds} seed{'s' if n_seeds > 1 else ''} x {a['n_ef_samples']} packets)")
    for s in range(n_seeds):
        ax.plot(x, data["delay_mean"].values[:, s], ".", color="C0", ms=2, alpha=0.5)
    pb = a["particle_bytes"]
    top = float(max(np.nanmax(data["worst_case_w"].values), np.nanmax(y))) * 1.12
    for k in range(1, int(data["particles"].max()) + 1):
        edge = k * pb - (data["ip_bytes"].values[0] - x[0])
        if x.min() <= edge <= x.max():
            ax.axvline(edge, color="0.5", ls=":", lw=1)
            ax.text(edge + 8, top * 0.08, f"IP = {k} x {pb} B", rotation=90, fontsize=8, color="0.35", va="bottom")
    mx = a["local_max_payload_bytes"]
    mx = [mx] if np.isscalar(mx) else list(mx)
    if mx:
        ax.plot(mx, a["local_max_mean_ms"], "^", color="C3", ms=9, label="our local maxima")
        for i, (p, w, kk, m) in enumerate(zip(mx, a["local_max_w_ms"], a["local_max_particles"],
                                              a["local_max_mean_ms"])):
            ax.hlines(w, p - 60, p + 60, color="C3", ls="--", lw=2,
                      label=(f"Table IV worst-case W (rho {a['w_rho']:g}, Q_t {a['w_q_t']}, "
                             f"T_u {to_ms(a['w_t_u_s']):g} ms, k = BE particles)") if i == 0 else None)
            ax.text(p + 70, w, f"W(k={kk}) = {w:.2f} ms\nours {m:.2f} ms = {m / w:.2f} W\nat payload {p} B",
                    fontsize=8, color="C3", va="center")
    paper_maxima = [float(p) for p in paper_maxima_bytes]
    for i, p in enumerate(paper_maxima):
        ax.axvline(p, color="C1", lw=2.5, alpha=0.9, ymax=0.06,
                   label=f"paper's local maxima ({', '.join(f'{v:g}' for v in paper_maxima)} B)" if i == 0 else None)
    paper_w_m = [float(v) for v in paper_w_m_ms]
    if paper_w_m:
        top = max(top, max(paper_w_m) * 1.12)
        ax.plot(paper_maxima[:len(paper_w_m)], paper_w_m[:len(paper_maxima)], "s", color="C1", ms=9, mfc="none",
                mew=2, label="paper's measured W_m at its maxima (Table IV: "
                             + ", ".join(f"{v:.2f}" for v in paper_w_m) + " ms)")
        for p, v, m in zip(paper_maxima, paper_w_m, a["local_max_mean_ms"]):
            ax.annotate(f"paper {v:.2f} ms\nours {m:.2f} ms ({(m - v) / v:+.0%})", (p, v), xytext=(-120, 6),
                        textcoords="offset points", fontsize=8, color="C1")
    ax.set_xlabel("BE UDP payload (bytes)")
    ax.set_ylabel("mean EF one-way delay (ms)")
    ax.set_ylim(0, top)
    ax.set_xlim(x.min() - 25, x.max() + 25)
    sec = ax.secondary_xaxis("top", functions=(lambda p: p + 28, lambda i: i - 28))
    sec.set_xlabel("BE IP length (bytes)")
    ax.legend(loc="upper left", fontsize=8)
    ax.set_title(f"globecom01_fig3_1: mean EF one-way delay vs BE payload (20 CBR BE streams; incl. "
                 f"{to_ms(a['path_ef_delay_s']):.2f} ms path)", fontsize=11)
    return fig


# --------------------------------------------------------------------------- globecom01_fig3_2


def globecom01_fig3_2(data: xr.Dataset, *, n_show: int = 150, seed: int | None = None):
    """GLOBECOM'01 Fig. 3-2: EF one-way delay of consecutive packets for two BE payloads, and their ECDFs.

    Parameters
    ----------
    data : xarray.Dataset
        From :func:`pqlab.papers.artefacts.background.globecom01_fig3_2`.
    n_show : int
        Consecutive EF packets shown after the warm-up (>= 2).
    seed : int, optional
        Which seed's series to show (default: the first).
    """
    _check_dataset("globecom01_fig3_2", data, ("delay", "delay_mean", "delay_p5", "delay_p95"))
    data = statistics_in_ms(data, STATISTICS["globecom01_fig3_2"])  # times in ms
    if not isinstance(n_show, (int, np.integer)) or isinstance(n_show, bool) or n_show < 2:
        raise ValueError(f"n_show must be an integer >= 2, got {n_show!r}")
    seeds = list(data["seed"].values)
    seed = seeds[0] if seed is None else seed
    if seed not in seeds:
        raise ValueError(f"seed must be one of the Dataset's seeds {seeds}, got {seed!r}")
    a = data.attrs
    pays = [int(p) for p in data["be_payload_bytes"].values]
    set_theme()
    fig = plt.figure(figsize=(13, 2.6 * len(pays) + 0.8), constrained_layout=True)
    grid = fig.add_gridspec(len(pays), 2, width_ratios=(2.6, 1))
    ax_e = fig.add_subplot(grid[:, 1])
    first = None
    styles = ["-", "--", ":", "-."]
    for i, p in enumerate(pays):
        ax = fig.add_subplot(grid[i, 0], sharex=first, sharey=first)
        first = first or ax
        sel = data.sel(be_payload_bytes=p)
        series = sel["delay"].sel(seed=seed).values[:n_show]
        k, cells, ip = int(sel["particles"]), int(sel["cells"]), int(sel["ip_bytes"])
        m, lo, hi = (float(sel[v].sel(seed=seed)) for v in ("delay_mean", "delay_p5", "delay_p95"))
        ax.axhspan(lo, hi, color=f"C{i}", alpha=0.12, label="5th-95th percentile")
        ax.axhline(m, color=f"C{i}", ls="--", lw=1, label=f"mean {m:.2f} ms")
        ax.plot(np.arange(series.size), series, "-o", color=f"C{i}", ms=2.5, lw=0.9, label="EF one-way delay")
        frac = float(sel["fluctuation_fraction"].sel(seed=seed))
        ax.set_title(f"BE payload {p} B = IP {ip} B: {k} particle{'s' if k > 1 else ''}, {cells} ATM cells; "
                     f"(p95 - p5) / mean = {frac:.2f}", fontsize=9.5)
        ax.set_ylabel("one-way delay (ms)")
        ax.legend(loc="upper right", fontsize=7.5, ncol=3)
        ax.set_xlabel(f"consecutive EF reference packets after the warm-up (seed {seed})", fontsize=9)
        pooled = sel["delay"].values.ravel()
        prob = np.linspace(0.0, 1.0, 401)
        ax_e.plot(np.quantile(pooled[np.isfinite(pooled)], prob), prob, color=f"C{i}",
                  ls=styles[i % len(styles)], lw=1.8, label=f"payload {p} B ({k} particle{'s' if k > 1 else ''})")
    ax_e.set_xlabel("one-way delay (ms)")
    ax_e.set_ylabel("P(D <= d)")
    ax_e.set_title(f"distribution, {len(seeds)} seed(s) pooled\nKS distance {a['ks_max']:.3f}", fontsize=9.5)
    ax_e.legend(loc="lower right", fontsize=8)
    shown = data["delay"].sel(seed=seed).values[:, :n_show]
    lo, hi = np.nanmin(shown), np.nanmax(shown)
    first.set_ylim(lo - 0.05 * (hi - lo), hi + 0.3 * (hi - lo))
    fig.suptitle(f"globecom01_fig3_2: EF one-way delay over time, BE payloads {' and '.join(map(str, pays))} B.\n"
                 f"Erratum: the paper calls them one and two transmission units, but with IP = payload + 28 both fit "
                 f"one {a['particle_bytes']}-B particle and coincide in distribution", fontsize=10.5)
    return fig


# --------------------------------------------------------------------------- globecom01_fig4


def globecom01_fig4(data: xr.Dataset):
    """GLOBECOM'01 Fig. 4: the BE size CDF used as "real" -- the STAND-IN -- as a step CDF with its quantiles."""
    _check_dataset("globecom01_fig4", data, ("cdf", "quantile_bytes"))
    a = data.attrs
    fig, ax = subplots(figsize=(9, 5.2))
    sizes, cdf = data["size_bytes"].values, data["cdf"].values
    ax.step(np.r_[0, sizes], np.r_[0.0, cdf], where="post", color="C0", lw=2, label="STAND-IN CDF P(size <= x)")
    for p, q in zip(data["probability"].values, data["quantile_bytes"].values):
        ax.plot([0, q], [p, p], color="0.6", ls=":", lw=1)
        ax.plot(q, p, "o", color="C3", ms=5)
        ax.annotate(f"q{p * 100:g} = {int(q)} B", (q, p), xytext=(8, -12 if p > 0.9 else 4),
                    textcoords="offset points", fontsize=8, color="C3")
    ax.text(0.55, 0.35, "STAND-IN", transform=ax.transAxes, fontsize=48, color="C3", alpha=0.12,
            rotation=20, ha="center", va="center", fontweight="bold")
    ax.text(0.98, 0.04, f"mean {a['mean_bytes']:.0f} B, SD {a['sd_bytes']:.0f} B\nmodes "
            + ", ".join(f"{m} B" for m in np.atleast_1d(a["modes_bytes"]))
            + f"\n{a['file']}", transform=ax.transAxes, ha="right", va="bottom", fontsize=8,
            bbox=dict(fc="white", ec="0.7"))
    ax.set_xlim(0, 1550)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("BE IP packet length x (bytes)")
    ax.set_ylabel("P(size <= x)")
    ax.legend(loc="upper left", fontsize=8)
    ax.set_title(f"globecom01_fig4: {_STANDIN}", fontsize=10.5)
    return fig


# --------------------------------------------------------------------------- globecom01_fig5


def globecom01_fig5(data: xr.Dataset):
    """GLOBECOM'01 Fig. 5: EF P(D > d) in transmission units with the STAND-IN real BE sizes, per seed.

    Left: complementary distribution per seed (thin), all seeds pooled (black), every
    BE packet at 1500 bytes (grey, dashed) and the paper's 36-unit threshold; right:
    each seed's tail percentile against the mean size its 20 BE streams drew.
    """
    _check_dataset("globecom01_fig5", data, ("ccdf", "ccdf_pooled", "ccdf_mtu", "tail_units", "be_mean_ip_bytes"))
    a = data.attrs
    unit_ms = to_ms(a["transmission_unit_s"])
    fig, (ax, ax_s) = subplots(1, 2, figsize=(13, 5.4), width_ratios=(2.4, 1), top_axis=True)
    d = data["threshold"].values
    seeds = list(data["seed"].values)
    colors = sns.color_palette("viridis", len(seeds))
    for j, s in enumerate(seeds):
        ax.step(d, data["ccdf"].values[j], where="post", color=colors[j], lw=0.9, alpha=0.8,
                label=f"seed {s} (BE mean {data['be_mean_ip_bytes'].values[j]:.0f} B)")
    ax.step(d, data["ccdf_pooled"].values, where="post", color="k", lw=2.2, label="all seeds pooled")
    ax.step(d, data["ccdf_mtu"].values, where="post", color="0.45", ls="--", lw=1.6,
            label="every BE packet 1500 B (deterministic)")
    thr = a["threshold_units"]
    ax.axvline(thr, color="C3", ls=":", lw=1.8, label=f"paper: P(D > {thr:g} units) negligible")
    n_total = int(np.isfinite(data["delay_units"].values).sum())
    ax.set_yscale("log")
    ax.set_ylim(0.5 / n_total, 1.5)
    ax.set_xlim(0, max(thr, float(d.max())) + 1)
    ax.set_xlabel(f"delay d (transmission units of {unit_ms:.3f} ms = line time of the "
                  f"{a['ef_ip_bytes']}-B EF packet)")
    ax.set_ylabel("P(D > d)")
    sec = ax.secondary_xaxis("top", functions=(lambda u: u * unit_ms, lambda m: m / unit_ms))
    sec.set_xlabel("delay d (ms)")
    ax.legend(loc="lower left", fontsize=7, ncol=2)
    ax.text(0.99, 0.98, f"{_STANDIN};\neach seed draws the 20 BE stream sizes once",
            transform=ax.transAxes, ha="right", va="top", fontsize=8, bbox=dict(fc="#fff3e0", ec="C1"))

    pct = a["percentile"]
    ax_s.scatter(data["be_mean_ip_bytes"].values, data["tail_units"].values, c=colors, s=40, zorder=3)
    for s, x, y in zip(seeds, data["be_mean_ip_bytes"].values, data["tail_units"].values):
        ax_s.annotate(str(s), (x, y), xytext=(4, 3), textcoords="offset points", fontsize=7)
    ax_s.axhline(a["pooled_tail_units"], color="k", lw=1.2, label=f"pooled {pct:g}th pct. {a['pooled_tail_units']:.1f}")
    ax_s.axhline(a["mtu_tail_units"], color="0.45", ls="--", lw=1.2, label=f"1500-B BE: {a['mtu_tail_units']:.1f}")
    ax_s.set_xlabel("mean IP size of the BE streams (bytes)")
    ax_s.set_ylabel(f"{pct:g}th percentile of the delay (units)")
    ax_s.legend(loc="lower right", fontsize=7.5)
    ax_s.set_title("spread over seeds", fontsize=10)
    fig.suptitle("globecom01_fig5: EF complementary delay probability with the STAND-IN real BE size distribution",
                 fontsize=11)
    return fig
