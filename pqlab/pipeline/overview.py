"""What a reader reads first: the report's and the site's opening, computed from the report table's
fields.

The opening of ``report.md``/``report.html`` and of the site's index is a few sentences
(:func:`opening`: the measured results first, per model, numbers and qualitative statements apart;
the borderline reproductions; what is counted apart and never as reproduced), then the sections
of :func:`sections`: the measured results per model and set (:func:`measured_table`), the
borderline rows (:func:`borderline_rows`), the choices made after seeing held-out results
(:func:`chosen_after_held_out`), the test-bed model's largest misses with their reasons
(:func:`largest_misses`) and the results no single test bed reproduces together
(:func:`inconsistent_results`).

Everything here reads the report's fields (``verdict``, ``rule``, ``kind``, ``role``,
``difference %``, ``reason``, ``facts``): the verdicts are :mod:`pqlab.papers.judge`'s, the
reasons are rendered from their facts by it, and no sentence is parsed back.
"""

from __future__ import annotations

import json

import pandas as pd

from ..papers import judge, ledger, records
from .numbers import number_text, ours_digits, paper_text

#: How many of the test-bed model's misses the opening's table lists.
MISSES = 5
#: Verdict columns and sets of :func:`measured_table` (the ledger's).
MEASURED_VERDICTS = (*ledger.VERDICTS, *ledger.APART)
SETS = ledger.SETS
#: Readers' words for the sets of :func:`measured_table` (and the roles of a row).
ROLE_TITLES = ledger.SET_TITLES
#: Readers' words for the model names of the report's ``model`` column.
MODEL_LABELS = {"papers_node": "papers' node", "testbed": "test bed"}
#: Readers' words for the report's ``kind`` column (``none``: a row of ours with no paper row).
KIND_LABELS = {
    "setup": "setup: a parameter of the test, echoed back",
    "result": "result: a measured result of the papers",
    "analysis": "analysis: the papers' own analytic numbers",
    "derived": "derived: a paper number repeated in other units",
    "none": "pqlab only: a number of ours with no paper value, shown for information",
}
#: Readers' words for the units of ``data/paper_values.csv`` that name nothing by themselves.
UNIT_WORDS = {"1": "ratio", "units": "tx units", "unit": "tx unit"}
#: What the words of :data:`UNIT_WORDS` mean (said once, under the tables that use them).
UNIT_NOTE = (
    "ratio: a dimensionless fraction or ratio (0.15 = 15 %); tx units: the transmission queue's"
    " units as the paper's statement uses them, a 512-byte memory unit (particle) for a queue size,"
    " the transmission time of the 128-byte EF packet (0.636 ms on the 2 Mbit/s ATM line) for a"
    " delay or a delay variation."
)
#: Prefix of the facts of the ``mutually_inconsistent`` record naming a result and the hop count
#: its paper value needs: ``needs__<artefact>__<quantity>``.
NEEDS_FACT = "needs__"
#: The fact of that record holding the calibrated test bed's hop count.
FROZEN_FACT = "frozen_hops"


def unit_text(unit) -> str:
    """A report unit as a reader reads it (:data:`UNIT_WORDS`; other units unchanged, "-" for
    none)."""
    text = "" if unit is None else str(unit).strip()
    return UNIT_WORDS.get(text, text)


def label(row: dict) -> str:
    """A row as a reader names it: ``artefact/quantity (model)``."""
    return f"{row['artefact']}/{row['quantity']} ({MODEL_LABELS.get(row['model'], row['model'])})"


# --------------------------------------------------------------------------- counting


#: The papers' measured results of a report table, each with its set
#: (:func:`pqlab.papers.ledger.measured`).
measured_results = ledger.measured
#: Verdicts of the papers' measured results per model and set: the ledger
#: (:func:`pqlab.papers.ledger.counts`).
measured_table = ledger.counts


def apart_counts(table: pd.DataFrame, model: str = records.MODELS[0]) -> dict[str, tuple[int, int]]:
    """(agreeing, rows) of what is counted apart from the results, for one model.

    Keys: ``setup`` (a parameter of the test echoed back), ``arithmetic`` (the papers' own analysis
    and numbers derived in other units), ``not_checkable`` (measured statements that name nothing
    checkable: (0, rows)).
    """
    mine = table[table["model"] == model]
    out = {}
    for name, kinds in (("setup", ("setup",)), ("arithmetic", ("analysis", "derived"))):
        rows = mine[mine["kind"].isin(kinds)]
        out[name] = (int((rows["verdict"] == "reproduced").sum()), len(rows))
    out["not_checkable"] = (
        0,
        int(((mine["kind"] == "result") & (mine["rule"] == "not_checkable")).sum()),
    )
    return out


# --------------------------------------------------------------------------- the opening


def _model_sentence(model: str, counts: pd.DataFrame, n_qualitative: int) -> str:
    mine = counts[counts["model"] == model].set_index("role")
    text = f"{records.MODEL_TITLES[model]} {ledger.sentence(counts, model)}"
    if "qualitative" not in mine.index:
        return text + " and was run on no statement"
    judged = int(mine.loc["qualitative", "total"])
    untested = int(mine.loc["qualitative", "not tested"])
    if not judged:
        return text + f"; its {untested} statements are not tested by this model"
    return text + (
        f" and {int(mine.loc['qualitative', 'reproduced'])} of the {judged} statements"
        + (" it was run on" if judged + untested < n_qualitative else "")
        + (
            f" ({untested} more not tested by this model: an effect it does not produce)"
            if untested
            else ""
        )
    )


def opening(table: pd.DataFrame) -> str:
    """The opening sentences: the measured results per model first, then what is counted apart.

    Short (the site's lead paragraph): the counts per model and set, how many reproductions are
    borderline and how many test-bed choices followed held-out results (both listed by
    :func:`sections`), and what is counted apart, never as reproduced (at most 600 characters:
    the rest is in the sections' tables).
    """
    counts = measured_table(table)
    if counts.empty:
        return "No measured result of the papers was recorded."
    measured = measured_results(table)
    node = measured[measured["model"] == records.MODELS[0]]
    n_numeric = int((node["_set"] != "qualitative").sum())
    n_qualitative = int((node["_set"] == "qualitative").sum())
    parts = [
        f"The papers state {n_numeric + n_qualitative} measured results: {n_numeric} numbers, "
        f"{n_qualitative} statements."
    ]
    models = "; ".join(
        _model_sentence(m, counts, n_qualitative)
        for m in records.MODELS
        if (counts["model"] == m).any()
    )
    parts.append(models[:1].upper() + models[1:] + ".")
    notes = [f"{len(borderline_rows(table))} reproductions are borderline"]
    if (table["model"] == "testbed").any():
        notes.append(f"{len(chosen_after_held_out())} test-bed choices followed held-out results")
    parts.append(", ".join(notes) + ".")  # each listed in a section of its own
    apart = apart_counts(table)
    setup, arithmetic, unchecked = apart["setup"], apart["arithmetic"], apart["not_checkable"]
    parts.append(
        f"Counted apart: {setup[1]} setup echoes ({setup[0]} as stated), "
        f"{arithmetic[1]} checks of the papers' arithmetic ({arithmetic[0]} agree), "
        f"{unchecked[1]} statements nothing can check."
    )
    return " ".join(parts)


# --------------------------------------------------------------------------- the sections


#: Kinds of reason that make a reproduced number rest on a choice (an input or a definition the
#: paper
#: leaves open, a mechanism of the model): such a number is listed with the borderline ones.
NEAR_TIE_KINDS = ("input", "definition", "mechanism")


def borderline_rows(table: pd.DataFrame) -> list[str]:
    """The reproduced measured numbers a referee should look at twice, one line each.

    A number within 10 % but more than 8 % off (:func:`pqlab.papers.judge.borderline`), a position
    reproduced by the position rule, and a number whose reason names what it rests on
    (:data:`NEAR_TIE_KINDS`: the value under an alternative the paper leaves open, a denominator
    raised by a constant lag): the row, its difference and its reason.
    """
    measured = measured_results(table)
    out = []
    for row in measured[
        (measured["verdict"] == "reproduced") & (measured["_set"] != "qualitative")
    ].to_dict("records"):
        percent = row["difference %"]
        why = [f"{percent:+.1f} %"] if pd.notna(percent) else []
        if row["rule"] == "position":
            why.append("by the position rule")
        elif judge.borderline(percent):
            why.append(
                f"within {judge.TOLERANCE_PERCENT:g} % by"
                f" {judge.TOLERANCE_PERCENT - abs(percent):.1f} points"
            )
        rests = row["reason kind"] in NEAR_TIE_KINDS
        if rests or row["rule"] == "position":
            why.append(row["reason"])
        if row["rule"] == "position" or judge.borderline(percent) or rests:
            out.append(f"{label(row)}: " + "; ".join(filter(None, why)))
    return out


def chosen_after_held_out() -> list[str]:
    """The test-bed model's choices made after seeing held-out results
    (:data:`pqlab.papers.ledger.CHOSEN_AFTER_HELD_OUT`)."""
    return list(ledger.CHOSEN_AFTER_HELD_OUT)


def largest_misses(table: pd.DataFrame, n: int = MISSES) -> pd.DataFrame:
    """The test-bed model's ``n`` largest misses among the measured numbers, largest first.

    Returns
    -------
    pandas.DataFrame
        Columns ``result`` (``artefact/quantity``), ``paper``, ``ours``, ``unit`` (as a reader reads
        it, :func:`unit_text`), ``difference %``, ``reason`` (the row's reason, rendered from its
        facts), ``reason kind`` and ``explanation`` (how the value was computed). Empty without
        test-bed rows.
    """
    rows = measured_results(table)
    rows = rows[
        (rows["model"] == "testbed")
        & (rows["verdict"] == "differs")
        & (rows["_set"] != "qualitative")
    ]
    rows = rows.assign(_size=rows["difference %"].abs().fillna(float("inf")))
    rows = rows.sort_values("_size", ascending=False, kind="mergesort").head(n)
    return pd.DataFrame(
        {
            "result": [f"{a}/{q}" for a, q in zip(rows["artefact"], rows["quantity"])],
            "paper": list(rows["paper value"]),
            "ours": list(rows["ours"]),
            "unit": [unit_text(u) for u in rows["unit"]],
            "difference %": list(rows["difference %"]),
            "reason": list(rows["reason"]),
            "reason kind": list(rows["reason kind"]),
            "explanation": list(rows["explanation"]),
        }
    )


def _facts(row: dict) -> dict[str, dict]:
    text = row.get("facts") or ""
    return {f["name"]: f for f in json.loads(text)} if text else {}


def inconsistent_results(table: pd.DataFrame) -> tuple[str, list[str]]:
    """The measured results no single test bed reproduces together: a sentence and a list.

    Read from the fields of the test-bed model's ``mutually_inconsistent`` row: its reason (the
    sentence) and its facts ``needs__<artefact>__<quantity>`` (the store-and-forward hops the
    paper's value of that result needs) and ``frozen_hops`` (the calibrated test bed's).

    Returns
    -------
    tuple of (str, list of str)
        The sentence ("" without that row) and one item per result with the hops it needs,
        fewest first.
    """
    found = table[
        (table["model"] == "testbed") & (table["quantity"] == records.INCONSISTENCY_QUANTITY)
    ]
    if found.empty:
        return "", []
    note = found.iloc[0].to_dict()
    facts = _facts(note)
    frozen = facts.get(FROZEN_FACT)
    bed = table[table["model"] == "testbed"]
    rows = {
        f"{a}__{q}": r for a, q, r in zip(bed["artefact"], bed["quantity"], bed.to_dict("records"))
    }
    items = []
    for name, f in facts.items():
        if not name.startswith(NEEDS_FACT) or name[len(NEEDS_FACT) :] not in rows:
            continue
        row = rows[name[len(NEEDS_FACT) :]]
        with_frozen = (
            "" if frozen is None else f" with {judge.number_text(frozen['value'], frozen['unit'])}"
        )
        items.append(
            (
                f["value"],
                (
                    f"{row['artefact']}/{row['quantity']}: paper {paper_text(row['paper value'])} "
                    f"{unit_text(row['unit'])}, needs {judge.number_text(f['value'], f['unit'])} "
                    f"({row['verdict']}{with_frozen})"
                ),
            )
        )
    sentence = note["reason"] or str(note["explanation"])
    return sentence[:1].upper() + sentence[1:], [text for _, text in sorted(items)]


def ours_text(value, paper) -> str:
    """A number of ours as the report prints it (one digit more than the paper's value)."""
    return number_text(value, ours_digits(paper))


def shape_text(shape_ok) -> str:
    """A qualitative result's check in words, as the report and the site print it next to ours.

    "check holds" for a true ``shape_ok``, "check fails" for a false one, "" where no check was
    recorded (None, NaN or pandas' NA).
    """
    if records.is_missing(shape_ok):
        return ""
    return "check holds" if shape_ok else "check fails"


def sections(table: pd.DataFrame) -> list[dict]:
    """The opening's parts after :func:`opening`, as plain text for the report's Markdown and HTML
    and the site.

    Returns
    -------
    list of dict
        Each ``{"key", "title", "text", "header", "rows", "items"}``: what the section is
        (``measured``, ``borderline``, ``chosen``, ``misses``, ``inconsistent``), its title, a
        sentence
        ("" for none), a table (``header`` list of str and ``rows`` lists of str; empty for
        none) and a bulleted list (``items``, maybe empty).
    """
    parts = []
    counts = measured_table(table)
    if not counts.empty:
        parts.append(
            {
                "key": "measured",
                "title": "Measured results per model",
                "text": "",
                "header": ["model", "measured results", *MEASURED_VERDICTS, "total"],
                "rows": [
                    [
                        records.MODEL_TITLES[r["model"]],
                        ROLE_TITLES[r["role"]],
                        *(str(r[v]) for v in MEASURED_VERDICTS),
                        str(r["total"]),
                    ]
                    for r in counts.to_dict("records")
                ],
                "items": [],
            }
        )
    shaky = borderline_rows(table)
    if shaky:
        parts.append(
            {
                "key": "borderline",
                "title": "Borderline reproductions and near-ties",
                "text": (
                    f"Reproduced numbers that are within {judge.TOLERANCE_PERCENT:g} % by less than"
                    f" {judge.TOLERANCE_PERCENT - judge.BORDERLINE_PERCENT:g} points, reproduced by"
                    " the position rule, or resting on an input, a definition or a mechanism their"
                    " reason names:"
                ),
                "header": [],
                "rows": [],
                "items": shaky,
            }
        )
    chosen = chosen_after_held_out()
    if chosen and (table["model"] == "testbed").any():
        parts.append(
            {
                "key": "chosen",
                "title": "Choices made after seeing held-out results",
                "text": (
                    f"{records.MODEL_TITLES['testbed'].capitalize()} was calibrated on the"
                    " calibration set only, except for these choices:"
                ),
                "header": [],
                "rows": [],
                "items": chosen,
            }
        )
    misses = largest_misses(table)
    if not misses.empty:
        parts.append(
            {
                "key": "misses",
                "title": f"Largest misses of {records.MODEL_TITLES['testbed']}",
                "text": "",
                "header": ["result", "paper", "ours", "unit", "difference", "reason"],
                "rows": [
                    [
                        m["result"],
                        paper_text(m["paper"]),
                        ours_text(m["ours"], m["paper"]),
                        m["unit"],
                        "n/a" if pd.isna(m["difference %"]) else f"{m['difference %']:+.1f} %",
                        (
                            f"{m['reason kind']}: {m['reason']}"
                            if m["reason"]
                            else "no reason recorded"
                        ),
                    ]
                    for m in misses.to_dict("records")
                ],
                "items": [],
            }
        )
    sentence, items = inconsistent_results(table)
    if sentence:
        parts.append(
            {
                "key": "inconsistent",
                "title": "Results no single test bed reproduces together",
                "text": sentence,
                "header": [],
                "rows": [],
                "items": items,
            }
        )
    return parts


def kind_legend() -> list[tuple[str, str]]:
    """(kind as shown, what it means) for every kind of row, ``none`` shown as ``pqlab only``."""
    return [
        ("pqlab only" if k == "none" else k, text.split(": ", 1)[1])
        for k, text in KIND_LABELS.items()
    ]
