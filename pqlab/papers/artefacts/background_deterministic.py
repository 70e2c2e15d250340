"""GLOBECOM'01 Sec. II-III (notebook 01): Tables I-II, the node of Figs. 1-2 and deterministic BE payloads (Figs. 3-1, 3-2).

One compute function per artefact id (``globecom01_tab1``, ``globecom01_tab2``,
``globecom01_fig1``, ``globecom01_fig3_1``, ``globecom01_fig3_2``) and its statistics; the section
:mod:`pqlab.papers.artefacts.background` re-exports them (and finds their claims).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import xarray as xr

from typing import Sequence
from scipy import stats
from ...measure import analysis, bounds, cache, experiments, metrics
from .. import presets
from ...measure.analysis import max_ring_particles
from ...base._validate import check_int, check_real
from ...node.framing import line_time_s
from ...node.model import Node
from ..stated import cisco7200_atm
from ...node.path import PathModel
from ...node.scenario import simulate
from ...node.traffic import UDP_IP_HEADER_BYTES
from ...base.units import to_kbps
from ._common import be_streams, check_n_ef_samples, check_seeds, ef_streams, frame_rate_bps, mean_ci, MTU_BYTES, MTU_PAYLOAD_BYTES, provenance, REF_RATES_BPS
from .background_common import (PAPER_BE_PAYLOAD_RANGE, PAPER_FIG3_2_PAYLOADS, _cells, _ef_stream,
                                _frame_bytes, _particles, _protocol, _size_text)


# --------------------------------------------------------------------------- globecom01_tab1


@cache.artefact()
def globecom01_tab1(*, seed: int = 1, n_ef_samples: int = 1_000) -> pd.DataFrame:
    """GLOBECOM'01 Table I (test parameters), rendered from the presets.

    One row per preset of Sec. IV: :func:`pqlab.scenarios.base_case`
    (deterministic BE, Fig. 3) and :func:`pqlab.scenarios.real_distribution`
    (Fig. 5). ``frame.attrs`` also holds the node's parameters of Sec. II-III and
    ``tx_queue_max_units``, the largest ring occupancy measured in a simulation of
    the base case with BE packets of the MTU (the papers' "7 units").

    Parameters
    ----------
    seed : int
        Seed of the MTU simulation (>= 0).
    n_ef_samples : int
        EF reference packets of the MTU simulation (>= 2).

    Returns
    -------
    pandas.DataFrame
        Index ``experiment``; columns as Table I plus the EF IP length and stream counts.
    """
    seed = check_int("seed", seed, 0)
    n = check_n_ef_samples(n_ef_samples)
    table_scenarios = {
        "deterministic BE (Fig. 3)": presets.base_case(n_ef_samples=n),
        "real BE (Fig. 5)": presets.real_distribution(n_ef_samples=n),
    }
    rows = []
    for sc in table_scenarios.values():
        ef, be = ef_streams(sc), be_streams(sc)
        rows.append({
            "EF load (kbit/s)": to_kbps(sum(frame_rate_bps(s) for s in ef)),
            "EF frame size (bytes)": _frame_bytes(ef[0]),
            "EF IP length (bytes)": int(ef[0].size.size_bytes),
            "EF streams": len(ef),
            "EF protocol": _protocol(ef[0]),
            "BE load (kbit/s)": to_kbps(sum(s.rate_bps for s in be)),
            "BE streams": len(be),
            "BE size distribution": _size_text(be[0]),
            "BE protocol": _protocol(be[0]),
        })
    frame = pd.DataFrame(rows, index=pd.Index(list(table_scenarios), name="experiment"))

    base = table_scenarios["deterministic BE (Fig. 3)"]
    node = base.node
    mtu = presets.base_case(be_payload_bytes=MTU_PAYLOAD_BYTES, n_ef_samples=n)
    ef = _ef_stream(base)
    ef_ip = int(ef.size.size_bytes)
    ef_packets_s = ef.rate_bps / (8 * ef_ip)
    frame.attrs = {
        "artefact": "globecom01_tab1",
        "title": "globecom01_tab1: test parameters (GLOBECOM'01 Table I) rendered from pqlab.scenarios",
        "presets": ["pqlab.scenarios.base_case", "pqlab.scenarios.real_distribution"],
        "ef_load_kbps": float(frame["EF load (kbit/s)"].iloc[0]),
        "ef_frame_bytes": int(frame["EF frame size (bytes)"].iloc[0]),
        "ef_ip_bytes": ef_ip,
        "ef_streams": int(frame["EF streams"].max()),
        "be_load_kbps": float(frame["BE load (kbit/s)"].min()),
        "be_streams": int(frame["BE streams"].iloc[0]),
        "be_size_kinds": [type(s.size).__name__ for sc in table_scenarios.values() for s in be_streams(sc)[:1]],
        "protocols": sorted({_protocol(s).split()[0] for sc in table_scenarios.values() for s in sc.streams}),
        "line_rate_bps": node.line_rate_bps,
        "ef_rate_fraction": frame_rate_bps(ef) / node.line_rate_bps,
        "ef_ip_fraction": ef.rate_bps / node.line_rate_bps,
        "ef_wire_fraction": ef_packets_s * line_time_s(ef_ip, node.framing, node.line_rate_bps),
        "pq_limit": node.queues[node.priority_index].limit_packets,
        "be_queue_limit": node.queues[presets.BE_QUEUE].limit_packets,
        "tx_queue_limit": node.ring_limit_particles,
        "tx_unit_bytes": node.particle_bytes,
        "mtu_bytes": MTU_BYTES,
        "tx_queue_max_units_rule": node.ring_limit_particles - 1 + int(_particles(MTU_BYTES, node.particle_bytes)),
        "tx_queue_max_units": max_ring_particles(simulate(mtu, seed=seed), mtu.node),
        "seed": seed,
        "n_ef_samples": n,
    }
    return frame


# --------------------------------------------------------------------------- globecom01_tab2


@cache.artefact()
def globecom01_tab2(*, ref_rates_bps: Sequence[float] = REF_RATES_BPS, n_ef_samples: int = 10_000) -> pd.DataFrame:
    """GLOBECOM'01 Table II (aggregation test parameters), rendered from :func:`pqlab.scenarios.aggregation`.

    Parameters
    ----------
    ref_rates_bps : sequence of float
        Reference stream loads, bit/s, each in (0, 300e3] (default: Table III's 50..300 kbit/s).
    n_ef_samples : int
        Passed to the preset (sets only the duration).

    Returns
    -------
    pandas.DataFrame
        One row per reference load (index ``ref_load_kbps``).
    """
    try:
        rates = [float(check_real("ref_rates_bps", r, 0.0, 300e3, strict_minimum=True)) for r in ref_rates_bps]
    except TypeError:
        raise ValueError(f"ref_rates_bps must be a sequence of loads in (0, 300000] bit/s, got {ref_rates_bps!r}") \
            from None
    if not rates:
        raise ValueError("ref_rates_bps must hold at least one load, got none")
    n = check_n_ef_samples(n_ef_samples)
    rows = []
    for rate in rates:
        sc = presets.aggregation(ref_rate_bps=rate, n_ef_samples=n)
        ef, be = ef_streams(sc), be_streams(sc)
        loads = [frame_rate_bps(s) for s in ef]
        rows.append({
            "EF BA load (kbit/s)": to_kbps(sum(loads)),
            "EF streams": len(ef),
            "Ref. stream load (kbit/s)": to_kbps(loads[0]),
            "Other EF stream load (kbit/s)": to_kbps(loads[1]) if len(loads) > 1 else 0.0,
            "Ref. stream frame size (bytes)": _frame_bytes(ef[0]),
            "Aggregation degree A": metrics.aggregation_degree(loads),
            "EF protocol": _protocol(ef[0]),
            "BE load (kbit/s)": to_kbps(sum(s.rate_bps for s in be)),
            "BE streams": len(be),
            "BE size distribution": _size_text(be[0]),
            "BE size min (bytes)": int(be[0].size.sizes_bytes[0] + be[0].header_bytes),
            "BE size max (bytes)": int(be[0].size.sizes_bytes[-1] + be[0].header_bytes),
        })
    frame = pd.DataFrame(rows, index=pd.Index([to_kbps(r) for r in rates], name="ref_load_kbps"))
    frame.attrs = {"artefact": "globecom01_tab2",
                   "title": "globecom01_tab2: aggregation test parameters (GLOBECOM'01 Table II) rendered from "
                            "pqlab.scenarios.aggregation", "preset": "pqlab.scenarios.aggregation"}
    return frame


# --------------------------------------------------------------------------- globecom01_fig1


@cache.artefact()
def globecom01_fig1(node: Node | None = None, path: PathModel | None = None) -> xr.Dataset:
    """The node of GLOBECOM'01 Figs. 1-2 as data: queues, scheduler, ring and line of a :class:`pqlab.Node`.

    Parameters
    ----------
    node : Node, optional
        Defaults to :meth:`pqlab.Node.cisco7200_atm` (the papers' C7200).
    path : PathModel, optional
        The uncongested rest of the path; defaults to :func:`pqlab.scenarios.paper_path`.

    Returns
    -------
    xarray.Dataset
        Dimension ``queue`` (index into ``node.queues``) with ``kind``, ``limit_packets``,
        ``weight_bps``, ``police_rate_bps``, ``police_burst_bytes`` (NaN when absent);
        attrs with the ring, the line and derived numbers (``max_ring_particles`` with MTU
        packets, line times of the EF packet and of an MTU packet, the path's hops).
    """
    node = cisco7200_atm() if node is None else node
    if not isinstance(node, Node):
        raise ValueError(f"node must be a pqlab.Node or None, got {type(node).__name__}")
    path = presets.paper_path() if path is None else path
    if not isinstance(path, PathModel):
        raise ValueError(f"path must be a pqlab.node.path.PathModel or None, got {type(path).__name__}")
    q = node.queues

    def col(name):
        return np.array([np.nan if getattr(x, name) is None else float(getattr(x, name)) for x in q])

    ef_ip = presets.ef_ip_bytes(presets.EF_FRAME_BYTES)
    mtu_particles = int(_particles(MTU_BYTES, node.particle_bytes))
    ds = xr.Dataset(
        {
            "kind": ("queue", np.array([x.kind for x in q]), {"long_name": "queue kind"}),
            "limit_packets": ("queue", np.array([x.limit_packets for x in q]),
                              {"units": "packets", "long_name": "queue limit (waiting packets)"}),
            "weight_bps": ("queue", col("weight_bps"), {"units": "bit/s", "long_name": "WFQ weight"}),
            "police_rate_bps": ("queue", col("police_rate_bps"), {"units": "bit/s", "long_name": "policer rate"}),
            "police_burst_bytes": ("queue", col("police_burst_bytes"),
                                   {"units": "bytes", "long_name": "policer bucket depth"}),
        },
        coords={"queue": np.arange(len(q))},
        attrs={
            **provenance("globecom01_fig1", "globecom01_fig1: the node model (GLOBECOM'01 Figs. 1-2)", __name__),
            "line_rate_bps": node.line_rate_bps,
            "framing": node.framing,
            "ring_limit_particles": node.ring_limit_particles,
            "particle_bytes": node.particle_bytes,
            "mtu_bytes": MTU_BYTES,
            "mtu_particles": mtu_particles,
            "max_ring_particles": node.ring_limit_particles - 1 + mtu_particles,
            "ef_ip_bytes": ef_ip,
            "ef_frame_bytes": presets.EF_FRAME_BYTES,
            "ef_line_time_s": line_time_s(ef_ip, node.framing, node.line_rate_bps),
            "mtu_line_time_s": line_time_s(MTU_BYTES, node.framing, node.line_rate_bps),
            "path_fixed_s": path.fixed_s,
            "path_hops": [f"{h.rate_bps / 1e6:g} Mbit/s {h.framing}" for h in path.hops],
            "path_ef_delay_s": float(path.extra_delay_s(ef_ip)),
        },
    )
    return ds


# --------------------------------------------------------------------------- globecom01_fig3_1


def globecom01_fig3_1_payloads(step_bytes: int = 25, particle_bytes: int = 512) -> list:
    """BE UDP payloads of the Fig. 3-1 sweep, bytes.

    ``100, 100 + step, ...`` up to 1450 (always included), plus every payload whose IP
    packet exactly fills ``k`` particles (``k * particle_bytes - 28``: 484 and 996).
    """
    step = check_int("step_bytes", step_bytes, 1, 10_000)
    particle = check_int("particle_bytes", particle_bytes, 1, 100_000)
    lo, hi = PAPER_BE_PAYLOAD_RANGE
    full = {k * particle - UDP_IP_HEADER_BYTES for k in range(1, hi // particle + 2)}
    return sorted(set(range(lo, hi + 1, step)) | {hi} | {p for p in full if lo <= p <= hi})


def _local_maxima(y: np.ndarray, ci: np.ndarray, min_drop_fraction: float) -> list:
    """Indices of local maxima: the last point before a significant drop.

    A drop after point ``i`` is significant when ``y[i] - y[i+1]`` exceeds both
    ``min_drop_fraction * y[i]`` and the two CI half-widths; the point must not be
    significantly below its left neighbour. On a plateau this picks its right end.
    """
    ci = np.nan_to_num(ci, nan=0.0)
    out = []
    for i in range(1, y.size - 1):
        tol = min_drop_fraction * y[i]
        drop = y[i] - y[i + 1]
        if drop > max(tol, ci[i] + ci[i + 1]) and y[i] >= y[i - 1] - max(tol, ci[i] + ci[i - 1]):
            out.append(i)
    return out


def _rises(y: np.ndarray, tol: float) -> bool:
    """Whether ``y`` never falls by more than ``tol`` times its value between neighbours."""
    return bool(np.all(np.diff(y) >= -tol * y[:-1]))


@cache.artefact()
def globecom01_fig3_1(
    *,
    n_ef_samples: int = 10_000,
    seeds: Sequence[int] = (1, 2, 3),
    step_bytes: int = 25,
    min_drop_fraction: float = 0.02,
    progress: bool = False,
) -> xr.Dataset:
    """GLOBECOM'01 Fig. 3-1: mean EF one-way delay vs deterministic BE payload.

    Runs :func:`pqlab.scenarios.base_case` (20 CBR BE streams of one payload) over
    :func:`globecom01_fig3_1_payloads` and ``seeds``; mean and 95% CI over seeds; Table IV's
    worst-case bound ``W`` (:func:`pqlab.bounds.worst_case_delay` with the paper's
    rho = 0.15, Q_t = 5, T_u = 2048 us and ``k`` = particles of the BE packet) for each
    payload; and the local maxima of the mean curve (:func:`_local_maxima`).

    Parameters
    ----------
    n_ef_samples : int
        EF reference packets per run (the paper: 10,000).
    seeds : sequence of int
        Seeds (>= 0, distinct).
    step_bytes : int
        Sweep step, bytes (the full-particle payloads are always added).
    min_drop_fraction : float
        Smallest relative drop, in (0, 1), that ends a local maximum.
    progress : bool
        Show a progress bar.

    Returns
    -------
    xarray.Dataset
        Dims ``be_payload_bytes`` and ``seed``: ``delay_mean`` (per seed), ``mean_delay``,
        ``mean_delay_ci``, ``delay_std``, ``worst_case_w`` (s); coords ``ip_bytes``,
        ``particles``, ``cells``; attrs with the maxima and shape checks
        (:func:`fig3_1_statistics`, times in s) and ``path_ef_delay_s``.
    """
    n = check_n_ef_samples(n_ef_samples)
    seeds = check_seeds(seeds)
    frac = check_real("min_drop_fraction", min_drop_fraction, 0.0, 1.0, strict_minimum=True)
    node = cisco7200_atm()
    payloads = globecom01_fig3_1_payloads(step_bytes, node.particle_bytes)

    def base_case(be_payload_bytes):
        return presets.base_case(be_payload_bytes=be_payload_bytes, n_ef_samples=n)

    raw = experiments.sweep(base_case, {"be_payload_bytes": payloads}, seeds=seeds, progress=progress)
    agg = experiments.across_seeds(raw[["delay_mean_s", "delay_std_s"]])
    ip = np.array(payloads) + UDP_IP_HEADER_BYTES
    k = _particles(ip, node.particle_bytes)
    w_s = np.array([bounds.worst_case_delay(int(kk), bounds.PAPER_RHO, bounds.PAPER_Q_T, bounds.PAPER_T_U_S).w_s
                    for kk in k])
    sec = {"units": "s"}
    ds = xr.Dataset(
        {
            "delay_mean": (("be_payload_bytes", "seed"), raw["delay_mean_s"].values,
                           {**sec, "long_name": "mean EF one-way delay of one run"}),
            "mean_delay": ("be_payload_bytes", agg["delay_mean_s"].values,
                           {**sec, "long_name": "mean EF one-way delay (mean over seeds)"}),
            "mean_delay_ci": ("be_payload_bytes", agg["delay_mean_s_ci"].values,
                              {**sec, "long_name": "95% CI half-width of the mean over seeds"}),
            "delay_std": ("be_payload_bytes", agg["delay_std_s"].values,
                          {**sec, "long_name": "std of the EF one-way delay (mean over seeds)"}),
            "worst_case_w": ("be_payload_bytes", w_s,
                             {**sec, "long_name": "Table IV worst-case average delay W (k = BE particles)"}),
        },
        coords={
            "be_payload_bytes": ("be_payload_bytes", np.array(payloads), {"units": "bytes",
                                 "long_name": "BE UDP payload"}),
            "seed": ("seed", np.array(seeds)),
            "ip_bytes": ("be_payload_bytes", ip, {"units": "bytes", "long_name": "BE IP length"}),
            "particles": ("be_payload_bytes", k, {"units": "1", "long_name": "ring particles per BE packet"}),
            "cells": ("be_payload_bytes", _cells(ip), {"units": "1", "long_name": "ATM cells per BE packet"}),
        },
        attrs=provenance("globecom01_fig3_1",
                         "globecom01_fig3_1: mean EF one-way delay vs BE payload (GLOBECOM'01 Fig. 3-1)", __name__,
                         seeds),
    )
    path_s = presets.paper_path().extra_delay_s(presets.ef_ip_bytes(presets.EF_FRAME_BYTES))
    ds.attrs.update(
        n_ef_samples=n,
        step_bytes=int(step_bytes),
        min_drop_fraction=frac,
        particle_bytes=node.particle_bytes,
        w_rho=bounds.PAPER_RHO, w_q_t=bounds.PAPER_Q_T, w_t_u_s=bounds.PAPER_T_U_S,
        path_ef_delay_s=float(path_s),
    )
    return fig3_1_statistics(ds)


def _set_time_attrs(ds: xr.Dataset, unit: str, **values) -> None:
    """Set each time attr as ``<name>_<unit>`` (the Dataset's time unit), dropping it in the other unit."""
    for name, value in values.items():
        for other in ("s", "ms"):
            ds.attrs.pop(f"{name}_{other}", None)
        ds.attrs[f"{name}_{unit}"] = value


def fig3_1_statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`globecom01_fig3_1`'s local maxima and shape checks to its attrs (in place; returned).

    From ``mean_delay``, ``mean_delay_ci`` and ``worst_case_w`` in whatever time unit they
    hold (:func:`_local_maxima` with ``attrs["min_drop_fraction"]``): the maxima's payload,
    IP length, particles, mean, CI, ``W`` and mean / ``W``, the next payload and its mean,
    and the flags ``non_monotone``, ``sawtooth``, ``w_bounds_maxima``; time attrs end in the
    unit (``local_max_mean_s`` here, ``_ms`` for the claims).
    """
    y, ci, w = ds["mean_delay"].values, ds["mean_delay_ci"].values, ds["worst_case_w"].values
    frac = ds.attrs["min_drop_fraction"]
    payloads, ip, k = ds["be_payload_bytes"].values, ds["ip_bytes"].values, ds["particles"].values
    maxima = _local_maxima(y, ci, frac)
    sawtooth = len(maxima) == 2
    if sawtooth:
        m1, m2 = maxima
        low = m1 + 1 + int(np.argmin(y[m1 + 1:m2]))
        sawtooth = (_rises(y[:m1 + 1], frac) and _rises(y[low:m2 + 1], frac)
                    and y[low] < min(y[m1], y[m2]) and y[m1] > y[0])
    ds.attrs.update(
        local_max_payload_bytes=[int(payloads[i]) for i in maxima],
        local_max_ip_bytes=[int(ip[i]) for i in maxima],
        local_max_particles=[int(k[i]) for i in maxima],
        local_max_ratio_to_w=[float(y[i] / w[i]) for i in maxima],
        next_after_max_payload_bytes=[int(payloads[i + 1]) for i in maxima],
        non_monotone=len(maxima) > 0,
        sawtooth=bool(sawtooth),
        w_bounds_maxima=bool(maxima) and all(y[i] <= w[i] for i in maxima),
    )
    _set_time_attrs(ds, ds["mean_delay"].attrs["units"],
                    local_max_mean=[float(y[i]) for i in maxima],
                    local_max_ci=[float(ci[i]) for i in maxima],
                    local_max_w=[float(w[i]) for i in maxima],
                    next_after_max_mean=[float(y[i + 1]) for i in maxima])
    return ds


# --------------------------------------------------------------------------- globecom01_fig3_2


@cache.artefact()
def globecom01_fig3_2(
    *,
    n_ef_samples: int = 10_000,
    seeds: Sequence[int] = (1, 2, 3),
    payloads: Sequence[int] = PAPER_FIG3_2_PAYLOADS,
    max_lag: int = 60,
    acf_threshold: float = 0.5,
) -> xr.Dataset:
    """GLOBECOM'01 Fig. 3-2: EF one-way delay of consecutive packets for BE payloads 450 and 475 bytes.

    Runs :func:`pqlab.scenarios.base_case` for each payload and seed and keeps the delay
    series of the reference stream after the warm-up. Per run: mean, 5th/95th
    percentiles, the fluctuation ``(p95 - p5) / mean``, the peak-to-peak fraction
    ``(max - min) / mean``, and the first autocorrelation peak (lag >= 2 above
    ``acf_threshold``), i.e. the period of the pattern in EF packets; the
    Kolmogorov-Smirnov distance of each payload's delays to the first payload's (same
    seed). ``predicted_period_packets`` is ``1 / frac((T_ef - t_ef) / t_be)``: the EF
    interval minus the EF line time, in BE line times; its fractional part is the phase
    an EF packet slips per interval against the BE departures.

    Parameters
    ----------
    n_ef_samples : int
        EF reference packets per run.
    seeds : sequence of int
        Seeds (>= 0, distinct).
    payloads : sequence of int
        BE UDP payloads, bytes (at least two distinct values, each in [1, 1472]).
    max_lag : int
        Largest autocorrelation lag, EF packets (2 .. n_ef_samples // 2).
    acf_threshold : float
        Autocorrelation a peak must exceed to count as periodic, in (0, 1).

    Returns
    -------
    xarray.Dataset
        ``delay`` (s) on ``(be_payload_bytes, seed, ef_packet)``; per-run statistics on
        ``(be_payload_bytes, seed)`` and ``acf`` on ``(be_payload_bytes, seed, lag)``
        (:func:`fig3_2_statistics`, times in s); coords ``ip_bytes``, ``particles``, ``cells``;
        attrs with the summary numbers (times in s: ``be_line_time_s``, ``ef_interval_s``,
        ``ef_line_time_s``, ``spread_s``, ...).
    """
    n = check_n_ef_samples(n_ef_samples)
    seeds = check_seeds(seeds)
    try:
        pays = [check_int("payloads", p, 1, MTU_PAYLOAD_BYTES) for p in payloads]
    except TypeError:
        raise ValueError(f"payloads must be a sequence of UDP payloads in bytes, got {payloads!r}") from None
    if len(set(pays)) < 2 or len(set(pays)) != len(pays):
        raise ValueError(f"payloads must hold at least two distinct payloads, got {list(pays)!r}")
    lag_max = check_int("max_lag", max_lag, 2, max(2, n // 2))
    thr = check_real("acf_threshold", acf_threshold, 0.0, 1.0, strict_minimum=True)

    delays = np.full((len(pays), len(seeds), n), np.nan)
    for i, p in enumerate(pays):
        for j, s in enumerate(seeds):
            sc = presets.base_case(be_payload_bytes=p, n_ef_samples=n)
            d = experiments.reference_delay(simulate(sc, seed=s), sc).values
            delays[i, j, :min(n, d.size)] = d[:n]

    node = cisco7200_atm()
    ip = np.array(pays) + UDP_IP_HEADER_BYTES
    ef_ip = presets.ef_ip_bytes(presets.EF_FRAME_BYTES)
    t_ef = presets.EF_FRAME_BYTES * 8 / 300e3
    t_ef_line = line_time_s(ef_ip, node.framing, node.line_rate_bps)
    t_be = np.atleast_1d(line_time_s(ip, node.framing, node.line_rate_bps))
    slip = np.mod((t_ef - t_ef_line) / t_be, 1.0)
    predicted = np.where(slip > 0, 1.0 / np.where(slip > 0, slip, 1.0), np.inf)
    ds = xr.Dataset(
        {
            "delay": (("be_payload_bytes", "seed", "ef_packet"), delays, {"units": "s", "long_name": "EF one-way delay"}),
            "predicted_period": ("be_payload_bytes", predicted,
                                 {"units": "EF packets", "long_name": "1 / frac((T_ef - t_ef) / t_be)"}),
        },
        coords={
            "be_payload_bytes": ("be_payload_bytes", np.array(pays), {"units": "bytes", "long_name": "BE UDP payload"}),
            "seed": ("seed", np.array(seeds)),
            "ef_packet": ("ef_packet", np.arange(n), {"long_name": "EF reference packet after the warm-up"}),
            "lag": ("lag", np.arange(lag_max + 1), {"units": "EF packets"}),
            "ip_bytes": ("be_payload_bytes", ip, {"units": "bytes", "long_name": "BE IP length"}),
            "particles": ("be_payload_bytes", _particles(ip, node.particle_bytes),
                          {"units": "1", "long_name": "ring particles per BE packet"}),
            "cells": ("be_payload_bytes", _cells(ip), {"units": "1", "long_name": "ATM cells per BE packet"}),
        },
        attrs=provenance("globecom01_fig3_2", "globecom01_fig3_2: EF one-way delay over time for BE payloads "
                         f"{' and '.join(str(p) for p in pays)} bytes (GLOBECOM'01 Fig. 3-2)", __name__, seeds),
    )
    ds.attrs.update(
        n_ef_samples=n,
        particle_bytes=node.particle_bytes,
        first_two_particle_payload=node.particle_bytes + 1 - UDP_IP_HEADER_BYTES,
        ks_critical=float(1.36 * np.sqrt(2.0 / n)),
        predicted_period_packets=[float(v) for v in predicted],
        be_line_time_s=[float(v) for v in t_be],
        ef_interval_s=t_ef,
        ef_line_time_s=t_ef_line,
        acf_threshold=thr,
    )
    return fig3_2_statistics(ds)


def fig3_2_statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`globecom01_fig3_2`'s per-run statistics of ``delay`` and their summary (in place; returned).

    Per payload and seed: mean, 5th/95th percentiles, ``(p95 - p5) / mean``,
    ``(max - min) / mean``, the autocorrelation up to the largest ``lag`` and its first peak
    above ``attrs["acf_threshold"]``, the KS distance to the first payload's delays; the
    summary attrs (means over runs, the mean per payload with its CI over seeds, the
    difference of the last and first payload's means, the largest KS distance, periodicity),
    computed from ``delay`` in whatever time unit it holds; time attrs end in the unit
    (``spread_s`` here, ``spread_ms`` for the claims).
    """
    delays = ds["delay"].values
    unit = ds["delay"].attrs["units"]
    n_pays, n_seeds = delays.shape[:2]
    lag_max, thr = int(ds["lag"].values[-1]), ds.attrs["acf_threshold"]
    mean = np.nanmean(delays, axis=2)
    p5, p95 = np.nanpercentile(delays, [5, 95], axis=2)
    dmin, dmax = np.nanmin(delays, axis=2), np.nanmax(delays, axis=2)
    acf = np.array([[analysis.acf(delays[i, j][np.isfinite(delays[i, j])], lag_max) for j in range(n_seeds)]
                    for i in range(n_pays)])
    peaks = np.array([[analysis.first_peak(acf[i, j], thr) for j in range(n_seeds)] for i in range(n_pays)])
    ks = np.array([[stats.ks_2samp(delays[0, j][np.isfinite(delays[0, j])],
                                   delays[i, j][np.isfinite(delays[i, j])]).statistic
                    for j in range(n_seeds)] for i in range(n_pays)])
    dims2 = ("be_payload_bytes", "seed")
    times = {"units": unit}
    fluct = (p95 - p5) / mean
    ds.update({
        "delay_mean": (dims2, mean, {**times, "long_name": "mean EF one-way delay"}),
        "delay_p5": (dims2, p5, {**times, "long_name": "5th percentile of the EF one-way delay"}),
        "delay_p95": (dims2, p95, {**times, "long_name": "95th percentile of the EF one-way delay"}),
        "fluctuation_fraction": (dims2, fluct, {"units": "1", "long_name": "(p95 - p5) / mean"}),
        "peak_to_peak_fraction": (dims2, (dmax - dmin) / mean, {"units": "1", "long_name": "(max - min) / mean"}),
        "acf": (dims2 + ("lag",), acf, {"units": "1", "long_name": "autocorrelation of the delay series"}),
        "acf_peak_lag": (dims2, peaks[..., 0].astype(int),
                         {"units": "EF packets", "long_name": "first autocorrelation peak (-1: none)"}),
        "acf_peak": (dims2, peaks[..., 1], {"units": "1", "long_name": "autocorrelation at the first peak"}),
        "ks_to_first": (dims2, ks, {"units": "1",
                                    "long_name": "Kolmogorov-Smirnov distance to the first payload's delays"}),
    })
    mean_by_payload, ci = mean_ci(mean)
    ds.attrs.update(
        fluctuation_fraction=float(fluct.mean()),
        fluctuation_fraction_min=float(fluct.min()),
        fluctuation_fraction_max=float(fluct.max()),
        peak_to_peak_fraction=float(ds["peak_to_peak_fraction"].mean()),
        ks_max=float(ks[1:].max()),
        periodic=bool(np.all(peaks[..., 0] >= 2)),
        acf_peak_lag_mode=int(stats.mode(peaks[..., 0].ravel(), keepdims=False).mode),
        acf_peak_min=float(np.nanmin(peaks[..., 1])) if np.isfinite(peaks[..., 1]).any() else math.nan,
    )
    _set_time_attrs(ds, unit,
                    spread=float((p95 - p5).mean()),
                    mean_delay=[float(v) for v in mean_by_payload],
                    mean_delay_ci=[float(v) for v in ci],
                    mean_difference=float(mean_by_payload[-1] - mean_by_payload[0]))
    return ds
