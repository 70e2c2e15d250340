"""TF-TANT slides: delay and IPDV vs tx-ring-limit, vs STAR under WFQ, and with and without BE traffic.

One compute function per artefact id (``tftant_slides_ring``, ``tftant_slides_star``,
``tftant_slides_no_be``) and its statistics; the section :mod:`pqlab.papers.artefacts.tftant_wfq`
re-exports them (and finds their claims).
"""

from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np
import xarray as xr

from ...measure import cache, experiments
from .. import presets
from ...base._validate import check_choice, check_real
from ...node.framing import FRAMING_CODES, line_time_s, particles_needed, wire_bytes
from ...base.numerics import line_fit
from ..stated import PAPERS
from ...node.scenario import simulate
from ._common import add_mean_ci, check_n_ef_samples, check_seeds, check_values, provenance, renamed_keyword
from .tftant_common import (RING_LIMIT_PARTICLES, STARS, STAR_FRAME_SIZES, _check_frames, _config_scalars,
                            _coords_frames, _measure, _per_seed, _scalars)


# --------------------------------------------------------------------------- tftant_slides_ring


def _fit(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Least-squares line: slope, intercept, R^2."""
    slope, intercept = line_fit(x, y)
    res = y - (slope * x + intercept)
    tot = float(((y - y.mean()) ** 2).sum())
    return float(slope), float(intercept), (1.0 - float((res ** 2).sum()) / tot) if tot > 0 else math.nan


def tftant_slides_ring(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    ring_limit_particles=RING_LIMIT_PARTICLES,
    ef_frame_bytes: int = 1024,
    ef_service_rate_bps: float = presets.TFTANT_EF_RATE_BPS,
    schedulers=presets.TFTANT_SCHEDULERS,
    *,
    ring_limits=None,
) -> xr.Dataset:
    """TF-TANT slides, "Tx queue": EF one-way delay and IPDV vs tx-ring-limit (1024 bytes, with BE).

    The slides' conditions: EF 1024-byte frames at 300 kbit/s, queue limit 10,
    "bandwidth = 300 Kbps" (read as the EF service rate: WFQ weight / PQ policing
    rate), BE traffic; both schedulers. A line is fitted to the mean delay vs the ring
    limit per scheduler.

    Parameters
    ----------
    n_ef_samples : int
        EF packets per run (>= 10).
    seeds : sequence of int
        Seeds (>= 0, distinct).
    ring_limit_particles : sequence of int
        tx-ring-limit values, particles (>= 1, at least 3 distinct): the
        ``ring_limit_particles`` of :func:`pqlab.scenarios.pq_vs_wfq`.
    ef_frame_bytes : int
        EF frame size, bytes.
    ef_service_rate_bps : float
        EF service rate, bit/s (the slides: 300 kbit/s).
    schedulers : sequence of {"pq", "wfq"}
        Schedulers of the EF queue.
    ring_limits : sequence of int, optional
        Deprecated name of ``ring_limit_particles`` (a ``FutureWarning``); not both.

    Returns
    -------
    xarray.Dataset
        Dims ``scheduler``, ``ring_limit_particles``, ``seed``: ``delay``, ``ipdv``, ``ipdv_max``,
        ``ef_wait`` (s), ``loss``, ``acf_peak_lag`` (EF packets), ``acf_peak``; means and CIs
        over seeds; per scheduler the fit ``slope`` (s/particle), ``intercept`` (s),
        ``r2``; scalars of the test conditions (SI units).
    """
    ring_limit_particles = renamed_keyword("tftant_slides_ring", "ring_limit_particles", ring_limit_particles,
                                           RING_LIMIT_PARTICLES, "ring_limits", ring_limits)
    return _slides_ring(n_ef_samples, seeds, ring_limit_particles, ef_frame_bytes, ef_service_rate_bps, schedulers)


@cache.artefact("tftant_slides_ring")
def _slides_ring(n_ef_samples, seeds, ring_limit_particles, ef_frame_bytes, ef_service_rate_bps,
                 schedulers) -> xr.Dataset:
    """:func:`tftant_slides_ring` once its arguments have their current names (cached per arguments)."""
    n = check_n_ef_samples(n_ef_samples, 10, 100_000_000)
    seeds = check_seeds(seeds)
    rings = sorted(check_values("ring_limit_particles", ring_limit_particles, 1, integer=True))
    if len(rings) < 3:
        raise ValueError(f"ring_limit_particles must hold at least 3 distinct values to fit a line, got {rings!r}")
    frame = _check_frames("ef_frame_bytes", [ef_frame_bytes])[0]
    rate = check_real("ef_service_rate_bps", ef_service_rate_bps, 0.0, strict_minimum=True)
    scheds = _check_schedulers(schedulers)
    make = functools.partial(presets.pq_vs_wfq, ef_frame_bytes=frame, ef_service_rate_bps=rate, n_ef_samples=n)
    raw = experiments.sweep(make, {"scheduler": scheds, "ring_limit_particles": rings}, seeds, measure=_measure)
    dims = ("scheduler", "ring_limit_particles", "seed")
    ds = xr.Dataset(
        {
            "delay": _per_seed(raw, "delay_mean_s", "s", "mean EF one-way delay", dims),
            "ipdv": _per_seed(raw, "ipdv_abs_mean_s", "s", "mean |IPDV|", dims),
            "ipdv_max": _per_seed(raw, "ipdv_abs_max_s", "s", "largest |IPDV|", dims),
            "ef_wait": _per_seed(raw, "ef_wait_mean_s", "s", "mean EF wait in the EF queue", dims),
            "loss": _per_seed(raw, "loss_ratio", "1", "EF loss ratio", dims),
            "acf_peak_lag": _per_seed(raw, "acf_peak_lag", "EF packets",
                                      "first autocorrelation peak of the delay series (-1: none)", dims),
            "acf_peak": _per_seed(raw, "acf_peak", "1", "autocorrelation at the first peak", dims),
        },
        coords={"scheduler": ("scheduler", scheds, {"long_name": "EF scheduler"}),
                "ring_limit_particles": ("ring_limit_particles", rings,
                                         {"units": "particles", "long_name": "tx-ring-limit"}),
                "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"})},
    )
    node = presets.tftant_node("wfq", ef_service_rate_bps=rate)
    conditions = _config_scalars(node, rate)
    del conditions["ring_limit_particles"]  # swept here: the dimension of that name
    _scalars(ds, conditions)
    be_particles = particles_needed(presets.TFTANT_BE_IP_BYTES, node.particle_bytes)
    _scalars(ds, {"be_particles": (be_particles, "1", "ring particles per BE packet"),
                  "ef_frame_bytes": (frame, "bytes", "EF frame size")})
    ds.attrs = provenance("tftant_slides_ring", "tftant_slides_ring: EF one-way delay and IPDV vs tx-ring-limit "
                          "(TF-TANT slides, Tx queue)", __name__, seeds, n_ef_samples=n)
    return ring_statistics(ds)


def ring_statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`tftant_slides_ring`'s statistics to its per-seed ``delay`` and ``ipdv``.

    Means and CIs over seeds and, per scheduler, the least-squares line of the mean
    delay vs the ring limit (``slope`` per particle, ``intercept``, ``r2``), in the time
    unit of the Dataset (as :func:`fig1_statistics`).
    """
    unit = ds["delay"].attrs["units"]
    add_mean_ci(ds, ["delay", "ipdv"])
    rings = ds["ring_limit_particles"].values.astype(float)
    scheds = list(ds["scheduler"].values)
    fits = np.array([_fit(rings, ds["delay_mean"].sel(scheduler=s).values) for s in scheds])
    columns = (("slope", f"{unit}/particle", "fitted delay increase per ring particle"),
               ("intercept", unit, "fitted delay at a ring of 0 particles"),
               ("r2", "1", "R^2 of the linear fit"))
    for k, (name, units, long_name) in enumerate(columns):
        ds[name] = ("scheduler", fits[:, k], {"units": units, "long_name": long_name})
    return ds


def _check_schedulers(schedulers) -> list[str]:
    try:
        out = list(schedulers) if not isinstance(schedulers, str) else [schedulers]
    except TypeError:
        raise ValueError(f"schedulers must be a sequence of 'pq' and 'wfq', got {schedulers!r}") from None
    if not out or len(set(out)) != len(out):
        raise ValueError(f"schedulers must hold distinct values of 'pq' and 'wfq', got {schedulers!r}")
    for s in out:
        check_choice("schedulers", s, presets.TFTANT_SCHEDULERS)
    return out


# --------------------------------------------------------------------------- tftant_slides_star


def star_one_be_tag(ef_ip_bytes, be_ip_bytes: int = presets.TFTANT_BE_IP_BYTES,
                    line_rate_bps: float = PAPERS.line_rate_bps,
                    ef_rate_bps: float = presets.TFTANT_EF_RATE_BPS):
    """STAR above which an EF finish-tag step is shorter than one BE tag step (BE weight = remaining bandwidth).

    ``ip / (S r) <= be / (L - S r)``  <=>  ``S >= ip L / (r (ip + be))``: beyond it a newly
    arrived EF packet overtakes every queued BE packet, as under PQ.
    """
    ip = np.asarray(ef_ip_bytes, dtype=float)
    return ip * line_rate_bps / (ef_rate_bps * (ip + be_ip_bytes))


@cache.artefact()
def tftant_slides_star(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    stars=STARS,
    frame_sizes=STAR_FRAME_SIZES,
) -> xr.Dataset:
    """TF-TANT slides, "EF queue service rate": delay and IPDV under WFQ vs STAR, with PQ for reference.

    STAR = EF service rate / EF arrival rate, both and the WFQ tags in one unit, IP bytes
    (:data:`pqlab.scenarios.STAR_ACCOUNTINGS`): the EF WFQ weight is STAR x the EF rate of IP
    packets and the BE weight the remaining bandwidth (:func:`pqlab.scenarios.tftant_star`). The
    alternative unit, the line's wire bytes (tags and STAR in ATM cells), is run at the smallest
    STAR for every frame size (``wire_delay``, ``wire_loss``) and on the PQ-vs-WFQ page's 64-byte
    frames (``wire_page_loss_64``), where the page finds PQ and WFQ almost equivalent.
    The PQ reference uses the page's 400 kbit/s policing rate (PQ does not depend on
    it while nothing is policed).

    Parameters
    ----------
    n_ef_samples : int
        EF packets per run (>= 10).
    seeds : sequence of int
        Seeds (>= 0, distinct).
    stars : sequence of float
        STAR values (> 0; the slides: [1, 5]).
    frame_sizes : sequence of int
        EF frame sizes, bytes.

    Returns
    -------
    xarray.Dataset
        Dims ``ef_frame_bytes``, ``star``, ``seed``: ``delay``, ``ipdv``, ``ipdv_max`` (s),
        ``loss``; ``pq_delay``, ``pq_ipdv`` (s) on ``(ef_frame_bytes, seed)``; means/CIs;
        ``star_one_be_tag`` per frame; ``ef_ip_rate`` (bit/s) per frame; scalars of the test
        conditions (SI units) and ``line_ip_throughput`` (bit/s).
    """
    n = check_n_ef_samples(n_ef_samples, 10, 100_000_000)
    seeds = check_seeds(seeds)
    stars = sorted(check_values("stars", stars, 0.0))
    frames = sorted(_check_frames("frame_sizes", frame_sizes))
    raw = experiments.sweep(functools.partial(presets.tftant_star, n_ef_samples=n),
                            {"ef_frame_bytes": frames, "star": stars}, seeds, measure=_measure)
    wire = experiments.sweep(functools.partial(presets.tftant_star, n_ef_samples=n, star=stars[0],
                                               accounting="wire"),
                             {"ef_frame_bytes": frames}, seeds, measure=_measure)
    page64 = presets.pq_vs_wfq(scheduler="wfq", ef_frame_bytes=64, n_ef_samples=n)
    page64 = dataclasses.replace(page64, node=dataclasses.replace(page64.node, wfq_bytes="wire"))
    page64_loss = float(np.mean([_measure(simulate(page64, seed=s), page64)["loss_ratio"] for s in seeds]))
    pq = experiments.sweep(functools.partial(presets.pq_vs_wfq, scheduler="pq", n_ef_samples=n),
                           {"ef_frame_bytes": frames}, seeds, measure=_measure)
    node = presets.tftant_node("wfq")
    dims = ("ef_frame_bytes", "star", "seed")
    ds = xr.Dataset(
        {
            "delay": _per_seed(raw, "delay_mean_s", "s", "mean EF one-way delay, WFQ", dims),
            "ipdv": _per_seed(raw, "ipdv_abs_mean_s", "s", "mean |IPDV|, WFQ", dims),
            "ipdv_max": _per_seed(raw, "ipdv_abs_max_s", "s", "largest |IPDV|, WFQ", dims),
            "loss": _per_seed(raw, "loss_ratio", "1", "EF loss ratio, WFQ", dims),
            "pq_delay": _per_seed(pq, "delay_mean_s", "s", "mean EF one-way delay, PQ", ("ef_frame_bytes", "seed")),
            "pq_ipdv": _per_seed(pq, "ipdv_abs_mean_s", "s", "mean |IPDV|, PQ", ("ef_frame_bytes", "seed")),
            "wire_delay": _per_seed(wire, "delay_mean_s", "s", "mean EF one-way delay, WFQ, smallest STAR in wire bytes",
                                    ("ef_frame_bytes", "seed")),
            "wire_loss": _per_seed(wire, "loss_ratio", "1", "EF loss ratio, WFQ, smallest STAR in wire bytes",
                                   ("ef_frame_bytes", "seed")),
        },
        coords={**_coords_frames(frames, node),
                "star": ("star", stars, {"units": "1", "long_name": "service-to-arrival ratio (STAR)"}),
                "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"})},
    )
    ip = ds["ef_ip_bytes"].values
    ds["star_one_be_tag"] = ("ef_frame_bytes", star_one_be_tag(ip, presets.TFTANT_BE_IP_BYTES, node.line_rate_bps),
                             {"units": "1", "long_name": "STAR above which an EF tag step < one BE tag step"})
    ds["ef_ip_rate"] = ("ef_frame_bytes", presets.TFTANT_EF_RATE_BPS * ip / ds["ef_frame_bytes"].values,
                        {"units": "bit/s", "long_name": "EF rate counted on IP packets"})
    _scalars(ds, _config_scalars(node, presets.TFTANT_EF_SERVICE_RATE_BPS))
    be_ip = presets.TFTANT_BE_IP_BYTES
    _scalars(ds, {"line_ip_throughput": (node.line_rate_bps * be_ip / (wire_bytes(be_ip, FRAMING_CODES[node.framing])),
                                         "bit/s", "IP throughput of the line with BE packets (cell tax)")})
    ds["wire_page_loss_64"] = ((), page64_loss, {"units": "1", "long_name": "EF loss, PQ-vs-WFQ page, 64-byte "
                                                 "frames, WFQ tags in wire bytes"})
    ds.attrs = provenance("tftant_slides_star", "tftant_slides_star: EF one-way delay and IPDV vs STAR under WFQ "
                          "(TF-TANT slides, EF queue service rate)", __name__, seeds, n_ef_samples=n,
                          star_accounting="ip")
    return star_statistics(ds)


def star_statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`tftant_slides_star`'s means and CIs over seeds (in the Dataset's time unit, as :func:`fig1_statistics`)."""
    return add_mean_ci(ds, ["delay", "ipdv", "pq_delay", "pq_ipdv"])


# --------------------------------------------------------------------------- tftant_slides_no_be


@cache.artefact()
def tftant_slides_no_be(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    ef_frame_bytes: int = 1024,
    scheduler: str = "pq",
    ef_service_rate_bps: float = presets.TFTANT_EF_RATE_BPS,
) -> xr.Dataset:
    """TF-TANT slides: EF one-way delay over time with and without BE traffic (1024 bytes, ring 5, limit 10).

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
    n = check_n_ef_samples(n_ef_samples, 10, 10_000_000)
    seeds = check_seeds(seeds)
    frame = _check_frames("ef_frame_bytes", [ef_frame_bytes])[0]
    sched = check_choice("scheduler", scheduler, presets.TFTANT_SCHEDULERS)
    rate = check_real("ef_service_rate_bps", ef_service_rate_bps, 0.0, strict_minimum=True)
    traffic = ["with BE", "without BE"]
    delay = np.full((2, len(seeds), n), np.nan)
    time = np.full((2, len(seeds), n), np.nan)
    sc = None
    for i, with_be in enumerate((True, False)):
        for j, seed in enumerate(seeds):
            sc = presets.pq_vs_wfq(scheduler=sched, ef_frame_bytes=frame, ef_service_rate_bps=rate,
                                     with_be=with_be, n_ef_samples=n)
            ds = simulate(sc, seed=seed)
            d = experiments.reference_delay(ds, sc).values[:n]
            delay[i, j, :d.size] = d
            time[i, j, :d.size] = experiments.measurement_window(ds, sc)["arrival"].values[:d.size] - sc.warmup_s
    ip = presets.ef_ip_bytes(frame)
    uncongested = line_time_s(ip, sc.node.framing, sc.node.line_rate_bps) + sc.path.extra_delay_s(ip)
    dims = ("traffic", "seed", "ef_packet")
    out = xr.Dataset(
        {
            "delay": (dims, delay, {"units": "s", "long_name": "EF one-way delay"}),
            "time": (dims, time, {"units": "s", "long_name": "EF arrival time after the warm-up"}),
        },
        coords={"traffic": ("traffic", traffic, {"long_name": "best-effort traffic"}),
                "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"}),
                "ef_packet": ("ef_packet", np.arange(n), {"units": "1", "long_name": "EF packet after the warm-up"})},
    )
    node = presets.tftant_node(sched, ef_service_rate_bps=rate)
    _scalars(out, _config_scalars(node, rate))
    _scalars(out, {"uncongested_delay": (uncongested, "s", "EF line time + path, no other traffic"),
                   "ef_frame_bytes": (frame, "bytes", "EF frame size")})
    out.attrs = provenance("tftant_slides_no_be", "tftant_slides_no_be: EF one-way delay over time with and "
                           "without BE traffic (TF-TANT slides)", __name__, seeds, n_ef_samples=n, scheduler=sched)
    return no_be_statistics(out)


def no_be_statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`tftant_slides_no_be`'s per-run mean, std, min and max of ``delay`` (its time unit, as
    :func:`fig1_statistics`)."""
    unit = ds["delay"].attrs["units"]
    for name, fn, long_name in (("delay_mean", "mean", "mean EF one-way delay"),
                                ("delay_std", "std", "std of the EF one-way delay"),
                                ("delay_min", "min", "smallest EF one-way delay"),
                                ("delay_max", "max", "largest EF one-way delay")):
        ds[name] = getattr(ds["delay"], fn)("ef_packet")
        ds[name].attrs = {"units": unit, "long_name": long_name}
    return ds
