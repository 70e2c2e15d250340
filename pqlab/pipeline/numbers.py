"""Numbers as the report and the site print them: a paper's value at its printed precision, ours one
digit more.

``report.md``, ``report.html``, the overview and the site's pages print every number through
these functions (``report.csv`` keeps full precision as data): :func:`paper_text` (a paper's
value as the paper printed it), :func:`ours_digits` and :func:`number_text` (a number of ours,
one significant digit more than the paper's, at least :data:`DISPLAY_DIGITS`, at most
:data:`MAX_SIGNIFICANT_DIGITS`), :func:`signed_text` (a difference, signed). The numbers are
in the unit of their report row; nothing here converts units (:mod:`pqlab.base.units` does).
"""

from __future__ import annotations

import math

import numpy as np

from ..papers.records import is_missing

__all__ = [
    "MAX_SIGNIFICANT_DIGITS",
    "DISPLAY_DIGITS",
    "significant_digits",
    "format_significant",
    "number_text",
    "signed_text",
    "paper_text",
    "ours_digits",
]

#: The most significant digits a number is printed with in prose, reports and the site
#: (report.csv keeps full precision as data).
MAX_SIGNIFICANT_DIGITS = 7
#: Significant digits of a number of ours with no paper value to match, and of a difference.
DISPLAY_DIGITS = 4


def significant_digits(value: float) -> int:
    """Significant digits of a number as written in its shortest form (``repr``), at
    most :data:`MAX_SIGNIFICANT_DIGITS`.

    A paper value read from a CSV (``10.16``: 4, ``2409.41``: 6, ``0.6``: 1, ``100``: 1)
    keeps the precision the paper printed it with.
    """
    mantissa = repr(float(abs(value))).lower().split("e")[0]
    digits = mantissa.replace(".", "").lstrip("0")
    if "." not in mantissa or mantissa.endswith(".0"):
        digits = mantissa.split(".")[0].lstrip("0").rstrip("0")
    return max(1, min(len(digits), MAX_SIGNIFICANT_DIGITS))


def format_significant(value: float, digits: int = DISPLAY_DIGITS) -> str:
    """A number at ``digits`` significant digits (1 to :data:`MAX_SIGNIFICANT_DIGITS`), without a
    needless exponent.

    Positional for magnitudes from 1e-4 up to 1e9 (``10240``, not ``1.024e+04``; trailing
    zeros after the point dropped), scientific beyond; ``nan``/``inf`` as such.

    Raises
    ------
    ValueError
        If ``digits`` is outside 1 to :data:`MAX_SIGNIFICANT_DIGITS`.
    """
    if not 1 <= digits <= MAX_SIGNIFICANT_DIGITS:
        raise ValueError(f"digits must be in [1, {MAX_SIGNIFICANT_DIGITS}], got {digits!r}")
    value = float(value)
    if not math.isfinite(value):
        return str(value)
    if value == 0 or 1e-4 <= abs(value) < 1e9:
        return np.format_float_positional(
            value, precision=digits, unique=True, fractional=False, trim="-"
        )
    return f"{value:.{digits}g}"


def number_text(value, digits: int = DISPLAY_DIGITS) -> str:
    """A number as the report and the site print it (:func:`format_significant`); empty for a
    missing one."""
    return "" if is_missing(value) else format_significant(value, digits)


def signed_text(value, digits: int = DISPLAY_DIGITS) -> str:
    """A difference as the report and the site print it: :func:`number_text` with a ``+`` before a
    non-negative one."""
    text = number_text(value, digits)
    return f"+{text}" if text and value >= 0 else text


def paper_text(value) -> str:
    """A paper's value as the paper printed it (its shortest form, at most 7 significant digits);
    empty if missing."""
    return "" if is_missing(value) else format_significant(value, significant_digits(value))


def ours_digits(paper) -> int:
    """Digits to print ours with: one more than the paper printed (at least :data:`DISPLAY_DIGITS`,
    at most 7)."""
    if is_missing(paper):
        return DISPLAY_DIGITS
    return min(MAX_SIGNIFICANT_DIGITS, max(DISPLAY_DIGITS, significant_digits(paper) + 1))
