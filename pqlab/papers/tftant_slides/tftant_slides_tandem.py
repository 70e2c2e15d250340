"""TF-TANT slides, "Aggregation and congestion (PQ): one-way delay": EF through 1..n congested nodes
in tandem.

Slide "Aggregation and congestion (PQ): one-way delay": 1..n congested C7200 nodes in tandem,
dD = dD_1 + ... + dD_n, and the contribution of aggregation for small and large EF packets.
The artefact's computation (:func:`compute`, its statistics :func:`statistics`), the numbers its
claims quote (:func:`claim_values`) and figure (:func:`figure`); the notebook
``notebooks/09_tftant_be_streams_and_aggregation`` runs them. The first node is
:func:`pqlab.papers.tftant_slides.ef_split_runs.ef_split_scenario`, the others
:class:`pqlab.node.tandem.TandemHop`.

Units: the Dataset's times are in seconds; the claims and the figure state them in the slides'
milliseconds (the claims convert the per-seed values first and compute the statistics again with
:func:`statistics`, through :func:`pqlab.papers.kit.statistics_in_ms`); rates in bit/s of frames.
"""

from __future__ import annotations

import numpy as np
import seaborn as sns
import xarray as xr

from ...base._validate import check_int, check_real
from ...base.numerics import line_fit
from ...base.units import times_in_ms, to_kbps, to_ms
from ...measure import cache
from ...node.framing import line_time_s
from ...node.scenario import Scenario
from ...node.tandem import TandemHop, simulate_tandem
from .. import kit, presets
from ..registry import Artefact
from .ef_split_runs import (
    TANDEM_EF_AGGREGATE_BPS,
    TANDEM_STREAMS,
    checked_ef_split,
    ef_split_scenario,
)
from .pq_streams_text import be_sizes_text

__all__ = ["ARTEFACT", "compute", "statistics", "claim_values", "figure", "TANDEM_FRAMES"]

ARTEFACT = Artefact(__name__, notebook="09_tftant_be_streams_and_aggregation")

#: EF frame sizes compared, bytes (small and large EF packets).
TANDEM_FRAMES = (128, 1024)


def _tandem_run(sc: Scenario, n_nodes: int, propagation_s: float, seed: int) -> dict:
    """One tandem of ``n_nodes``: per-node delay of every measured EF packet, read from each node's
    own Dataset."""
    hops = [
        TandemHop(
            sc.node, tuple(kit.be_streams(sc)), queue=presets.EF_QUEUE, propagation_s=propagation_s
        )
        for _ in range(n_nodes - 1)
    ]
    flows = [s.flow for s in kit.ef_streams(sc)]
    per_hop, dep = simulate_tandem(sc, hops, flows, seed=seed)
    idx = dep["packet"].values  # first-node indices of the EF packets, sorted
    arrival = per_hop[0]["arrival"].values[idx]
    keep = arrival >= sc.warmup_s
    # each node's own record of each EF packet: departure - arrival there, and departure - ring
    # entry
    increment, ring = np.full(dep.shape, np.nan), np.full(dep.shape, np.nan)
    for h, node_ds in enumerate(per_hop):
        pid = node_ds["packet_id"].values
        mine = np.flatnonzero(np.isin(node_ds["flow"].values, flows) & (pid >= 0))
        row = np.searchsorted(idx, pid[mine])
        departure = node_ds["departure"].values[mine]
        increment[row, h] = departure - node_ds["arrival"].values[mine]
        ring[row, h] = departure - node_ds["ring_entry"].values[mine]
    d, a, increment, ring = dep.values[keep], arrival[keep], increment[keep], ring[keep]
    through = np.isfinite(d[:, -1])
    end_to_end = d - a[:, None]
    error = end_to_end[through, -1] - increment[through].sum(axis=1) - (n_nodes - 1) * propagation_s
    return {
        "increment": np.nanmean(increment, axis=0),
        "ring": np.nanmean(ring, axis=0),
        "end_to_end": np.nanmean(end_to_end, axis=0),
        "loss": np.mean(np.isnan(d), axis=0),
        "sum_error": float(np.max(np.abs(error))) if error.size else np.nan,
    }


@cache.artefact(ARTEFACT.id)
def compute(
    *,
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    n_nodes: int = 4,
    ef_frames_bytes=TANDEM_FRAMES,
    n_streams=TANDEM_STREAMS,
    ef_aggregate_bps: float = TANDEM_EF_AGGREGATE_BPS,
    propagation_s: float = 0.0,
) -> xr.Dataset:
    """Slide "Aggregation and congestion (PQ): one-way delay": EF through 1..n congested C7200
    nodes.

    The first node is :func:`~pqlab.papers.tftant_slides.ef_split_runs.ef_split_scenario`
    (STAND-IN real BE, EF split over the streams, the priority queue policed at the aggregate);
    ``n_nodes - 1`` further identical nodes (:class:`pqlab.node.tandem.TandemHop`) each get their
    own 20 BE streams (fresh sizes and phases) and every EF packet after ``propagation_s``. Node
    delays only (no path model). Measured over every EF packet (all streams) after the warm-up.

    Parameters
    ----------
    n_ef_samples : int
        EF packets of all streams per run.
    seeds : sequence of int
        Seeds (>= 0, distinct).
    n_nodes : int
        Congested nodes in tandem, in [1, 16].
    ef_frames_bytes : sequence of int
        EF frame sizes, bytes (distinct).
    n_streams : sequence of int
        EF stream counts (>= 1, distinct); the EF aggregate is the same for each.
    ef_aggregate_bps : float
        EF aggregate, bit/s of frames (> 0).
    propagation_s : float
        Delay between two nodes, seconds (>= 0).

    Returns
    -------
    xarray.Dataset
        Dims ``ef_frame_bytes``, ``n_streams``, ``node`` (1..n), ``seed``: ``increment``
        (dD_i, mean delay added by node i), ``ring_time`` (its part spent in node i's ring),
        ``end_to_end`` (mean delay from the first arrival to the departure from node i), s;
        ``loss`` (1); ``sum_error`` (s, largest |end-to-end - sum of the nodes' own delays -
        propagation| of any packet); ``*_mean``/``*_ci``; and
        ``aggregation_contribution`` (s, end-to-end with the most streams minus with one, paired
        per seed) with its mean and CI; ``ef_line_time`` (s) per frame.
    """
    n, seeds, frames, counts, load = checked_ef_split(
        n_ef_samples, seeds, ef_frames_bytes, n_streams, ef_aggregate_bps
    )
    nodes = check_int("n_nodes", n_nodes, 1, 16)
    prop = check_real("propagation_s", propagation_s, 0.0, 1.0)

    shape = (len(frames), len(counts), nodes, len(seeds))
    out = {k: np.full(shape, np.nan) for k in ("increment", "ring", "end_to_end", "loss")}
    sum_error = np.full(shape[:2] + shape[3:], np.nan)
    sc = None
    for i, f in enumerate(frames):
        for j, c in enumerate(counts):
            sc = ef_split_scenario(c, load, ef_frame_bytes=f, n_ef_samples=n, total_samples=True)
            for k, seed in enumerate(seeds):
                run = _tandem_run(sc, nodes, prop, seed)
                for key in out:
                    out[key][i, j, :, k] = run[key]
                sum_error[i, j, k] = run["sum_error"]
    dims = ("ef_frame_bytes", "n_streams", "node", "seed")
    ds = xr.Dataset(
        {
            "increment": (
                dims,
                out["increment"],
                {"units": "s", "long_name": "delay added by node i (dD_i)"},
            ),
            "ring_time": (
                dims,
                out["ring"],
                {"units": "s", "long_name": "time in node i's ring (incl. line)"},
            ),
            "end_to_end": (
                dims,
                out["end_to_end"],
                {
                    "units": "s",
                    "long_name": "delay from the first node's arrival to leaving node i",
                },
            ),
            "loss": (
                dims,
                out["loss"],
                {"units": "1", "long_name": "EF packets lost up to node i"},
            ),
            "sum_error": (
                ("ef_frame_bytes", "n_streams", "seed"),
                sum_error,
                {
                    "units": "s",
                    "long_name": "largest |end-to-end - sum of increments - propagation|",
                },
            ),
        },
        coords={
            "ef_frame_bytes": (
                "ef_frame_bytes",
                np.array(frames),
                {"units": "bytes", "long_name": "EF frame size"},
            ),
            "n_streams": (
                "n_streams",
                np.array(counts),
                {"units": "streams", "long_name": "EF streams"},
            ),
            "node": (
                "node",
                np.arange(1, nodes + 1),
                {"units": "1", "long_name": "congested node"},
            ),
            "seed": ("seed", np.array(seeds), {"units": "1", "long_name": "random seed"}),
        },
    )
    ds["ef_line_time"] = (
        "ef_frame_bytes",
        [
            line_time_s(presets.ef_ip_bytes(f), sc.node.framing, sc.node.line_rate_bps)
            for f in frames
        ],
        {"units": "s", "long_name": "line time of one EF packet"},
    )
    ds.attrs = kit.provenance(
        ARTEFACT.id,
        f"{ARTEFACT.id}: EF one-way delay through 1..n congested nodes "
        "(TF-TANT slides, aggregation and congestion)",
        __name__,
        seeds,
        scenario=sc.to_json(),
        n_ef_samples=n,
        ef_aggregate_bps=load,
        propagation_s=prop,
    )
    return claim_values(statistics(ds))


def statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`compute`'s statistics to its per-seed values (in place; returned).

    Means and CIs over seeds of ``increment``, ``ring_time``, ``end_to_end`` and ``loss``, and
    the aggregation contribution (end-to-end with the most streams minus with the fewest,
    paired per seed; absolute and relative) with its mean and CI, in the time unit of the
    Dataset (s; the claims' ms through :func:`pqlab.papers.kit.statistics_in_ms`).
    """
    counts = ds["n_streams"].values
    kit.add_mean_ci(ds, ("increment", "ring_time", "end_to_end", "loss"))
    contrib = ds["end_to_end"].isel(n_streams=-1) - ds["end_to_end"].isel(n_streams=0)
    ds["aggregation_contribution"] = contrib.assign_attrs(
        units=ds["end_to_end"].attrs["units"],
        long_name=f"end-to-end delay with {counts[-1]} EF streams minus with {counts[0]}",
    )
    rel = contrib / ds["end_to_end"].isel(n_streams=0)
    ds["aggregation_contribution_rel"] = rel.assign_attrs(
        units="1", long_name="aggregation contribution / delay"
    )
    return kit.add_mean_ci(ds, ("aggregation_contribution", "aggregation_contribution_rel"))


def claim_values(ds: xr.Dataset) -> xr.Dataset:
    """Add the numbers the claims quote (in place; returned), times in ms (the statistics computed
    again from the per-seed ms values): the largest sum error; per (frame, streams) case (``fit``)
    the line fitted to the mean end-to-end delay against the node count (``fit_slope``, the largest
    residual) and the smallest and largest increment; the increments' largest relative spread; the
    ring's share of the increments; and after the last node the aggregation contribution per frame
    (``contribution``, its CI, relative and in EF line times) with the smallest and largest frame's
    (``*_small``, ``*_large``)."""
    ms = kit.statistics_in_ms(kit.check_artefact(ds, ARTEFACT.id), statistics)
    nodes = ms["node"].values
    e2e, inc = ms["end_to_end_mean"], ms["increment_mean"]
    cases = [(int(f), int(c)) for f in ms["ef_frame_bytes"].values for c in ms["n_streams"].values]
    fits = []
    for f, c in cases:
        y = e2e.sel(ef_frame_bytes=f, n_streams=c).values
        if nodes.size >= 2:
            slope, icpt = line_fit(nodes, y)
            resid = float(np.max(np.abs(y - (slope * nodes + icpt))))
        else:
            slope, resid = y[0], 0.0
        i = inc.sel(ef_frame_bytes=f, n_streams=c).values
        fits.append((slope, resid, float(i.min()), float(i.max())))
    fit = np.array(fits, dtype=float).reshape(len(cases), 4)
    ring_share = (ms["ring_time_mean"] / ms["increment_mean"]).values
    c = ms["aggregation_contribution_mean"].isel(node=-1, drop=True)
    h = ms["aggregation_contribution_ci"].isel(node=-1, drop=True)
    in_lines = c / ms["ef_line_time"]
    small, large = int(ms["ef_frame_bytes"].values[0]), int(ms["ef_frame_bytes"].values[-1])
    ds.attrs["seeds_text"] = kit.seed_count(ms.sizes["seed"])
    values = {
        "sum_error_max": (float(ms["sum_error"].max()), "ms", "largest sum error"),
        "n_nodes": (float(nodes.max()), "nodes", "congested nodes"),
        "increment_spread": (
            float(np.max((fit[:, 3] - fit[:, 2]) / fit[:, 3])),
            "",
            "largest (max - min) / max of a case's increments",
        ),
        "ring_share_min": (float(np.nanmin(ring_share)), "", "smallest ring share of an increment"),
        "ring_share_max": (float(np.nanmax(ring_share)), "", "largest ring share of an increment"),
        "n_streams_few": (float(ms["n_streams"].values[0]), "streams", "fewest EF streams"),
        "n_streams_many": (float(ms["n_streams"].values[-1]), "streams", "most EF streams"),
        "ef_aggregate_kbps": (to_kbps(ms.attrs["ef_aggregate_bps"]), "kbit/s", "EF aggregate"),
        "contribution": (c, "ms", "aggregation contribution after the last node"),
        "contribution_ci": (h, "ms", "its 95 % CI half-width"),
        "contribution_rel": (
            ms["aggregation_contribution_rel_mean"].isel(node=-1, drop=True),
            "",
            "the contribution relative to the delay with the fewest streams",
        ),
        "contribution_ci_known": (bool(np.isfinite(h.values).all()), "", "CI half-widths known"),
        "ef_line_time_ms": (ms["ef_line_time"], "ms", "line time of one EF packet"),
        "contribution_lines": (in_lines, "1", "the contribution in EF line times"),
        "small_frame": (small, "bytes", "smallest EF frame"),
        "large_frame": (large, "bytes", "largest EF frame"),
        "more_ahead": (
            bool(
                float(in_lines.sel(ef_frame_bytes=small))
                > float(in_lines.sel(ef_frame_bytes=large))
            ),
            "",
            "more line times for the smallest frame than for the largest",
        ),
    }
    for name, f in (("small", small), ("large", large)):
        values.update(
            {
                f"contribution_{name}": (
                    float(c.sel(ef_frame_bytes=f)),
                    "ms",
                    f"contribution, {name}",
                ),
                f"contribution_ci_{name}": (
                    float(h.sel(ef_frame_bytes=f)),
                    "ms",
                    f"its CI, {name}",
                ),
                f"contribution_ci_known_{name}": (
                    bool(np.isfinite(float(h.sel(ef_frame_bytes=f)))),
                    "",
                    f"CI known, {name}",
                ),
                f"contribution_lines_{name}": (
                    float(in_lines.sel(ef_frame_bytes=f)),
                    "1",
                    f"contribution in EF line times, {name}",
                ),
            }
        )
    kit.add_claim_values(ds, values)
    role = {"role": kit.CLAIM_VALUE_ROLE}
    for j, (name, unit, long_name) in enumerate(
        (
            ("fit_slope", "ms", "mean end-to-end delay per node, fitted"),
            ("fit_resid", "ms", "largest residual of the fit"),
            ("fit_inc_lo", "ms", "smallest mean increment"),
            ("fit_inc_hi", "ms", "largest mean increment"),
        )
    ):
        ds[name] = ("fit", fit[:, j], {"units": unit, "long_name": long_name, **role})
    ds["fit_frame"] = ("fit", np.array([f for f, _ in cases]), {"units": "bytes", **role})
    ds["fit_streams"] = ("fit", np.array([n for _, n in cases]), {"units": "streams", **role})
    return ds


def figure(ds: xr.Dataset):
    """Delay through 1..n congested nodes: per-node increments stacked, and the contribution of
    aggregation.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`compute`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    kit.check_artefact(ds, ARTEFACT.id)
    ds = times_in_ms(ds)
    fig, (ax, ax_a) = kit.subplots(
        1, 2, figsize=(13.5, 5.2), footer=True, gridspec_kw={"width_ratios": [1.4, 1]}
    )
    nodes = ds["node"].values
    frames = ds["ef_frame_bytes"].values
    counts = ds["n_streams"].values
    cases = [(f, c) for f in frames for c in counts]
    width = 0.8 / len(cases)
    blues = sns.color_palette("Blues", nodes.size + 1)[1:]
    for k, (f, c) in enumerate(cases):
        d = ds.sel(ef_frame_bytes=f, n_streams=c)
        pos = nodes + (k - (len(cases) - 1) / 2) * width
        for n in nodes:
            bottom = 0.0
            for i in range(int(n)):
                inc = float(d["increment_mean"].isel(node=i))
                label = (
                    f"dD_{i + 1}: delay added by node {i + 1}"
                    if k == 0 and n == nodes[-1]
                    else None
                )
                ax.bar(
                    pos[int(n) - 1],
                    inc,
                    width * 0.92,
                    bottom=bottom,
                    color=blues[i],
                    edgecolor="white",
                    lw=0.5,
                    label=label,
                )
                bottom += inc
        ax.errorbar(
            pos,
            d["end_to_end_mean"],
            yerr=kit.ci_half_widths(d["end_to_end_ci"]),
            fmt="_",
            color="k",
            ms=10,
            capsize=2,
            label="measured end-to-end (mean, 95% CI)" if k == 0 else None,
        )
        top = float(
            d["end_to_end_mean"].isel(node=0) + kit.ci_half_widths(d["end_to_end_ci"].isel(node=0))
        )
        ax.text(
            pos[0],
            top + 0.4,
            f"{int(f)} B x {int(c)}",
            ha="center",
            va="bottom",
            fontsize=7.5,
            rotation=90,
        )
        slope, icpt = (
            line_fit(nodes, d["end_to_end_mean"].values) if nodes.size > 1 else (np.nan, np.nan)
        )
        if nodes.size > 1:
            ax.plot(
                pos,
                slope * nodes + icpt,
                color="C3",
                lw=0.8,
                ls="--",
                label="linear fit per case" if k == 0 else None,
            )
    ax.set_xticks(nodes, [f"{int(n)}" for n in nodes])
    ax.set_xlabel("congested C7200 nodes in tandem (bars: EF frame size x EF streams)")
    ax.set_ylabel("mean EF delay (ms)")
    ax.set_ylim(0, float(ds["end_to_end_mean"].max()) * 1.2)
    ax.legend(fontsize=8, loc="upper left")
    ax.set_title("end-to-end delay = sum of the per-node increments dD_i", fontsize=10)

    for k, f in enumerate(frames):
        d = ds.sel(ef_frame_bytes=f)
        ax_a.errorbar(
            nodes + (k - 0.5) * 0.08,
            d["aggregation_contribution_mean"],
            yerr=kit.ci_half_widths(d["aggregation_contribution_ci"]),
            marker="o",
            capsize=3,
            color=f"C{k}",
            label=f"{int(f)}-byte EF frames (EF line time {float(d['ef_line_time']):.2f} ms)",
        )
    ax_a.axhline(0, color="0.5", lw=0.8)
    ax_a.set_xticks(nodes)
    ax_a.set_xlabel("congested nodes")
    ax_a.set_ylabel(f"delay with {int(counts[-1])} EF streams - with {int(counts[0])} (ms)")
    kit.legend_below(ax_a)
    ax_a.set_title(
        f"contribution of aggregation (paired per seed, {kit.seed_count(ds.sizes['seed'])})",
        fontsize=10,
    )
    fig.suptitle(
        f"{ARTEFACT.id}: multiple congestion points, EF {to_kbps(ds.attrs['ef_aggregate_bps']):g} "
        "kbit/s in all (TF-TANT slides)",
        fontsize=11.5,
    )
    kit.footer(
        fig,
        f"{be_sizes_text(ds.attrs['scenario'])}; own BE streams at every node; node delays only,"
        f" propagation {to_ms(ds.attrs['propagation_s']):g} ms; all EF streams measured",
    )
    return fig
