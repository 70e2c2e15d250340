"""GLOBECOM'01 Figs. 1-2, the node: classifier, policer, PQ, WFQ, tx ring, line.

The artefact's computation (:func:`compute`) and figure (:func:`figure`, the node schematic);
the papers state nothing measurable about it (its numbers are claims of ``globecom01_tab1``),
so it has no claims. The notebook ``notebooks/01_background_traffic`` runs it. The Dataset is in
SI units (times in seconds, rates in bit/s, sizes in bytes); the figure states times in ms.
"""

from __future__ import annotations

import numpy as np
import xarray as xr
from matplotlib import patches

from ...base.units import to_kbps, to_mbps, to_ms
from ...measure import cache
from ...node.framing import ATM_CELL_BYTES, atm_cells, line_time_s
from ...node.model import Node
from ...node.path import PathModel
from .. import kit, presets
from ..registry import Artefact
from ..stated import MTU_BYTES
from .diagram import FRAMING_NAMES, arrow, box, label_size
from .shared import check_dataset, particles

__all__ = ["ARTEFACT", "compute", "figure"]

ARTEFACT = Artefact(__name__, notebook="01_background_traffic")


@cache.artefact(ARTEFACT.id)
def compute(node: Node | None = None, path: PathModel | None = None) -> xr.Dataset:
    """The node of GLOBECOM'01 Figs. 1-2 as data: queues, scheduler, ring and line of
    a :class:`pqlab.Node`.

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
    node, path = kit.check_node_and_path(node, path)
    q = node.queues

    def col(name):
        return np.array(
            [np.nan if getattr(x, name) is None else float(getattr(x, name)) for x in q]
        )

    ef_ip = presets.ef_ip_bytes(presets.EF_FRAME_BYTES)
    mtu_particles = int(particles(MTU_BYTES, node.particle_bytes))
    ds = xr.Dataset(
        {
            "kind": ("queue", np.array([x.kind for x in q]), {"long_name": "queue kind"}),
            "limit_packets": (
                "queue",
                np.array([x.limit_packets for x in q]),
                {"units": "packets", "long_name": "queue limit (waiting packets)"},
            ),
            "weight_bps": (
                "queue",
                col("weight_bps"),
                {"units": "bit/s", "long_name": "WFQ weight"},
            ),
            "police_rate_bps": (
                "queue",
                col("police_rate_bps"),
                {"units": "bit/s", "long_name": "policer rate"},
            ),
            "police_burst_bytes": (
                "queue",
                col("police_burst_bytes"),
                {"units": "bytes", "long_name": "policer bucket depth"},
            ),
        },
        coords={"queue": np.arange(len(q))},
        attrs={
            **kit.provenance(
                ARTEFACT.id, f"{ARTEFACT.id}: the node model (GLOBECOM'01 Figs. 1-2)", __name__
            ),
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


def figure(data: xr.Dataset):
    """GLOBECOM'01 Figs. 1-2: the node schematic, drawn from a :class:`pqlab.Node` via the compute
    function.

    Classifier, per-queue policer, priority and WFQ queues (limits, weights), the
    scheduler, the transmission ring of ``ring_limit`` particles (and the overshoot a
    multi-particle packet can cause), the line and the rest of the path. Every label is
    computed from the Dataset; no text is smaller than the theme's axis labels
    (:func:`pqlab.papers.globecom01.diagram.label_size`), so the schematic reads at the size of the
    other figures.
    """
    check_dataset(
        ARTEFACT.id,
        data,
        ("kind", "limit_packets", "weight_bps", "police_rate_bps", "police_burst_bytes"),
    )
    a = data.attrs
    size = label_size()
    fig, ax = kit.subplots(figsize=(13, 7.4))
    ax.set_xlim(0, 110)
    ax.set_ylim(0, 58)
    ax.set_aspect("equal")
    ax.axis("off")

    mid = 29.0
    ax.text(0.3, mid + 1.2, "EF + BE\npackets", ha="left", va="bottom", fontsize=size)
    arrow(ax, 0.3, mid, 8.3, mid)
    box(ax, 9, mid - 6, 11, 12, "classifier\n(DSCP \u2192\nqueue)")

    n = data.sizes["queue"]
    order = sorted(range(n), key=lambda i: (data["kind"].values[i] != "priority", i))
    ys = np.linspace(46, 12, n) if n > 1 else np.array([mid])
    sched_x, sched_y, sched_r = 67.0, mid, 5.2
    for y, i in zip(ys, order):
        kind = str(data["kind"].values[i])
        limit = int(data["limit_packets"].values[i])
        rate = float(data["police_rate_bps"].values[i])
        burst = float(data["police_burst_bytes"].values[i])
        weight = float(data["weight_bps"].values[i])
        arrow(ax, 20.6, mid, 24.5, y)
        if np.isfinite(rate):
            box(
                ax,
                25,
                y - 4.5,
                13,
                9,
                f"policer\n{to_kbps(rate):g} kbit/s\nburst {burst:g} B",
                color="#fde0c5",
            )
        else:
            ax.text(31.5, y, "(no policer)", ha="center", va="center", fontsize=size, color="0.4")
        arrow(ax, 38.8, y, 42.5, y)
        # the queue: an open-ended buffer with slots
        x0, x1, h = 43, 60, 5.5
        ax.plot([x0, x1, x1, x0], [y + h / 2, y + h / 2, y - h / 2, y - h / 2], color="0.2", lw=1.3)
        shown = min(limit, 10)
        for s in range(1, shown):
            xs = x1 - s * (x1 - x0) / shown
            ax.plot([xs, xs], [y - h / 2, y + h / 2], color="0.6", lw=0.8)
        if limit > shown:
            ax.text(x0 + 0.6, y, "...", ha="left", va="center", fontsize=size)
        if kind == "priority":
            label = f"queue {i}: strict priority (EF)\nlimit {limit} packets"
        else:
            label = (
                f"queue {i}: WFQ (best effort)\nweight {to_mbps(weight):g} Mbit/s, limit {limit}"
                " packets"
            )
        ax.text((x0 + x1) / 2, y + h / 2 + 0.6, label, ha="center", va="bottom", fontsize=size)
        dx, dy = sched_x - x1, sched_y - y
        d = np.hypot(dx, dy)
        arrow(ax, x1 + 0.3, y, sched_x - dx / d * sched_r, sched_y - dy / d * sched_r)
    ax.add_patch(patches.Circle((sched_x, sched_y), sched_r, fc="#e5f5e0", ec="0.2"))
    ax.text(
        sched_x, sched_y, "scheduler\npriority,\nthen WFQ", ha="center", va="center", fontsize=size
    )

    # the transmission ring: ring_limit particles, plus the overshoot with MTU packets
    ring_limit, max_particles, pb = (
        a["ring_limit_particles"],
        a["max_ring_particles"],
        a["particle_bytes"],
    )
    rx0, cell = 74.5, 2.6
    ry = sched_y - cell / 2
    arrow(ax, sched_x + sched_r, sched_y, rx0 - 0.2, sched_y)
    for s in range(max_particles):
        solid = s < ring_limit
        ax.add_patch(
            patches.Rectangle(
                (rx0 + s * cell, ry),
                cell * 0.9,
                cell,
                fc="#c6dbef" if solid else "white",
                ec="0.2",
                ls="-" if solid else "--",
            )
        )
    rx1 = rx0 + max_particles * cell
    ax.text(
        (rx0 + rx1) / 2,
        ry + cell + 0.8,
        f"transmission ring\n{ring_limit} particles x {pb} B",
        ha="center",
        va="bottom",
        fontsize=size,
    )
    ax.text(
        (rx0 + rx1) / 2,
        ry - 0.8,
        f"up to {ring_limit - 1} + {a['mtu_particles']} = {max_particles} particles\nwith"
        f" {a['mtu_bytes']}-B packets\n(dashed)",
        ha="center",
        va="top",
        fontsize=size,
    )

    # the line and the rest of the path
    lx = rx1 + 0.5
    arrow(ax, lx, sched_y, 109.5, sched_y)
    framing = FRAMING_NAMES.get(a["framing"], a["framing"])
    ax.text(
        (lx + 109.5) / 2,
        sched_y + 1.0,
        f"line\n{to_mbps(a['line_rate_bps']):g} Mbit/s\n{framing}",
        ha="center",
        va="bottom",
        fontsize=size,
    )
    ax.text(
        (lx + 109.5) / 2,
        sched_y - 1.0,
        f"EF {a['ef_ip_bytes']}-B IP:\n{to_ms(a['ef_line_time_s']):.3f} ms\n"
        f"{a['mtu_bytes']}-B IP:\n{to_ms(a['mtu_line_time_s']):.3f} ms",
        ha="center",
        va="top",
        fontsize=size,
    )
    ef_ip, ef_frame, cells = a["ef_ip_bytes"], a["ef_frame_bytes"], atm_cells(a["ef_ip_bytes"])
    frame = {
        "atm-aal5": (
            f"ATM AAL5 frames: 53 x ceil((IP + 16) / 48) B (EF: the {ef_ip}-B IP "
            f"packet of a {ef_frame}-B Ethernet frame at its source, {cells} "
            f"cells = {cells * ATM_CELL_BYTES} B)"
        ),
        "ethernet": "Ethernet frames: IP + 38 B",
    }.get(a["framing"], "")
    hops = a["path_hops"]
    hops = [hops] if isinstance(hops, str) else list(hops)
    path = (
        f"then the uncongested path: {len(hops)} hop(s) ({', '.join(hops)}) +"
        f" {to_ms(a['path_fixed_s']):g} ms fixed = +{to_ms(a['path_ef_delay_s']):.3f} ms for an EF"
        " packet"
    )
    ax.text(
        0.3,
        0.5,
        "\n".join(filter(None, [frame, path])),
        ha="left",
        va="bottom",
        fontsize=size,
        color="0.3",
    )
    ax.set_title(
        f"{ARTEFACT.id}: the node model of GLOBECOM'01 Figs. 1-2, drawn from"
        " pqlab.Node.cisco7200_atm()",
        fontsize=size,
    )
    return fig
