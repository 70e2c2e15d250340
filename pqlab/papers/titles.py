"""Short titles in words of the papers' measured results: what figures label them with.

Read from ``data/result_titles.csv`` (``artefact, quantity, title``; data/README.md), written
by hand from each result's statement in ``data/paper_values.csv``. A result without a title
is named by its quantity id with spaces for underscores.
"""

from __future__ import annotations

import csv
import functools

from ..base import locations

#: The titles' file name in :data:`pqlab.base.locations.DATA`.
TITLES_FILE = "result_titles.csv"


@functools.cache
def titles() -> dict[tuple[str, str], str]:
    """(artefact, quantity) -> the result's short title."""
    with open(locations.DATA / TITLES_FILE, newline="", encoding="utf-8") as handle:
        return {(r["artefact"], r["quantity"]): r["title"] for r in csv.DictReader(handle)}


def title(artefact: str, quantity: str) -> str:
    """The short title of one measured result (its quantity, spaced, when it has none)."""
    return titles().get((str(artefact), str(quantity)), str(quantity).replace("_", " "))
