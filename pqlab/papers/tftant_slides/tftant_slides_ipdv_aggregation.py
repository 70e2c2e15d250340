"""TF-TANT slides, "EF aggregation and load: effect on ipdv": mean |IPDV| with 1 and 20 EF streams.

Slide "EF aggregation and load: effect on ipdv": mean |IPDV| with 1 and 20 EF streams at
600 kbit/s with congestion. The artefact's computation (:func:`compute`), claims
(:func:`claims`) and figure (:func:`figure`); the notebook
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
from .. import judge, kit, presets
from ..registry import Artefact
from ..stated import EF_FRAME_BYTES, EF_IP_BYTES, IPDV_EF_LOAD_BPS, PAPERS, transmission_unit_s
from .ef_split_runs import BE_TRAFFIC, ef_split_scenario
from .pq_streams_text import PAPER_MARKER, ci_text

__all__ = ["ARTEFACT", "compute", "claims", "figure", "IPDV_STREAMS",
           "ROUNDING_TOLERANCE", "NO_GROWTH_RATIO"]

ARTEFACT = Artefact(__name__, notebook="09_tftant_be_streams_and_aggregation")

#: Slide "effect on ipdv": the EF stream counts compared (at the EF load of 600 kbit/s).
IPDV_STREAMS = (1, 20)
#: A mean |IPDV| (units) below this is zero up to float rounding (no congestion, fixed phases).
ROUNDING_TOLERANCE = 1e-9
#: A ratio (and its 95 % CI's lower end) above this is growth.
NO_GROWTH_RATIO = 1


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
    "delay_gmd_s": {"units": "s", "long_name": "mean |difference| of two randomly paired delays (Gini)"},
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
    """Slide "EF aggregation and load: effect on ipdv": mean |IPDV| with 1 and 20 EF streams at 600 kbit/s.

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
        ``delay_mean``, ``delay_std``, ``delay_gmd`` (mean |D_i - D_j| of unrelated packets; transmission units),
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
        raise ValueError(f"be_traffic must be a sequence of {BE_TRAFFIC}, got {be_traffic!r}") from None
    if not cases or len(set(cases)) != len(cases):
        raise ValueError(f"be_traffic must hold distinct values of {BE_TRAFFIC}, got {be_traffic!r}")

    def point(be_traffic, n_streams):
        return ef_split_scenario(n_streams, load, be_traffic=be_traffic, n_ef_samples=n)

    raw = experiments.sweep(point, {"be_traffic": cases, "n_streams": counts}, seeds, measure=_ipdv_measure)
    sc = point(cases[0], counts[-1])
    unit_s = transmission_unit_s(sc.node)
    dims = ("be_traffic", "n_streams", "seed")
    u = {"units": "transmission units"}
    ds = xr.Dataset(
        {
            "ipdv_abs_mean": (dims, raw["ipdv_abs_mean_s"].values / unit_s, {**u, "long_name": "mean |IPDV|"}),
            "ipdv_std": (dims, raw["ipdv_std_s"].values / unit_s, {**u, "long_name": "std of the signed IPDV"}),
            "delay_mean": (dims, raw["delay_mean_s"].values / unit_s, {**u, "long_name": "mean one-way delay"}),
            "delay_std": (dims, raw["delay_std_s"].values / unit_s, {**u, "long_name": "std of the one-way delay"}),
            "delay_gmd": (dims, raw["delay_gmd_s"].values / unit_s,
                          {**u, "long_name": "mean |difference| of two unrelated delays (|IPDV| ceiling)"}),
            "loss_ratio": (dims, raw["loss_ratio"].values, {"units": "1", "long_name": "reference stream loss"}),
        },
        coords={
            "be_traffic": ("be_traffic", cases, {"long_name": "BE traffic (real = STAND-IN sizes)"}),
            "n_streams": ("n_streams", np.array(counts), {"units": "streams", "long_name": "EF streams"}),
            "seed": ("seed", np.array(seeds), {"units": "1", "long_name": "random seed"}),
        },
    )
    kit.add_mean_ci(ds, ("ipdv_abs_mean", "ipdv_std", "delay_mean", "delay_std", "delay_gmd", "loss_ratio"))
    art = ARTEFACT.id
    ds["paper_ipdv_abs_mean"] = ("n_streams", [kit.paper_value(art, f"mean_ipdv_{c}_stream{'s' if c > 1 else ''}")[0]
                                               for c in counts], {**u, "long_name": "TF-TANT slides: avg ipdv"})
    ds.attrs = kit.provenance(
        art, f"{art}: mean |IPDV| with 1 and 20 EF streams at 600 kbit/s with congestion "
        "(TF-TANT slides)", __name__, seeds, scenario=sc.to_json(), n_ef_samples=n, ef_load_bps=load,
        transmission_unit_s=unit_s, real_be_mean_bytes=presets.real_be_sizes().mean_bytes)
    return ds


def _spread_reason(ds: xr.Dataset, main: str, n_streams: int, paper: float) -> dict:
    """Why a mean |IPDV| is what it is: the spread bound next to the model's delay std, and the BE-size input.

    A mean |IPDV| ``m`` needs a delay standard deviation of at least ``m / 2``
    (:func:`pqlab.measure.analysis.min_delay_std_for_mean_ipdv`); the slides give no BE sizes, and
    with 1500-byte BE packets (where run) the value moves to the bracket's. Kind ``bound`` when
    the model's delay std is below the bound, else ``input``.
    """
    d = ds.sel(be_traffic=main, n_streams=n_streams)
    needed = min_delay_std_for_mean_ipdv(paper)
    facts = [judge.fact("paper", paper, "units"), judge.fact("needed", needed, "units"),
             judge.fact("std", float(d["delay_std_mean"]), "units"),
             judge.fact("ours", float(d["ipdv_abs_mean_mean"]), "units"),
             judge.fact("gmd", float(d["delay_gmd_mean"]), "units")]
    text = ("a mean |IPDV| of {paper} needs a delay std of at least {needed} (E|D_i - D_i-1| <= 2 std, any model); "
            "the model's delay std is {std} with STAND-IN BE, its mean |IPDV| {ours}, and two unrelated delays differ "
            "by {gmd} on average")
    if "mtu" in ds["be_traffic"].values and main != "mtu":
        m = ds.sel(be_traffic="mtu", n_streams=n_streams)
        facts += [judge.fact("mtu_ipdv", float(m["ipdv_abs_mean_mean"]), "units"),
                  judge.fact("mtu_std", float(m["delay_std_mean"]), "units")]
        text += ("; the slides give no BE sizes: with 1500-byte BE packets the mean |IPDV| is {mtu_ipdv} "
                 "(delay std {mtu_std})")
    return judge.reason("bound" if float(d["delay_std_mean"]) < needed else "input", text, facts)


def claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`compute`: mean |IPDV| per stream count, the increase."""
    art = ARTEFACT.id
    kit.check_artefact(ds, art)
    main = "real" if "real" in ds["be_traffic"].values else str(ds["be_traffic"].values[0])
    d = ds.sel(be_traffic=main)
    seeds = kit.seed_count(ds.sizes["seed"])
    counts = [int(c) for c in ds["n_streams"].values]
    unit = to_ms(ds.attrs["transmission_unit_s"])  # ms

    labels = {"mtu": "1500-byte BE", "none": "no BE"}

    def others(c) -> str:
        return "".join(f"; {labels[case]}: {float(ds['ipdv_abs_mean_mean'].sel(be_traffic=case, n_streams=c)):.2f}"
                       for case in ds["be_traffic"].values if case != main)

    rows = []
    for c in counts:
        key = f"mean_ipdv_{c}_stream{'s' if c > 1 else ''}"
        v, h = float(d["ipdv_abs_mean_mean"].sel(n_streams=c)), float(d["ipdv_abs_mean_ci"].sel(n_streams=c))
        paper = float(ds["paper_ipdv_abs_mean"].sel(n_streams=c))
        rows.append(kit.claim(art, key, v, "units",
                              f"mean |IPDV| of the reference stream, {c} EF stream(s) sharing "
                              f"{to_kbps(ds.attrs['ef_load_bps']):g} kbit/s, STAND-IN real BE ({seeds}): "
                              f"{ci_text(v, h)} units of {unit:.3f} ms{others(c)}",
                              reason=_spread_reason(ds, main, c, paper) if np.isfinite(paper) else None))
    if len(counts) >= 2:
        lo, hi = counts[0], counts[-1]
        ratio_runs = (d["ipdv_abs_mean"].sel(n_streams=hi) / d["ipdv_abs_mean"].sel(n_streams=lo)).values
        r, rh = (float(v) for v in mean_ci(ratio_runs))
        mtu = ""
        if "mtu" in ds["be_traffic"].values:
            m = ds["ipdv_abs_mean"].sel(be_traffic="mtu")
            mtu = f"; with 1500-byte BE {float(mean_ci((m.sel(n_streams=hi) / m.sel(n_streams=lo)).values)[0]):.2f}"
        gmd = float(d["delay_gmd_mean"].sel(n_streams=hi))
        m_lo, m_hi = (float(d["ipdv_abs_mean_mean"].sel(n_streams=c)) for c in (lo, hi))
        why = judge.reason(
            "mechanism",
            f"the {hi}-stream reference packets are {hi}x further apart and their mean |IPDV| ({{m_hi}}) is already "
            "{share} of the mean |difference| of two unrelated delays ({gmd}): consecutive packets see about "
            f"independent queues, so this delay distribution limits the ratio to about {{limit}}",
            [judge.fact("m_hi", m_hi, "units"), judge.fact("share", 100 * m_hi / gmd, "%"),
             judge.fact("gmd", gmd, "units"), judge.fact("limit", gmd / m_lo, "1")])
        rows.append(kit.claim(art, "mean_ipdv_ratio_20_to_1", r, "1",
                              f"mean |IPDV| with {hi} streams / with {lo}, STAND-IN real BE (per seed, then mean; "
                              f"{seeds}): {ci_text(r, rh)}; slide 6 / 2.5 = 2.4{mtu}", reason=why))
        none = ("none" in ds["be_traffic"].values
                and float(ds["ipdv_abs_mean_mean"].sel(be_traffic="none").max()) < ROUNDING_TOLERANCE)
        rows.append(kit.claim(art, "ipdv_grows_with_aggregation", None, "-",
                              f"mean |IPDV| with congestion (STAND-IN real BE) grows from {m_lo:.2f} ({lo} stream) "
                              f"to {m_hi:.2f} units ({hi} streams), ratio {ci_text(r, rh)}; "
                              + ("without congestion it is 0 for both (CBR streams of equal rates keep fixed phases)"
                                 if none else ""),
                              shape_ok=bool(r > NO_GROWTH_RATIO and (np.isnan(rh) or r - rh > NO_GROWTH_RATIO))))
    rows.append(kit.claim(art, "ef_load", to_kbps(ds.attrs["ef_load_bps"]), "kbit/s",
                          "EF load, frames, split equally over the streams; the priority queue policed at it"))
    rows.append(kit.claim(art, "transmission_unit", unit, "ms",
                          f"assumed: GLOBECOM'01's unit, the line time of the {EF_FRAME_BYTES}-byte EF frame (IP "
                          f"{EF_IP_BYTES} bytes, {PAPERS.atm_cells()} ATM cells at {PAPERS.line_text}); the slide "
                          "gives none"))
    return rows


def figure(ds: xr.Dataset):
    """Mean |IPDV| of the reference stream with 1 and 20 EF streams at 600 kbit/s, per BE traffic, and the slide's.

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
    names = {"real": "congestion, real STAND-IN BE", "mtu": "congestion, 1500-byte BE", "none": "no BE"}
    x = np.arange(counts.size)
    width = 0.8 / (len(cases) + 1)
    palette = {"real": "C3", "mtu": "C0", "none": "0.6"}
    tops, flat = [], []
    for k, case in enumerate(cases):
        d = ds.sel(be_traffic=case)
        pos = x + (k - len(cases) / 2) * width
        means, half = d["ipdv_abs_mean_mean"].values, kit.ci_half_widths(d["ipdv_abs_mean_ci"])
        colour = palette.get(case, f"C{k}")
        ax.bar(pos, means, width, yerr=half, capsize=3, color=colour,
               label=f"pqlab, {names.get(case, case)}")
        flat.append((pos, means, colour))
        top = means + half
        tops.append(top)
        for p, t, v in zip(pos, top, means):  # the value above its confidence bar, not across it
            ax.annotate(f"{v:.2f}", (p, t), xytext=(0, 4), textcoords="offset points",
                        ha="center", va="bottom", fontsize=8)
    paper = ds["paper_ipdv_abs_mean"].values
    ax.plot(x + (len(cases) / 2) * width, paper, label="slides: avg ipdv (with congestion)", **PAPER_MARKER)
    for xi, p in zip(x + (len(cases) / 2) * width, paper):
        if np.isfinite(p):
            ax.annotate(f"{p:g}", (xi, p), xytext=(0, 9), textcoords="offset points",
                        ha="center", va="bottom", fontsize=9)
    ax.set_xticks(x, [f"{int(c)} EF stream{'s' if c > 1 else ''}" for c in counts])
    ax.set_ylabel(f"mean |IPDV| (units of {to_ms(ds.attrs['transmission_unit_s']):.3f} ms, ASSUMED)")
    ax.set_xlabel(f"EF load {to_kbps(ds.attrs['ef_load_bps']):g} kbit/s split equally; IPDV of one stream")
    top = max(np.nanmax(paper), float(np.nanmax(tops))) * 1.25
    ax.set_ylim(0, top)  # every bar's confidence interval inside
    for pos, means, colour in flat:
        kit.mark_flat_bars(ax, pos, means, colour)
    ax.legend(fontsize=8.5, loc="upper left")
    ax.set_title(f"{ARTEFACT.id}: mean |IPDV| with 1 and 20 EF streams ({kit.seed_count(ds.sizes['seed'])}, "
                 "95% CI)", fontsize=10.5)
    kit.footer(fig, "STAND-IN BE (CAIDA AIX 1999 fit). ASSUMPTION: unit = GLOBECOM's EF transmission time, "
                    f"{to_ms(ds.attrs['transmission_unit_s']):.3f} ms (128-byte frame on ATM); not on the slide")
    return fig
