"""TF-TANT slides, "EF queue service rate": delay and IPDV vs STAR under WFQ.

The artefact's computation (:func:`compute`), statistics (:func:`statistics`), claims
(:func:`claims`) and figure (:func:`figure`); the notebook ``notebooks/08_tftant_ring_and_star``
runs them, on the PQ-vs-WFQ test bed (:func:`pqlab.scenarios.tftant_star`,
:mod:`pqlab.papers.tftant_wfq.pq_vs_wfq_testbed`). The Dataset is in SI units (times in seconds,
rates in bit/s, sizes in bytes; STAR is a ratio); the claims state times in ms (their statistics
computed again from the converted per-seed values) and rates in kbit/s; the figure draws ms.
"""

from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np
import seaborn as sns
import xarray as xr

from ...base.units import to_kbps
from ...measure import cache, experiments
from ...node.framing import FRAMING_CODES, wire_bytes
from .. import judge, kit, presets
from ..registry import Artefact
from ..stated import PAPERS
from ..tftant_wfq.pq_vs_wfq_claims import (
    OVERLOAD_TEXT,
    PAGE_LARGE_FRAME_BYTES,
    RELATIVE_TOLERANCE,
    SAWTOOTH_TEXT,
    SMALL_FRAME_BYTES,
    in_ms_be_tx,
    listing,
    overload_facts,
    value_at,
)
from ..tftant_wfq.pq_vs_wfq_plots import conditions, in_ms_for_axes
from ..tftant_wfq.pq_vs_wfq_testbed import (
    BE_TX,
    EQUIVALENT_BE_TX,
    add_scalars,
    check_frames,
    config_scalars,
    frame_coords,
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
    "star_one_be_tag",
    "STARS",
    "STAR_FRAME_SIZES",
    "PAPER_STAR_PLATEAU",
]

ARTEFACT = Artefact(__name__, notebook="08_tftant_ring_and_star")

#: STAR values of the slides' service-rate test, in their range [1, 5].
STARS = tuple(float(s) for s in np.arange(1.0, 5.01, 0.5))
#: EF frame sizes of the STAR test, bytes.
STAR_FRAME_SIZES = (128, 256, 512, 1024, 1518)
#: The slides' STAR statement: no further decrease of the delay above this STAR.
PAPER_STAR_PLATEAU = 3.0


def star_one_be_tag(
    ef_frame_bytes,
    be_ip_bytes: int = presets.TFTANT_BE_IP_BYTES,
    line_rate_bps: float = PAPERS.line_rate_bps,
    ef_rate_bps: float = presets.TFTANT_EF_RATE_BPS,
):
    """STAR above which an EF finish-tag step is shorter than one BE tag step (BE weight = remaining
    bandwidth).

    STAR counts in IP bytes (:func:`pqlab.scenarios.tftant_star`): the EF weight is
    ``w = S r ip / frame``, so an EF tag step is ``ip / w = frame / (S r)`` and
    ``frame / (S r) <= be / (L - w)``  <=>  ``S >= frame L / (r (ip + be))``: beyond it a newly
    arrived EF packet overtakes every queued BE packet, as under PQ (ties go to the EF queue).

    Parameters
    ----------
    ef_frame_bytes : int or array_like of int
        EF frame size(s), bytes (IP = frame - 18).
    be_ip_bytes : int
        BE IP length, bytes.
    line_rate_bps : float
        Line rate ``L``, bit/s.
    ef_rate_bps : float
        EF rate ``r``, bit/s of frames.

    Returns
    -------
    numpy.ndarray
        The STAR per frame size (a ratio; 0-d for one frame size).
    """
    frames = np.asarray(ef_frame_bytes, dtype=float)
    ip = np.vectorize(lambda f: presets.ef_ip_bytes(int(f)), otypes=[float])(frames)
    return frames * line_rate_bps / (ef_rate_bps * (ip + be_ip_bytes))


@cache.artefact(ARTEFACT.id)
def compute(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    stars=STARS,
    frame_sizes=STAR_FRAME_SIZES,
) -> xr.Dataset:
    """TF-TANT slides, "EF queue service rate": delay and IPDV under WFQ vs STAR, with PQ for
    reference.

    STAR = EF service rate / EF arrival rate, both and the WFQ tags in one unit, IP bytes
    (:data:`pqlab.scenarios.STAR_ACCOUNTINGS`): the EF WFQ weight is STAR x the EF rate of IP
    packets and the BE weight the remaining bandwidth (:func:`pqlab.scenarios.tftant_star`). The
    alternative unit, the line's wire bytes (tags and STAR in ATM cells), is run at the smallest
    STAR for every frame size (``wire_delay``, ``wire_loss``) and on the PQ-vs-WFQ page's 64-byte
    frames (``wire_page_loss_64``), where the page finds PQ and WFQ almost equivalent.
    The PQ reference uses the page's 400 kbit/s policing rate (PQ does not depend on
    it while nothing is policed).

    Parameters
    ----------
    n_ef_samples : int
        EF packets per run (>= 10).
    seeds : sequence of int
        Seeds (>= 0, distinct).
    stars : sequence of float
        STAR values (> 0; the slides: [1, 5]).
    frame_sizes : sequence of int
        EF frame sizes, bytes.

    Returns
    -------
    xarray.Dataset
        Dims ``ef_frame_bytes``, ``star``, ``seed``: ``delay``, ``ipdv``, ``ipdv_max`` (s),
        ``loss``; ``pq_delay``, ``pq_ipdv`` (s) on ``(ef_frame_bytes, seed)``; means/CIs;
        ``star_one_be_tag`` per frame; ``ef_ip_rate`` (bit/s) per frame; scalars of the test
        conditions (SI units) and ``line_ip_throughput`` (bit/s).
    """
    n = kit.check_n_ef_samples(n_ef_samples, 10, 100_000_000)
    seeds = kit.check_seeds(seeds)
    stars = sorted(kit.check_values("stars", stars, 0.0))
    frames = sorted(check_frames("frame_sizes", frame_sizes))
    raw = experiments.sweep(
        functools.partial(presets.tftant_star, n_ef_samples=n),
        {"ef_frame_bytes": frames, "star": stars},
        seeds,
        measure=measure,
    )
    wire = experiments.sweep(
        functools.partial(presets.tftant_star, n_ef_samples=n, star=stars[0], accounting="wire"),
        {"ef_frame_bytes": frames},
        seeds,
        measure=measure,
    )
    page64 = presets.pq_vs_wfq(scheduler="wfq", ef_frame_bytes=64, n_ef_samples=n)
    page64 = dataclasses.replace(page64, node=dataclasses.replace(page64.node, wfq_bytes="wire"))
    page64_runs = experiments.measure_runs(page64, seeds, measure)
    page64_loss = float(np.mean([m["loss_ratio"] for m in page64_runs]))
    pq = experiments.sweep(
        functools.partial(presets.pq_vs_wfq, scheduler="pq", n_ef_samples=n),
        {"ef_frame_bytes": frames},
        seeds,
        measure=measure,
    )
    node = presets.tftant_node("wfq")
    dims = ("ef_frame_bytes", "star", "seed")
    ds = xr.Dataset(
        {
            "delay": per_seed(raw, "delay_mean_s", "s", "mean EF one-way delay, WFQ", dims),
            "ipdv": per_seed(raw, "ipdv_abs_mean_s", "s", "mean |IPDV|, WFQ", dims),
            "ipdv_max": per_seed(raw, "ipdv_abs_max_s", "s", "largest |IPDV|, WFQ", dims),
            "loss": per_seed(raw, "loss_ratio", "1", "EF loss ratio, WFQ", dims),
            "pq_delay": per_seed(
                pq, "delay_mean_s", "s", "mean EF one-way delay, PQ", ("ef_frame_bytes", "seed")
            ),
            "pq_ipdv": per_seed(
                pq, "ipdv_abs_mean_s", "s", "mean |IPDV|, PQ", ("ef_frame_bytes", "seed")
            ),
            "wire_delay": per_seed(
                wire,
                "delay_mean_s",
                "s",
                "mean EF one-way delay, WFQ, smallest STAR in wire bytes",
                ("ef_frame_bytes", "seed"),
            ),
            "wire_loss": per_seed(
                wire,
                "loss_ratio",
                "1",
                "EF loss ratio, WFQ, smallest STAR in wire bytes",
                ("ef_frame_bytes", "seed"),
            ),
        },
        coords={
            **frame_coords(frames, node),
            "star": ("star", stars, {"units": "1", "long_name": "service-to-arrival ratio (STAR)"}),
            "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"}),
        },
    )
    ip = ds["ef_ip_bytes"].values
    ds["star_one_be_tag"] = (
        "ef_frame_bytes",
        star_one_be_tag(frames, presets.TFTANT_BE_IP_BYTES, node.line_rate_bps),
        {"units": "1", "long_name": "STAR above which an EF tag step < one BE tag step"},
    )
    ds["ef_ip_rate"] = (
        "ef_frame_bytes",
        presets.TFTANT_EF_RATE_BPS * ip / ds["ef_frame_bytes"].values,
        {"units": "bit/s", "long_name": "EF rate counted on IP packets"},
    )
    add_scalars(ds, config_scalars(node, presets.TFTANT_EF_SERVICE_RATE_BPS))
    be_ip = presets.TFTANT_BE_IP_BYTES
    add_scalars(
        ds,
        {
            "line_ip_throughput": (
                node.line_rate_bps * be_ip / (wire_bytes(be_ip, FRAMING_CODES[node.framing])),
                "bit/s",
                "IP throughput of the line with BE packets (cell tax)",
            )
        },
    )
    ds["wire_page_loss_64"] = (
        (),
        page64_loss,
        {
            "units": "1",
            "long_name": "EF loss, PQ-vs-WFQ page, 64-byte frames, WFQ tags in wire bytes",
        },
    )
    ds.attrs = kit.provenance(
        ARTEFACT.id,
        f"{ARTEFACT.id}: EF one-way delay and IPDV vs STAR under WFQ "
        "(TF-TANT slides, EF queue service rate)",
        __name__,
        seeds,
        n_ef_samples=n,
        star_accounting="ip",
    )
    return statistics(ds)


def statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`compute`'s means and CIs over seeds (in place; returned), in the Dataset's time
    unit
    (s; the claims' ms through :func:`pqlab.papers.kit.statistics_in_ms`)."""
    return kit.add_mean_ci(ds, ["delay", "ipdv", "pq_delay", "pq_ipdv"])


def claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`compute`: flat for small packets, plateau above 3, WFQ -> PQ,
    IPDV."""
    art = ARTEFACT.id
    ds, be_tx = in_ms_be_tx(ds, art, statistics)
    stars = ds["star"].values
    frames = ds["ef_frame_bytes"].values
    d, pq = ds["delay_mean"], ds["pq_delay_mean"]
    tol = EQUIVALENT_BE_TX * be_tx
    rows = [
        kit.claim(art, "star_min", float(stars.min()), "1", f"{stars.size} STAR values"),
        kit.claim(art, "star_max", float(stars.max()), "1", f"{stars.size} STAR values"),
    ]
    star1 = float(stars.min())
    loss1 = ds["loss"].sel(star=star1).max("seed")
    ip_kbps = to_kbps(ds["ef_ip_rate"].values)
    weights = (
        "STAR counted in IP bytes, the WFQ tags' unit: EF weight = STAR x the EF IP rate"
        f" ({listing(frames, ip_kbps, '{:.0f}')} kbit/s), BE weight the rest of"
        f" {rate_kbps(ds, 'line_rate'):g} kbit/s"
    )

    def flat_from(frame) -> float:
        row = d.sel(ef_frame_bytes=frame).values
        for i in range(row.size):
            if np.ptp(row[i:]) <= tol:
                return float(stars[i])
        return math.nan

    small = [f for f in frames if f <= SMALL_FRAME_BYTES]
    spans = [float(np.ptp(d.sel(ef_frame_bytes=f).values)) for f in small]
    flat = bool(small) and all(s <= tol for s in spans)
    why = None
    if small and not flat and stars.size > 1:
        at = small[int(np.argmax(spans))]
        row = d.sel(ef_frame_bytes=at)
        why = judge.reason(
            "input",
            "the slides do not say in which unit STAR counts: in IP bytes (ours, the WFQ tags'"
            " unit) the EF queue is overloaded at STAR {star_min} (EF loss {loss_ip} at {frame})"
            " and the mean delay spans {span} over STAR {star_min}..{star_max}, {span_rest} above"
            " STAR {star_min} (flat: within {tol}); in wire bytes (ATM cells) the mean delay at"
            " STAR {star_min} is {wire_delay}, {wire_over_pq} above PQ's, with EF loss {loss_wire},"
            " but that reading loses {page_loss_64} of the PQ-vs-WFQ page's 64-byte EF frames",
            [
                judge.fact("star_min", star1, ""),
                judge.fact("star_max", float(stars.max()), ""),
                judge.fact("frame", at, "bytes"),
                judge.fact("loss_ip", value_at(loss1, at), ""),
                judge.fact("span", float(np.ptp(row.values)), "ms"),
                judge.fact("span_rest", float(np.ptp(row.values[1:])), "ms"),
                judge.fact("tol", tol, "ms"),
                judge.fact("wire_delay", value_at(ds["wire_delay"].mean("seed"), at), "ms"),
                judge.fact(
                    "wire_over_pq",
                    value_at(ds["wire_delay"].mean("seed"), at) - value_at(pq, at),
                    "ms",
                ),
                judge.fact("loss_wire", value_at(ds["wire_loss"].max("seed"), at), ""),
                judge.fact("page_loss_64", float(ds["wire_page_loss_64"]), ""),
            ],
        )
    rows.append(
        kit.claim(
            art,
            "delay_flat_small_packets",
            None,
            "-",
            f"range of the mean delay over STAR {star1:g}..{float(stars.max()):g} for frames <="
            f" {SMALL_FRAME_BYTES}: {listing(small, spans)} ms; flat (within half a BE tx) from"
            f" STAR {listing(small, [flat_from(f) for f in small], '{:g}')}; {weights}",
            shape_ok=flat,
            reason=why,
        )
    )
    above = stars > PAPER_STAR_PLATEAU
    drops = []
    for f in frames:
        at3 = float(d.sel(ef_frame_bytes=f).interp(star=PAPER_STAR_PLATEAU))
        drops.append(
            at3 - float(d.sel(ef_frame_bytes=f).values[above].min()) if above.any() else math.nan
        )
    plateau = bool(above.any()) and all(x <= tol for x in drops)
    why = None
    if above.any() and not plateau:
        k = int(np.nanargmax(drops))
        at = int(frames[k])
        why = judge.reason(
            "arithmetic",
            "with the BE weight the rest of the line, an EF finish-tag step falls below one BE tag"
            " step only from STAR frame L / (r (ip + be)) = {star_tag} at {frame}, above the"
            " slides' {plateau}: until then WFQ lets a queued BE packet ahead, and the mean delay"
            " falls by {drop} beyond STAR {plateau}, {drop_be_tx}",
            [
                judge.fact("star_tag", value_at(ds["star_one_be_tag"], at), ""),
                judge.fact("frame", at, "bytes"),
                judge.fact("plateau", PAPER_STAR_PLATEAU, ""),
                judge.fact("drop", drops[k], "ms"),
                judge.fact("drop_be_tx", drops[k] / be_tx, BE_TX),
            ],
        )
    rows.append(
        kit.claim(
            art,
            "no_decrease_above_3",
            None,
            "-",
            f"decrease of the mean delay beyond STAR {PAPER_STAR_PLATEAU:g}:"
            f" {listing(frames, drops)} ms; an EF tag step falls below one BE tag step at STAR"
            f" {listing(frames, ds['star_one_be_tag'].values)}; flat from STAR"
            f" {listing(frames, [flat_from(f) for f in frames], '{:g}')}",
            shape_ok=plateau,
            reason=why,
        )
    )
    top = float(stars.max())
    conv = [float(d.sel(ef_frame_bytes=f, star=top) - pq.sel(ef_frame_bytes=f)) for f in frames]

    def unconverged(upto: float) -> dict | None:
        """Why WFQ is not PQ at the largest STAR for frames up to ``upto`` bytes (the largest gap),
        or None."""
        gaps = [(abs(c), int(f), c) for f, c in zip(frames, conv) if f <= upto]
        if not gaps or max(gaps)[0] <= tol:
            return None
        _, at, c = max(gaps)
        return judge.reason(
            "arithmetic",
            "at {frame} WFQ - PQ is {gap}, {gap_be_tx}, at the largest STAR {star_max}: with the BE"
            " weight the rest of the line an EF finish-tag step falls below one BE tag step only"
            " from STAR {star_tag}",
            [
                judge.fact("frame", at, "bytes"),
                judge.fact("gap", c, "ms"),
                judge.fact("gap_be_tx", c / be_tx, BE_TX),
                judge.fact("star_max", top, ""),
                judge.fact("star_tag", value_at(ds["star_one_be_tag"], at), ""),
            ],
        )

    rows.append(
        kit.claim(
            art,
            "wfq_converges_to_pq_small_packets",
            None,
            "-",
            f"WFQ - PQ at STAR {top:g}: {listing(frames, conv)} ms; at STAR {star1:g}: "
            f"{listing(frames, [float(d.sel(ef_frame_bytes=f, star=star1) - pq.sel(ef_frame_bytes=f)) for f in frames])} ms",  # noqa: E501
            shape_ok=all(abs(c) <= tol for f, c in zip(frames, conv) if f <= SMALL_FRAME_BYTES),
            reason=unconverged(SMALL_FRAME_BYTES),
        )
    )
    falls = [bool(np.all(np.diff(d.sel(ef_frame_bytes=f).values) <= tol)) for f in frames]
    rows.append(
        kit.claim(
            art,
            "wfq_converges_to_pq_higher_star",
            None,
            "-",
            "the page: the mean WFQ delay never rises with STAR (within half a BE tx) at"
            f" {sum(falls)} of {len(frames)} frame sizes and first equals PQ's (within half a BE"
            " tx) at STAR "
            + listing(
                frames,
                [
                    next(
                        (
                            float(s)
                            for s in stars
                            if abs(
                                float(d.sel(ef_frame_bytes=f, star=s))
                                - float(pq.sel(ef_frame_bytes=f))
                            )
                            <= tol
                        ),
                        math.nan,
                    )
                    for f in frames
                ],
                "{:g}",
            ),
            shape_ok=all(falls) and all(abs(c) <= tol for c in conv),
            reason=unconverged(math.inf),
        )
    )
    ipdv_frame = PAGE_LARGE_FRAME_BYTES if PAGE_LARGE_FRAME_BYTES in frames else int(frames[-1])
    ip = ds["ipdv_mean"].sel(ef_frame_bytes=ipdv_frame)
    rng = float(np.ptp(ip.values))
    rest = ip.sel(star=stars[1:]) if stars.size > 1 else ip
    independent = rng <= RELATIVE_TOLERANCE * float(ip.mean())
    loss_at = float(ds["loss"].sel(ef_frame_bytes=ipdv_frame, star=star1).max())
    why = None
    if not independent and stars.size > 1:
        why = judge.reason(
            "mechanism",
            "at STAR {star_min} the EF queue, weighted in IP bytes, is overloaded (EF loss {loss}"
            " at {frame}): consecutive EF packets wait behind numbers of BE packets that vary, mean"
            " |IPDV| {ipdv_star_min}; above it {ipdv_rest_low}..{ipdv_rest_high}, a range of"
            " {rest_range} (independent: within {share} of the mean)",
            [
                judge.fact("star_min", star1, ""),
                judge.fact("loss", loss_at, ""),
                judge.fact("frame", ipdv_frame, "bytes"),
                judge.fact("ipdv_star_min", float(ip.sel(star=star1)), "ms"),
                judge.fact("ipdv_rest_low", float(rest.min()), "ms"),
                judge.fact("ipdv_rest_high", float(rest.max()), "ms"),
                judge.fact("rest_range", float(np.ptp(rest.values)), "ms"),
                judge.fact("share", RELATIVE_TOLERANCE, ""),
            ],
        )
    rows.append(
        kit.claim(
            art,
            "ipdv_independent_of_star",
            None,
            "-",
            f"mean |IPDV| at {ipdv_frame} bytes over STAR:"
            f" {float(ip.min()):.3f}..{float(ip.max()):.3f} ms (range {rng:.3f} ms); PQ"
            f" {float(ds['pq_ipdv_mean'].sel(ef_frame_bytes=ipdv_frame)):.3f} ms",
            shape_ok=independent,
            reason=why,
        )
    )
    mx = ds["ipdv_max"].sel(ef_frame_bytes=ipdv_frame).max("seed") / be_tx
    rest_max = float(mx.sel(star=stars[1:]).max()) if stars.size > 1 else math.nan
    why = None
    if stars.size > 1 and loss_at > 0:
        why = judge.reason(
            "mechanism",
            SAWTOOTH_TEXT
            + OVERLOAD_TEXT
            + ", at STAR {star_min}; above it, without loss, {rest_max}",
            overload_facts(ipdv_frame, float(ds.ef_rate), loss_at)
            + [judge.fact("star_min", star1, ""), judge.fact("rest_max", rest_max, BE_TX)],
        )
    rows.append(
        kit.claim(
            art,
            "max_ipdv_one_be_tx",
            float(mx.max()),
            BE_TX,
            f"largest |IPDV| at {ipdv_frame} bytes over STAR and seeds, in BE tx times ({be_tx:.3f}"
            f" ms): {listing(stars, mx.values, '{:.2f}')}",
            reason=why,
        )
    )
    for f in frames:
        rows.append(
            kit.claim(
                art,
                f"flat_from_star_{int(f)}",
                flat_from(f),
                "1",
                f"smallest STAR from which the mean delay at {int(f)} bytes stays within half a BE"
                " tx time; EF tag step < BE tag step from STAR"
                f" {value_at(ds['star_one_be_tag'], f):.2f}; EF loss at STAR {star1:g}:"
                f" {value_at(loss1, f):.3f}",
            )
        )
    return rows


def figure(ds: xr.Dataset):
    """Slides, "EF queue service rate": mean delay (log scale) and mean IPDV vs STAR under WFQ, PQ
    dashed.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`compute`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    ds = in_ms_for_axes(kit.check_artefact(ds, ARTEFACT.id))
    fig, (ax, ix) = kit.subplots(1, 2, figsize=(13, 5.4), footer=True)
    fig.get_layout_engine().set(rect=(0, 0.07, 1, 0.93))  # a footer of two lines
    stars = ds["star"].values
    frames = ds["ef_frame_bytes"].values
    palette = sns.color_palette("viridis", frames.size)
    for c, f in zip(palette, frames):
        d = ds["delay_mean"].sel(ef_frame_bytes=f)
        ax.plot(stars, d, "o-", ms=4, color=c, label=f"WFQ, {int(f)} B")
        ax.axhline(float(ds["pq_delay_mean"].sel(ef_frame_bytes=f)), color=c, ls="--", lw=1)
        tag = float(ds["star_one_be_tag"].sel(ef_frame_bytes=f))
        if stars.min() <= tag <= stars.max():
            ax.plot(
                [tag],
                [float(ds["pq_delay_mean"].sel(ef_frame_bytes=f))],
                "v",
                color=c,
                ms=9,
                mec="black",
            )
        ix.plot(
            stars,
            ds["ipdv_mean"].sel(ef_frame_bytes=f),
            "o-",
            ms=4,
            color=c,
            label=f"WFQ, {int(f)} B",
        )
    ax.plot([], [], "k--", lw=1, label="PQ (same colour)")
    ax.plot([], [], "v", color="0.5", mec="black", label="EF tag step = 1 BE tag step")
    ax.axvline(
        PAPER_STAR_PLATEAU, color="black", ls=":", lw=1.5, label="slides: no decrease above STAR 3"
    )
    ax.axvspan(
        stars.min() - 0.1,
        stars.min() + 0.1,
        color="C3",
        alpha=0.12,
        label="EF queue overloaded (loss)",
    )
    ax.set_yscale("log")
    ax.set_xlabel("STAR = EF service rate / EF arrival rate (WFQ weight / EF rate of IP packets)")
    ax.set_ylabel("mean EF one-way delay (ms, log scale)")
    ax.legend(loc="upper right", fontsize=8, ncol=2)
    ax.set_title("one-way delay ('independent of STAR when pack size <= 256 by')", fontsize=10)
    be_tx = float(ds.be_tx_time)
    if 1024 in frames:
        ix.plot(
            stars,
            ds["ipdv_max"].sel(ef_frame_bytes=1024).max("seed"),
            "^:",
            color="C3",
            ms=5,
            label="WFQ, 1024 B: largest |IPDV|",
        )
    ix.axhline(
        be_tx,
        color="black",
        ls="--",
        lw=1.2,
        label=f"slides: max IPDV = 1 BE tx time ({be_tx:.2f} ms)",
    )
    top = max(be_tx, float(ds["ipdv_mean"].max()))
    if 1024 in frames:
        top = max(top, float(ds["ipdv_max"].sel(ef_frame_bytes=1024).max()))
    ix.set_ylim(0, 1.25 * top)
    ix.set_xlabel("STAR")
    ix.set_ylabel("IPDV (ms)")
    ix.legend(loc="upper right", fontsize=8)
    ix.set_title("IPDV vs STAR (slides, at 1024 bytes: 'ipdv independent of STAR')", fontsize=10)
    fig.suptitle(
        f"{ARTEFACT.id}: EF one-way delay and IPDV vs service-to-arrival ratio under WFQ "
        "(TF-TANT slides, EF queue service rate)",
        fontsize=11,
    )
    ip_kbps = ", ".join(
        f"{int(f)} B: {float(to_kbps(r)):.0f}" for f, r in zip(frames, ds["ef_ip_rate"].values)
    )
    kit.footer(
        fig,
        f"{conditions(ds)}; PQ policed at {rate_kbps(ds, 'ef_service_rate'):g} kbit/s; "
        f"{kit.seed_count(ds.sizes['seed'])}\n"
        f"EF WFQ weight = STAR x the EF rate of IP packets ({ip_kbps} kbit/s), "
        f"BE weight = the rest of {rate_kbps(ds, 'line_rate'):g} kbit/s",
    )
    return fig
