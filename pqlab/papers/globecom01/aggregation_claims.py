"""The wording the claims of the aggregation sweep's artefacts share: series, CIs, trends, the BE
reading, reasons.

``globecom01_fig7``, ``globecom01_tab3``, ``long_ipdv_vs_a`` and ``long_fig7_tab3`` judge their
Datasets (:mod:`pqlab.papers.globecom01.aggregation_runs`) against the papers with these helpers;
the
reasons (:func:`mtu_reason`, :func:`ipdv_spread_reason`, :func:`ipdv_range_reason`) are
:func:`pqlab.papers.judge.reason` records whose facts come from the Datasets (the judge decides).
The Datasets are in SI units (seconds, bit/s); times are stated in ms (or us) and rates in
kbit/s through :mod:`pqlab.base.units`, never with a literal factor.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...base.units import to_ms
from ...measure.analysis import min_delay_range_for_max_ipdv, min_delay_std_for_mean_ipdv
from .. import judge, kit
from .aggregation_runs import a_text

__all__ = [
    "be_reading",
    "mtu_reason",
    "ipdv_spread_reason",
    "ipdv_range_reason",
    "ms",
    "same",
    "ci_text",
    "series",
    "begin",
    "trend_text",
]


def be_reading(kept_bytes: float, law_bytes: float | None = None) -> str:
    """The BE reading behind a number: the law by packet count and the mean size the node kept,
    bytes."""
    law = f", law mean {law_bytes:.0f}" if law_bytes is not None else ""
    return (
        f"BE law by packet count (the papers' reading): kept BE packets mean {kept_bytes:.0f}"
        f" bytes{law}"
    )


def mtu_reason(
    name: str,
    ours: float,
    mtu: float,
    paper: float,
    unit: str,
    kept_bytes: float,
    *,
    upper_end: bool,
) -> dict:
    """Why a number of the sweep is what it is, from the deterministic 1500-byte BE reference: a
    reason record.

    With 1500-byte BE packets, the largest the BE workstations' Ethernet carries, the papers' node
    gives
    ``mtu``. Where that is the upper end of what BE sizes give (``upper_end``: a mean delay, which
    is
    largest with 1500-byte packets of all deterministic sizes) and the stand-in law gives less, an
    ``mtu`` still below the paper's value means no BE size mix reaches the paper on that node (kind
    ``bound``); otherwise (e.g. an |IPDV| spread, which a mix of sizes widens) the result moves with
    the unpublished BE law (kind ``input``).

    Parameters
    ----------
    name : str
        The quantity's short name in the facts (``delay``, ``std``): facts ``ours_<name>``,
        ``mtu_<name>``, ``paper_<name>`` and ``kept_bytes``.
    ours, mtu, paper : float
        Ours with the stand-in law, ours with 1500-byte BE, the paper's; all in ``unit``.
    unit : str
        Their unit.
    kept_bytes : float
        Mean IP length of the BE packets the node accepted with the stand-in law, bytes.
    upper_end : bool
        Whether 1500-byte BE gives the largest value any BE size gives (keyword only).
    """
    facts = [
        judge.fact(f"ours_{name}", ours, unit),
        judge.fact(f"mtu_{name}", mtu, unit),
        judge.fact(f"paper_{name}", paper, unit),
        judge.fact("kept_bytes", kept_bytes, "bytes"),
    ]
    if kit.check_bool("upper_end", upper_end) and ours <= mtu < paper:
        return judge.reason(
            "bound",
            "even deterministic 1500-byte BE, the largest packets the BE Ethernet carries, gives"
            f" {{mtu_{name}}} on the papers' node model, below the paper's {{paper_{name}}}: no BE"
            " size mix reaches it there; the stand-in law (kept BE packets {kept_bytes} on"
            f" average) gives {{ours_{name}}}",
            facts,
        )
    return judge.reason(
        "input",
        "the BE size law is a stand-in for the papers' unpublished trace: with it (kept BE packets"
        f" {{kept_bytes}} on average) ours is {{ours_{name}}}, with deterministic 1500-byte BE"
        f" {{mtu_{name}}}, the paper's {{paper_{name}}}",
        facts,
    )


def ipdv_spread_reason(
    paper_mean: float, ours_mean: float, model_std: float, model_lag1: float
) -> dict:
    """Why a mean |IPDV| (ms) is what it is, from the spread of the model's delays: a reason record.

    ``E|D_i - D_(i-1)| <= sigma sqrt(2 (1 - rho)) <= 2 sigma``
    (:func:`pqlab.measure.analysis.min_delay_std_for_mean_ipdv`). When the model's delay standard
    deviation ``model_std`` is below half the paper's mean, no member of the model family with that
    spread reaches it (kind ``bound``); otherwise the lag-1 correlation ``model_lag1`` of
    consecutive
    delays is what keeps the mean low: the paper's mean needs ``rho <= 1 - m^2 / (2 sigma^2)``
    (kind ``mechanism``). Times in ms.
    """
    needed = min_delay_std_for_mean_ipdv(paper_mean)
    base = [judge.fact("paper_mean", paper_mean, "ms"), judge.fact("model_std", model_std, "ms")]
    if model_std < needed:
        return judge.reason(
            "bound",
            "a mean |IPDV| of {paper_mean} needs a delay standard deviation of at least"
            " {needed_std} (E|D_i - D_(i-1)| <= 2 sigma, for any model); the model's delay standard"
            " deviation is {model_std}",
            [*base, judge.fact("needed_std", needed, "ms")],
        )
    needed_lag1 = 1.0 - paper_mean**2 / (2.0 * model_std**2)
    if np.isfinite(model_lag1) and model_lag1 > needed_lag1:
        return judge.reason(
            "mechanism",
            "consecutive reference delays are correlated (lag-1 correlation {model_lag1}): with the"
            " model's delay standard deviation {model_std}, a mean |IPDV| of {paper_mean} needs a"
            " lag-1 correlation of at most {needed_lag1} (E|D_i - D_(i-1)| <= sigma sqrt(2(1 -"
            " rho)))",
            [
                *base,
                judge.fact("model_lag1", model_lag1, "1"),
                judge.fact("needed_lag1", needed_lag1, "1"),
            ],
        )
    return judge.reason(
        "mechanism",
        "the model's delay standard deviation {model_std} and lag-1 correlation {model_lag1} allow"
        " a mean |IPDV| of {paper_mean}, but consecutive delays differ by {ours_mean} on average:"
        " the differences are skewed to small values",
        [
            *base,
            judge.fact("model_lag1", model_lag1 if np.isfinite(model_lag1) else 0.0, "1"),
            judge.fact("ours_mean", ours_mean, "ms"),
        ],
    )


def ipdv_range_reason(
    paper_max: float, largest_ipdv: float, smallest_range: float, largest_range: float, unit: str
) -> dict:
    """Why a largest |IPDV| is what it is, from the range of the model's delays: a reason record.

    ``|D_i - D_(i-1)| <= max D - min D``
    (:func:`pqlab.measure.analysis.min_delay_range_for_max_ipdv`):
    when even the widest delay range of our runs is below the paper's largest |IPDV|, no member of
    the
    model family with that range reaches it (kind ``bound``); otherwise consecutive packets never
    see the
    extremes (kind ``mechanism``). All in ``unit``.
    """
    needed = min_delay_range_for_max_ipdv(paper_max)
    facts = [
        judge.fact("paper_max", paper_max, unit),
        judge.fact("needed_range", needed, unit),
        judge.fact("smallest_range", smallest_range, unit),
        judge.fact("largest_range", largest_range, unit),
    ]
    if largest_range < needed:
        return judge.reason(
            "bound",
            "a largest |IPDV| of {paper_max} needs a delay range (max - min) of at least"
            " {needed_range} (|D_i - D_(i-1)| <= max D - min D, for any model); the model's delay"
            " ranges are {smallest_range} to {largest_range} per run",
            facts,
        )
    return judge.reason(
        "mechanism",
        "the model's delay ranges ({smallest_range} to {largest_range} per run) allow a largest"
        " |IPDV| of {paper_max} (it needs {needed_range}), but consecutive packets never see both"
        " extremes: the largest is {largest_ipdv}",
        [*facts, judge.fact("largest_ipdv", largest_ipdv, unit)],
    )


def ms(x) -> float:
    """A time in s as a float in ms."""
    return float(to_ms(float(x)))


def same(x):
    """No conversion: a quantity already in the unit stated."""
    return x


def ci_text(mean, half, convert=to_ms, unit="ms", digits=2) -> str:
    """``mean +/- half`` converted by ``convert`` (a :mod:`pqlab.base.units` function) and stated in
    ``unit``."""
    if np.isnan(half):
        return f"{convert(mean):.{digits}f} {unit}"
    return f"{convert(mean):.{digits}f} +/- {convert(half):.{digits}f} {unit}"


def series(ds, name, dim, convert=to_ms, digits=2, label=None) -> str:
    """``"<label>: <mean>, ..."`` of ``<name>_mean`` along ``dim`` (label default:
    ``A=<fraction>``)."""
    label = label or (lambda v: f"A={a_text(v)}")
    return ", ".join(
        f"{label(v)}: {convert(m):.{digits}f}"
        for v, m in zip(ds[dim].values, ds[f"{name}_mean"].values)
    )


def _seeds_text(ds) -> str:
    return f"{ds.attrs['n_seeds']} seed{'s' if ds.attrs['n_seeds'] > 1 else ''}"


def begin(ds: xr.Dataset, art: str, dim: str, trend: str) -> tuple[np.ndarray, bool, str]:
    """Check ``ds`` is ``art``'s Dataset; its ``dim`` values, whether its ``trend`` attr holds, its
    seeds text."""
    kit.check_artefact(ds, art)
    return ds[dim].values, bool(ds.attrs[trend]), _seeds_text(ds)


def trend_text(holds: bool, slope: float, half: float, convert, unit: str) -> str:
    """A trend's slope, its CI and whether the increase holds, converted and stated in ``unit``."""
    ci = "" if np.isnan(half) else f" +/- {convert(abs(half)):.3g}"
    return (
        f"slope {convert(slope):+.3g}{ci} {unit}"
        f" ({'increase holds' if holds else 'no significant increase'})"
    )
