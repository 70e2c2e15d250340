"""TF-TANT PQ-vs-WFQ page, Figs. 6-7 (and the slides' "WFQ vs PQ: ipdv"): IPDV over time.

The artefact's computation (:func:`compute`), statistics (:func:`statistics`), the numbers its
claims quote (:func:`claim_values`) and figure (:func:`figure`); the notebook
``notebooks/07_tftant_pq_vs_wfq`` runs them, on the per-packet runs it shares with
``tftant_wfq_fig2_4`` (:func:`pqlab.papers.tftant_wfq.pq_vs_wfq_runs.series_dataset`). The
Dataset is in SI units (times in seconds; multiples of the BE transmission time in "BE tx
times"); the claims state times in ms (their statistics computed again from the converted
per-packet values); the figure draws ms against arrival times in s.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...base._validate import check_real
from ...measure import cache, metrics
from .. import kit, presets
from ..registry import Artefact
from ..stated import MTU_FRAME_BYTES
from .pq_vs_wfq_claims import PAGE_LARGE_FRAME_BYTES, in_ms, sawtooth_facts, tag_facts
from .pq_vs_wfq_plots import (
    LABELS,
    N_POINTS,
    conditions,
    figure_legend,
    in_ms_for_axes,
    series_panels,
)
from .pq_vs_wfq_runs import SERIES_FRAME_SIZES, series_dataset
from .pq_vs_wfq_testbed import BE_TX, PEAK_FRACTION, beat_max_be_tx, beat_slip_s

__all__ = ["ARTEFACT", "compute", "statistics", "claim_values", "figure"]

ARTEFACT = Artefact(__name__, notebook="07_tftant_pq_vs_wfq")


@cache.artefact(ARTEFACT.id)
def compute(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    frame_sizes=SERIES_FRAME_SIZES,
    ef_service_rate_bps: float = presets.TFTANT_EF_SERVICE_RATE_BPS,
    peak_fraction: float = PEAK_FRACTION,
) -> xr.Dataset:
    """TF-TANT PQ-vs-WFQ page, Figs. 6-7 (128, 1024 bytes), and the slides' 1518: IPDV over time,
    WFQ and PQ.

    The runs of ``tftant_wfq_fig2_4``. Per run: the largest |IPDV| (s and BE tx
    times) and the peak frequency, the share of |IPDV| >= ``peak_fraction`` BE tx time.

    Parameters
    ----------
    n_ef_samples : int
        EF packets per run (>= 10).
    seeds : sequence of int
        Seeds (>= 0, distinct).
    frame_sizes : sequence of int
        EF frame sizes, bytes (the page: 128, 1024; the slides: 1518).
    ef_service_rate_bps : float
        EF service rate, bit/s (400 kbit/s).
    peak_fraction : float
        An |IPDV| of at least this many BE tx times is a peak, in (0, 2].

    Returns
    -------
    xarray.Dataset
        ``ipdv`` (s) on ``(scheduler, ef_frame_bytes, seed, ef_packet)`` and ``time`` (s);
        per run ``ipdv_abs_mean``, ``ipdv_abs_max`` (s), ``ipdv_max_be_tx``, ``peak_frequency``;
        per frame the slip ``beat_slip`` (s) and ``ipdv_beat_max_be_tx``.
    """
    frac = check_real("peak_fraction", peak_fraction, 0.0, 2.0, strict_minimum=True)
    ds = series_dataset(
        ARTEFACT.id,
        f"{ARTEFACT.id}: IPDV over time with WFQ and PQ "
        "(TF-TANT PQ vs WFQ page, Figs. 6-7; slides, WFQ vs PQ: ipdv)",
        __name__,
        n_ef_samples,
        seeds,
        frame_sizes,
        ef_service_rate_bps,
    )
    ds = ds.drop_vars(["delay", "ef_wait"])
    ds["beat_slip"] = (
        "ef_frame_bytes",
        beat_slip_s(ds["ef_frame_bytes"].values),
        {"units": "s", "long_name": "s = (T_EF - t_EF) mod t_BE"},
    )
    ds.attrs["peak_fraction"] = frac
    return claim_values(statistics(ds))


def statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`compute`'s statistics to its per-packet ``ipdv`` and ``beat_slip`` (in place;
    returned).

    Per run the mean and largest |IPDV|, the largest in BE tx times and the share of
    |IPDV| >= ``attrs["peak_fraction"]`` BE tx time; the sawtooth's largest |IPDV|; in the
    time unit of the Dataset (s; the claims' ms through :func:`pqlab.papers.kit.statistics_in_ms`).
    """
    a = ds["ipdv"].copy(data=metrics.jitter_of_ipdv(ds["ipdv"].values))
    unit = ds["ipdv"].attrs["units"]
    be_tx = float(ds.be_tx_time)
    frac = ds.attrs["peak_fraction"]
    ds["ipdv_abs_mean"] = a.mean("ef_packet")
    ds["ipdv_abs_mean"].attrs = {"units": unit, "long_name": "mean |IPDV|"}
    ds["ipdv_abs_max"] = a.max("ef_packet")
    ds["ipdv_abs_max"].attrs = {"units": unit, "long_name": "largest |IPDV|"}
    ds["ipdv_max_be_tx"] = ds["ipdv_abs_max"] / be_tx
    ds["ipdv_max_be_tx"].attrs = {"units": BE_TX, "long_name": "largest |IPDV| in BE tx times"}
    ds["peak_frequency"] = (a >= frac * be_tx).sum("ef_packet") / a.notnull().sum("ef_packet")
    ds["peak_frequency"].attrs = {
        "units": "1",
        "long_name": f"share of |IPDV| >= {frac:g} BE tx time",
    }
    ds["ipdv_beat_max_be_tx"] = beat_max_be_tx(ds["beat_slip"], be_tx)
    return ds


def _series_gap(ds: xr.Dataset, frame: int) -> float:
    """Largest | |IPDV| under WFQ - |IPDV| under PQ | over packets and seeds at ``frame`` bytes, BE
    tx times."""
    a = np.abs(ds["ipdv"].sel(ef_frame_bytes=frame))
    return float(
        np.nanmax(np.abs((a.sel(scheduler="wfq") - a.sel(scheduler="pq")).values))
    ) / float(ds.be_tx_time)


def claim_values(ds: xr.Dataset) -> xr.Dataset:
    """Add the numbers the claims quote (in place; returned), times in ms (the statistics computed
    again from the per-packet ms values): per scheduler the largest |IPDV| over seeds per EF size
    (``max_ipdv_<s>``, BE tx times) and at each frame of a claim (``max_ipdv_<frame>_<s>``), the
    share of peaks there (``peak_share_<frame>_<s>``), the WFQ tags and how far the two IPDV series
    lie apart (``tags_<frame>_*``, ``series_gap_<frame>``), and the sawtooth of Fig. 7's frame
    (``fig7_*``: the facts of :data:`~pqlab.papers.tftant_wfq.pq_vs_wfq_claims.SAWTOOTH_TEXT`)."""
    ms = in_ms(ds, ARTEFACT.id, statistics)
    mx = ms["ipdv_max_be_tx"].max("seed")
    freq = ms["peak_frequency"].mean("seed")
    be_tx = float(ms.be_tx_time)
    values = {
        f"max_ipdv_{s}": (mx.sel(scheduler=s), BE_TX, f"largest |IPDV| over seeds, {s.upper()}")
        for s in presets.TFTANT_SCHEDULERS
    }
    for frame in (PAGE_LARGE_FRAME_BYTES, 128, MTU_FRAME_BYTES):
        for s in presets.TFTANT_SCHEDULERS:
            peak = float(mx.sel(scheduler=s, ef_frame_bytes=frame))
            values[f"max_ipdv_{frame}_{s}"] = (
                peak,
                BE_TX,
                f"largest |IPDV| at {frame} bytes, {s.upper()}",
            )
            values[f"max_ipdv_{frame}_{s}_ms"] = (peak * be_tx, "ms", "the same in ms")
            share = float(freq.sel(scheduler=s, ef_frame_bytes=frame))
            values[f"peak_share_{frame}_{s}"] = (
                share,
                "",
                f"share of peaks at {frame} bytes, {s.upper()}",
            )
        values.update(
            {
                f"tags_{frame}_{f['name']}": (
                    f["value"],
                    f["unit"],
                    f"WFQ {f['name']} at {frame} bytes",
                )
                for f in tag_facts(ms, frame)
            }
        )
        values[f"series_gap_{frame}"] = (
            _series_gap(ms, frame),
            BE_TX,
            f"largest gap of the two |IPDV| series at {frame} bytes",
        )
        gap = values[f"max_ipdv_{frame}_wfq"][0] - values[f"max_ipdv_{frame}_pq"][0]
        values[f"peak_gap_{frame}"] = (gap, BE_TX, f"WFQ's peak less PQ's at {frame} bytes")
    values.update(
        {
            f"fig7_{f['name']}": (f["value"], f["unit"], f"sawtooth {f['name']} at Fig. 7's frame")
            for f in sawtooth_facts(PAGE_LARGE_FRAME_BYTES, float(ms.ef_rate))
        }
    )
    return kit.add_claim_values(ds, values)


def figure(ds: xr.Dataset, n_points: int = N_POINTS):
    """Page Figs. 6-7 (128, 1024 bytes) and the slides' 1518 bytes: IPDV over time with PQ and WFQ.

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
    fig, axes, frames, seed = series_panels(
        ds, "ipdv", "IPDV of consecutive EF packets (ms)", n_points
    )
    be_tx = float(ds.be_tx_time)
    frac = ds.attrs["peak_fraction"]
    for ax, f in zip(axes, frames):
        ax.axhline(
            be_tx, color="black", ls="--", lw=1.2, label="page and slides: max IPDV = 1 BE tx time"
        )
        ax.axhline(-be_tx, color="black", ls="--", lw=1.2)
        for y in (frac * be_tx, -frac * be_tx):
            ax.axhline(y, color="0.6", ls=":", lw=1, label=f"peak threshold: {frac:g} BE tx time")
        freq = ds["peak_frequency"].sel(ef_frame_bytes=f, seed=seed)
        mx = ds["ipdv_max_be_tx"].sel(ef_frame_bytes=f, seed=seed)
        ax.text(
            0.02,
            0.03,
            "\n".join(
                f"{LABELS[s]}: max |IPDV| {float(mx.sel(scheduler=s)):.2f} BE tx, peaks (>="
                f" {frac:g}) {float(freq.sel(scheduler=s)):.0%}"
                for s in ds["scheduler"].values
            ),
            transform=ax.transAxes,
            va="bottom",
            fontsize=8,
            bbox=dict(boxstyle="round", fc="white", ec="0.8", alpha=0.9),
        )
        lim = max(
            1.25 * be_tx,
            1.1 * float(np.nanmax(np.abs(ds["ipdv"].sel(ef_frame_bytes=f, seed=seed)))),
        )
        ax.set_ylim(-1.6 * lim, 1.2 * lim)
    figure_legend(fig, axes)
    labels = {128: "page Fig. 6", 1024: "page Fig. 7", 1518: "slides, 1500 by"}
    for ax, f in zip(axes, frames):
        ax.set_title(
            f"EF frames of {int(f)} bytes" + (f" ({labels[int(f)]})" if int(f) in labels else ""),
            fontsize=10,
        )
    fig.suptitle(
        f"{ARTEFACT.id}: IPDV over time with WFQ and PQ (TF-TANT PQ vs WFQ page, Figs. 6-7; "
        "slides, WFQ vs PQ: ipdv)",
        fontsize=11,
    )
    kit.footer(
        fig,
        f"{conditions(ds)}; first {n_points} EF packets of seed {seed}; BE tx time {be_tx:.3f} ms; "
        "IPDV = delay(i) - delay(i-1)",
    )
    return fig
