"""Long version Sec. 7 (Fig. 7, Table 3): IPDV vs EF frame size 128 / 512 / 1024 bytes, one EF
stream of 300 kbit/s.

The artefact's computation (:func:`compute`), claims (:func:`claims`) and figure (:func:`figure`);
the notebook ``notebooks/04_ef_frame_size`` runs them. The runs are those of
:mod:`pqlab.papers.globecom01.aggregation_runs` (its choices: stand-in BE sizes, common BE,
|IPDV|, trends, the transmission unit) over :func:`pqlab.scenarios.ef_frame_size`. The Dataset
is in SI units (times in seconds, rates in bit/s, sizes in bytes); the claims state the
standard deviations in us (the paper's unit), the figure |IPDV| in transmission units and us.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...base._validate import check_int, check_real
from ...base.units import to_kbps, to_ms, to_us
from ...measure import cache, metrics
from ...measure.analysis import trend
from .. import judge, kit
from ..globecom01 import aggregation_claims as wording
from ..globecom01 import aggregation_figures as drawing
from ..globecom01.aggregation_runs import (
    add_per_run,
    attrs,
    ef_rates_bps,
    mtu_runs,
    run,
    samples,
    unit_s,
    with_frequency,
)
from ..presets import ETHERNET_FRAME_OVERHEAD_BYTES, be_streams_first, ef_frame_size
from ..registry import Artefact
from ..stated import EF_FRAME_SIZES, PAPERS

__all__ = [
    "ARTEFACT",
    "compute",
    "claims",
    "figure",
    "mode_fraction",
    "INTERVAL_WIDTHS_UNITS",
    "GRID_OFFSETS",
]

ARTEFACT = Artefact(__name__, notebook="04_ef_frame_size")

#: Interval widths (transmission units) over which the share in the most populated interval is
#: shown:
#: the paper gives none.
INTERVAL_WIDTHS_UNITS = (0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0)
#: Offsets of the interval grid, fractions of a width: the paper gives no grid either.
GRID_OFFSETS = (0.0, 0.25, 0.5, 0.75)


def mode_fraction(jitter: np.ndarray, width: float, offset: float = 0.0) -> float:
    """Share of a |IPDV| sample in its most populated interval of ``width`` (s), the grid shifted by
    ``offset``.

    Intervals ``[(i - offset) * width, (i + 1 - offset) * width)``, ``offset`` in ``[0, 1)`` of a
    width
    (:func:`pqlab.measure.metrics.frequency_distribution`); NaN ignored.
    """
    off = check_real("offset", offset, 0.0, 1.0)
    if off >= 1.0:
        raise ValueError(f"offset must be in [0, 1) of a width, got {offset!r}")
    return float(
        metrics.frequency_distribution(jitter, width, start=-off * width).probability.max()
    )


@cache.artefact(ARTEFACT.id)
def compute(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    *,
    ef_frame_bytes=EF_FRAME_SIZES,
    common_be: bool = True,
    interval_units: float = 1.0,
    interval_widths_units=INTERVAL_WIDTHS_UNITS,
    grid_offsets=GRID_OFFSETS,
    mtu_reference: bool = True,
) -> xr.Dataset:
    """IPDV vs EF frame size, one EF stream of 300 kbit/s (long version Sec. 7, Fig. 7, Table 3).

    Parameters
    ----------
    n_ef_samples : int
        Reference packets per run (the papers: 10,000), >= 2.
    seeds : sequence of int
        Distinct seeds >= 0.
    ef_frame_bytes : sequence of int
        EF frame sizes, bytes (IP length = frame - 18), each in [64, 1518].
    common_be : bool
        Generate BE before EF so a seed gives the same BE mix at every frame size.
    interval_units : float
        Width of the |IPDV| intervals, in transmission units of the 128-byte frame
        (0.636 ms); the paper's "single interval" width is not stated.
    interval_widths_units, grid_offsets : sequence of float
        Widths (transmission units, > 0; ``interval_units`` is added) and grid offsets (fractions of
        a
        width, in ``[0, 1)``; 0 is added) over which ``mode_fraction_grid`` shows how far the share
        in
        the most populated interval moves with what the paper leaves open.
    mtu_reference : bool
        Also run every frame size with deterministic 1500-byte BE packets (same seeds):
        ``mtu_jitter_std (ef_frame_bytes, seed)``.

    Returns
    -------
    xarray.Dataset
        ``ipdv (ef_frame_bytes, seed, sample)`` signed, s; per run ``jitter_std``
        (std of |IPDV|, the papers' IPDV std), ``ipdv_std`` (signed), ``jitter_mean``
        (s) and ``mode_fraction`` (share of |IPDV| in the most populated interval),
        with ``_mean``/``_ci``; ``mode_fraction_grid (ef_frame_bytes, seed, interval_width,
        grid_offset)``;
        pooled ``frequency`` on ``ipdv_bin``.
    """
    n = kit.check_n_ef_samples(n_ef_samples)
    seeds = kit.check_seeds(seeds)
    frames = kit.check_values("ef_frame_bytes", ef_frame_bytes, 64, integer=True)
    for f in frames:
        check_int("ef_frame_bytes", f, 64, 1518)
    common_be = kit.check_bool("common_be", common_be)
    width_u = check_real("interval_units", interval_units, 0.0, strict_minimum=True)
    widths_u = sorted(
        {*kit.check_values("interval_widths_units", interval_widths_units, 0.0), width_u}
    )
    offsets = sorted({*(check_real("grid_offsets", o, 0.0, 1.0) for o in grid_offsets), 0.0})
    if max(offsets) >= 1.0:
        raise ValueError(f"grid_offsets must be in [0, 1) of a width, got {list(grid_offsets)!r}")
    mtu = kit.check_bool("mtu_reference", mtu_reference)
    scs, runs = [], []
    for f in frames:
        sc = ef_frame_size(ef_frame_bytes=f, n_ef_samples=n)
        sc = be_streams_first(sc) if common_be else sc
        scs.append(sc)
        runs.append([run(sc, s) for s in seeds])
    unit = unit_s(scs[0])
    width = width_u * unit
    ipdv = samples(runs, "ipdv")
    jitter = metrics.jitter_of_ipdv(ipdv)
    coords = {
        "ef_frame_bytes": (
            "ef_frame_bytes",
            np.array(frames),
            {"units": "bytes", "long_name": "EF frame size"},
        ),
        "ef_ip_bytes": (
            "ef_frame_bytes",
            np.array(frames) - ETHERNET_FRAME_OVERHEAD_BYTES,
            {"units": "bytes", "long_name": "EF IP length"},
        ),
        "seed": ("seed", np.array(seeds), {"units": "1", "long_name": "random seed"}),
    }
    dims = ("ef_frame_bytes", "seed")
    ds = xr.Dataset(coords=coords)
    ds["ipdv"] = (
        ("ef_frame_bytes", "seed", "sample"),
        ipdv,
        {"units": "s", "long_name": "IPDV D[i+1] - D[i] of the EF stream (NaN: padding)"},
    )
    ds["jitter_std"] = (
        dims,
        np.nanstd(jitter, axis=2, ddof=1),
        {"units": "s", "long_name": "standard deviation of |IPDV|"},
    )
    ds["ipdv_std"] = (
        dims,
        np.nanstd(ipdv, axis=2, ddof=1),
        {"units": "s", "long_name": "standard deviation of signed IPDV"},
    )
    ds["jitter_mean"] = (
        dims,
        np.nanmean(jitter, axis=2),
        {"units": "s", "long_name": "mean |IPDV|"},
    )
    grid = np.zeros((*jitter.shape[:2], len(widths_u), len(offsets)))
    for index in np.ndindex(*grid.shape):
        i, j, w, o = index
        grid[index] = mode_fraction(jitter[i, j], widths_u[w] * unit, offsets[o])
    mode = grid[:, :, widths_u.index(width_u), offsets.index(0.0)]
    ds["mode_fraction"] = (
        dims,
        mode,
        {
            "units": "1",
            "long_name": f"share of |IPDV| in the most populated {width_u:g}-unit interval",
        },
    )
    ds = ds.assign_coords(
        interval_width=(
            "interval_width",
            np.array(widths_u),
            {
                "units": "units",
                "long_name": "interval width, transmission units (not given by the paper)",
            },
        ),
        grid_offset=(
            "grid_offset",
            np.array(offsets),
            {
                "units": "1",
                "long_name": (
                    "offset of the interval grid, fraction of a width (not given by the paper)"
                ),
            },
        ),
    )
    ds["mode_fraction_grid"] = (
        (*dims, "interval_width", "grid_offset"),
        grid,
        {
            "units": "1",
            "long_name": (
                "share of |IPDV| in the most populated interval, per interval width and grid offset"
            ),
        },
    )
    add_per_run(ds, runs, dims, "be_kept_mean_bytes")
    kit.add_mean_ci(
        ds, ("jitter_std", "ipdv_std", "jitter_mean", "mode_fraction", "be_kept_mean_bytes")
    )
    ds, _ = with_frequency(
        ds,
        jitter,
        width,
        width_u,
        point="ef_frame_bytes",
        bin_dim="ipdv_bin",
        bins_text="|IPDV| intervals",
        of="|IPDV|",
    )
    if mtu:
        ref = mtu_runs(n, seeds, frames)
        ds["mtu_jitter_std"] = (
            dims,
            ref["jitter_std"],
            {"units": "s", "long_name": "std of |IPDV| with deterministic 1500-byte BE packets"},
        )
    slope, half, holds = trend(ds["jitter_std"].values, frames)
    be = kit.be_streams(scs[0])
    ds.attrs = attrs(
        ARTEFACT.id,
        __name__,
        scs,
        seeds,
        common_be,
        "Long version Sec. 7: IPDV vs EF frame size, one EF stream of 300 kbit/s (stand-in BE"
        " sizes)",
        bin_width_s=width,
        interval_units=width_u,
        jitter_std_slope_s_per_byte=slope,
        jitter_std_slope_ci_s_per_byte=half,
        std_increases=int(holds),
        ef_rate_bps=float(ef_rates_bps(scs[0]).sum()),
        n_ef_streams=int(len(ef_rates_bps(scs[0]))),
        be_load_bps=float(sum(s.rate_bps for s in be)),
        n_be_streams=len(be),
        be_size_max_bytes=int(max(s.size.max_bytes + s.header_bytes for s in be)),
    )
    return ds


def claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`compute`'s Dataset: |IPDV| spread and concentration per EF frame
    size."""
    art = ARTEFACT.id
    frames, holds, seeds = wording.begin(ds, art, "ef_frame_bytes", "std_increases")
    width_u = ds.attrs["interval_units"]
    label = lambda v: f"{v} B"  # noqa: E731
    stds = wording.series(ds, "jitter_std", "ef_frame_bytes", convert=to_us, digits=0, label=label)
    trend_ = wording.trend_text(
        holds,
        ds.attrs["jitter_std_slope_s_per_byte"],
        ds.attrs["jitter_std_slope_ci_s_per_byte"],
        to_us,
        "us per byte",
    )
    kept = float(np.mean(ds["be_kept_mean_bytes_mean"].values))
    rows = []
    for i, f in enumerate(frames):
        mean, half = ds["jitter_std_mean"].values[i], ds["jitter_std_ci"].values[i]
        paper = kit.paper_value(art, f"ipdv_std_ef_{f}")[0]
        why = (
            wording.mtu_reason(
                "std",
                float(to_us(mean)),
                float(to_us(float(ds["mtu_jitter_std"].values[i].mean()))),
                paper,
                "us",
                kept,
                upper_end=False,
            )
            if "mtu_jitter_std" in ds and np.isfinite(paper)
            else None
        )
        rows.append(
            kit.claim(
                art,
                f"ipdv_std_ef_{f}",
                to_us(mean),
                "us",
                "std of |IPDV| (the papers' 'ipdv' is jitter; a signed-IPDV std could not be below"
                " the paper's mean |IPDV| of the same A=0 test)"
                f" {wording.ci_text(mean, half, to_us, 'us', 0)} ({seeds});"
                f" {wording.be_reading(kept)}",
                reason=why,
            )
        )
        rows.append(
            kit.claim(
                art,
                f"ipdv_signed_std_ef_{f}",
                to_us(ds["ipdv_std_mean"].values[i]),
                "us",
                f"std of signed IPDV, {frames[i]}-byte frames ({seeds})",
            )
        )
    grid = ds["mode_fraction_grid"].mean("seed")
    widths = ds["interval_width"].values
    for i, f in enumerate(frames):
        m, h = ds["mode_fraction_mean"].values[i], ds["mode_fraction_ci"].values[i]
        spread = grid.values[i]
        why = judge.reason(
            "definition",
            "the paper gives neither the interval width nor where the intervals start: over widths"
            " of {narrowest} to {widest} and grid offsets of up to {largest_offset} of a width, the"
            " share of |IPDV| in the most populated interval moves from {lowest} to {highest} (ours"
            " at {own_width} from 0: {ours})",
            [
                judge.fact("narrowest", float(widths.min()), "units"),
                judge.fact("widest", float(widths.max()), "units"),
                judge.fact("largest_offset", float(ds["grid_offset"].max()), "1"),
                judge.fact("lowest", float(spread.min()), "1"),
                judge.fact("highest", float(spread.max()), "1"),
                judge.fact("own_width", width_u, "units"),
                judge.fact("ours", float(m), "1"),
            ],
        )
        rows.append(
            kit.claim(
                art,
                f"mode_fraction_ef_{f}",
                m,
                "1",
                f"share of |IPDV| in the most populated interval of {width_u:g} unit(s) = "
                f"{to_ms(width_u * ds.attrs['transmission_unit_s']):.3f} ms "
                "(our choice: the paper gives no width), "
                f"{wording.ci_text(m, h, wording.same, '', 3).strip()} ({seeds}); "
                f"{wording.be_reading(kept)}",
                reason=why,
            )
        )
    interval = lambda v: to_ms(float(v) * 8.0 / ds.attrs["ef_rate_bps"])  # noqa: E731  frames at the EF rate, ms
    std_ms = to_us(ds["jitter_std_mean"].values)
    trend_why = judge.reason(
        "mechanism",
        "at the same EF rate, frames of {last_frame} leave {gap_last} apart instead of {gap_first}"
        " for frames of {first_frame}, so consecutive delays share less of the ring's content: the"
        " std of |IPDV| goes from {std_first} to {std_last}",
        [
            judge.fact("first_frame", float(frames[0]), "bytes"),
            judge.fact("last_frame", float(frames[-1]), "bytes"),
            judge.fact("gap_first", interval(frames[0]), "ms"),
            judge.fact("gap_last", interval(frames[-1]), "ms"),
            judge.fact("std_first", float(std_ms[0]), "us"),
            judge.fact("std_last", float(std_ms[-1]), "us"),
        ],
    )
    rows += [
        kit.claim(
            art,
            "ef_load",
            to_kbps(ds.attrs["ef_rate_bps"]),
            "kbit/s",
            "EF stream rate counted on frames",
        ),
        kit.claim(
            art,
            "ef_streams",
            ds.attrs["n_ef_streams"],
            "streams",
            "preset ef_frame_size: one EF stream",
        ),
        kit.claim(
            art,
            "be_load_min",
            to_kbps(ds.attrs["be_load_bps"]),
            "kbit/s",
            f"offered BE load ({ds.attrs['n_be_streams']} x "
            f"{to_kbps(ds.attrs['be_load_bps'] / ds.attrs['n_be_streams']):g} kbit/s); "
            f"the paper states > 2000, more than the {to_kbps(PAPERS.line_rate_bps):g} kbit/s line",
            ds.attrs["be_load_bps"] > PAPERS.line_rate_bps,
        ),
        kit.claim(
            art, "be_streams", ds.attrs["n_be_streams"], "streams", "BE streams of the preset"
        ),
        kit.claim(
            art,
            "be_size_max",
            ds.attrs["be_size_max_bytes"],
            "bytes",
            "largest IP length of the stand-in BE distribution",
        ),
        kit.claim(
            art,
            "frame_size_definition",
            None,
            "-",
            "frame = IP length + 18 (Ethernet header and FCS): 110, 494, 1006-byte IP packets; "
            "the rate counts frames",
            True,
        ),
        kit.claim(
            art,
            "ipdv_increases_with_frame_size",
            None,
            "-",
            f"std of |IPDV| per frame size (us, {seeds}, paired BE mixes): {stds}; {trend_}",
            holds,
            reason=trend_why,
        ),
    ]
    return rows


def figure(ds: xr.Dataset, paper_values=None):
    """|IPDV| distribution per EF frame size (left) and standard deviation of |IPDV| (right).

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`compute`.
    paper_values : pandas.DataFrame, optional
        :func:`pqlab.papers.records.load_paper_values`; adds the paper's values.

    Returns
    -------
    matplotlib.figure.Figure
    """
    unit, width, edges = drawing.bins(ds, "ipdv_bin")
    frames = ds["ef_frame_bytes"].values
    fig, (ax_f, ax_s) = kit.subplots(1, 2, figsize=(12, 4.6), footer=True)
    colors = drawing.palette(len(frames))
    n = len(frames)
    last = np.flatnonzero(ds["frequency"].values.max(axis=0) >= 1e-3).max() + 2
    for i, f in enumerate(frames):
        ax_f.bar(
            edges[:last] + width * (i + 0.5) / n,
            ds["frequency"].values[i, :last],
            width=width / n,
            color=colors[i],
            label=(
                f"{f}-byte frames: {ds['mode_fraction_mean'].values[i]:.0%} in the top interval"
                " (seed mean)"
            ),
        )
    grid = ds["mode_fraction_grid"].isel(ef_frame_bytes=0).mean("seed")
    widths = ds["interval_width"].values
    ax_f.axhspan(
        float(grid.min()),
        float(grid.max()),
        color=colors[0],
        alpha=0.15,
        label=(
            f"pqlab, {frames[0]} bytes: top-interval share"
            f" {float(grid.min()):.0%}-{float(grid.max()):.0%} over widths"
            f" {widths.min():g}-{widths.max():g} units and grid offsets"
        ),
    )
    mode = drawing.paper(paper_values, ARTEFACT.id, f"mode_fraction_ef_{frames[0]}")
    if mode is not None:
        ax_f.axhline(
            mode,
            color="C3",
            ls="--",
            label=f"paper: {mode:.0%} in one interval ({frames[0]} bytes; width not given)",
        )
    ax_f.set_xlim(0, edges[last - 1] + width)
    ax_f.set_xlabel(
        f"|IPDV| (transmission units of {to_ms(unit):.3f} ms; intervals of {width:g} unit, our"
        " choice)"
    )
    ax_f.set_ylabel("frequency")
    ax_f.set_ylim(0, max(float(grid.max()), mode or 0.0, float(ds["frequency"].values.max())) * 1.1)
    ax_f.set_title("Fig. 7: |IPDV| frequency distribution vs EF frame size")
    ax_f.legend(
        fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.2)
    )  # below the long x label
    drawing.errorbar_vs(
        ax_s, frames, ds, "jitter_std", to_us, label="pqlab std of |IPDV| (mean, 95% CI)"
    )
    ax_s.plot(
        frames,
        to_us(ds["ipdv_std_mean"].values),
        "o:",
        color="C1",
        mfc="none",
        label="pqlab std of signed IPDV",
    )
    if "mtu_jitter_std" in ds:
        ax_s.plot(
            frames,
            to_us(ds["mtu_jitter_std"].mean("seed").values),
            "^-.",
            color="C4",
            label="pqlab std of |IPDV|, deterministic 1500-byte BE",
        )
    paper = drawing.paper_series(paper_values, ARTEFACT.id, [f"ipdv_std_ef_{f}" for f in frames])
    drawing.plot_paper(ax_s, frames, paper, "paper, Sec. 7")
    ax_s.set_ylim(0, None)
    ax_s.set_xticks(frames)
    ax_s.set_xlabel("EF frame size (bytes)")
    ax_s.set_ylabel("standard deviation of |IPDV| (us)")
    ax_s.set_title("|IPDV| standard deviation")
    ax_s.legend(
        fontsize=8, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.2)
    )  # below the x label
    fig.suptitle(f"{ARTEFACT.id}: |IPDV| vs EF frame size (one EF stream, 300 kbit/s, A = 0)")
    drawing.stand_in_footer(fig, ds)
    return fig
