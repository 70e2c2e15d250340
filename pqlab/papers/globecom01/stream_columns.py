"""What GLOBECOM'01 Tables I and II say of a preset's streams: frame size, protocol, size
distribution.

Used by :mod:`~pqlab.papers.globecom01.globecom01_tab1` and
:mod:`~pqlab.papers.globecom01.globecom01_tab2` (and the deterministic payload range by
:mod:`~pqlab.papers.globecom01.globecom01_fig3_1`'s sweep). Sizes in bytes.
"""

from __future__ import annotations

from ...node.traffic import CBRStream, Deterministic, Empirical, PoissonStream
from .. import presets

__all__ = ["PAPER_BE_PAYLOAD_RANGE", "frame_bytes", "protocol", "size_text"]

#: GLOBECOM'01 Sec. IV-A: the deterministic BE UDP payloads span [100, 1450] bytes.
PAPER_BE_PAYLOAD_RANGE = (100, 1450)


def frame_bytes(stream) -> int:
    """Ethernet frame size of an EF stream of IP packets (IP + 18 bytes)."""
    return int(stream.size.size_bytes) + presets.ETHERNET_FRAME_OVERHEAD_BYTES


def protocol(stream) -> str:
    """Transport label of a stream: pqlab streams stand for UDP datagrams (no TCP is modelled)."""
    kind = {CBRStream: "CBR", PoissonStream: "Poisson"}.get(type(stream), type(stream).__name__)
    return f"UDP ({kind})"


def size_text(stream) -> str:
    """The size distribution of a BE stream as the tables state it."""
    size = stream.size
    if isinstance(size, Deterministic):
        lo, hi = PAPER_BE_PAYLOAD_RANGE
        return (
            f"deterministic: one UDP payload per run, {lo}..{hi} bytes (IP = payload +"
            f" {stream.header_bytes})"
        )
    if isinstance(size, Empirical):
        reading = (
            "sizes by packet count (each packet drawn from the law)"
            if stream.size_per == "packet"
            else "one size per stream at equal bit rates"
        )
        return (
            "real: STAND-IN CDF (CAIDA AIX 1999 fit), IP"
            f" {size.sizes_bytes[0]}..{size.sizes_bytes[-1]} bytes, {reading}"
        )
    return type(size).__name__
