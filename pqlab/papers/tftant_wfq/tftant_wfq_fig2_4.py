"""TF-TANT PQ-vs-WFQ page, Figs. 2-4: delay over time, PQ vs WFQ, 128/1024/1518 bytes.

The artefact's computation (:func:`compute`), statistics (:func:`statistics`), the numbers its
claims quote (:func:`claim_values`) and figure (:func:`figure`); the notebook
``notebooks/07_tftant_pq_vs_wfq`` runs them, on the per-packet runs it shares with
``tftant_wfq_fig6_7``
(:func:`pqlab.papers.tftant_wfq.pq_vs_wfq_runs.series_dataset`). The Dataset is in SI units
(times in seconds; arrival times in s; multiples of the BE transmission time in "BE tx times");
the claims state times in ms (their statistics computed again from the converted per-packet
values); the figure draws ms against arrival times in s.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...measure import cache
from .. import kit, presets
from ..registry import Artefact
from .pq_vs_wfq_claims import NO_SHIFT_BE_TX, in_ms_be_tx, tag_facts, value_at
from .pq_vs_wfq_plots import N_POINTS, conditions, figure_legend, in_ms_for_axes, series_panels
from .pq_vs_wfq_runs import SERIES_FRAME_SIZES, series_dataset
from .pq_vs_wfq_testbed import BE_TX, EQUIVALENT_BE_TX

__all__ = ["ARTEFACT", "compute", "statistics", "claim_values", "figure"]

ARTEFACT = Artefact(__name__, notebook="07_tftant_pq_vs_wfq")


@cache.artefact(ARTEFACT.id)
def compute(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    frame_sizes=SERIES_FRAME_SIZES,
    ef_service_rate_bps: float = presets.TFTANT_EF_SERVICE_RATE_BPS,
) -> xr.Dataset:
    """TF-TANT PQ-vs-WFQ page, Figs. 2-4: EF one-way delay over time with WFQ and PQ (128, 1024,
    1518 bytes).

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
        ``delay``, ``ef_wait`` (s) and ``ipdv`` (s) on ``(scheduler, ef_frame_bytes, seed,
        ef_packet)``,
        ``time`` (s); per run ``delay_mean``, ``delay_min``, ``delay_max``, ``delay_span`` (s),
        ``delay_span_be_tx``; per frame and seed ``corr``, ``shift`` (s), ``shift_std`` (s),
        ``wait_share`` (1).
    """
    ds = series_dataset(
        ARTEFACT.id,
        f"{ARTEFACT.id}: EF one-way delay over time with WFQ and PQ "
        "(TF-TANT PQ vs WFQ page, Figs. 2-4)",
        __name__,
        n_ef_samples,
        seeds,
        frame_sizes,
        ef_service_rate_bps,
    )
    return claim_values(statistics(ds))


def statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`compute`'s statistics to its per-packet ``delay`` and ``ef_wait`` (in place;
    returned).

    Per run the mean, min, max and span of the delay (and the span in BE tx times); per
    frame and seed the correlation of the PQ and WFQ series, the mean and std of their
    difference (``shift``, ``shift_std``) and the share of it spent in the EF queue; in the
    time unit of the Dataset (s; the claims' ms through :func:`pqlab.papers.kit.statistics_in_ms`).
    """
    d = ds["delay"]
    unit = d.attrs["units"]
    be_tx = float(ds.be_tx_time)
    # some xarray versions (2025.6, the lock's on Python 3.10) let a statistic's coordinates
    # (attrs dropped by xr.corr, say) replace the Dataset's when assigned: the coordinates'
    # units are put back at the end
    coord_attrs = {name: dict(c.attrs) for name, c in ds.coords.items()}
    for name, da, long_name in (
        ("delay_mean", d.mean("ef_packet"), "mean EF one-way delay"),
        ("delay_min", d.min("ef_packet"), "smallest EF one-way delay"),
        ("delay_max", d.max("ef_packet"), "largest EF one-way delay"),
    ):
        ds[name] = da
        ds[name].attrs = {"units": unit, "long_name": long_name}
    ds["delay_span"] = ds["delay_max"] - ds["delay_min"]
    ds["delay_span"].attrs = {"units": unit, "long_name": "max - min EF one-way delay"}
    ds["delay_span_be_tx"] = ds["delay_span"] / be_tx
    ds["delay_span_be_tx"].attrs = {
        "units": BE_TX,
        "long_name": "max - min EF one-way delay in BE tx times",
    }
    pq, wfq = d.sel(scheduler="pq", drop=True), d.sel(scheduler="wfq", drop=True)
    ds["corr"] = xr.corr(pq, wfq, dim="ef_packet")
    ds["corr"].attrs = {"units": "1", "long_name": "correlation of the PQ and WFQ delay series"}
    diff = wfq - pq
    ds["shift"] = diff.mean("ef_packet")
    ds["shift"].attrs = {
        "units": unit,
        "long_name": "mean of delay(WFQ) - delay(PQ), packet by packet",
    }
    ds["shift_std"] = diff.std("ef_packet")
    ds["shift_std"].attrs = {
        "units": unit,
        "long_name": "std of delay(WFQ) - delay(PQ), packet by packet",
    }
    w = ds["ef_wait"]
    wait_diff = (w.sel(scheduler="wfq", drop=True) - w.sel(scheduler="pq", drop=True)).mean(
        "ef_packet"
    )
    ds["wait_share"] = xr.where(
        np.abs(ds["shift"]) > NO_SHIFT_BE_TX * be_tx, wait_diff / ds["shift"], np.nan
    )
    ds["wait_share"].attrs = {
        "units": "1",
        "long_name": "share of the WFQ - PQ difference spent in the EF queue",
    }
    for name, attrs in coord_attrs.items():
        ds[name].attrs = attrs
    return ds


def claim_values(ds: xr.Dataset) -> xr.Dataset:
    """Add the numbers the claims quote (in place; returned), times in ms (the statistics computed
    again from the per-packet ms values): per EF frame the smallest correlation of the PQ and WFQ
    series over seeds (``corr_min``), WFQ - PQ's mean (``wfq_gain_ms``, and ``wfq_gain_step_ms``
    from one frame to the next) and std (``shift_std_ms``), the delay's max - min per scheduler
    (``span_<s>``, BE tx times); at the least correlated frame the std in BE tx times, PQ's span and
    the WFQ tags (``least_corr_*``); and the EF-queue share of WFQ - PQ at the frames where WFQ adds
    an extra BE packet on average
    (:data:`~pqlab.papers.tftant_wfq.pq_vs_wfq_testbed.EQUIVALENT_BE_TX` or more;
    ``wait_share_where_wfq_adds`` over ``wfq_adds_frame_bytes``).
    """
    ms, be_tx = in_ms_be_tx(ds, ARTEFACT.id, statistics)
    corr = ms["corr"].min("seed")
    span = ms["delay_span_be_tx"].max("seed")
    shift, shift_std = ms["shift"].mean("seed"), ms["shift_std"].max("seed")
    share = ms["wait_share"].mean("seed")
    frames = ms["ef_frame_bytes"].values
    values = {
        "be_tx_ms": (be_tx, "ms", "BE transmission time"),
        "corr_min": (corr, "", "correlation of the PQ and WFQ series, smallest over seeds"),
        "wfq_gain_ms": (shift, "ms", "mean WFQ - PQ delay, packet by packet"),
        "shift_std_ms": (shift_std, "ms", "std of WFQ - PQ, packet by packet, largest over seeds"),
        "span_pq": (span.sel(scheduler="pq", drop=True), BE_TX, "max - min delay, PQ"),
        "span_wfq": (span.sel(scheduler="wfq", drop=True), BE_TX, "max - min delay, WFQ"),
        "wfq_gain_step_ms": (
            shift.diff("ef_frame_bytes").rename(ef_frame_bytes="frame_step"),
            "ms",
            "WFQ - PQ mean delay less the previous frame's",
        ),
    }
    known = np.isfinite(corr.values)
    at = int(frames[int(np.nanargmin(corr.values))]) if known.any() else int(frames[0])
    std = value_at(shift_std, at) if known.any() else np.nan
    values.update(
        {
            "least_corr_shift_std_ms": (std, "ms", "std of WFQ - PQ at the least correlated frame"),
            "least_corr_shift_std_be_tx": (std / be_tx, BE_TX, "the same in BE tx times"),
            "least_corr_pq_span": (
                value_at(span.sel(scheduler="pq"), at),
                BE_TX,
                "max - min PQ delay at the least correlated frame",
            ),
        }
    )
    values.update(
        {
            f"least_corr_{f['name']}": (
                f["value"],
                f["unit"],
                f"WFQ {f['name']} at the least correlated frame",
            )
            for f in tag_facts(ms, at)
        }
    )
    adds = [
        f
        for f in frames
        if np.isfinite(value_at(share, f)) and value_at(shift, f) > EQUIVALENT_BE_TX * be_tx
    ]
    kit.add_claim_values(ds, values)
    ds["wait_share_where_wfq_adds"] = (
        "wfq_adds_frame_bytes",
        np.array([value_at(share, f) for f in adds], dtype=float),
        {
            "units": "",
            "long_name": "EF-queue share of WFQ - PQ where WFQ adds a BE packet",
            "role": kit.CLAIM_VALUE_ROLE,
        },
    )
    ds = ds.assign_coords(
        wfq_adds_frame_bytes=(
            "wfq_adds_frame_bytes",
            np.array(adds, dtype=frames.dtype),
            {"units": "bytes"},
        )
    )
    return kit.add_claim_values(
        ds, {"n_wfq_adds": (len(adds), "", "frames where WFQ adds a BE packet")}
    )


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
            ax.axhline(
                pq + paper[int(f)] * be_tx,
                color="black",
                ls="--",
                lw=1.2,
                label="PQ mean + the page's WFQ - PQ (4 BE tx at 1024 B, 5 at 1518 B)",
            )
        ax.text(
            0.02,
            0.97,
            f"WFQ - PQ = {shift:.2f} ms = {shift / be_tx:.2f} BE tx\n"
            f"corr(PQ, WFQ) = {float(ds['corr'].sel(ef_frame_bytes=f, seed=seed)):.2f}",
            transform=ax.transAxes,
            va="top",
            fontsize=8.5,
            bbox=dict(boxstyle="round", fc="white", ec="0.8", alpha=0.9),
        )
        lo = float(ds["delay_min"].sel(ef_frame_bytes=f).min())
        hi = float(ds["delay_max"].sel(ef_frame_bytes=f).max())
        top = max(hi, pq + paper.get(int(f), 0) * be_tx)
        ax.set_ylim(lo - 0.1 * (top - lo) - 0.5, top + 0.3 * (top - lo) + 2.0)
    figure_legend(fig, axes)
    fig.suptitle(
        f"{ARTEFACT.id}: EF one-way delay over time with WFQ and PQ "
        "(TF-TANT PQ vs WFQ page, Figs. 2-4)",
        fontsize=11,
    )
    kit.footer(
        fig,
        f"{conditions(ds)}; first {n_points} EF packets of seed {seed}; BE tx time {be_tx:.3f} ms",
    )
    return fig
