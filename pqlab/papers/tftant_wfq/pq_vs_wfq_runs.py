"""The runs the TF-TANT page's figures share: the size sweep of Figs. 1 and 5, the delay series of
Figs. 2-4 and 6-7.

:func:`checked_size_sweep` (PQ and WFQ over EF frame sizes and seeds, one summary per run) feeds
``tftant_wfq_fig1`` and ``tftant_wfq_fig5``; :func:`series_dataset` (every measured EF packet of
PQ and WFQ per frame size and seed) feeds ``tftant_wfq_fig2_4`` and ``tftant_wfq_fig6_7``. Each
run set is computed once per process (``functools.lru_cache``) for the two artefacts that read it.
Times in seconds, rates in bit/s, sizes in bytes.
"""

from __future__ import annotations

import functools

import numpy as np
import xarray as xr

from ...base._validate import check_real
from ...measure import experiments, metrics
from .. import kit, presets
from .pq_vs_wfq_testbed import add_scalars, check_frames, config_scalars, frame_coords, measure

__all__ = ["SERIES_FRAME_SIZES", "size_sweep", "checked_size_sweep", "series", "series_dataset"]

#: Figures 2-4 and 6-7 (and the slides' IPDV figure) plot these EF frame sizes.
SERIES_FRAME_SIZES = (128, 1024, 1518)


@functools.lru_cache(maxsize=4)
def size_sweep(frames: tuple, seeds: tuple, n: int, rate_bps: float) -> xr.Dataset:
    """PQ and WFQ over EF frame sizes and seeds (:func:`pqlab.experiments.sweep` of ``pq_vs_wfq``
    with
    :func:`~pqlab.papers.tftant_wfq.pq_vs_wfq_testbed.measure`); ``rate_bps`` the EF service rate,
    bit/s.
    """
    make = functools.partial(presets.pq_vs_wfq, n_ef_samples=n, ef_service_rate_bps=rate_bps)
    return experiments.sweep(
        make,
        {"scheduler": list(presets.TFTANT_SCHEDULERS), "ef_frame_bytes": list(frames)},
        list(seeds),
        measure=measure,
    )


def checked_size_sweep(n_ef_samples, seeds, frame_sizes, ef_service_rate_bps):
    """Validate the size-sweep arguments of Figs. 1 and 5; return them, the WFQ node and the sweep.

    Returns
    -------
    tuple
        ``(n, seeds, frames, rate, node, raw)``: EF packets per run, seeds, sorted frame sizes
        (bytes), EF service rate (bit/s), the WFQ node and :func:`size_sweep`'s Dataset.
    """
    n = kit.check_n_ef_samples(n_ef_samples, 10, 100_000_000)
    seeds = kit.check_seeds(seeds)
    frames = sorted(check_frames("frame_sizes", frame_sizes))
    rate = check_real("ef_service_rate_bps", ef_service_rate_bps, 0.0, strict_minimum=True)
    node = presets.tftant_node("wfq", ef_service_rate_bps=rate)
    return n, seeds, frames, rate, node, size_sweep(tuple(frames), tuple(seeds), n, rate)


@functools.lru_cache(maxsize=4)
def series(frames: tuple, seeds: tuple, n: int, rate_bps: float) -> dict:
    """Delay, IPDV, EF-queue wait and arrival time (s) of every measured EF packet: PQ and WFQ per
    frame and seed."""
    scheds = presets.TFTANT_SCHEDULERS
    shape = (len(scheds), len(frames), len(seeds), n)
    out = {k: np.full(shape, np.nan) for k in ("delay", "ipdv", "wait", "time")}
    for i, sched in enumerate(scheds):
        for j, frame in enumerate(frames):
            sc = presets.pq_vs_wfq(
                scheduler=sched, ef_frame_bytes=frame, ef_service_rate_bps=rate_bps, n_ef_samples=n
            )
            for k, run in enumerate(experiments.simulate_runs(sc, seeds)):
                rows = experiments.measurement_rows(run, sc)  # the measurement window's packets
                m = min(n, rows.size)
                d = experiments.reference_delay_values(run, sc)[:m]
                out["delay"][i, j, k, :m] = d
                out["ipdv"][i, j, k, 1:m] = metrics.ipdv_of_delays(
                    d, dropna=False
                )  # none lost here
                out["wait"][i, j, k, :m] = (run["ring_entry"][rows] - run["arrival"][rows])[:m]
                out["time"][i, j, k, :m] = run["arrival"][rows][:m] - sc.warmup_s
    return out


def series_dataset(
    artefact: str, title: str, module: str, n_ef_samples, seeds, frame_sizes, ef_service_rate_bps
) -> xr.Dataset:
    """The per-packet Dataset of Figs. 2-4 and 6-7 for ``artefact`` (its provenance: ``title``,
    ``module``).

    ``delay``, ``ipdv``, ``ef_wait`` (s) on ``(scheduler, ef_frame_bytes, seed, ef_packet)``,
    ``time`` (s, EF arrival after the warm-up) and the test conditions (SI units), from
    :func:`series` after checking the arguments (``ValueError`` naming the parameter).
    """
    n = kit.check_n_ef_samples(n_ef_samples, 10, 10_000_000)
    seeds = kit.check_seeds(seeds)
    frames = sorted(check_frames("frame_sizes", frame_sizes))
    rate = check_real("ef_service_rate_bps", ef_service_rate_bps, 0.0, strict_minimum=True)
    node = presets.tftant_node("wfq", ef_service_rate_bps=rate)
    s = {
        k: v.copy() for k, v in series(tuple(frames), tuple(seeds), n, rate).items()
    }  # the cache stays intact
    dims = ("scheduler", "ef_frame_bytes", "seed", "ef_packet")
    ds = xr.Dataset(
        {
            "delay": (dims, s["delay"], {"units": "s", "long_name": "EF one-way delay"}),
            "ipdv": (
                dims,
                s["ipdv"],
                {"units": "s", "long_name": "IPDV of consecutive EF packets"},
            ),
            "ef_wait": (dims, s["wait"], {"units": "s", "long_name": "EF wait in the EF queue"}),
            "time": (
                dims[1:],
                s["time"][0],
                {"units": "s", "long_name": "EF arrival time after the warm-up"},
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
            "ef_packet": (
                "ef_packet",
                np.arange(n),
                {"units": "1", "long_name": "EF packet after the warm-up"},
            ),
        },
    )
    add_scalars(ds, config_scalars(node, rate))
    ds.attrs = kit.provenance(artefact, title, module, seeds, n_ef_samples=n)
    return ds
