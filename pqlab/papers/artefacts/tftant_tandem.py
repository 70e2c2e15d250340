"""TF-TANT slides, congestion points in tandem: one-way delay through 1..n congested nodes, and IPDV per EF packet size.

One compute function per artefact id (``tftant_slides_tandem``, ``tftant_slides_ipdv_size``) and
its statistics; the section :mod:`pqlab.papers.artefacts.tftant_pq` re-exports them (and finds
their claims).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...measure import cache, experiments, metrics
from .. import presets
from ...base._validate import check_int, check_real
from ...node.framing import line_time_s
from ...node.scenario import Scenario
from ...node.tandem import TandemHop, simulate_tandem
from ._common import add_mean_ci, be_streams, check_n_ef_samples, check_seeds, check_values, ef_streams, provenance
from .tftant_pq_common import (IPDV_SIZE_FRAMES, TANDEM_EF_AGGREGATE_BPS, TANDEM_FRAMES, TANDEM_STREAMS,
                               ef_split_scenario)


def _checked_ef_split(n_ef_samples, seeds, ef_frames_bytes, n_streams, ef_aggregate_bps) -> tuple:
    """The arguments both artefacts give :func:`ef_split_scenario`, checked.

    Returns the EF packets of all streams per run, the seeds, the EF frame sizes and the
    EF stream counts (each sorted) and the EF aggregate rate (bit/s, > 0).
    """
    n = check_n_ef_samples(n_ef_samples)
    seeds = check_seeds(seeds)
    frames = sorted(check_values("ef_frames_bytes", ef_frames_bytes, presets.ETHERNET_FRAME_OVERHEAD_BYTES + 1,
                                 integer=True))
    counts = sorted(check_values("n_streams", n_streams, 1, integer=True))
    load = check_real("ef_aggregate_bps", ef_aggregate_bps, 0.0, strict_minimum=True)
    return n, seeds, frames, counts, load


# --------------------------------------------------------------------------- tftant_slides_tandem


def _tandem_run(sc: Scenario, n_nodes: int, propagation_s: float, seed: int) -> dict:
    """One tandem of ``n_nodes``: per-node delay of every measured EF packet, read from each node's own Dataset."""
    hops = [TandemHop(sc.node, tuple(be_streams(sc)), queue=presets.EF_QUEUE, propagation_s=propagation_s)
            for _ in range(n_nodes - 1)]
    flows = [s.flow for s in ef_streams(sc)]
    per_hop, dep = simulate_tandem(sc, hops, flows, seed=seed)
    idx = dep["packet"].values  # first-node indices of the EF packets, sorted
    arrival = per_hop[0]["arrival"].values[idx]
    keep = arrival >= sc.warmup_s
    # each node's own record of each EF packet: departure - arrival there, and departure - ring entry
    increment, ring = np.full(dep.shape, np.nan), np.full(dep.shape, np.nan)
    for h, node_ds in enumerate(per_hop):
        pid = node_ds["packet_id"].values
        mine = np.flatnonzero(np.isin(node_ds["flow"].values, flows) & (pid >= 0))
        row = np.searchsorted(idx, pid[mine])
        departure = node_ds["departure"].values[mine]
        increment[row, h] = departure - node_ds["arrival"].values[mine]
        ring[row, h] = departure - node_ds["ring_entry"].values[mine]
    d, a, increment, ring = dep.values[keep], arrival[keep], increment[keep], ring[keep]
    through = np.isfinite(d[:, -1])
    end_to_end = d - a[:, None]
    error = end_to_end[through, -1] - increment[through].sum(axis=1) - (n_nodes - 1) * propagation_s
    return {
        "increment": np.nanmean(increment, axis=0),
        "ring": np.nanmean(ring, axis=0),
        "end_to_end": np.nanmean(end_to_end, axis=0),
        "loss": np.mean(np.isnan(d), axis=0),
        "sum_error": float(np.max(np.abs(error))) if error.size else np.nan,
    }


@cache.artefact()
def tftant_slides_tandem(
    *,
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    n_nodes: int = 4,
    ef_frames_bytes=TANDEM_FRAMES,
    n_streams=TANDEM_STREAMS,
    ef_aggregate_bps: float = TANDEM_EF_AGGREGATE_BPS,
    propagation_s: float = 0.0,
) -> xr.Dataset:
    """Slide "Aggregation and congestion (PQ): one-way delay": EF through 1..n congested C7200 nodes.

    The first node is :func:`ef_split_scenario` (STAND-IN real BE, EF split over the streams,
    the priority queue policed at the aggregate); ``n_nodes - 1`` further identical nodes
    (:class:`pqlab.node.tandem.TandemHop`) each get their own 20 BE streams (fresh sizes and
    phases) and every EF packet after ``propagation_s``. Node delays only (no path model).
    Measured over every EF packet (all streams) after the warm-up.

    Parameters
    ----------
    n_ef_samples : int
        EF packets of all streams per run.
    seeds : sequence of int
        Seeds (>= 0, distinct).
    n_nodes : int
        Congested nodes in tandem, in [1, 16].
    ef_frames_bytes : sequence of int
        EF frame sizes, bytes (distinct).
    n_streams : sequence of int
        EF stream counts (>= 1, distinct); the EF aggregate is the same for each.
    ef_aggregate_bps : float
        EF aggregate, bit/s of frames (> 0).
    propagation_s : float
        Delay between two nodes, seconds (>= 0).

    Returns
    -------
    xarray.Dataset
        Dims ``ef_frame_bytes``, ``n_streams``, ``node`` (1..n), ``seed``: ``increment``
        (dD_i, mean delay added by node i), ``ring_time`` (its part spent in node i's ring),
        ``end_to_end`` (mean delay from the first arrival to the departure from node i), s;
        ``loss`` (1); ``sum_error`` (s, largest |end-to-end - sum of the nodes' own delays -
        propagation| of any packet); ``*_mean``/``*_ci``; and
        ``aggregation_contribution`` (s, end-to-end with the most streams minus with one, paired
        per seed) with its mean and CI; ``ef_line_time`` (s) per frame.
    """
    n, seeds, frames, counts, load = _checked_ef_split(n_ef_samples, seeds, ef_frames_bytes, n_streams,
                                                       ef_aggregate_bps)
    nodes = check_int("n_nodes", n_nodes, 1, 16)
    prop = check_real("propagation_s", propagation_s, 0.0, 1.0)

    shape = (len(frames), len(counts), nodes, len(seeds))
    out = {k: np.full(shape, np.nan) for k in ("increment", "ring", "end_to_end", "loss")}
    sum_error = np.full(shape[:2] + shape[3:], np.nan)
    sc = None
    for i, f in enumerate(frames):
        for j, c in enumerate(counts):
            sc = ef_split_scenario(c, load, ef_frame_bytes=f, n_ef_samples=n, total_samples=True)
            for k, seed in enumerate(seeds):
                run = _tandem_run(sc, nodes, prop, seed)
                for key in out:
                    out[key][i, j, :, k] = run[key]
                sum_error[i, j, k] = run["sum_error"]
    dims = ("ef_frame_bytes", "n_streams", "node", "seed")
    ds = xr.Dataset(
        {
            "increment": (dims, out["increment"], {"units": "s", "long_name": "delay added by node i (dD_i)"}),
            "ring_time": (dims, out["ring"], {"units": "s", "long_name": "time in node i's ring (incl. line)"}),
            "end_to_end": (dims, out["end_to_end"],
                           {"units": "s", "long_name": "delay from the first node's arrival to leaving node i"}),
            "loss": (dims, out["loss"], {"units": "1", "long_name": "EF packets lost up to node i"}),
            "sum_error": (("ef_frame_bytes", "n_streams", "seed"), sum_error,
                          {"units": "s", "long_name": "largest |end-to-end - sum of increments - propagation|"}),
        },
        coords={
            "ef_frame_bytes": ("ef_frame_bytes", np.array(frames), {"units": "bytes", "long_name": "EF frame size"}),
            "n_streams": ("n_streams", np.array(counts), {"units": "streams", "long_name": "EF streams"}),
            "node": ("node", np.arange(1, nodes + 1), {"units": "1", "long_name": "congested node"}),
            "seed": ("seed", np.array(seeds), {"units": "1", "long_name": "random seed"}),
        },
    )
    ds["ef_line_time"] = ("ef_frame_bytes", [line_time_s(presets.ef_ip_bytes(f), sc.node.framing,
                                                         sc.node.line_rate_bps) for f in frames],
                          {"units": "s", "long_name": "line time of one EF packet"})
    ds.attrs = provenance(
        "tftant_slides_tandem", "tftant_slides_tandem: EF one-way delay through 1..n congested nodes "
        "(TF-TANT slides, aggregation and congestion)", __name__, seeds, scenario=sc.to_json(), n_ef_samples=n,
        ef_aggregate_bps=load, propagation_s=prop)
    return tandem_statistics(ds)


def tandem_statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`tftant_slides_tandem`'s statistics to its per-seed values (in place; returned).

    Means and CIs over seeds of ``increment``, ``ring_time``, ``end_to_end`` and ``loss``, and
    the aggregation contribution (end-to-end with the most streams minus with the fewest,
    paired per seed; absolute and relative) with its mean and CI, in the time unit of the
    Dataset (s; the claims' ms through :func:`pqlab.papers.artefacts._common.statistics_in_ms`).
    """
    counts = ds["n_streams"].values
    add_mean_ci(ds, ("increment", "ring_time", "end_to_end", "loss"))
    contrib = ds["end_to_end"].isel(n_streams=-1) - ds["end_to_end"].isel(n_streams=0)
    ds["aggregation_contribution"] = contrib.assign_attrs(
        units=ds["end_to_end"].attrs["units"],
        long_name=f"end-to-end delay with {counts[-1]} EF streams minus with {counts[0]}")
    rel = contrib / ds["end_to_end"].isel(n_streams=0)
    ds["aggregation_contribution_rel"] = rel.assign_attrs(units="1", long_name="aggregation contribution / delay")
    return add_mean_ci(ds, ("aggregation_contribution", "aggregation_contribution_rel"))


# --------------------------------------------------------------------------- tftant_slides_ipdv_size


def _ipdv_size_measure(ds: xr.Dataset, sc: Scenario) -> dict:
    """IPDV of every EF stream after the warm-up, pooled: std (signed and absolute), max and mean |IPDV|."""
    ipdv = np.concatenate([experiments.reference_ipdv(ds, sc, flow=s.flow).values for s in ef_streams(sc)])
    jitter = metrics.jitter_of_ipdv(ipdv)
    return {
        "ipdv_std_s": float(ipdv.std(ddof=1)),
        "jitter_std_s": float(jitter.std(ddof=1)),
        "jitter_max_s": float(jitter.max()),
        "jitter_p999_s": float(np.percentile(jitter, 99.9)),
        "jitter_mean_s": float(jitter.mean()),
    }


_ipdv_size_measure.attrs = {
    "ipdv_std_s": {"units": "s", "long_name": "standard deviation of the pooled IPDV of every EF stream"},
    "jitter_std_s": {"units": "s", "long_name": "standard deviation of the pooled |IPDV|"},
    "jitter_max_s": {"units": "s", "long_name": "largest pooled |IPDV|"},
    "jitter_p999_s": {"units": "s", "long_name": "99.9th percentile of the pooled |IPDV|"},
    "jitter_mean_s": {"units": "s", "long_name": "mean pooled |IPDV|"},
}


@cache.artefact()
def tftant_slides_ipdv_size(
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
    C7200 (:func:`ef_split_scenario`). IPDV of every EF stream, pooled.

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
    n, seeds, frames, counts, load = _checked_ef_split(n_ef_samples, seeds, ef_frames_bytes, n_streams,
                                                       ef_aggregate_bps)

    def point(ef_frame_bytes, n_streams, congestion):
        return ef_split_scenario(n_streams, load, ef_frame_bytes=ef_frame_bytes,
                                 be_traffic="real" if congestion else "none", n_ef_samples=n, total_samples=True)

    raw = experiments.sweep(point, {"ef_frame_bytes": frames, "n_streams": counts, "congestion": [False, True]},
                            seeds, measure=_ipdv_size_measure)
    dims = ("ef_frame_bytes", "n_streams", "congestion", "seed")
    ds = xr.Dataset(
        {k: (dims, raw[f"{k}_s"].values, {"units": "s", "long_name": v}) for k, v in _IPDV_SIZE_NAMES.items()},
        coords={
            "ef_frame_bytes": ("ef_frame_bytes", np.array(frames), {"units": "bytes", "long_name": "EF frame size"}),
            "n_streams": ("n_streams", np.array(counts), {"units": "streams", "long_name": "EF streams"}),
            "congestion": ("congestion", np.array([False, True]), {"long_name": "20 BE streams (STAND-IN real)"}),
            "seed": ("seed", np.array(seeds), {"units": "1", "long_name": "random seed"}),
        },
    )
    sc = point(frames[0], counts[-1], True)
    ds.attrs = provenance(
        "tftant_slides_ipdv_size", "tftant_slides_ipdv_size: IPDV per EF frame size with and without aggregation "
        "and congestion (TF-TANT slides)", __name__, seeds, scenario=sc.to_json(), n_ef_samples=n,
        ef_aggregate_bps=load)
    return ipdv_size_statistics(ds)


#: The per-seed variables of :func:`tftant_slides_ipdv_size` and their long names.
_IPDV_SIZE_NAMES = {"ipdv_std": "std of the signed IPDV", "jitter_std": "std of |IPDV|",
                    "jitter_max": "largest |IPDV|", "jitter_p999": "99.9th percentile of |IPDV|",
                    "jitter_mean": "mean |IPDV|"}


def ipdv_size_statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`tftant_slides_ipdv_size`'s means and CIs over seeds (in the Dataset's time unit, as
    :func:`tandem_statistics`)."""
    return add_mean_ci(ds, _IPDV_SIZE_NAMES)
