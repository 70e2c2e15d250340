"""TF-TANT: priority queueing vs weighted fair queueing for EF, and the slides' tx-ring, STAR and no-BE tests.

Sources (full references in ``docs/references.md``): the TF-TANT test page "Priority Queuing and
Weighted Fair Queuing for the support of EF traffic" (Dec. 1999,
``tftant-test-pq-vs-wfq.txt``) and the slides "Delay and Delay Variation
Measurements in a Differentiated Services Test Network" (T. Ferrari,
``tftant-slides-delay-and-ipdv.txt``). One compute function per artefact id,
each returning an ``xarray.Dataset`` (no plotting, no I/O); the claims,
``<id>_claims(data)``, are in :mod:`pqlab.papers.artefacts.claims.tftant_wfq`. Figures of
the same names are in :mod:`pqlab.papers.figures.tftant_wfq`; notebooks
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

Every Dataset is in SI units: times in seconds, rates in bit/s, sizes in bytes (each
variable's ``units`` attr says which); multiples of the BE transmission time in "BE tx
times". The claims state delays in the sources' milliseconds: they convert the per-seed
values first (:func:`pqlab.base.units.times_in_ms`) and compute the statistics again with
the function of :data:`STATISTICS` that made them here; figures draw milliseconds.
"""

from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np
import xarray as xr

from ...measure import analysis, cache, experiments, metrics
from .. import scenarios
from ...base._validate import check_choice, check_int, check_real
from ...node.framing import FRAMING_CODES, atm_cells, line_time_s, particles_needed, wire_bytes
from ...node.model import Node
from ...base.numerics import line_fit
from ..stated import PAPERS
from ...node.scenario import Scenario, simulate
from ...base.units import ms_to_s
from ._common import (
    add_mean_ci,
    check_n_ef_samples,
    check_seeds,
    check_values,
    forward_claims,
    paper_value,
    provenance,
    renamed_keyword,
)

__all__ = [
    "tftant_wfq_fig1",
    "tftant_wfq_fig2_4",
    "tftant_wfq_fig5",
    "tftant_wfq_fig6_7",
    "tftant_slides_ring",
    "tftant_slides_star",
    "tftant_slides_no_be",
    "be_tx_time_s",
    "wfq_tag_s",
    "be_tag_steps",
    "STATISTICS",
]

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
#: Largest autocorrelation lag of the sweep measure, EF packets (its first peak is the IPDV period).
ACF_MAX_LAG = 60
#: Figures 2-4 and 6-7 (and the slides' IPDV figure) plot these EF frame sizes.
SERIES_FRAME_SIZES = (128, 1024, 1518)
#: tx-ring-limit values of the slides' ring test, particles.
RING_LIMIT_PARTICLES = tuple(range(1, 17))
#: STAR values of the slides' service-rate test, in their range [1, 5].
STARS = tuple(float(s) for s in np.arange(1.0, 5.01, 0.5))
#: EF frame sizes of the STAR test, bytes.
STAR_FRAME_SIZES = (128, 256, 512, 1024, 1518)
#: The slides' STAR statement: no further decrease of the delay above this STAR.
PAPER_STAR_PLATEAU = 3.0


# --------------------------------------------------------------------------- helpers


def be_tx_time_s(node: Node | None = None, be_ip_bytes: int = scenarios.TFTANT_BE_IP_BYTES) -> float:
    """Line time of one BE packet on the node's line, seconds (4.664 ms: 1000 bytes in 22 ATM cells)."""
    node = scenarios.tftant_node() if node is None else node
    return float(line_time_s(check_int("be_ip_bytes", be_ip_bytes, 1, 65_535), node.framing, node.line_rate_bps))


def wfq_tag_s(size_bytes, weight_bps) -> float:
    """Finish-tag increment of a packet in a WFQ queue, seconds: ``size * 8 / weight``.

    The node contract's self-clocked fair queueing, ``F = max(V, F_last) + size*8/weight``:
    a packet's tag is this far above the virtual time when its queue was empty.
    """
    return float(size_bytes) * 8.0 / float(weight_bps)


def be_tag_steps(ef_ip_bytes, ef_weight_bps, be_ip_bytes, be_weight_bps) -> float:
    """How many BE tag steps one EF finish tag spans: :func:`wfq_tag_s` of EF / of BE.

    Under WFQ an EF packet goes after the queued BE packets whose tags are smaller
    than its own: about this many (ties go to the EF queue, index 0).
    """
    return wfq_tag_s(ef_ip_bytes, ef_weight_bps) / wfq_tag_s(be_ip_bytes, be_weight_bps)


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


def _measure(ds: xr.Dataset, scenario: Scenario) -> dict:
    """Sweep measure: :func:`pqlab.experiments.delay_statistics` of the window, plus EF-queue wait, IPDV peaks
    and periodicity (:func:`pqlab.measure.analysis.acf_first_peak`), from one pass over the measurement window.

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
    lag, peak = analysis.acf_first_peak(kept, ACF_MAX_LAG)
    nan = math.nan
    return {
        **experiments.delay_statistics(delay, ipdv),
        "ef_wait_mean_s": float(wait.mean()) if wait.size else nan,
        "ipdv_abs_max_s": float(a.max()) if a.size else nan,
        "ipdv_peak_frequency": float((a >= PEAK_FRACTION * be_tx).mean()) if a.size else nan,
        "acf_peak_lag": float(lag),
        "acf_peak": peak,
    }


_measure.attrs = {
    **experiments.DELAY_STATISTICS_ATTRS,
    "ef_wait_mean_s": {"units": "s", "long_name": "mean wait of an EF packet before the ring (EF queue)"},
    "ipdv_abs_max_s": {"units": "s", "long_name": "largest |IPDV|"},
    "ipdv_peak_frequency": {"units": "1", "long_name": f"share of |IPDV| >= {PEAK_FRACTION} BE tx time"},
    "acf_peak_lag": {"units": "1", "long_name": "lag of the first ACF peak of the delay series, EF packets"},
    "acf_peak": {"units": "1", "long_name": "value of that ACF peak"},
}


def _check_frames(name: str, frames) -> list[int]:
    out = check_values(name, frames, 19, integer=True)
    for f in out:
        scenarios.ef_ip_bytes(f)  # frame - 18 must be a valid IP length
    return out


def _coords_frames(frames, node: Node) -> dict:
    ip = np.array([scenarios.ef_ip_bytes(f) for f in frames])
    return {
        "ef_frame_bytes": ("ef_frame_bytes", np.array(frames), {"units": "bytes", "long_name": "EF frame size"}),
        "ef_ip_bytes": ("ef_frame_bytes", ip, {"units": "bytes", "long_name": "EF IP length (frame - 18)"}),
        "ef_particles": ("ef_frame_bytes", np.array([particles_needed(int(i), node.particle_bytes) for i in ip]),
                         {"units": "1", "long_name": "ring particles per EF packet"}),
        "ef_cells": ("ef_frame_bytes", atm_cells(ip),
                     {"units": "1", "long_name": "ATM cells per EF packet"}),
    }


def _config_scalars(node: Node, ef_service_rate_bps: float) -> dict:
    """The test conditions as scalar variables (name -> (value, units, long_name)), SI units."""
    be_ip = scenarios.TFTANT_BE_IP_BYTES
    ef_q, be_q = node.queues[scenarios.EF_QUEUE], node.queues[scenarios.BE_QUEUE]
    return {
        "be_tx_time": (be_tx_time_s(node), "s", f"line time of one {be_ip}-byte BE packet (ATM AAL5)"),
        "be_ip_bytes": (be_ip, "bytes", "BE IP length"),
        "be_rate": (scenarios.TFTANT_BE_RATE_BPS, "bit/s", "BE rate (IP packets)"),
        "be_packet_rate": (scenarios.TFTANT_BE_RATE_BPS / (8 * be_ip), "packets/s", "BE packet rate"),
        "ef_rate": (scenarios.TFTANT_EF_RATE_BPS, "bit/s", "EF rate (frames)"),
        "ef_service_rate": (ef_service_rate_bps, "bit/s", "EF service rate (WFQ weight, PQ policing rate)"),
        "be_weight": (be_q.weight_bps, "bit/s", "WFQ weight of the BE queue under WFQ"),
        "ef_queue_limit": (ef_q.limit_packets, "packets", "EF queue limit"),
        "be_queue_limit": (be_q.limit_packets, "packets", "BE queue limit (not stated by the source)"),
        "ring_limit_particles": (node.ring_limit_particles, "particles", "tx-ring-limit"),
        "particle_bytes": (node.particle_bytes, "bytes", "ring particle size"),
        "line_rate": (node.line_rate_bps, "bit/s", "ATM PVC rate (whole 53-byte cells)"),
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
    """Delay, IPDV, EF-queue wait and arrival time (s) of every measured EF packet: PQ and WFQ per frame and seed."""
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
                out["delay"][i, j, k, :m] = d
                out["ipdv"][i, j, k, 1:m] = np.diff(d)  # RFC 3393, consecutive packets (none lost here)
                out["wait"][i, j, k, :m] = (win["ring_entry"].values - win["arrival"].values)[:m]
                out["time"][i, j, k, :m] = win["arrival"].values[:m] - sc.warmup_s
    return out


def _per_seed(raw: xr.Dataset, name: str, unit: str, long_name: str, dims) -> tuple:
    """A measure of the sweep ``raw`` as a Dataset variable on ``dims`` (the sweep's SI unit, stated in ``unit``)."""
    return (dims, raw[name].transpose(*dims).values, {"units": unit, "long_name": long_name})


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
        ``delay_min``, ``delay_max``, ``ef_wait`` (s), ``loss``; ``delay_mean``/``delay_ci``
        over seeds; ``gap`` (per seed), ``gap_mean``, ``gap_ci`` (s), ``gap_be_tx`` (BE tx
        times); the reading check ``gap_reading_1600k`` and ``gap_reading_2000k`` (s, on
        ``check_frame``); the test conditions as scalars (``be_tx_time`` in s, rates in bit/s);
        the page's values ``paper_max_gain`` (s), ``paper_gap_1024``, ``paper_gap_1518`` (BE tx
        times).
    """
    n, seeds, frames, rate, node, raw = _checked_size_sweep(n_ef_samples, seeds, frame_sizes, ef_service_rate_bps)
    dims = ("scheduler", "ef_frame_bytes", "seed")
    ds = xr.Dataset(
        {
            "delay": _per_seed(raw, "delay_mean_s", "s", "mean EF one-way delay of one run", dims),
            "delay_min": _per_seed(raw, "delay_min_s", "s", "smallest EF one-way delay of one run", dims),
            "delay_max": _per_seed(raw, "delay_max_s", "s", "largest EF one-way delay of one run", dims),
            "ef_wait": _per_seed(raw, "ef_wait_mean_s", "s", "mean EF wait in the EF queue", dims),
            "loss": _per_seed(raw, "loss_ratio", "1", "EF loss ratio", dims),
        },
        coords={"scheduler": ("scheduler", list(scenarios.TFTANT_SCHEDULERS), {"long_name": "EF scheduler"}),
                **_coords_frames(frames, node),
                "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"})},
    )

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
            reading[r, j] = d[1] - d[0]
    ds["gap_reading_1600k"] = ("check_frame", reading[0],
                               {"units": "s", "long_name": "gain of PQ, BE 200 packets/s x 1000 bytes (1.6 Mbit/s)"})
    ds["gap_reading_2000k"] = ("check_frame", reading[1],
                               {"units": "s", "long_name": "gain of PQ, BE 2.0 Mbit/s of 1000 bytes (ours)"})
    ds = ds.assign_coords(check_frame=("check_frame", check_frames, {"units": "bytes", "long_name": "EF frame size"}))
    _scalars(ds, _config_scalars(node, rate))
    _scalars(ds, {
        "paper_max_gain": (ms_to_s(paper_value("tftant_wfq_fig1", "max_gain_mtu")[0]), "s",
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
    return fig1_statistics(ds)


def fig1_statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`tftant_wfq_fig1`'s statistics to its per-seed ``delay`` (in place; returned).

    ``delay_mean``/``delay_ci`` over seeds, the gain of PQ ``gap = delay(WFQ) - delay(PQ)``
    per seed with ``gap_mean``/``gap_ci``, and ``gap_be_tx = gap_mean / be_tx_time``, in
    the time unit of ``delay`` and ``be_tx_time`` (s; the claims' ms through
    :func:`pqlab.papers.artefacts._common.statistics_in_ms`).
    """
    unit = ds["delay"].attrs["units"]
    add_mean_ci(ds, ["delay"])
    ds["gap"] = ds["delay"].sel(scheduler="wfq", drop=True) - ds["delay"].sel(scheduler="pq", drop=True)
    ds["gap"].attrs = {"units": unit, "long_name": "gain of PQ: delay(WFQ) - delay(PQ)"}
    add_mean_ci(ds, ["gap"])
    ds["gap_be_tx"] = ds["gap_mean"] / float(ds.be_tx_time)
    ds["gap_be_tx"].attrs = {"units": BE_TX, "long_name": "gain of PQ in BE transmission times"}
    return ds


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
        Dims ``scheduler``, ``ef_frame_bytes``, ``seed``: ``ipdv`` (mean |IPDV|, s),
        ``ipdv_max`` (s), ``ipdv_peak_frequency`` (share of |IPDV| >= half a BE tx time);
        ``ipdv_mean``/``ipdv_ci`` over seeds; ``ipdv_max_be_tx`` (BE tx times); per frame the
        slip ``beat_slip`` (s, :func:`beat_slip_s`) and the sawtooth's ``ipdv_beat_mean`` (s)
        and ``ipdv_beat_max_be_tx``; scalars as :func:`tftant_wfq_fig1`.
    """
    n, seeds, frames, rate, node, raw = _checked_size_sweep(n_ef_samples, seeds, frame_sizes, ef_service_rate_bps)
    dims = ("scheduler", "ef_frame_bytes", "seed")
    ds = xr.Dataset(
        {
            "ipdv": _per_seed(raw, "ipdv_abs_mean_s", "s", "mean |IPDV| of consecutive EF packets", dims),
            "ipdv_max": _per_seed(raw, "ipdv_abs_max_s", "s", "largest |IPDV| of one run", dims),
            "ipdv_peak_frequency": _per_seed(raw, "ipdv_peak_frequency", "1",
                                             f"share of |IPDV| >= {PEAK_FRACTION} BE tx time", dims),
            "beat_slip": ("ef_frame_bytes", beat_slip_s(frames, node),
                          {"units": "s", "long_name": "s = (T_EF - t_EF) mod t_BE"}),
        },
        coords={"scheduler": ("scheduler", list(scenarios.TFTANT_SCHEDULERS), {"long_name": "EF scheduler"}),
                **_coords_frames(frames, node),
                "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"})},
    )
    _scalars(ds, _config_scalars(node, rate))
    ds.attrs = provenance("tftant_wfq_fig5",
                          "tftant_wfq_fig5: mean IPDV with PQ and WFQ vs EF frame size "
                          "(TF-TANT PQ vs WFQ page, Fig. 5)",
                          __name__, seeds, n_ef_samples=n)
    return fig5_statistics(ds)


def _beat_max_be_tx(slip: xr.DataArray, be_tx: float) -> xr.DataArray:
    """The sawtooth's largest |IPDV| in BE tx times, ``max(s, t_BE - s) / t_BE`` (``slip`` in the unit of ``be_tx``)."""
    out = np.maximum(slip, be_tx - slip) / be_tx
    out.attrs = {"units": BE_TX, "long_name": "sawtooth prediction of the largest |IPDV|"}
    return out


def fig5_statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`tftant_wfq_fig5`'s statistics to its per-seed ``ipdv``, ``ipdv_max`` and ``beat_slip``.

    ``ipdv_mean``/``ipdv_ci`` over seeds, ``ipdv_max_be_tx``, and the sawtooth of the slip
    ``s``: ``ipdv_beat_mean = 2 s (t_BE - s) / t_BE`` and ``ipdv_beat_max_be_tx`` (see
    :func:`beat_slip_s`), in the time unit of the Dataset (as :func:`fig1_statistics`).
    """
    add_mean_ci(ds, ["ipdv"])
    be_tx = float(ds.be_tx_time)
    ds["ipdv_max_be_tx"] = ds["ipdv_max"].max("seed") / be_tx
    ds["ipdv_max_be_tx"].attrs = {"units": BE_TX, "long_name": "largest |IPDV| over seeds in BE tx times"}
    slip = ds["beat_slip"]
    ds["ipdv_beat_mean"] = 2 * slip * (be_tx - slip) / be_tx
    ds["ipdv_beat_mean"].attrs = {"units": slip.attrs["units"], "long_name": "sawtooth prediction of the mean |IPDV|"}
    ds["ipdv_beat_max_be_tx"] = _beat_max_be_tx(slip, be_tx)
    return ds


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
            "delay": (dims, s["delay"], {"units": "s", "long_name": "EF one-way delay"}),
            "ipdv": (dims, s["ipdv"], {"units": "s", "long_name": "IPDV of consecutive EF packets"}),
            "ef_wait": (dims, s["wait"], {"units": "s", "long_name": "EF wait in the EF queue"}),
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
    arrival time and EF-queue wait; per run the mean, min, max and spread (s and BE
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
        ``delay``, ``ef_wait`` (s) and ``ipdv`` (s) on ``(scheduler, ef_frame_bytes, seed, ef_packet)``,
        ``time`` (s); per run ``delay_mean``, ``delay_min``, ``delay_max``, ``delay_span`` (s),
        ``delay_span_be_tx``; per frame and seed ``corr``, ``shift`` (s), ``shift_std`` (s),
        ``wait_share`` (1).
    """
    ds = _series_dataset("tftant_wfq_fig2_4", "tftant_wfq_fig2_4: EF one-way delay over time with WFQ and PQ "
                         "(TF-TANT PQ vs WFQ page, Figs. 2-4)", n_ef_samples, seeds, frame_sizes, ef_service_rate_bps)
    return fig2_4_statistics(ds)


#: A mean WFQ - PQ difference below this many BE tx times is none: no share of it is taken.
NO_SHIFT_BE_TX = 1e-9


def fig2_4_statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`tftant_wfq_fig2_4`'s statistics to its per-packet ``delay`` and ``ef_wait``.

    Per run the mean, min, max and span of the delay (and the span in BE tx times); per
    frame and seed the correlation of the PQ and WFQ series, the mean and std of their
    difference (``shift``, ``shift_std``) and the share of it spent in the EF queue; in the
    time unit of the Dataset (as :func:`fig1_statistics`).
    """
    d = ds["delay"]
    unit = d.attrs["units"]
    be_tx = float(ds.be_tx_time)
    for name, da, long_name in (("delay_mean", d.mean("ef_packet"), "mean EF one-way delay"),
                                ("delay_min", d.min("ef_packet"), "smallest EF one-way delay"),
                                ("delay_max", d.max("ef_packet"), "largest EF one-way delay")):
        ds[name] = da
        ds[name].attrs = {"units": unit, "long_name": long_name}
    ds["delay_span"] = ds["delay_max"] - ds["delay_min"]
    ds["delay_span"].attrs = {"units": unit, "long_name": "max - min EF one-way delay"}
    ds["delay_span_be_tx"] = ds["delay_span"] / be_tx
    ds["delay_span_be_tx"].attrs = {"units": BE_TX, "long_name": "max - min EF one-way delay in BE tx times"}
    pq, wfq = d.sel(scheduler="pq", drop=True), d.sel(scheduler="wfq", drop=True)
    ds["corr"] = xr.corr(pq, wfq, dim="ef_packet")
    ds["corr"].attrs = {"units": "1", "long_name": "correlation of the PQ and WFQ delay series"}
    diff = wfq - pq
    ds["shift"] = diff.mean("ef_packet")
    ds["shift"].attrs = {"units": unit, "long_name": "mean of delay(WFQ) - delay(PQ), packet by packet"}
    ds["shift_std"] = diff.std("ef_packet")
    ds["shift_std"].attrs = {"units": unit, "long_name": "std of delay(WFQ) - delay(PQ), packet by packet"}
    w = ds["ef_wait"]
    wait_diff = (w.sel(scheduler="wfq", drop=True) - w.sel(scheduler="pq", drop=True)).mean("ef_packet")
    ds["wait_share"] = xr.where(np.abs(ds["shift"]) > NO_SHIFT_BE_TX * be_tx, wait_diff / ds["shift"], np.nan)
    ds["wait_share"].attrs = {"units": "1", "long_name": "share of the WFQ - PQ difference spent in the EF queue"}
    return ds


@cache.artefact()
def tftant_wfq_fig6_7(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    frame_sizes=SERIES_FRAME_SIZES,
    ef_service_rate_bps: float = scenarios.TFTANT_EF_SERVICE_RATE_BPS,
    peak_fraction: float = PEAK_FRACTION,
) -> xr.Dataset:
    """TF-TANT PQ-vs-WFQ page, Figs. 6-7 (128, 1024 bytes), and the slides' 1518: IPDV over time, WFQ and PQ.

    The runs of :func:`tftant_wfq_fig2_4`. Per run: the largest |IPDV| (s and BE tx
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
        ``ipdv`` (s) on ``(scheduler, ef_frame_bytes, seed, ef_packet)`` and ``time`` (s);
        per run ``ipdv_abs_mean``, ``ipdv_abs_max`` (s), ``ipdv_max_be_tx``, ``peak_frequency``;
        per frame the slip ``beat_slip`` (s) and ``ipdv_beat_max_be_tx``.
    """
    frac = check_real("peak_fraction", peak_fraction, 0.0, 2.0, strict_minimum=True)
    ds = _series_dataset("tftant_wfq_fig6_7", "tftant_wfq_fig6_7: IPDV over time with WFQ and PQ "
                         "(TF-TANT PQ vs WFQ page, Figs. 6-7; slides, WFQ vs PQ: ipdv)",
                         n_ef_samples, seeds, frame_sizes, ef_service_rate_bps)
    ds = ds.drop_vars(["delay", "ef_wait"])
    ds["beat_slip"] = ("ef_frame_bytes", beat_slip_s(ds["ef_frame_bytes"].values),
                       {"units": "s", "long_name": "s = (T_EF - t_EF) mod t_BE"})
    ds.attrs["peak_fraction"] = frac
    return fig6_7_statistics(ds)


def fig6_7_statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`tftant_wfq_fig6_7`'s statistics to its per-packet ``ipdv`` and ``beat_slip``.

    Per run the mean and largest |IPDV|, the largest in BE tx times and the share of
    |IPDV| >= ``attrs["peak_fraction"]`` BE tx time; the sawtooth's largest |IPDV|; in the
    time unit of the Dataset (as :func:`fig1_statistics`).
    """
    a = np.abs(ds["ipdv"])
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
    ds["ipdv_beat_max_be_tx"] = _beat_max_be_tx(ds["beat_slip"], be_tx)
    return ds


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
    ef_service_rate_bps: float = scenarios.TFTANT_EF_RATE_BPS,
    schedulers=scenarios.TFTANT_SCHEDULERS,
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
    make = functools.partial(scenarios.pq_vs_wfq, ef_frame_bytes=frame, ef_service_rate_bps=rate, n_ef_samples=n)
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
    node = scenarios.tftant_node("wfq", ef_service_rate_bps=rate)
    conditions = _config_scalars(node, rate)
    del conditions["ring_limit_particles"]  # swept here: the dimension of that name
    _scalars(ds, conditions)
    be_particles = particles_needed(scenarios.TFTANT_BE_IP_BYTES, node.particle_bytes)
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
        check_choice("schedulers", s, scenarios.TFTANT_SCHEDULERS)
    return out


# --------------------------------------------------------------------------- tftant_slides_star


def star_one_be_tag(ef_ip_bytes, be_ip_bytes: int = scenarios.TFTANT_BE_IP_BYTES,
                    line_rate_bps: float = PAPERS.line_rate_bps,
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
    raw = experiments.sweep(functools.partial(scenarios.tftant_star, n_ef_samples=n),
                            {"ef_frame_bytes": frames, "star": stars}, seeds, measure=_measure)
    wire = experiments.sweep(functools.partial(scenarios.tftant_star, n_ef_samples=n, star=stars[0],
                                               accounting="wire"),
                             {"ef_frame_bytes": frames}, seeds, measure=_measure)
    page64 = scenarios.pq_vs_wfq(scheduler="wfq", ef_frame_bytes=64, n_ef_samples=n)
    page64 = dataclasses.replace(page64, node=dataclasses.replace(page64.node, wfq_bytes="wire"))
    page64_loss = float(np.mean([_measure(simulate(page64, seed=s), page64)["loss_ratio"] for s in seeds]))
    pq = experiments.sweep(functools.partial(scenarios.pq_vs_wfq, scheduler="pq", n_ef_samples=n),
                           {"ef_frame_bytes": frames}, seeds, measure=_measure)
    node = scenarios.tftant_node("wfq")
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
    ds["star_one_be_tag"] = ("ef_frame_bytes", star_one_be_tag(ip, scenarios.TFTANT_BE_IP_BYTES, node.line_rate_bps),
                             {"units": "1", "long_name": "STAR above which an EF tag step < one BE tag step"})
    ds["ef_ip_rate"] = ("ef_frame_bytes", scenarios.TFTANT_EF_RATE_BPS * ip / ds["ef_frame_bytes"].values,
                        {"units": "bit/s", "long_name": "EF rate counted on IP packets"})
    _scalars(ds, _config_scalars(node, scenarios.TFTANT_EF_SERVICE_RATE_BPS))
    be_ip = scenarios.TFTANT_BE_IP_BYTES
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
        ``delay`` (s) and ``time`` (s) on ``(traffic, seed, ef_packet)`` with ``traffic`` in
        ("with BE", "without BE"); per run ``delay_mean``, ``delay_std``, ``delay_min``,
        ``delay_max`` (s); scalar ``uncongested_delay`` (s); the test conditions (SI units).
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
            delay[i, j, :d.size] = d
            time[i, j, :d.size] = experiments.measurement_window(ds, sc)["arrival"].values[:d.size] - sc.warmup_s
    ip = scenarios.ef_ip_bytes(frame)
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
    node = scenarios.tftant_node(sched, ef_service_rate_bps=rate)
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


#: The function that adds each artefact's statistics to its per-seed (per-packet) values,
#: in whatever time unit they hold (the claims: :func:`pqlab.papers.artefacts._common.statistics_in_ms`).
STATISTICS = {
    "tftant_wfq_fig1": fig1_statistics,
    "tftant_wfq_fig2_4": fig2_4_statistics,
    "tftant_wfq_fig5": fig5_statistics,
    "tftant_wfq_fig6_7": fig6_7_statistics,
    "tftant_slides_ring": ring_statistics,
    "tftant_slides_star": star_statistics,
    "tftant_slides_no_be": no_be_statistics,
}


__getattr__ = forward_claims(__name__)  # <artefact id>_claims: pqlab.papers.artefacts.claims.tftant_wfq
