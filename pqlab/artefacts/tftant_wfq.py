"""TF-TANT: priority queueing vs weighted fair queueing for EF, and the slides' tx-ring, STAR and no-BE tests.

Sources (``../shared/papers/``): the TF-TANT test page "Priority Queuing and
Weighted Fair Queuing for the support of EF traffic" (Dec. 1999,
``tftant-test-pq-vs-wfq.txt``) and the slides "Delay and Delay Variation
Measurements in a Differentiated Services Test Network" (T. Ferrari,
``tftant-slides-delay-and-ipdv.txt``). One compute function per artefact id,
each returning an ``xarray.Dataset`` (no plotting, no I/O), and one
``<id>_claims(data)`` per artefact (:mod:`pqlab.artefacts._common`). Figures of
the same names are in :mod:`pqlab.figures.tftant_wfq`; notebooks
``07_tftant_pq_vs_wfq`` and ``08_tftant_ring_and_star``.

========================  ============================================================
artefact id               what it reproduces
========================  ============================================================
``tftant_wfq_fig1``       page Fig. 1: mean EF one-way delay, PQ and WFQ, vs EF frame size
``tftant_wfq_fig2_4``     page Figs. 2-4: delay over time, PQ vs WFQ, 128/1024/1518 bytes
``tftant_wfq_fig5``       page Fig. 5: mean IPDV (mean abs. IPDV), PQ and WFQ, vs frame size
``tftant_wfq_fig6_7``     page Figs. 6-7 (and the slides' "WFQ vs PQ: ipdv"): IPDV over time
``tftant_slides_ring``    slides "Tx queue": delay and IPDV vs tx-ring-limit
``tftant_slides_star``    slides "EF queue service rate": delay and IPDV vs STAR under WFQ
``tftant_slides_no_be``   slides: delay over time with and without best-effort traffic
========================  ============================================================

The test bed is :func:`pqlab.scenarios.pq_vs_wfq` (its readings of the sources,
stated in :mod:`pqlab.scenarios`): one EF CBR stream (IP = frame - 18, 300 kbit/s of
frames) and one CBR BE stream of 1000-byte IP packets, 2.0 Mbit/s, on the C7200's
2 Mbit/s ATM PVC, a ring of 5 particles of 512 bytes, EF queue limit 10. Under
WFQ the EF queue is a WFQ queue of weight 400 kbit/s (the "service rate") and the
BE queue one of the remaining 1.6 Mbit/s; under PQ 400 kbit/s is the priority
queue's policing rate. The BE queue is always backlogged, so every EF packet
finds a full ring: the unit of every effect is the **BE transmission time**, the
line time of one 1000-byte BE packet (22 ATM cells, 4.664 ms).

Delays are in ms; multiples of the BE transmission time in "BE tx times".
"""

from __future__ import annotations

import functools
import math

import numpy as np
import xarray as xr

from .. import cache, experiments, metrics, scenarios
from .._validate import check_choice, check_int, check_real
from ..framing import FRAMING_CODES, line_time_s, particles_needed, wire_bytes
from ..model import Node
from ..scenario import Scenario, simulate
from ._common import (
    add_mean_ci,
    check_artefact,
    check_n_ef_samples,
    check_seeds,
    check_values,
    claim,
    paper_value,
    provenance,
)

__all__ = [
    "tftant_wfq_fig1",
    "tftant_wfq_fig1_claims",
    "tftant_wfq_fig2_4",
    "tftant_wfq_fig2_4_claims",
    "tftant_wfq_fig5",
    "tftant_wfq_fig5_claims",
    "tftant_wfq_fig6_7",
    "tftant_wfq_fig6_7_claims",
    "tftant_slides_ring",
    "tftant_slides_ring_claims",
    "tftant_slides_star",
    "tftant_slides_star_claims",
    "tftant_slides_no_be",
    "tftant_slides_no_be_claims",
    "be_tx_time_s",
]

MS = 1e3
#: The unit of the multiples of the BE transmission time in claims and paper values.
BE_TX = "BE tx times"
#: Frame sizes the sources name: the page's Figs. 1-7 and the slides.
SOURCE_FRAME_SIZES = (64, 128, 256, 512, 1024, 1518)
#: The MTU-size EF frame (1500-byte IP packets), bytes.
MTU_FRAME_BYTES = 1518
#: A WFQ - PQ difference below half a BE transmission time rounds to no extra BE packet:
#: the schedulers count as "equivalent".
EQUIVALENT_BE_TX = 0.5
#: An IPDV of at least this fraction of a BE transmission time counts as a peak.
PEAK_FRACTION = 0.5
#: Largest autocorrelation lag (EF packets) and the value a first peak must exceed to count as periodic.
ACF_MAX_LAG = 60
ACF_THRESHOLD = 0.5
#: Figures 2-4 and 6-7 (and the slides' IPDV figure) plot these EF frame sizes.
SERIES_FRAME_SIZES = (128, 1024, 1518)
#: tx-ring-limit values of the slides' ring test, particles.
RING_LIMITS = tuple(range(1, 17))
#: STAR values of the slides' service-rate test, in their range [1, 5].
STARS = tuple(float(s) for s in np.arange(1.0, 5.01, 0.5))
#: EF frame sizes of the STAR test, bytes.
STAR_FRAME_SIZES = (128, 256, 512, 1024, 1518)
#: The slides' STAR statements: no further decrease above 3; flat for packets up to 256 bytes.
PAPER_STAR_PLATEAU = 3.0
SMALL_FRAME_BYTES = 256


# --------------------------------------------------------------------------- helpers


def be_tx_time_s(node: Node | None = None, be_ip_bytes: int = scenarios.TFTANT_BE_IP_BYTES) -> float:
    """Line time of one BE packet on the node's line, seconds (4.664 ms: 1000 bytes in 22 ATM cells)."""
    node = scenarios.tftant_node() if node is None else node
    return float(line_time_s(check_int("be_ip_bytes", be_ip_bytes, 1, 65_535), node.framing, node.line_rate_bps))


def beat_slip_s(ef_frame_bytes, node: Node | None = None, ef_rate_bps: float = scenarios.TFTANT_EF_RATE_BPS,
                be_ip_bytes: int = scenarios.TFTANT_BE_IP_BYTES):
    """How far an EF packet's arrival slips against the BE departures from one EF packet to the next, seconds.

    With the ring always full of BE packets sent back to back, the line's schedule
    repeats every BE transmission time ``t_BE`` except for the EF packets themselves.
    Between two EF packets the EF interval ``T`` less the EF packet's own line time
    ``t_EF`` is spent on BE packets, so the phase of an arrival in the BE cycle moves by
    ``s = (T - t_EF) mod t_BE``. When every EF packet waits behind the same number of
    BE packets (PQ with large EF packets, WFQ once its extra BE packets are fixed) the delay
    is a sawtooth: consecutive delays differ by ``-s`` or ``t_BE - s``, so
    ``max |IPDV| = max(s, t_BE - s)`` and ``mean |IPDV| = 2 s (t_BE - s) / t_BE``.

    Parameters
    ----------
    ef_frame_bytes : int or array_like of int
        EF frame size(s), bytes (IP = frame - 18).
    node : Node, optional
        Default :func:`pqlab.scenarios.tftant_node`.
    ef_rate_bps : float
        EF rate, bit/s of frames.
    be_ip_bytes : int
        BE IP length, bytes.

    Returns
    -------
    numpy.ndarray
        ``s`` per frame size, seconds.
    """
    node = scenarios.tftant_node() if node is None else node
    frames = np.atleast_1d(np.asarray(ef_frame_bytes, dtype=np.int64))
    ip = np.array([scenarios.ef_ip_bytes(int(f)) for f in frames])
    interval = frames * 8.0 / check_real("ef_rate_bps", ef_rate_bps, 0.0, strict_minimum=True)
    t_ef = np.atleast_1d(line_time_s(ip, node.framing, node.line_rate_bps))
    return np.mod(interval - t_ef, be_tx_time_s(node, be_ip_bytes))


def _be_ip_bytes(scenario: Scenario) -> int:
    """IP length of the scenario's BE packets (the TF-TANT default if it has no BE stream)."""
    for s in scenario.streams:
        if s.queue == scenarios.BE_QUEUE:
            return int(s.size.mean_bytes + s.header_bytes)
    return scenarios.TFTANT_BE_IP_BYTES


def _acf_first_peak(x: np.ndarray, max_lag: int = ACF_MAX_LAG) -> tuple[float, float]:
    """First local maximum (lag >= 2) of the sample autocorrelation of ``x``: (lag, value); (-1, nan) if none."""
    x = np.asarray(x, dtype=float)
    x = x - x.mean()
    denom = float(x @ x)
    lags = min(max_lag, x.size - 2)
    if denom <= 0.0 or lags < 3:
        return -1.0, math.nan
    acf = np.array([1.0] + [float(x[:-k] @ x[k:]) / denom for k in range(1, lags + 1)])
    for k in range(2, acf.size - 1):
        if acf[k] >= acf[k - 1] and acf[k] >= acf[k + 1]:
            return float(k), float(acf[k])
    return -1.0, math.nan


def _measure(ds: xr.Dataset, scenario: Scenario) -> dict:
    """Sweep measure: the numbers of :func:`pqlab.experiments.delay_summary`, plus EF-queue wait, IPDV peaks
    and periodicity, from one pass over the measurement window (the tests check the shared keys are equal).

    The window holds the reference flow in arrival order, so RFC 3393's IPDV
    (:func:`pqlab.metrics.ipdv`) is the difference of consecutive delays, pairs with a lost packet left out.
    """
    win = experiments.measurement_window(ds, scenario)
    delay = metrics.one_way_delay(win, scenario.path).values
    ipdv = np.diff(delay)
    ipdv = ipdv[np.isfinite(ipdv)]
    kept = delay[np.isfinite(delay)]
    entered = win["drop"].values == 0
    wait = win["ring_entry"].values[entered] - win["arrival"].values[entered]
    a = np.abs(ipdv)
    be_tx = be_tx_time_s(scenario.node, _be_ip_bytes(scenario))
    lag, peak = _acf_first_peak(kept)
    nan = math.nan
    return {
        "delay_mean_s": float(kept.mean()) if kept.size else nan,
        "delay_std_s": float(kept.std(ddof=1)) if kept.size > 1 else nan,
        "delay_min_s": float(kept.min()) if kept.size else nan,
        "delay_max_s": float(kept.max()) if kept.size else nan,
        "ipdv_abs_mean_s": float(a.mean()) if a.size else nan,
        "ipdv_std_s": float(ipdv.std(ddof=1)) if ipdv.size > 1 else nan,
        "loss_ratio": float(1.0 - kept.size / delay.size) if delay.size else nan,
        "ef_wait_mean_s": float(wait.mean()) if wait.size else nan,
        "ipdv_abs_max_s": float(a.max()) if a.size else nan,
        "ipdv_peak_frequency": float((a >= PEAK_FRACTION * be_tx).mean()) if a.size else nan,
        "acf_peak_lag": lag,
        "acf_peak": peak,
    }


def _check_frames(name: str, frames) -> list[int]:
    out = check_values(name, frames, 19, integer=True)
    for f in out:
        scenarios.ef_ip_bytes(f)  # frame - 18 must be a valid IP length
    return out


def _coords_frames(frames, node: Node) -> dict:
    ip = np.array([scenarios.ef_ip_bytes(f) for f in frames])
    code = FRAMING_CODES[node.framing]
    return {
        "ef_frame_bytes": ("ef_frame_bytes", np.array(frames), {"units": "bytes", "long_name": "EF frame size"}),
        "ef_ip_bytes": ("ef_frame_bytes", ip, {"units": "bytes", "long_name": "EF IP length (frame - 18)"}),
        "ef_particles": ("ef_frame_bytes", np.array([particles_needed(int(i), node.particle_bytes) for i in ip]),
                         {"units": "1", "long_name": "ring particles per EF packet"}),
        "ef_cells": ("ef_frame_bytes", np.array([wire_bytes(int(i), code) // 53 for i in ip]),
                     {"units": "1", "long_name": "ATM cells per EF packet"}),
    }


def _config_scalars(node: Node, ef_service_rate_bps: float) -> dict:
    """The test conditions as scalar variables (name -> (value, units, long_name))."""
    be_ip = scenarios.TFTANT_BE_IP_BYTES
    ef_q, be_q = node.queues[scenarios.EF_QUEUE], node.queues[scenarios.BE_QUEUE]
    return {
        "be_tx_time": (be_tx_time_s(node) * MS, "ms", f"line time of one {be_ip}-byte BE packet (ATM AAL5)"),
        "be_ip_bytes": (be_ip, "bytes", "BE IP length"),
        "be_rate": (scenarios.TFTANT_BE_RATE_BPS / 1e3, "kbit/s", "BE rate (IP packets)"),
        "be_packet_rate": (scenarios.TFTANT_BE_RATE_BPS / (8 * be_ip), "packets/s", "BE packet rate"),
        "ef_rate": (scenarios.TFTANT_EF_RATE_BPS / 1e3, "kbit/s", "EF rate (frames)"),
        "ef_service_rate": (ef_service_rate_bps / 1e3, "kbit/s", "EF service rate (WFQ weight, PQ policing rate)"),
        "be_weight": (be_q.weight_bps / 1e3, "kbit/s", "WFQ weight of the BE queue under WFQ"),
        "ef_queue_limit": (ef_q.limit_packets, "packets", "EF queue limit"),
        "be_queue_limit": (be_q.limit_packets, "packets", "BE queue limit (not stated by the source)"),
        "tx_ring_limit": (node.ring_limit_particles, "particles", "tx-ring-limit"),
        "particle_bytes": (node.particle_bytes, "bytes", "ring particle size"),
        "line_rate": (node.line_rate_bps / 1e3, "kbit/s", "ATM PVC rate (whole 53-byte cells)"),
    }


def _scalars(ds: xr.Dataset, scalars: dict) -> None:
    for name, (value, unit, long_name) in scalars.items():
        ds[name] = ((), float(value), {"units": unit, "long_name": long_name})


@functools.lru_cache(maxsize=4)
def _size_sweep(frames: tuple, seeds: tuple, n: int, rate_bps: float) -> xr.Dataset:
    """PQ and WFQ over EF frame sizes and seeds (:func:`pqlab.experiments.sweep` of ``pq_vs_wfq``)."""
    make = functools.partial(scenarios.pq_vs_wfq, n_ef_samples=n, ef_service_rate_bps=rate_bps)
    return experiments.sweep(make, {"scheduler": list(scenarios.TFTANT_SCHEDULERS), "ef_frame_bytes": list(frames)},
                             list(seeds), measure=_measure)


@functools.lru_cache(maxsize=4)
def _series(frames: tuple, seeds: tuple, n: int, rate_bps: float) -> dict:
    """Delay, IPDV, EF-queue wait and arrival time of every measured EF packet: PQ and WFQ per frame and seed."""
    scheds = scenarios.TFTANT_SCHEDULERS
    shape = (len(scheds), len(frames), len(seeds), n)
    out = {k: np.full(shape, np.nan) for k in ("delay", "ipdv", "wait", "time")}
    for i, sched in enumerate(scheds):
        for j, frame in enumerate(frames):
            for k, seed in enumerate(seeds):
                sc = scenarios.pq_vs_wfq(scheduler=sched, ef_frame_bytes=frame, ef_service_rate_bps=rate_bps,
                                         n_ef_samples=n)
                ds = simulate(sc, seed=seed)
                win = experiments.measurement_window(ds, sc)
                m = min(n, win.sizes["packet"])
                d = experiments.reference_delay(ds, sc).values[:m]
                out["delay"][i, j, k, :m] = d * MS
                out["ipdv"][i, j, k, 1:m] = np.diff(d) * MS  # RFC 3393, consecutive packets (none lost here)
                out["wait"][i, j, k, :m] = (win["ring_entry"].values - win["arrival"].values)[:m] * MS
                out["time"][i, j, k, :m] = win["arrival"].values[:m] - sc.warmup_s
    return out


def _per_seed(raw: xr.Dataset, name: str, scale: float, unit: str, long_name: str, dims) -> tuple:
    return (dims, raw[name].transpose(*dims).values * scale, {"units": unit, "long_name": long_name})


# --------------------------------------------------------------------------- tftant_wfq_fig1


def _checked_size_sweep(n_ef_samples, seeds, frame_sizes, ef_service_rate_bps):
    """Validate the size-sweep arguments of Figs. 1 and 5; return them, the WFQ node and the sweep."""
    n = check_n_ef_samples(n_ef_samples, 10, 100_000_000)
    seeds = check_seeds(seeds)
    frames = sorted(_check_frames("frame_sizes", frame_sizes))
    rate = check_real("ef_service_rate_bps", ef_service_rate_bps, 0.0, strict_minimum=True)
    node = scenarios.tftant_node("wfq", ef_service_rate_bps=rate)
    return n, seeds, frames, rate, node, _size_sweep(tuple(frames), tuple(seeds), n, rate)


@cache.artefact()
def tftant_wfq_fig1(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    frame_sizes=scenarios.TFTANT_FRAME_SIZES,
    ef_service_rate_bps: float = scenarios.TFTANT_EF_SERVICE_RATE_BPS,
) -> xr.Dataset:
    """TF-TANT PQ-vs-WFQ page, Fig. 1: mean EF one-way delay with PQ and with WFQ vs EF frame size.

    Runs :func:`pqlab.scenarios.pq_vs_wfq` for both schedulers, every frame size and
    seed; the gain of PQ is ``gap = delay(WFQ) - delay(PQ)`` per seed, also in BE
    transmission times. A check of the BE profile's reading: at 1024 and 1518 bytes
    (first seed) the gap with the other reading of "2.0 Mbps, 200 packs/sec, 1000 bytes"
    (200 packets/s = 1.6 Mbit/s) against ours (2.0 Mbit/s = 250 packets/s).

    Parameters
    ----------
    n_ef_samples : int
        EF packets measured per run (the sources: 10,000), >= 10.
    seeds : sequence of int
        Seeds (>= 0, distinct): the streams' random phases.
    frame_sizes : sequence of int
        EF frame sizes, bytes (IP = frame - 18; default 64..1518 every 64 bytes and 1518).
    ef_service_rate_bps : float
        EF service rate, bit/s: WFQ weight / PQ policing rate (the page: 400 kbit/s).

    Returns
    -------
    xarray.Dataset
        Dims ``scheduler`` ("pq", "wfq"), ``ef_frame_bytes``, ``seed``: per run ``delay``,
        ``delay_min``, ``delay_max``, ``ef_wait`` (ms), ``loss``; ``delay_mean``/``delay_ci``
        over seeds; ``gap`` (per seed), ``gap_mean``, ``gap_ci`` (ms), ``gap_be_tx`` (BE tx
        times); the reading check ``gap_reading_1600k`` and ``gap_reading_2000k`` (ms, on
        ``check_frame``); the test conditions as scalars; the page's values ``paper_max_gain``
        (ms), ``paper_gap_1024``, ``paper_gap_1518`` (BE tx times).
    """
    n, seeds, frames, rate, node, raw = _checked_size_sweep(n_ef_samples, seeds, frame_sizes, ef_service_rate_bps)
    dims = ("scheduler", "ef_frame_bytes", "seed")
    ds = xr.Dataset(
        {
            "delay": _per_seed(raw, "delay_mean_s", MS, "ms", "mean EF one-way delay of one run", dims),
            "delay_min": _per_seed(raw, "delay_min_s", MS, "ms", "smallest EF one-way delay of one run", dims),
            "delay_max": _per_seed(raw, "delay_max_s", MS, "ms", "largest EF one-way delay of one run", dims),
            "ef_wait": _per_seed(raw, "ef_wait_mean_s", MS, "ms", "mean EF wait in the EF queue", dims),
            "loss": _per_seed(raw, "loss_ratio", 1.0, "1", "EF loss ratio", dims),
        },
        coords={"scheduler": ("scheduler", list(scenarios.TFTANT_SCHEDULERS), {"long_name": "EF scheduler"}),
                **_coords_frames(frames, node),
                "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"})},
    )
    add_mean_ci(ds, ["delay"])
    ds["gap"] = ds["delay"].sel(scheduler="wfq", drop=True) - ds["delay"].sel(scheduler="pq", drop=True)
    ds["gap"].attrs = {"units": "ms", "long_name": "gain of PQ: delay(WFQ) - delay(PQ)"}
    add_mean_ci(ds, ["gap"])
    be_tx_ms = be_tx_time_s(node) * MS
    ds["gap_be_tx"] = ds["gap_mean"] / be_tx_ms
    ds["gap_be_tx"].attrs = {"units": BE_TX, "long_name": "gain of PQ in BE transmission times"}

    # the BE profile's other reading: 200 packets/s of 1000 bytes (1.6 Mbit/s), first seed
    check_frames = [1024, MTU_FRAME_BYTES]
    reading = np.full((2, len(check_frames)), np.nan)
    for r, be_bps in enumerate((scenarios.TFTANT_BE_PACKET_RATE_STATED * 8 * scenarios.TFTANT_BE_IP_BYTES,
                                scenarios.TFTANT_BE_RATE_BPS)):
        for j, frame in enumerate(check_frames):
            d = []
            for sched in scenarios.TFTANT_SCHEDULERS:
                # a 10% BE overload fills the BE queue more slowly: a longer warm-up
                sc = scenarios.pq_vs_wfq(scheduler=sched, ef_frame_bytes=frame, ef_service_rate_bps=rate,
                                         be_rate_bps=be_bps, n_ef_samples=n, warmup_s=5.0)
                d.append(experiments.delay_summary(simulate(sc, seed=seeds[0]), sc)["delay_mean_s"])
            reading[r, j] = (d[1] - d[0]) * MS
    ds["gap_reading_1600k"] = ("check_frame", reading[0],
                               {"units": "ms", "long_name": "gain of PQ, BE 200 packets/s x 1000 bytes (1.6 Mbit/s)"})
    ds["gap_reading_2000k"] = ("check_frame", reading[1],
                               {"units": "ms", "long_name": "gain of PQ, BE 2.0 Mbit/s of 1000 bytes (ours)"})
    ds = ds.assign_coords(check_frame=("check_frame", check_frames, {"units": "bytes", "long_name": "EF frame size"}))
    _scalars(ds, _config_scalars(node, rate))
    _scalars(ds, {
        "paper_max_gain": (paper_value("tftant_wfq_fig1", "max_gain_mtu")[0], "ms",
                           "TF-TANT page: maximum gain with PQ, MTU-size packets"),
        "paper_gap_1024": (paper_value("tftant_wfq_fig1", "gap_1024_be_tx")[0], BE_TX,
                           "TF-TANT page: WFQ - PQ at 1024 bytes, BE tx times"),
        "paper_gap_1518": (paper_value("tftant_wfq_fig1", "gap_1518_be_tx")[0], BE_TX,
                           "TF-TANT page: WFQ - PQ at 1518 bytes, BE tx times"),
    })
    ds.attrs = provenance("tftant_wfq_fig1",
                          "tftant_wfq_fig1: mean EF one-way delay with PQ and WFQ vs EF frame size "
                          "(TF-TANT PQ vs WFQ page, Fig. 1)", __name__, seeds,
                          scenario=scenarios.pq_vs_wfq(scheduler="wfq", ef_frame_bytes=frames[-1],
                                                       ef_service_rate_bps=rate, n_ef_samples=n).to_json(),
                          n_ef_samples=n)
    return ds


def _at(da: xr.DataArray, frame: int) -> float:
    return float(da.sel(ef_frame_bytes=frame)) if frame in da["ef_frame_bytes"].values else math.nan


def _list(frames, values, fmt="{:.2f}") -> str:
    return ", ".join(f"{float(f):g}: {fmt.format(v)}" for f, v in zip(frames, values))


def tftant_wfq_fig1_claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`tftant_wfq_fig1`: PQ below WFQ, equivalence for small frames, the gain."""
    art = "tftant_wfq_fig1"
    check_artefact(ds, art)
    frames = ds["ef_frame_bytes"].values
    be_tx = float(ds.be_tx_time)
    pq, wfq = ds["delay_mean"].sel(scheduler="pq"), ds["delay_mean"].sel(scheduler="wfq")
    gap, gap_be, gap_ci = ds["gap_mean"], ds["gap_be_tx"], np.nan_to_num(ds["gap_ci"].values)
    tol = 1e-6 + gap_ci
    lower = gap.values >= -tol
    rows = [claim(art, "pq_always_lower", None, "-",
                  f"mean delay PQ <= WFQ at all {frames.size} frame sizes 64..1518 "
                  f"({int((gap.values > tol).sum())} lower, {int((np.abs(gap.values) <= tol).sum())} equal); "
                  f"WFQ - PQ in BE tx times ({be_tx:.3f} ms): {_list(frames, gap_be.values)}",
                  shape_ok=bool(lower.all()))]
    for quantity, upto, where in (("equivalent_up_to_512", 512, "the page"),
                                  ("equivalent_up_to_256", 256, "the slides")):
        small = frames <= upto
        worst = float(np.abs(gap_be.values[small]).max()) if small.any() else math.nan
        rows.append(claim(
            art, quantity, None, "-",
            f"{where}: WFQ - PQ for frames <= {upto} bytes, BE tx times: {_list(frames[small], gap_be.values[small])}; "
            f"'equivalent' read as below {EQUIVALENT_BE_TX} BE tx (no extra BE packet ahead on average): largest "
            f"{worst:.2f}" + ("" if worst < EQUIVALENT_BE_TX else
                              f"; above 256 bytes an EF finish tag (at 512 bytes: 494 x 8 / "
                              f"{float(ds.ef_service_rate):g} kbit/s = {494 * 8 / float(ds.ef_service_rate):.1f} ms) "
                              f"exceeds one BE tag step ({8 * float(ds.be_ip_bytes) / float(ds.be_weight):.1f} ms), "
                              f"so a queued BE packet may go first"),
            shape_ok=bool(small.any() and worst < EQUIVALENT_BE_TX)))
    g64 = _at(gap_be, 64)
    rows.append(claim(art, "equal_at_64", None, "-",
                      f"WFQ - PQ at 64-byte frames: {_at(gap, 64):.3f} ms = {g64:.2f} BE tx times "
                      f"(PQ {_at(pq, 64):.2f} ms, WFQ {_at(wfq, 64):.2f} ms)",
                      shape_ok=bool(np.isfinite(g64) and abs(g64) < EQUIVALENT_BE_TX)))
    mtu = MTU_FRAME_BYTES
    g_mtu, paper_gain = _at(gap, mtu), float(ds.paper_max_gain)
    argmax = int(frames[int(np.nanargmax(gap.values))])
    rows.append(claim(
        art, "max_gain_mtu", g_mtu, "ms",
        f"WFQ - PQ at {mtu}-byte frames (IP 1500): {g_mtu:.2f} ms = {g_mtu / be_tx:.2f} BE tx times "
        f"(PQ {_at(pq, mtu):.2f}, WFQ {_at(wfq, mtu):.2f} ms, mean over {ds.sizes['seed']} seed(s)); the page's "
        f"{paper_gain:g} ms = {paper_gain / be_tx:.2f} of our BE tx times; the largest gain over the sweep is at "
        f"{argmax} bytes", shape_ok=argmax == mtu))
    for size in (1024, mtu):
        v = _at(gap_be, size)
        paper = float(ds[f"paper_gap_{size}"])
        steps = scenarios.ef_ip_bytes(size) * float(ds.be_weight) / (float(ds.be_ip_bytes) * float(ds.ef_service_rate))
        rows.append(claim(
            art, f"gap_{size}_be_tx", v, BE_TX,
            f"(WFQ - PQ) / BE tx time at {size} bytes = {_at(gap, size):.2f} / {be_tx:.3f} ms: an EF finish tag of "
            f"{scenarios.ef_ip_bytes(size)} x 8 / {float(ds.ef_service_rate):g} kbit/s = "
            f"{scenarios.ef_ip_bytes(size) * 8 / float(ds.ef_service_rate):.1f} ms above the virtual time spans "
            f"{steps:.2f}"
            f" BE tag steps of {8 * float(ds.be_ip_bytes) / float(ds.be_weight):.1f} ms: the queued BE packets with "
            f"smaller tags go first (ties go to the EF queue, index 0); paper ~{paper:g}"))
    large = [f for f in (1024, mtu) if f in frames]
    frac = [abs(_at(gap_be, f) - round(_at(gap_be, f))) for f in large]
    between = [f for f in frames if 1024 < f < mtu]
    rows.append(claim(
        art, "gap_multiple_of_be_tx", None, "-",
        f"at the page's large sizes {large}: {', '.join(f'{_at(gap_be, f):.2f}' for f in large)} BE tx times "
        f"(within 0.1 of an integer: {all(x <= 0.1 for x in frac)}); in between our sweep gives "
        f"{_list(between, [_at(gap_be, f) for f in between])}: a mean over EF packets that wait n or n + 1 BE packets",
        shape_ok=bool(large) and all(x <= 0.1 for x in frac)))
    small, big = frames <= SMALL_FRAME_BYTES, frames > SMALL_FRAME_BYTES
    rows.append(claim(
        art, "gain_for_larger_packets", None, "-",
        f"the slides: gain only for larger packets; ours: largest gain at <= {SMALL_FRAME_BYTES} bytes "
        f"{float(gap.values[small].max()):.2f} ms, smallest above {float(gap.values[big].min()):.2f} ms",
        shape_ok=bool(small.any() and big.any() and gap.values[big].min() > gap.values[small].max())))
    # the test conditions
    gr = ds["gap_reading_1600k"].values - ds["gap_reading_2000k"].values
    rows += [
        claim(art, "ef_rate", float(ds.ef_rate), "kbit/s", "one CBR EF stream, rate counted on Ethernet frames"),
        claim(art, "be_rate", float(ds.be_rate), "kbit/s",
              f"one CBR BE stream (the slides: '1 stream per PHB') of {int(ds.be_ip_bytes)}-byte IP packets"),
        claim(art, "be_packet_rate", float(ds.be_packet_rate), "packets/s",
              f"the page's profile is inconsistent: 200 x 1000 bytes x 8 = 1.6 Mbit/s, not 2.0; we send "
              f"{float(ds.be_rate):g} kbit/s of 1000-byte packets = {float(ds.be_packet_rate):g} packets/s; the other "
              f"reading (200 packets/s) changes the gain at 1024/1518 bytes by "
              f"{', '.join(f'{v:+.4f}' for v in gr)} ms: either way the BE queue never empties"),
        claim(art, "be_packet_size", float(ds.be_ip_bytes), "bytes", "read as the IP length; one size for all"),
        claim(art, "ef_queue_limit", float(ds.ef_queue_limit), "packets", "EF queue limit (PQ or WFQ)"),
        claim(art, "tx_ring_limit", float(ds.tx_ring_limit), "particles",
              f"particles of {int(ds.particle_bytes)} bytes; a 1000-byte BE packet takes 2"),
        claim(art, "ef_service_rate", float(ds.ef_service_rate), "kbit/s",
              f"WFQ: weight of the EF WFQ queue (BE queue: the remaining {float(ds.be_weight):g} kbit/s); "
              f"PQ: policing rate; EF loss {float(ds['loss'].max()):.3g}"),
        claim(art, "line_rate", float(ds.line_rate), "kbit/s", "ATM PVC, whole 53-byte cells"),
    ]
    return rows


# --------------------------------------------------------------------------- tftant_wfq_fig5


@cache.artefact()
def tftant_wfq_fig5(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    frame_sizes=scenarios.TFTANT_FRAME_SIZES,
    ef_service_rate_bps: float = scenarios.TFTANT_EF_SERVICE_RATE_BPS,
) -> xr.Dataset:
    """TF-TANT PQ-vs-WFQ page, Fig. 5: mean IPDV (mean of |IPDV|) with PQ and with WFQ vs EF frame size.

    The same runs as :func:`tftant_wfq_fig1` (computed once per process). IPDV is
    RFC 3393's of consecutive EF packets; its "average" is the mean of the absolute
    values (the signed mean is ~0; the long version's "jitter").

    Parameters
    ----------
    n_ef_samples, seeds, frame_sizes, ef_service_rate_bps
        As :func:`tftant_wfq_fig1`.

    Returns
    -------
    xarray.Dataset
        Dims ``scheduler``, ``ef_frame_bytes``, ``seed``: ``ipdv`` (mean |IPDV|, ms),
        ``ipdv_max`` (ms), ``ipdv_peak_frequency`` (share of |IPDV| >= half a BE tx time);
        ``ipdv_mean``/``ipdv_ci`` over seeds; ``ipdv_max_be_tx`` (BE tx times); scalars as
        :func:`tftant_wfq_fig1`.
    """
    n, seeds, frames, rate, node, raw = _checked_size_sweep(n_ef_samples, seeds, frame_sizes, ef_service_rate_bps)
    dims = ("scheduler", "ef_frame_bytes", "seed")
    ds = xr.Dataset(
        {
            "ipdv": _per_seed(raw, "ipdv_abs_mean_s", MS, "ms", "mean |IPDV| of consecutive EF packets", dims),
            "ipdv_max": _per_seed(raw, "ipdv_abs_max_s", MS, "ms", "largest |IPDV| of one run", dims),
            "ipdv_peak_frequency": _per_seed(raw, "ipdv_peak_frequency", 1.0, "1",
                                             f"share of |IPDV| >= {PEAK_FRACTION} BE tx time", dims),
        },
        coords={"scheduler": ("scheduler", list(scenarios.TFTANT_SCHEDULERS), {"long_name": "EF scheduler"}),
                **_coords_frames(frames, node),
                "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"})},
    )
    add_mean_ci(ds, ["ipdv"])
    be_tx_ms = be_tx_time_s(node) * MS
    ds["ipdv_max_be_tx"] = ds["ipdv_max"].max("seed") / be_tx_ms
    ds["ipdv_max_be_tx"].attrs = {"units": BE_TX, "long_name": "largest |IPDV| over seeds in BE tx times"}
    slip = beat_slip_s(frames, node) * MS
    ds["beat_slip"] = ("ef_frame_bytes", slip, {"units": "ms", "long_name": "s = (T_EF - t_EF) mod t_BE"})
    ds["ipdv_beat_mean"] = ("ef_frame_bytes", 2 * slip * (be_tx_ms - slip) / be_tx_ms,
                            {"units": "ms", "long_name": "sawtooth prediction of the mean |IPDV|"})
    ds["ipdv_beat_max_be_tx"] = ("ef_frame_bytes", np.maximum(slip, be_tx_ms - slip) / be_tx_ms,
                                 {"units": BE_TX, "long_name": "sawtooth prediction of the largest |IPDV|"})
    _scalars(ds, _config_scalars(node, rate))
    ds.attrs = provenance("tftant_wfq_fig5",
                          "tftant_wfq_fig5: mean IPDV with PQ and WFQ vs EF frame size "
                          "(TF-TANT PQ vs WFQ page, Fig. 5)",
                          __name__, seeds, n_ef_samples=n)
    return ds


def tftant_wfq_fig5_claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`tftant_wfq_fig5`: IPDV higher for small frames; the IPDV gain depends on size."""
    art = "tftant_wfq_fig5"
    check_artefact(ds, art)
    frames = ds["ef_frame_bytes"].values
    m = ds["ipdv_mean"]
    small = [f for f in (128, 256) if f in frames]
    large = [f for f in (1024, MTU_FRAME_BYTES) if f in frames]
    rows = []
    ok = []
    parts = []
    for sched in scenarios.TFTANT_SCHEDULERS:
        s = [_at(m.sel(scheduler=sched), f) for f in small]
        lg = [_at(m.sel(scheduler=sched), f) for f in large]
        ok.append(bool(s and lg and min(s) > max(lg)))
        parts.append(f"{sched.upper()}: {_list(small + large, s + lg)} ms")
    src = [f for f in SOURCE_FRAME_SIZES if f in frames]
    rows.append(claim(
        art, "ipdv_higher_small_packets", None, "-",
        f"mean |IPDV| at 128/256 vs 1024/1518 bytes: {'; '.join(parts)}; over the whole sweep it is not monotone "
        f"(PQ {float(m.sel(scheduler='pq').min()):.2f}..{float(m.sel(scheduler='pq').max()):.2f} ms): with one CBR "
        f"EF and one CBR BE stream the delay is a sawtooth of one BE tx time t_BE ({float(ds.be_tx_time):.3f} ms) "
        f"whose step is the slip s = (T_EF - t_EF) mod t_BE, mean |IPDV| = 2 s (t_BE - s) / t_BE, which predicts "
        f"{_list(small + large, [_at(ds['ipdv_beat_mean'], f) for f in small + large])} ms: a beat of the two "
        f"periods, not a trend in the EF size",
        shape_ok=all(ok)))
    diff = (m.sel(scheduler="wfq") - m.sel(scheduler="pq")).values
    rows.append(claim(
        art, "ipdv_gain_depends_on_size", None, "-",
        f"the slides: mean |IPDV| WFQ - PQ, ms: {_list(src, [diff[list(frames).index(f)] for f in src])}",
        shape_ok=bool(np.ptp(diff) > 0.1)))
    for f in src:
        for sched in scenarios.TFTANT_SCHEDULERS:
            rows.append(claim(art, f"mean_ipdv_{sched}_{f}", _at(m.sel(scheduler=sched), f), "ms",
                              f"mean |IPDV| of consecutive EF packets, {sched.upper()}, {f}-byte frames"))
    return rows


# --------------------------------------------------------------------------- tftant_wfq_fig2_4 and fig6_7


def _series_dataset(artefact: str, title: str, n_ef_samples, seeds, frame_sizes, ef_service_rate_bps) -> xr.Dataset:
    n = check_n_ef_samples(n_ef_samples, 10, 10_000_000)
    seeds = check_seeds(seeds)
    frames = sorted(_check_frames("frame_sizes", frame_sizes))
    rate = check_real("ef_service_rate_bps", ef_service_rate_bps, 0.0, strict_minimum=True)
    node = scenarios.tftant_node("wfq", ef_service_rate_bps=rate)
    s = {k: v.copy() for k, v in _series(tuple(frames), tuple(seeds), n, rate).items()}  # the cache stays intact
    dims = ("scheduler", "ef_frame_bytes", "seed", "ef_packet")
    ds = xr.Dataset(
        {
            "delay": (dims, s["delay"], {"units": "ms", "long_name": "EF one-way delay"}),
            "ipdv": (dims, s["ipdv"], {"units": "ms", "long_name": "IPDV of consecutive EF packets"}),
            "ef_wait": (dims, s["wait"], {"units": "ms", "long_name": "EF wait in the EF queue"}),
            "time": (dims[1:], s["time"][0], {"units": "s", "long_name": "EF arrival time after the warm-up"}),
        },
        coords={"scheduler": ("scheduler", list(scenarios.TFTANT_SCHEDULERS), {"long_name": "EF scheduler"}),
                **_coords_frames(frames, node),
                "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"}),
                "ef_packet": ("ef_packet", np.arange(n), {"units": "1", "long_name": "EF packet after the warm-up"})},
    )
    _scalars(ds, _config_scalars(node, rate))
    ds.attrs = provenance(artefact, title, __name__, seeds, n_ef_samples=n)
    return ds


@cache.artefact()
def tftant_wfq_fig2_4(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    frame_sizes=SERIES_FRAME_SIZES,
    ef_service_rate_bps: float = scenarios.TFTANT_EF_SERVICE_RATE_BPS,
) -> xr.Dataset:
    """TF-TANT PQ-vs-WFQ page, Figs. 2-4: EF one-way delay over time with WFQ and PQ (128, 1024, 1518 bytes).

    Per scheduler, frame size and seed the delay of every measured EF packet, its
    arrival time and EF-queue wait; per run the mean, min, max and spread (ms and BE
    tx times); per frame and seed the correlation of the PQ and WFQ series (same
    arrivals) and the mean and spread of their difference, and how much of the
    difference is EF-queue wait.

    Parameters
    ----------
    n_ef_samples : int
        EF packets per run (>= 10).
    seeds : sequence of int
        Seeds (>= 0, distinct).
    frame_sizes : sequence of int
        EF frame sizes, bytes (the page: 128, 1024, 1518).
    ef_service_rate_bps : float
        EF service rate, bit/s (400 kbit/s).

    Returns
    -------
    xarray.Dataset
        ``delay``, ``ef_wait`` (ms) and ``ipdv`` on ``(scheduler, ef_frame_bytes, seed, ef_packet)``,
        ``time`` (s); per run ``delay_mean``, ``delay_min``, ``delay_max``, ``delay_span`` (ms),
        ``delay_span_be_tx``; per frame and seed ``corr``, ``shift`` (ms), ``shift_std`` (ms),
        ``wait_share`` (1).
    """
    ds = _series_dataset("tftant_wfq_fig2_4", "tftant_wfq_fig2_4: EF one-way delay over time with WFQ and PQ "
                         "(TF-TANT PQ vs WFQ page, Figs. 2-4)", n_ef_samples, seeds, frame_sizes, ef_service_rate_bps)
    d = ds["delay"]
    for name, da, long_name in (("delay_mean", d.mean("ef_packet"), "mean EF one-way delay"),
                                ("delay_min", d.min("ef_packet"), "smallest EF one-way delay"),
                                ("delay_max", d.max("ef_packet"), "largest EF one-way delay")):
        ds[name] = da
        ds[name].attrs = {"units": "ms", "long_name": long_name}
    ds["delay_span"] = ds["delay_max"] - ds["delay_min"]
    ds["delay_span"].attrs = {"units": "ms", "long_name": "max - min EF one-way delay"}
    ds["delay_span_be_tx"] = ds["delay_span"] / float(ds.be_tx_time)
    ds["delay_span_be_tx"].attrs = {"units": BE_TX, "long_name": "max - min EF one-way delay in BE tx times"}
    pq, wfq = d.sel(scheduler="pq", drop=True), d.sel(scheduler="wfq", drop=True)
    ds["corr"] = xr.corr(pq, wfq, dim="ef_packet")
    ds["corr"].attrs = {"units": "1", "long_name": "correlation of the PQ and WFQ delay series"}
    diff = wfq - pq
    ds["shift"] = diff.mean("ef_packet")
    ds["shift"].attrs = {"units": "ms", "long_name": "mean of delay(WFQ) - delay(PQ), packet by packet"}
    ds["shift_std"] = diff.std("ef_packet")
    ds["shift_std"].attrs = {"units": "ms", "long_name": "std of delay(WFQ) - delay(PQ), packet by packet"}
    w = ds["ef_wait"]
    wait_diff = (w.sel(scheduler="wfq", drop=True) - w.sel(scheduler="pq", drop=True)).mean("ef_packet")
    ds["wait_share"] = xr.where(np.abs(ds["shift"]) > 1e-9, wait_diff / ds["shift"], np.nan)
    ds["wait_share"].attrs = {"units": "1", "long_name": "share of the WFQ - PQ difference spent in the EF queue"}
    return ds


def tftant_wfq_fig2_4_claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`tftant_wfq_fig2_4`: same shape, delay variation of one BE tx, EF-queue wait."""
    art = "tftant_wfq_fig2_4"
    check_artefact(ds, art)
    frames = ds["ef_frame_bytes"].values
    corr = ds["corr"].min("seed")
    be_tx = float(ds.be_tx_time)
    span = ds["delay_span_be_tx"].max("seed")
    shift, shift_std = ds["shift"].mean("seed"), ds["shift_std"].max("seed")
    rows = [
        claim(art, "same_shape", None, "-",
              f"correlation of the PQ and WFQ delay series (same arrivals), smallest over seeds: "
              f"{_list(frames, corr.values, '{:.3f}')}; WFQ - PQ packet by packet: mean "
              f"{_list(frames, shift.values)} ms, std {_list(frames, shift_std.values)} ms",
              shape_ok=bool((corr.values >= 0.9).all())),
        claim(art, "delay_variation_from_tx_ring", None, "-",
              f"max - min delay in BE tx times ({be_tx:.3f} ms), PQ: {_list(frames, span.sel(scheduler='pq').values)};"
              f" WFQ: {_list(frames, span.sel(scheduler='wfq').values)}: the BE packet in transmission when the EF "
              f"packet arrives (the ring is always full of BE)",
              shape_ok=bool(np.all(np.abs(span.sel(scheduler="pq").values - 1.0) <= 0.05))),
    ]
    share = ds["wait_share"].mean("seed")
    big = [f for f in frames if np.isfinite(_at(share, f)) and _at(shift, f) > 0.5 * be_tx]
    rows.append(claim(
        art, "ef_queue_wait_dominates", None, "-",
        f"share of the WFQ - PQ difference spent waiting in the EF queue: "
        f"{_list(big, [_at(share, f) for f in big])} (frames where WFQ adds at least half a BE tx time)",
        shape_ok=bool(big) and all(_at(share, f) >= 0.9 for f in big)))
    gains = [_at(shift, f) for f in frames]
    rows.append(claim(
        art, "gain_grows_with_size", None, "-",
        f"WFQ - PQ mean delay: {_list(frames, gains)} ms", shape_ok=bool(np.all(np.diff(gains) >= -1e-6))))
    return rows


@cache.artefact()
def tftant_wfq_fig6_7(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    frame_sizes=SERIES_FRAME_SIZES,
    ef_service_rate_bps: float = scenarios.TFTANT_EF_SERVICE_RATE_BPS,
    peak_fraction: float = PEAK_FRACTION,
) -> xr.Dataset:
    """TF-TANT PQ-vs-WFQ page, Figs. 6-7 (128, 1024 bytes), and the slides' 1518: IPDV over time, WFQ and PQ.

    The runs of :func:`tftant_wfq_fig2_4`. Per run: the largest |IPDV| (ms and BE tx
    times) and the peak frequency, the share of |IPDV| >= ``peak_fraction`` BE tx time.

    Parameters
    ----------
    n_ef_samples, seeds, frame_sizes, ef_service_rate_bps
        As :func:`tftant_wfq_fig2_4`.
    peak_fraction : float
        An |IPDV| of at least this many BE tx times is a peak, in (0, 2].

    Returns
    -------
    xarray.Dataset
        ``ipdv`` (ms) on ``(scheduler, ef_frame_bytes, seed, ef_packet)`` and ``time`` (s);
        per run ``ipdv_abs_mean``, ``ipdv_abs_max`` (ms), ``ipdv_max_be_tx``, ``peak_frequency``.
    """
    frac = check_real("peak_fraction", peak_fraction, 0.0, 2.0, strict_minimum=True)
    ds = _series_dataset("tftant_wfq_fig6_7", "tftant_wfq_fig6_7: IPDV over time with WFQ and PQ "
                         "(TF-TANT PQ vs WFQ page, Figs. 6-7; slides, WFQ vs PQ: ipdv)",
                         n_ef_samples, seeds, frame_sizes, ef_service_rate_bps)
    ds = ds.drop_vars(["delay", "ef_wait"])
    a = np.abs(ds["ipdv"])
    be_tx = float(ds.be_tx_time)
    ds["ipdv_abs_mean"] = a.mean("ef_packet")
    ds["ipdv_abs_mean"].attrs = {"units": "ms", "long_name": "mean |IPDV|"}
    ds["ipdv_abs_max"] = a.max("ef_packet")
    ds["ipdv_abs_max"].attrs = {"units": "ms", "long_name": "largest |IPDV|"}
    ds["ipdv_max_be_tx"] = ds["ipdv_abs_max"] / be_tx
    ds["ipdv_max_be_tx"].attrs = {"units": BE_TX, "long_name": "largest |IPDV| in BE tx times"}
    ds["peak_frequency"] = (a >= frac * be_tx).sum("ef_packet") / a.notnull().sum("ef_packet")
    ds["peak_frequency"].attrs = {"units": "1", "long_name": f"share of |IPDV| >= {frac:g} BE tx time"}
    slip = beat_slip_s(ds["ef_frame_bytes"].values) * MS
    ds["ipdv_beat_max_be_tx"] = ("ef_frame_bytes", np.maximum(slip, be_tx - slip) / be_tx,
                                 {"units": BE_TX, "long_name": "sawtooth prediction of the largest |IPDV|"})
    ds.attrs["peak_fraction"] = frac
    return ds


def tftant_wfq_fig6_7_claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`tftant_wfq_fig6_7`: max IPDV of one BE tx, peak height and frequency."""
    art = "tftant_wfq_fig6_7"
    check_artefact(ds, art)
    frames = list(ds["ef_frame_bytes"].values)
    mx = ds["ipdv_max_be_tx"].max("seed")
    freq = ds["peak_frequency"].mean("seed")
    frac = ds.attrs["peak_fraction"]
    rows = []
    fig7 = 1024
    if fig7 in frames:
        for sched in scenarios.TFTANT_SCHEDULERS:
            v = float(mx.sel(scheduler=sched, ef_frame_bytes=fig7))
            rows.append(claim(
                art, f"max_ipdv_fig7_{sched}", v, BE_TX,
                f"largest |IPDV| at {fig7}-byte frames (Fig. 7's caption; the text says MTU-size), {sched.upper()}: "
                f"{v * float(ds.be_tx_time):.3f} ms = {v:.3f} BE tx times; the sawtooth (EF behind a fixed "
                f"number of BE packets) predicts max(s, t_BE - s) "
                f"= {_at(ds['ipdv_beat_max_be_tx'], fig7):.3f} BE tx times, s = (T_EF - t_EF) mod t_BE the slip of "
                f"the EF arrivals against the BE departures per EF interval (not a whole BE tx time); all sizes: "
                + ", ".join(f"{int(f)}: {float(mx.sel(scheduler=sched, ef_frame_bytes=f)):.2f}" for f in frames),
                shape_ok=bool(0.5 < v <= 1.0 + 1e-9)))
        fp, fw = (float(freq.sel(scheduler=s, ef_frame_bytes=fig7)) for s in scenarios.TFTANT_SCHEDULERS)
        rows.append(claim(
            art, "wfq_max_more_often", None, "-",
            f"share of |IPDV| >= {frac:g} BE tx time at {fig7} bytes: PQ {fp:.3f}, WFQ {fw:.3f}"
            + (": under our WFQ every EF packet waits the same whole number of BE packets more than under PQ "
               "(tftant_wfq_fig2_4: the same series shifted), so both IPDV series are identical"
               if abs(fw - fp) < 1e-9 else ""),
            shape_ok=fw > fp))
    if 128 in frames:
        p, w = (float(mx.sel(scheduler=s, ef_frame_bytes=128)) for s in scenarios.TFTANT_SCHEDULERS)
        rows.append(claim(art, "pq_higher_peaks_128", None, "-",
                          f"the slides; largest |IPDV| at 128 bytes: PQ {p:.3f}, WFQ {w:.3f} BE tx times"
                          + (f" (identical series: an EF tag step of {scenarios.ef_ip_bytes(128)} x 8 / "
                             f"{float(ds.ef_service_rate):g} kbit/s = "
                             f"{scenarios.ef_ip_bytes(128) * 8 / float(ds.ef_service_rate):.1f} ms is below one BE tag "
                             f"step, {8 * float(ds.be_ip_bytes) / float(ds.be_weight):.1f} ms, so WFQ lets no BE "
                             "packet ahead)" if abs(p - w) < 1e-9 else ""),
                          shape_ok=p > w))
    big = MTU_FRAME_BYTES
    if big in frames:
        p, w = (float(mx.sel(scheduler=s, ef_frame_bytes=big)) for s in scenarios.TFTANT_SCHEDULERS)
        fp, fw = (float(freq.sel(scheduler=s, ef_frame_bytes=big)) for s in scenarios.TFTANT_SCHEDULERS)
        rows.append(claim(art, "same_peak_height_1500", None, "-",
                          f"the slides; largest |IPDV| at {big} bytes: PQ {p:.2f}, WFQ {w:.2f} BE tx times "
                          f"(same height read as within 10%)", shape_ok=abs(w - p) <= 0.1 * max(p, w)))
        rows.append(claim(art, "peak_frequency_higher_wfq_1500", None, "-",
                          f"the slides; share of |IPDV| >= {frac:g} BE tx time at {big} bytes: PQ {fp:.3f}, "
                          f"WFQ {fw:.3f}", shape_ok=fw > fp))
    return rows


# --------------------------------------------------------------------------- tftant_slides_ring


def _fit(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Least-squares line: slope, intercept, R^2."""
    slope, intercept = np.polyfit(x, y, 1)
    res = y - (slope * x + intercept)
    tot = float(((y - y.mean()) ** 2).sum())
    return float(slope), float(intercept), (1.0 - float((res ** 2).sum()) / tot) if tot > 0 else math.nan


@cache.artefact()
def tftant_slides_ring(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    ring_limits=RING_LIMITS,
    ef_frame_bytes: int = 1024,
    ef_service_rate_bps: float = scenarios.TFTANT_EF_RATE_BPS,
    schedulers=scenarios.TFTANT_SCHEDULERS,
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
    ring_limits : sequence of int
        tx-ring-limit values, particles (>= 1, at least 3 distinct).
    ef_frame_bytes : int
        EF frame size, bytes.
    ef_service_rate_bps : float
        EF service rate, bit/s (the slides: 300 kbit/s).
    schedulers : sequence of {"pq", "wfq"}
        Schedulers of the EF queue.

    Returns
    -------
    xarray.Dataset
        Dims ``scheduler``, ``ring_limit``, ``seed``: ``delay``, ``ipdv``, ``ipdv_max``,
        ``ef_wait`` (ms), ``loss``, ``acf_peak_lag`` (EF packets), ``acf_peak``; means and CIs
        over seeds; per scheduler the fit ``slope`` (ms/particle), ``intercept`` (ms),
        ``r2``; scalars of the test conditions.
    """
    n = check_n_ef_samples(n_ef_samples, 10, 100_000_000)
    seeds = check_seeds(seeds)
    rings = sorted(check_values("ring_limits", ring_limits, 1, integer=True))
    if len(rings) < 3:
        raise ValueError(f"ring_limits must hold at least 3 distinct values to fit a line, got {rings!r}")
    frame = _check_frames("ef_frame_bytes", [ef_frame_bytes])[0]
    rate = check_real("ef_service_rate_bps", ef_service_rate_bps, 0.0, strict_minimum=True)
    scheds = _check_schedulers(schedulers)
    make = functools.partial(scenarios.pq_vs_wfq, ef_frame_bytes=frame, ef_service_rate_bps=rate, n_ef_samples=n)
    raw = experiments.sweep(make, {"scheduler": scheds, "ring_limit_particles": rings}, seeds, measure=_measure)
    raw = raw.rename(ring_limit_particles="ring_limit")
    dims = ("scheduler", "ring_limit", "seed")
    ds = xr.Dataset(
        {
            "delay": _per_seed(raw, "delay_mean_s", MS, "ms", "mean EF one-way delay", dims),
            "ipdv": _per_seed(raw, "ipdv_abs_mean_s", MS, "ms", "mean |IPDV|", dims),
            "ipdv_max": _per_seed(raw, "ipdv_abs_max_s", MS, "ms", "largest |IPDV|", dims),
            "ef_wait": _per_seed(raw, "ef_wait_mean_s", MS, "ms", "mean EF wait in the EF queue", dims),
            "loss": _per_seed(raw, "loss_ratio", 1.0, "1", "EF loss ratio", dims),
            "acf_peak_lag": _per_seed(raw, "acf_peak_lag", 1.0, "EF packets",
                                      "first autocorrelation peak of the delay series (-1: none)", dims),
            "acf_peak": _per_seed(raw, "acf_peak", 1.0, "1", "autocorrelation at the first peak", dims),
        },
        coords={"scheduler": ("scheduler", scheds, {"long_name": "EF scheduler"}),
                "ring_limit": ("ring_limit", rings, {"units": "particles", "long_name": "tx-ring-limit"}),
                "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"})},
    )
    add_mean_ci(ds, ["delay", "ipdv"])
    fits = np.array([_fit(np.array(rings, float), ds["delay_mean"].sel(scheduler=s).values) for s in scheds])
    for k, (name, unit, long_name) in enumerate((("slope", "ms/particle", "fitted delay increase per ring particle"),
                                                 ("intercept", "ms", "fitted delay at a ring of 0 particles"),
                                                 ("r2", "1", "R^2 of the linear fit"))):
        ds[name] = ("scheduler", fits[:, k], {"units": unit, "long_name": long_name})
    node = scenarios.tftant_node("wfq", ef_service_rate_bps=rate)
    _scalars(ds, _config_scalars(node, rate))
    be_particles = particles_needed(scenarios.TFTANT_BE_IP_BYTES, node.particle_bytes)
    _scalars(ds, {"be_particles": (be_particles, "1", "ring particles per BE packet"),
                  "ef_frame_bytes": (frame, "bytes", "EF frame size")})
    ds.attrs = provenance("tftant_slides_ring", "tftant_slides_ring: EF one-way delay and IPDV vs tx-ring-limit "
                          "(TF-TANT slides, Tx queue)", __name__, seeds, n_ef_samples=n)
    return ds


def _check_schedulers(schedulers) -> list[str]:
    try:
        out = list(schedulers) if not isinstance(schedulers, str) else [schedulers]
    except TypeError:
        raise ValueError(f"schedulers must be a sequence of 'pq' and 'wfq', got {schedulers!r}") from None
    if not out or len(set(out)) != len(out):
        raise ValueError(f"schedulers must hold distinct values of 'pq' and 'wfq', got {schedulers!r}")
    for s in out:
        check_choice("schedulers", s, scenarios.TFTANT_SCHEDULERS)
    return out


def tftant_slides_ring_claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`tftant_slides_ring`: delay linear in the ring, IPDV independent of it."""
    art = "tftant_slides_ring"
    check_artefact(ds, art)
    scheds = list(ds["scheduler"].values)
    rings = ds["ring_limit"].values
    be_tx = float(ds.be_tx_time)
    per_particle = be_tx / float(ds.be_particles)
    d = ds["delay_mean"]
    fit = "; ".join(f"{s.upper()} {float(ds.slope.sel(scheduler=s)):.3f} ms/particle, R^2 "
                    f"{float(ds.r2.sel(scheduler=s)):.3f}, {float(d.sel(scheduler=s).min()):.1f}.."
                    f"{float(d.sel(scheduler=s).max()):.1f} ms, EF loss {float(ds['loss'].sel(scheduler=s).max()):.3f}"
                    for s in scheds)
    linear = bool(((ds.slope > 0) & (ds.r2 >= 0.95)).all())
    rows = [claim(
        art, "delay_proportional_to_ring", None, "-",
        f"rings {int(rings.min())}..{int(rings.max())} particles: {fit}; a BE packet of {int(ds.be_ip_bytes)} "
        f"bytes takes {int(ds.be_particles)} particles, so the delay rises in steps of one BE tx time "
        f"({be_tx:.3f} ms) every {int(ds.be_particles)} particles ({per_particle:.3f} ms/particle); linear with an "
        f"intercept, not proportional through 0",
        shape_ok=linear)]
    if "pq" in scheds:
        dp = d.sel(scheduler="pq")
        ratio = float(dp.max() / dp.min())
        rows.append(claim(
            art, "delay_ratio_512_256", None, "-",
            f"'1-way delay(512 by) = 32 * 1-way delay(256 kby)' cannot be parsed as stated (no 512-byte or "
            f"256-kbyte setting of the test is defined and 32x matches no ratio we can form); ours, PQ: "
            f"delay(ring {int(rings.max())}) / delay(ring {int(rings.min())}) = {ratio:.2f}"))
    ip = ds["ipdv_mean"]
    spread = {s: float(ip.sel(scheduler=s).max() - ip.sel(scheduler=s).min()) for s in scheds}
    rows.append(claim(
        art, "ipdv_independent_of_ring", None, "-",
        "mean |IPDV| over the rings: " + "; ".join(
            f"{s.upper()} {float(ip.sel(scheduler=s).mean()):.3f} ms, range {spread[s]:.3f} ms" for s in scheds),
        shape_ok=all(spread[s] <= 0.05 * float(ip.sel(scheduler=s).mean()) for s in scheds)))
    first = scheds[0]
    mx = float(ds["ipdv_max"].sel(scheduler=first).max()) / be_tx
    slip = float(beat_slip_s(int(ds.ef_frame_bytes))[0]) * MS
    rows.append(claim(
        art, "max_ipdv_one_be_tx", mx, BE_TX,
        f"largest |IPDV| over rings and seeds, {first.upper()}: {mx * be_tx:.3f} ms = {mx:.3f} BE tx times "
        f"({be_tx:.3f} ms); the sawtooth (EF behind a fixed number of BE packets) predicts max(s, t_BE - s) = "
        f"{max(slip, be_tx - slip) / be_tx:.3f}, "
        f"s = (T_EF - t_EF) mod t_BE, whatever the ring; "
        + ", ".join(f"{s.upper()} {float(ds['ipdv_max'].sel(scheduler=s).max()) / be_tx:.3f}"
                                  for s in scheds),
        shape_ok=bool(0.5 < mx <= 1.0 + 1e-9)))
    lag = ds["acf_peak_lag"].sel(scheduler=first)
    peak = ds["acf_peak"].sel(scheduler=first)
    periodic = bool((lag >= 2).all() and (peak > ACF_THRESHOLD).all())
    rows.append(claim(
        art, "periodicity_one_stream_per_phb", None, "-",
        f"one CBR EF and one CBR BE stream, {first.upper()}: the delay series' autocorrelation peaks first at lag "
        f"{int(lag.min())}..{int(lag.max())} EF packets, >= {float(peak.min()):.2f} in every run",
        shape_ok=periodic))
    if len(scheds) > 1:
        rows.append(claim(
            art, "pq_and_wfq_affected_by_tx_queue", None, "-",
            "the slides (WFQ vs PQ): slopes " + ", ".join(
                f"{s.upper()} {float(ds.slope.sel(scheduler=s)):.3f} ms/particle" for s in scheds)
            + "; under WFQ at 300 kbit/s the EF queue is also overloaded (see tftant_slides_star, STAR = 1)",
            shape_ok=bool((ds.slope > 0.5 * per_particle).all())))
    first_q = "pq" if "pq" in scheds else first
    rows += [
        claim(art, "ef_frame_size", float(ds.ef_frame_bytes), "bytes",
              f"EF frames (IP {scenarios.ef_ip_bytes(int(ds.ef_frame_bytes))} bytes) at {float(ds.ef_rate):g} kbit/s"),
        claim(art, "ef_service_rate", float(ds.ef_service_rate), "kbit/s",
              "'bandwidth=300Kbps' read as the EF service rate: WFQ weight (BE: the remaining "
              f"{float(ds.be_weight):g} kbit/s) or PQ policing rate; EF loss "
              + ", ".join(f"{s.upper()} {float(ds['loss'].sel(scheduler=s).max()):.3f}" for s in scheds)),
        claim(art, "ef_queue_limit", float(ds.ef_queue_limit), "packets",
              f"EF queue limit; mean EF-queue wait, {first_q.upper()}: "
              f"{float(ds['ef_wait'].sel(scheduler=first_q).mean()):.3f} ms"),
    ]
    for s in scheds:
        rows.append(claim(art, f"slope_{s}", float(ds.slope.sel(scheduler=s)), "ms/particle",
                          f"least-squares slope of the mean delay vs tx-ring-limit, {s.upper()}, R^2 "
                          f"{float(ds.r2.sel(scheduler=s)):.4f}"))
    return rows


# --------------------------------------------------------------------------- tftant_slides_star


def star_one_be_tag(ef_ip_bytes, be_ip_bytes: int = scenarios.TFTANT_BE_IP_BYTES, line_rate_bps: float = 2e6,
                    ef_rate_bps: float = scenarios.TFTANT_EF_RATE_BPS):
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

    STAR = EF service rate / EF arrival rate; the EF WFQ weight is ``STAR x 300 kbit/s``
    and the BE weight the remaining bandwidth (:func:`pqlab.scenarios.tftant_star`).
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
        Dims ``ef_frame_bytes``, ``star``, ``seed``: ``delay``, ``ipdv``, ``ipdv_max`` (ms),
        ``loss``; ``pq_delay``, ``pq_ipdv`` on ``(ef_frame_bytes, seed)``; means/CIs;
        ``star_one_be_tag`` per frame; ``ef_ip_rate`` (kbit/s) per frame.
    """
    n = check_n_ef_samples(n_ef_samples, 10, 100_000_000)
    seeds = check_seeds(seeds)
    stars = sorted(check_values("stars", stars, 0.0))
    frames = sorted(_check_frames("frame_sizes", frame_sizes))
    raw = experiments.sweep(functools.partial(scenarios.tftant_star, n_ef_samples=n),
                            {"ef_frame_bytes": frames, "star": stars}, seeds, measure=_measure)
    pq = experiments.sweep(functools.partial(scenarios.pq_vs_wfq, scheduler="pq", n_ef_samples=n),
                           {"ef_frame_bytes": frames}, seeds, measure=_measure)
    node = scenarios.tftant_node("wfq")
    dims = ("ef_frame_bytes", "star", "seed")
    ds = xr.Dataset(
        {
            "delay": _per_seed(raw, "delay_mean_s", MS, "ms", "mean EF one-way delay, WFQ", dims),
            "ipdv": _per_seed(raw, "ipdv_abs_mean_s", MS, "ms", "mean |IPDV|, WFQ", dims),
            "ipdv_max": _per_seed(raw, "ipdv_abs_max_s", MS, "ms", "largest |IPDV|, WFQ", dims),
            "loss": _per_seed(raw, "loss_ratio", 1.0, "1", "EF loss ratio, WFQ", dims),
            "pq_delay": _per_seed(pq, "delay_mean_s", MS, "ms", "mean EF one-way delay, PQ",
                                  ("ef_frame_bytes", "seed")),
            "pq_ipdv": _per_seed(pq, "ipdv_abs_mean_s", MS, "ms", "mean |IPDV|, PQ", ("ef_frame_bytes", "seed")),
        },
        coords={**_coords_frames(frames, node),
                "star": ("star", stars, {"units": "1", "long_name": "service-to-arrival ratio (STAR)"}),
                "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"})},
    )
    add_mean_ci(ds, ["delay", "ipdv", "pq_delay", "pq_ipdv"])
    ip = ds["ef_ip_bytes"].values
    ds["star_one_be_tag"] = ("ef_frame_bytes", star_one_be_tag(ip, scenarios.TFTANT_BE_IP_BYTES, node.line_rate_bps),
                             {"units": "1", "long_name": "STAR above which an EF tag step < one BE tag step"})
    ds["ef_ip_rate"] = ("ef_frame_bytes", scenarios.TFTANT_EF_RATE_BPS * ip / ds["ef_frame_bytes"].values / 1e3,
                        {"units": "kbit/s", "long_name": "EF rate counted on IP packets"})
    _scalars(ds, _config_scalars(node, scenarios.TFTANT_EF_SERVICE_RATE_BPS))
    be_ip = scenarios.TFTANT_BE_IP_BYTES
    _scalars(ds, {"line_ip_throughput": (node.line_rate_bps * be_ip / (wire_bytes(be_ip, FRAMING_CODES[node.framing]))
                                         / 1e3, "kbit/s", "IP throughput of the line with BE packets (cell tax)")})
    ds.attrs = provenance("tftant_slides_star", "tftant_slides_star: EF one-way delay and IPDV vs STAR under WFQ "
                          "(TF-TANT slides, EF queue service rate)", __name__, seeds, n_ef_samples=n)
    return ds


def tftant_slides_star_claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`tftant_slides_star`: flat for small packets, plateau above 3, WFQ -> PQ, IPDV."""
    art = "tftant_slides_star"
    check_artefact(ds, art)
    stars = ds["star"].values
    frames = ds["ef_frame_bytes"].values
    be_tx = float(ds.be_tx_time)
    d, pq = ds["delay_mean"], ds["pq_delay_mean"]
    tol = EQUIVALENT_BE_TX * be_tx
    rows = [claim(art, "star_min", float(stars.min()), "1", f"{stars.size} STAR values"),
            claim(art, "star_max", float(stars.max()), "1", f"{stars.size} STAR values")]
    star1 = float(stars.min())
    loss1 = ds["loss"].sel(star=star1).max("seed")
    share = star1 * float(ds.ef_rate) / float(ds.line_rate)
    overload = (f"at STAR = {star1:g} the EF weight ({star1 * float(ds.ef_rate):g} kbit/s) gets "
                f"{share:.0%} of the IP bytes sent, {share * float(ds.line_ip_throughput):.0f} kbit/s of a "
                f"{float(ds.line_ip_throughput):.0f} kbit/s line (ATM cell tax), below the EF IP rates "
                f"{_list(frames, ds['ef_ip_rate'].values, '{:.0f}')} kbit/s: EF loss "
                f"{_list(frames, loss1.values, '{:.3f}')}")

    def flat_from(frame) -> float:
        row = d.sel(ef_frame_bytes=frame).values
        for i in range(row.size):
            if np.ptp(row[i:]) <= tol:
                return float(stars[i])
        return math.nan

    small = [f for f in frames if f <= SMALL_FRAME_BYTES]
    spans = [float(np.ptp(d.sel(ef_frame_bytes=f).values)) for f in small]
    rows.append(claim(
        art, "delay_flat_small_packets", None, "-",
        f"range of the mean delay over STAR {star1:g}..{float(stars.max()):g} for frames <= {SMALL_FRAME_BYTES}: "
        f"{_list(small, spans)} ms; flat (within half a BE tx) from STAR "
        f"{_list(small, [flat_from(f) for f in small], '{:g}')}; {overload}",
        shape_ok=bool(small) and all(s <= tol for s in spans)))
    above = stars > PAPER_STAR_PLATEAU
    drops = []
    for f in frames:
        at3 = float(d.sel(ef_frame_bytes=f).interp(star=PAPER_STAR_PLATEAU))
        drops.append(at3 - float(d.sel(ef_frame_bytes=f).values[above].min()) if above.any() else math.nan)
    rows.append(claim(
        art, "no_decrease_above_3", None, "-",
        f"decrease of the mean delay beyond STAR {PAPER_STAR_PLATEAU:g}: {_list(frames, drops)} ms; with the BE "
        f"weight = the remaining bandwidth an EF tag step falls below one BE tag step at STAR "
        f"{_list(frames, ds['star_one_be_tag'].values)}, where the delay stops falling "
        f"(flat from STAR {_list(frames, [flat_from(f) for f in frames], '{:g}')})",
        shape_ok=bool(above.any()) and all(x <= tol for x in drops)))
    top = float(stars.max())
    conv = [float(d.sel(ef_frame_bytes=f, star=top) - pq.sel(ef_frame_bytes=f)) for f in frames]
    rows.append(claim(
        art, "wfq_converges_to_pq_small_packets", None, "-",
        f"WFQ - PQ at STAR {top:g}: {_list(frames, conv)} ms; at STAR {star1:g}: "
        f"{_list(frames, [float(d.sel(ef_frame_bytes=f, star=star1) - pq.sel(ef_frame_bytes=f)) for f in frames])} ms",
        shape_ok=all(abs(c) <= tol for f, c in zip(frames, conv) if f <= SMALL_FRAME_BYTES)))
    falls = [bool(np.all(np.diff(d.sel(ef_frame_bytes=f).values) <= tol)) for f in frames]
    rows.append(claim(
        art, "wfq_converges_to_pq_higher_star", None, "-",
        f"the page: the mean WFQ delay never rises with STAR (within half a BE tx) at "
        f"{sum(falls)} of {len(frames)} frame sizes and first equals PQ's (within half a BE tx) at STAR "
        + _list(frames, [next((float(s) for s in stars if abs(float(d.sel(ef_frame_bytes=f, star=s))
                                                                  - float(pq.sel(ef_frame_bytes=f))) <= tol),
                              math.nan) for f in frames], "{:g}"),
        shape_ok=all(falls) and all(abs(c) <= tol for c in conv)))
    ipdv_frame = 1024 if 1024 in frames else int(frames[-1])
    ip = ds["ipdv_mean"].sel(ef_frame_bytes=ipdv_frame)
    rng = float(np.ptp(ip.values))
    rest = ip.sel(star=stars[1:]) if stars.size > 1 else ip
    rows.append(claim(
        art, "ipdv_independent_of_star", None, "-",
        f"mean |IPDV| at {ipdv_frame} bytes over STAR: {float(ip.min()):.3f}..{float(ip.max()):.3f} ms (range "
        f"{rng:.3f} ms; above STAR {star1:g}, where the EF queue is not overloaded: "
        f"{float(np.ptp(rest.values)):.3f} ms); "
        f"PQ {float(ds['pq_ipdv_mean'].sel(ef_frame_bytes=ipdv_frame)):.3f} ms",
        shape_ok=rng <= 0.05 * float(ip.mean())))
    mx = ds["ipdv_max"].sel(ef_frame_bytes=ipdv_frame).max("seed") / be_tx
    rows.append(claim(
        art, "max_ipdv_one_be_tx", float(mx.max()), BE_TX,
        f"largest |IPDV| at {ipdv_frame} bytes over STAR and seeds, in BE tx times ({be_tx:.3f} ms): "
        f"{_list(stars, mx.values, '{:.2f}')} (STAR {star1:g}: EF queue overloaded)",
        shape_ok=bool(0.5 < float(mx.max()) <= 1.0 + 1e-9)))
    for f in frames:
        rows.append(claim(art, f"flat_from_star_{int(f)}", flat_from(f), "1",
                          f"smallest STAR from which the mean delay at {int(f)} bytes stays within half a BE tx "
                          f"time; EF tag step < BE tag step from STAR {_at(ds['star_one_be_tag'], f):.2f}; EF loss "
                          f"at STAR {star1:g}: {_at(loss1, f):.3f}"))
    return rows


# --------------------------------------------------------------------------- tftant_slides_no_be


@cache.artefact()
def tftant_slides_no_be(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    ef_frame_bytes: int = 1024,
    scheduler: str = "pq",
    ef_service_rate_bps: float = scenarios.TFTANT_EF_RATE_BPS,
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
        ``delay`` (ms) and ``time`` (s) on ``(traffic, seed, ef_packet)`` with ``traffic`` in
        ("with BE", "without BE"); per run ``delay_mean``, ``delay_std``, ``delay_min``,
        ``delay_max`` (ms); scalar ``uncongested_delay`` (ms).
    """
    n = check_n_ef_samples(n_ef_samples, 10, 10_000_000)
    seeds = check_seeds(seeds)
    frame = _check_frames("ef_frame_bytes", [ef_frame_bytes])[0]
    sched = check_choice("scheduler", scheduler, scenarios.TFTANT_SCHEDULERS)
    rate = check_real("ef_service_rate_bps", ef_service_rate_bps, 0.0, strict_minimum=True)
    traffic = ["with BE", "without BE"]
    delay = np.full((2, len(seeds), n), np.nan)
    time = np.full((2, len(seeds), n), np.nan)
    sc = None
    for i, with_be in enumerate((True, False)):
        for j, seed in enumerate(seeds):
            sc = scenarios.pq_vs_wfq(scheduler=sched, ef_frame_bytes=frame, ef_service_rate_bps=rate,
                                     with_be=with_be, n_ef_samples=n)
            ds = simulate(sc, seed=seed)
            d = experiments.reference_delay(ds, sc).values[:n]
            delay[i, j, :d.size] = d * MS
            time[i, j, :d.size] = experiments.measurement_window(ds, sc)["arrival"].values[:d.size] - sc.warmup_s
    ip = scenarios.ef_ip_bytes(frame)
    uncongested = (line_time_s(ip, sc.node.framing, sc.node.line_rate_bps) + sc.path.extra_delay_s(ip)) * MS
    dims = ("traffic", "seed", "ef_packet")
    out = xr.Dataset(
        {
            "delay": (dims, delay, {"units": "ms", "long_name": "EF one-way delay"}),
            "time": (dims, time, {"units": "s", "long_name": "EF arrival time after the warm-up"}),
        },
        coords={"traffic": ("traffic", traffic, {"long_name": "best-effort traffic"}),
                "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"}),
                "ef_packet": ("ef_packet", np.arange(n), {"units": "1", "long_name": "EF packet after the warm-up"})},
    )
    for name, fn, long_name in (("delay_mean", "mean", "mean EF one-way delay"),
                                ("delay_std", "std", "std of the EF one-way delay"),
                                ("delay_min", "min", "smallest EF one-way delay"),
                                ("delay_max", "max", "largest EF one-way delay")):
        out[name] = getattr(out["delay"], fn)("ef_packet")
        out[name].attrs = {"units": "ms", "long_name": long_name}
    node = scenarios.tftant_node(sched, ef_service_rate_bps=rate)
    _scalars(out, _config_scalars(node, rate))
    _scalars(out, {"uncongested_delay": (uncongested, "ms", "EF line time + path, no other traffic"),
                   "ef_frame_bytes": (frame, "bytes", "EF frame size")})
    out.attrs = provenance("tftant_slides_no_be", "tftant_slides_no_be: EF one-way delay over time with and "
                           "without BE traffic (TF-TANT slides)", __name__, seeds, n_ef_samples=n, scheduler=sched)
    return out


def tftant_slides_no_be_claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`tftant_slides_no_be`: what BE traffic adds to the EF delay."""
    art = "tftant_slides_no_be"
    check_artefact(ds, art)
    be_tx = float(ds.be_tx_time)
    w, wo = (ds.sel(traffic=t) for t in ("with BE", "without BE"))
    mean_w, mean_wo = float(w["delay_mean"].mean()), float(wo["delay_mean"].mean())
    sched = ds.attrs.get("scheduler", "pq").upper()
    rows = [
        claim(art, "with_and_without_be", None, "-",
              f"{sched}, {int(ds.ef_frame_bytes)}-byte frames: without BE every EF packet takes "
              f"{float(wo['delay_min'].min()):.3f}..{float(wo['delay_max'].max()):.3f} ms (own line time + path "
              f"{float(ds.uncongested_delay):.3f} ms, std {float(wo['delay_std'].max()):.2g} ms); with BE "
              f"{float(w['delay_min'].min()):.2f}..{float(w['delay_max'].max()):.2f} ms, mean {mean_w:.2f} ms: BE "
              f"adds {mean_w - mean_wo:.2f} ms = {(mean_w - mean_wo) / be_tx:.2f} BE tx times (the ring's BE packets)",
              shape_ok=float(w["delay_min"].min()) > float(wo["delay_max"].max())),
        claim(art, "mean_delay_with_be", mean_w, "ms", f"{sched}, mean over seeds"),
        claim(art, "mean_delay_without_be", mean_wo, "ms",
              f"{sched}: = EF line time + path {float(ds.uncongested_delay):.3f} ms"),
    ]
    return rows
