"""TF-TANT slides, "EF load and aggregation (PQ): packet clustering": EF loss vs the number of EF streams.

Slide "EF load and aggregation (PQ): packet clustering": EF loss vs number of EF streams at 60%
EF load, split by cause. The artefact's computation (:func:`compute`), claims (:func:`claims`)
and figure (:func:`figure`); the notebook ``notebooks/09_tftant_be_streams_and_aggregation``
runs them. The runs are :func:`pqlab.papers.tftant_slides.ef_split_runs.ef_split_scenario`.

Units: loads in bit/s of Ethernet frames (the claims and the figure: kbit/s), sizes and token
bucket depths in bytes, losses as ratios (the claims and the figure: %).
"""

from __future__ import annotations

import numpy as np
import seaborn as sns
import xarray as xr
from matplotlib.ticker import FuncFormatter, MaxNLocator, NullFormatter

from ...base._validate import check_int, check_real
from ...base.units import to_kbps
from ...measure import cache, experiments
from ...measure.analysis import trend
from ...node.framing import line_time_s
from ...node.scenario import Scenario
from .. import kit, presets
from ..registry import Artefact
from ..stated import LOSS_EF_LOAD_BPS, PAPERS
from .ef_split_runs import ef_split_scenario
from .pq_streams_text import PAPER_MARKER, STANDIN_FOOTER, ci_text

__all__ = ["ARTEFACT", "compute", "claims", "figure", "min_bucket_bytes", "LINE_RATE_BPS", "LOSS_SECOND_LOAD_BPS",
           "LOSS_STREAMS", "LOSS_N_EF_SAMPLES", "NEGLIGIBLE_LOSS", "PAPER_NEGLIGIBLE_UP_TO_STREAMS"]

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


def _loss_measure(ds: xr.Dataset, sc: Scenario) -> dict:
    """EF loss by cause in the measurement window, and the EF arrivals' burstiness (the sweep's measure)."""
    ef = ds["queue"].values == presets.EF_QUEUE
    win = ef & (ds["arrival"].values >= sc.warmup_s)
    drop = ds["drop"].values[win]
    pq = sc.node.queues[presets.EF_QUEUE]
    return {
        "sent": float(win.sum()),
        "policed": float(np.sum(drop == 1)),
        "queue_full": float(np.sum(drop == 2)),
        "min_bucket_bytes": min_bucket_bytes(ds["arrival"].values[ef], ds["size"].values[ef], pq.police_rate_bps),
    }


_loss_measure.attrs = {
    "sent": {"units": "1", "long_name": "EF packets sent in the measurement window"},
    "policed": {"units": "1", "long_name": "EF packets dropped by the policer"},
    "queue_full": {"units": "1", "long_name": "EF packets dropped at the full EF queue"},
    "min_bucket_bytes": {"units": "bytes", "long_name": "smallest token bucket that passes every EF packet"},
}


@cache.artefact(ARTEFACT.id)
def compute(
    *,
    n_ef_samples: int = LOSS_N_EF_SAMPLES,
    seeds=(1, 2, 3),
    n_streams=LOSS_STREAMS,
    ef_load_bps: float = LOSS_EF_LOAD_BPS,
    other_loads_bps=(LOSS_SECOND_LOAD_BPS,),
    ef_frame_bytes: int = presets.EF_FRAME_BYTES,
) -> xr.Dataset:
    """Slide "EF load and aggregation (PQ): packet clustering": EF loss vs number of EF streams, by cause.

    :func:`~pqlab.papers.tftant_slides.ef_split_runs.ef_split_scenario` (STAND-IN real BE, the
    C7200 with its priority queue policed at the EF load, IOS default burst) for every stream
    count at the slide's EF load, and for the fewest and most streams at other loads (NaN at the
    counts not run); loss over all EF packets after the warm-up, split into policed (drop code 1)
    and queue full (code 2), and the smallest bucket depth that would police nothing
    (:func:`min_bucket_bytes`).

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
        EF load swept over ``n_streams``, bit/s of frames (> 0); the slide's: 60% of the line, 1.2 Mbit/s.
    other_loads_bps : sequence of float
        Further EF loads (> 0, distinct, none equal to ``ef_load_bps``; may be empty), run with the
        fewest and the most streams only: does the load matter?
    ef_frame_bytes : int
        EF frame size, bytes.

    Returns
    -------
    xarray.Dataset
        Dims ``ef_load`` (bit/s of frames), ``n_streams``, ``seed``: ``sent``, ``policed``, ``queue_full``
        (packets), ``loss_ratio``, ``policed_ratio``, ``queue_full_ratio`` (1), ``min_bucket_bytes``
        (bytes) with ``*_mean``/``*_ci``; scalars ``police_burst_bytes``, ``ef_ip_bytes``.
    """
    n = check_int("n_ef_samples", n_ef_samples, 100, 1_000_000_000)
    seeds = kit.check_seeds(seeds)
    counts = sorted(kit.check_values("n_streams", n_streams, 1, integer=True))
    load = check_real("ef_load_bps", ef_load_bps, 0.0, strict_minimum=True)
    try:
        others = list(other_loads_bps)
    except TypeError:
        raise ValueError(f"other_loads_bps must be a sequence of numbers > 0, got {other_loads_bps!r}") from None
    others = kit.check_values("other_loads_bps", others, 0.0) if others else []
    if load in others:
        raise ValueError(f"other_loads_bps must not hold ef_load_bps={load:g}, got {others!r}")
    loads = sorted([load, *others])
    frame = check_int("ef_frame_bytes", ef_frame_bytes, presets.ETHERNET_FRAME_OVERHEAD_BYTES + 1, 65_535)

    def point(n_streams, ef_load_bps):
        return ef_split_scenario(n_streams, ef_load_bps, ef_frame_bytes=frame, n_ef_samples=n, total_samples=True)

    ends = sorted({counts[0], counts[-1]})
    raw = xr.concat([experiments.sweep(point, {"ef_load_bps": [x], "n_streams": counts if x == load else ends},
                                       seeds, measure=_loss_measure) for x in loads],
                    dim="ef_load_bps", join="outer", combine_attrs="drop_conflicts")
    raw = raw.reindex(n_streams=counts).transpose("ef_load_bps", "n_streams", "seed")
    ds = xr.Dataset(coords={
        "ef_load": ("ef_load", np.array(loads), {"units": "bit/s", "long_name": "EF load (frames)"}),
        "n_streams": ("n_streams", np.array(counts), {"units": "streams", "long_name": "EF streams"}),
        "seed": ("seed", np.array(seeds), {"units": "1", "long_name": "random seed"}),
    })
    dims = ("ef_load", "n_streams", "seed")
    for name, long_name in (("sent", "EF packets sent after the warm-up"), ("policed", "EF packets policed"),
                            ("queue_full", "EF packets dropped at the full priority queue")):
        ds[name] = (dims, raw[name].values, {"units": "packets", "long_name": long_name})
    sent = ds["sent"].values
    for name, num, long_name in (("loss_ratio", ds["policed"].values + ds["queue_full"].values, "EF loss ratio"),
                                 ("policed_ratio", ds["policed"].values, "EF loss ratio, policed"),
                                 ("queue_full_ratio", ds["queue_full"].values, "EF loss ratio, queue full")):
        ds[name] = (dims, num / sent, {"units": "1", "long_name": long_name})
    ds["min_bucket_bytes"] = (dims, raw["min_bucket_bytes"].values,
                              {"units": "bytes", "long_name": "smallest policer burst that drops nothing"})
    kit.add_mean_ci(ds, ("loss_ratio", "policed_ratio", "queue_full_ratio", "min_bucket_bytes"))
    sc = point(counts[-1], load)
    pq = sc.node.queues[presets.EF_QUEUE]
    ip = presets.ef_ip_bytes(frame)
    ds["police_burst_bytes"] = ((), pq.police_burst_bytes,
                                {"units": "bytes", "long_name": "policer burst at the largest load (IOS default)"})
    ds["police_burst_per_load"] = ("ef_load", np.array(loads) * 0.2 / 8.0,
                                   {"units": "bytes", "long_name": "policer burst: 200 ms at the EF load"})
    ds["ef_ip_bytes"] = ((), float(ip), {"units": "bytes", "long_name": "EF IP packet length"})
    ds["ef_wire_share"] = ("ef_load", [load / (8.0 * frame) * line_time_s(ip, sc.node.framing, 1.0)
                                       / sc.node.line_rate_bps for load in loads],
                           {"units": "1", "long_name": "share of the line the EF load takes in ATM cells"})
    ds.attrs = kit.provenance(
        ARTEFACT.id, f"{ARTEFACT.id}: EF loss vs number of EF streams at 60% EF load, by cause "
        "(TF-TANT slides, packet clustering)", __name__, seeds, scenario=sc.to_json(), n_ef_samples=n,
        ef_frame_bytes=frame, line_rate_bps=sc.node.line_rate_bps, ef_queue_limit=pq.limit_packets,
        swept_load_bps=load)
    return ds


def claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`compute`: loss at 20 streams, up to 8, by cause, the clustering."""
    art = ARTEFACT.id
    kit.check_artefact(ds, art)
    load_bps = ds.attrs["swept_load_bps"]
    load_kbps = to_kbps(load_bps)
    d = ds.sel(ef_load=load_bps)
    counts = d["n_streams"].values
    top = int(counts.max())
    at_top = d.sel(n_streams=top)
    loss = float(at_top["loss_ratio_mean"])
    pol, qf = float(at_top["policed_ratio_mean"]), float(at_top["queue_full_ratio_mean"])
    burst = float(d["police_burst_per_load"])
    bstar = float(at_top["min_bucket_bytes"].max())
    ip = float(ds["ef_ip_bytes"])
    seeds = kit.seed_count(ds.sizes["seed"])
    why = (f"the policer cannot drop: CBR streams whose rates sum to its rate never need a bucket deeper than "
           f"one packet per stream ({top} x {ip:.0f} = {top * ip:.0f} bytes; measured at most {bstar:.0f}), and "
           f"the IOS default burst is {burst:.0f} bytes; the queue-full drops come from clusters of EF packets "
           f"(one per stream) meeting a 10-packet queue behind a ring full of BE")
    rows = [kit.claim(art, "ef_loss_20_streams", loss, "1",
                      f"EF loss with {top} streams at {load_kbps:g} kbit/s ({float(d['ef_wire_share']):.0%} of the "
                      f"line in ATM cells), {seeds}: {ci_text(loss * 100, float(at_top['loss_ratio_ci']) * 100, 3)} "
                      f"%, policed {pol * 100:.3f} %, queue full {qf * 100:.3f} %; {why}")]
    small = d.sel(n_streams=[c for c in counts if c <= PAPER_NEGLIGIBLE_UP_TO_STREAMS])
    if small.sizes["n_streams"]:
        worst = float(small["loss_ratio_mean"].max())
        rows.append(kit.claim(art, "ef_loss_negligible_up_to_8_streams", None, "-",
                              f"largest mean EF loss with <= {PAPER_NEGLIGIBLE_UP_TO_STREAMS} streams: "
                              f"{worst * 100:.3f} % (negligible below {NEGLIGIBLE_LOSS * 100:g} %); with {top}: "
                              f"{loss * 100:.3f} %; in the papers' node model with the BE law by packet count (the "
                              "papers' reading: larger BE packets in the ring than the former equal-bit-rate "
                              "reading) and exact CBR sources (no generator clustering)",
                              shape_ok=worst < NEGLIGIBLE_LOSS))
    # does the loss grow with the number of streams (clustering) rather than with the load?
    grows, growth_half, grows_ok = trend(d["loss_ratio"].transpose("n_streams", "seed").values, counts)
    rows.append(kit.claim(art, "loss_grows_with_streams", None, "-",
                          f"per-seed slope of the EF loss vs streams {grows * 100:+.4f} +/- {growth_half * 100:.4f} "
                          f"% per stream at {load_kbps:g} kbit/s", shape_ok=grows_ok))
    if ds.sizes["ef_load"] > 1:
        per_load = ds.sel(n_streams=top)["loss_ratio_mean"].values
        one = ds.sel(n_streams=int(counts.min()))["loss_ratio_mean"].values
        txt = "; ".join(f"{float(to_kbps(lv)):g} kbit/s: {lo * 100:.3f} % with {int(counts.min())} stream(s), "
                        f"{hi * 100:.3f} % with {top}" for lv, lo, hi in zip(ds["ef_load"].values, one, per_load))
        rows.append(kit.claim(art, "ef_load_irrelevant", None, "-",
                              f"EF loss per load: {txt}; read as 'the number of streams, not the load, drives the "
                              f"loss', which holds if every load is negligible with one stream",
                              shape_ok=bool(np.all(one < NEGLIGIBLE_LOSS))))
    rows.append(kit.claim(art, "dropped_by_policer", None, "-",
                          f"policed share of the EF loss with {top} streams: "
                          f"{pol / loss if loss > 0 else 0.0:.0%} (policed {pol * 100:.3f} %, queue full "
                          f"{qf * 100:.3f} %); {why}", shape_ok=bool(loss > 0 and pol > qf)))
    b = d["min_bucket_bytes_mean"].values
    rows.append(kit.claim(art, "aggregation_causes_clustering", None, "-",
                          f"burstiness of the EF aggregate (smallest policer burst with no drop) grows from "
                          f"{b[0]:.0f} bytes with {int(counts[0])} stream(s) to {b[-1]:.0f} bytes with {top} streams "
                          f"at the same load", shape_ok=bool(b[-1] > b[0])))
    rows += [
        kit.claim(art, "ef_load_fraction", load_bps / ds.attrs["line_rate_bps"], "1",
                  f"EF load {load_kbps:g} kbit/s of {ds.attrs['ef_frame_bytes']}-byte frames on the "
                  f"{to_kbps(ds.attrs['line_rate_bps']):g} kbit/s line; in ATM cells it takes "
                  f"{float(d['ef_wire_share']):.1%}"),
        kit.claim(art, "n_ef_streams_max", top, "streams", "largest number of EF streams, equal shares of the load"),
    ]
    return rows


def _plain_log(ax) -> None:
    """A log y axis with plain-number labels (no mathtext) and no minor labels."""
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())


def figure(ds: xr.Dataset):
    """EF loss vs number of EF streams at constant EF load, by cause, and the EF burstiness against the policer.

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
    for k, load in enumerate(loads):
        d = ds.sel(ef_load=load)
        frac = 100 * float(load) / ds.attrs["line_rate_bps"]
        for var, marker, ls, name in (("queue_full_ratio", "o", "-", "queue full"),
                                      ("policed_ratio", "x", ":", "policed")):
            run = np.isfinite(d[f"{var}_mean"].values)  # other loads: fewest and most streams only
            per_seed = np.maximum(d[var].values[run] * 100, floor)
            ax.plot(np.repeat(n[run], d.sizes["seed"]), per_seed.ravel(), marker, color=palette[k], alpha=0.3, ms=3)
            ax.plot(n[run], np.maximum(d[f"{var}_mean"].values[run] * 100, floor), marker=marker, ls=ls, ms=5,
                    color=palette[k], label=f"{name}, EF {float(to_kbps(load)):g} kbit/s ({frac:.0f}% of the line)")
    paper = kit.paper_value(ARTEFACT.id, "ef_loss_20_streams")[0]
    if np.isfinite(paper):
        ax.plot([20], [paper * 100], label=f"slides: up to {paper:.0%} with 20 streams (policer)", **PAPER_MARKER)
    ax.axvspan(0.5, 8.5, color="0.9", zorder=0, label="slides: negligible up to 8 streams")
    _plain_log(ax)
    ax.set_ylim(floor * 0.7, 30)
    ax.set_xlim(0.5, n.max() + 0.5)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("EF streams sharing the load equally")
    ax.set_ylabel(f"EF loss (%; 0 drawn at {floor:g})")
    kit.legend_below(ax, ncol=2)
    ax.set_title(f"EF loss by cause: mean (line) and each of {seeds} (dots)", fontsize=10)

    # the needed burst is the same at every load (the arrival pattern scales with the load): draw the swept one
    d = ds.sel(ef_load=ds.attrs["swept_load_bps"])
    ax_b.plot(n, d["min_bucket_bytes_mean"], marker="o", ms=4, color="C3",
              label="needed: smallest burst that polices nothing (mean and seeds; any load)")
    ax_b.plot(np.repeat(n, d.sizes["seed"]), d["min_bucket_bytes"].values.ravel(), "o", ms=3, color="C3", alpha=0.3)
    for k, load in enumerate(loads):
        ax_b.axhline(float(ds["police_burst_per_load"].sel(ef_load=load)), color=palette[k], ls="--", lw=1.2,
                     label=f"configured: IOS default 200 ms at {float(to_kbps(load)):g} kbit/s")
    ip = float(ds["ef_ip_bytes"])
    ax_b.plot(n, n * ip, color="0.4", ls=":", label=f"bound: one EF packet per stream (n x {ip:.0f} bytes)")
    _plain_log(ax_b)
    ax_b.set_xlim(0.5, n.max() + 0.5)
    ax_b.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax_b.set_xlabel("EF streams sharing the load equally")
    ax_b.set_ylabel("policer token-bucket depth (bytes)")
    kit.legend_below(ax_b, ncol=1)
    ax_b.set_title("why nothing is policed: EF burstiness vs the configured burst", fontsize=10)
    fig.suptitle(f"{ARTEFACT.id}: EF loss vs number of EF streams ({ds.attrs['ef_frame_bytes']}-byte frames, "
                 "priority queue policed at the EF load)", fontsize=11.5)
    kit.footer(fig, f"{STANDIN_FOOTER}; EF packets of all streams after the warm-up")
    return fig
