"""Chains of nodes (multiple congestion points), built from the single-node engine.

The engine stays single-node: a tandem feeds the packets one node kept, at their
departure time plus a propagation delay, as an explicit trace into the next
node, merged with that node's own cross traffic (TF-TANT slides, "multiple
congestion points": ``dD = dD_1 + ... + dD_n``). Packet identity is carried
through every hop, so the end-to-end delay of each packet is exact.

:func:`simulate_downstream_hops` chains the other way round: every packet a node
kept crosses the uncongested hops of a :class:`pqlab.node.path.PathModel`, each
simulated as a FIFO node by the same engine (a packet waits behind a longer one
still being sent), instead of the path model's fixed serialisation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import xarray as xr

from ..base._validate import check_array, check_int, check_real, check_unmasked
from .engine import simulate_arrivals
from .framing import PACKET_PARTICLE_BYTES, line_time_s
from .model import Node, Queue
from .path import PathModel
from .scenario import Scenario, simulate
from .traffic import check_streams, merge_streams


@dataclass(frozen=True)
class TandemHop:
    """One further congestion point of a tandem.

    Parameters
    ----------
    node : Node
        The node at this hop.
    cross_streams : sequence of Stream
        This hop's own traffic (e.g. its BE cross traffic); may be empty. Its
        flow ids must differ from the forwarded flows'.
    queue : int
        Queue of ``node`` that the forwarded packets join (e.g. the priority queue).
    propagation_s : float
        Delay from the previous node's departure to the arrival here, seconds (>= 0).
    """

    node: Node
    cross_streams: tuple = field(default_factory=tuple)
    queue: int = 0
    propagation_s: float = 0.0

    def __post_init__(self):
        if not isinstance(self.node, Node):
            raise ValueError(f"node must be a pqlab.Node, got {type(self.node).__name__}")
        object.__setattr__(self, "cross_streams", check_streams(self.cross_streams))
        check_int("queue", self.queue, 0, len(self.node.queues) - 1)
        for i, s in enumerate(self.cross_streams):
            if s.queue >= len(self.node.queues):
                raise ValueError(
                    f"cross_streams[{i}].queue must be in [0, {len(self.node.queues) - 1}], got"
                    f" {s.queue}"
                )
        object.__setattr__(
            self, "propagation_s", check_real("propagation_s", self.propagation_s, 0.0)
        )


def forwarded(ds: xr.Dataset, flows, propagation_s: float = 0.0):
    """The kept packets of ``flows`` as they leave a node, in departure order.

    Parameters
    ----------
    ds : xarray.Dataset
        A node's per-packet Dataset with ``flow`` and ``packet_id`` (or its ``packet`` coordinate).
    flows : sequence of int
        Flow ids that continue to the next hop (a masked array with a masked entry is refused).
    propagation_s : float
        Added to the departure times, seconds.

    Returns
    -------
    arrival_s, size_bytes, flow, packet_id : numpy.ndarray
        Arrivals at the next hop (sorted) and the packets' sizes, flows and ids.
    """
    keep = (ds["drop"].values == 0) & np.isin(
        ds["flow"].values, np.asarray(check_unmasked("flows", flows))
    )
    idx = np.flatnonzero(keep)
    idx = idx[np.argsort(ds["departure"].values[idx], kind="stable")]
    ids = ds["packet_id"].values if "packet_id" in ds else ds["packet"].values
    return (
        ds["departure"].values[idx] + propagation_s,
        ds["size"].values[idx],
        ds["flow"].values[idx],
        ids[idx],
    )


def simulate_tandem(
    scenario: Scenario, hops, flows, seed: int = 0, *, record_scenario: bool = True
) -> tuple[list, xr.DataArray]:
    """Simulate ``scenario`` at the first node, then forward ``flows`` through ``hops``.

    Parameters
    ----------
    scenario : Scenario
        The first node and its traffic.
    hops : sequence of TandemHop
        The further nodes, in path order.
    flows : sequence of int
        Flows that traverse every hop (e.g. the EF flows); other packets leave the path.
    seed : int
        Seeds the first node's traffic (``pqlab.simulate``) and then each hop's
        cross traffic, in order, from one generator: deterministic per seed.
    record_scenario : bool
        Passed to :func:`pqlab.simulate` for the first node (False: its ``scenario``
        attribute is not recorded; the caller records its own provenance).

    Returns
    -------
    per_hop : list of xarray.Dataset
        The per-packet Dataset of every node (first node first), each with
        ``flow`` and ``packet_id`` (the packet's index at the first node; -1 for
        a hop's own cross traffic).
    departure : xarray.DataArray
        Dims ``(packet, hop)``: departure of each first-node packet of ``flows``
        from each node, seconds; NaN once it was dropped. Coordinate ``packet``
        holds the first-node index, ``hop`` 0 .. len(hops).
    """
    hops = tuple(hops)
    for i, h in enumerate(hops):
        if not isinstance(h, TandemHop):
            raise ValueError(
                f"hops[{i}] must be a pqlab.node.tandem.TandemHop, got {type(h).__name__}"
            )
    flows = np.unique(check_array("flows", np.atleast_1d(flows), kind="int", minimum=0))
    if flows.size == 0:
        raise ValueError("flows must name at least one flow id, got none")
    for i, h in enumerate(hops):
        for k, s in enumerate(h.cross_streams):
            if s.flow in flows:
                raise ValueError(
                    f"hops[{i}].cross_streams[{k}].flow must differ from the forwarded flows "
                    f"{flows.tolist()}, got {s.flow}"
                )
    first = simulate(scenario, seed=seed, record_scenario=record_scenario)
    first["packet_id"] = (
        "packet",
        first["packet"].values,
        {"units": "1", "long_name": "index at the first node"},
    )
    through = np.flatnonzero(np.isin(first["flow"].values, flows))
    departure = np.full((through.size, len(hops) + 1), np.nan)
    departure[:, 0] = first["departure"].values[through]
    rng = np.random.default_rng([seed, 1])
    per_hop, ds = [first], first
    for h_index, hop in enumerate(hops, start=1):
        t_f, s_f, f_f, id_f = forwarded(ds, flows, hop.propagation_s)
        horizon = (t_f.max() if t_f.size else 0.0) + 1e-9
        if hop.cross_streams:
            t_c, s_c, q_c, f_c = merge_streams(hop.cross_streams, rng, horizon)
        else:
            t_c = s_c = q_c = f_c = np.empty(0, dtype=np.int64)
        t = np.concatenate([t_f, np.asarray(t_c, dtype=float)])
        order = np.argsort(t, kind="stable")
        size = np.concatenate([s_f, s_c])[order]
        queue = np.concatenate([np.full(t_f.size, hop.queue), q_c])[order]
        flow = np.concatenate([f_f, f_c])[order]
        pid = np.concatenate([id_f, np.full(t_c.size, -1)])[order]
        ds = simulate_arrivals(hop.node, t[order], size, queue)
        ds = ds.assign(
            {
                "flow": ("packet", flow, {"units": "1", "long_name": "flow id"}),
                "packet_id": (
                    "packet",
                    pid,
                    {"units": "1", "long_name": "index at the first node (-1: cross traffic)"},
                ),
            }
        )
        mine = np.flatnonzero(pid >= 0)
        rows = np.searchsorted(
            through, pid[mine]
        )  # row of each forwarded packet (through is sorted)
        departure[rows, h_index] = ds["departure"].values[mine] + ds.attrs.get("time_origin_s", 0.0)
        per_hop.append(ds)
    result = xr.DataArray(
        departure,
        dims=("packet", "hop"),
        coords={"packet": through, "hop": np.arange(len(hops) + 1)},
        attrs={"units": "s", "long_name": "departure from each node of the tandem (NaN: dropped)"},
        name="departure",
    )
    return per_hop, result


def simulate_downstream_hops(ds: xr.Dataset, path_model: PathModel) -> xr.Dataset:
    """Send the node's departures through the path's hops simulated as FIFO store-and-forward nodes.

    Every packet the node kept (EF and BE: they share the path, GLOBECOM'01
    Sec. III) enters the first hop when its last bit has left the node; each hop
    is a :class:`pqlab.Node` with one FIFO queue and a one-packet ring at the
    hop's rate and framing, run by the same engine. Unlike :class:`PathModel`,
    which adds each hop's serialisation of the packet alone, a packet here
    also waits for a longer packet ahead of it still being sent.

    Parameters
    ----------
    ds : xarray.Dataset
        Output of :func:`pqlab.simulate` (variables ``arrival``, ``departure``,
        ``size``, ``drop``, ``flow``).
    path_model : PathModel
        The hops to simulate; its ``fixed_s`` is not included.

    Returns
    -------
    xarray.Dataset
        Dim ``packet`` (the kept packets in node departure order): ``arrival``,
        ``node_departure``, ``hops_departure``, ``hops_wait`` (time spent
        waiting, not being sent, at all hops), seconds; ``size``, ``flow``.
    """
    if not isinstance(path_model, PathModel):
        raise ValueError(
            f"path_model must be a pqlab.node.path.PathModel, got {type(path_model).__name__}"
        )
    kept = np.flatnonzero(ds["drop"].values == 0)
    order = kept[np.argsort(ds["departure"].values[kept], kind="stable")]
    size = ds["size"].values[order]
    node_dep = ds["departure"].values[order]
    t, serialisation = node_dep, np.zeros(size.size)
    for hop in path_model.hops:
        fifo = Node(
            hop.rate_bps,
            hop.framing,
            1,
            PACKET_PARTICLE_BYTES,
            (Queue("wfq", max(1, size.size), weight_bps=hop.rate_bps),),
        )
        t = simulate_arrivals(fifo, t, size, np.zeros(size.size, dtype=np.int64))[
            "departure"
        ].values
        serialisation = serialisation + line_time_s(size, hop.framing, hop.rate_bps)
    dims = ("packet",)
    return xr.Dataset(
        {
            "arrival": (
                dims,
                ds["arrival"].values[order],
                {"units": "s", "long_name": "arrival at the node"},
            ),
            "node_departure": (
                dims,
                node_dep,
                {"units": "s", "long_name": "departure from the node"},
            ),
            "hops_departure": (dims, t, {"units": "s", "long_name": "departure from the last hop"}),
            "hops_wait": (
                dims,
                t - node_dep - serialisation,
                {"units": "s", "long_name": "waiting at the hops"},
            ),
            "size": (dims, size, {"units": "bytes", "long_name": "IP packet length"}),
            "flow": (dims, ds["flow"].values[order], {"units": "1", "long_name": "flow id"}),
        }
    )
