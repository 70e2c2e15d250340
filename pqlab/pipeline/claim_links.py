"""Links between the papers' claims, applied to the report's verdicts (docs/model.md, "Verdict rules").

``data/claim_links.csv`` holds one row per link, ``artefact, quantity, relation,
target_artefact, target_quantity, reason``:

``implies``
    When the paper's claim holds as the paper means it, the target claim holds too
    (GLOBECOM'01 Sec. V-A: the CCDF varies with A *because* the distribution spreads, which
    comes with a larger mean). A claim is then never ``reproduced`` while its target
    ``differs`` or holds in ``shape only``: its verdict becomes ``differs`` and the
    explanation names the target. Applied until nothing changes, so chains propagate.
``same_as``
    The row restates a claim judged elsewhere (a TF-TANT page pointing at the GLOBECOM
    figure it repeats). A row left ``missing`` (recorded, not judged) takes the target's
    verdict, and the explanation says so.

Links apply within one model; a link whose rows are absent is skipped.
"""

from __future__ import annotations

import pandas as pd

from ..base import locations

#: The links file.
LINKS_FILE = locations.DATA / "claim_links.csv"
#: Columns of the links file.
LINK_COLUMNS = ("artefact", "quantity", "relation", "target_artefact", "target_quantity", "reason")
#: Relations a link may state.
RELATIONS = ("implies", "same_as")
#: Verdicts of a target that make an implying claim fail.
FAILED = ("differs", "shape only")


def load_claim_links(path=LINKS_FILE) -> pd.DataFrame:
    """Read and check the links file; ``ValueError`` naming a missing column or an unknown relation."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in LINK_COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"{path}: missing column(s) {missing}; needs {list(LINK_COLUMNS)}")
    bad = sorted(set(frame["relation"]) - set(RELATIONS))
    if bad:
        raise ValueError(f"{path}: relation must be one of {list(RELATIONS)}, got {bad}")
    return frame[list(LINK_COLUMNS)]


def apply_links(table: pd.DataFrame, links: pd.DataFrame) -> pd.DataFrame:
    """``table`` (:func:`pqlab.pipeline.report.compare`) with the verdicts the links impose, as a copy.

    Parameters
    ----------
    table : pandas.DataFrame
        Columns ``artefact, quantity, model, verdict, explanation`` at least.
    links : pandas.DataFrame
        As :func:`load_claim_links` returns.
    """
    table = table.copy()
    where = {(m, a, q): i for i, (m, a, q) in enumerate(zip(table["model"], table["artefact"], table["quantity"]))}
    verdict = table["verdict"].tolist()
    note = table["explanation"].tolist()
    for model in dict.fromkeys(table["model"]):
        pairs = [(where.get((model, l.artefact, l.quantity)), where.get((model, l.target_artefact, l.target_quantity)),
                  l) for l in links.itertuples()]
        pairs = [(s, t, l) for s, t, l in pairs if s is not None and t is not None]
        for s, t, link in pairs:
            if link.relation == "same_as" and verdict[s] == "missing" and verdict[t] != "missing":
                verdict[s] = verdict[t]
                note[s] += f"; judged as {link.target_artefact}/{link.target_quantity}: {verdict[t]} ({link.reason})"
        changed = True
        while changed:
            changed = False
            for s, t, link in pairs:
                if link.relation == "implies" and verdict[s] == "reproduced" and verdict[t] in FAILED:
                    verdict[s] = "differs"
                    note[s] += (f"; not reproduced: it implies {link.target_artefact}/{link.target_quantity}, which "
                                f"{'holds in shape only' if verdict[t] == 'shape only' else 'differs'} "
                                f"({link.reason})")
                    changed = True
    table["verdict"], table["explanation"] = verdict, note
    return table
