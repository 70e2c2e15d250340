"""TF-TANT PQ-vs-WFQ page, Fig. 1: mean EF one-way delay, PQ and WFQ, vs EF frame size.

The artefact's computation (:func:`compute`), statistics (:func:`statistics`), claims
(:func:`claims`) and figure (:func:`figure`); the notebook ``notebooks/07_tftant_pq_vs_wfq``
runs them. The test bed is :func:`pqlab.scenarios.pq_vs_wfq`
(:mod:`pqlab.papers.tftant_wfq.pq_vs_wfq_testbed`). The Dataset is in SI units (times in
seconds, rates in bit/s, sizes in bytes; multiples of the BE transmission time in "BE tx
times"); the claims state times in ms (their statistics computed again from the converted
per-seed values) and rates in kbit/s; the figure draws ms.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import xarray as xr

from ...base.units import ms_to_s
from ...measure import cache, experiments
from ...node.scenario import simulate
from .. import judge, kit, presets
from ..registry import Artefact
from ..stated import MTU_FRAME_BYTES
from .pq_vs_wfq_claims import (
    MS_ROUNDING_TOLERANCE,
    PAGE_LARGE_FRAME_BYTES,
    SMALL_FRAME_BYTES,
    in_ms_be_tx,
    listing,
    tag_facts,
    value_at,
)
from .pq_vs_wfq_plots import (
    COLORS,
    LABELS,
    ci,
    conditions,
    in_ms_for_axes,
    seeds_text,
    source_sizes,
)
from .pq_vs_wfq_runs import checked_size_sweep
from .pq_vs_wfq_testbed import (
    BE_TX,
    EQUIVALENT_BE_TX,
    add_scalars,
    config_scalars,
    frame_coords,
    per_seed,
    rate_kbps,
)

__all__ = [
    "ARTEFACT",
    "compute",
    "statistics",
    "claims",
    "figure",
    "INTEGER_TOLERANCE",
    "PAGE_EQUIVALENT_FRAME_BYTES",
]

ARTEFACT = Artefact(__name__, notebook="07_tftant_pq_vs_wfq")

#: A ratio of BE tx times within this of an integer is "a multiple of the BE transmission time".
INTEGER_TOLERANCE = 0.1
#: The page's "PQ and WFQ equivalent up to 512 bytes": the frame size that statement covers, bytes.
PAGE_EQUIVALENT_FRAME_BYTES = 512
#: The paper's markers.
_PAPER = dict(color="black", marker="D", ls="none", ms=7, zorder=6)


@cache.artefact(ARTEFACT.id)
def compute(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    frame_sizes=presets.TFTANT_FRAME_SIZES,
    ef_service_rate_bps: float = presets.TFTANT_EF_SERVICE_RATE_BPS,
) -> xr.Dataset:
    """TF-TANT PQ-vs-WFQ page, Fig. 1: mean EF one-way delay with PQ and with WFQ vs EF frame size.

    Runs :func:`pqlab.scenarios.pq_vs_wfq` for both schedulers, every frame size and
    seed; the gain of PQ is ``gap = delay(WFQ) - delay(PQ)`` per seed, also in BE
    transmission times. A check of the BE profile's reading: at 1024 and 1518 bytes
    (first seed) the gap with the other reading of "2.0 Mbps, 200 packs/sec, 1000 bytes"
    (200 packets/s = 1.6 Mbit/s) against ours (2.0 Mbit/s = 250 packets/s); and the gain at
    1518 bytes with the other ring-release rule (the page states none).

    Parameters
    ----------
    n_ef_samples : int
        EF packets measured per run (the sources: 10,000), >= 10.
    seeds : sequence of int
        Seeds (>= 0, distinct): the streams' random phases.
    frame_sizes : sequence of int
        EF frame sizes, bytes (IP = frame - 18; default 64..1518 every 64 bytes and 1518).
    ef_service_rate_bps : float
        EF service rate, bit/s: WFQ weight / PQ policing rate (the page: 400 kbit/s).

    Returns
    -------
    xarray.Dataset
        Dims ``scheduler`` ("pq", "wfq"), ``ef_frame_bytes``, ``seed``: per run ``delay``,
        ``delay_min``, ``delay_max``, ``ef_wait`` (s), ``loss``; ``delay_mean``/``delay_ci``
        over seeds; ``gap`` (per seed), ``gap_mean``, ``gap_ci`` (s), ``gap_be_tx`` (BE tx
        times); the reading check ``gap_reading_1600k`` and ``gap_reading_2000k`` (s, on
        ``check_frame``); ``gap_unit_release`` (s), the gain at 1518 bytes (first seed) with the
        ring's
        particles freed one by one (``Node.ring_release="unit"``, the test bed's rule); the test
        conditions as scalars (``be_tx_time`` in s, rates in bit/s);
        the page's values ``paper_max_gain`` (s), ``paper_gap_1024``, ``paper_gap_1518`` (BE tx
        times).
    """
    n, seeds, frames, rate, node, raw = checked_size_sweep(
        n_ef_samples, seeds, frame_sizes, ef_service_rate_bps
    )
    dims = ("scheduler", "ef_frame_bytes", "seed")
    ds = xr.Dataset(
        {
            "delay": per_seed(raw, "delay_mean_s", "s", "mean EF one-way delay of one run", dims),
            "delay_min": per_seed(
                raw, "delay_min_s", "s", "smallest EF one-way delay of one run", dims
            ),
            "delay_max": per_seed(
                raw, "delay_max_s", "s", "largest EF one-way delay of one run", dims
            ),
            "ef_wait": per_seed(raw, "ef_wait_mean_s", "s", "mean EF wait in the EF queue", dims),
            "loss": per_seed(raw, "loss_ratio", "1", "EF loss ratio", dims),
        },
        coords={
            "scheduler": (
                "scheduler",
                list(presets.TFTANT_SCHEDULERS),
                {"long_name": "EF scheduler"},
            ),
            **frame_coords(frames, node),
            "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"}),
        },
    )

    # the BE profile's other reading: 200 packets/s of 1000 bytes (1.6 Mbit/s), first seed
    check_frames = [1024, MTU_FRAME_BYTES]
    reading = np.full((2, len(check_frames)), np.nan)
    for r, be_bps in enumerate(
        (
            presets.TFTANT_BE_PACKET_RATE_STATED * 8 * presets.TFTANT_BE_IP_BYTES,
            presets.TFTANT_BE_RATE_BPS,
        )
    ):
        for j, frame in enumerate(check_frames):
            d = []
            for sched in presets.TFTANT_SCHEDULERS:
                # a 10% BE overload fills the BE queue more slowly: a longer warm-up
                sc = presets.pq_vs_wfq(
                    scheduler=sched,
                    ef_frame_bytes=frame,
                    ef_service_rate_bps=rate,
                    be_rate_bps=be_bps,
                    n_ef_samples=n,
                    warmup_s=5.0,
                )
                d.append(experiments.delay_summary(simulate(sc, seed=seeds[0]), sc)["delay_mean_s"])
            reading[r, j] = d[1] - d[0]
    ds["gap_reading_1600k"] = (
        "check_frame",
        reading[0],
        {"units": "s", "long_name": "gain of PQ, BE 200 packets/s x 1000 bytes (1.6 Mbit/s)"},
    )
    ds["gap_reading_2000k"] = (
        "check_frame",
        reading[1],
        {"units": "s", "long_name": "gain of PQ, BE 2.0 Mbit/s of 1000 bytes (ours)"},
    )
    ds = ds.assign_coords(
        check_frame=("check_frame", check_frames, {"units": "bytes", "long_name": "EF frame size"})
    )
    # the ring-release rule the page does not state: particles freed one by one as the bytes leave
    # (rule 5')
    unit = []
    for sched in presets.TFTANT_SCHEDULERS:
        sc = presets.pq_vs_wfq(
            scheduler=sched,
            ef_frame_bytes=MTU_FRAME_BYTES,
            ef_service_rate_bps=rate,
            n_ef_samples=n,
        )
        sc = dataclasses.replace(sc, node=dataclasses.replace(sc.node, ring_release="unit"))
        unit.append(experiments.delay_summary(simulate(sc, seed=seeds[0]), sc)["delay_mean_s"])
    ds["gap_unit_release"] = (
        (),
        unit[1] - unit[0],
        {
            "units": "s",
            "long_name": (
                f"gain of PQ at {MTU_FRAME_BYTES} bytes, ring particles "
                "freed one by one (ring_release 'unit'), first seed"
            ),
        },
    )
    add_scalars(ds, config_scalars(node, rate))
    add_scalars(
        ds,
        {
            "paper_max_gain": (
                ms_to_s(kit.paper_value(ARTEFACT.id, "max_gain_mtu")[0]),
                "s",
                "TF-TANT page: maximum gain with PQ, MTU-size packets",
            ),
            "paper_gap_1024": (
                kit.paper_value(ARTEFACT.id, "gap_1024_be_tx")[0],
                BE_TX,
                "TF-TANT page: WFQ - PQ at 1024 bytes, BE tx times",
            ),
            "paper_gap_1518": (
                kit.paper_value(ARTEFACT.id, "gap_1518_be_tx")[0],
                BE_TX,
                "TF-TANT page: WFQ - PQ at 1518 bytes, BE tx times",
            ),
        },
    )
    ds.attrs = kit.provenance(
        ARTEFACT.id,
        f"{ARTEFACT.id}: mean EF one-way delay with PQ and WFQ vs EF frame size "
        "(TF-TANT PQ vs WFQ page, Fig. 1)",
        __name__,
        seeds,
        scenario=presets.pq_vs_wfq(
            scheduler="wfq", ef_frame_bytes=frames[-1], ef_service_rate_bps=rate, n_ef_samples=n
        ).to_json(),
        n_ef_samples=n,
    )
    return statistics(ds)


def statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`compute`'s statistics to its per-seed ``delay`` (in place; returned).

    ``delay_mean``/``delay_ci`` over seeds, the gain of PQ ``gap = delay(WFQ) - delay(PQ)``
    per seed with ``gap_mean``/``gap_ci``, and ``gap_be_tx = gap_mean / be_tx_time``, in
    the time unit of ``delay`` and ``be_tx_time`` (s; the claims' ms through
    :func:`pqlab.papers.kit.statistics_in_ms`).
    """
    unit = ds["delay"].attrs["units"]
    kit.add_mean_ci(ds, ["delay"])
    ds["gap"] = ds["delay"].sel(scheduler="wfq", drop=True) - ds["delay"].sel(
        scheduler="pq", drop=True
    )
    ds["gap"].attrs = {"units": unit, "long_name": "gain of PQ: delay(WFQ) - delay(PQ)"}
    kit.add_mean_ci(ds, ["gap"])
    ds["gap_be_tx"] = ds["gap_mean"] / float(ds.be_tx_time)
    ds["gap_be_tx"].attrs = {"units": BE_TX, "long_name": "gain of PQ in BE transmission times"}
    return ds


def claims(ds: xr.Dataset) -> list[dict]:
    """Claim records of :func:`compute`: PQ below WFQ, equivalence for small frames, the gain, the
    test conditions."""
    art = ARTEFACT.id
    ds, be_tx = in_ms_be_tx(ds, art, statistics)
    frames = ds["ef_frame_bytes"].values
    pq, wfq = ds["delay_mean"].sel(scheduler="pq"), ds["delay_mean"].sel(scheduler="wfq")
    gap, gap_be, gap_ci = ds["gap_mean"], ds["gap_be_tx"], np.nan_to_num(ds["gap_ci"].values)
    tol = MS_ROUNDING_TOLERANCE + gap_ci
    lower = gap.values >= -tol
    rows = [
        kit.claim(
            art,
            "pq_always_lower",
            None,
            "-",
            f"mean delay PQ <= WFQ at all {frames.size} frame sizes 64..1518"
            f" ({int((gap.values > tol).sum())} lower, {int((np.abs(gap.values) <= tol).sum())}"
            f" equal); WFQ - PQ in BE tx times ({be_tx:.3f} ms): {listing(frames, gap_be.values)}",
            shape_ok=bool(lower.all()),
        )
    ]
    for quantity, upto, where in (
        ("equivalent_up_to_512", PAGE_EQUIVALENT_FRAME_BYTES, "the page"),
        ("equivalent_up_to_256", SMALL_FRAME_BYTES, "the slides"),
    ):
        small = frames <= upto
        worst = float(np.abs(gap_be.values[small]).max()) if small.any() else math.nan
        why = None
        if worst >= EQUIVALENT_BE_TX:
            at = int(frames[small][int(np.argmax(np.abs(gap_be.values[small])))])
            why = judge.reason(
                "mechanism",
                "WFQ - PQ reaches {worst} at {worst_frame}, above the {threshold} read as"
                " 'equivalent' (no extra BE packet ahead on average): there an EF finish tag of"
                " {ef_tag} spans {tag_steps} BE tag steps of {be_tag}, so a queued BE packet with a"
                " smaller tag goes first",
                [
                    judge.fact("worst", worst, BE_TX),
                    judge.fact("worst_frame", at, "bytes"),
                    judge.fact("threshold", EQUIVALENT_BE_TX, BE_TX),
                ]
                + tag_facts(ds, at),
            )
        rows.append(
            kit.claim(
                art,
                quantity,
                None,
                "-",
                f"{where}: WFQ - PQ for frames <= {upto} bytes, BE tx times:"
                f" {listing(frames[small], gap_be.values[small])}; 'equivalent' read as below"
                f" {EQUIVALENT_BE_TX} BE tx (no extra BE packet ahead on average)",
                shape_ok=bool(small.any() and worst < EQUIVALENT_BE_TX),
                reason=why,
            )
        )
    g64 = value_at(gap_be, 64)
    rows.append(
        kit.claim(
            art,
            "equal_at_64",
            None,
            "-",
            f"WFQ - PQ at 64-byte frames: {value_at(gap, 64):.3f} ms = {g64:.2f} BE tx times "
            f"(PQ {value_at(pq, 64):.2f} ms, WFQ {value_at(wfq, 64):.2f} ms)",
            shape_ok=bool(np.isfinite(g64) and abs(g64) < EQUIVALENT_BE_TX),
        )
    )
    mtu = MTU_FRAME_BYTES
    g_mtu, paper_gain = value_at(gap, mtu), kit.paper_value(art, "max_gain_mtu")[0]  # ms
    argmax = int(frames[int(np.nanargmax(gap.values))])
    gain_why = None
    if np.isfinite(g_mtu):
        gain_why = _release_reason(ds, g_mtu, paper_gain, be_tx)
    rows.append(
        kit.claim(
            art,
            "max_gain_mtu",
            g_mtu,
            "ms",
            f"WFQ - PQ at {mtu}-byte frames (IP 1500), mean over {ds.sizes['seed']} seed(s): PQ"
            f" {value_at(pq, mtu):.2f}, WFQ {value_at(wfq, mtu):.2f} ms",
            reason=gain_why,
        )
    )
    rows.append(
        kit.claim(
            art,
            "max_gain_at_mtu",
            None,
            "-",
            f"the largest mean WFQ - PQ over the {frames.size} swept frame sizes:"
            f" {float(np.nanmax(gap.values)):.2f} ms at {argmax} bytes",
            shape_ok=argmax == mtu,
        )
    )
    for size in (PAGE_LARGE_FRAME_BYTES, mtu):
        v = value_at(gap_be, size)
        paper = float(ds[f"paper_gap_{size}"])
        rows.append(
            kit.claim(
                art,
                f"gap_{size}_be_tx",
                v,
                BE_TX,
                f"(WFQ - PQ) / BE tx time at {size} bytes = {value_at(gap, size):.2f} / {be_tx:.3f}"
                f" ms; paper ~{paper:g}",
                reason=(
                    None
                    if not np.isfinite(v)
                    else (
                        _release_reason(ds, g_mtu, paper_gain, be_tx)
                        if size == mtu
                        else judge.reason(
                            "mechanism",
                            "an EF finish tag of {ef_tag} above the virtual time spans {tag_steps}"
                            " BE tag steps of {be_tag}: the queued BE packets with smaller tags go"
                            " first (ties go to the EF queue)",
                            tag_facts(ds, size),
                        )
                    )
                ),
            )
        )
    large = [f for f in (PAGE_LARGE_FRAME_BYTES, mtu) if f in frames]
    frac = [abs(value_at(gap_be, f) - round(value_at(gap_be, f))) for f in large]
    between = [f for f in frames if PAGE_LARGE_FRAME_BYTES < f < mtu]
    multiple = bool(large) and all(x <= INTEGER_TOLERANCE for x in frac)
    off_why = None
    if large and not multiple:
        at = large[int(np.argmax(frac))]
        text = (
            "at {off_frame} WFQ - PQ is {off_gap}, {off_integer} from a whole number (more than"
            " {tolerance}): an EF finish tag of {ef_tag} spans {tag_steps} BE tag steps of"
            " {be_tag}, and the mean mixes EF packets that wait a whole number n or n + 1 of BE"
            " packets more than under PQ"
        )
        facts = [
            judge.fact("off_frame", at, "bytes"),
            judge.fact("off_gap", value_at(gap_be, at), BE_TX),
            judge.fact("off_integer", max(frac), BE_TX),
            judge.fact("tolerance", INTEGER_TOLERANCE, BE_TX),
        ] + tag_facts(ds, at)
        if at == mtu:  # the ring-release rule the page does not state moves it
            unit = float(ds["gap_unit_release"]) / be_tx
            text += (
                "; with the ring's particles freed one by one as their bytes leave (the test bed's"
                " rule; the page states none) it is {unit_gap}, {unit_off} from a whole number"
            )
            facts += [
                judge.fact("unit_gap", unit, BE_TX),
                judge.fact("unit_off", abs(unit - round(unit)), BE_TX),
            ]
        off_why = judge.reason("input" if at == mtu else "mechanism", text, facts)
    rows.append(
        kit.claim(
            art,
            "gap_multiple_of_be_tx",
            None,
            "-",
            f"WFQ - PQ at the page's large sizes {large}:"
            f" {', '.join(f'{value_at(gap_be, f):.2f}' for f in large)} BE tx times (a multiple:"
            f" within {INTEGER_TOLERANCE:g} of an integer); in between our sweep gives"
            f" {listing(between, [value_at(gap_be, f) for f in between])}",
            shape_ok=multiple,
            reason=off_why,
        )
    )
    small, big = frames <= SMALL_FRAME_BYTES, frames > SMALL_FRAME_BYTES
    rows.append(
        kit.claim(
            art,
            "gain_for_larger_packets",
            None,
            "-",
            "the slides: gain only for larger packets; ours: largest gain at <="
            f" {SMALL_FRAME_BYTES} bytes {float(gap.values[small].max()):.2f} ms, smallest above"
            f" {float(gap.values[big].min()):.2f} ms",
            shape_ok=bool(
                small.any() and big.any() and gap.values[big].min() > gap.values[small].max()
            ),
        )
    )
    # the test conditions
    gr = ds["gap_reading_1600k"].values - ds["gap_reading_2000k"].values
    rows += [
        kit.claim(
            art,
            "ef_rate",
            rate_kbps(ds, "ef_rate"),
            "kbit/s",
            "one CBR EF stream, rate counted on Ethernet frames",
        ),
        kit.claim(
            art,
            "be_rate",
            rate_kbps(ds, "be_rate"),
            "kbit/s",
            f"one CBR BE stream (the slides: '1 stream per PHB') of {int(ds.be_ip_bytes)}-byte IP"
            " packets",
        ),
        kit.claim(
            art,
            "be_packet_rate",
            float(ds.be_packet_rate),
            "packets/s",
            "the page's profile is inconsistent: 200 x 1000 bytes x 8 = 1.6 Mbit/s, not 2.0; we"
            f" send {rate_kbps(ds, 'be_rate'):g} kbit/s of 1000-byte packets ="
            f" {float(ds.be_packet_rate):g} packets/s; the other reading (200 packets/s) changes"
            f" the gain at 1024/1518 bytes by {', '.join(f'{v:+.4f}' for v in gr)} ms: either way"
            " the BE queue never empties",
        ),
        kit.claim(
            art,
            "be_packet_size",
            float(ds.be_ip_bytes),
            "bytes",
            "read as the IP length; one size for all",
        ),
        kit.claim(
            art, "ef_queue_limit", float(ds.ef_queue_limit), "packets", "EF queue limit (PQ or WFQ)"
        ),
        kit.claim(
            art,
            "tx_ring_limit",
            float(ds.ring_limit_particles),
            "particles",
            f"particles of {int(ds.particle_bytes)} bytes; a 1000-byte BE packet takes 2",
        ),
        kit.claim(
            art,
            "ef_service_rate",
            rate_kbps(ds, "ef_service_rate"),
            "kbit/s",
            "WFQ: weight of the EF WFQ queue (BE queue: the remaining"
            f" {rate_kbps(ds, 'be_weight'):g} kbit/s); PQ: policing rate; EF loss"
            f" {float(ds['loss'].max()):.3g}",
        ),
        kit.claim(
            art, "line_rate", rate_kbps(ds, "line_rate"), "kbit/s", "ATM PVC, whole 53-byte cells"
        ),
    ]
    return rows


def _release_reason(ds: xr.Dataset, gain: float, paper_gain: float, be_tx: float) -> dict:
    """The reason of the gain at MTU size (``ds`` in ms): the ring-release rule the page does not
    state.

    ``gain`` and ``paper_gain`` are ours and the page's WFQ - PQ at MTU size, ``be_tx`` one BE
    transmission time, all ms; ``ds["gap_unit_release"]`` is the gain with particles freed one by
    one.
    """
    unit = float(ds["gap_unit_release"])
    return judge.reason(
        "input",
        "the page does not state when the ring frees a packet's particles: with all of them when"
        " its last bit has left (ours) WFQ - PQ at MTU size is {gap} = {gap_be_tx}, with each as"
        " its bytes leave (the test bed's rule) {gap_unit_release} = {gap_unit_release_be_tx},"
        " where the page's gain is {paper_gain} = {paper_be_tx}; under WFQ an EF finish tag of"
        " {ef_tag} spans {tag_steps} BE tag steps of {be_tag}",
        [
            judge.fact("gap", gain, "ms"),
            judge.fact("gap_be_tx", gain / be_tx, BE_TX),
            judge.fact("gap_unit_release", unit, "ms"),
            judge.fact("gap_unit_release_be_tx", unit / be_tx, BE_TX),
            judge.fact("paper_gain", paper_gain, "ms"),
            judge.fact("paper_be_tx", paper_gain / be_tx, BE_TX),
        ]
        + tag_facts(ds, MTU_FRAME_BYTES),
    )


def _paper_gains(ax, ds: xr.Dataset, frames, be_tx: float) -> None:
    """The page's gains of PQ over WFQ, drawn up from our PQ curve: where WFQ would be with the
    page's gap.

    The page gives no absolute delays for Fig. 1, only the differences WFQ - PQ: about 4 and 5
    BE transmission times at 1024 and 1518 bytes and 24.18 ms at MTU size (1518 bytes).
    """
    pq = ds["delay_mean"].sel(scheduler="pq").values
    for frame, gap, style, label in (
        (1024, float(ds.paper_gap_1024) * be_tx, {}, "page: PQ + its gap (~4, ~5 BE tx times)"),
        (1518, float(ds.paper_gap_1518) * be_tx, {}, None),
        (
            1518,
            float(ds.paper_max_gain),
            {"marker": "*", "ms": 13},
            f"page: PQ + max gain {float(ds.paper_max_gain):g} ms",
        ),
    ):
        base = float(np.interp(frame, frames, pq))
        ax.vlines(frame + 12, base, base + gap, color="black", lw=1, ls="--", zorder=4)
        ax.plot([frame + 12], [base + gap], **{**_PAPER, **style}, label=label)


def figure(ds: xr.Dataset):
    """Page Fig. 1: mean EF delay with PQ and WFQ vs frame size (left), their difference in BE tx
    times (right).

    The page's numbers are differences WFQ - PQ, so the left panel draws them up from our PQ
    curve (:func:`_paper_gains`) and marks the range where the page calls PQ and WFQ equivalent.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`compute`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    ds = in_ms_for_axes(kit.check_artefact(ds, ARTEFACT.id))
    fig, (ax, gx) = kit.subplots(1, 2, figsize=(14, 6.2), footer=True)
    frames = ds["ef_frame_bytes"].values
    be_tx = float(ds.be_tx_time)
    for s in ds["scheduler"].values:
        ax.errorbar(
            frames,
            ds["delay_mean"].sel(scheduler=s),
            yerr=ci(ds["delay_ci"].sel(scheduler=s)),
            fmt="o-",
            ms=4,
            capsize=3,
            color=COLORS[s],
            label=f"pqlab, {LABELS[s]}",
        )
    source_sizes(ax, frames)
    ax.plot([], [], color="0.75", lw=0.8, ls=":", label="frame sizes the page measured")
    _paper_gains(ax, ds, frames, be_tx)
    ax.axvspan(
        frames.min() - 20,
        512,
        ymin=0,
        ymax=0.03,
        color="C2",
        alpha=0.5,
        label="page: PQ and WFQ almost equivalent <= 512 B",
    )
    ax.set_xlabel("EF frame size (bytes; IP = frame - 18)")
    ax.set_ylabel("mean EF one-way delay (ms)")
    ax.set_ylim(bottom=0)
    ax.legend(loc="upper left", fontsize=10)
    ax.set_title("mean one-way delay (incl. the 2 C7500 hops of the path)")

    gap = ds["gap_be_tx"].values
    gx.axhspan(
        -EQUIVALENT_BE_TX,
        EQUIVALENT_BE_TX,
        color="0.9",
        zorder=0,
        label=f"'equivalent': |WFQ - PQ| < {EQUIVALENT_BE_TX} BE tx",
    )
    gx.axvspan(
        frames.min() - 20,
        512,
        ymin=0,
        ymax=0.04,
        color="C2",
        alpha=0.5,
        label="page: almost equivalent <= 512 B",
    )
    gx.axvspan(
        frames.min() - 20,
        256,
        ymin=0.04,
        ymax=0.08,
        color="C4",
        alpha=0.5,
        label="slides: equivalent <= 256 B",
    )
    gx.errorbar(
        frames,
        gap,
        yerr=ci(ds["gap_ci"].values / be_tx),
        fmt="s-",
        ms=4,
        capsize=3,
        color="C3",
        label="pqlab: (WFQ - PQ) / BE tx time",
    )
    gx.plot(
        [1024, 1518],
        [float(ds.paper_gap_1024), float(ds.paper_gap_1518)],
        label="page: ~4 and ~5 BE tx times (Figs. 2-4)",
        **_PAPER,
    )
    gx.plot(
        [1518],
        [float(ds.paper_max_gain) / be_tx],
        **{**_PAPER, "marker": "*", "ms": 13},
        label=f"page: max gain {float(ds.paper_max_gain):g} ms at MTU size",
    )
    gx.set_yticks(np.arange(0, max(6, int(np.nanmax(gap)) + 2)))
    gx.set_xlim(frames.min() - 20, frames.max() + 40)
    gx.set_xlabel("EF frame size (bytes)")
    gx.set_ylabel(f"gain of PQ: WFQ - PQ (BE tx times of {be_tx:.3f} ms)")
    sec = gx.secondary_yaxis("right", functions=(lambda v: v * be_tx, lambda v: v / be_tx))
    sec.set_ylabel("WFQ - PQ (ms)")
    gx.legend(loc="upper left", fontsize=10)
    gx.set_title("gain of PQ in BE transmission times")
    fig.suptitle(
        f"{ARTEFACT.id}: mean EF one-way delay with PQ and WFQ vs EF packet size "
        "(TF-TANT PQ vs WFQ page, Fig. 1)"
    )
    kit.footer(
        fig,
        f"{conditions(ds)}; EF service rate {rate_kbps(ds, 'ef_service_rate'):g} kbit/s (WFQ"
        f" weight, BE weight {rate_kbps(ds, 'be_weight'):g} kbit/s; PQ policing rate);"
        f" {seeds_text(ds)}",
    )
    return fig
