"""The check every GLOBECOM'01 figure makes of its data: its artefact's Dataset, with the variables it draws."""

from __future__ import annotations

import xarray as xr

from .. import kit

__all__ = ["check_dataset"]


def check_dataset(artefact: str, data, variables) -> xr.Dataset:
    """``data`` if it is the xarray.Dataset ``compute`` of ``artefact`` returns and has ``variables``.

    Raises
    ------
    ValueError
        Naming ``artefact`` if ``data`` is not a Dataset, lacks one of ``variables`` or was made
        for another artefact (:func:`pqlab.papers.kit.check_artefact`).
    """
    if not isinstance(data, xr.Dataset):
        raise ValueError(f"data must be the xarray.Dataset of pqlab.papers.globecom01.{artefact}.compute, "
                         f"got {type(data).__name__}")
    missing = [var for var in variables if var not in data.variables]
    if missing:
        raise ValueError(f"{artefact}: the Dataset must have the variable(s) {missing} "
                         f"(from pqlab.papers.globecom01.{artefact}.compute), it has none")
    return kit.check_artefact(data, artefact)
