"""Validation helpers shared by every public constructor and entry point.

Each helper checks one value and raises ``ValueError`` whose message names the
parameter, the allowed range and the value received, e.g.
``limit_packets must be an integer >= 1, got 0``. numba kernels do no bounds
checks, so everything that reaches a kernel passes through here first.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import re

import numpy as np

from .echo import ECHO_CHARS, echo  # noqa: F401  (the checks' echo; re-exported)


def _is_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is_real(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def shown(value) -> str:
    """``repr`` of a value as the user wrote it (``5`` for ``np.int64(5)``, ``1e+20`` for
    ``np.float64(1e20)``), in at most :data:`ECHO_CHARS` characters (:func:`echo`)."""
    if isinstance(value, np.generic) and value.dtype.kind in "biuf":
        return echo(value.item())
    return echo(value)


def check_int(name: str, value, minimum: int | None = None, maximum: int | None = None) -> int:
    """Return ``value`` as ``int`` if it is an integer in ``[minimum, maximum]``."""
    if (
        not _is_int(value)
        or (minimum is not None and value < minimum)
        or (maximum is not None and value > maximum)
    ):
        raise ValueError(
            f"{name} must be an integer {_range_text(minimum, maximum)}, got {shown(value)}"
        )
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
        raise ValueError(f"{name} must be a finite number {rng}, got {shown(value)}")
    return float(value)


#: Largest single allocation a parameter may ask for, bytes (4 GiB).
MAX_ALLOCATION_BYTES = 4 * 2**30


def check_memory(
    name: str, count: int, item_bytes: int, maximum_bytes: int = MAX_ALLOCATION_BYTES
) -> int:
    """Raise ``ValueError`` if ``count`` items of ``item_bytes`` would exceed ``maximum_bytes``.

    Called before allocating arrays whose size derives from parameters, so a
    parameter such as ``window_s=1e-9`` fails at once, naming itself and the
    memory it would need, instead of raising ``MemoryError`` mid-run.
    """
    need = int(count) * int(item_bytes)
    if need > maximum_bytes:
        raise ValueError(
            f"{name} would need {_bytes_text(need)} ({int(count):,} x {item_bytes} bytes), more"
            f" than the {_bytes_text(maximum_bytes)} allowed; choose a value that needs less"
        )
    return int(count)


def _bytes_text(n: int) -> str:
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} bytes"


def check_mapping(name: str, value) -> dict:
    """Return ``value`` as a ``dict`` if it is a mapping with string keys (e.g. a JSON object)."""
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise ValueError(
            f"{name} must be a mapping of names to values (a JSON object), got {shown(value)}"
        )
    return dict(value)


def check_fields(cls, data: dict, *, required: bool = True) -> dict:
    """Return ``data`` if its keys are constructor fields of the dataclass ``cls`` and (with
    ``required``) name every field without a default (reading plain data: a misspelt key is an
    error, never a default used silently).

    Raises
    ------
    ValueError
        ``Hop has no field 'x' (its fields: rate_bps, framing)`` or ``Hop is missing rate_bps``.
    """
    fields = [f for f in dataclasses.fields(cls) if f.init]
    names = [f.name for f in fields]
    for key in data:
        if key not in names:
            raise ValueError(
                f"{cls.__name__} has no field {key!r} (its fields: {', '.join(names)})"
            )
    for f in fields if required else ():
        if (
            f.name not in data
            and f.default is dataclasses.MISSING
            and f.default_factory is dataclasses.MISSING
        ):
            raise ValueError(f"{cls.__name__} is missing {f.name} (its fields: {', '.join(names)})")
    return data


#: A JSON string literal (escapes included): the brackets inside one do not nest.
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
#: Every byte but the four brackets (``bytes.translate`` deletes them).
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def json_nesting(text: str) -> int:
    """How deep arrays and objects nest in JSON ``text`` (0: a number or string; brackets inside
    strings do not count), computed without parsing (about 30 ms for 5 MB): :func:`json.loads`
    recurses once per level and raises ``RecursionError`` some 1,000 levels deep."""
    brackets = _JSON_STRING.sub(b"", text.encode("utf-8", "surrogatepass")).translate(
        None, _NOT_BRACKETS
    )
    codes = np.frombuffer(brackets, dtype=np.uint8)
    return int(np.cumsum(np.where((codes == ord("[")) | (codes == ord("{")), 1, -1)).max(initial=0))


def from_part(name: str, build, data):
    """``build(data)`` with any error re-raised as one ``ValueError`` line naming the part ``name``.

    Used when reading nested plain data (a scenario's JSON): a wrong type deep inside gives
    ``node.queues[1]: ...`` instead of ``TypeError: 'int' object is not iterable``.
    """
    try:
        return build(data)
    except (TypeError, KeyError, AttributeError, ValueError) as exc:
        text = str(exc) if not isinstance(exc, KeyError) else f"missing {exc}"
        if isinstance(exc, ValueError) and text.startswith(f"{name}"):
            raise
        raise ValueError(f"{name}: {text}".replace("\n", " ")) from None


def check_unmasked(name: str, values):
    """Return ``values``, or a numpy masked array's data if none of its entries is masked.

    A masked array's masked entries still hold numbers, which ``numpy.asarray`` and every
    computation on the data would use as if valid: such an array is refused (pqlab does not
    guess whether a masked entry is to be dropped or filled). Other values are returned as given.

    Raises
    ------
    ValueError
        Naming ``name``, how many entries are masked, the first's index and the ways out.
    """
    if not isinstance(values, np.ma.MaskedArray):
        return values
    mask = np.ma.getmaskarray(values).ravel()
    if mask.any():
        raise ValueError(
            f"{name} must not hold masked entries (numpy.ma), got {int(mask.sum()):,} masked of"
            f" {mask.size:,}, the first at index {int(np.flatnonzero(mask)[0])}; drop them"
            " (values.compressed()) or fill them (values.filled(value))"
        )
    return np.ma.getdata(values)


def check_choice(name: str, value, choices) -> str:
    """Return ``value`` if it is one of ``choices``."""
    if value not in choices:
        allowed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {allowed}, got {echo(value)}")
    return value


def check_array(
    name: str,
    values,
    *,
    kind: str,
    minimum: float | None = None,
    maximum: float | None = None,
    length: int | None = None,
    finite: bool = True,
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
    finite : bool
        With ``kind="float"``: False takes NaN and infinities too (e.g. a dropped packet's
        departure, which does not exist); then no bounds (NaN compares with none).

    Notes
    -----
    Bounds are checked on the values as given, before any conversion, so an
    error reports the value received (``1e20``, ``18446744073709551615``), never
    a wrapped one. ``timedelta64`` values are accepted where ``kind="float"``
    (seconds: ``np.timedelta64(1, "ms")`` is 0.001) and rejected for ``"int"``;
    complex, boolean, string and object arrays are rejected, and so is a masked array with a
    masked entry (:func:`check_unmasked`).
    """
    if not finite and (kind != "float" or minimum is not None or maximum is not None):
        raise TypeError("check_array: finite=False is for kind='float' without bounds")
    values = check_unmasked(name, values)
    try:
        arr = np.asarray(values)
    except (ValueError, TypeError) as exc:  # e.g. [[0.1], 0.2]: numpy's message names no parameter
        raise ValueError(
            f"{name} must be a 1-D array of numbers, got a ragged sequence or one numpy cannot "
            f"convert ({type(exc).__name__})"
        ) from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array, got an array of shape {arr.shape}")
    if length is not None and arr.shape[0] != length:
        raise ValueError(f"{name} must have {length} elements (one per packet), got {arr.shape[0]}")
    if arr.dtype.kind == "m" and kind == "float":
        if np.any(np.isnat(arr)):
            bad = int(np.flatnonzero(np.isnat(arr))[0])
            raise ValueError(f"{name} must be finite, got NaT at index {bad}")
        arr = arr / np.timedelta64(1, "s")  # exact for whole-unit counts below 2**53
    if arr.dtype.kind not in "iuf":
        raise ValueError(
            f"{name} must hold numbers (real: integer or float"
            f" dtype{', or timedelta64' if kind == 'float' else ''}), got dtype {arr.dtype}"
        )
    if kind == "int" and arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
            bad = int(np.flatnonzero(~np.isfinite(arr) | (arr != np.round(arr)))[0])
            raise ValueError(f"{name} must hold integers, got {shown(arr[bad])} at index {bad}")
    if finite and kind == "float" and arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        bad = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise ValueError(f"{name} must be finite, got {shown(arr[bad])} at index {bad}")
    if arr.size and minimum is not None and arr.min() < minimum:
        bad = int(np.argmin(arr))
        raise ValueError(
            f"{name} must be {_range_text(minimum, maximum)}, got {shown(arr[bad])} at index {bad}"
        )
    if arr.size and maximum is not None and arr.max() > maximum:
        bad = int(np.argmax(arr))
        raise ValueError(
            f"{name} must be {_range_text(minimum, maximum)}, got {shown(arr[bad])} at index {bad}"
        )
    if kind == "int":
        if arr.dtype.kind == "u" and arr.size and arr.max() > np.iinfo(np.int64).max:
            bad = int(np.argmax(arr))
            raise ValueError(
                f"{name} must hold values below 2**63, got {shown(arr[bad])} at index {bad}"
            )
        if arr.dtype.kind == "f" and arr.size and np.abs(arr).max() >= 2.0**63:
            bad = int(np.argmax(np.abs(arr)))
            raise ValueError(
                f"{name} must hold values below 2**63, got {shown(arr[bad])} at index {bad}"
            )
        return np.ascontiguousarray(arr, dtype=np.int64)
    return np.ascontiguousarray(arr, dtype=np.float64)


def _range_text(minimum, maximum, *, strict_minimum: bool = False) -> str:
    lower = ">" if strict_minimum else ">="
    if minimum is not None and maximum is not None:
        return f"in [{minimum}, {maximum}]" if not strict_minimum else f"in ({minimum}, {maximum}]"
    if minimum is not None:
        return f"{lower} {minimum}"
    if maximum is not None:
        return f"<= {maximum}"
    return ""
