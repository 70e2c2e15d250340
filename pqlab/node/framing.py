"""Line framing and ring particles: the one place that turns an IP length into
wire bytes, line time and particle count (node contract rules 3 and 4).

The jitted helpers are called by the engine kernel and, unchanged, from Python
by the metrics (transmission units) and the path model.
"""

from __future__ import annotations

import numpy as np

from ..base._validate import check_unmasked
from ..base.jitcache import cached_njit

#: Framing names accepted by :class:`pqlab.Node`, mapped to the integer code the kernel uses.
FRAMING_CODES = {"none": 0, "atm-aal5": 1, "ethernet": 2}

#: ATM cell size and payload, bytes.
ATM_CELL_BYTES = 53
ATM_CELL_PAYLOAD_BYTES = 48
#: LLC/SNAP encapsulation header (RFC 2684) plus AAL5 CPCS trailer, bytes.
AAL5_OVERHEAD_BYTES = 8 + 8
#: Largest packet the engine accepts, bytes (an IPv4 jumbogram bound).
MAX_SIZE_BYTES = 65_535
#: A particle as large as any packet: every packet is one particle, a ring that counts packets.
PACKET_PARTICLE_BYTES = MAX_SIZE_BYTES
#: Ethernet II overhead on the wire: preamble+SFD 8, header 14, FCS 4, inter-frame gap 12, bytes.
ETHERNET_OVERHEAD_BYTES = 38


@cached_njit(nogil=True)
def wire_bytes(size_bytes, framing_code):
    """Bytes a packet occupies on the line (node contract rule 4).

    Parameters
    ----------
    size_bytes : int
        IP length of the packet, bytes (>= 1).
    framing_code : int
        ``FRAMING_CODES[framing]``: 0 ``none`` (size), 1 ``atm-aal5``
        (``53 * ceil((size + 16) / 48)``), 2 ``ethernet`` (size + 38).

    Returns
    -------
    int
        Wire bytes, e.g. 159 for a 128-byte packet on ``atm-aal5``.
    """
    if framing_code == 1:
        # unsigned 32-bit division (sizes are validated to [1, 65535]): no sign fix-ups, about
        # 5 % of the kernel's time on the papers' base case (benchmarks/engine.py)
        cells = np.uint32(
            size_bytes + AAL5_OVERHEAD_BYTES + ATM_CELL_PAYLOAD_BYTES - 1
        ) // np.uint32(ATM_CELL_PAYLOAD_BYTES)
        return ATM_CELL_BYTES * np.int64(cells)
    if framing_code == 2:
        return size_bytes + ETHERNET_OVERHEAD_BYTES
    return size_bytes


@cached_njit(nogil=True)
def particles_needed(size_bytes, particle_bytes):
    """Ring particles a packet uses: ``max(1, ceil(size / particle_bytes))`` (rule 3), for
    ``size_bytes`` in ``[1, 65535]`` and ``particle_bytes`` in ``[1, 1e6]`` (the validated ranges).
    """
    # unsigned 32-bit division (size <= 65535, particle_bytes <= 1e6: the sum fits): a plain
    # divide, not Python's floor division with its sign fix-ups (~7 % of the kernel's time)
    n = np.int64(np.uint32(size_bytes + particle_bytes - 1) // np.uint32(particle_bytes))
    return n if n > 1 else np.int64(1)


def line_time_s(size_bytes, framing: str, line_rate_bps: float):
    """Line (serialisation) time of packets, seconds: ``wire_bytes * 8 / line_rate_bps``.

    Parameters
    ----------
    size_bytes : int or array_like of int
        IP length(s), bytes (a masked array with a masked entry is refused).
    framing : {"none", "atm-aal5", "ethernet"}
        Line framing.
    line_rate_bps : float
        Line rate, bit/s.

    Returns
    -------
    float or numpy.ndarray
        Seconds; 0.636e-3 for 128 bytes on atm-aal5 at 2 Mbit/s (the papers'
        transmission unit).
    """
    code = FRAMING_CODES[framing]
    sizes = np.asarray(check_unmasked("size_bytes", size_bytes), dtype=np.int64)
    out = np.empty(sizes.size)
    _line_times_s(np.ascontiguousarray(sizes.ravel()), code, float(line_rate_bps), out)
    out = out.reshape(sizes.shape)
    return float(out) if out.ndim == 0 else out


@cached_njit(nogil=True)
def packet_line_time_s(size_bytes, framing_code, line_rate_bps):
    """One packet's line time, seconds:
    ``wire_bytes(size_bytes, framing_code) * 8.0 / line_rate_bps`` (node contract rule 4; the wire
    bytes as float64, then the product, then the quotient)."""
    return wire_bytes(size_bytes, framing_code) * 8.0 / line_rate_bps


@cached_njit(nogil=True)
def _line_times_s(sizes, framing_code, line_rate_bps, out):
    for i in range(sizes.shape[0]):
        out[i] = packet_line_time_s(sizes[i], framing_code, line_rate_bps)


def atm_cells(size_bytes):
    """ATM cells (AAL5, LLC/SNAP, :func:`wire_bytes`) of IP lengths: int, or an int64 array for an
    array.

    3 for the papers' 110-byte EF packet, 32 for a 1500-byte packet.
    """
    sizes = np.asarray(check_unmasked("size_bytes", size_bytes), dtype=np.int64)
    cells = (_wire_bytes_array(sizes.ravel(), FRAMING_CODES["atm-aal5"]) // ATM_CELL_BYTES).reshape(
        sizes.shape
    )
    return int(cells) if cells.ndim == 0 else cells


@cached_njit
def _wire_bytes_array(sizes, framing_code):
    out = np.empty(sizes.shape[0], dtype=np.int64)
    for i in range(sizes.shape[0]):
        out[i] = wire_bytes(sizes[i], framing_code)
    return out
