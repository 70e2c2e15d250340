"""Claims on the gap analysis: which hypothesis explains Table IV W_m and Table III best.

The data of :mod:`pqlab.papers.artefacts.gap` judged against the papers: one
``<artefact id>_claims(data)`` per artefact, returning claim records
(:func:`pqlab.papers.artefacts._common.claim`).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._common import check_artefact, claim
from ...records import TOLERANCE_PERCENT
from ....base.units import to_ms, to_us
from ..gap import (
    HYPOTHESES,
    best_per_hypothesis,
    w_m_in_paper_unit,
)

__all__ = [
    "gap_claims",
]


def _describe(ds: xr.Dataset, case: str) -> str:
    ks = [int(k) for k in ds["k"].values]
    wm = ", ".join(f"{float(to_ms(ds['w_m_mean'].sel(case=case, k=k))):.2f}" for k in ks)
    err = ", ".join(f"{float(ds['rel_err'].sel(case=case, k=k)):+.0f}" for k in ks)
    text = f"{case}: W_m k={','.join(map(str, ks))} = {wm} ms ({err}%)"
    if np.isfinite(float(ds["tab3_a0_mean"].sel(case=case))):
        text += (f", Table III A=0 (stand-in BE sizes) {float(to_ms(ds['tab3_a0_mean'].sel(case=case))):.2f} ms "
                 f"({float(ds['tab3_rel_err'].sel(case=case)):+.0f}%)")
    text += f"; RMS error Table IV {float(ds['rms_err_tab4'].sel(case=case)):.1f}%"
    if np.isfinite(float(ds["rms_err_all"].sel(case=case))) and bool(ds.attrs.get("table_iii", 1)):
        text += f", with Table III {float(ds['rms_err_all'].sel(case=case)):.1f}%"
    return text


def gap_claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of ``gap``: the best hypothesis, and one ``w_m_k2_<hyp>`` per hypothesis (its best setting).

    ``w_m_k2_<hyp>`` is Table IV's ``W_m`` at ``k = 2`` (us) under that
    hypothesis's best setting in its grid; the note gives every ``k``, Table III
    and the grid.
    """
    art = "gap"
    check_artefact(ds, art)
    best = ds.attrs["best_case"]
    best4 = ds.attrs["best_case_tab4"]
    paper_k2 = float(to_us(ds["paper_w_m"].sel(k=2))) if 2 in ds["k"].values else float("nan")
    within = bool((np.abs(ds["rel_err"].sel(case=best)) <= TOLERANCE_PERCENT).all())
    hyp4 = str(ds["hypothesis"].sel(case=best4).values)
    within4 = bool((np.abs(ds["rel_err"].sel(case=best4)) <= TOLERANCE_PERCENT).all())
    criterion = "Table IV W_m (all k) and Table III A=0" if bool(ds.attrs.get("table_iii", 1)) else "Table IV W_m"
    rows = [
        claim(art, "best_hypothesis", None, "-",
              f"{ds.attrs['best_hypothesis']} ({HYPOTHESES.get(ds.attrs['best_hypothesis'], '')}) has the smallest "
              f"RMS error over {criterion} among plausible cases: {_describe(ds, best)}; every W_m within 10%: "
              f"{'yes' if within else 'no'}; against {_describe(ds, 'base')}; grid: {ds.attrs['grid']}"),
        claim(art, "best_hypothesis_table_iv", None, "-",
              f"for Table IV's W_m alone {hyp4} ({HYPOTHESES.get(hyp4, '')}) fits best among plausible cases: "
              f"{_describe(ds, best4)}; every W_m within 10%: {'yes' if within4 else 'no'}"),
    ]
    for hyp, case in best_per_hypothesis(ds).items():
        if 2 not in ds["k"].values:
            break
        value = float(w_m_in_paper_unit(ds).sel(case=case, k=2))
        reason = str(ds["reason"].sel(case=case).values)
        note = f"{HYPOTHESES.get(hyp, hyp)}; best of its grid {_describe(ds, case)}"
        if hyp == "H5":
            needed = ", ".join(f"{v:.2f}" for v in to_ms(ds["fixed_s_needed"].values))
            note += (f"; latency needed per k = {needed} ms (Table III: {float(to_ms(ds.fixed_s_needed_tab3)):.2f} ms): "
                     f"a constant cannot make a k-dependent gap")
        if reason:
            note += f"; {reason}"
        note += f"; paper W_m(k=2) = {paper_k2:.0f} us"
        key = "w_m_k2_" + hyp.lower().replace("+", "_")
        rows.append(claim(art, key, value, "us", note))
    return rows
