"""Compute functions, one per paper artefact id, grouped by paper section (one module each).

Each artefact ``<id>`` has a compute function ``<id>(...)`` returning its data and, in
:mod:`pqlab.papers.artefacts.claims`, ``<id>_claims(data)`` returning its claim records (the
list of artefacts is :mod:`pqlab.papers.artefacts.registry`); :func:`record_claims` records
them and prints each next to the paper's value (:mod:`pqlab.papers.artefacts._common`).
"""

from ._common import paper_value, paper_vs_ours, record_claims
from .notebook import setup

__all__ = ["paper_value", "paper_vs_ours", "record_claims", "setup"]
