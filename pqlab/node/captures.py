"""Packet captures: the frames of a pcap or pcapng file and their IP fields, as arrays.

:func:`read_frames` returns every captured frame of a file as one byte array with each frame's
offset, captured length and timestamp (integer nanoseconds, exact); :func:`ip_fields` reads, for
all frames at once, what :mod:`pqlab.node.traces` needs: IP length (total length; IPv6: payload
+ 40, so a capture cut to a short snap length still gives whole sizes), DSCP and the raw 5-tuple.

A classic pcap (libpcap's savefile: a 24-byte header, then a 16-byte header per record, in either
byte order, microsecond or nanosecond timestamps: a format fixed since libpcap 0.4) is walked by a
jitted loop, 1 to 2 million records per second. pcapng (blocks with options, interfaces of their
own resolutions) is read with dpkt, a dependency: pure Python with no dependency of its own, no
libpcap or tshark to install, BSD-licensed, stable for years (1.9.8) and packaged by Debian
(scapy also reads both formats but is GPL-2.0 and dissects every layer of every packet; pyshark
needs tshark installed; python-pcapng reads pcapng only), about 45,000 blocks per second. dpkt reads a
pcapng file's packets with its first interface's link type and time resolution (a capture of one
interface, as tcpdump and dumpcap write by default), and its timestamps are read here as exact
decimals (its float would round Unix times to 2.4e-7 s).

Link types read: Ethernet (VLAN tags skipped), raw IP and Linux cooked captures
(:data:`LINK_HEADER_BYTES`).
"""

from __future__ import annotations

from decimal import Decimal

import numpy as np

from ..base.jitcache import cached_njit

#: Link types read (libpcap's LINKTYPE values) -> bytes before the IP header (-1: Ethernet, whose
#: header is 14 bytes plus 4 per VLAN tag; 16: Linux cooked, the protocol in its last 2 bytes).
LINK_HEADER_BYTES = {1: -1, 101: 0, 12: 0, 14: 0, 228: 0, 229: 0, 113: 16}
#: Magic numbers of a classic pcap -> ticks per second of its timestamps' fraction.
PCAP_MAGIC = {0xA1B2C3D4: 1_000_000, 0xA1B23C4D: 1_000_000_000}
#: Bytes of a raw 5-tuple (:func:`ip_fields`): protocol, 32 of addresses, 4 of ports, IP version, has ports.
KEY_BYTES = 39
# The frames' fields read by _ip_fields: Ethernet types 0x8100, 0x88A8, 0x9100 (VLAN tags) and
# 0x0800, 0x86DD (IPv4, IPv6); ports of TCP (6), UDP (17) and SCTP (132).


class CaptureError(ValueError):
    """A file that is not a capture, or is cut or damaged (the message says which and where)."""


def read_frames(path: str):
    """The frames of a pcap or pcapng file.

    Returns
    -------
    data : numpy.ndarray of uint8
        The captured bytes of every frame, one after the other (a view of the file for a pcap).
    offset, captured : numpy.ndarray of int64
        Each frame's first byte in ``data`` and its captured length, bytes.
    ticks : numpy.ndarray of int64
        Each frame's timestamp, integer nanoseconds since the Unix epoch.
    link : int
        The link type.

    Raises
    ------
    CaptureError
        Not a pcap or pcapng file, a link type not read, a record cut short (naming how many
        frames were read before it).
    """
    with open(path, "rb") as f:
        head = f.read(4)
    magic = int.from_bytes(head, "little") if len(head) == 4 else 0
    for order in ("little", "big"):
        if len(head) == 4 and int.from_bytes(head, order) in PCAP_MAGIC:
            return _pcap_frames(path, order)
    if magic == 0x0A0D0D0A:
        return _pcapng_frames(path)
    raise CaptureError("is not a pcap or pcapng file (its first bytes are no capture's magic number)")


def _check_link(link: int) -> int:
    if link not in LINK_HEADER_BYTES:
        raise CaptureError(f"link type {link} is not read (read: Ethernet 1, raw IP 101/228/229, Linux cooked "
                           f"113); convert the capture, e.g. with editcap -T ether")
    return link


def _pcap_frames(path: str, order: str):
    data = np.fromfile(path, dtype=np.uint8)
    if data.shape[0] < 24:
        raise CaptureError("is not a pcap or pcapng file (its header is cut)")
    per_s = PCAP_MAGIC[int.from_bytes(data[:4].tobytes(), order)]
    link = _check_link(int.from_bytes(data[20:24].tobytes(), order) & 0x0FFFFFFF)  # the top bits: FCS length
    n_max = (data.shape[0] - 24) // 16 + 1
    offset, captured, ticks = (np.empty(n_max, dtype=np.int64) for _ in range(3))
    n, cut = _walk_pcap(data, order == "big", 1_000_000_000 // per_s, offset, captured, ticks)
    if cut:
        raise CaptureError(f"the capture is cut or damaged after {n:,} packets (a record header cut short)")
    return data, offset[:n], captured[:n], ticks[:n], link


@cached_njit(nogil=True)
def _u32(data, at, big):
    if big:
        return (np.int64(data[at]) << 24) | (np.int64(data[at + 1]) << 16) | (np.int64(data[at + 2]) << 8) | \
            np.int64(data[at + 3])
    return (np.int64(data[at + 3]) << 24) | (np.int64(data[at + 2]) << 16) | (np.int64(data[at + 1]) << 8) | \
        np.int64(data[at])


@cached_njit(nogil=True)
def _walk_pcap(data, big, ns_per_tick, out_offset, out_captured, out_ticks):
    """The records of a classic pcap after its 24-byte header: each one's data offset, captured
    length (cut to the file's end) and timestamp in ns. Returns ``(count, cut)``, ``cut`` True
    when the file ends inside a record header."""
    n = 0
    pos = 24
    end = data.shape[0]
    while pos < end:
        if pos + 16 > end:
            return n, True
        sec = _u32(data, pos, big)
        frac = _u32(data, pos + 4, big)
        caplen = _u32(data, pos + 8, big)
        out_offset[n] = pos + 16
        out_captured[n] = min(caplen, end - pos - 16)
        out_ticks[n] = sec * 1_000_000_000 + frac * ns_per_tick
        n += 1
        pos += 16 + caplen
    return n, False


def _pcapng_frames(path: str):
    import dpkt

    with open(path, "rb") as f:
        try:
            reader = dpkt.pcapng.Reader(f)
        except (ValueError, dpkt.dpkt.UnpackError) as exc:
            raise CaptureError(f"is not a pcap or pcapng file ({exc})") from None
        link = _check_link(reader.datalink())
        reader._divisor = Decimal(reader._divisor)  # exact timestamps: dpkt's own choice for nanosecond pcaps
        ticks, frames = [], []
        try:
            for ts, buf in reader:
                ticks.append(int(ts * 1_000_000_000))
                frames.append(buf)
        except (dpkt.dpkt.NeedData, dpkt.dpkt.UnpackError, ValueError) as exc:
            raise CaptureError(f"the capture is cut or damaged after {len(ticks):,} packets "
                               f"({type(exc).__name__}: {exc})") from None
    captured = np.fromiter((len(b) for b in frames), dtype=np.int64, count=len(frames))
    offset = np.concatenate(([0], np.cumsum(captured)[:-1])).astype(np.int64) if len(frames) else captured
    return (np.frombuffer(b"".join(frames), dtype=np.uint8), offset, captured, np.array(ticks, dtype=np.int64),
            link)


def ip_fields(data: np.ndarray, offset: np.ndarray, captured: np.ndarray, link: int):
    """The IP fields of every frame (see the module docstring).

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
    n = offset.shape[0]
    is_ip, length, dscp = np.zeros(n, dtype=np.bool_), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    key = np.zeros((n, KEY_BYTES), dtype=np.uint8)
    _ip_fields(data, offset, captured, LINK_HEADER_BYTES[link], is_ip, length, dscp, key)
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
