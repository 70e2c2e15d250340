"""The DiffServ lab's figures (seaborn, pqlab's theme): EF delay under PQ, WFQ and DRR; AF drops per
colour.

Each function takes the tables of :mod:`pqlab.lab.diffserv` and returns a matplotlib Figure;
the notebook shows it, :class:`pqlab.lab.panel.Panel` redraws it from sliders. Delays in ms,
loads in Mbit/s of IP packets, drop fractions as shares of the packets offered (1).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import seaborn as sns

from ..base.units import to_ms
from ..papers import kit
from . import diffserv, panel

__all__ = [
    "SCHEDULER_COLORS",
    "SCHEDULER_LABELS",
    "COLOUR_COLORS",
    "ef_delay_figure",
    "af_drop_figure",
    "ef_redraw",
    "ef_controls",
    "interactive_ef",
]

#: One colour per scheduler, and its name in legends.
SCHEDULER_COLORS = {"pq": "C0", "wfq": "C1", "drr": "C2"}
SCHEDULER_LABELS = {"pq": "PQ", "wfq": "WFQ", "drr": "DRR"}
#: The colours of the drop precedences, drawn in those colours (yellow darkened to stay legible).
COLOUR_COLORS = {"green": "#2ca02c", "yellow": "#c9a100", "red": "#d62728"}


def two_panels():
    """A figure of two panels side by side in pqlab's theme, with fixed margins for a two-line
    title:
    no layout engine, so a slider's redraw does not solve the layout again (0.4 s of a 0.7-s
    render).
    """
    import matplotlib.pyplot as plt

    kit.set_theme()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4))
    fig.subplots_adjust(left=0.07, right=0.98, bottom=0.13, top=0.85, wspace=0.22)
    return fig, axes


def ef_delay_figure(
    delays: pd.DataFrame,
    *,
    pq_bound_ms: float | None = None,
    drr_bound_ms: float | None = None,
    title: str = "",
):
    """EF node delay per scheduler: frequency distribution and ``P(D > d)``.

    Parameters
    ----------
    delays : pandas.DataFrame
        :func:`pqlab.lab.diffserv.ef_delays` (``scheduler``, ``delay_ms``; lost packets, NaN,
        are left out and counted in the legend).
    pq_bound_ms, drr_bound_ms : float, optional
        :func:`pqlab.lab.diffserv.pq_bound_s` and ``drr_bound_s`` in ms, drawn as dashed lines.
    title : str
        Figure title (the conditions).

    Returns
    -------
    matplotlib.figure.Figure
        Left: probability per 1-ms bin; right: ``P(D > d)``, log scale. The legend gives each
        scheduler's mean, maximum and loss.
    """
    kept = delays[np.isfinite(delays["delay_ms"])]
    order = [s for s in diffserv.SCHEDULERS if s in set(delays["scheduler"])]
    summary = diffserv.ef_summary(delays)
    fig, (ax_f, ax_c) = two_panels()
    top = float(kept["delay_ms"].max()) if len(kept) else 1.0
    top = max(top, pq_bound_ms or 0.0, drr_bound_ms or 0.0) * 1.05 + 1.0
    for i, s in enumerate(order):
        label = (
            f"{SCHEDULER_LABELS[s]}: mean {summary.at[s, 'mean_ms']:.1f}, max"
            f" {summary.at[s, 'max_ms']:.1f} ms"
            + (
                f", loss {summary.at[s, 'loss_ratio']:.1%}"
                if summary.at[s, "loss_ratio"] > 0
                else ""
            )
        )
        # the first scheduler wide and pale underneath: a curve equal to it stays visible on top
        style = dict(lw=4.0, alpha=0.45) if i == 0 else dict(lw=1.4)
        values = kept.loc[kept["scheduler"] == s, "delay_ms"]
        if values.empty:
            continue
        sns.histplot(
            x=values,
            stat="probability",
            binwidth=1.0,
            binrange=(0.0, top),
            element="step",
            fill=False,
            color=SCHEDULER_COLORS[s],
            ax=ax_f,
            **style,
        )
        sns.ecdfplot(
            x=values, complementary=True, color=SCHEDULER_COLORS[s], label=label, ax=ax_c, **style
        )
    ax_c.legend(fontsize=8, loc="lower left")
    ax_c.set_yscale("log")
    smallest = 1.0 / max(int(kept.groupby("scheduler").size().max()) if len(kept) else 1, 1)
    ax_c.set_ylim(max(0.5 * smallest, 1e-5), 1.1)
    for ax in (ax_f, ax_c):
        ax.set_xlim(0.0, top)
        ax.set_xlabel("EF node delay (ms)")
        for value, name in ((pq_bound_ms, "PQ bound"), (drr_bound_ms, "DRR bound")):
            if value is not None:
                ax.axvline(value, color="0.3", ls="--" if name == "PQ bound" else ":", lw=1.2)
                ax.text(
                    value,
                    0.98,
                    f" {name} {value:.1f} ms",
                    transform=ax.get_xaxis_transform(),
                    ha="left",
                    va="top",
                    fontsize=8,
                    color="0.3",
                    rotation=90,
                )
    ax_f.set_ylabel("probability per 1-ms bin")
    ax_c.set_ylabel("P(delay > d)")
    if title:
        fig.suptitle(title, fontsize=10)
    return fig


def af_drop_figure(
    drops: pd.DataFrame,
    *,
    cir_mbps: float | None = None,
    pir_mbps: float | None = None,
    title: str = "",
):
    """AF drop fraction per colour (and best effort's) against the offered AF load, with the colour
    mix.

    Parameters
    ----------
    drops : pandas.DataFrame
        :func:`pqlab.lab.diffserv.af_colour_drops`.
    cir_mbps, pir_mbps : float, optional
        The class's committed and peak rates, Mbit/s, drawn as vertical lines.
    title : str
        Figure title.

    Returns
    -------
    matplotlib.figure.Figure
        Left: share of each colour's packets dropped (and best effort's, grey); right: share of
        the AF packets the markers coloured green, yellow and red.
    """
    fig, (ax_d, ax_m) = two_panels()
    sns.lineplot(
        drops,
        x="af_load_mbps",
        y="drop_fraction",
        hue="colour",
        hue_order=list(COLOUR_COLORS),
        palette=COLOUR_COLORS,
        marker="o",
        ax=ax_d,
    )
    be = drops.drop_duplicates("af_load_mbps")
    ax_d.plot(
        be["af_load_mbps"],
        be["be_drop_fraction"],
        color="0.5",
        ls="--",
        marker="s",
        ms=4,
        label="best effort",
    )
    sns.lineplot(
        drops,
        x="af_load_mbps",
        y="offered_share",
        hue="colour",
        hue_order=list(COLOUR_COLORS),
        palette=COLOUR_COLORS,
        marker="o",
        ax=ax_m,
        legend=False,
    )
    for ax in (ax_d, ax_m):
        ax.set_xlabel("offered AF load (Mbit/s of IP packets)")
        ax.set_ylim(-0.02, 1.02)
        for value, name in ((cir_mbps, "CIR"), (pir_mbps, "PIR")):
            if value is not None:
                ax.axvline(value, color="0.4", ls=":", lw=1)
                ax.text(
                    value,
                    1.0,
                    f" {name}",
                    transform=ax.get_xaxis_transform(),
                    fontsize=8,
                    color="0.3",
                    va="top",
                )
    ax_d.set_ylabel("share of the packets dropped")
    ax_m.set_ylabel("share of the AF packets offered")
    ax_d.legend(title=None, fontsize=8, loc="center right")
    if title:
        fig.suptitle(title, fontsize=10)
    return fig


def ef_redraw(
    *,
    ef_frame_bytes: int = 1024,
    be_quantum_bytes: int | None = None,
    n_ef_samples: int = 2_000,
    seed: int = 1,
):
    """Run the three schedulers (:func:`pqlab.lab.diffserv.ef_delays`) and
    draw :func:`ef_delay_figure`.

    The sliders of the notebook call this: EF frame size (bytes) and the DRR quantum of BE (bytes;
    None: :func:`pqlab.lab.diffserv.drr_quanta`'s).
    """
    delays = diffserv.ef_delays(
        ef_frame_bytes=ef_frame_bytes,
        be_quantum_bytes=be_quantum_bytes,
        n_ef_samples=n_ef_samples,
        seed=seed,
    )
    pq = diffserv.pq_bound_s(ef_frame_bytes=ef_frame_bytes)
    drr = diffserv.drr_bound_s(ef_frame_bytes=ef_frame_bytes, be_quantum_bytes=be_quantum_bytes)
    quantum_ef, quantum = (
        q.quantum_bytes
        for q in diffserv.ef_node(
            "drr", ef_frame_bytes=ef_frame_bytes, be_quantum_bytes=be_quantum_bytes
        ).queues
    )
    return ef_delay_figure(
        delays,
        pq_bound_ms=to_ms(pq),
        drr_bound_ms=to_ms(drr),
        title=(
            f"EF {ef_frame_bytes}-byte frames at 300 kbit/s behind 2 Mbit/s of 1000-byte BE "
            f"on 2 Mbit/s ATM, ring 5 particles, {n_ef_samples:,} EF packets\n"
            "EF service rate 400 kbit/s (PQ policer, WFQ weight, DRR quanta ratio), "
            f"DRR quanta EF {quantum_ef} B, BE {quantum} B"
        ),
    )


def ef_controls(*, ef_frame_bytes: int = 1024, be_quantum_bytes: int = 4_000) -> dict:
    """ipywidgets sliders of :func:`ef_redraw`: EF frame (64..1472 bytes) and DRR BE quantum
    (500..8000 bytes)."""
    import ipywidgets as w

    style, layout = {"description_width": "160px"}, w.Layout(width="480px")
    return {
        "ef_frame_bytes": w.IntSlider(
            value=ef_frame_bytes,
            min=64,
            max=1472,
            step=64,
            description="EF frame (B)",
            style=style,
            layout=layout,
            continuous_update=False,
        ),
        "be_quantum_bytes": w.IntSlider(
            value=be_quantum_bytes,
            min=500,
            max=8_000,
            step=500,
            description="DRR BE quantum (B)",
            style=style,
            layout=layout,
            continuous_update=False,
        ),
    }


def interactive_ef(
    interactive: bool = True,
    *,
    ef_frame_bytes: int = 1024,
    be_quantum_bytes: int = 4_000,
    n_ef_samples: int = 2_000,
    seed: int = 1,
):
    """Sliders over :func:`ef_redraw` (a :class:`pqlab.lab.panel.Panel`); ``interactive=False``
    draws once.

    Returns the displayed panel, or the figure when drawn once (papermill, tests; or without
    ipywidgets, said in one line).
    """
    fixed = dict(n_ef_samples=n_ef_samples, seed=seed)
    return panel.interactive(
        interactive,
        lambda: panel.Panel(
            ef_controls(ef_frame_bytes=ef_frame_bytes, be_quantum_bytes=be_quantum_bytes),
            ef_redraw,
            **fixed,
        ),
        lambda: ef_redraw(
            ef_frame_bytes=ef_frame_bytes, be_quantum_bytes=be_quantum_bytes, **fixed
        ),
    )
