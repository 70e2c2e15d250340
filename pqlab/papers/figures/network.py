"""Figures of GLOBECOM'01 Figs. 2 and 6 and the TF-TANT slides' "PQ: one-way delay".

Each function takes what the compute function of the same name in
:mod:`pqlab.papers.artefacts.network` returns and gives a matplotlib Figure; every label is
computed from the Dataset (times drawn in ms, rates in Mbit/s or kbit/s).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...base.units import to_kbps, to_mbps, to_ms
from . import subplots
from .background import arrow, box, label_size

__all__ = ["globecom01_fig2", "globecom01_fig6"]

_FRAMING = {"atm-aal5": "ATM AAL5", "ethernet": "Ethernet", "none": "unframed"}


def _check(name: str, data, variables) -> xr.Dataset:
    if not isinstance(data, xr.Dataset) or not set(variables) <= set(data.variables):
        raise ValueError(f"{name} must be the xarray.Dataset of pqlab.papers.artefacts.network.{name} "
                         f"(variables {sorted(variables)})")
    return data


def globecom01_fig2(data: xr.Dataset):
    """GLOBECOM'01 Fig. 2: the test network, one box per router of the Dataset, SmartBits at both ends.

    The C7200 box shows its queues (the :class:`pqlab.Node`), each link its rate and framing,
    each router whether arrivals can exceed its output rate; a footer gives the delay the
    path model adds to the EF packet.
    """
    _check("globecom01_fig2", data, ("name", "role", "out_rate_bps", "in_rate_bps", "congested", "ef_line_time_s"))
    a = data.attrs
    size = label_size()
    n = data.sizes["router"]
    fig, ax = subplots(figsize=(13, 6.2))
    width = 34 + 24 * n
    ax.set_xlim(0, width)
    ax.set_ylim(0, 40)
    ax.set_aspect("equal")
    ax.axis("off")
    y, h, w = 20.0, 11.0, 16.0
    box(ax, 0.5, y - h / 2, 13, h, f"SmartBits 200\nsender (Site 1)\nEF {to_kbps(a['ef_offered_bps']):.0f} +\nBE {to_kbps(a['be_offered_bps']):g}\n"
         "kbit/s of IP", color="#f0f0f0")
    x = 19.0
    prev_right = 13.8
    for r in range(n):
        name, role = str(data["name"].values[r]), str(data["role"].values[r])
        rate, framing = float(data["out_rate_bps"].values[r]), str(data["out_framing"].values[r])
        inr, congested = float(data["in_rate_bps"].values[r]), bool(data["congested"].values[r])
        arrow(ax, prev_right, y, x - 0.4, y)
        ax.text((prev_right + x) / 2, y - 1.0, f"in\n{to_mbps(inr):.2f}\nMbit/s", ha="center", va="top",
                fontsize=size, color="0.3")
        if role == "qos":
            text = f"{name}\nQoS: classifier,\npolicer, PQ + WFQ,\n{int(data['n_queues'].values[r])} queues"
            color = "#fde0c5"
        else:
            text = f"{name}\nFIFO, no QoS\n(path model hop)"
            color = "#dbe9f6"
        box(ax, x, y - h / 2, w, h, text, color=color)
        ax.text(x + w / 2, y - h / 2 - 1.2,
                ("congested:\narrivals > output" if congested else "not congested:\noutput >= arrivals"),
                ha="center", va="top", fontsize=size, color="#b2182b" if congested else "#2166ac")
        right = x + w + 0.3
        ax.text(right + 3.8, y + h / 2 + 0.3, f"{to_mbps(rate):g} Mbit/s\n{_FRAMING.get(framing, framing)}\n"
                f"EF: {to_ms(float(data['ef_line_time_s'].values[r])):.3f} ms", ha="center", va="bottom", fontsize=size)
        prev_right = right
        x += 24.0
    arrow(ax, prev_right, y, x - 0.4, y)
    box(ax, x, y - h / 2, 13, h, "SmartBits 200\nreceiver\n(loop back\nto Site 1)", color="#f0f0f0")
    ax.text(0.5, 1.0,
            "in: the largest arrival rate (offered EF + BE, then the previous line); above each link its rate, "
            "framing and the EF packet's line time\n"
            f"EF packet: {a['ef_frame_bytes']}-byte frame, {a['ef_ip_bytes']}-byte IP packet; the path model adds "
            f"{to_ms(a['path_ef_delay_s']):.3f} ms ({n - 1} hops + {to_ms(a['path_fixed_s']):g} ms fixed) "
            f"after the simulated C7200", ha="left", va="bottom", fontsize=size, color="0.3")
    ax.set_title("globecom01_fig2: the test network of GLOBECOM'01 Fig. 2, drawn from PAPERS.node() and "
                 "pqlab.scenarios.paper_path()", fontsize=size)
    return fig


def globecom01_fig6(data: xr.Dataset):
    """GLOBECOM'01 Fig. 6: packet clustering. Left: EF arrivals per stream and the priority queue length in a
    window of the most aggregated run; right: the share of EF arrivals finding an EF packet waiting vs A."""
    _check("globecom01_fig6", data, ("ev_time", "ev_flow", "ev_waiting", "q_time", "q_len", "p_nonempty_mean"))
    a = data.attrs
    fig, (ax, bx) = subplots(1, 2, figsize=(13, 5.8), gridspec_kw={"width_ratios": [1.6, 1]})
    flows = np.unique(data["ev_flow"].values)
    t = to_ms(data["ev_time"].values)
    for k, f in enumerate(flows):
        sel = data["ev_flow"].values == f
        ax.scatter(t[sel], np.full(sel.sum(), k + 1.0), marker="|", s=220, color=f"C{k % 10}")
    waiting = data["ev_waiting"].values >= 1
    ax.scatter(t[waiting], [len(flows) + 1.0] * int(waiting.sum()), marker="v", color="#b2182b", s=40,
               label="arrival finds an EF packet waiting")
    qt = to_ms(data["q_time"].values)
    ql = data["q_len"].values
    if qt.size:
        ax.step(qt, -0.5 - ql, where="post", color="0.2", lw=1.5,
                label="priority queue length (packets, downward)")
    ax.set_yticks(list(range(1, len(flows) + 1)) + [-0.5 - k for k in range(0, int(ql.max(initial=0)) + 1)])
    ax.set_yticklabels([f"EF stream {int(f)}" for f in flows]
                       + [f"PQ length {k}" for k in range(0, int(ql.max(initial=0)) + 1)])
    ax.set_xlabel("time in the window (ms)")
    ax.set_xlim(0, to_ms(a["window_s"]))
    ax.set_title(f"EF arrivals, {len(flows)} streams of {to_kbps(a['diagram_ref_load_bps']):g} kbit/s (A = "
                 f"{1 - a['diagram_ref_load_bps'] / a['ef_aggregate_bps']:.2f}), first seed")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=8)
    a_deg = data["aggregation_degree"].values
    order = np.argsort(a_deg)
    for name, label in (("p_clustered", f"clustered: within {to_ms(a['ef_line_time_s']):.3f} ms\nof another "
                                        "stream's packet"),
                        ("p_nonempty", "finding an EF packet\nwaiting in the PQ")):
        ci = np.nan_to_num(data[f"{name}_ci"].values[order], nan=0.0)
        bx.errorbar(a_deg[order], data[f"{name}_mean"].values[order], yerr=ci, marker="o", capsize=3,
                    label=f"{label} (runs)")
    bx.plot(a_deg[order], data["p_clustered_phases"].values[order], marker="s", ls="--", color="0.3",
            label=f"clustered, over {a['n_phase_draws']} phase draws")
    bx.set_xlabel("aggregation degree A = 1 - l_max / L_BA")
    bx.set_ylabel("share of EF arrivals")
    bx.set_ylim(0, 1)
    bx.legend(fontsize=8, loc="upper left")
    bx.set_title(f"EF aggregate {to_kbps(a['ef_aggregate_bps']):g} kbit/s, {len(data['seed'])} seed(s)")
    fig.suptitle("globecom01_fig6: packet clustering with aggregation in the papers' node (GLOBECOM'01 Fig. 6)")
    return fig
