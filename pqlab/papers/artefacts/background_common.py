"""GLOBECOM'01 Sec. II-IV: what the background artefacts share (the BE payload sweep, the measurement helpers).

Used by :mod:`pqlab.papers.artefacts.background_deterministic` and
:mod:`pqlab.papers.artefacts.background_real`; :mod:`pqlab.papers.artefacts.background` re-exports
the public names.
"""

from __future__ import annotations

import numpy as np

from .. import presets
from ..stated import PAPER_FIG3_2_PAYLOADS  # noqa: F401  (transitional: the old section modules import it from here)
from ...node.framing import atm_cells, particles_needed
from ...node.scenario import Scenario
from ...node.traffic import CBRStream, Deterministic, Empirical, PoissonStream


#: GLOBECOM'01 Sec. IV-A: the deterministic BE UDP payloads span [100, 1450] bytes.
PAPER_BE_PAYLOAD_RANGE = (100, 1450)
#: GLOBECOM'01 Sec. IV-B: delay threshold above which P(D > d) is "negligible", transmission units.
PAPER_FIG5_THRESHOLD_UNITS = 36
#: Quantiles of the BE size CDF printed with Fig. 4.
FIG4_PROBABILITIES = (0.05, 0.25, 0.5, 0.75, 0.95)


# --------------------------------------------------------------------------- helpers


#: Ring particles of IP lengths, element-wise (:func:`pqlab.node.framing.particles_needed`).
_particles = np.vectorize(particles_needed, otypes=[np.int64])


def _cells(size_bytes) -> np.ndarray:
    """ATM cells (AAL5, LLC/SNAP) of IP lengths (:func:`pqlab.node.framing.atm_cells`), at least 1-d."""
    return atm_cells(np.atleast_1d(size_bytes))


def _ef_stream(scenario: Scenario) -> CBRStream:
    return scenario.streams[0]


def _frame_bytes(stream) -> int:
    """Ethernet frame size of an EF stream of IP packets (IP + 18 bytes)."""
    return int(stream.size.size_bytes) + presets.ETHERNET_FRAME_OVERHEAD_BYTES


def _protocol(stream) -> str:
    """Transport label of a stream: pqlab streams stand for UDP datagrams (no TCP is modelled)."""
    kind = {CBRStream: "CBR", PoissonStream: "Poisson"}.get(type(stream), type(stream).__name__)
    return f"UDP ({kind})"


def _size_text(stream) -> str:
    size = stream.size
    if isinstance(size, Deterministic):
        lo, hi = PAPER_BE_PAYLOAD_RANGE
        return f"deterministic: one UDP payload per run, {lo}..{hi} bytes (IP = payload + {stream.header_bytes})"
    if isinstance(size, Empirical):
        reading = ("sizes by packet count (each packet drawn from the law)" if stream.size_per == "packet"
                   else "one size per stream at equal bit rates")
        return (f"real: STAND-IN CDF (CAIDA AIX 1999 fit), IP {size.sizes_bytes[0]}..{size.sizes_bytes[-1]} bytes, "
                f"{reading}")
    return type(size).__name__
