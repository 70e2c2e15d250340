"""GLOBECOM'01 Fig. 6, packet clustering with aggregation: EF streams from different interfaces
merging in the C7200's priority queue (engine traces).

The artefact's computation (:func:`compute`, over :func:`pq_occupancy_at_arrival`,
:func:`clustered_share` and :func:`clustering_over_phases`), claims (:func:`claims`) and figure
(:func:`figure`); the notebook ``notebooks/11_network_and_slides`` runs them. The Dataset is in SI
units (times in seconds, rates in bit/s); shares in 1; the claims and the figure state times in
ms and rates in kbit/s.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import xarray as xr

from ...base._validate import check_real
from ...base.units import to_kbps, to_ms
from ...measure import cache
from ...measure.analysis import mean_ci, trend
from ...node.framing import line_time_s
from ...node.scenario import Scenario, simulate
from ...node.traffic import fixed_cbr_schedule, merge_streams
from .. import judge, kit, presets
from ..registry import Artefact
from ..stated import PAPERS, REF_RATES_BPS
from .aggregation_runs import a_text
from .shared import check_dataset

__all__ = [
    "ARTEFACT",
    "compute",
    "claims",
    "figure",
    "pq_occupancy_at_arrival",
    "clustered_share",
    "clustering_over_phases",
    "FIG6_DIAGRAM_REF_RATE_BPS",
]

ARTEFACT = Artefact(__name__, notebook="11_network_and_slides")

#: GLOBECOM'01 Fig. 6 draws the clustering for A = 1/3: a 200 kbit/s reference stream in the 300
#: kbit/s
#: EF aggregate (Table II), bit/s; the diagram's run.
FIG6_DIAGRAM_REF_RATE_BPS = 200e3


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
    if not isinstance(trace, xr.Dataset) or not {"arrival", "ring_entry", "queue", "drop"} <= set(
        trace
    ):
        raise ValueError("trace must be the per-packet Dataset of pqlab.simulate")
    keep = (trace["queue"].values == queue) & (trace["drop"].values == 0)
    arr = trace["arrival"].values[keep]
    entry = trace["ring_entry"].values[keep]
    order = np.argsort(arr, kind="stable")
    arr, entry = arr[order], entry[order]
    # packets arrived strictly before each arrival, minus those already in the ring by then
    before = np.arange(arr.size)
    entered = np.searchsorted(np.sort(entry), arr, side="right") - (
        entry <= arr
    )  # not the packet itself
    return (before - np.minimum(entered, before)).astype(np.int64)


def clustered_share(
    trace: xr.Dataset, within_s: float, start_s: float = 0.0, queue: int = presets.EF_QUEUE
) -> float:
    """Share of the packets of ``queue`` arriving within ``within_s`` after a packet of another
    flow.

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
    return _clustered_share(
        trace["arrival"].values, trace["queue"].values, trace["flow"].values, within, start_s, queue
    )


def _clustered_share(
    arrival, queue_of, flow_of, within: float, start_s: float, queue: int
) -> float:
    """:func:`clustered_share` on per-packet arrays (``within`` already checked)."""
    sel = queue_of == queue
    arr, flow = arrival[sel], flow_of[sel]
    order = np.argsort(arr, kind="stable")
    arr, flow = arr[order], flow[order]
    clustered = np.zeros(arr.size, dtype=bool)
    clustered[1:] = (np.diff(arr) < within) & (flow[1:] != flow[:-1])
    counted = arr >= start_s
    return float(clustered[counted].mean()) if counted.any() else float("nan")


def clustering_over_phases(
    sc: Scenario, within_s: float, n_draws: int, seed: int = 0, duration_s: float = 0.1
) -> float:
    """Mean :func:`clustered_share` of the EF streams of ``sc`` over ``n_draws`` draws of their
    random phases.

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
    draws = kit.check_n_ef_samples(n_draws, minimum=1)
    within = check_real("within_s", within_s, 0.0, strict_minimum=True)
    ef = [s for s in sc.streams if s.queue == presets.EF_QUEUE]
    rngs = [np.random.default_rng([int(seed), d]) for d in range(draws)]
    schedules = (
        [fixed_cbr_schedule(ef, rng) for rng in rngs]
        if all(s.phase_s is None for s in ef)
        else [None]
    )
    if any(
        s is None for s in schedules
    ):  # not every stream a CBR stream of one size with a drawn phase
        return float(
            np.mean(
                [
                    _clustered_share(*_merged(ef, rng, duration_s), within, 0.0, presets.EF_QUEUE)
                    for rng in rngs
                ]
            )
        )
    return float(
        np.mean(
            _periodic_clustered_shares(
                np.stack([s[0] for s in schedules]),
                schedules[0][1],
                check_real("duration_s", duration_s, 0.0, strict_minimum=True),
                within,
            )
        )
    )


def _merged(streams, rng, duration_s):
    arrival, _, queue, flow = merge_streams(streams, rng, duration_s)
    return arrival, queue, flow


def _periodic_clustered_shares(
    first_s: np.ndarray, interval_s: np.ndarray, duration_s: float, within: float
) -> np.ndarray:
    """:func:`clustered_share` of every draw of periodic streams, all draws at once.

    Draw ``d``'s stream ``i`` sends at ``first_s[d, i] + interval_s[i] * k`` in ``[0, duration_s)``
    (as :func:`pqlab.traffic.merge_streams` computes them); each draw's packets are merged by time,
    ties in stream order (a stable sort of the packets listed stream after stream, as the merge
    orders them), and the share of packets within ``within`` after another stream's is taken.
    """
    n_draws, n_streams = first_s.shape
    k = np.arange(int(np.floor(duration_s / interval_s.min())) + 2, dtype=np.float64)
    t = first_s[:, :, None] + interval_s[None, :, None] * k[None, None, :]
    t = np.where((t >= 0.0) & (t < duration_s), t, np.inf).reshape(n_draws, -1)
    stream = np.repeat(np.arange(n_streams), k.size)
    order = np.argsort(t, axis=1, kind="stable")
    t, stream = np.take_along_axis(t, order, axis=1), stream[order]
    clustered = np.zeros(
        t.shape, dtype=bool
    )  # past a draw's last packet: inf - t, inf - inf: never < within
    with np.errstate(invalid="ignore"):
        clustered[:, 1:] = (np.diff(t, axis=1) < within) & (stream[:, 1:] != stream[:, :-1])
    return clustered.sum(axis=1) / np.isfinite(t).sum(axis=1)


def _clustering_run(sc: Scenario, seed: int, within_s: float) -> dict:
    trace = simulate(sc, seed=seed)
    occ = pq_occupancy_at_arrival(trace)
    measured = trace["arrival"].values[
        (trace["queue"].values == presets.EF_QUEUE) & (trace["drop"].values == 0)
    ]
    occ = occ[np.sort(measured) >= sc.warmup_s]
    return {
        "trace": trace,
        "p_nonempty": float(np.mean(occ >= 1)),
        "max_waiting": int(occ.max(initial=0)),
        "p_clustered": clustered_share(trace, within_s, sc.warmup_s),
    }


@cache.artefact(ARTEFACT.id)
def compute(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    ref_rates_bps: Sequence[float] = REF_RATES_BPS,
    window_s: float = 0.06,
    n_phase_draws: int = 4000,
    diagram_ref_rate_bps: float = FIG6_DIAGRAM_REF_RATE_BPS,
) -> xr.Dataset:
    """Packet clustering of GLOBECOM'01 Fig. 6, measured in the papers' node with aggregation.

    Runs :func:`pqlab.scenarios.aggregation` (Table II: EF aggregate 300 kbit/s over streams
    of the reference load, each its own input interface; 20 BE streams of the real law) for
    every reference load; for every accepted EF packet, the EF packets already waiting in
    the priority queue when it arrives (:func:`pq_occupancy_at_arrival`). Also keeps, for the
    reference load ``diagram_ref_rate_bps`` and the first seed, a window of EF arrivals per stream
    and the priority queue length over time (the diagram).

    Parameters
    ----------
    n_ef_samples : int
        Reference packets measured per run (>= 10).
    seeds : sequence of int
        Seeds (the streams' random phases).
    ref_rates_bps : sequence of float
        Reference stream loads, bit/s, in ``(0, 300 kbit/s]`` (default Table II's 50, 100, 200 and
        300 kbit/s: A = 5/6, 2/3, 1/3, 0).
    window_s : float
        Length of the diagram's window, seconds.
    n_phase_draws : int
        Draws of the EF streams' phases for ``p_clustered_phases`` (:func:`clustering_over_phases`,
        seeded from the first seed).
    diagram_ref_rate_bps : float
        The reference load of the diagram's run, bit/s, one of ``ref_rates_bps`` (default 200
        kbit/s:
        A = 1/3, the paper's Fig. 6).

    Returns
    -------
    xarray.Dataset
        Dims ``ref_load`` (coordinate ``aggregation_degree`` A) and ``seed``: ``p_nonempty``
        (share of EF arrivals that find an EF packet waiting, 1), ``max_waiting`` (packets),
        ``p_clustered`` (share of EF arrivals within one EF line time after another stream's,
        :func:`clustered_share`); their ``_mean``/``_ci`` over seeds; ``p_clustered_phases`` the
        clustering share over ``n_phase_draws`` phase draws (arrivals only); the diagram:
        ``ev_time`` (s from the window
        start), ``ev_flow`` (EF stream), ``ev_waiting`` (EF packets waiting at that arrival),
        and ``q_time``/``q_len`` the priority queue's length (arrivals minus ring entries).
    """
    n = kit.check_n_ef_samples(n_ef_samples, minimum=10)
    seeds = kit.check_seeds(seeds)
    rates = kit.check_values("ref_rates_bps", ref_rates_bps, 0.0)
    aggregate = 300e3
    if max(rates) > aggregate:
        raise ValueError(f"ref_rates_bps must be at most {aggregate:g}, got {max(rates):g}")
    window = check_real("window_s", window_s, 0.0, strict_minimum=True)
    draws = kit.check_n_ef_samples(n_phase_draws, minimum=1)
    diagram_rate = check_real(
        "diagram_ref_rate_bps", diagram_ref_rate_bps, 0.0, strict_minimum=True
    )
    if diagram_rate not in rates:
        raise ValueError(
            f"diagram_ref_rate_bps must be one of ref_rates_bps {rates}, got"
            f" {diagram_ref_rate_bps!r}"
        )
    ef_line = line_time_s(
        presets.ef_ip_bytes(presets.EF_FRAME_BYTES), PAPERS.framing, PAPERS.line_rate_bps
    )
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
            if rate == diagram_rate and j == 0:
                diagram = _diagram(run["trace"], sc.warmup_s, window)
    mean, ci = mean_ci(p)
    cmean, cci = mean_ci(pc)
    a_deg = 1.0 - np.asarray(rates) / aggregate
    ds = xr.Dataset(
        {
            "p_nonempty": (
                ("ref_load", "seed"),
                p,
                {"units": "1", "long_name": "share of EF arrivals finding an EF packet waiting"},
            ),
            "max_waiting": (
                ("ref_load", "seed"),
                mx,
                {"units": "packets", "long_name": "most EF packets waiting at an EF arrival"},
            ),
            "p_nonempty_mean": ("ref_load", mean, {"units": "1", "long_name": "mean over seeds"}),
            "p_nonempty_ci": (
                "ref_load",
                ci,
                {"units": "1", "long_name": "95% CI half-width over seeds"},
            ),
            "p_clustered": (
                ("ref_load", "seed"),
                pc,
                {
                    "units": "1",
                    "long_name": (
                        "share of EF arrivals within one EF line time after another stream's"
                    ),
                },
            ),
            "p_clustered_mean": ("ref_load", cmean, {"units": "1", "long_name": "mean over seeds"}),
            "p_clustered_ci": (
                "ref_load",
                cci,
                {"units": "1", "long_name": "95% CI half-width over seeds"},
            ),
            "p_clustered_phases": (
                "ref_load",
                phases,
                {
                    "units": "1",
                    "long_name": (
                        "share of EF arrivals within one "
                        "EF line time after another stream's, over phase draws"
                    ),
                },
            ),
            **diagram,
        },
        coords={
            "ref_load": (
                "ref_load",
                np.asarray(rates, dtype=float),
                {"units": "bit/s", "long_name": "reference stream load"},
            ),
            "aggregation_degree": (
                "ref_load",
                a_deg,
                {"units": "1", "long_name": "aggregation degree A"},
            ),
            "seed": ("seed", seeds),
        },
        attrs={
            **kit.provenance(
                ARTEFACT.id,
                f"{ARTEFACT.id}: packet clustering with aggregation (GLOBECOM'01 Fig. 6)",
                __name__,
                seeds=seeds,
            ),
            "ef_aggregate_bps": aggregate,
            "n_ef_samples": n,
            "n_phase_draws": draws,
            "window_s": window,
            "diagram_ref_load_bps": diagram_rate,
            "single_stream_interval_s": presets.EF_FRAME_BYTES * 8 / aggregate,
            "ring_drain_s": (
                PAPERS.ring_limit_particles
                * line_time_s(PAPERS.particle_bytes, PAPERS.framing, PAPERS.line_rate_bps)
            ),
            "ef_line_time_s": ef_line,
        },
    )
    return ds


def _diagram(trace: xr.Dataset, start_s: float, window_s: float) -> dict:
    """The diagram's data: EF arrivals per stream and the priority queue length in one window."""
    ef = (trace["queue"].values == presets.EF_QUEUE) & (trace["drop"].values == 0)
    arr, entry, flow = (
        trace["arrival"].values[ef],
        trace["ring_entry"].values[ef],
        trace["flow"].values[ef],
    )
    occ = pq_occupancy_at_arrival(trace)
    order = np.argsort(arr, kind="stable")
    arr, entry, flow = arr[order], entry[order], flow[order]
    # the window that starts at the first arrival after the warm-up finding the most packets waiting
    cand = np.nonzero(arr >= start_s)[0]
    k = cand[int(np.argmax(occ[cand]))] if cand.size else 0
    t0 = max(start_s, arr[k] - window_s / 3)
    sel = (arr >= t0) & (arr < t0 + window_s)
    times = np.concatenate(
        [
            arr[(arr >= t0 - window_s) & (arr < t0 + window_s)],
            entry[(entry >= t0 - window_s) & (entry < t0 + window_s)],
        ]
    )
    steps = np.concatenate(
        [
            np.ones(int(((arr >= t0 - window_s) & (arr < t0 + window_s)).sum())),
            -np.ones(int(((entry >= t0 - window_s) & (entry < t0 + window_s)).sum())),
        ]
    )
    o = np.argsort(times, kind="stable")
    times, steps = times[o], steps[o]
    # queue length: packets arrived minus packets entered the ring, counted from the start of the
    # run
    q = np.searchsorted(arr, times, side="right") - np.searchsorted(
        np.sort(entry), times, side="right"
    )
    keep = (times >= t0) & (times < t0 + window_s)
    return {
        "ev_time": (
            "event",
            arr[sel] - t0,
            {"units": "s", "long_name": "EF arrival time in the window"},
        ),
        "ev_flow": ("event", flow[sel], {"long_name": "EF stream (input interface)"}),
        "ev_waiting": (
            "event",
            occ[order][sel],
            {"units": "packets", "long_name": "EF packets waiting at the arrival"},
        ),
        "q_time": ("q_event", times[keep] - t0, {"units": "s", "long_name": "time in the window"}),
        "q_len": (
            "q_event",
            q[keep].astype(np.int64),
            {"units": "packets", "long_name": "priority queue length"},
        ),
    }


def claims(ds: xr.Dataset) -> list:
    """Claim records of ``globecom01_fig6``: the priority queue holding two or more packets,
    clustering vs A."""
    art = ARTEFACT.id
    kit.check_artefact(ds, art)
    a_deg = ds["aggregation_degree"].values
    order = np.argsort(a_deg)
    a_deg = a_deg[order]
    p = ds["p_nonempty_mean"].values[order]
    pc = ds["p_clustered_phases"].values[order]
    mx = ds["max_waiting"].max("seed").values[order]
    single = a_deg == 0
    agg = a_deg > 0
    pc_seeds = ds["p_clustered"].values[order]
    pc_runs = np.nanmean(pc_seeds, axis=1)
    slope, slope_ci, grows = trend(pc_seeds, a_deg)
    per_a = ", ".join(f"A = {a_text(a)}: {v:.3f}" for a, v in zip(a_deg, pc_runs))
    q_text = ", ".join(f"{v:.3f}" for v in p)
    grows_note = (
        f"share of EF arrivals within one EF line time ({to_ms(ds.attrs['ef_line_time_s']):.3f} ms)"
        f" after another stream's, mean over {ds.sizes['seed']} simulated run(s) per A: {per_a};"
        " its trend along A by pqlab.measure.analysis.trend (per-seed slope, CI, every step); over"
        f" {ds.attrs['n_phase_draws']} phase draws of the streams:"
        f" {', '.join(f'{v:.3f}' for v in pc)}; share finding an EF packet waiting in the node:"
        f" {q_text}"
    )
    rows = [
        kit.claim(
            art,
            "pq_holds_two_or_more_with_aggregation",
            None,
            "-",
            "largest priority queue length seen by an arriving EF packet (itself included) with"
            " aggregation:"
            f" {', '.join(f'A = {a_text(a)}: {m + 1}' for a, m in zip(a_deg[agg], mx[agg]))}",
            shape_ok=bool(agg.any() and mx[agg].max() >= 1),
            reason=(
                None
                if agg.any() and mx[agg].max() >= 1
                else judge.reason(
                    "mechanism",
                    "with aggregation an arriving EF packet finds at most {waiting} waiting over "
                    "{n_runs} run(s)",
                    [
                        judge.fact("waiting", int(mx[agg].max(initial=0)), "EF packets"),
                        judge.fact("n_runs", int(agg.sum()) * ds.sizes["seed"], ""),
                    ],
                )
            ),
        ),
        kit.claim(
            art,
            "clustering_grows_with_a",
            None,
            "-",
            grows_note,
            shape_ok=grows,
            reason=None if grows else _clustering_reason(ds, a_deg, pc_seeds, pc, slope, slope_ci),
        ),
    ]
    if single.any():
        m0, p0 = int(mx[single][0]), float(p[single][0])
        rows.append(
            kit.claim(
                art,
                "pq_at_most_one_without_aggregation",
                None,
                "-",
                "one EF stream (A = 0): the most EF packets an arriving EF packet finds waiting in"
                f" the priority queue, over {ds.sizes['seed']} run(s)",
                shape_ok=m0 == 0,
                reason=(
                    None
                    if m0 == 0
                    else judge.reason(
                        "mechanism",
                        "an EF packet waits in the priority queue until the transmission ring has"
                        " room, and a full ring of {ring} BE particles takes {drain} to drain,"
                        " longer than the EF interval {interval}: an arriving EF packet finds up to"
                        " {waiting} waiting ({share} of arrivals find one)",
                        [
                            judge.fact("ring", PAPERS.ring_limit_particles, ""),
                            judge.fact("drain", to_ms(ds.attrs["ring_drain_s"]), "ms"),
                            judge.fact(
                                "interval", to_ms(ds.attrs["single_stream_interval_s"]), "ms"
                            ),
                            judge.fact("waiting", m0, "EF packets"),
                            judge.fact("share", 100 * p0, "%"),
                        ],
                    )
                ),
            )
        )
    return rows


def _clustering_reason(
    ds: xr.Dataset, a_deg, pc_seeds, pc_phases, slope: float, slope_ci: float
) -> dict:
    """Why the simulated clustering does not grow step by step with A: the steps, the slope and the
    phase draws."""
    means = np.nanmean(pc_seeds, axis=1)
    steps = np.diff(means)
    names = [f"step_{i + 1}" for i in range(steps.size)]
    facts = [judge.fact(n, v, "1") for n, v in zip(names, steps)]
    facts += [
        judge.fact("n_seeds", ds.sizes["seed"], ""),
        judge.fact("slope", slope, ""),
        judge.fact("n_draws", ds.attrs["n_phase_draws"], ""),
        judge.fact("draws_first", pc_phases[0], "1"),
        judge.fact("draws_last", pc_phases[-1], "1"),
        judge.fact("a_last", a_deg[-1], ""),
    ]
    spread = ""
    if np.isfinite(slope_ci):
        facts.append(judge.fact("slope_ci", slope_ci, ""))
        spread = " +/- {slope_ci}"
    text = (
        "with CBR streams a run's clustering is fixed by its one draw of the streams' phases: the"
        " mean over {n_seeds} seed(s) steps "
        + ", ".join("{" + n + "}" for n in names)
        + " along A (slope {slope}"
        + spread
        + " per unit of A), while over {n_draws} phase draws the share goes from {draws_first} at A"
        " = 0 to {draws_last} at A = {a_last}"
    )
    return judge.reason("mechanism", text, facts)


def figure(data: xr.Dataset):
    """GLOBECOM'01 Fig. 6: packet clustering. Left: EF arrivals per stream and the priority queue
    length in a
    window of the most aggregated run; right: the share of EF arrivals finding an EF packet waiting
    vs A.
    """
    check_dataset(
        ARTEFACT.id,
        data,
        ("ev_time", "ev_flow", "ev_waiting", "q_time", "q_len", "p_nonempty_mean"),
    )
    a = data.attrs
    fig, (ax, bx) = kit.subplots(1, 2, figsize=(13, 5.8), gridspec_kw={"width_ratios": [1.6, 1]})
    flows = np.unique(data["ev_flow"].values)
    t = to_ms(data["ev_time"].values)
    for k, f in enumerate(flows):
        sel = data["ev_flow"].values == f
        ax.scatter(t[sel], np.full(sel.sum(), k + 1.0), marker="|", s=220, color=f"C{k % 10}")
    waiting = data["ev_waiting"].values >= 1
    ax.scatter(
        t[waiting],
        [len(flows) + 1.0] * int(waiting.sum()),
        marker="v",
        color="#b2182b",
        s=40,
        label="arrival finds an EF packet waiting",
    )
    qt = to_ms(data["q_time"].values)
    ql = data["q_len"].values
    if qt.size:
        ax.step(
            qt,
            -0.5 - ql,
            where="post",
            color="0.2",
            lw=1.5,
            label="priority queue length (packets, downward)",
        )
    ax.set_yticks(
        list(range(1, len(flows) + 1)) + [-0.5 - k for k in range(0, int(ql.max(initial=0)) + 1)]
    )
    ax.set_yticklabels(
        [f"EF stream {int(f)}" for f in flows]
        + [f"PQ length {k}" for k in range(0, int(ql.max(initial=0)) + 1)]
    )
    ax.set_xlabel("time in the window (ms)")
    ax.set_xlim(0, to_ms(a["window_s"]))
    ax.set_title(
        f"EF arrivals, {len(flows)} streams, reference {to_kbps(a['diagram_ref_load_bps']):g}"
        f" kbit/s (A = {a_text(1 - a['diagram_ref_load_bps'] / a['ef_aggregate_bps'])}), first seed"
    )
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=8)
    a_deg = data["aggregation_degree"].values
    order = np.argsort(a_deg)
    for name, label in (
        (
            "p_clustered",
            f"clustered: within {to_ms(a['ef_line_time_s']):.3f} ms\nof another stream's packet",
        ),
        ("p_nonempty", "finding an EF packet\nwaiting in the PQ"),
    ):
        ci = np.nan_to_num(data[f"{name}_ci"].values[order], nan=0.0)
        bx.errorbar(
            a_deg[order],
            data[f"{name}_mean"].values[order],
            yerr=ci,
            marker="o",
            capsize=3,
            label=f"{label} (runs)",
        )
    bx.plot(
        a_deg[order],
        data["p_clustered_phases"].values[order],
        marker="s",
        ls="--",
        color="0.3",
        label=f"clustered, over {a['n_phase_draws']} phase draws",
    )
    bx.set_xlabel("aggregation degree A = 1 - l_max / L_BA")
    bx.set_ylabel("share of EF arrivals")
    bx.set_ylim(0, 1)
    bx.legend(fontsize=8, loc="upper left")
    bx.set_title(
        f"EF aggregate {to_kbps(a['ef_aggregate_bps']):g} kbit/s, "
        f"{kit.seed_count(len(data['seed']))}"
    )
    fig.suptitle(
        f"{ARTEFACT.id}: packet clustering with aggregation in the papers' node (GLOBECOM'01"
        " Fig. 6)"
    )
    return fig
