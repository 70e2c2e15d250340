"""The one judge: the rules, the same for every model; reasons carry numbers; links between
claims."""

import math

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pqlab.papers import judge
from pqlab.pipeline import claim_links, report


def _paper(rows):
    frame = pd.DataFrame(
        rows,
        columns=["artefact", "quantity", "value", "unit", "source", "statement", "kind", "rule"],
    )
    return report.check_paper_values(frame.astype(str).replace("nan", ""), "test")


def _results(rows):
    return pd.DataFrame(
        rows,
        columns=[
            "artefact",
            "quantity",
            "value",
            "unit",
            "note",
            "shape_ok",
            "seed",
            "model",
            "role",
            "reason",
        ],
    )


WHY = judge.reason(
    "bound",
    "needs {needed} against {ours}",
    [judge.fact("needed", 3.0, "ms"), judge.fact("ours", 2.5, "ms")],
)


@settings(
    max_examples=100, deadline=None
)  # no deadline: CI's loaded 2-core machine is slow, not wrong
@given(
    paper=st.floats(0.01, 1e6),
    ratio=st.floats(0.0, 3.0),
    rule=st.sampled_from(["", "number", "qualitative", "not_checkable"]),
    shape=st.sampled_from([None, True, False]),
)
def test_the_same_numbers_get_the_same_verdict_under_both_models(paper, ratio, rule, shape):
    ours = paper * ratio
    is_number = judge.rule_of(rule, paper) == "number"
    shape = None if is_number else shape
    paper_rows = _paper([["a", "q", paper, "ms", "s", "st", "result", rule]])
    results = _results(
        [
            ["a", "q", ours, "ms", "", shape, 1, m, "held_out", WHY]
            for m in ("papers_node", "testbed")
        ]
    )
    table = report.compare(paper_rows, results)
    assert table["verdict"].nunique() == 1
    assert table["reason"].nunique() == 1 and table["rule"].nunique() == 1


def test_number_rule_is_the_one_tolerance():
    assert judge.within(109.9, 100) and judge.within(90.0, 100) and not judge.within(110.01, 100)
    assert not judge.within(math.nan, 100) and judge.within(0.0, 0.0) and not judge.within(1.0, 0.0)
    v = dict(has_paper=True, has_record=True, shape_ok=None)
    assert judge.verdict("number", paper=100.0, ours=109.0, **v) == "reproduced"
    assert judge.verdict("number", paper=100.0, ours=111.0, **v) == "differs"
    assert judge.verdict("number", paper=100.0, ours=math.nan, **v) == "missing"
    assert judge.borderline(-9.0) and not judge.borderline(7.9) and not judge.borderline(10.5)


def test_a_number_is_never_judged_by_a_shape_flag():
    with pytest.raises(ValueError, match="judged by its number"):
        judge.verdict("number", has_paper=True, has_record=True, paper=1.0, ours=2.0, shape_ok=True)


def test_position_rule_decides_within_ten_percent_or_not():
    first_after = dict(has_paper=True, has_record=True, shape_ok=None)
    assert (
        judge.verdict("position", paper=485.0, ours=484.0, first_after=500.0, **first_after)
        == "reproduced"
    )
    # 2 % away, but on the other side of the particle boundary: differs
    assert (
        judge.verdict("position", paper=485.0, ours=476.0, first_after=480.0, **first_after)
        == "differs"
    )
    with pytest.raises(ValueError, match="first_after"):
        judge.verdict("position", paper=485.0, ours=484.0, **first_after)


def test_qualitative_and_not_checkable_and_missing():
    kw = dict(has_paper=True, paper=math.nan, ours=math.nan)
    assert judge.verdict("qualitative", has_record=True, shape_ok=True, **kw) == "reproduced"
    assert judge.verdict("qualitative", has_record=True, shape_ok=False, **kw) == "differs"
    assert judge.verdict("qualitative", has_record=True, shape_ok=None, **kw) == "missing"
    assert judge.verdict("qualitative", has_record=False, shape_ok=None, **kw) == "missing"
    assert judge.verdict("not_checkable", has_record=True, shape_ok=True, **kw) == "not checkable"
    assert judge.verdict("not_checkable", has_record=False, shape_ok=None, **kw) == "not checkable"
    assert (
        judge.verdict(
            "number", has_paper=False, has_record=True, paper=math.nan, ours=1.0, shape_ok=None
        )
        == "pqlab only"
    )


def test_a_reason_needs_a_number_and_names_every_fact():
    with pytest.raises(ValueError, match="at least one fact"):
        judge.reason("mechanism", "the ring", [])
    with pytest.raises(ValueError, match="placeholders without a fact"):
        judge.reason("mechanism", "the ring of {size}", [judge.fact("other", 1, "")])
    with pytest.raises(ValueError, match="facts not in the text"):
        judge.reason("mechanism", "the ring", [judge.fact("size", 5, "particles")])
    with pytest.raises(ValueError, match="reason kind"):
        judge.reason("generic", "x {a}", [judge.fact("a", 1, "")])
    with pytest.raises(ValueError, match="finite"):
        judge.fact("a", math.inf, "ms")
    assert judge.render(WHY) == "needs 3 ms against 2.5 ms"
    assert (
        judge.render(
            judge.reason(
                "definition",
                "moves from {lo} to {hi}",
                [judge.fact("lo", 0.2912, "1"), judge.fact("hi", 12.5, "%")],
            )
        )
        == "moves from 0.2912 to 12.5%"
    )


def test_report_rows_carry_rule_reason_kind_and_facts():
    paper_rows = _paper([["a", "q", 6.05, "ms", "s", "st", "result", ""]])
    table = report.compare(
        paper_rows, _results([["a", "q", 3.3, "ms", "how", None, 1, "papers_node", None, WHY]])
    )
    row = table.iloc[0]
    assert (row["rule"], row["verdict"], row["reason kind"]) == ("number", "differs", "bound")
    assert row["reason"] == "needs 3 ms against 2.5 ms" and row["explanation"] == "how"
    assert '"name": "needed"' in row["facts"]


def _table(rows):
    return pd.DataFrame(
        rows,
        columns=[
            "artefact",
            "quantity",
            "model",
            "verdict",
            "explanation",
            "reason",
            "difference %",
        ],
    )


def test_implication_chains_and_pointers():
    table = _table(
        [
            ["f7", "ccdf_varies", "papers_node", "reproduced", "d=0.07", None, math.nan],
            ["f7", "spread_up", "papers_node", "reproduced", "slope +", None, math.nan],
            ["t3", "mean_up", "papers_node", "differs", "last step down", WHY, math.nan],
            [
                "f7",
                "ccdf_varies",
                "testbed",
                "reproduced",
                "",
                None,
                math.nan,
            ],  # its target rows are absent: left alone
            ["p", "pointer", "papers_node", "missing", "see f3_2", None, math.nan],
            ["f3_2", "lower", "papers_node", "differs", "same cells", WHY, math.nan],
            ["w", "over", "papers_node", "reproduced", "W > W_m", None, math.nan],
            ["w", "w_m", "papers_node", "differs", "36 % low", None, -36.2],
        ]
    )
    links = pd.DataFrame(
        [
            ["f7", "ccdf_varies", "implies", "f7", "spread_up", "spread"],
            ["f7", "spread_up", "implies", "t3", "mean_up", "mean"],
            ["p", "pointer", "same_as", "f3_2", "lower", "same figure"],
            ["w", "over", "implies", "w", "w_m", "compares W_m"],
        ],
        columns=list(claim_links.LINK_COLUMNS),
    )
    out = judge.apply_links(table, links)
    assert out["verdict"].tolist() == [
        "differs",
        "differs",
        "differs",
        "reproduced",
        "differs",
        "differs",
        "differs",
        "differs",
    ]
    assert (
        judge.render(out["reason"][0])
        == "it implies f7/spread_up (spread), which differs: it implies t3/mean_up "
        "(mean), which differs: needs 3 ms against 2.5 ms"
    )
    assert (
        judge.render(out["reason"][6]) == "it implies w/w_m (compares W_m), which differs by -36.2%"
    )
    assert out["explanation"][4] == "judged as f3_2/lower (same figure): same cells"
    assert table["verdict"][0] == "reproduced"  # a copy


def test_the_links_file_names_existing_paper_claims():
    links = claim_links.load_claim_links()
    keys = set(zip(*(report.load_paper_values()[c] for c in ("artefact", "quantity"))))
    for a, q, ta, tq in zip(
        links.artefact, links.quantity, links.target_artefact, links.target_quantity
    ):
        assert (a, q) in keys and (ta, tq) in keys


def test_an_unknown_rule_in_the_paper_table_is_refused():
    with pytest.raises(ValueError, match="rule must be one of"):
        _paper([["a", "q", 1.0, "ms", "s", "st", "result", "roughly"]])


# --------------------------------------------------------------------------- claims from a Dataset


def _data():
    import numpy as np
    import xarray as xr

    return xr.Dataset(
        {
            "delay": ("frame", np.array([3.0, 5.0, 9.0]), {"units": "ms"}),
            "floor": ("frame", np.array([1.0, 4.5, 2.0]), {"units": "ms"}),
            "ci": ((), 0.5, {"units": "ms"}),
            "ok": ((), True, {"units": "1"}),
        },
        coords={"frame": ("frame", [128, 512, 1024], {"units": "bytes"})},
        attrs={"scheduler": "pq"},
    )


@pytest.mark.parametrize(
    "name, params, ok",
    [
        ("greater", {"than": "floor"}, True),
        ("greater", {"than": "max(floor, 2 * ci + 2)"}, False),  # 3 > max(1, 3) fails at 128 bytes
        ("greater", {"share": "0.5", "than": "share * floor"}, True),  # an earlier parameter
        ("less", {"than": "10"}, True),
        ("at_most", {"bound": "9"}, True),
        ("at_most", {"bound": "8.9"}, False),
        ("at_least", {"bound": "3"}, True),  # 3 >= 3: a bound reached holds
        ("at_least", {"bound": "3.1"}, False),
        ("band", {"lo": "3", "hi": "9"}, True),
        ("band", {"lo": "3.5", "hi": "9"}, False),
        ("close", {"ref": "floor + 0.5", "tol": "0.1"}, False),
        ("close", {"ref": "delay * 1.05", "tol": "0.1"}, True),
        ("holds", {}, True),
    ],
)
def test_a_check_is_decided_by_its_parameters_over_the_variables(name, params, ok):
    variable = "ok" if name == "holds" else "delay"
    assert judge.check(name, variable, params, _data())[0] is ok


def test_a_checks_witness_is_where_it_comes_nearest_to_failing():
    ok, witness = judge.check("greater", "delay", {"than": "floor"}, _data())
    assert ok and witness == {
        "worst_ours": (5.0, "ms"),
        "worst_ref": (4.5, "ms"),
        "worst_frame": (512.0, "bytes"),
    }
    why = judge.reason_from(
        "mechanism",
        "at {frame} the delay is {moves}, above {needed}",
        _data(),
        {"frame": "worst_frame", "moves": "worst_ours", "needed": "worst_ref"},
        witness,
    )
    assert judge.render(why) == "at 512 bytes the delay is 5 ms, above 4.5 ms"


def test_at_leasts_witness_is_the_smallest_value_and_its_bound():
    ok, witness = judge.check("at_least", "delay", {"bound": "4"}, _data())
    assert not ok and witness == {
        "worst_ours": (3.0, "ms"),
        "worst_ref": (4.0, "ms"),
        "worst_frame": (128.0, "bytes"),
    }


@pytest.mark.parametrize(
    "name, variable, params, match",
    [
        ("trend", "delay", {}, "check must be one of"),
        ("greater", "nothing", {"than": "1"}, "no variable 'nothing'"),
        ("greater", "delay", {}, "needs the parameter"),
        ("greater", "delay", {"than": "__import__('os')"}, "only numbers"),
        ("greater", "delay", {"than": "floor +"}, "does not parse"),
        ("greater", "delay", {"than": "ceiling"}, "names no variable"),
    ],
)
def test_a_bad_check_is_refused_by_name(name, variable, params, match):
    with pytest.raises(judge.ClaimError, match=match):
        judge.check(name, variable, params, _data())


def test_params_parse_and_refuse_a_cell_without_names():
    assert judge.parse_params(" than=floor ; tol=0.1 ") == {"than": "floor", "tol": "0.1"}
    assert judge.parse_params("") == {}
    with pytest.raises(judge.ClaimError, match="name=value"):
        judge.parse_params("floor")


def test_a_note_is_filled_from_variables_attrs_and_the_rows_parameters():
    note = judge.fill(
        "{scheduler!u}: {delay:.1f} ms at {frame} bytes, {ci:.2f} within {tol:.0%}",
        _data(),
        {"tol": "0.05"},
    )
    assert note == "PQ: 3.0, 5.0, 9.0 ms at 128, 512, 1024 bytes, 0.50 within 5%"
    with pytest.raises(judge.ClaimError, match="'nothing'"):
        judge.fill("{nothing}", _data())


def test_a_reason_from_the_dataset_takes_its_facts_in_the_texts_order_with_their_units():
    data = _data().assign(delay_0=lambda d: d.delay[0])
    why = judge.reason_from("bound", "{delay_0} against {ci} and {delay_0}", data)
    assert [f["name"] for f in why["facts"]] == ["delay_0", "ci"]
    assert why["facts"][1]["unit"] == "ms"
    with pytest.raises(judge.ClaimError, match="no variable"):
        judge.reason_from("bound", "{nothing}", _data())


def test_a_reason_condition_is_a_check():
    assert judge.condition("less ci than=1", _data())
    assert not judge.condition("greater ci than=1", _data())


def test_an_item_template_pairs_each_value_with_its_coordinate_and_a_2d_variable_joins_its_rows():
    import numpy as np

    data = _data().assign(steps=(("be", "frame"), np.array([[1.0, -2.0, 3.0], [4.0, 5.0, 6.0]])))
    assert (
        judge.fill("{delay:[frame] B: [.2f] ms}", data)
        == "128 B: 3.00 ms, 512 B: 5.00 ms, 1024 B: 9.00 ms"
    )
    assert (
        judge.fill("{steps:+.1f}; {frame!r}", data)
        == "+1.0, -2.0, +3.0; +4.0, +5.0, +6.0; [128, 512, 1024]"
    )


@pytest.mark.parametrize(
    "that, ok",
    [
        ("all(delay > floor) and any(floor > 4)", True),
        ("all(delay > floor) and not any(floor > 4)", False),
        ("delay >= 3 or ci == 1", True),
        ("all(delay[0] > 1)", None),  # indexing is no part of the language
    ],
)
def test_holds_takes_a_boolean_expression_over_the_variables(that, ok):
    if ok is None:
        with pytest.raises(judge.ClaimError, match="only numbers"):
            judge.check("holds", "ok", {"that": that}, _data())
    else:
        assert judge.check("holds", "ok", {"that": that}, _data())[0] is ok


def test_a_template_names_where_a_boolean_holds_and_picks_a_text_by_a_boolean():
    import numpy as np

    data = _data().assign(
        big=("frame", np.array([False, True, True])), none=("frame", np.zeros(3, bool))
    )
    note = "{big!w:none}; {big!l:none}; {none!w:none}; {ok:every|not every}"
    assert judge.fill(note, data) == "512, 1024; [512, 1024]; none; every"


def test_an_item_template_formats_another_variable_and_a_join_takes_its_separator():
    data = _data()
    assert judge.fill("{delay:[.0f] - [floor:.1f]}", data) == "3 - 1.0, 5 - 4.5, 9 - 2.0"
    assert judge.fill("{frame:| -> }", data) == "128 -> 512 -> 1024"


def test_a_boolean_picks_between_texts_that_hold_a_bar_with_a_double_bar():
    assert judge.fill("{ok:mean |IPDV| up||mean |IPDV| down}", _data()) == "mean |IPDV| up"
