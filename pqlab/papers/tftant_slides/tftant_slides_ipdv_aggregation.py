"""TF-TANT slides, "EF aggregation and load: effect on ipdv": mean |IPDV| with 1 and 20 EF streams.

Slide "EF aggregation and load: effect on ipdv": mean |IPDV| with 1 and 20 EF streams at
600 kbit/s with congestion. The artefact's computation (:func:`compute`), the numbers its claims
quote (:func:`claim_values`) and figure (:func:`figure`); the notebook
``notebooks/09_tftant_be_streams_and_aggregation`` runs them. The runs are
:func:`pqlab.papers.tftant_slides.ef_split_runs.ef_split_scenario`; ``n_ef_samples`` counts
packets of the reference stream (flow 0), as in the papers.

"IPDV" of the slide's average is mean |IPDV| (the papers' "jitter"); its standard deviation is
reported for signed IPDV (RFC 3393). Units: IPDV and delays in transmission units (the line
time of the 128-byte EF frame, IP 110 bytes, 3 ATM cells: 0.636 ms; an ASSUMPTION, the slide
does not state it), loads in bit/s of frames (the claims: kbit/s).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...base._validate import check_choice, check_real
from ...base.units import to_kbps, to_ms
from ...measure import cache, experiments
from ...measure.analysis import mean_ci, min_delay_std_for_mean_ipdv
from ...node.scenario import Scenario
from .. import kit, presets
from ..registry import Artefact
from ..stated import EF_FRAME_BYTES, EF_IP_BYTES, IPDV_EF_LOAD_BPS, PAPERS, transmission_unit_s
from .ef_split_runs import BE_TRAFFIC, ef_split_scenario
from .pq_streams_text import PAPER_MARKER

__all__ = ["ARTEFACT", "compute", "claim_values", "figure", "IPDV_STREAMS"]

ARTEFACT = Artefact(__name__, notebook="09_tftant_be_streams_and_aggregation")

#: Slide "effect on ipdv": the EF stream counts compared (at the EF load of 600 kbit/s).
IPDV_STREAMS = (1, 20)


def _ipdv_measure(ds: xr.Dataset, sc: Scenario) -> dict:
    """:func:`pqlab.experiments.delay_summary` plus the mean |difference| of two unrelated delays.

    ``delay_gmd_s``: mean of ``|D_i - D_perm(i)|`` over a fixed random pairing of the reference
    packets (Gini's mean difference): what the mean |IPDV| would be if consecutive packets saw
    independent queue states, its ceiling when the packets are far apart.
    """
    out = experiments.delay_summary(ds, sc)
    d = experiments.reference_delay_values(ds, sc)
    d = d[np.isfinite(d)]
    pairing = np.random.default_rng(0).permutation(d.size)
    out["delay_gmd_s"] = float(np.mean(np.abs(d - d[pairing]))) if d.size > 1 else np.nan
    return out


_ipdv_measure.attrs = {
    **experiments.DELAY_STATISTICS_ATTRS,
    "delay_gmd_s": {
        "units": "s",
        "long_name": "mean |difference| of two randomly paired delays (Gini)",
    },
}
_ipdv_measure.reads_arrays = True  # type: ignore[attr-defined]  # experiments.measure_runs


@cache.artefact(ARTEFACT.id)
def compute(
    *,
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    n_streams=IPDV_STREAMS,
    ef_load_bps: float = IPDV_EF_LOAD_BPS,
    be_traffic=BE_TRAFFIC,
) -> xr.Dataset:
    """Slide "EF aggregation and load: effect on ipdv": mean |IPDV| with 1 and 20 EF streams at 600
    kbit/s.

    :func:`~pqlab.papers.tftant_slides.ef_split_runs.ef_split_scenario` for each stream count and
    BE traffic (STAND-IN real sizes: the claims; 1500-byte packets: a bracket for the page's
    unknown BE sizes; none: no congestion); IPDV of the reference stream (flow 0), in
    transmission units.

    Parameters
    ----------
    n_ef_samples : int
        Packets of the reference stream per run.
    seeds : sequence of int
        Seeds (>= 0, distinct).
    n_streams : sequence of int
        EF stream counts (>= 1, distinct).
    ef_load_bps : float
        EF load, bit/s of frames (> 0).
    be_traffic : sequence of {"real", "mtu", "none"}
        BE traffic cases.

    Returns
    -------
    xarray.Dataset
        Dims ``be_traffic``, ``n_streams``, ``seed``: ``ipdv_abs_mean``, ``ipdv_std``,
        ``delay_mean``, ``delay_std``, ``delay_gmd`` (mean |D_i - D_j| of unrelated packets;
        transmission units),
        ``loss_ratio`` (1), with ``*_mean``/``*_ci``;
        ``paper_ipdv_abs_mean`` (n_streams; units, NaN where the slide has none).
    """
    n = kit.check_n_ef_samples(n_ef_samples)
    seeds = kit.check_seeds(seeds)
    counts = sorted(kit.check_values("n_streams", n_streams, 1, integer=True))
    load = check_real("ef_load_bps", ef_load_bps, 0.0, strict_minimum=True)
    try:
        cases = [check_choice("be_traffic", b, BE_TRAFFIC) for b in be_traffic]
    except TypeError:
        raise ValueError(
            f"be_traffic must be a sequence of {BE_TRAFFIC}, got {be_traffic!r}"
        ) from None
    if not cases or len(set(cases)) != len(cases):
        raise ValueError(
            f"be_traffic must hold distinct values of {BE_TRAFFIC}, got {be_traffic!r}"
        )

    def point(be_traffic, n_streams):
        return ef_split_scenario(n_streams, load, be_traffic=be_traffic, n_ef_samples=n)

    raw = experiments.sweep(
        point, {"be_traffic": cases, "n_streams": counts}, seeds, measure=_ipdv_measure
    )
    sc = point(cases[0], counts[-1])
    unit_s = transmission_unit_s(sc.node)
    dims = ("be_traffic", "n_streams", "seed")
    u = {"units": "transmission units"}
    ds = xr.Dataset(
        {
            "ipdv_abs_mean": (
                dims,
                raw["ipdv_abs_mean_s"].values / unit_s,
                {**u, "long_name": "mean |IPDV|"},
            ),
            "ipdv_std": (
                dims,
                raw["ipdv_std_s"].values / unit_s,
                {**u, "long_name": "std of the signed IPDV"},
            ),
            "delay_mean": (
                dims,
                raw["delay_mean_s"].values / unit_s,
                {**u, "long_name": "mean one-way delay"},
            ),
            "delay_std": (
                dims,
                raw["delay_std_s"].values / unit_s,
                {**u, "long_name": "std of the one-way delay"},
            ),
            "delay_gmd": (
                dims,
                raw["delay_gmd_s"].values / unit_s,
                {**u, "long_name": "mean |difference| of two unrelated delays (|IPDV| ceiling)"},
            ),
            "loss_ratio": (
                dims,
                raw["loss_ratio"].values,
                {"units": "1", "long_name": "reference stream loss"},
            ),
        },
        coords={
            "be_traffic": (
                "be_traffic",
                cases,
                {"long_name": "BE traffic (real = STAND-IN sizes)"},
            ),
            "n_streams": (
                "n_streams",
                np.array(counts),
                {"units": "streams", "long_name": "EF streams"},
            ),
            "seed": ("seed", np.array(seeds), {"units": "1", "long_name": "random seed"}),
        },
    )
    kit.add_mean_ci(
        ds, ("ipdv_abs_mean", "ipdv_std", "delay_mean", "delay_std", "delay_gmd", "loss_ratio")
    )
    art = ARTEFACT.id
    ds["paper_ipdv_abs_mean"] = (
        "n_streams",
        [kit.paper_value(art, f"mean_ipdv_{c}_stream{'s' if c > 1 else ''}")[0] for c in counts],
        {**u, "long_name": "TF-TANT slides: avg ipdv"},
    )
    ds.attrs = kit.provenance(
        art,
        f"{art}: mean |IPDV| with 1 and 20 EF streams at 600 kbit/s with congestion "
        "(TF-TANT slides)",
        __name__,
        seeds,
        scenario=sc.to_json(),
        n_ef_samples=n,
        ef_load_bps=load,
        transmission_unit_s=unit_s,
        real_be_mean_bytes=presets.real_be_sizes().mean_bytes,
    )
    return claim_values(ds)


def claim_values(ds: xr.Dataset) -> xr.Dataset:
    """Add the numbers the claims quote (in place; returned), IPDV and delays in transmission units
    (``units``): per EF stream count ``c`` the mean |IPDV| of the main BE case (STAND-IN real BE
    where run; ``mean_ipdv_<c>``, its CI), the delay std and the mean difference of two unrelated
    delays, the delay std the slide's value needs (:func:`min_delay_std_for_mean_ipdv`) and whether
    ours lies below it, and the other BE cases' (``mtu_*``, ``none_*``; NaN where not run); the
    ratio of the most to the fewest streams (per seed, then mean; its CI and lower end, the
    1500-byte BE ratio), how far the many-stream mean |IPDV| reaches to the unrelated delays'
    difference (``share_of_gmd``, ``ratio_limit``), the EF load and the transmission unit (ms)."""
    kit.check_artefact(ds, ARTEFACT.id)
    cases = [str(c) for c in ds["be_traffic"].values]
    main = "real" if "real" in cases else cases[0]
    counts = [int(c) for c in ds["n_streams"].values]
    ds.attrs["seeds_text"] = kit.seed_count(ds.sizes["seed"])
    ds.attrs["line_text"] = PAPERS.line_text
    nan = float("nan")

    def at(name: str, case: str, c: int) -> float:
        return float(ds[name].sel(be_traffic=case, n_streams=c)) if case in cases else nan

    values = {
        "ef_load_kbps": (to_kbps(ds.attrs["ef_load_bps"]), "kbit/s", "EF load"),
        "transmission_unit_ms": (to_ms(ds.attrs["transmission_unit_s"]), "ms", "transmission unit"),
        "ef_frame": (EF_FRAME_BYTES, "bytes", "the EF frame of the unit"),
        "ef_ip": (EF_IP_BYTES, "bytes", "its IP packet"),
        "ef_cells": (PAPERS.atm_cells(), "cells", "its ATM cells"),
        "mtu_other": (
            "mtu" in cases and main != "mtu",
            "",
            "1500-byte BE run beside the main case",
        ),
        "none_other": ("none" in cases and main != "none", "", "no BE run beside the main case"),
        "mtu_run": ("mtu" in cases, "", "1500-byte BE run"),
        "none_ipdv_max": (
            (
                float(ds["ipdv_abs_mean_mean"].sel(be_traffic="none").max())
                if "none" in cases
                else nan
            ),
            "units",
            "largest mean |IPDV| without BE",
        ),
    }
    for c in counts:
        paper = float(ds["paper_ipdv_abs_mean"].sel(n_streams=c))
        needed = min_delay_std_for_mean_ipdv(paper)
        half = at("ipdv_abs_mean_ci", main, c)
        values.update(
            {
                f"mean_ipdv_{c}": (at("ipdv_abs_mean_mean", main, c), "units", "mean |IPDV|"),
                f"mean_ipdv_ci_{c}": (half, "units", "its 95 % CI half-width"),
                f"mean_ipdv_ci_known_{c}": (bool(np.isfinite(half)), "", "CI known"),
                f"delay_std_{c}": (at("delay_std_mean", main, c), "units", "delay std"),
                f"delay_gmd_{c}": (
                    at("delay_gmd_mean", main, c),
                    "units",
                    "mean |difference| of two unrelated delays",
                ),
                f"paper_known_{c}": (bool(np.isfinite(paper)), "", "the slide states the value"),
                f"needed_std_{c}": (needed, "units", "delay std the slide's mean |IPDV| needs"),
                f"std_below_needed_{c}": (
                    bool(at("delay_std_mean", main, c) < needed),
                    "",
                    "our delay std below what the slide's value needs",
                ),
                f"mtu_ipdv_{c}": (
                    at("ipdv_abs_mean_mean", "mtu", c),
                    "units",
                    "mean |IPDV|, 1500-byte BE",
                ),
                f"mtu_std_{c}": (
                    at("delay_std_mean", "mtu", c),
                    "units",
                    "delay std, 1500-byte BE",
                ),
                f"none_ipdv_{c}": (
                    at("ipdv_abs_mean_mean", "none", c),
                    "units",
                    "mean |IPDV|, no BE",
                ),
            }
        )
    lo, hi = counts[0], counts[-1]
    d = ds["ipdv_abs_mean"].sel(be_traffic=main)
    r, rh = (float(v) for v in mean_ci((d.sel(n_streams=hi) / d.sel(n_streams=lo)).values))
    mtu_ratio = nan
    if "mtu" in cases:
        m = ds["ipdv_abs_mean"].sel(be_traffic="mtu")
        mtu_ratio = float(mean_ci((m.sel(n_streams=hi) / m.sel(n_streams=lo)).values)[0])
    m_lo, m_hi = values[f"mean_ipdv_{lo}"][0], values[f"mean_ipdv_{hi}"][0]
    gmd = values[f"delay_gmd_{hi}"][0]
    values.update(
        {
            "streams_lo": (lo, "streams", "fewest EF streams"),
            "streams_hi": (hi, "streams", "most EF streams"),
            "mean_ipdv_lo": (m_lo, "units", "mean |IPDV| with the fewest streams"),
            "mean_ipdv_hi": (m_hi, "units", "mean |IPDV| with the most streams"),
            "delay_gmd_hi": (gmd, "units", "unrelated delays' mean difference, most streams"),
            "ratio": (r, "1", "mean |IPDV| with the most streams / with the fewest"),
            "ratio_ci": (rh, "1", "its 95 % CI half-width"),
            "ratio_ci_known": (bool(np.isfinite(rh)), "", "CI known"),
            "ratio_low": (r - rh if np.isfinite(rh) else r, "1", "the ratio's CI lower end"),
            "mtu_ratio": (mtu_ratio, "1", "the ratio with 1500-byte BE"),
            "share_of_gmd": (
                100 * m_hi / gmd,
                "%",
                "the many-stream mean |IPDV| / unrelated delays'",
            ),
            "ratio_limit": (gmd / m_lo, "1", "the ratio the delay distribution allows"),
        }
    )
    return kit.add_claim_values(ds, values)


def figure(ds: xr.Dataset):
    """Mean |IPDV| of the reference stream with 1 and 20 EF streams at 600 kbit/s, per BE traffic,
    and the slide's.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`compute`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    kit.check_artefact(ds, ARTEFACT.id)
    fig, ax = kit.subplots(figsize=(8.6, 5.2), footer=True)
    counts = ds["n_streams"].values
    cases = list(ds["be_traffic"].values)
    names = {
        "real": "congestion, real STAND-IN BE",
        "mtu": "congestion, 1500-byte BE",
        "none": "no BE",
    }
    x = np.arange(counts.size)
    width = 0.8 / (len(cases) + 1)
    palette = {"real": "C3", "mtu": "C0", "none": "0.6"}
    tops, flat = [], []
    for k, case in enumerate(cases):
        d = ds.sel(be_traffic=case)
        pos = x + (k - len(cases) / 2) * width
        means, half = d["ipdv_abs_mean_mean"].values, kit.ci_half_widths(d["ipdv_abs_mean_ci"])
        colour = palette.get(case, f"C{k}")
        ax.bar(
            pos,
            means,
            width,
            yerr=half,
            capsize=3,
            color=colour,
            label=f"pqlab, {names.get(case, case)}",
        )
        flat.append((pos, means, colour))
        top = means + half
        tops.append(top)
        for p, t, v in zip(pos, top, means):  # the value above its confidence bar, not across it
            ax.annotate(
                f"{v:.2f}",
                (p, t),
                xytext=(0, 4),
                textcoords="offset points",
                ha="center",
                va="bottom",
                fontsize=8,
            )
    paper = ds["paper_ipdv_abs_mean"].values
    ax.plot(
        x + (len(cases) / 2) * width,
        paper,
        label="slides: avg ipdv (with congestion)",
        **PAPER_MARKER,
    )
    for xi, p in zip(x + (len(cases) / 2) * width, paper):
        if np.isfinite(p):
            ax.annotate(
                f"{p:g}",
                (xi, p),
                xytext=(0, 9),
                textcoords="offset points",
                ha="center",
                va="bottom",
                fontsize=9,
            )
    ax.set_xticks(x, [f"{int(c)} EF stream{'s' if c > 1 else ''}" for c in counts])
    ax.set_ylabel(
        f"mean |IPDV| (units of {to_ms(ds.attrs['transmission_unit_s']):.3f} ms, ASSUMED)"
    )
    ax.set_xlabel(
        f"EF load {to_kbps(ds.attrs['ef_load_bps']):g} kbit/s split equally; IPDV of one stream"
    )
    top = max(np.nanmax(paper), float(np.nanmax(tops))) * 1.25
    ax.set_ylim(0, top)  # every bar's confidence interval inside
    for pos, means, colour in flat:
        kit.mark_flat_bars(ax, pos, means, colour)
    ax.legend(fontsize=8.5, loc="upper left")
    ax.set_title(
        f"{ARTEFACT.id}: mean |IPDV| with 1 and 20 EF streams ({kit.seed_count(ds.sizes['seed'])}, "
        "95% CI)",
        fontsize=10.5,
    )
    kit.footer(
        fig,
        "STAND-IN BE (CAIDA AIX 1999 fit). ASSUMPTION: unit = GLOBECOM's EF transmission time, "
        f"{to_ms(ds.attrs['transmission_unit_s']):.3f} ms (128-byte frame on ATM); not on the"
        " slide",
    )
    return fig
