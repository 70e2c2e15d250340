"""TRANSITIONAL (removed when the last artefact has moved to its own module): see :func:`pqlab.papers.kit.setup`."""

from ..kit import QUICK_N_EF_SAMPLES, QUICK_N_SEEDS, NotebookSetup, setup  # noqa: F401
