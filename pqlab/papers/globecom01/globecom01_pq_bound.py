"""GLOBECOM'01 Sec. V-A: the 5.12 ms a full 10-packet EF queue adds, bound and simulated EF bursts.

The artefact's computation (:func:`compute`), the numbers its claims quote (:func:`claim_values`)
and figure (:func:`figure`); the notebook ``notebooks/05_worst_case`` runs them. The bound is
:func:`pqlab.bounds.priority_queue_max_delay`; the simulation drives EF bursts through the
papers' C7200 with saturating BE traffic. The Dataset is in SI units (seconds, bytes); the
claims and the figure state times in ms, as the paper.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...base._validate import check_int, check_real
from ...base.units import to_ms
from ...measure import bounds, cache, experiments
from ...node.framing import line_time_s
from ...node.scenario import Scenario, simulate
from ...node.traffic import TraceStream
from .. import kit, presets
from ..judge import relative_percent
from ..registry import Artefact
from ..stated import PAPERS

__all__ = ["ARTEFACT", "compute", "claim_values", "figure", "TIMES"]

ARTEFACT = Artefact(__name__, notebook="05_worst_case")


@cache.artefact(ARTEFACT.id)
def compute(
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
    seeds = kit.check_seeds(seeds)
    spacing = check_real("spacing_s", spacing_s, 0.05)
    warmup = check_real("warmup_s", warmup_s, 0.0, strict_minimum=True)
    n = kit.check_n_ef_samples(n_ef_samples, 10, 100_000_000)

    frame = presets.EF_FRAME_BYTES
    ef_ip = presets.ef_ip_bytes(frame)
    template = presets.pq_experiment(be_payload_bytes=be_payload, n_ef_samples=10, warmup_s=warmup)
    node = template.node
    limit = node.queues[presets.EF_QUEUE].limit_packets
    ef_line_s = line_time_s(ef_ip, node.framing, node.line_rate_bps)
    burst_t = warmup + spacing * np.arange(n_bursts)
    trace = TraceStream(
        np.repeat(burst_t, burst_packets),
        np.full(n_bursts * burst_packets, ef_ip),
        queue=presets.EF_QUEUE,
        flow=presets.REFERENCE_FLOW,
    )
    be_streams = tuple(s for s in template.streams if s.flow >= presets.FIRST_BE_FLOW)
    sc = Scenario(
        node=node,
        streams=(trace, *be_streams),
        duration_s=float(burst_t[-1] + spacing),
        warmup_s=warmup,
        path=template.path,
        name=f"{ARTEFACT.id}: EF bursts",
    )

    shape = (len(seeds), n_bursts, burst_packets)
    pq_wait, sojourn, ef_part = (np.full(shape, np.nan) for _ in range(3))
    lone = np.full(len(seeds), np.nan)
    for i, seed in enumerate(seeds):
        ds = simulate(sc, seed=seed)
        ef = ds.isel(packet=np.flatnonzero(ds["flow"].values == presets.REFERENCE_FLOW))
        kept = ef["drop"].values == 0
        arr = ef["arrival"].values.reshape(n_bursts, burst_packets)
        entry, dep = (
            np.where(kept, ef[v].values, np.nan).reshape(n_bursts, burst_packets)
            for v in ("ring_entry", "departure")
        )
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
            "sojourn": (
                dims,
                sojourn,
                {"units": "s", "long_name": "time in the C7200 (PQ + ring + line)"},
            ),
            "ef_part": (
                dims,
                ef_part,
                {"units": "s", "long_name": "line time of the burst's EF packets up to this one"},
            ),
            "admitted": (
                dims,
                np.isfinite(pq_wait),
                {"units": "1", "long_name": "admitted to the priority queue"},
            ),
            "lone_max_pq_wait": (
                "seed",
                lone,
                {"units": "s", "long_name": "largest PQ wait of a lone CBR EF packet"},
            ),
            "bound_unframed": (
                (),
                bounds.priority_queue_max_delay(limit, frame, node.line_rate_bps),
                {"units": "s", "long_name": "10 x 128 bytes at 2 Mbit/s, unframed (paper)"},
            ),
            "bound_atm": (
                (),
                bounds.priority_queue_max_delay(limit, frame, node.line_rate_bps, node.framing),
                {"units": "s", "long_name": "10 x 128-byte frames in ATM AAL5 cells"},
            ),
            "ef_line_time": (
                (),
                ef_line_s,
                {"units": "s", "long_name": "line time of one EF packet (ATM)"},
            ),
            "mtu_line_time": (
                (),
                line_time_s(be_payload + 28, node.framing, node.line_rate_bps),
                {"units": "s", "long_name": "line time of one BE packet (ATM)"},
            ),
            "ef_queue_limit": (
                (),
                float(limit),
                {"units": "packets", "long_name": "priority queue limit"},
            ),
            "max_burst": (
                (),
                float(limit * frame),
                {"units": "bytes", "long_name": "EF queue limit x frame size"},
            ),
        },
        coords={
            "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"}),
            "burst": ("burst", np.arange(n_bursts), {"units": "1", "long_name": "burst index"}),
            "position": (
                "position",
                np.arange(1, burst_packets + 1),
                {"units": "1", "long_name": "position in the EF burst"},
            ),
        },
        attrs=kit.provenance(
            ARTEFACT.id,
            f"{ARTEFACT.id}: delay a full 10-packet EF queue adds (GLOBECOM'01 Sec. V)",
            __name__,
            seeds,
            scenario=sc.to_json(),
            be_ip_bytes=be_payload + 28,
            spacing_s=spacing,
        ),
    )
    return claim_values(ds)


#: Time variables of the Dataset (seconds) its claims state in milliseconds.
TIMES = (
    "pq_wait",
    "sojourn",
    "ef_part",
    "lone_max_pq_wait",
    "bound_unframed",
    "bound_atm",
    "ef_line_time",
    "mtu_line_time",
)


def claim_values(ds: xr.Dataset) -> xr.Dataset:
    """Add the numbers the claims quote (in place; returned), times in ms (converted before any
    statistic): the bound unframed and in ATM cells, the simulated EF part of a full queue, the
    largest PQ wait and node sojourn, the BE ahead in the ring, the admitted burst packets, the
    lone CBR EF stream's largest PQ wait and the line times it is compared with."""
    ms = {
        name: to_ms(ds[name]) for name in TIMES
    }  # the paper's unit; converted before any statistic
    adm = ds["admitted"]
    admitted = adm.sum("position")
    bu, ba = float(ms["bound_unframed"]), float(ms["bound_atm"])
    limit = int(ds.ef_queue_limit)
    ds.attrs["line_text"] = PAPERS.line_text
    return kit.add_claim_values(
        ds,
        {
            "bound_unframed_ms": (bu, "ms", "the paper's bound, unframed"),
            "bound_atm_ms": (ba, "ms", "the bound in ATM cells"),
            "atm_over_unframed": (
                relative_percent(ba, bu),
                "%",
                "the ATM bound over the unframed one",
            ),
            "ef_line_ms": (ms["ef_line_time"], "ms", "line time of one EF packet (ATM)"),
            "mtu_line_ms": (ms["mtu_line_time"], "ms", "line time of one BE packet (ATM)"),
            "ef_part_max": (
                ms["ef_part"].where(adm).max("position").max(),
                "ms",
                "simulated EF part of a full queue",
            ),
            "pq_wait_max": (ms["pq_wait"].max(), "ms", "largest PQ wait"),
            "sojourn_max": (ms["sojourn"].max(), "ms", "largest node sojourn"),
            "ring_be_max": (
                (ms["sojourn"] - ms["ef_part"]).where(adm).max(),
                "ms",
                "largest BE time ahead in the ring",
            ),
            "lone_max_pq_wait_ms": (
                ms["lone_max_pq_wait"].max(),
                "ms",
                "largest PQ wait of the lone CBR EF stream",
            ),
            "admitted_max": (admitted.max(), "packets", "most EF packets of a burst admitted"),
            "admitted_min": (admitted.min(), "packets", "fewest EF packets of a burst admitted"),
            "burst_size": (ds.sizes["position"], "packets", "EF packets of a burst"),
            "n_bursts": (ds.sizes["burst"] * ds.sizes["seed"], "1", "bursts over seeds"),
            "ef_frame": (presets.EF_FRAME_BYTES, "bytes", "EF frame size"),
            "ef_ip": (presets.ef_ip_bytes(presets.EF_FRAME_BYTES), "bytes", "EF IP length"),
            "ef_after_ring": (
                limit - PAPERS.ring_limit_particles,
                "packets",
                "EF packets of a full queue after the ring's",
            ),
        },
    )


def figure(ds: xr.Dataset):
    """EF bursts into a full priority queue: per burst position, waits vs the 5.12 ms bound.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`compute`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = kit.subplots(figsize=(8.4, 5.6))
    pos = ds["position"].values
    limit = int(ds.ef_queue_limit)
    flat = ("seed", "burst")
    bound_unframed_ms, bound_atm_ms = (
        float(to_ms(ds["bound_unframed"])),
        float(to_ms(ds["bound_atm"])),
    )
    ef_line_ms = float(to_ms(ds["ef_line_time"]))
    for var, color, label in (
        ("sojourn", "C0", "time in the C7200 (PQ + ring + line)"),
        ("pq_wait", "C1", "wait in the priority queue"),
        ("ef_part", "C3", "EF part: line time of the burst's packets so far"),
    ):
        da = to_ms(ds[var])
        ax.fill_between(pos, da.min(flat), da.max(flat), color=color, alpha=0.18, lw=0)
        ax.plot(pos, da.mean(flat), "o-", color=color, ms=4, label=f"{label} (mean, min-max band)")
    ax.plot(
        pos,
        np.minimum(pos, limit) * bound_unframed_ms / limit,
        "k--",
        lw=1.2,
        label=(
            f"paper: i x {bound_unframed_ms / limit:.3f} ms, max {bound_unframed_ms:.2f} ms "
            "(unframed)"
        ),
    )
    ax.axhline(
        bound_atm_ms,
        color="C3",
        lw=1.2,
        ls=":",
        label=f"bound with ATM cells: {limit} x {ef_line_ms:.3f} = {bound_atm_ms:.2f} ms",
    )
    if pos.max() > limit:
        ax.axvspan(
            limit + 0.5, pos.max() + 0.5, color="0.85", zorder=0, label="tail-dropped (queue full)"
        )
    ax.set_xlim(0.5, pos.max() + 0.5)
    ax.set_xticks(pos)
    ax.set_xlabel(f"position of the EF packet in a burst of {pos.max()} arriving at once")
    ax.set_ylabel("delay (ms)")
    kit.legend_below(ax, ncol=2, frameon=False)
    ax.set_title(
        f"{ARTEFACT.id}: EF bursts into a {limit}-packet priority queue behind"
        f" {ds.attrs.get('be_ip_bytes', '?')}-byte BE ({ds.sizes['burst'] * ds.sizes['seed']}"
        " bursts)",
        fontsize=10.5,
    )
    return fig
