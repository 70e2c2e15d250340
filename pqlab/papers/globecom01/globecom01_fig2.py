"""GLOBECOM'01 Fig. 2, the test network: the test workstations (background traffic) and the
SmartBits
(the EF reference stream) on Site 1's switched Ethernet, the C7200 (a :class:`pqlab.Node`), the two
C7500 hops (a :class:`pqlab.node.path.PathModel`), the loop back to Site 1.

The artefact's computation (:func:`compute`), the numbers its claims quote
(:func:`claim_values`) and figure (:func:`figure`); the notebook
``notebooks/11_network_and_slides`` runs them. The Dataset is in SI units (times in seconds, sizes
in bytes, rates in bit/s); the claims and the figure state rates in kbit/s or Mbit/s and times in
ms.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...base._validate import check_real
from ...base.units import to_kbps, to_mbps, to_ms
from ...measure import cache
from ...node.framing import line_time_s
from ...node.model import Node
from ...node.path import PathModel
from .. import kit, presets
from ..registry import Artefact
from .diagram import FRAMING_NAMES, arrow, box, label_size
from .shared import check_dataset

__all__ = ["ARTEFACT", "compute", "claim_values", "figure"]

ARTEFACT = Artefact(__name__, notebook="11_network_and_slides")

_ROUTER_C7200 = "C7200"
_ROUTER_C7500 = "C7500"
#: GLOBECOM'01 Sec. III and Fig. 2: the test workstations and the SmartBits 200 of Site 1 send into
#: the C7200,
#: and receive after the loop, on a switched Ethernet (docs/testbed.md: "sources on one switched
#: Ethernet").
SITE_LAN = "switched Ethernet"


@cache.artefact(ARTEFACT.id)
def compute(
    node: Node | None = None, path: PathModel | None = None, be_offered_bps: float | None = None
) -> xr.Dataset:
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
    node, path = kit.check_node_and_path(node, path)
    sc = presets.real_distribution(n_ef_samples=10)
    ef_offered = float(sum(s.rate_bps for s in kit.ef_streams(sc)))
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
            "role": (
                "router",
                np.array(["qos"] + ["fifo"] * len(path.hops)),
                {
                    "long_name": (
                        "qos: the simulated node with PQ + WFQ; fifo: an uncongested path hop"
                    )
                },
            ),
            "n_queues": (
                "router",
                np.array([len(node.queues)] + [1] * len(path.hops)),
                {"units": "queues", "long_name": "output queues"},
            ),
            "has_priority_queue": (
                "router",
                np.array(
                    [any(q.kind == "priority" for q in node.queues)] + [False] * len(path.hops)
                ),
                {"long_name": "a priority queue on the output"},
            ),
            "out_rate_bps": (
                "router",
                np.array(out_rate, dtype=float),
                {"units": "bit/s", "long_name": "output line rate"},
            ),
            "out_framing": ("router", np.array(framing), {"long_name": "output line framing"}),
            "in_rate_bps": (
                "router",
                np.array(in_rate, dtype=float),
                {
                    "units": "bit/s",
                    "long_name": "largest arrival rate (offered load, then the previous line)",
                },
            ),
            "ef_line_time_s": (
                "router",
                np.array([line_time_s(ef_ip, f, r) for f, r in zip(framing, out_rate)]),
                {"units": "s", "long_name": "line time of the EF packet on the output"},
            ),
        },
        coords={"router": np.arange(len(names))},
        attrs={
            **kit.provenance(
                ARTEFACT.id,
                f"{ARTEFACT.id}: the test network (GLOBECOM'01 Fig. 2) from the Node "
                "and the PathModel",
                __name__,
            ),
            "ef_offered_bps": ef_offered,
            "be_offered_bps": be_offered,
            "n_ef_streams": len(kit.ef_streams(sc)),
            "n_be_streams": len(kit.be_streams(sc)),
            "ef_ip_bytes": ef_ip,
            "ef_frame_bytes": presets.EF_FRAME_BYTES,
            "path_fixed_s": path.fixed_s,
            "path_ef_delay_s": float(path.extra_delay_s(ef_ip)),
        },
    )
    ds["congested"] = (
        "router",
        ds["in_rate_bps"].values > ds["out_rate_bps"].values,
        {"long_name": "arrivals can exceed the output rate"},
    )
    return claim_values(ds)


def claim_values(ds: xr.Dataset) -> xr.Dataset:
    """Add the numbers the claims quote (in place; returned): per router, by name, its output rate
    and framing, whether it has a priority queue, is congested and is the QoS node; per hop of the
    path, its output rate and its largest arrival rate; the C7200's arrival and egress rates, the
    offered loads (kbit/s) and the path's EF delay (ms)."""
    names = [str(x) for x in ds["name"].values]
    out, inr = ds["out_rate_bps"].values, ds["in_rate_bps"].values

    def by_name(values):
        return xr.DataArray(np.asarray(values), dims=("router_name",))

    def by_hop(values):
        return xr.DataArray(np.asarray(values), dims=("hop",))

    ds.coords["router_name"] = ("router_name", names, {"long_name": "router"})
    ds.coords["hop"] = ("hop", np.arange(1, len(names)), {"long_name": "hop of the path, in order"})
    return kit.add_claim_values(
        ds,
        {
            "n_routers": (len(names), "routers", "routers of the test network"),
            "n_hops": (len(names) - 1, "hops", "hops of the path model"),
            "out_kbps": (by_name(to_kbps(out)), "kbit/s", "output line rate"),
            "smallest_out_kbps": (to_kbps(out.min()), "kbit/s", "smallest output line rate"),
            "framing_of": (by_name(ds["out_framing"].values), "1", "output line framing"),
            "has_pq": (
                by_name(ds["has_priority_queue"].values),
                "1",
                "a priority queue on the output",
            ),
            "is_congested": (
                by_name(ds["congested"].values),
                "1",
                "arrivals above the output rate",
            ),
            "is_qos_node": (
                by_name(ds["role"].values == "qos"),
                "1",
                "the simulated node with PQ + WFQ",
            ),
            "c7200_arrival_kbps": (to_kbps(inr[0]), "kbit/s", "largest arrival rate at the C7200"),
            "c7200_egress_kbps": (to_kbps(out[0]), "kbit/s", "the C7200's egress line rate"),
            "ef_offered_kbps": (to_kbps(ds.attrs["ef_offered_bps"]), "kbit/s", "EF load offered"),
            "be_offered_kbps": (to_kbps(ds.attrs["be_offered_bps"]), "kbit/s", "BE load offered"),
            "path_ef_delay_ms": (
                to_ms(ds.attrs["path_ef_delay_s"]),
                "ms",
                "delay the path adds to EF",
            ),
            "hop_out_kbps": (by_hop(to_kbps(out[1:])), "kbit/s", "output rate of a hop"),
            "hop_in_kbps": (by_hop(to_kbps(inr[1:])), "kbit/s", "largest arrival rate of a hop"),
        },
    )


def figure(data: xr.Dataset):
    """GLOBECOM'01 Fig. 2: the test network, one box per router of the Dataset, Site 1 at both ends.

    The papers' senders: the test workstations send the background traffic (the BE streams) and the
    SmartBits 200 the EF reference stream, both on Site 1's switched Ethernet into the C7200; after
    the
    last C7500 the packets loop back over the switched Ethernet to the SmartBits. The C7200 box
    shows its
    queues (the :class:`pqlab.Node`), each router's output its rate and framing as the model has
    them,
    each router whether arrivals can exceed its output rate; a footer gives the delay the path model
    adds
    to the EF packet.
    """
    check_dataset(
        ARTEFACT.id,
        data,
        ("name", "role", "out_rate_bps", "in_rate_bps", "congested", "ef_line_time_s"),
    )
    a = data.attrs
    size = label_size()
    n = data.sizes["router"]
    fig, ax = kit.subplots(figsize=(16, 6.8))
    y, h, w = 20.0, 11.0, 15.0
    x0 = 35.0  # the first router's left edge
    step = 21.0  # from one router to the next
    width = x0 + step * n + 27
    ax.set_xlim(0, width)
    ax.set_ylim(-7, 42)
    ax.set_aspect("equal")
    ax.axis("off")
    n_bg_ef = int(a["n_ef_streams"]) - 1
    background = f"\n+ {n_bg_ef} EF background stream(s)" if n_bg_ef > 0 else ""
    box(
        ax,
        0.5,
        27.5,
        14,
        9.0,
        f"test workstations\nbackground traffic:\nBE, {int(a['n_be_streams'])} streams,\n"
        f"{to_kbps(a['be_offered_bps']):g} kbit/s of IP{background}",
        color="#f0f0f0",
    )
    box(
        ax,
        0.5,
        3.5,
        14,
        10.0,
        "SmartBits 200\nsender (Site 1):\nEF reference,\n"
        f"{to_kbps(a['ef_offered_bps'] / int(a['n_ef_streams'])):.0f} kbit/s of IP;\ntimestamps",
        color="#f0f0f0",
    )
    box(ax, 19.0, y - 4.0, 10, 8.0, "Site 1\nswitched\nEthernet", color="#e5f5e0")
    arrow(ax, 15.3, 32.0, 18.6, y + 2.0)
    arrow(ax, 15.3, 8.5, 18.6, y - 2.0)
    x = x0
    prev_right = 29.8
    for r in range(n):
        name, role = str(data["name"].values[r]), str(data["role"].values[r])
        rate, framing = float(data["out_rate_bps"].values[r]), str(data["out_framing"].values[r])
        inr, congested = float(data["in_rate_bps"].values[r]), bool(data["congested"].values[r])
        arrow(ax, prev_right, y, x - 0.4, y)
        ax.text(
            (prev_right + x) / 2,
            y - 1.0,
            f"in\n{to_mbps(inr):.2f}\nMbit/s",
            ha="center",
            va="top",
            fontsize=size,
            color="0.3",
        )
        if role == "qos":
            text = (
                f"{name}\nQoS: classifier,\npolicer, PQ + WFQ,\n{int(data['n_queues'].values[r])}"
                " queues"
            )
            color = "#fde0c5"
        else:
            text = f"{name}\nFIFO, no QoS\n(path model hop)"
            color = "#dbe9f6"
        box(ax, x, y - h / 2, w, h, text, color=color)
        ax.text(
            x + w / 2,
            y - h / 2 - 1.2,
            (
                "congested:\narrivals > output"
                if congested
                else "not congested:\noutput >= arrivals"
            ),
            ha="center",
            va="top",
            fontsize=size,
            color="#b2182b" if congested else "#2166ac",
        )
        right = x + w + 0.3
        line = f"{to_mbps(rate):g} Mbit/s\n{FRAMING_NAMES.get(framing, framing)}"
        if r == n - 1:  # the papers' last link is Site 1's LAN; the model serialises it as its hop
            line = f"path model hop:\n{line}"
        ax.text(
            right + 2.8,
            y + h / 2 + 0.3,
            f"{line}\nEF: {to_ms(float(data['ef_line_time_s'].values[r])):.3f} ms",
            ha="center",
            va="bottom",
            fontsize=size,
        )
        prev_right = right
        x += step
    arrow(ax, prev_right, y, x - 0.4, y)
    box(ax, x - 1.0, y - 4.0, 10, 8.0, "Site 1\nswitched\nEthernet", color="#e5f5e0")
    arrow(ax, x + 9.6, y, x + 13.6, y)
    box(
        ax,
        x + 14.0,
        y - h / 2,
        12,
        h,
        "SmartBits 200\nreceiver\n(loop back\nto Site 1)",
        color="#f0f0f0",
    )
    ax.text(
        0.5,
        -6.5,
        "in: the largest arrival rate (offered EF + BE, then the previous line); above each"
        " router's output its rate,\nframing and the EF packet's line time; the papers' loop back"
        f" reaches the SmartBits over Site 1's {SITE_LAN}\nEF packet: {a['ef_frame_bytes']}-byte"
        f" frame, {a['ef_ip_bytes']}-byte IP packet; the path model adds"
        f" {to_ms(a['path_ef_delay_s']):.3f} ms ({n - 1} hops + {to_ms(a['path_fixed_s']):g} ms"
        " fixed) after the simulated C7200",
        ha="left",
        va="bottom",
        fontsize=size,
        color="0.3",
    )
    ax.set_title(
        f"{ARTEFACT.id}: the test network of GLOBECOM'01 Fig. 2, drawn from PAPERS.node() and "
        "pqlab.scenarios.paper_path()",
        fontsize=size,
    )
    return fig
