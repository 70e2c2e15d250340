"""TRANSITIONAL (removed when the last artefact has moved to its own module): see :func:`pqlab.papers.kit.position_ok`."""

from ...kit import position_ok, position_text  # noqa: F401
