"""GLOBECOM'01 Sec. IV (notebook 02): the "real" BE size distribution (Fig. 4, here the STAND-IN) and the EF CCDF under it (Fig. 5).

One compute function per artefact id (``globecom01_fig4``, ``globecom01_fig5``) and its
statistics; the section :mod:`pqlab.papers.artefacts.background` re-exports them (and finds their
claims).
"""

from __future__ import annotations

import math

import numpy as np
import xarray as xr

from typing import Sequence
from ...measure import cache, experiments, metrics
from .. import presets
from ...base._validate import check_real
from ...base.numerics import dot
from ..stated import transmission_unit_s, transmission_units
from ...node.scenario import simulate
from ...node.traffic import merge_streams
from ._common import be_streams, check_n_ef_samples, check_seeds, MTU_BYTES, MTU_PAYLOAD_BYTES, provenance
from .background_common import FIG4_PROBABILITIES, PAPER_FIG5_THRESHOLD_UNITS, _cells, _ef_stream


# --------------------------------------------------------------------------- globecom01_fig4


@cache.artefact()
def globecom01_fig4(*, mode_min_probability: float = 0.1) -> xr.Dataset:
    """GLOBECOM'01 Fig. 4: the "real" BE size CDF -- here the STAND-IN (:func:`pqlab.scenarios.real_be_sizes`).

    Parameters
    ----------
    mode_min_probability : float
        Smallest probability mass, in (0, 1), of a size counted as a mode.

    Returns
    -------
    xarray.Dataset
        ``cdf`` and ``pmf`` on ``size_bytes``; ``quantile_bytes`` on ``probability``
        (5, 25, 50, 75, 95 %); attrs: mean, SD, modes, the preset's BE stream model,
        the provenance lines of the CSV.
    """
    thr = check_real("mode_min_probability", mode_min_probability, 0.0, 1.0, strict_minimum=True)
    dist = presets.real_be_sizes()
    sizes = np.array(dist.sizes_bytes)
    cdf = np.array(dist.cdf)
    pmf = dist.pmf()
    probs = np.array(FIG4_PROBABILITIES)
    quant = sizes[np.minimum(np.searchsorted(cdf, probs - 1e-12, side="left"), sizes.size - 1)]
    mean = dot(sizes, pmf)
    sd = math.sqrt(dot((sizes - mean) ** 2, pmf))
    modes = [int(s) for s in sizes[pmf >= thr]]
    header = [line[1:].strip() for line in presets.REAL_BE_CDF.read_text(encoding="utf-8").splitlines()
              if line.startswith("#")]
    real = presets.real_distribution(n_ef_samples=2)
    be = be_streams(real)
    # the BE sizes the preset offers (seed 1, 2,000 EF intervals): by count they must follow the law
    offered_sc = presets.real_distribution(n_ef_samples=2000)
    _, offered, _, offered_flow = merge_streams(offered_sc.streams, np.random.default_rng(1), offered_sc.duration_s)
    offered = offered[offered_flow >= presets.FIRST_BE_FLOW]
    offered_ks = float(np.max(np.abs(np.searchsorted(np.sort(offered), sizes, side="right") / offered.size - cdf)))
    return xr.Dataset(
        {
            "cdf": ("size_bytes", cdf, {"units": "1", "long_name": "P(BE IP length <= size) (STAND-IN)"}),
            "pmf": ("size_bytes", pmf, {"units": "1", "long_name": "P(BE IP length = size) (STAND-IN)"}),
            "quantile_bytes": ("probability", quant, {"units": "bytes",
                                                      "long_name": "q_p = min{x : F(x) >= p}"}),
        },
        coords={
            "size_bytes": ("size_bytes", sizes, {"units": "bytes", "long_name": "BE IP packet length"}),
            "probability": ("probability", probs, {"units": "1"}),
        },
        attrs={
            **provenance("globecom01_fig4", "globecom01_fig4: STAND-IN 'real' BE packet size CDF (CAIDA AIX 1999 "
                         "fit), not the papers' trace", __name__),
            # the repository's path, which a reader can look up, also when the file is read from an
            # installed wheel (where it sits in pqlab/_data/)
            "file": f"data/{presets.REAL_BE_CDF.name}",
            "provenance": " ".join(header[:3]),
            "mean_bytes": mean,
            "sd_bytes": sd,
            "mode_min_probability": thr,
            "modes_bytes": modes,
            "mode_probabilities": [float(pmf[sizes == m][0]) for m in modes],
            "be_stream_models": sorted({f"{type(s).__name__}(size_per={s.size_per})" for s in be}),
            "be_size_reading": presets.BE_SIZE_READINGS[be[0].size_per],
            "offered_be_packets": int(offered.size),
            "offered_be_mean_bytes": float(offered.mean()),
            "offered_be_ks": offered_ks,
            "be_streams": len(be),
        },
    )


# --------------------------------------------------------------------------- globecom01_fig5


@cache.artefact()
def globecom01_fig5(
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
        numbers (``transmission_unit_s``, ``pooled_mean_s``, ``mtu_mean_s`` in s).
    """
    n = check_n_ef_samples(n_ef_samples)
    seeds = check_seeds(seeds)
    thr = check_real("threshold_units", threshold_units, 0.0, strict_minimum=True)
    width = check_real("bin_units", bin_units, 0.0, 10.0, strict_minimum=True)
    pct = check_real("percentile", percentile, 0.0, 100.0, strict_minimum=True)
    if pct >= 100.0:
        raise ValueError(f"percentile must be a finite number in (0, 100), got {percentile!r}")

    units = np.full((len(seeds), n), np.nan)
    be_sizes = []
    scenario = None
    for j, s in enumerate(seeds):
        scenario = presets.real_distribution(n_ef_samples=n)
        ds = simulate(scenario, seed=s)
        d = experiments.reference_delay(ds, scenario).values
        ef_ip = int(_ef_stream(scenario).size.size_bytes)
        units[j, :min(n, d.size)] = transmission_units(d[:n], scenario.node, ef_ip)
        flows = ds["flow"].values
        be_sizes.append(float(ds["size"].values[flows >= presets.FIRST_BE_FLOW].mean()))
    node = scenario.node
    unit_s = transmission_unit_s(node, ef_ip)
    mtu = presets.base_case(be_payload_bytes=MTU_PAYLOAD_BYTES, n_ef_samples=n)
    d_mtu = experiments.reference_delay(simulate(mtu, seed=seeds[0]), mtu).values
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
            "delay_units": (("seed", "ef_packet"), units,
                            {**u, "long_name": "EF one-way delay in line times of the EF packet"}),
            "ccdf": (("seed", "threshold"), ccdf, {"units": "1", "long_name": "P(D > d), one seed"}),
            "ccdf_pooled": ("threshold", pooled, {"units": "1", "long_name": "P(D > d), all seeds pooled"}),
            "ccdf_mtu": ("threshold", ccdf_mtu,
                         {"units": "1", "long_name": f"P(D > d), every BE packet {MTU_BYTES} bytes (deterministic)"}),
            "mean_delay": ("seed", mean_s, {"units": "s", "long_name": "mean EF one-way delay"}),
            "tail_units": ("seed", tail, {**u, "long_name": f"{pct:g}th percentile of the delay"}),
            "max_units": ("seed", np.nanmax(units, axis=1), {**u, "long_name": "largest delay"}),
            "p_above_threshold": ("seed", above, {"units": "1", "long_name": f"P(D > {thr:g} units)"}),
            "be_mean_ip_bytes": ("seed", be, {"units": "bytes",
                                              "long_name": "mean IP length of the offered BE packets (STAND-IN CDF)"}),
        },
        coords={
            "seed": ("seed", np.array(seeds)),
            "ef_packet": ("ef_packet", np.arange(n)),
            "threshold": ("threshold", grid, {**u, "long_name": "delay threshold d"}),
        },
        attrs=provenance("globecom01_fig5", "globecom01_fig5: EF complementary delay probability with the "
                         "STAND-IN real BE size distribution (GLOBECOM'01 Fig. 5)", __name__, seeds),
    )
    pooled_units = units[np.isfinite(units)]
    out.attrs.update(
        n_ef_samples=n,
        transmission_unit_s=unit_s,
        ef_ip_bytes=ef_ip,
        ef_frame_bytes=ef_ip + presets.ETHERNET_FRAME_OVERHEAD_BYTES,
        ef_cells=int(_cells(ef_ip)[0]),
        threshold_units=thr,
        percentile=pct,
        pooled_tail_units=float(np.percentile(pooled_units, pct)),
        pooled_max_units=float(pooled_units.max()),
        pooled_p_above_threshold=float(np.mean(pooled_units > thr)),
        pooled_mean_s=float(pooled_units.mean() * unit_s),
        mtu_tail_units=float(np.nanpercentile(mtu_units, pct)),
        mtu_max_units=float(np.nanmax(mtu_units)),
        mtu_mean_s=float(np.nanmean(mtu_units) * unit_s),
        path_ef_delay_units=float(scenario.path.extra_delay_s(ef_ip) / unit_s),
    )
    return out
