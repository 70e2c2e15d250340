"""TRANSITIONAL (removed when the last artefact has moved to its own module): see :mod:`pqlab.papers.kit`."""

from __future__ import annotations

from pathlib import Path

from .. import records
from ..kit import FIXED_TITLE_RC, delay_distribution, in_kernel, legend_below, save, set_theme, subplots  # noqa: F401


def save_and_record(fig, artefact: str, figures_dir, results_dir, *, stem: str | None = None) -> list:
    """:func:`save` ``fig`` as ``<figures_dir>/<stem or artefact>`` and record the files under ``artefact``.

    The files are recorded with :func:`pqlab.papers.records.record_figure` in ``results_dir``;
    returns the paths written (PNG first).
    """
    paths = save(fig, Path(figures_dir) / (stem or artefact))
    records.record_figure(results_dir, artefact, paths)
    return paths
