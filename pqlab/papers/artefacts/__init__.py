"""Compute functions, one per paper artefact id, grouped by paper section (one module each).

Each artefact ``<id>`` has a compute function ``<id>(...)`` in
``pqlab.papers.artefacts.<section>`` returning its data and, in
``pqlab.papers.artefacts.claims.<section>``, ``<id>_claims(data)`` returning its claim records
(the list of artefacts is :mod:`pqlab.papers.artefacts.registry`); :func:`record_claims` records
them and prints each next to the paper's value (:mod:`pqlab.papers.artefacts._common`). A
compute module does not reach its claims: import both, e.g.::

    from pqlab.papers.artefacts import aggregation as agg
    from pqlab.papers.artefacts.claims import aggregation as agg_claims

    record_claims(results_dir, agg_claims.globecom01_fig7_claims(agg.globecom01_fig7()))
"""

from ._common import paper_value, paper_vs_ours, record_claims
from .notebook import setup

__all__ = ["paper_value", "paper_vs_ours", "record_claims", "setup"]
