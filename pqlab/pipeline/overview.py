"""What a reader reads first: the report's and the site's opening, computed from the report table.

The opening of ``report.md``/``report.html`` and of the site's index is a few sentences
(:func:`opening`), one table of the papers' numeric measured results per model and role
(:func:`measured_table`: reproduced, shape only, differs; calibration and held out), the
test-bed model's largest misses as a short table (:func:`largest_misses`: result, paper,
ours, difference in percent, the computed reason) and the results no single test bed
reproduces together as a list (:func:`inconsistent_results`). Nothing here computes a number
that :mod:`pqlab.pipeline.report` does not: these functions select, count and lay out its rows.
"""

from __future__ import annotations

import re

import pandas as pd

from .numbers import number_text, ours_digits, paper_text
from ..papers import judge, records

#: How many of the test-bed model's misses the opening's table lists.
MISSES = 5
#: Verdict columns of :func:`measured_table` (a measured result is never ``pqlab only``).
MEASURED_VERDICTS = ("reproduced", "shape only", "differs", "missing")
#: Readers' words for the roles of :func:`measured_table`.
ROLE_TITLES = {"calibration": "calibration set", "held_out": "held out", "all": "all"}
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
UNIT_NOTE = ("ratio: a dimensionless fraction or ratio (0.15 = 15 %); tx units: the transmission "
             "queue's units as the paper's statement uses them, a 512-byte memory unit (particle) for a queue "
             "size, the transmission time of the 128-byte EF packet (0.636 ms on the 2 Mbit/s ATM line) for a "
             "delay or a delay variation.")

#: In the ``mutually_inconsistent`` note: "... would need (<tables>): <quantity> <hops>; ...: <verdict>".
_NEEDED = re.compile(r"would need \((?P<tables>[^)]*)\): (?P<pairs>.*?): (?P<verdict>[^:]*)$")
_PAIR = re.compile(r"(?P<quantity>[A-Za-z0-9_]+) (?P<hops>[0-9.]+|nan)")
_PATH_INSENSITIVE = "the hop count does not move it"
_FROZEN = re.compile(r"\(frozen: (?P<hops>[0-9]+)\)")


def unit_text(unit) -> str:
    """A report unit as a reader reads it (:data:`UNIT_WORDS`; other units unchanged, "-" for none)."""
    text = "" if unit is None else str(unit).strip()
    return UNIT_WORDS.get(text, text)


def measured_results(table: pd.DataFrame) -> pd.DataFrame:
    """The papers' numeric measured results of the report, each with the role its quantity has in the test-bed rows.

    Rows with ``kind == "result"`` and a paper value; column ``_role`` is the role (``calibration``,
    ``held_out``) the test-bed row of the same artefact and quantity has, "" where none, so a
    papers' node row is counted in the same set as its test-bed row (:func:`measured_table`,
    :func:`pqlab.pipeline.report.measured_counts`).
    """
    numeric = table[(table["kind"] == "result") & table["paper value"].notna()]
    roles = {(a, q): r for a, q, r in zip(numeric["artefact"], numeric["quantity"], numeric["role"]) if r}
    return numeric.assign(_role=[roles.get((a, q), "") for a, q in zip(numeric["artefact"], numeric["quantity"])])


def measured_table(table: pd.DataFrame) -> pd.DataFrame:
    """Verdicts of the papers' numeric measured results per model and role.

    Parameters
    ----------
    table : pandas.DataFrame
        The report (:func:`pqlab.pipeline.report.compare`).

    Returns
    -------
    pandas.DataFrame
        One row per model (:data:`pqlab.papers.records.MODELS` order) and role (``calibration``,
        ``held_out``, ``all``; a model without roles has its ``all`` row only when no
        quantity has a role), columns ``model, role``, the counts of
        :data:`MEASURED_VERDICTS` and ``total``.
    """
    measured = measured_results(table)
    has_roles = (measured["_role"] != "").any()
    rows = []
    for model in records.MODELS:
        mine = measured[measured["model"] == model]
        if mine.empty:
            continue
        for role in ((*records.ROLES, "all") if has_roles else ("all",)):
            chosen = mine if role == "all" else mine[mine["_role"] == role]
            counts = chosen["verdict"].value_counts()
            rows.append({"model": model, "role": role,
                         **{v: int(counts.get(v, 0)) for v in MEASURED_VERDICTS}, "total": len(chosen)})
    return pd.DataFrame(rows, columns=["model", "role", *MEASURED_VERDICTS, "total"])


def opening(table: pd.DataFrame) -> str:
    """The opening sentences: how many measured results each model reproduces, in two or three sentences."""
    counts = measured_table(table)
    if counts.empty:
        return "No numeric measured result of the papers was recorded."
    every = counts[counts["role"] == "all"].set_index("model")
    total = int(every["total"].max())
    parts = [f"Of the papers' {total} numeric measured results, "
             + " and ".join(f"{records.MODEL_TITLES[m]} reproduces {int(every.loc[m, 'reproduced'])} within "
                            f"{judge.TOLERANCE_PERCENT:g} %" for m in every.index) + "."]
    bed = counts[(counts["model"] == "testbed") & counts["role"].isin(records.ROLES)].set_index("role")
    if len(bed) == len(records.ROLES):
        parts.append(f"The test-bed model was calibrated on {int(bed.loc['calibration', 'total'])} of them "
                     f"({int(bed.loc['calibration', 'reproduced'])} reproduced) and predicts the other "
                     f"{int(bed.loc['held_out', 'total'])} ({int(bed.loc['held_out', 'reproduced'])} reproduced).")
    node = table[table["model"] == records.MODELS[0]]
    claims = node[node["verdict"] != "pqlab only"]
    parts.append(f"Over all {len(claims)} statements of the papers (setups, analysis, measured and qualitative "
                 f"results), the papers' node model reproduces {int((claims['verdict'] == 'reproduced').sum())}.")
    return " ".join(parts)


def _reason(explanation: str) -> str:
    """The conclusion of a computed explanation: its last ``; ``-separated clause."""
    return explanation.rsplit("; ", 1)[-1].strip()


def largest_misses(table: pd.DataFrame, n: int = MISSES) -> pd.DataFrame:
    """The test-bed model's ``n`` largest misses among the measured results, largest first.

    Returns
    -------
    pandas.DataFrame
        Columns ``result`` (``artefact/quantity``), ``paper``, ``ours``, ``unit`` (as a
        reader reads it, :func:`unit_text`), ``difference %``, ``reason`` (the conclusion of
        the row's explanation) and ``explanation`` (all of it). Empty without test-bed rows.
    """
    rows = measured_results(table)
    rows = rows[(rows["model"] == "testbed") & (rows["verdict"] != "reproduced")]
    rows = rows.assign(_size=rows["difference %"].abs().fillna(float("inf")))
    rows = rows.sort_values("_size", ascending=False, kind="mergesort").head(n)
    return pd.DataFrame({
        "result": [f"{a}/{q}" for a, q in zip(rows["artefact"], rows["quantity"])],
        "paper": list(rows["paper value"]), "ours": list(rows["ours"]), "unit": [unit_text(u) for u in rows["unit"]],
        "difference %": list(rows["difference %"]), "reason": [_reason(e) for e in rows["explanation"]],
        "explanation": list(rows["explanation"]),
    })


def inconsistent_results(table: pd.DataFrame) -> tuple[str, list[str]]:
    """The measured results no single test bed reproduces together: a sentence and a list.

    Read from the test-bed model's ``mutually_inconsistent`` row (its computed note names, per
    result of the tables whose delays grow with the hop count, the number of store-and-forward
    hops the paper's value needs) and from the test-bed rows (the misses the hop count does not
    move).

    Returns
    -------
    tuple of (str, list of str)
        The sentence ("" without that row) and one item per result with the hops it needs,
        fewest first (empty if the note does not list them).
    """
    note = table[(table["model"] == "testbed") & (table["quantity"] == records.INCONSISTENCY_QUANTITY)]
    if note.empty:
        return "", []
    text = str(note["explanation"].iloc[0])
    found = _NEEDED.search(text)
    if found is None:
        return text, []
    bed = table[(table["model"] == "testbed") & (table["kind"] == "result")]
    rows = {(a, q): r for a, q, r in zip(bed["artefact"], bed["quantity"], bed.to_dict("records"))}
    groups = [g.strip() for g in found.group("tables").split(",")]
    items = []
    for quantity, hops in _PAIR.findall(found.group("pairs")):
        row = next((rows[(g, quantity)] for g in groups if (g, quantity) in rows), None)
        if row is None:
            continue
        items.append((float(hops), f"{row['artefact']}/{quantity}: paper {paper_text(row['paper value'])} "
                      f"{unit_text(row['unit'])}, needs {hops} store-and-forward hops ({row['verdict']} with "
                      f"{_frozen(bed)})"))
    fixed = sum(_PATH_INSENSITIVE in str(e) for e in bed["explanation"])
    sentence = (f"The papers' values of these results each need a different number of store-and-forward hops "
                f"downstream: {found.group('verdict')}. {fixed} other misses do not move with the hop count at all "
                "(their cause is in the node or the traffic, not the path).")
    return sentence, [text for _, text in sorted(items)]


def _frozen(bed: pd.DataFrame) -> str:
    """The calibrated test bed's hop count, as its explanations state it."""
    counts = sorted({m.group("hops") for e in bed["explanation"] for m in _FROZEN.finditer(str(e))})
    return f"{' or '.join(counts)} hop{'s' if counts != ['1'] else ''}" if counts else "the calibrated hop count"


def ours_text(value, paper) -> str:
    """A number of ours as the report prints it (one digit more than the paper's value)."""
    return number_text(value, ours_digits(paper))


def shape_text(shape_ok) -> str:
    """A result's shape (or mechanism) check in words, as the report and the site print it next to ours.

    "shape holds" for a true ``shape_ok``, "shape fails" for a false one, "" where no check was
    recorded (None, NaN or pandas' NA).
    """
    if records.is_missing(shape_ok):
        return ""
    return "shape holds" if shape_ok else "shape fails"


def sections(table: pd.DataFrame) -> list[dict]:
    """The opening's parts after :func:`opening`, as plain text for the report's Markdown and HTML.

    Returns
    -------
    list of dict
        Each ``{"title", "text", "header", "rows", "items"}``: a section title, a sentence
        ("" for none), a table (``header`` list of str and ``rows`` lists of str; empty for
        none) and a bulleted list (``items``, maybe empty).
    """
    parts = []
    counts = measured_table(table)
    if not counts.empty:
        parts.append({"title": "Measured results per model", "text": "",
                      "header": ["model", "measured results", *MEASURED_VERDICTS, "total"],
                      "rows": [[records.MODEL_TITLES[r["model"]], ROLE_TITLES[r["role"]],
                                *(str(r[v]) for v in MEASURED_VERDICTS), str(r["total"])]
                               for r in counts.to_dict("records")], "items": []})
    misses = largest_misses(table)
    if not misses.empty:
        parts.append({"title": f"Largest misses of {records.MODEL_TITLES['testbed']}", "text": "",
                      "header": ["result", "paper", "ours", "unit", "difference", "reason"],
                      "rows": [[m["result"], paper_text(m["paper"]), ours_text(m["ours"], m["paper"]), m["unit"],
                                "n/a" if pd.isna(m["difference %"]) else f"{m['difference %']:+.1f} %", m["reason"]]
                               for m in misses.to_dict("records")], "items": []})
    sentence, items = inconsistent_results(table)
    if sentence:
        parts.append({"title": "Results no single test bed reproduces together", "text": sentence,
                      "header": [], "rows": [], "items": items})
    return parts


def kind_legend() -> list[tuple[str, str]]:
    """(kind as shown, what it means) for every kind of row, ``none`` shown as ``pqlab only``."""
    return [("pqlab only" if k == "none" else k, text.split(": ", 1)[1]) for k, text in KIND_LABELS.items()]
