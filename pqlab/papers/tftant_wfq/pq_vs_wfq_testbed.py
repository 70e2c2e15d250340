"""The PQ-vs-WFQ test bed of the TF-TANT page and slides: its mechanism, the measure of one run, the
Dataset parts.

What every artefact on :func:`pqlab.scenarios.pq_vs_wfq` shares (the page's ``tftant_wfq_*``
and the slides' ``tftant_slides_ring``, ``tftant_slides_star``, ``tftant_slides_no_be``): the
BE transmission time (:func:`be_tx_time_s`), the WFQ tags (:func:`wfq_tag_s`,
:func:`be_tag_steps`), the slip of EF against BE (:func:`beat_slip_s`) and its sawtooth
(:func:`beat_max_be_tx`), the measure of one run of a sweep (:func:`measure`), and the
frame coordinates and scalar test conditions of their Datasets.

The test bed: one EF CBR stream (IP = frame - 18, 300 kbit/s of frames) and one CBR BE stream
of 1000-byte IP packets, 2.0 Mbit/s, on the C7200's 2 Mbit/s ATM PVC, a ring of 5 particles
of 512 bytes, EF queue limit 10. Under WFQ the EF queue is a WFQ queue of weight 400 kbit/s
(the "service rate") and the BE queue one of the remaining 1.6 Mbit/s; under PQ 400 kbit/s is
the priority queue's policing rate. The BE queue is always backlogged, so every EF packet
finds a full ring: the unit of every effect is the **BE transmission time**, the line time
of one 1000-byte BE packet (22 ATM cells, 4.664 ms).

Units: times in seconds, rates in bit/s, sizes in bytes; multiples of the BE transmission
time in :data:`BE_TX`.
"""

from __future__ import annotations

import math

import numpy as np
import xarray as xr

from ...base._validate import check_int, check_real
from ...base.units import to_kbps
from ...measure import analysis, experiments, metrics
from ...node.framing import atm_cells, line_time_s, particles_needed
from ...node.model import Node
from ...node.scenario import Scenario
from .. import kit, presets

__all__ = [
    "BE_TX",
    "SOURCE_FRAME_SIZES",
    "EQUIVALENT_BE_TX",
    "PEAK_FRACTION",
    "ACF_MAX_LAG",
    "be_tx_time_s",
    "wfq_tag_s",
    "be_tag_steps",
    "beat_terms_s",
    "beat_slip_s",
    "beat_max_be_tx",
    "measure",
    "check_frames",
    "frame_coords",
    "config_scalars",
    "add_scalars",
    "per_seed",
    "rate_kbps",
]

#: The unit of the multiples of the BE transmission time in claims and paper values.
BE_TX = "BE tx times"
#: Frame sizes the sources name: the page's Figs. 1-7 and the slides.
SOURCE_FRAME_SIZES = (64, 128, 256, 512, 1024, 1518)
#: A WFQ - PQ difference below half a BE transmission time rounds to no extra BE packet:
#: the schedulers count as "equivalent".
EQUIVALENT_BE_TX = 0.5
#: An IPDV of at least this fraction of a BE transmission time counts as a peak.
PEAK_FRACTION = 0.5
#: Largest autocorrelation lag of the sweep measure, EF packets (its first peak is the IPDV period).
ACF_MAX_LAG = 60


# --------------------------------------------------------------------------- the mechanism


def be_tx_time_s(node: Node | None = None, be_ip_bytes: int = presets.TFTANT_BE_IP_BYTES) -> float:
    """Line time of one BE packet on the node's line, seconds (4.664 ms: 1000 bytes in 22 ATM
    cells)."""
    node = presets.tftant_node() if node is None else node
    return float(
        line_time_s(
            check_int("be_ip_bytes", be_ip_bytes, 1, 65_535), node.framing, node.line_rate_bps
        )
    )


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


def beat_terms_s(
    ef_frame_bytes,
    node: Node | None = None,
    ef_rate_bps: float = presets.TFTANT_EF_RATE_BPS,
    be_ip_bytes: int = presets.TFTANT_BE_IP_BYTES,
) -> dict:
    """The terms of the slip of EF against BE (:func:`beat_slip_s`), seconds, per frame size.

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
    dict
        ``interval`` (the EF interval ``T``), ``t_ef`` (the EF packet's line time), ``t_be``
        (one BE transmission time) and ``slip`` (``s = (T - t_EF) mod t_BE``), numpy arrays in s
        (``t_be`` a float).
    """
    node = presets.tftant_node() if node is None else node
    frames = np.atleast_1d(np.asarray(ef_frame_bytes, dtype=np.int64))
    ip = np.array([presets.ef_ip_bytes(int(f)) for f in frames])
    interval = frames * 8.0 / check_real("ef_rate_bps", ef_rate_bps, 0.0, strict_minimum=True)
    t_ef = np.atleast_1d(line_time_s(ip, node.framing, node.line_rate_bps))
    t_be = be_tx_time_s(node, be_ip_bytes)
    return {"interval": interval, "t_ef": t_ef, "t_be": t_be, "slip": np.mod(interval - t_ef, t_be)}


def beat_slip_s(
    ef_frame_bytes,
    node: Node | None = None,
    ef_rate_bps: float = presets.TFTANT_EF_RATE_BPS,
    be_ip_bytes: int = presets.TFTANT_BE_IP_BYTES,
):
    """How far an EF packet's arrival slips against the BE departures from one EF packet to the
    next, seconds.

    With the ring always full of BE packets sent back to back, the line's schedule
    repeats every BE transmission time ``t_BE`` except for the EF packets themselves.
    Between two EF packets the EF interval ``T`` less the EF packet's own line time
    ``t_EF`` is spent on BE packets, so the phase of an arrival in the BE cycle moves by
    ``s = (T - t_EF) mod t_BE`` (:func:`beat_terms_s`). When every EF packet waits behind the
    same number of BE packets (PQ with large EF packets, WFQ once its extra BE packets are fixed)
    the delay is a sawtooth: consecutive delays differ by ``-s`` or ``t_BE - s``, so
    ``max |IPDV| = max(s, t_BE - s)`` and ``mean |IPDV| = 2 s (t_BE - s) / t_BE``.

    Parameters are those of :func:`beat_terms_s`.

    Returns
    -------
    numpy.ndarray
        ``s`` per frame size, seconds.
    """
    return beat_terms_s(ef_frame_bytes, node, ef_rate_bps, be_ip_bytes)["slip"]


def beat_max_be_tx(slip: xr.DataArray, be_tx: float) -> xr.DataArray:
    """The sawtooth's largest |IPDV| in BE tx times, ``max(s, t_BE - s) / t_BE`` (``slip`` in the
    unit of ``be_tx``)."""
    out = np.maximum(slip, be_tx - slip) / be_tx
    out.attrs = {"units": BE_TX, "long_name": "sawtooth prediction of the largest |IPDV|"}
    return out


# --------------------------------------------------------------------------- one run of a sweep


def _be_ip_bytes(scenario: Scenario) -> int:
    """IP length of the scenario's BE packets (the TF-TANT default if it has no BE stream)."""
    for s in scenario.streams:
        if s.queue == presets.BE_QUEUE:
            return int(s.size.mean_bytes + s.header_bytes)
    return presets.TFTANT_BE_IP_BYTES


def measure(ds: xr.Dataset, scenario: Scenario) -> dict:
    """Sweep measure: :func:`pqlab.experiments.delay_statistics` of the window, plus EF-queue wait,
    IPDV peaks
    and periodicity (:func:`pqlab.measure.analysis.acf_first_peak`), from one pass over the
    measurement window.

    The window holds the reference flow in arrival order, so RFC 3393's IPDV
    (:func:`pqlab.metrics.ipdv_of_delays`) is the difference of consecutive delays, pairs with a
    lost packet
    left out. Times in seconds; ``measure.attrs`` declares each number's units
    (:func:`pqlab.experiments.sweep`).
    ``ds``: a Dataset or one run's arrays (:func:`pqlab.experiments.measure_runs`).
    """
    rows = experiments.measurement_rows(ds, scenario)
    delay = experiments.reference_delay_values(ds, scenario)
    ipdv = metrics.ipdv_of_delays(delay)
    kept = delay[np.isfinite(delay)]
    entered = rows[np.asarray(ds["drop"])[rows] == 0]
    wait = np.asarray(ds["ring_entry"])[entered] - np.asarray(ds["arrival"])[entered]
    a = metrics.jitter_of_ipdv(ipdv)
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


measure.attrs = {
    **experiments.DELAY_STATISTICS_ATTRS,
    "ef_wait_mean_s": {
        "units": "s",
        "long_name": "mean wait of an EF packet before the ring (EF queue)",
    },
    "ipdv_abs_max_s": {"units": "s", "long_name": "largest |IPDV|"},
    "ipdv_peak_frequency": {
        "units": "1",
        "long_name": f"share of |IPDV| >= {PEAK_FRACTION} BE tx time",
    },
    "acf_peak_lag": {
        "units": "1",
        "long_name": "lag of the first ACF peak of the delay series, EF packets",
    },
    "acf_peak": {"units": "1", "long_name": "value of that ACF peak"},
}
measure.reads_arrays = True  # type: ignore[attr-defined]  # experiments.measure_runs


# --------------------------------------------------------------------------- the Datasets' parts


def check_frames(name: str, frames) -> list[int]:
    """EF frame sizes, bytes, checked (``ValueError`` naming ``name``): integers whose IP length
    (frame - 18) is valid."""
    out = kit.check_values(name, frames, 19, integer=True)
    for f in out:
        presets.ef_ip_bytes(f)  # frame - 18 must be a valid IP length
    return out


def frame_coords(frames, node: Node) -> dict:
    """Coordinates of an ``ef_frame_bytes`` dimension: frame and IP length (bytes), ring particles,
    ATM cells."""
    ip = np.array([presets.ef_ip_bytes(f) for f in frames])
    return {
        "ef_frame_bytes": (
            "ef_frame_bytes",
            np.array(frames),
            {"units": "bytes", "long_name": "EF frame size"},
        ),
        "ef_ip_bytes": (
            "ef_frame_bytes",
            ip,
            {"units": "bytes", "long_name": "EF IP length (frame - 18)"},
        ),
        "ef_particles": (
            "ef_frame_bytes",
            np.array([particles_needed(int(i), node.particle_bytes) for i in ip]),
            {"units": "1", "long_name": "ring particles per EF packet"},
        ),
        "ef_cells": (
            "ef_frame_bytes",
            atm_cells(ip),
            {"units": "1", "long_name": "ATM cells per EF packet"},
        ),
    }


def config_scalars(node: Node, ef_service_rate_bps: float) -> dict:
    """The test conditions as scalar variables (name -> (value, units, long_name)), SI units."""
    be_ip = presets.TFTANT_BE_IP_BYTES
    ef_q, be_q = node.queues[presets.EF_QUEUE], node.queues[presets.BE_QUEUE]
    return {
        "be_tx_time": (
            be_tx_time_s(node),
            "s",
            f"line time of one {be_ip}-byte BE packet (ATM AAL5)",
        ),
        "be_ip_bytes": (be_ip, "bytes", "BE IP length"),
        "be_rate": (presets.TFTANT_BE_RATE_BPS, "bit/s", "BE rate (IP packets)"),
        "be_packet_rate": (presets.TFTANT_BE_RATE_BPS / (8 * be_ip), "packets/s", "BE packet rate"),
        "ef_rate": (presets.TFTANT_EF_RATE_BPS, "bit/s", "EF rate (frames)"),
        "ef_service_rate": (
            ef_service_rate_bps,
            "bit/s",
            "EF service rate (WFQ weight, PQ policing rate)",
        ),
        "be_weight": (be_q.weight_bps, "bit/s", "WFQ weight of the BE queue under WFQ"),
        "ef_queue_limit": (ef_q.limit_packets, "packets", "EF queue limit"),
        "be_queue_limit": (
            be_q.limit_packets,
            "packets",
            "BE queue limit (not stated by the source)",
        ),
        "ring_limit_particles": (node.ring_limit_particles, "particles", "tx-ring-limit"),
        "particle_bytes": (node.particle_bytes, "bytes", "ring particle size"),
        "line_rate": (node.line_rate_bps, "bit/s", "ATM PVC rate (whole 53-byte cells)"),
    }


def add_scalars(ds: xr.Dataset, scalars: dict) -> None:
    """Add scalar variables (name -> (value, units, long_name), as :func:`config_scalars`) to ``ds``
    in place."""
    ds.update(
        {
            name: ((), float(value), {"units": unit, "long_name": long_name})
            for name, (value, unit, long_name) in scalars.items()
        }
    )  # one merge for all


def per_seed(raw: xr.Dataset, name: str, unit: str, long_name: str, dims) -> tuple:
    """A measure of the sweep ``raw`` as a Dataset variable on ``dims`` (the sweep's SI unit, stated
    in ``unit``)."""
    return (dims, raw[name].transpose(*dims).values, {"units": unit, "long_name": long_name})


def rate_kbps(ds: xr.Dataset, name: str) -> float:
    """A rate of the Dataset (bit/s) in kbit/s, for the claims' and figures' text."""
    return float(to_kbps(ds[name]))
