"""The committed quick report (``tests/data/quick_report.csv``, what the quick run gives:
``test_notebooks``)
read as a referee would: every measured result that differs says why with a number; nothing is
missing.
"""

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from pqlab.papers import judge
from pqlab.pipeline import overview, reportdiff

GOLDEN = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="module")
def golden() -> pd.DataFrame:
    return reportdiff.read_table(GOLDEN / "quick_report.csv")


def _measured(table: pd.DataFrame) -> pd.DataFrame:
    return overview.measured_results(
        table.fillna({"reason": "", "reason kind": "", "facts": "", "rule": "", "role": ""})
    )


def test_every_measured_result_that_differs_gives_a_reason_with_a_number(golden):
    differing = _measured(golden)
    differing = differing[differing["verdict"] == "differs"]
    assert len(differing) > 0
    lacking = [
        f"{r['artefact']}/{r['quantity']} ({r['model']})"
        for r in differing.to_dict("records")
        if r["reason kind"] not in judge.REASON_KINDS
        or not any(math.isfinite(f["value"]) for f in json.loads(r["facts"] or "[]"))
    ]
    assert lacking == []


def test_no_generic_sentence_two_different_claims_share_a_reason_only_with_the_same_facts(golden):
    differing = _measured(golden)
    differing = differing[(differing["verdict"] == "differs") & (differing["reason"] != "")]
    for text, rows in differing.groupby("reason"):
        claims = set(zip(rows["artefact"], rows["quantity"]))
        assert len(claims) == 1 or rows["facts"].nunique() == 1, (text, sorted(claims))


def test_no_measured_result_is_missing_and_unreadable_statements_are_counted_apart(golden):
    measured = _measured(golden)
    assert (
        measured[measured["verdict"] == "missing"][
            ["artefact", "quantity", "model"]
        ].values.tolist()
        == []
    )
    unchecked = golden[(golden["kind"] == "result") & (golden["rule"] == "not_checkable")]
    assert len(unchecked) >= 2 and set(unchecked["verdict"]) == {"not checkable"}
