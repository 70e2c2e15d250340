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

from ...base.units import to_ms, to_us, us_to_s
from ...measure import analysis, cache
from ...node.framing import line_time_s
from .. import judge, kit, presets
from .. import testbed_eval as te
from ..records import INCONSISTENCY_QUANTITY
from ..registry import Artefact
from ..stated import PAPERS
from ..testbed import TESTBED, worst_case_bound
from ..tftant_wfq.pq_vs_wfq_testbed import beat_max_be_tx, beat_slip_s

__all__ = ["ARTEFACT", "compute", "claims", "figure", "figure_curves", "CURVES_PART", "hops_needed",
           "inconsistency_note", "inconsistency_reason", "result_reason", "verdict_counts", "fig3_1_paper_levels", "BOUND_CASES", "HOPS",
           "MODEL_LABELS"]

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


#: The ring-release rule the calibration did not choose (the near-tie's alternative).
OTHER_RELEASE = "packet" if TESTBED.ring_release == "unit" else "unit"
#: Interval widths (transmission units) and grid offsets (fractions of the width) over which the long
#: version's "60 % in a single interval" is computed: the paper gives neither.
MODE_WIDTHS_UNITS = (0.5, 1.0, 2.0)
MODE_OFFSETS = (0.0, 0.25, 0.5, 0.75)
#: The Sec. 7 frame whose mode share the paper states, bytes.
MODE_FRAME_BYTES = presets.EF_FRAME_BYTES


def _spreads(ids: list[str], units: list[str], n: int, seeds) -> dict:
    """The test bed's reference delays in the runs of each delay-variation result: std, lag-1 correlation, range.

    Standard deviation and lag-1 correlation are means over the runs, the range (max - min) the
    largest; each in the result's unit (NaN for the other results).
    """
    runs = te.spread_scenarios(n)
    std, corr, spread = (np.full(len(ids), np.nan) for _ in range(3))
    for i, (rid, unit) in enumerate(zip(ids, units)):
        if rid not in runs:
            continue
        delays = [d[np.isfinite(d)] for d in (te.run(sc, s, TESTBED)["delay"] for sc in runs[rid] for s in seeds)]
        std[i] = te.in_result_unit(float(np.mean([np.std(d, ddof=1) for d in delays])), unit)
        corr[i] = float(np.mean([analysis.acf(d, 1)[1] for d in delays]))
        spread[i] = te.in_result_unit(float(max(np.ptp(d) for d in delays)), unit)
    what = "of the test bed's reference delays in the result's runs (the result's unit)"
    return {"delay_std": ("result", std, {"units": "1", "long_name": f"std {what}, mean over runs"}),
            "delay_lag1_corr": ("result", corr, {"units": "1", "long_name": f"lag-1 correlation {what}, mean"}),
            "delay_range": ("result", spread, {"units": "1", "long_name": f"largest range (max - min) {what}"})}


def _other_release(ids: list[str], frame, n: int, seeds) -> dict:
    """The calibration set and the PQ-vs-WFQ gaps under the ring-release rule the calibration rejected.

    ``other_release_value`` (result; NaN where not run) and both calibration objectives (RMS
    relative error over the calibration set, :func:`pqlab.papers.testbed_eval.objective`).
    """
    chosen = [r for r in te.RESULTS if r.role == "calibration" or r.artefact == "tftant_wfq_fig1"]
    other = te.evaluate({"other": replace(TESTBED, ring_release=OTHER_RELEASE)}, n_ef_samples=n, seeds=seeds,
                        results=chosen)
    found = dict(zip(other["artefact"] + "/" + other["quantity"], other["other"]))
    values = np.array([found.get(rid, np.nan) for rid in ids], dtype=float)
    percent = {"units": "percent"}
    return {
        "other_release_value": ("result", values,
                                {"units": "1", "long_name": f"test bed with ring_release={OTHER_RELEASE!r} "
                                                            "(the result's unit)"}),
        "objective_chosen": ((), te.objective(frame[frame["role"] == "calibration"], "testbed"),
                             {**percent, "long_name": "calibration objective of the frozen preset"}),
        "objective_other": ((), te.objective(other[other["role"] == "calibration"], "other"),
                            {**percent, "long_name": f"calibration objective with ring_release={OTHER_RELEASE!r}"}),
    }


def _law_band(ids: list[str], n: int, seeds) -> dict:
    """The test bed's smallest and largest value over the plausible BE laws (:func:`pqlab.papers.testbed_eval.law_band`)."""
    low, high = te.law_band(ids, TESTBED, n, seeds[:1])
    what = f"test bed over {len(te.plausible_be_laws())} plausible BE size laws, first seed (the result's unit)"
    return {"law_min": ("result", low, {"units": "1", "long_name": "smallest " + what}),
            "law_max": ("result", high, {"units": "1", "long_name": "largest " + what})}


def _scenario_facts(n: int, seeds) -> dict:
    """Numbers the reasons cite: Fig. 3-2's hop lag, the mode share's definition range, the loss without the
    tick, the idle path's serialisations, the TF-TANT sawtooth (each a scalar or a small grid)."""
    frozen = TESTBED.store_forward_hops
    with_hop = te.fig3_2_runs(TESTBED, n, seeds)
    fewer = te.fig3_2_runs(replace(TESTBED, store_forward_hops=max(frozen - 1, 0)), n, seeds)
    lag = float(np.mean([m for _, m in with_hop]) - np.mean([m for _, m in fewer]))
    jitters = [te.reference_jitter(te.frame_scenario(MODE_FRAME_BYTES, n), s, TESTBED) for s in seeds]
    grid = np.array([[np.mean([te.mode_fraction(j, w * te.UNIT_S, o * w * te.UNIT_S) for j in jitters])
                      for o in MODE_OFFSETS] for w in MODE_WIDTHS_UNITS])
    rtt = te.rtt_scenario(n)
    slip = beat_slip_s(te.TFTANT_IPDV_FRAME_BYTES)
    seconds = {"units": "s"}
    return {
        "fig3_2_hop_lag": ((), lag, {**seconds, "long_name": "Fig. 3-2: mean delay with the frozen hops minus "
                                                             "with one hop fewer"}),
        "fig3_2_ratio_without_lag": ((), float(np.mean([w / (m - lag) for w, m in with_hop])),
                                     {"units": "1", "long_name": "Fig. 3-2: (p95 - p5) / (mean - hop lag)"}),
        "mode_fraction_grid": (("mode_width", "mode_offset"), grid,
                               {"units": "1", "long_name": "share of |IPDV| in the most populated interval, "
                                                           f"{MODE_FRAME_BYTES}-byte frames, test bed"}),
        "loss_no_tick": ((), te.loss_20_streams(replace(TESTBED, os_tick_s=0.0), n, seeds),
                         {"units": "1", "long_name": "20-stream EF loss (largest over runs) without the OS tick"}),
        "rtt_line_time": ((), float(line_time_s(presets.ef_ip_bytes(te.RTT_FRAME_BYTES), PAPERS.framing,
                                                PAPERS.line_rate_bps)),
                          {**seconds, "long_name": "line time of the RTT probe on one papers' ATM line"}),
        "rtt_serialisations": ((), 1 + len(rtt.path.hops),
                               {"units": "1", "long_name": "ATM lines the probe crosses one way"}),
        "beat_slip": ((), float(slip[0]), {**seconds, "long_name": "TF-TANT slip of the EF arrivals per EF interval"}),
        "beat_max": ((), float(beat_max_be_tx(xr.DataArray(slip), te.BE_TX_S)[0]),
                     {"units": "BE tx times", "long_name": "sawtooth max(s, t_BE - s) / t_BE"}),
    }


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
    spread = _spreads(ids, list(frame["unit"]), n, seeds)
    other = _other_release(ids, frame, n, seeds)
    facts = {**_scenario_facts(n, seeds), **_law_band(ids, n, seeds)}
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
            **spread, **other, **facts,
        },
        coords={
            "result": ids, "model": models, "seed": list(seeds), "hops": list(hops), "case": list(BOUND_CASES),
            "be_payload_bytes": ("be_payload_bytes", payloads, {"units": "bytes", "long_name": "BE UDP payload"}),
            "mode_width": ("mode_width", list(MODE_WIDTHS_UNITS), {"units": "units", "long_name": "interval width"}),
            "mode_offset": ("mode_offset", list(MODE_OFFSETS), {"units": "1", "long_name": "grid offset / width"}),
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
            frozen_hops=TESTBED.store_forward_hops, unit_s=te.UNIT_S, be_tx_s=te.BE_TX_S,
            other_release=OTHER_RELEASE, n_be_laws=len(te.plausible_be_laws()),
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


#: A result whose value moves by less than this (percent of the paper's value) over the hop counts
#: tried does not move with the hop count (a fact of the ``mutually_inconsistent`` record).
HOP_SENSITIVITY_PERCENT = 1.0
#: The tables whose absolute delays grow with the hop count (their hop counts needed are facts of the
#: ``mutually_inconsistent`` record).
HOP_SENSITIVE_TABLES = ("globecom01_tab4", "globecom01_tab3")
#: The TF-TANT rows whose largest |IPDV| is the sawtooth of the EF arrivals against the BE departures.
SAWTOOTH_RESULTS = ("tftant_wfq_fig6_7/max_ipdv_fig7_pq", "tftant_wfq_fig6_7/max_ipdv_fig7_wfq",
                    "tftant_slides_ring/max_ipdv_one_be_tx", "tftant_slides_star/max_ipdv_one_be_tx")
#: Table IV's rows that move the other way (more lag lifts W_m k = 1 above the paper, less drops k = 3).
_COST_OF_MORE, _COST_OF_LESS = "globecom01_tab4/w_m_k1", "globecom01_tab4/w_m_k3"


def _note(ds: xr.Dataset, rid: str) -> str:
    """How one test-bed result was computed: the seeds' range and the values at each hop count tried."""
    row = ds.sel(result=rid)
    seeds = row["value_per_seed"].sel(model="testbed").values
    table = ", ".join(f"{int(h)} hops {judge.number_text(v)}" for h, v in zip(ds["hops"].values, row["hop_value"].values))
    return (f"test bed over all seeds (seeds {judge.number_text(np.nanmin(seeds))}..{judge.number_text(np.nanmax(seeds))}); with the hop counts "
            f"tried: {table}; role: {row['role'].values}")


def _hop_values(ds: xr.Dataset, rid: str) -> dict[int, float]:
    return {int(h): float(v) for h, v in zip(ds["hops"].values, ds["hop_value"].sel(result=rid).values)}


def _hop_lag_reason(ds: xr.Dataset, rid: str) -> dict | None:
    """Tables III/IV: the constant lag one hop adds, against the level the paper needs, and what one hop more
    (or fewer) costs the Table IV row that moves the other way."""
    row, frozen = ds.sel(result=rid), int(ds.attrs["frozen_hops"])
    values, unit = _hop_values(ds, rid), str(row["unit"].values)
    ours, paper = float(row["value"].sel(model="testbed")), float(row["paper"])
    if frozen - 1 not in values or frozen not in values:
        return None
    lag = values[frozen] - values[frozen - 1]
    gap = paper - ours
    more = gap > 0
    other, hops = (_COST_OF_MORE, frozen + 1) if more else (_COST_OF_LESS, frozen - 1)
    facts = [judge.fact("hop_lag", lag, unit), judge.fact("gap", abs(gap), unit),
             judge.fact("share", abs(gap) / lag, "hops")]
    text = ("each store-and-forward hop at the line rate adds a near-constant {hop_lag} here (the largest packet of "
            f"the busy period ahead of each EF packet); the paper's value lies {{gap}} {'above' if more else 'below'} "
            f"ours, the lag of {{share}} {'more' if more else 'fewer'}")
    if other != rid and hops in ds["hops"].values:
        facts += [judge.fact("other_hops", hops, "hops"),
                  judge.fact("cost", float(ds["hop_rel_err"].sel(result=other, hops=hops)), "%")]
        text += f", and {'one hop more' if more else 'one hop fewer'} ({{other_hops}}) puts {other} at {{cost}}"
    return judge.reason("mechanism", text, facts)


def _spread_reason(ds: xr.Dataset, rid: str) -> dict | None:
    """Delay-variation rows: the spread bounds of :mod:`pqlab.measure.analysis` next to the test bed's own spread."""
    row = ds.sel(result=rid)
    unit, paper = str(row["unit"].values), float(row["paper"])
    std, corr, spread = (float(row[v]) for v in ("delay_std", "delay_lag1_corr", "delay_range"))
    if not math.isfinite(std):
        return None
    if str(row["quantity"].values) == "max_ipdv":
        needed = analysis.min_delay_range_for_max_ipdv(paper)
        if spread >= needed:
            return None
        return judge.reason("bound", "a largest |IPDV| of {paper_value} needs a delay range (max - min) of at least "
                            "{range_needed} in any model; the test bed's largest range in these runs is {our_range}",
                            [judge.fact("paper_value", paper, unit), judge.fact("range_needed", needed, unit),
                             judge.fact("our_range", spread, unit)])
    # E|D_i - D_i-1| and std|D_i - D_i-1| are at most the RMS IPDV, sigma sqrt(2 (1 - rho))
    corr_needed = 1.0 - (paper / std) ** 2 / 2.0
    facts = [judge.fact("paper_value", paper, unit), judge.fact("our_std", std, unit)]
    if str(row["quantity"].values).startswith("mean_ipdv"):
        needed = analysis.min_delay_std_for_mean_ipdv(paper)
        facts.append(judge.fact("std_needed", needed, unit))
        if needed > std:
            return judge.reason("bound", "a mean |IPDV| of {paper_value} needs a delay standard deviation of at least "
                                "{std_needed} in any model (E|D_i - D_i-1| <= 2 sigma); the test bed's delays in this "
                                "run have {our_std}", facts)
        head = ("a mean |IPDV| of {paper_value} needs a delay standard deviation of at least {std_needed} (the test "
                "bed's: {our_std}) and ")
    else:
        head = "a standard deviation of |IPDV| of {paper_value} needs, with the test bed's delay std {our_std}, "
    if corr <= corr_needed:
        return None
    return judge.reason("mechanism", head + "consecutive delays less alike than ours: E|D_i - D_i-1| and "
                        "std|D_i - D_i-1| are at most sigma sqrt(2 (1 - rho)), so the paper's value needs a lag-1 "
                        "correlation of at most {corr_needed}; the test bed's is {our_corr}",
                        facts + [judge.fact("corr_needed", corr_needed, "1"), judge.fact("our_corr", corr, "1")])


def _sawtooth_reason(ds: xr.Dataset) -> dict:
    """The TF-TANT max-IPDV rows: the sawtooth arithmetic of their papers' node twins (one computation for four)."""
    slip = float(ds["beat_slip"]) / float(ds.attrs["be_tx_s"])
    return judge.reason(
        "arithmetic", "with EF frames of {frame} the EF interval is not a whole number of BE transmission times: "
        "the EF arrivals slip by s = {slip} per interval against the BE departures, so with a fixed number of BE "
        "packets ahead consecutive delays differ by s or t_BE - s, at most max(s, t_BE - s) = {sawtooth_max}, and "
        "where WFQ lets one more BE packet ahead the step is t_BE + min(s, t_BE - s) = {wfq_step}: neither is one "
        "whole BE transmission time",
        [judge.fact("frame", te.TFTANT_IPDV_FRAME_BYTES, "bytes"), judge.fact("slip", slip, "BE tx times"),
         judge.fact("sawtooth_max", float(ds["beat_max"]), "BE tx times"),
         judge.fact("wfq_step", 1.0 + min(slip, 1.0 - slip), "BE tx times")])


def _rtt_reason(ds: xr.Dataset, rid: str) -> dict:
    """The idle path's round trip: its serialisations, nothing of the node's queueing."""
    ours, paper = float(ds["value"].sel(result=rid, model="testbed")), float(ds["paper"].sel(result=rid))
    lines, line = int(ds["rtt_serialisations"]), to_ms(float(ds["rtt_line_time"]))
    rest = ours / 2 - lines * line
    return judge.reason(
        "arithmetic", "the probe crosses an idle path (no queue anywhere): one way is {serialisations} serialisations "
        "of the frame on the papers' ATM lines at {line_time} each plus {rest} on the Ethernet ports, and the round "
        "trip twice that; the paper's round trip leaves room for {allowed} such serialisations each way, fewer than "
        "the C7200 and the two C7500s of GLOBECOM'01 Sec. III",
        [judge.fact("serialisations", lines, ""), judge.fact("line_time", line, "ms"), judge.fact("rest", rest, "ms"),
         judge.fact("allowed", (paper / 2 - rest) / line, "")])


def _mode_reason(ds: xr.Dataset) -> dict:
    grid = ds["mode_fraction_grid"]
    return judge.reason(
        "definition", "the paper gives neither the interval's width nor the grid's origin: over widths of {width_min} "
        "to {width_max} and grid offsets, the test bed's share of |IPDV| in the most populated "
        "interval runs from {lowest} to {highest}",
        [judge.fact("width_min", float(ds["mode_width"].min()), "units"),
         judge.fact("width_max", float(ds["mode_width"].max()), "units"),
         judge.fact("lowest", float(grid.min()), "1"), judge.fact("highest", float(grid.max()), "1")])


def _tick_reason(ds: xr.Dataset) -> dict:
    model = json.loads(ds.attrs["models"])["testbed"]
    return judge.reason(
        "input", "the slides do not state how the generators time their packets: with the test bed's {tick} OS timer "
        "tick the {streams} EF streams' packets reach the priority queue together, which sets this loss; with exact "
        "CBR times the largest loss over the runs is {no_tick}",
        [judge.fact("tick", to_ms(float(model["os_tick_s"])), "ms"), judge.fact("streams", te.LOSS_STREAMS, ""),
         judge.fact("no_tick", float(ds["loss_no_tick"]), "1")])


def _fluctuation_reason(ds: xr.Dataset) -> dict:
    return judge.reason(
        "mechanism", "the store-and-forward hop adds a near-constant {hop_lag} to every delay of these runs: it raises "
        "the ratio's denominator (the mean) and not its numerator (p95 - p5); without that lag the ratio is "
        "{ratio_without_lag}",
        [judge.fact("hop_lag", to_ms(float(ds["fig3_2_hop_lag"])), "ms"),
         judge.fact("ratio_without_lag", float(ds["fig3_2_ratio_without_lag"]), "1")])


def _near_tie_reason(ds: xr.Dataset, rid: str) -> dict | None:
    """A held-out result whose verdict flips with the ring-release rule: the other rule's value and both objectives."""
    row = ds.sel(result=rid)
    other = float(row["other_release_value"])
    ours = float(row["value"].sel(model="testbed"))
    a, q = str(row["artefact"].values), str(row["quantity"].values)
    if not math.isfinite(other) or str(row["role"].values) != "held_out":
        return None
    # a near-tie: the other rule flips the verdict or puts the value at the tolerance's edge
    flips = te.verdict_of(a, q, other) != te.verdict_of(a, q, ours)
    if not (flips or judge.borderline(judge.relative_percent(other, float(row["paper"])))):
        return None
    chosen, rejected = json.loads(ds.attrs["models"])["testbed"]["ring_release"], ds.attrs["other_release"]
    return judge.reason(
        "input", f"the papers do not say when the ring's units return: the calibration chose release per {chosen} "
        f"(calibration RMS {{objective_chosen}}) over release per {rejected} ({{objective_other}}), a near-tie; with "
        f"release per {rejected} this result is {{other_rule_value}}",
        [judge.fact("objective_chosen", float(ds["objective_chosen"]), "%"),
         judge.fact("objective_other", float(ds["objective_other"]), "%"),
         judge.fact("other_rule_value", other, str(row["unit"].values))])


def _position_reason(ds: xr.Dataset, rid: str) -> dict | None:
    ours = float(ds["value"].sel(result=rid, model="testbed"))
    a, q = rid.split("/")
    after = te.first_after(a, q, ours)
    if not (math.isfinite(ours) and math.isfinite(after)):
        return None
    return judge.reason(
        "mechanism", "a BE packet past a particle boundary needs one more ring particle: the test bed's mean delay "
        "drops between the swept payloads {last_before} and {first_after}",
        [judge.fact("last_before", ours, "bytes"), judge.fact("first_after", after, "bytes")])


def result_reason(ds: xr.Dataset, rid: str) -> dict | None:
    """The reason of one test-bed result, computed from the Dataset (None where none applies): the drop
    interval (fact ``first_after``), the hop's lag, the spread bounds, the sawtooth, the idle path, the mode
    share's definition range, the tick, Fig. 3-2's lag-free ratio, the ring-release near-tie, the BE-law band."""
    a, q = rid.split("/")
    if (a, q) in te.POSITION_WINDOWS:
        return _position_reason(ds, rid)
    if a in HOP_SENSITIVE_TABLES:
        return _hop_lag_reason(ds, rid)
    if rid in SAWTOOTH_RESULTS:
        return _sawtooth_reason(ds)
    special = {"path/rtt_64_byte_packet": lambda: _rtt_reason(ds, rid),
               "long_fig7_tab3/mode_fraction_ef_128": lambda: _mode_reason(ds),
               "tftant_slides_loss/ef_loss_20_streams": lambda: _tick_reason(ds),
               "globecom01_fig3_2/fluctuation_fraction": lambda: _fluctuation_reason(ds)}
    if rid in special:
        return special[rid]()
    return _spread_reason(ds, rid) or _near_tie_reason(ds, rid) or _law_reason(ds, rid)


def _law_reason(ds: xr.Dataset, rid: str) -> dict | None:
    """A "real"-size result that differs or whose verdict the (unpublished) BE law decides: its band over laws."""
    row = ds.sel(result=rid)
    low, high = float(row["law_min"]), float(row["law_max"])
    if not (math.isfinite(low) and math.isfinite(high)):
        return None
    ours, paper = float(row["value"].sel(model="testbed")), float(row["paper"])
    if {te.verdict_of(*rid.split("/"), v) for v in (ours, low, high, min(max(paper, low), high))} == {"reproduced"}:
        return None
    unit = str(row["unit"].values)
    return judge.reason(
        "input", "the papers do not publish their BE size law (ours is a stand-in): over {laws} plausible laws (the "
        "stand-in, bimodal and trimodal mixes of small and MTU-size packets) the test bed gives {law_min} to "
        "{law_max} (first seed)",
        [judge.fact("laws", int(ds.attrs["n_be_laws"]), ""), judge.fact("law_min", low, unit),
         judge.fact("law_max", high, unit)])


def _reproduced_at(ds: xr.Dataset) -> dict[int, set]:
    """For each hop count tried, the results the judge calls reproduced (:func:`pqlab.papers.testbed_eval.verdict_of`)."""
    keys = list(zip(ds["result"].values, ds["artefact"].values, ds["quantity"].values))
    return {int(h): {str(r) for (r, a, q), v in zip(keys, ds["hop_value"].sel(hops=h).values)
                     if te.verdict_of(str(a), str(q), float(v)) == "reproduced"} for h in ds["hops"].values}


def inconsistency_note(ds: xr.Dataset) -> tuple[int, str]:
    """Which results no single hop count reproduces together: (count reproduced at some hop count, note)."""
    within = _reproduced_at(ds)
    some = set().union(*within.values())
    best_h = max(within, key=lambda h: (len(within[h]), -abs(h - int(ds.attrs["frozen_hops"]))))
    apart = sorted(some - within[best_h])
    never = sorted(set(map(str, ds["result"].values)) - some)
    note = (f"{len(some)} of {ds.sizes['result']} measured results are reproduced at some hop count in "
            f"{list(within)}, at most {len(within[best_h])} together ({best_h} hops); only at another hop count: "
            f"{', '.join(apart) or 'none'}; at no hop count tried: {len(never)} ({', '.join(never)})")
    return len(some), note


def inconsistency_reason(ds: xr.Dataset) -> dict:
    """The ``mutually_inconsistent`` record's reason: ``frozen_hops`` and one ``needs__<artefact>__<quantity>``
    fact (hops) per hop-sensitive result (:data:`HOP_SENSITIVE_TABLES`; a result no hop count moves is left out)."""
    hops = [int(h) for h in ds["hops"].values]
    facts, parts = [judge.fact("frozen_hops", int(ds.attrs["frozen_hops"]), "hops")], []
    for rid in ds["result"].values:
        row = ds.sel(result=rid)
        artefact, quantity = str(row["artefact"].values), str(row["quantity"].values)
        if artefact not in HOP_SENSITIVE_TABLES:
            continue
        need = hops_needed(row["hop_value"].values.astype(float), float(row["paper"]), hops)
        if math.isfinite(need):
            name = f"needs__{artefact}__{quantity}"
            facts.append(judge.fact(name, need, "hops"))
            parts.append(f"{artefact}/{quantity} {{{name}}}")
    together = [h for h, ok in _reproduced_at(ds).items()
                if {str(r) for r, a in zip(ds["result"].values, ds["artefact"].values) if a in HOP_SENSITIVE_TABLES}
                <= ok]
    frozen = _reproduced_at(ds).get(int(ds.attrs["frozen_hops"]), set())
    still = [str(r) for r, values, p in zip(ds["result"].values, ds["hop_value"].values, ds["paper"].values)
             if str(r) not in frozen and np.all(np.isfinite(values))
             and np.ptp(values) < HOP_SENSITIVITY_PERCENT / 100 * abs(float(p))]
    facts += [judge.fact("hop_counts_together", len(together), ""), judge.fact("hop_insensitive", len(still), ""),
              judge.fact("sensitivity", HOP_SENSITIVITY_PERCENT, "%")]
    return judge.reason("mechanism", "each store-and-forward hop adds a near-constant lag, and the test bed is frozen "
                        "at {frozen_hops}; the hop counts the papers' values need: " + "; ".join(parts) +
                        "; {hop_counts_together} of the hop counts tried reproduce them together; {hop_insensitive} "
                        "other results the frozen test bed does not reproduce move by less than {sensitivity} of the "
                        "paper's value over the hop counts tried", facts)


def verdict_counts(ds: xr.Dataset):
    """Per model and role, the judge's verdicts of the results (:func:`pqlab.papers.testbed_eval.counts`)."""
    frame = ds[["artefact", "quantity", "role"]].to_dataframe().reset_index(drop=True)
    for m in ds["model"].values:
        values = ds["value"].sel(model=m).values
        frame[f"{m}_verdict"] = [te.verdict_of(a, q, v) for a, q, v in zip(frame["artefact"], frame["quantity"], values)]
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
        rows.append(kit.claim(str(row["artefact"].values), str(row["quantity"].values),
                              float(row["value"].sel(model="testbed")), str(row["unit"].values), _note(ds, str(rid)),
                              model="testbed", role=str(row["role"].values), reason=result_reason(ds, str(rid))))
    count, note = inconsistency_note(ds)
    rows.append(kit.claim(art, INCONSISTENCY_QUANTITY, count, "results", note, model="testbed",
                          reason=inconsistency_reason(ds)))
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


#: Table IV's rows that give Fig. 3-1's level at each local maximum (GLOBECOM'01 Sec. IV-A: the maxima are
#: the BE packets that fill k = 1, 2 units, "validated by the delay formula" of Table IV).
FIG3_1_LEVELS = ("w_m_k1", "w_m_k2")


def fig3_1_paper_levels(maxima_payloads) -> tuple[np.ndarray, np.ndarray]:
    """The paper's levels of Fig. 3-1: (payloads of its local maxima, bytes; Table IV's measured ``W_m``, ms).

    From ``data/paper_values.csv`` (:func:`pqlab.papers.kit.paper_value`), one level per maximum, in order.
    """
    payloads = np.asarray(maxima_payloads, dtype=float)[:len(FIG3_1_LEVELS)]
    levels = [to_ms(us_to_s(kit.paper_value("globecom01_tab4", q)[0])) for q in FIG3_1_LEVELS[:payloads.size]]
    return payloads, np.asarray(levels, dtype=float)


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
    gaps = np.flatnonzero(np.diff(payload) > _WINDOW_GAP_BYTES) + 1  # the two search windows: no line between
    for model, label in MODEL_LABELS.items():
        delay = to_ms(ds["fig3_1_mean_delay"].sel(model=model).values)
        left.plot(np.insert(payload, gaps, np.nan), np.insert(delay, gaps, np.nan), ".-", color=colors[model],
                  label=label)
        right.semilogy(ds["delay_units"], ds["fig5_ccdf"].sel(model=model), "-", color=colors[model], label=label)
    maxima = ds.where(ds["artefact"] == "globecom01_fig3_1", drop=True)
    for i, value in enumerate(maxima["paper"].values):
        left.axvline(float(value), color="black", ls="--", lw=1, label="paper: local maxima" if i == 0 else None)
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
    right.set_title("GLOBECOM'01 Fig. 5 (stand-in real BE sizes) under both models", fontsize=10)
    right.legend(fontsize=8)
    kit.footer(fig, f"{int(ds.attrs['n_ef_samples']):,} reference packets per run, {kit.seed_count(ds.sizes['seed'])}; "
                    f"transmission unit {to_ms(float(ds.attrs['unit_s'])):.3f} ms")
    return fig
