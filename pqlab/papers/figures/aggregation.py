"""Figures of EF aggregation and EF frame size (GLOBECOM'01 Sec. V; long version Sec. 6 and 7).

One function per artefact id, each taking the Dataset of the compute function of the
same name in :mod:`pqlab.papers.artefacts.aggregation` and returning a Figure. Delays are
drawn in transmission units (0.636 ms, the line time of a 128-byte EF frame). Where a
figure compares with the paper, ``paper_values`` is the DataFrame of
:func:`pqlab.pipeline.report.load_paper_values` (omit it to draw ours only).
"""

from __future__ import annotations

import numpy as np
import seaborn as sns

from ..artefacts._common import mean_ci, paper_value
from ..artefacts.aggregation import a_key, a_text
from . import legend_below, subplots
from ...base.units import to_kbps, to_ms, to_us
from ._common import footer

STAND_IN_NOTE = "BE sizes: stand-in 'real' distribution (not the papers' trace), one size per BE stream"
_MTU_LABEL = "pqlab, deterministic 1500-byte BE (A = 0)"


def _paper(paper_values, artefact: str, quantity: str):
    """The paper's value of ``(artefact, quantity)`` or None (no ``paper_values``, no row, or qualitative)."""
    if paper_values is None:
        return None
    value = paper_value(artefact, quantity, paper_values)[0]
    return None if np.isnan(value) else value


def _paper_series(paper_values, artefact: str, quantities) -> np.ndarray:
    """The paper's values of several quantities, NaN where there is none."""
    values = [_paper(paper_values, artefact, q) for q in quantities]
    return np.array([np.nan if v is None else v for v in values])


def _plot_paper(ax, x, y, label: str) -> None:
    """The paper's values as red diamonds joined by a line, where it has them."""
    have = np.isfinite(y)
    if have.any():
        ax.plot(np.asarray(x)[have], y[have], "D-", color="C3", label=label)


def _bins(ds, bin_dim: str):
    """The transmission unit (s), the bin width and the left bin edges of ``bin_dim`` in units."""
    unit = ds.attrs["transmission_unit_s"]
    return unit, ds.attrs["bin_width_s"] / unit, ds[bin_dim].values / unit


def _a_label(ds, i) -> str:
    a = ds["aggregation_degree"].values[i]
    return f"A = {a_text(a)} (ref. {to_kbps(ds['ref_rate_bps'].values[i]):g} kbit/s)"


def _palette(n):
    return sns.color_palette("viridis", n)


def _footer(fig, ds, extra: str = "", pooled: bool = True) -> None:
    seeds = ds.attrs.get("n_seeds", ds.sizes.get("seed", 1))
    text = f"{STAND_IN_NOTE}; {seeds} seed(s)" + (", distributions pooled over seeds" if pooled else "")
    footer(fig, text + (f"; {extra}" if extra else ""))


def _errorbar_vs(ax, x, ds, name, convert, color="C0", label="pqlab (mean, 95% CI over seeds)"):
    """Per-seed values, their mean and CI of ``name`` (seconds) against ``x``, converted by ``convert``."""
    mean, half = convert(ds[f"{name}_mean"].values), convert(ds[f"{name}_ci"].values)
    for j in range(ds.sizes["seed"]):
        ax.plot(x, convert(ds[name].values[:, j]), "o", color=color, alpha=0.3, ms=4,
                label="pqlab, one seed each" if j == 0 else None)
    ax.errorbar(x, mean, yerr=None if np.all(np.isnan(half)) else half, fmt="-s", color=color, capsize=4,
                label=label)


def globecom01_fig7(ds):
    """EF one-way delay frequency distribution (left) and CCDF (right) per Aggregation Degree.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.aggregation.globecom01_fig7`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    unit, width, edges = _bins(ds, "delay_bin")
    fig, (ax_f, ax_c) = subplots(1, 2, figsize=(12, 4.6), footer=True)
    colors = _palette(ds.sizes["aggregation_degree"])
    for i in range(ds.sizes["aggregation_degree"]):
        p = ds["frequency"].values[i]
        ax_f.step(np.r_[edges, edges[-1] + width], np.r_[p, 0.0], where="post", color=colors[i], label=_a_label(ds, i))
        thr = ds["threshold"].values / unit
        for j in range(ds.sizes["seed"]):
            ax_c.plot(thr, ds["ccdf_seed"].values[i, j], color=colors[i], lw=0.8, alpha=0.35)
        ax_c.plot(thr, ds["ccdf"].values[i], color=colors[i], lw=2, label=_a_label(ds, i))
    last = edges[np.flatnonzero(ds["frequency"].values.max(axis=0) > 0).max()] + 2 * width
    ax_f.set_xlim(0, last)
    ax_f.set_xlabel(f"one-way delay (transmission units of {to_ms(unit):.3f} ms)")
    ax_f.set_ylabel(f"frequency (bins of {width:g} units)")
    ax_f.set_title("Fig. 7-1: frequency distribution")
    ax_f.legend(fontsize=8)
    n = np.isfinite(ds["delay"].values[0]).sum()
    ax_c.set_yscale("log")
    ax_c.set_ylim(max(0.5 / max(n, 1), 1e-5), 1.05)
    ax_c.set_xlim(0, last)
    ax_c.set_xlabel(f"delay threshold d (transmission units of {to_ms(unit):.3f} ms)")
    ax_c.set_ylabel("P(D > d)")
    ax_c.set_title("Fig. 7-2: complementary distribution (thin: per seed)")
    ax_c.legend(fontsize=8, loc="lower left")
    fig.suptitle("globecom01_fig7: EF one-way delay vs Aggregation Degree A (EF aggregate 300 kbit/s)")
    _footer(fig, ds)
    return fig


def globecom01_tab3(ds, paper_values=None):
    """Mean one-way delay vs Aggregation Degree: ours against Table III (left), change from A = 0 (right).

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.aggregation.globecom01_tab3`.
    paper_values : pandas.DataFrame, optional
        :func:`pqlab.pipeline.report.load_paper_values`; adds the paper's Table III.

    Returns
    -------
    matplotlib.figure.Figure
    """
    a = ds["aggregation_degree"].values
    fig, (ax, ax_d) = subplots(1, 2, figsize=(12, 4.6), footer=True)
    _errorbar_vs(ax, a, ds, "delay_mean", to_ms)
    ax.plot(a, to_ms(ds["node_delay_mean_mean"].values), "^--", color="C2",
            label="pqlab node part (departure - arrival)")
    ax.axhline(to_ms(ds.attrs["path_delay_ef_s"]), color="0.5", ls=":", label="pqlab path part (2 ATM hops)")
    if "mtu_delay_mean" in ds:
        ax.axhline(to_ms(float(ds["mtu_delay_mean"].mean())), color="C4", ls="-.", label=_MTU_LABEL)
    paper = _paper_series(paper_values, "globecom01_tab3", [f"mean_delay_{a_key(v)}" for v in a])
    _plot_paper(ax, a, paper, "paper, Table III")
    ax.set_xlabel("Aggregation Degree A")
    ax.set_ylabel("mean one-way delay (ms)")
    ax.set_ylim(0, None)
    ax.set_title("Table III: mean one-way delay")
    legend_below(ax, ncol=2)
    # change from A = 0, paired within seeds (same BE mix)
    i0 = int(np.argmin(a))
    diff = to_ms(ds["delay_mean"].values - ds["delay_mean"].values[i0])
    mean, half = mean_ci(diff)
    for j in range(diff.shape[1]):
        ax_d.plot(a, diff[:, j], "o", color="C0", alpha=0.3, ms=4, label="pqlab, one seed each" if j == 0 else None)
    ax_d.errorbar(a, mean, yerr=None if np.all(np.isnan(half)) else half, fmt="-s", color="C0", capsize=4,
                  label="pqlab (mean, 95% CI, paired seeds)")
    _plot_paper(ax_d, a, paper - paper[i0], "paper, Table III")
    ax_d.axhline(0, color="0.3", lw=0.8)
    ax_d.set_xlabel("Aggregation Degree A")
    ax_d.set_ylabel("change of mean delay from A = 0 (ms)")
    ax_d.set_title("Trend with A")
    legend_below(ax_d, ncol=2)
    fig.suptitle("globecom01_tab3: average EF one-way delay vs Aggregation Degree A")
    _footer(fig, ds, pooled=False, extra="paired: one seed gives the same BE mix at every A")
    return fig


def long_ipdv_vs_a(ds, paper_values=None):
    """|IPDV| distributions per A with their peaks (left), mean |IPDV| (middle), max |IPDV| (right).

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.aggregation.long_ipdv_vs_a`.
    paper_values : pandas.DataFrame, optional
        :func:`pqlab.pipeline.report.load_paper_values`; adds the paper's values.

    Returns
    -------
    matplotlib.figure.Figure
    """
    unit, width, edges = _bins(ds, "ipdv_bin")
    a = ds["aggregation_degree"].values
    fig, (ax_f, ax_m, ax_x) = subplots(1, 3, figsize=(15, 4.6), footer=True, gridspec_kw={"width_ratios": [2, 1, 1]})
    colors = _palette(len(a))
    for i in range(len(a)):
        p = ds["frequency"].values[i]
        ax_f.step(np.r_[edges, edges[-1] + width], np.r_[p, 0.0], where="post", color=colors[i], lw=1,
                  label=f"{_a_label(ds, i)}: {int(ds['n_peaks'].values[i])} peak(s), "
                        f"log scale {int(ds['n_peaks_log'].values[i])}")
        centers = edges + width / 2
        ax_f.plot(centers, ds["smoothed"].values[i], color=colors[i], lw=2, alpha=0.6)
        peaks = ds["is_peak"].values[i]
        ax_f.plot(centers[peaks], ds["smoothed"].values[i][peaks] * 1.6, "v", color=colors[i], ms=9, mec="k")
        if "is_peak_log" in ds:
            peaks = ds["is_peak_log"].values[i]
            ax_f.plot(centers[peaks], ds["smoothed"].values[i][peaks] * 1.6, "v", color=colors[i], ms=9, mfc="none",
                      mec=colors[i], mew=1.5)
    ax_f.set_yscale("log")
    ax_f.set_ylim(1e-4, 1)
    ax_f.set_xlim(0, edges[np.flatnonzero(ds["frequency"].values.max(axis=0) > 0).max()] + 2 * width)
    ax_f.set_xlabel(f"|IPDV| (transmission units of {to_ms(unit):.3f} ms)")
    ax_f.set_ylabel(f"frequency (bins of {width:g} units, log)")
    ax_f.set_title("|IPDV| distribution (thick: smoothed; filled: peaks, hollow: log-scale peaks)", fontsize=11)
    ax_f.legend(fontsize=8)
    _errorbar_vs(ax_m, a, ds, "jitter_mean", to_ms)
    paper = _paper_series(paper_values, "long_ipdv_vs_a", [f"mean_ipdv_{a_key(v)}" for v in a])
    _plot_paper(ax_m, a, paper, "paper, Sec. 6.2")
    if "mtu_jitter_mean" in ds:
        ax_m.axhline(to_ms(float(ds["mtu_jitter_mean"].mean())), color="C4", ls="-.", label=_MTU_LABEL)
    ax_m.set_ylim(0, None)
    ax_m.set_xlabel("Aggregation Degree A")
    ax_m.set_ylabel("mean |IPDV| (ms)")
    ax_m.set_title("average IPDV (= mean |IPDV|)")
    legend_below(ax_m)
    _errorbar_vs(ax_x, a, ds, "jitter_max", lambda seconds: seconds * (1.0 / unit))  # in transmission units
    top = _paper(paper_values, "long_ipdv_vs_a", "max_ipdv")
    if top is not None:
        ax_x.axhline(top, color="C3", ls="--", label="paper: about 30 units")
    if "mtu_jitter_max" in ds:
        ax_x.axhline(float(ds["mtu_jitter_max"].mean()) / unit, color="C4", ls="-.", label=_MTU_LABEL)
    ax_x.set_ylim(0, None)
    ax_x.set_xlabel("Aggregation Degree A")
    ax_x.set_ylabel(f"max |IPDV| (units of {to_ms(unit):.3f} ms)")
    ax_x.set_title("maximum |IPDV| per run")
    legend_below(ax_x)
    fig.suptitle("long_ipdv_vs_a: |IPDV| (jitter, the papers' 'ipdv'; RFC 3393 IPDV in absolute value) of the "
                 "reference stream vs Aggregation Degree A")
    _footer(fig, ds)
    return fig


def long_fig7_tab3(ds, paper_values=None):
    """|IPDV| distribution per EF frame size (left) and standard deviation of |IPDV| (right).

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.aggregation.long_fig7_tab3`.
    paper_values : pandas.DataFrame, optional
        :func:`pqlab.pipeline.report.load_paper_values`; adds the paper's values.

    Returns
    -------
    matplotlib.figure.Figure
    """
    unit, width, edges = _bins(ds, "ipdv_bin")
    frames = ds["ef_frame_bytes"].values
    fig, (ax_f, ax_s) = subplots(1, 2, figsize=(12, 4.6), footer=True)
    colors = _palette(len(frames))
    n = len(frames)
    last = np.flatnonzero(ds["frequency"].values.max(axis=0) >= 1e-3).max() + 2
    for i, f in enumerate(frames):
        ax_f.bar(edges[:last] + width * (i + 0.5) / n, ds["frequency"].values[i, :last], width=width / n,
                 color=colors[i],
                 label=f"{f}-byte frames: {ds['mode_fraction_mean'].values[i]:.0%} in the top interval (seed mean)")
    mode = _paper(paper_values, "long_fig7_tab3", f"mode_fraction_ef_{frames[0]}")
    if mode is not None:
        ax_f.axhline(mode, color="C3", ls="--", label=f"paper: {mode:.0%} in one interval ({frames[0]} bytes)")
    ax_f.set_xlim(0, edges[last - 1] + width)
    ax_f.set_xlabel(f"|IPDV| (transmission units of {to_ms(unit):.3f} ms; intervals of {width:g} unit)")
    ax_f.set_ylabel("frequency")
    ax_f.set_title("Fig. 7: |IPDV| frequency distribution vs EF frame size")
    ax_f.legend(fontsize=8)
    _errorbar_vs(ax_s, frames, ds, "jitter_std", to_us, label="pqlab std of |IPDV| (mean, 95% CI)")
    ax_s.plot(frames, to_us(ds["ipdv_std_mean"].values), "o:", color="C1", mfc="none", label="pqlab std of signed IPDV")
    if "mtu_jitter_std" in ds:
        ax_s.plot(frames, to_us(ds["mtu_jitter_std"].mean("seed").values), "^-.", color="C4",
                  label="pqlab std of |IPDV|, deterministic 1500-byte BE")
    paper = _paper_series(paper_values, "long_fig7_tab3", [f"ipdv_std_ef_{f}" for f in frames])
    _plot_paper(ax_s, frames, paper, "paper, Sec. 7")
    ax_s.set_ylim(0, None)
    ax_s.set_xticks(frames)
    ax_s.set_xlabel("EF frame size (bytes)")
    ax_s.set_ylabel("standard deviation of |IPDV| (us)")
    ax_s.set_title("|IPDV| standard deviation")
    legend_below(ax_s, ncol=2)
    fig.suptitle("long_fig7_tab3: |IPDV| vs EF frame size (one EF stream, 300 kbit/s, A = 0)")
    _footer(fig, ds)
    return fig
