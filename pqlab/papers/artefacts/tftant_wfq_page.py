"""TF-TANT PQ vs WFQ, the test page's figures: Fig. 1 and 5 (mean delay and IPDV vs frame size), Figs. 2-4 and 6-7 (over time).

One compute function per artefact id (``tftant_wfq_fig1``, ``tftant_wfq_fig2_4``,
``tftant_wfq_fig5``, ``tftant_wfq_fig6_7``) and its statistics; the section
:mod:`pqlab.papers.artefacts.tftant_wfq` re-exports them (and finds their claims).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...measure import cache, experiments, metrics
from .. import presets
from ...base._validate import check_real
from ...node.scenario import simulate
from ...base.units import ms_to_s
from ._common import add_mean_ci, check_n_ef_samples, check_seeds, paper_value, provenance
from .tftant_common import (BE_TX, MTU_FRAME_BYTES, PEAK_FRACTION, SERIES_FRAME_SIZES, _check_frames,
                            _config_scalars, _coords_frames, _per_seed, _scalars, _series, _size_sweep,
                            beat_slip_s)


# --------------------------------------------------------------------------- tftant_wfq_fig1


def _checked_size_sweep(n_ef_samples, seeds, frame_sizes, ef_service_rate_bps):
    """Validate the size-sweep arguments of Figs. 1 and 5; return them, the WFQ node and the sweep."""
    n = check_n_ef_samples(n_ef_samples, 10, 100_000_000)
    seeds = check_seeds(seeds)
    frames = sorted(_check_frames("frame_sizes", frame_sizes))
    rate = check_real("ef_service_rate_bps", ef_service_rate_bps, 0.0, strict_minimum=True)
    node = presets.tftant_node("wfq", ef_service_rate_bps=rate)
    return n, seeds, frames, rate, node, _size_sweep(tuple(frames), tuple(seeds), n, rate)


@cache.artefact()
def tftant_wfq_fig1(
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
    (200 packets/s = 1.6 Mbit/s) against ours (2.0 Mbit/s = 250 packets/s).

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
        ``check_frame``); the test conditions as scalars (``be_tx_time`` in s, rates in bit/s);
        the page's values ``paper_max_gain`` (s), ``paper_gap_1024``, ``paper_gap_1518`` (BE tx
        times).
    """
    n, seeds, frames, rate, node, raw = _checked_size_sweep(n_ef_samples, seeds, frame_sizes, ef_service_rate_bps)
    dims = ("scheduler", "ef_frame_bytes", "seed")
    ds = xr.Dataset(
        {
            "delay": _per_seed(raw, "delay_mean_s", "s", "mean EF one-way delay of one run", dims),
            "delay_min": _per_seed(raw, "delay_min_s", "s", "smallest EF one-way delay of one run", dims),
            "delay_max": _per_seed(raw, "delay_max_s", "s", "largest EF one-way delay of one run", dims),
            "ef_wait": _per_seed(raw, "ef_wait_mean_s", "s", "mean EF wait in the EF queue", dims),
            "loss": _per_seed(raw, "loss_ratio", "1", "EF loss ratio", dims),
        },
        coords={"scheduler": ("scheduler", list(presets.TFTANT_SCHEDULERS), {"long_name": "EF scheduler"}),
                **_coords_frames(frames, node),
                "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"})},
    )

    # the BE profile's other reading: 200 packets/s of 1000 bytes (1.6 Mbit/s), first seed
    check_frames = [1024, MTU_FRAME_BYTES]
    reading = np.full((2, len(check_frames)), np.nan)
    for r, be_bps in enumerate((presets.TFTANT_BE_PACKET_RATE_STATED * 8 * presets.TFTANT_BE_IP_BYTES,
                                presets.TFTANT_BE_RATE_BPS)):
        for j, frame in enumerate(check_frames):
            d = []
            for sched in presets.TFTANT_SCHEDULERS:
                # a 10% BE overload fills the BE queue more slowly: a longer warm-up
                sc = presets.pq_vs_wfq(scheduler=sched, ef_frame_bytes=frame, ef_service_rate_bps=rate,
                                         be_rate_bps=be_bps, n_ef_samples=n, warmup_s=5.0)
                d.append(experiments.delay_summary(simulate(sc, seed=seeds[0]), sc)["delay_mean_s"])
            reading[r, j] = d[1] - d[0]
    ds["gap_reading_1600k"] = ("check_frame", reading[0],
                               {"units": "s", "long_name": "gain of PQ, BE 200 packets/s x 1000 bytes (1.6 Mbit/s)"})
    ds["gap_reading_2000k"] = ("check_frame", reading[1],
                               {"units": "s", "long_name": "gain of PQ, BE 2.0 Mbit/s of 1000 bytes (ours)"})
    ds = ds.assign_coords(check_frame=("check_frame", check_frames, {"units": "bytes", "long_name": "EF frame size"}))
    _scalars(ds, _config_scalars(node, rate))
    _scalars(ds, {
        "paper_max_gain": (ms_to_s(paper_value("tftant_wfq_fig1", "max_gain_mtu")[0]), "s",
                           "TF-TANT page: maximum gain with PQ, MTU-size packets"),
        "paper_gap_1024": (paper_value("tftant_wfq_fig1", "gap_1024_be_tx")[0], BE_TX,
                           "TF-TANT page: WFQ - PQ at 1024 bytes, BE tx times"),
        "paper_gap_1518": (paper_value("tftant_wfq_fig1", "gap_1518_be_tx")[0], BE_TX,
                           "TF-TANT page: WFQ - PQ at 1518 bytes, BE tx times"),
    })
    ds.attrs = provenance("tftant_wfq_fig1",
                          "tftant_wfq_fig1: mean EF one-way delay with PQ and WFQ vs EF frame size "
                          "(TF-TANT PQ vs WFQ page, Fig. 1)", __name__, seeds,
                          scenario=presets.pq_vs_wfq(scheduler="wfq", ef_frame_bytes=frames[-1],
                                                       ef_service_rate_bps=rate, n_ef_samples=n).to_json(),
                          n_ef_samples=n)
    return fig1_statistics(ds)


def fig1_statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`tftant_wfq_fig1`'s statistics to its per-seed ``delay`` (in place; returned).

    ``delay_mean``/``delay_ci`` over seeds, the gain of PQ ``gap = delay(WFQ) - delay(PQ)``
    per seed with ``gap_mean``/``gap_ci``, and ``gap_be_tx = gap_mean / be_tx_time``, in
    the time unit of ``delay`` and ``be_tx_time`` (s; the claims' ms through
    :func:`pqlab.papers.artefacts._common.statistics_in_ms`).
    """
    unit = ds["delay"].attrs["units"]
    add_mean_ci(ds, ["delay"])
    ds["gap"] = ds["delay"].sel(scheduler="wfq", drop=True) - ds["delay"].sel(scheduler="pq", drop=True)
    ds["gap"].attrs = {"units": unit, "long_name": "gain of PQ: delay(WFQ) - delay(PQ)"}
    add_mean_ci(ds, ["gap"])
    ds["gap_be_tx"] = ds["gap_mean"] / float(ds.be_tx_time)
    ds["gap_be_tx"].attrs = {"units": BE_TX, "long_name": "gain of PQ in BE transmission times"}
    return ds


# --------------------------------------------------------------------------- tftant_wfq_fig5


@cache.artefact()
def tftant_wfq_fig5(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    frame_sizes=presets.TFTANT_FRAME_SIZES,
    ef_service_rate_bps: float = presets.TFTANT_EF_SERVICE_RATE_BPS,
) -> xr.Dataset:
    """TF-TANT PQ-vs-WFQ page, Fig. 5: mean IPDV (mean of |IPDV|) with PQ and with WFQ vs EF frame size.

    The same runs as :func:`tftant_wfq_fig1` (computed once per process). IPDV is
    RFC 3393's of consecutive EF packets; its "average" is the mean of the absolute
    values (the signed mean is ~0; the long version's "jitter").

    Parameters
    ----------
    n_ef_samples, seeds, frame_sizes, ef_service_rate_bps
        As :func:`tftant_wfq_fig1`.

    Returns
    -------
    xarray.Dataset
        Dims ``scheduler``, ``ef_frame_bytes``, ``seed``: ``ipdv`` (mean |IPDV|, s),
        ``ipdv_max`` (s), ``ipdv_peak_frequency`` (share of |IPDV| >= half a BE tx time);
        ``ipdv_mean``/``ipdv_ci`` over seeds; ``ipdv_max_be_tx`` (BE tx times); per frame the
        slip ``beat_slip`` (s, :func:`beat_slip_s`) and the sawtooth's ``ipdv_beat_mean`` (s)
        and ``ipdv_beat_max_be_tx``; scalars as :func:`tftant_wfq_fig1`.
    """
    n, seeds, frames, rate, node, raw = _checked_size_sweep(n_ef_samples, seeds, frame_sizes, ef_service_rate_bps)
    dims = ("scheduler", "ef_frame_bytes", "seed")
    ds = xr.Dataset(
        {
            "ipdv": _per_seed(raw, "ipdv_abs_mean_s", "s", "mean |IPDV| of consecutive EF packets", dims),
            "ipdv_max": _per_seed(raw, "ipdv_abs_max_s", "s", "largest |IPDV| of one run", dims),
            "ipdv_peak_frequency": _per_seed(raw, "ipdv_peak_frequency", "1",
                                             f"share of |IPDV| >= {PEAK_FRACTION} BE tx time", dims),
            "beat_slip": ("ef_frame_bytes", beat_slip_s(frames, node),
                          {"units": "s", "long_name": "s = (T_EF - t_EF) mod t_BE"}),
        },
        coords={"scheduler": ("scheduler", list(presets.TFTANT_SCHEDULERS), {"long_name": "EF scheduler"}),
                **_coords_frames(frames, node),
                "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"})},
    )
    _scalars(ds, _config_scalars(node, rate))
    ds.attrs = provenance("tftant_wfq_fig5",
                          "tftant_wfq_fig5: mean IPDV with PQ and WFQ vs EF frame size "
                          "(TF-TANT PQ vs WFQ page, Fig. 5)",
                          __name__, seeds, n_ef_samples=n)
    return fig5_statistics(ds)


def _beat_max_be_tx(slip: xr.DataArray, be_tx: float) -> xr.DataArray:
    """The sawtooth's largest |IPDV| in BE tx times, ``max(s, t_BE - s) / t_BE`` (``slip`` in the unit of ``be_tx``)."""
    out = np.maximum(slip, be_tx - slip) / be_tx
    out.attrs = {"units": BE_TX, "long_name": "sawtooth prediction of the largest |IPDV|"}
    return out


def fig5_statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`tftant_wfq_fig5`'s statistics to its per-seed ``ipdv``, ``ipdv_max`` and ``beat_slip``.

    ``ipdv_mean``/``ipdv_ci`` over seeds, ``ipdv_max_be_tx``, and the sawtooth of the slip
    ``s``: ``ipdv_beat_mean = 2 s (t_BE - s) / t_BE`` and ``ipdv_beat_max_be_tx`` (see
    :func:`beat_slip_s`), in the time unit of the Dataset (as :func:`fig1_statistics`).
    """
    add_mean_ci(ds, ["ipdv"])
    be_tx = float(ds.be_tx_time)
    ds["ipdv_max_be_tx"] = ds["ipdv_max"].max("seed") / be_tx
    ds["ipdv_max_be_tx"].attrs = {"units": BE_TX, "long_name": "largest |IPDV| over seeds in BE tx times"}
    slip = ds["beat_slip"]
    ds["ipdv_beat_mean"] = 2 * slip * (be_tx - slip) / be_tx
    ds["ipdv_beat_mean"].attrs = {"units": slip.attrs["units"], "long_name": "sawtooth prediction of the mean |IPDV|"}
    ds["ipdv_beat_max_be_tx"] = _beat_max_be_tx(slip, be_tx)
    return ds


# --------------------------------------------------------------------------- tftant_wfq_fig2_4 and fig6_7


def _series_dataset(artefact: str, title: str, n_ef_samples, seeds, frame_sizes, ef_service_rate_bps) -> xr.Dataset:
    n = check_n_ef_samples(n_ef_samples, 10, 10_000_000)
    seeds = check_seeds(seeds)
    frames = sorted(_check_frames("frame_sizes", frame_sizes))
    rate = check_real("ef_service_rate_bps", ef_service_rate_bps, 0.0, strict_minimum=True)
    node = presets.tftant_node("wfq", ef_service_rate_bps=rate)
    s = {k: v.copy() for k, v in _series(tuple(frames), tuple(seeds), n, rate).items()}  # the cache stays intact
    dims = ("scheduler", "ef_frame_bytes", "seed", "ef_packet")
    ds = xr.Dataset(
        {
            "delay": (dims, s["delay"], {"units": "s", "long_name": "EF one-way delay"}),
            "ipdv": (dims, s["ipdv"], {"units": "s", "long_name": "IPDV of consecutive EF packets"}),
            "ef_wait": (dims, s["wait"], {"units": "s", "long_name": "EF wait in the EF queue"}),
            "time": (dims[1:], s["time"][0], {"units": "s", "long_name": "EF arrival time after the warm-up"}),
        },
        coords={"scheduler": ("scheduler", list(presets.TFTANT_SCHEDULERS), {"long_name": "EF scheduler"}),
                **_coords_frames(frames, node),
                "seed": ("seed", seeds, {"units": "1", "long_name": "random seed"}),
                "ef_packet": ("ef_packet", np.arange(n), {"units": "1", "long_name": "EF packet after the warm-up"})},
    )
    _scalars(ds, _config_scalars(node, rate))
    ds.attrs = provenance(artefact, title, __name__, seeds, n_ef_samples=n)
    return ds


@cache.artefact()
def tftant_wfq_fig2_4(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    frame_sizes=SERIES_FRAME_SIZES,
    ef_service_rate_bps: float = presets.TFTANT_EF_SERVICE_RATE_BPS,
) -> xr.Dataset:
    """TF-TANT PQ-vs-WFQ page, Figs. 2-4: EF one-way delay over time with WFQ and PQ (128, 1024, 1518 bytes).

    Per scheduler, frame size and seed the delay of every measured EF packet, its
    arrival time and EF-queue wait; per run the mean, min, max and spread (s and BE
    tx times); per frame and seed the correlation of the PQ and WFQ series (same
    arrivals) and the mean and spread of their difference, and how much of the
    difference is EF-queue wait.

    Parameters
    ----------
    n_ef_samples : int
        EF packets per run (>= 10).
    seeds : sequence of int
        Seeds (>= 0, distinct).
    frame_sizes : sequence of int
        EF frame sizes, bytes (the page: 128, 1024, 1518).
    ef_service_rate_bps : float
        EF service rate, bit/s (400 kbit/s).

    Returns
    -------
    xarray.Dataset
        ``delay``, ``ef_wait`` (s) and ``ipdv`` (s) on ``(scheduler, ef_frame_bytes, seed, ef_packet)``,
        ``time`` (s); per run ``delay_mean``, ``delay_min``, ``delay_max``, ``delay_span`` (s),
        ``delay_span_be_tx``; per frame and seed ``corr``, ``shift`` (s), ``shift_std`` (s),
        ``wait_share`` (1).
    """
    ds = _series_dataset("tftant_wfq_fig2_4", "tftant_wfq_fig2_4: EF one-way delay over time with WFQ and PQ "
                         "(TF-TANT PQ vs WFQ page, Figs. 2-4)", n_ef_samples, seeds, frame_sizes, ef_service_rate_bps)
    return fig2_4_statistics(ds)


#: A mean WFQ - PQ difference below this many BE tx times is none: no share of it is taken.
NO_SHIFT_BE_TX = 1e-9


def fig2_4_statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`tftant_wfq_fig2_4`'s statistics to its per-packet ``delay`` and ``ef_wait``.

    Per run the mean, min, max and span of the delay (and the span in BE tx times); per
    frame and seed the correlation of the PQ and WFQ series, the mean and std of their
    difference (``shift``, ``shift_std``) and the share of it spent in the EF queue; in the
    time unit of the Dataset (as :func:`fig1_statistics`).
    """
    d = ds["delay"]
    unit = d.attrs["units"]
    be_tx = float(ds.be_tx_time)
    for name, da, long_name in (("delay_mean", d.mean("ef_packet"), "mean EF one-way delay"),
                                ("delay_min", d.min("ef_packet"), "smallest EF one-way delay"),
                                ("delay_max", d.max("ef_packet"), "largest EF one-way delay")):
        ds[name] = da
        ds[name].attrs = {"units": unit, "long_name": long_name}
    ds["delay_span"] = ds["delay_max"] - ds["delay_min"]
    ds["delay_span"].attrs = {"units": unit, "long_name": "max - min EF one-way delay"}
    ds["delay_span_be_tx"] = ds["delay_span"] / be_tx
    ds["delay_span_be_tx"].attrs = {"units": BE_TX, "long_name": "max - min EF one-way delay in BE tx times"}
    pq, wfq = d.sel(scheduler="pq", drop=True), d.sel(scheduler="wfq", drop=True)
    ds["corr"] = xr.corr(pq, wfq, dim="ef_packet")
    ds["corr"].attrs = {"units": "1", "long_name": "correlation of the PQ and WFQ delay series"}
    diff = wfq - pq
    ds["shift"] = diff.mean("ef_packet")
    ds["shift"].attrs = {"units": unit, "long_name": "mean of delay(WFQ) - delay(PQ), packet by packet"}
    ds["shift_std"] = diff.std("ef_packet")
    ds["shift_std"].attrs = {"units": unit, "long_name": "std of delay(WFQ) - delay(PQ), packet by packet"}
    w = ds["ef_wait"]
    wait_diff = (w.sel(scheduler="wfq", drop=True) - w.sel(scheduler="pq", drop=True)).mean("ef_packet")
    ds["wait_share"] = xr.where(np.abs(ds["shift"]) > NO_SHIFT_BE_TX * be_tx, wait_diff / ds["shift"], np.nan)
    ds["wait_share"].attrs = {"units": "1", "long_name": "share of the WFQ - PQ difference spent in the EF queue"}
    return ds


@cache.artefact()
def tftant_wfq_fig6_7(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    frame_sizes=SERIES_FRAME_SIZES,
    ef_service_rate_bps: float = presets.TFTANT_EF_SERVICE_RATE_BPS,
    peak_fraction: float = PEAK_FRACTION,
) -> xr.Dataset:
    """TF-TANT PQ-vs-WFQ page, Figs. 6-7 (128, 1024 bytes), and the slides' 1518: IPDV over time, WFQ and PQ.

    The runs of :func:`tftant_wfq_fig2_4`. Per run: the largest |IPDV| (s and BE tx
    times) and the peak frequency, the share of |IPDV| >= ``peak_fraction`` BE tx time.

    Parameters
    ----------
    n_ef_samples, seeds, frame_sizes, ef_service_rate_bps
        As :func:`tftant_wfq_fig2_4`.
    peak_fraction : float
        An |IPDV| of at least this many BE tx times is a peak, in (0, 2].

    Returns
    -------
    xarray.Dataset
        ``ipdv`` (s) on ``(scheduler, ef_frame_bytes, seed, ef_packet)`` and ``time`` (s);
        per run ``ipdv_abs_mean``, ``ipdv_abs_max`` (s), ``ipdv_max_be_tx``, ``peak_frequency``;
        per frame the slip ``beat_slip`` (s) and ``ipdv_beat_max_be_tx``.
    """
    frac = check_real("peak_fraction", peak_fraction, 0.0, 2.0, strict_minimum=True)
    ds = _series_dataset("tftant_wfq_fig6_7", "tftant_wfq_fig6_7: IPDV over time with WFQ and PQ "
                         "(TF-TANT PQ vs WFQ page, Figs. 6-7; slides, WFQ vs PQ: ipdv)",
                         n_ef_samples, seeds, frame_sizes, ef_service_rate_bps)
    ds = ds.drop_vars(["delay", "ef_wait"])
    ds["beat_slip"] = ("ef_frame_bytes", beat_slip_s(ds["ef_frame_bytes"].values),
                       {"units": "s", "long_name": "s = (T_EF - t_EF) mod t_BE"})
    ds.attrs["peak_fraction"] = frac
    return fig6_7_statistics(ds)


def fig6_7_statistics(ds: xr.Dataset) -> xr.Dataset:
    """Add :func:`tftant_wfq_fig6_7`'s statistics to its per-packet ``ipdv`` and ``beat_slip``.

    Per run the mean and largest |IPDV|, the largest in BE tx times and the share of
    |IPDV| >= ``attrs["peak_fraction"]`` BE tx time; the sawtooth's largest |IPDV|; in the
    time unit of the Dataset (as :func:`fig1_statistics`).
    """
    a = ds["ipdv"].copy(data=metrics.jitter_of_ipdv(ds["ipdv"].values))
    unit = ds["ipdv"].attrs["units"]
    be_tx = float(ds.be_tx_time)
    frac = ds.attrs["peak_fraction"]
    ds["ipdv_abs_mean"] = a.mean("ef_packet")
    ds["ipdv_abs_mean"].attrs = {"units": unit, "long_name": "mean |IPDV|"}
    ds["ipdv_abs_max"] = a.max("ef_packet")
    ds["ipdv_abs_max"].attrs = {"units": unit, "long_name": "largest |IPDV|"}
    ds["ipdv_max_be_tx"] = ds["ipdv_abs_max"] / be_tx
    ds["ipdv_max_be_tx"].attrs = {"units": BE_TX, "long_name": "largest |IPDV| in BE tx times"}
    ds["peak_frequency"] = (a >= frac * be_tx).sum("ef_packet") / a.notnull().sum("ef_packet")
    ds["peak_frequency"].attrs = {"units": "1", "long_name": f"share of |IPDV| >= {frac:g} BE tx time"}
    ds["ipdv_beat_max_be_tx"] = _beat_max_be_tx(ds["beat_slip"], be_tx)
    return ds
