"""The wording the claims of the aggregation sweep's artefacts share: series, CIs, trends, the BE reading.

``globecom01_fig7``, ``globecom01_tab3``, ``long_ipdv_vs_a`` and ``long_fig7_tab3`` judge their
Datasets (:mod:`pqlab.papers.globecom01.aggregation_runs`) against the papers with these helpers.
The Datasets are in SI units (seconds, bit/s); times are stated in ms (or us) and rates in
kbit/s through :mod:`pqlab.base.units`, never with a literal factor.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...base.units import to_ms
from .. import kit
from .aggregation_runs import a_text

__all__ = ["MISS_FRACTION", "NODE_MODEL_READING", "be_reading", "mtu_cause", "ms", "same", "ci_text", "series",
           "begin", "trend_text"]

#: A relative difference above which a value is a miss the explanation must attribute (the report's 10 %).
MISS_FRACTION = 0.10
#: The model reading every explanation below names: what the papers' node model assumes.
NODE_MODEL_READING = ("the papers' node model (one congested C7200, ring rule 5, the 2 downstream hops as a fixed "
                      "serialisation)")


def be_reading(kept_bytes: float, law_bytes: float | None = None) -> str:
    """The BE reading behind a number: the law by packet count and the mean size the node kept, bytes."""
    law = f", law mean {law_bytes:.0f}" if law_bytes is not None else ""
    return f"BE law by packet count (the papers' reading): kept BE packets mean {kept_bytes:.0f} bytes{law}"


def mtu_cause(mtu_ours: float | None, ours: float, paper: float, unit: str, what: str) -> str:
    """Which model reading causes a miss (> 10 %), computed: is the paper's value above what all-MTU BE gives?"""
    if mtu_ours is None or not np.isfinite(paper):
        return ""
    if mtu_ours < paper and abs(ours - paper) > MISS_FRACTION * abs(paper):
        return (f"; even deterministic 1500-byte BE gives {mtu_ours:.2f} {unit} < the paper's {paper:g} {unit}: no BE "
                f"size mix reaches the paper's {what} in {NODE_MODEL_READING}, so the miss is that model's")
    return f"; deterministic 1500-byte BE gives {mtu_ours:.2f} {unit} in {NODE_MODEL_READING}"


def ms(x) -> float:
    """A time in s as a float in ms."""
    return float(to_ms(float(x)))


def same(x):
    """No conversion: a quantity already in the unit stated."""
    return x


def ci_text(mean, half, convert=to_ms, unit="ms", digits=2) -> str:
    """``mean +/- half`` converted by ``convert`` (a :mod:`pqlab.base.units` function) and stated in ``unit``."""
    if np.isnan(half):
        return f"{convert(mean):.{digits}f} {unit}"
    return f"{convert(mean):.{digits}f} +/- {convert(half):.{digits}f} {unit}"


def series(ds, name, dim, convert=to_ms, digits=2, label=None) -> str:
    """``"<label>: <mean>, ..."`` of ``<name>_mean`` along ``dim`` (label default: ``A=<fraction>``)."""
    label = label or (lambda v: f"A={a_text(v)}")
    return ", ".join(f"{label(v)}: {convert(m):.{digits}f}"
                     for v, m in zip(ds[dim].values, ds[f"{name}_mean"].values))


def _seeds_text(ds) -> str:
    return f"{ds.attrs['n_seeds']} seed{'s' if ds.attrs['n_seeds'] > 1 else ''}"


def begin(ds: xr.Dataset, art: str, dim: str, trend: str) -> tuple[np.ndarray, bool, str]:
    """Check ``ds`` is ``art``'s Dataset; its ``dim`` values, whether its ``trend`` attr holds, its seeds text."""
    kit.check_artefact(ds, art)
    return ds[dim].values, bool(ds.attrs[trend]), _seeds_text(ds)


def trend_text(holds: bool, slope: float, half: float, convert, unit: str) -> str:
    """A trend's slope, its CI and whether the increase holds, converted and stated in ``unit``."""
    ci = "" if np.isnan(half) else f" +/- {convert(abs(half)):.3g}"
    return f"slope {convert(slope):+.3g}{ci} {unit} ({'increase holds' if holds else 'no significant increase'})"
