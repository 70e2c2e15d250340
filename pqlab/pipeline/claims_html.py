"""The claims of an artefact as the report's HTML and the site lay them out, as text cells.

:func:`claim_groups` groups an artefact's report rows as the ``claims_table`` macro of
``templates/claims.html`` shows them, in ``report.html`` and on the site's document pages: one
row group per claim, one row per model; long statements and explanations folded. The cells
are text (numbers printed by :mod:`pqlab.pipeline.numbers`); the templates hold the tags
(:mod:`pqlab.pipeline.html_pages`). The cell helpers the site's other tables and the
templates use are public too (:func:`plain`, :func:`percent_text`, :func:`verdict_class`,
:func:`artefact_anchor`).
"""

from __future__ import annotations

import math
import re

import pandas as pd

from ..papers.records import MODELS
from . import overview
from .numbers import paper_text, signed_text


def artefact_anchor(artefact: str) -> str:
    """The HTML id of an artefact's section: ``a-<id>``, characters other than ``[A-Za-z0-9_-]`` as
    ``-``."""
    return "a-" + re.sub(r"[^A-Za-z0-9_-]", "-", artefact)


def verdict_class(verdict: str) -> str:
    """The CSS class of a verdict (its words joined by ``-``: ``not checkable`` ->
    ``not-checkable``)."""
    return verdict.replace(" ", "-")


def percent_text(value) -> str:
    """A relative difference in percent as a signed number to 0.1 (``+12.3 %``); ``n/a`` if missing
    (:func:`plain`)."""
    value = plain(value)
    return "n/a" if value is None else f"{value:+.1f} %"


#: A paper's statement or an explanation longer than this (characters) is folded in a details
#: element.
FOLD_CHARS = 160


def claim_groups(rows: list[dict]) -> list[dict]:
    """The claims of one artefact as the ``claims_table`` macro (``templates/claims.html``) lays
    them out.

    One group per claim (consecutive rows of one ``quantity``), one row per model inside it.

    Parameters
    ----------
    rows : list of dict
        The artefact's report rows (columns :data:`pqlab.pipeline.report.REPORT_COLUMNS`).

    Returns
    -------
    list of dict
        Each ``{"quantity", "statement", "statement_cut", "source", "paper", "unit", "rows"}``:
        the claim's id, the paper's statement ("" for none) and its first words when it is
        folded (None when short), its source, the paper's value as printed and the unit as a
        reader reads it; ``rows`` one dict per model, ``{"model", "role", "ours", "shape",
        "percent", "difference", "verdict", "reason", "reason_kind", "explanation",
        "explanation_cut"}`` (``percent`` None without a difference; ``reason`` the judge's
        rendering of the row's reason, "" for none), every number as text.
    """
    groups: list[list[dict]] = []
    for r in rows:
        if groups and groups[-1][0]["quantity"] == r["quantity"]:
            groups[-1].append(r)
        else:
            groups.append([r])
    out = []
    for group in groups:
        first = group[0]
        statement = "" if plain(first["statement"]) is None else str(first["statement"])
        out.append(
            {
                "quantity": first["quantity"],
                "statement": statement,
                "statement_cut": _folded(statement),
                "source": first["source"],
                "paper": paper_text(plain(first["paper value"])),
                "unit": overview.unit_text(first["unit"]),
                "rows": [_model_row(r) for r in group],
            }
        )
    return out


def _model_row(r: dict) -> dict:
    model = str(r.get("model") or MODELS[0])
    role = plain(r.get("role"))
    difference = plain(r["difference"])
    explanation = str(r["explanation"])
    return {
        "model": overview.MODEL_LABELS.get(model, model),
        "role": overview.ROLE_TITLES.get(role, role) if role else "",
        "ours": overview.ours_text(plain(r["ours"]), plain(r["paper value"])),
        "shape": overview.shape_text(r["shape_ok"]),
        "percent": None if difference is None else percent_text(r["difference %"]),
        "difference": "" if difference is None else signed_text(difference),
        "verdict": str(r["verdict"]),
        "reason": str(r.get("reason") or ""),
        "reason_kind": str(r.get("reason kind") or ""),
        "explanation": explanation,
        "explanation_cut": _folded(explanation),
    }


def _folded(text: str) -> str | None:
    """The words a long text is folded under (:data:`FOLD_CHARS`), None for a text shown whole."""
    return None if len(text) <= FOLD_CHARS else _cut(text)


def _cut(text: str, chars: int = FOLD_CHARS // 2) -> str:
    """The first words of ``text``, up to about ``chars`` characters, without trailing dots or
    commas."""
    cut = text[:chars]
    cut = cut.rsplit(" ", 1)[0] if " " in cut else cut
    return cut.rstrip(" .,;:")  # the ellipsis that follows is the only one


def plain(value):
    """NaN, None and pandas' NA as None; numbers as float; the rest unchanged."""
    if value is None or value is pd.NA:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    return value
