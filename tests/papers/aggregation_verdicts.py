"""What the tests of the aggregation, frame-size and worst-case artefacts check of their claim
records.

:func:`judged` puts an artefact's claim records through the one judge
(:func:`pqlab.pipeline.report.judge_claims`) and returns the
report's rows of that artefact, indexed by quantity; :func:`facts` reads a reason's facts.
"""

import pandas as pd

from pqlab.pipeline import report


def judged(rows, artefact: str) -> pd.DataFrame:
    """The report's rows of ``artefact`` for the claim records ``rows`` (papers' node), by
    quantity."""
    table = report.judge_claims(rows)
    mine = table[table["artefact"] == artefact]
    return mine.set_index("quantity")


def facts(record: dict) -> dict:
    """A claim record's reason facts: name -> (value, unit); {} without a reason."""
    reason = record.get("reason") or {"facts": []}
    return {f["name"]: (f["value"], f["unit"]) for f in reason["facts"]}


def number_rows(artefact: str) -> set:
    """Quantities of ``artefact`` judged by their number (rule ``number`` or ``position``)."""
    from pqlab.papers import judge

    paper = report.load_paper_values()
    mine = paper[paper["artefact"] == artefact]
    return {
        q
        for q, r, v in zip(mine["quantity"], mine["rule"], mine["value"])
        if judge.rule_of(r, v) in ("number", "position")
    }
