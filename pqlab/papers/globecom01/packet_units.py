"""What a BE packet takes in the GLOBECOM'01 node: ring particles and ATM cells of IP lengths.

Element-wise over IP lengths in bytes; used by the artefacts of Tables I, Figs. 1, 3-1, 3-2 and 5.
"""

from __future__ import annotations

import numpy as np

from ...node.framing import atm_cells, particles_needed

__all__ = ["particles", "cells"]

#: Ring particles of IP lengths (bytes) for a particle size (bytes), element-wise
#: (:func:`pqlab.node.framing.particles_needed`).
particles = np.vectorize(particles_needed, otypes=[np.int64])


def cells(size_bytes) -> np.ndarray:
    """ATM cells (AAL5, LLC/SNAP) of IP lengths in bytes (:func:`pqlab.node.framing.atm_cells`), at least 1-d."""
    return atm_cells(np.atleast_1d(size_bytes))
