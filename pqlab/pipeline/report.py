"""Record reproduced numbers and compare them with the papers' values.

Notebooks call :func:`record` (one number or shape claim) and :func:`record_figure`
(the files written for an artefact); each call appends one JSON line to
``<results_dir>/results.jsonl``. :func:`build_report` joins these records with the
papers' values (``data/paper_values.csv``, read by :func:`load_paper_values`) on
``(artefact, quantity)`` and writes ``report.md``, ``report.html`` and ``report.csv``.

Verdicts
--------
The join is outer: every paper claim and every recorded result gets one row.
If a quantity is recorded more than once, the last record wins. Every verdict is
:mod:`pqlab.papers.judge`'s (its docstring states the rules: ``number`` within 10 %,
``position``, ``qualitative``, ``not_checkable``; the links between claims): this module joins,
the judge decides, the same way for every model. Each row carries the judge's ``rule``, the
record's ``reason`` rendered from its facts (:func:`pqlab.papers.judge.render`), the reason's kind
and its facts as JSON, so nothing downstream reads a verdict or a number out of prose.

Models and kinds
----------------
Every record names the model it was computed under (:data:`MODELS`): ``papers_node``,
the node the papers describe (every artefact), or ``testbed``, the calibrated model of
the whole measured test bed (:mod:`pqlab.papers.testbed`; the measured numeric results only,
each marked ``calibration`` or ``held_out`` in ``role``). The papers' node model is
joined outer with the papers' values as above; another model's rows are its records
joined with the paper rows they name. ``kind`` comes from ``data/paper_values.csv``:
``setup`` (a parameter of the test echoed back), ``result`` (a measured result),
``analysis`` (the papers' own analytic numbers), ``derived`` (a repeat in other units).
:func:`model_summary` counts verdicts per model and kind and :func:`measured_counts` the
measured results reproduced per model and role (the opening's sentences are
:func:`pqlab.pipeline.overview.opening`).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pandas as pd

from .._version import __version__
from ..base import versions

# What the notebooks record and the papers' values, in the papers' layer (re-exported:
# report.record, ...).
from ..papers import judge, ledger
from ..papers.judge import TOLERANCE_PERCENT, VERDICTS, relative_percent  # noqa: F401
from ..papers.records import (  # noqa: F401
    CLAIM_ID_COLUMNS,
    INCONSISTENCY_QUANTITY,
    MODEL_TITLES,
    MODELS,
    PAPER_COLUMNS,
    RESULTS_FILE,
    ROLES,
    cell_text,
    check_paper_values,
    is_missing,
    load_paper_values,
    load_records,
    record,
    record_figure,
)
from . import claim_links, claims_html, html_pages, overview
from .numbers import paper_text, signed_text
from .parameters import overrides_text, provenance_text

#: Columns of the report DataFrame (and ``report.csv``), in order.
REPORT_COLUMNS = (
    "artefact",
    "quantity",
    "model",
    "kind",
    "rule",
    "source",
    "paper value",
    "ours",
    "unit",
    "difference",
    "difference %",
    "verdict",
    "reason kind",
    "reason",
    "explanation",
    "statement",
    "shape_ok",
    "seed",
    "role",
    "facts",
)
#: The column ``report.csv`` gains when a notebook ran with parameters other than its defaults
#: (``pqlab reproduce -p``): the artefact's notebook's, ``name=value, ...`` (empty for the others).
PARAMETERS_COLUMN = "parameters"
#: Explanation of a paper claim no notebook recorded.
NOT_REPRODUCED = "not reproduced yet: no notebook recorded this quantity"


def _results_frame(records: list[dict]) -> pd.DataFrame:
    """The last result per (artefact, quantity, model), in first-recorded order.

    A record without ``model`` (written before models existed) is a papers' node result.
    """
    key = [*CLAIM_ID_COLUMNS, "model"]
    columns = [*key, "value", "unit", "note", "shape_ok", "seed", "role", "reason"]
    rows = [{c: r.get(c) for c in columns} for r in records if r.get("kind", "result") == "result"]
    frame = pd.DataFrame(rows, columns=columns)
    frame["model"] = frame["model"].fillna(MODELS[0])
    order = frame.drop_duplicates(key, keep="first")[key]
    last = frame.drop_duplicates(key, keep="last")
    return order.merge(last, on=key, how="left")


def figure_files(records: list[dict]) -> dict[str, list[str]]:
    """Figure files per artefact, sorted by artefact, each file once."""
    found: dict[str, list[str]] = {}
    for entry in records:
        if entry.get("kind") == "figure":
            files = found.setdefault(entry["artefact"], [])
            files.extend(p for p in entry["paths"] if p not in files)
    return dict(sorted(found.items()))


# --------------------------------------------------------------------------- comparing


def compare(
    paper_values: pd.DataFrame, results: pd.DataFrame, links: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Join paper values and results per model and give each row the judge's verdict.

    Parameters
    ----------
    paper_values : pandas.DataFrame
        As returned by :func:`load_paper_values` (a ``kind`` column is used if present).
    results : pandas.DataFrame
        Columns ``artefact, quantity, value, unit, note, shape_ok, seed`` (and optionally
        ``model``, default ``papers_node``, ``role`` and ``reason``), one row per key and model.
    links : pandas.DataFrame, optional
        Links between claims (:func:`pqlab.pipeline.claim_links.load_claim_links`), applied by
        :func:`pqlab.papers.judge.apply_links`; none by default.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`REPORT_COLUMNS`, sorted by artefact; within one, paper rows in
        file order, then results with no paper row in recorded order; the papers' node
        model's row before the test bed's. Papers' node rows: the outer join (every paper
        claim); other models' rows: their results only.

    Raises
    ------
    ValueError
        If a quantity's recorded unit differs from the paper's.
    """
    results = results.copy()
    if "model" not in results.columns:
        results["model"] = MODELS[0]
    results["model"] = results["model"].fillna(MODELS[0])
    for column in ("role", "reason"):
        if column not in results.columns:
            results[column] = None
    unknown = sorted(set(results["model"]) - set(MODELS))
    if unknown:
        raise ValueError(f"model must be one of {', '.join(map(repr, MODELS))}, got {unknown}")
    kind = paper_values["kind"].map(cell_text) if "kind" in paper_values.columns else ""
    rule = paper_values["rule"].map(cell_text) if "rule" in paper_values.columns else ""
    paper = (
        paper_values[list(PAPER_COLUMNS)]
        .rename(columns={"value": "paper value"})
        .assign(kind=kind, rule=rule)
    )
    paper = paper.assign(_paper=range(len(paper)))
    ours = results.rename(columns={"value": "ours", "unit": "our unit", "note": "explanation"})
    ours = ours.assign(_ours=range(len(ours)))
    parts = []
    for rank, model in enumerate(MODELS):
        mine = ours[ours["model"] == model]
        if model != MODELS[0] and mine.empty:
            continue
        how = "outer" if model == MODELS[0] else "right"
        part = paper.merge(mine, on=CLAIM_ID_COLUMNS, how=how)
        part["model"], part["_model"] = model, rank
        parts.append(part)
    rows = pd.concat(parts, ignore_index=True)
    _check_units(rows)
    has_paper, has_ours = rows["_paper"].notna(), rows["_ours"].notna()
    rows["unit"] = rows["unit"].where(has_paper, rows["our unit"]).fillna("")
    rows["ours"] = pd.to_numeric(rows["ours"], errors="coerce")
    rows["difference"] = rows["ours"] - rows["paper value"]
    rows["difference %"] = [
        relative_percent(o, p) for o, p in zip(rows["ours"], rows["paper value"])
    ]
    rows["shape_ok"] = [None if is_missing(v) else bool(v) for v in rows["shape_ok"]]
    rows["reason"] = [v if isinstance(v, dict) else None for v in rows["reason"]]
    rows["rule"] = [
        judge.rule_of(r, p) if h else ""
        for r, p, h in zip(rows["rule"], rows["paper value"], has_paper)
    ]
    rows["verdict"] = [
        judge.verdict(
            rule,
            has_paper=hp,
            has_record=ho,
            paper=p,
            ours=o,
            shape_ok=ok,
            first_after=judge.fact_value(why, "first_after"),
            effect=judge.fact_value(why, judge.EFFECT_FACT),
        )
        for rule, hp, ho, p, o, ok, why in zip(
            rows["rule"],
            has_paper,
            has_ours,
            rows["paper value"],
            rows["ours"],
            rows["shape_ok"],
            rows["reason"],
        )
    ]
    rows["explanation"] = rows["explanation"].where(has_ours, NOT_REPRODUCED).fillna("")
    rows["seed"] = pd.to_numeric(rows["seed"]).astype("Int64")
    if links is not None:
        rows = judge.apply_links(rows.reset_index(drop=True), links)
    rows = _with_reason_columns(rows)
    for column in ("source", "statement", "kind", "role"):
        rows[column] = rows[column].map(cell_text)
    rows["_rank"] = rows["_paper"].fillna(len(paper) + rows["_ours"])
    rows = rows.sort_values(["artefact", "_rank", "_model"], kind="mergesort")
    return rows[list(REPORT_COLUMNS)].reset_index(drop=True)


def _check_units(rows: pd.DataFrame) -> None:
    both = rows[rows["_paper"].notna() & rows["_ours"].notna()]
    clash = both[both["unit"].fillna("").str.strip() != both["our unit"].fillna("").str.strip()]
    if not clash.empty:
        pairs = "; ".join(
            f"{a}/{q}: paper {p!r}, recorded {o!r}"
            for a, q, p, o in zip(clash.artefact, clash.quantity, clash["unit"], clash["our unit"])
        )
        raise ValueError(f"recorded units differ from the paper's: {pairs}")


def _facts_json(facts: list[dict]) -> str:
    """A reason's facts as JSON, each value to :data:`DIGEST_DIGITS` significant digits (the
    report's
    precision: a last-digit difference of another numpy does not change the text)."""
    return json.dumps(
        [{**f, "value": float(f"{f['value']:.{DIGEST_DIGITS}g}")} for f in facts], sort_keys=True
    )


def _with_reason_columns(rows: pd.DataFrame) -> pd.DataFrame:
    """``reason kind``, ``reason`` (rendered from the facts) and ``facts`` (JSON) from each row's
    reason record."""
    rows = rows.copy()
    rows["reason kind"] = [r["kind"] if r else "" for r in rows["reason"]]
    rows["facts"] = [_facts_json(r["facts"]) if r else "" for r in rows["reason"]]
    rows["reason"] = [judge.render(r) for r in rows["reason"]]
    return rows


# --------------------------------------------------------------------------- writing


#: The fields of a claim record (:func:`pqlab.papers.kit.claim`) the report reads.
CLAIM_FIELDS = (
    "artefact",
    "quantity",
    "model",
    "value",
    "unit",
    "note",
    "shape_ok",
    "seed",
    "role",
    "reason",
)


def judge_claims(claims, paper_values: pd.DataFrame | None = None) -> pd.DataFrame:
    """Claim records judged as the report judges them: :func:`compare` with the papers' values and
    the links.

    What :func:`build_report` gives for records written by :func:`pqlab.papers.kit.record_claims`,
    without the files: a check of an artefact's claims in one call.

    Parameters
    ----------
    claims : iterable of dict
        Claim records (:func:`pqlab.papers.kit.claim`); a missing field is None (``model`` then
        ``papers_node``).
    paper_values : pandas.DataFrame, optional
        Default :func:`load_paper_values`.

    Returns
    -------
    pandas.DataFrame
        As :func:`compare`.
    """
    results = pd.DataFrame(
        [{c: r.get(c) for c in CLAIM_FIELDS} for r in claims], columns=list(CLAIM_FIELDS)
    )
    paper = load_paper_values() if paper_values is None else paper_values
    return compare(paper, results, claim_links.load_claim_links())


def section_artefacts(results_dir) -> dict[str, set[str]]:
    """Section (notebook) -> the artefact ids its records name, for every section folder of
    ``results_dir``."""
    found = {}
    for section in (
        sorted(p for p in Path(results_dir).iterdir() if p.is_dir())
        if Path(results_dir).is_dir()
        else []
    ):
        try:
            records = load_records(section)
        except ValueError:
            records = []
        found[section.name] = {r["artefact"] for r in records if "artefact" in r}
    return found


def build_report(results_dir, out_dir, paper_values=None, parameters=None) -> pd.DataFrame:
    """Compare the recorded results with the papers' values and write the report.

    Parameters
    ----------
    results_dir : str or os.PathLike
        Folder holding ``results.jsonl`` (an absent file means no results yet).
    out_dir : str or os.PathLike
        Where ``report.md``, ``report.html`` and ``report.csv`` are written (created).
    paper_values : pandas.DataFrame, str or os.PathLike, optional
        The papers' values, or the CSV to read them from; default
        ``data/paper_values.csv``.
    parameters : dict, optional
        Notebook -> {parameter: value}: the notebooks that ran with parameters other than their
        defaults (:func:`pqlab.pipeline.parameters.resolve`), named in the report's provenance
        (:func:`environment_lines`) and, per artefact of the section ``results_dir/<notebook>``, in
        the column :data:`PARAMETERS_COLUMN`; none by default (the report is then as without them).

    Returns
    -------
    pandas.DataFrame
        The report, columns :data:`REPORT_COLUMNS` (see the module docstring for the
        verdict rules), and :data:`PARAMETERS_COLUMN` when ``parameters`` names any.

    Raises
    ------
    ValueError
        If an input file or column is missing, or units disagree.
    """
    if paper_values is None:
        paper_values = load_paper_values()
    elif isinstance(paper_values, pd.DataFrame):
        paper_values = check_paper_values(paper_values, "paper_values")
    else:
        paper_values = load_paper_values(paper_values)
    records = load_records(results_dir)
    table = compare(paper_values, _results_frame(records), claim_links.load_claim_links())
    parameters = {notebook: values for notebook, values in (parameters or {}).items() if values}
    if parameters:
        owner = {
            a: notebook for notebook, ids in section_artefacts(results_dir).items() for a in ids
        }
        table[PARAMETERS_COLUMN] = [
            overrides_text(parameters.get(owner.get(a, ""), {})) for a in table["artefact"]
        ]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    figures = {a: [_link(p, out) for p in files] for a, files in figure_files(records).items()}
    (out / "report.md").write_text(to_markdown(table, figures, parameters), encoding="utf-8")
    (out / "report.html").write_text(to_html(table, figures, parameters), encoding="utf-8")
    table.to_csv(out / "report.csv", index=False)
    return table


#: Columns of :func:`verdict_summary` counting what is not a measured result: setup echoes (a test
#: parameter read back) and the papers' own analysis (and numbers derived in other units).
SETUP_COLUMNS = ("setup echoed", "setup not echoed")
ANALYSIS_COLUMNS = ("analysis reproduced", "analysis not reproduced")
#: The kinds of row counted apart from the measured results, and the group each is counted in.
APART = {"setup": "setup", "analysis": "analysis", "derived": "analysis"}
_APART_COLUMNS = {"setup": SETUP_COLUMNS, "analysis": ANALYSIS_COLUMNS}


def verdict_summary(table: pd.DataFrame, model: str = MODELS[0]) -> pd.DataFrame:
    """Count verdicts per artefact of one model's rows (default the papers' node), with a ``total``
    row.

    Measured results and the rest are counted apart: the :data:`VERDICTS` columns count the
    measured results (``kind`` ``result``) and the rows with no paper row (``pqlab only``);
    :data:`SETUP_COLUMNS` count the ``setup`` rows and :data:`ANALYSIS_COLUMNS` the ``analysis``
    and ``derived`` rows, each reproduced or not.
    """
    if "model" in table.columns:
        table = table[table["model"] == model]
    kind = table["kind"] if "kind" in table.columns else pd.Series("", index=table.index)
    apart = kind.isin(list(APART))
    rest = table[~apart]
    artefacts = sorted(set(table["artefact"]))
    counts = pd.crosstab(rest["artefact"], rest["verdict"]).reindex(
        columns=list(VERDICTS), fill_value=0
    )
    counts = counts.reindex(artefacts, fill_value=0)
    group = kind.map(lambda k: APART.get(k, ""))
    for name, columns in _APART_COLUMNS.items():
        rows = table[group == name]
        ok = rows["verdict"] == "reproduced"
        counts[columns[0]] = ok.groupby(rows["artefact"]).sum().reindex(artefacts, fill_value=0)
        counts[columns[1]] = (~ok).groupby(rows["artefact"]).sum().reindex(artefacts, fill_value=0)
    counts = counts.fillna(0)
    counts.loc["total"] = counts.sum()
    counts.columns.name = None
    counts.index.name = None
    return counts.astype(int)


def _summary_cells(summary: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """:func:`verdict_summary` as text cells: the verdict counts, then setup (echoed) and analysis
    (reproduced)
    as "agreeing of rows" (short headers, as on the site: the table fits an 800-px page)."""
    pairs = {"setup": SETUP_COLUMNS, "analysis": ANALYSIS_COLUMNS}
    header = ["artefact", *VERDICTS, *pairs]
    rows = []
    for artefact, counts in summary.iterrows():
        apart = []
        for ok_column, not_column in pairs.values():
            n = int(counts[ok_column]) + int(counts[not_column])
            apart.append(f"{int(counts[ok_column])} of {n}" if n else "")
        rows.append([artefact, *(str(int(counts[v])) for v in VERDICTS), *apart])
    return header, rows


def model_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Count verdicts per model and kind (``setup``, ``result``, ...; ``none`` for rows with no
    paper row).

    Index ``(model, kind)`` in :data:`MODELS` order; columns in :data:`VERDICTS` order.
    """
    kinds = table["kind"].where(table["kind"] != "", "none")
    counts = pd.crosstab([table["model"], kinds], table["verdict"]).reindex(
        columns=list(VERDICTS), fill_value=0
    )
    order = {m: i for i, m in enumerate(MODELS)}
    counts = counts.sort_index(
        key=lambda index: index.map(order) if index.name == "model" else index
    )
    counts.columns.name = None
    return counts.astype(int)


def measured_counts(table: pd.DataFrame) -> pd.DataFrame:
    """Per model and role: the papers' measured numbers reproduced, from the ledger
    (:mod:`pqlab.papers.ledger`).

    Columns ``model, role`` (each standing the model's numbers have,
    :data:`pqlab.papers.ledger.NUMBER_SETS`, and ``all``: every number), ``within`` (reproduced by
    the judge), ``total`` (the not checkable counted apart, in no total).
    """
    counted = ledger.counts(table)
    out = []
    for model in dict.fromkeys(counted["model"]):
        found = ledger.numbers(counted, model)
        for name in (*(s for s in ledger.NUMBER_SETS if s in found), "all"):
            within, total = found["numbers" if name == "all" else name]
            out.append({"model": model, "role": name, "within": within, "total": total})
    return pd.DataFrame(out, columns=["model", "role", "within", "total"])


def _link(path: str, out: Path) -> str:
    return Path(os.path.relpath(path, out.resolve())).as_posix()


def _display_rows(table: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """The report as text cells: the one formatting used by Markdown and HTML."""
    header = [
        "artefact",
        "claim",
        "model",
        "kind",
        "rule",
        "source",
        "paper",
        "ours",
        "unit",
        "difference",
        "verdict",
        "reason",
        "explanation",
        "statement",
    ]
    rows = [
        [
            r["artefact"],
            r["quantity"],
            r["model"],
            r["kind"],
            r["rule"],
            r["source"],
            paper_text(r["paper value"]),
            _ours_text(r["ours"], r["shape_ok"], r["paper value"]),
            _unit_text(r["unit"]),
            _difference_text(r["difference"], r["difference %"]),
            r["verdict"],
            f"{r['reason kind']}: {r['reason']}" if r["reason"] else "",
            r["explanation"],
            r["statement"],
        ]
        for r in table.to_dict("records")
    ]
    return header, rows


def _unit_text(unit) -> str:
    """A unit as the report shows it: named (``pqlab.pipeline.overview.unit_text``: "1" is
    "ratio", ...)."""
    return overview.unit_text(unit)


def _ours_text(value, shape_ok, paper=None) -> str:
    shape = overview.shape_text(shape_ok)
    number = overview.ours_text(value, paper)
    return " ".join(
        filter(None, [number, f"({shape})" if shape and not is_missing(value) else shape])
    )


def _difference_text(difference, percent) -> str:
    if is_missing(difference):
        return ""
    relative = "n/a" if is_missing(percent) else f"{percent:+.1f} %"
    return f"{signed_text(difference)} ({relative})"


#: Significant digits of ``ours`` in :func:`results_digest`: past float noise (a last-digit
#: difference of another numpy), short of any real change (the golden test's 1e-9 tolerance).
DIGEST_DIGITS = 9


def results_digest(table: pd.DataFrame) -> str:
    """sha256 (hex) of the report's numbers: every row's artefact, claim, model and ours at 9
    significant digits.

    Two runs with the same digest have the same numbers to 9 significant digits; the report
    and the site print its first 12 hex digits next to the environment.
    """
    rows = sorted(
        "\t".join(
            [
                str(r["artefact"]),
                str(r["quantity"]),
                str(r["model"]),
                "" if is_missing(r["ours"]) else f"{float(r['ours']):.{DIGEST_DIGITS}g}",
            ]
        )
        for r in table.to_dict("records")
    )
    return hashlib.sha256("\n".join(rows).encode()).hexdigest()


def environment_lines(table: pd.DataFrame, parameters: dict | None = None) -> list[str]:
    """The report's environment block (:func:`pqlab.base.versions.environment_text`
    with :func:`results_digest`)
    and, when ``parameters`` names notebooks run with parameters other than their defaults, a line
    naming them (:func:`pqlab.pipeline.parameters.provenance_text`)."""
    lines = versions.environment_text(results_digest(table))
    provenance = provenance_text(parameters or {})
    return [*lines, provenance] if provenance else lines


def table_key(table: pd.DataFrame) -> str:
    """sha256 (hex) of a report table's whole content: its columns, index and every cell."""
    digest = hashlib.sha256("\t".join(map(str, table.columns)).encode())
    digest.update(pd.util.hash_pandas_object(table, index=True).to_numpy().tobytes())
    return digest.hexdigest()


_OPENINGS: dict[str, tuple] = {}


def opening_parts(table: pd.DataFrame, parameters: dict | None = None) -> tuple[list, str, list]:
    """What the report (Markdown and HTML) and the site's front page open with: the environment
    lines (:func:`environment_lines`), the opening paragraph
    (:func:`pqlab.pipeline.overview.opening`)
    and the sections (:func:`pqlab.pipeline.overview.sections`).

    Computed once per table content and parameters, and kept for the last one: a build writes
    the three pages from one table.
    """
    key = table_key(table) + json.dumps(parameters or {}, sort_keys=True, default=str)
    if key not in _OPENINGS:
        _OPENINGS.clear()
        _OPENINGS[key] = (
            environment_lines(table, parameters),
            overview.opening(table),
            overview.sections(table),
        )
    return _OPENINGS[key]


def title() -> str:
    """The title of the report and of the site's index page."""
    return f"pqlab {__version__}: the papers' values and ours"


def rules_parts() -> list[tuple[str, bool]]:
    """The verdict rules (:mod:`pqlab.papers.judge`) in a few sentences, as (text, is a verdict's
    name) parts."""
    return [
        (
            (
                "One judge decides every row by the rule of the paper's statement, the same for"
                " every model. A number is "
            ),
            False,
        ),
        ("reproduced", True),
        (f" within {judge.TOLERANCE_PERCENT:g} % of the paper's, else it ", False),
        ("differs", True),
        (
            (
                "; a number has no partial credit (its shape, where the paper states one, is a"
                " claim of its own). A position (a payload where a curve drops) is reproduced when"
                " the paper's payload lies in our drop interval (the same particle boundary, within"
                " one sweep step); a qualitative statement by the artefact's computed check (a"
                " trend only when every step has the claimed sign); a claim is never reproduced"
                " while a claim it implies differs. "
            ),
            False,
        ),
        ("not checkable", True),
        (
            (
                ": the statement names nothing a simulation can check (a method, a diagram, a"
                " garbled or unstated value, a definition the paper leaves open), counted apart; "
            ),
            False,
        ),
        ("not tested", True),
        (
            (
                ": a statement about an effect the model does not produce (a loss statement when it"
                " loses nothing), counted apart; "
            ),
            False,
        ),
        ("missing", True),
        (": no notebook recorded the claim; ", False),
        ("pqlab only", True),
        (
            (
                ": our numbers with no paper value. Every measured result that differs gives a"
                " reason with numbers: a mechanism and its size, a bound no model of the family can"
                " pass, a definition or an input the paper leaves open, or the exact arithmetic."
                " Setup echoes and the papers' own arithmetic are counted apart from measured"
                " results."
            ),
            False,
        ),
    ]


def rules_text(em) -> str:
    """The verdict rules in one sentence (:func:`rules_parts`); ``em`` marks up a verdict's name."""
    return "".join(em(text) if emphasised else text for text, emphasised in rules_parts())


def to_markdown(
    table: pd.DataFrame, figures: dict[str, list[str]], parameters: dict | None = None
) -> str:
    """The report as Markdown: header, verdict counts, the claims table, figure links.

    Parameters
    ----------
    table : pandas.DataFrame
        As returned by :func:`compare`.
    figures : dict of str to list of str
        Figure links per artefact, relative to the report's folder.
    parameters : dict, optional
        Notebooks run with parameters other than their defaults (see :func:`build_report`).
    """
    header, rows = _display_rows(table)
    summary = verdict_summary(table)
    by_model = model_summary(table)
    lines = [f"# {title()}", ""]
    environment, opening, sections = opening_parts(table, parameters)
    lines += [part for line in environment for part in (line, "")]
    lines += [opening, ""]
    for part in sections:
        lines += [f"## {part['title']}", ""] + ([part["text"], ""] if part["text"] else [])
        lines += (_md_table(part["header"], part["rows"]) + [""]) if part["rows"] else []
        lines += ([f"- {_md_cell(i)}" for i in part["items"]] + [""]) if part["items"] else []
    lines += ["## How to read the verdicts", "", rules_text(lambda v: f"*{v}*"), ""]
    lines += [f"- *{k}*: {text}" for k, text in overview.kind_legend()]
    lines += ["", f"Units: {overview.UNIT_NOTE}", "", "## Verdicts per model and kind", ""]
    lines += _md_table(["model", "kind", *by_model.columns], kind_rows(by_model))
    lines += ["", f"## Verdicts per artefact ({MODEL_TITLES[MODELS[0]]})", ""]
    lines += _md_table(*_summary_cells(summary))
    lines += ["", "## Claims", ""]
    lines += _md_table(header, rows)
    lines += ["", "## Figures", ""]
    lines += [
        f"- **{_md_cell(a)}**: " + ", ".join(f"[{_md_cell(Path(p).name)}](<{p}>)" for p in files)
        for a, files in figures.items()
    ] or ["No figures recorded."]
    return "\n".join(lines) + "\n"


def kind_rows(by_model: pd.DataFrame) -> list[list[str]]:
    """Rows of :func:`model_summary` as text, the kind ``none`` (no paper row) shown as ``pqlab
    only``."""
    return [
        [m, "pqlab only" if k == "none" else k, *map(str, v)] for (m, k), v in by_model.iterrows()
    ]


def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(map(_md_cell, header)) + " |", "|" + " --- |" * len(header)]
    out += ["| " + " | ".join(map(_md_cell, row)) + " |" for row in rows]
    return out


def _md_cell(text) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def to_html(
    table: pd.DataFrame, figures: dict[str, list[str]], parameters: dict | None = None
) -> str:
    """The report as a standalone HTML page, same content as :func:`to_markdown` (the claims laid
    out as
    on the site: a table per artefact); the template ``report.html``
    (:mod:`pqlab.pipeline.html_pages`).
    """
    by_model = model_summary(table)
    summary_header, summary_rows = _summary_cells(verdict_summary(table))
    environment, opening, sections = opening_parts(table, parameters)
    return html_pages.render(
        "report.html",
        title=title(),
        style=html_pages.style_markup(),
        environment_lines=environment,
        opening=opening,
        sections=sections,
        rule_parts=rules_parts(),
        kind_legend=overview.kind_legend(),
        unit_note=overview.UNIT_NOTE,
        kind_header=["model", "kind", *by_model.columns],
        kind_rows=kind_rows(by_model),
        model_title=MODEL_TITLES[MODELS[0]],
        summary_header=summary_header,
        summary_rows=summary_rows,
        claims=[
            (artefact, claims_html.claim_groups(rows.to_dict("records")))
            for artefact, rows in table.groupby("artefact", sort=False)
        ],
        figures=[
            (artefact, [(link, Path(link).name, link.endswith((".png", ".svg"))) for link in files])
            for artefact, files in figures.items()
        ],
    )
