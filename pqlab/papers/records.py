"""What the notebooks record, and the papers' values they are compared with.

Notebooks call :func:`record` (one number or shape claim) and :func:`record_figure` (the files
written for an artefact); each call appends one JSON line to ``<results_dir>/results.jsonl``
(:data:`RESULTS_FILE`, read back by :func:`load_records`). The papers' values are
``data/paper_values.csv`` (:func:`load_paper_values`). This is the format both sides share:
the papers' artefacts write it, the report (:mod:`pqlab.pipeline.report`, which re-exports
these names) joins them and :mod:`pqlab.papers.judge` judges them.
"""

from __future__ import annotations

import functools
import json
import math
import numbers
import os
from pathlib import Path

import pandas as pd

from .._version import __version__
from ..base import locations
from ..base._validate import check_choice
from . import judge

#: The results file inside a results folder.
RESULTS_FILE = "results.jsonl"
#: Columns ``data/paper_values.csv`` must have.
PAPER_COLUMNS = ("artefact", "quantity", "value", "unit", "source", "statement")
#: The models a result can be computed under: the papers' node (every artefact) and the
#: calibrated test-bed model (:mod:`pqlab.papers.testbed`), in report order.
MODELS = ("papers_node", "testbed")
#: Words for the models in prose.
MODEL_TITLES = {"papers_node": "the papers' node model", "testbed": "the calibrated test-bed model"}
#: Roles of a test-bed result in the calibration protocol.
ROLES = ("calibration", "held_out")
#: The columns that name a claim: the paper's values and our records join on them.
CLAIM_ID_COLUMNS = ["artefact", "quantity"]
#: Quantity of the test-bed record that names the results no single model tried reproduces
#: together (:mod:`pqlab.papers.analysis.testbed_model`); the opening summary quotes it.
INCONSISTENCY_QUANTITY = "mutually_inconsistent"


# --------------------------------------------------------------------------- recording


def record(
    results_dir,
    artefact,
    quantity,
    value,
    unit,
    *,
    note="",
    shape_ok=None,
    seed=None,
    model="papers_node",
    role=None,
    reason=None,
) -> dict:
    """Record one reproduced number (or shape claim) of a paper artefact.

    Parameters
    ----------
    results_dir : str or os.PathLike
        Folder of the run's results (created if needed); the record is appended to
        ``<results_dir>/results.jsonl``.
    artefact : str
        Paper artefact id, e.g. ``"globecom01_tab4"``.
    quantity : str
        The claim's name within the artefact, as in ``data/paper_values.csv``.
    value : float or None
        The reproduced number, in ``unit``; None for a purely qualitative row.
    unit : str
        Unit of ``value`` (the paper's unit for the same quantity), "" if none.
    note : str
        One line of explanation (computed text); whitespace runs, including line
        breaks, are collapsed to single spaces.
    shape_ok : bool, optional
        Whether the paper's qualitative or shape claim holds in our results.
    seed : int, optional
        The random seed the number was computed with.
    model : {"papers_node", "testbed"}
        The model the number was computed under (:data:`MODELS`).
    role : {"calibration", "held_out"}, optional
        For a test-bed result: whether it was in the calibration set or is a held-out
        prediction (:data:`ROLES`).
    reason : dict, optional
        Why the result is what it is: :func:`pqlab.papers.judge.reason` (a kind, a sentence and
        its facts, numbers with units). Every measured result that differs needs one.

    Returns
    -------
    dict
        The record written.

    Raises
    ------
    ValueError
        If a field has the wrong type, or ``value`` is not finite.
    """
    entry = {
        "kind": "result",
        "artefact": _check_name("artefact", artefact),
        "quantity": _check_name("quantity", quantity),
        "value": _check_value(value),
        "unit": _check_text("unit", unit),
        "note": " ".join(_check_text("note", note).split()),
        "shape_ok": _check_optional_bool("shape_ok", shape_ok),
        "seed": _check_optional_int("seed", seed),
        "model": check_choice("model", model, MODELS),
        "role": None if role is None else check_choice("role", role, ROLES),
        "reason": judge.check_reason(reason),
    }
    return _append(results_dir, entry)


def record_figure(results_dir, artefact, paths) -> dict:
    """Record the figure files written for a paper artefact.

    Parameters
    ----------
    results_dir : str or os.PathLike
        Folder of the run's results (see :func:`record`).
    artefact : str
        Paper artefact id.
    paths : str, os.PathLike or iterable of them
        Files written (e.g. what :func:`pqlab.papers.kit.save` returns); stored as
        absolute paths, so relative ones are read from the current folder.

    Returns
    -------
    dict
        The record written.

    Raises
    ------
    ValueError
        If no path is given or a file does not exist.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files = [Path(p).resolve() for p in paths]
    if not files:
        raise ValueError("paths must name at least one file, got none")
    absent = [str(f) for f in files if not f.is_file()]
    if absent:
        raise ValueError(f"figure files do not exist: {', '.join(absent)}")
    entry = {
        "kind": "figure",
        "artefact": _check_name("artefact", artefact),
        "paths": [str(f) for f in files],
    }
    return _append(results_dir, entry)


def _append(results_dir, entry: dict) -> dict:
    entry = {**entry, "pqlab_version": __version__}
    folder = Path(results_dir)
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / RESULTS_FILE, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(entry, allow_nan=False) + "\n")
    return entry


def _check_text(name: str, value) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a string, got {value!r}")
    return value


def _check_name(name: str, value) -> str:
    if not _check_text(name, value).strip():
        raise ValueError(f"{name} must be a non-empty string, got {value!r}")
    return value.strip()


def _check_value(value):
    if value is None:
        return None
    if (
        not isinstance(value, numbers.Real)
        or isinstance(value, bool)
        or not math.isfinite(float(value))
    ):
        raise ValueError(f"value must be a finite real number or None, got {value!r}")
    return float(value)


def _check_optional_bool(name: str, value):
    if value is None:
        return None
    if type(value).__name__ not in ("bool", "bool_"):  # numpy.bool_ from comparisons too
        raise ValueError(f"{name} must be True, False or None, got {value!r}")
    return bool(value)


def _check_optional_int(name: str, value):
    if value is None:
        return None
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise ValueError(f"{name} must be an integer or None, got {value!r}")
    return int(value)


# --------------------------------------------------------------------------- reading


def load_paper_values(path=None) -> pd.DataFrame:
    """Read the papers' values.

    Parameters
    ----------
    path : str or os.PathLike, optional
        CSV with columns ``artefact, quantity, value, unit, source, statement``
        (``value`` empty for qualitative claims); further columns are kept. Default the
        papers' values in effect (:func:`pqlab.base.locations.paper_values_file`:
        ``data/paper_values.csv``, or the table ``pqlab reproduce`` read, in its kernels).

    Returns
    -------
    pandas.DataFrame
        One row per claim; ``value`` float (NaN when empty), the other columns str.

    Raises
    ------
    ValueError
        If the file is missing, a column is missing, a value is not a number, or an
        ``(artefact, quantity)`` pair appears twice.
    """
    path = locations.paper_values_file() if path is None else Path(path)
    if not path.is_file():
        raise ValueError(f"paper values file not found: {path}")
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    return check_paper_values(frame, str(path))


def check_paper_values(frame: pd.DataFrame, origin: str) -> pd.DataFrame:
    """A table of the papers' values checked and cleaned as :func:`load_paper_values` returns it.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table, its cells as read (strings, or missing).
    origin : str
        Where it comes from, named in the errors (a file's path).

    Returns
    -------
    pandas.DataFrame
        A copy: the :data:`PAPER_COLUMNS` and ``rule`` (:data:`pqlab.papers.judge.RULES`, "" where
        the column is absent) as stripped text (:func:`cell_text`), ``value`` as a number (NaN where
        empty), a fresh index.

    Raises
    ------
    ValueError
        If a column is missing, a value is not a number, a rule is unknown, a row has no artefact or
        quantity, or an ``(artefact, quantity)`` pair appears twice.
    """
    absent = [c for c in PAPER_COLUMNS if c not in frame.columns]
    if absent:
        raise ValueError(f"{origin}: missing columns {absent}; expected {list(PAPER_COLUMNS)}")
    frame = frame.copy()
    if "rule" not in frame.columns:
        frame["rule"] = ""
    for column in (*PAPER_COLUMNS, "rule"):
        frame[column] = frame[column].map(cell_text)
    given = frame["value"]
    frame["value"] = pd.to_numeric(given.where(given != "", None), errors="coerce")
    bad = frame[(given != "") & frame["value"].isna()]
    if not bad.empty:
        rows = "; ".join(
            f"{a}/{q}: {given[i]!r}" for i, a, q in zip(bad.index, bad.artefact, bad.quantity)
        )
        raise ValueError(f"{origin}: values that are not numbers: {rows}")
    if (frame["artefact"] == "").any() or (frame["quantity"] == "").any():
        raise ValueError(f"{origin}: every row needs an artefact and a quantity")
    bad_rule = frame[~frame["rule"].isin(["", *judge.RULES])]
    if not bad_rule.empty:
        rows = "; ".join(
            f"{a}/{q}: {r!r}"
            for a, q, r in zip(bad_rule.artefact, bad_rule.quantity, bad_rule.rule)
        )
        raise ValueError(f"{origin}: rule must be one of {list(judge.RULES)} or empty, got {rows}")
    twice = frame[frame.duplicated(CLAIM_ID_COLUMNS, keep=False)]
    if not twice.empty:
        pairs = sorted(set(zip(twice.artefact, twice.quantity)))
        raise ValueError(f"{origin}: (artefact, quantity) listed more than once: {pairs}")
    return frame.reset_index(drop=True)


def load_text_table(path, columns, column: str, allowed) -> pd.DataFrame:
    """A hand-written CSV of text cells (``data/claim_links.csv``, ``data/standing.csv``), checked.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    columns : sequence of str
        The columns it must have (returned in this order).
    column : str
        The column whose every value must be one of ``allowed``.
    allowed : iterable of str
        Its values.

    Raises
    ------
    ValueError
        Naming the file and a missing column or the values not allowed.
    """
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{path}: missing column(s) {missing}; needs {list(columns)}")
    bad = sorted(set(frame[column]) - set(allowed))
    if bad:
        raise ValueError(f"{path}: {column} must be one of {list(allowed)}, got {bad}")
    return frame[list(columns)]


#: The notes and reasons of the claims an artefact's Dataset yields, one row per claim in the order
#: they are recorded: the templates :func:`pqlab.papers.kit.claims` fills from the Dataset.
CLAIM_NOTES_FILE = locations.DATA / "claim_notes.csv"
#: Columns of :data:`CLAIM_NOTES_FILE`: ``variable``, ``unit``, ``check`` and ``params`` are a
#: ``pqlab only`` claim's (a paper row's are those of ``data/paper_values.csv``); ``reason_when``
#: is empty or
#: ``always``, ``fails`` (the reason is given only when the row's check or number fails) or a
#: condition ``"<check> <variable> <params>"`` (:func:`pqlab.papers.judge.condition`); ``facts``
#: binds a reason's fact to the variable holding it (``fact=variable;...``) where the names differ;
#: ``reason_kind`` may be a template too (``{pq_breaks:arithmetic|mechanism}``).
CLAIM_NOTE_COLUMNS = (
    "artefact",
    "quantity",
    "variable",
    "unit",
    "check",
    "params",
    "note",
    "reason_kind",
    "reason",
    "reason_when",
    "facts",
)


@functools.lru_cache(maxsize=2)
def load_claim_notes(path=CLAIM_NOTES_FILE) -> pd.DataFrame:
    """The claims' note and reason templates (:data:`CLAIM_NOTES_FILE`), checked; read once.

    Raises
    ------
    ValueError
        Naming the file and a missing column, an unknown ``reason_when`` or a claim listed twice.
    """
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in CLAIM_NOTE_COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"{path}: missing column(s) {missing}; needs {list(CLAIM_NOTE_COLUMNS)}")
    frame = frame[list(CLAIM_NOTE_COLUMNS)]
    kinds = frame["reason_kind"]
    known = kinds.isin(["", *judge.REASON_KINDS]) | kinds.str.contains("{", regex=False)
    bad = sorted(set(kinds[~known]))
    if bad:
        raise ValueError(
            f"{path}: reason_kind must be one of {list(judge.REASON_KINDS)} or a "
            f"template, got {bad}"
        )
    twice = frame[frame.duplicated(CLAIM_ID_COLUMNS, keep=False)]
    if not twice.empty:
        raise ValueError(
            f"{path}: claims listed more than once: "
            f"{sorted(set(zip(twice.artefact, twice.quantity)))}"
        )
    return frame


def load_records(results_dir) -> list[dict]:
    """Read every record of ``<results_dir>/results.jsonl`` (none if the file is absent).

    Raises
    ------
    ValueError
        If ``results_dir`` is not a folder or a line is not a JSON object.
    """
    folder = Path(results_dir)
    if not folder.is_dir():
        raise ValueError(f"results folder not found: {folder}")
    file = folder / RESULTS_FILE
    if not file.is_file():
        return []
    records = []
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{file}:{number}: not a JSON line ({exc})") from None
        if not isinstance(entry, dict):
            raise ValueError(f"{file}:{number}: expected a JSON object, got {entry!r}")
        records.append(entry)
    return records


def is_missing(value) -> bool:
    """Whether a cell is missing: None, pandas' NA or a float NaN."""
    return value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value))


def cell_text(value) -> str:
    """A cell as stripped text; the empty string for a missing one (:func:`is_missing`)."""
    return "" if is_missing(value) else str(value).strip()
