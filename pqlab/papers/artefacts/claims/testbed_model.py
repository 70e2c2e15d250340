"""Claims of the test-bed model: every numeric measured result under the calibrated test bed.

The data of :mod:`pqlab.papers.artefacts.testbed_model` as claim records with ``model="testbed"``:
one per measured result (the artefact id and quantity of ``data/paper_values.csv``, so the
report puts it next to the papers' node row of the same claim), its role in the calibration
protocol, and a computed reason for each miss (the seed spread, the values with 0, 1 and 2
store-and-forward hops, the hop count the paper's value would need). Two pqlab-only rows:
which results no single hop count reproduces together, and whether every simulated maximum
stays under the test-bed path's worst-case bound.
"""

from __future__ import annotations

import math

import numpy as np
import xarray as xr

from ...records import INCONSISTENCY_QUANTITY, TOLERANCE_PERCENT
from ....base.units import to_ms
from ...testbed_eval import next_swept_payload
from .._common import check_artefact, claim
from ..testbed_model import hops_needed
from .rules import position_ok, position_text

#: Position claims (a payload where the mean delay drops): judged by the position rule, not by 10 %.
POSITION_QUANTITIES = {"local_max_be_payload_1": 0, "local_max_be_payload_2": 1}

__all__ = ["testbed_model_claims"]

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


def testbed_model_claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of ``testbed_model`` (module docstring): one per measured result, and two pqlab-only rows."""
    art = "testbed_model"
    check_artefact(ds, art)
    rows = []
    for rid in ds["result"].values:
        row = ds.sel(result=rid)
        quantity, value = str(row["quantity"].values), float(row["value"].sel(model="testbed"))
        note, shape_ok = _reason(ds, rid), None
        if quantity in POSITION_QUANTITIES and math.isfinite(value):
            after = next_swept_payload(POSITION_QUANTITIES[quantity], value)
            paper = float(row["paper"])
            shape_ok = position_ok(value, after, paper)
            note = f"paper {paper:g} " + position_text(value, after, paper) + f"; {note}"
        rows.append(claim(str(row["artefact"].values), quantity, value, str(row["unit"].values), note,
                          shape_ok=shape_ok, model="testbed", role=str(row["role"].values)))
    count, note = inconsistency_note(ds)
    rows.append(claim(art, INCONSISTENCY_QUANTITY, count, "results", note, model="testbed"))
    margin = (ds["bound"] - ds["max_delay"]).sel(model="testbed")
    worst = str(margin.idxmin("case").values)
    rows.append(claim(
        art, "bound_margin_min", to_ms(float(margin.min())), "ms",
        f"the test-bed path's worst-case bound minus the largest simulated delay, smallest over "
        f"{', '.join(map(str, ds['case'].values))}: {worst} (bound {to_ms(float(ds['bound'].sel(case=worst, model='testbed'))):.2f} ms, "
        f"simulated max {to_ms(float(ds['max_delay'].sel(case=worst, model='testbed'))):.2f} ms)",
        shape_ok=bool((margin >= 0).all()), model="testbed"))
    return rows
