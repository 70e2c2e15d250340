"""TF-TANT PQ-vs-WFQ page, Figs. 6-7 (and the slides' "WFQ vs PQ: ipdv"): IPDV over time.

The artefact's computation (:func:`compute`), statistics (:func:`statistics`), claims
(:func:`claims`) and figure (:func:`figure`); the notebook ``notebooks/07_tftant_pq_vs_wfq``
runs them, on the per-packet runs it shares with ``tftant_wfq_fig2_4``
(:func:`pqlab.papers.tftant_wfq.pq_vs_wfq_runs.series_dataset`). The Dataset is in SI units
(times in seconds; multiples of the BE transmission time in "BE tx times"); the claims state
times in ms (their statistics computed again from the converted per-packet values); the
figure draws ms against arrival times in s.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...base._validate import check_real
from ...measure import cache, metrics
from ..stated import MTU_FRAME_BYTES
from .. import judge, kit, presets
from ..registry import Artefact
from .pq_vs_wfq_claims import PAGE_LARGE_FRAME_BYTES, SAWTOOTH_TEXT, in_ms, sawtooth_facts, tag_facts, value_at
from .pq_vs_wfq_plots import LABELS, N_POINTS, conditions, figure_legend, in_ms_for_axes, series_panels
from .pq_vs_wfq_runs import SERIES_FRAME_SIZES, series_dataset
from .pq_vs_wfq_testbed import BE_TX, PEAK_FRACTION, beat_max_be_tx, beat_slip_s

__all__ = ["ARTEFACT", "compute", "statistics", "claims", "figure", "SAME_HEIGHT_TOLERANCE"]

ARTEFACT = Artefact(__name__, notebook="07_tftant_pq_vs_wfq")

#: Two peak heights differ by at most this fraction of the larger: "the same height".
SAME_HEIGHT_TOLERANCE = 0.1


@cache.artefact(ARTEFACT.id)
def compute(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    frame_sizes=SERIES_FRAME_SIZES,
    ef_service_rate_bps: float = presets.TFTANT_EF_SERVICE_RATE_BPS,
    peak_fraction: float = PEAK_FRACTION,
) -> xr.Dataset:
    """TF-TANT PQ-vs-WFQ page, Figs. 6-7 (128, 1024 bytes), and the slides' 1518: IPDV over time, WFQ and PQ.

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
    ds = series_dataset(ARTEFACT.id, f"{ARTEFACT.id}: IPDV over time with WFQ and PQ "
                        "(TF-TANT PQ vs WFQ page, Figs. 6-7; slides, WFQ vs PQ: ipdv)", __name__,
                        n_ef_samples, seeds, frame_sizes, ef_service_rate_bps)
    ds = ds.drop_vars(["delay", "ef_wait"])
    ds["beat_slip"] = ("ef_frame_bytes", beat_slip_s(ds["ef_frame_bytes"].values),
                       {"units": "s", "long_name": "s = (T_EF - t_EF) mod t_BE"})
    ds.attrs["peak_fraction"] = frac
    return statistics(ds)


def statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`compute`'s statistics to its per-packet ``ipdv`` and ``beat_slip`` (in place; returned).

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
    ds["peak_frequency"].attrs = {"units": "1", "long_name": f"share of |IPDV| >= {frac:g} BE tx time"}
    ds["ipdv_beat_max_be_tx"] = beat_max_be_tx(ds["beat_slip"], be_tx)
    return ds


def _series_gap(ds: xr.Dataset, frame: int) -> float:
    """Largest | |IPDV| under WFQ - |IPDV| under PQ | over packets and seeds at ``frame`` bytes, BE tx times."""
    a = np.abs(ds["ipdv"].sel(ef_frame_bytes=frame))
    return float(np.nanmax(np.abs((a.sel(scheduler="wfq") - a.sel(scheduler="pq")).values))) / float(ds.be_tx_time)


def claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`compute`: max IPDV of one BE tx, peak height and frequency."""
    art = ARTEFACT.id
    ds = in_ms(ds, art, statistics)
    frames = list(ds["ef_frame_bytes"].values)
    mx = ds["ipdv_max_be_tx"].max("seed")
    freq = ds["peak_frequency"].mean("seed")
    frac = ds.attrs["peak_fraction"]
    ef_rate = float(ds.ef_rate)
    rows = []
    fig7 = PAGE_LARGE_FRAME_BYTES
    if fig7 in frames:
        saw = judge.reason("arithmetic", SAWTOOTH_TEXT, sawtooth_facts(fig7, ef_rate))
        for sched in presets.TFTANT_SCHEDULERS:
            v = float(mx.sel(scheduler=sched, ef_frame_bytes=fig7))
            rows.append(kit.claim(
                art, f"max_ipdv_fig7_{sched}", v, BE_TX,
                f"largest |IPDV| at {fig7}-byte frames (Fig. 7's caption; the text says MTU-size), {sched.upper()}, "
                f"over seeds: {v * float(ds.be_tx_time):.3f} ms; all sizes: "
                + ", ".join(f"{int(f)}: {float(mx.sel(scheduler=sched, ef_frame_bytes=f)):.2f}" for f in frames),
                reason=saw))
        fp, fw = (float(freq.sel(scheduler=s, ef_frame_bytes=fig7)) for s in presets.TFTANT_SCHEDULERS)
        rows.append(kit.claim(
            art, "wfq_max_more_often", None, "-",
            f"share of |IPDV| >= {frac:g} BE tx time at {fig7} bytes: PQ {fp:.3f}, WFQ {fw:.3f}",
            shape_ok=fw > fp,
            reason=judge.reason(
                "mechanism",
                "an EF finish tag of {ef_tag} spans {tag_steps} BE tag steps of {be_tag}, so under WFQ every EF packet "
                "waits the same whole number of BE packets more than under PQ: the two IPDV series differ by at most "
                "{series_gap}, and so do their shares of peaks, PQ {share_pq}, WFQ {share_wfq}",
                tag_facts(ds, fig7) + [judge.fact("series_gap", _series_gap(ds, fig7), BE_TX),
                                       judge.fact("share_pq", fp, ""), judge.fact("share_wfq", fw, "")])))
    if 128 in frames:
        p, w = (float(mx.sel(scheduler=s, ef_frame_bytes=128)) for s in presets.TFTANT_SCHEDULERS)
        tags = tag_facts(ds, 128)
        rows.append(kit.claim(
            art, "pq_higher_peaks_128", None, "-",
            f"the slides; largest |IPDV| at 128 bytes over seeds: PQ {p:.3f}, WFQ {w:.3f} BE tx times",
            shape_ok=p > w,
            reason=judge.reason(
                "mechanism",
                "an EF finish tag of {ef_tag} spans {tag_steps} BE tag steps of {be_tag}: WFQ lets no queued BE packet "
                "ahead of an EF packet that PQ would not, so the IPDV series differ by at most {series_gap} and the "
                "peaks are PQ {peak_pq}, WFQ {peak_wfq}",
                tags + [judge.fact("series_gap", _series_gap(ds, 128), BE_TX),
                        judge.fact("peak_pq", p, BE_TX), judge.fact("peak_wfq", w, BE_TX)])
            if judge.fact_value({"facts": tags}, "tag_steps") < 1.0 else None))
    big = MTU_FRAME_BYTES
    if big in frames:
        p, w = (float(mx.sel(scheduler=s, ef_frame_bytes=big)) for s in presets.TFTANT_SCHEDULERS)
        fp, fw = (float(freq.sel(scheduler=s, ef_frame_bytes=big)) for s in presets.TFTANT_SCHEDULERS)
        rows.append(kit.claim(
            art, "same_peak_height_1500", None, "-",
            f"the slides; largest |IPDV| at {big} bytes over seeds: PQ {p:.2f}, WFQ {w:.2f} BE tx times "
            f"(same height read as within {SAME_HEIGHT_TOLERANCE:.0%} of the larger)",
            shape_ok=abs(w - p) <= SAME_HEIGHT_TOLERANCE * max(p, w),
            reason=judge.reason(
                "mechanism",
                "under WFQ the EF packets wait behind numbers of BE packets that vary by one from packet to packet "
                "(an EF finish tag of {ef_tag} spans {tag_steps} BE tag steps of {be_tag}), which adds up to a BE tx "
                "time to an IPDV: the peaks are PQ {peak_pq}, WFQ {peak_wfq}, {peak_gap} apart",
                tag_facts(ds, big) + [judge.fact("peak_pq", p, BE_TX), judge.fact("peak_wfq", w, BE_TX),
                                      judge.fact("peak_gap", w - p, BE_TX)])))
        rows.append(kit.claim(art, "peak_frequency_higher_wfq_1500", None, "-",
                              f"the slides; share of |IPDV| >= {frac:g} BE tx time at {big} bytes: PQ {fp:.3f}, "
                              f"WFQ {fw:.3f}", shape_ok=fw > fp))
    return rows


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
    fig, axes, frames, seed = series_panels(ds, "ipdv", "IPDV of consecutive EF packets (ms)", n_points)
    be_tx = float(ds.be_tx_time)
    frac = ds.attrs["peak_fraction"]
    for ax, f in zip(axes, frames):
        ax.axhline(be_tx, color="black", ls="--", lw=1.2, label="page and slides: max IPDV = 1 BE tx time")
        ax.axhline(-be_tx, color="black", ls="--", lw=1.2)
        for y in (frac * be_tx, -frac * be_tx):
            ax.axhline(y, color="0.6", ls=":", lw=1, label=f"peak threshold: {frac:g} BE tx time")
        freq = ds["peak_frequency"].sel(ef_frame_bytes=f, seed=seed)
        mx = ds["ipdv_max_be_tx"].sel(ef_frame_bytes=f, seed=seed)
        ax.text(0.02, 0.03, "\n".join(
            f"{LABELS[s]}: max |IPDV| {float(mx.sel(scheduler=s)):.2f} BE tx, peaks (>= {frac:g}) "
            f"{float(freq.sel(scheduler=s)):.0%}" for s in ds["scheduler"].values),
            transform=ax.transAxes, va="bottom", fontsize=8,
            bbox=dict(boxstyle="round", fc="white", ec="0.8", alpha=0.9))
        lim = max(1.25 * be_tx, 1.1 * float(np.nanmax(np.abs(ds["ipdv"].sel(ef_frame_bytes=f, seed=seed)))))
        ax.set_ylim(-1.6 * lim, 1.2 * lim)
    figure_legend(fig, axes)
    labels = {128: "page Fig. 6", 1024: "page Fig. 7", 1518: "slides, 1500 by"}
    for ax, f in zip(axes, frames):
        ax.set_title(f"EF frames of {int(f)} bytes" + (f" ({labels[int(f)]})" if int(f) in labels else ""),
                     fontsize=10)
    fig.suptitle(f"{ARTEFACT.id}: IPDV over time with WFQ and PQ (TF-TANT PQ vs WFQ page, Figs. 6-7; "
                 "slides, WFQ vs PQ: ipdv)", fontsize=11)
    kit.footer(fig, f"{conditions(ds)}; first {n_points} EF packets of seed {seed}; BE tx time {be_tx:.3f} ms; "
                    "IPDV = delay(i) - delay(i-1)")
    return fig
