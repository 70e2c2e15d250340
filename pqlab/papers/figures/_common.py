"""TRANSITIONAL (removed when the last artefact has moved to its own module): see :mod:`pqlab.papers.kit`."""

from ..kit import ci_half_widths, footer, seed_count  # noqa: F401
