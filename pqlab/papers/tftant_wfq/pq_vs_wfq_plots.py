"""What the figures of the PQ-vs-WFQ test bed share (TF-TANT page and slides): colours, footers,
panels.

The figures draw the Datasets' times in ms (:func:`in_ms_for_axes`; arrival times stay in s)
and their rates in kbit/s or Mbit/s. The sources' unit of every effect, the transmission time
of one BE packet ("BE tx time", 4.664 ms for 1000 bytes on the 2 Mbit/s ATM line), is drawn
where they state it.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...base.units import times_in_ms, to_mbps
from .. import kit
from .pq_vs_wfq_testbed import SOURCE_FRAME_SIZES, rate_kbps

__all__ = [
    "COLORS",
    "LABELS",
    "N_POINTS",
    "ci",
    "in_ms_for_axes",
    "conditions",
    "seeds_text",
    "source_sizes",
    "series_panels",
    "figure_legend",
]

#: Colours of the two schedulers ...
COLORS = {"pq": "C0", "wfq": "C1"}
#: ... and their names in legends.
LABELS = {"pq": "PQ", "wfq": "WFQ"}
#: EF packets shown in the over-time figures.
N_POINTS = 120


def ci(values) -> np.ndarray | None:
    """CI half-widths for error bars; None when every one is NaN (a single seed)."""
    return kit.ci_half_widths(values, none_if_all_nan=True)


def in_ms_for_axes(ds: xr.Dataset) -> xr.Dataset:
    """The Dataset with its times in ms for the axes, arrival times (``time``) kept in s."""
    return times_in_ms(ds, keep=("time",))


def conditions(ds: xr.Dataset, ring: bool = True) -> str:
    """The test conditions for a footer; ``ring=False`` leaves out the ring (when it is swept)."""
    return (
        f"EF {rate_kbps(ds, 'ef_rate'):g} kbit/s, BE {float(to_mbps(ds.be_rate)):g} Mbit/s of "
        f"{int(ds.be_ip_bytes)}-byte packets, {float(to_mbps(ds.line_rate)):g} Mbit/s ATM"
        + (f", ring {int(ds.ring_limit_particles)} particles" if ring else "")
        + f", EF queue {int(ds.ef_queue_limit)}"
    )


def seeds_text(ds: xr.Dataset) -> str:
    """``"1 seed"`` or ``"n seeds"`` for a footer, with ``", 95% CI"`` when there are several."""
    n = ds.sizes["seed"]
    return kit.seed_count(n) + (", 95% CI" if n > 1 else "")


def source_sizes(ax, frames) -> None:
    """Dotted vertical lines at the frame sizes the sources name (:data:`SOURCE_FRAME_SIZES`) among
    ``frames``."""
    for f in SOURCE_FRAME_SIZES:
        if f in frames:
            ax.axvline(f, color="0.75", lw=0.8, ls=":", zorder=0)


def series_panels(ds: xr.Dataset, var: str, ylabel: str, n_points: int):
    """One panel per EF frame size of ``var`` over time (first seed, first ``n_points`` packets), PQ
    and WFQ.

    Returns
    -------
    tuple
        ``(fig, axes, frames, seed)``.
    """
    frames = ds["ef_frame_bytes"].values
    fig, axes = kit.subplots(
        1, frames.size, figsize=(4.6 * frames.size, 4.6), footer=True, squeeze=False
    )
    seed = ds["seed"].values[0]
    for ax, f in zip(axes[0], frames):
        t = ds["time"].sel(ef_frame_bytes=f, seed=seed).values[:n_points]
        for s in ds["scheduler"].values:
            y = ds[var].sel(scheduler=s, ef_frame_bytes=f, seed=seed).values[:n_points]
            # PQ wide and pale underneath, WFQ thin on top: where they coincide both stay visible
            style = (
                dict(lw=3.2, alpha=0.45, marker=None)
                if s == "pq"
                else dict(lw=0.9, marker=".", ms=3)
            )
            ax.plot(
                t,
                y,
                color=COLORS[s],
                label=LABELS[s] + (" (wide, underneath)" if s == "pq" else ""),
                **style,
            )
        ax.set_xlabel("time after the warm-up (s)")
        ax.set_ylabel(ylabel)
        ax.set_title(f"EF frames of {int(f)} bytes", fontsize=10)
    return fig, axes[0], frames, seed


def figure_legend(fig, axes) -> None:
    """One legend for all panels, under them (each label once)."""
    seen = {}
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(lab, h)
    fig.get_layout_engine().set(
        rect=(0, 0.1, 1, 0.9)
    )  # room for the legend and, under it, the footer
    fig.legend(
        list(seen.values()),
        list(seen),
        loc="lower center",
        bbox_to_anchor=(0.5, 0.035),
        ncol=len(seen),
        fontsize=9,
        frameon=False,
    )
