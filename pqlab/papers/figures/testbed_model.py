"""Figure of the test-bed model: the paper's measured values, the papers' node model and the test bed."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import seaborn as sns
import xarray as xr

from ...base.units import to_ms
from . import FIXED_TITLE_RC, subplots
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


#: Factor from a result's unit to the unit its row of panels is drawn in (times in ms).
_TO_PANEL_UNIT = {"ms": 1.0, "us": 1e-3}


def _panels(ds: xr.Dataset) -> list[tuple[str, str, np.ndarray]]:
    """The result panels: (title, y label with its unit, which results), one row of panels per unit.

    Row 1 in milliseconds (one-way delays, delay variation; the bounds panel joins it), row 2 in
    transmission times (of the EF reference packet, of a BE packet), row 3 without a time unit
    (bytes, ratios). A result of any other unit gets a panel of its own, named by its unit.
    """
    units = ds["unit"].values.astype(str)
    ipdv = np.char.find(ds["quantity"].values.astype(str), "ipdv") >= 0
    is_time = np.isin(units, list(_TO_PANEL_UNIT))
    unit_ms = to_ms(float(ds.attrs["unit_s"]))
    panels = [
        ("one-way delay", "one-way delay (ms)", is_time & ~ipdv),
        ("delay variation (IPDV)", "IPDV (ms)", is_time & ipdv),
        ("in EF transmission times", f"EF transmission times\n({unit_ms:.3f} ms each)", units == "units"),
        ("in BE transmission times", "BE transmission times\n(of the BE packet named)", units == "BE tx times"),
        ("BE payload sizes", "BE payload (bytes)", units == "bytes"),
        ("ratios", "ratio (0.1 = 10 %)", units == "1"),
    ]
    known = np.any([m for _, _, m in panels], axis=0)
    panels += [(f"results in {u}", u, units == u) for u in dict.fromkeys(units[~known])]
    return [p for p in panels if p[2].any()]


def _result_panel(ax, ds: xr.Dataset, title: str, ylabel: str, chosen: np.ndarray, colors: dict) -> None:
    rows = ds.isel(result=chosen)
    scale = np.array([_TO_PANEL_UNIT.get(str(u), 1.0) for u in rows["unit"].values])
    x = np.arange(rows.sizes["result"], dtype=float)
    ax.plot(x, rows["paper"].values * scale, label="paper (measured)", **_PAPER)
    for offset, model in zip((-0.15, 0.15), MODEL_LABELS):
        value = rows["value"].sel(model=model).values.astype(float) * scale
        per_seed = rows["value_per_seed"].sel(model=model).values.astype(float) * scale[:, None]
        low, high = np.nanmin(per_seed, axis=-1), np.nanmax(per_seed, axis=-1)
        # the value is over all seeds (a pooled std or quantile can lie outside the per-seed
        # range), so the range is drawn as its own line, not as an error bar around the value
        ax.vlines(x + offset, low, high, color=colors[model], lw=1.5)
        ax.plot(x + offset, value, "o" if offset < 0 else "s", color=colors[model], ms=7,
                label=f"{MODEL_LABELS[model]} (all seeds; line: per-seed range)")
    labels = [f"{q}{' *' if r == 'calibration' else ''}\n{a}" for q, r, a in
              zip(rows["quantity"].values, rows["role"].values, rows["artefact"].values)]
    ax.set_xticks(x, labels, rotation=55, ha="right", rotation_mode="anchor", fontsize=9)
    ax.set_ylabel(ylabel)
    ax.set_xlim(-0.6, x[-1] + 0.6)
    ax.set_title(title)


def _bound_panel(ax, ds: xr.Dataset, colors: dict) -> None:
    cases = [str(c) for c in ds["case"].values]
    x = np.arange(len(cases), dtype=float)
    for offset, model in zip((-0.2, 0.2), MODEL_LABELS):
        ax.bar(x + offset, to_ms(ds["bound"].sel(model=model)), 0.38, color=colors[model], alpha=0.3,
               edgecolor=colors[model])
        ax.plot(x + offset, to_ms(ds["max_delay"].sel(model=model)), "v", color=colors[model], ms=7)
    ax.set_xticks(x, cases, rotation=30, ha="right", fontsize=9)
    ax.set_ylabel("one-way delay (ms)")
    ax.set_title("worst-case bound (bars) vs simulated max (v)")


def testbed_model(ds: xr.Dataset):
    """Every numeric measured result: the paper's value and both models, grouped by unit; the bounds.

    One row of panels per unit (:func:`_panels`): milliseconds (microseconds drawn in ms), then
    transmission times, then bytes and ratios; the worst-case bounds close the first row.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.testbed_model.testbed_model`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    panels = _panels(ds)
    rows = [[p for p in panels if p[1].endswith("(ms)")], [p for p in panels if "transmission" in p[1]]]
    rows.append([p for p in panels if p not in rows[0] and p not in rows[1]])
    rows = [r for r in rows if r]
    rows[0].append(None)  # the bounds panel closes the row in ms
    rows[-1].append("legend")
    fig, row_axes = subplots(len(rows), 1, figsize=(15, 5.0 * len(rows)), footer=True)
    colors = _model_colors()
    legend_ax = None
    for row_ax, row in zip(np.atleast_1d(row_axes), rows):
        # each panel as wide as its results need (the bounds: one place per case; the legend: 4)
        widths = [4 if p == "legend" else ds.sizes["case"] if p is None else max(3, int(p[2].sum())) for p in row]
        grid = row_ax.get_subplotspec().subgridspec(1, len(row), width_ratios=widths)
        row_ax.remove()
        with plt.rc_context(FIXED_TITLE_RC):
            axes = [fig.add_subplot(grid[0, k]) for k in range(len(row))]
        for ax, panel in zip(axes, row):
            if panel == "legend":
                legend_ax = ax
            elif panel is None:
                _bound_panel(ax, ds, colors)
            else:
                _result_panel(ax, ds, *panel, colors)
    handles, labels = fig.axes[0].get_legend_handles_labels()
    legend_ax.legend(handles, labels, loc="center", frameon=False)
    legend_ax.set_axis_off()
    fig.suptitle("testbed_model: the papers' measured results, the papers' node model and the calibrated "
                 "test-bed model (* = calibration set)")
    footer(fig, f"{int(ds.attrs['n_ef_samples']):,} reference packets per run, {seed_count(ds.sizes['seed'])}; "
                f"test bed with {int(ds.attrs['frozen_hops'])} store-and-forward hop(s) (frozen by the calibration); "
                "one unit per row: milliseconds, transmission times, then bytes and ratios")
    return fig


def testbed_model_curves(ds: xr.Dataset):
    """The papers' curves under both models: Fig. 3-1 (mean delay vs BE payload) and Fig. 5 (CCDF).

    The paper's numbers are marked: Fig. 3-1's local maxima (BE payloads) and Fig. 5's
    "negligible above" point (transmission units).

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`pqlab.papers.artefacts.testbed_model.testbed_model`.

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
