"""The time attrs of the GLOBECOM'01 Fig. 3 statistics, named in the unit their Dataset holds.

The statistics of :mod:`~pqlab.papers.globecom01.globecom01_fig3_1` and
:mod:`~pqlab.papers.globecom01.globecom01_fig3_2` run once on the delays in s (the compute
function) and once on them in ms (the claims and figures, :func:`pqlab.papers.kit.statistics_in_ms`):
their time attrs end in ``_s`` or ``_ms``.
"""

from __future__ import annotations

import xarray as xr

__all__ = ["set_time_attrs"]


def set_time_attrs(ds: xr.Dataset, unit: str, **values) -> None:
    """Set each time attr as ``<name>_<unit>`` (the Dataset's time unit), dropping it in the other unit."""
    for name, value in values.items():
        for other in ("s", "ms"):
            ds.attrs.pop(f"{name}_{other}", None)
        ds.attrs[f"{name}_{unit}"] = value
