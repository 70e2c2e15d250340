"""Text and marks the TF-TANT PQ-with-streams artefacts' claims and figures share.

Used by the test page's ``tftant_be_fig4`` and the slides' loss, IPDV-aggregation, tandem and
IPDV-size artefacts (notebook ``09_tftant_be_streams_and_aggregation``): a mean with its 95 % CI
half-width as text (:func:`ci_text`), the figures' footer on the BE sizes of the runs
(:func:`be_sizes_text`, read from the scenario) and the mark of a source's value
(:data:`PAPER_MARKER`).
"""

from __future__ import annotations

import numpy as np

from ...node.scenario import Scenario
from ...node.traffic import Deterministic, Empirical
from .. import kit, presets

__all__ = ["ci_text", "be_sizes_text", "READING_TEXT", "PAPER_MARKER"]

#: How a BE size law reaches the queue (:data:`pqlab.scenarios.BE_SIZE_READINGS`'s keys), as a
#: footer says it.
READING_TEXT = {
    "packet": "by packet count (one draw per packet, the papers' reading)",
    "stream": "one size per stream at equal bit rates",
}
#: Matplotlib keywords of a source's value: a black diamond.
PAPER_MARKER = dict(color="black", marker="D", ls="none", ms=8, zorder=6)


def ci_text(mean: float, half: float, digits: int = 2, unit: str = "") -> str:
    """``"<mean> +/- <half> <unit>"`` with ``digits`` decimals; just the mean when ``half`` is NaN
    (one seed).

    ``mean`` and ``half`` are in the unit named by ``unit`` (any: the text only carries it).
    """
    unit = f" {unit}" if unit else ""
    if np.isnan(half):
        return f"{mean:.{digits}f}{unit}"
    return f"{mean:.{digits}f} +/- {half:.{digits}f}{unit}"


def be_sizes_text(scenario: Scenario | str) -> str:
    """What the BE streams of a run draw their sizes from, as a figure's footer states it.

    Read from the scenario (a :class:`~pqlab.node.scenario.Scenario` or its JSON, e.g. a
    Dataset's ``attrs["scenario"]``): the law (the STAND-IN "real" distribution, or another) and
    how it reaches the queue (:data:`pqlab.scenarios.BE_SIZE_READINGS`: one draw per packet, or
    one size per stream).

    Raises
    ------
    ValueError
        If the scenario has no BE stream.
    """
    sc = Scenario.from_json(scenario) if isinstance(scenario, (str, bytes)) else scenario
    be = kit.be_streams(sc)
    if not be:
        raise ValueError(f"scenario {sc.name!r} has no BE stream: its BE sizes cannot be stated")
    size = be[0].size
    if isinstance(size, Deterministic):
        return f"BE sizes: every BE packet {size.size_bytes + be[0].header_bytes:g} bytes (IP)"
    if size == presets.real_be_sizes():
        law = "STAND-IN 'real' law (CAIDA AIX 1999 fit, not the papers' trace)"
    elif isinstance(size, Empirical):
        law = "an empirical distribution"
    else:
        law = type(size).__name__
    readings = sorted({s.size_per for s in be})
    unknown = set(readings) - set(READING_TEXT)
    if unknown:
        raise ValueError(
            f"BE size reading must be one of {list(presets.BE_SIZE_READINGS)}, got"
            f" {sorted(unknown)}"
        )
    return f"BE sizes: {law} " + " and ".join(READING_TEXT[r] for r in readings)
