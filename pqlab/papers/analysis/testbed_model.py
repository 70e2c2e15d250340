"""The test-bed model next to the papers' node model: every numeric measured result, both models.

The papers' node model (:data:`pqlab.papers.testbed.PAPERS_NODE`, exactly ``pqlab.simulate``)
simulates the C7200 output interface the papers describe; the test-bed model
(:data:`pqlab.papers.testbed.TESTBED`) adds the measured path around it (store-and-forward
hops carrying BE, the generators' OS tick, the FastEthernet input, per-packet BE sizes,
RFC 2679 timestamps), with its free parameters frozen by the calibration protocol of
``docs/testbed.md`` (``benchmarks/results/testbed_calibration.json``: Table IV's ``W_m`` and Fig. 3-1's
local maxima are the calibration set; every other result is a held-out prediction).

:func:`compute` computes every numeric measured result of ``data/paper_values.csv``
(``kind == "result"``) under both models with :func:`pqlab.papers.testbed_eval.evaluate`, each
seed apart (the spread), the same results with the frozen preset's hop count replaced by
each of ``hops`` (which hop count each result would need: the test for results no single
model reproduces together), and the end-to-end worst-case bound of the test-bed path
(:func:`pqlab.papers.testbed.worst_case_bound`) next to the largest simulated delay of Table IV's
and Table III's scenarios.

The artefact's computation (:func:`compute`), claims (:func:`claims`: one record per measured
result with ``model="testbed"`` and two pqlab-only rows) and figures (:func:`figure`: every
result, both models, grouped by unit, and the bounds; :func:`figure_curves`: the papers' two
curves under both models, saved as ``<id>_curves``). The Dataset keeps every result in the
paper's unit of that result (the ``unit`` coordinate); bounds, delays and Fig. 3-1's curve in
seconds. The notebook ``notebooks/10_testbed_model`` runs them.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace

import matplotlib.pyplot as plt
import numpy as np
import seaborn as sns
import xarray as xr

from ...base.units import to_ms
from ...measure import cache
from .. import kit, presets
from .. import testbed_eval as te
from ..judge import TOLERANCE_PERCENT
from ..records import INCONSISTENCY_QUANTITY
from ..registry import Artefact
from ..testbed import TESTBED, worst_case_bound

__all__ = ["ARTEFACT", "compute", "claims", "figure", "figure_curves", "CURVES_PART", "hops_needed",
           "inconsistency_note", "BOUND_CASES", "HOPS", "MODEL_LABELS"]

ARTEFACT = Artefact(__name__, notebook="10_testbed_model")

#: The ``part`` of :func:`figure_curves`' files (:func:`pqlab.papers.kit.save_figure`): ``<id>_curves.{png,pdf}``.
CURVES_PART = "curves"

#: Hop counts tried around the frozen preset (the papers' path has two C7500 hops).
HOPS = (0, 1, 2)
#: Transmission units at which Fig. 5's CCDF is evaluated (the paper: "negligible above 36").
CCDF_UNITS = np.arange(0.0, 60.5, 0.5)

#: Scenarios whose worst-case bound is shown next to the simulated maximum: Table IV's
#: ``k = 1, 2, 3`` and Table III's aggregation degrees.
BOUND_CASES = ("tab4_k1", "tab4_k2", "tab4_k3", "tab3_a_5_6", "tab3_a_2_3", "tab3_a_1_3", "tab3_a_0")


def _bound_scenario(case: str, n: int):
    if case.startswith("tab4_k"):
        return presets.full_units(k=int(case[-1]), n_ef_samples=n)
    return te.aggregation_scenario(te.TAB3_REF_RATES[case[len("tab3_a_"):]], n, None)


@cache.artefact(ARTEFACT.id)
def compute(n_ef_samples: int = 2_000, seeds=(1, 2), hops=HOPS) -> xr.Dataset:
    """Every numeric measured result under both models, the seed spread, the hop cross table, bounds.

    Parameters
    ----------
    n_ef_samples : int
        Reference packets per run (>= 100; the calibration used 2,000).
    seeds : sequence of int
        Seeds (>= 0); every run is repeated per seed and each value combines the seeds
        as the result's definition does (a mean, a maximum or the seeds' packets pooled).
    hops : sequence of int
        Store-and-forward hop counts tried in place of the frozen preset's (each in [0, 2]).

    Returns
    -------
    xarray.Dataset
        Dims ``result`` (``"<artefact>/<quantity>"``), ``model`` (``papers_node``, ``testbed``),
        ``seed``, ``hops``, ``case`` (:data:`BOUND_CASES`). Coordinates on ``result``:
        ``artefact``, ``quantity``, ``role`` (``calibration``/``held_out``), ``unit`` (the
        paper's unit, in which every value of that result is given). Variables: ``paper``
        (result), ``value`` (result, model: over all seeds, as
        :func:`pqlab.papers.testbed_eval.evaluate` combines them), ``value_per_seed`` (result,
        model, seed), ``rel_err`` (result, model; percent), ``hop_value`` (result, hops: the
        test-bed preset with that hop count), ``hop_rel_err`` (percent), ``bound`` (case,
        model; s: :func:`pqlab.papers.testbed.worst_case_bound`), ``max_delay`` (case, model; s:
        the largest simulated reference delay over the seeds), ``fig3_1_mean_delay``
        (be_payload_bytes, model; s: Fig. 3-1's curve over both search windows) and
        ``fig5_ccdf`` (delay_units, model: Fig. 5's complementary distribution, seeds pooled).
        Attrs: provenance, the two models' options as JSON, ``unit_s`` (Fig. 5's unit).
    """
    n = kit.check_n_ef_samples(n_ef_samples, 100, 10_000_000)
    seeds = kit.check_seeds(seeds)
    hops = tuple(int(h) for h in hops)
    if not hops or any(h not in HOPS for h in hops) or len(set(hops)) != len(hops):
        raise ValueError(f"hops must be distinct hop counts in {list(HOPS)}, got {hops!r}")
    frame = te.evaluate(n_ef_samples=n, seeds=seeds)
    models = list(te.MODELS)
    per_seed = np.stack([te.evaluate(n_ef_samples=n, seeds=(s,))[models].to_numpy(float) for s in seeds], axis=-1)
    variants = {f"hops={h}": replace(TESTBED, store_forward_hops=h) for h in hops}
    hop_frame = te.evaluate(variants, n_ef_samples=n, seeds=seeds)
    hop_value = hop_frame[list(variants)].to_numpy(float)
    bound = np.empty((len(BOUND_CASES), len(models)))
    max_delay = np.empty_like(bound)
    for i, case in enumerate(BOUND_CASES):
        sc = _bound_scenario(case, n)
        for j, name in enumerate(models):
            model = te.MODELS[name]
            bound[i, j] = worst_case_bound(sc, model)
            max_delay[i, j] = max(float(np.nanmax(te.run(sc, s, model)["delay"])) for s in seeds)
    curves = [te.fig3_1_curve(te.MODELS[m], n, seeds, w) for w in te.FIG3_WINDOWS for m in models]
    payloads = sorted({p for pays, _ in curves for p in pays})
    fig3_1 = np.full((len(payloads), len(models)), np.nan)
    for i, (pays, means) in enumerate(curves):
        column = i % len(models)
        for p, m in zip(pays, means):
            fig3_1[payloads.index(p), column] = m
    ccdf = np.empty((CCDF_UNITS.size, len(models)))
    for j, name in enumerate(models):
        units = np.sort(te.fig5_delays(te.MODELS[name], n, seeds) / te.UNIT_S)
        ccdf[:, j] = 1.0 - np.searchsorted(units, CCDF_UNITS, side="right") / units.size
    paper = frame["paper"].to_numpy(float)
    value = frame[models].to_numpy(float)
    ids = [f"{a}/{q}" for a, q in zip(frame["artefact"], frame["quantity"])]
    percent = {"units": "percent", "long_name": "relative difference from the paper, (ours - paper) / |paper|"}
    in_paper_unit = {"units": "1", "long_name": "value in the paper's unit of the result (coordinate unit)"}
    ds = xr.Dataset(
        {
            "paper": ("result", paper, {**in_paper_unit, "long_name": "the paper's measured value (its unit)"}),
            "value": (("result", "model"), value, {**in_paper_unit, "long_name": "simulated value over all seeds"}),
            "value_per_seed": (("result", "model", "seed"), per_seed, in_paper_unit),
            "rel_err": (("result", "model"), (value - paper[:, None]) / np.abs(paper[:, None]) * 100.0, percent),
            "hop_value": (("result", "hops"), hop_value,
                          {**in_paper_unit, "long_name": "test-bed preset with this many store-and-forward hops"}),
            "hop_rel_err": (("result", "hops"), (hop_value - paper[:, None]) / np.abs(paper[:, None]) * 100.0,
                            percent),
            "bound": (("case", "model"), bound,
                      {"units": "s", "long_name": "end-to-end worst-case one-way delay bound of the path"}),
            "max_delay": (("case", "model"), max_delay,
                          {"units": "s", "long_name": "largest simulated reference one-way delay over the seeds"}),
            "fig3_1_mean_delay": (("be_payload_bytes", "model"), fig3_1,
                                  {"units": "s", "long_name": "Fig. 3-1: mean reference one-way delay"}),
            "fig5_ccdf": (("delay_units", "model"), ccdf,
                          {"units": "1", "long_name": "Fig. 5: fraction of reference delays above (real BE sizes)"}),
        },
        coords={
            "result": ids, "model": models, "seed": list(seeds), "hops": list(hops), "case": list(BOUND_CASES),
            "be_payload_bytes": ("be_payload_bytes", payloads, {"units": "bytes", "long_name": "BE UDP payload"}),
            "delay_units": ("delay_units", CCDF_UNITS,
                            {"units": "1", "long_name": "delay in transmission units (line time of the EF frame)"}),
            "artefact": ("result", frame["artefact"].to_numpy(str)),
            "quantity": ("result", frame["quantity"].to_numpy(str)),
            "role": ("result", frame["role"].to_numpy(str)),
            "unit": ("result", frame["unit"].to_numpy(str)),
        },
        attrs=kit.provenance(
            ARTEFACT.id, "Every numeric measured result under the papers' node and the test-bed model",
            __name__, seeds, n_ef_samples=n,
            models=json.dumps({k: m.to_dict() for k, m in te.MODELS.items()}, sort_keys=True),
            frozen_hops=TESTBED.store_forward_hops, unit_s=te.UNIT_S,
        ),
    )
    return ds


def hops_needed(hop_values, paper: float, hops=HOPS) -> float:
    """Hop count at which the test bed's value equals the paper's, by linear interpolation over ``hops``.

    Linear extrapolation beyond the grid from its outer segment; NaN when the values do not
    change with the hop count or move away from the paper's value on that side.
    """
    h = np.asarray(hops, dtype=float)
    v = np.asarray(hop_values, dtype=float)
    if not np.all(np.isfinite(v)) or h.size < 2:
        return math.nan
    for i in range(h.size - 1):
        lo, hi = v[i], v[i + 1]
        if min(lo, hi) <= paper <= max(lo, hi) and hi != lo:
            return float(h[i] + (paper - lo) / (hi - lo) * (h[i + 1] - h[i]))
    # outside the range: extrapolate from the segment nearer to the paper's value
    i = 0 if abs(paper - v[0]) < abs(paper - v[-1]) else h.size - 2
    slope = (v[i + 1] - v[i]) / (h[i + 1] - h[i])
    if slope == 0:
        return math.nan
    x = float(h[i] + (paper - v[i]) / slope)
    inside = h[0] <= x <= h[-1]
    return x if not inside else math.nan


#: Position claims (a payload where the mean delay drops): judged by the position rule, not by 10 %.
POSITION_QUANTITIES = {"local_max_be_payload_1": 0, "local_max_be_payload_2": 1}

#: A result whose value moves by less than this (percent of the paper's value) between the
#: hop counts tried is called insensitive to the hop count.
HOP_SENSITIVITY_PERCENT = 1.0
#: The tables whose absolute delays grow with the hop count (their hop counts needed are listed).
HOP_SENSITIVE_TABLES = ("globecom01_tab4", "globecom01_tab3")


def _fmt(value: float) -> str:
    return "nan" if not math.isfinite(value) else f"{value:.4g}"


def _reason(ds: xr.Dataset, rid: str) -> str:
    """Computed explanation of one test-bed result: spread, hop cross table, hop count needed."""
    row = ds.sel(result=rid)
    paper = float(row["paper"])
    err = float(row["rel_err"].sel(model="testbed"))
    seeds = row["value_per_seed"].sel(model="testbed").values
    spread = f"seeds {_fmt(np.nanmin(seeds))}..{_fmt(np.nanmax(seeds))}"
    if math.isfinite(err) and abs(err) <= TOLERANCE_PERCENT:
        return f"within {TOLERANCE_PERCENT:g} % ({spread}); role: {str(row['role'].values)}"
    hops = [int(h) for h in ds["hops"].values]
    values = row["hop_value"].values.astype(float)
    table = ", ".join(f"{h} hops {_fmt(v)}" for h, v in zip(hops, values))
    parts = [spread, f"with {table}"]
    if np.all(np.isfinite(values)) and np.ptp(values) < HOP_SENSITIVITY_PERCENT / 100 * abs(paper):
        parts.append("the hop count does not move it: the miss is in the node or traffic model, not the path")
    else:
        need = hops_needed(values, paper, hops)
        if math.isnan(need):
            parts.append(f"no hop count in {hops[0]}-{hops[-1]} moves it towards the paper's value")
        elif hops[0] <= need <= hops[-1]:
            parts.append(f"the paper's value needs {need:.2f} store-and-forward hops (frozen: "
                         f"{int(ds.attrs['frozen_hops'])})")
        else:
            parts.append(f"the paper's value needs about {need:.1f} hops (extrapolated beyond {hops[0]}-{hops[-1]})")
    return "; ".join(parts)


def _within_at(ds: xr.Dataset) -> dict[int, set]:
    """For each hop count tried, the results within 10 %."""
    err = ds["hop_rel_err"]
    return {int(h): {str(r) for r, e in zip(ds["result"].values, err.sel(hops=h).values)
                     if math.isfinite(e) and abs(e) <= TOLERANCE_PERCENT} for h in ds["hops"].values}


def inconsistency_note(ds: xr.Dataset) -> tuple[int, str]:
    """Which results no single hop count reproduces together: (count reproduced at some hop count, note)."""
    within = _within_at(ds)
    some = set().union(*within.values())
    best_h = max(within, key=lambda h: (len(within[h]), -abs(h - int(ds.attrs["frozen_hops"]))))
    apart = sorted(some - within[best_h])
    never = sorted(set(map(str, ds["result"].values)) - some)
    needed, group = [], []
    for rid in ds["result"].values:
        row = ds.sel(result=rid)
        if str(row["artefact"].values) in HOP_SENSITIVE_TABLES:
            group.append(str(rid))
            need = hops_needed(row["hop_value"].values.astype(float), float(row["paper"]),
                               [int(h) for h in ds["hops"].values])
            needed.append(f"{row['quantity'].values} {_fmt(need)}")
    together = [h for h, ok in within.items() if set(group) <= ok]
    verdict = (f"{' and '.join(HOP_SENSITIVE_TABLES)} hold together at {together} hops" if together else
               f"no hop count tried reproduces {' and '.join(HOP_SENSITIVE_TABLES)} together")
    note = (f"{len(some)} of {ds.sizes['result']} measured results are within {TOLERANCE_PERCENT:g} % at some hop "
            f"count in {list(within)}, but at most {len(within[best_h])} together ({best_h} hops); reproduced only "
            f"at another hop count: {', '.join(apart) or 'none'}; at no hop count tried: {len(never)} "
            f"({', '.join(never)}). Hop counts the papers' values would need ({', '.join(HOP_SENSITIVE_TABLES)}): "
            f"{'; '.join(needed)}: {verdict}")
    return len(some), note


def claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of ``testbed_model``: one per measured result, and two pqlab-only rows.

    Every record has ``model="testbed"``. One per measured result: the artefact id and quantity
    of ``data/paper_values.csv`` (so the report puts it next to the papers' node row of the
    same claim), its role in the calibration protocol and a computed reason for each miss (the
    seed spread, the values with 0, 1 and 2 store-and-forward hops, the hop count the paper's
    value would need). Two pqlab-only rows: which results no single hop count reproduces
    together (:func:`inconsistency_note`), and whether every simulated maximum stays under the
    test-bed path's worst-case bound (``bound_margin_min``, ms).
    """
    art = ARTEFACT.id
    kit.check_artefact(ds, art)
    rows = []
    for rid in ds["result"].values:
        row = ds.sel(result=rid)
        quantity, value = str(row["quantity"].values), float(row["value"].sel(model="testbed"))
        note, shape_ok = _reason(ds, rid), None
        if quantity in POSITION_QUANTITIES and math.isfinite(value):
            after = te.next_swept_payload(POSITION_QUANTITIES[quantity], value)
            paper = float(row["paper"])
            shape_ok = kit.position_ok(value, after, paper)
            note = f"paper {paper:g} " + kit.position_text(value, after, paper) + f"; {note}"
        rows.append(kit.claim(str(row["artefact"].values), quantity, value, str(row["unit"].values), note,
                              shape_ok=shape_ok, model="testbed", role=str(row["role"].values)))
    count, note = inconsistency_note(ds)
    rows.append(kit.claim(art, INCONSISTENCY_QUANTITY, count, "results", note, model="testbed"))
    margin = (ds["bound"] - ds["max_delay"]).sel(model="testbed")
    worst = str(margin.idxmin("case").values)
    rows.append(kit.claim(
        art, "bound_margin_min", to_ms(float(margin.min())), "ms",
        f"the test-bed path's worst-case bound minus the largest simulated delay, smallest over "
        f"{', '.join(map(str, ds['case'].values))}: {worst} "
        f"(bound {to_ms(float(ds['bound'].sel(case=worst, model='testbed'))):.2f} ms, "
        f"simulated max {to_ms(float(ds['max_delay'].sel(case=worst, model='testbed'))):.2f} ms)",
        shape_ok=bool((margin >= 0).all()), model="testbed"))
    return rows


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


def figure(ds: xr.Dataset):
    """Every numeric measured result: the paper's value and both models, grouped by unit; the bounds.

    One row of panels per unit (:func:`_panels`): milliseconds (microseconds drawn in ms), then
    transmission times, then bytes and ratios; the worst-case bounds close the first row.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`compute`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    kit.check_artefact(ds, ARTEFACT.id)
    panels = _panels(ds)
    rows = [[p for p in panels if p[1].endswith("(ms)")], [p for p in panels if "transmission" in p[1]]]
    rows.append([p for p in panels if p not in rows[0] and p not in rows[1]])
    rows = [r for r in rows if r]
    rows[0].append(None)  # the bounds panel closes the row in ms
    rows[-1].append("legend")
    fig, row_axes = kit.subplots(len(rows), 1, figsize=(15, 5.0 * len(rows)), footer=True)
    colors = _model_colors()
    legend_ax = None
    for row_ax, row in zip(np.atleast_1d(row_axes), rows):
        # each panel as wide as its results need (the bounds: one place per case; the legend: 4)
        widths = [4 if p == "legend" else ds.sizes["case"] if p is None else max(3, int(p[2].sum())) for p in row]
        grid = row_ax.get_subplotspec().subgridspec(1, len(row), width_ratios=widths)
        row_ax.remove()
        with plt.rc_context(kit.FIXED_TITLE_RC):
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
    fig.suptitle(f"{ARTEFACT.id}: the papers' measured results, the papers' node model and the calibrated "
                 "test-bed model (* = calibration set)")
    kit.footer(fig, f"{int(ds.attrs['n_ef_samples']):,} reference packets per run, {kit.seed_count(ds.sizes['seed'])}; "
                    f"test bed with {int(ds.attrs['frozen_hops'])} store-and-forward hop(s) (frozen by the calibration); "
                    "one unit per row: milliseconds, transmission times, then bytes and ratios")
    return fig


def figure_curves(ds: xr.Dataset):
    """The papers' curves under both models: Fig. 3-1 (mean delay vs BE payload) and Fig. 5 (CCDF).

    The paper's numbers are marked: Fig. 3-1's local maxima (BE payloads) and Fig. 5's
    "negligible above" point (transmission units).

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`compute`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    kit.check_artefact(ds, ARTEFACT.id)
    fig, (left, right) = kit.subplots(1, 2, figsize=(13, 4.6), footer=True)
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
    kit.footer(fig, f"{int(ds.attrs['n_ef_samples']):,} reference packets per run, {kit.seed_count(ds.sizes['seed'])}; "
                    f"transmission unit {to_ms(float(ds.attrs['unit_s'])):.3f} ms")
    return fig
