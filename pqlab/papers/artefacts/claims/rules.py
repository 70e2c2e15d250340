"""Verdict rules more than one section's claims apply (docs/model.md, "Verdict rules").

The position rule judges where a payload sweep's mean delay drops (GLOBECOM'01 Fig. 3-1's
local maxima): :mod:`pqlab.papers.artefacts.claims.background` applies it to the papers'
node model and :mod:`pqlab.papers.artefacts.claims.testbed_model` to the test-bed model's
rows of the same claims. The 10 % tolerance of numbers is
:data:`pqlab.papers.records.TOLERANCE_PERCENT`.
"""

from __future__ import annotations

__all__ = ["position_ok", "position_text"]


def position_ok(last_before: float, first_after: float, paper: float) -> bool:
    """The position rule for a discontinuity of a payload sweep.

    Our curve drops between the swept payloads ``last_before`` (the last that fits ``k``
    particles) and ``first_after`` (one sweep step on, needing ``k + 1``): the paper's
    discontinuity point is reproduced when it lies in ``(last_before, first_after]``, i.e.
    within one sweep step of ours and on the same side of the particle boundary as our
    first payload past it. A +-10 % band (+-48 bytes at 485) spans both sides and tests nothing.

    Parameters
    ----------
    last_before : float
        Our last swept payload before the drop, bytes.
    first_after : float
        Our first swept payload past the drop (one sweep step on), bytes.
    paper : float
        The paper's payload of the drop, bytes.

    Returns
    -------
    bool
        Whether ``last_before < paper <= first_after``.
    """
    return bool(last_before < paper <= first_after)


def position_text(last_before: float, first_after: float, paper: float) -> str:
    """The note of a position claim: whether the paper's payload lies in our drop interval.

    Parameters
    ----------
    last_before, first_after, paper : float
        As for :func:`position_ok`, bytes.

    Returns
    -------
    str
        ``"lies in our drop interval (a, b] ..."``, or ``"lies outside ..."``, the verdict of
        :func:`position_ok` in words.
    """
    side = "in" if position_ok(last_before, first_after, paper) else "outside"
    return (f"lies {side} our drop interval ({last_before:g}, {first_after:g}] (the same particle boundary, within "
            f"one sweep step: the position rule)")
