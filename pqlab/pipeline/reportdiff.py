"""Compare two reports of ``pqlab reproduce``: a real change told apart from float noise.

Another numpy or pandas may move a number of the report in its last digit (a sum taken in
another order): that is not a change of the reproduction. A changed verdict, unit, statement or
explanation, a row added or lost, or a number moved by more than a relative tolerance is.
:func:`compare_tables` compares two ``report.csv`` tables row by row (keyed by artefact, claim and
model): text columns exactly, number columns within ``rel_tol`` (exactly with ``rel_tol=0``);
:func:`compare_markdown` compares two ``report.md`` texts line by line, leaving out the
environment block (:data:`pqlab.base.versions.ENVIRONMENT_LINE_PREFIXES`), which names the software
and so differs between environments by design. The golden test (``tests/test_notebooks.py``),
``benchmarks/compare_reports.py`` and ``requirements/check_latest.py`` all compare with these.

The tolerance of a difference column is taken relative to the numbers it is the difference of
(a last-digit move of ``ours`` is a last-digit move of ``ours - paper`` relative to ``ours``,
however small the difference itself).
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass

import pandas as pd

from ..base.versions import ENVIRONMENT_LINE_PREFIXES, is_locked_environment

__all__ = [
    "REL_TOL",
    "NUMBER_COLUMNS",
    "KEY_COLUMNS",
    "Difference",
    "read_table",
    "compare_tables",
    "compare_markdown",
    "report_environment",
    "tolerance_against",
]

#: Relative tolerance within which two numbers of two reports are the same result (float noise:
#: one ulp is about 2.2e-16 relative; a change of the simulation moves numbers by far more).
REL_TOL = 1e-9
#: Columns of report.csv holding numbers (compared within the tolerance); every other column is
#: text.
NUMBER_COLUMNS = ("paper value", "ours", "difference", "difference %")
#: Columns that identify a row.
KEY_COLUMNS = ("artefact", "quantity", "model")


@dataclass(frozen=True)
class Difference:
    """One difference between two reports: where, and the two values (``None`` for an absent
    row)."""

    row: tuple
    column: str
    before: str | None
    after: str | None
    relative: float | None = None

    def __str__(self) -> str:
        where = "/".join(map(str, self.row))
        moved = "" if self.relative is None else f" (relative {self.relative:.3g})"
        return f"{where} {self.column}: {self.before!r} -> {self.after!r}{moved}"


def _float(text: str) -> float | None:
    return None if text == "" else float(text)


def _scale(row: dict, column: str) -> float:
    """The magnitude a number column's tolerance is relative to (see the module docstring)."""
    values = [
        abs(v)
        for v in (_float(row.get("ours", "")), _float(row.get("paper value", "")))
        if v is not None and math.isfinite(v)
    ]
    base = max(values, default=0.0)
    if column == "difference":
        return base
    if column == "difference %":
        paper = _float(row.get("paper value", ""))
        return 100.0 * base / abs(paper) if paper else 0.0
    return 0.0


def _numbers_differ(
    before: str, after: str, rel_tol: float, scale: float
) -> tuple[bool, float | None]:
    if before == after:
        return False, None
    if before == "" or after == "":
        return True, None
    x, y = float(before), float(after)
    if math.isnan(x) and math.isnan(y):
        return False, None
    if not (math.isfinite(x) and math.isfinite(y)):
        return x != y, None
    size = max(abs(x), abs(y), scale)
    relative = abs(x - y) / size if size else 0.0
    return abs(x - y) > rel_tol * size, relative


def read_table(path) -> pd.DataFrame:
    """A ``report.csv`` as :func:`compare_tables` takes it: every cell as text, empty cells as
    ``""``."""
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def _cell_differences(
    key: tuple, old: dict, new: dict, columns, rel_tol: float
) -> list[Difference]:
    """The cells of one row (``old`` before, ``new`` after) that differ: text exactly, numbers
    within ``rel_tol``."""
    out = []
    for column in columns:
        if column in NUMBER_COLUMNS:
            differ, relative = _numbers_differ(
                old[column], new[column], rel_tol, _scale(old, column)
            )
        else:
            differ, relative = old[column] != new[column], None
        if differ:
            out.append(Difference(key, column, old[column], new[column], relative))
    return out


def compare_tables(
    before: pd.DataFrame, after: pd.DataFrame, rel_tol: float = REL_TOL
) -> list[Difference]:
    """The differences between two report tables (``report.csv`` read with :func:`read_table`).

    Parameters
    ----------
    before, after : pandas.DataFrame
        Two reports, every cell as text.
    rel_tol : float, default :data:`REL_TOL`
        Relative tolerance of the number columns (:data:`NUMBER_COLUMNS`); 0 compares them exactly.

    Returns
    -------
    list of Difference
        Empty when the reports agree: the same columns, the same rows in the same order, text
        cells equal, number cells within the tolerance. Otherwise, with the same columns: the
        rows only before (``after`` None), the rows only after (``before`` None), one ``order``
        difference when the rows of both are in another order, then every differing cell of the
        rows of both (matched by key).
    """
    if not 0 <= rel_tol < 1:
        raise ValueError(f"rel_tol must be in [0, 1), got {rel_tol!r}")
    if list(before.columns) != list(after.columns):
        return [Difference(("columns",), "", ",".join(before.columns), ",".join(after.columns))]
    keys = [c for c in KEY_COLUMNS if c in before.columns]
    rows_before = [tuple(r) for r in before[keys].itertuples(index=False)]
    rows_after = [tuple(r) for r in after[keys].itertuples(index=False)]
    records_before, records_after = before.to_dict("records"), after.to_dict("records")
    if rows_before == rows_after:
        pairs = zip(rows_before, records_before, records_after)
        out = []
    else:
        in_before, in_after = set(rows_before), set(rows_after)
        out = [Difference(k, "row", "present", None) for k in rows_before if k not in in_after]
        out += [Difference(k, "row", None, "present") for k in rows_after if k not in in_before]
        if [k for k in rows_before if k in in_after] != [k for k in rows_after if k in in_before]:
            out.append(Difference(("rows",), "order", "committed order", "another order"))
        by_key = dict(zip(rows_after, records_after))
        pairs = ((k, old, by_key[k]) for k, old in zip(rows_before, records_before) if k in by_key)
    for key, old, new in pairs:
        out += _cell_differences(key, old, new, before.columns, rel_tol)
    return out


def _without_environment(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith(ENVIRONMENT_LINE_PREFIXES)]


def compare_markdown(before: str, after: str) -> list[str]:
    """Lines of a unified diff between two ``report.md`` texts, their environment blocks left out
    (empty: equal)."""
    return list(
        difflib.unified_diff(
            _without_environment(before),
            _without_environment(after),
            "before",
            "after",
            n=0,
            lineterm="",
        )
    )


def report_environment(markdown: str) -> dict:
    """What a report's environment line says: ``python`` (major.minor), ``lock_sha256`` (short),
    ``on_lock``.

    Raises
    ------
    ValueError
        If the text has no environment line (a report of a pqlab before the lock).
    """
    line = next(
        (ln for ln in markdown.splitlines() if ln.startswith(ENVIRONMENT_LINE_PREFIXES[0])), None
    )
    python = re.search(r"Python (\d+)\.(\d+)", line or "")
    lock = re.search(r"sha256 ([0-9a-f]+)", line or "")
    if python is None or lock is None:
        raise ValueError(
            "the report has no environment line ('Environment: Python ..., lock ... sha256 ...')"
        )
    return {
        "python": f"{python.group(1)}.{python.group(2)}",
        "lock_sha256": lock.group(1),
        "on_lock": ENVIRONMENT_LINE_PREFIXES[2] in markdown,
    }


def tolerance_against(markdown: str) -> float:
    """The relative tolerance to compare a fresh report with the one ``markdown`` is the text of.

    0 (exact) where this interpreter is the environment that report names: on the lock, the same
    Python minor version and the same lock (:func:`pqlab.base.versions.is_locked_environment`);
    else :data:`REL_TOL`.
    """
    made_in = report_environment(markdown)
    exact = made_in["on_lock"] and is_locked_environment(made_in["python"], made_in["lock_sha256"])
    return 0.0 if exact else REL_TOL
