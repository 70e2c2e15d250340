"""Text and marks the TF-TANT PQ-with-streams artefacts' claims and figures share.

Used by the test page's ``tftant_be_fig4`` and the slides' loss, IPDV-aggregation, tandem and
IPDV-size artefacts (notebook ``09_tftant_be_streams_and_aggregation``): a mean with its 95 % CI
half-width as text (:func:`ci_text`), the figures' footer on the STAND-IN BE sizes
(:data:`STANDIN_FOOTER`) and the mark of a source's value (:data:`PAPER_MARKER`).
"""

from __future__ import annotations

import numpy as np

__all__ = ["ci_text", "STANDIN_FOOTER", "PAPER_MARKER"]

#: Footer of a figure whose BE streams draw their sizes from the STAND-IN real distribution.
STANDIN_FOOTER = ("BE sizes: STAND-IN 'real' distribution (CAIDA AIX 1999 fit, not the papers' trace), "
                  "one size per stream")
#: Matplotlib keywords of a source's value: a black diamond.
PAPER_MARKER = dict(color="black", marker="D", ls="none", ms=8, zorder=6)


def ci_text(mean: float, half: float, digits: int = 2, unit: str = "") -> str:
    """``"<mean> +/- <half> <unit>"`` with ``digits`` decimals; just the mean when ``half`` is NaN (one seed).

    ``mean`` and ``half`` are in the unit named by ``unit`` (any: the text only carries it).
    """
    unit = f" {unit}" if unit else ""
    if np.isnan(half):
        return f"{mean:.{digits}f}{unit}"
    return f"{mean:.{digits}f} +/- {half:.{digits}f}{unit}"
