"""TF-TANT slides, "Tx queue": delay and IPDV vs tx-ring-limit.

The artefact's computation (:func:`compute`), statistics (:func:`statistics`), claims
(:func:`claims`) and figure (:func:`figure`); the notebook ``notebooks/08_tftant_ring_and_star``
runs them, on the PQ-vs-WFQ test bed (:mod:`pqlab.papers.tftant_wfq.pq_vs_wfq_testbed`). The
Dataset is in SI units (times in seconds, rates in bit/s, sizes in bytes, the fit's slope in
s/particle; multiples of the BE transmission time in "BE tx times"); the claims state times in
ms (their statistics computed again from the converted per-seed values) and rates in kbit/s;
the figure draws ms.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import xarray as xr

from ...base._validate import check_choice, check_real
from ...base.numerics import line_fit
from ...measure import cache, experiments
from ...node.framing import particles_needed
from .. import judge, kit, presets
from ..registry import Artefact
from ..tftant_wfq.pq_vs_wfq_claims import (
    OVERLOAD_TEXT,
    RELATIVE_TOLERANCE,
    SAWTOOTH_TEXT,
    in_ms_be_tx,
    overload_facts,
    per_scheduler,
    sawtooth_facts,
)
from ..tftant_wfq.pq_vs_wfq_plots import COLORS, LABELS, ci, conditions, in_ms_for_axes, seeds_text
from ..tftant_wfq.pq_vs_wfq_testbed import (
    BE_TX,
    add_scalars,
    check_frames,
    config_scalars,
    measure,
    per_seed,
    rate_kbps,
)

__all__ = [
    "ARTEFACT",
    "compute",
    "statistics",
    "claims",
    "figure",
    "RING_LIMIT_PARTICLES",
    "SLOPE_FRACTION",
    "ACF_THRESHOLD",
    "MIN_PERIOD_PACKETS",
]

ARTEFACT = Artefact(__name__, notebook="08_tftant_ring_and_star")

#: tx-ring-limit values of the slides' ring test, particles.
RING_LIMIT_PARTICLES = tuple(range(1, 17))
#: The slope is above this fraction of one particle's line time per particle: "grows with the ring".
SLOPE_FRACTION = 0.5
#: An autocorrelation first peak above this counts as periodic: most of the delay's variance
#: repeats.
ACF_THRESHOLD = 0.5
#: An autocorrelation first peak at this lag or later (EF packets) is a period; lag 1 is only
#: smoothness.
MIN_PERIOD_PACKETS = 2


def _fit(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Least-squares line: slope, intercept, R^2."""
    slope, intercept = line_fit(x, y)
    res = y - (slope * x + intercept)
    tot = float(((y - y.mean()) ** 2).sum())
    return (
        float(slope),
        float(intercept),
        (1.0 - float((res**2).sum()) / tot) if tot > 0 else math.nan,
    )


def _check_schedulers(schedulers) -> list[str]:
    try:
        out = list(schedulers) if not isinstance(schedulers, str) else [schedulers]
    except TypeError:
        raise ValueError(
            f"schedulers must be a sequence of 'pq' and 'wfq', got {schedulers!r}"
        ) from None
    if not out or len(set(out)) != len(out):
        raise ValueError(
            f"schedulers must hold distinct values of 'pq' and 'wfq', got {schedulers!r}"
        )
    for s in out:
        check_choice("schedulers", s, presets.TFTANT_SCHEDULERS)
    return out


@cache.artefact(ARTEFACT.id)
def compute(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    ring_limit_particles=RING_LIMIT_PARTICLES,
    ef_frame_bytes: int = 1024,
    ef_service_rate_bps: float = presets.TFTANT_EF_RATE_BPS,
    schedulers=presets.TFTANT_SCHEDULERS,
) -> xr.Dataset:
    """TF-TANT slides, "Tx queue": EF one-way delay and IPDV vs tx-ring-limit (1024 bytes, with BE).

    The slides' conditions: EF 1024-byte frames at 300 kbit/s, queue limit 10,
    "bandwidth = 300 Kbps" (read as the EF service rate: WFQ weight / PQ policing
    rate), BE traffic; both schedulers. A line is fitted to the mean delay vs the ring
    limit per scheduler.

    Parameters
    ----------
    n_ef_samples : int
        EF packets per run (>= 10).
    seeds : sequence of int
        Seeds (>= 0, distinct).
    ring_limit_particles : sequence of int
        tx-ring-limit values, particles (>= 1, at least 3 distinct): the
        ``ring_limit_particles`` of :func:`pqlab.scenarios.pq_vs_wfq`.
    ef_frame_bytes : int
        EF frame size, bytes.
    ef_service_rate_bps : float
        EF service rate, bit/s (the slides: 300 kbit/s).
    schedulers : sequence of {"pq", "wfq"}
        Schedulers of the EF queue.

    Returns
    -------
    xarray.Dataset
        Dims ``scheduler``, ``ring_limit_particles``, ``seed``: ``delay``, ``ipdv``, ``ipdv_max``,
        ``ef_wait`` (s), ``loss``, ``acf_peak_lag`` (EF packets), ``acf_peak``; means and CIs
        over seeds; per scheduler the fit ``slope`` (s/particle), ``intercept`` (s),
        ``r2``; scalars of the test conditions (SI units).
    """
    n = kit.check_n_ef_samples(n_ef_samples, 10, 100_000_000)
    seeds = kit.check_seeds(seeds)
    rings = sorted(kit.check_values("ring_limit_particles", ring_limit_particles, 1, integer=True))
    if len(rings) < 3:
        raise ValueError(
            "ring_limit_particles must hold at least 3 distinct values to fit a line, got"
            f" {rings!r}"
        )
    frame = check_frames("ef_frame_bytes", [ef_frame_bytes])[0]
    rate = check_real("ef_service_rate_bps", ef_service_rate_bps, 0.0, strict_minimum=True)
    scheds = _check_schedulers(schedulers)
    make = functools.partial(
        presets.pq_vs_wfq, ef_frame_bytes=frame, ef_service_rate_bps=rate, n_ef_samples=n
    )
    raw = experiments.sweep(
        make, {"scheduler": scheds, "ring_limit_particles": rings}, seeds, measure=measure
    )
    dims = ("scheduler", "ring_limit_particles", "seed")
    ds = xr.Dataset(
        {
            "delay": per_seed(raw, "delay_mean_s", "s", "mean EF one-way delay", dims),
            "ipdv": per_seed(raw, "ipdv_abs_mean_s", "s", "mean |IPDV|", dims),
            "ipdv_max": per_seed(raw, "ipdv_abs_max_s", "s", "largest |IPDV|", dims),
            "ef_wait": per_seed(raw, "ef_wait_mean_s", "s", "mean EF wait in the EF queue", dims),
            "loss": per_seed(raw, "loss_ratio", "1", "EF loss ratio", dims),
            "acf_peak_lag": per_seed(
                raw,
                "acf_peak_lag",
                "EF packets",
                "first autocorrelation peak of the delay series (-1: none)",
                dims,
            ),
            "acf_peak": per_seed(raw, "acf_peak", "1", "autocorrelation at the first peak", dims),
        },
        coords={
            "scheduler": ("scheduler", scheds, {"long_name": "EF scheduler"}),
            "ring_limit_particles": (
                "ring_limit_particles",
                rings,
                {"units": "particles", "long_name": "tx-ring-limit"},
            ),
            "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"}),
        },
    )
    node = presets.tftant_node("wfq", ef_service_rate_bps=rate)
    test_conditions = config_scalars(node, rate)
    del test_conditions["ring_limit_particles"]  # swept here: the dimension of that name
    add_scalars(ds, test_conditions)
    be_particles = particles_needed(presets.TFTANT_BE_IP_BYTES, node.particle_bytes)
    add_scalars(
        ds,
        {
            "be_particles": (be_particles, "1", "ring particles per BE packet"),
            "ef_frame_bytes": (frame, "bytes", "EF frame size"),
        },
    )
    ds.attrs = kit.provenance(
        ARTEFACT.id,
        f"{ARTEFACT.id}: EF one-way delay and IPDV vs tx-ring-limit (TF-TANT slides, Tx queue)",
        __name__,
        seeds,
        n_ef_samples=n,
    )
    return statistics(ds)


def statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`compute`'s statistics to its per-seed ``delay`` and ``ipdv`` (in place; returned).

    Means and CIs over seeds and, per scheduler, the least-squares line of the mean
    delay vs the ring limit (``slope`` per particle, ``intercept``, ``r2``), in the time
    unit of the Dataset (s; the claims' ms through :func:`pqlab.papers.kit.statistics_in_ms`).
    """
    unit = ds["delay"].attrs["units"]
    kit.add_mean_ci(ds, ["delay", "ipdv"])
    rings = ds["ring_limit_particles"].values.astype(float)
    scheds = list(ds["scheduler"].values)
    fits = np.array([_fit(rings, ds["delay_mean"].sel(scheduler=s).values) for s in scheds])
    columns = (
        ("slope", f"{unit}/particle", "fitted delay increase per ring particle"),
        ("intercept", unit, "fitted delay at a ring of 0 particles"),
        ("r2", "1", "R^2 of the linear fit"),
    )
    for k, (name, units, long_name) in enumerate(columns):
        ds[name] = ("scheduler", fits[:, k], {"units": units, "long_name": long_name})
    return ds


def claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`compute`: delay proportional to the ring (the ratio test), IPDV
    independent of it."""
    art = ARTEFACT.id
    ds, be_tx = in_ms_be_tx(ds, art, statistics)
    scheds = list(ds["scheduler"].values)
    rings = ds["ring_limit_particles"].values
    per_particle = be_tx / float(ds.be_particles)
    d = ds["delay_mean"]
    fit = "; ".join(
        f"{s.upper()} {float(ds.slope.sel(scheduler=s)):.3f} ms/particle, R^2"
        f" {float(ds.r2.sel(scheduler=s)):.3f},"
        f" {float(d.sel(scheduler=s).min()):.1f}..{float(d.sel(scheduler=s).max()):.1f} ms, EF loss"
        f" {float(ds['loss'].sel(scheduler=s).max()):.3f}"
        for s in scheds
    )
    lo, hi = float(rings.min()), float(rings.max())
    ratios = {
        s: float(
            d.sel(scheduler=s, ring_limit_particles=hi)
            / d.sel(scheduler=s, ring_limit_particles=lo)
        )
        for s in scheds
    }
    proportional = all(judge.within(ratios[s], hi / lo) for s in scheds)
    why = None
    if not proportional:
        s = next(x for x in scheds if not judge.within(ratios[x], hi / lo))
        intercept = float(ds.intercept.sel(scheduler=s))
        why = judge.reason(
            "mechanism",
            "the mean delay grows with the ring as a line of slope {slope} (a BE packet takes"
            " {be_particles} particles: one BE tx time every {be_particles} particles) on an"
            " intercept of {intercept}, {intercept_share} of the delay at a ring of {ring_max}:"
            " delay(ring {ring_max}) / delay(ring {ring_min}) = {delay_ratio}, where proportional"
            " needs {ring_ratio}",
            [
                judge.fact("slope", float(ds.slope.sel(scheduler=s)), "ms/particle"),
                judge.fact("be_particles", float(ds.be_particles), ""),
                judge.fact("intercept", intercept, "ms"),
                judge.fact(
                    "intercept_share",
                    intercept / float(d.sel(scheduler=s, ring_limit_particles=hi)),
                    "",
                ),
                judge.fact("ring_max", hi, "particles"),
                judge.fact("ring_min", lo, "particles"),
                judge.fact("delay_ratio", ratios[s], ""),
                judge.fact("ring_ratio", hi / lo, ""),
            ],
        )
    rows = [
        kit.claim(
            art,
            "delay_proportional_to_ring",
            None,
            "-",
            f"rings {int(lo)}..{int(hi)} particles: {fit}; proportional read as delay(ring"
            f" {int(hi)}) / delay(ring {int(lo)}) within {judge.TOLERANCE_PERCENT:g} % of"
            f" {hi / lo:g}: "
            + ", ".join(f"{s.upper()} {ratios[s]:.2f}" for s in scheds)
            + f"; a BE packet of {int(ds.be_ip_bytes)} bytes takes {int(ds.be_particles)}"
            " particles "
            f"({per_particle:.3f} ms/particle)",
            shape_ok=proportional,
            reason=why,
        )
    ]
    if "pq" in scheds:
        dp = d.sel(scheduler="pq")
        ratio = float(dp.max() / dp.min())
        rows.append(
            kit.claim(
                art,
                "delay_ratio_512_256",
                None,
                "-",
                "'1-way delay(512 by) = 32 * 1-way delay(256 kby)' cannot be parsed as stated (no"
                " 512-byte or 256-kbyte setting of the test is defined and 32x matches no ratio we"
                f" can form); ours, PQ: delay(ring {int(rings.max())}) / delay(ring"
                f" {int(rings.min())}) = {ratio:.2f}",
            )
        )
    ip = ds["ipdv_mean"]
    spread = {s: float(ip.sel(scheduler=s).max() - ip.sel(scheduler=s).min()) for s in scheds}
    rows.append(
        kit.claim(
            art,
            "ipdv_independent_of_ring",
            None,
            "-",
            "mean |IPDV| over the rings: "
            + "; ".join(
                f"{s.upper()} {float(ip.sel(scheduler=s).mean()):.3f} ms, range {spread[s]:.3f} ms"
                for s in scheds
            ),
            shape_ok=all(
                spread[s] <= RELATIVE_TOLERANCE * float(ip.sel(scheduler=s).mean()) for s in scheds
            ),
        )
    )
    first = scheds[0]
    # the slides file the tx-ring test under WFQ configuration ("bandwidth=300Kbps"): the quantity
    # is WFQ's,
    # the same one the test-bed model computes (pqlab.papers.testbed_eval.ring_max_ipdv)
    slides = "wfq" if "wfq" in scheds else first
    mx = float(ds["ipdv_max"].sel(scheduler=slides).max()) / be_tx
    frame, ef_rate = int(ds.ef_frame_bytes), float(ds.ef_rate)
    loss = float(ds["loss"].sel(scheduler=slides).max())
    saw = (
        judge.reason(
            "mechanism", SAWTOOTH_TEXT + OVERLOAD_TEXT, overload_facts(frame, ef_rate, loss)
        )
        if loss > 0
        else judge.reason("arithmetic", SAWTOOTH_TEXT, sawtooth_facts(frame, ef_rate))
    )
    rows.append(
        kit.claim(
            art,
            "max_ipdv_one_be_tx",
            mx,
            BE_TX,
            f"largest |IPDV| over rings and seeds, {slides.upper()} (the slides' WFQ test, 300"
            f" kbit/s): {mx * be_tx:.3f} ms; per scheduler, BE tx times: "
            + ", ".join(
                f"{s.upper()} {float(ds['ipdv_max'].sel(scheduler=s).max()) / be_tx:.3f}"
                for s in scheds
            ),
            reason=saw,
        )
    )
    lag = ds["acf_peak_lag"].sel(scheduler=first)
    peak = ds["acf_peak"].sel(scheduler=first)
    periodic = bool((lag >= MIN_PERIOD_PACKETS).all() and (peak > ACF_THRESHOLD).all())
    rows.append(
        kit.claim(
            art,
            "periodicity_one_stream_per_phb",
            None,
            "-",
            f"one CBR EF and one CBR BE stream, {first.upper()}: the delay series' autocorrelation"
            f" peaks first at lag {int(lag.min())}..{int(lag.max())} EF packets, >="
            f" {float(peak.min()):.2f} in every run",
            shape_ok=periodic,
        )
    )
    if len(scheds) > 1:
        rows.append(
            kit.claim(
                art,
                "pq_and_wfq_affected_by_tx_queue",
                None,
                "-",
                "the slides (WFQ vs PQ): slopes "
                + ", ".join(
                    f"{s.upper()} {float(ds.slope.sel(scheduler=s)):.3f} ms/particle"
                    for s in scheds
                )
                + "; under WFQ at 300 kbit/s the EF queue is also overloaded (see"
                " tftant_slides_star, STAR = 1)",
                shape_ok=bool((ds.slope > SLOPE_FRACTION * per_particle).all()),
            )
        )
    first_q = "pq" if "pq" in scheds else first
    rows += [
        kit.claim(
            art,
            "ef_frame_size",
            float(ds.ef_frame_bytes),
            "bytes",
            f"EF frames (IP {presets.ef_ip_bytes(int(ds.ef_frame_bytes))} bytes) at "
            f"{rate_kbps(ds, 'ef_rate'):g} kbit/s",
        ),
        kit.claim(
            art,
            "ef_service_rate",
            rate_kbps(ds, "ef_service_rate"),
            "kbit/s",
            "'bandwidth=300Kbps' read as the EF service rate: WFQ weight (BE: the remaining "
            f"{rate_kbps(ds, 'be_weight'):g} kbit/s) or PQ policing rate; EF loss "
            + ", ".join(
                f"{s.upper()} {float(ds['loss'].sel(scheduler=s).max()):.3f}" for s in scheds
            ),
        ),
        kit.claim(
            art,
            "ef_queue_limit",
            float(ds.ef_queue_limit),
            "packets",
            f"EF queue limit; mean EF-queue wait, {first_q.upper()}: "
            f"{float(ds['ef_wait'].sel(scheduler=first_q).mean()):.3f} ms",
        ),
    ]
    rows += per_scheduler(
        art,
        "slope_{s}",
        lambda s: float(ds.slope.sel(scheduler=s)),
        "ms/particle",
        lambda s: (
            f"least-squares slope of the mean delay vs tx-ring-limit, {s.upper()}, R^2 "
            f"{float(ds.r2.sel(scheduler=s)):.4f}"
        ),
        scheds,
    )
    return rows


def figure(ds: xr.Dataset):
    """Slides, "Tx queue": mean delay vs tx-ring-limit with the fitted line per scheduler, and IPDV.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`compute`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    ds = in_ms_for_axes(kit.check_artefact(ds, ARTEFACT.id))
    scheds = list(ds["scheduler"].values)
    fig, axes = kit.subplots(
        1, len(scheds) + 1, figsize=(4.8 * (len(scheds) + 1), 4.8), footer=True, squeeze=False
    )
    axes = axes[0]
    ring = ds["ring_limit_particles"].values.astype(float)
    be_tx = float(ds.be_tx_time)
    for ax, s in zip(axes, scheds):
        ax.errorbar(
            ring,
            ds["delay_mean"].sel(scheduler=s),
            yerr=ci(ds["delay_ci"].sel(scheduler=s)),
            fmt="o",
            color=COLORS[s],
            capsize=3,
            label=f"pqlab, {LABELS[s]}",
        )
        slope, icpt, r2 = (float(ds[v].sel(scheduler=s)) for v in ("slope", "intercept", "r2"))
        ax.plot(
            ring,
            slope * ring + icpt,
            "--",
            color="0.3",
            label=f"fit: {slope:.2f} ms/particle + {icpt:.1f} ms, $R^2$ = {r2:.3f}",
        )
        loss = float(ds["loss"].sel(scheduler=s).max())
        extra = f" (EF overloaded: loss {loss:.1%})" if loss > 0 else ""
        ax.set_title(
            f"{LABELS[s]}, EF service rate {rate_kbps(ds, 'ef_service_rate'):g} kbit/s{extra}",
            fontsize=9.5,
        )
        ax.set_xlabel("tx-ring-limit (particles of 512 bytes)")
        ax.set_ylabel("mean EF one-way delay (ms)")
        ax.legend(
            loc="upper left",
            fontsize=8.5,
            title="slides: 'proportional to the tx queue size'",
            title_fontsize=8,
        )
    ix = axes[-1]
    for s in scheds:
        ix.errorbar(
            ring,
            ds["ipdv_mean"].sel(scheduler=s),
            yerr=ci(ds["ipdv_ci"].sel(scheduler=s)),
            fmt="o-",
            ms=4,
            color=COLORS[s],
            label=f"{LABELS[s]}: mean |IPDV|",
        )
        ix.plot(
            ring,
            ds["ipdv_max"].sel(scheduler=s).max("seed"),
            "^:",
            ms=5,
            color=COLORS[s],
            label=f"{LABELS[s]}: largest |IPDV|",
        )
    ix.axhline(
        be_tx,
        color="black",
        ls="--",
        lw=1.2,
        label=f"slides: max IPDV = 1 BE tx time ({be_tx:.2f} ms)",
    )
    ix.set_ylim(0, 1.5 * max(be_tx, float(ds["ipdv_max"].max())))
    ix.set_xlabel("tx-ring-limit (particles of 512 bytes)")
    ix.set_ylabel("IPDV (ms)")
    ix.legend(loc="upper left", fontsize=8)
    ix.set_title("IPDV vs tx-ring-limit ('independent of the tx queue size')", fontsize=9.5)
    fig.suptitle(
        f"{ARTEFACT.id}: EF one-way delay and IPDV vs tx-ring-limit, {int(ds.ef_frame_bytes)}-byte"
        " EF frames, with BE (TF-TANT slides, Tx queue)",
        fontsize=11,
    )
    kit.footer(
        fig,
        f"{conditions(ds, ring=False)}; a BE packet takes "
        f"{int(ds.be_particles)} particles; {seeds_text(ds)}",
    )
    return fig
