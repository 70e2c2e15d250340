"""TF-TANT PQ-vs-WFQ page, Fig. 5: mean IPDV (mean abs. IPDV), PQ and WFQ, vs frame size.

The artefact's computation (:func:`compute`), statistics (:func:`statistics`), claims
(:func:`claims`) and figure (:func:`figure`); the notebook ``notebooks/07_tftant_pq_vs_wfq``
runs them, on the runs of ``tftant_wfq_fig1`` (:func:`pqlab.papers.tftant_wfq.pq_vs_wfq_runs.size_sweep`).
The Dataset is in SI units (times in seconds; multiples of the BE transmission time in "BE tx
times"); the claims state times in ms (their statistics computed again from the converted
per-seed values); the figure draws ms.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...measure import cache
from ..stated import MTU_FRAME_BYTES
from .. import judge, kit, presets
from ..registry import Artefact
from .pq_vs_wfq_claims import PAGE_LARGE_FRAME_BYTES, in_ms, listing, per_scheduler, tag_facts, value_at
from .pq_vs_wfq_plots import COLORS, LABELS, ci, conditions, in_ms_for_axes, seeds_text, source_sizes
from .pq_vs_wfq_runs import checked_size_sweep
from .pq_vs_wfq_testbed import BE_TX, PEAK_FRACTION, SOURCE_FRAME_SIZES, add_scalars, beat_max_be_tx, beat_slip_s, \
    config_scalars, frame_coords, per_seed

__all__ = ["ARTEFACT", "compute", "statistics", "claims", "figure", "IPDV_GAIN_RANGE_MS", "SLIDES_SMALL_FRAMES_BYTES"]

ARTEFACT = Artefact(__name__, notebook="07_tftant_pq_vs_wfq")

#: The WFQ - PQ mean |IPDV| spans more than this over the sizes, ms: "depends on the size" (beyond noise).
IPDV_GAIN_RANGE_MS = 0.1
#: The slides' small frames, said to have the higher mean |IPDV|, bytes.
SLIDES_SMALL_FRAMES_BYTES = (128, 256)


@cache.artefact(ARTEFACT.id)
def compute(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    frame_sizes=presets.TFTANT_FRAME_SIZES,
    ef_service_rate_bps: float = presets.TFTANT_EF_SERVICE_RATE_BPS,
) -> xr.Dataset:
    """TF-TANT PQ-vs-WFQ page, Fig. 5: mean IPDV (mean of |IPDV|) with PQ and with WFQ vs EF frame size.

    The same runs as ``tftant_wfq_fig1`` (computed once per process). IPDV is
    RFC 3393's of consecutive EF packets; its "average" is the mean of the absolute
    values (the signed mean is ~0; the long version's "jitter").

    Parameters
    ----------
    n_ef_samples, seeds, frame_sizes, ef_service_rate_bps
        As ``tftant_wfq_fig1``: EF packets per run (>= 10), seeds, EF frame sizes (bytes) and
        the EF service rate (bit/s), checked by
        :func:`~pqlab.papers.tftant_wfq.pq_vs_wfq_runs.checked_size_sweep`.

    Returns
    -------
    xarray.Dataset
        Dims ``scheduler``, ``ef_frame_bytes``, ``seed``: ``ipdv`` (mean |IPDV|, s),
        ``ipdv_max`` (s), ``ipdv_peak_frequency`` (share of |IPDV| >= half a BE tx time);
        ``ipdv_mean``/``ipdv_ci`` over seeds; ``ipdv_max_be_tx`` (BE tx times); per frame the
        slip ``beat_slip`` (s, :func:`~pqlab.papers.tftant_wfq.pq_vs_wfq_testbed.beat_slip_s`) and the
        sawtooth's ``ipdv_beat_mean`` (s) and ``ipdv_beat_max_be_tx``; the test conditions as
        scalars (SI units).
    """
    n, seeds, frames, rate, node, raw = checked_size_sweep(n_ef_samples, seeds, frame_sizes, ef_service_rate_bps)
    dims = ("scheduler", "ef_frame_bytes", "seed")
    ds = xr.Dataset(
        {
            "ipdv": per_seed(raw, "ipdv_abs_mean_s", "s", "mean |IPDV| of consecutive EF packets", dims),
            "ipdv_max": per_seed(raw, "ipdv_abs_max_s", "s", "largest |IPDV| of one run", dims),
            "ipdv_peak_frequency": per_seed(raw, "ipdv_peak_frequency", "1",
                                            f"share of |IPDV| >= {PEAK_FRACTION} BE tx time", dims),
            "beat_slip": ("ef_frame_bytes", beat_slip_s(frames, node),
                          {"units": "s", "long_name": "s = (T_EF - t_EF) mod t_BE"}),
        },
        coords={"scheduler": ("scheduler", list(presets.TFTANT_SCHEDULERS), {"long_name": "EF scheduler"}),
                **frame_coords(frames, node),
                "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"})},
    )
    add_scalars(ds, config_scalars(node, rate))
    ds.attrs = kit.provenance(ARTEFACT.id,
                              f"{ARTEFACT.id}: mean IPDV with PQ and WFQ vs EF frame size "
                              "(TF-TANT PQ vs WFQ page, Fig. 5)",
                              __name__, seeds, n_ef_samples=n)
    return statistics(ds)


def statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`compute`'s statistics to its per-seed ``ipdv``, ``ipdv_max`` and ``beat_slip`` (in place; returned).

    ``ipdv_mean``/``ipdv_ci`` over seeds, ``ipdv_max_be_tx``, and the sawtooth of the slip
    ``s``: ``ipdv_beat_mean = 2 s (t_BE - s) / t_BE`` and ``ipdv_beat_max_be_tx`` (see
    :func:`~pqlab.papers.tftant_wfq.pq_vs_wfq_testbed.beat_slip_s`), in the time unit of the
    Dataset (s; the claims' ms through :func:`pqlab.papers.kit.statistics_in_ms`).
    """
    kit.add_mean_ci(ds, ["ipdv"])
    be_tx = float(ds.be_tx_time)
    ds["ipdv_max_be_tx"] = ds["ipdv_max"].max("seed") / be_tx
    ds["ipdv_max_be_tx"].attrs = {"units": BE_TX, "long_name": "largest |IPDV| over seeds in BE tx times"}
    slip = ds["beat_slip"]
    ds["ipdv_beat_mean"] = 2 * slip * (be_tx - slip) / be_tx
    ds["ipdv_beat_mean"].attrs = {"units": slip.attrs["units"], "long_name": "sawtooth prediction of the mean |IPDV|"}
    ds["ipdv_beat_max_be_tx"] = beat_max_be_tx(slip, be_tx)
    return ds


def claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`compute`: IPDV higher for small frames; the IPDV gain depends on size."""
    art = ARTEFACT.id
    ds = in_ms(ds, art, statistics)
    frames = ds["ef_frame_bytes"].values
    m = ds["ipdv_mean"]
    small = [f for f in SLIDES_SMALL_FRAMES_BYTES if f in frames]
    large = [f for f in (PAGE_LARGE_FRAME_BYTES, MTU_FRAME_BYTES) if f in frames]
    rows = []
    ok = []
    parts = []
    for sched in presets.TFTANT_SCHEDULERS:
        s = [value_at(m.sel(scheduler=sched), f) for f in small]
        lg = [value_at(m.sel(scheduler=sched), f) for f in large]
        ok.append(bool(s and lg and min(s) > max(lg)))
        parts.append(f"{sched.upper()}: {listing(small + large, s + lg)} ms")
    src = [f for f in SOURCE_FRAME_SIZES if f in frames]
    rows.append(kit.claim(
        art, "ipdv_higher_small_packets", None, "-",
        f"mean |IPDV| at 128/256 vs 1024/1518 bytes: {'; '.join(parts)}; over the whole sweep, PQ "
        f"{float(m.sel(scheduler='pq').min()):.2f}..{float(m.sel(scheduler='pq').max()):.2f} ms",
        shape_ok=all(ok), reason=_order_reason(ds, small, large, ok)))
    diff = (m.sel(scheduler="wfq") - m.sel(scheduler="pq")).values
    rows.append(kit.claim(
        art, "ipdv_gain_depends_on_size", None, "-",
        f"the slides: mean |IPDV| WFQ - PQ, ms: {listing(src, [diff[list(frames).index(f)] for f in src])}",
        shape_ok=bool(np.ptp(diff) > IPDV_GAIN_RANGE_MS)))
    for f in src:
        rows += per_scheduler(art, f"mean_ipdv_{{s}}_{f}", lambda s: value_at(m.sel(scheduler=s), f), "ms",
                              lambda s: f"mean |IPDV| of consecutive EF packets, {s.upper()}, {f}-byte frames")
    return rows


def _order_reason(ds: xr.Dataset, small, large, ok) -> dict | None:
    """Why the mean |IPDV| at a small frame is not above that at a large one (``ds`` in ms), or None.

    Under PQ the sawtooth of the slip (:func:`statistics`' ``ipdv_beat_mean``) predicts each
    size's mean |IPDV|; under WFQ (when only WFQ breaks the order) an EF finish tag spanning
    several BE tag steps lets varying numbers of BE packets ahead.
    """
    if all(ok) or not small or not large:
        return None
    sched = presets.TFTANT_SCHEDULERS[0] if not ok[0] else presets.TFTANT_SCHEDULERS[1]
    m = ds["ipdv_mean"].sel(scheduler=sched)
    lo = min(small, key=lambda f: value_at(m, f))
    hi = max(large, key=lambda f: value_at(m, f))
    ours = [judge.fact("small_frame", lo, "bytes"), judge.fact("ours_small", value_at(m, lo), "ms"),
            judge.fact("large_frame", hi, "bytes"), judge.fact("ours_large", value_at(m, hi), "ms")]
    if sched == "pq":
        slip, beat = ds["beat_slip"], ds["ipdv_beat_mean"]
        return judge.reason(
            "arithmetic",
            "with one CBR EF and one CBR BE stream the mean |IPDV| under PQ is the sawtooth's 2 s (t_BE - s) / t_BE, "
            "s = (T_EF - t_EF) mod t_BE, t_BE = {t_be}: at {small_frame} s = {slip_small} gives "
            "{predicted_small} (ours {ours_small}), at {large_frame} s = {slip_large} gives {predicted_large} "
            "(ours {ours_large}): a beat of the two periods, not a trend in the EF size",
            ours + [judge.fact("t_be", float(ds.be_tx_time), "ms"),
                    judge.fact("slip_small", value_at(slip, lo), "ms"),
                    judge.fact("predicted_small", value_at(beat, lo), "ms"),
                    judge.fact("slip_large", value_at(slip, hi), "ms"),
                    judge.fact("predicted_large", value_at(beat, hi), "ms")])
    return judge.reason(
        "mechanism",
        "under WFQ an EF finish tag of {ef_tag} at {large_frame} spans {tag_steps} BE tag steps of {be_tag}, "
        "so the EF packets wait behind numbers of BE packets that vary from packet to packet: mean |IPDV| "
        "{ours_large} there, {ours_small} at {small_frame}",
        ours + tag_facts(ds, hi))


def figure(ds: xr.Dataset):
    """Page Fig. 5: mean |IPDV| with PQ and WFQ vs frame size (left), the largest |IPDV| in BE tx times (right).

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`compute`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    ds = in_ms_for_axes(kit.check_artefact(ds, ARTEFACT.id))
    fig, (ax, mx) = kit.subplots(1, 2, figsize=(13, 4.9), footer=True)
    frames = ds["ef_frame_bytes"].values
    ax.axvspan(120, 264, color="C2", alpha=0.15, label="page: IPDV higher at 128 / 256 bytes")
    for s in ds["scheduler"].values:
        ax.errorbar(frames, ds["ipdv_mean"].sel(scheduler=s), yerr=ci(ds["ipdv_ci"].sel(scheduler=s)),
                    fmt="o-", ms=4, capsize=3, color=COLORS[s], label=f"pqlab, {LABELS[s]}")
        mx.plot(frames, ds["ipdv_max_be_tx"].sel(scheduler=s), "o-", ms=4, color=COLORS[s], label=LABELS[s])
    if "ipdv_beat_mean" in ds:
        wide = dict(color="0.35", lw=6, alpha=0.25, zorder=0, solid_capstyle="round")
        ax.plot(frames, ds["ipdv_beat_mean"], label="sawtooth: 2 s (t_BE - s) / t_BE (wide grey)", **wide)
        mx.plot(frames, ds["ipdv_beat_max_be_tx"], label="sawtooth: max(s, t_BE - s) (wide grey)", **wide)
    for a in (ax, mx):
        source_sizes(a, frames)
        a.set_xlabel("EF frame size (bytes)")
    ax.set_ylabel("mean |IPDV| (ms)")
    ax.set_ylim(0, 1.3 * float(ds["ipdv_mean"].max()))
    ax.legend(loc="upper left", fontsize=8.5, ncol=2)
    ax.set_title("average IPDV (mean of |IPDV|)", fontsize=10)
    mx.axhline(1.0, color="black", ls="--", lw=1.2, label="page / slides: max IPDV = 1 BE tx time")
    mx.set_ylabel(f"largest |IPDV| (BE tx times of {float(ds.be_tx_time):.3f} ms)")
    mx.set_ylim(0, 1.3 * float(max(ds["ipdv_max_be_tx"].max(), 1.0)))
    mx.legend(loc="upper left", fontsize=8.5)
    mx.set_title("largest |IPDV| over all seeds", fontsize=10)
    fig.suptitle(f"{ARTEFACT.id}: mean IPDV with WFQ and PQ vs EF packet size (TF-TANT PQ vs WFQ page, Fig. 5)",
                 fontsize=11)
    kit.footer(fig, f"{conditions(ds)}; {seeds_text(ds)}; dotted: sizes the page names; "
                    "s = (T_EF - t_EF) mod t_BE, the slip of the EF arrivals against the BE departures")
    return fig
