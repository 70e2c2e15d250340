"""GLOBECOM'01 Table I, test parameters (rendered from the presets).

The artefact's computation (:func:`compute`) and claims (:func:`claims`); a table, written by
the notebook ``notebooks/01_background_traffic`` with :func:`pqlab.papers.kit.save_table`. Its
columns state loads in kbit/s as the paper does (:func:`pqlab.base.units.to_kbps`), sizes in
bytes; ``frame.attrs`` holds the node's parameters (rates in bit/s, sizes in bytes, the ring
in particles).
"""

from __future__ import annotations

import pandas as pd

from ...base._validate import check_int
from ...base.units import to_kbps, to_mbps
from ...measure import cache
from ...measure.analysis import max_ring_particles
from ...node.framing import line_time_s
from ...node.scenario import simulate
from ...node.traffic import UDP_IP_HEADER_BYTES
from .. import judge, kit, presets
from ..registry import Artefact
from ..stated import MTU_BYTES, MTU_PAYLOAD_BYTES
from .shared import particles
from .stream_columns import frame_bytes, protocol, size_text

__all__ = ["ARTEFACT", "compute", "claims"]

ARTEFACT = Artefact(__name__, notebook="01_background_traffic", table=True)


@cache.artefact(ARTEFACT.id)
def compute(*, seed: int = 1, n_ef_samples: int = 1_000) -> pd.DataFrame:
    """GLOBECOM'01 Table I (test parameters), rendered from the presets.

    One row per preset of Sec. IV: :func:`pqlab.scenarios.base_case`
    (deterministic BE, Fig. 3) and :func:`pqlab.scenarios.real_distribution`
    (Fig. 5). ``frame.attrs`` also holds the node's parameters of Sec. II-III and
    ``tx_queue_max_units``, the largest ring occupancy measured in a simulation of
    the base case with BE packets of the MTU (the papers' "7 units").

    Parameters
    ----------
    seed : int
        Seed of the MTU simulation (>= 0).
    n_ef_samples : int
        EF reference packets of the MTU simulation (>= 2).

    Returns
    -------
    pandas.DataFrame
        Index ``experiment``; columns as Table I plus the EF IP length and stream counts.
    """
    seed = check_int("seed", seed, 0)
    n = kit.check_n_ef_samples(n_ef_samples)
    cases = {
        "deterministic BE (Fig. 3)": presets.base_case(n_ef_samples=n),
        "real BE (Fig. 5)": presets.real_distribution(n_ef_samples=n),
    }
    rows = []
    for sc in cases.values():
        ef, be = kit.ef_streams(sc), kit.be_streams(sc)
        rows.append(
            {
                "EF load (kbit/s)": to_kbps(sum(kit.frame_rate_bps(s) for s in ef)),
                "EF frame size (bytes)": frame_bytes(ef[0]),
                "EF IP length (bytes)": int(ef[0].size.size_bytes),
                "EF streams": len(ef),
                "EF protocol": protocol(ef[0]),
                "BE load (kbit/s)": to_kbps(sum(s.rate_bps for s in be)),
                "BE streams": len(be),
                "BE size distribution": size_text(be[0]),
                "BE protocol": protocol(be[0]),
            }
        )
    frame = pd.DataFrame(rows, index=pd.Index(list(cases), name="experiment"))

    base = cases["deterministic BE (Fig. 3)"]
    node = base.node
    mtu = presets.base_case(be_payload_bytes=MTU_PAYLOAD_BYTES, n_ef_samples=n)
    ef = kit.ef_streams(base)[0]
    ef_ip = int(ef.size.size_bytes)
    ef_packets_s = ef.rate_bps / (8 * ef_ip)
    frame.attrs = {
        "artefact": ARTEFACT.id,
        "title": (
            f"{ARTEFACT.id}: test parameters (GLOBECOM'01 Table I) rendered from pqlab.scenarios"
        ),
        "presets": ["pqlab.scenarios.base_case", "pqlab.scenarios.real_distribution"],
        "ef_load_kbps": float(frame["EF load (kbit/s)"].iloc[0]),
        "ef_frame_bytes": int(frame["EF frame size (bytes)"].iloc[0]),
        "ef_ip_bytes": ef_ip,
        "ef_streams": int(frame["EF streams"].max()),
        "be_load_kbps": float(frame["BE load (kbit/s)"].min()),
        "be_streams": int(frame["BE streams"].iloc[0]),
        "be_size_kinds": [
            type(s.size).__name__ for sc in cases.values() for s in kit.be_streams(sc)[:1]
        ],
        "protocols": sorted({protocol(s).split()[0] for sc in cases.values() for s in sc.streams}),
        "line_rate_bps": node.line_rate_bps,
        "ef_rate_fraction": kit.frame_rate_bps(ef) / node.line_rate_bps,
        "ef_ip_fraction": ef.rate_bps / node.line_rate_bps,
        "ef_wire_fraction": ef_packets_s * line_time_s(ef_ip, node.framing, node.line_rate_bps),
        "pq_limit": node.queues[node.priority_index].limit_packets,
        "be_queue_limit": node.queues[presets.BE_QUEUE].limit_packets,
        "tx_queue_limit": node.ring_limit_particles,
        "tx_unit_bytes": node.particle_bytes,
        "mtu_bytes": MTU_BYTES,
        "tx_queue_max_units_rule": (
            node.ring_limit_particles - 1 + int(particles(MTU_BYTES, node.particle_bytes))
        ),
        "tx_queue_max_units": max_ring_particles(simulate(mtu, seed=seed), mtu.node),
        "seed": seed,
        "n_ef_samples": n,
    }
    return frame


def claims(frame: pd.DataFrame) -> list:
    """Claim records of ``globecom01_tab1`` (keys and units of ``data/paper_values.csv``)."""
    art = ARTEFACT.id
    a = kit.check_artefact(frame, art).attrs
    ref = {q: kit.paper_value(art, q)[0] for q in ("be_load_min", "ef_class_load_fraction")}
    kinds = a["be_size_kinds"]
    return [
        kit.claim(
            art,
            "ef_load",
            a["ef_load_kbps"],
            "kbit/s",
            f"EF CBR stream of {a['ef_frame_bytes']}-byte frames counted on frames "
            f"({a['ef_load_kbps'] * a['ef_ip_bytes'] / a['ef_frame_bytes']:.1f} kbit/s of "
            f"{a['ef_ip_bytes']}-byte IP packets)",
        ),
        kit.claim(
            art,
            "ef_frame_size",
            a["ef_frame_bytes"],
            "bytes",
            f"SmartBits Ethernet frame; IP length {a['ef_ip_bytes']} bytes = frame - 18, same 3 ATM"
            " cells as 128 bytes",
        ),
        kit.claim(
            art,
            "ef_streams",
            a["ef_streams"],
            "streams",
            "one EF reference stream (flow 0) in both presets",
        ),
        kit.claim(
            art,
            "be_load_min",
            a["be_load_kbps"],
            "kbit/s",
            f"{a['be_streams']} BE CBR streams of {a['be_load_kbps'] / a['be_streams']:g} kbit/s"
            f" (IP bits); against the paper's lower bound (> {ref['be_load_min']:g})",
            shape_ok=a["be_load_kbps"] > ref["be_load_min"],
        ),
        kit.claim(
            art,
            "be_size_distributions",
            None,
            "-",
            f"presets cover {', '.join(kinds)} (the real one is the STAND-IN CDF); uniform and"
            " geometric are named but not shown by the paper",
            shape_ok={"Deterministic", "Empirical"} <= set(kinds),
        ),
        kit.claim(
            art,
            "protocol",
            None,
            "-",
            "every stream of the presets is a CBR stream of UDP datagrams (BE sizes "
            f"are UDP payloads + {UDP_IP_HEADER_BYTES} bytes of UDP/IP header); protocols: "
            f"{', '.join(a['protocols'])}",
            shape_ok=a["protocols"] == ["UDP"],
        ),
        kit.claim(
            art,
            "ef_rate_fraction",
            a["ef_rate_fraction"],
            "1",
            f"EF frame rate / line rate = {a['ef_load_kbps']:g} kbit/s / "
            f"{to_mbps(a['line_rate_bps']):g} Mbit/s",
        ),
        kit.claim(
            art,
            "ef_class_load_fraction",
            a["ef_wire_fraction"],
            "1",
            "EF load on the ATM wire / line rate (the largest of our readings of the set-up)",
            reason=judge.reason(
                "arithmetic",
                "the stated EF load reads as {on_frames} of the line on frames, {on_ip} on IP "
                "bits and {on_wire} on the ATM wire: no reading of the set-up gives {paper}",
                [
                    judge.fact("on_frames", a["ef_rate_fraction"], "1"),
                    judge.fact("on_ip", a["ef_ip_fraction"], "1"),
                    judge.fact("on_wire", a["ef_wire_fraction"], "1"),
                    judge.fact("paper", ref["ef_class_load_fraction"], "1"),
                ],
            ),
        ),
        kit.claim(
            art, "pq_limit", a["pq_limit"], "packets", "Node.cisco7200_atm() priority queue limit"
        ),
        kit.claim(
            art,
            "be_queue_limit",
            a["be_queue_limit"],
            "packets",
            "Node.cisco7200_atm() WFQ best-effort queue limit",
        ),
        kit.claim(
            art,
            "tx_queue_limit",
            a["tx_queue_limit"],
            "units",
            "Node.cisco7200_atm() ring_limit_particles",
        ),
        kit.claim(
            art, "tx_unit_size", a["tx_unit_bytes"], "bytes", "Node.cisco7200_atm() particle_bytes"
        ),
        kit.claim(
            art,
            "tx_queue_max_units",
            a["tx_queue_max_units"],
            "units",
            f"largest ring occupancy measured with {a['mtu_bytes']}-byte BE packets (seed"
            f" {a['seed']}, {a['n_ef_samples']} EF packets); rule: {a['tx_queue_limit']} - 1 +"
            f" {a['tx_queue_max_units_rule'] - a['tx_queue_limit'] + 1} particles of an MTU packet"
            f" = {a['tx_queue_max_units_rule']}",
            seed=a["seed"],
        ),
    ]
