"""GLOBECOM'01 Fig. 3-2, EF delay over time for BE payloads 450 and 475 bytes.

The artefact's computation (:func:`compute`), statistics (:func:`statistics`), claims
(:func:`claims`) and figure (:func:`figure`); the notebook ``notebooks/01_background_traffic``
runs them. The Dataset is in SI units (times in seconds, sizes in bytes). The statistics the
claims and the figure state in the paper's milliseconds are computed by :func:`statistics` from
the delays in whatever time unit they hold, once by :func:`compute` in seconds and once from the
delays converted to ms (:func:`pqlab.papers.kit.statistics_in_ms`); their time attrs end in the
unit (``_s`` or ``_ms``).
"""

from __future__ import annotations

import math
from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np
import xarray as xr
from scipy import stats

from ...base._validate import check_int, check_real
from ...base.units import ms_to_s, to_ms, to_us, us_to_s
from ...measure import analysis, cache, experiments
from ...measure.analysis import mean_ci
from ...node.framing import line_time_s
from ...node.traffic import UDP_IP_HEADER_BYTES
from .. import judge, kit, presets
from ..registry import Artefact
from ..stated import MTU_PAYLOAD_BYTES, PAPER_FIG3_2_PAYLOADS, cisco7200_atm
from .shared import cells, check_dataset, particles, set_time_attrs

__all__ = [
    "ARTEFACT",
    "compute",
    "statistics",
    "claims",
    "figure",
    "ONE_UNIT_PAYLOAD_BYTES",
    "TWO_UNIT_PAYLOAD_BYTES",
    "SIGNIFICANT_CI_MULTIPLE",
]

ARTEFACT = Artefact(__name__, notebook="01_background_traffic")

#: Fig. 3-2's BE payload said to take one transmission unit (one particle), bytes.
ONE_UNIT_PAYLOAD_BYTES = 450
#: Fig. 3-2's BE payload said to take two transmission units (the erratum checked), bytes.
TWO_UNIT_PAYLOAD_BYTES = 475
#: "Lower delay with longer BE" holds when the mean difference exceeds this many widest 95 % CI
#: half-widths.
SIGNIFICANT_CI_MULTIPLE = 2


@cache.artefact(ARTEFACT.id)
def compute(
    *,
    n_ef_samples: int = 10_000,
    seeds: Sequence[int] = (1, 2, 3),
    payloads: Sequence[int] = PAPER_FIG3_2_PAYLOADS,
    max_lag: int = 60,
    acf_threshold: float = 0.5,
) -> xr.Dataset:
    """GLOBECOM'01 Fig. 3-2: EF one-way delay of consecutive packets for BE payloads 450 and 475
    bytes.

    Runs :func:`pqlab.scenarios.base_case` for each payload and seed and keeps the delay
    series of the reference stream after the warm-up. Per run: mean, 5th/95th
    percentiles, the fluctuation ``(p95 - p5) / mean``, the peak-to-peak fraction
    ``(max - min) / mean``, and the first autocorrelation peak (lag >= 2 above
    ``acf_threshold``), i.e. the period of the pattern in EF packets; the
    Kolmogorov-Smirnov distance of each payload's delays to the first payload's (same
    seed). ``predicted_period_packets`` is ``1 / frac((T_ef - t_ef) / t_be)``: the EF
    interval minus the EF line time, in BE line times; its fractional part is the phase
    an EF packet slips per interval against the BE departures.

    Parameters
    ----------
    n_ef_samples : int
        EF reference packets per run.
    seeds : sequence of int
        Seeds (>= 0, distinct).
    payloads : sequence of int
        BE UDP payloads, bytes (at least two distinct values, each in [1, 1472]).
    max_lag : int
        Largest autocorrelation lag, EF packets (2 .. n_ef_samples // 2).
    acf_threshold : float
        Autocorrelation a peak must exceed to count as periodic, in (0, 1).

    Returns
    -------
    xarray.Dataset
        ``delay`` (s) on ``(be_payload_bytes, seed, ef_packet)``; per-run statistics on
        ``(be_payload_bytes, seed)`` and ``acf`` on ``(be_payload_bytes, seed, lag)``
        (:func:`statistics`, times in s); coords ``ip_bytes``, ``particles``, ``cells``;
        attrs with the summary numbers (times in s: ``be_line_time_s``, ``ef_interval_s``,
        ``ef_line_time_s``, ``spread_s``, ...).
    """
    n = kit.check_n_ef_samples(n_ef_samples)
    seeds = kit.check_seeds(seeds)
    try:
        pays = [check_int("payloads", p, 1, MTU_PAYLOAD_BYTES) for p in payloads]
    except TypeError:
        raise ValueError(
            f"payloads must be a sequence of UDP payloads in bytes, got {payloads!r}"
        ) from None
    if len(set(pays)) < 2 or len(set(pays)) != len(pays):
        raise ValueError(f"payloads must hold at least two distinct payloads, got {list(pays)!r}")
    lag_max = check_int("max_lag", max_lag, 2, max(2, n // 2))
    thr = check_real("acf_threshold", acf_threshold, 0.0, 1.0, strict_minimum=True)

    delays = np.full((len(pays), len(seeds), n), np.nan)
    for i, p in enumerate(pays):
        sc = presets.base_case(be_payload_bytes=p, n_ef_samples=n)
        for j, run in enumerate(experiments.simulate_runs(sc, seeds)):
            d = experiments.reference_delay_values(run, sc)
            delays[i, j, : min(n, d.size)] = d[:n]

    node = cisco7200_atm()
    ip = np.array(pays) + UDP_IP_HEADER_BYTES
    ef_ip = presets.ef_ip_bytes(presets.EF_FRAME_BYTES)
    t_ef = presets.EF_FRAME_BYTES * 8 / 300e3
    t_ef_line = line_time_s(ef_ip, node.framing, node.line_rate_bps)
    t_be = np.atleast_1d(line_time_s(ip, node.framing, node.line_rate_bps))
    slip = np.mod((t_ef - t_ef_line) / t_be, 1.0)
    predicted = np.where(slip > 0, 1.0 / np.where(slip > 0, slip, 1.0), np.inf)
    ds = xr.Dataset(
        {
            "delay": (
                ("be_payload_bytes", "seed", "ef_packet"),
                delays,
                {"units": "s", "long_name": "EF one-way delay"},
            ),
            "predicted_period": (
                "be_payload_bytes",
                predicted,
                {"units": "EF packets", "long_name": "1 / frac((T_ef - t_ef) / t_be)"},
            ),
        },
        coords={
            "be_payload_bytes": (
                "be_payload_bytes",
                np.array(pays),
                {"units": "bytes", "long_name": "BE UDP payload"},
            ),
            "seed": ("seed", np.array(seeds)),
            "ef_packet": (
                "ef_packet",
                np.arange(n),
                {"long_name": "EF reference packet after the warm-up"},
            ),
            "lag": ("lag", np.arange(lag_max + 1), {"units": "EF packets"}),
            "ip_bytes": ("be_payload_bytes", ip, {"units": "bytes", "long_name": "BE IP length"}),
            "particles": (
                "be_payload_bytes",
                particles(ip, node.particle_bytes),
                {"units": "1", "long_name": "ring particles per BE packet"},
            ),
            "cells": (
                "be_payload_bytes",
                cells(ip),
                {"units": "1", "long_name": "ATM cells per BE packet"},
            ),
        },
        attrs=kit.provenance(
            ARTEFACT.id,
            f"{ARTEFACT.id}: EF one-way delay over time for BE payloads "
            f"{' and '.join(str(p) for p in pays)} bytes (GLOBECOM'01 Fig. 3-2)",
            __name__,
            seeds,
        ),
    )
    ds.attrs.update(
        n_ef_samples=n,
        particle_bytes=node.particle_bytes,
        first_two_particle_payload=node.particle_bytes + 1 - UDP_IP_HEADER_BYTES,
        ks_critical=float(1.36 * np.sqrt(2.0 / n)),
        predicted_period_packets=[float(v) for v in predicted],
        be_line_time_s=[float(v) for v in t_be],
        ef_interval_s=t_ef,
        ef_line_time_s=t_ef_line,
        acf_threshold=thr,
    )
    return statistics(ds)


def statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`compute`'s per-run statistics of ``delay`` and their summary (in place; returned).

    Per payload and seed: mean, 5th/95th percentiles, ``(p95 - p5) / mean``,
    ``(max - min) / mean``, the autocorrelation up to the largest ``lag`` and its first peak
    above ``attrs["acf_threshold"]``, the KS distance to the first payload's delays; the
    summary attrs (means over runs, the mean per payload with its CI over seeds, the
    difference of the last and first payload's means, the largest KS distance, periodicity),
    computed from ``delay`` in whatever time unit it holds; time attrs end in the unit
    (``spread_s`` here, ``spread_ms`` for the claims).
    """
    delays = ds["delay"].values
    unit = ds["delay"].attrs["units"]
    n_pays, n_seeds = delays.shape[:2]
    lag_max, thr = int(ds["lag"].values[-1]), ds.attrs["acf_threshold"]
    mean = np.nanmean(delays, axis=2)
    p5, p95 = np.nanpercentile(delays, [5, 95], axis=2)
    dmin, dmax = np.nanmin(delays, axis=2), np.nanmax(delays, axis=2)
    acf = np.array(
        [
            [analysis.acf(delays[i, j][np.isfinite(delays[i, j])], lag_max) for j in range(n_seeds)]
            for i in range(n_pays)
        ]
    )
    peaks = np.array(
        [[analysis.first_peak(acf[i, j], thr) for j in range(n_seeds)] for i in range(n_pays)]
    )
    ks = np.array(
        [
            [
                stats.ks_2samp(
                    delays[0, j][np.isfinite(delays[0, j])], delays[i, j][np.isfinite(delays[i, j])]
                ).statistic
                for j in range(n_seeds)
            ]
            for i in range(n_pays)
        ]
    )
    dims2 = ("be_payload_bytes", "seed")
    times = {"units": unit}
    fluct = (p95 - p5) / mean
    ds.update(
        {
            "delay_mean": (dims2, mean, {**times, "long_name": "mean EF one-way delay"}),
            "delay_p5": (
                dims2,
                p5,
                {**times, "long_name": "5th percentile of the EF one-way delay"},
            ),
            "delay_p95": (
                dims2,
                p95,
                {**times, "long_name": "95th percentile of the EF one-way delay"},
            ),
            "fluctuation_fraction": (
                dims2,
                fluct,
                {"units": "1", "long_name": "(p95 - p5) / mean"},
            ),
            "peak_to_peak_fraction": (
                dims2,
                (dmax - dmin) / mean,
                {"units": "1", "long_name": "(max - min) / mean"},
            ),
            "acf": (
                dims2 + ("lag",),
                acf,
                {"units": "1", "long_name": "autocorrelation of the delay series"},
            ),
            "acf_peak_lag": (
                dims2,
                peaks[..., 0].astype(int),
                {"units": "EF packets", "long_name": "first autocorrelation peak (-1: none)"},
            ),
            "acf_peak": (
                dims2,
                peaks[..., 1],
                {"units": "1", "long_name": "autocorrelation at the first peak"},
            ),
            "ks_to_first": (
                dims2,
                ks,
                {
                    "units": "1",
                    "long_name": "Kolmogorov-Smirnov distance to the first payload's delays",
                },
            ),
        }
    )
    mean_by_payload, ci = mean_ci(mean)
    ds.attrs.update(
        fluctuation_fraction=float(fluct.mean()),
        fluctuation_fraction_min=float(fluct.min()),
        fluctuation_fraction_max=float(fluct.max()),
        peak_to_peak_fraction=float(ds["peak_to_peak_fraction"].mean()),
        ks_max=float(ks[1:].max()),
        periodic=bool(np.all(peaks[..., 0] >= 2)),
        acf_peak_lag_mode=int(stats.mode(peaks[..., 0].ravel(), keepdims=False).mode),
        acf_peak_min=(
            float(np.nanmin(peaks[..., 1])) if np.isfinite(peaks[..., 1]).any() else math.nan
        ),
    )
    set_time_attrs(
        ds,
        unit,
        spread=float((p95 - p5).mean()),
        mean_delay=[float(v) for v in mean_by_payload],
        mean_delay_ci=[float(v) for v in ci],
        mean_difference=float(mean_by_payload[-1] - mean_by_payload[0]),
    )
    return ds


def claims(data: xr.Dataset) -> list:
    """Claim records of ``globecom01_fig3_2``: fluctuation, periodicity, the 450/475 erratum."""
    art = ARTEFACT.id
    si = kit.check_artefact(data, art).attrs  # times in s
    a = kit.statistics_in_ms(
        data, statistics
    ).attrs  # the statistics of the delays in ms (the _ms attrs)
    be_line_ms, ef_interval_ms, ef_line_ms = (
        to_ms(a["be_line_time_s"][0]),
        to_ms(a["ef_interval_s"]),
        to_ms(a["ef_line_time_s"]),
    )
    pays = [int(p) for p in data["be_payload_bytes"].values]
    ips = [int(v) for v in data["ip_bytes"].values]
    ks_ = [int(v) for v in data["particles"].values]
    cells = [int(v) for v in data["cells"].values]
    pb = a["particle_bytes"]
    seeds = [int(s) for s in data["seed"].values]
    over = f"seeds {', '.join(str(s) for s in seeds)}"
    by_payload = ", ".join(
        f"{p}: IP {i} B = {k} particle(s), {c} cells" for p, i, k, c in zip(pays, ips, ks_, cells)
    )
    same = len(set(ks_)) == 1 and len(set(cells)) == 1
    fluct_paper = kit.paper_value(art, "fluctuation_fraction")[0]
    fl = a["fluctuation_fraction"]
    means = a["mean_delay_ms"]
    cis = a["mean_delay_ci_ms"]
    diff = a["mean_difference_ms"]
    finite = [c for c in cis if np.isfinite(c)]
    ci_max = max(finite) if finite else math.nan
    ci_text = (
        f"95% CI +/- {to_us(np.nanmax(si['mean_delay_ci_s'])):.1f} us"
        if finite
        else "one seed, no CI"
    )
    rows = []
    for payload, units, key in (
        (ONE_UNIT_PAYLOAD_BYTES, 1, "be_payload_one_unit"),
        (TWO_UNIT_PAYLOAD_BYTES, 2, "be_payload_two_units"),
    ):
        if payload in pays:
            i = pays.index(payload)
            why = (
                None
                if ks_[i] == units
                else judge.reason(
                    "arithmetic",
                    "payload {payload} + {header} of UDP/IP header = IP {ip}, which fits {k}"
                    " particle(s) of {particle}; the first payload needing two is {first_two}",
                    [
                        judge.fact("payload", payload, "bytes"),
                        judge.fact("header", UDP_IP_HEADER_BYTES, "bytes"),
                        judge.fact("ip", ips[i], "bytes"),
                        judge.fact("k", ks_[i], ""),
                        judge.fact("particle", pb, "bytes"),
                        judge.fact("first_two", a["first_two_particle_payload"], "bytes"),
                    ],
                )
            )
            rows.append(
                kit.claim(
                    art,
                    key,
                    payload,
                    "bytes",
                    f"payload {payload} = IP {ips[i]} bytes takes {ks_[i]} particle(s) of {pb}"
                    " bytes",
                    shape_ok=ks_[i] == units,
                    reason=why,
                )
            )
    rows += [
        kit.claim(
            art,
            "fluctuation_fraction",
            fl,
            "1",
            f"(p95 - p5) / mean over {len(pays)} payloads x {len(seeds)} seeds"
            f" ({a['fluctuation_fraction_min']:.3f}..{a['fluctuation_fraction_max']:.3f};"
            f" peak-to-peak {a['peak_to_peak_fraction']:.3f}), the mean including the path",
            reason=_fluctuation_reason(a, float(np.mean(means)), fluct_paper),
        ),
        kit.claim(
            art,
            "periodic_fluctuations",
            None,
            "-",
            f"autocorrelation of consecutive EF delays peaks first at lag {a['acf_peak_lag_mode']}"
            f" EF packets (>= {a['acf_peak_min']:.2f} in every run); predicted period"
            f" {a['predicted_period_packets'][0]:.2f} = 1 / frac(({ef_interval_ms:.3f} -"
            f" {ef_line_ms:.3f}) / {be_line_ms:.3f}) EF packets",
            shape_ok=a["periodic"],
            reason=(
                None
                if a["periodic"]
                else judge.reason(
                    "mechanism",
                    "the first autocorrelation peak above {threshold} lies at lag {lag} where the"
                    " phase slip of the EF packets against the BE departures predicts {predicted}",
                    [
                        judge.fact("threshold", a["acf_threshold"], "1"),
                        judge.fact("lag", a["acf_peak_lag_mode"], "EF packets"),
                        judge.fact("predicted", a["predicted_period_packets"][0], "EF packets"),
                    ],
                )
            ),
        ),
        kit.claim(
            art,
            "lower_delay_longer_be",
            None,
            "-",
            f"mean delay {means[0]:.3f} ms at {pays[0]} vs {means[-1]:.3f} ms at {pays[-1]}"
            f" (difference {to_us(si['mean_difference_s']):+.2f} us, {ci_text}, {over}); 'lower'"
            f" needs the longer payload's mean below by more than {SIGNIFICANT_CI_MULTIPLE} CI"
            " half-widths",
            shape_ok=bool(diff < 0 and (not finite or -diff > SIGNIFICANT_CI_MULTIPLE * ci_max)),
            reason=_lower_delay_reason(a, pays, ips, ks_, cells, ci_max),
        ),
        kit.claim(
            art,
            "erratum_475_two_units",
            None,
            "-",
            f"with IP = payload + {UDP_IP_HEADER_BYTES}, {by_payload}; our one-particle maximum is"
            f" at payload {pb - UDP_IP_HEADER_BYTES} (IP {pb}) and"
            f" {a['first_two_particle_payload']} is the first two-particle payload",
            shape_ok=same,
        ),
        kit.claim(
            art,
            "ks_distance_450_vs_475",
            a["ks_max"],
            "1",
            f"largest two-sample KS distance between the payloads' delays, same seed ({over})",
        ),
        kit.claim(
            art,
            "acf_period",
            float(a["acf_peak_lag_mode"]),
            "EF packets",
            f"first autocorrelation peak; predicted {a['predicted_period_packets'][0]:.2f} EF"
            " packets",
        ),
    ]
    return rows


def _fluctuation_reason(a: dict, mean_ms: float, paper: float) -> dict:
    """The mechanism of the fluctuation fraction: the phase slip sweeps the delay over BE line
    times."""
    spread, be_line = a["spread_ms"], to_ms(a["be_line_time_s"][0])
    facts = [
        judge.fact("slip", 1.0 / a["predicted_period_packets"][0], "BE line times"),
        judge.fact("spread", spread, "ms"),
        judge.fact("spread_be", spread / be_line, "BE line times"),
        judge.fact("be_line_time", be_line, "ms"),
        judge.fact("mean", mean_ms, "ms"),
    ]
    text = (
        "an EF packet meets the BE departures at a phase that slips by {slip} per EF interval, so"
        " its delay sweeps p95 - p5 = {spread} ({spread_be} of {be_line_time}) around a mean of"
        " {mean} (the path included)"
    )
    w_m = kit.paper_value("globecom01_tab4", "w_m_k1")[
        0
    ]  # the paper's measured mean at one full unit, us
    if math.isfinite(w_m):
        paper_mean = to_ms(us_to_s(w_m))
        facts += [
            judge.fact("mean_gap", judge.relative_percent(mean_ms, paper_mean), "%"),
            judge.fact("paper_mean", paper_mean, "ms"),
            judge.fact("on_paper_mean", spread / paper_mean, "1"),
        ]
        text += (
            "; our mean lies {mean_gap} from the paper's measured mean at one full unit, W_m ="
            " {paper_mean} (Table IV), on which our spread gives {on_paper_mean}"
        )
    if math.isfinite(paper) and paper > 0:
        facts.append(judge.fact("needed_mean", spread / paper, "ms"))
        text += ", and the paper's fraction with our spread needs a mean of {needed_mean}"
    return judge.reason("mechanism", text, facts)


def _lower_delay_reason(a: dict, pays, ips, ks_, cells, ci_max: float) -> dict:
    """Why the longer BE payload does or does not lower the EF delay, with the particles, cells and
    the difference."""
    facts = [
        judge.fact("ip_shorter", ips[0], "bytes"),
        judge.fact("ip_longer", ips[-1], "bytes"),
        judge.fact("difference", to_us(ms_to_s(a["mean_difference_ms"])), "us"),
        judge.fact("ks", a["ks_max"], "1"),
    ]
    spread = ""
    if math.isfinite(ci_max):
        facts.append(judge.fact("ci", to_us(ms_to_s(ci_max)), "us"))
        spread = " (CI half-width {ci})"
    if ks_[0] == ks_[-1] and cells[0] == cells[-1]:
        facts += [
            judge.fact("particle", a["particle_bytes"], "bytes"),
            judge.fact("k", ks_[0], ""),
            judge.fact("cells", cells[0], ""),
        ]
        return judge.reason(
            "arithmetic",
            "IP {ip_shorter} and IP {ip_longer} both take {k} particle(s) of {particle} and {cells}"
            " ATM cells, so the node serves them alike: the mean delays differ by {difference}"
            + spread
            + " and the KS distance of the delays is {ks}",
            facts,
        )
    facts += [judge.fact("k_shorter", ks_[0], ""), judge.fact("k_longer", ks_[-1], "")]
    return judge.reason(
        "mechanism",
        "IP {ip_shorter} takes {k_shorter} particle(s) and IP {ip_longer} {k_longer}: the mean"
        " delays differ by {difference}" + spread + " and the KS distance of the delays is {ks}",
        facts,
    )


def figure(data: xr.Dataset, *, n_show: int = 150, seed: int | None = None):
    """GLOBECOM'01 Fig. 3-2: EF one-way delay of consecutive packets for two BE payloads, and their
    ECDFs.

    Parameters
    ----------
    data : xarray.Dataset
        From :func:`compute`.
    n_show : int
        Consecutive EF packets shown after the warm-up (>= 2).
    seed : int, optional
        Which seed's series to show (default: the first).
    """
    check_dataset(ARTEFACT.id, data, ("delay", "delay_mean", "delay_p5", "delay_p95"))
    data = kit.statistics_in_ms(data, statistics)  # times in ms
    if not isinstance(n_show, (int, np.integer)) or isinstance(n_show, bool) or n_show < 2:
        raise ValueError(f"n_show must be an integer >= 2, got {n_show!r}")
    seeds = list(data["seed"].values)
    seed = seeds[0] if seed is None else seed
    if seed not in seeds:
        raise ValueError(f"seed must be one of the Dataset's seeds {seeds}, got {seed!r}")
    a = data.attrs
    pays = [int(p) for p in data["be_payload_bytes"].values]
    kit.set_theme()
    fig = plt.figure(figsize=(13, 2.6 * len(pays) + 0.8), constrained_layout=True)
    grid = fig.add_gridspec(len(pays), 2, width_ratios=(2.6, 1))
    ax_e = fig.add_subplot(grid[:, 1])
    first = None
    styles = ["-", "--", ":", "-."]
    for i, p in enumerate(pays):
        ax = fig.add_subplot(grid[i, 0], sharex=first, sharey=first)
        first = first or ax
        sel = data.sel(be_payload_bytes=p)
        series = sel["delay"].sel(seed=seed).values[:n_show]
        k, cells, ip = int(sel["particles"]), int(sel["cells"]), int(sel["ip_bytes"])
        m, lo, hi = (float(sel[v].sel(seed=seed)) for v in ("delay_mean", "delay_p5", "delay_p95"))
        ax.axhspan(lo, hi, color=f"C{i}", alpha=0.12, label="5th-95th percentile")
        ax.axhline(m, color=f"C{i}", ls="--", lw=1, label=f"mean {m:.2f} ms")
        ax.plot(
            np.arange(series.size),
            series,
            "-o",
            color=f"C{i}",
            ms=2.5,
            lw=0.9,
            label="EF one-way delay",
        )
        frac = float(sel["fluctuation_fraction"].sel(seed=seed))
        ax.set_title(
            f"BE payload {p} B = IP {ip} B: {k} particle{'s' if k > 1 else ''}, {cells} ATM cells; "
            f"(p95 - p5) / mean = {frac:.2f}",
            fontsize=9.5,
        )
        ax.set_ylabel("one-way delay (ms)")
        ax.legend(loc="upper right", fontsize=7.5, ncol=3)
        ax.set_xlabel(
            f"consecutive EF reference packets after the warm-up (seed {seed})", fontsize=9
        )
        pooled = sel["delay"].values.ravel()
        prob = np.linspace(0.0, 1.0, 401)
        ax_e.plot(
            np.quantile(pooled[np.isfinite(pooled)], prob),
            prob,
            color=f"C{i}",
            ls=styles[i % len(styles)],
            lw=1.8,
            label=f"payload {p} B ({k} particle{'s' if k > 1 else ''})",
        )
    ax_e.set_xlabel("one-way delay (ms)")
    ax_e.set_ylabel("P(D <= d)")
    ax_e.set_title(
        f"distribution, {kit.seed_count(len(seeds))} pooled\nKS distance {a['ks_max']:.3f}",
        fontsize=9.5,
    )
    ax_e.legend(loc="lower right", fontsize=8)
    shown = data["delay"].sel(seed=seed).values[:, :n_show]
    lo, hi = np.nanmin(shown), np.nanmax(shown)
    first.set_ylim(lo - 0.05 * (hi - lo), hi + 0.3 * (hi - lo))
    fig.suptitle(
        f"{ARTEFACT.id}: EF one-way delay over time, BE payloads {' and '.join(map(str, pays))}"
        " B.\nErratum: the paper calls them one and two transmission units, but with IP = payload"
        f" + 28 both fit one {a['particle_bytes']}-B particle and coincide in distribution",
        fontsize=10.5,
    )
    return fig
