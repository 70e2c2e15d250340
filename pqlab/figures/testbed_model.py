"""Figure of the test-bed model: the paper's measured values, the papers' node model and the test bed."""

from __future__ import annotations

import numpy as np
import seaborn as sns
import xarray as xr

from ..units import to_ms
from . import subplots
from ._common import footer, seed_count

__all__ = ["testbed_model", "testbed_model_curves", "MODEL_LABELS"]

#: Legend labels of the two models.
MODEL_LABELS = {"papers_node": "papers' node model", "testbed": "test-bed model (frozen preset)"}
_PAPER = dict(color="black", marker="D", ls="none", ms=6, zorder=5)
#: Payload steps wider than this separate Fig. 3-1's two search windows (no line drawn across).
_WINDOW_GAP_BYTES = 100


def _model_colors() -> dict:
    palette = sns.color_palette("colorblind", 2)
    return dict(zip(MODEL_LABELS, palette))


def _result_panel(ax, ds: xr.Dataset, artefact: str, unit: str, colors: dict) -> None:
    rows = ds.isel(result=(ds["artefact"] == artefact).values & (ds["unit"] == unit).values)
    x = np.arange(rows.sizes["result"], dtype=float)
    ax.plot(x, rows["paper"], label="paper (measured)", **_PAPER)
    for offset, model in zip((-0.15, 0.15), MODEL_LABELS):
        value = rows["value"].sel(model=model).values.astype(float)
        per_seed = rows["value_per_seed"].sel(model=model).values.astype(float)
        low, high = np.nanmin(per_seed, axis=-1), np.nanmax(per_seed, axis=-1)
        # the value is over all seeds (a pooled std or quantile can lie outside the per-seed
        # range), so the range is drawn as its own line, not as an error bar around the value
        ax.vlines(x + offset, low, high, color=colors[model], lw=1.5)
        ax.plot(x + offset, value, "o" if offset < 0 else "s", color=colors[model], ms=5,
                label=f"{MODEL_LABELS[model]} (all seeds; line: per-seed range)")
    labels = [f"{q}{' *' if r == 'calibration' else ''}" for q, r in zip(rows["quantity"].values, rows["role"].values)]
    ax.set_xticks(x, labels, rotation=25, ha="right", fontsize=7)
    ax.set_ylabel(unit, fontsize=8)
    ax.set_xlim(-0.6, x[-1] + 0.6)
    ax.set_title(artefact, fontsize=9)
    ax.tick_params(axis="y", labelsize=7)


def _bound_panel(ax, ds: xr.Dataset, colors: dict) -> None:
    cases = [str(c) for c in ds["case"].values]
    x = np.arange(len(cases), dtype=float)
    for offset, model in zip((-0.2, 0.2), MODEL_LABELS):
        ax.bar(x + offset, to_ms(ds["bound"].sel(model=model)), 0.38, color=colors[model], alpha=0.3,
               edgecolor=colors[model])
        ax.plot(x + offset, to_ms(ds["max_delay"].sel(model=model)), "v", color=colors[model], ms=6)
    ax.set_xticks(x, cases, rotation=25, ha="right", fontsize=7)
    ax.set_ylabel("one-way delay (ms)", fontsize=8)
    ax.set_title("worst-case bound (bars) vs simulated max (v)", fontsize=9)
    ax.tick_params(axis="y", labelsize=7)


def testbed_model(ds: xr.Dataset):
    """Every numeric measured result: the paper's value and both models, one panel per artefact; the bounds.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.artefacts.testbed_model.testbed_model`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    # one panel per artefact and unit (an artefact's results in two units get two panels)
    artefacts = list(dict.fromkeys(zip(map(str, ds["artefact"].values), map(str, ds["unit"].values))))
    n_panels = len(artefacts) + 2  # + the bounds and the legend
    ncols = 4
    nrows = -(-n_panels // ncols)
    fig, axes = subplots(nrows, ncols, figsize=(16, 3.3 * nrows), footer=True)
    axes = axes.ravel()
    colors = _model_colors()
    for ax, (artefact, unit) in zip(axes, artefacts):
        _result_panel(ax, ds, artefact, unit, colors)
    _bound_panel(axes[len(artefacts)], ds, colors)
    legend_ax = axes[len(artefacts) + 1]
    handles, labels = axes[0].get_legend_handles_labels()
    legend_ax.legend(handles, labels, loc="center", fontsize=9, frameon=False)
    legend_ax.set_axis_off()
    for ax in axes[len(artefacts) + 2:]:
        ax.set_axis_off()
    fig.suptitle("testbed_model: the papers' measured results, the papers' node model and the calibrated "
                 "test-bed model (* = calibration set)", fontsize=11)
    footer(fig, f"{int(ds.attrs['n_ef_samples']):,} reference packets per run, {seed_count(ds.sizes['seed'])}; "
                f"test bed with {int(ds.attrs['frozen_hops'])} store-and-forward hop(s) (frozen by the calibration); "
                "values in each result's paper unit")
    return fig


def testbed_model_curves(ds: xr.Dataset):
    """The papers' curves under both models: Fig. 3-1 (mean delay vs BE payload) and Fig. 5 (CCDF).

    The paper's numbers are marked: Fig. 3-1's local maxima (BE payloads) and Fig. 5's
    "negligible above" point (transmission units).

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.artefacts.testbed_model.testbed_model`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, (left, right) = subplots(1, 2, figsize=(13, 4.6), footer=True)
    colors = _model_colors()
    payload = ds["be_payload_bytes"].values.astype(float)
    gaps = np.flatnonzero(np.diff(payload) > _WINDOW_GAP_BYTES) + 1  # the two search windows: no line between
    for model, label in MODEL_LABELS.items():
        delay = to_ms(ds["fig3_1_mean_delay"].sel(model=model).values)
        left.plot(np.insert(payload, gaps, np.nan), np.insert(delay, gaps, np.nan), ".-", color=colors[model],
                  label=label)
        right.semilogy(ds["delay_units"], ds["fig5_ccdf"].sel(model=model), "-", color=colors[model], label=label)
    maxima = ds.where(ds["artefact"] == "globecom01_fig3_1", drop=True)
    for i, value in enumerate(maxima["paper"].values):
        left.axvline(float(value), color="black", ls="--", lw=1, label="paper: local maxima" if i == 0 else None)
    left.set_xlabel("BE UDP payload (bytes)")
    left.set_ylabel("mean EF one-way delay (ms)")
    left.set_title("GLOBECOM'01 Fig. 3-1 under both models", fontsize=10)
    left.legend(fontsize=8)
    tail = ds.where(ds["artefact"] == "globecom01_fig5", drop=True)
    for value in tail["paper"].values:
        right.axvline(float(value), color="black", ls="--", lw=1, label='paper: "negligible above"')
    right.set_xlabel("EF one-way delay (transmission units)")
    right.set_ylabel("fraction of delays above")
    right.set_title("GLOBECOM'01 Fig. 5 (stand-in real BE sizes) under both models", fontsize=10)
    right.legend(fontsize=8)
    footer(fig, f"{int(ds.attrs['n_ef_samples']):,} reference packets per run, {seed_count(ds.sizes['seed'])}; "
                f"transmission unit {to_ms(float(ds.attrs['unit_s'])):.3f} ms")
    return fig
