"""Links between the papers' claims, read from ``data/claim_links.csv`` and applied by the judge
(:func:`pqlab.papers.judge.apply_links`; docs/model.md, "Verdict rules").

``data/claim_links.csv`` holds one row per link, ``artefact, quantity, relation,
target_artefact, target_quantity, reason``:

``implies``
    When the paper's claim holds as the paper means it, the target claim holds too
    (GLOBECOM'01 Sec. V-A: the CCDF varies with A *because* the distribution spreads, which
    comes with a larger mean). A claim is then never ``reproduced`` while its target
    ``differs``: its verdict becomes ``differs`` and its reason (kind ``implied``) names the
    target and its difference. Applied until nothing changes, so chains propagate.
``same_as``
    The row restates a claim judged elsewhere (a TF-TANT page pointing at the GLOBECOM
    figure it repeats). A row left ``missing`` (recorded, not judged) takes the target's
    verdict and reason, and the explanation says so.

Links apply within one model; a link whose rows are absent is skipped.
"""

from __future__ import annotations

import pandas as pd

from ..base import locations
from ..papers import judge, records

#: The links file.
LINKS_FILE = locations.DATA / "claim_links.csv"
#: Columns of the links file.
LINK_COLUMNS = ("artefact", "quantity", "relation", "target_artefact", "target_quantity", "reason")
#: Relations a link may state.
RELATIONS = judge.RELATIONS


def load_claim_links(path=LINKS_FILE) -> pd.DataFrame:
    """Read and check the links file; ``ValueError`` naming a missing column or an unknown
    relation."""
    return records.load_text_table(path, LINK_COLUMNS, "relation", RELATIONS)
