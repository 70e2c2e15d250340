"""TF-TANT slides, "EF packet size and ipdv (with aggregation and congestion)": IPDV spread per EF
size.

Slide "EF packet size and ipdv (with aggregation and congestion)": IPDV standard deviation per EF
size with and without each. The artefact's computation (:func:`compute`, its statistics
:func:`statistics`), the numbers its claims quote (:func:`claim_values`) and figure
(:func:`figure`); the notebook ``notebooks/09_tftant_be_streams_and_aggregation`` runs them.
The runs are :func:`pqlab.papers.tftant_slides.ef_split_runs.ef_split_scenario`, measuring every
EF stream.

The standard deviation is reported for signed IPDV (RFC 3393, the slides' IPPM metric) and for
|IPDV|. Units: the Dataset's times are in seconds; the claims and the figure state them in ms
(the claims recompute the statistics from the converted per-seed values with :func:`statistics`,
through :func:`pqlab.papers.kit.statistics_in_ms`); rates in bit/s of frames.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...base.units import times_in_ms, to_kbps
from ...measure import cache, experiments, metrics
from ...node.scenario import Scenario
from .. import kit
from ..registry import Artefact
from .ef_split_runs import (
    TANDEM_EF_AGGREGATE_BPS,
    TANDEM_STREAMS,
    checked_ef_split,
    ef_split_scenario,
)
from .pq_streams_text import be_sizes_text

__all__ = ["ARTEFACT", "compute", "statistics", "claim_values", "figure", "IPDV_SIZE_FRAMES"]

ARTEFACT = Artefact(__name__, notebook="09_tftant_be_streams_and_aggregation")

#: Slide "EF packet size and ipdv": EF frame sizes, bytes (the slide shows 256 and 1518; 128 and
#: 1024 added).
IPDV_SIZE_FRAMES = (128, 256, 1024, 1518)


def _ipdv_size_measure(ds: xr.Dataset, sc: Scenario) -> dict:
    """IPDV of every EF stream after the warm-up, pooled: std (signed and absolute), max and
    mean |IPDV|."""
    ipdv = np.concatenate(
        [experiments.reference_ipdv_values(ds, sc, flow=s.flow) for s in kit.ef_streams(sc)]
    )
    jitter = metrics.jitter_of_ipdv(ipdv)
    return {
        "ipdv_std_s": float(ipdv.std(ddof=1)),
        "jitter_std_s": float(jitter.std(ddof=1)),
        "jitter_max_s": float(jitter.max()),
        "jitter_p999_s": float(np.percentile(jitter, 99.9)),
        "jitter_mean_s": float(jitter.mean()),
    }


_ipdv_size_measure.attrs = {
    "ipdv_std_s": {
        "units": "s",
        "long_name": "standard deviation of the pooled IPDV of every EF stream",
    },
    "jitter_std_s": {"units": "s", "long_name": "standard deviation of the pooled |IPDV|"},
    "jitter_max_s": {"units": "s", "long_name": "largest pooled |IPDV|"},
    "jitter_p999_s": {"units": "s", "long_name": "99.9th percentile of the pooled |IPDV|"},
    "jitter_mean_s": {"units": "s", "long_name": "mean pooled |IPDV|"},
}
_ipdv_size_measure.reads_arrays = True  # type: ignore[attr-defined]  # experiments.measure_runs

#: The per-seed variables of :func:`compute` and their long names.
_IPDV_SIZE_NAMES = {
    "ipdv_std": "std of the signed IPDV",
    "jitter_std": "std of |IPDV|",
    "jitter_max": "largest |IPDV|",
    "jitter_p999": "99.9th percentile of |IPDV|",
    "jitter_mean": "mean |IPDV|",
}


@cache.artefact(ARTEFACT.id)
def compute(
    *,
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    ef_frames_bytes=IPDV_SIZE_FRAMES,
    n_streams=TANDEM_STREAMS,
    ef_aggregate_bps: float = TANDEM_EF_AGGREGATE_BPS,
) -> xr.Dataset:
    """Slide "EF packet size and ipdv (with aggregation and congestion)": IPDV spread per EF size.

    For every EF frame size: one EF stream or several sharing the same aggregate
    (aggregation), with or without the 20 STAND-IN real BE streams (congestion), on the
    C7200 (:func:`~pqlab.papers.tftant_slides.ef_split_runs.ef_split_scenario`). IPDV of every
    EF stream, pooled.

    Parameters
    ----------
    n_ef_samples : int
        EF packets of all streams per run.
    seeds : sequence of int
        Seeds (>= 0, distinct).
    ef_frames_bytes : sequence of int
        EF frame sizes, bytes (distinct).
    n_streams : sequence of int
        EF stream counts (>= 1, distinct): the first is "no aggregation".
    ef_aggregate_bps : float
        EF aggregate, bit/s of frames (> 0).

    Returns
    -------
    xarray.Dataset
        Dims ``ef_frame_bytes``, ``n_streams``, ``congestion`` (False, True), ``seed``:
        ``ipdv_std`` (signed), ``jitter_std`` (of |IPDV|), ``jitter_max``, ``jitter_p999``,
        ``jitter_mean`` (s) with ``*_mean``/``*_ci``.
    """
    n, seeds, frames, counts, load = checked_ef_split(
        n_ef_samples, seeds, ef_frames_bytes, n_streams, ef_aggregate_bps
    )

    def point(ef_frame_bytes, n_streams, congestion):
        return ef_split_scenario(
            n_streams,
            load,
            ef_frame_bytes=ef_frame_bytes,
            be_traffic="real" if congestion else "none",
            n_ef_samples=n,
            total_samples=True,
        )

    raw = experiments.sweep(
        point,
        {"ef_frame_bytes": frames, "n_streams": counts, "congestion": [False, True]},
        seeds,
        measure=_ipdv_size_measure,
    )
    dims = ("ef_frame_bytes", "n_streams", "congestion", "seed")
    ds = xr.Dataset(
        {
            k: (dims, raw[f"{k}_s"].values, {"units": "s", "long_name": v})
            for k, v in _IPDV_SIZE_NAMES.items()
        },
        coords={
            "ef_frame_bytes": (
                "ef_frame_bytes",
                np.array(frames),
                {"units": "bytes", "long_name": "EF frame size"},
            ),
            "n_streams": (
                "n_streams",
                np.array(counts),
                {"units": "streams", "long_name": "EF streams"},
            ),
            "congestion": (
                "congestion",
                np.array([False, True]),
                {"long_name": "20 BE streams (STAND-IN real)"},
            ),
            "seed": ("seed", np.array(seeds), {"units": "1", "long_name": "random seed"}),
        },
    )
    sc = point(frames[0], counts[-1], True)
    ds.attrs = kit.provenance(
        ARTEFACT.id,
        f"{ARTEFACT.id}: IPDV per EF frame size with and without aggregation "
        "and congestion (TF-TANT slides)",
        __name__,
        seeds,
        scenario=sc.to_json(),
        n_ef_samples=n,
        ef_aggregate_bps=load,
    )
    return claim_values(statistics(ds))


def statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`compute`'s means and CIs over seeds, in the Dataset's time unit (s; the claims' ms
    through :func:`pqlab.papers.kit.statistics_in_ms`); in place, returned."""
    return kit.add_mean_ci(ds, _IPDV_SIZE_NAMES)


def claim_values(ds: xr.Dataset) -> xr.Dataset:
    """Add the numbers the claims quote (in place; returned), in ms (the statistics computed again
    from the per-run ms values): for the std of the signed IPDV (``ipdv_std_*``) and of |IPDV|
    (``jitter_std_*``) per EF frame size, without congestion with one and with the most streams,
    with congestion with one (``_one``) and the most (``_both``), whether congestion raises it at
    every stream count, and the size where the most streams raise it least (``_weakest_*``, with
    the 95 % CI half-width there and the largest std without congestion); per EF size the largest
    |IPDV| with congestion and the range of the mean |IPDV|."""
    ms = kit.statistics_in_ms(ds, statistics)
    lo, hi = ms["n_streams"].values[0], ms["n_streams"].values[-1]
    values = {
        "n_seeds": (ms.sizes["seed"], "1", "seeds"),
        "one_seed": (ms.sizes["seed"] == 1, "1", "one seed"),
        "n_streams_one": (lo, "streams", "fewest EF streams"),
        "n_streams_many": (hi, "streams", "most EF streams"),
    }
    for var in ("ipdv_std", "jitter_std"):
        s, h = ms[f"{var}_mean"], ms[f"{var}_ci"]
        one, both = s.sel(congestion=True, n_streams=lo), s.sel(congestion=True, n_streams=hi)
        cong = (s.sel(congestion=True) > s.sel(congestion=False)).all("n_streams")
        k = int(np.argmin((both - one).values))
        half = float(h.sel(congestion=True, n_streams=hi).values[k])
        values.update(
            {
                f"{var}_quiet_one": (
                    s.sel(n_streams=lo, congestion=False),
                    "ms",
                    "std, one stream, no congestion",
                ),
                f"{var}_quiet_many": (
                    s.sel(n_streams=hi, congestion=False),
                    "ms",
                    "std, most streams, no congestion",
                ),
                f"{var}_one": (one, "ms", "std, one stream, congestion"),
                f"{var}_both": (both, "ms", "std, most streams, congestion"),
                f"{var}_congested": (s.sel(congestion=True), "ms", "std with congestion"),
                f"{var}_quiet": (s.sel(congestion=False), "ms", "std without congestion"),
                f"{var}_cong_all": (bool(cong.all()), "1", "congestion raises it at every size"),
                f"{var}_agg_grows": (both > one, "1", "the most streams raise it, with congestion"),
                f"{var}_weakest_frame": (
                    ms["ef_frame_bytes"].values[k],
                    "bytes",
                    "EF size where the most streams raise it least",
                ),
                f"{var}_weakest_one": (
                    float(one.values[k]),
                    "ms",
                    "std there, one stream, congestion",
                ),
                f"{var}_weakest_both": (
                    float(both.values[k]),
                    "ms",
                    "std there, most streams, congestion",
                ),
                f"{var}_weakest_half": (
                    half if np.isfinite(half) else 0.0,
                    "ms",
                    "95 % CI half-width there, most streams",
                ),
                f"{var}_weakest_half_known": (
                    bool(np.isfinite(half)),
                    "1",
                    "the CI half-width is known",
                ),
                f"{var}_quiet_max": (
                    round(float(s.sel(congestion=False).max()), 9),
                    "ms",
                    "largest std without congestion",
                ),
            }
        )
    mx = ms["jitter_max_mean"].sel(congestion=True).max("n_streams")
    mean = ms["jitter_mean_mean"].sel(congestion=True)
    values.update(
        {
            "jitter_max_congested": (mx, "ms", "largest |IPDV| with congestion"),
            "jitter_max_smallest": (
                float(mx.min()),
                "ms",
                "smallest of the largest |IPDV| over EF sizes",
            ),
            "jitter_max_ratio": (
                float(mx.max() / mx.min()),
                "1",
                "largest over smallest of the largest |IPDV|",
            ),
            "jitter_mean_min": (float(mean.min()), "ms", "smallest mean |IPDV| with congestion"),
            "jitter_mean_max": (float(mean.max()), "ms", "largest mean |IPDV| with congestion"),
        }
    )
    return kit.add_claim_values(ds, values)


def figure(ds: xr.Dataset):
    """IPDV standard deviation per EF frame size without/with aggregation and congestion, and the
    largest |IPDV|.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`compute`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    kit.check_artefact(ds, ARTEFACT.id)
    ds = times_in_ms(ds)
    seeds = kit.seed_count(ds.sizes["seed"])
    fig, (ax, ax_m) = kit.subplots(
        1, 2, figsize=(13, 5.0), footer=True, gridspec_kw={"width_ratios": [1.5, 1]}
    )
    frames = ds["ef_frame_bytes"].values
    lo, hi = int(ds["n_streams"].values[0]), int(ds["n_streams"].values[-1])
    conditions = [
        (lo, False, "neither"),
        (hi, False, f"aggregation ({hi} streams)"),
        (lo, True, "congestion"),
        (hi, True, "aggregation + congestion"),
    ]
    colors = ["0.7", "C2", "C0", "C3"]
    x = np.arange(frames.size)
    width = 0.8 / len(conditions)
    bars = []
    for k, (n, cong, label) in enumerate(conditions):
        d = ds.sel(n_streams=n, congestion=cong)
        pos = x + (k - (len(conditions) - 1) / 2) * width
        ax.bar(
            pos,
            d["ipdv_std_mean"],
            width,
            yerr=kit.ci_half_widths(d["ipdv_std_ci"]),
            capsize=2,
            color=colors[k],
            label=label,
        )
        bars.append((pos, d["ipdv_std_mean"].values, colors[k]))
        for xi, v in zip(pos, d["ipdv_std_mean"].values):
            if v < 1e-6:  # the value above the mark kit.mark_flat_bars puts on the axis
                ax.annotate(
                    "0",
                    (xi, 0),
                    xytext=(0, 7),
                    textcoords="offset points",
                    ha="center",
                    va="bottom",
                    fontsize=8,
                    color="0.3",
                )
    ax.set_ylim(bottom=0)
    for pos, heights, colour in bars:
        kit.mark_flat_bars(ax, pos, heights, colour)
    ax.set_xticks(x, [f"{int(f)}" for f in frames])
    ax.set_xlabel("EF frame size (bytes)")
    ax.set_ylabel("standard deviation of the IPDV (ms)")
    kit.legend_below(ax, ncol=4)
    ax.set_title(f"std of the signed IPDV (mean of {seeds}, 95% CI)", fontsize=10)
    for k, (n, label) in enumerate(((lo, "1 stream"), (hi, f"{hi} streams"))):
        d = ds.sel(n_streams=n, congestion=True)
        ax_m.errorbar(
            frames,
            d["jitter_max_mean"],
            yerr=kit.ci_half_widths(d["jitter_max_ci"]),
            marker="o",
            capsize=3,
            color=f"C{3 + k}",
            label=f"largest |IPDV|, {label}",
        )
        ax_m.errorbar(
            frames,
            d["jitter_mean_mean"],
            yerr=kit.ci_half_widths(d["jitter_mean_ci"]),
            marker="s",
            capsize=3,
            ls="--",
            color=f"C{3 + k}",
            mfc="white",
            label=f"mean |IPDV|, {label}",
        )
    ax_m.set_ylim(bottom=0)
    ax_m.set_xlabel("EF frame size (bytes)")
    ax_m.set_ylabel("|IPDV| with congestion (ms)")
    kit.legend_below(ax_m, ncol=2)
    ax_m.set_title("a few packets see a high IPDV whatever the size", fontsize=10)
    fig.suptitle(
        f"{ARTEFACT.id}: IPDV vs EF frame size with aggregation and congestion, EF "
        f"{to_kbps(ds.attrs['ef_aggregate_bps']):g} kbit/s in all (TF-TANT slides)",
        fontsize=11.5,
    )
    kit.footer(
        fig,
        f"congestion: 20 BE streams; {be_sizes_text(ds.attrs['scenario'])}; IPDV of every EF"
        " stream, pooled",
    )
    return fig
