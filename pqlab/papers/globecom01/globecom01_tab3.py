"""GLOBECOM'01 Table III (long version Sec. 6.1): mean EF one-way delay per Aggregation Degree A,
and its parts.

The artefact's computation (:func:`compute`), claims (:func:`claims`) and figure (:func:`figure`);
the notebook ``notebooks/03_aggregation`` runs them on the aggregation sweep of
:mod:`pqlab.papers.globecom01.aggregation_runs`, with the measured parts of the delay (path,
node) that explain the gap. The Dataset is in SI units (times in seconds, rates in bit/s,
sizes in bytes); the claims and the figure state times in ms and rates in kbit/s.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...base.units import to_kbps, to_ms
from ...measure import cache
from ...measure.analysis import mean_ci, trend
from .. import judge, kit, testbed, testbed_eval
from ..presets import real_be_sizes
from ..registry import Artefact
from ..stated import EF_AGGREGATE_BPS, EF_FRAME_BYTES, REF_RATES_BPS
from . import aggregation_claims as wording
from . import aggregation_figures as drawing
from .aggregation_runs import a_key, add_per_run, aggregation_sweep, attrs, mtu_runs

__all__ = ["ARTEFACT", "compute", "claims", "figure"]

ARTEFACT = Artefact(__name__, notebook="03_aggregation")


@cache.artefact(ARTEFACT.id)
def compute(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    *,
    ref_rates_bps=REF_RATES_BPS,
    ef_aggregate_bps: float = EF_AGGREGATE_BPS,
    common_be: bool = True,
    mtu_reference: bool = True,
    testbed_model: bool = True,
) -> xr.Dataset:
    """Mean one-way delay per Aggregation Degree (GLOBECOM'01 Table III) and its parts.

    Parameters
    ----------
    n_ef_samples, seeds, ref_rates_bps, ef_aggregate_bps, common_be
        The aggregation sweep (:func:`pqlab.papers.globecom01.aggregation_runs.aggregation_sweep`):
        reference packets per run (the papers: 10,000), seeds (every number is a mean over them),
        reference rates and EF aggregate (bit/s of frames; 300 kbit/s), BE generated first.
    mtu_reference : bool
        Also run :func:`pqlab.scenarios.base_case` with 1500-byte BE packets (same
        seeds and sample count): the node's delay with the largest BE packets, to
        tell the stand-in BE mix from the node model as the cause of a gap.
    testbed_model : bool
        Also run every reference rate under the calibrated test-bed model
        (:data:`pqlab.papers.testbed.TESTBED`, the runs of :func:`pqlab.papers.testbed_eval.run`
        on :func:`pqlab.papers.testbed_eval.aggregation_scenario`, same seeds and sample count):
        ``testbed_delay_mean``, the model the report also judges Table III by.

    Returns
    -------
    xarray.Dataset
        Per (aggregation_degree, seed): ``delay_mean`` (s), ``node_delay_mean`` (s,
        node only: departure - arrival), ``be_kept_mean_bytes`` (mean IP length of
        the BE packets the node accepted), ``be_offered_mean_bytes`` (of those offered); each with
        ``_mean``/``_ci`` over seeds; ``mtu_delay_mean (seed)``; ``testbed_delay_mean`` (s, per
        (aggregation_degree, seed), with ``_mean``/``_ci``); attrs with the path's part and the
        trend
        of the mean along A.
    """
    mtu = kit.check_bool("mtu_reference", mtu_reference)
    with_testbed = kit.check_bool("testbed_model", testbed_model)
    scs, runs, coords = aggregation_sweep(
        n_ef_samples, seeds, ref_rates_bps, ef_aggregate_bps, common_be
    )
    ds = xr.Dataset(coords=coords)
    dims = ("aggregation_degree", "seed")
    ds["delay_mean"] = (
        dims,
        np.array([[np.nanmean(r["delay"]) for r in row] for row in runs]),
        {"units": "s", "long_name": "mean one-way delay (node + path)"},
    )
    add_per_run(
        ds,
        runs,
        dims,
        "node_delay_mean",
        "be_kept_mean_bytes",
        "be_offered_mean_bytes",
        "be_loss_ratio",
    )
    seeds_ = list(coords["seed"][1])
    averaged = [
        "delay_mean",
        "node_delay_mean",
        "be_kept_mean_bytes",
        "be_offered_mean_bytes",
        "be_loss_ratio",
    ]
    if with_testbed:
        ds["testbed_delay_mean"] = (
            dims,
            np.array(
                [
                    [
                        np.nanmean(
                            testbed_eval.run(
                                testbed_eval.aggregation_scenario(rate, int(n_ef_samples), None),
                                seed,
                                testbed.TESTBED,
                            )["delay"]
                        )
                        for seed in seeds_
                    ]
                    for rate in coords["ref_rate_bps"][1]
                ]
            ),
            {
                "units": "s",
                "long_name": (
                    "mean one-way delay, calibrated test-bed model (pqlab.papers.testbed.TESTBED)"
                ),
            },
        )
        averaged.append("testbed_delay_mean")
    kit.add_mean_ci(ds, averaged)
    if mtu:
        ref = mtu_runs(int(n_ef_samples), seeds_)
        ds["mtu_delay_mean"] = (
            "seed",
            ref["delay_mean"][0],
            {
                "units": "s",
                "long_name": "mean one-way delay with deterministic 1500-byte BE packets",
            },
        )
    slope, half, holds = trend(ds["delay_mean"].values, ds["aggregation_degree"].values)
    ds.attrs = attrs(
        ARTEFACT.id,
        __name__,
        scs,
        seeds_,
        common_be,
        "GLOBECOM'01 Table III: mean EF one-way delay vs Aggregation Degree (stand-in BE sizes)",
        delay_slope_s=slope,
        delay_slope_ci_s=half,
        mean_increases=int(holds),
        stand_in_mean_bytes=float(real_be_sizes().mean_bytes),
    )
    return ds


def claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`compute`'s Dataset: mean delay per A and its trend, the rates and
    A."""
    art = ARTEFACT.id
    a, holds, seeds = wording.begin(ds, art, "aggregation_degree", "mean_increases")
    path_ms = to_ms(ds.attrs["path_delay_ef_s"])
    means = wording.series(ds, "delay_mean", "aggregation_degree")
    trend_ = wording.trend_text(
        holds, ds.attrs["delay_slope_s"], ds.attrs["delay_slope_ci_s"], to_ms, "ms per unit A"
    )
    mtu = wording.ms(np.mean(ds["mtu_delay_mean"].values)) if "mtu_delay_mean" in ds else None
    rows = []
    for i, av in enumerate(a):
        key = a_key(av)
        mean, half = ds["delay_mean_mean"].values[i], ds["delay_mean_ci"].values[i]
        node = ds["node_delay_mean_mean"].values[i]
        kept = ds["be_kept_mean_bytes_mean"].values[i]
        paper = kit.paper_value(art, f"mean_delay_{key}")[0]
        testbed_text = (
            "; calibrated test-bed model"
            f" {wording.ms(ds['testbed_delay_mean_mean'].values[i]):.2f} ms"
            if "testbed_delay_mean" in ds
            else ""
        )
        note = (
            f"ours {wording.ci_text(mean, half)} ({seeds}) = path {path_ms:.2f} ms (2 ATM hops) +"
            f" node {to_ms(node):.2f} ms;"
            f" {wording.be_reading(kept, ds.attrs['stand_in_mean_bytes'])}" + testbed_text
        )
        why = (
            wording.mtu_reason(
                "delay", wording.ms(mean), mtu, paper, "ms", float(kept), upper_end=True
            )
            if mtu is not None and np.isfinite(paper)
            else None
        )
        rows.append(kit.claim(art, f"mean_delay_{key}", wording.ms(mean), "ms", note, reason=why))
    for i, av in enumerate(a):
        rate = ds["ref_rate_bps"].values[i]
        rows.append(
            kit.claim(
                art,
                f"ref_load_{a_key(av)}",
                to_kbps(rate),
                "kbit/s",
                f"preset aggregation(ref_rate_bps={rate:g}), frames",
            )
        )
        rows.append(
            kit.claim(
                art,
                f"a_ref_load_{to_kbps(rate):g}",
                av,
                "1",
                "pqlab.metrics.aggregation_degree of the preset's "
                f"{int(ds['n_ef_streams'].values[i])} EF stream rates",
            )
        )
    rows.append(
        kit.claim(
            art,
            "ef_aggregate_load",
            to_kbps(ds.attrs["ef_aggregate_bps"]),
            "kbit/s",
            f"sum of the preset's EF stream rates counted on {EF_FRAME_BYTES}-byte frames",
        )
    )
    rows.append(
        kit.claim(
            art,
            "mean_delay_increases_with_a",
            None,
            "-",
            f"mean one-way delay per A (ms, {seeds}, paired BE mixes): {means}; {trend_}",
            holds,
            reason=_trend_reason(ds),
        )
    )
    return rows


def _trend_reason(ds: xr.Dataset) -> dict:
    """Why the mean delay moves as it does along A: the EF aggregate, the same at every A, and the
    node's part."""
    art = ARTEFACT.id
    a = ds["aggregation_degree"].values
    top, zero = int(np.argmax(a)), int(np.argmin(a))

    def change(name):
        return wording.ms(ds[f"{name}_mean"].values[top] - ds[f"{name}_mean"].values[zero])

    paper = [kit.paper_value(art, f"mean_delay_{a_key(a[i])}")[0] for i in (top, zero)]
    facts = [
        judge.fact("aggregate", to_kbps(ds.attrs["ef_aggregate_bps"]), "kbit/s"),
        judge.fact("a_top", a[top], "1"),
        judge.fact("ours_change", change("delay_mean"), "ms"),
    ]
    text = (
        "the EF aggregate stays {aggregate} at every A, so the EF traffic a reference packet meets"
        " hardly changes: from A = 0 to A = {a_top} the mean delay moves {ours_change}"
    )
    if np.all(np.isfinite(paper)):
        text += ", where the paper's rises {paper_change}"
        facts.append(judge.fact("paper_change", paper[0] - paper[1], "ms"))
    if "testbed_delay_mean" in ds:
        text += " (the calibrated test-bed model: {testbed_change})"
        facts.append(judge.fact("testbed_change", change("testbed_delay_mean"), "ms"))
    return judge.reason("mechanism", text, facts)


def figure(ds: xr.Dataset, paper_values=None):
    """Mean one-way delay vs Aggregation Degree: ours against Table III (left), change from A = 0
    (right).

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`compute`.
    paper_values : pandas.DataFrame, optional
        :func:`pqlab.papers.records.load_paper_values`; adds the paper's Table III.

    Returns
    -------
    matplotlib.figure.Figure
    """
    a = ds["aggregation_degree"].values
    fig, (ax, ax_d) = kit.subplots(1, 2, figsize=(12, 4.6), footer=True)
    drawing.errorbar_vs(
        ax, a, ds, "delay_mean", to_ms, label="pqlab papers' node (mean, 95% CI over seeds)"
    )
    ax.plot(
        a,
        to_ms(ds["node_delay_mean_mean"].values),
        "^--",
        color="C2",
        label="pqlab node part (departure - arrival)",
    )
    ax.axhline(
        to_ms(ds.attrs["path_delay_ef_s"]),
        color="0.5",
        ls=":",
        label="pqlab path part (2 ATM hops)",
    )
    if "mtu_delay_mean" in ds:
        ax.axhline(
            to_ms(float(ds["mtu_delay_mean"].mean())), color="C4", ls="-.", label=drawing.MTU_LABEL
        )
    if "testbed_delay_mean" in ds:
        half = to_ms(ds["testbed_delay_mean_ci"].values)
        ax.errorbar(
            a,
            to_ms(ds["testbed_delay_mean_mean"].values),
            yerr=None if np.all(np.isnan(half)) else half,
            fmt="-o",
            color="C1",
            mfc="white",
            capsize=4,
            label="pqlab calibrated test-bed model (mean, 95% CI)",
        )
    paper = drawing.paper_series(paper_values, ARTEFACT.id, [f"mean_delay_{a_key(v)}" for v in a])
    drawing.plot_paper(ax, a, paper, "paper, Table III")
    ax.set_xlabel("Aggregation Degree A")
    ax.set_ylabel("mean one-way delay (ms)")
    ax.set_ylim(0, None)
    ax.set_title("Table III: mean one-way delay (papers' node and test-bed model)")
    kit.legend_below(ax, ncol=2)
    # change from A = 0, paired within seeds (same BE mix)
    i0 = int(np.argmin(a))
    diff = to_ms(ds["delay_mean"].values - ds["delay_mean"].values[i0])
    mean, half = mean_ci(diff)
    for j in range(diff.shape[1]):
        ax_d.plot(
            a,
            diff[:, j],
            "o",
            color="C0",
            alpha=0.3,
            ms=4,
            label="pqlab, one seed each" if j == 0 else None,
        )
    ax_d.errorbar(
        a,
        mean,
        yerr=None if np.all(np.isnan(half)) else half,
        fmt="-s",
        color="C0",
        capsize=4,
        label="pqlab (mean, 95% CI, paired seeds)",
    )
    drawing.plot_paper(ax_d, a, paper - paper[i0], "paper, Table III")
    if "testbed_delay_mean" in ds:
        tb = to_ms(ds["testbed_delay_mean"].values - ds["testbed_delay_mean"].values[i0])
        ax_d.plot(
            a,
            mean_ci(tb)[0],
            "-o",
            color="C1",
            mfc="white",
            label="pqlab calibrated test-bed model",
        )
    ax_d.axhline(0, color="0.3", lw=0.8)
    ax_d.set_xlabel("Aggregation Degree A")
    ax_d.set_ylabel("delay change from A = 0 (ms)")
    ax_d.set_title("Trend with A")
    kit.legend_below(ax_d, ncol=2)
    fig.suptitle(f"{ARTEFACT.id}: average EF one-way delay vs Aggregation Degree A")
    drawing.stand_in_footer(
        fig, ds, pooled=False, extra="paired: one seed gives the same BE mix at every A"
    )
    return fig
