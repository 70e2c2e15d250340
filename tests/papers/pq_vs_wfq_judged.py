"""What the tests of the PQ-vs-WFQ artefacts (TF-TANT page and slides) check of the judge's verdicts
on their claims.

:func:`judged` passes an artefact's claim records through the report's judge
(:func:`pqlab.pipeline.report.judge_claims`) and checks
the judge contract: every measured result that differs carries a reason with numbers.
"""

import json

from pqlab.papers import judge
from pqlab.pipeline import report


def judged(artefact: str, rows) -> dict:
    """The report's rows of ``artefact`` judged from the claim records ``rows``: quantity -> row (a
    dict).

    Asserts that every measured result (kind ``result``) that differs has a reason of a known kind
    whose facts are numbers.
    """
    table = report.judge_claims([{**r, "seed": 1} for r in rows])
    mine = table[(table["artefact"] == artefact) & (table["model"] == "papers_node")]
    out = {r["quantity"]: r for r in mine.to_dict("records")}
    for q, r in out.items():
        if r["kind"] == "result" and r["verdict"] == "differs":
            assert r["reason kind"] in judge.REASON_KINDS, (q, r["explanation"])
            assert json.loads(r["facts"]), q
    return out


def facts(row: dict) -> dict:
    """The facts of a judged row's reason: name -> value."""
    return {f["name"]: f["value"] for f in json.loads(row["facts"] or "[]")}
