"""TF-TANT slides: delay over time with and without best-effort traffic.

The artefact's computation (:func:`compute`), statistics (:func:`statistics`), the numbers its
claims quote (:func:`claim_values`) and figure (:func:`figure`); the notebook
``notebooks/08_tftant_ring_and_star`` runs them, on the PQ-vs-WFQ test bed
(:mod:`pqlab.papers.tftant_wfq.pq_vs_wfq_testbed`). The Dataset is in SI units (times in
seconds, rates in bit/s, sizes in bytes); the claims state times in ms (their statistics computed
again from the converted per-packet values); the figure draws ms against arrival times in s.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...base._validate import check_choice, check_real
from ...measure import cache, experiments
from ...node.framing import line_time_s
from ...node.scenario import simulate
from .. import kit, presets
from ..registry import Artefact
from ..tftant_wfq.pq_vs_wfq_plots import N_POINTS, in_ms_for_axes
from ..tftant_wfq.pq_vs_wfq_testbed import add_scalars, check_frames, config_scalars, rate_kbps

__all__ = ["ARTEFACT", "compute", "statistics", "claim_values", "figure"]

ARTEFACT = Artefact(__name__, notebook="08_tftant_ring_and_star")


@cache.artefact(ARTEFACT.id)
def compute(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    ef_frame_bytes: int = 1024,
    scheduler: str = "pq",
    ef_service_rate_bps: float = presets.TFTANT_EF_RATE_BPS,
) -> xr.Dataset:
    """TF-TANT slides: EF one-way delay over time with and without BE traffic (1024 bytes, ring 5,
    limit 10).

    The slide ("EF service rate = 300 Kbps") sits under "PQ: one-way delay", so the
    default scheduler is PQ with a 300 kbit/s policing rate; without BE the scheduler
    does not matter. The uncongested delay (own line time + path) is given for comparison.

    Parameters
    ----------
    n_ef_samples : int
        EF packets per run (>= 10).
    seeds : sequence of int
        Seeds (>= 0, distinct).
    ef_frame_bytes : int
        EF frame size, bytes.
    scheduler : {"pq", "wfq"}
        Scheduler of the EF queue.
    ef_service_rate_bps : float
        EF service rate, bit/s.

    Returns
    -------
    xarray.Dataset
        ``delay`` (s) and ``time`` (s) on ``(traffic, seed, ef_packet)`` with ``traffic`` in
        ("with BE", "without BE"); per run ``delay_mean``, ``delay_std``, ``delay_min``,
        ``delay_max`` (s); scalar ``uncongested_delay`` (s); the test conditions (SI units).
    """
    n = kit.check_n_ef_samples(n_ef_samples, 10, 10_000_000)
    seeds = kit.check_seeds(seeds)
    frame = check_frames("ef_frame_bytes", [ef_frame_bytes])[0]
    sched = check_choice("scheduler", scheduler, presets.TFTANT_SCHEDULERS)
    rate = check_real("ef_service_rate_bps", ef_service_rate_bps, 0.0, strict_minimum=True)
    traffic = ["with BE", "without BE"]
    delay = np.full((2, len(seeds), n), np.nan)
    time = np.full((2, len(seeds), n), np.nan)
    sc = None
    for i, with_be in enumerate((True, False)):
        for j, seed in enumerate(seeds):
            sc = presets.pq_vs_wfq(
                scheduler=sched,
                ef_frame_bytes=frame,
                ef_service_rate_bps=rate,
                with_be=with_be,
                n_ef_samples=n,
            )
            ds = simulate(sc, seed=seed)
            d = experiments.reference_delay_values(ds, sc)[:n]
            delay[i, j, : d.size] = d
            time[i, j, : d.size] = (
                experiments.measurement_window(ds, sc)["arrival"].values[: d.size] - sc.warmup_s
            )
    ip = presets.ef_ip_bytes(frame)
    uncongested = line_time_s(ip, sc.node.framing, sc.node.line_rate_bps) + sc.path.extra_delay_s(
        ip
    )
    dims = ("traffic", "seed", "ef_packet")
    out = xr.Dataset(
        {
            "delay": (dims, delay, {"units": "s", "long_name": "EF one-way delay"}),
            "time": (dims, time, {"units": "s", "long_name": "EF arrival time after the warm-up"}),
        },
        coords={
            "traffic": ("traffic", traffic, {"long_name": "best-effort traffic"}),
            "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"}),
            "ef_packet": (
                "ef_packet",
                np.arange(n),
                {"units": "1", "long_name": "EF packet after the warm-up"},
            ),
        },
    )
    node = presets.tftant_node(sched, ef_service_rate_bps=rate)
    add_scalars(out, config_scalars(node, rate))
    add_scalars(
        out,
        {
            "uncongested_delay": (uncongested, "s", "EF line time + path, no other traffic"),
            "ef_frame_bytes": (frame, "bytes", "EF frame size"),
        },
    )
    out.attrs = kit.provenance(
        ARTEFACT.id,
        f"{ARTEFACT.id}: EF one-way delay over time with and without BE traffic (TF-TANT slides)",
        __name__,
        seeds,
        n_ef_samples=n,
        scheduler=sched,
    )
    return claim_values(statistics(out))


def statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`compute`'s per-run mean, std, min and max of ``delay`` (in place; returned), in
    its time
    unit (s; the claims' ms through :func:`pqlab.papers.kit.statistics_in_ms`)."""
    unit = ds["delay"].attrs["units"]
    for name, fn, long_name in (
        ("delay_mean", "mean", "mean EF one-way delay"),
        ("delay_std", "std", "std of the EF one-way delay"),
        ("delay_min", "min", "smallest EF one-way delay"),
        ("delay_max", "max", "largest EF one-way delay"),
    ):
        ds[name] = getattr(ds["delay"], fn)("ef_packet")
        ds[name].attrs = {"units": unit, "long_name": long_name}
    return ds


def claim_values(ds: xr.Dataset) -> xr.Dataset:
    """Add the numbers the claims quote (in place; returned): the delays with and without BE in ms
    (their statistics computed again from the per-packet ms values), what BE adds, in ms and in BE
    transmission times."""
    ms = kit.statistics_in_ms(ds, statistics)
    w, wo = (ms.sel(traffic=t) for t in ("with BE", "without BE"))
    mean_w, mean_wo = float(w["delay_mean"].mean()), float(wo["delay_mean"].mean())
    return kit.add_claim_values(
        ds,
        {
            "without_be_delay_min": (wo["delay_min"].min(), "ms", "smallest EF delay without BE"),
            "without_be_delay_max": (wo["delay_max"].max(), "ms", "largest EF delay without BE"),
            "without_be_delay_std": (wo["delay_std"].max(), "ms", "largest per-run std without BE"),
            "with_be_delay_min": (w["delay_min"].min(), "ms", "smallest EF delay with BE"),
            "with_be_delay_max": (w["delay_max"].max(), "ms", "largest EF delay with BE"),
            "mean_delay_with_be": (mean_w, "ms", "mean EF delay with BE, over seeds"),
            "mean_delay_without_be": (mean_wo, "ms", "mean EF delay without BE, over seeds"),
            "uncongested_delay_ms": (ms.uncongested_delay, "ms", "EF line time + path"),
            "be_added_delay": (mean_w - mean_wo, "ms", "mean delay BE adds"),
            "be_added_be_tx": (
                (mean_w - mean_wo) / float(ms.be_tx_time),
                "1",
                "mean delay BE adds, in BE transmission times",
            ),
        },
    )


def figure(ds: xr.Dataset, n_points: int = N_POINTS):
    """Slides: EF one-way delay over time with and without BE traffic.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`compute`.
    n_points : int
        EF packets shown (first seed).

    Returns
    -------
    matplotlib.figure.Figure
    """
    ds = in_ms_for_axes(kit.check_artefact(ds, ARTEFACT.id))
    fig, ax = kit.subplots(figsize=(9, 4.8), footer=True)
    seed = ds["seed"].values[0]
    for traffic, color in zip(ds["traffic"].values, ("C3", "C0")):
        t = ds["time"].sel(traffic=traffic, seed=seed).values[:n_points]
        y = ds["delay"].sel(traffic=traffic, seed=seed).values[:n_points]
        ax.plot(
            t,
            y,
            ".-",
            ms=4,
            lw=0.8,
            color=color,
            label=f"{traffic}: mean {float(ds['delay_mean'].sel(traffic=traffic).mean()):.2f} ms",
        )
    ax.axhline(
        float(ds.uncongested_delay),
        color="black",
        ls=":",
        lw=1.2,
        label=f"EF line time + path = {float(ds.uncongested_delay):.2f} ms",
    )
    ax.set_ylim(0, 1.3 * float(ds["delay_max"].max()))
    ax.set_xlabel("time after the warm-up (s)")
    ax.set_ylabel("EF one-way delay (ms)")
    kit.legend_below(ax, ncol=3, frameon=False)
    sched = ds.attrs.get("scheduler", "pq").upper()
    fig.suptitle(
        f"{ARTEFACT.id}: EF one-way delay over time with and without BE traffic, "
        f"{sched} (TF-TANT slides)",
        fontsize=11,
    )
    kit.footer(
        fig,
        f"{int(ds.ef_frame_bytes)}-byte EF frames at {rate_kbps(ds, 'ef_rate'):g} kbit/s, EF"
        f" service rate {rate_kbps(ds, 'ef_service_rate'):g} kbit/s, ring"
        f" {int(ds.ring_limit_particles)}, EF queue {int(ds.ef_queue_limit)}; first {n_points} EF"
        f" packets of seed {seed}",
    )
    return fig
