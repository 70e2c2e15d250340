"""GLOBECOM'01 Sec. VI (worst-case average delay, Table IV), the 5.12 ms bound of Sec. V, the path.

One compute function per artefact id, each returning an ``xarray.Dataset`` (no
plotting, no I/O); ``<id>_claims`` in :mod:`pqlab.papers.artefacts.claims.worst_case` turns the
Dataset into the claim records the report records (``from pqlab.papers.artefacts.claims import
worst_case as worst_case_claims``: this module does not import or offer the claims):

* :func:`globecom01_tab4`: Table IV's analytical ``W_pq``, ``W_t``, ``W``
  (:func:`pqlab.bounds.table_iv`, exact) next to the simulated mean EF one-way
  delay ``W_m`` for BE packets that exactly fill ``k`` ring particles
  (:func:`pqlab.scenarios.full_units`), with the node's delay split into the
  priority-queue wait and the ring time.
* :func:`globecom01_pq_bound`: the 5.12 ms a full 10-packet EF queue can add
  (:func:`pqlab.bounds.priority_queue_max_delay`) against EF bursts driven
  through the simulated C7200 with saturating BE traffic.
* :func:`path`: the round-trip time of the uncongested path model
  (:func:`pqlab.scenarios.paper_path` plus the C7200's own serialisation)
  against the paper's "approximately 2 msec" for 64 bytes.

Table IV's Dataset is in SI units (seconds, bit/s; its claims convert to the
paper's microseconds through :mod:`pqlab.base.units`), and so are the 5.12 ms bound's
and the path's (their claims in ms and kbit/s, as the paper).
"""

from __future__ import annotations

import functools

import numpy as np
import xarray as xr

from ...measure import bounds, cache, experiments
from .. import presets
from ..stated import cisco7200_atm
from ...base._validate import check_array, check_int, check_real
from ...node.engine import simulate_arrivals
from ...node.framing import PACKET_PARTICLE_BYTES, line_time_s
from ...node.model import Node
from ...node.path import PathModel
from ...base.units import ms_to_s, us_to_s
from ...node.scenario import Scenario, simulate
from ...node.tandem import simulate_downstream_hops
from ...node.traffic import TraceStream
from ._common import (
    add_mean_ci,
    check_ks,
    check_n_ef_samples,
    check_seeds,
    paper_value,
    provenance,
)

__all__ = [
    "globecom01_tab4",
    "globecom01_pq_bound",
    "path",
    "ring_counts_packets_node",
]


# --------------------------------------------------------------------------- shared helpers


def ring_counts_packets_node(node: Node | None = None) -> Node:
    """``node`` (default: the papers' C7200) with a ring that counts packets, not particles.

    Same ``ring_limit_particles`` but particles of :data:`PACKET_PARTICLE_BYTES`,
    so every packet takes exactly one: the tx-ring-limit then limits packets.
    """
    node = cisco7200_atm() if node is None else node
    return Node(node.line_rate_bps, node.framing, node.ring_limit_particles, PACKET_PARTICLE_BYTES, node.queues,
                ring_release=node.ring_release)


def _node_components(ds: xr.Dataset, scenario: Scenario) -> dict:
    """Mean one-way delay of the reference flow and its parts, seconds (the measure of a sweep)."""
    win = experiments.measurement_window(ds, scenario)
    kept = win["drop"].values == 0
    arrival, entry, departure = (win[v].values[kept] for v in ("arrival", "ring_entry", "departure"))
    delay = experiments.reference_delay(ds, scenario).values
    delay = delay[np.isfinite(delay)]
    path_s = scenario.path.extra_delay_s(win["size"].values[kept])
    through_hops = experiments.reference_delay_through_hops(ds, scenario)
    return {
        "delay_mean_s": float(delay.mean()),
        "delay_hops_mean_s": float(through_hops.mean()),
        "pq_wait_mean_s": float((entry - arrival).mean()),
        "ring_time_mean_s": float((departure - entry).mean()),
        "path_mean_s": float(np.mean(path_s)),
        "n_samples": float(delay.size),
    }


_node_components.attrs = {
    "delay_mean_s": experiments.DELAY_STATISTICS_ATTRS["delay_mean_s"],
    "delay_hops_mean_s": {"units": "s", "long_name": "mean one-way delay with the C7500 hops simulated"},
    "pq_wait_mean_s": {"units": "s", "long_name": "mean EF wait in the priority queue (ring entry - arrival)"},
    "ring_time_mean_s": {"units": "s", "long_name": "mean EF time in the ring incl. own line time"},
    "path_mean_s": {"units": "s", "long_name": "mean fixed path delay of the measured packets"},
    "n_samples": {"units": "1", "long_name": "EF reference packets measured"},
}


# --------------------------------------------------------------------------- globecom01_tab4


@cache.artefact()
def globecom01_tab4(n_ef_samples: int = 10_000, seeds=(1, 2, 3), ks=bounds.PAPER_KS) -> xr.Dataset:
    """GLOBECOM'01 Table IV: the worst-case bound ``W`` next to the measured ``W_m``, per ``k``.

    The analytical side is :func:`pqlab.bounds.table_iv` with the paper's
    ``rho = 0.15, Q_t = 5, T_u = 2048 us``, exact (the paper truncates ``k = 3``
    to 7228.23 / 21564.23 where rounding gives .24). The simulated side runs
    :func:`pqlab.scenarios.full_units` (BE IP length ``k x 512`` bytes, the
    papers' C7200 and path) and measures the mean one-way delay of the EF
    reference stream, split into priority-queue wait (ring entry - arrival),
    ring time (departure - ring entry, incl. the packet's own line time) and the
    path's fixed part. Two variants show how much of the gap two model choices
    explain (notebook 06 tests these and others): the same runs with a ring that
    counts packets instead of particles (:func:`ring_counts_packets_node`, H1),
    and the same runs with the two C7500 hops simulated as FIFO nodes instead of
    the path model's fixed serialisation (:func:`pqlab.node.tandem.simulate_downstream_hops`, H7).

    Parameters
    ----------
    n_ef_samples : int
        EF reference packets measured per run (the paper: 10,000), >= 10.
    seeds : sequence of int
        Seeds (>= 0), one run per seed and ``k``.
    ks : sequence of int
        Transmission units a BE packet fills (the paper: 1, 2, 3).

    Returns
    -------
    xarray.Dataset
        Dims ``k`` and ``seed``. Per seed: ``w_m``, ``pq_wait``, ``ring_time``,
        ``w_m_ring_packets``, ``w_m_hops`` (s) and ``n_samples``; per ``k``: their means and
        95% CI half-widths (``*_mean``, ``*_ci``), the bound ``w_pq``, ``w_t``,
        ``w`` (s, exact), the paper's ``paper_w_pq``, ``paper_w_t``, ``paper_w``,
        ``paper_w_m`` (s), ``be_ip_bytes``; scalars ``path_delay`` (s) and the
        bound's parameters ``rho``, ``q_t``, ``t_u`` (s), ``ef_packet_rate``
        (packet/s), ``ef_service_time`` (s, unframed as in the paper),
        ``ef_line_time_atm`` (s, what the engine uses) and ``ef_rate`` (bit/s).
        The claims convert to the paper's microseconds.
    """
    n = check_n_ef_samples(n_ef_samples, 10, 100_000_000)
    seeds = check_seeds(seeds)
    ks = check_ks(ks)

    base = experiments.sweep(functools.partial(presets.full_units, n_ef_samples=n), {"k": ks}, seeds,
                             measure=_node_components)
    packets = experiments.sweep(
        functools.partial(presets.full_units, n_ef_samples=n, node=ring_counts_packets_node()),
        {"k": ks}, seeds, measure=_node_components)

    sc = presets.full_units(k=ks[0], n_ef_samples=n)
    node, ef = sc.node, sc.streams[presets.REFERENCE_FLOW]
    frame_bytes = presets.EF_FRAME_BYTES
    ef_rate_pps = ef.rate_bps / (8.0 * ef.size.mean_bytes)  # 300 kbit/s of 128-byte frames
    ef_service_s = bounds.particle_time_s(frame_bytes, node.line_rate_bps)  # unframed, as the paper
    t_u_s = bounds.particle_time_s(node.particle_bytes, node.line_rate_bps)
    rho = ef_rate_pps * ef_service_s
    bound = [bounds.worst_case_delay(int(k), rho, node.ring_limit_particles, t_u_s) for k in ks]

    per_seed = {
        "w_m": (base["delay_mean_s"], "mean one-way delay of the EF reference stream (W_m), simulated"),
        "pq_wait": (base["pq_wait_mean_s"], "mean EF wait in the priority queue (ring entry - arrival)"),
        "ring_time": (base["ring_time_mean_s"], "mean EF time in the ring incl. own line time"),
        "w_m_ring_packets": (packets["delay_mean_s"],
                             "W_m with a ring of 5 packets instead of 5 particles (hypothesis H1)"),
        "w_m_hops": (base["delay_hops_mean_s"],
                     "W_m with the C7500 hops simulated as FIFO nodes (hypothesis H7)"),
    }
    ds = xr.Dataset(coords={"k": ("k", ks, {"units": "1", "long_name": "transmission units per BE packet"}),
                            "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"})})
    for name, (da, long_name) in per_seed.items():
        ds[name] = da.transpose("k", "seed")
        ds[name].attrs = {"units": "s", "long_name": long_name}
    ds["n_samples"] = base["n_samples"].transpose("k", "seed")
    ds["n_samples"].attrs = {"units": "1", "long_name": "EF reference packets measured"}
    add_mean_ci(ds, per_seed)
    for field, name, long_name in (("w_pq_s", "w_pq", "W_pq = k T_u / (1 - rho), eq. (5)"),
                                   ("w_t_s", "w_t", "W_t = (Q_t + k - 1) T_u, eq. (6)"),
                                   ("w_s", "w", "W = W_pq + W_t, eq. (7)")):
        ds[name] = ("k", [getattr(b, field) for b in bound], {"units": "s", "long_name": long_name})
    for name in ("w_pq", "w_t", "w", "w_m"):
        ds[f"paper_{name}"] = ("k", [us_to_s(paper_value("globecom01_tab4", f"{name}_k{k}")[0]) for k in ks],
                               {"units": "s", "long_name": f"GLOBECOM'01 Table IV {name.upper()}"})
    ds["be_ip_bytes"] = ("k", [k * node.particle_bytes for k in ks], {"units": "bytes", "long_name": "BE IP length"})
    ds["path_delay"] = ((), float(base["path_mean_s"].mean()),
                        {"units": "s", "long_name": "fixed path delay of an EF packet (2 C7500 ATM hops)"})
    scalars = {
        "rho": (rho, "1", "EF utilisation: packet rate x unframed service time"),
        "q_t": (node.ring_limit_particles, "1", "transmission units in the ring (tx-ring-limit)"),
        "t_u": (t_u_s, "s", "line time of one 512-byte unit, unframed"),
        "tx_unit_capacity": (node.particle_bytes, "bytes", "ring particle size"),
        "ef_packet_rate": (ef_rate_pps, "1/s", "EF reference packet rate"),
        "ef_service_time": (ef_service_s, "s", "line time of a 128-byte EF frame, unframed"),
        "ef_line_time_atm": (line_time_s(ef.size.mean_bytes, node.framing, node.line_rate_bps), "s",
                             "line time of an EF packet in the engine (ATM AAL5 cells)"),
        "ef_frame_bytes": (frame_bytes, "bytes", "EF frame size"),
        "ef_rate": (ef_rate_pps * frame_bytes * 8, "bit/s", "EF reference rate (frames)"),
    }
    for name, (value, unit, long_name) in scalars.items():
        ds[name] = ((), float(value), {"units": unit, "long_name": long_name})
    ds.attrs = provenance("globecom01_tab4",
                          "globecom01_tab4: worst-case average delay W vs measured W_m (GLOBECOM'01 Table IV)",
                          __name__, seeds, scenario=sc.to_json(), n_ef_samples=n)
    return ds


# --------------------------------------------------------------------------- globecom01_pq_bound


@cache.artefact()
def globecom01_pq_bound(
    n_bursts: int = 40,
    burst_packets: int = 12,
    be_payload_bytes: int = 1472,
    seeds=(1, 2, 3),
    spacing_s: float = 0.25,
    warmup_s: float = 2.0,
    n_ef_samples: int = 10_000,
) -> xr.Dataset:
    """The 5.12 ms a full 10-packet EF queue adds (GLOBECOM'01 Sec. V), bound and simulation.

    The bound is :func:`pqlab.bounds.priority_queue_max_delay` (10 x 128 bytes
    at 2 Mbit/s): unframed as in the paper, and with the engine's ATM AAL5
    framing (a 128-byte frame takes 3 cells, 0.636 ms). The simulation drives
    the papers' C7200 with 20 saturating BE streams of ``be_payload_bytes`` and,
    instead of the CBR reference stream, ``n_bursts`` EF bursts of
    ``burst_packets`` packets arriving at the same instant, ``spacing_s`` apart
    (the policer's 7500-byte bucket refills in between). Per burst packet it
    measures the priority-queue wait (ring entry - arrival), the node sojourn
    (departure - arrival) and the EF part: ``departure - departure of the burst's
    first packet + one EF line time`` (the time to send the EF packets queued
    ahead plus its own). A second run per seed, the papers' base case with BE
    payloads of ``be_payload_bytes`` (one CBR EF stream), gives the largest
    priority-queue wait of a lone EF packet, which the paper puts at one MTU BE
    line time (Sec. IV-A).

    Parameters
    ----------
    n_bursts : int
        EF bursts per seed (>= 1).
    burst_packets : int
        EF packets per burst (>= 1); more than the queue limit (10) shows the tail drop.
    be_payload_bytes : int
        BE UDP payload, bytes (1472: 1500-byte IP MTU packets, the worst case).
    seeds : sequence of int
        Seeds (>= 0).
    spacing_s : float
        Time between bursts, seconds (>= 0.05).
    warmup_s : float
        Time before the first burst, seconds (> 0; the BE queue fills in < 0.5 s).
    n_ef_samples : int
        Reference packets of the lone-EF run (>= 10).

    Returns
    -------
    xarray.Dataset
        Dims ``seed``, ``burst``, ``position`` (1-based place in the burst):
        ``pq_wait``, ``sojourn``, ``ef_part`` (s, NaN if dropped), ``admitted``;
        per seed ``lone_max_pq_wait`` (s); scalars ``bound_unframed``,
        ``bound_atm``, ``ef_line_time``, ``mtu_line_time`` (s), ``ef_queue_limit``
        (packets), ``max_burst`` (bytes).
    """
    n_bursts = check_int("n_bursts", n_bursts, 1, 100_000)
    burst_packets = check_int("burst_packets", burst_packets, 1, 10_000)
    be_payload = check_int("be_payload_bytes", be_payload_bytes, 1, 65_535 - 28)
    seeds = check_seeds(seeds)
    spacing = check_real("spacing_s", spacing_s, 0.05)
    warmup = check_real("warmup_s", warmup_s, 0.0, strict_minimum=True)
    n = check_n_ef_samples(n_ef_samples, 10, 100_000_000)

    frame = presets.EF_FRAME_BYTES
    ef_ip = presets.ef_ip_bytes(frame)
    template = presets.pq_experiment(be_payload_bytes=be_payload, n_ef_samples=10, warmup_s=warmup)
    node = template.node
    limit = node.queues[presets.EF_QUEUE].limit_packets
    ef_line_s = line_time_s(ef_ip, node.framing, node.line_rate_bps)
    burst_t = warmup + spacing * np.arange(n_bursts)
    trace = TraceStream(np.repeat(burst_t, burst_packets), np.full(n_bursts * burst_packets, ef_ip),
                        queue=presets.EF_QUEUE, flow=presets.REFERENCE_FLOW)
    be_streams = tuple(s for s in template.streams if s.flow >= presets.FIRST_BE_FLOW)
    sc = Scenario(node=node, streams=(trace, *be_streams), duration_s=float(burst_t[-1] + spacing),
                  warmup_s=warmup, path=template.path, name="globecom01_pq_bound: EF bursts")

    shape = (len(seeds), n_bursts, burst_packets)
    pq_wait, sojourn, ef_part = (np.full(shape, np.nan) for _ in range(3))
    lone = np.full(len(seeds), np.nan)
    for i, seed in enumerate(seeds):
        ds = simulate(sc, seed=seed)
        ef = ds.isel(packet=np.flatnonzero(ds["flow"].values == presets.REFERENCE_FLOW))
        kept = ef["drop"].values == 0
        arr = ef["arrival"].values.reshape(n_bursts, burst_packets)
        entry, dep = (np.where(kept, ef[v].values, np.nan).reshape(n_bursts, burst_packets)
                      for v in ("ring_entry", "departure"))
        pq_wait[i] = entry - arr
        sojourn[i] = dep - arr
        ef_part[i] = dep - np.nanmin(dep, axis=1, keepdims=True) + ef_line_s
        lone_sc = presets.base_case(be_payload_bytes=be_payload, n_ef_samples=n, warmup_s=warmup)
        win = experiments.measurement_window(simulate(lone_sc, seed=seed), lone_sc)
        lone[i] = float(np.nanmax(win["ring_entry"].values - win["arrival"].values))

    dims = ("seed", "burst", "position")
    ds = xr.Dataset(
        {
            "pq_wait": (dims, pq_wait, {"units": "s", "long_name": "wait in the priority queue"}),
            "sojourn": (dims, sojourn, {"units": "s", "long_name": "time in the C7200 (PQ + ring + line)"}),
            "ef_part": (dims, ef_part,
                        {"units": "s", "long_name": "line time of the burst's EF packets up to this one"}),
            "admitted": (dims, np.isfinite(pq_wait), {"units": "1", "long_name": "admitted to the priority queue"}),
            "lone_max_pq_wait": ("seed", lone,
                                 {"units": "s", "long_name": "largest PQ wait of a lone CBR EF packet"}),
            "bound_unframed": ((), bounds.priority_queue_max_delay(limit, frame, node.line_rate_bps),
                               {"units": "s", "long_name": "10 x 128 bytes at 2 Mbit/s, unframed (paper)"}),
            "bound_atm": ((), bounds.priority_queue_max_delay(limit, frame, node.line_rate_bps, node.framing),
                          {"units": "s", "long_name": "10 x 128-byte frames in ATM AAL5 cells"}),
            "ef_line_time": ((), ef_line_s, {"units": "s", "long_name": "line time of one EF packet (ATM)"}),
            "mtu_line_time": ((), line_time_s(be_payload + 28, node.framing, node.line_rate_bps),
                              {"units": "s", "long_name": "line time of one BE packet (ATM)"}),
            "ef_queue_limit": ((), float(limit), {"units": "packets", "long_name": "priority queue limit"}),
            "max_burst": ((), float(limit * frame), {"units": "bytes", "long_name": "EF queue limit x frame size"}),
        },
        coords={"seed": ("seed", seeds, {"units": "1", "long_name": "random seed"}),
                "burst": ("burst", np.arange(n_bursts), {"units": "1", "long_name": "burst index"}),
                "position": ("position", np.arange(1, burst_packets + 1),
                             {"units": "1", "long_name": "position in the EF burst"})},
        attrs=provenance("globecom01_pq_bound",
                         "globecom01_pq_bound: delay a full 10-packet EF queue adds (GLOBECOM'01 Sec. V)", __name__,
                         seeds, scenario=sc.to_json(), be_ip_bytes=be_payload + 28, spacing_s=spacing),
    )
    return ds


# --------------------------------------------------------------------------- path


@cache.artefact()
def path(sizes_bytes=tuple(range(40, 1501)), n_ef_samples: int = 2_000, seed: int = 1) -> xr.Dataset:
    """Round-trip time of the uncongested path model, and a check that the C7500 hops never queue.

    One-way uncongested delay of a packet = its line time through the simulated
    C7200 alone (:func:`pqlab.simulate_arrivals`, no other traffic) plus
    :func:`pqlab.scenarios.paper_path` (two store-and-forward ATM hops at 2 Mbit/s);
    the RTT is twice that (the paper loops traffic back over the same path).
    For comparison the same with unframed lines (no ATM cell tax). The check of
    GLOBECOM'01 Sec. III ("non-congested FIFO devices introducing a constant
    transmission delay which is only a function of the EF packet size"): the
    departures of a congested base-case run (1000-byte BE payloads, seed
    ``seed``) are fed through the two C7500 hops simulated as FIFO nodes at the
    same 2 Mbit/s ATM rate (:func:`pqlab.node.tandem.simulate_downstream_hops`) and the EF delay
    there is compared with the path model's serialisation of the EF packet.

    Parameters
    ----------
    sizes_bytes : sequence of int
        IP lengths, bytes, in ``[1, 65535]`` (default every length 40..1500; the
        claims need 64).
    n_ef_samples : int
        Reference packets of the congested run (>= 10).
    seed : int
        Its seed (>= 0).

    Returns
    -------
    xarray.Dataset
        Dim ``size``: ``rtt``, ``rtt_unframed``, ``one_way`` (s). Scalars:
        ``hop_max_wait``, ``ef_hop_delay_mean``, ``ef_hop_delay_std``,
        ``ef_hop_delay_model``, ``be_line_time`` (s), ``hop_packets``,
        ``line_rate`` (bit/s), ``n_hops`` (ATM hops each way, C7200 included),
        ``paper_rtt_64`` (s, the paper's value). The claims convert to the paper's ms.
    """
    sizes = [int(s) for s in check_array("sizes_bytes", list(sizes_bytes), kind="int", minimum=1, maximum=65_535)]
    if not sizes:
        raise ValueError("sizes_bytes must hold at least one size, got none")
    n = check_n_ef_samples(n_ef_samples, 10, 100_000_000)
    seed = check_int("seed", seed, 0)
    node, hops = cisco7200_atm(), presets.paper_path()
    # each size alone through the empty C7200 (its BE queue, 1 s apart): the node's own serialisation
    alone = simulate_arrivals(node, np.arange(len(sizes), dtype=float), sizes, np.full(len(sizes), presets.BE_QUEUE))
    node_s = alone["departure"].values - alone["arrival"].values
    one_way = node_s + np.asarray(hops.extra_delay_s(sizes))
    unframed_hops = PathModel(hops.fixed_s, tuple(type(h)(h.rate_bps, "none") for h in hops.hops))
    one_way_unframed = (line_time_s(np.array(sizes), "none", node.line_rate_bps)
                        + np.asarray(unframed_hops.extra_delay_s(sizes)))

    sc = presets.base_case(be_payload_bytes=1000, n_ef_samples=n)
    ds = simulate(sc, seed=seed)
    hops_out = simulate_downstream_hops(ds, hops)
    ref = (hops_out["flow"].values == presets.REFERENCE_FLOW) & (hops_out["arrival"].values >= sc.warmup_s)
    ef_hop = (hops_out["hops_departure"] - hops_out["node_departure"]).values[ref]
    ef_model = np.asarray(hops.extra_delay_s(hops_out["size"].values[ref])) - hops.fixed_s
    return xr.Dataset(
        {
            "one_way": ("size", one_way, {"units": "s", "long_name": "uncongested one-way delay (model)"}),
            "rtt": ("size", 2 * one_way, {"units": "s", "long_name": "round-trip time, ATM AAL5 lines"}),
            "rtt_unframed": ("size", 2 * one_way_unframed,
                             {"units": "s", "long_name": "round-trip time, unframed lines"}),
            "hop_max_wait": ((), float(hops_out["hops_wait"].max()),
                             {"units": "s", "long_name": "largest wait of a packet at the C7500 hops"}),
            "hop_packets": ((), float(hops_out.sizes["packet"]),
                            {"units": "1", "long_name": "packets through the C7500 hops"}),
            "ef_hop_delay_mean": ((), float(ef_hop.mean()),
                                  {"units": "s", "long_name": "mean delay of EF packets over the C7500 hops"}),
            "ef_hop_delay_std": ((), float(ef_hop.std()),
                                 {"units": "s", "long_name": "std of the EF delay over the C7500 hops"}),
            "ef_hop_delay_model": ((), float(ef_model.mean()),
                                   {"units": "s", "long_name": "the path model's serialisation of an EF packet"}),
            "be_line_time": ((), line_time_s(sc.streams[-1].size.mean_bytes + sc.streams[-1].header_bytes,
                                             node.framing, node.line_rate_bps),
                             {"units": "s", "long_name": "line time of one BE packet of the congested run"}),
            "line_rate": ((), node.line_rate_bps, {"units": "bit/s", "long_name": "C7200 line rate"}),
            "n_hops": ((), float(1 + len(hops.hops)), {"units": "1", "long_name": "ATM hops each way"}),
            "paper_rtt_64": ((), ms_to_s(paper_value("path", "rtt_64_byte_packet")[0]),
                             {"units": "s", "long_name": "GLOBECOM'01: RTT of a 64-byte packet, 'approximately'"}),
        },
        coords={"size": ("size", sizes, {"units": "bytes", "long_name": "IP packet length"})},
        attrs=provenance("path", "path: round-trip time of the uncongested path model (GLOBECOM'01 Sec. III)",
                         __name__, path=hops.to_dict().__repr__(), congested_scenario=sc.name, seed=seed),
    )
