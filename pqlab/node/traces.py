"""Packet traces in: a CSV, Parquet, pcap or pcapng file read into :class:`~pqlab.traffic.TraceStream` s.

:func:`read_trace` reads one file into one stream per flow, its times rebased to the trace's first
packet (or a given origin) with that origin kept in each stream (``time_origin_s``: a run's
attribute ``trace_time_origin_s``), and its source (path, format, options) recorded so a result's
scenario, which holds a long trace only as its digest, can be read back (:func:`from_digest`).
:func:`rebase` moves a trace built in memory (e.g. with Unix times) to its first packet.

Units: times in seconds (a table's time column in ``time_unit``: ``"s"``, ``"ms"``, ``"us"`` or
``"ns"``; integer ticks are rebased exactly, float seconds within float64's resolution, 2.4e-7 s at
Unix times 1.7e9 s); sizes are the IP packets' lengths, bytes (the engine adds the line's framing).
A table whose size column holds frame lengths (a capture's ``frame.len``: the link header
included, no FCS) says ``size_is="frame"`` and ``frame_header_bytes`` (14: Ethernet II) are taken
off. A pcap's sizes are read from each packet's IP header (total length; IPv6: payload + 40), so
a capture truncated by its snap length still gives full sizes.

pcap and pcapng are read with dpkt (a dependency): pure Python with no dependency of its own, no
libpcap or tshark to install, reads both formats, both byte orders and nanosecond pcaps,
BSD-licensed, stable for years (1.9.8) and packaged by Debian (scapy also reads them but is
GPL-2.0 and dissects every layer of every packet; pyshark needs tshark installed; python-pcapng
reads pcapng only). pqlab reads only the file structure with it and parses the link, IP and port
fields itself (Ethernet with VLAN tags, raw IP, Linux cooked captures), and reads timestamps as
exact decimals (dpkt's float for a microsecond capture would round Unix times to 2.4e-7 s). A
pcapng file is read as dpkt reads it: every packet with the first interface's link type and time
resolution (a capture of one interface, as tcpdump and dumpcap write by default). Throughput
(``benchmarks/traces.py``): about 24,000 packets/s from a pcap, of which dpkt's own record reading
is half; a table is read by pandas at 200,000-300,000 packets/s. Parquet files are read by pandas
with pyarrow (the ``parquet`` extra: ``pip install pqlab[parquet]``).

Each packet is in one flow: a table's ``flow_column`` value (non-negative integers are the flow
ids, other values numbered from ``first_flow`` in order of first appearance), a pcap packet's
5-tuple (addresses, protocol, ports: numbered from ``first_flow`` in order of first packet), or
one flow for the whole file. Its queue: ``queue`` for every packet, or its class (a table's
``class_column`` value, a pcap packet's DSCP) looked up in ``queues``.
"""

from __future__ import annotations

import json
import os
import warnings
from decimal import Decimal
from pathlib import Path

import numpy as np

from ..base._validate import check_choice, check_int, check_real
from .framing import MAX_SIZE_BYTES
from .sources import TraceStream

#: File formats :func:`read_trace` reads, and the suffixes that name them.
FORMATS = ("csv", "parquet", "pcap")
SUFFIXES = {".csv": "csv", ".txt": "csv", ".parquet": "parquet", ".pq": "parquet", ".pcap": "pcap",
            ".pcapng": "pcap", ".cap": "pcap", ".dmp": "pcap"}
#: What a table's size column holds: IP lengths, or frame lengths with the link header.
SIZE_KINDS = ("ip", "frame")
#: Units of a table's time column, per second (times are tick differences divided by these, so a
#: time in microseconds and the same time in nanoseconds give the same float, correctly rounded).
TIME_UNITS = {"s": 1, "ms": 1_000, "us": 1_000_000, "ns": 1_000_000_000}
#: ``flows`` of a pcap: one stream per 5-tuple, or one for the whole file.
PCAP_FLOWS = ("5-tuple", "none")
#: Link types read from a pcap (libpcap's LINKTYPE values) -> bytes before the IP header (None:
#: Ethernet, whose header is 14 bytes plus 4 per VLAN tag).
LINK_HEADER_BYTES = {1: None, 101: 0, 12: 0, 14: 0, 228: 0, 229: 0, 113: 16}
_ETHER_VLAN = (0x8100, 0x88A8, 0x9100)
_ETHER_IP = (0x0800, 0x86DD)
_PORT_PROTOCOLS = (6, 17, 132)  # TCP, UDP, SCTP
_PROTOCOL_NAMES = {6: "tcp", 17: "udp", 132: "sctp", 1: "icmp", 58: "icmpv6"}


def read_trace(path, *, format: str | None = None, time_column: str = "time_s", size_column: str = "size_bytes",
               flow_column: str | None = None, class_column: str | None = None, time_unit: str = "s",
               size_is: str = "ip", frame_header_bytes: int = 14, flows: str = "5-tuple", queue: int = 0,
               queues: dict | None = None, first_flow: int = 0, origin_s: float | str = "first",
               sort: bool = False) -> tuple:
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
        Unit of a table's time column (integer ticks are rebased exactly).
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
        The first flow id given to flows that are numbered (>= 0).
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
        raise ValueError(f"path must be a file name (str or os.PathLike), got {type(path).__name__}")
    kind = options.pop("format") or SUFFIXES.get(Path(path).suffix.lower())
    if kind is None:
        raise ValueError(f"path {path!r}: the format cannot be told from the suffix {Path(path).suffix!r}; "
                         f"pass format= one of {', '.join(map(repr, FORMATS))}")
    if not os.path.isfile(path):
        raise ValueError(f"path {path!r} is not a file")
    if kind == "pcap":
        for name in ("flow_column", "class_column"):
            if options[name] is not None:
                raise ValueError(f"{name} is for tables (CSV, Parquet); a pcap's flows are its 5-tuples (flows=) "
                                 f"and its classes its DSCPs (queues=), got {name}={options[name]!r}")
        if options["size_is"] != "ip":
            raise ValueError(f"size_is is for tables; a pcap's sizes are read from its IP headers, got "
                             f"size_is={options['size_is']!r}")
        ticks, per_s, size, keys, classes = _read_pcap(path, options)
        numbered = True
    else:
        ticks, per_s, size, keys, classes = _read_table(path, kind, options)
        numbered = keys is not None and not (keys.dtype.kind in "iu" and (keys.size == 0 or keys.min() >= 0))
    recorded = {**options, "queues": None if options["queues"] is None else [[k, v] for k, v in options["queues"].items()]}
    source = {"path": str(Path(path).resolve()), "format": kind, "options": recorded}  # JSON keys are text: pairs
    return _streams(path, ticks, per_s, size, keys, classes, numbered, kind == "pcap", options, source)


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
    opts["frame_header_bytes"] = check_int("frame_header_bytes", opts["frame_header_bytes"], 0, MAX_SIZE_BYTES)
    opts["queue"] = check_int("queue", opts["queue"], 0)
    opts["first_flow"] = check_int("first_flow", opts["first_flow"], 0)
    if opts["queues"] is not None:
        if not isinstance(opts["queues"], dict):
            raise ValueError(f"queues must be None or a mapping class -> queue index, got {opts['queues']!r}")
        opts["queues"] = {k: check_int(f"queues[{k!r}]", v, 0) for k, v in opts["queues"].items()}
    if opts["origin_s"] != "first":
        opts["origin_s"] = check_real("origin_s", opts["origin_s"], 0.0) if not isinstance(opts["origin_s"], str) \
            else check_choice("origin_s", opts["origin_s"], ("first",))
    if not isinstance(opts["sort"], bool):
        raise ValueError(f"sort must be True or False, got {opts['sort']!r}")
    return opts


# --------------------------------------------------------------------------- tables


def _read_table(path: str, kind: str, options: dict):
    """``(ticks, per_s, size, keys, classes)`` of a CSV or Parquet table: times (ticks, ``per_s`` a
    second), sizes, flow keys and classes (None without their column), see :func:`read_trace`."""
    import pandas as pd

    wanted = [options["time_column"], options["size_column"]] + [
        options[c] for c in ("flow_column", "class_column") if options[c] is not None]
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
        params = {options[p]: p for p in ("time_column", "size_column", "flow_column", "class_column")
                  if options[p] is not None}
        raise ValueError(f"path {path!r} has no column {missing[0]!r} ({params[missing[0]]}); its columns: "
                         f"{', '.join(map(str, table.columns))}")
    times = table[options["time_column"]]
    if pd.api.types.is_datetime64_any_dtype(times):  # datetimes: integer nanoseconds since the Unix epoch
        if times.isna().any():
            raise ValueError(f"path {path!r}: {options['time_column']} (time_column) has an empty time at row "
                             f"{int(np.flatnonzero(times.isna().to_numpy())[0])}")
        if times.dt.tz is not None:
            times = times.dt.tz_convert("UTC").dt.tz_localize(None)
        ticks, per_s = times.astype("datetime64[ns]").to_numpy().view(np.int64), TIME_UNITS["ns"]
    else:
        ticks = _numbers(path, options["time_column"], "time_column", times)
        per_s = TIME_UNITS[options["time_unit"]]
    size = _numbers(path, options["size_column"], "size_column", table[options["size_column"]])
    if size.dtype.kind == "f":
        if not np.all(size == np.round(size)):
            row = int(np.flatnonzero(size != np.round(size))[0])
            raise ValueError(f"path {path!r}: {options['size_column']} (size_column) must hold whole bytes, "
                             f"got {size[row].item()!r} at row {row}")
        size = size.astype(np.int64)
    if options["size_is"] == "frame":
        size = size - options["frame_header_bytes"]
    keys = table[options["flow_column"]].to_numpy() if options["flow_column"] else None
    classes = table[options["class_column"]].to_numpy() if options["class_column"] else None
    return ticks, per_s, size, keys, classes


def _numbers(path: str, column: str, param: str, values) -> np.ndarray:
    """A numeric column as int64 or float64, every value finite (else the row named)."""
    array = values.to_numpy()
    if array.dtype.kind not in "iuf":
        raise ValueError(f"path {path!r}: {column} ({param}) must hold numbers, got values of type {array.dtype} "
                         f"(e.g. {array[0]!r})")
    if array.dtype.kind == "f" and not np.all(np.isfinite(array)):
        row = int(np.flatnonzero(~np.isfinite(array))[0])
        raise ValueError(f"path {path!r}: {column} ({param}) must hold finite numbers, got {array[row].item()!r} at "
                         f"row {row}")
    return array.astype(np.float64 if array.dtype.kind == "f" else np.int64)


def _require_parquet() -> None:
    """Raise ImportError naming the ``parquet`` extra when pyarrow is missing."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise ImportError("reading a Parquet trace needs pyarrow: pip install 'pqlab[parquet]' (or pip install "
                          "pyarrow)") from None


# --------------------------------------------------------------------------- pcap


def _read_pcap(path: str, options: dict):
    """``(ticks, per_s, size, keys, classes)`` of a pcap or pcapng file: integer nanoseconds, IP
    lengths, 5-tuples as text (or None) and DSCPs (see :func:`read_trace`)."""
    import dpkt

    ticks, sizes, dscps, flow_of = [], [], [], []
    flows: dict = {}  # raw 5-tuple -> its index, in order of first packet
    skipped = 0
    by_tuple = options["flows"] == "5-tuple"
    with open(path, "rb") as f:
        try:
            reader = dpkt.pcap.UniversalReader(f)
        except (ValueError, dpkt.dpkt.UnpackError) as exc:
            raise ValueError(f"path {path!r} is not a pcap or pcapng file ({exc})") from None
        link = reader.datalink()
        if link not in LINK_HEADER_BYTES:
            raise ValueError(f"path {path!r}: link type {link} is not read (read: Ethernet 1, raw IP 101/228/229, "
                             f"Linux cooked 113); convert the capture, e.g. with editcap -T ether")
        reader._divisor = Decimal(reader._divisor)  # exact timestamps: dpkt's own choice for nanosecond pcaps
        header = LINK_HEADER_BYTES[link]
        try:
            for ts, buf in reader:
                fields = _ip_fields(buf, header)
                if fields is None:
                    skipped += 1
                    continue
                ticks.append(int(ts * 1_000_000_000))
                sizes.append(fields[0])
                dscps.append(fields[1])
                if by_tuple:
                    flow_of.append(flows.setdefault(fields[2], len(flows)))
        except (dpkt.dpkt.NeedData, dpkt.dpkt.UnpackError, ValueError) as exc:
            raise ValueError(f"path {path!r}: the capture is cut or damaged after {len(ticks) + skipped:,} packets "
                             f"({type(exc).__name__}: {exc})") from None
    if skipped:
        warnings.warn(f"path {path!r}: {skipped:,} of {skipped + len(ticks):,} packets are not IPv4/IPv6 (or too "
                      f"short to read) and were skipped", UserWarning, stacklevel=3)
    keys = None
    if by_tuple:
        keys = _key_array([_five_tuple_text(k) for k in flows])[np.array(flow_of, dtype=np.int64)]
    return np.array(ticks, dtype=np.int64), TIME_UNITS["ns"], np.array(sizes, dtype=np.int64), keys, \
        np.array(dscps, dtype=np.int64)


def _ip_fields(buf: bytes, header: int | None):
    """``(ip_length, dscp, raw 5-tuple)`` of one captured frame, or None if it holds no IP packet:
    the raw 5-tuple is ``(protocol, source and destination addresses, ports or b"")``, bytes."""
    if header is None:  # Ethernet: type after the addresses, past any VLAN tags
        pos = 12
        ether = int.from_bytes(buf[pos:pos + 2], "big")
        while ether in _ETHER_VLAN:
            pos += 4
            ether = int.from_bytes(buf[pos:pos + 2], "big")
        if ether not in _ETHER_IP:
            return None
        pos += 2
    elif header == 16:  # Linux cooked capture: the protocol in its last two bytes
        if int.from_bytes(buf[14:16], "big") not in _ETHER_IP:
            return None
        pos = 16
    else:
        pos = 0
    if len(buf) < pos + 20:
        return None
    version = buf[pos] >> 4
    if version == 4:
        length, dscp, proto = int.from_bytes(buf[pos + 2:pos + 4], "big"), buf[pos + 1] >> 2, buf[pos + 9]
        addresses, l4 = buf[pos + 12:pos + 20], pos + (buf[pos] & 15) * 4
        first_fragment = not (buf[pos + 6] & 0x1F or buf[pos + 7])
    elif version == 6 and len(buf) >= pos + 40:
        length = 40 + int.from_bytes(buf[pos + 4:pos + 6], "big")
        dscp, proto = ((buf[pos] & 15) << 2) | (buf[pos + 1] >> 6), buf[pos + 6]
        addresses, l4, first_fragment = buf[pos + 8:pos + 40], pos + 40, True
    else:
        return None
    ports = buf[l4:l4 + 4] if proto in _PORT_PROTOCOLS and first_fragment and len(buf) >= l4 + 4 else b""
    return length, dscp, (proto, addresses, ports)


def _five_tuple_text(raw: tuple) -> str:
    """A raw 5-tuple (:func:`_ip_fields`) as text: ``udp 10.0.0.1 > 10.0.0.9 5000>6000``."""
    import ipaddress

    proto, addresses, ports = raw
    half = len(addresses) // 2
    src, dst = (str(ipaddress.ip_address(bytes(a))) for a in (addresses[:half], addresses[half:]))
    text = f"{_PROTOCOL_NAMES.get(proto, proto)} {src} > {dst}"
    if ports:
        text += f" {int.from_bytes(ports[:2], 'big')}>{int.from_bytes(ports[2:], 'big')}"
    return text


def _key_array(keys: list) -> np.ndarray:
    out = np.empty(len(keys), dtype=object)
    out[:] = keys
    return out


# --------------------------------------------------------------------------- streams


def _streams(path, ticks, per_s, size, keys, classes, numbered, pcap, options, source) -> tuple:
    """The checked, rebased packets as one TraceStream per flow (see :func:`read_trace`)."""
    n = ticks.shape[0]
    if n == 0:
        raise ValueError(f"path {path!r} holds no packet")
    bad = np.flatnonzero((size < 1) | (size > MAX_SIZE_BYTES))
    if bad.size:
        what = "IP length" if options["size_is"] == "ip" else \
            f"IP length (frame length - frame_header_bytes = {options['frame_header_bytes']})"
        raise ValueError(f"path {path!r}: {options['size_column']} (size_column): every {what} must be in "
                         f"[1, {MAX_SIZE_BYTES}] bytes, got {int(size[bad[0]])} at row {int(bad[0])}")
    order = None
    late = np.flatnonzero(np.diff(ticks) < 0)
    if late.size:
        if not options["sort"]:
            i = int(late[0]) + 1
            raise ValueError(f"path {path!r}: the times are out of order (row {i}: {ticks[i].item() / per_s!r} s after "
                             f"{ticks[i - 1].item() / per_s!r} s); pass sort=True to sort the packets by time")
        order = np.argsort(ticks, kind="stable")
        ticks, size = ticks[order], size[order]
        keys = keys[order] if keys is not None else None
        classes = classes[order] if classes is not None else None
    arrival, origin = _rebased(path, ticks, per_s, options["origin_s"])
    queue = _queues(path, n, classes, pcap, options)
    if keys is None:
        keys = np.zeros(n, dtype=np.int64) if numbered else np.full(n, options["first_flow"], dtype=np.int64)
    if pcap and options["queues"] is not None:
        keys = _key_array([f"{k} queue {q}" for k, q in zip(keys.tolist(), queue.tolist())])  # pcap: split by queue
    streams = []
    for index, (key, mine) in enumerate(_groups(keys)):
        flow = options["first_flow"] + index if numbered else int(key)
        queues_of_flow = np.unique(queue[mine])
        if queues_of_flow.size > 1:
            raise ValueError(f"path {path!r}: flow {_plain(key)!r} has packets of classes in queues "
                             f"{queues_of_flow.tolist()}: a stream goes to one queue; give each class its own flow")
        streams.append(TraceStream(arrival[mine], size[mine], int(queues_of_flow[0]), flow, time_origin_s=origin,
                                   source={**source, "key": _plain(key)}))
    return tuple(sorted(streams, key=lambda s: s.flow))


def _rebased(path, ticks, per_s, origin) -> tuple[np.ndarray, float]:
    """Arrivals in seconds after ``origin`` (``"first"``: the first packet) and the origin, s: tick
    differences (exact for integer ticks) divided by the ticks per second ``per_s``."""
    first = ticks[0].item()
    origin_ticks = first if origin == "first" else origin * per_s
    if ticks.dtype.kind == "i" and origin != "first":
        origin_ticks = round(origin_ticks)
    if origin_ticks > first:
        raise ValueError(f"origin_s must be at or before the trace's first packet ({first / per_s!r} s) in "
                         f"{path!r}, got {origin!r}")
    arrival = (ticks - origin_ticks) / per_s
    return arrival.astype(np.float64), float(first / per_s if origin == "first" else origin)


def _queues(path, n, classes, pcap, options) -> np.ndarray:
    """Each of the ``n`` packets' queue index: ``queue``, or its class looked up in ``queues`` (a
    table's class not in it must itself be a queue index; a pcap DSCP not in it goes to ``queue``)."""
    n_default = options["queue"]
    if classes is None:
        return np.full(n, n_default, dtype=np.int64)
    mapping = options["queues"]
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
            raise ValueError(f"path {path!r}: class {key!r} of {options['class_column']} (class_column) has no "
                             f"queue: give queues={{{key!r}: <queue index>, ...}} (or make the classes queue "
                             f"indices)")
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
    return sorted(((ordered[i], rows) for i, rows in zip(starts, groups)), key=lambda group: group[1][0])


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
        raise ValueError(f"origin_s must be at or before the trace's first packet ({stream.arrival_s[0]!r} s), "
                         f"got {origin_s!r}")
    return TraceStream(stream.arrival_s - origin_s, stream.size_bytes, stream.queue, stream.flow, stream.marker,
                       time_origin_s=stream.time_origin_s + origin_s, source=None)


def from_digest(data: dict, marker=None) -> TraceStream:
    """A trace written by its digest (``packets``, ``sha256``: :meth:`TraceStream.to_dict`) read back
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
        raise ValueError(f"{what} is recorded by its digest only and was built in memory: it cannot be read back; "
                         f"record the scenario with Scenario.to_json(full_traces=True) or rebuild the trace")
    options = source.get("options")
    if not isinstance(options, dict):
        raise ValueError(f"{what}: source.options must be the reader's options, got {options!r}")
    path = source["path"]
    if not os.path.isfile(path):
        raise ValueError(f"{what} is read back from {path!r}, which is not a file (moved or deleted?)")
    queues = options.get("queues")
    try:
        queues = None if queues is None else {k: v for k, v in queues}  # written as pairs (see read_trace)
        streams = read_trace(path, **{**options, "format": source.get("format"), "queues": queues})
    except TypeError as exc:
        raise ValueError(f"{what}: source.options are not read_trace's: {exc}") from None
    flow = data.get("flow")
    match = [s for s in streams if s.flow == flow]
    if not match or match[0].sha256 != sha:
        raise ValueError(f"{what}: {path!r} no longer holds it (flow {flow!r} "
                         f"{'missing' if not match else 'has sha256 ' + match[0].sha256[:12] + '...'}): the file "
                         f"changed since the run")
    got = match[0]
    return TraceStream(got.arrival_s, got.size_bytes, check_int("queue", data.get("queue"), 0), got.flow, marker,
                       time_origin_s=got.time_origin_s, source=got.source)


def origins_json(streams) -> str:
    """JSON ``{"<flow>": time_origin_s}`` of the trace streams among ``streams`` (canonical)."""
    return json.dumps({str(s.flow): s.time_origin_s for s in streams if isinstance(s, TraceStream)})
