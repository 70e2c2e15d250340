"""Claims on GLOBECOM'01 Figs. 2 and 6 and the TF-TANT slides' "PQ: one-way delay" (and the slides that state no number).

The data of :mod:`pqlab.papers.artefacts.network` judged against the papers: one
``<artefact id>_claims(data)`` per artefact, returning claim records
(:func:`pqlab.papers.artefacts._common.claim`); keys and units as in ``data/paper_values.csv``.
Trends are judged by the sign of every step (docs/model.md, verdict rules).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ....base.units import to_kbps, to_ms
from .._common import check_artefact, claim

__all__ = ["globecom01_fig2_claims", "globecom01_fig6_claims"]



def globecom01_fig2_claims(ds: xr.Dataset) -> list:
    """Claim records of ``globecom01_fig2``: routers, link rate, where QoS and congestion are, the C7500s' rates."""
    art = "globecom01_fig2"
    check_artefact(ds, art)
    names = [str(x) for x in ds["name"].values]
    out = ds["out_rate_bps"].values
    inr = ds["in_rate_bps"].values
    pq = ds["has_priority_queue"].values
    cong = ds["congested"].values
    hops = len(names) - 1
    chain = " -> ".join(names)
    return [
        claim(art, "n_routers", float(len(names)), "routers",
              f"SmartBits -> {chain} -> SmartBits: the simulated C7200 (pqlab.Node) and {hops} hops of the path "
              f"model (pqlab.scenarios.paper_path)", shape_ok=names.count("C7200") == 1 and names.count("C7500") == 2),
        claim(art, "line_rate", float(to_kbps(out.min())), "kbit/s",
              f"every router's output line: {', '.join(f'{to_kbps(r):g}' for r in out)} kbit/s "
              f"({', '.join(str(f) for f in ds['out_framing'].values)})", shape_ok=bool(np.all(out == out[0]))),
        claim(art, "qos_only_on_c7200", None, "-",
              f"priority queue on {', '.join(n for n, p in zip(names, pq) if p) or 'no router'}; the path's hops "
              f"are FIFO serialisations (no queues, no policer); congested (arrivals above the output rate): "
              f"{', '.join(n for n, c in zip(names, cong) if c) or 'none'}",
              shape_ok=bool(pq[0] and not pq[1:].any() and cong[0] and not cong[1:].any())),
        claim(art, "be_congests_c7200_egress", None, "-",
              f"EF {to_kbps(ds.attrs['ef_offered_bps']):.1f} + BE {to_kbps(ds.attrs['be_offered_bps']):g} kbit/s "
              f"offered to the C7200's {to_kbps(out[0]):g} kbit/s egress; EF and BE enter by the same queueing "
              f"system and share the path, but the path model adds only the EF packet's own serialisation "
              f"({to_ms(ds.attrs['path_ef_delay_s']):.3f} ms over {hops} hops): BE after the C7200 is not "
              f"simulated (see path/c7500_hops_uncongested)", shape_ok=bool(inr[0] > out[0])),
        claim(art, "c7500_departure_rate_covers_arrivals", None, "-",
              f"smallest C7500 output rate minus its largest arrival rate (the previous line): "
              f"{', '.join(f'{to_kbps(o):g} - {to_kbps(i):g}' for o, i in zip(out[1:], inr[1:]))} kbit/s; "
              f">= 0 is the paper's condition for no jitter",
              shape_ok=bool(hops and np.all(out[1:] >= inr[1:]))),
    ]


def globecom01_fig6_claims(ds: xr.Dataset) -> list:
    """Claim records of ``globecom01_fig6``: the priority queue holding two or more packets, clustering vs A."""
    art = "globecom01_fig6"
    check_artefact(ds, art)
    a_deg = ds["aggregation_degree"].values
    order = np.argsort(a_deg)
    a_deg = a_deg[order]
    p = ds["p_nonempty_mean"].values[order]
    pc = ds["p_clustered_phases"].values[order]
    pc_runs = ds["p_clustered_mean"].values[order]
    mx = ds["max_waiting"].max("seed").values[order]
    single = a_deg == 0
    agg = a_deg > 0
    steps = np.diff(pc)
    a_text = ", ".join(f"A = {a:.2f}: {v:.3f}" for a, v in zip(a_deg, pc))
    q_text = ", ".join(f"{v:.3f}" for v in p)
    rows = [
        claim(art, "pq_holds_two_or_more_with_aggregation", None, "-",
              f"largest priority queue length seen by an arriving EF packet (itself included) with aggregation: "
              f"{', '.join(f'A = {a:.2f}: {m + 1}' for a, m in zip(a_deg[agg], mx[agg]))}",
              shape_ok=bool(agg.any() and mx[agg].max() >= 1)),
        claim(art, "clustering_grows_with_a", None, "-",
              f"share of EF arrivals within one EF line time ({to_ms(ds.attrs['ef_line_time_s']):.3f} ms) after "
              f"another stream's, over {ds.attrs['n_phase_draws']} draws of the CBR streams' phases: {a_text}; "
              f"every step must rise (steps {', '.join(f'{s:+.3f}' for s in steps)}); in the simulated runs "
              f"({ds.sizes['seed']} seed(s), one phase draw each): {', '.join(f'{v:.3f}' for v in pc_runs)}; "
              f"the share finding an EF packet waiting in the node: {q_text} (mostly waits for the ring)",
              shape_ok=bool(steps.size and np.all(steps > 0))),
    ]
    if single.any():
        m0, p0 = int(mx[single][0]), float(p[single][0])
        rows.append(claim(
            art, "pq_at_most_one_without_aggregation", None, "-",
            f"one EF stream (A = 0): an arriving EF packet finds up to {m0} EF packet(s) waiting ({p0:.1%} of "
            f"arrivals find one); in the model an EF packet waits in the priority queue until the transmission "
            f"ring has room, and a full ring of BE particles takes {to_ms(ds.attrs['ring_drain_s']):.2f} ms to drain, "
            f"longer than the EF interval ({to_ms(ds.attrs['single_stream_interval_s']):.2f} ms), so the paper's 'not greater than one packet' "
            f"holds only if EF never waits for the ring", shape_ok=m0 == 0))
    return rows
