"""What the section figure modules share: error-bar half-widths, the footer line, the seed count."""

from __future__ import annotations

import numpy as np

__all__ = ["ci_half_widths", "footer", "seed_count"]


def ci_half_widths(values, *, none_if_all_nan: bool = False) -> np.ndarray | None:
    """CI half-widths for error bars: NaN (a single seed) drawn as no bar.

    With ``none_if_all_nan`` the result is None when every half-width is NaN, so
    ``errorbar(yerr=...)`` draws no caps at all.
    """
    half = np.asarray(values, dtype=float)
    if none_if_all_nan and np.all(np.isnan(half)):
        return None
    return np.nan_to_num(half, nan=0.0)


def footer(fig, text: str) -> None:
    """The grey line at the foot of a figure: its conditions, seeds and stand-ins."""
    fig.text(0.5, 0.005, text, ha="center", va="bottom", fontsize=8, color="0.3")


def seed_count(n: int) -> str:
    """``"1 seed"``, ``"3 seeds"``."""
    return f"{n} seed{'s' if n > 1 else ''}"
