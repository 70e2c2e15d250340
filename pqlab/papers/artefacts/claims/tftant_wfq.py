"""Claims on the TF-TANT PQ-vs-WFQ page and the slides' tx-ring, STAR and no-BE tests.

The data of :mod:`pqlab.papers.artefacts.tftant_wfq` judged against the papers: one
``<artefact id>_claims(data)`` per artefact, returning claim records
(:func:`pqlab.papers.artefacts._common.claim`).

The Datasets are in SI units; each claim function first converts the times to the
sources' milliseconds and computes the artefact's statistics again from the converted
values (:func:`pqlab.papers.artefacts._common.statistics_in_ms` with the artefact's function of
:data:`pqlab.papers.artefacts.tftant_wfq.STATISTICS`), so every time below is in ms; rates are
stated in kbit/s through :func:`pqlab.base.units.to_kbps`.
"""

from __future__ import annotations

import math

import numpy as np
import xarray as xr

from ... import presets
from ....base.units import to_kbps, to_ms
from .._common import check_artefact, claim, paper_value, statistics_in_ms
from ..tftant_wfq import (
    BE_TX,
    EQUIVALENT_BE_TX,
    MTU_FRAME_BYTES,
    PAPER_STAR_PLATEAU,
    SOURCE_FRAME_SIZES,
    STATISTICS,
    be_tag_steps,
    beat_slip_s,
    wfq_tag_s,
)

__all__ = [
    "tftant_wfq_fig1_claims",
    "tftant_wfq_fig5_claims",
    "tftant_wfq_fig2_4_claims",
    "tftant_wfq_fig6_7_claims",
    "tftant_slides_ring_claims",
    "tftant_slides_star_claims",
    "tftant_slides_no_be_claims",
]

# Verdict thresholds: a paper's qualitative statement holds when ...
#: ... a ratio of BE tx times is within this of an integer ("a multiple of the BE transmission time").
INTEGER_TOLERANCE = 0.1
#: ... the WFQ - PQ mean |IPDV| spans more than this over the sizes, ms ("depends on the size": beyond noise).
IPDV_GAIN_RANGE_MS = 0.1
#: ... the PQ and WFQ delay series correlate at least this well ("the same shape").
SAME_SHAPE_CORRELATION = 0.9
#: ... a quantity stays within this fraction of its reference ("constant", "one BE tx time", "independent").
RELATIVE_TOLERANCE = 0.05
#: ... at least this share of the WFQ - PQ difference is EF-queue wait ("dominates").
DOMINANT_SHARE = 0.9
#: ... two peak heights differ by at most this fraction of the larger ("the same height").
SAME_HEIGHT_TOLERANCE = 0.1
#: ... a least-squares line explains at least this share of the variance ("grows linearly").
LINEAR_R2 = 0.95
#: ... the slope is above this fraction of one particle's line time per particle ("grows with the ring").
SLOPE_FRACTION = 0.5
#: An autocorrelation first peak above this counts as periodic: most of the delay's variance repeats.
ACF_THRESHOLD = 0.5
#: The slides' "PQ and WFQ equivalent for pack size <= 256 by": frames up to this size are small, bytes.
SMALL_FRAME_BYTES = 256
#: The page's "PQ and WFQ equivalent up to 512 bytes": the frame size that statement covers, bytes.
PAGE_EQUIVALENT_FRAME_BYTES = 512
#: The page's large frame besides the MTU (Fig. 7's caption), bytes.
PAGE_LARGE_FRAME_BYTES = 1024
#: The slides' small frames, said to have the higher mean |IPDV|, bytes.
SLIDES_SMALL_FRAMES_BYTES = (128, 256)
#: ... a largest |IPDV| above this fraction of one BE tx time is "one BE tx time" (and at most one).
MIN_BE_TX_FRACTION = 0.5
#: ... an autocorrelation first peak at this lag or later (EF packets) is a period; lag 1 is only smoothness.
MIN_PERIOD_PACKETS = 2
#: Float rounding spared when two computed values (BE tx times, shares) are compared for equality.
ROUNDING_TOLERANCE = 1e-9
#: Float rounding spared when two delays in ms are compared ("lower", "grows").
MS_ROUNDING_TOLERANCE = 1e-6


def _in_ms(ds: xr.Dataset, artefact: str) -> xr.Dataset:
    """The Dataset of ``artefact`` with its times in ms and its statistics computed from the ms values."""
    return statistics_in_ms(check_artefact(ds, artefact), STATISTICS[artefact])


def _in_ms_be_tx(ds: xr.Dataset, artefact: str) -> tuple[xr.Dataset, float]:
    """:func:`_in_ms` and the BE transmission time (ms) its claims count in."""
    ds = _in_ms(ds, artefact)
    return ds, float(ds.be_tx_time)


def _kbps(ds: xr.Dataset, name: str) -> float:
    """A rate of the Dataset (bit/s) in kbit/s."""
    return float(to_kbps(ds[name]))


def _within_one_be_tx(value: float) -> bool:
    """Whether a largest |IPDV| in BE tx times is more than half of one and at most one (rounding spared)."""
    return MIN_BE_TX_FRACTION < value <= 1.0 + ROUNDING_TOLERANCE


def _per_scheduler(art: str, quantity: str, value, unit: str, note,
                   schedulers=presets.TFTANT_SCHEDULERS) -> list[dict]:
    """One claim per scheduler ``s``: quantity ``quantity.format(s=s)``, ``value(s)`` in ``unit``, ``note(s)``."""
    return [claim(art, quantity.format(s=s), value(s), unit, note(s)) for s in schedulers]


def _at(da: xr.DataArray, frame: int) -> float:
    return float(da.sel(ef_frame_bytes=frame)) if frame in da["ef_frame_bytes"].values else math.nan


def _list(frames, values, fmt="{:.2f}") -> str:
    return ", ".join(f"{float(f):g}: {fmt.format(v)}" for f, v in zip(frames, values))


def tftant_wfq_fig1_claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`tftant_wfq_fig1`: PQ below WFQ, equivalence for small frames, the gain."""
    art = "tftant_wfq_fig1"
    ds, be_tx = _in_ms_be_tx(ds, art)
    frames = ds["ef_frame_bytes"].values
    pq, wfq = ds["delay_mean"].sel(scheduler="pq"), ds["delay_mean"].sel(scheduler="wfq")
    gap, gap_be, gap_ci = ds["gap_mean"], ds["gap_be_tx"], np.nan_to_num(ds["gap_ci"].values)
    tol = MS_ROUNDING_TOLERANCE + gap_ci
    rate_bps, be_weight_bps = float(ds.ef_service_rate), float(ds.be_weight)
    ip_512 = presets.ef_ip_bytes(PAGE_EQUIVALENT_FRAME_BYTES)
    be_tag_ms = to_ms(wfq_tag_s(float(ds.be_ip_bytes), be_weight_bps))

    def ef_tag_ms(ip_bytes: int) -> float:
        return to_ms(wfq_tag_s(ip_bytes, rate_bps))
    lower = gap.values >= -tol
    rows = [claim(art, "pq_always_lower", None, "-",
                  f"mean delay PQ <= WFQ at all {frames.size} frame sizes 64..1518 "
                  f"({int((gap.values > tol).sum())} lower, {int((np.abs(gap.values) <= tol).sum())} equal); "
                  f"WFQ - PQ in BE tx times ({be_tx:.3f} ms): {_list(frames, gap_be.values)}",
                  shape_ok=bool(lower.all()))]
    for quantity, upto, where in (("equivalent_up_to_512", PAGE_EQUIVALENT_FRAME_BYTES, "the page"),
                                  ("equivalent_up_to_256", SMALL_FRAME_BYTES, "the slides")):
        small = frames <= upto
        worst = float(np.abs(gap_be.values[small]).max()) if small.any() else math.nan
        rows.append(claim(
            art, quantity, None, "-",
            f"{where}: WFQ - PQ for frames <= {upto} bytes, BE tx times: {_list(frames[small], gap_be.values[small])}; "
            f"'equivalent' read as below {EQUIVALENT_BE_TX} BE tx (no extra BE packet ahead on average): largest "
            f"{worst:.2f}" + ("" if worst < EQUIVALENT_BE_TX else
                              f"; above 256 bytes an EF finish tag (at 512 bytes: {ip_512} x 8 / "
                              f"{_kbps(ds, 'ef_service_rate'):g} kbit/s = {ef_tag_ms(ip_512):.1f} ms) "
                              f"exceeds one BE tag step ({be_tag_ms:.1f} ms), "
                              f"so a queued BE packet may go first"),
            shape_ok=bool(small.any() and worst < EQUIVALENT_BE_TX)))
    g64 = _at(gap_be, 64)
    rows.append(claim(art, "equal_at_64", None, "-",
                      f"WFQ - PQ at 64-byte frames: {_at(gap, 64):.3f} ms = {g64:.2f} BE tx times "
                      f"(PQ {_at(pq, 64):.2f} ms, WFQ {_at(wfq, 64):.2f} ms)",
                      shape_ok=bool(np.isfinite(g64) and abs(g64) < EQUIVALENT_BE_TX)))
    mtu = MTU_FRAME_BYTES
    g_mtu, paper_gain = _at(gap, mtu), paper_value(art, "max_gain_mtu")[0]  # ms
    argmax = int(frames[int(np.nanargmax(gap.values))])
    rows.append(claim(
        art, "max_gain_mtu", g_mtu, "ms",
        f"WFQ - PQ at {mtu}-byte frames (IP 1500): {g_mtu:.2f} ms = {g_mtu / be_tx:.2f} BE tx times "
        f"(PQ {_at(pq, mtu):.2f}, WFQ {_at(wfq, mtu):.2f} ms, mean over {ds.sizes['seed']} seed(s)); the page's "
        f"{paper_gain:g} ms = {paper_gain / be_tx:.2f} of our BE tx times; the largest gain over the sweep is at "
        f"{argmax} bytes", shape_ok=argmax == mtu))
    for size in (PAGE_LARGE_FRAME_BYTES, mtu):
        v = _at(gap_be, size)
        paper = float(ds[f"paper_gap_{size}"])
        steps = be_tag_steps(presets.ef_ip_bytes(size), rate_bps, float(ds.be_ip_bytes), be_weight_bps)
        rows.append(claim(
            art, f"gap_{size}_be_tx", v, BE_TX,
            f"(WFQ - PQ) / BE tx time at {size} bytes = {_at(gap, size):.2f} / {be_tx:.3f} ms: an EF finish tag of "
            f"{presets.ef_ip_bytes(size)} x 8 / {_kbps(ds, 'ef_service_rate'):g} kbit/s = "
            f"{ef_tag_ms(presets.ef_ip_bytes(size)):.1f} ms above the virtual time spans "
            f"{steps:.2f}"
            f" BE tag steps of {be_tag_ms:.1f} ms: the queued BE packets with "
            f"smaller tags go first (ties go to the EF queue, index 0); paper ~{paper:g}"))
    large = [f for f in (PAGE_LARGE_FRAME_BYTES, mtu) if f in frames]
    frac = [abs(_at(gap_be, f) - round(_at(gap_be, f))) for f in large]
    between = [f for f in frames if PAGE_LARGE_FRAME_BYTES < f < mtu]
    rows.append(claim(
        art, "gap_multiple_of_be_tx", None, "-",
        f"at the page's large sizes {large}: {', '.join(f'{_at(gap_be, f):.2f}' for f in large)} BE tx times "
        f"(within {INTEGER_TOLERANCE:g} of an integer: {all(x <= INTEGER_TOLERANCE for x in frac)}); "
        f"in between our sweep gives "
        f"{_list(between, [_at(gap_be, f) for f in between])}: a mean over EF packets that wait n or n + 1 BE packets",
        shape_ok=bool(large) and all(x <= INTEGER_TOLERANCE for x in frac)))
    small, big = frames <= SMALL_FRAME_BYTES, frames > SMALL_FRAME_BYTES
    rows.append(claim(
        art, "gain_for_larger_packets", None, "-",
        f"the slides: gain only for larger packets; ours: largest gain at <= {SMALL_FRAME_BYTES} bytes "
        f"{float(gap.values[small].max()):.2f} ms, smallest above {float(gap.values[big].min()):.2f} ms",
        shape_ok=bool(small.any() and big.any() and gap.values[big].min() > gap.values[small].max())))
    # the test conditions
    gr = ds["gap_reading_1600k"].values - ds["gap_reading_2000k"].values
    rows += [
        claim(art, "ef_rate", _kbps(ds, "ef_rate"), "kbit/s", "one CBR EF stream, rate counted on Ethernet frames"),
        claim(art, "be_rate", _kbps(ds, "be_rate"), "kbit/s",
              f"one CBR BE stream (the slides: '1 stream per PHB') of {int(ds.be_ip_bytes)}-byte IP packets"),
        claim(art, "be_packet_rate", float(ds.be_packet_rate), "packets/s",
              f"the page's profile is inconsistent: 200 x 1000 bytes x 8 = 1.6 Mbit/s, not 2.0; we send "
              f"{_kbps(ds, 'be_rate'):g} kbit/s of 1000-byte packets = {float(ds.be_packet_rate):g} packets/s; the other "
              f"reading (200 packets/s) changes the gain at 1024/1518 bytes by "
              f"{', '.join(f'{v:+.4f}' for v in gr)} ms: either way the BE queue never empties"),
        claim(art, "be_packet_size", float(ds.be_ip_bytes), "bytes", "read as the IP length; one size for all"),
        claim(art, "ef_queue_limit", float(ds.ef_queue_limit), "packets", "EF queue limit (PQ or WFQ)"),
        claim(art, "tx_ring_limit", float(ds.ring_limit_particles), "particles",
              f"particles of {int(ds.particle_bytes)} bytes; a 1000-byte BE packet takes 2"),
        claim(art, "ef_service_rate", _kbps(ds, "ef_service_rate"), "kbit/s",
              f"WFQ: weight of the EF WFQ queue (BE queue: the remaining {_kbps(ds, 'be_weight'):g} kbit/s); "
              f"PQ: policing rate; EF loss {float(ds['loss'].max()):.3g}"),
        claim(art, "line_rate", _kbps(ds, "line_rate"), "kbit/s", "ATM PVC, whole 53-byte cells"),
    ]
    return rows


def tftant_wfq_fig5_claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`tftant_wfq_fig5`: IPDV higher for small frames; the IPDV gain depends on size."""
    art = "tftant_wfq_fig5"
    ds = _in_ms(ds, art)
    frames = ds["ef_frame_bytes"].values
    m = ds["ipdv_mean"]
    small = [f for f in SLIDES_SMALL_FRAMES_BYTES if f in frames]
    large = [f for f in (PAGE_LARGE_FRAME_BYTES, MTU_FRAME_BYTES) if f in frames]
    rows = []
    ok = []
    parts = []
    for sched in presets.TFTANT_SCHEDULERS:
        s = [_at(m.sel(scheduler=sched), f) for f in small]
        lg = [_at(m.sel(scheduler=sched), f) for f in large]
        ok.append(bool(s and lg and min(s) > max(lg)))
        parts.append(f"{sched.upper()}: {_list(small + large, s + lg)} ms")
    src = [f for f in SOURCE_FRAME_SIZES if f in frames]
    rows.append(claim(
        art, "ipdv_higher_small_packets", None, "-",
        f"mean |IPDV| at 128/256 vs 1024/1518 bytes: {'; '.join(parts)}; over the whole sweep it is not monotone "
        f"(PQ {float(m.sel(scheduler='pq').min()):.2f}..{float(m.sel(scheduler='pq').max()):.2f} ms): with one CBR "
        f"EF and one CBR BE stream the delay is a sawtooth of one BE tx time t_BE ({float(ds.be_tx_time):.3f} ms) "
        f"whose step is the slip s = (T_EF - t_EF) mod t_BE, mean |IPDV| = 2 s (t_BE - s) / t_BE, which predicts "
        f"{_list(small + large, [_at(ds['ipdv_beat_mean'], f) for f in small + large])} ms: a beat of the two "
        f"periods, not a trend in the EF size",
        shape_ok=all(ok)))
    diff = (m.sel(scheduler="wfq") - m.sel(scheduler="pq")).values
    rows.append(claim(
        art, "ipdv_gain_depends_on_size", None, "-",
        f"the slides: mean |IPDV| WFQ - PQ, ms: {_list(src, [diff[list(frames).index(f)] for f in src])}",
        shape_ok=bool(np.ptp(diff) > IPDV_GAIN_RANGE_MS)))
    for f in src:
        rows += _per_scheduler(art, f"mean_ipdv_{{s}}_{f}", lambda s: _at(m.sel(scheduler=s), f), "ms",
                               lambda s: f"mean |IPDV| of consecutive EF packets, {s.upper()}, {f}-byte frames")
    return rows


def tftant_wfq_fig2_4_claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`tftant_wfq_fig2_4`: same shape, delay variation of one BE tx, EF-queue wait."""
    art = "tftant_wfq_fig2_4"
    ds, be_tx = _in_ms_be_tx(ds, art)
    frames = ds["ef_frame_bytes"].values
    corr = ds["corr"].min("seed")
    span = ds["delay_span_be_tx"].max("seed")
    shift, shift_std = ds["shift"].mean("seed"), ds["shift_std"].max("seed")
    rows = [
        claim(art, "same_shape", None, "-",
              f"correlation of the PQ and WFQ delay series (same arrivals), smallest over seeds: "
              f"{_list(frames, corr.values, '{:.3f}')}; WFQ - PQ packet by packet: mean "
              f"{_list(frames, shift.values)} ms, std {_list(frames, shift_std.values)} ms",
              shape_ok=bool((corr.values >= SAME_SHAPE_CORRELATION).all())),
        claim(art, "delay_variation_from_tx_ring", None, "-",
              f"max - min delay in BE tx times ({be_tx:.3f} ms), PQ: {_list(frames, span.sel(scheduler='pq').values)};"
              f" WFQ: {_list(frames, span.sel(scheduler='wfq').values)}: the BE packet in transmission when the EF "
              f"packet arrives (the ring is always full of BE)",
              shape_ok=bool(np.all(np.abs(span.sel(scheduler="pq").values - 1.0) <= RELATIVE_TOLERANCE))),
    ]
    share = ds["wait_share"].mean("seed")
    big = [f for f in frames if np.isfinite(_at(share, f)) and _at(shift, f) > EQUIVALENT_BE_TX * be_tx]
    rows.append(claim(
        art, "ef_queue_wait_dominates", None, "-",
        f"share of the WFQ - PQ difference spent waiting in the EF queue: "
        f"{_list(big, [_at(share, f) for f in big])} (frames where WFQ adds at least half a BE tx time)",
        shape_ok=bool(big) and all(_at(share, f) >= DOMINANT_SHARE for f in big)))
    gains = [_at(shift, f) for f in frames]
    rows.append(claim(
        art, "gain_grows_with_size", None, "-",
        f"WFQ - PQ mean delay: {_list(frames, gains)} ms",
        shape_ok=bool(np.all(np.diff(gains) >= -MS_ROUNDING_TOLERANCE))))
    return rows


def tftant_wfq_fig6_7_claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`tftant_wfq_fig6_7`: max IPDV of one BE tx, peak height and frequency."""
    art = "tftant_wfq_fig6_7"
    ds = _in_ms(ds, art)
    frames = list(ds["ef_frame_bytes"].values)
    mx = ds["ipdv_max_be_tx"].max("seed")
    freq = ds["peak_frequency"].mean("seed")
    frac = ds.attrs["peak_fraction"]
    rows = []
    fig7 = PAGE_LARGE_FRAME_BYTES
    if fig7 in frames:
        for sched in presets.TFTANT_SCHEDULERS:
            v = float(mx.sel(scheduler=sched, ef_frame_bytes=fig7))
            rows.append(claim(
                art, f"max_ipdv_fig7_{sched}", v, BE_TX,
                f"largest |IPDV| at {fig7}-byte frames (Fig. 7's caption; the text says MTU-size), {sched.upper()}: "
                f"{v * float(ds.be_tx_time):.3f} ms = {v:.3f} BE tx times; the sawtooth (EF behind a fixed "
                f"number of BE packets) predicts max(s, t_BE - s) "
                f"= {_at(ds['ipdv_beat_max_be_tx'], fig7):.3f} BE tx times, s = (T_EF - t_EF) mod t_BE the slip of "
                f"the EF arrivals against the BE departures per EF interval (not a whole BE tx time); all sizes: "
                + ", ".join(f"{int(f)}: {float(mx.sel(scheduler=sched, ef_frame_bytes=f)):.2f}" for f in frames),
                shape_ok=bool(_within_one_be_tx(v))))
        fp, fw = (float(freq.sel(scheduler=s, ef_frame_bytes=fig7)) for s in presets.TFTANT_SCHEDULERS)
        rows.append(claim(
            art, "wfq_max_more_often", None, "-",
            f"share of |IPDV| >= {frac:g} BE tx time at {fig7} bytes: PQ {fp:.3f}, WFQ {fw:.3f}"
            + (": under our WFQ every EF packet waits the same whole number of BE packets more than under PQ "
               "(tftant_wfq_fig2_4: the same series shifted), so both IPDV series are identical"
               if abs(fw - fp) < ROUNDING_TOLERANCE else ""),
            shape_ok=fw > fp))
    if 128 in frames:
        p, w = (float(mx.sel(scheduler=s, ef_frame_bytes=128)) for s in presets.TFTANT_SCHEDULERS)
        rows.append(claim(art, "pq_higher_peaks_128", None, "-",
                          f"the slides; largest |IPDV| at 128 bytes: PQ {p:.3f}, WFQ {w:.3f} BE tx times"
                          + (f" (identical series: an EF tag step of {presets.ef_ip_bytes(128)} x 8 / "
                             f"{_kbps(ds, 'ef_service_rate'):g} kbit/s = "
                             f"{to_ms(wfq_tag_s(presets.ef_ip_bytes(128), float(ds.ef_service_rate))):.1f} ms "
                             f"is below one BE tag step, "
                             f"{to_ms(wfq_tag_s(float(ds.be_ip_bytes), float(ds.be_weight))):.1f} ms, "
                             f"so WFQ lets no BE "
                             "packet ahead)" if abs(p - w) < ROUNDING_TOLERANCE else ""),
                          shape_ok=p > w))
    big = MTU_FRAME_BYTES
    if big in frames:
        p, w = (float(mx.sel(scheduler=s, ef_frame_bytes=big)) for s in presets.TFTANT_SCHEDULERS)
        fp, fw = (float(freq.sel(scheduler=s, ef_frame_bytes=big)) for s in presets.TFTANT_SCHEDULERS)
        rows.append(claim(art, "same_peak_height_1500", None, "-",
                          f"the slides; largest |IPDV| at {big} bytes: PQ {p:.2f}, WFQ {w:.2f} BE tx times "
                          f"(same height read as within {SAME_HEIGHT_TOLERANCE:.0%})",
                          shape_ok=abs(w - p) <= SAME_HEIGHT_TOLERANCE * max(p, w)))
        rows.append(claim(art, "peak_frequency_higher_wfq_1500", None, "-",
                          f"the slides; share of |IPDV| >= {frac:g} BE tx time at {big} bytes: PQ {fp:.3f}, "
                          f"WFQ {fw:.3f}", shape_ok=fw > fp))
    return rows


def tftant_slides_ring_claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`tftant_slides_ring`: delay linear in the ring, IPDV independent of it."""
    art = "tftant_slides_ring"
    ds, be_tx = _in_ms_be_tx(ds, art)
    scheds = list(ds["scheduler"].values)
    rings = ds["ring_limit_particles"].values
    per_particle = be_tx / float(ds.be_particles)
    d = ds["delay_mean"]
    fit = "; ".join(f"{s.upper()} {float(ds.slope.sel(scheduler=s)):.3f} ms/particle, R^2 "
                    f"{float(ds.r2.sel(scheduler=s)):.3f}, {float(d.sel(scheduler=s).min()):.1f}.."
                    f"{float(d.sel(scheduler=s).max()):.1f} ms, EF loss {float(ds['loss'].sel(scheduler=s).max()):.3f}"
                    for s in scheds)
    linear = bool(((ds.slope > 0) & (ds.r2 >= LINEAR_R2)).all())
    rows = [claim(
        art, "delay_proportional_to_ring", None, "-",
        f"rings {int(rings.min())}..{int(rings.max())} particles: {fit}; a BE packet of {int(ds.be_ip_bytes)} "
        f"bytes takes {int(ds.be_particles)} particles, so the delay rises in steps of one BE tx time "
        f"({be_tx:.3f} ms) every {int(ds.be_particles)} particles ({per_particle:.3f} ms/particle); linear with an "
        f"intercept, not proportional through 0",
        shape_ok=linear)]
    if "pq" in scheds:
        dp = d.sel(scheduler="pq")
        ratio = float(dp.max() / dp.min())
        rows.append(claim(
            art, "delay_ratio_512_256", None, "-",
            f"'1-way delay(512 by) = 32 * 1-way delay(256 kby)' cannot be parsed as stated (no 512-byte or "
            f"256-kbyte setting of the test is defined and 32x matches no ratio we can form); ours, PQ: "
            f"delay(ring {int(rings.max())}) / delay(ring {int(rings.min())}) = {ratio:.2f}"))
    ip = ds["ipdv_mean"]
    spread = {s: float(ip.sel(scheduler=s).max() - ip.sel(scheduler=s).min()) for s in scheds}
    rows.append(claim(
        art, "ipdv_independent_of_ring", None, "-",
        "mean |IPDV| over the rings: " + "; ".join(
            f"{s.upper()} {float(ip.sel(scheduler=s).mean()):.3f} ms, range {spread[s]:.3f} ms" for s in scheds),
        shape_ok=all(spread[s] <= RELATIVE_TOLERANCE * float(ip.sel(scheduler=s).mean()) for s in scheds)))
    first = scheds[0]
    # the slides file the tx-ring test under WFQ configuration ("bandwidth=300Kbps"): the quantity is WFQ's,
    # the same one the test-bed model computes (pqlab.papers.testbed_eval.ring_max_ipdv)
    slides = "wfq" if "wfq" in scheds else first
    mx = float(ds["ipdv_max"].sel(scheduler=slides).max()) / be_tx
    slip = to_ms(float(beat_slip_s(int(ds.ef_frame_bytes))[0]))
    rows.append(claim(
        art, "max_ipdv_one_be_tx", mx, BE_TX,
        f"largest |IPDV| over rings and seeds, {slides.upper()} (the slides' WFQ test, 300 kbit/s): "
        f"{mx * be_tx:.3f} ms = {mx:.3f} BE tx times "
        f"({be_tx:.3f} ms); the sawtooth (EF behind a fixed number of BE packets) predicts max(s, t_BE - s) = "
        f"{max(slip, be_tx - slip) / be_tx:.3f}, "
        f"s = (T_EF - t_EF) mod t_BE, whatever the ring; "
        + ", ".join(f"{s.upper()} {float(ds['ipdv_max'].sel(scheduler=s).max()) / be_tx:.3f}"
                                  for s in scheds),
        shape_ok=bool(_within_one_be_tx(mx))))
    lag = ds["acf_peak_lag"].sel(scheduler=first)
    peak = ds["acf_peak"].sel(scheduler=first)
    periodic = bool((lag >= MIN_PERIOD_PACKETS).all() and (peak > ACF_THRESHOLD).all())
    rows.append(claim(
        art, "periodicity_one_stream_per_phb", None, "-",
        f"one CBR EF and one CBR BE stream, {first.upper()}: the delay series' autocorrelation peaks first at lag "
        f"{int(lag.min())}..{int(lag.max())} EF packets, >= {float(peak.min()):.2f} in every run",
        shape_ok=periodic))
    if len(scheds) > 1:
        rows.append(claim(
            art, "pq_and_wfq_affected_by_tx_queue", None, "-",
            "the slides (WFQ vs PQ): slopes " + ", ".join(
                f"{s.upper()} {float(ds.slope.sel(scheduler=s)):.3f} ms/particle" for s in scheds)
            + "; under WFQ at 300 kbit/s the EF queue is also overloaded (see tftant_slides_star, STAR = 1)",
            shape_ok=bool((ds.slope > SLOPE_FRACTION * per_particle).all())))
    first_q = "pq" if "pq" in scheds else first
    rows += [
        claim(art, "ef_frame_size", float(ds.ef_frame_bytes), "bytes",
              f"EF frames (IP {presets.ef_ip_bytes(int(ds.ef_frame_bytes))} bytes) at {_kbps(ds, 'ef_rate'):g} kbit/s"),
        claim(art, "ef_service_rate", _kbps(ds, "ef_service_rate"), "kbit/s",
              "'bandwidth=300Kbps' read as the EF service rate: WFQ weight (BE: the remaining "
              f"{_kbps(ds, 'be_weight'):g} kbit/s) or PQ policing rate; EF loss "
              + ", ".join(f"{s.upper()} {float(ds['loss'].sel(scheduler=s).max()):.3f}" for s in scheds)),
        claim(art, "ef_queue_limit", float(ds.ef_queue_limit), "packets",
              f"EF queue limit; mean EF-queue wait, {first_q.upper()}: "
              f"{float(ds['ef_wait'].sel(scheduler=first_q).mean()):.3f} ms"),
    ]
    rows += _per_scheduler(art, "slope_{s}", lambda s: float(ds.slope.sel(scheduler=s)), "ms/particle",
                           lambda s: f"least-squares slope of the mean delay vs tx-ring-limit, {s.upper()}, R^2 "
                                     f"{float(ds.r2.sel(scheduler=s)):.4f}", scheds)
    return rows


def tftant_slides_star_claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`tftant_slides_star`: flat for small packets, plateau above 3, WFQ -> PQ, IPDV."""
    art = "tftant_slides_star"
    ds, be_tx = _in_ms_be_tx(ds, art)
    stars = ds["star"].values
    frames = ds["ef_frame_bytes"].values
    d, pq = ds["delay_mean"], ds["pq_delay_mean"]
    tol = EQUIVALENT_BE_TX * be_tx
    rows = [claim(art, "star_min", float(stars.min()), "1", f"{stars.size} STAR values"),
            claim(art, "star_max", float(stars.max()), "1", f"{stars.size} STAR values")]
    star1 = float(stars.min())
    loss1 = ds["loss"].sel(star=star1).max("seed")
    throughput_kbps = _kbps(ds, "line_ip_throughput")
    ip_kbps = to_kbps(ds["ef_ip_rate"].values)
    share = star1 * ip_kbps / _kbps(ds, "line_rate")
    wire_loss = ds["wire_loss"].max("seed").values
    overload = (f"STAR counted in IP bytes, one unit with the WFQ tags (the reading that causes this): at STAR = "
                f"{star1:g} the EF weight equals the EF IP rate ({_list(frames, star1 * ip_kbps, '{:.0f}')} kbit/s) "
                f"and gets that share of the IP bytes sent, {_list(frames, share * throughput_kbps, '{:.0f}')} "
                f"kbit/s of a {throughput_kbps:.0f} kbit/s IP throughput (the line counts cells: ATM cell tax): EF "
                f"loss {_list(frames, loss1.values, '{:.3f}')}; with STAR and the tags in wire bytes (the line's "
                f"unit, tried): EF loss {_list(frames, wire_loss, '{:.3f}')}, mean delay "
                f"{_list(frames, ds['wire_delay'].mean('seed').values)} ms at STAR {star1:g}, but that reading loses "
                f"{float(ds['wire_page_loss_64']):.1%} of the PQ-vs-WFQ page's 64-byte EF frames, where the page "
                "finds PQ and WFQ almost equivalent")

    def flat_from(frame) -> float:
        row = d.sel(ef_frame_bytes=frame).values
        for i in range(row.size):
            if np.ptp(row[i:]) <= tol:
                return float(stars[i])
        return math.nan

    small = [f for f in frames if f <= SMALL_FRAME_BYTES]
    spans = [float(np.ptp(d.sel(ef_frame_bytes=f).values)) for f in small]
    rows.append(claim(
        art, "delay_flat_small_packets", None, "-",
        f"range of the mean delay over STAR {star1:g}..{float(stars.max()):g} for frames <= {SMALL_FRAME_BYTES}: "
        f"{_list(small, spans)} ms; flat (within half a BE tx) from STAR "
        f"{_list(small, [flat_from(f) for f in small], '{:g}')}; {overload}",
        shape_ok=bool(small) and all(s <= tol for s in spans)))
    above = stars > PAPER_STAR_PLATEAU
    drops = []
    for f in frames:
        at3 = float(d.sel(ef_frame_bytes=f).interp(star=PAPER_STAR_PLATEAU))
        drops.append(at3 - float(d.sel(ef_frame_bytes=f).values[above].min()) if above.any() else math.nan)
    rows.append(claim(
        art, "no_decrease_above_3", None, "-",
        f"decrease of the mean delay beyond STAR {PAPER_STAR_PLATEAU:g}: {_list(frames, drops)} ms; with the BE "
        f"weight = the remaining bandwidth an EF tag step falls below one BE tag step at STAR "
        f"{_list(frames, ds['star_one_be_tag'].values)}, where the delay stops falling "
        f"(flat from STAR {_list(frames, [flat_from(f) for f in frames], '{:g}')})",
        shape_ok=bool(above.any()) and all(x <= tol for x in drops)))
    top = float(stars.max())
    conv = [float(d.sel(ef_frame_bytes=f, star=top) - pq.sel(ef_frame_bytes=f)) for f in frames]
    rows.append(claim(
        art, "wfq_converges_to_pq_small_packets", None, "-",
        f"WFQ - PQ at STAR {top:g}: {_list(frames, conv)} ms; at STAR {star1:g}: "
        f"{_list(frames, [float(d.sel(ef_frame_bytes=f, star=star1) - pq.sel(ef_frame_bytes=f)) for f in frames])} ms",
        shape_ok=all(abs(c) <= tol for f, c in zip(frames, conv) if f <= SMALL_FRAME_BYTES)))
    falls = [bool(np.all(np.diff(d.sel(ef_frame_bytes=f).values) <= tol)) for f in frames]
    rows.append(claim(
        art, "wfq_converges_to_pq_higher_star", None, "-",
        f"the page: the mean WFQ delay never rises with STAR (within half a BE tx) at "
        f"{sum(falls)} of {len(frames)} frame sizes and first equals PQ's (within half a BE tx) at STAR "
        + _list(frames, [next((float(s) for s in stars if abs(float(d.sel(ef_frame_bytes=f, star=s))
                                                                  - float(pq.sel(ef_frame_bytes=f))) <= tol),
                              math.nan) for f in frames], "{:g}"),
        shape_ok=all(falls) and all(abs(c) <= tol for c in conv)))
    ipdv_frame = PAGE_LARGE_FRAME_BYTES if PAGE_LARGE_FRAME_BYTES in frames else int(frames[-1])
    ip = ds["ipdv_mean"].sel(ef_frame_bytes=ipdv_frame)
    rng = float(np.ptp(ip.values))
    rest = ip.sel(star=stars[1:]) if stars.size > 1 else ip
    rows.append(claim(
        art, "ipdv_independent_of_star", None, "-",
        f"mean |IPDV| at {ipdv_frame} bytes over STAR: {float(ip.min()):.3f}..{float(ip.max()):.3f} ms (range "
        f"{rng:.3f} ms; above STAR {star1:g}, where the EF queue is not overloaded: "
        f"{float(np.ptp(rest.values)):.3f} ms); "
        f"PQ {float(ds['pq_ipdv_mean'].sel(ef_frame_bytes=ipdv_frame)):.3f} ms",
        shape_ok=rng <= RELATIVE_TOLERANCE * float(ip.mean())))
    mx = ds["ipdv_max"].sel(ef_frame_bytes=ipdv_frame).max("seed") / be_tx
    rows.append(claim(
        art, "max_ipdv_one_be_tx", float(mx.max()), BE_TX,
        f"largest |IPDV| at {ipdv_frame} bytes over STAR and seeds, in BE tx times ({be_tx:.3f} ms): "
        f"{_list(stars, mx.values, '{:.2f}')} (STAR {star1:g}: EF queue overloaded)",
        shape_ok=bool(_within_one_be_tx(float(mx.max())))))
    for f in frames:
        rows.append(claim(art, f"flat_from_star_{int(f)}", flat_from(f), "1",
                          f"smallest STAR from which the mean delay at {int(f)} bytes stays within half a BE tx "
                          f"time; EF tag step < BE tag step from STAR {_at(ds['star_one_be_tag'], f):.2f}; EF loss "
                          f"at STAR {star1:g}: {_at(loss1, f):.3f}"))
    return rows


def tftant_slides_no_be_claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`tftant_slides_no_be`: what BE traffic adds to the EF delay."""
    art = "tftant_slides_no_be"
    ds, be_tx = _in_ms_be_tx(ds, art)
    w, wo = (ds.sel(traffic=t) for t in ("with BE", "without BE"))
    mean_w, mean_wo = float(w["delay_mean"].mean()), float(wo["delay_mean"].mean())
    sched = ds.attrs.get("scheduler", "pq").upper()
    rows = [
        claim(art, "with_and_without_be", None, "-",
              f"{sched}, {int(ds.ef_frame_bytes)}-byte frames: without BE every EF packet takes "
              f"{float(wo['delay_min'].min()):.3f}..{float(wo['delay_max'].max()):.3f} ms (own line time + path "
              f"{float(ds.uncongested_delay):.3f} ms, std {float(wo['delay_std'].max()):.2g} ms); with BE "
              f"{float(w['delay_min'].min()):.2f}..{float(w['delay_max'].max()):.2f} ms, mean {mean_w:.2f} ms: BE "
              f"adds {mean_w - mean_wo:.2f} ms = {(mean_w - mean_wo) / be_tx:.2f} BE tx times (the ring's BE packets)",
              shape_ok=float(w["delay_min"].min()) > float(wo["delay_max"].max())),
        claim(art, "mean_delay_with_be", mean_w, "ms", f"{sched}, mean over seeds"),
        claim(art, "mean_delay_without_be", mean_wo, "ms",
              f"{sched}: = EF line time + path {float(ds.uncongested_delay):.3f} ms"),
    ]
    return rows
