"""Every measured result of the papers under the papers' node model and the test-bed model.

One function per measured quantity (a row of ``data/paper_values.csv`` whose
``kind`` is ``result`` and whose value is a number), each computed the way the
paper measured it, through :func:`pqlab.papers.testbed.simulate_testbed` with a given
:class:`pqlab.papers.testbed.Testbed` (:data:`pqlab.papers.testbed.PAPERS_NODE` is exactly
``pqlab.simulate``). :data:`CALIBRATION` names the calibration set (issue 31's protocol,
docs/testbed.md: Table IV's ``W_m`` for k = 1, 2, 3 and Table III's mean delay at A = 0 and
A = 5/6); everything else is a held-out prediction.

The measurement definitions follow the artefact modules (:mod:`pqlab.papers.registry`):
mean delay of the reference stream after the warm-up, ``(p95 - p5) / mean`` for
Fig. 3-2, the 99.9th percentile in transmission units for Fig. 5, mean and
standard deviation of ``|IPDV|`` of consecutive reference packets, the WFQ - PQ
gap in BE transmission times, the EF loss ratio of all EF packets after the
warm-up.
"""

from __future__ import annotations

import collections
import functools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..base.locations import file_state, paper_values_file
from ..base.units import to_ms, to_us
from ..measure import experiments, metrics
from ..node.engine import KEPT, POLICED, QUEUE_FULL
from ..node.framing import line_time_s
from ..node.scenario import Scenario
from ..node.traffic import UDP_IP_HEADER_BYTES, Empirical, SizeDistribution
from . import judge, ledger, presets
from .stated import (
    EF_AGGREGATE_BPS,
    EF_FRAME_SIZES,
    IPDV_EF_LOAD_BPS,
    LOSS_EF_LOAD_BPS,
    MTU_FRAME_BYTES,
    PAPER_FIG3_2_PAYLOADS,
    PAPERS,
    REF_RATES_BPS,
    cisco7200_atm,
    transmission_unit_s,
)
from .testbed import PAPERS_NODE, TESTBED, Testbed, testbed_runs, testbed_scenario

#: The two models compared.
MODELS = {"papers_node": PAPERS_NODE, "testbed": TESTBED}
#: The papers' transmission unit: line time of the 128-byte EF frame (IP 110 bytes) at 2 Mbit/s ATM,
#: s.
UNIT_S = transmission_unit_s()
#: TF-TANT BE transmission time: 1000-byte IP packet at 2 Mbit/s ATM, s.
BE_TX_S = float(line_time_s(presets.TFTANT_BE_IP_BYTES, PAPERS.framing, PAPERS.line_rate_bps))
#: GLOBECOM'01 Table III / long version 6: reference rates (bit/s) by aggregation degree
#: A = 1 - ref / aggregate (5/6, 2/3, 1/3, 0 for 50, 100, 200, 300 kbit/s of the 300 kbit/s
#: aggregate).
TAB3_REF_RATES = dict(zip(("5_6", "2_3", "1_3", "0"), REF_RATES_BPS))
#: TF-TANT EF frame of the PQ-vs-WFQ IPDV figures (page Fig. 7) and of the slides' ring test, bytes.
TFTANT_IPDV_FRAME_BYTES = 1024
#: Ring limits (particles) and STAR values at which the slides' largest IPDV is looked for
#: (a subset of the artefacts' sweeps 1..16 and 1..5: where the maximum lies).
RING_LIMITS_SAMPLED = (2, 5, 10)
STARS_SAMPLED = (1.0, 3.0, 5.0)
#: GLOBECOM'01 Sec. III's round trip: a 64-byte frame, sent at a rate that leaves the path idle.
RTT_FRAME_BYTES = 64
RTT_PROBE_RATE_BPS = 10e3
#: Fig. 3-1 windows searched for the two local maxima, BE UDP payload bytes.
FIG3_WINDOWS = ((400, 700), (900, 1250))


@dataclass(frozen=True)
class Measured:
    """One measured result: where it is in ``data/paper_values.csv`` and how to compute it."""

    artefact: str
    quantity: str
    role: str  # "calibration" or "held_out"
    compute: object  # (model, n, seeds, be_size) -> float
    uses_real_be: bool = False


# --------------------------------------------------------------------------- runs (memoised)


#: Runs kept by :func:`run`, keyed by the scenario's and the model's JSON and the seed.
_RUNS: collections.OrderedDict = collections.OrderedDict()
_MAX_RUNS = 4096


def _measures(packets: dict, tsc: Scenario, model: Testbed) -> dict:
    """:func:`run`'s measures of one run's per-packet arrays (:func:`testbed_runs`); ``tsc`` the
    scenario the node ran (:func:`testbed_scenario`)."""
    delay = experiments.reference_delay_values(packets, tsc)
    ef = (
        (packets["queue"] == presets.EF_QUEUE)
        if model.be_queueing == "class"
        else (packets["flow"] < presets.FIRST_BE_FLOW)
    )
    win = ef & (packets["arrival"] >= tsc.warmup_s)
    drop = packets["drop"][win]

    def share(mask) -> float:
        return float(np.mean(mask)) if drop.size else math.nan

    return {
        "delay": delay,
        "ef_loss": share(drop != KEPT),
        "ef_policed": share(drop == POLICED),
        "ef_queue_full": share(drop == QUEUE_FULL),
    }


def runs(scenario: Scenario, seeds, model: Testbed) -> list[dict]:
    """:func:`run` for each of ``seeds`` (memoised); the seeds not yet run are simulated in one
    :func:`pqlab.papers.testbed.testbed_runs` call."""
    scenario_key, model_key = scenario.to_json(), model.to_json()
    keys = [(scenario_key, int(seed), model_key) for seed in seeds]
    missing = list(dict.fromkeys(key[1] for key in keys if key not in _RUNS))
    if missing:
        tsc = testbed_scenario(scenario, model)
        for seed, packets in zip(missing, testbed_runs(scenario, missing, model)):
            _RUNS[(scenario_key, seed, model_key)] = _measures(packets, tsc, model)
    out = []
    for key in keys:
        _RUNS.move_to_end(key)
        out.append(_RUNS[key])
    while len(_RUNS) > _MAX_RUNS:
        _RUNS.popitem(last=False)
    return out


def run(scenario: Scenario, seed: int, model: Testbed) -> dict:
    """One run (memoised): ``delay`` (reference delays, s, NaN if lost, sending order), ``ef_loss``
    (EF packets
    after the warm-up that were dropped), ``ef_policed`` and ``ef_queue_full`` (dropped by the
    policer, by a full
    priority queue; shares of the same packets)."""
    return runs(scenario, (seed,), model)[0]


def reference_jitter(scenario: Scenario, seed: int, model: Testbed) -> np.ndarray:
    """|IPDV| of the run's consecutive reference packets (:func:`pqlab.metrics.jitter_of_delays`),
    s."""
    return metrics.jitter_of_delays(run(scenario, seed, model)["delay"])


def _mean_delay(make, model, seeds) -> float:
    return float(np.mean([np.nanmean(r["delay"]) for r in runs(make(), seeds, model)]))


def _real(be_size):
    return presets.real_be_sizes() if be_size is None else be_size


def aggregation_scenario(ref_rate: float, n: int, be_size) -> Scenario:
    """GLOBECOM'01 Table III's scenario at one reference-stream rate, BE streams first.

    Parameters
    ----------
    ref_rate : float
        Rate of the reference EF stream, bit/s (:data:`TAB3_REF_RATES`).
    n : int
        EF reference packets.
    be_size : pqlab.node.traffic.SizeDistribution or None
        The BE sizes; None: the stand-in "real" distribution.
    """
    return presets.be_streams_first(
        presets.pq_experiment(
            be_size=_real(be_size),
            ef_rate_bps=ref_rate,
            ef_aggregate_bps=EF_AGGREGATE_BPS,
            n_ef_samples=n,
            name=f"aggregation({ref_rate:g})",
        )
    )


def _ef_split(n_streams: int, load_bps: float, n: int, be_size, total: bool = False) -> Scenario:
    n_ref = math.ceil(n / n_streams) if total else n
    return presets.be_streams_first(
        presets.pq_experiment(
            be_size=_real(be_size),
            ef_rate_bps=load_bps / n_streams,
            ef_aggregate_bps=load_bps if n_streams > 1 else None,
            n_ef_samples=n_ref,
            node=cisco7200_atm(ef_police_rate_bps=load_bps),
            name=f"ef_split({n_streams}, {load_bps:g})",
        )
    )


# --------------------------------------------------------------------------- quantities


def w_m(k: int):
    """GLOBECOM'01 Table IV ``W_m`` (us): BE packets filling ``k`` particles of 512 bytes."""

    def compute(model, n, seeds, be_size=None):
        return to_us(_mean_delay(lambda: presets.full_units(k=k, n_ef_samples=n), model, seeds))

    return compute


def fig3_1_payloads(window) -> list[int]:
    """Payloads searched in one window: every 25 bytes and +-8 bytes around 512- and 576-byte
    particle edges."""
    lo, hi = window
    edges = {
        k * p - UDP_IP_HEADER_BYTES + d
        for p in (512, 576)
        for k in (1, 2, 3)
        for d in (-8, -4, 0, 4, 8)
    }
    return sorted(set(range(lo, hi + 1, 25)) | {e for e in edges if lo <= e <= hi})


def local_max_position(payloads, means) -> float:
    """Payload just before the largest fall of the mean-delay curve (the paper's "discontinuity"),
    NaN if none.

    A fall must exceed 1 % of the curve's level; a curve that only rises has no local maximum.
    """
    y = np.asarray(means, dtype=float)
    fall = y[:-1] - y[1:]
    i = int(np.argmax(fall))
    return float(payloads[i]) if fall[i] > 0.01 * float(np.mean(y)) else math.nan


def next_swept_payload(index: int, payload: float) -> float:
    """The payload searched right after ``payload`` in window ``index`` (the end of our drop
    interval), NaN if none."""
    later = [p for p in fig3_1_payloads(FIG3_WINDOWS[index]) if p > payload]
    return float(later[0]) if later and math.isfinite(payload) else math.nan


def fig3_1_curve(model, n, seeds, window) -> tuple[list[int], list[float]]:
    """GLOBECOM'01 Fig. 3-1 over one window of BE payloads: (payloads in bytes, mean reference delay
    in s)."""
    pays = fig3_1_payloads(window)
    means = [
        _mean_delay(
            functools.partial(presets.base_case, be_payload_bytes=p, n_ef_samples=n), model, seeds
        )
        for p in pays
    ]
    return pays, means


def fig3_1_local_max(index: int):
    """GLOBECOM'01 Fig. 3-1: BE payload (bytes) of the ``index``-th local maximum of the mean
    delay."""

    def compute(model, n, seeds, be_size=None):
        return local_max_position(*fig3_1_curve(model, n, seeds, FIG3_WINDOWS[index]))

    return compute


def tab3_mean(key: str):
    """GLOBECOM'01 Table III mean one-way delay (ms) at aggregation degree ``key``."""

    def compute(model, n, seeds, be_size=None):
        return to_ms(
            _mean_delay(lambda: aggregation_scenario(TAB3_REF_RATES[key], n, be_size), model, seeds)
        )

    return compute


def fig3_2_runs(model, n, seeds) -> list[tuple[float, float]]:
    """GLOBECOM'01 Fig. 3-2's runs (BE payloads 450 and 475, each seed): ``(p95 - p5, mean)`` of the
    delay, s."""
    out = []
    for p in PAPER_FIG3_2_PAYLOADS:
        for r in runs(presets.base_case(be_payload_bytes=p, n_ef_samples=n), seeds, model):
            d = r["delay"]
            d = d[np.isfinite(d)]
            p5, p95 = np.percentile(d, [5, 95])
            out.append((float(p95 - p5), float(d.mean())))
    return out


def fig3_2_fluctuation(model, n, seeds, be_size=None) -> float:
    """GLOBECOM'01 Fig. 3-2: ``(p95 - p5) / mean`` of the delay, BE payloads 450 and 475, mean over
    runs."""
    return float(np.mean([width / mean for width, mean in fig3_2_runs(model, n, seeds)]))


def fig5_delays(model, n, seeds, be_size=None) -> np.ndarray:
    """GLOBECOM'01 Fig. 5's sample: reference delays (s) with the "real" BE sizes, seeds pooled,
    losses removed."""
    d = np.concatenate(
        [
            r["delay"]
            for r in runs(
                presets.pq_experiment(
                    be_size=_real(be_size), n_ef_samples=n, name="real_distribution"
                ),
                seeds,
                model,
            )
        ]
    )
    return d[np.isfinite(d)]


def fig5_tail_units(model, n, seeds, be_size=None) -> float:
    """GLOBECOM'01 Fig. 5 "negligible above": 99.9th percentile of the delay, transmission units,
    seeds pooled."""
    return float(np.percentile(fig5_delays(model, n, seeds, be_size), 99.9) / UNIT_S)


def mean_ipdv(key: str):
    """Long version 6.2: mean |IPDV| (ms) at aggregation degree ``key``."""

    def compute(model, n, seeds, be_size=None):
        return to_ms(
            float(
                np.mean(
                    [
                        reference_jitter(
                            aggregation_scenario(TAB3_REF_RATES[key], n, be_size), s, model
                        ).mean()
                        for s in seeds
                    ]
                )
            )
        )

    return compute


def max_ipdv_per_run(model, n, seeds, be_size=None) -> np.ndarray:
    """Long version 6.2: the largest |IPDV| of each run (one aggregation degree of Table III, one
    seed, ``n`` reference packets: the paper's one 10,000-sample run per A), transmission units,
    shape (A, seed)."""
    return (
        np.array(
            [
                [
                    reference_jitter(aggregation_scenario(rate, n, be_size), s, model).max()
                    for s in seeds
                ]
                for rate in TAB3_REF_RATES.values()
            ]
        )
        / UNIT_S
    )


def max_ipdv_units(model, n, seeds, be_size=None) -> float:
    """Long version 6.2's "maximum IPDV ... 30 times the transmission time, independently of the
    aggregation pattern": the mean over the runs of each run's largest |IPDV|
    (:func:`max_ipdv_per_run`), transmission units; the same quantity as the artefact
    ``long_ipdv_vs_a`` gives for the papers' node."""
    return float(np.mean(max_ipdv_per_run(model, n, seeds, be_size)))


def max_ipdv_run_range(model, n, seeds, be_size=None) -> tuple[float, float]:
    """The smallest and largest of the runs' largest |IPDV| (:func:`max_ipdv_per_run`), in
    transmission units."""
    per_run = max_ipdv_per_run(model, n, seeds, be_size)
    return float(per_run.min()), float(per_run.max())


def frame_scenario(frame: int, n: int, be_size=None) -> Scenario:
    """The long version's Sec. 7 run: one EF stream of ``frame``-byte frames, the "real" BE sizes,
    BE first."""
    return presets.be_streams_first(
        presets.pq_experiment(
            be_size=_real(be_size),
            ef_frame_bytes=frame,
            n_ef_samples=n,
            name=f"ef_frame_size({frame})",
        )
    )


def ipdv_std(frame: int):
    """Long version Sec. 7: standard deviation of |IPDV| (us), one EF stream of ``frame``-byte
    frames."""

    def compute(model, n, seeds, be_size=None):
        return to_us(
            float(
                np.mean(
                    [
                        reference_jitter(frame_scenario(frame, n, be_size), s, model).std(ddof=1)
                        for s in seeds
                    ]
                )
            )
        )

    return compute


def mode_fraction(jitter_s, width_s: float = UNIT_S, offset_s: float = 0.0) -> float:
    """Share of |IPDV| values in the most populated interval of a grid of width ``width_s`` shifted
    by ``offset_s``.

    The long version's "60 % of the IPDV values are concentrated in a single interval" gives neither
    the width nor the grid's origin; the default is one transmission unit from 0. Seconds.
    """
    j = np.asarray(jitter_s, dtype=float)
    counts = np.bincount(np.floor((j + offset_s) / width_s).astype(np.int64))
    return float(counts.max() / j.size)


def mode_fraction_128(model, n, seeds, be_size=None) -> float:
    """Long version Sec. 7: share of |IPDV| in the most populated one-unit interval, 128-byte
    frames."""
    return float(
        np.mean(
            [
                mode_fraction(
                    reference_jitter(frame_scenario(presets.EF_FRAME_BYTES, n, be_size), s, model)
                )
                for s in seeds
            ]
        )
    )


def _wfq_gap_s(frame: int, model, n, seeds) -> float:
    pq = _mean_delay(
        lambda: presets.pq_vs_wfq(scheduler="pq", ef_frame_bytes=frame, n_ef_samples=n),
        model,
        seeds,
    )
    wfq = _mean_delay(
        lambda: presets.pq_vs_wfq(scheduler="wfq", ef_frame_bytes=frame, n_ef_samples=n),
        model,
        seeds,
    )
    return wfq - pq


def max_gain_mtu(model, n, seeds, be_size=None) -> float:
    """TF-TANT PQ vs WFQ: mean delay WFQ - PQ at 1518-byte EF frames, ms."""
    return to_ms(_wfq_gap_s(MTU_FRAME_BYTES, model, n, seeds))


def wfq_gap_be_tx(frame: int):
    """TF-TANT PQ vs WFQ: WFQ - PQ at ``frame``-byte EF frames, in BE transmission times (1000
    bytes)."""

    def compute(model, n, seeds, be_size=None):
        return _wfq_gap_s(frame, model, n, seeds) / BE_TX_S

    return compute


def _max_ipdv_be_tx(make, model, seeds) -> float:
    return float(max(reference_jitter(make(), s, model).max() for s in seeds)) / BE_TX_S


def fig7_max_ipdv(scheduler: str):
    """TF-TANT PQ vs WFQ Fig. 7: largest |IPDV| at 1024-byte EF frames, BE transmission times."""

    def compute(model, n, seeds, be_size=None):
        return _max_ipdv_be_tx(
            lambda: presets.pq_vs_wfq(
                scheduler=scheduler, ef_frame_bytes=TFTANT_IPDV_FRAME_BYTES, n_ef_samples=n
            ),
            model,
            seeds,
        )

    return compute


def ring_max_ipdv(model, n, seeds, be_size=None) -> float:
    """TF-TANT slides, tx ring: largest |IPDV| (WFQ, EF service 300 kbit/s, 1024 bytes), over
    rings 2..10."""
    return max(
        _max_ipdv_be_tx(
            lambda r=r: presets.pq_vs_wfq(
                scheduler="wfq",
                ef_frame_bytes=TFTANT_IPDV_FRAME_BYTES,
                ef_service_rate_bps=presets.TFTANT_EF_RATE_BPS,
                ring_limit_particles=r,
                n_ef_samples=n,
            ),
            model,
            seeds,
        )
        for r in RING_LIMITS_SAMPLED
    )


def star_max_ipdv(model, n, seeds, be_size=None) -> float:
    """TF-TANT slides, STAR: largest |IPDV| (WFQ, 1024 bytes) over STAR 1, 3, 5, BE transmission
    times."""
    return max(
        _max_ipdv_be_tx(lambda st=st: presets.tftant_star(star=st, n_ef_samples=n), model, seeds)
        for st in STARS_SAMPLED
    )


#: EF streams of the TF-TANT slides' loss statement ("up to 12 % ... 20 EF streams").
LOSS_STREAMS = 20


def loss_scenario(n: int, be_size=None, n_streams: int = LOSS_STREAMS) -> Scenario:
    """The TF-TANT slides' loss test: ``n_streams`` EF streams sharing 60 % of the line, policed at
    the load,
    ``4 n`` EF packets in all (``n`` reference packets per run in the other results)."""
    return _ef_split(n_streams, LOSS_EF_LOAD_BPS, 4 * n, be_size, total=True)


def loss_20_streams(model, n, seeds, be_size=None) -> float:
    """TF-TANT slides: the largest EF loss ratio over the seeds' runs, 20 EF streams at 60 % of the
    line.

    The slide says "up to 12 %": a maximum over its runs, so the largest of ours (one run per seed).
    """
    return metrics.largest_loss(
        [r["ef_loss"] for r in runs(loss_scenario(n, be_size), seeds, model)]
    )


def ipdv_split_scenario(n_streams: int, n: int, be_size=None) -> Scenario:
    """The TF-TANT slides' IPDV test: ``n_streams`` EF streams sharing 600 kbit/s, ``n`` reference
    packets."""
    return _ef_split(n_streams, IPDV_EF_LOAD_BPS, n, be_size)


def slides_mean_ipdv(n_streams: int):
    """TF-TANT slides: mean |IPDV| with ``n_streams`` EF streams at 600 kbit/s, transmission
    units."""

    def compute(model, n, seeds, be_size=None):
        return (
            float(
                np.mean(
                    [
                        reference_jitter(
                            ipdv_split_scenario(n_streams, n, be_size), s, model
                        ).mean()
                        for s in seeds
                    ]
                )
            )
            / UNIT_S
        )

    return compute


def rtt_scenario(n: int) -> Scenario:
    """GLOBECOM'01 Sec. III's round trip: a 64-byte frame at a rate that leaves the path idle, no
    BE."""
    return presets.pq_experiment(
        ef_frame_bytes=RTT_FRAME_BYTES,
        ef_rate_bps=RTT_PROBE_RATE_BPS,
        n_be_streams=0,
        n_ef_samples=min(n, 200),
        warmup_s=0.0,
        name="rtt_64",
    )


def rtt_64(model, n, seeds, be_size=None) -> float:
    """GLOBECOM'01 Sec. III: round trip of a 64-byte frame on the idle path (twice the one-way
    delay), ms."""
    sc = rtt_scenario(n)
    return to_ms(2.0 * _mean_delay(lambda: sc, model, seeds[:1]))


def spread_scenarios(n: int) -> dict[str, tuple]:
    """The runs each delay-variation result is computed from: ``"<artefact>/<quantity>"`` ->
    scenarios (one per
    aggregation degree, frame or stream count the result takes), stand-in "real" BE sizes, ``n``
    reference
    packets; a result's |IPDV| comes from the reference delays of these runs
    (:func:`reference_jitter`).
    """
    out = {
        f"long_ipdv_vs_a/mean_ipdv_a_{k}": (aggregation_scenario(TAB3_REF_RATES[k], n, None),)
        for k in ("2_3", "1_3", "0")
    }
    out["long_ipdv_vs_a/max_ipdv"] = tuple(
        aggregation_scenario(rate, n, None) for rate in TAB3_REF_RATES.values()
    )
    out.update({f"long_fig7_tab3/ipdv_std_ef_{f}": (frame_scenario(f, n),) for f in EF_FRAME_SIZES})
    out.update(
        {
            f"tftant_slides_ipdv_aggregation/mean_ipdv_{k}": (ipdv_split_scenario(m, n),)
            for k, m in (("1_stream", 1), ("20_streams", 20))
        }
    )
    return out


#: Every numeric measured result, in ``data/paper_values.csv`` order.
RESULTS = (
    Measured("path", "rtt_64_byte_packet", "held_out", rtt_64),
    Measured("globecom01_fig3_1", "local_max_be_payload_1", "held_out", fig3_1_local_max(0)),
    Measured("globecom01_fig3_1", "local_max_be_payload_2", "held_out", fig3_1_local_max(1)),
    Measured("globecom01_fig3_2", "fluctuation_fraction", "held_out", fig3_2_fluctuation),
    Measured("globecom01_fig5", "ccdf_negligible_above", "held_out", fig5_tail_units, True),
    *(
        Measured(
            "globecom01_tab3",
            f"mean_delay_a_{k}",
            "calibration" if k in ("5_6", "0") else "held_out",
            tab3_mean(k),
            True,
        )
        for k in TAB3_REF_RATES
    ),
    *(
        Measured("long_ipdv_vs_a", f"mean_ipdv_a_{k}", "held_out", mean_ipdv(k), True)
        for k in ("2_3", "1_3", "0")
    ),
    Measured("long_ipdv_vs_a", "max_ipdv", "held_out", max_ipdv_units, True),
    *(
        Measured("long_fig7_tab3", f"ipdv_std_ef_{f}", "held_out", ipdv_std(f), True)
        for f in EF_FRAME_SIZES
    ),
    Measured("long_fig7_tab3", "mode_fraction_ef_128", "held_out", mode_fraction_128, True),
    *(Measured("globecom01_tab4", f"w_m_k{k}", "calibration", w_m(k)) for k in (1, 2, 3)),
    Measured("tftant_wfq_fig1", "max_gain_mtu", "held_out", max_gain_mtu),
    *(
        Measured("tftant_wfq_fig1", f"gap_{f}_be_tx", "held_out", wfq_gap_be_tx(f))
        for f in (TFTANT_IPDV_FRAME_BYTES, MTU_FRAME_BYTES)
    ),
    Measured("tftant_wfq_fig6_7", "max_ipdv_fig7_pq", "held_out", fig7_max_ipdv("pq")),
    Measured("tftant_wfq_fig6_7", "max_ipdv_fig7_wfq", "held_out", fig7_max_ipdv("wfq")),
    Measured("tftant_slides_ring", "max_ipdv_one_be_tx", "held_out", ring_max_ipdv),
    Measured("tftant_slides_star", "max_ipdv_one_be_tx", "held_out", star_max_ipdv),
    Measured("tftant_slides_loss", "ef_loss_20_streams", "held_out", loss_20_streams, True),
    Measured(
        "tftant_slides_ipdv_aggregation",
        "mean_ipdv_1_stream",
        "held_out",
        slides_mean_ipdv(1),
        True,
    ),
    Measured(
        "tftant_slides_ipdv_aggregation",
        "mean_ipdv_20_streams",
        "held_out",
        slides_mean_ipdv(20),
        True,
    ),
)
#: The calibration set (the free parameters are chosen on these alone).
CALIBRATION = tuple(r for r in RESULTS if r.role == "calibration")


def plausible_be_laws() -> dict:
    """Plausible BE IP size laws for the papers' unpublished "real" distribution ("mainly
    concentrated around
    two packet size values"): the stand-in (None) and bimodal/trimodal ones, name -> law."""
    return {
        "stand-in (AIX 1999)": None,
        "bimodal 40/1500, p40=0.5": Empirical((40, 1500), (0.5, 1.0)),
        "bimodal 40/1500, p40=0.6": Empirical((40, 1500), (0.6, 1.0)),
        "bimodal 40/1500, p40=0.7": Empirical((40, 1500), (0.7, 1.0)),
        "trimodal 40/576/1500 (0.5/0.25/0.25)": Empirical((40, 576, 1500), (0.5, 0.75, 1.0)),
    }


def law_band(ids, model: Testbed, n: int, seeds) -> tuple[np.ndarray, np.ndarray]:
    """Smallest and largest value of each result over :func:`plausible_be_laws` (NaN for a result
    that does not
    use the "real" BE sizes). ``ids``: ``"<artefact>/<quantity>"`` of :data:`RESULTS`; in each
    result's unit.
    """
    real = [r for r in RESULTS if r.uses_real_be]
    values = np.full((len(ids), len(plausible_be_laws())), np.nan)
    for j, law in enumerate(plausible_be_laws().values()):
        frame = evaluate({"model": model}, n_ef_samples=n, seeds=seeds, results=real, be_size=law)
        found = dict(zip(frame["artefact"] + "/" + frame["quantity"], frame["model"]))
        values[:, j] = [found.get(rid, np.nan) for rid in ids]
    some = np.isfinite(values).any(axis=1)
    low = np.array([np.nanmin(v) if ok else np.nan for v, ok in zip(values, some)])
    high = np.array([np.nanmax(v) if ok else np.nan for v, ok in zip(values, some)])
    return low, high


def in_result_unit(seconds: float, unit: str) -> float:
    """A time in seconds in a result's unit (``ms``, ``us``, ``units``: EF transmission units, ``BE
    tx times``)."""
    convert = {
        "ms": to_ms,
        "us": to_us,
        "units": lambda v: v / UNIT_S,
        "BE tx times": lambda v: v / BE_TX_S,
    }
    if unit not in convert:
        raise ValueError(f"unit must be one of {list(convert)}, got {unit!r}")
    return float(convert[unit](seconds))


def paper_values() -> pd.DataFrame:
    """The papers' values in effect (:func:`pqlab.base.locations.paper_values_file`), with their
    ``kind`` column."""
    return pd.read_csv(paper_values_file())


def _paper_values_read_only() -> pd.DataFrame:
    """:func:`paper_values` for lookups that do not change the table: read again only when the file
    in effect, its size or its modification time changed
    (:func:`pqlab.base.locations.file_state`)."""
    key = file_state(paper_values_file())
    if _PAPER_TABLE.get("key") != key:
        table = pd.read_csv(key[0])
        _PAPER_TABLE.update(key=key, table=table, rows=_row_positions(table))
    return _PAPER_TABLE["table"]


_PAPER_TABLE: dict = {}


def _paper_row(
    table: pd.DataFrame, artefact: str, quantity: str, rows: dict | None = None
) -> pd.Series:
    """The one row of ``table`` for ``artefact``/``quantity``; ``rows``: :func:`_row_positions` of
    ``table``."""
    found = (rows if rows is not None else _row_positions(table)).get((artefact, quantity), ())
    if len(found) != 1:
        raise ValueError(f"no single row {artefact}/{quantity} in data/paper_values.csv")
    return table.iloc[found[0]]


def _row_positions(table: pd.DataFrame) -> dict:
    """``(artefact, quantity) -> [positions of its rows]`` of a paper-values table."""
    rows: dict = {}
    for i, key in enumerate(zip(table["artefact"], table["quantity"])):
        rows.setdefault(key, []).append(i)
    return rows


#: Results judged by the position rule, with the index of their Fig. 3-1 search window
#: (:data:`FIG3_WINDOWS`).
POSITION_WINDOWS = {
    ("globecom01_fig3_1", "local_max_be_payload_1"): 0,
    ("globecom01_fig3_1", "local_max_be_payload_2"): 1,
}


def first_after(artefact: str, quantity: str, value: float) -> float:
    """For a position result: our first swept payload past the drop
    (bytes, :func:`next_swept_payload`); else NaN."""
    index = POSITION_WINDOWS.get((artefact, quantity))
    return math.nan if index is None or value is None else next_swept_payload(index, value)


def verdict_of(
    artefact: str, quantity: str, value: float, table: pd.DataFrame | None = None
) -> str:
    """The judge's verdict (:func:`pqlab.papers.judge.verdict`) of one measured result, by the row's
    rule.

    The same call the report makes for a recorded claim: the rule of ``data/paper_values.csv``'s
    row (``position``: the paper's payload in our drop interval, ``not_checkable``: counted apart,
    else 10 %). ``table``: the paper values (default :func:`paper_values`).
    """
    if table is None:
        table = _paper_values_read_only()
        row = _paper_row(table, artefact, quantity, _PAPER_TABLE["rows"])
    else:
        row = _paper_row(table, artefact, quantity)
    return _verdict_of_row(row, artefact, quantity, value)


def rule_of(artefact: str, quantity: str) -> str:
    """The rule (:func:`pqlab.papers.judge.rule_of`) of a measured result's row of the paper values
    in effect."""
    table = _paper_values_read_only()
    row = _paper_row(table, artefact, quantity, _PAPER_TABLE["rows"])
    return judge.rule_of(row.get("rule"), float(row["value"]))


def _verdict_of_row(row: pd.Series, artefact: str, quantity: str, value: float) -> str:
    """:func:`verdict_of` with the result's row of the paper values already found."""
    paper = float(row["value"])
    rule = judge.rule_of(row.get("rule"), paper)
    ours = math.nan if value is None else float(value)
    return judge.verdict(
        rule,
        has_paper=True,
        has_record=True,
        paper=paper,
        ours=ours,
        shape_ok=None,
        first_after=first_after(artefact, quantity, ours),
    )


def evaluate(
    models: dict | None = None,
    *,
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    results=RESULTS,
    be_size: SizeDistribution | None = None,
) -> pd.DataFrame:
    """One row per measured result: the paper's value, each model's, relative errors and the judge's
    verdict.

    Parameters
    ----------
    models : dict of str -> Testbed, optional
        Default :data:`MODELS` (``papers_node``, ``testbed``).
    n_ef_samples : int
        Reference packets per run (>= 100).
    seeds : sequence of int
        Seeds (>= 0), every run repeated per seed.
    results : sequence of Measured
        Which results (default all).
    be_size : SizeDistribution, optional
        BE size law for the "real distribution" experiments (default the stand-in).

    Returns
    -------
    pandas.DataFrame
        Columns ``artefact, quantity, role, unit, rule, paper`` and per model ``<model>``,
        ``<model>_err_pct`` (:func:`pqlab.papers.judge.relative_percent`), ``<model>_verdict``
        (:func:`verdict_of`: the report's verdict for the same number) and ``<model>_within``
        (the verdict is "reproduced").
    """
    models = MODELS if models is None else dict(models)
    for name, m in models.items():
        if not isinstance(m, Testbed):
            raise ValueError(
                f"models[{name!r}] must be a pqlab.papers.testbed.Testbed, got {type(m).__name__}"
            )
    n = int(n_ef_samples)
    if n < 100:
        raise ValueError(f"n_ef_samples must be an integer >= 100, got {n_ef_samples!r}")
    seeds = tuple(int(s) for s in seeds)
    if not seeds or min(seeds) < 0:
        raise ValueError(f"seeds must be a non-empty sequence of integers >= 0, got {seeds!r}")
    table = paper_values()
    positions = _row_positions(table)
    rows = []
    for r in results:
        paper_row = _paper_row(table, r.artefact, r.quantity, positions)
        paper = float(paper_row["value"])
        row = {
            "artefact": r.artefact,
            "quantity": r.quantity,
            "role": r.role,
            "unit": str(paper_row["unit"]),
            "rule": judge.rule_of(paper_row.get("rule"), paper),
            "paper": paper,
        }
        for name, m in models.items():
            value = r.compute(m, n, seeds, be_size)
            verdict = _verdict_of_row(paper_row, r.artefact, r.quantity, value)
            row[name] = value
            row[f"{name}_err_pct"] = judge.relative_percent(value, paper)
            row[f"{name}_verdict"] = verdict
            row[f"{name}_within"] = verdict == "reproduced"
        rows.append(row)
    return pd.DataFrame(rows)


def counts(frame: pd.DataFrame, models=None) -> pd.DataFrame:
    """The ledger (:func:`pqlab.papers.ledger.counts`) of an :func:`evaluate` frame: per model and
    role, the measured results reproduced, differing and missing, the not checkable in no count (as
    the report counts).

    ``models``: the frame's models to count (default :data:`MODELS`).
    """
    models = list(MODELS) if models is None else list(models)
    return ledger.counts(ledger.from_evaluation(frame, models), models)


def objective(frame: pd.DataFrame, model: str) -> float:
    """The calibration objective: RMS relative error (%) over the rows of ``frame`` (a NaN, e.g. no
    local maximum at all, counts as 100 %)."""
    e = np.nan_to_num(frame[f"{model}_err_pct"].to_numpy(dtype=float), nan=100.0)
    return float(np.sqrt(np.mean(e**2)))
