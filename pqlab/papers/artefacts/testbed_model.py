"""The test-bed model next to the papers' node model: every numeric measured result, both models.

The papers' node model (:data:`pqlab.papers.testbed.PAPERS_NODE`, exactly ``pqlab.simulate``)
simulates the C7200 output interface the papers describe; the test-bed model
(:data:`pqlab.papers.testbed.TESTBED`) adds the measured path around it (store-and-forward
hops carrying BE, the generators' OS tick, the FastEthernet input, per-packet BE sizes,
RFC 2679 timestamps), with its free parameters frozen by the calibration protocol of
``docs/testbed.md`` (``data/testbed_calibration.json``: Table IV's ``W_m`` and Fig. 3-1's
local maxima are the calibration set; every other result is a held-out prediction).

:func:`testbed_model` computes every numeric measured result of ``data/paper_values.csv``
(``kind == "result"``) under both models with :func:`pqlab.papers.testbed_eval.evaluate`, each
seed apart (the spread), the same results with the frozen preset's hop count replaced by
each of ``hops`` (which hop count each result would need: the test for results no single
model reproduces together), and the end-to-end worst-case bound of the test-bed path
(:func:`pqlab.papers.testbed.worst_case_bound`) next to the largest simulated delay of Table IV's
and Table III's scenarios. Its claim records are ``testbed_model_claims(data)`` in
:mod:`pqlab.papers.artefacts.claims.testbed_model` (``from pqlab.papers.artefacts.claims import
testbed_model as testbed_model_claims``): this module does not import or offer the claims.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import xarray as xr

from ...measure import cache
from .. import presets
from .. import testbed_eval as te
from ..testbed import TESTBED, worst_case_bound
from ._common import check_n_ef_samples, check_seeds, provenance

__all__ = ["testbed_model", "hops_needed", "BOUND_CASES", "HOPS"]

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


@cache.artefact()
def testbed_model(n_ef_samples: int = 2_000, seeds=(1, 2), hops=HOPS) -> xr.Dataset:
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
    n = check_n_ef_samples(n_ef_samples, 100, 10_000_000)
    seeds = check_seeds(seeds)
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
        attrs=provenance(
            "testbed_model", "Every numeric measured result under the papers' node and the test-bed model",
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
