"""Unit conversions between the SI units of every Dataset and the units people read.

Every artefact Dataset holds times in seconds, sizes in bytes and rates in bit/s
(each variable's ``units`` attr says which). Milliseconds and microseconds appear
only on figure axes, in prose and where a claim is compared with a paper value in
the paper's unit; the artefact modules' figures and claims (:mod:`pqlab.papers.registry`) convert
through these functions, never with a literal factor.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

__all__ = ["MS_PER_S", "US_PER_S", "S_PER_MS", "S_PER_US", "BPS_PER_KBPS", "BPS_PER_MBPS", "to_ms", "to_us",
           "ms_to_s", "us_to_s", "to_kbps", "to_mbps", "kbps_to_bps", "times_in_ms", "MAX_SIGNIFICANT_DIGITS",
           "DISPLAY_DIGITS", "significant_digits", "format_significant", "is_missing", "number_text", "signed_text",
           "paper_text", "ours_digits"]

MS_PER_S = 1e3  # milliseconds in one second
US_PER_S = 1e6  # microseconds in one second
S_PER_MS = 1e-3  # seconds in one millisecond
S_PER_US = 1e-6  # seconds in one microsecond
BPS_PER_KBPS = 1e3  # bit/s in one kbit/s
BPS_PER_MBPS = 1e6  # bit/s in one Mbit/s


def to_ms(seconds):
    """A time in seconds (scalar, array or DataArray) in milliseconds."""
    return seconds * MS_PER_S


def to_us(seconds):
    """A time in seconds (scalar, array or DataArray) in microseconds."""
    return seconds * US_PER_S


def ms_to_s(milliseconds):
    """A time in milliseconds (a paper's value, say) in seconds."""
    return milliseconds * S_PER_MS


def us_to_s(microseconds):
    """A time in microseconds (a paper's value, say) in seconds."""
    return microseconds * S_PER_US


def to_kbps(bits_per_s):
    """A rate in bit/s in kbit/s."""
    return bits_per_s / BPS_PER_KBPS


def to_mbps(bits_per_s):
    """A rate in bit/s in Mbit/s."""
    return bits_per_s / BPS_PER_MBPS


def kbps_to_bps(kbits_per_s):
    """A rate in kbit/s (a paper's or a test page's value) in bit/s."""
    return kbits_per_s * BPS_PER_KBPS


def times_in_ms(ds, keep=()):
    """A copy of a Dataset with each data variable in seconds in milliseconds.

    A variable counts as seconds when its ``units`` attr is ``"s"`` or ``"s/<unit>"``
    (a slope, say ``"s/particle"``); it is converted with :func:`to_ms` and its
    ``units`` attr says ``"ms"`` (``"ms/<unit>"``). Other variables, coordinates and
    the Dataset's attrs are kept as they are.

    Parameters
    ----------
    ds : xarray.Dataset
        A Dataset in SI units (every variable's ``units`` attr says which).
    keep : iterable of str
        Variables left in seconds (e.g. ``"time"``, drawn on an axis in seconds).

    Returns
    -------
    xarray.Dataset
    """
    out = ds.copy()
    keep = set(keep)
    for name, var in ds.data_vars.items():
        unit = str(var.attrs.get("units", ""))
        if name in keep or not (unit == "s" or unit.startswith("s/")):
            continue
        out[name] = to_ms(var)
        out[name].attrs = {**var.attrs, "units": "ms" + unit[1:]}
    return out


#: The most significant digits a number is printed with in prose, reports and the site
#: (report.csv keeps full precision as data).
MAX_SIGNIFICANT_DIGITS = 7
#: Significant digits of a number of ours with no paper value to match, and of a difference.
DISPLAY_DIGITS = 4


def significant_digits(value: float) -> int:
    """Significant digits of a number as written in its shortest form (``repr``), at most :data:`MAX_SIGNIFICANT_DIGITS`.

    A paper value read from a CSV (``10.16``: 4, ``2409.41``: 6, ``0.6``: 1, ``100``: 1)
    keeps the precision the paper printed it with.
    """
    mantissa = repr(float(abs(value))).lower().split("e")[0]
    digits = mantissa.replace(".", "").lstrip("0")
    if "." not in mantissa or mantissa.endswith(".0"):
        digits = mantissa.split(".")[0].lstrip("0").rstrip("0")
    return max(1, min(len(digits), MAX_SIGNIFICANT_DIGITS))


def format_significant(value: float, digits: int = 4) -> str:
    """A number at ``digits`` significant digits (1 to :data:`MAX_SIGNIFICANT_DIGITS`), without a needless exponent.

    Positional for magnitudes from 1e-4 up to 1e9 (``10240``, not ``1.024e+04``; trailing
    zeros after the point dropped), scientific beyond; ``nan``/``inf`` as such.
    """
    if not 1 <= digits <= MAX_SIGNIFICANT_DIGITS:
        raise ValueError(f"digits must be in [1, {MAX_SIGNIFICANT_DIGITS}], got {digits!r}")
    value = float(value)
    if not math.isfinite(value):
        return str(value)
    if value == 0 or 1e-4 <= abs(value) < 1e9:
        return np.format_float_positional(value, precision=digits, unique=True, fractional=False, trim="-")
    return f"{value:.{digits}g}"


def is_missing(value) -> bool:
    """Whether a table cell holds no number: None, pandas' NA or NaN."""
    return value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value))


def number_text(value, digits: int = DISPLAY_DIGITS) -> str:
    """A number as the report and the site print it (:func:`format_significant`); empty for a missing one."""
    return "" if is_missing(value) else format_significant(value, digits)


def signed_text(value, digits: int = DISPLAY_DIGITS) -> str:
    """A difference as the report and the site print it: :func:`number_text` with a ``+`` before a non-negative one."""
    text = number_text(value, digits)
    return f"+{text}" if text and value >= 0 else text


def paper_text(value) -> str:
    """A paper's value as the paper printed it (its shortest form, at most 7 significant digits); empty if missing."""
    return "" if is_missing(value) else format_significant(value, significant_digits(value))


def ours_digits(paper) -> int:
    """Digits to print ours with: one more than the paper printed (at least :data:`DISPLAY_DIGITS`, at most 7)."""
    if is_missing(paper):
        return DISPLAY_DIGITS
    return min(MAX_SIGNIFICANT_DIGITS, max(DISPLAY_DIGITS, significant_digits(paper) + 1))
