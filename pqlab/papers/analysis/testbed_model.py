"""The test-bed model next to the papers' node model: every numeric measured result, both models.

The papers' node model (:data:`pqlab.papers.testbed.PAPERS_NODE`, exactly ``pqlab.simulate``)
simulates the C7200 output interface the papers describe; the test-bed model
(:data:`pqlab.papers.testbed.TESTBED`) adds the measured path around it (store-and-forward
hops carrying BE, the generators' OS tick, the FastEthernet input, per-packet BE sizes,
RFC 2679 timestamps), with its free parameters frozen by the calibration protocol of
``docs/testbed.md`` (``benchmarks/results/testbed_calibration.json``: Table IV's ``W_m`` and Fig.
3-1's
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
from dataclasses import replace

import matplotlib.pyplot as plt
import numpy as np
import seaborn as sns
import xarray as xr

from ...base.units import to_ms, us_to_s
from ...measure import analysis, cache
from ...measure.metrics import largest_loss
from ...node.framing import line_time_s
from .. import kit, presets, titles
from .. import testbed_eval as te
from ..records import INCONSISTENCY_QUANTITY
from ..registry import Artefact
from ..stated import PAPERS
from ..testbed import TESTBED, TESTBED_ISSUE13, worst_case_bound
from ..testbed_reasons import (
    HOPS,
    hops_needed,
    inconsistency_note,
    inconsistency_reason,
    note,
    result_reason,
)
from ..tftant_wfq.pq_vs_wfq_testbed import beat_max_be_tx, beat_slip_s

__all__ = [
    "ARTEFACT",
    "compute",
    "claims",
    "figure",
    "figure_curves",
    "CURVES_PART",
    "hops_needed",
    "inconsistency_note",
    "inconsistency_reason",
    "result_reason",
    "verdict_counts",
    "fig3_1_paper_levels",
    "BOUND_CASES",
    "HOPS",
    "MODEL_LABELS",
]

ARTEFACT = Artefact(__name__, notebook="10_testbed_model")

#: The ``part`` of :func:`figure_curves`' files (:func:`pqlab.papers.kit.save_figure`):
#: ``<id>_curves.{png,pdf}``.
CURVES_PART = "curves"

#: Transmission units at which Fig. 5's CCDF is evaluated (the paper: "negligible above 36").
CCDF_UNITS = np.arange(0.0, 60.5, 0.5)

#: Scenarios whose worst-case bound is shown next to the simulated maximum: Table IV's
#: ``k = 1, 2, 3`` and Table III's aggregation degrees.
BOUND_CASES = (
    "tab4_k1",
    "tab4_k2",
    "tab4_k3",
    "tab3_a_5_6",
    "tab3_a_2_3",
    "tab3_a_1_3",
    "tab3_a_0",
)


def _bound_scenario(case: str, n: int):
    if case.startswith("tab4_k"):
        return presets.full_units(k=int(case[-1]), n_ef_samples=n)
    return te.aggregation_scenario(te.TAB3_REF_RATES[case[len("tab3_a_") :]], n, None)


#: The ring-release rule the calibration did not choose (the near-tie's alternative).
OTHER_RELEASE = "packet" if TESTBED.ring_release == "unit" else "unit"
#: Interval widths (transmission units) and grid offsets (fractions of the width) over which the
#: long
#: version's "60 % in a single interval" is computed: the paper gives neither.
MODE_WIDTHS_UNITS = (0.5, 1.0, 2.0)
MODE_OFFSETS = (0.0, 0.25, 0.5, 0.75)
#: The Sec. 7 frame whose mode share the paper states, bytes.
MODE_FRAME_BYTES = presets.EF_FRAME_BYTES


def _spreads(ids: list[str], units: list[str], n: int, seeds) -> dict:
    """The test bed's reference delays in the runs of each delay-variation result: std, lag-1
    correlation, range.

    Standard deviation and lag-1 correlation are means over the runs, the range (max - min) the
    largest; each in the result's unit (NaN for the other results).
    """
    runs = te.spread_scenarios(n)
    std, corr, spread = (np.full(len(ids), np.nan) for _ in range(3))
    for i, (rid, unit) in enumerate(zip(ids, units)):
        if rid not in runs:
            continue
        delays = [
            d[np.isfinite(d)]
            for d in (te.run(sc, s, TESTBED)["delay"] for sc in runs[rid] for s in seeds)
        ]
        std[i] = te.in_result_unit(float(np.mean([np.std(d, ddof=1) for d in delays])), unit)
        corr[i] = float(np.mean([analysis.acf(d, 1)[1] for d in delays]))
        spread[i] = te.in_result_unit(float(max(np.ptp(d) for d in delays)), unit)
    what = "of the test bed's reference delays in the result's runs (the result's unit)"
    return {
        "delay_std": ("result", std, {"units": "1", "long_name": f"std {what}, mean over runs"}),
        "delay_lag1_corr": (
            "result",
            corr,
            {"units": "1", "long_name": f"lag-1 correlation {what}, mean"},
        ),
        "delay_range": (
            "result",
            spread,
            {"units": "1", "long_name": f"largest range (max - min) {what}"},
        ),
    }


def _other_release(ids: list[str], frame, n: int, seeds) -> dict:
    """The calibration set and the PQ-vs-WFQ gaps under the ring-release rule the calibration
    rejected.

    ``other_release_value`` (result; NaN where not run) and both calibration objectives (RMS
    relative error over the calibration set, :func:`pqlab.papers.testbed_eval.objective`).
    """
    chosen = [r for r in te.RESULTS if r.role == "calibration" or r.artefact == "tftant_wfq_fig1"]
    other = te.evaluate(
        {"other": replace(TESTBED, ring_release=OTHER_RELEASE)},
        n_ef_samples=n,
        seeds=seeds,
        results=chosen,
    )
    found = dict(zip(other["artefact"] + "/" + other["quantity"], other["other"]))
    values = np.array([found.get(rid, np.nan) for rid in ids], dtype=float)
    percent = {"units": "percent"}
    return {
        "other_release_value": (
            "result",
            values,
            {
                "units": "1",
                "long_name": f"test bed with ring_release={OTHER_RELEASE!r} (the result's unit)",
            },
        ),
        "objective_chosen": (
            (),
            te.objective(frame[frame["role"] == "calibration"], "testbed"),
            {**percent, "long_name": "calibration objective of the frozen preset"},
        ),
        "objective_other": (
            (),
            te.objective(other[other["role"] == "calibration"], "other"),
            {**percent, "long_name": f"calibration objective with ring_release={OTHER_RELEASE!r}"},
        ),
    }


def _law_band(ids: list[str], n: int, seeds) -> dict:
    """The test bed's smallest and largest value over the plausible BE laws
    (:func:`pqlab.papers.testbed_eval.law_band`)."""
    low, high = te.law_band(ids, TESTBED, n, seeds[:1])
    what = (
        f"test bed over {len(te.plausible_be_laws())} plausible BE size laws, first seed (the"
        " result's unit)"
    )
    return {
        "law_min": ("result", low, {"units": "1", "long_name": "smallest " + what}),
        "law_max": ("result", high, {"units": "1", "long_name": "largest " + what}),
    }


def _policed_share(n: int, seeds) -> float:
    """Of the test bed's EF packets dropped in the 20-stream loss runs, the share the policer
    dropped (NaN: none)."""
    runs = [te.run(te.loss_scenario(n), s, TESTBED) for s in seeds]
    lost = sum(r["ef_loss"] for r in runs)
    return sum(r["ef_policed"] for r in runs) / lost if lost > 0 else float("nan")


def _scenario_facts(n: int, seeds) -> dict:
    """Numbers the reasons cite: Fig. 3-2's hop lag, the mode share's definition range, the loss
    without the
    tick, the idle path's serialisations, the TF-TANT sawtooth (each a scalar or a small grid)."""
    frozen = TESTBED.store_forward_hops
    with_hop = te.fig3_2_runs(TESTBED, n, seeds)
    fewer = te.fig3_2_runs(replace(TESTBED, store_forward_hops=max(frozen - 1, 0)), n, seeds)
    lag = float(np.mean([m for _, m in with_hop]) - np.mean([m for _, m in fewer]))
    jitters = [
        te.reference_jitter(te.frame_scenario(MODE_FRAME_BYTES, n), s, TESTBED) for s in seeds
    ]
    grid = np.array(
        [
            [
                np.mean([te.mode_fraction(j, w * te.UNIT_S, o * w * te.UNIT_S) for j in jitters])
                for o in MODE_OFFSETS
            ]
            for w in MODE_WIDTHS_UNITS
        ]
    )
    rtt = te.rtt_scenario(n)
    slip = beat_slip_s(te.TFTANT_IPDV_FRAME_BYTES)
    seconds = {"units": "s"}
    return {
        "fig3_2_hop_lag": (
            (),
            lag,
            {
                **seconds,
                "long_name": "Fig. 3-2: mean delay with the frozen hops minus with one hop fewer",
            },
        ),
        "fig3_2_ratio_without_lag": (
            (),
            float(np.mean([w / (m - lag) for w, m in with_hop])),
            {"units": "1", "long_name": "Fig. 3-2: (p95 - p5) / (mean - hop lag)"},
        ),
        "mode_fraction_grid": (
            ("mode_width", "mode_offset"),
            grid,
            {
                "units": "1",
                "long_name": (
                    "share of |IPDV| in the most populated interval, "
                    f"{MODE_FRAME_BYTES}-byte frames, test bed"
                ),
            },
        ),
        "loss_no_tick": (
            (),
            te.loss_20_streams(replace(TESTBED, os_tick_s=0.0), n, seeds),
            {
                "units": "1",
                "long_name": "20-stream EF loss (largest over runs) without the OS tick",
            },
        ),
        "loss_extra_ef_128": (
            (),
            te.loss_20_streams(
                replace(TESTBED, extra_ef_frame_bytes=presets.EF_FRAME_BYTES), n, seeds
            ),
            {
                "units": "1",
                "long_name": (
                    "20-stream EF loss (largest over runs), extra EF streams of "
                    f"{presets.EF_FRAME_BYTES}-byte frames"
                ),
            },
        ),
        "loss_8_streams": (
            (),
            largest_loss(
                [te.run(te.loss_scenario(n, None, 8), s, TESTBED)["ef_loss"] for s in seeds]
            ),
            {"units": "1", "long_name": "8-stream EF loss (largest over runs), test bed"},
        ),
        "loss_policed_share": (
            (),
            _policed_share(n, seeds),
            {"units": "1", "long_name": "share of the 20-stream EF drops made by the policer"},
        ),
        "rtt_line_time": (
            (),
            float(
                line_time_s(
                    presets.ef_ip_bytes(te.RTT_FRAME_BYTES), PAPERS.framing, PAPERS.line_rate_bps
                )
            ),
            {**seconds, "long_name": "line time of the RTT probe on one papers' ATM line"},
        ),
        "rtt_serialisations": (
            (),
            1 + len(rtt.path.hops),
            {"units": "1", "long_name": "ATM lines the probe crosses one way"},
        ),
        "beat_slip": (
            (),
            float(slip[0]),
            {**seconds, "long_name": "TF-TANT slip of the EF arrivals per EF interval"},
        ),
        "beat_max": (
            (),
            float(beat_max_be_tx(xr.DataArray(slip), te.BE_TX_S)[0]),
            {"units": "BE tx times", "long_name": "sawtooth max(s, t_BE - s) / t_BE"},
        ),
    }


@cache.artefact(ARTEFACT.id)
def compute(n_ef_samples: int = 2_000, seeds=(1, 2), hops=HOPS) -> xr.Dataset:
    """Every numeric measured result under both models, the seed spread, the hop cross table,
    bounds.

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
    per_seed = np.stack(
        [te.evaluate(n_ef_samples=n, seeds=(s,))[models].to_numpy(float) for s in seeds], axis=-1
    )
    variants = {f"hops={h}": replace(TESTBED, store_forward_hops=h) for h in hops}
    hop_frame = te.evaluate(variants, n_ef_samples=n, seeds=seeds)
    hop_value = hop_frame[list(variants)].to_numpy(float)
    before = te.evaluate({"before": TESTBED_ISSUE13}, n_ef_samples=n, seeds=seeds)[
        "before"
    ].to_numpy(float)
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
    spread = _spreads(ids, list(frame["unit"]), n, seeds)
    other = _other_release(ids, frame, n, seeds)
    facts = {**_scenario_facts(n, seeds), **_law_band(ids, n, seeds)}
    percent = {
        "units": "percent",
        "long_name": "relative difference from the paper, (ours - paper) / |paper|",
    }
    in_paper_unit = {
        "units": "1",
        "long_name": "value in the paper's unit of the result (coordinate unit)",
    }
    ds = xr.Dataset(
        {
            "paper": (
                "result",
                paper,
                {**in_paper_unit, "long_name": "the paper's measured value (its unit)"},
            ),
            "value": (
                ("result", "model"),
                value,
                {**in_paper_unit, "long_name": "simulated value over all seeds"},
            ),
            "value_per_seed": (("result", "model", "seed"), per_seed, in_paper_unit),
            "rel_err": (
                ("result", "model"),
                (value - paper[:, None]) / np.abs(paper[:, None]) * 100.0,
                percent,
            ),
            "value_issue13": (
                "result",
                before,
                {
                    **in_paper_unit,
                    "long_name": "issue 13's test-bed preset (before issue 31's mechanisms)",
                },
            ),
            "hop_value": (
                ("result", "hops"),
                hop_value,
                {
                    **in_paper_unit,
                    "long_name": "test-bed preset with this many store-and-forward hops",
                },
            ),
            "hop_rel_err": (
                ("result", "hops"),
                (hop_value - paper[:, None]) / np.abs(paper[:, None]) * 100.0,
                percent,
            ),
            "bound": (
                ("case", "model"),
                bound,
                {
                    "units": "s",
                    "long_name": "end-to-end worst-case one-way delay bound of the path",
                },
            ),
            "max_delay": (
                ("case", "model"),
                max_delay,
                {
                    "units": "s",
                    "long_name": "largest simulated reference one-way delay over the seeds",
                },
            ),
            "fig3_1_mean_delay": (
                ("be_payload_bytes", "model"),
                fig3_1,
                {"units": "s", "long_name": "Fig. 3-1: mean reference one-way delay"},
            ),
            "fig5_ccdf": (
                ("delay_units", "model"),
                ccdf,
                {
                    "units": "1",
                    "long_name": "Fig. 5: fraction of reference delays above (real BE sizes)",
                },
            ),
            **spread,
            **other,
            **facts,
        },
        coords={
            "result": ids,
            "model": models,
            "seed": list(seeds),
            "hops": list(hops),
            "case": list(BOUND_CASES),
            "be_payload_bytes": (
                "be_payload_bytes",
                payloads,
                {"units": "bytes", "long_name": "BE UDP payload"},
            ),
            "mode_width": (
                "mode_width",
                list(MODE_WIDTHS_UNITS),
                {"units": "units", "long_name": "interval width"},
            ),
            "mode_offset": (
                "mode_offset",
                list(MODE_OFFSETS),
                {"units": "1", "long_name": "grid offset / width"},
            ),
            "delay_units": (
                "delay_units",
                CCDF_UNITS,
                {
                    "units": "1",
                    "long_name": "delay in transmission units (line time of the EF frame)",
                },
            ),
            "artefact": ("result", frame["artefact"].to_numpy(str)),
            "quantity": ("result", frame["quantity"].to_numpy(str)),
            "role": ("result", frame["role"].to_numpy(str)),
            "unit": ("result", frame["unit"].to_numpy(str)),
        },
        attrs=kit.provenance(
            ARTEFACT.id,
            "Every numeric measured result under the papers' node and the test-bed model",
            __name__,
            seeds,
            n_ef_samples=n,
            models=json.dumps({k: m.to_dict() for k, m in te.MODELS.items()}, sort_keys=True),
            testbed_issue13=json.dumps(TESTBED_ISSUE13.to_dict(), sort_keys=True),
            frozen_hops=TESTBED.store_forward_hops,
            unit_s=te.UNIT_S,
            be_tx_s=te.BE_TX_S,
            other_release=OTHER_RELEASE,
            n_be_laws=len(te.plausible_be_laws()),
        ),
    )
    return ds


def verdict_counts(ds: xr.Dataset):
    """Per model and role, the judge's verdicts of the results
    (:func:`pqlab.papers.testbed_eval.counts`)."""
    frame = ds[["artefact", "quantity", "role", "paper"]].to_dataframe().reset_index(drop=True)
    frame["rule"] = [te.rule_of(a, q) for a, q in zip(frame["artefact"], frame["quantity"])]
    for m in ds["model"].values:
        values = ds["value"].sel(model=m).values
        frame[f"{m}_verdict"] = [
            te.verdict_of(a, q, v) for a, q, v in zip(frame["artefact"], frame["quantity"], values)
        ]
    return te.counts(frame, ds["model"].values)


def claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of ``testbed_model``: one per measured result, and two pqlab-only rows.

    Every record has ``model="testbed"``. One per measured result: the artefact id and quantity
    of ``data/paper_values.csv`` (so the report puts it next to the papers' node row of the
    same claim), its role in the calibration protocol, a note (the seed spread, the values with
    each hop count tried) and a reason with facts (:func:`result_reason`). Two pqlab-only rows:
    which results no single hop count reproduces together (:func:`inconsistency_note`, its reason
    :func:`inconsistency_reason` carrying the hop counts as facts), and whether every simulated
    maximum stays under the test-bed path's worst-case bound (``bound_margin_min``, ms).
    """
    art = ARTEFACT.id
    kit.check_artefact(ds, art)
    rows = []
    for rid in ds["result"].values:
        row = ds.sel(result=rid)
        rows.append(
            kit.claim(
                str(row["artefact"].values),
                str(row["quantity"].values),
                float(row["value"].sel(model="testbed")),
                str(row["unit"].values),
                note(ds, str(rid)),
                model="testbed",
                role=str(row["role"].values),
                reason=result_reason(ds, str(rid)),
            )
        )
    count, text = inconsistency_note(ds)
    rows.append(
        kit.claim(
            art,
            INCONSISTENCY_QUANTITY,
            count,
            "results",
            text,
            model="testbed",
            reason=inconsistency_reason(ds),
        )
    )
    margin = (ds["bound"] - ds["max_delay"]).sel(model="testbed")
    worst = str(margin.idxmin("case").values)
    rows.append(
        kit.claim(
            art,
            "bound_margin_min",
            to_ms(float(margin.min())),
            "ms",
            "the test-bed path's worst-case bound minus the largest simulated delay, smallest over"
            f" {', '.join(map(str, ds['case'].values))}: {worst} (bound"
            f" {to_ms(float(ds['bound'].sel(case=worst, model='testbed'))):.2f} ms, simulated max"
            f" {to_ms(float(ds['max_delay'].sel(case=worst, model='testbed'))):.2f} ms)",
            shape_ok=bool((margin >= 0).all()),
            model="testbed",
        )
    )
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
        (
            "in EF transmission times",
            f"EF transmission times\n({unit_ms:.3f} ms each)",
            units == "units",
        ),
        (
            "in BE transmission times",
            "BE transmission times\n(of the BE packet named)",
            units == "BE tx times",
        ),
        ("BE payload sizes", "BE payload (bytes)", units == "bytes"),
        ("ratios", "ratio (0.1 = 10 %)", units == "1"),
    ]
    known = np.any([m for _, _, m in panels], axis=0)
    panels += [(f"results in {u}", u, units == u) for u in dict.fromkeys(units[~known])]
    return [p for p in panels if p[2].any()]


def _result_panel(
    ax, ds: xr.Dataset, title: str, ylabel: str, chosen: np.ndarray, colors: dict
) -> None:
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
        ax.plot(
            x + offset,
            value,
            "o" if offset < 0 else "s",
            color=colors[model],
            ms=7,
            label=f"{MODEL_LABELS[model]} (all seeds; line: per-seed range)",
        )
    if "value_issue13" in rows:
        ax.plot(
            x + 0.15,
            rows["value_issue13"].values.astype(float) * scale,
            "s",
            mfc="none",
            ms=7,
            color=colors["testbed"],
            alpha=0.6,
            label="first test-bed preset (calibrated on Table IV and Fig. 3-1)",
        )
    labels = [
        f"{titles.title(a, q)}{' *' if r == 'calibration' else ''}"
        for q, r, a in zip(rows["quantity"].values, rows["role"].values, rows["artefact"].values)
    ]
    ax.set_xticks(x, labels, rotation=40, ha="right", rotation_mode="anchor", fontsize=9)
    ax.set_ylabel(ylabel)
    ax.set_xlim(-0.6, x[-1] + 0.6)
    ax.set_title(title)


def _case_label(case: str) -> str:
    """A bound case (:data:`BOUND_CASES`) in words: ``tab4_k2`` -> "Table IV, k = 2",
    ``tab3_a_5_6`` -> "Table III, A = 5/6"."""
    if case.startswith("tab4_k"):
        return f"Table IV, k = {case[len('tab4_k') :]}"
    return f"Table III, A = {case[len('tab3_a_') :].replace('_', '/')}"


def _bound_panel(ax, ds: xr.Dataset, colors: dict) -> None:
    cases = [_case_label(str(c)) for c in ds["case"].values]
    x = np.arange(len(cases), dtype=float)
    for offset, model in zip((-0.2, 0.2), MODEL_LABELS):
        ax.bar(
            x + offset,
            to_ms(ds["bound"].sel(model=model)),
            0.38,
            color=colors[model],
            alpha=0.3,
            edgecolor=colors[model],
        )
        ax.plot(x + offset, to_ms(ds["max_delay"].sel(model=model)), "v", color=colors[model], ms=7)
    ax.set_xticks(x, cases, rotation=30, ha="right", fontsize=9)
    ax.set_ylabel("one-way delay (ms)")
    ax.set_title("worst-case bound (bars) vs simulated max (v)")


def figure(ds: xr.Dataset):
    """Every numeric measured result: the paper's value and both models, grouped by unit; the
    bounds.

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
    rows = [
        [p for p in panels if p[1].endswith("(ms)")],
        [p for p in panels if "transmission" in p[1]],
    ]
    rows.append([p for p in panels if p not in rows[0] and p not in rows[1]])
    rows = [r for r in rows if r]
    rows[0].append(None)  # the bounds panel closes the row in ms
    rows[-1].append("legend")
    fig, row_axes = kit.subplots(len(rows), 1, figsize=(15, 5.0 * len(rows)), footer=True)
    colors = _model_colors()
    legend_ax = None
    for row_ax, row in zip(np.atleast_1d(row_axes), rows):
        # each panel as wide as its results need (the bounds: one place per case; the legend: 4)
        widths = [
            4 if p == "legend" else ds.sizes["case"] if p is None else max(3, int(p[2].sum()))
            for p in row
        ]
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
    fig.suptitle(
        f"{ARTEFACT.id}: the papers' measured results, the papers' node model and the calibrated "
        "test-bed model (* = calibration set)"
    )
    kit.footer(
        fig,
        f"{int(ds.attrs['n_ef_samples']):,} reference packets per run,"
        f" {kit.seed_count(ds.sizes['seed'])}; test bed with {int(ds.attrs['frozen_hops'])}"
        " store-and-forward hop(s) (frozen by the calibration); one unit per row: milliseconds,"
        " transmission times, then bytes and ratios",
    )
    return fig


#: Table IV's rows that give Fig. 3-1's level at each local maximum (GLOBECOM'01 Sec. IV-A: the
#: maxima are
#: the BE packets that fill k = 1, 2 units, "validated by the delay formula" of Table IV).
FIG3_1_LEVELS = ("w_m_k1", "w_m_k2")


def fig3_1_paper_levels(maxima_payloads) -> tuple[np.ndarray, np.ndarray]:
    """The paper's levels of Fig. 3-1: (payloads of its local maxima, bytes; Table IV's measured
    ``W_m``, ms).

    From ``data/paper_values.csv`` (:func:`pqlab.papers.kit.paper_value`), one level per maximum, in
    order.
    """
    payloads = np.asarray(maxima_payloads, dtype=float)[: len(FIG3_1_LEVELS)]
    levels = [
        to_ms(us_to_s(kit.paper_value("globecom01_tab4", q)[0]))
        for q in FIG3_1_LEVELS[: payloads.size]
    ]
    return payloads, np.asarray(levels, dtype=float)


def _be_law_label(ds: xr.Dataset) -> str:
    """Which "real" BE law each model's Fig. 5 ran on: the stand-in for the papers' node, the test
    bed's own."""
    model = json.loads(ds.attrs["models"])["testbed"]
    if model.get("be_law", "preset") != "bimodal":
        return "the stand-in real law"
    small = round(100 * float(model["be_small_share"]))
    return (
        f"stand-in law for the papers' node,\nbimodal 64/1518-byte frames with {small} % small "
        "for the test bed"
    )


def figure_curves(ds: xr.Dataset):
    """The papers' curves under both models: Fig. 3-1 (mean delay vs BE payload) and Fig. 5 (CCDF).

    The paper's numbers are marked: Fig. 3-1's local maxima (BE payloads) with their levels
    (Table IV's measured ``W_m`` for k = 1, 2: :func:`fig3_1_paper_levels`) and Fig. 5's
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
    gaps = (
        np.flatnonzero(np.diff(payload) > _WINDOW_GAP_BYTES) + 1
    )  # the two search windows: no line between
    for model, label in MODEL_LABELS.items():
        delay = to_ms(ds["fig3_1_mean_delay"].sel(model=model).values)
        left.plot(
            np.insert(payload, gaps, np.nan),
            np.insert(delay, gaps, np.nan),
            ".-",
            color=colors[model],
            label=label,
        )
        right.semilogy(
            ds["delay_units"],
            ds["fig5_ccdf"].sel(model=model),
            "-",
            color=colors[model],
            label=label,
        )
    maxima = ds.where(ds["artefact"] == "globecom01_fig3_1", drop=True)
    for i, value in enumerate(maxima["paper"].values):
        left.axvline(
            float(value),
            color="black",
            ls="--",
            lw=1,
            label="paper: local maxima" if i == 0 else None,
        )
    payloads, levels = fig3_1_paper_levels(maxima["paper"].values)
    left.plot(payloads, levels, label="paper: Table IV $W_m$ at the maxima (k = 1, 2)", **_PAPER)
    left.set_xlabel("BE UDP payload (bytes)")
    left.set_ylabel("mean EF one-way delay (ms)")
    left.set_title("GLOBECOM'01 Fig. 3-1 under both models", fontsize=10)
    left.legend(fontsize=8)
    tail = ds.where(ds["artefact"] == "globecom01_fig5", drop=True)
    for value in tail["paper"].values:
        right.axvline(float(value), color="black", ls="--", lw=1, label='paper: "negligible above"')
    right.set_xlabel("EF one-way delay (transmission units)")
    right.set_ylabel("fraction of delays above")
    right.set_title(f"GLOBECOM'01 Fig. 5 under both models\n(BE: {_be_law_label(ds)})", fontsize=10)
    right.legend(fontsize=8)
    kit.footer(
        fig,
        f"{int(ds.attrs['n_ef_samples']):,} reference packets per run,"
        f" {kit.seed_count(ds.sizes['seed'])}; transmission unit"
        f" {to_ms(float(ds.attrs['unit_s'])):.3f} ms",
    )
    return fig
