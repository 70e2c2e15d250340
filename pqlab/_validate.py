"""Validation helpers shared by every public constructor and entry point.

Each helper checks one value and raises ``ValueError`` whose message names the
parameter, the allowed range and the value received, e.g.
``limit_packets must be an integer >= 1, got 0``. numba kernels do no bounds
checks, so everything that reaches a kernel passes through here first.
"""

from __future__ import annotations

import math
import numbers

import numpy as np


def _is_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is_real(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def check_int(name: str, value, minimum: int | None = None, maximum: int | None = None) -> int:
    """Return ``value`` as ``int`` if it is an integer in ``[minimum, maximum]``."""
    if not _is_int(value) or (minimum is not None and value < minimum) or (
        maximum is not None and value > maximum
    ):
        raise ValueError(f"{name} must be an integer {_range_text(minimum, maximum)}, got {value!r}")
    return int(value)


def check_real(
    name: str,
    value,
    minimum: float | None = None,
    maximum: float | None = None,
    *,
    strict_minimum: bool = False,
) -> float:
    """Return ``value`` as ``float`` if it is a finite real number in range.

    With ``strict_minimum`` the lower bound is exclusive (``> minimum``).
    """
    ok = _is_real(value) and math.isfinite(float(value))
    if ok and minimum is not None:
        ok = float(value) > minimum if strict_minimum else float(value) >= minimum
    if ok and maximum is not None:
        ok = float(value) <= maximum
    if not ok:
        rng = _range_text(minimum, maximum, strict_minimum=strict_minimum)
        raise ValueError(f"{name} must be a finite number {rng}, got {value!r}")
    return float(value)


def check_choice(name: str, value, choices) -> str:
    """Return ``value`` if it is one of ``choices``."""
    if value not in choices:
        allowed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
    return value


def check_array(
    name: str,
    values,
    *,
    kind: str,
    minimum: float | None = None,
    maximum: float | None = None,
    length: int | None = None,
) -> np.ndarray:
    """Return ``values`` as a 1-D contiguous array after checking every element.

    Parameters
    ----------
    name : str
        Parameter name used in error messages.
    values : array_like
        The values to check.
    kind : {"int", "float"}
        ``"int"`` requires integral values (returned as int64), ``"float"``
        finite real values (returned as float64).
    minimum, maximum : float, optional
        Inclusive bounds every element must satisfy.
    length : int, optional
        Required number of elements.
    """
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array, got an array of shape {arr.shape}")
    if length is not None and arr.shape[0] != length:
        raise ValueError(f"{name} must have {length} elements (one per packet), got {arr.shape[0]}")
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.number)):
        raise ValueError(f"{name} must hold numbers, got dtype {arr.dtype}")
    if kind == "int":
        if np.issubdtype(arr.dtype, np.floating):
            if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
                raise ValueError(f"{name} must hold integers, got non-integral values")
        elif not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(f"{name} must hold integers, got dtype {arr.dtype}")
        out = np.ascontiguousarray(arr, dtype=np.int64)
    else:
        out = np.ascontiguousarray(arr, dtype=np.float64)
        if out.size and not np.all(np.isfinite(out)):
            bad = int(np.flatnonzero(~np.isfinite(out))[0])
            raise ValueError(f"{name} must be finite, got {out[bad]!r} at index {bad}")
    if out.size and minimum is not None and out.min() < minimum:
        bad = int(np.argmin(out))
        raise ValueError(
            f"{name} must be {_range_text(minimum, maximum)}, got {out[bad]!r} at index {bad}"
        )
    if out.size and maximum is not None and out.max() > maximum:
        bad = int(np.argmax(out))
        raise ValueError(
            f"{name} must be {_range_text(minimum, maximum)}, got {out[bad]!r} at index {bad}"
        )
    return out


def _range_text(minimum, maximum, *, strict_minimum: bool = False) -> str:
    lower = ">" if strict_minimum else ">="
    if minimum is not None and maximum is not None:
        return f"in [{minimum}, {maximum}]" if not strict_minimum else f"in ({minimum}, {maximum}]"
    if minimum is not None:
        return f"{lower} {minimum}"
    if maximum is not None:
        return f"<= {maximum}"
    return ""
