"""What several GLOBECOM'01 artefacts share: the units a packet takes in the node, the check of a
figure's data, the time attrs of the Fig. 3 statistics and the stand-in note of the BE sizes.

* :func:`particles` and :func:`cells`: ring particles and ATM cells of IP lengths (bytes),
  element-wise (Tables I, Figs. 1, 3-1, 3-2 and 5);
* :func:`check_dataset`: the check every figure makes of its data, its artefact's Dataset with
  the variables it draws;
* :func:`set_time_attrs`: the time attrs of the Fig. 3 statistics, which run once on the delays
  in s (the compute function) and once in ms (the claims and figures,
  :func:`pqlab.papers.kit.statistics_in_ms`), named ``<name>_s`` or ``<name>_ms``;
* :data:`STANDIN_NOTE`: what the figures drawn from the "real" BE size distribution (Figs. 4
  and 5) say of it: the papers' trace is unpublished and pqlab uses a STAND-IN
  (``data/be_size_cdf_standin.csv``).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...node.framing import atm_cells, particles_needed
from .. import kit

__all__ = ["particles", "cells", "check_dataset", "set_time_attrs", "STANDIN_NOTE"]

#: What the figures of :mod:`~pqlab.papers.globecom01.globecom01_fig4` and
#: :mod:`~pqlab.papers.globecom01.globecom01_fig5` say of the BE sizes.
STANDIN_NOTE = "STAND-IN 'real' BE sizes (CAIDA AIX 1999 fit), not the papers' trace"

#: Ring particles of IP lengths (bytes) for a particle size (bytes), element-wise
#: (:func:`pqlab.node.framing.particles_needed`).
particles = np.vectorize(particles_needed, otypes=[np.int64])


def cells(size_bytes) -> np.ndarray:
    """ATM cells (AAL5, LLC/SNAP) of IP lengths in bytes (:func:`pqlab.node.framing.atm_cells`),
    at least 1-d."""
    return atm_cells(np.atleast_1d(size_bytes))


def check_dataset(artefact: str, data, variables) -> xr.Dataset:
    """``data`` if it is the Dataset ``compute`` of ``artefact`` returns and has ``variables``.

    Raises
    ------
    ValueError
        Naming ``artefact`` if ``data`` is not a Dataset, lacks one of ``variables`` or was made
        for another artefact (:func:`pqlab.papers.kit.check_artefact`).
    """
    if not isinstance(data, xr.Dataset):
        raise ValueError(
            "data must be the xarray.Dataset of "
            f"pqlab.papers.globecom01.{artefact}.compute, got {type(data).__name__}"
        )
    missing = [var for var in variables if var not in data.variables]
    if missing:
        raise ValueError(
            f"{artefact}: the Dataset must have the variable(s) {missing} "
            f"(from pqlab.papers.globecom01.{artefact}.compute), it has none"
        )
    return kit.check_artefact(data, artefact)


def set_time_attrs(ds: xr.Dataset, unit: str, **values) -> None:
    """Set each time attr as ``<name>_<unit>`` (the Dataset's time unit), dropping it in the other
    unit."""
    for name, value in values.items():
        for other in ("s", "ms"):
            ds.attrs.pop(f"{name}_{other}", None)
        ds.attrs[f"{name}_{unit}"] = value
