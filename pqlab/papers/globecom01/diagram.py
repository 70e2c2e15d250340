"""Drawing helpers of the GLOBECOM'01 schematics (the node of Figs. 1-2, the test network of
Fig. 2).

Boxes, arrows and the smallest text size of :mod:`~pqlab.papers.globecom01.globecom01_fig1` and
:mod:`~pqlab.papers.globecom01.globecom01_fig2`; coordinates are the axes' data units.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib import patches
from matplotlib.font_manager import FontProperties

from .. import kit

__all__ = ["box", "arrow", "label_size", "FRAMING_NAMES"]

#: How the schematics name a line's framing (a :class:`pqlab.Node`'s ``framing``).
FRAMING_NAMES = {"atm-aal5": "ATM AAL5", "ethernet": "Ethernet", "none": "unframed"}


def box(ax, x, y, w, h, text, *, color="#dbe9f6", ls="-", fontsize=None):
    """A rounded box on ``ax`` at ``(x, y)``, ``w`` x ``h``, ``text`` centred (default
    size :func:`label_size`)."""
    ax.add_patch(
        patches.FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.3", fc=color, ec="0.2", ls=ls)
    )
    ax.text(x + w / 2, y + h / 2, text, ha="center", va="center", fontsize=fontsize or label_size())


def arrow(ax, x0, y0, x1, y1):
    """An arrow on ``ax`` from ``(x0, y0)`` to ``(x1, y1)``."""
    ax.annotate(
        "", xy=(x1, y1), xytext=(x0, y0), arrowprops=dict(arrowstyle="-|>", color="0.2", lw=1.3)
    )


def label_size() -> float:
    """The axis-label size of the figures' theme (points): the smallest text of the schematics."""
    kit.set_theme()
    return float(FontProperties(size=plt.rcParams["axes.labelsize"]).get_size_in_points())
