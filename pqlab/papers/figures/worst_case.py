"""Figures of GLOBECOM'01 Sec. VI (Table IV), the 5.12 ms bound and the path.

One function per artefact id, each taking the Dataset of the compute function of
the same name (:mod:`pqlab.papers.artefacts.worst_case`) and
returning a matplotlib Figure; nothing is simulated here.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from . import legend_below, subplots
from ...base.units import to_ms
from ._common import ci_half_widths

__all__ = ["globecom01_tab4", "globecom01_pq_bound", "path"]

_PAPER = dict(color="black", marker="D", ls="none", ms=7, zorder=5)
#: The BE workstations' Ethernet MTU, bytes (RFC 894): a larger IP packet cannot cross their Ethernet.
ETHERNET_MTU_BYTES = 1500


def _mtu_note(ip_bytes: int) -> str:
    """Tick text for a BE size above the Ethernet MTU: the preset asks for it, the test bed cannot send it."""
    return f",\n> {ETHERNET_MTU_BYTES} B MTU: not sendable" if ip_bytes > ETHERNET_MTU_BYTES else ""


def globecom01_tab4(ds: xr.Dataset):
    """Table IV: the bound W (stacked W_pq + W_t), the paper's W_m and ours per k.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.worst_case.globecom01_tab4`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = subplots(figsize=(8.4, 4.8))
    k = ds["k"].values.astype(float)
    width = 0.55
    ax.bar(k, to_ms(ds["w_pq"]), width, color="#c6dbef", edgecolor="#6b8fb5", label="bound: $W_{pq}$ (eq. 5)")
    ax.bar(k, to_ms(ds["w_t"]), width, bottom=to_ms(ds["w_pq"]), color="#9ecae1", edgecolor="#6b8fb5",
           label="bound: $W_t$ (eq. 6); top = $W$ (eq. 7)")
    for x, w in zip(k, to_ms(ds["w"].values)):
        ax.text(x - 0.15, w + 0.25, f"W = {w:.2f}", ha="center", va="bottom", fontsize=9)
    ax.plot(k - 0.12, to_ms(ds["paper_w_m"]), label="paper $W_m$ (measured)", **_PAPER)
    ax.errorbar(k + 0.12, to_ms(ds["w_m_mean"]), yerr=to_ms(ci_half_widths(ds["w_m_ci"])), fmt="o", color="C3", ms=8,
                capsize=4, zorder=6, label=f"ours $W_m$ (mean of {ds.sizes['seed']} seed(s), 95% CI)")
    ax.errorbar(k + 0.12, to_ms(ds["w_m_hops_mean"]), yerr=to_ms(ci_half_widths(ds["w_m_hops_ci"])), fmt="^", mfc="none",
                color="C2", ms=8, capsize=3, zorder=6, label="ours, C7500 hops simulated (H7)")
    ax.errorbar(k + 0.12, to_ms(ds["w_m_ring_packets_mean"]), yerr=to_ms(ci_half_widths(ds["w_m_ring_packets_ci"])), fmt="s",
                mfc="none", color="C4", ms=7, capsize=3, zorder=6, label="ours, ring counts packets (H1)")
    ax.set_xticks(k, [f"k = {int(v)}\n(BE {int(b)} B IP{_mtu_note(int(b))})"
                      for v, b in zip(k, ds["be_ip_bytes"].values)])
    ax.set_xlabel("transmission units per BE packet")
    ax.set_ylabel("average EF one-way delay (ms)")
    ax.set_ylim(0, float(to_ms(max(ds["w"].max(), ds["w_m_hops_mean"].max()))) * 1.2)
    ax.legend(loc="upper left", fontsize=8.5, framealpha=0.95)
    ax.set_title("globecom01_tab4: worst-case bound W vs measured $W_m$ (GLOBECOM'01 Table IV)", fontsize=11)
    return fig


def globecom01_pq_bound(ds: xr.Dataset):
    """EF bursts into a full priority queue: per burst position, waits vs the 5.12 ms bound.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.worst_case.globecom01_pq_bound`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = subplots(figsize=(8.4, 5.6))
    pos = ds["position"].values
    limit = int(ds.ef_queue_limit)
    flat = ("seed", "burst")
    bound_unframed_ms, bound_atm_ms = float(to_ms(ds["bound_unframed"])), float(to_ms(ds["bound_atm"]))
    ef_line_ms = float(to_ms(ds["ef_line_time"]))
    for var, color, label in (("sojourn", "C0", "time in the C7200 (PQ + ring + line)"),
                              ("pq_wait", "C1", "wait in the priority queue"),
                              ("ef_part", "C3", "EF part: line time of the burst's packets so far")):
        da = to_ms(ds[var])
        ax.fill_between(pos, da.min(flat), da.max(flat), color=color, alpha=0.18, lw=0)
        ax.plot(pos, da.mean(flat), "o-", color=color, ms=4, label=f"{label} (mean, min-max band)")
    ax.plot(pos, np.minimum(pos, limit) * bound_unframed_ms / limit, "k--", lw=1.2,
            label=f"paper: i x {bound_unframed_ms / limit:.3f} ms, max {bound_unframed_ms:.2f} ms "
                  "(unframed)")
    ax.axhline(bound_atm_ms, color="C3", lw=1.2, ls=":",
               label=f"bound with ATM cells: {limit} x {ef_line_ms:.3f} = {bound_atm_ms:.2f} ms")
    if pos.max() > limit:
        ax.axvspan(limit + 0.5, pos.max() + 0.5, color="0.85", zorder=0, label="tail-dropped (queue full)")
    ax.set_xlim(0.5, pos.max() + 0.5)
    ax.set_xticks(pos)
    ax.set_xlabel(f"position of the EF packet in a burst of {pos.max()} arriving at once")
    ax.set_ylabel("delay (ms)")
    legend_below(ax, ncol=2, frameon=False)
    ax.set_title(f"globecom01_pq_bound: EF bursts into a {limit}-packet priority queue behind "
                 f"{ds.attrs.get('be_ip_bytes', '?')}-byte BE ({ds.sizes['burst'] * ds.sizes['seed']} bursts)",
                 fontsize=10.5)
    return fig


def path(ds: xr.Dataset):
    """Round-trip time of the uncongested path model vs packet size, and the paper's 64-byte RTT.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.worst_case.path` (``paper_rtt_64``, s, is
        drawn as the paper's point).

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, axes = subplots(1, 2, figsize=(11, 4.4))
    size = ds["size"].values
    paper = float(to_ms(ds["paper_rtt_64"])) if "paper_rtt_64" in ds else float("nan")
    rtt_ms, rtt_unframed_ms = to_ms(ds["rtt"]), to_ms(ds["rtt_unframed"])
    for ax, hi in zip(axes, (size.max(), min(size.max(), 256))):
        sel = size <= hi
        ax.plot(size[sel], rtt_ms.values[sel], color="C0",
                label=f"pqlab path model: {int(ds.n_hops)} ATM AAL5 hops each way")
        ax.plot(size[sel], rtt_unframed_ms.values[sel], color="C1", ls="--", label="same hops, unframed lines")
        if 64 in size:
            ax.plot([64], [float(rtt_ms.sel(size=64))], "o", color="C0", ms=7,
                    label=f"ours, 64 bytes: {float(rtt_ms.sel(size=64)):.2f} ms")
        if np.isfinite(paper):
            ax.plot([64], [paper], label=f"paper: 64 bytes, 'approximately {paper:g} ms'", **_PAPER)
        ax.set_xlabel("IP packet length (bytes)")
        ax.set_ylabel("round-trip time, uncongested (ms)")
    axes[0].legend(loc="upper left", fontsize=9)
    axes[0].set_title("all sizes", fontsize=10)
    axes[1].set_title("zoom: small packets", fontsize=10)
    axes[1].set_ylim(bottom=0)
    fig.suptitle("path: RTT of the uncongested path (GLOBECOM'01 Sec. III)", fontsize=11)
    return fig
