"""The site's opening figure: each measured number of the papers against ours, per model.

One row per measured result with a number (the report's rows of kind ``result`` whose rule is
checkable, :func:`pqlab.papers.ledger.measured`), named by its short title
(:func:`pqlab.papers.titles.title`); on it, one point per model (a marker per model) at the
report's relative difference of ours from the paper's value, coloured by the row's verdict;
the band of ±:data:`pqlab.papers.judge.TOLERANCE_PERCENT` around the paper's value shaded.
Every number is the report table's: nothing is recomputed. Drawn with matplotlib's
object-oriented API (no pyplot state), imported only when the figure is drawn.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..papers import judge, ledger, records
from ..papers.artefact_files import write_png
from ..papers.titles import title

#: Colour of each verdict's points (the site's verdict colours, darker to read as points).
VERDICT_COLOURS = {
    "reproduced": "#2e7d32",
    "differs": "#c62828",
    "not checkable": "#78909c",
    "not tested": "#e0a800",
}
#: Marker of each model's points.
MODEL_MARKERS = {"papers_node": "o", "testbed": "s"}
#: Pixels per inch of the front figure's PNG.
FRONT_FIGURE_DPI = 110
#: Width of the figure (inches) and height per result row (inches).
WIDTH_IN, ROW_IN = 9.0, 0.26


def points(table: pd.DataFrame) -> pd.DataFrame:
    """The figure's points: one per model and measured result with a paper value and ours.

    Parameters
    ----------
    table : pandas.DataFrame
        The report (:data:`pqlab.pipeline.report.REPORT_COLUMNS`).

    Returns
    -------
    pandas.DataFrame
        Columns ``artefact, quantity, model, title, difference %, verdict``, in the report's order.
    """
    rows = ledger.measured(table)
    rows = rows[pd.to_numeric(rows["difference %"], errors="coerce").notna()]
    out = rows[["artefact", "quantity", "model", "difference %", "verdict"]].copy()
    out["difference %"] = out["difference %"].astype(float)
    out.insert(3, "title", [title(a, q) for a, q in zip(out["artefact"], out["quantity"])])
    return out.reset_index(drop=True)


def alt_text(found: pd.DataFrame) -> str:
    """What the figure shows, in words and counts, for a reader who cannot see it."""
    if found.empty:
        return "No measured number of the papers has a value of ours to compare with."
    parts = []
    for model in [m for m in records.MODELS if m in set(found["model"])]:
        mine = found[found["model"] == model]
        counts = mine["verdict"].value_counts()
        said = ", ".join(f"{counts[v]} {v}" for v in judge.VERDICTS if v in counts)
        parts.append(f"{_model_title(model)}: {said} (of {len(mine)})")
    results = found[["artefact", "quantity"]].drop_duplicates().shape[0]
    return (
        f"Dot plot of our value's difference from the paper's, in percent, for {results} "
        "measured numbers of the papers, one row each, one point per model; a point inside the "
        f"shaded band of ±{judge.TOLERANCE_PERCENT:g} % is reproduced. " + ". ".join(parts) + "."
    )


def _model_title(model: str) -> str:
    """A model's title (:data:`pqlab.papers.records.MODEL_TITLES`), capitalised."""
    text = records.MODEL_TITLES.get(model, model)
    return text[:1].upper() + text[1:]


def draw(table: pd.DataFrame, path) -> str | None:
    """Draw the figure of :func:`points` into ``path`` (PNG); its alt text, None when empty.

    Parameters
    ----------
    table : pandas.DataFrame
        The report.
    path : str or os.PathLike
        The PNG to write.
    """
    found = points(table)
    if found.empty:
        return None
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    order = list(dict.fromkeys(zip(found["artefact"], found["quantity"])))
    row = {key: i for i, key in enumerate(order)}
    fig = Figure(figsize=(WIDTH_IN, 1.6 + ROW_IN * len(order)), layout="constrained")
    ax = fig.add_subplot()
    tol = judge.TOLERANCE_PERCENT
    ax.axvspan(-tol, tol, color="#dff3e0", zorder=0)
    ax.axvline(0, color="0.35", lw=0.8, zorder=1)
    offsets = {m: 0.4 * (k - (len(MODEL_MARKERS) - 1) / 2) for k, m in enumerate(MODEL_MARKERS)}
    for a, q, model, diff, verdict in found[
        ["artefact", "quantity", "model", "difference %", "verdict"]
    ].itertuples(index=False):
        y = row[(a, q)] + offsets.get(model, 0.0)
        ax.plot(
            diff,
            y,
            MODEL_MARKERS.get(model, "D"),
            ms=6.5,
            mec="0.15",
            mew=0.6,
            color=VERDICT_COLOURS.get(verdict, "0.5"),
            zorder=3,
        )
    labels = [
        found.loc[(found["artefact"] == a) & (found["quantity"] == q), "title"].iloc[0]
        for a, q in order
    ]
    ax.set_yticks(np.arange(len(order)), labels, fontsize=8.5)
    ax.set_ylim(len(order) - 0.5, -0.5)
    low, high = float(found["difference %"].min()), float(found["difference %"].max())
    ax.set_xlim(min(low, -tol) - 8, max(high, tol) + 8)
    ax.set_xlabel("ours against the paper's value: relative difference (%)")
    ax.grid(axis="x", color="0.88", lw=0.6)
    ax.set_axisbelow(True)
    models = [
        Line2D(
            [],
            [],
            ls="none",
            marker=MODEL_MARKERS[m],
            color="0.6",
            mec="0.15",
            label=_model_title(m),
        )
        for m in MODEL_MARKERS
        if m in set(found["model"])
    ]
    verdicts = [
        Patch(color=VERDICT_COLOURS[v], label=v)
        for v in VERDICT_COLOURS
        if v in set(found["verdict"])
    ]
    band = [Patch(color="#dff3e0", label=f"within ±{tol:g} %")]
    fig.legend(
        handles=[*models, *verdicts, *band],
        loc="outside upper center",
        ncols=5,
        fontsize=8.5,
        frameon=False,
    )
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    write_png(fig, str(path), FRONT_FIGURE_DPI)
    return alt_text(found)
