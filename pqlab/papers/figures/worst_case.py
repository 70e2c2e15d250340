"""Figure of the gap analysis (why GLOBECOM'01 Table IV's W_m differs from ours).

:func:`gap_table_iv` takes the Dataset of :func:`pqlab.papers.artefacts.gap.gap_table_iv` and
returns a matplotlib Figure; nothing is simulated here.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import seaborn as sns
import xarray as xr
from matplotlib.colors import TwoSlopeNorm

from ..artefacts.gap import best_per_hypothesis
from . import subplots
from ...base.units import to_ms, to_us
from ._common import ci_half_widths

__all__ = ["gap_table_iv"]

_PAPER = dict(color="black", marker="D", ls="none", ms=7, zorder=5)


def gap_table_iv(ds: xr.Dataset):
    """The gap analysis: W_m per k for each hypothesis's best setting, and every case's errors.

    Left: the paper's W_m and, per hypothesis, the W_m of its best setting in
    the swept grid (dashed: not physically plausible). Right: relative error of
    every case (rows) for each W_m and Table III's A = 0 mean (columns).

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.gap.gap_table_iv`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    n_case = ds.sizes["case"]
    fig, (ax, hm) = subplots(1, 2, figsize=(15, max(8.0, 0.5 * n_case + 2.5)),
                             gridspec_kw={"width_ratios": [1.0, 1.2]})
    k = ds["k"].values
    # best case of each hypothesis; hypotheses whose best cases give the same W_m share one line
    lines: dict[tuple, list[str]] = {}
    for best in best_per_hypothesis(ds).values():
        key = tuple(np.round(to_us(ds["w_m_mean"].sel(case=best).values), 0))
        lines.setdefault(key, []).append(best)
    palette = sns.color_palette("tab10", len(lines))
    for color, names in zip(palette, lines.values()):
        first = names[0]
        plausible = any(bool(ds["plausible"].sel(case=c)) for c in names)
        star = "" if plausible else " *"
        lw = 3.0 if ds.attrs.get("best_case") in names else 1.5
        ax.errorbar(k, to_ms(ds["w_m_mean"].sel(case=first)), yerr=to_ms(ci_half_widths(ds["w_m_ci"].sel(case=first))),
                    marker="o", ms=5, lw=lw, ls="-" if plausible else "--", color=color, capsize=3,
                    label=" = ".join(names) + star)
    ax.plot(k, to_ms(ds["paper_w_m"]), label="paper $W_m$ (Table IV)", lw=2, **{**_PAPER, "ls": "-"})
    ax.set_xticks(k, [f"k = {v}" for v in k])
    ax.set_xlabel("transmission units per BE packet")
    ax.set_ylabel("$W_m$: mean EF one-way delay (ms)")
    # below the axes, in two columns: inside, it covered the lines it names
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2,
              title="best setting per hypothesis (* = implausible, dashed)")
    ax.set_title("Table IV $W_m$: paper vs hypotheses")

    cols = [f"W_m k={v}" for v in k]
    err = np.column_stack([ds["rel_err"].transpose("case", "k").values, ds["tab3_rel_err"].values])
    labels = [f"{c}{'' if p else ' *'}" for c, p in zip(ds["case"].values, ds["plausible"].values)]
    sns.heatmap(err, ax=hm, cmap="RdBu_r", norm=TwoSlopeNorm(0.0, -80.0, 80.0), annot=True, fmt=".0f",
                annot_kws={"fontsize": 11}, xticklabels=[*cols, "Tab III A=0"], yticklabels=labels,
                cbar_kws={"label": "(ours - paper) / paper (%)", "extend": "both"})
    best = list(ds["case"].values).index(ds.attrs.get("best_case"))
    hm.add_patch(plt.Rectangle((0, best), err.shape[1], 1, fill=False, edgecolor="black", lw=2))
    hm.set_xlabel("claim")
    hm.set_ylabel("case (* = not physically plausible)")
    hm.tick_params(axis="y", labelsize=11, rotation=0)
    hm.set_title("relative error of every swept case (Tab III: stand-in 'real' BE sizes)")
    fig.suptitle("gap_table_iv: which hypothesis explains GLOBECOM'01 Table IV $W_m$ (and Table III)?")
    return fig
