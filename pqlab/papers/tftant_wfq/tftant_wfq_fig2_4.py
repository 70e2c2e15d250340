"""TF-TANT PQ-vs-WFQ page, Figs. 2-4: delay over time, PQ vs WFQ, 128/1024/1518 bytes.

The artefact's computation (:func:`compute`), statistics (:func:`statistics`), claims
(:func:`claims`) and figure (:func:`figure`); the notebook ``notebooks/07_tftant_pq_vs_wfq``
runs them, on the per-packet runs it shares with ``tftant_wfq_fig6_7``
(:func:`pqlab.papers.tftant_wfq.pq_vs_wfq_runs.series_dataset`). The Dataset is in SI units
(times in seconds; arrival times in s; multiples of the BE transmission time in "BE tx times");
the claims state times in ms (their statistics computed again from the converted per-packet
values); the figure draws ms against arrival times in s.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...measure import cache
from .. import judge, kit, presets
from ..registry import Artefact
from .pq_vs_wfq_claims import MS_ROUNDING_TOLERANCE, RELATIVE_TOLERANCE, in_ms_be_tx, listing, tag_facts, value_at
from .pq_vs_wfq_plots import N_POINTS, conditions, figure_legend, in_ms_for_axes, series_panels
from .pq_vs_wfq_runs import SERIES_FRAME_SIZES, series_dataset
from .pq_vs_wfq_testbed import BE_TX, EQUIVALENT_BE_TX

__all__ = ["ARTEFACT", "compute", "statistics", "claims", "figure", "NO_SHIFT_BE_TX", "SAME_SHAPE_CORRELATION",
           "DOMINANT_SHARE"]

ARTEFACT = Artefact(__name__, notebook="07_tftant_pq_vs_wfq")

#: A mean WFQ - PQ difference below this many BE tx times is none: no share of it is taken.
NO_SHIFT_BE_TX = 1e-9
#: The PQ and WFQ delay series correlate at least this well: "the same shape".
SAME_SHAPE_CORRELATION = 0.9
#: At least this share of the WFQ - PQ difference is EF-queue wait: "dominates".
DOMINANT_SHARE = 0.9


@cache.artefact(ARTEFACT.id)
def compute(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    frame_sizes=SERIES_FRAME_SIZES,
    ef_service_rate_bps: float = presets.TFTANT_EF_SERVICE_RATE_BPS,
) -> xr.Dataset:
    """TF-TANT PQ-vs-WFQ page, Figs. 2-4: EF one-way delay over time with WFQ and PQ (128, 1024, 1518 bytes).

    Per scheduler, frame size and seed the delay of every measured EF packet, its
    arrival time and EF-queue wait; per run the mean, min, max and spread (s and BE
    tx times); per frame and seed the correlation of the PQ and WFQ series (same
    arrivals) and the mean and spread of their difference, and how much of the
    difference is EF-queue wait.

    Parameters
    ----------
    n_ef_samples : int
        EF packets per run (>= 10).
    seeds : sequence of int
        Seeds (>= 0, distinct).
    frame_sizes : sequence of int
        EF frame sizes, bytes (the page: 128, 1024, 1518).
    ef_service_rate_bps : float
        EF service rate, bit/s (400 kbit/s).

    Returns
    -------
    xarray.Dataset
        ``delay``, ``ef_wait`` (s) and ``ipdv`` (s) on ``(scheduler, ef_frame_bytes, seed, ef_packet)``,
        ``time`` (s); per run ``delay_mean``, ``delay_min``, ``delay_max``, ``delay_span`` (s),
        ``delay_span_be_tx``; per frame and seed ``corr``, ``shift`` (s), ``shift_std`` (s),
        ``wait_share`` (1).
    """
    ds = series_dataset(ARTEFACT.id, f"{ARTEFACT.id}: EF one-way delay over time with WFQ and PQ "
                        "(TF-TANT PQ vs WFQ page, Figs. 2-4)", __name__, n_ef_samples, seeds, frame_sizes,
                        ef_service_rate_bps)
    return statistics(ds)


def statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`compute`'s statistics to its per-packet ``delay`` and ``ef_wait`` (in place; returned).

    Per run the mean, min, max and span of the delay (and the span in BE tx times); per
    frame and seed the correlation of the PQ and WFQ series, the mean and std of their
    difference (``shift``, ``shift_std``) and the share of it spent in the EF queue; in the
    time unit of the Dataset (s; the claims' ms through :func:`pqlab.papers.kit.statistics_in_ms`).
    """
    d = ds["delay"]
    unit = d.attrs["units"]
    be_tx = float(ds.be_tx_time)
    for name, da, long_name in (("delay_mean", d.mean("ef_packet"), "mean EF one-way delay"),
                                ("delay_min", d.min("ef_packet"), "smallest EF one-way delay"),
                                ("delay_max", d.max("ef_packet"), "largest EF one-way delay")):
        ds[name] = da
        ds[name].attrs = {"units": unit, "long_name": long_name}
    ds["delay_span"] = ds["delay_max"] - ds["delay_min"]
    ds["delay_span"].attrs = {"units": unit, "long_name": "max - min EF one-way delay"}
    ds["delay_span_be_tx"] = ds["delay_span"] / be_tx
    ds["delay_span_be_tx"].attrs = {"units": BE_TX, "long_name": "max - min EF one-way delay in BE tx times"}
    pq, wfq = d.sel(scheduler="pq", drop=True), d.sel(scheduler="wfq", drop=True)
    ds["corr"] = xr.corr(pq, wfq, dim="ef_packet")
    ds["corr"].attrs = {"units": "1", "long_name": "correlation of the PQ and WFQ delay series"}
    diff = wfq - pq
    ds["shift"] = diff.mean("ef_packet")
    ds["shift"].attrs = {"units": unit, "long_name": "mean of delay(WFQ) - delay(PQ), packet by packet"}
    ds["shift_std"] = diff.std("ef_packet")
    ds["shift_std"].attrs = {"units": unit, "long_name": "std of delay(WFQ) - delay(PQ), packet by packet"}
    w = ds["ef_wait"]
    wait_diff = (w.sel(scheduler="wfq", drop=True) - w.sel(scheduler="pq", drop=True)).mean("ef_packet")
    ds["wait_share"] = xr.where(np.abs(ds["shift"]) > NO_SHIFT_BE_TX * be_tx, wait_diff / ds["shift"], np.nan)
    ds["wait_share"].attrs = {"units": "1", "long_name": "share of the WFQ - PQ difference spent in the EF queue"}
    return ds


def claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`compute`: same shape, delay variation of one BE tx, EF-queue wait."""
    art = ARTEFACT.id
    ds, be_tx = in_ms_be_tx(ds, art, statistics)
    frames = ds["ef_frame_bytes"].values
    corr = ds["corr"].min("seed")
    span = ds["delay_span_be_tx"].max("seed")
    shift, shift_std = ds["shift"].mean("seed"), ds["shift_std"].max("seed")
    same = bool((corr.values >= SAME_SHAPE_CORRELATION).all())
    why = None
    if not same:
        at = int(frames[int(np.nanargmin(corr.values))])
        std = value_at(shift_std, at)
        why = judge.reason(
            "mechanism",
            "at {frame} the PQ and WFQ delay series correlate at {corr} (the same shape read as at least "
            "{threshold}): under WFQ the EF packets wait behind numbers of BE packets that vary from packet to packet "
            "(an EF finish tag of {ef_tag} spans {tag_steps} BE tag steps of {be_tag}), so WFQ - PQ varies with a std "
            "of {shift_std}, {shift_std_be_tx}, where PQ's delay spans {pq_span}",
            [judge.fact("frame", at, "bytes"), judge.fact("corr", value_at(corr, at), ""),
             judge.fact("threshold", SAME_SHAPE_CORRELATION, ""), judge.fact("shift_std", std, "ms"),
             judge.fact("shift_std_be_tx", std / be_tx, BE_TX),
             judge.fact("pq_span", value_at(span.sel(scheduler="pq"), at), BE_TX)] + tag_facts(ds, at))
    rows = [
        kit.claim(art, "same_shape", None, "-",
                  f"correlation of the PQ and WFQ delay series (same arrivals), smallest over seeds: "
                  f"{listing(frames, corr.values, '{:.3f}')}; WFQ - PQ packet by packet: mean "
                  f"{listing(frames, shift.values)} ms, std {listing(frames, shift_std.values)} ms",
                  shape_ok=same, reason=why),
        kit.claim(art, "delay_variation_from_tx_ring", None, "-",
                  f"max - min delay in BE tx times ({be_tx:.3f} ms), PQ: "
                  f"{listing(frames, span.sel(scheduler='pq').values)};"
                  f" WFQ: {listing(frames, span.sel(scheduler='wfq').values)}: the BE packet in transmission when "
                  f"the EF packet arrives (the ring is always full of BE)",
                  shape_ok=bool(np.all(np.abs(span.sel(scheduler="pq").values - 1.0) <= RELATIVE_TOLERANCE))),
    ]
    share = ds["wait_share"].mean("seed")
    big = [f for f in frames if np.isfinite(value_at(share, f)) and value_at(shift, f) > EQUIVALENT_BE_TX * be_tx]
    rows.append(kit.claim(
        art, "ef_queue_wait_dominates", None, "-",
        f"share of the WFQ - PQ difference spent waiting in the EF queue: "
        f"{listing(big, [value_at(share, f) for f in big])} (frames where WFQ adds at least half a BE tx time)",
        shape_ok=bool(big) and all(value_at(share, f) >= DOMINANT_SHARE for f in big)))
    gains = [value_at(shift, f) for f in frames]
    rows.append(kit.claim(
        art, "gain_grows_with_size", None, "-",
        f"WFQ - PQ mean delay: {listing(frames, gains)} ms",
        shape_ok=bool(np.all(np.diff(gains) >= -MS_ROUNDING_TOLERANCE))))
    return rows


def figure(ds: xr.Dataset, n_points: int = N_POINTS):
    """Page Figs. 2-4: EF one-way delay over time with PQ and WFQ, one panel per frame size.

    The page's WFQ - PQ differences (4 and 5 BE tx times at 1024 and 1518 bytes) are
    drawn on top of our PQ mean.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`compute`.
    n_points : int
        EF packets shown per panel (first seed).

    Returns
    -------
    matplotlib.figure.Figure
    """
    ds = in_ms_for_axes(kit.check_artefact(ds, ARTEFACT.id))
    fig, axes, frames, seed = series_panels(ds, "delay", "EF one-way delay (ms)", n_points)
    be_tx = float(ds.be_tx_time)
    paper = {1024: 4, 1518: 5}
    for ax, f in zip(axes, frames):
        pq = float(ds["delay_mean"].sel(scheduler="pq", ef_frame_bytes=f, seed=seed))
        shift = float(ds["shift"].sel(ef_frame_bytes=f, seed=seed))
        if int(f) in paper:
            ax.axhline(pq + paper[int(f)] * be_tx, color="black", ls="--", lw=1.2,
                       label="PQ mean + the page's WFQ - PQ (4 BE tx at 1024 B, 5 at 1518 B)")
        ax.text(0.02, 0.97, f"WFQ - PQ = {shift:.2f} ms = {shift / be_tx:.2f} BE tx\n"
                f"corr(PQ, WFQ) = {float(ds['corr'].sel(ef_frame_bytes=f, seed=seed)):.2f}",
                transform=ax.transAxes, va="top", fontsize=8.5,
                bbox=dict(boxstyle="round", fc="white", ec="0.8", alpha=0.9))
        lo = float(ds["delay_min"].sel(ef_frame_bytes=f).min())
        hi = float(ds["delay_max"].sel(ef_frame_bytes=f).max())
        top = max(hi, pq + paper.get(int(f), 0) * be_tx)
        ax.set_ylim(lo - 0.1 * (top - lo) - 0.5, top + 0.3 * (top - lo) + 2.0)
    figure_legend(fig, axes)
    fig.suptitle(f"{ARTEFACT.id}: EF one-way delay over time with WFQ and PQ "
                 "(TF-TANT PQ vs WFQ page, Figs. 2-4)", fontsize=11)
    kit.footer(fig, f"{conditions(ds)}; first {n_points} EF packets of seed {seed}; BE tx time {be_tx:.3f} ms")
    return fig
