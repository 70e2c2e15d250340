"""Captures are read exactly or refused: damaged records, cut files, pcapng interfaces.

Each capture is written here byte by byte (struct): classic pcap (libpcap's savefile format)
and pcapng (IETF draft-ietf-opsawg-pcapng: section header, interface description and enhanced
packet blocks).
"""

from __future__ import annotations

import struct
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from pqlab.node.captures import read_frames
from pqlab.node.traces import read_trace


def ipv4(size_bytes=40, dscp=0, src=1, dst=2):
    """An IPv4 header with UDP ports, padded to ``size_bytes``."""
    head = struct.pack(
        "!BBHHHBBH4s4s",
        0x45,
        dscp << 2,
        size_bytes,
        0,
        0,
        64,
        17,
        0,
        bytes([10, 0, 0, src]),
        bytes([10, 0, 0, dst]),
    )
    return head + struct.pack("!HHHH", 5000, 6000, size_bytes - 20, 0) + bytes(size_bytes - 28)


def pcap(packets, *, snaplen=65535, link=101, caplen=None):
    """A classic pcap (microseconds, little-endian) of ``(seconds, usec, bytes)``; ``caplen``:
    ``{record index: claimed caplen}``."""
    out = [struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, snaplen, link)]
    for i, (sec, usec, frame) in enumerate(packets):
        claimed = (caplen or {}).get(i, len(frame))
        out.append(struct.pack("<IIII", sec, usec, claimed, len(frame)) + frame)
    return b"".join(out)


def twenty(**kw):
    return pcap([(1, i, ipv4()) for i in range(20)], **kw)


def record_offset(i, frame_bytes=40):
    return 24 + i * (16 + frame_bytes)


@pytest.mark.parametrize("claimed", [2**31, 0xFFFFFFFF, 300_000])
def test_a_record_claiming_more_than_a_snap_length_is_an_error_naming_its_offset(tmp_path, claimed):
    path = tmp_path / "damaged.pcap"
    path.write_bytes(twenty(caplen={3: claimed}))
    with pytest.raises(ValueError) as exc:
        read_trace(path)
    text = str(exc.value)
    assert "\n" not in text and f"byte {record_offset(3):,}" in text and "record 4" in text, text
    assert f"{claimed:,}" in text, text


def test_a_record_running_past_the_end_is_an_error_unless_it_is_cut_short(tmp_path):
    data = twenty(snaplen=100)
    path = tmp_path / "cut.pcap"
    path.write_bytes(data[: record_offset(19) + 16 + 30])  # the last packet cut after 30 bytes
    said = r"cut\.pcap': the last record .*byte 1,088.* cut: 30 of 40 bytes; read 20 packets"
    with pytest.warns(UserWarning, match=said):
        (stream,) = read_trace(path)
    assert stream.arrival_s.shape[0] == 20  # its IP header is whole: its size is read


def test_a_whole_capture_reads_without_warning(tmp_path):
    path = tmp_path / "whole.pcap"
    path.write_bytes(twenty())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (stream,) = read_trace(path)
    assert stream.arrival_s.shape[0] == 20 and set(stream.size_bytes.tolist()) == {40}


def test_a_frame_longer_than_the_declared_snap_length_is_read_as_libpcap_does(tmp_path):
    # dpkt's writer declares a snap length of 1500 and writes 1514-byte Ethernet frames whole;
    # libpcap reads records up to 262,144 bytes whatever the header says.
    path = tmp_path / "long.pcap"
    path.write_bytes(pcap([(1, i, ipv4(1500)) for i in range(3)], snaplen=1400))
    (stream,) = read_trace(path)
    assert stream.size_bytes.tolist() == [1500] * 3


# ----------------------------------------------------------------------------- pcapng


def block(kind, body):
    body += bytes(-len(body) % 4)
    return struct.pack("<II", kind, len(body) + 12) + body + struct.pack("<I", len(body) + 12)


def option(code, value):
    return struct.pack("<HH", code, len(value)) + value + bytes(-len(value) % 4)


def pcapng(interfaces, packets):
    """``interfaces``: ``(link, tsresol byte or None, tsoffset s or None)``; ``packets``:
    ``(interface, timestamp units, bytes)``."""
    out = [block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))]
    for link, resol, offset in interfaces:
        opts = b""
        if resol is not None:
            opts += option(9, bytes([resol]))
        if offset is not None:
            opts += option(14, struct.pack("<q", offset))
        opts += option(0, b"") if opts else b""
        out.append(block(1, struct.pack("<HHI", link, 0, 0) + opts))
    for iface, units, frame in packets:
        head = struct.pack("<IIIII", iface, units >> 32, units & 0xFFFFFFFF, len(frame), len(frame))
        out.append(block(6, head + frame))
    return b"".join(out)


def test_pcapng_honours_each_interfaces_resolution_offset_and_link_type(tmp_path):
    ether = bytes(12) + b"\x08\x00"
    path = tmp_path / "two.pcapng"
    path.write_bytes(
        pcapng(
            [(101, None, None), (1, 3, 100), (101, 0x80 | 10, None)],  # us; ms + 100 s; 2**-10 s
            [(0, 1_500_000, ipv4(40)), (1, 1_600, ether + ipv4(60)), (2, 1024 * 103, ipv4(80))],
        )
    )
    frames = read_frames(str(path))
    assert frames.ticks.tolist() == [1_500_000_000, 101_600_000_000, 103_000_000_000]
    assert frames.link.tolist() == [101, 1, 101] and frames.cut is None
    streams = read_trace(path, flows="none")
    assert [s.size_bytes.tolist() for s in streams] == [[40, 60, 80]]


def test_pcapng_refuses_a_packet_of_an_interface_that_does_not_exist(tmp_path):
    path = tmp_path / "ghost.pcapng"
    path.write_bytes(pcapng([(101, None, None)], [(0, 1, ipv4()), (3, 2, ipv4())]))
    with pytest.raises(ValueError, match=r"ghost\.pcapng': .*interface 3.*1 interface"):
        read_trace(path)


def test_pcapng_timestamp_out_of_range_is_a_one_line_error(tmp_path):
    path = tmp_path / "far.pcapng"
    path.write_bytes(pcapng([(101, None, None)], [(0, 0xFFFFFFFF << 32, ipv4())]))
    with pytest.raises(ValueError) as exc:
        read_trace(path)
    assert "\n" not in str(exc.value) and "timestamp" in str(exc.value), str(exc.value)


# ----------------------------------------------------------------------------- fuzzing

FUZZ = """
import struct, sys, warnings
import numpy as np
sys.path.insert(0, sys.argv[1])
from test_refuse_captures import ipv4, pcap, pcapng
from pqlab.node.traces import read_trace

rng = np.random.default_rng(int(sys.argv[2]))
folder = sys.argv[3]
frames = [ipv4(40 + 4 * i, src=i % 3) for i in range(20)]
whole = {"pcap": pcap([(1, i, f) for i, f in enumerate(frames)]),
         "pcapng": pcapng([(101, None, None), (101, 3, 7)],
                          [(i % 2, i, f) for i, f in enumerate(frames)])}
bounds = {"pcap": set(np.cumsum([24] + [16 + len(f) for f in frames]).tolist())}
silent = bad = 0
for case in range(int(sys.argv[4])):
    kind = ("pcap", "pcapng")[case % 2]
    data = bytearray(whole[kind])
    if case % 4 < 2:  # cut
        cut = int(rng.integers(25, len(data)))
        data = data[:cut]
    else:  # a few bytes flipped
        cut = None
        for at in rng.integers(0, len(data), int(rng.integers(1, 4))):
            data[at] ^= int(rng.integers(1, 256))
    path = f"{folder}/{case}.{kind}"
    open(path, "wb").write(bytes(data))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            streams = read_trace(path, flows="none")
        except ValueError as exc:
            if "\\n" in str(exc) or len(str(exc)) > 400:
                print("BAD MESSAGE", repr(str(exc)[:500])); bad += 1
            continue
    if cut is not None and kind == "pcap" and cut not in bounds["pcap"] and not caught:
        print("SILENT PARTIAL READ of a pcap cut at byte", cut); silent += 1
print("done", silent, bad)
sys.exit(1 if silent or bad else 0)
"""


@pytest.mark.parametrize("seed", [1, 2])
def test_cut_and_flipped_captures_are_read_warned_or_refused_in_one_line(tmp_path, seed):
    argv = [sys.executable, "-c", FUZZ, str(Path(__file__).parent), str(seed), str(tmp_path), "200"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (
        f"exit {done.returncode} (-11: a segmentation fault)\n"
        f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
