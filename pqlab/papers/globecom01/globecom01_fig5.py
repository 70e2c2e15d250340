"""GLOBECOM'01 Fig. 5, EF complementary delay with the (stand-in) real BE sizes.

The artefact's computation (:func:`compute`), the numbers its claims quote (:func:`claim_values`)
and figure (:func:`figure`); the notebook ``notebooks/02_real_distribution`` runs them. The
delays are in transmission units (the line time of the EF packet, ``transmission_unit_s``), the
mean delays and the time attrs in seconds (``_s``), sizes in bytes; the claims and the figure
state times in ms.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import seaborn as sns
import xarray as xr

from ...base._validate import check_real
from ...base.units import to_ms
from ...measure import cache, experiments, metrics
from ...node.scenario import simulate
from .. import kit, presets
from ..registry import Artefact
from ..stated import (
    EF_FRAME_BYTES,
    MTU_BYTES,
    MTU_PAYLOAD_BYTES,
    PAPERS,
    transmission_unit_s,
    transmission_units,
)
from .shared import STANDIN_NOTE, cells, check_dataset

__all__ = ["ARTEFACT", "compute", "claim_values", "figure", "PAPER_FIG5_THRESHOLD_UNITS"]

ARTEFACT = Artefact(__name__, notebook="02_real_distribution")

#: GLOBECOM'01 Sec. IV-B: delay threshold above which P(D > d) is "negligible", transmission units.
PAPER_FIG5_THRESHOLD_UNITS = 36


@cache.artefact(ARTEFACT.id)
def compute(
    *,
    n_ef_samples: int = 10_000,
    seeds: Sequence[int] = tuple(range(1, 11)),
    threshold_units: float = PAPER_FIG5_THRESHOLD_UNITS,
    bin_units: float = 0.05,
    percentile: float = 99.9,
) -> xr.Dataset:
    """GLOBECOM'01 Fig. 5: EF complementary delay P(D > d) with the STAND-IN real BE sizes.

    Runs :func:`pqlab.scenarios.real_distribution` for each seed (the offered BE
    packets follow the stand-in CDF by count, the papers' reading), plus one
    reference run of the base case with every BE packet at the MTU (1500 bytes IP, the
    largest size) with the first seed. Delays are in transmission units: the line time
    of the EF packet (IP 110 bytes = 3 ATM cells = 0.636 ms, the same as the paper's
    128 bytes).

    Parameters
    ----------
    n_ef_samples : int
        EF reference packets per run.
    seeds : sequence of int
        Seeds (>= 0, distinct).
    threshold_units : float
        The paper's "negligible above" threshold, units (> 0).
    bin_units : float
        Spacing of the CCDF thresholds, units (> 0).
    percentile : float
        Percentile reported as the tail, in (0, 100).

    Returns
    -------
    xarray.Dataset
        ``delay_units`` on ``(seed, ef_packet)``; ``ccdf`` on ``(seed, threshold)``;
        ``ccdf_pooled`` and ``ccdf_mtu`` on ``threshold``; per-seed statistics;
        ``be_mean_ip_bytes`` (mean IP length of the offered BE packets) and ``mean_delay`` (s)
        per seed; attrs with pooled
        numbers (``transmission_unit_s``, ``pooled_mean_s``, ``mtu_mean_s`` in s; ``n_delays`` EF
        delays pooled),
        ``n_be_streams`` and ``be_size_reading`` (how the scenario draws the BE sizes:
        :data:`pqlab.papers.presets.BE_SIZE_READINGS`).
    """
    n = kit.check_n_ef_samples(n_ef_samples)
    seeds = kit.check_seeds(seeds)
    thr = check_real("threshold_units", threshold_units, 0.0, strict_minimum=True)
    width = check_real("bin_units", bin_units, 0.0, 10.0, strict_minimum=True)
    pct = check_real("percentile", percentile, 0.0, 100.0, strict_minimum=True)
    if pct >= 100.0:
        raise ValueError(f"percentile must be a finite number in (0, 100), got {percentile!r}")

    units = np.full((len(seeds), n), np.nan)
    be_sizes = []
    scenario = presets.real_distribution(n_ef_samples=n)
    ef_ip = int(kit.ef_streams(scenario)[0].size.size_bytes)
    for j, run in enumerate(experiments.simulate_runs(scenario, seeds)):
        d = experiments.reference_delay_values(run, scenario)
        units[j, : min(n, d.size)] = transmission_units(d[:n], scenario.node, ef_ip)
        be_sizes.append(float(run["size"][run["flow"] >= presets.FIRST_BE_FLOW].mean()))
    node = scenario.node
    unit_s = transmission_unit_s(node, ef_ip)
    mtu = presets.base_case(be_payload_bytes=MTU_PAYLOAD_BYTES, n_ef_samples=n)
    d_mtu = experiments.reference_delay_values(simulate(mtu, seed=seeds[0]), mtu)
    mtu_units = transmission_units(d_mtu, mtu.node, ef_ip)

    top = max(np.nanmax(units), np.nanmax(mtu_units), thr) + 2 * width
    grid = np.arange(0.0, top + width, width)
    ccdf = np.array([metrics.ccdf(units[j], grid).probability for j in range(len(seeds))])
    pooled = metrics.ccdf(units.ravel(), grid).probability
    ccdf_mtu = metrics.ccdf(mtu_units, grid).probability
    mean_s = np.nanmean(units, axis=1) * unit_s
    tail = np.nanpercentile(units, pct, axis=1)
    above = np.array([np.mean(u[np.isfinite(u)] > thr) for u in units])
    be = np.array(be_sizes)
    u = {"units": "transmission units"}
    out = xr.Dataset(
        {
            "delay_units": (
                ("seed", "ef_packet"),
                units,
                {**u, "long_name": "EF one-way delay in line times of the EF packet"},
            ),
            "ccdf": (
                ("seed", "threshold"),
                ccdf,
                {"units": "1", "long_name": "P(D > d), one seed"},
            ),
            "ccdf_pooled": (
                "threshold",
                pooled,
                {"units": "1", "long_name": "P(D > d), all seeds pooled"},
            ),
            "ccdf_mtu": (
                "threshold",
                ccdf_mtu,
                {
                    "units": "1",
                    "long_name": f"P(D > d), every BE packet {MTU_BYTES} bytes (deterministic)",
                },
            ),
            "mean_delay": ("seed", mean_s, {"units": "s", "long_name": "mean EF one-way delay"}),
            "tail_units": ("seed", tail, {**u, "long_name": f"{pct:g}th percentile of the delay"}),
            "max_units": ("seed", np.nanmax(units, axis=1), {**u, "long_name": "largest delay"}),
            "p_above_threshold": (
                "seed",
                above,
                {"units": "1", "long_name": f"P(D > {thr:g} units)"},
            ),
            "be_mean_ip_bytes": (
                "seed",
                be,
                {
                    "units": "bytes",
                    "long_name": "mean IP length of the offered BE packets (STAND-IN CDF)",
                },
            ),
        },
        coords={
            "seed": ("seed", np.array(seeds)),
            "ef_packet": ("ef_packet", np.arange(n)),
            "threshold": ("threshold", grid, {**u, "long_name": "delay threshold d"}),
        },
        attrs=kit.provenance(
            ARTEFACT.id,
            f"{ARTEFACT.id}: EF complementary delay probability with the "
            "STAND-IN real BE size distribution (GLOBECOM'01 Fig. 5)",
            __name__,
            seeds,
        ),
    )
    pooled_units = units[np.isfinite(units)]
    out.attrs.update(
        n_ef_samples=n,
        transmission_unit_s=unit_s,
        ef_ip_bytes=ef_ip,
        ef_frame_bytes=ef_ip + presets.ETHERNET_FRAME_OVERHEAD_BYTES,
        ef_cells=int(cells(ef_ip)[0]),
        threshold_units=thr,
        percentile=pct,
        pooled_tail_units=float(np.percentile(pooled_units, pct)),
        pooled_max_units=float(pooled_units.max()),
        n_delays=int(pooled_units.size),
        pooled_p_above_threshold=float(np.mean(pooled_units > thr)),
        pooled_mean_s=float(pooled_units.mean() * unit_s),
        mtu_tail_units=float(np.nanpercentile(mtu_units, pct)),
        mtu_max_units=float(np.nanmax(mtu_units)),
        mtu_mean_s=float(np.nanmean(mtu_units) * unit_s),
        path_ef_delay_units=float(scenario.path.extra_delay_s(ef_ip) / unit_s),
        n_be_streams=len(kit.be_streams(scenario)),
        be_size_reading="; ".join(
            sorted({presets.BE_SIZE_READINGS[s.size_per] for s in kit.be_streams(scenario)})
        ),
    )
    return claim_values(out)


def claim_values(ds: xr.Dataset) -> xr.Dataset:
    """Add the numbers the claims quote (in place; returned): the transmission unit and the pooled
    tail, maximum and mean in units and in ms, the per-seed ranges, and the range of delays the
    node produces (the STAND-IN mix and every BE packet at the MTU, the ring and the path), in
    units (``*_units``) and in ms (``*_ms``)."""
    a = ds.attrs
    unit_ms = to_ms(a["transmission_unit_s"])
    tail = ds["tail_units"].values
    mean_ms = to_ms(ds["mean_delay"])
    ds.attrs["line_text"] = PAPERS.line_text
    values = {
        "transmission_unit_ms": (unit_ms, "ms", "line time of the EF packet"),
        "pooled_tail": (a["pooled_tail_units"], "units", "the pooled tail percentile"),
        "pooled_tail_ms": (a["pooled_tail_units"] * unit_ms, "ms", "the pooled tail percentile"),
        "p_above": (a["pooled_p_above_threshold"], "1", "P(D > the paper's threshold), pooled"),
        "pooled_max": (a["pooled_max_units"], "units", "largest EF delay over all seeds"),
        "mean_delay_ms": (to_ms(a["pooled_mean_s"]), "ms", "mean EF delay, seeds pooled"),
        "mtu_mean_ms": (to_ms(a["mtu_mean_s"]), "ms", "mean EF delay, every BE packet at the MTU"),
        "n_seeds": (ds.sizes["seed"], "1", "seeds"),
        "tail_min": (tail.min(), "units", "smallest per-seed tail"),
        "tail_max": (tail.max(), "units", "largest per-seed tail"),
        "mean_min": (float(mean_ms.min()), "ms", "smallest per-seed mean delay"),
        "mean_max": (float(mean_ms.max()), "ms", "largest per-seed mean delay"),
        "tail_probability": (1 - a["percentile"] / 100, "1", "P(D > d) at the tail percentile"),
        "ef_frame_stated": (EF_FRAME_BYTES, "bytes", "the papers' EF frame"),
        "mtu_bytes": (MTU_BYTES, "bytes", "the BE MTU packet"),
        "n_packets": (a["n_delays"], "EF packets", "EF delays pooled"),
        "pct": (a["percentile"], "", "the tail percentile"),
        "ring": (PAPERS.ring_limit_particles, "particles", "the ring limit"),
    }
    for unit, scale in (("units", 1.0), ("ms", unit_ms)):
        values.update(
            {
                f"mix_max_{unit}": (
                    a["pooled_max_units"] * scale,
                    unit,
                    "largest delay, STAND-IN mix",
                ),
                f"mtu_tail_{unit}": (
                    a["mtu_tail_units"] * scale,
                    unit,
                    "tail, every BE packet at the MTU",
                ),
                f"mtu_max_{unit}": (
                    a["mtu_max_units"] * scale,
                    unit,
                    "largest delay, BE at the MTU",
                ),
                f"path_{unit}": (
                    a["path_ef_delay_units"] * scale,
                    unit,
                    "delay the path adds to EF",
                ),
            }
        )
    return kit.add_claim_values(ds, values)


def figure(data: xr.Dataset):
    """GLOBECOM'01 Fig. 5: EF P(D > d) in transmission units with the STAND-IN real BE sizes, per
    seed.

    Left: complementary distribution per seed (thin), all seeds pooled (black), every
    BE packet at 1500 bytes (grey, dashed) and the paper's 36-unit threshold; right:
    each seed's tail percentile against the mean size of the BE packets it offered.
    """
    check_dataset(
        ARTEFACT.id, data, ("ccdf", "ccdf_pooled", "ccdf_mtu", "tail_units", "be_mean_ip_bytes")
    )
    a = data.attrs
    unit_ms = to_ms(a["transmission_unit_s"])
    fig, (ax, ax_s) = kit.subplots(1, 2, figsize=(13, 5.4), width_ratios=(2.4, 1), top_axis=True)
    d = data["threshold"].values
    seeds = list(data["seed"].values)
    colors = sns.color_palette("viridis", len(seeds))
    for j, s in enumerate(seeds):
        ax.step(
            d,
            data["ccdf"].values[j],
            where="post",
            color=colors[j],
            lw=0.9,
            alpha=0.8,
            label=f"seed {s} (BE mean {data['be_mean_ip_bytes'].values[j]:.0f} B)",
        )
    ax.step(
        d, data["ccdf_pooled"].values, where="post", color="k", lw=2.2, label="all seeds pooled"
    )
    ax.step(
        d,
        data["ccdf_mtu"].values,
        where="post",
        color="0.45",
        ls="--",
        lw=1.6,
        label="every BE packet 1500 B (deterministic)",
    )
    thr = a["threshold_units"]
    ax.axvline(thr, color="C3", ls=":", lw=1.8, label=f"paper: P(D > {thr:g} units) negligible")
    n_total = int(np.isfinite(data["delay_units"].values).sum())
    ax.set_yscale("log")
    ax.set_ylim(0.5 / n_total, 1.5)
    ax.set_xlim(0, max(thr, float(d.max())) + 1)
    ax.set_xlabel(
        f"delay d (transmission units of {unit_ms:.3f} ms = line time of the "
        f"{a['ef_ip_bytes']}-B EF packet)"
    )
    ax.set_ylabel("P(D > d)")
    sec = ax.secondary_xaxis("top", functions=(lambda u: u * unit_ms, lambda m: m / unit_ms))
    sec.set_xlabel("delay d (ms)")
    ax.legend(loc="lower left", fontsize=7, ncol=2)
    ax.text(
        0.99,
        0.98,
        f"{STANDIN_NOTE};\n{a['n_be_streams']} BE streams, {a['be_size_reading']}",
        transform=ax.transAxes,
        ha="right",
        va="top",
        fontsize=8,
        bbox=dict(fc="#fff3e0", ec="C1"),
    )

    pct = a["percentile"]
    ax_s.scatter(
        data["be_mean_ip_bytes"].values, data["tail_units"].values, c=colors, s=40, zorder=3
    )
    for s, x, y in zip(seeds, data["be_mean_ip_bytes"].values, data["tail_units"].values):
        ax_s.annotate(str(s), (x, y), xytext=(4, 3), textcoords="offset points", fontsize=7)
    ax_s.axhline(
        a["pooled_tail_units"],
        color="k",
        lw=1.2,
        label=f"pooled {pct:g}th pct. {a['pooled_tail_units']:.1f}",
    )
    ax_s.axhline(
        a["mtu_tail_units"],
        color="0.45",
        ls="--",
        lw=1.2,
        label=f"1500-B BE: {a['mtu_tail_units']:.1f}",
    )
    ax_s.set_xlabel("mean offered BE IP size (bytes)")
    ax_s.set_ylabel(f"{pct:g}th percentile of the delay (units)")
    ax_s.legend(loc="lower right", fontsize=7.5)
    ax_s.set_title("spread over seeds", fontsize=10)
    fig.suptitle(
        f"{ARTEFACT.id}: EF complementary delay probability with the STAND-IN real BE size"
        " distribution",
        fontsize=11,
    )
    return fig
