"""Packet captures: the frames of a pcap or pcapng file and their IP fields, as arrays.

:func:`read_frames` returns every captured frame of a file as one byte array with each frame's
offset, captured length and timestamp (integer nanoseconds, exact); :func:`ip_fields` reads, for
all frames at once, what :mod:`pqlab.node.traces` needs: IP length (total length; IPv6: payload
+ 40, so a capture cut to a short snap length still gives whole sizes), DSCP and the raw 5-tuple.

A classic pcap (libpcap's savefile: a 24-byte header, then a 16-byte header per record, in either
byte order, microsecond or nanosecond timestamps: a format fixed since libpcap 0.4) is walked by a
jitted loop, 1 to 2 million records per second; a record claiming more than a snap length is
damage (an error naming its byte offset), a last record cut short is read as far as it goes and
said so (:attr:`Frames.cut`). pcapng (draft-ietf-opsawg-pcapng: sections of either byte order,
interfaces each with its own link type, time resolution ``if_tsresol`` and offset
``if_tsoffset``) is walked block by block with :mod:`struct`; timestamps are integers throughout
(exact), a packet naming an interface its section lacks or a timestamp beyond int64 nanoseconds
is refused naming the block's byte offset.

Link types read: Ethernet (VLAN tags skipped), raw IP and Linux cooked captures
(:data:`LINK_HEADER_BYTES`).
"""

from __future__ import annotations

import struct
from typing import NamedTuple

import numpy as np

from ..base._validate import check_array, echo
from ..base.jitcache import cached_njit

#: Link types read (libpcap's LINKTYPE values) -> bytes before the IP header (-1: Ethernet, whose
#: header is 14 bytes plus 4 per VLAN tag; 16: Linux cooked, the protocol in its last 2 bytes).
LINK_HEADER_BYTES = {1: -1, 101: 0, 12: 0, 14: 0, 228: 0, 229: 0, 113: 16}
#: Magic numbers of a classic pcap -> ticks per second of its timestamps' fraction.
PCAP_MAGIC = {0xA1B2C3D4: 1_000_000, 0xA1B23C4D: 1_000_000_000}
#: Bytes of a raw 5-tuple (:func:`ip_fields`): protocol, 32 of addresses, 4 of ports, IP version,
#: has ports.
KEY_BYTES = 39
#: Largest record of a classic pcap, bytes: libpcap's MAXIMUM_SNAPLEN, which its reader applies
#: whatever snap length a file declares (writers such as dpkt's declare 1500 and write 1514-byte
#: Ethernet frames whole). A record claiming more is damage, not a packet.
MAX_SNAPLEN_BYTES = 262_144
# How a walk through a classic pcap's records ended (_walk_pcap).
WHOLE, HEADER_CUT, TOO_LONG, DATA_CUT = range(4)
# The frames' fields read by _ip_fields: Ethernet types 0x8100, 0x88A8, 0x9100 (VLAN tags) and
# 0x0800, 0x86DD (IPv4, IPv6); ports of TCP (6), UDP (17) and SCTP (132).


class CaptureError(ValueError):
    """A file that is not a capture, or is cut or damaged (the message says which and where)."""


class Frames(NamedTuple):
    """The frames of a capture (:func:`read_frames`)."""

    data: np.ndarray
    offset: np.ndarray
    captured: np.ndarray
    ticks: np.ndarray
    link: int
    cut: str | None


def read_frames(path: str):
    """The frames of a pcap or pcapng file.

    Returns
    -------
    Frames
        A named tuple of the fields below.
    data : numpy.ndarray of uint8
        The captured bytes of every frame, one after the other (a view of the file for a pcap).
    offset, captured : numpy.ndarray of int64
        Each frame's first byte in ``data`` and its captured length, bytes.
    ticks : numpy.ndarray of int64
        Each frame's timestamp, integer nanoseconds since the Unix epoch.
    link : int or numpy.ndarray of int64
        The link type, or each frame's if they differ (pcapng interfaces of several types).
    cut : str or None
        What was read of a file whose last record is cut short (its packet read as far as it
        goes), for a warning; None if the file is whole.

    Raises
    ------
    CaptureError
        Not a pcap or pcapng file, a link type not read, a record header cut short, a record
        claiming more bytes than a snap length (:data:`MAX_SNAPLEN_BYTES`): naming its byte offset
        and how many frames were read before it.
    """
    with open(path, "rb") as f:
        head = f.read(4)
    magic = int.from_bytes(head, "little") if len(head) == 4 else 0
    for order in ("little", "big"):
        if len(head) == 4 and int.from_bytes(head, order) in PCAP_MAGIC:
            return _pcap_frames(path, order)
    if magic == 0x0A0D0D0A:
        return _pcapng_frames(path)
    raise CaptureError(
        "is not a pcap or pcapng file (its first bytes are no capture's magic number)"
    )


def _check_link(link: int) -> int:
    if link not in LINK_HEADER_BYTES:
        raise CaptureError(
            f"link type {link} is not read (read: Ethernet 1, raw IP 101/228/229, Linux cooked "
            "113); convert the capture, e.g. with editcap -T ether"
        )
    return link


def _pcap_frames(path: str, order: str):
    data = np.fromfile(path, dtype=np.uint8)
    if data.shape[0] < 24:
        raise CaptureError("is not a pcap or pcapng file (its header is cut)")
    per_s = PCAP_MAGIC[int.from_bytes(data[:4].tobytes(), order)]
    link = _check_link(
        int.from_bytes(data[20:24].tobytes(), order) & 0x0FFFFFFF
    )  # the top bits: FCS length
    snaplen = int.from_bytes(data[16:20].tobytes(), order)
    max_caplen = max(snaplen, MAX_SNAPLEN_BYTES)
    n_max = (data.shape[0] - 24) // 16 + 1
    offset, captured, ticks = (np.empty(n_max, dtype=np.int64) for _ in range(3))
    n, status, at = _walk_pcap(
        data, order == "big", 1_000_000_000 // per_s, max_caplen, offset, captured, ticks
    )
    if status == HEADER_CUT:
        raise CaptureError(
            f"the capture is cut or damaged after {n:,} packets (a record header "
            f"cut short at byte {at:,})"
        )
    if status == TOO_LONG:
        claimed = int.from_bytes(data[at + 8 : at + 12].tobytes(), order)
        raise CaptureError(
            f"the capture is damaged: record {n + 1:,} (at byte {at:,}) claims "
            f"{claimed:,} captured bytes, more than the snap length "
            f"({max_caplen:,}); {n:,} packets before it"
        )
    cut = None
    if status == DATA_CUT:
        claimed = int.from_bytes(data[at + 8 : at + 12].tobytes(), order)
        cut = (
            f"the last record (at byte {at:,}) is cut: {int(captured[n - 1]):,} of {claimed:,} "
            f"bytes; read {n:,} packets"
        )
    return Frames(data, offset[:n], captured[:n], ticks[:n], link, cut)


@cached_njit(nogil=True)
def _u32(data, at, big):
    if big:
        return (
            (np.int64(data[at]) << 24)
            | (np.int64(data[at + 1]) << 16)
            | (np.int64(data[at + 2]) << 8)
            | np.int64(data[at + 3])
        )
    return (
        (np.int64(data[at + 3]) << 24)
        | (np.int64(data[at + 2]) << 16)
        | (np.int64(data[at + 1]) << 8)
        | np.int64(data[at])
    )


@cached_njit(nogil=True)
def _walk_pcap(data, big, ns_per_tick, max_caplen, out_offset, out_captured, out_ticks):
    """The records of a classic pcap after its 24-byte header: each one's data offset, captured
    length (cut to the file's end) and timestamp in ns. Returns ``(count, status, at)``: status
    :data:`WHOLE`; :data:`HEADER_CUT` (the file ends inside the record header at byte ``at``);
    :data:`TOO_LONG` (the record at byte ``at`` claims more than ``max_caplen`` bytes: not read);
    :data:`DATA_CUT` (the last record, at byte ``at``, runs past the file's end: read cut)."""
    n = 0
    pos = 24
    end = data.shape[0]
    while pos < end:
        if pos + 16 > end:
            return n, HEADER_CUT, pos
        sec = _u32(data, pos, big)
        frac = _u32(data, pos + 4, big)
        caplen = _u32(data, pos + 8, big)
        if caplen > max_caplen:
            return n, TOO_LONG, pos
        out_offset[n] = pos + 16
        out_captured[n] = min(caplen, end - pos - 16)
        out_ticks[n] = sec * 1_000_000_000 + frac * ns_per_tick
        n += 1
        if pos + 16 + caplen > end:
            return n, DATA_CUT, pos
        pos += 16 + caplen
    return n, WHOLE, 0


def _pcapng_frames(path: str):
    """The packets of a pcapng file, each with its interface's link type, time resolution and
    offset (draft-ietf-opsawg-pcapng: sections, interface description blocks, enhanced, simple
    and obsolete packet blocks; other blocks skipped)."""
    data = np.fromfile(path, dtype=np.uint8)
    raw = data.data  # struct reads the file's bytes in place
    offsets, captured, ticks, links = [], [], [], []
    interfaces: list = []  # the section's: [link, snap length, numerator, denominator, offset_s]
    order, pos, end = "<", 0, data.shape[0]

    def damaged(why: str):
        return CaptureError(f"the capture is cut or damaged after {len(ticks):,} packets ({why})")

    while pos < end:
        if pos + 12 > end:
            raise damaged(f"a block header cut short at byte {pos:,}")
        kind = struct.unpack_from(order + "I", raw, pos)[0]
        if kind == 0x0A0D0D0A:  # a section header: its byte order, no interface yet
            magic = struct.unpack_from("<I", raw, pos + 8)[0]
            if magic not in (0x1A2B3C4D, 0x4D3C2B1A):
                raise damaged(f"a section header at byte {pos:,} without the byte-order magic")
            order, interfaces = ("<" if magic == 0x1A2B3C4D else ">"), []
        length = struct.unpack_from(order + "I", raw, pos + 4)[0]
        if length < 12 or length % 4 or pos + length > end:
            raise damaged(
                f"a block at byte {pos:,} claims {length:,} bytes, {end - pos:,} left in the file"
            )
        body, body_end = pos + 8, pos + length - 4
        if kind == 1:  # an interface: link type, snap length, options
            link, _, snaplen = struct.unpack_from(order + "HHI", raw, body)
            interfaces.append([link, snaplen, *_interface_clock(raw, order, body + 8, body_end)])
        elif kind in (6, 2, 3):  # enhanced, obsolete, simple packet block
            if kind == 3:
                raise damaged(f"a simple packet block at byte {pos:,} carries no timestamp")
            if kind == 6:
                iface, high, low, caplen = struct.unpack_from(order + "IIII", raw, body)
            else:
                iface, _, high, low, caplen = struct.unpack_from(order + "HHIII", raw, body)
            start = body + 20  # both headers: 20 bytes before the packet's data
            if iface >= len(interfaces):
                plural = "s" if len(interfaces) != 1 else ""
                raise damaged(
                    f"the packet block at byte {pos:,} names interface {iface}, and the "
                    f"section has {len(interfaces)} interface{plural}"
                )
            if start + caplen > body_end:
                raise damaged(
                    f"the packet block at byte {pos:,} claims {caplen:,} captured bytes, "
                    f"{max(body_end - start, 0):,} in the block"
                )
            link, _, num, den, offset_s = interfaces[iface]
            ns = ((high << 32) | low) * num // den + offset_s * 1_000_000_000
            if not -(2**63) <= ns < 2**63:
                raise damaged(
                    f"the packet block at byte {pos:,} has a timestamp of {ns / 1e9:.4g} "
                    "s, out of range"
                )
            offsets.append(start)
            captured.append(caplen)
            ticks.append(ns)
            links.append(_check_link(link))
        pos += length
    links = np.array(links, dtype=np.int64)
    link = int(links[0]) if links.size and np.all(links == links[0]) else links
    return Frames(
        data,
        np.array(offsets, dtype=np.int64),
        np.array(captured, dtype=np.int64),
        np.array(ticks, dtype=np.int64),
        link,
        None,
    )


def _interface_clock(raw, order: str, pos: int, end: int) -> tuple:
    """``(numerator, denominator, offset_s)`` of an interface's timestamps from its options:
    ns = units * numerator // denominator + offset_s * 1e9 (if_tsresol: 10**-v, or 2**-v with
    the top bit set; default microseconds; if_tsoffset: seconds)."""
    num, den, offset_s = 1_000, 1, 0
    while pos + 4 <= end:
        code, size = struct.unpack_from(order + "HH", raw, pos)
        if code == 0:
            break
        if code == 9 and size >= 1:
            v = raw[pos + 4]
            num, den = (10**9, 2 ** (v & 0x7F)) if v & 0x80 else (10**9, 10**v)
        elif code == 14 and size >= 8:
            offset_s = struct.unpack_from(order + "q", raw, pos + 4)[0]
        pos += 4 + size + (-size % 4)
    return num, den, offset_s


def ip_fields(data: np.ndarray, offset: np.ndarray, captured: np.ndarray, link):
    """The IP fields of every frame (see the module docstring); ``link``: the link type, or each
    frame's (:func:`read_frames`). Raises ``ValueError`` if a frame is not within ``data`` or a
    link type is not read.

    Returns
    -------
    is_ip : numpy.ndarray of bool
        The frame holds an IPv4 or IPv6 header, captured whole.
    length, dscp : numpy.ndarray of int64
        IP length (bytes) and DSCP (0 where not ``is_ip``).
    key : numpy.ndarray of uint8, shape (n, KEY_BYTES)
        The raw 5-tuple: protocol, addresses (IPv4: 8 bytes then zeros), ports (zeros without), IP
        version, 1 if it has ports.
    """
    if not (type(data) is np.ndarray and data.dtype == np.uint8 and data.ndim == 1):
        raise ValueError(f"data must be a 1-D uint8 array (the capture's bytes), got {echo(data)}")
    offset = check_array("offset", offset, kind="int", minimum=0)
    captured = check_array("captured", captured, kind="int", minimum=0, length=offset.shape[0])
    past = np.flatnonzero(offset > data.shape[0] - captured)  # offset + captured, without overflow
    if past.size:
        i = int(past[0])
        raise ValueError(
            f"offset and captured must keep each frame in data ({data.shape[0]:,} "
            f"bytes), got frame {i} at offset {offset[i]:,} with {captured[i]:,} "
            "bytes captured"
        )
    if np.ndim(link) != 0:
        link = check_array("link", link, kind="int", length=offset.shape[0])
    for one in np.unique(link):
        _check_link(int(one))
    n = offset.shape[0]
    is_ip, length, dscp = (
        np.zeros(n, dtype=np.bool_),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
    )
    key = np.zeros((n, KEY_BYTES), dtype=np.uint8)
    if np.ndim(link) == 0:
        _ip_fields(data, offset, captured, LINK_HEADER_BYTES[int(link)], is_ip, length, dscp, key)
        return is_ip, length, dscp, key
    for one in np.unique(link):  # frames of several link types (pcapng interfaces): each apart
        at = np.flatnonzero(link == one)
        fields = ip_fields(data, offset[at], captured[at], int(one))
        for out, part in zip((is_ip, length, dscp, key), fields):
            out[at] = part
    return is_ip, length, dscp, key


@cached_njit(nogil=True)
def _ip_fields(data, offset, captured, header, out_ip, out_length, out_dscp, out_key):
    """:func:`ip_fields`, frame by frame."""
    for i in range(offset.shape[0]):
        start = offset[i]
        end = start + captured[i]
        if header == -1:  # Ethernet: the type after the addresses, past up to 3 VLAN tags
            pos = start + 12
            kind = -1
            for _ in range(4):
                if pos + 2 > end:
                    kind = -1
                    break
                kind = (np.int64(data[pos]) << 8) | np.int64(data[pos + 1])
                if kind != 0x8100 and kind != 0x88A8 and kind != 0x9100:
                    break
                pos += 4
            if kind != 0x0800 and kind != 0x86DD:
                continue
            ip = pos + 2
        elif header == 16:  # Linux cooked: the protocol in its last two bytes
            if start + 16 > end:
                continue
            kind = (np.int64(data[start + 14]) << 8) | np.int64(data[start + 15])
            if kind != 0x0800 and kind != 0x86DD:
                continue
            ip = start + 16
        else:
            ip = start
        if ip + 20 > end:
            continue
        version = data[ip] >> 4
        if version == 4:
            out_length[i] = (np.int64(data[ip + 2]) << 8) | np.int64(data[ip + 3])
            out_dscp[i] = data[ip + 1] >> 2
            proto = data[ip + 9]
            for j in range(8):
                out_key[i, 1 + j] = data[ip + 12 + j]
            l4 = ip + (data[ip] & 15) * 4
            first_fragment = (data[ip + 6] & 0x1F) == 0 and data[ip + 7] == 0
        elif version == 6 and ip + 40 <= end:
            out_length[i] = 40 + ((np.int64(data[ip + 4]) << 8) | np.int64(data[ip + 5]))
            out_dscp[i] = ((data[ip] & 15) << 2) | (data[ip + 1] >> 6)
            proto = data[ip + 6]
            for j in range(32):
                out_key[i, 1 + j] = data[ip + 8 + j]
            l4 = ip + 40
            first_fragment = True
        else:
            continue
        out_ip[i] = True
        out_key[i, 0] = proto
        out_key[i, 37] = version
        if (proto == 6 or proto == 17 or proto == 132) and first_fragment and l4 + 4 <= end:
            out_key[i, 38] = 1
            for j in range(4):
                out_key[i, 33 + j] = data[l4 + j]
