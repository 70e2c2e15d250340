"""TF-TANT PQ-vs-WFQ page, Fig. 5: mean IPDV (mean abs. IPDV), PQ and WFQ, vs frame size.

The artefact's computation (:func:`compute`), statistics (:func:`statistics`), the numbers its
claims quote (:func:`claim_values`) and figure (:func:`figure`); the notebook
``notebooks/07_tftant_pq_vs_wfq`` runs them, on the runs of ``tftant_wfq_fig1``
(:func:`pqlab.papers.tftant_wfq.pq_vs_wfq_runs.size_sweep`).
The Dataset is in SI units (times in seconds; multiples of the BE transmission time in "BE tx
times"); the claims state times in ms (their statistics computed again from the converted
per-seed values); the figure draws ms.
"""

from __future__ import annotations

import xarray as xr

from ...measure import cache
from .. import kit, presets
from ..registry import Artefact
from ..stated import MTU_FRAME_BYTES
from .pq_vs_wfq_claims import PAGE_LARGE_FRAME_BYTES, in_ms, tag_facts, value_at
from .pq_vs_wfq_plots import (
    COLORS,
    LABELS,
    ci,
    conditions,
    in_ms_for_axes,
    seeds_text,
    source_sizes,
)
from .pq_vs_wfq_runs import checked_size_sweep
from .pq_vs_wfq_testbed import (
    BE_TX,
    PEAK_FRACTION,
    SOURCE_FRAME_SIZES,
    add_scalars,
    beat_max_be_tx,
    beat_slip_s,
    config_scalars,
    frame_coords,
    per_seed,
)

__all__ = [
    "ARTEFACT",
    "compute",
    "statistics",
    "claim_values",
    "figure",
    "SLIDES_SMALL_FRAMES_BYTES",
]

ARTEFACT = Artefact(__name__, notebook="07_tftant_pq_vs_wfq")

#: The slides' small frames, said to have the higher mean |IPDV|, bytes.
SLIDES_SMALL_FRAMES_BYTES = (128, 256)


@cache.artefact(ARTEFACT.id)
def compute(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    frame_sizes=presets.TFTANT_FRAME_SIZES,
    ef_service_rate_bps: float = presets.TFTANT_EF_SERVICE_RATE_BPS,
) -> xr.Dataset:
    """TF-TANT PQ-vs-WFQ page, Fig. 5: mean IPDV (mean of |IPDV|) with PQ and with WFQ vs EF frame
    size.

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
        slip ``beat_slip`` (s, :func:`~pqlab.papers.tftant_wfq.pq_vs_wfq_testbed.beat_slip_s`) and
        the
        sawtooth's ``ipdv_beat_mean`` (s) and ``ipdv_beat_max_be_tx``; the test conditions as
        scalars (SI units).
    """
    n, seeds, frames, rate, node, raw = checked_size_sweep(
        n_ef_samples, seeds, frame_sizes, ef_service_rate_bps
    )
    dims = ("scheduler", "ef_frame_bytes", "seed")
    ds = xr.Dataset(
        {
            "ipdv": per_seed(
                raw, "ipdv_abs_mean_s", "s", "mean |IPDV| of consecutive EF packets", dims
            ),
            "ipdv_max": per_seed(raw, "ipdv_abs_max_s", "s", "largest |IPDV| of one run", dims),
            "ipdv_peak_frequency": per_seed(
                raw,
                "ipdv_peak_frequency",
                "1",
                f"share of |IPDV| >= {PEAK_FRACTION} BE tx time",
                dims,
            ),
            "beat_slip": (
                "ef_frame_bytes",
                beat_slip_s(frames, node),
                {"units": "s", "long_name": "s = (T_EF - t_EF) mod t_BE"},
            ),
        },
        coords={
            "scheduler": (
                "scheduler",
                list(presets.TFTANT_SCHEDULERS),
                {"long_name": "EF scheduler"},
            ),
            **frame_coords(frames, node),
            "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"}),
        },
    )
    add_scalars(ds, config_scalars(node, rate))
    ds.attrs = kit.provenance(
        ARTEFACT.id,
        f"{ARTEFACT.id}: mean IPDV with PQ and WFQ vs EF frame size "
        "(TF-TANT PQ vs WFQ page, Fig. 5)",
        __name__,
        seeds,
        n_ef_samples=n,
    )
    return claim_values(statistics(ds))


def statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`compute`'s statistics to its per-seed ``ipdv``, ``ipdv_max`` and ``beat_slip`` (in
    place; returned).

    ``ipdv_mean``/``ipdv_ci`` over seeds, ``ipdv_max_be_tx``, and the sawtooth of the slip
    ``s``: ``ipdv_beat_mean = 2 s (t_BE - s) / t_BE`` and ``ipdv_beat_max_be_tx`` (see
    :func:`~pqlab.papers.tftant_wfq.pq_vs_wfq_testbed.beat_slip_s`), in the time unit of the
    Dataset (s; the claims' ms through :func:`pqlab.papers.kit.statistics_in_ms`).
    """
    kit.add_mean_ci(ds, ["ipdv"])
    be_tx = float(ds.be_tx_time)
    ds["ipdv_max_be_tx"] = ds["ipdv_max"].max("seed") / be_tx
    ds["ipdv_max_be_tx"].attrs = {
        "units": BE_TX,
        "long_name": "largest |IPDV| over seeds in BE tx times",
    }
    slip = ds["beat_slip"]
    ds["ipdv_beat_mean"] = 2 * slip * (be_tx - slip) / be_tx
    ds["ipdv_beat_mean"].attrs = {
        "units": slip.attrs["units"],
        "long_name": "sawtooth prediction of the mean |IPDV|",
    }
    ds["ipdv_beat_max_be_tx"] = beat_max_be_tx(slip, be_tx)
    return ds


def claim_values(ds: xr.Dataset) -> xr.Dataset:
    """Add the numbers the claims quote (in place; returned), in ms (the statistics computed again
    from the per-seed ms values): per scheduler the mean |IPDV| at the slides' small frames and the
    page's large ones, at every frame and at each source size (``mean_ipdv_<s>_<frame>``), WFQ
    less PQ; and, for the scheduler that breaks the order of small over large frames (PQ first),
    the small frame with the smallest and the large frame with the largest mean |IPDV|, with the
    sawtooth's prediction (PQ) or the WFQ tags (WFQ) there."""
    ms = in_ms(ds, ARTEFACT.id, statistics)
    frames = ms["ef_frame_bytes"].values
    m = ms["ipdv_mean"]
    small = [f for f in SLIDES_SMALL_FRAMES_BYTES if f in frames]
    large = [f for f in (PAGE_LARGE_FRAME_BYTES, MTU_FRAME_BYTES) if f in frames]
    src = [f for f in SOURCE_FRAME_SIZES if f in frames]
    listed = small + large
    ds.coords["listed_frame"] = (
        "listed_frame",
        listed,
        {"units": "bytes", "long_name": "EF frame"},
    )
    ds.coords["source_frame"] = ("source_frame", src, {"units": "bytes", "long_name": "EF frame"})
    values = {}
    ok = []
    for sched in presets.TFTANT_SCHEDULERS:
        ms_s = m.sel(scheduler=sched)
        s = [value_at(ms_s, f) for f in small]
        lg = [value_at(ms_s, f) for f in large]
        ok.append(bool(s and lg and min(s) > max(lg)))
        values.update(
            {
                f"ipdv_small_{sched}": (
                    xr.DataArray(s, dims=("small_frames",)),
                    "ms",
                    "mean |IPDV|, small frames",
                ),
                f"ipdv_large_{sched}": (
                    xr.DataArray(lg, dims=("large_frames",)),
                    "ms",
                    "mean |IPDV|, large frames",
                ),
                f"ipdv_listed_{sched}": (
                    xr.DataArray(s + lg, dims=("listed_frame",)),
                    "ms",
                    "mean |IPDV| at the small and large frames",
                ),
                f"ipdv_sweep_min_{sched}": (
                    float(ms_s.min()),
                    "ms",
                    "smallest mean |IPDV| of the sweep",
                ),
                f"ipdv_sweep_max_{sched}": (
                    float(ms_s.max()),
                    "ms",
                    "largest mean |IPDV| of the sweep",
                ),
            }
        )
        values.update(
            {
                f"mean_ipdv_{sched}_{f}": (value_at(ms_s, f), "ms", f"mean |IPDV|, {f}-byte frames")
                for f in src
            }
        )
    diff = (m.sel(scheduler="wfq") - m.sel(scheduler="pq")).values
    values["ipdv_gain"] = (
        xr.DataArray(diff, dims=("ef_frame_bytes",)),
        "ms",
        "mean |IPDV|, WFQ less PQ",
    )
    values["ipdv_gain_source"] = (
        xr.DataArray([diff[list(frames).index(f)] for f in src], dims=("source_frame",)),
        "ms",
        "mean |IPDV|, WFQ less PQ, at the source sizes",
    )
    values["order_broken_pq"] = (not ok[0], "1", "PQ breaks the order (else WFQ, if any)")
    sched = presets.TFTANT_SCHEDULERS[0] if not ok[0] else presets.TFTANT_SCHEDULERS[1]
    if small and large:
        ms_s = m.sel(scheduler=sched)
        lo = min(small, key=lambda f: value_at(ms_s, f))
        hi = max(large, key=lambda f: value_at(ms_s, f))
        values.update(
            {
                "small_frame": (lo, "bytes", "small frame with the smallest mean |IPDV|"),
                "ours_small": (value_at(ms_s, lo), "ms", "its mean |IPDV|"),
                "large_frame": (hi, "bytes", "large frame with the largest mean |IPDV|"),
                "ours_large": (value_at(ms_s, hi), "ms", "its mean |IPDV|"),
                "t_be": (float(ms.be_tx_time), "ms", "one BE transmission time"),
                "slip_small": (value_at(ms["beat_slip"], lo), "ms", "the slip at the small frame"),
                "predicted_small": (
                    value_at(ms["ipdv_beat_mean"], lo),
                    "ms",
                    "the sawtooth's mean |IPDV| there",
                ),
                "slip_large": (value_at(ms["beat_slip"], hi), "ms", "the slip at the large frame"),
                "predicted_large": (
                    value_at(ms["ipdv_beat_mean"], hi),
                    "ms",
                    "the sawtooth's mean |IPDV| there",
                ),
            }
        )
        values.update(
            {
                f"large_{f['name']}": (f["value"], f["unit"], f"WFQ {f['name']} at the large frame")
                for f in tag_facts(ms, hi)
            }
        )
    return kit.add_claim_values(ds, values)


def figure(ds: xr.Dataset):
    """Page Fig. 5: mean |IPDV| with PQ and WFQ vs frame size (left), the largest |IPDV| in BE tx
    times (right).

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
        ax.errorbar(
            frames,
            ds["ipdv_mean"].sel(scheduler=s),
            yerr=ci(ds["ipdv_ci"].sel(scheduler=s)),
            fmt="o-",
            ms=4,
            capsize=3,
            color=COLORS[s],
            label=f"pqlab, {LABELS[s]}",
        )
        mx.plot(
            frames,
            ds["ipdv_max_be_tx"].sel(scheduler=s),
            "o-",
            ms=4,
            color=COLORS[s],
            label=LABELS[s],
        )
    if "ipdv_beat_mean" in ds:
        wide = dict(color="0.35", lw=6, alpha=0.25, zorder=0, solid_capstyle="round")
        ax.plot(
            frames,
            ds["ipdv_beat_mean"],
            label="sawtooth: 2 s (t_BE - s) / t_BE (wide grey)",
            **wide,
        )
        mx.plot(
            frames,
            ds["ipdv_beat_max_be_tx"],
            label="sawtooth: max(s, t_BE - s) (wide grey)",
            **wide,
        )
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
    fig.suptitle(
        f"{ARTEFACT.id}: mean IPDV with WFQ and PQ vs EF packet size (TF-TANT PQ vs WFQ page,"
        " Fig. 5)",
        fontsize=11,
    )
    kit.footer(
        fig,
        f"{conditions(ds)}; {seeds_text(ds)}; dotted: sizes the page names; "
        "s = (T_EF - t_EF) mod t_BE, the slip of the EF arrivals against the BE departures",
    )
    return fig
