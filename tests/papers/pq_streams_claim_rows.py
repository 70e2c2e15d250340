"""What the tests of the TF-TANT PQ-with-streams artefact modules check of an artefact's claim
records.

Every paper row of the artefact (``data/paper_values.csv``) has a claim with the paper's unit;
numeric rows a value, qualitative rows a judgement (:func:`check_claims`).
"""

import numpy as np

from pqlab.pipeline import report

#: The rows of ``tftant_be_fig4`` that ``same_experiment_claims`` records (pointers, no data).
POINTERS = {"fig2_not_linear", "fig3_same_shape_different_minimum", "fig6_inverse_probability"}


def check_claims(claims, artefact):
    """Every paper row of ``artefact`` (but the pointer rows) has a claim with the paper's unit;
    numeric rows a value."""
    paper = report.load_paper_values()
    rows = paper[(paper["artefact"] == artefact) & ~paper["quantity"].isin(POINTERS)]
    got = {c["quantity"]: c for c in claims}
    assert set(rows["quantity"]) <= set(got), set(rows["quantity"]) - set(got)
    for q, unit, value, rule in zip(
        rows["quantity"], rows["unit"], rows["value"], rows["rule"].fillna("")
    ):
        assert got[q]["unit"] == unit, q
        if rule == "not_checkable":
            continue  # judged "not checkable" whatever is recorded
        if np.isfinite(value):
            assert got[q]["value"] is not None, q
            assert got[q]["shape_ok"] is None, (
                f"{q}: a number is judged by its number, not by shape_ok"
            )
        else:
            assert got[q]["shape_ok"] is not None, q
    assert all(c["artefact"] == artefact and c["note"] for c in claims)
    judged(claims)  # the judge accepts every record (a number with a shape_ok raises)


def judged(claims):
    """The report's rows of the claim records, judged
    (:func:`pqlab.pipeline.report.judge_claims`)."""
    return report.judge_claims(claims)


def row(table, quantity, model="papers_node"):
    """The one judged row of ``quantity`` under ``model``."""
    hit = table[(table["quantity"] == quantity) & (table["model"] == model)]
    assert len(hit) == 1, (quantity, model, len(hit))
    return hit.iloc[0]
