"""The thresholds, reasons and text helpers the claims on the PQ-vs-WFQ test bed share (TF-TANT page
and slides).

Each artefact's ``claims(data)`` first converts the Dataset's times to the sources'
milliseconds and computes its statistics again from the converted values (:func:`in_ms`,
:func:`pqlab.papers.kit.statistics_in_ms`), so every time a claim states is in ms; the
thresholds below read the papers' qualitative statements ("equivalent", "independent", ...)
the same way for every artefact that checks them (the verdicts are :mod:`pqlab.papers.judge`'s).
The reasons several artefacts give share one text and one computation of their facts: the
sawtooth of the slip (:data:`SAWTOOTH_TEXT`, :func:`sawtooth_facts`), what an overloaded EF queue
adds to it (:data:`OVERLOAD_TEXT`, :func:`overload_facts`) and the WFQ tag steps
(:func:`tag_facts`).
"""

from __future__ import annotations

import math

import xarray as xr

from ...base.units import to_ms
from .. import judge, kit, presets
from .pq_vs_wfq_testbed import BE_TX, be_tag_steps, beat_terms_s, wfq_tag_s

__all__ = [
    "RELATIVE_TOLERANCE",
    "SMALL_FRAME_BYTES",
    "PAGE_LARGE_FRAME_BYTES",
    "MS_ROUNDING_TOLERANCE",
    "NO_SHIFT_BE_TX",
    "in_ms",
    "in_ms_be_tx",
    "per_scheduler",
    "value_at",
    "listing",
    "SAWTOOTH_TEXT",
    "OVERLOAD_TEXT",
    "sawtooth_facts",
    "overload_facts",
    "tag_facts",
]

# Verdict thresholds: a paper's qualitative statement holds when ...
#: ... a quantity stays within this fraction of its reference ("constant", "one BE tx time",
#: "independent").
RELATIVE_TOLERANCE = 0.05
#: The slides' "PQ and WFQ equivalent for pack size <= 256 by": frames up to this size are small,
#: bytes.
SMALL_FRAME_BYTES = 256
#: The page's large frame besides the MTU (Fig. 7's caption), bytes.
PAGE_LARGE_FRAME_BYTES = 1024
#: Float rounding spared when two delays in ms are compared ("lower", "grows").
MS_ROUNDING_TOLERANCE = 1e-6
#: A mean WFQ - PQ difference below this many BE tx times is none: no share of it is taken.
NO_SHIFT_BE_TX = 1e-9


def in_ms(ds: xr.Dataset, artefact: str, statistics) -> xr.Dataset:
    """The Dataset of ``artefact`` (checked) with its times in ms and ``statistics`` computed from
    the ms values."""
    return kit.statistics_in_ms(kit.check_artefact(ds, artefact), statistics)


def in_ms_be_tx(ds: xr.Dataset, artefact: str, statistics) -> tuple[xr.Dataset, float]:
    """:func:`in_ms` and the BE transmission time (ms) its claims count in."""
    ds = in_ms(ds, artefact, statistics)
    return ds, float(ds.be_tx_time)


def per_scheduler(
    art: str, quantity: str, value, unit: str, note, schedulers=presets.TFTANT_SCHEDULERS
) -> list[dict]:
    """One claim per scheduler ``s``: quantity ``quantity.format(s=s)``, ``value(s)`` in ``unit``,
    ``note(s)``."""
    return [kit.claim(art, quantity.format(s=s), value(s), unit, note(s)) for s in schedulers]


def value_at(da: xr.DataArray, frame: int) -> float:
    """The value of ``da`` at EF frame size ``frame`` (bytes); NaN when the sweep has no such
    frame."""
    return float(da.sel(ef_frame_bytes=frame)) if frame in da["ef_frame_bytes"].values else math.nan


def listing(frames, values, fmt="{:.2f}") -> str:
    """``"frame: value, ..."`` for a claim's note, each value formatted with ``fmt``."""
    return ", ".join(f"{float(f):g}: {fmt.format(v)}" for f, v in zip(frames, values))


#: A reason's sentence on the sawtooth of one CBR EF stream against a backlogged CBR BE stream
#: (:func:`sawtooth_facts`; :func:`pqlab.papers.tftant_wfq.pq_vs_wfq_testbed.beat_slip_s`).
SAWTOOTH_TEXT = (
    "at EF frames of {frame} the EF interval T_EF = {t_interval} less the EF line time t_EF ="
    " {t_ef} slips the EF arrivals by s = (T_EF - t_EF) mod t_BE = {slip} against the BE"
    " departures, one per t_BE = {t_be}: with every EF packet behind the same number of BE packets"
    " the delay is a sawtooth whose largest |IPDV| is max(s, t_BE - s) / t_BE = {sawtooth_max}"
)
#: What an overloaded EF queue adds to :data:`SAWTOOTH_TEXT` (:func:`overload_facts`).
OVERLOAD_TEXT = (
    "; with the EF service rate at the EF rate the EF queue is overloaded (EF loss {loss}), so"
    " consecutive EF packets wait behind numbers of BE packets that differ by one: a BE tx time"
    " plus the smaller step, (t_BE + min(s, t_BE - s)) / t_BE = {overload_max}"
)


def sawtooth_facts(frame: int, ef_rate_bps: float) -> list[dict]:
    """The facts of :data:`SAWTOOTH_TEXT` for EF frames of ``frame`` bytes at ``ef_rate_bps``
    (bit/s), times in ms."""
    t = beat_terms_s(int(frame), ef_rate_bps=ef_rate_bps)
    slip, t_be = float(t["slip"][0]), float(t["t_be"])
    return [
        judge.fact("frame", int(frame), "bytes"),
        judge.fact("t_interval", to_ms(float(t["interval"][0])), "ms"),
        judge.fact("t_ef", to_ms(float(t["t_ef"][0])), "ms"),
        judge.fact("slip", to_ms(slip), "ms"),
        judge.fact("t_be", to_ms(t_be), "ms"),
        judge.fact("sawtooth_max", max(slip, t_be - slip) / t_be, BE_TX),
    ]


def overload_facts(frame: int, ef_rate_bps: float, loss: float) -> list[dict]:
    """:func:`sawtooth_facts` and those of :data:`OVERLOAD_TEXT`: the EF loss ratio ``loss`` and the
    largest |IPDV|."""
    t = beat_terms_s(int(frame), ef_rate_bps=ef_rate_bps)
    slip, t_be = float(t["slip"][0]), float(t["t_be"])
    return sawtooth_facts(frame, ef_rate_bps) + [
        judge.fact("loss", loss, ""),
        judge.fact("overload_max", 1.0 + min(slip, t_be - slip) / t_be, BE_TX),
    ]


def tag_facts(ds: xr.Dataset, frame: int) -> list[dict]:
    """Facts of the WFQ tags at EF frames of ``frame`` bytes (the test conditions of ``ds``, rates
    in bit/s).

    ``ef_tag`` and ``be_tag``, the finish-tag steps of one EF and one BE packet (ms,
    :func:`pqlab.papers.tftant_wfq.pq_vs_wfq_testbed.wfq_tag_s`), and ``tag_steps``, how many BE
    tag steps one EF tag spans (:func:`pqlab.papers.tftant_wfq.pq_vs_wfq_testbed.be_tag_steps`).
    """
    ip, rate = presets.ef_ip_bytes(int(frame)), float(ds.ef_service_rate)
    be_ip, be_weight = float(ds.be_ip_bytes), float(ds.be_weight)
    return [
        judge.fact("ef_tag", to_ms(wfq_tag_s(ip, rate)), "ms"),
        judge.fact("be_tag", to_ms(wfq_tag_s(be_ip, be_weight)), "ms"),
        judge.fact("tag_steps", be_tag_steps(ip, rate, be_ip, be_weight), ""),
    ]
