"""Unit conversions between the SI units of every Dataset and the units people read.

Every artefact Dataset holds times in seconds, sizes in bytes and rates in bit/s
(each variable's ``units`` attr says which). Milliseconds and microseconds appear
only on figure axes, in prose and where a claim is compared with a paper value in
the paper's unit; the artefact modules' figures and claims (:mod:`pqlab.papers.registry`) convert
through these functions, never with a literal factor.
"""

from __future__ import annotations

__all__ = [
    "MS_PER_S",
    "US_PER_S",
    "S_PER_MS",
    "S_PER_US",
    "BPS_PER_KBPS",
    "BPS_PER_MBPS",
    "to_ms",
    "to_us",
    "ms_to_s",
    "us_to_s",
    "to_kbps",
    "to_mbps",
    "kbps_to_bps",
    "times_in_ms",
]

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
    converted = {}
    for name, var in ds.data_vars.items():
        unit = str(var.attrs.get("units", ""))
        if name in keep or not (unit == "s" or unit.startswith("s/")):
            continue
        converted[name] = to_ms(var)
        converted[name].attrs = {**var.attrs, "units": "ms" + unit[1:]}
    out.update(converted)  # one merge for all the variables
    return out
