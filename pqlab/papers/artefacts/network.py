"""GLOBECOM'01 Figs. 2 and 6 (the test network, packet clustering) and the TF-TANT slides' "PQ: one-way delay".

One compute function per artefact id, as in :mod:`pqlab.papers.artefacts.background`; the
figures of the same names are in :mod:`pqlab.papers.figures.network`, the claims,
``<id>_claims(data)``, in :mod:`pqlab.papers.artefacts.claims.network` (``from
pqlab.papers.artefacts.claims import network as network_claims``: this module does not
import or offer them), the notebook is ``notebooks/11_network_and_slides``.

==========================  =====================================================================
artefact id                 what it reproduces
==========================  =====================================================================
``globecom01_fig2``         Fig. 2, the test network: SmartBits, the C7200 (a :class:`pqlab.Node`),
                            the two C7500 hops (a :class:`pqlab.node.path.PathModel`), the loop back
``globecom01_fig6``         Fig. 6, packet clustering with aggregation: EF streams from different
                            interfaces merging in the C7200's priority queue (engine traces)
==========================  =====================================================================

The Datasets are in SI units (times in seconds, sizes in bytes, rates in bit/s).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import xarray as xr

from ...base._validate import check_real
from ...measure import cache
from ...node.framing import line_time_s
from ...node.model import Node
from ...node.path import PathModel
from ...node.scenario import Scenario, simulate
from ...node.traffic import merge_streams
from .. import presets
from ..stated import PAPERS
from ._common import check_n_ef_samples, check_seeds, check_values, mean_ci, provenance
from ._common import check_node_and_path

__all__ = ["globecom01_fig2", "globecom01_fig6", "pq_occupancy_at_arrival", "clustered_share",
           "clustering_over_phases", "FIG6_REF_RATES_BPS"]

#: Fig. 6 / Table II: reference stream loads, bit/s (A = 1 - ref / 300 kbit/s: 0 .. 5/6).
FIG6_REF_RATES_BPS = (300e3, 150e3, 100e3, 50e3)

_ROUTER_C7200 = "C7200"
_ROUTER_C7500 = "C7500"


# --------------------------------------------------------------------------- globecom01_fig2


@cache.artefact()
def globecom01_fig2(node: Node | None = None, path: PathModel | None = None,
                    be_offered_bps: float | None = None) -> xr.Dataset:
    """The test network of GLOBECOM'01 Fig. 2 as data: one row per router of the EF/BE data path.

    Router 0 is the C7200, the simulated :class:`pqlab.Node` (QoS: its queues, its line);
    routers 1.. are the hops of the :class:`pqlab.node.path.PathModel` (the uncongested C7500
    FIFO devices); the SmartBits sends into the C7200 and receives after the last hop
    (the loop back to Site 1).

    Parameters
    ----------
    node : Node, optional
        Defaults to ``PAPERS.node()`` (:data:`pqlab.papers.PAPERS`).
    path : PathModel, optional
        Defaults to :func:`pqlab.scenarios.paper_path`.
    be_offered_bps : float, optional
        BE load offered to the C7200, bit/s of IP packets; default that of
        :func:`pqlab.scenarios.real_distribution` (20 streams).

    Returns
    -------
    xarray.Dataset
        Dimension ``router`` with ``name``, ``role`` (``"qos"`` or ``"fifo"``), ``n_queues``,
        ``has_priority_queue``, ``out_rate_bps`` (output line rate), ``out_framing``,
        ``in_rate_bps`` (the largest rate packets can arrive at, bit/s: the BE + EF offered
        load at the C7200, the previous router's line rate after it), ``ef_line_time_s``
        (the EF packet's serialisation on the router's output), ``congested`` (arrivals can
        exceed the output rate); attrs: the EF and BE offered loads, the EF IP length, the
        one-way delay the path adds to the EF packet.
    """
    node, path = check_node_and_path(node, path)
    sc = presets.real_distribution(n_ef_samples=10)
    ef_offered = float(sum(s.rate_bps for s in sc.streams if s.queue == presets.EF_QUEUE))
    if be_offered_bps is None:
        be_offered_bps = float(sum(s.rate_bps for s in sc.streams if s.queue == presets.BE_QUEUE))
    be_offered = check_real("be_offered_bps", be_offered_bps, 0.0)
    ef_ip = presets.ef_ip_bytes(presets.EF_FRAME_BYTES)

    names = [_ROUTER_C7200] + [_ROUTER_C7500] * len(path.hops)
    out_rate = [node.line_rate_bps] + [h.rate_bps for h in path.hops]
    framing = [node.framing] + [h.framing for h in path.hops]
    in_rate = [ef_offered + be_offered] + out_rate[:-1]
    ds = xr.Dataset(
        {
            "name": ("router", np.array(names), {"long_name": "router"}),
            "role": ("router", np.array(["qos"] + ["fifo"] * len(path.hops)),
                     {"long_name": "qos: the simulated node with PQ + WFQ; fifo: an uncongested path hop"}),
            "n_queues": ("router", np.array([len(node.queues)] + [1] * len(path.hops)),
                         {"units": "queues", "long_name": "output queues"}),
            "has_priority_queue": ("router", np.array([any(q.kind == "priority" for q in node.queues)]
                                                      + [False] * len(path.hops)),
                                   {"long_name": "a priority queue on the output"}),
            "out_rate_bps": ("router", np.array(out_rate, dtype=float), {"units": "bit/s", "long_name": "output line rate"}),
            "out_framing": ("router", np.array(framing), {"long_name": "output line framing"}),
            "in_rate_bps": ("router", np.array(in_rate, dtype=float),
                            {"units": "bit/s", "long_name": "largest arrival rate (offered load, then the previous line)"}),
            "ef_line_time_s": ("router", np.array([line_time_s(ef_ip, f, r) for f, r in zip(framing, out_rate)]),
                               {"units": "s", "long_name": "line time of the EF packet on the output"}),
        },
        coords={"router": np.arange(len(names))},
        attrs={
            **provenance("globecom01_fig2", "globecom01_fig2: the test network (GLOBECOM'01 Fig. 2) from the Node "
                         "and the PathModel", __name__),
            "ef_offered_bps": ef_offered,
            "be_offered_bps": be_offered,
            "ef_ip_bytes": ef_ip,
            "ef_frame_bytes": presets.EF_FRAME_BYTES,
            "path_fixed_s": path.fixed_s,
            "path_ef_delay_s": float(path.extra_delay_s(ef_ip)),
        },
    )
    ds["congested"] = ("router", ds["in_rate_bps"].values > ds["out_rate_bps"].values,
                       {"long_name": "arrivals can exceed the output rate"})
    return ds


# --------------------------------------------------------------------------- globecom01_fig6


def pq_occupancy_at_arrival(trace: xr.Dataset, queue: int = presets.EF_QUEUE) -> np.ndarray:
    """EF packets waiting in the priority queue when each accepted packet of ``queue`` arrives.

    A packet *j* is waiting at time *t* when it arrived before *t* and had not yet entered
    the transmission ring (``arrival_j < t < ring_entry_j``); dropped packets never wait.

    Parameters
    ----------
    trace : xarray.Dataset
        The engine's per-packet Dataset (:func:`pqlab.simulate`).
    queue : int
        The queue (default the EF queue 0).

    Returns
    -------
    numpy.ndarray of int
        One count per accepted packet of ``queue``, in arrival order (0: the queue was empty).
    """
    if not isinstance(trace, xr.Dataset) or not {"arrival", "ring_entry", "queue", "drop"} <= set(trace):
        raise ValueError("trace must be the per-packet Dataset of pqlab.simulate")
    keep = (trace["queue"].values == queue) & (trace["drop"].values == 0)
    arr = trace["arrival"].values[keep]
    entry = trace["ring_entry"].values[keep]
    order = np.argsort(arr, kind="stable")
    arr, entry = arr[order], entry[order]
    # packets arrived strictly before each arrival, minus those already in the ring by then
    before = np.arange(arr.size)
    entered = np.searchsorted(np.sort(entry), arr, side="right") - (entry <= arr)  # not the packet itself
    return (before - np.minimum(entered, before)).astype(np.int64)


def clustered_share(trace: xr.Dataset, within_s: float, start_s: float = 0.0,
                    queue: int = presets.EF_QUEUE) -> float:
    """Share of the packets of ``queue`` arriving within ``within_s`` after a packet of another flow.

    The papers' packet clustering (GLOBECOM'01 Sec. V): packets of the same behaviour aggregate
    arriving "at around the same time from different input interfaces"; counted on the offered
    packets (dropped ones too) arriving at or after ``start_s``.

    Parameters
    ----------
    trace : xarray.Dataset
        The engine's per-packet Dataset (:func:`pqlab.simulate`), with ``flow``.
    within_s : float
        The clustering window, seconds (> 0; the figure: the EF packet's line time).
    start_s : float
        Count arrivals from this time on (the warm-up's end).
    queue : int
        The queue (default EF).

    Returns
    -------
    float
        In [0, 1]; NaN with no packet counted.
    """
    if not isinstance(trace, xr.Dataset) or not {"arrival", "queue", "flow"} <= set(trace):
        raise ValueError("trace must be the per-packet Dataset of pqlab.simulate")
    within = check_real("within_s", within_s, 0.0, strict_minimum=True)
    sel = trace["queue"].values == queue
    arr, flow = trace["arrival"].values[sel], trace["flow"].values[sel]
    order = np.argsort(arr, kind="stable")
    arr, flow = arr[order], flow[order]
    clustered = np.zeros(arr.size, dtype=bool)
    clustered[1:] = (np.diff(arr) < within) & (flow[1:] != flow[:-1])
    counted = arr >= start_s
    return float(clustered[counted].mean()) if counted.any() else float("nan")


def clustering_over_phases(sc: Scenario, within_s: float, n_draws: int, seed: int = 0,
                           duration_s: float = 0.1) -> float:
    """Mean :func:`clustered_share` of the EF streams of ``sc`` over ``n_draws`` draws of their random phases.

    With CBR streams the clustering of one run is fixed by the phases drawn for it, so a few
    seeds estimate it coarsely; the arrivals alone (no node) are generated for many draws.

    Parameters
    ----------
    sc : Scenario
        Whose EF streams (queue 0) are drawn.
    within_s : float
        The clustering window, seconds (> 0).
    n_draws : int
        Phase draws (>= 1), seeded ``(seed, draw)``.
    seed : int
        First entropy word of the draws (>= 0).
    duration_s : float
        Arrivals generated per draw, seconds (> 0).
    """
    draws = check_n_ef_samples(n_draws, minimum=1)
    ef = [s for s in sc.streams if s.queue == presets.EF_QUEUE]
    shares = []
    for d in range(draws):
        arr, _, queue, flow = merge_streams(ef, np.random.default_rng([int(seed), d]), duration_s)
        shares.append(clustered_share(xr.Dataset({"arrival": ("packet", arr), "queue": ("packet", queue),
                                                  "flow": ("packet", flow)}), within_s))
    return float(np.mean(shares))


def _clustering_run(sc: Scenario, seed: int, within_s: float) -> dict:
    trace = simulate(sc, seed=seed)
    occ = pq_occupancy_at_arrival(trace)
    measured = trace["arrival"].values[(trace["queue"].values == presets.EF_QUEUE)
                                       & (trace["drop"].values == 0)]
    occ = occ[np.sort(measured) >= sc.warmup_s]
    return {"trace": trace, "p_nonempty": float(np.mean(occ >= 1)), "max_waiting": int(occ.max(initial=0)),
            "p_clustered": clustered_share(trace, within_s, sc.warmup_s)}


@cache.artefact()
def globecom01_fig6(n_ef_samples: int = 10_000, seeds=(1, 2, 3), ref_rates_bps: Sequence[float] = FIG6_REF_RATES_BPS,
                    window_s: float = 0.06, n_phase_draws: int = 4000) -> xr.Dataset:
    """Packet clustering of GLOBECOM'01 Fig. 6, measured in the papers' node with aggregation.

    Runs :func:`pqlab.scenarios.aggregation` (Table II: EF aggregate 300 kbit/s over streams
    of the reference load, each its own input interface; 20 BE streams of the real law) for
    every reference load; for every accepted EF packet, the EF packets already waiting in
    the priority queue when it arrives (:func:`pq_occupancy_at_arrival`). Also keeps, for the
    smallest reference load and the first seed, a window of EF arrivals per stream and the
    priority queue length over time (the diagram).

    Parameters
    ----------
    n_ef_samples : int
        Reference packets measured per run (>= 10).
    seeds : sequence of int
        Seeds (the streams' random phases).
    ref_rates_bps : sequence of float
        Reference stream loads, bit/s, in ``(0, 300 kbit/s]``.
    window_s : float
        Length of the diagram's window, seconds.
    n_phase_draws : int
        Draws of the EF streams' phases for ``p_clustered_phases`` (:func:`clustering_over_phases`,
        seeded from the first seed).

    Returns
    -------
    xarray.Dataset
        Dims ``ref_load`` (coordinate ``aggregation_degree`` A) and ``seed``: ``p_nonempty``
        (share of EF arrivals that find an EF packet waiting, 1), ``max_waiting`` (packets),
        ``p_clustered`` (share of EF arrivals within one EF line time after another stream's,
        :func:`clustered_share`); their ``_mean``/``_ci`` over seeds; ``p_clustered_phases`` the
        clustering share over ``n_phase_draws`` phase draws (arrivals only); the diagram: ``ev_time`` (s from the window
        start), ``ev_flow`` (EF stream), ``ev_waiting`` (EF packets waiting at that arrival),
        and ``q_time``/``q_len`` the priority queue's length (arrivals minus ring entries).
    """
    n = check_n_ef_samples(n_ef_samples, minimum=10)
    seeds = check_seeds(seeds)
    rates = check_values("ref_rates_bps", ref_rates_bps, 0.0)
    aggregate = 300e3
    if max(rates) > aggregate:
        raise ValueError(f"ref_rates_bps must be at most {aggregate:g}, got {max(rates):g}")
    window = check_real("window_s", window_s, 0.0, strict_minimum=True)
    draws = check_n_ef_samples(n_phase_draws, minimum=1)
    ef_line = line_time_s(presets.ef_ip_bytes(presets.EF_FRAME_BYTES), PAPERS.framing, PAPERS.line_rate_bps)
    p = np.full((len(rates), len(seeds)), np.nan)
    pc = np.full((len(rates), len(seeds)), np.nan)
    phases = np.full(len(rates), np.nan)
    mx = np.zeros((len(rates), len(seeds)), dtype=np.int64)
    diagram = None
    for i, rate in enumerate(rates):
        sc = presets.aggregation(ref_rate_bps=rate, ef_aggregate_bps=aggregate, n_ef_samples=n)
        phases[i] = clustering_over_phases(sc, ef_line, draws, seeds[0])
        for j, seed in enumerate(seeds):
            run = _clustering_run(sc, seed, ef_line)
            p[i, j], mx[i, j], pc[i, j] = run["p_nonempty"], run["max_waiting"], run["p_clustered"]
            if i == int(np.argmin(rates)) and j == 0:
                diagram = _diagram(run["trace"], sc.warmup_s, window)
    mean, ci = mean_ci(p)
    cmean, cci = mean_ci(pc)
    a_deg = 1.0 - np.asarray(rates) / aggregate
    ds = xr.Dataset(
        {
            "p_nonempty": (("ref_load", "seed"), p,
                           {"units": "1", "long_name": "share of EF arrivals finding an EF packet waiting"}),
            "max_waiting": (("ref_load", "seed"), mx, {"units": "packets", "long_name": "most EF packets waiting at an EF arrival"}),
            "p_nonempty_mean": ("ref_load", mean, {"units": "1", "long_name": "mean over seeds"}),
            "p_nonempty_ci": ("ref_load", ci, {"units": "1", "long_name": "95% CI half-width over seeds"}),
            "p_clustered": (("ref_load", "seed"), pc,
                            {"units": "1", "long_name": "share of EF arrivals within one EF line time after "
                                                        "another stream's"}),
            "p_clustered_mean": ("ref_load", cmean, {"units": "1", "long_name": "mean over seeds"}),
            "p_clustered_ci": ("ref_load", cci, {"units": "1", "long_name": "95% CI half-width over seeds"}),
            "p_clustered_phases": ("ref_load", phases, {"units": "1", "long_name": "share of EF arrivals within one "
                                                        "EF line time after another stream's, over phase draws"}),
            **diagram,
        },
        coords={"ref_load": ("ref_load", np.asarray(rates, dtype=float), {"units": "bit/s", "long_name": "reference stream load"}),
                "aggregation_degree": ("ref_load", a_deg, {"units": "1", "long_name": "aggregation degree A"}),
                "seed": ("seed", seeds)},
        attrs={**provenance("globecom01_fig6", "globecom01_fig6: packet clustering with aggregation (GLOBECOM'01 Fig. 6)",
                            __name__, seeds=seeds),
               "ef_aggregate_bps": aggregate, "n_ef_samples": n, "n_phase_draws": draws, "window_s": window,
               "diagram_ref_load_bps": float(min(rates)),
               "single_stream_interval_s": presets.EF_FRAME_BYTES * 8 / aggregate,
               "ring_drain_s": PAPERS.ring_limit_particles * line_time_s(PAPERS.particle_bytes, PAPERS.framing,
                                                                         PAPERS.line_rate_bps),
               "ef_line_time_s": ef_line},
    )
    return ds


def _diagram(trace: xr.Dataset, start_s: float, window_s: float) -> dict:
    """The diagram's data: EF arrivals per stream and the priority queue length in one window."""
    ef = (trace["queue"].values == presets.EF_QUEUE) & (trace["drop"].values == 0)
    arr, entry, flow = trace["arrival"].values[ef], trace["ring_entry"].values[ef], trace["flow"].values[ef]
    occ = pq_occupancy_at_arrival(trace)
    order = np.argsort(arr, kind="stable")
    arr, entry, flow = arr[order], entry[order], flow[order]
    # the window that starts at the first arrival after the warm-up finding the most packets waiting
    cand = np.nonzero(arr >= start_s)[0]
    k = cand[int(np.argmax(occ[cand]))] if cand.size else 0
    t0 = max(start_s, arr[k] - window_s / 3)
    sel = (arr >= t0) & (arr < t0 + window_s)
    times = np.concatenate([arr[(arr >= t0 - window_s) & (arr < t0 + window_s)],
                            entry[(entry >= t0 - window_s) & (entry < t0 + window_s)]])
    steps = np.concatenate([np.ones(int(((arr >= t0 - window_s) & (arr < t0 + window_s)).sum())),
                            -np.ones(int(((entry >= t0 - window_s) & (entry < t0 + window_s)).sum()))])
    o = np.argsort(times, kind="stable")
    times, steps = times[o], steps[o]
    # queue length: packets arrived minus packets entered the ring, counted from the start of the run
    q = np.searchsorted(arr, times, side="right") - np.searchsorted(np.sort(entry), times, side="right")
    keep = (times >= t0) & (times < t0 + window_s)
    return {
        "ev_time": ("event", arr[sel] - t0, {"units": "s", "long_name": "EF arrival time in the window"}),
        "ev_flow": ("event", flow[sel], {"long_name": "EF stream (input interface)"}),
        "ev_waiting": ("event", occ[order][sel], {"units": "packets", "long_name": "EF packets waiting at the arrival"}),
        "q_time": ("q_event", times[keep] - t0, {"units": "s", "long_name": "time in the window"}),
        "q_len": ("q_event", q[keep].astype(np.int64), {"units": "packets", "long_name": "priority queue length"}),
    }
