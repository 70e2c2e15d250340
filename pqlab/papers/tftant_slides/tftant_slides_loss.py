"""TF-TANT slides, "EF load and aggregation (PQ): packet clustering": EF loss vs the number of EF
streams.

Slide "EF load and aggregation (PQ): packet clustering": EF loss vs number of EF streams at 60%
EF load, split by cause. The artefact's computation (:func:`compute`), claims (:func:`claims`)
and figure (:func:`figure`); the notebook ``notebooks/09_tftant_be_streams_and_aggregation``
runs them. The runs are :func:`pqlab.papers.tftant_slides.ef_split_runs.ef_split_scenario`.

Units: loads in bit/s of Ethernet frames (the claims and the figure: kbit/s), sizes and token
bucket depths in bytes, losses as ratios (the claims and the figure: %).
"""

from __future__ import annotations

import math

import numpy as np
import seaborn as sns
import xarray as xr
from matplotlib.ticker import FuncFormatter, MaxNLocator, NullFormatter

from ...base._validate import check_int, check_real
from ...base.units import to_kbps, to_ms
from ...measure import cache
from ...measure.analysis import trend
from ...measure.metrics import largest_loss
from ...node.framing import line_time_s
from ...node.scenario import Scenario
from .. import judge, kit, presets
from ..records import MODEL_TITLES
from ..registry import Artefact
from ..stated import LOSS_EF_LOAD_BPS, PAPERS
from ..testbed import PAPERS_NODE, TESTBED, testbed_runs, testbed_scenario
from .ef_split_runs import ef_split_scenario
from .pq_streams_text import PAPER_MARKER, be_sizes_text, ci_text

__all__ = [
    "ARTEFACT",
    "compute",
    "claims",
    "figure",
    "min_bucket_bytes",
    "negligible_check",
    "load_check",
    "policer_check",
    "LINE_RATE_BPS",
    "LOSS_SECOND_LOAD_BPS",
    "LOSS_STREAMS",
    "LOSS_N_EF_SAMPLES",
    "LOSS_MODELS",
    "NEGLIGIBLE_LOSS",
    "LOAD_RATIO_LIMIT",
    "PAPER_NEGLIGIBLE_UP_TO_STREAMS",
]

ARTEFACT = Artefact(__name__, notebook="09_tftant_be_streams_and_aggregation")

#: Line rate of the papers' PVC, bit/s.
LINE_RATE_BPS = PAPERS.line_rate_bps
#: A second EF load (30% of the line) to see whether the load matters ("EF load irrelevant").
LOSS_SECOND_LOAD_BPS = 0.3 * LINE_RATE_BPS
#: EF stream counts of the loss sweep: 1..20 (every second count above 2).
LOSS_STREAMS = (1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20)
#: EF packets (of all streams) per run of the loss test.
LOSS_N_EF_SAMPLES = 40_000
#: Loss ratio below which we call it negligible (one packet in a thousand).
NEGLIGIBLE_LOSS = 1e-3
#: Losses at two EF loads (same stream count) within this factor of each other do not depend on the
#: load.
LOAD_RATIO_LIMIT = 2.0
#: The models the sweep runs (:mod:`pqlab.papers.testbed`): the papers' node (exactly
#: ``pqlab.simulate``)
#: and the calibrated test-bed model.
LOSS_MODELS = {"papers_node": PAPERS_NODE, "testbed": TESTBED}
#: Slide: loss is "negligible if the number of EF streams decreases (up to 8)".
PAPER_NEGLIGIBLE_UP_TO_STREAMS = 8


def min_bucket_bytes(arrival_s, size_bytes, rate_bps: float) -> float:
    """Smallest token-bucket depth (full at 0) that passes every packet at ``rate_bps``, bytes.

    ``max over i <= j`` of ``sum(size[i..j]) - rate (t_j - t_i)``: the burstiness of the
    arrivals (times in s, sizes in bytes) against the policed rate (bit/s). A policer whose burst
    is at least this drops nothing.
    """
    t = np.asarray(arrival_s, dtype=float)
    s = np.asarray(size_bytes, dtype=float)
    if t.size == 0:
        return 0.0
    r = check_real("rate_bps", rate_bps, 0.0, strict_minimum=True) / 8.0
    cum = np.cumsum(s)
    after = cum - r * t  # tokens taken up to and including packet j, minus refill
    before = cum - s - r * t  # the same just before packet i
    return float(np.max(after - np.minimum.accumulate(before)))


def _loss_measure(packets: dict, sc: Scenario) -> dict:
    """EF loss by cause in the measurement window, and the EF arrivals' burstiness at the policer.

    ``packets`` is one run's per-packet arrays (:func:`pqlab.papers.testbed.testbed_runs`), ``sc``
    the scenario the node ran (:func:`pqlab.papers.testbed.testbed_scenario`); the window counts
    by send time (``arrival``), the burstiness by arrival at the node (``node_arrival`` where the
    test-bed model records it).
    """
    ef = packets["queue"] == presets.EF_QUEUE
    win = ef & (packets["arrival"] >= sc.warmup_s)
    drop = packets["drop"][win]
    pq = sc.node.queues[presets.EF_QUEUE]
    at_node = packets["node_arrival"] if "node_arrival" in packets else packets["arrival"]
    order = np.argsort(at_node[ef], kind="stable")
    return {
        "sent": float(win.sum()),
        "policed": float(np.sum(drop == 1)),
        "queue_full": float(np.sum(drop == 2)),
        "min_bucket_bytes": min_bucket_bytes(
            at_node[ef][order], packets["size"][ef][order], pq.police_rate_bps
        ),
    }


def _runs(model: str, point, load: float, counts, seeds) -> np.ndarray:
    """``(n_streams, seed, measure)`` of :func:`_loss_measure` for one model and EF load (NaN: not
    run)."""
    tb = LOSS_MODELS[model]
    out = np.full((len(counts), len(seeds), len(_MEASURES)), np.nan)
    for i, c in enumerate(counts):
        if c is None:
            continue
        sc = point(c, load)
        tsc = testbed_scenario(sc, tb)
        for j, packets in enumerate(testbed_runs(sc, seeds, tb)):
            m = _loss_measure(packets, tsc)
            out[i, j] = [m[k] for k in _MEASURES]
    return out


#: The measures of one run, in the order of :func:`_runs`.
_MEASURES = ("sent", "policed", "queue_full", "min_bucket_bytes")


@cache.artefact(ARTEFACT.id)
def compute(
    *,
    n_ef_samples: int = LOSS_N_EF_SAMPLES,
    seeds=(1, 2, 3),
    n_streams=LOSS_STREAMS,
    ef_load_bps: float = LOSS_EF_LOAD_BPS,
    other_loads_bps=(LOSS_SECOND_LOAD_BPS,),
    ef_frame_bytes: int = presets.EF_FRAME_BYTES,
    models=tuple(LOSS_MODELS),
) -> xr.Dataset:
    """Slide "EF load and aggregation (PQ): packet clustering": EF loss vs number of EF streams, by
    cause.

    :func:`~pqlab.papers.tftant_slides.ef_split_runs.ef_split_scenario` (STAND-IN real BE, the
    C7200 with its priority queue policed at the EF load, IOS default burst) for every stream
    count at the slide's EF load, and for the fewest and most streams at other loads (NaN at the
    counts not run), under each model (:data:`LOSS_MODELS`: the papers' node, exactly
    ``pqlab.simulate``, and the calibrated test-bed model,
    :func:`pqlab.papers.testbed.simulate_testbed`); loss over all EF packets after the warm-up,
    split into policed (drop code 1) and queue full (code 2), and the smallest bucket depth that
    would police nothing (:func:`min_bucket_bytes`).

    Parameters
    ----------
    n_ef_samples : int
        EF packets of all streams per run (>= 100): every stream count sees the same EF traffic
        volume (as in the tandem and IPDV-size artefacts).
    seeds : sequence of int
        Seeds (>= 0, distinct).
    n_streams : sequence of int
        EF stream counts (>= 1, distinct).
    ef_load_bps : float
        EF load swept over ``n_streams``, bit/s of frames (> 0); the slide's: 60% of the line, 1.2
        Mbit/s.
    other_loads_bps : sequence of float
        Further EF loads (> 0, distinct, none equal to ``ef_load_bps``; may be empty), run with the
        fewest and the most streams only: does the load matter?
    ef_frame_bytes : int
        EF frame size, bytes.
    models : sequence of str
        Names of :data:`LOSS_MODELS` (distinct, at least one), in this order on ``model``.

    Returns
    -------
    xarray.Dataset
        Dims ``model``, ``ef_load`` (bit/s of frames), ``n_streams``, ``seed``: ``sent``,
        ``policed``, ``queue_full`` (packets), ``loss_ratio``, ``policed_ratio``,
        ``queue_full_ratio`` (1), ``min_bucket_bytes`` (bytes) with ``*_mean``/``*_ci``;
        ``os_tick_s`` (model; s), ``ring_drain_s`` (s), ``police_burst_per_load``,
        ``ef_wire_share`` (ef_load); scalars ``police_burst_bytes``, ``ef_ip_bytes``.
    """
    n = check_int("n_ef_samples", n_ef_samples, 100, 1_000_000_000)
    seeds = kit.check_seeds(seeds)
    counts = sorted(kit.check_values("n_streams", n_streams, 1, integer=True))
    load = check_real("ef_load_bps", ef_load_bps, 0.0, strict_minimum=True)
    try:
        others = list(other_loads_bps)
    except TypeError:
        raise ValueError(
            f"other_loads_bps must be a sequence of numbers > 0, got {other_loads_bps!r}"
        ) from None
    others = kit.check_values("other_loads_bps", others, 0.0) if others else []
    if load in others:
        raise ValueError(f"other_loads_bps must not hold ef_load_bps={load:g}, got {others!r}")
    loads = sorted([load, *others])
    frame = check_int(
        "ef_frame_bytes", ef_frame_bytes, presets.ETHERNET_FRAME_OVERHEAD_BYTES + 1, 65_535
    )
    names = list(models) if isinstance(models, (list, tuple)) else None
    if not names or len(set(names)) != len(names) or any(m not in LOSS_MODELS for m in names):
        raise ValueError(
            f"models must be distinct names of {list(LOSS_MODELS)} (at least one), got {models!r}"
        )

    def point(n_streams, ef_load_bps):
        return ef_split_scenario(
            n_streams, ef_load_bps, ef_frame_bytes=frame, n_ef_samples=n, total_samples=True
        )

    ends = {counts[0], counts[-1]}
    raw = np.stack(
        [
            np.stack(
                [
                    _runs(
                        m, point, x, [c if x == load or c in ends else None for c in counts], seeds
                    )
                    for x in loads
                ]
            )
            for m in names
        ]
    )  # model, ef_load, n_streams, seed, measure
    ds = xr.Dataset(
        coords={
            "model": ("model", names, {"long_name": "model (pqlab.papers.testbed)"}),
            "ef_load": (
                "ef_load",
                np.array(loads),
                {"units": "bit/s", "long_name": "EF load (frames)"},
            ),
            "n_streams": (
                "n_streams",
                np.array(counts),
                {"units": "streams", "long_name": "EF streams"},
            ),
            "seed": ("seed", np.array(seeds), {"units": "1", "long_name": "random seed"}),
        }
    )
    dims = ("model", "ef_load", "n_streams", "seed")
    for k, (name, long_name) in enumerate(
        (
            ("sent", "EF packets sent after the warm-up"),
            ("policed", "EF packets policed"),
            ("queue_full", "EF packets dropped at the full priority queue"),
        )
    ):
        ds[name] = (dims, raw[..., k], {"units": "packets", "long_name": long_name})
    sent = ds["sent"].values
    for name, num, long_name in (
        ("loss_ratio", ds["policed"].values + ds["queue_full"].values, "EF loss ratio"),
        ("policed_ratio", ds["policed"].values, "EF loss ratio, policed"),
        ("queue_full_ratio", ds["queue_full"].values, "EF loss ratio, queue full"),
    ):
        ds[name] = (dims, num / sent, {"units": "1", "long_name": long_name})
    ds["min_bucket_bytes"] = (
        dims,
        raw[..., 3],
        {"units": "bytes", "long_name": "smallest policer burst that drops nothing"},
    )
    kit.add_mean_ci(ds, ("loss_ratio", "policed_ratio", "queue_full_ratio", "min_bucket_bytes"))
    sc = point(counts[-1], load)
    pq = sc.node.queues[presets.EF_QUEUE]
    ip = presets.ef_ip_bytes(frame)
    ds["os_tick_s"] = (
        "model",
        [LOSS_MODELS[m].os_tick_s for m in names],
        {
            "units": "s",
            "long_name": "generator timer tick of the EF streams but the reference (0: exact)",
        },
    )
    ring_bytes = sc.node.ring_limit_particles * sc.node.particle_bytes
    ds["ring_drain_s"] = (
        (),
        line_time_s(ring_bytes, sc.node.framing, sc.node.line_rate_bps),
        {"units": "s", "long_name": f"line time of a ring full of BE ({ring_bytes} bytes)"},
    )
    ds["police_burst_bytes"] = (
        (),
        pq.police_burst_bytes,
        {"units": "bytes", "long_name": "policer burst at the largest load (IOS default)"},
    )
    ds["police_burst_per_load"] = (
        "ef_load",
        np.array(loads) * 0.2 / 8.0,
        {"units": "bytes", "long_name": "policer burst: 200 ms at the EF load"},
    )
    ds["ef_ip_bytes"] = ((), float(ip), {"units": "bytes", "long_name": "EF IP packet length"})
    ds["ef_wire_share"] = (
        "ef_load",
        [
            load / (8.0 * frame) * line_time_s(ip, sc.node.framing, 1.0) / sc.node.line_rate_bps
            for load in loads
        ],
        {"units": "1", "long_name": "share of the line the EF load takes in ATM cells"},
    )
    ds.attrs = kit.provenance(
        ARTEFACT.id,
        f"{ARTEFACT.id}: EF loss vs number of EF streams at 60% EF load, by cause "
        "(TF-TANT slides, packet clustering)",
        __name__,
        seeds,
        scenario=sc.to_json(),
        n_ef_samples=n,
        ef_frame_bytes=frame,
        line_rate_bps=sc.node.line_rate_bps,
        ef_queue_limit=pq.limit_packets,
        swept_load_bps=load,
    )
    return ds


# --------------------------------------------------------------------------- the checks (the same
# for every model)


def negligible_check(d: xr.Dataset) -> tuple[float, int, bool]:
    """Is the EF loss negligible up to the slide's 8 streams? One model's data (no ``model`` dim).

    Returns the largest mean loss (1) at the swept load over the stream counts up to
    :data:`PAPER_NEGLIGIBLE_UP_TO_STREAMS`, the count where it is, and whether it is below
    :data:`NEGLIGIBLE_LOSS`.
    """
    s = d.sel(ef_load=d.attrs["swept_load_bps"])
    small = s["loss_ratio_mean"].sel(
        n_streams=[c for c in s["n_streams"].values if c <= PAPER_NEGLIGIBLE_UP_TO_STREAMS]
    )
    k = int(np.argmax(small.values))
    worst = float(small.values[k])
    return worst, int(small["n_streams"].values[k]), bool(worst < NEGLIGIBLE_LOSS)


def load_check(d: xr.Dataset) -> tuple[list[float], float, bool]:
    """Is the EF load irrelevant to the loss? One model's data (no ``model`` dim).

    At the largest stream count, the mean loss at each EF load (1, in load order) and the ratio of
    the largest to the smallest; the load is irrelevant when at every stream count run at every
    load the losses are all negligible (< :data:`NEGLIGIBLE_LOSS`) or within a factor
    :data:`LOAD_RATIO_LIMIT` of each other.
    """
    m = d["loss_ratio_mean"]
    ok = True
    for c in m["n_streams"].values:
        v = m.sel(n_streams=c).values
        if np.isnan(v).any():
            continue  # not run at every load
        ok &= bool(
            v.max() < NEGLIGIBLE_LOSS or (v.min() > 0 and v.max() / v.min() <= LOAD_RATIO_LIMIT)
        )
    top = [float(x) for x in m.isel(n_streams=-1).values]
    ratio = max(top) / min(top) if min(top) > 0 else math.inf
    return top, ratio, bool(ok)


def policer_check(d: xr.Dataset) -> tuple[float, float, bool]:
    """Are the EF packets dropped by the policer? One model's data (no ``model`` dim).

    At the swept load and the largest stream count: the policed share of the lost EF packets (1),
    the loss ratio (1), and whether the policer drops more than the full queue.
    """
    top = d.sel(ef_load=d.attrs["swept_load_bps"]).isel(n_streams=-1)
    loss = float(top["loss_ratio_mean"])
    pol, qf = float(top["policed_ratio_mean"]), float(top["queue_full_ratio_mean"])
    return (pol / loss if loss > 0 else 0.0), loss, bool(loss > 0 and pol > qf)


def _arrivals_in_drain(d: xr.Dataset, load_bps: float) -> float:
    """EF packets of ``load_bps`` (bit/s of frames) that arrive while a ring full of BE drains."""
    return load_bps / (8.0 * d.attrs["ef_frame_bytes"]) * float(d["ring_drain_s"])


def _drain_facts(d: xr.Dataset, load_bps: float, suffix: str = "") -> list[dict]:
    return [
        judge.fact(f"drain{suffix}", to_ms(float(d["ring_drain_s"])), "ms"),
        judge.fact(f"arrivals{suffix}", _arrivals_in_drain(d, load_bps), "EF packets"),
        judge.fact("queue_limit", d.attrs["ef_queue_limit"], "packets"),
    ]


def _negligible_reason(d: xr.Dataset, tick_s: float) -> dict:
    """Why the loss up to 8 streams is what it is: the ring's drain, and the generator tick if
    any."""
    load = d.attrs["swept_load_bps"]
    s = d.sel(ef_load=load)
    worst, at, _ = negligible_check(d)
    counts = [int(c) for c in s["n_streams"].values if c <= PAPER_NEGLIGIBLE_UP_TO_STREAMS]
    per = [
        judge.fact(f"loss_{c}", 100 * float(s["loss_ratio_mean"].sel(n_streams=c)), "%")
        for c in counts
    ]
    listed = ", ".join(f"{{loss_{c}}} with {c}" for c in counts)
    text = (
        f"EF loss by streams: {listed}; a ring full of BE takes up to {{drain}} to drain, while"
        f" {{arrivals}} of the {to_kbps(load):g} kbit/s aggregate arrive for a priority queue of"
        " {queue_limit}"
    )
    facts = [*per, *_drain_facts(d, load)]
    if tick_s > 0:
        per_tick = (at - 1) / at * load / (8.0 * d.attrs["ef_frame_bytes"]) * tick_s
        text += (
            "; the generators' {tick} timer tick releases the packets of the EF streams but the"
            f" reference together: {{per_tick}} per tick with {at} streams"
        )
        facts += [
            judge.fact("tick", to_ms(tick_s), "ms"),
            judge.fact("per_tick", per_tick, "EF packets"),
        ]
    return judge.reason("mechanism", text, facts)


def _load_reason(d: xr.Dataset, tick_s: float) -> dict:
    """Why the loss moves with the load: how many EF packets arrive while a full ring drains, per
    load."""
    top, ratio, _ = load_check(d)
    loads = d["ef_load"].values
    n = int(d["n_streams"].values[-1])
    lo, hi = float(loads[0]), float(loads[-1])
    facts = [
        judge.fact("loss_low", 100 * top[0], "%"),
        judge.fact("loss_high", 100 * top[-1], "%"),
        *_drain_facts(d, lo, "_low"),
        judge.fact("arrivals_high", _arrivals_in_drain(d, hi), "EF packets"),
    ]
    text = (
        f"with {n} streams the loss is {{loss_low}} at {to_kbps(lo):g} kbit/s and {{loss_high}} at"
        f" {to_kbps(hi):g} kbit/s: while a ring full of BE drains ({{drain_low}}) {{arrivals_low}}"
        " resp. {arrivals_high} arrive for a priority queue of {queue_limit}"
    )
    if math.isfinite(ratio):
        facts.append(judge.fact("ratio", ratio, "1"))
        text += ", a factor {ratio}"
    if tick_s > 0:
        per_tick = [(n - 1) / n * x / (8.0 * d.attrs["ef_frame_bytes"]) * tick_s for x in (lo, hi)]
        text += (
            "; the generators' {tick} tick releases {per_tick_low} resp. {per_tick_high} together"
        )
        facts += [
            judge.fact("tick", to_ms(tick_s), "ms"),
            judge.fact("per_tick_low", per_tick[0], "EF packets"),
            judge.fact("per_tick_high", per_tick[1], "EF packets"),
        ]
    return judge.reason("mechanism", text, facts)


def _policer_reason(d: xr.Dataset) -> dict:
    """Why (almost) nothing is policed: the needed bucket against the configured burst."""
    load = d.attrs["swept_load_bps"]
    share, loss, _ = policer_check(d)
    return judge.reason(
        "bound",
        "the policer drops {policed_share} of the {loss} lost: the EF arrivals never need a token"
        " bucket deeper than {needed} (measured, every stream count and seed) and the IOS default"
        " burst is {burst}, so the policer cannot drop; every loss is the full priority queue",
        [
            judge.fact("policed_share", 100 * share, "%"),
            judge.fact("loss", 100 * loss, "%"),
            judge.fact("needed", float(d.sel(ef_load=load)["min_bucket_bytes"].max()), "bytes"),
            judge.fact("burst", float(d["police_burst_per_load"].sel(ef_load=load)), "bytes"),
        ],
    )


def _no_loss_reason(d: xr.Dataset, title: str) -> dict | None:
    """For a model that loses no EF packet in any run of the test (every stream count, load and
    seed): the reason of its loss statements, carrying the effect's size
    (:data:`pqlab.papers.judge.EFFECT_FACT`, 0: the judge calls them not tested); None when it
    loses some."""
    largest = float(d["loss_ratio"].max())
    if largest > 0:
        return None
    return judge.reason(
        "mechanism",
        f"{title} loses no EF packet in any of the test's {{runs}} (every stream count, load and"
        " seed): the largest EF loss is {effect_size}, so a statement about when EF packets are"
        " lost is not tested by it",
        [
            judge.fact("runs", int(d["loss_ratio"].size), "runs"),
            judge.fact(judge.EFFECT_FACT, 100 * largest, "%"),
        ],
    )


def claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`compute`: loss at 20 streams, up to 8, by cause, the clustering.

    The papers' node records every row; the test-bed model (role ``held_out``) the three
    statements judged by the same checks (:func:`negligible_check`, :func:`load_check`,
    :func:`policer_check`); its 20-stream loss is ``testbed_model``'s.
    """
    art = ARTEFACT.id
    kit.check_artefact(ds, art)
    load_bps = ds.attrs["swept_load_bps"]
    load_kbps = to_kbps(load_bps)
    counts = ds["n_streams"].values
    top = int(counts.max())
    seeds = kit.seed_count(ds.sizes["seed"])
    models = [str(m) for m in ds["model"].values]
    rows = []
    for model in models:
        dm = ds.sel(model=model)
        dm.attrs = ds.attrs
        who = {} if model == "papers_node" else {"model": model, "role": "held_out"}
        tick = float(dm["os_tick_s"])
        d = dm.sel(ef_load=load_bps)
        at_top = d.sel(n_streams=top)
        pol, qf = float(at_top["policed_ratio_mean"]), float(at_top["queue_full_ratio_mean"])
        no_loss = _no_loss_reason(dm, MODEL_TITLES[model])
        worst, at, ok = negligible_check(dm)
        reason = no_loss or (None if ok else _negligible_reason(dm, tick))
        rows.append(
            kit.claim(
                art,
                "ef_loss_negligible_up_to_8_streams",
                None,
                "-",
                f"largest mean EF loss with <= {PAPER_NEGLIGIBLE_UP_TO_STREAMS} streams at "
                f"{load_kbps:g} kbit/s: {worst * 100:.3f} % with {at} (negligible below "
                f"{NEGLIGIBLE_LOSS * 100:g} %), {seeds}; {model} model",
                shape_ok=ok,
                reason=reason,
                **who,
            )
        )
        if ds.sizes["ef_load"] > 1:
            per_load, ratio, ok = load_check(dm)
            txt = "; ".join(
                f"{float(to_kbps(lv)):g} kbit/s: {lo * 100:.3f} % with {int(counts.min())}"
                f" stream(s), {hi * 100:.3f} % with {top}"
                for lv, lo, hi in zip(
                    ds["ef_load"].values,
                    dm.sel(n_streams=int(counts.min()))["loss_ratio_mean"].values,
                    per_load,
                )
            )
            rows.append(
                kit.claim(
                    art,
                    "ef_load_irrelevant",
                    None,
                    "-",
                    f"mean EF loss per load: {txt}; irrelevant when at each stream count the losses"
                    f" are all below {NEGLIGIBLE_LOSS * 100:g} % or within a factor"
                    f" {LOAD_RATIO_LIMIT:g}",
                    shape_ok=ok,
                    reason=no_loss or (None if ok else _load_reason(dm, tick)),
                    **who,
                )
            )
        share, loss, ok = policer_check(dm)
        rows.append(
            kit.claim(
                art,
                "dropped_by_policer",
                None,
                "-",
                f"policed share of the mean EF loss with {top} streams at {load_kbps:g} kbit/s: "
                f"{share:.0%} (policed {pol * 100:.3f} %, queue full {qf * 100:.3f} %)",
                shape_ok=ok,
                reason=no_loss or (None if ok else _policer_reason(dm)),
                **who,
            )
        )
        if model != "papers_node":
            continue
        largest = largest_loss(at_top["loss_ratio"].values)
        if "testbed" in models:
            tb = ds.sel(model="testbed", ef_load=load_bps, n_streams=top)
            why = judge.reason(
                "input",
                "the slides do not state the generators' timing, and the loss moves with it: exact"
                " CBR sources lose at most {ours}, the test-bed model's {tick} generator tick at"
                " most {tick_loss}",
                [
                    judge.fact("ours", 100 * largest, "%"),
                    judge.fact("tick", to_ms(float(ds["os_tick_s"].sel(model="testbed"))), "ms"),
                    judge.fact("tick_loss", 100 * largest_loss(tb["loss_ratio"].values), "%"),
                ],
            )
        else:
            why = _negligible_reason(dm, tick)
        rows.insert(
            0,
            kit.claim(
                art,
                "ef_loss_20_streams",
                largest,
                "1",
                f"largest EF loss over the seeds' runs (the slide's 'up to') with {top} streams at"
                f" {load_kbps:g} kbit/s ({float(d['ef_wire_share']):.0%} of the line in ATM cells),"
                f" {seeds}: mean"
                f" {ci_text(float(at_top['loss_ratio_mean']) * 100, float(at_top['loss_ratio_ci']) * 100, 3)}"  # noqa: E501
                f" %, policed {pol * 100:.3f} %, queue full {qf * 100:.3f} %",
                reason=why,
            ),
        )
        # does the loss grow with the number of streams (clustering) rather than with the load?
        grows, growth_half, grows_ok = trend(
            d["loss_ratio"].transpose("n_streams", "seed").values, counts
        )
        rows.append(
            kit.claim(
                art,
                "loss_grows_with_streams",
                None,
                "-",
                f"per-seed slope of the EF loss vs streams {grows * 100:+.4f} +/-"
                f" {growth_half * 100:.4f} % per stream at {load_kbps:g} kbit/s",
                shape_ok=grows_ok,
            )
        )
        b = d["min_bucket_bytes_mean"].values
        rows.append(
            kit.claim(
                art,
                "aggregation_causes_clustering",
                None,
                "-",
                "burstiness of the EF aggregate (smallest policer burst with no drop) grows from "
                f"{b[0]:.0f} bytes with {int(counts[0])} stream(s) to {b[-1]:.0f} bytes with {top} "
                "streams at the same load",
                shape_ok=bool(b[-1] > b[0]),
            )
        )
        rows += [
            kit.claim(
                art,
                "ef_load_fraction",
                load_bps / ds.attrs["line_rate_bps"],
                "1",
                f"EF load {load_kbps:g} kbit/s of {ds.attrs['ef_frame_bytes']}-byte frames on the "
                f"{to_kbps(ds.attrs['line_rate_bps']):g} kbit/s line; in ATM cells it takes "
                f"{float(d['ef_wire_share']):.1%}",
            ),
            kit.claim(
                art,
                "n_ef_streams_max",
                top,
                "streams",
                "largest number of EF streams, equal shares of the load",
            ),
        ]
    return rows


def _plain_log(ax) -> None:
    """A log y axis with plain-number labels (no mathtext) and no minor labels."""
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())


def figure(ds: xr.Dataset):
    """EF loss vs number of EF streams at constant EF load, by cause, and the EF burstiness against
    the policer.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`compute`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    kit.check_artefact(ds, ARTEFACT.id)
    seeds = kit.seed_count(ds.sizes["seed"])
    fig, (ax, ax_b) = kit.subplots(1, 2, figsize=(13, 5.2), footer=True)
    n = ds["n_streams"].values
    loads = ds["ef_load"].values
    palette = sns.color_palette("deep", 4)
    floor = 1e-4  # % shown for a loss of 0 on the log axis
    swept = ds.attrs["swept_load_bps"]
    nodes = ds.sel(model="papers_node") if "papers_node" in ds["model"].values else ds.isel(model=0)
    for k, load in enumerate(loads):
        d = nodes.sel(ef_load=load)
        frac = 100 * float(load) / ds.attrs["line_rate_bps"]
        # a line only over the swept stream counts; the other loads ran the fewest and most streams
        # only:
        # points, no straight line across the log axis between them
        ls_of = (lambda ls: ls) if load == swept else (lambda ls: "none")
        for var, marker, ls, name in (
            ("queue_full_ratio", "o", "-", "queue full"),
            ("policed_ratio", "x", ":", "policed"),
        ):
            run = np.isfinite(d[f"{var}_mean"].values)
            per_seed = np.maximum(d[var].values[run] * 100, floor)
            ax.plot(
                np.repeat(n[run], d.sizes["seed"]),
                per_seed.ravel(),
                marker,
                color=palette[k],
                alpha=0.3,
                ms=3,
            )
            ax.plot(
                n[run],
                np.maximum(d[f"{var}_mean"].values[run] * 100, floor),
                marker=marker,
                ls=ls_of(ls),
                ms=5,
                color=palette[k],
                label=f"{name}, {float(to_kbps(load)):g} kbit/s ({frac:.0f}% of the line)",
            )
        if "testbed" in ds["model"].values:
            tb = ds.sel(model="testbed", ef_load=load)
            run = np.isfinite(tb["loss_ratio_mean"].values)
            tick = to_ms(float(ds["os_tick_s"].sel(model="testbed")))
            ax.plot(
                n[run],
                np.maximum(tb["loss_ratio_mean"].values[run] * 100, floor),
                marker="s",
                mfc="white",
                ls=ls_of("--"),
                ms=6,
                color=palette[k],
                label=f"test bed ({tick:g} ms tick), all drops, {float(to_kbps(load)):g} kbit/s",
            )
    paper = kit.paper_value(ARTEFACT.id, "ef_loss_20_streams")[0]
    if np.isfinite(paper):
        ax.plot(
            [20],
            [paper * 100],
            label=f"slides: up to {paper:.0%} with 20 streams (policer)",
            **PAPER_MARKER,
        )
    ax.axvspan(0.5, 8.5, color="0.9", zorder=0, label="slides: negligible up to 8 streams")
    _plain_log(ax)
    ax.set_ylim(floor * 0.7, 30)
    ax.set_xlim(0.5, n.max() + 0.5)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("EF streams sharing the load equally")
    ax.set_ylabel(f"EF loss (%; 0 drawn at {floor:g})")
    kit.legend_below(ax, ncol=2)
    ax.set_title(
        f"EF loss: papers' node by cause, mean and each of {seeds} (dots); test-bed model",
        fontsize=10,
    )

    # the needed burst is the same at every load (the arrival pattern scales with the load): draw
    # the swept one
    d = nodes.sel(ef_load=swept)
    ax_b.plot(
        n,
        d["min_bucket_bytes_mean"],
        marker="o",
        ms=4,
        color="C3",
        label="needed: smallest burst with no drop (papers' node; any load)",
    )
    ax_b.plot(
        np.repeat(n, d.sizes["seed"]),
        d["min_bucket_bytes"].values.ravel(),
        "o",
        ms=3,
        color="C3",
        alpha=0.3,
    )
    for k, load in enumerate(loads):
        ax_b.axhline(
            float(ds["police_burst_per_load"].sel(ef_load=load)),
            color=palette[k],
            ls="--",
            lw=1.2,
            label=f"configured: IOS 200 ms at {float(to_kbps(load)):g} kbit/s",
        )
    ip = float(ds["ef_ip_bytes"])
    ax_b.plot(
        n,
        n * ip,
        color="0.4",
        ls=":",
        label=f"bound: n x {ip:.0f} bytes (one EF packet per stream)",
    )
    _plain_log(ax_b)
    ax_b.set_xlim(0.5, n.max() + 0.5)
    ax_b.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax_b.set_xlabel("EF streams sharing the load equally")
    ax_b.set_ylabel("policer token-bucket depth (bytes)")
    kit.legend_below(ax_b, ncol=1)
    ax_b.set_title("why nothing is policed: EF burstiness vs the configured burst", fontsize=10)
    fig.suptitle(
        f"{ARTEFACT.id}: EF loss vs number of EF streams ({ds.attrs['ef_frame_bytes']}-byte frames,"
        " priority queue policed at the EF load)",
        fontsize=11.5,
    )
    kit.footer(
        fig, f"{be_sizes_text(ds.attrs['scenario'])}; EF packets of all streams after the warm-up"
    )
    return fig
