"""Packet traces in: a CSV, Parquet, pcap or pcapng file read
into :class:`~pqlab.traffic.TraceStream` s.

:func:`read_trace` reads one file into one stream per flow, its times rebased to the trace's first
packet (or a given origin) with that origin kept in each stream (``time_origin_s``: a run's
attribute ``trace_time_origin_s``), and its source (path, format, options) recorded so a result's
scenario, which holds a long trace only as its digest, can be read back (:func:`from_digest`).
:func:`rebase` moves a trace built in memory (e.g. with Unix times) to its first packet.

Units: times in seconds (a table's time column in ``time_unit``: ``"s"``, ``"ms"``, ``"us"`` or
``"ns"``; integer ticks and a CSV's decimals of up to 9 fractional digits, plain or in exponent
form (``1.5e-3``; one that is not is refused, naming its row), read as text into integer ticks,
are rebased exactly, so a pcap, a pcapng, a CSV and a Parquet file of the same
packets give the same arrivals to the bit; other float times within float64's resolution,
2.4e-7 s at Unix times 1.7e9 s); sizes are the IP packets' lengths, bytes (the engine adds the
line's framing).
A table whose size column holds frame lengths (a capture's ``frame.len``: the link header
included, no FCS) says ``size_is="frame"`` and ``frame_header_bytes`` (14: Ethernet II) are taken
off. A pcap's sizes are read from each packet's IP header (total length; IPv6: payload + 40), so
a capture truncated by its snap length still gives full sizes.

pcap and pcapng files are read by :mod:`pqlab.node.captures` (a classic pcap by a jitted record
walk, pcapng block by block), their IP fields for all packets at once; a damaged capture is
refused naming the byte offset of its damage, one whose last record is cut warns. Parquet
files are read by pandas with pyarrow (the ``parquet`` extra: ``pip install pqlab[parquet]``).
Throughput: ``benchmarks/traces.py`` (its figures in docs/performance.md).

Each packet is in one flow: a table's ``flow_column`` value (non-negative integers are the flow
ids after ``first_flow``, other values numbered from ``first_flow`` in order of first appearance;
an empty cell or a fractional number is refused), a pcap packet's
5-tuple (addresses, protocol, ports: numbered from ``first_flow`` in order of first packet), or
one flow for the whole file. Its queue: ``queue`` for every packet, or its class (a table's
``class_column`` value, a pcap packet's DSCP) looked up in ``queues``.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from ..base._validate import check_choice, check_int, check_real, echo
from .captures import CaptureError, ip_fields, read_frames
from .framing import MAX_SIZE_BYTES
from .sources import MAX_FLOW_ID, MAX_QUEUE_INDEX, TraceStream

#: File formats :func:`read_trace` reads, and the suffixes that name them.
FORMATS = ("csv", "parquet", "pcap")
SUFFIXES = {
    ".csv": "csv",
    ".txt": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".pcap": "pcap",
    ".pcapng": "pcap",
    ".cap": "pcap",
    ".dmp": "pcap",
}
#: What a table's size column holds: IP lengths, or frame lengths with the link header.
SIZE_KINDS = ("ip", "frame")
#: Units of a table's time column, per second (times are tick differences divided by these, so a
#: time in microseconds and the same time in nanoseconds give the same float, correctly rounded).
TIME_UNITS = {"s": 1, "ms": 1_000, "us": 1_000_000, "ns": 1_000_000_000}
#: ``flows`` of a pcap: one stream per 5-tuple, or one for the whole file.
PCAP_FLOWS = ("5-tuple", "none")
_PROTOCOL_NAMES = {6: "tcp", 17: "udp", 132: "sctp", 1: "icmp", 58: "icmpv6"}


def read_trace(
    path: str | os.PathLike,
    *,
    format: str | None = None,
    time_column: str = "time_s",
    size_column: str = "size_bytes",
    flow_column: str | None = None,
    class_column: str | None = None,
    time_unit: str = "s",
    size_is: str = "ip",
    frame_header_bytes: int = 14,
    flows: str = "5-tuple",
    queue: int = 0,
    queues: dict | None = None,
    first_flow: int = 0,
    origin_s: float | str = "first",
    sort: bool = False,
) -> tuple:
    """Read a packet trace file into one :class:`~pqlab.traffic.TraceStream` per flow.

    Parameters
    ----------
    path : str or os.PathLike
        The file: a CSV (``#`` lines are comments), a Parquet file, or a pcap/pcapng capture.
    format : {"csv", "parquet", "pcap"}, optional
        The file's format; None (default): from its suffix (:data:`SUFFIXES`).
    time_column, size_column : str
        A table's columns of arrival times (``time_unit``; numbers, or datetimes in a Parquet
        file) and sizes (bytes, see ``size_is``). Default ``time_s`` and ``size_bytes``.
    flow_column, class_column : str, optional
        A table's columns of flow ids and of classes (looked up in ``queues``, else queue indices);
        None (default): one flow (``first_flow``), every packet in ``queue``.
    time_unit : {"s", "ms", "us", "ns"}
        Unit of a table's time column (integer ticks and a CSV's decimals of up to 9 fractional
        digits are rebased exactly).
    size_is : {"ip", "frame"}
        What a table's size column holds: IP lengths (default), or frame lengths from which
        ``frame_header_bytes`` (default 14, Ethernet II without FCS) are taken off.
    frame_header_bytes : int
        See ``size_is``, bytes (>= 0).
    flows : {"5-tuple", "none"}
        A pcap's flows: one per (source, destination, protocol, source port, destination port),
        or one for the file.
    queue : int
        Queue index (>= 0) of every packet whose class is not in ``queues``.
    queues : dict, optional
        Class -> queue index: a table's ``class_column`` values, a pcap packet's DSCP (e.g.
        ``{46: 0}``: EF to queue 0). A pcap flow whose packets go to two queues is two streams.
    first_flow : int
        The first flow id, in [0, 2**63 - 1]: flows that are numbered get ``first_flow``,
        ``first_flow + 1``, ...; a table's integer flow ids are added to it (default 0: kept).
    origin_s : "first" or float
        The absolute time that becomes 0, seconds: ``"first"`` (default), the trace's first
        packet; or a time at or before it (0 keeps the times as they are). Kept in each stream's
        ``time_origin_s``.
    sort : bool
        False (default): times out of order are refused naming the first one; True: the packets
        are sorted by time (stable).

    Returns
    -------
    tuple of TraceStream
        One per flow, by flow id; each with ``time_origin_s`` and ``source`` set.

    Raises
    ------
    ValueError
        One line naming the file and the parameter or column at fault: an unknown format, a
        missing column, a time that is not finite, a size out of ``[1, 65535]`` after
        ``size_is``, times out of order (``sort=True`` sorts them), an origin after the first
        packet, a class without a queue, a flow in two classes, a file with no packet.
    ImportError
        A Parquet file without pyarrow (naming the ``parquet`` extra).

    Warns
    -----
    UserWarning
        A pcap's packets that are not IP (ARP, ...) or too short to read: how many were skipped.
    """
    options = _check_options(locals())
    path = os.fspath(path) if isinstance(path, (str, os.PathLike)) else path
    if not isinstance(path, str):
        raise ValueError(
            f"path must be a file name (str or os.PathLike), got {type(path).__name__}"
        )
    kind = options.pop("format") or SUFFIXES.get(Path(path).suffix.lower())
    if kind is None:
        raise ValueError(
            f"path {path!r}: the format cannot be told from the suffix {Path(path).suffix!r}; "
            f"pass format= one of {', '.join(map(repr, FORMATS))}"
        )
    if not os.path.isfile(path):
        raise ValueError(f"path {path!r} is not a file")
    if kind == "pcap":
        for name in ("flow_column", "class_column"):
            if options[name] is not None:
                raise ValueError(
                    f"{name} is for tables (CSV, Parquet); a pcap's flows are its 5-tuples (flows=)"
                    f" and its classes its DSCPs (queues=), got {name}={options[name]!r}"
                )
        if options["size_is"] != "ip":
            raise ValueError(
                "size_is is for tables; a pcap's sizes are read from its IP headers, got "
                f"size_is={options['size_is']!r}"
            )
        _check_dscp_keys(options["queues"])
        ticks, per_s, size, keys, classes, names = _read_pcap(path, options)
        numbered = True
    else:
        (ticks, per_s, size, keys, classes), names = _read_table(path, kind, options), None
        numbered = keys is not None and not (
            keys.dtype.kind in "iu" and (keys.size == 0 or keys.min() >= 0)
        )
    recorded = {
        **options,
        "queues": (
            None if options["queues"] is None else [[k, v] for k, v in options["queues"].items()]
        ),
    }
    source = {
        "path": str(Path(path).resolve()),
        "format": kind,
        "options": recorded,
    }  # JSON keys are text: pairs
    return _streams(
        path, ticks, per_s, size, keys, classes, numbered, names, kind == "pcap", options, source
    )


def _check_dscp_keys(queues: dict | None) -> None:
    """Refuse a key of a pcap's ``queues`` that is no DSCP (an integer in [0, 63]): ``'46'``
    (text) matches no packet."""
    for key in queues or ():
        dscp = isinstance(key, (int, np.integer)) and not isinstance(key, bool)
        if not (dscp and 0 <= key <= 63):
            hint = " (text: write the number)" if isinstance(key, str) else ""
            raise ValueError(
                "queues' keys are a pcap packet's DSCPs, integers in [0, 63], got "
                f"{echo(key)}{hint}"
            )


def _check_options(given: dict) -> dict:
    """The reader's keyword arguments, checked (each named in its error)."""
    opts = {k: v for k, v in given.items() if k != "path"}
    if opts["format"] is not None:
        check_choice("format", opts["format"], FORMATS)
    for name in ("time_column", "size_column"):
        if not isinstance(opts[name], str):
            raise ValueError(f"{name} must be a column name (str), got {opts[name]!r}")
    for name in ("flow_column", "class_column"):
        if opts[name] is not None and not isinstance(opts[name], str):
            raise ValueError(f"{name} must be None or a column name (str), got {opts[name]!r}")
    check_choice("time_unit", opts["time_unit"], tuple(TIME_UNITS))
    check_choice("size_is", opts["size_is"], SIZE_KINDS)
    check_choice("flows", opts["flows"], PCAP_FLOWS)
    opts["frame_header_bytes"] = check_int(
        "frame_header_bytes", opts["frame_header_bytes"], 0, MAX_SIZE_BYTES
    )
    opts["queue"] = check_int("queue", opts["queue"], 0, MAX_QUEUE_INDEX)
    opts["first_flow"] = check_int("first_flow", opts["first_flow"], 0, MAX_FLOW_ID)
    if opts["queues"] is not None:
        if not isinstance(opts["queues"], dict):
            raise ValueError(
                f"queues must be None or a mapping class -> queue index, got {opts['queues']!r}"
            )
        opts["queues"] = {
            k: check_int(f"queues[{echo(k)}]", v, 0, MAX_QUEUE_INDEX)
            for k, v in opts["queues"].items()
        }
    if opts["origin_s"] != "first":
        opts["origin_s"] = (
            check_real("origin_s", opts["origin_s"], 0.0)
            if not isinstance(opts["origin_s"], str)
            else check_choice("origin_s", opts["origin_s"], ("first",))
        )
    if not isinstance(opts["sort"], bool):
        raise ValueError(f"sort must be True or False, got {opts['sort']!r}")
    return opts


# --------------------------------------------------------------------------- tables


def _read_table(path: str, kind: str, options: dict):
    """``(ticks, per_s, size, keys, classes)`` of a CSV or Parquet table: times (ticks, ``per_s`` a
    second), sizes, flow keys and classes (None without their column), see :func:`read_trace`."""
    import pandas as pd

    wanted = [options["time_column"], options["size_column"]] + [
        options[c] for c in ("flow_column", "class_column") if options[c] is not None
    ]
    try:
        if kind == "parquet":
            _require_parquet()
            table = pd.read_parquet(path)
        else:
            table = pd.read_csv(path, comment="#", skipinitialspace=True)
    except (ValueError, OSError, pd.errors.ParserError) as exc:
        raise ValueError(f"path {path!r} cannot be read as {kind}: {exc}") from None
    if not len(table):
        raise ValueError(f"path {path!r} holds no packet")
    missing = [c for c in wanted if c not in table.columns]
    if missing:
        params = {
            options[p]: p
            for p in ("time_column", "size_column", "flow_column", "class_column")
            if options[p] is not None
        }
        raise ValueError(
            f"path {path!r} has no column {missing[0]!r} ({params[missing[0]]}); its columns: "
            f"{', '.join(map(str, table.columns))}"
        )
    times = table[options["time_column"]]
    if pd.api.types.is_datetime64_any_dtype(
        times
    ):  # datetimes: integer nanoseconds since the Unix epoch
        if times.isna().any():
            raise ValueError(
                f"path {path!r}: {options['time_column']} (time_column) has an empty time at row "
                f"{int(np.flatnonzero(times.isna().to_numpy())[0])}"
            )
        if times.dt.tz is not None:
            times = times.dt.tz_convert("UTC").dt.tz_localize(None)
        ticks, per_s = times.astype("datetime64[ns]").to_numpy().view(np.int64), TIME_UNITS["ns"]
    else:
        digits = 0
        if kind == "csv" and times.dtype.kind == "f":  # decimals: exact from their text
            ticks, digits = _text_ticks(path, options["time_column"], times)
        else:
            ticks = times
        ticks = _numbers(path, options["time_column"], "time_column", ticks)
        per_s = TIME_UNITS[options["time_unit"]] * 10**digits
    sizes = _numbers(path, options["size_column"], "size_column", table[options["size_column"]])
    size = _sizes(path, sizes, options)
    keys, classes = (_labels(path, table, options, p) for p in ("flow_column", "class_column"))
    return ticks, per_s, size, keys, classes


def _labels(path: str, table, options: dict, param: str) -> np.ndarray | None:
    """A table's flow or class column (``param``) as an array: integers (int64, whole floats
    included) or names; None without the column. An empty cell or a fractional number is refused
    naming its row (an empty flow cell is no flow, 0.5 no flow id)."""
    if options[param] is None:
        return None
    column = table[options[param]]
    empty = column.isna().to_numpy()
    if empty.any():
        raise ValueError(
            f"path {path!r}: {options[param]} ({param}) has an empty cell at row "
            f"{int(np.flatnonzero(empty)[0])}: give every packet a "
            f"{param.split('_')[0]}"
        )
    values = column.to_numpy()
    if values.dtype.kind == "f":
        fractional = np.flatnonzero(values != np.round(values))
        if fractional.size:
            row = int(fractional[0])
            raise ValueError(
                f"path {path!r}: {options[param]} ({param}) must hold integers or "
                f"names, got {values[row].item()!r} at row {row}"
            )
        if np.abs(values).max() < 2.0**63:
            values = values.astype(np.int64)
    return values


def _text_ticks(path: str, column: str, values):
    """A CSV's time column of decimals (``values``, as pandas read them: float64) -> ``(ticks,
    digits)``: read again as text, plain decimals and numbers in exponent form that are whole
    multiples of 1e-9 of the unit and hold at most 18 digits as exact integers in units of
    ``10**-digits`` (``1700000000.123456`` and ``1.700000000123456e9`` -> ``1700000000123456``,
    6; :func:`_decimal_ticks`), else ``values`` and 0 (an empty cell, a plain decimal finer than
    1e-9: float64 as read).

    Raises
    ------
    ValueError
        Naming ``column`` and the first row that is not so, in a column with a number in
        exponent form (it would be read rounded to float64).
    """
    import pandas as pd

    text = pd.read_csv(
        path, comment="#", skipinitialspace=True, usecols=[column], dtype={column: str}
    )[column]
    parsed = _decimal_ticks(text.to_numpy()) if text.notna().all() else None
    if isinstance(parsed, int):
        raise ValueError(
            f"path {path!r}: {column} (time_column) has {echo(text.iloc[parsed])} at "
            f"row {parsed}, not a whole number of ticks of 1e-9 of the unit within "
            "18 digits: write it as a plain decimal of at most 9 fractional digits "
            "(or the column in a finer time_unit)"
        )
    return (values, 0) if parsed is None else parsed


#: Fractional digits and digits in all of a time read exactly (int64 ticks of 1e-9 of the unit).
MAX_FRACTION_DIGITS, MAX_TICK_DIGITS = 9, 18


def _decimal_ticks(text: np.ndarray) -> tuple[np.ndarray, int] | int | None:
    """Cells of text ``[+-]digits[.digits][(e|E)[+-]digits]`` as exact int64 ticks of
    ``10**-digits`` and ``digits`` (the most fractional digits of any cell's value, at most
    :data:`MAX_FRACTION_DIGITS`; at most :data:`MAX_TICK_DIGITS` digits in all), computed on the
    cells' bytes, a column of bytes at a time; None for any other form (a space, a name) or a
    plain decimal beyond those limits; in a column with a cell in exponent form, the index of the
    first cell beyond them."""
    try:
        raw = text.astype("S")  # ASCII, NUL-padded to the longest cell
    except (UnicodeEncodeError, ValueError, TypeError):
        return None
    if not raw.size or not raw.dtype.itemsize:
        return None
    power = np.zeros(raw.size, dtype=np.int64)
    cells = raw.view(np.uint8).reshape(raw.size, raw.dtype.itemsize)
    marked = ((cells == ord("e")) | (cells == ord("E"))).any(axis=1)
    if marked.any():
        parts = np.char.partition(np.char.lower(raw), b"e")  # rows of (mantissa, e, exponent)
        raw = np.ascontiguousarray(parts[:, 0])
        exponents = _exponents(np.ascontiguousarray(parts[:, 2]), marked)
        if exponents is None:
            return None
        power = exponents
    parsed = _plain_decimals(raw)
    if parsed is None:
        return None
    mantissa, after, too_long = parsed
    shift = after - power  # each value is mantissa * 10**-shift
    own = too_long | (shift > MAX_FRACTION_DIGITS) | (shift < -MAX_TICK_DIGITS)
    digits = int(max(shift[~own].max(initial=0), 0))
    scale = np.minimum(
        digits - shift, MAX_TICK_DIGITS + 1
    )  # each value's ticks: mantissa * 10**scale
    room = np.power(10, np.maximum(MAX_TICK_DIGITS - scale, 0), dtype=np.int64)
    beyond = own | (scale > MAX_TICK_DIGITS) | (np.abs(mantissa) >= room)
    if beyond.any():  # refused in a column with exponents (they mean exact values), else float64
        return int(np.flatnonzero(beyond)[0]) if marked.any() else None
    return mantissa * np.power(10, scale, dtype=np.int64), digits


def _exponents(exponent: np.ndarray, marked: np.ndarray) -> np.ndarray | None:
    """The exponents (bytes after ``e``: ``[+-]digits``, none where not ``marked``) as int64,
    those of more than 9 digits as ``10**9`` (beyond any tick); None if one is not so written."""
    b = (
        exponent.view(np.uint8).reshape(exponent.size, -1)
        if exponent.dtype.itemsize
        else np.zeros((exponent.size, 1), np.uint8)
    )
    used, digit = b != 0, (b >= ord("0")) & (b <= ord("9"))
    allowed = digit.copy()
    allowed[:, 0] |= (b[:, 0] == ord("-")) | (b[:, 0] == ord("+"))
    if (
        np.any(used & ~allowed)
        or np.any(used[:, 1:] & ~used[:, :-1])
        or not np.all(digit.any(axis=1) | ~marked)
    ):
        return None
    value = np.zeros(exponent.size, dtype=np.int64)
    for j in range(b.shape[1]):  # Horner, capped: an exponent past 10**9 is beyond every tick
        value = np.where(digit[:, j], np.minimum(value * 10 + (b[:, j] - ord("0")), 10**9), value)
    return np.where(b[:, 0] == ord("-"), -value, value)


def _plain_decimals(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Cells of bytes ``[+-]digits[.digits]`` -> ``(mantissa, after, too_long)``: each cell's
    digits as one int64 (sign applied; 0 for a cell of more than :data:`MAX_TICK_DIGITS` digits,
    ``too_long``) and its fractional digits; None for any other form."""
    width = raw.dtype.itemsize
    if not width:
        return None
    b = raw.view(np.uint8).reshape(raw.size, width)
    used, digit, dot = b != 0, (b >= ord("0")) & (b <= ord("9")), b == ord(".")
    sign = (b[:, 0] == ord("-")) | (b[:, 0] == ord("+"))
    allowed = digit | dot
    allowed[:, 0] |= sign
    if (
        np.any(used & ~allowed)
        or np.any(used[:, 1:] & ~used[:, :-1])
        or np.any(dot.sum(axis=1) > 1)
        or not np.all(digit.any(axis=1))
    ):
        return None
    too_long = digit.sum(axis=1) > MAX_TICK_DIGITS  # beyond int64
    after = np.where(dot.any(axis=1), used.sum(axis=1) - dot.argmax(axis=1) - 1, 0)  # fraction's
    mantissa = np.zeros(raw.size, dtype=np.int64)
    for j in range(width):  # Horner: every digit of the cell, the fraction's included
        mantissa = np.where(
            digit[:, j], mantissa * 10 + (b[:, j].astype(np.int64) - ord("0")), mantissa
        )
    mantissa[too_long] = 0  # wrapped: never used
    return np.where(b[:, 0] == ord("-"), -mantissa, mantissa), after, too_long


def _numbers(path: str, column: str, param: str, values) -> np.ndarray:
    """A numeric column as int64 or float64, every value finite (else the row named); integers
    beyond int64 (a uint64 column) as float64, never wrapped."""
    array = values.to_numpy() if hasattr(values, "to_numpy") else np.asarray(values)
    if array.dtype.kind not in "iuf":
        raise ValueError(
            f"path {path!r}: {column} ({param}) must hold numbers, got values of type "
            f"{array.dtype} (e.g. {echo(array[0])})"
        )
    if array.dtype.kind == "u" and array.size and array.max() > np.iinfo(np.int64).max:
        array = array.astype(np.float64)
    if array.dtype.kind == "f" and not np.all(np.isfinite(array)):
        row = int(np.flatnonzero(~np.isfinite(array))[0])
        raise ValueError(
            f"path {path!r}: {column} ({param}) must hold finite numbers, got {array[row].item()!r}"
            f" at row {row}"
        )
    return array.astype(np.float64 if array.dtype.kind == "f" else np.int64)


def _sizes(path: str, size: np.ndarray, options: dict) -> np.ndarray:
    """A table's size column as IP lengths (int64, bytes): whole bytes, each in ``[1, 65535]``
    after ``size_is`` (checked on the values as given, so an error echoes the value in the file)."""
    column = options["size_column"]
    header = options["frame_header_bytes"] if options["size_is"] == "frame" else 0
    if size.dtype.kind == "f" and not np.all(size == np.round(size)):
        row = int(np.flatnonzero(size != np.round(size))[0])
        raise ValueError(
            f"path {path!r}: {column} (size_column) must hold whole bytes, got "
            f"{size[row].item()!r} at row {row}"
        )
    bad = np.flatnonzero((size < 1 + header) | (size > MAX_SIZE_BYTES + header))
    if bad.size:
        what = (
            f"IP length (frame length - frame_header_bytes = {header})" if header else "IP length"
        )
        given = "a frame length of " if header else ""
        raise ValueError(
            f"path {path!r}: {column} (size_column): every {what} must be in "
            f"[1, {MAX_SIZE_BYTES}] bytes, got {given}{size[bad[0]].item()!r} at row "
            f"{int(bad[0])}"
        )
    return size.astype(np.int64) - header


def _require_parquet() -> None:
    """Raise ImportError naming the ``parquet`` extra when pyarrow is missing."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise ImportError(
            "reading a Parquet trace needs pyarrow: pip install 'pqlab[parquet]' (or pip install "
            "pyarrow)"
        ) from None


# --------------------------------------------------------------------------- pcap


def _read_pcap(path: str, options: dict):
    """``(ticks, per_s, size, codes, classes, names)`` of a pcap or pcapng file: integer
    nanoseconds,
    IP lengths, each packet's 5-tuple as an index into ``names`` (its text, in order of first
    packet; None with ``flows="none"``) and DSCPs (see :func:`read_trace`)."""
    try:
        data, offset, captured, ticks, link, cut = read_frames(path)
        is_ip, length, dscp, raw = ip_fields(data, offset, captured, link)
    except CaptureError as exc:
        raise ValueError(
            f"path {path!r}{' ' if str(exc).startswith('is ') else ': '}{exc}"
        ) from None
    if cut:
        warnings.warn(f"path {path!r}: {cut}", UserWarning, stacklevel=3)
    skipped = int(is_ip.shape[0] - np.count_nonzero(is_ip))
    if skipped:
        warnings.warn(
            f"path {path!r}: {skipped:,} of {is_ip.shape[0]:,} packets are not IPv4/IPv6 (or too "
            "short to read) and were skipped",
            UserWarning,
            stacklevel=3,
        )
    ticks, length, dscp, raw = ticks[is_ip], length[is_ip], dscp[is_ip], raw[is_ip]
    if options["flows"] == "none":
        return ticks, TIME_UNITS["ns"], length, None, dscp, None
    codes, first = _first_appearance_codes(raw)
    return ticks, TIME_UNITS["ns"], length, codes, dscp, [_five_tuple_text(raw[i]) for i in first]


def _first_appearance_codes(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's distinct-row number, rows numbered in order of first appearance, and the first
    row of each (``raw``: rows of bytes; a stable sort of their 8-byte words)."""
    n, width = raw.shape
    words = np.zeros((n, -(-width // 8) * 8), dtype=np.uint8)
    words[:, :width] = raw
    words = words.view(">u8")  # big-endian words sort as the bytes do
    order = np.lexsort(words.T[::-1])
    ordered = words[order]
    new = np.r_[True, np.any(ordered[1:] != ordered[:-1], axis=1)] if n else np.zeros(0, dtype=bool)
    group = np.cumsum(new) - 1  # of each sorted row
    first = order[new]  # stable: the first row of each group
    rank = np.empty(first.size, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(first.size)
    codes = np.empty(n, dtype=np.int64)
    codes[order] = rank[group]
    return codes, np.sort(first)


def _five_tuple_text(raw: np.ndarray) -> str:
    """A raw 5-tuple (:func:`pqlab.node.captures.ip_fields`) as text: ``udp 10.0.0.1 > 10.0.0.9
    5000>6000``."""
    import ipaddress

    proto, half = int(raw[0]), 4 if raw[37] == 4 else 16
    src, dst = (
        str(ipaddress.ip_address(raw[1 + k * half : 1 + (k + 1) * half].tobytes())) for k in (0, 1)
    )
    text = f"{_PROTOCOL_NAMES.get(proto, proto)} {src} > {dst}"
    if raw[38]:
        text += f" {int(raw[33]) << 8 | int(raw[34])}>{int(raw[35]) << 8 | int(raw[36])}"
    return text


# --------------------------------------------------------------------------- streams


def _streams(
    path, ticks, per_s, size, keys, classes, numbered, names, pcap, options, source
) -> tuple:
    """The checked, rebased packets as one TraceStream per flow (see :func:`read_trace`); ``names``:
    the text of each key (a pcap's 5-tuples, keys indexing them), or None (the keys are named)."""
    n = ticks.shape[0]
    if n == 0:
        raise ValueError(f"path {path!r} holds no packet")
    bad = np.flatnonzero((size < 1) | (size > MAX_SIZE_BYTES))  # a capture's (a table's: _sizes)
    if bad.size:
        raise ValueError(
            f"path {path!r}: every IP length must be in [1, {MAX_SIZE_BYTES}] bytes, "
            f"got {int(size[bad[0]])} in the IP header of IP packet {int(bad[0])}"
        )
    order = np.arange(n)  # each packet's position in the file (its file_order)
    late = np.flatnonzero(np.diff(ticks) < 0)
    if late.size:
        if not options["sort"]:
            i = int(late[0]) + 1
            raise ValueError(
                f"path {path!r}: the times are out of order (row {i}: {ticks[i].item() / per_s!r} s"
                f" after {ticks[i - 1].item() / per_s!r} s); pass sort=True to sort the packets by"
                " time"
            )
        order = np.argsort(ticks, kind="stable")
        ticks, size = ticks[order], size[order]
        keys = keys[order] if keys is not None else None
        classes = classes[order] if classes is not None else None
    arrival, origin = _rebased(path, ticks, per_s, options["origin_s"])
    queue = _queues(path, n, classes, pcap, options)
    if keys is None:
        keys = np.zeros(n, dtype=np.int64)  # one flow: first_flow
    split = pcap and options["queues"] is not None  # a pcap flow split by queue
    used = np.unique(queue) if split else queue[:0]
    if split:
        keys = keys * used.size + np.searchsorted(used, queue)

    def label(k):
        """A flow's key as text: its 5-tuple (and queue), or the table's flow id."""
        if split:
            return f"{names[k // used.size] if names else 0} queue {used[k % used.size]}"
        return _plain(k) if names is None else names[k]

    groups = _groups(keys)
    last = options["first_flow"] + (len(groups) - 1 if numbered else int(keys.max()))
    if last > MAX_FLOW_ID:
        what = (
            f"{len(groups):,} flows numbered"
            if numbered
            else f"flow ids up to {int(keys.max())} added"
        )
        raise ValueError(
            f"path {path!r}: first_flow with {what} must keep flow ids at most "
            f"{MAX_FLOW_ID} (2**63 - 1), got first_flow={options['first_flow']}"
        )
    streams = []
    for index, (key, mine) in enumerate(groups):
        flow = options["first_flow"] + (index if numbered else int(key))
        queues_of_flow = np.unique(queue[mine])
        if queues_of_flow.size > 1:
            raise ValueError(
                f"path {path!r}: flow {label(key)!r} has packets of classes in queues"
                f" {queues_of_flow.tolist()}: a stream goes to one queue; give each class its own"
                " flow"
            )
        streams.append(
            TraceStream(
                arrival[mine],
                size[mine],
                int(queues_of_flow[0]),
                flow,
                file_order=order[mine],
                time_origin_s=origin,
                source={**source, "key": label(key)},
            )
        )
    return tuple(sorted(streams, key=lambda s: s.flow))


def _rebased(path, ticks, per_s, origin) -> tuple[np.ndarray, float]:
    """Arrivals in seconds after ``origin`` (``"first"``: the first packet) and the origin, s: tick
    differences (exact for integer ticks) divided by the ticks per second ``per_s``."""
    first = ticks[0].item()
    if first < 0:  # sorted: the earliest
        raise ValueError(
            f"path {path!r}: the times must be >= 0 (seconds since an epoch, or since "
            f"the trace's start), got {first / per_s!r} s at its first packet"
        )
    origin_ticks = first if origin == "first" else origin * per_s
    if ticks.dtype.kind == "i" and origin != "first":
        origin_ticks = round(origin_ticks)
    if origin_ticks > first:
        raise ValueError(
            f"origin_s must be at or before the trace's first packet ({first / per_s!r} s) in "
            f"{path!r}, got {origin!r}"
        )
    arrival = (ticks - origin_ticks) / per_s
    return arrival.astype(np.float64), float(first / per_s if origin == "first" else origin)


def _queues(path, n, classes, pcap, options) -> np.ndarray:
    """Each of the ``n`` packets' queue index: ``queue``, or its class looked up in ``queues`` (a
    table's class not in it must itself be a queue index; a pcap DSCP not in it goes to ``queue``).
    """
    n_default = options["queue"]
    if classes is None:
        return np.full(n, n_default, dtype=np.int64)
    mapping = options["queues"]
    if mapping is not None and not pcap:  # a key of another kind than the classes matches none
        numbers = classes.dtype.kind in "iuf"
        for key in mapping:
            if (isinstance(key, (int, float, np.number)) and not isinstance(key, bool)) != numbers:
                what = "numbers" if numbers else "names (text)"
                raise ValueError(
                    f"path {path!r}: queues' keys must be the classes of "
                    f"{options['class_column']} (class_column), which are {what}, got "
                    f"the key {echo(key)}"
                )
    out = np.empty(len(classes), dtype=np.int64)
    for value in np.unique(classes):
        mine = classes == value
        key = value.item() if isinstance(value, np.generic) else value
        if mapping is not None and key in mapping:
            out[mine] = mapping[key]
        elif pcap:  # a DSCP not in queues
            out[mine] = n_default
        elif isinstance(key, (int, np.integer)) and key >= 0 and mapping is None:
            out[mine] = int(key)
        else:
            raise ValueError(
                f"path {path!r}: class {key!r} of {options['class_column']} (class_column) has no "
                f"queue: give queues={{{key!r}: <queue index>, ...}} (or make the classes queue "
                "indices)"
            )
    return out


def _plain(value):
    """A numpy scalar as the Python value it holds (for messages and JSON)."""
    return value.item() if isinstance(value, np.generic) else value


def _groups(keys: np.ndarray) -> list:
    """``[(key, its rows in order), ...]`` for each distinct key, in order of first appearance (one
    stable sort)."""
    perm = np.argsort(keys, kind="stable")
    ordered = keys[perm]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    groups = np.split(perm, starts[1:])
    return sorted(
        ((ordered[i], rows) for i, rows in zip(starts, groups)), key=lambda group: group[1][0]
    )


def rebase(stream: TraceStream, origin_s: float | None = None) -> TraceStream:
    """The trace with its times after ``origin_s`` (default: its first packet), the origin added to
    its ``time_origin_s`` (a run records it in ``trace_time_origin_s``).

    Parameters
    ----------
    stream : TraceStream
        A trace, e.g. with Unix times (1.7e9 s).
    origin_s : float, optional
        The time that becomes 0, seconds, at or before the first packet.

    Raises
    ------
    ValueError
        If ``origin_s`` is after the first packet, or the trace is empty and no origin given.
    """
    if not isinstance(stream, TraceStream):
        raise ValueError(f"stream must be a pqlab.TraceStream, got {type(stream).__name__}")
    n = stream.arrival_s.shape[0]
    if origin_s is None:
        if not n:
            raise ValueError("stream is empty: give origin_s to rebase it")
        origin_s = float(stream.arrival_s[0])
    origin_s = check_real("origin_s", origin_s, 0.0)
    if n and origin_s > stream.arrival_s[0]:
        raise ValueError(
            f"origin_s must be at or before the trace's first packet ({stream.arrival_s[0]!r} s), "
            f"got {origin_s!r}"
        )
    return TraceStream(
        stream.arrival_s - origin_s,
        stream.size_bytes,
        stream.queue,
        stream.flow,
        stream.marker,
        time_origin_s=stream.time_origin_s + origin_s,
        source=None,
    )


def from_digest(data: dict, marker: Any = None) -> TraceStream:
    """A trace written by its digest (``packets``, ``sha256``: :meth:`TraceStream.to_dict`) read
    back
    from its ``source`` file, checked against the digest.

    Raises
    ------
    ValueError
        Without a source (a trace built in memory: it cannot be rebuilt from its digest), or when
        the file is missing or its packets differ from the digest (naming the file).
    """
    source, sha, packets = data.get("source"), data.get("sha256"), data.get("packets")
    what = f"TraceStream of {packets!r} packets (sha256 {str(sha)[:12]}...)"
    if not isinstance(source, dict) or not isinstance(source.get("path"), str):
        raise ValueError(
            f"{what} is recorded by its digest only and was built in memory: it cannot be read"
            " back; record the scenario with Scenario.to_json(full_traces=True) or rebuild the"
            " trace"
        )
    options = source.get("options")
    if not isinstance(options, dict):
        raise ValueError(f"{what}: source.options must be the reader's options, got {options!r}")
    path = source["path"]
    if not os.path.isfile(path):
        raise ValueError(
            f"{what} is read back from {path!r}, which is not a file (moved or deleted?)"
        )
    queues = options.get("queues")
    try:
        queues = (
            None if queues is None else {k: v for k, v in queues}
        )  # written as pairs (see read_trace)
        streams = read_trace(path, **{**options, "format": source.get("format"), "queues": queues})
    except TypeError as exc:
        raise ValueError(f"{what}: source.options are not read_trace's: {exc}") from None
    flow = data.get("flow")
    match = [s for s in streams if s.flow == flow]
    if not match or match[0].sha256 != sha:
        raise ValueError(
            f"{what}: {path!r} no longer holds it (flow {flow!r}"
            f" {'missing' if not match else 'has sha256 ' + match[0].sha256[:12] + '...'}): the"
            " file changed since the run"
        )
    got = match[0]
    return TraceStream(
        got.arrival_s,
        got.size_bytes,
        check_int("queue", data.get("queue"), 0),
        got.flow,
        marker,
        time_origin_s=got.time_origin_s,
        source=got.source,
        file_order=got.file_order,
    )


def origins_json(streams: Iterable[Any]) -> str:
    """JSON ``{"<flow>": time_origin_s}`` of the trace streams among ``streams`` (canonical)."""
    return json.dumps({str(s.flow): s.time_origin_s for s in streams if isinstance(s, TraceStream)})
