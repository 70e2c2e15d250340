"""The ledger: the report, the site, the test-bed evaluation and the docs count by one rule."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from pqlab.papers import judge, ledger
from pqlab.papers import testbed_eval as te
from pqlab.pipeline import claim_links, overview, report, website

ROOT = Path(__file__).resolve().parents[1]
EVALUATION_CSV = ROOT / "benchmarks" / "results" / "testbed_evaluation.csv"
EVALUATION_JSON = ROOT / "benchmarks" / "results" / "testbed_evaluation.json"
QUICK_REPORT = ROOT / "tests" / "data" / "quick_report.csv"
#: A block of the docs generated from the ledger of a committed file:
#: ``<!-- ledger: <path> -->`` ... ``<!-- /ledger -->``.
BLOCK = re.compile(r"<!-- ledger: (?P<path>\S+) -->\n(?P<body>.*?)\n<!-- /ledger -->", re.S)
#: Columns of a report CSV that hold numbers (the others are text, "" where empty).
NUMBER_COLUMNS = ("paper value", "ours", "difference", "difference %", "shape_ok", "seed")


def _evaluation_models(frame: pd.DataFrame) -> list[str]:
    return [c[: -len("_verdict")] for c in frame.columns if c.endswith("_verdict")]


def read_report(path: Path) -> pd.DataFrame:
    """A committed report CSV as :func:`pqlab.pipeline.report.compare` gave it ("" for no text)."""
    frame = pd.read_csv(path)
    return frame.fillna({c: "" for c in frame.columns if c not in NUMBER_COLUMNS})


def ledger_of(path: Path) -> pd.DataFrame:
    """The ledger of a committed report CSV or test-bed evaluation CSV."""
    frame = pd.read_csv(path)
    if "verdict" in frame.columns:
        return ledger.counts(read_report(path))
    models = _evaluation_models(frame)
    return ledger.counts(ledger.from_evaluation(frame, models), models)


def test_the_evaluation_counts_by_the_report_rule_not_checkable_apart():
    """The evaluation kept the not-checkable mode share in its denominator (16 of 30 against the
    report's rule, 16 of 29): its counts are now the ledger's, that row in no denominator."""
    frame = pd.read_csv(EVALUATION_CSV)
    checkable = int((frame["rule"] != "not_checkable").sum())
    assert checkable == len(frame) - 1  # the long version's 60 % in a single interval
    found = te.counts(frame).set_index(["model", "role"])
    for model in te.MODELS:
        assert found.loc[(model, "all"), "total"] == checkable
    assert found.loc[("papers_node", "held_out"), "total"] == checkable  # it fits nothing
    assert found.loc[("testbed", "calibration"), "total"] >= len(te.CALIBRATION)
    expected = ledger.counts(ledger.from_evaluation(frame, te.MODELS))
    assert found.equals(expected.set_index(["model", "role"]))


def test_the_committed_evaluation_states_the_ledgers_counts():
    summary = json.loads(EVALUATION_JSON.read_text())
    expected = ledger_of(EVALUATION_CSV)
    assert pd.DataFrame(summary["counts"])[list(ledger.COLUMNS)].equals(expected)


def test_every_count_the_docs_quote_is_generated_from_the_ledger():
    """docs/testbed.md quoted a stale quick count and 16 of 30: its counts are blocks of the ledger
    of the committed files they name."""
    text = (ROOT / "docs" / "testbed.md").read_text()
    blocks = list(BLOCK.finditer(text))
    named = {m["path"] for m in blocks}
    assert named >= {"benchmarks/results/testbed_evaluation.csv", "tests/data/quick_report.csv"}
    for m in blocks:
        assert m["body"] == ledger.markdown(ledger_of(ROOT / m["path"])), m["path"]


def test_the_site_counts_the_test_bed_by_the_ledger():
    """The site's test-bed badge counted every test-bed row (the not-checkable mode share, the
    pqlab-only notes): it now shows the ledger's measured results."""
    table = read_report(QUICK_REPORT)
    counted = ledger.counts(table).set_index(["model", "role"]).loc[("testbed", "all")]
    assert website._Tally.of(table.to_dict("records")).testbed == (
        counted["reproduced"],
        counted["total"],
    )
    numbers = ledger.numbers(ledger.counts(table), "testbed")["numbers"]
    counts = report.measured_counts(table).set_index(["model", "role"])
    assert tuple(counts.loc[("testbed", "all")]) == numbers


def test_no_link_moves_a_numbers_verdict():
    """A number is judged by its number; the statement it illustrates is a row of its own. The
    link gap_1518_be_tx -> gap_multiple_of_be_tx made the papers' node's 4.55 (-9.0 %) differ in
    the report and not in the evaluation (which judges numbers only)."""
    table = pd.DataFrame(
        {
            "artefact": ["a", "a"],
            "quantity": ["n", "s"],
            "model": "papers_node",
            "rule": ["number", "qualitative"],
            "verdict": ["reproduced", "differs"],
            "explanation": "",
            "reason": None,
            "difference %": [-9.0, float("nan")],
        }
    )
    links = pd.DataFrame(
        [
            {
                "artefact": "a",
                "quantity": "n",
                "relation": "implies",
                "target_artefact": "a",
                "target_quantity": "s",
                "reason": "r",
            }
        ]
    )
    with pytest.raises(judge.ClaimError, match="judged by its number"):
        judge.apply_links(table, links)
    paper = report.load_paper_values()
    rules = {
        (a, q): judge.rule_of(r, v)
        for a, q, r, v in zip(paper["artefact"], paper["quantity"], paper["rule"], paper["value"])
    }
    for link in claim_links.load_claim_links().itertuples():
        if link.relation == "implies":
            assert rules[(link.artefact, link.quantity)] not in ("number", "position"), link


def test_the_opening_and_its_table_are_the_ledger():
    table = read_report(QUICK_REPORT)
    counts = ledger.counts(table)
    assert overview.measured_table(table).equals(counts)
    opening = overview.opening(table)
    for model in ("papers_node", "testbed"):
        assert ledger.sentence(counts, model) in opening


def test_the_verdict_rules_of_the_docs_are_the_judges():
    """docs/model.md named a verdict no code gives ("shape only") and the position rule as kit's."""
    text = (ROOT / "docs" / "model.md").read_text()
    rules = text[text.index("## Verdict rules") :]
    rules = rules.split("\n## ")[0]
    named = set(re.findall(r"\*([a-z][a-z ]+)\*", rules))
    assert named <= set(judge.VERDICTS), named - set(judge.VERDICTS)
    assert "pqlab.papers.judge.position_ok" in rules and "kit.position_ok" not in rules
    assert f"{judge.TOLERANCE_PERCENT:g} %" in rules


def test_a_statement_about_an_effect_the_model_does_not_produce_is_not_tested():
    """The test bed "reproduced" the slides' "EF loss negligible up to 8 streams" and "EF load
    irrelevant" because it drops no EF packet at any stream count: the judge now says "not tested",
    from the number (the record's fact ``effect_size``: the effect in this model's runs), and the
    ledger counts it apart."""
    no_loss = judge.reason(
        "mechanism",
        "no EF packet lost in any run: largest {effect_size}",
        [judge.fact("effect_size", 0.0, "%")],
    )
    some_loss = judge.reason(
        "mechanism", "the largest loss is {effect_size}", [judge.fact("effect_size", 5.0, "%")]
    )
    common = dict(has_paper=True, has_record=True, paper=float("nan"), ours=float("nan"))
    for why, expected in ((no_loss, "not tested"), (some_loss, "reproduced")):
        effect = judge.fact_value(why, judge.EFFECT_FACT)
        assert judge.verdict("qualitative", shape_ok=True, effect=effect, **common) == expected
    assert judge.verdict("qualitative", shape_ok=False, **common) == "differs"
    with pytest.raises(judge.ClaimError, match="effect size is for"):
        judge.verdict("number", shape_ok=None, effect=0.0, **{**common, "paper": 1.0, "ours": 0.0})
    assert "not tested" in judge.VERDICTS
    table = read_report(QUICK_REPORT)
    bed = table[(table["model"] == "testbed") & (table["artefact"] == "tftant_slides_loss")]
    bed = bed.set_index("quantity")
    assert bed.loc["ef_loss_negligible_up_to_8_streams", "verdict"] == "not tested"
    assert bed.loc["ef_load_irrelevant", "verdict"] == "not tested"
    # a number is judged by its number: 0 against the slide's 12 %
    assert bed.loc["ef_loss_20_streams", "verdict"] == "differs"
    counted = ledger.counts(table).set_index(["model", "role"])
    assert counted.loc[("testbed", "qualitative"), "not tested"] >= 2
    judged = counted.loc[("testbed", "qualitative"), list(ledger.VERDICTS)].sum()
    assert counted.loc[("testbed", "qualitative"), "total"] == judged
    assert "not tested by this model" in overview.opening(table)


def test_held_out_means_predicted_each_standing_counted_apart():
    """Of the test bed's 12 held-out reproductions, Fig. 3-1's two maxima were an earlier
    calibration's targets, max_gain_mtu and gap_1518_be_tx rest on a ring release chosen after they
    were seen, Table III at A = 2/3 and 1/3 lie between the calibrated A = 0 and 5/6, and Fig. 3-2's
    fluctuation and Fig. 5's tail come from the hop chosen after every result was seen. Each
    measured number of each model carries its standing (data/standing.csv), the ledger counts each
    apart, and "held out" counts the predictions only."""
    standing = ledger.load_standing()
    assert set(standing["standing"]) <= set(ledger.STANDINGS)
    paper = report.load_paper_values().set_index(["artefact", "quantity"])
    for row in standing.itertuples():
        assert (row.artefact, row.quantity) in paper.index and row.reason, row
    table = read_report(QUICK_REPORT)
    counts = ledger.counts(table).set_index(["model", "role"])
    bed = {
        s: counts.loc[("testbed", s), "total"]
        for s in ledger.STANDINGS
        if ("testbed", s) in counts.index
    }
    assert bed == {"calibration": 7, "held_out": 16, "bracketed": 2, "chosen_after": 4}
    # the papers' node model fits nothing: every number of it is a prediction
    assert counts.loc[("papers_node", "held_out"), "total"] == 29
    assert ("papers_node", "calibration") not in counts.index
    mine = ledger.measured(table)
    chosen = mine[(mine["model"] == "testbed") & (mine["_set"] == "chosen_after")]
    assert set(chosen["quantity"]) == {
        "max_gain_mtu",
        "gap_1518_be_tx",
        "fluctuation_fraction",
        "ccdf_negligible_above",
    }
    opening = overview.opening(table)
    assert "bracketed by calibration points" in opening and "chosen after" in opening


def test_an_unknown_standing_is_refused(tmp_path):
    bad = tmp_path / "standing.csv"
    bad.write_text("model,artefact,quantity,standing,reason\ntestbed,a,q,fitted,why\n")
    with pytest.raises(ValueError, match=r"standing must be one of \['calibration'"):
        ledger.load_standing(bad)
    bad.write_text("model,artefact,quantity,reason\n")
    with pytest.raises(ValueError, match=r"missing column\(s\) \['standing'\]"):
        ledger.load_standing(bad)
