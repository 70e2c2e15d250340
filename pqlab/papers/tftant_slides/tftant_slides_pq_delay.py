"""TF-TANT slides, "PQ: one-way delay": mean EF delay with PQ against the BE and the EF packet size.

The artefact's computation (:func:`compute`), the numbers its claims quote (:func:`claim_values`)
and figure (:func:`figure`); the notebook ``notebooks/11_network_and_slides`` runs them. The
Dataset is in SI units (times in seconds, sizes in bytes, rates in bit/s); the claims and the
figure state times in ms.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import xarray as xr

from ...base.units import to_kbps, to_mbps, to_ms
from ...measure import cache, experiments
from ...measure.analysis import mean_ci
from ...node.framing import line_time_s
from .. import kit, presets
from ..registry import Artefact

__all__ = [
    "ARTEFACT",
    "compute",
    "claim_values",
    "figure",
    "PQ_DELAY_EF_FRAMES",
    "PQ_DELAY_BE_SIZES",
]

ARTEFACT = Artefact(__name__, notebook="11_network_and_slides")

#: EF frame sizes of the sweep, bytes (the slides' 128 .. 1518 range).
PQ_DELAY_EF_FRAMES = (128, 512, 1024, 1518)
#: ... and the BE IP lengths, bytes (the TF-TANT BE profile is one size, 1000 bytes; 256 .. 1500
#: around it).
PQ_DELAY_BE_SIZES = (256, 512, 1000, 1500)


@cache.artefact(ARTEFACT.id)
def compute(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    ef_frames: Sequence[int] = PQ_DELAY_EF_FRAMES,
    be_sizes: Sequence[int] = PQ_DELAY_BE_SIZES,
) -> xr.Dataset:
    """Mean EF delay with PQ for every EF frame size and BE IP length (TF-TANT slides, "PQ: one-way
    delay").

    Runs :func:`pqlab.scenarios.pq_vs_wfq` with ``scheduler="pq"`` (the slides' C7200:
    tx-ring-limit 5, EF queue 10, EF 300 kbit/s policed at 400 kbit/s, one BE CBR stream of
    2.0 Mbit/s) for every EF frame size and BE IP length.

    Parameters
    ----------
    n_ef_samples : int
        EF packets measured per run (>= 10).
    seeds : sequence of int
        Seeds.
    ef_frames : sequence of int
        EF frame sizes, bytes (IP = frame - 18), increasing.
    be_sizes : sequence of int
        BE IP lengths, bytes (one size per run), increasing.

    Returns
    -------
    xarray.Dataset
        Dims ``ef_frame_bytes``, ``be_ip_bytes``, ``seed``: ``delay`` (mean EF one-way delay of
        a run, s); ``delay_mean``/``delay_ci`` over seeds; ``ef_line_time`` (the EF packet's
        own line time, s, per frame size), ``path_delay`` (what :func:`pqlab.scenarios.paper_path`
        adds to it, s) and ``be_line_time`` (s, per BE size).
    """
    n = kit.check_n_ef_samples(n_ef_samples, minimum=10)
    seeds = kit.check_seeds(seeds)
    frames = [int(x) for x in kit.check_values("ef_frames", ef_frames, 64, integer=True)]
    sizes = [int(x) for x in kit.check_values("be_sizes", be_sizes, 29, integer=True)]
    for name, vals in (("ef_frames", frames), ("be_sizes", sizes)):
        if sorted(set(vals)) != vals or len(vals) < 2:
            raise ValueError(f"{name} must be at least two increasing distinct sizes, got {vals}")
    delay = np.full((len(frames), len(sizes), len(seeds)), np.nan)
    for i, frame in enumerate(frames):
        for j, be in enumerate(sizes):
            sc = presets.pq_vs_wfq(
                scheduler="pq", ef_frame_bytes=frame, be_ip_bytes=be, n_ef_samples=n
            )
            delay[i, j, :] = [m["delay_mean_s"] for m in experiments.measure_runs(sc, seeds)]
    mean, ci = mean_ci(delay)
    node = presets.tftant_node("pq")
    ds = xr.Dataset(
        {
            "delay": (
                ("ef_frame_bytes", "be_ip_bytes", "seed"),
                delay,
                {"units": "s", "long_name": "mean EF one-way delay of one run"},
            ),
            "delay_mean": (
                ("ef_frame_bytes", "be_ip_bytes"),
                mean,
                {"units": "s", "long_name": "mean EF one-way delay"},
            ),
            "delay_ci": (
                ("ef_frame_bytes", "be_ip_bytes"),
                ci,
                {"units": "s", "long_name": "95% CI half-width over seeds"},
            ),
            "ef_line_time": (
                "ef_frame_bytes",
                np.array(
                    [
                        line_time_s(presets.ef_ip_bytes(f), node.framing, node.line_rate_bps)
                        for f in frames
                    ]
                ),
                {"units": "s", "long_name": "line time of the EF packet"},
            ),
            "path_delay": (
                "ef_frame_bytes",
                np.asarray(
                    presets.paper_path().extra_delay_s([presets.ef_ip_bytes(f) for f in frames]),
                    dtype=float,
                ),
                {"units": "s", "long_name": "delay the path model adds to the EF packet"},
            ),
            "be_line_time": (
                "be_ip_bytes",
                np.array([line_time_s(b, node.framing, node.line_rate_bps) for b in sizes]),
                {"units": "s", "long_name": "line time of the BE packet"},
            ),
        },
        coords={
            "ef_frame_bytes": (
                "ef_frame_bytes",
                frames,
                {"units": "bytes", "long_name": "EF frame size"},
            ),
            "be_ip_bytes": (
                "be_ip_bytes",
                sizes,
                {"units": "bytes", "long_name": "BE IP packet size"},
            ),
            "seed": ("seed", seeds),
        },
        attrs={
            **kit.provenance(
                ARTEFACT.id,
                f"{ARTEFACT.id}: PQ one-way delay vs BE and EF packet size (TF-TANT slides)",
                __name__,
                seeds=seeds,
            ),
            "n_ef_samples": n,
            "ef_rate_bps": presets.TFTANT_EF_RATE_BPS,
            "ef_service_rate_bps": presets.TFTANT_EF_SERVICE_RATE_BPS,
            "be_rate_bps": presets.TFTANT_BE_RATE_BPS,
            "ring_limit_particles": node.ring_limit_particles,
        },
    )
    return claim_values(ds)


def claim_values(ds: xr.Dataset) -> xr.Dataset:
    """Add the numbers the claims quote (in place; returned), in ms: per EF frame the range of the
    mean delay over the BE sizes, its smallest value and the widest CI half-width ("depends on the
    BE size"); per BE size the steps of the mean delay over the EF frames ("depends on the EF
    size"), their mean rise and what the EF line time and the path add to it."""
    mean = to_ms(ds["delay_mean"]).values  # (ef_frame_bytes, be_ip_bytes), ms
    ci = np.nan_to_num(to_ms(ds["delay_ci"]).values, nan=0.0)
    frames = ds["ef_frame_bytes"]
    ef_line = to_ms(ds["ef_line_time"]).values
    path = to_ms(ds["path_delay"]).values

    def per_frame(values):
        return xr.DataArray(values, dims=("ef_frame_bytes",))

    ds.coords["ef_frame_from"] = (
        "ef_frame_from",
        frames.values[:-1],
        {"units": "bytes", "long_name": "EF frame size a step starts from"},
    )
    steps = xr.DataArray(np.diff(mean, axis=0).T, dims=("be_ip_bytes", "ef_frame_from"))
    return kit.add_claim_values(
        ds,
        {
            "be_range": (
                per_frame(mean.max(axis=1) - mean.min(axis=1)),
                "ms",
                "range of the mean EF delay over the BE sizes",
            ),
            "be_mean_min": (
                per_frame(mean.min(axis=1)),
                "ms",
                "smallest mean EF delay over the BE sizes",
            ),
            "be_ci_max": (
                per_frame(ci.max(axis=1)),
                "ms",
                "widest 95% CI half-width over the BE sizes",
            ),
            "ef_steps": (steps, "ms", "step of the mean EF delay to the next EF frame size"),
            "ef_frame_smallest": (frames.values[0], "bytes", "smallest EF frame of the sweep"),
            "ef_frame_largest": (frames.values[-1], "bytes", "largest EF frame of the sweep"),
            "ef_rise": (
                float(np.mean(mean[-1] - mean[0])),
                "ms",
                "rise of the mean EF delay over the EF frames, mean over BE sizes",
            ),
            "ef_line_rise": (float(ef_line[-1] - ef_line[0]), "ms", "rise of the EF line time"),
            "path_rise": (float(path[-1] - path[0]), "ms", "rise of the delay the path adds"),
        },
    )


def figure(data: xr.Dataset):
    """Mean EF delay vs EF frame size, one line per BE packet size (95 % CI), with the EF packet's
    own
    transmission times (the C7200's line and the path's hops) dashed."""
    kit.check_artefact(data, ARTEFACT.id)
    fig, ax = kit.subplots(figsize=(8, 5.2))
    frames = data["ef_frame_bytes"].values
    for j, be in enumerate(data["be_ip_bytes"].values):
        ci = np.nan_to_num(to_ms(data["delay_ci"].values[:, j]), nan=0.0)
        ax.errorbar(
            frames,
            to_ms(data["delay_mean"].values[:, j]),
            yerr=ci,
            marker="o",
            capsize=3,
            label=f"BE IP packets of {int(be)} B",
        )
    ax.plot(
        frames,
        to_ms(data["ef_line_time"].values + data["path_delay"].values),
        ls="--",
        color="0.4",
        label="EF transmission times\n(C7200 + path hops)",
    )
    ax.set_xlabel("EF frame size (bytes)")
    ax.set_ylabel("mean EF one-way delay (ms)")
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=8)
    a = data.attrs
    ax.set_title(
        f"{ARTEFACT.id}: PQ, EF {to_kbps(a['ef_rate_bps']):g} kbit/s, BE "
        f"{to_mbps(a['be_rate_bps']):g} Mbit/s, tx-ring-limit {a['ring_limit_particles']}, "
        f"{kit.seed_count(len(data['seed']))}",
        fontsize=10,
    )
    return fig
