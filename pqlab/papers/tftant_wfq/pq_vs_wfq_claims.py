"""The verdict rules and text helpers the claims on the PQ-vs-WFQ test bed share (TF-TANT page and slides).

Each artefact's ``claims(data)`` first converts the Dataset's times to the sources'
milliseconds and computes its statistics again from the converted values (:func:`in_ms`,
:func:`pqlab.papers.kit.statistics_in_ms`), so every time a claim states is in ms; the
thresholds below read the papers' qualitative statements ("equivalent", "one BE tx time", ...)
the same way for every artefact that judges them.
"""

from __future__ import annotations

import math

import xarray as xr

from .. import kit, presets

__all__ = ["RELATIVE_TOLERANCE", "SMALL_FRAME_BYTES", "PAGE_LARGE_FRAME_BYTES", "MIN_BE_TX_FRACTION",
           "ROUNDING_TOLERANCE", "MS_ROUNDING_TOLERANCE", "in_ms", "in_ms_be_tx", "within_one_be_tx",
           "per_scheduler", "value_at", "listing"]

# Verdict thresholds: a paper's qualitative statement holds when ...
#: ... a quantity stays within this fraction of its reference ("constant", "one BE tx time", "independent").
RELATIVE_TOLERANCE = 0.05
#: The slides' "PQ and WFQ equivalent for pack size <= 256 by": frames up to this size are small, bytes.
SMALL_FRAME_BYTES = 256
#: The page's large frame besides the MTU (Fig. 7's caption), bytes.
PAGE_LARGE_FRAME_BYTES = 1024
#: ... a largest |IPDV| above this fraction of one BE tx time is "one BE tx time" (and at most one).
MIN_BE_TX_FRACTION = 0.5
#: Float rounding spared when two computed values (BE tx times, shares) are compared for equality.
ROUNDING_TOLERANCE = 1e-9
#: Float rounding spared when two delays in ms are compared ("lower", "grows").
MS_ROUNDING_TOLERANCE = 1e-6


def in_ms(ds: xr.Dataset, artefact: str, statistics) -> xr.Dataset:
    """The Dataset of ``artefact`` (checked) with its times in ms and ``statistics`` computed from the ms values."""
    return kit.statistics_in_ms(kit.check_artefact(ds, artefact), statistics)


def in_ms_be_tx(ds: xr.Dataset, artefact: str, statistics) -> tuple[xr.Dataset, float]:
    """:func:`in_ms` and the BE transmission time (ms) its claims count in."""
    ds = in_ms(ds, artefact, statistics)
    return ds, float(ds.be_tx_time)


def within_one_be_tx(value: float) -> bool:
    """Whether a largest |IPDV| in BE tx times is more than half of one and at most one (rounding spared)."""
    return MIN_BE_TX_FRACTION < value <= 1.0 + ROUNDING_TOLERANCE


def per_scheduler(art: str, quantity: str, value, unit: str, note,
                  schedulers=presets.TFTANT_SCHEDULERS) -> list[dict]:
    """One claim per scheduler ``s``: quantity ``quantity.format(s=s)``, ``value(s)`` in ``unit``, ``note(s)``."""
    return [kit.claim(art, quantity.format(s=s), value(s), unit, note(s)) for s in schedulers]


def value_at(da: xr.DataArray, frame: int) -> float:
    """The value of ``da`` at EF frame size ``frame`` (bytes); NaN when the sweep has no such frame."""
    return float(da.sel(ef_frame_bytes=frame)) if frame in da["ef_frame_bytes"].values else math.nan


def listing(frames, values, fmt="{:.2f}") -> str:
    """``"frame: value, ..."`` for a claim's note, each value formatted with ``fmt``."""
    return ", ".join(f"{float(f):g}: {fmt.format(v)}" for f, v in zip(frames, values))
