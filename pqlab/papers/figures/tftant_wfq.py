"""Figures of the TF-TANT PQ-vs-WFQ page and the slides' tx-ring, STAR and no-BE tests.

One function per artefact id, each taking the Dataset of the compute function of the
same name in :mod:`pqlab.papers.artefacts.tftant_wfq` and returning a matplotlib Figure;
nothing is simulated here. The Datasets are in SI units; each figure draws their times
in ms (:func:`pqlab.base.units.times_in_ms`, arrival times stay in s) and their rates in
kbit/s or Mbit/s. The sources' unit of every effect, the
transmission time of one BE packet ("BE tx time", 4.664 ms for 1000 bytes on the
2 Mbit/s ATM line), is drawn where they state it.
"""

from __future__ import annotations

import numpy as np
import seaborn as sns
import xarray as xr

from ..artefacts.tftant_wfq import EQUIVALENT_BE_TX, PAPER_STAR_PLATEAU, SOURCE_FRAME_SIZES
from . import legend_below, subplots
from ...base.units import times_in_ms, to_kbps, to_mbps
from ._common import ci_half_widths, footer

__all__ = [
    "tftant_wfq_fig1",
    "tftant_wfq_fig2_4",
    "tftant_wfq_fig5",
    "tftant_wfq_fig6_7",
    "tftant_slides_ring",
    "tftant_slides_star",
    "tftant_slides_no_be",
]

#: Colours of the two schedulers, and the paper's markers.
COLORS = {"pq": "C0", "wfq": "C1"}
LABELS = {"pq": "PQ", "wfq": "WFQ"}
_PAPER = dict(color="black", marker="D", ls="none", ms=7, zorder=6)
#: EF packets shown in the over-time figures.
N_POINTS = 120


def _ci(values) -> np.ndarray | None:
    """CI half-widths for error bars; None when every one is NaN (a single seed)."""
    return ci_half_widths(values, none_if_all_nan=True)


def _ms(ds: xr.Dataset) -> xr.Dataset:
    """The Dataset with its times in ms for the axes, arrival times (``time``) kept in s."""
    return times_in_ms(ds, keep=("time",))


def _kbps(ds: xr.Dataset, name: str) -> float:
    """A rate of the Dataset (bit/s) in kbit/s."""
    return float(to_kbps(ds[name]))


def _conditions(ds: xr.Dataset, ring: bool = True) -> str:
    """The test conditions for a footer; ``ring=False`` leaves out the ring (when it is swept)."""
    return (f"EF {_kbps(ds, 'ef_rate'):g} kbit/s, BE {float(to_mbps(ds.be_rate)):g} Mbit/s of "
            f"{int(ds.be_ip_bytes)}-byte packets, {float(to_mbps(ds.line_rate)):g} Mbit/s ATM"
            + (f", ring {int(ds.ring_limit_particles)} particles" if ring else "")
            + f", EF queue {int(ds.ef_queue_limit)}")


def _seeds(ds: xr.Dataset) -> str:
    n = ds.sizes["seed"]
    return f"{n} seed(s)" + (", 95% CI" if n > 1 else "")


def _source_sizes(ax, frames) -> None:
    for f in SOURCE_FRAME_SIZES:
        if f in frames:
            ax.axvline(f, color="0.75", lw=0.8, ls=":", zorder=0)


def _paper_gains(ax, ds: xr.Dataset, frames, be_tx: float) -> None:
    """The page's gains of PQ over WFQ, drawn up from our PQ curve: where WFQ would be with the page's gap.

    The page gives no absolute delays for Fig. 1, only the differences WFQ - PQ: about 4 and 5
    BE transmission times at 1024 and 1518 bytes and 24.18 ms at MTU size (1518 bytes).
    """
    pq = ds["delay_mean"].sel(scheduler="pq").values
    for frame, gap, style, label in (
        (1024, float(ds.paper_gap_1024) * be_tx, {}, "page: PQ + its gap (~4, ~5 BE tx times)"),
        (1518, float(ds.paper_gap_1518) * be_tx, {}, None),
        (1518, float(ds.paper_max_gain), {"marker": "*", "ms": 13}, f"page: PQ + max gain {float(ds.paper_max_gain):g} ms"),
    ):
        base = float(np.interp(frame, frames, pq))
        ax.vlines(frame + 12, base, base + gap, color="black", lw=1, ls="--", zorder=4)
        ax.plot([frame + 12], [base + gap], **{**_PAPER, **style}, label=label)


def tftant_wfq_fig1(ds: xr.Dataset):
    """Page Fig. 1: mean EF delay with PQ and WFQ vs frame size (left), their difference in BE tx times (right).

    The page's numbers are differences WFQ - PQ, so the left panel draws them up from our PQ
    curve (:func:`_paper_gains`) and marks the range where the page calls PQ and WFQ equivalent.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.tftant_wfq.tftant_wfq_fig1`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    ds = _ms(ds)
    fig, (ax, gx) = subplots(1, 2, figsize=(14, 6.2), footer=True)
    frames = ds["ef_frame_bytes"].values
    be_tx = float(ds.be_tx_time)
    for s in ds["scheduler"].values:
        ax.errorbar(frames, ds["delay_mean"].sel(scheduler=s), yerr=_ci(ds["delay_ci"].sel(scheduler=s)),
                    fmt="o-", ms=4, capsize=3, color=COLORS[s], label=f"pqlab, {LABELS[s]}")
    _source_sizes(ax, frames)
    ax.plot([], [], color="0.75", lw=0.8, ls=":", label="frame sizes the page measured")
    _paper_gains(ax, ds, frames, be_tx)
    ax.axvspan(frames.min() - 20, 512, ymin=0, ymax=0.03, color="C2", alpha=0.5,
               label="page: PQ and WFQ almost equivalent <= 512 B")
    ax.set_xlabel("EF frame size (bytes; IP = frame - 18)")
    ax.set_ylabel("mean EF one-way delay (ms)")
    ax.set_ylim(bottom=0)
    ax.legend(loc="upper left", fontsize=10)
    ax.set_title("mean one-way delay (incl. the 2 C7500 hops of the path)")

    gap = ds["gap_be_tx"].values
    gx.axhspan(-EQUIVALENT_BE_TX, EQUIVALENT_BE_TX, color="0.9", zorder=0,
               label=f"'equivalent': |WFQ - PQ| < {EQUIVALENT_BE_TX} BE tx")
    gx.axvspan(frames.min() - 20, 512, ymin=0, ymax=0.04, color="C2", alpha=0.5,
               label="page: almost equivalent <= 512 B")
    gx.axvspan(frames.min() - 20, 256, ymin=0.04, ymax=0.08, color="C4", alpha=0.5, label="slides: equivalent <= 256 B")
    gx.errorbar(frames, gap, yerr=_ci(ds["gap_ci"].values / be_tx), fmt="s-", ms=4, capsize=3, color="C3",
                label="pqlab: (WFQ - PQ) / BE tx time")
    gx.plot([1024, 1518], [float(ds.paper_gap_1024), float(ds.paper_gap_1518)],
            label="page: ~4 and ~5 BE tx times (Figs. 2-4)", **_PAPER)
    gx.plot([1518], [float(ds.paper_max_gain) / be_tx], **{**_PAPER, "marker": "*", "ms": 13},
            label=f"page: max gain {float(ds.paper_max_gain):g} ms at MTU size")
    gx.set_yticks(np.arange(0, max(6, int(np.nanmax(gap)) + 2)))
    gx.set_xlim(frames.min() - 20, frames.max() + 40)
    gx.set_xlabel("EF frame size (bytes)")
    gx.set_ylabel(f"gain of PQ: WFQ - PQ (BE tx times of {be_tx:.3f} ms)")
    sec = gx.secondary_yaxis("right", functions=(lambda v: v * be_tx, lambda v: v / be_tx))
    sec.set_ylabel("WFQ - PQ (ms)")
    gx.legend(loc="upper left", fontsize=10)
    gx.set_title("gain of PQ in BE transmission times")
    fig.suptitle("tftant_wfq_fig1: mean EF one-way delay with PQ and WFQ vs EF packet size "
                 "(TF-TANT PQ vs WFQ page, Fig. 1)")
    footer(fig, f"{_conditions(ds)}; EF service rate {_kbps(ds, 'ef_service_rate'):g} kbit/s (WFQ weight, BE "
                 f"weight {_kbps(ds, 'be_weight'):g} kbit/s; PQ policing rate); {_seeds(ds)}")
    return fig


def _series_panels(ds: xr.Dataset, var: str, ylabel: str, n_points: int):
    frames = ds["ef_frame_bytes"].values
    fig, axes = subplots(1, frames.size, figsize=(4.6 * frames.size, 4.6), footer=True, squeeze=False)
    seed = ds["seed"].values[0]
    for ax, f in zip(axes[0], frames):
        t = ds["time"].sel(ef_frame_bytes=f, seed=seed).values[:n_points]
        for s in ds["scheduler"].values:
            y = ds[var].sel(scheduler=s, ef_frame_bytes=f, seed=seed).values[:n_points]
            # PQ wide and pale underneath, WFQ thin on top: where they coincide both stay visible
            style = dict(lw=3.2, alpha=0.45, marker=None) if s == "pq" else dict(lw=0.9, marker=".", ms=3)
            ax.plot(t, y, color=COLORS[s], label=LABELS[s] + (" (wide, underneath)" if s == "pq" else ""), **style)
        ax.set_xlabel("time after the warm-up (s)")
        ax.set_ylabel(ylabel)
        ax.set_title(f"EF frames of {int(f)} bytes", fontsize=10)
    return fig, axes[0], frames, seed


def _figure_legend(fig, axes) -> None:
    """One legend for all panels, under them (each label once)."""
    seen = {}
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(lab, h)
    fig.get_layout_engine().set(rect=(0, 0.1, 1, 0.9))  # room for the legend and, under it, the footer
    fig.legend(list(seen.values()), list(seen), loc="lower center", bbox_to_anchor=(0.5, 0.035),
               ncol=len(seen), fontsize=9, frameon=False)


def tftant_wfq_fig2_4(ds: xr.Dataset, n_points: int = N_POINTS):
    """Page Figs. 2-4: EF one-way delay over time with PQ and WFQ, one panel per frame size.

    The page's WFQ - PQ differences (4 and 5 BE tx times at 1024 and 1518 bytes) are
    drawn on top of our PQ mean.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.tftant_wfq.tftant_wfq_fig2_4`.
    n_points : int
        EF packets shown per panel (first seed).

    Returns
    -------
    matplotlib.figure.Figure
    """
    ds = _ms(ds)
    fig, axes, frames, seed = _series_panels(ds, "delay", "EF one-way delay (ms)", n_points)
    be_tx = float(ds.be_tx_time)
    paper = {1024: 4, 1518: 5}
    for ax, f in zip(axes, frames):
        pq = float(ds["delay_mean"].sel(scheduler="pq", ef_frame_bytes=f, seed=seed))
        shift = float(ds["shift"].sel(ef_frame_bytes=f, seed=seed))
        if int(f) in paper:
            ax.axhline(pq + paper[int(f)] * be_tx, color="black", ls="--", lw=1.2,
                       label="PQ mean + the page's WFQ - PQ (4 BE tx at 1024 B, 5 at 1518 B)")
        ax.text(0.02, 0.97, f"WFQ - PQ = {shift:.2f} ms = {shift / be_tx:.2f} BE tx\n"
                f"corr(PQ, WFQ) = {float(ds['corr'].sel(ef_frame_bytes=f, seed=seed)):.2f}",
                transform=ax.transAxes, va="top", fontsize=8.5,
                bbox=dict(boxstyle="round", fc="white", ec="0.8", alpha=0.9))
        lo = float(ds["delay_min"].sel(ef_frame_bytes=f).min())
        hi = float(ds["delay_max"].sel(ef_frame_bytes=f).max())
        top = max(hi, pq + paper.get(int(f), 0) * be_tx)
        ax.set_ylim(lo - 0.1 * (top - lo) - 0.5, top + 0.3 * (top - lo) + 2.0)
    _figure_legend(fig, axes)
    fig.suptitle("tftant_wfq_fig2_4: EF one-way delay over time with WFQ and PQ "
                 "(TF-TANT PQ vs WFQ page, Figs. 2-4)", fontsize=11)
    footer(fig, f"{_conditions(ds)}; first {n_points} EF packets of seed {seed}; BE tx time {be_tx:.3f} ms")
    return fig


def tftant_wfq_fig6_7(ds: xr.Dataset, n_points: int = N_POINTS):
    """Page Figs. 6-7 (128, 1024 bytes) and the slides' 1518 bytes: IPDV over time with PQ and WFQ.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.tftant_wfq.tftant_wfq_fig6_7`.
    n_points : int
        EF packets shown per panel (first seed).

    Returns
    -------
    matplotlib.figure.Figure
    """
    ds = _ms(ds)
    fig, axes, frames, seed = _series_panels(ds, "ipdv", "IPDV of consecutive EF packets (ms)", n_points)
    be_tx = float(ds.be_tx_time)
    frac = ds.attrs["peak_fraction"]
    for ax, f in zip(axes, frames):
        ax.axhline(be_tx, color="black", ls="--", lw=1.2, label="page and slides: max IPDV = 1 BE tx time")
        ax.axhline(-be_tx, color="black", ls="--", lw=1.2)
        for y in (frac * be_tx, -frac * be_tx):
            ax.axhline(y, color="0.6", ls=":", lw=1, label=f"peak threshold: {frac:g} BE tx time")
        freq = ds["peak_frequency"].sel(ef_frame_bytes=f, seed=seed)
        mx = ds["ipdv_max_be_tx"].sel(ef_frame_bytes=f, seed=seed)
        ax.text(0.02, 0.03, "\n".join(
            f"{LABELS[s]}: max |IPDV| {float(mx.sel(scheduler=s)):.2f} BE tx, peaks (>= {frac:g}) "
            f"{float(freq.sel(scheduler=s)):.0%}" for s in ds["scheduler"].values),
            transform=ax.transAxes, va="bottom", fontsize=8,
            bbox=dict(boxstyle="round", fc="white", ec="0.8", alpha=0.9))
        lim = max(1.25 * be_tx, 1.1 * float(np.nanmax(np.abs(ds["ipdv"].sel(ef_frame_bytes=f, seed=seed)))))
        ax.set_ylim(-1.6 * lim, 1.2 * lim)
    _figure_legend(fig, axes)
    labels = {128: "page Fig. 6", 1024: "page Fig. 7", 1518: "slides, 1500 by"}
    for ax, f in zip(axes, frames):
        ax.set_title(f"EF frames of {int(f)} bytes" + (f" ({labels[int(f)]})" if int(f) in labels else ""),
                     fontsize=10)
    fig.suptitle("tftant_wfq_fig6_7: IPDV over time with WFQ and PQ (TF-TANT PQ vs WFQ page, Figs. 6-7; "
                 "slides, WFQ vs PQ: ipdv)", fontsize=11)
    footer(fig, f"{_conditions(ds)}; first {n_points} EF packets of seed {seed}; BE tx time {be_tx:.3f} ms; "
                 "IPDV = delay(i) - delay(i-1)")
    return fig


def tftant_wfq_fig5(ds: xr.Dataset):
    """Page Fig. 5: mean |IPDV| with PQ and WFQ vs frame size (left), the largest |IPDV| in BE tx times (right).

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.tftant_wfq.tftant_wfq_fig5`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    ds = _ms(ds)
    fig, (ax, mx) = subplots(1, 2, figsize=(13, 4.9), footer=True)
    frames = ds["ef_frame_bytes"].values
    ax.axvspan(120, 264, color="C2", alpha=0.15, label="page: IPDV higher at 128 / 256 bytes")
    for s in ds["scheduler"].values:
        ax.errorbar(frames, ds["ipdv_mean"].sel(scheduler=s), yerr=_ci(ds["ipdv_ci"].sel(scheduler=s)),
                    fmt="o-", ms=4, capsize=3, color=COLORS[s], label=f"pqlab, {LABELS[s]}")
        mx.plot(frames, ds["ipdv_max_be_tx"].sel(scheduler=s), "o-", ms=4, color=COLORS[s], label=LABELS[s])
    if "ipdv_beat_mean" in ds:
        wide = dict(color="0.35", lw=6, alpha=0.25, zorder=0, solid_capstyle="round")
        ax.plot(frames, ds["ipdv_beat_mean"], label="sawtooth: 2 s (t_BE - s) / t_BE (wide grey)", **wide)
        mx.plot(frames, ds["ipdv_beat_max_be_tx"], label="sawtooth: max(s, t_BE - s) (wide grey)", **wide)
    for a in (ax, mx):
        _source_sizes(a, frames)
        a.set_xlabel("EF frame size (bytes)")
    ax.set_ylabel("mean |IPDV| (ms)")
    ax.set_ylim(0, 1.3 * float(ds["ipdv_mean"].max()))
    ax.legend(loc="upper left", fontsize=8.5, ncol=2)
    ax.set_title("average IPDV (mean of |IPDV|)", fontsize=10)
    mx.axhline(1.0, color="black", ls="--", lw=1.2, label="page / slides: max IPDV = 1 BE tx time")
    mx.set_ylabel(f"largest |IPDV| (BE tx times of {float(ds.be_tx_time):.3f} ms)")
    mx.set_ylim(0, 1.3 * float(max(ds["ipdv_max_be_tx"].max(), 1.0)))
    mx.legend(loc="upper left", fontsize=8.5)
    mx.set_title("largest |IPDV| over all seeds", fontsize=10)
    fig.suptitle("tftant_wfq_fig5: mean IPDV with WFQ and PQ vs EF packet size (TF-TANT PQ vs WFQ page, Fig. 5)",
                 fontsize=11)
    footer(fig, f"{_conditions(ds)}; {_seeds(ds)}; dotted: sizes the page names; "
                 "s = (T_EF - t_EF) mod t_BE, the slip of the EF arrivals against the BE departures")
    return fig


def tftant_slides_ring(ds: xr.Dataset):
    """Slides, "Tx queue": mean delay vs tx-ring-limit with the fitted line per scheduler, and IPDV.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.tftant_wfq.tftant_slides_ring`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    ds = _ms(ds)
    scheds = list(ds["scheduler"].values)
    fig, axes = subplots(1, len(scheds) + 1, figsize=(4.8 * (len(scheds) + 1), 4.8), footer=True, squeeze=False)
    axes = axes[0]
    ring = ds["ring_limit_particles"].values.astype(float)
    be_tx = float(ds.be_tx_time)
    for ax, s in zip(axes, scheds):
        ax.errorbar(ring, ds["delay_mean"].sel(scheduler=s), yerr=_ci(ds["delay_ci"].sel(scheduler=s)), fmt="o",
                    color=COLORS[s], capsize=3, label=f"pqlab, {LABELS[s]}")
        slope, icpt, r2 = (float(ds[v].sel(scheduler=s)) for v in ("slope", "intercept", "r2"))
        ax.plot(ring, slope * ring + icpt, "--", color="0.3",
                label=f"fit: {slope:.2f} ms/particle + {icpt:.1f} ms, $R^2$ = {r2:.3f}")
        loss = float(ds["loss"].sel(scheduler=s).max())
        extra = f" (EF overloaded: loss {loss:.1%})" if loss > 0 else ""
        ax.set_title(f"{LABELS[s]}, EF service rate {_kbps(ds, 'ef_service_rate'):g} kbit/s{extra}", fontsize=9.5)
        ax.set_xlabel("tx-ring-limit (particles of 512 bytes)")
        ax.set_ylabel("mean EF one-way delay (ms)")
        ax.legend(loc="upper left", fontsize=8.5, title="slides: 'proportional to the tx queue size'",
                  title_fontsize=8)
    ix = axes[-1]
    for s in scheds:
        ix.errorbar(ring, ds["ipdv_mean"].sel(scheduler=s), yerr=_ci(ds["ipdv_ci"].sel(scheduler=s)), fmt="o-",
                    ms=4, color=COLORS[s], label=f"{LABELS[s]}: mean |IPDV|")
        ix.plot(ring, ds["ipdv_max"].sel(scheduler=s).max("seed"), "^:", ms=5, color=COLORS[s],
                label=f"{LABELS[s]}: largest |IPDV|")
    ix.axhline(be_tx, color="black", ls="--", lw=1.2, label=f"slides: max IPDV = 1 BE tx time ({be_tx:.2f} ms)")
    ix.set_ylim(0, 1.5 * max(be_tx, float(ds["ipdv_max"].max())))
    ix.set_xlabel("tx-ring-limit (particles of 512 bytes)")
    ix.set_ylabel("IPDV (ms)")
    ix.legend(loc="upper left", fontsize=8)
    ix.set_title("IPDV vs tx-ring-limit ('independent of the tx queue size')", fontsize=9.5)
    fig.suptitle(f"tftant_slides_ring: EF one-way delay and IPDV vs tx-ring-limit, {int(ds.ef_frame_bytes)}-byte EF "
                 "frames, with BE (TF-TANT slides, Tx queue)", fontsize=11)
    footer(fig, f"{_conditions(ds, ring=False)}; a BE packet takes "
                 f"{int(ds.be_particles)} particles; {_seeds(ds)}")
    return fig


def tftant_slides_star(ds: xr.Dataset):
    """Slides, "EF queue service rate": mean delay (log scale) and mean IPDV vs STAR under WFQ, PQ dashed.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.tftant_wfq.tftant_slides_star`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    ds = _ms(ds)
    fig, (ax, ix) = subplots(1, 2, figsize=(13, 5.4), footer=True)
    stars = ds["star"].values
    frames = ds["ef_frame_bytes"].values
    palette = sns.color_palette("viridis", frames.size)
    for c, f in zip(palette, frames):
        d = ds["delay_mean"].sel(ef_frame_bytes=f)
        ax.plot(stars, d, "o-", ms=4, color=c, label=f"WFQ, {int(f)} B")
        ax.axhline(float(ds["pq_delay_mean"].sel(ef_frame_bytes=f)), color=c, ls="--", lw=1)
        tag = float(ds["star_one_be_tag"].sel(ef_frame_bytes=f))
        if stars.min() <= tag <= stars.max():
            ax.plot([tag], [float(ds["pq_delay_mean"].sel(ef_frame_bytes=f))], "v", color=c, ms=9, mec="black")
        ix.plot(stars, ds["ipdv_mean"].sel(ef_frame_bytes=f), "o-", ms=4, color=c, label=f"WFQ, {int(f)} B")
    ax.plot([], [], "k--", lw=1, label="PQ (same colour)")
    ax.plot([], [], "v", color="0.5", mec="black", label="EF tag step = 1 BE tag step")
    ax.axvline(PAPER_STAR_PLATEAU, color="black", ls=":", lw=1.5, label="slides: no decrease above STAR 3")
    ax.axvspan(stars.min() - 0.1, stars.min() + 0.1, color="C3", alpha=0.12, label="EF queue overloaded (loss)")
    ax.set_yscale("log")
    ax.set_xlabel("STAR = EF service rate / EF arrival rate (WFQ weight / 300 kbit/s)")
    ax.set_ylabel("mean EF one-way delay (ms, log scale)")
    ax.legend(loc="upper right", fontsize=8, ncol=2)
    ax.set_title("one-way delay ('independent of STAR when pack size <= 256 by')", fontsize=10)
    be_tx = float(ds.be_tx_time)
    if 1024 in frames:
        ix.plot(stars, ds["ipdv_max"].sel(ef_frame_bytes=1024).max("seed"), "^:", color="C3", ms=5,
                label="WFQ, 1024 B: largest |IPDV|")
    ix.axhline(be_tx, color="black", ls="--", lw=1.2, label=f"slides: max IPDV = 1 BE tx time ({be_tx:.2f} ms)")
    top = max(be_tx, float(ds["ipdv_mean"].max()))
    if 1024 in frames:
        top = max(top, float(ds["ipdv_max"].sel(ef_frame_bytes=1024).max()))
    ix.set_ylim(0, 1.25 * top)
    ix.set_xlabel("STAR")
    ix.set_ylabel("IPDV (ms)")
    ix.legend(loc="upper right", fontsize=8)
    ix.set_title("IPDV vs STAR (slides, at 1024 bytes: 'ipdv independent of STAR')", fontsize=10)
    fig.suptitle("tftant_slides_star: EF one-way delay and IPDV vs service-to-arrival ratio under WFQ "
                 "(TF-TANT slides, EF queue service rate)", fontsize=11)
    footer(fig, f"{_conditions(ds)}; EF WFQ weight = STAR x 300 kbit/s, BE weight = the rest of 2 Mbit/s; "
                 f"PQ policed at {_kbps(ds, 'ef_service_rate'):g} kbit/s; {ds.sizes['seed']} seed(s)")
    return fig


def tftant_slides_no_be(ds: xr.Dataset, n_points: int = N_POINTS):
    """Slides: EF one-way delay over time with and without BE traffic.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.tftant_wfq.tftant_slides_no_be`.
    n_points : int
        EF packets shown (first seed).

    Returns
    -------
    matplotlib.figure.Figure
    """
    ds = _ms(ds)
    fig, ax = subplots(figsize=(9, 4.8), footer=True)
    seed = ds["seed"].values[0]
    for traffic, color in zip(ds["traffic"].values, ("C3", "C0")):
        t = ds["time"].sel(traffic=traffic, seed=seed).values[:n_points]
        y = ds["delay"].sel(traffic=traffic, seed=seed).values[:n_points]
        ax.plot(t, y, ".-", ms=4, lw=0.8, color=color,
                label=f"{traffic}: mean {float(ds['delay_mean'].sel(traffic=traffic).mean()):.2f} ms")
    ax.axhline(float(ds.uncongested_delay), color="black", ls=":", lw=1.2,
               label=f"EF line time + path = {float(ds.uncongested_delay):.2f} ms")
    ax.set_ylim(0, 1.3 * float(ds["delay_max"].max()))
    ax.set_xlabel("time after the warm-up (s)")
    ax.set_ylabel("EF one-way delay (ms)")
    legend_below(ax, ncol=3, frameon=False)
    sched = ds.attrs.get("scheduler", "pq").upper()
    fig.suptitle(f"tftant_slides_no_be: EF one-way delay over time with and without BE traffic, "
                 f"{sched} (TF-TANT slides)", fontsize=11)
    footer(fig, f"{int(ds.ef_frame_bytes)}-byte EF frames at {_kbps(ds, 'ef_rate'):g} kbit/s, EF service rate "
                 f"{_kbps(ds, 'ef_service_rate'):g} kbit/s, ring {int(ds.ring_limit_particles)}, EF queue "
                 f"{int(ds.ef_queue_limit)}; first {n_points} EF packets of seed {seed}")
    return fig
