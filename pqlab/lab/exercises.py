"""Helpers of the teaching lab (``notebooks/lab/``): experiments, self-checks, the fast redraw,
widgets.

The lab notebooks hold no simulation logic either: each experiment a student runs
is one call here, each exercise has an id (``"01.2"``) whose answer pqlab computes
(:func:`expected`, never typed in) and :func:`check` compares with the student's
value within the exercise's stated tolerance, and :func:`redraw` simulates and
draws the EF delay distribution with the Table IV bound fast enough (well under
0.5 s for 10,000 EF samples once numba is warm) to follow ipywidgets sliders
(:func:`interactive_redraw`).

Nodes: ``scheduler="pq"`` is the papers' Cisco 7200 (:meth:`pqlab.Node.cisco7200_atm`:
EF in a priority queue of 10 policed at the EF rate); ``"wfq"`` puts EF in a WFQ queue
of weight ``ef_weight_bps`` next to the BE WFQ queue weighted with the rest of the line
(the TF-TANT PQ-vs-WFQ test). Times are seconds unless a name says otherwise
(``_ms``: milliseconds, ``_units``: line times of a 128-byte EF packet, 0.636 ms).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..base._validate import check_choice, check_int, check_real
from ..base.units import to_ms
from ..measure import bounds, experiments, metrics
from ..measure.analysis import (
    max_ring_particles,
)  # the one O(n log n) count (was an O(n^2) copy here)
from ..node.engine import simulate_arrivals
from ..node.framing import line_time_s, particles_needed
from ..node.measured import is_measured
from ..node.model import Node, Queue
from ..node.path import PathModel
from ..node.scenario import Scenario, simulate
from ..node.traffic import UDP_IP_HEADER_BYTES, Deterministic, PoissonStream
from ..papers import presets
from ..papers.stated import PAPERS, cisco7200_atm, transmission_unit_s
from . import diffserv, panel

__all__ = [
    "RIGHT",
    "NOT_YET",
    "NO_ANSWER",
    "LINE_RATE_BPS",
    "EF_UNIT_S",
    "DEFAULTS",
    "ANSWER_SEED",
    "Exercise",
    "EXERCISES",
    "expected",
    "check",
    "compare",
    "lab_node",
    "lab_scenario",
    "ef_delays",
    "table_iv_bound_s",
    "redraw",
    "timed_redraw",
    "controls",
    "RedrawPanel",
    "interactive_redraw",
    "ring_trace",
    "max_ring_particles",
    "mean_delay_vs_payload",
    "cobham_experiment",
    "playout_buffer_units",
    "aggregation_run",
]

RIGHT, NOT_YET, NO_ANSWER = "right", "not yet", "no answer yet"

#: Line rate of the papers' ATM PVC, bit/s, and the EF reference transmission unit.
LINE_RATE_BPS = PAPERS.line_rate_bps
EF_UNIT_S = transmission_unit_s()
#: The redraw's defaults (the papers' base case with MTU-size BE packets).
DEFAULTS = dict(
    be_payload_bytes=1472,
    ring_limit_particles=5,
    ef_frame_bytes=128,
    n_ef_streams=1,
    scheduler="pq",
    ef_weight_bps=400e3,
    be_distribution="deterministic",
    n_ef_samples=10_000,
    seed=1,
)
#: The seed every computed answer uses (students keep the notebooks' default seed).
ANSWER_SEED = 1


# --------------------------------------------------------------------------- nodes and runs


def lab_node(
    *,
    scheduler: str = "pq",
    ring_limit_particles: int = 5,
    ef_weight_bps: float = 400e3,
    ef_police_rate_bps: float = 300e3,
) -> Node:
    """The lab's C7200 node: EF queue 0 as a priority queue (``"pq"``) or a WFQ queue (``"wfq"``).

    Parameters
    ----------
    scheduler : {"pq", "wfq"}
        ``"pq"``: :meth:`pqlab.Node.cisco7200_atm` (priority queue of 10 policed at
        ``ef_police_rate_bps``); ``"wfq"``: EF in a WFQ queue of 10 with weight
        ``ef_weight_bps``, BE in a WFQ queue of 64 weighted with the rest of the line.
    ring_limit_particles : int
        tx-ring-limit, particles of 512 bytes (>= 1).
    ef_weight_bps : float
        WFQ weight of the EF queue, bit/s, in (0, 2e6) (used by ``"wfq"``).
    ef_police_rate_bps : float
        Policing rate of the priority queue, bit/s (> 0; used by ``"pq"``).
    """
    check_choice("scheduler", scheduler, ("pq", "wfq"))
    ring = check_int("ring_limit_particles", ring_limit_particles, 1, 1000)
    if scheduler == "pq":
        police = check_real("ef_police_rate_bps", ef_police_rate_bps, 0.0, strict_minimum=True)
        return cisco7200_atm(ring_limit_particles=ring, ef_police_rate_bps=police)
    weight = check_real("ef_weight_bps", ef_weight_bps, 0.0, LINE_RATE_BPS, strict_minimum=True)
    if weight >= LINE_RATE_BPS:
        raise ValueError(
            f"ef_weight_bps must be below the line rate {LINE_RATE_BPS:g}, got {ef_weight_bps!r}"
        )
    return Node(
        LINE_RATE_BPS,
        "atm-aal5",
        ring,
        512,
        (Queue("wfq", 10, weight_bps=weight), Queue("wfq", 64, weight_bps=LINE_RATE_BPS - weight)),
    )


def lab_scenario(
    *,
    be_payload_bytes: int = 1472,
    ring_limit_particles: int = 5,
    ef_frame_bytes: int = 128,
    n_ef_streams: int = 1,
    scheduler: str = "pq",
    ef_weight_bps: float = 400e3,
    be_distribution: str = "deterministic",
    n_ef_samples: int = 10_000,
    ef_aggregate_bps: float = 300e3,
    ef_police_rate_bps: float = 300e3,
    warmup_s: float = 0.5,
) -> Scenario:
    """The papers' PQ experiment on :func:`lab_node`, the EF aggregate split over ``n_ef_streams``.

    The EF aggregate (``ef_aggregate_bps``, 300 kbit/s) is carried by ``n_ef_streams``
    equal CBR streams; the reference stream (flow 0) is one of them, so the
    Aggregation Degree is ``1 - 1 / n_ef_streams``. BE: 20 CBR streams of 110 kbit/s,
    each of one payload ``be_payload_bytes`` (``"deterministic"``) or one size drawn
    from the stand-in real distribution (``"real"``).
    """
    n_streams = check_int("n_ef_streams", n_ef_streams, 1, 1000)
    check_choice("be_distribution", be_distribution, ("deterministic", "real"))
    check_int("be_payload_bytes", be_payload_bytes, 1, 65_535 - UDP_IP_HEADER_BYTES)
    check_int("n_ef_samples", n_ef_samples, 1, 10_000_000)
    check_int("ef_frame_bytes", ef_frame_bytes, presets.ETHERNET_FRAME_OVERHEAD_BYTES + 1, 65_535)
    aggregate = check_real("ef_aggregate_bps", ef_aggregate_bps, 0.0, strict_minimum=True)
    node = lab_node(
        scheduler=scheduler,
        ring_limit_particles=ring_limit_particles,
        ef_weight_bps=ef_weight_bps,
        ef_police_rate_bps=ef_police_rate_bps,
    )
    be = (
        dict(be_size=presets.real_be_sizes())
        if be_distribution == "real"
        else dict(be_payload_bytes=be_payload_bytes)
    )
    return presets.pq_experiment(
        **be,
        ef_frame_bytes=ef_frame_bytes,
        ef_rate_bps=aggregate / n_streams,
        ef_aggregate_bps=aggregate if n_streams > 1 else None,
        n_ef_samples=n_ef_samples,
        warmup_s=warmup_s,
        node=node,
        name=f"lab({scheduler}, n_ef_streams={n_streams})",
    )


def ef_delays(seed: int = ANSWER_SEED, **kw) -> np.ndarray:
    """Node delay (departure - arrival, no path) of the measured reference EF packets, seconds (NaN:
    lost).

    Keywords as :func:`lab_scenario`.
    """
    sc = lab_scenario(**kw)
    ds = simulate(sc, seed=seed)
    window = experiments.measurement_window(ds, sc)
    return metrics.one_way_delay(window, PathModel()).values


def table_iv_bound_s(
    be_ip_bytes: int,
    *,
    ring_limit_particles: int = 5,
    ef_aggregate_bps: float = 300e3,
    ef_frame_bytes: int = 128,
) -> float:
    """Table IV's W for BE packets of ``be_ip_bytes`` (k = particles they occupy), seconds.

    ``W = (k / (1 - rho) + Q_t + k - 1) T_u`` with ``rho = ef_aggregate_bps / 2 Mbit/s``
    (0.15 for the papers' 300 kbit/s), ``Q_t = ring_limit_particles`` and ``T_u`` = 512
    bytes at 2 Mbit/s, unframed (:func:`pqlab.bounds.worst_case_delay`).
    """
    size = check_int("be_ip_bytes", be_ip_bytes, 1, 65_535)
    k = int(particles_needed(size, 512))
    rho = check_real("ef_aggregate_bps", ef_aggregate_bps, 0.0) / LINE_RATE_BPS
    check_int("ef_frame_bytes", ef_frame_bytes, 19)
    t_u = bounds.particle_time_s(512, LINE_RATE_BPS)
    return bounds.worst_case_delay(k, rho, ring_limit_particles, t_u).w_s


# --------------------------------------------------------------------------- the fast redraw


def _check_redraw_args(kw: dict) -> dict:
    unknown = set(kw) - set(DEFAULTS)
    if unknown:
        raise ValueError(
            f"redraw got unknown parameter(s) {sorted(unknown)}; allowed: {sorted(DEFAULTS)}"
        )
    args = {**DEFAULTS, **kw}
    check_int("be_payload_bytes", args["be_payload_bytes"], 1, 65_535 - UDP_IP_HEADER_BYTES)
    check_int("ring_limit_particles", args["ring_limit_particles"], 1, 1000)
    check_int("ef_frame_bytes", args["ef_frame_bytes"], 64, 1518)
    check_int("n_ef_streams", args["n_ef_streams"], 1, 1000)
    check_choice("scheduler", args["scheduler"], ("pq", "wfq"))
    check_real("ef_weight_bps", args["ef_weight_bps"], 0.0, strict_minimum=True)
    check_choice("be_distribution", args["be_distribution"], ("deterministic", "real"))
    check_int("n_ef_samples", args["n_ef_samples"], 1, 10_000_000)
    check_int("seed", args["seed"], 0)
    return args


def redraw(fig=None, **kw):
    """Simulate the lab node and draw the EF delay distribution with Table IV's bound.

    Parameters
    ----------
    fig : matplotlib.figure.Figure, optional
        A figure to clear and draw into (widgets reuse one); default a new one.
    **kw
        Any of :data:`DEFAULTS`: ``be_payload_bytes`` (BE UDP payload, bytes),
        ``ring_limit_particles``, ``ef_frame_bytes`` (64..1518), ``n_ef_streams``
        (the EF aggregate of 300 kbit/s split over this many streams),
        ``scheduler`` ("pq" or "wfq"), ``ef_weight_bps`` (WFQ weight of EF),
        ``be_distribution`` ("deterministic" or "real"), ``n_ef_samples``, ``seed``.

    Returns
    -------
    matplotlib.figure.Figure
        Left: frequency distribution of the reference EF node delay in transmission
        units (0.636 ms); right: ``P(D > d)`` (log scale). Dashed: Table IV's W for
        the largest BE packet (:func:`table_iv_bound_s`; its model is PQ). The title
        gives mean, 99th percentile, max and loss.

    Raises
    ------
    ValueError
        Naming the parameter that is out of range.
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullLocator

    args = _check_redraw_args(kw)
    seed = args.pop("seed")
    delay = ef_delays(seed=seed, **args)
    kept = delay[np.isfinite(delay)]
    units = kept / EF_UNIT_S
    if args["be_distribution"] == "real":
        be_max = int(max(presets.real_be_sizes().sizes_bytes))
    else:
        be_max = args["be_payload_bytes"] + UDP_IP_HEADER_BYTES
    bound = table_iv_bound_s(be_max, ring_limit_particles=args["ring_limit_particles"]) / EF_UNIT_S

    if fig is None:
        fig = plt.figure(figsize=(10, 3.6))
    else:
        fig.clf()
    fig.subplots(1, 2)
    fig.subplots_adjust(
        left=0.07, right=0.99, bottom=0.15, top=0.88, wspace=0.22
    )  # fixed: no layout engine
    ax_f, ax_c = fig.axes
    if units.size:
        top = max(float(units.max()), bound) * 1.05 + 0.5
        counts, edges = np.histogram(units, bins=np.arange(0.0, top + 0.5, 0.5))
        ax_f.stairs(counts / units.size, edges, fill=True, alpha=0.7, color="C0")
        curve = metrics.ccdf(units)  # one point per distinct delay
        ax_c.step(
            curve.threshold,
            np.maximum(curve.probability, 0.5 / units.size),
            where="post",
            color="C0",
        )
        ax_c.set_xlim(0, top)
        ax_f.set_xlim(0, top)
    ax_c.set_yscale("log")
    ax_c.yaxis.set_minor_locator(NullLocator())  # fewer tick artists: a faster redraw
    ax_c.set_ylim(max(0.5 / max(units.size, 1), 1e-5), 1.05)
    for ax in (ax_f, ax_c):
        ax.axvline(bound, color="C3", ls="--", label=f"Table IV W = {bound:.1f} transmission units")
        ax.set_xlabel("EF node delay (transmission units of 0.636 ms)")
        ax.grid(True, alpha=0.3)
    ax_f.set_ylabel("frequency")
    ax_c.set_ylabel("P(D > d)")
    ax_c.legend(loc="lower left", fontsize=8)
    loss = 1.0 - kept.size / max(delay.size, 1)
    stats = (
        f"mean {units.mean():.2f}, p99 {np.percentile(units, 99):.2f}, max {units.max():.2f}"
        f" transmission units ({to_ms(EF_UNIT_S):.3f} ms each)"
        if units.size
        else "every packet lost"
    )
    # the slider sets the UDP payload; the IP length the ring and Table IV count is 28 bytes more
    be_text = (
        "BE real sizes"
        if args["be_distribution"] == "real"
        else f"BE payload {args['be_payload_bytes']} B (IP {be_max} B)"
    )
    fig.suptitle(
        f"{args['scheduler'].upper()}, {be_text}, ring {args['ring_limit_particles']}, EF"
        f" {args['ef_frame_bytes']} B x {args['n_ef_streams']} streams: {stats}, loss {loss:.2%}",
        fontsize=9,
    )
    return fig


def timed_redraw(fig=None, **kw):
    """:func:`redraw` and its wall time (simulate + draw + render to pixels), seconds: ``(fig,
    seconds)``."""
    return panel.timed_draw(redraw, fig=fig, **kw)


# --------------------------------------------------------------------------- widgets


def controls(**defaults) -> dict:
    """ipywidgets controls for :func:`redraw`, keyed by parameter (values from :data:`DEFAULTS`).

    Every widget argument is a keyword: ipywidgets 8 takes only ``value`` positionally
    (``IntSlider(value, min, max, step)`` raises ``TypeError`` there), ipywidgets 7
    accepts keywords too.
    """
    import ipywidgets as w

    v = _check_redraw_args(defaults)
    style = {"description_width": "160px"}

    def slider(kind, key, low, high, step, description, **extra):
        return kind(
            value=v[key],
            min=low,
            max=high,
            step=step,
            description=description,
            style=style,
            layout=w.Layout(width="480px"),
            continuous_update=False,
            **extra,
        )

    def toggle(key, options, description):
        return w.ToggleButtons(options=options, value=v[key], description=description, style=style)

    return {
        "be_payload_bytes": slider(w.IntSlider, "be_payload_bytes", 20, 1472, 4, "BE payload (B)"),
        "ring_limit_particles": slider(w.IntSlider, "ring_limit_particles", 1, 16, 1, "ring limit"),
        "ef_frame_bytes": slider(w.IntSlider, "ef_frame_bytes", 64, 1518, 64, "EF frame (B)"),
        "n_ef_streams": slider(w.IntSlider, "n_ef_streams", 1, 12, 1, "EF streams"),
        "scheduler": toggle("scheduler", ["pq", "wfq"], "scheduler"),
        "ef_weight_bps": slider(
            w.FloatSlider,
            "ef_weight_bps",
            50e3,
            1.9e6,
            50e3,
            "EF weight (bit/s)",
            readout_format=".3g",
        ),
        "be_distribution": toggle("be_distribution", ["deterministic", "real"], "BE sizes"),
    }


class RedrawPanel(panel.Panel):
    """The lab's sliders wired to :func:`redraw` (a :class:`pqlab.lab.panel.Panel`): controls,
    timing, plot.

    Changing any control's value redraws at once (in the widget's ``observe``
    callback) into :attr:`output`; :attr:`figure` is the last figure drawn,
    :attr:`redraws` counts the drawings and :attr:`timing` shows the last one's
    wall time. :attr:`box` is the widget to display.

    Parameters
    ----------
    keys : sequence of str, optional
        Which controls of :func:`controls` to show (default all).
    **defaults
        Start values (and fixed values of parameters without a control, e.g. ``n_ef_samples``).
    """

    def __init__(self, keys=None, **defaults):
        _check_redraw_args(defaults)
        ctrl = controls(**{k: v for k, v in defaults.items() if k not in ("n_ef_samples", "seed")})
        if keys is not None:
            unknown = sorted(set(keys) - set(ctrl))
            if unknown:
                raise ValueError(f"keys must be among {sorted(ctrl)}, got {unknown}")
            ctrl = {k: ctrl[k] for k in keys}
        super().__init__(ctrl, redraw, **{k: v for k, v in defaults.items() if k not in ctrl})


def interactive_redraw(interactive: bool = True, keys=None, **defaults):
    """Sliders that redraw on every change (a :class:`RedrawPanel`); ``interactive=False`` draws
    once.

    Parameters
    ----------
    interactive : bool
        False (papermill, tests): no widgets, :func:`redraw` once with ``defaults``.
    keys : sequence of str, optional
        Which controls to show (default all of :func:`controls`).
    **defaults
        Start values (and fixed values of parameters without a control, e.g. ``n_ef_samples``).

    Returns
    -------
    matplotlib.figure.Figure or RedrawPanel
        The figure when drawn once; the displayed panel otherwise. Without ipywidgets
        installed the defaults are drawn once (and a line says why); any other error
        propagates, so a broken widget call shows as an error rather than a static plot.
    """
    _check_redraw_args(defaults)
    return panel.interactive(
        interactive, lambda: RedrawPanel(keys, **defaults), lambda: redraw(**defaults)
    )


# --------------------------------------------------------------------------- experiments of the
# notebooks


def ring_trace(
    sizes_bytes=(1500, 128, 1500),
    queues=(1, 0, 1),
    arrivals_s=None,
    *,
    ring_limit_particles: int = 5,
):
    """Notebook 01: a few packets through the C7200 (queue 0 EF priority, 1 BE), by hand.

    Parameters
    ----------
    sizes_bytes, queues : sequence of int
        IP length and queue of each packet (the default: BE 1500, EF 128, BE 1500).
    arrivals_s : sequence of float, optional
        Arrival times, seconds, non-decreasing; default all at 0 (processed in order).
    ring_limit_particles : int
        tx-ring-limit, particles of 512 bytes.

    Returns
    -------
    xarray.Dataset
        :func:`pqlab.simulate_arrivals` plus ``particles`` (ring particles each packet needs).
    """
    sizes = [check_int("sizes_bytes", int(s), 1, 65_535) for s in sizes_bytes]
    if len(queues) != len(sizes):
        raise ValueError(f"queues must have one entry per packet ({len(sizes)}), got {len(queues)}")
    node = cisco7200_atm(ring_limit_particles=ring_limit_particles)
    arrivals = np.zeros(len(sizes)) if arrivals_s is None else arrivals_s
    ds = simulate_arrivals(node, arrivals, sizes, list(queues))
    parts = np.maximum(1, -(-ds["size"].values // node.particle_bytes))
    ds["particles"] = (
        "packet",
        parts,
        {"units": "particles", "long_name": "ring particles the packet needs"},
    )
    return ds


def mean_delay_vs_payload(
    payloads, *, n_ef_samples: int = 2_000, seed: int = ANSWER_SEED, ring_limit_particles: int = 5
):
    """Notebook 02: mean EF node delay (ms) for each deterministic BE payload; a pandas Series."""
    import pandas as pd

    values = [
        np.nanmean(
            ef_delays(
                seed=seed,
                be_payload_bytes=int(p),
                n_ef_samples=n_ef_samples,
                ring_limit_particles=ring_limit_particles,
            )
        )
        * 1e3
        for p in payloads
    ]
    return pd.Series(
        values, index=pd.Index(list(payloads), name="be_payload_bytes"), name="mean_delay_ms"
    )


def cobham_experiment(
    *,
    be_ip_bytes: int = 1500,
    be_rate_bps: float = 1.2e6,
    ef_ip_bytes: int = 128,
    ef_rate_bps: float = 300e3,
    duration_s: float = 400.0,
    seed: int = ANSWER_SEED,
) -> dict:
    """Notebook 02: Poisson EF and BE through a one-particle ring vs Cobham's M/G/1 priority waits.

    The node: 2 Mbit/s, no framing, ring limit 1 with particles larger than any packet
    (the ring holds the packet on the line only), priority queue and WFQ queue never
    full. Returns ``ef_wait_sim_ms``, ``be_wait_sim_ms`` (mean ring entry - arrival after
    a 5% warm-up), ``ef_wait_cobham_ms``, ``be_wait_cobham_ms`` and ``rho_ef``, ``rho_be``.
    """
    be = check_int("be_ip_bytes", be_ip_bytes, 1, 65_535)
    ef = check_int("ef_ip_bytes", ef_ip_bytes, 1, 65_535)
    check_real("duration_s", duration_s, 0.0, strict_minimum=True)
    node = Node(
        LINE_RATE_BPS,
        "none",
        1,
        65_535,
        (Queue("priority", 10**7), Queue("wfq", 10**7, weight_bps=1e6)),
    )
    s_ef, s_be = line_time_s(ef, "none", LINE_RATE_BPS), line_time_s(be, "none", LINE_RATE_BPS)
    lam_ef, lam_be = ef_rate_bps / (8 * ef), be_rate_bps / (8 * be)
    theory = bounds.cobham_waits([lam_ef, lam_be], [s_ef, s_be], [s_ef**2, s_be**2])
    sc = Scenario(
        node=node,
        streams=(
            PoissonStream(ef_rate_bps, Deterministic(ef), queue=0, flow=0),
            PoissonStream(be_rate_bps, Deterministic(be), queue=1, flow=100),
        ),
        duration_s=duration_s,
        warmup_s=0.05 * duration_s,
    )
    ds = simulate(sc, seed=seed)
    wait = (ds["ring_entry"] - ds["arrival"]).values
    warm = is_measured(ds["arrival"].values, sc.warmup_s)
    q = ds["queue"].values
    return {
        "rho_ef": lam_ef * s_ef,
        "rho_be": lam_be * s_be,
        "ef_wait_sim_ms": float(wait[warm & (q == 0)].mean() * 1e3),
        "ef_wait_cobham_ms": float(theory[0] * 1e3),
        "be_wait_sim_ms": float(wait[warm & (q == 1)].mean() * 1e3),
        "be_wait_cobham_ms": float(theory[1] * 1e3),
    }


def playout_buffer_units(delay_s, target_loss: float) -> float:
    """Notebook 03: playout buffer (transmission units) so that at most ``target_loss`` of packets
    come late.

    A packet is late when its delay exceeds the smallest delay plus the buffer, so the
    buffer is ``d_q - d_min`` with ``d_q`` the smallest threshold with ``P(D > d_q) <= target_loss``
    (:func:`pqlab.metrics.ccdf`); lost packets (NaN) are ignored.
    """
    target = check_real("target_loss", target_loss, 0.0, 1.0)
    units = np.asarray(delay_s, dtype=float) / EF_UNIT_S
    curve = metrics.ccdf(units)
    d_q = float(curve.threshold[np.argmax(curve.probability <= target)])
    return d_q - float(np.nanmin(units))


def aggregation_run(
    n_ef_streams: int,
    *,
    ef_aggregate_bps: float = 300e3,
    ef_police_rate_bps: float = 300e3,
    n_ef_samples: int = 3_000,
    seed: int = ANSWER_SEED,
) -> dict:
    """Notebook 04: the real-distribution test bed with the EF aggregate split over
    ``n_ef_streams``.

    Returns ``aggregation_degree``, the reference stream's node-delay ``mean_ms``,
    ``max_ms``, ``std_ms``, the largest priority-queue wait ``max_pq_wait_ms`` of any EF
    packet (ring entry - arrival) and the EF aggregate's ``loss_ratio``.
    """
    n = check_int("n_ef_streams", n_ef_streams, 1, 1000)
    sc = lab_scenario(
        n_ef_streams=n,
        be_distribution="real",
        ef_aggregate_bps=ef_aggregate_bps,
        ef_police_rate_bps=ef_police_rate_bps,
        n_ef_samples=n_ef_samples,
    )
    ds = simulate(sc, seed=seed)
    window = experiments.measurement_window(ds, sc)
    d = metrics.one_way_delay(window, PathModel()).values * 1e3
    ef = (ds["queue"].values == 0) & is_measured(ds["arrival"].values, sc.warmup_s)
    kept = ef & (ds["drop"].values == 0)
    wait = (ds["ring_entry"].values - ds["arrival"].values)[kept]
    loads = [s.rate_bps for s in sc.streams if s.queue == 0]
    return {
        "n_ef_streams": n,
        "aggregation_degree": metrics.aggregation_degree(loads),
        "mean_ms": float(np.nanmean(d)),
        "std_ms": float(np.nanstd(d, ddof=1)),
        "max_ms": float(np.nanmax(d)),
        "max_pq_wait_ms": float(wait.max() * 1e3) if wait.size else float("nan"),
        "loss_ratio": float(1.0 - kept.sum() / max(ef.sum(), 1)),
    }


# --------------------------------------------------------------------------- exercises and
# self-checks


#: The unit of a dimensionless answer (a probability, a ratio, the Aggregation Degree).
FRACTION = "1"


@dataclass(frozen=True)
class Exercise:
    """One self-checked exercise: what to enter, in which unit, and how pqlab computes the
    answer."""

    question: str
    unit: str
    compute: Callable[[], float]
    rel_tol: float = 0.0
    abs_tol: float = 0.0

    def answer_form(self) -> str:
        """How to enter the answer: "in ms", or for a dimensionless unit "as a fraction (0.25 for 25
        %)"."""
        return "as a fraction (0.25 for 25 %)" if self.unit == FRACTION else f"in {self.unit}"

    def with_unit(self, value) -> str:
        """``value`` followed by the unit (a fraction has none)."""
        return str(value) if self.unit == FRACTION else f"{value} {self.unit}"

    def tolerance_text(self) -> str:
        parts = []
        if self.abs_tol:
            parts.append(self.with_unit(f"{self.abs_tol:g}"))
        if self.rel_tol:
            parts.append(f"{self.rel_tol:.0%}")
        return " or ".join(parts) if parts else "exact"


def _ex01_ef_departure_ms():
    ds = ring_trace()
    return float(ds["departure"].values[ds["queue"].values == 0][0] * 1e3)


def _ex01_max_particles():
    return float(max_ring_particles(ring_trace()))


def _ex01_w_k3_ms():
    return table_iv_bound_s(1500) * 1e3


def _ex01_mean_delay_ms():
    return float(np.nanmean(ef_delays(be_payload_bytes=1472)) * 1e3)


def _ex02_worst_payload():
    mean = mean_delay_vs_payload(range(300, 701, 4), n_ef_samples=2_000)
    drop = mean.values[:-1] - mean.values[1:]
    return float(mean.index[int(np.argmax(drop))])


def _ex02_cobham_ef_ms():
    return cobham_experiment(duration_s=1.0)["ef_wait_cobham_ms"]


def _ex02_sim_ef_ms():
    return cobham_experiment()["ef_wait_sim_ms"]


def _ex03_delays():
    return ef_delays(be_distribution="real")


def _ex03_p_above_10():
    d = _ex03_delays() / EF_UNIT_S
    return float(metrics.ccdf(d, [10.0]).probability[0])


def _ex03_buffer_units():
    return playout_buffer_units(_ex03_delays(), 1e-3)


def _ex04_a_six_streams():
    return aggregation_run(6, n_ef_samples=100)["aggregation_degree"]


def _ex04_pq_bound_ms():
    return to_ms(bounds.priority_queue_max_delay(10, 128, LINE_RATE_BPS))


def _ex04_loss_450k():
    return aggregation_run(3, ef_aggregate_bps=450e3)["loss_ratio"]


def _ex05_pq_bound_ms():
    return to_ms(diffserv.pq_bound_s(ef_frame_bytes=1024))


def _ex05_wfq_gap_be_tx():
    summary = diffserv.ef_summary(
        diffserv.ef_delays(("pq", "wfq"), ef_frame_bytes=1024, n_ef_samples=2_000)
    )
    return (summary.at["wfq", "max_ms"] - summary.at["pq", "max_ms"]) / to_ms(
        diffserv.be_line_time_s()
    )


EXERCISES: dict[str, Exercise] = {
    "01.1": Exercise(
        "departure time of the EF packet in the trace BE 1500, EF 128, BE 1500 (all at t = 0)",
        "ms",
        _ex01_ef_departure_ms,
        abs_tol=0.01,
    ),
    "01.2": Exercise(
        "most particles in the ring at once in that trace", "particles", _ex01_max_particles
    ),
    "01.3": Exercise(
        "Table IV bound W for 1500-byte BE packets (k = 3)", "ms", _ex01_w_k3_ms, rel_tol=0.01
    ),
    "01.4": Exercise(
        "simulated mean EF node delay, BE payload 1472 bytes, seed 1, 10,000 samples",
        "ms",
        _ex01_mean_delay_ms,
        rel_tol=0.03,
    ),
    "02.1": Exercise(
        "BE payload in 300..700 bytes just before the largest fall of the mean EF delay",
        "bytes",
        _ex02_worst_payload,
        abs_tol=4,
    ),
    "02.2": Exercise(
        "Cobham mean EF wait, Poisson EF 128 B at 300 kbit/s, BE 1500 B at 1.2 Mbit/s",
        "ms",
        _ex02_cobham_ef_ms,
        rel_tol=0.02,
    ),
    "02.3": Exercise(
        "simulated mean EF wait with a one-particle ring (cobham_experiment, seed 1)",
        "ms",
        _ex02_sim_ef_ms,
        rel_tol=0.03,
    ),
    "03.1": Exercise(
        "P(D > 10 transmission units), real BE distribution, seed 1",
        "1",
        _ex03_p_above_10,
        abs_tol=0.01,
    ),
    "03.2": Exercise(
        "playout buffer for a late-packet ratio of 0.001",
        "transmission units",
        _ex03_buffer_units,
        rel_tol=0.05,
        abs_tol=0.5,
    ),
    "04.1": Exercise(
        "Aggregation Degree of 300 kbit/s as six equal streams",
        "1",
        _ex04_a_six_streams,
        abs_tol=0.005,
    ),
    "04.2": Exercise(
        "largest wait a full 10-packet EF queue of 128-byte packets adds, unframed",
        "ms",
        _ex04_pq_bound_ms,
        rel_tol=0.01,
    ),
    "04.3": Exercise(
        "EF loss ratio with 450 kbit/s of EF policed at 300 kbit/s",
        "1",
        _ex04_loss_450k,
        abs_tol=0.02,
    ),
    "05.1": Exercise(
        "largest node delay of a 1024-byte EF frame in the priority queue behind 1000-byte BE, "
        "ring of 5 particles, 2 Mbit/s ATM",
        "ms",
        _ex05_pq_bound_ms,
        rel_tol=0.01,
    ),
    "05.2": Exercise(
        "WFQ's largest EF delay minus PQ's, 1024-byte EF frames, seed 1, 2,000 samples",
        "BE line times",
        _ex05_wfq_gap_be_tx,
        abs_tol=0.25,
    ),
}

_cache: dict[str, float] = {}


def _exercise(exercise: str) -> Exercise:
    if exercise not in EXERCISES:
        raise ValueError(f"exercise must be one of {sorted(EXERCISES)}, got {exercise!r}")
    return EXERCISES[exercise]


def expected(exercise: str) -> float:
    """The answer of ``exercise`` as pqlab computes it (cached per process)."""
    ex = _exercise(exercise)
    if exercise not in _cache:
        _cache[exercise] = float(ex.compute())
    return _cache[exercise]


def compare(answer, target: float, *, rel_tol: float = 0.0, abs_tol: float = 0.0) -> str:
    """:data:`RIGHT` if ``answer`` is within ``abs_tol`` or ``rel_tol * |target|`` of ``target``,
    :data:`NOT_YET` if not, :data:`NO_ANSWER` if ``answer`` is None.

    Raises
    ------
    ValueError
        If ``answer`` is not a real number (or None), or a tolerance is negative.
    """
    rel = check_real("rel_tol", rel_tol, 0.0)
    tol_abs = check_real("abs_tol", abs_tol, 0.0)
    if answer is None:
        return NO_ANSWER
    if isinstance(answer, (bool, np.bool_)) or not isinstance(
        answer, (int, float, np.integer, np.floating)
    ):
        raise ValueError(f"answer must be a number (or None), got {answer!r}")
    value = float(answer)
    if not math.isfinite(value):
        raise ValueError(f"answer must be a finite number (or None), got {answer!r}")
    return RIGHT if abs(value - target) <= max(tol_abs, rel * abs(target)) else NOT_YET


def check(exercise: str, answer) -> str:
    """Compare a student's ``answer`` with :func:`expected` and print the verdict; return it.

    Prints ``right``, ``not yet`` (with the direction, never the value) or
    ``no answer yet``, and the tolerance.
    """
    ex = _exercise(exercise)
    if answer is None:
        print(f"[{exercise}] {NO_ANSWER}: set the variable to your value, {ex.answer_form()}")
        return NO_ANSWER
    target = expected(exercise)
    verdict = compare(answer, target, rel_tol=ex.rel_tol, abs_tol=ex.abs_tol)
    hint = "" if verdict == RIGHT else (" (too high)" if float(answer) > target else " (too low)")
    print(
        f"[{exercise}] {verdict}{hint}: {ex.question}, {ex.with_unit(answer)} (tolerance"
        f" {ex.tolerance_text()})"
    )
    return verdict
