"""Plotting functions (seaborn); notebooks and the CLI call these, never plot by hand.

Common helpers live here (the theme, a new figure, a legend below the axes,
saving); one submodule per paper section holds that section's figures
(``background``, ``aggregation``, ``worst_case``), each function named after the
artefact id it draws.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from .. import records


#: Axes made by :func:`subplots` place their titles at a fixed height (just above the axes)
#: instead of matplotlib's automatic placement, which measures every tick label of the axes
#: (and of its siblings) each time a figure is drawn: 3 of 27 s of drawing the reproduction's
#: figures (2026-11-23). The same pictures, pixel for pixel, except where an axis has ticks or
#: a label on top (``subplots(top_axis=True)`` keeps the automatic placement there).
FIXED_TITLE_RC = {"axes.titley": 1.0}


def set_theme() -> None:
    """The seaborn theme of every pqlab figure."""
    sns.set_theme(style="whitegrid", context="notebook")


def subplots(nrows: int = 1, ncols: int = 1, *, figsize, footer: bool = False, top_axis: bool = False, **kwargs):
    """A new figure in the pqlab theme: ``plt.subplots`` with constrained layout.

    Parameters
    ----------
    nrows, ncols : int
        Grid of axes.
    figsize : tuple of float
        Inches.
    footer : bool
        Keep the bottom 4% free for a note written with ``fig.text``.
    top_axis : bool
        An axes will get ticks or a label on top (``secondary_xaxis("top")``): its title is
        placed above them automatically (see :data:`FIXED_TITLE_RC`).
    **kwargs
        Passed to :func:`matplotlib.pyplot.subplots` (``width_ratios``, ``gridspec_kw``, ...).

    Returns
    -------
    (matplotlib.figure.Figure, axes)
    """
    set_theme()
    with plt.rc_context({} if top_axis else FIXED_TITLE_RC):  # read when the axes are made
        fig, axes = plt.subplots(nrows, ncols, figsize=figsize, constrained_layout=True, **kwargs)
    if footer:
        fig.get_layout_engine().set(rect=(0, 0.04, 1, 0.96))
    return fig, axes


def legend_below(ax, ncol: int = 1, fontsize: float = 8, **kwargs):
    """A legend centred under ``ax`` (below its x label)."""
    return ax.legend(fontsize=fontsize, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=ncol, **kwargs)


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
    fig, (ax_f, ax_c) = subplots(1, 2, figsize=(10, 3.8))
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


def in_kernel() -> bool:
    """True inside a Jupyter kernel (JupyterLab, papermill, nbconvert), False in plain Python or a terminal IPython."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def save(fig, stem) -> list:
    """Write ``fig`` as ``<stem>.png`` and ``<stem>.pdf``, show it inline in a notebook, close it.

    Inside a Jupyter kernel (:func:`in_kernel`) the PNG written is displayed before the
    figure is closed, so every notebook that saves a figure also shows it (in JupyterLab
    and in papermill's executed notebook, under any matplotlib backend); the output's metadata
    ``{"pqlab": {"figure": <file name without extension>}}`` says which file it is.
    Returns the paths written.
    """
    paths = [f"{stem}.png", f"{stem}.pdf"]
    fig.savefig(paths[0], dpi=150)
    # The layout solved for the PNG is kept for the PDF (the same figure in figure coordinates):
    # solving it again costs as much as drawing (0.7 s of 1.9 s for the largest figure).
    fig.set_layout_engine("none")
    fig.savefig(paths[1], dpi=150)
    if in_kernel():
        from IPython.display import Image, display

        # the PNG just written (whatever the kernel's matplotlib backend); the metadata names
        # the file, so a test can match inline figures with saved ones
        display(Image(filename=paths[0]), metadata={"pqlab": {"figure": Path(stem).name}})
    plt.close(fig)
    return paths


def save_and_record(fig, artefact: str, figures_dir, results_dir, *, stem: str | None = None) -> list:
    """:func:`save` ``fig`` as ``<figures_dir>/<stem or artefact>`` and record the files under ``artefact``.

    The files are recorded with :func:`pqlab.papers.records.record_figure` in ``results_dir``;
    returns the paths written (PNG first).
    """
    paths = save(fig, Path(figures_dir) / (stem or artefact))
    records.record_figure(results_dir, artefact, paths)
    return paths
