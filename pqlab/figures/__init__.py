"""Plotting functions (seaborn); notebooks and the CLI call these, never plot by hand.

Common helpers live here; one submodule per paper section holds that section's
figures (``background``, ``aggregation``, ``worst_case``), each function named
after the artefact id it draws.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns


def delay_distribution(delay_s, *, unit_s: float, bound_s: float | None = None, title: str = ""):
    """EF delay frequency distribution and complementary distribution, in transmission units.

    Parameters
    ----------
    delay_s : array_like of float
        Delay samples, seconds (NaN, i.e. lost packets, are ignored).
    unit_s : float
        One transmission unit, seconds (0.636 ms for a 128-byte EF packet on the ATM line).
    bound_s : float, optional
        An analytical bound (e.g. Table IV's W) drawn as a vertical line, seconds.
    title : str
        Figure title.

    Returns
    -------
    matplotlib.figure.Figure
        Left: frequency distribution (probability per bin); right: P(D > d), log scale.
    """
    d = np.asarray(delay_s, dtype=float)
    d = d[np.isfinite(d)]
    frame = pd.DataFrame({"delay (transmission units)": d / unit_s})
    sns.set_theme(style="whitegrid", context="notebook")
    fig, (ax_f, ax_c) = plt.subplots(1, 2, figsize=(10, 3.8), constrained_layout=True)
    sns.histplot(frame, x="delay (transmission units)", stat="probability", binwidth=0.5, ax=ax_f)
    ax_f.set_ylabel("frequency")
    sns.ecdfplot(frame, x="delay (transmission units)", complementary=True, ax=ax_c)
    ax_c.set_yscale("log")
    ax_c.set_ylim(max(0.5 / max(d.size, 1), 1e-5), 1.05)
    ax_c.set_ylabel("P(D > d)")
    if bound_s is not None:
        for ax in (ax_f, ax_c):
            ax.axvline(bound_s / unit_s, color="C3", ls="--", label="Table IV bound W")
        ax_c.legend(loc="lower left")
    if title:
        fig.suptitle(title)
    return fig


def save(fig, stem) -> list:
    """Write ``fig`` as ``<stem>.png`` and ``<stem>.pdf``; return the paths written."""
    paths = []
    for ext in ("png", "pdf"):
        path = f"{stem}.{ext}"
        fig.savefig(path, dpi=150)
        paths.append(path)
    plt.close(fig)
    return paths
