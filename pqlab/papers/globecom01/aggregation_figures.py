"""What the figures of the aggregation sweep's artefacts share: bins, labels, the paper's points,
the footer.

``globecom01_fig7``, ``globecom01_tab3``, ``long_ipdv_vs_a`` and ``long_fig7_tab3`` draw delays in
transmission units (0.636 ms, the line time of a 128-byte EF frame) or ms. Where a figure
compares with the paper, ``paper_values`` is the DataFrame of
:func:`pqlab.papers.records.load_paper_values` (None: ours only).
"""

from __future__ import annotations

import numpy as np
import seaborn as sns

from ...base.units import to_kbps
from .. import kit
from .aggregation_runs import a_text, be_sizes_text

__all__ = [
    "STAND_IN_NOTE",
    "MTU_LABEL",
    "be_sizes_text",
    "paper",
    "paper_series",
    "plot_paper",
    "bins",
    "a_label",
    "palette",
    "stand_in_footer",
    "errorbar_vs",
]

#: The footer's first words; the reading of the law (by packet or per stream) follows, from the
#: runs' scenarios.
STAND_IN_NOTE = "BE sizes: stand-in 'real' distribution (not the papers' trace)"
#: Label of the deterministic 1500-byte BE reference.
MTU_LABEL = "pqlab, deterministic 1500-byte BE (A = 0)"


def paper(paper_values, artefact: str, quantity: str):
    """The paper's value of ``(artefact, quantity)`` or None (no ``paper_values``, no row, or
    qualitative)."""
    if paper_values is None:
        return None
    value = kit.paper_value(artefact, quantity, paper_values)[0]
    return None if np.isnan(value) else value


def paper_series(paper_values, artefact: str, quantities) -> np.ndarray:
    """The paper's values of several quantities, NaN where there is none."""
    values = [paper(paper_values, artefact, q) for q in quantities]
    return np.array([np.nan if v is None else v for v in values])


def plot_paper(ax, x, y, label: str) -> None:
    """The paper's values as red diamonds joined by a line, where it has them."""
    have = np.isfinite(y)
    if have.any():
        ax.plot(np.asarray(x)[have], y[have], "D-", color="C3", label=label)


def bins(ds, bin_dim: str):
    """The transmission unit (s), the bin width and the left bin edges of ``bin_dim`` in units."""
    unit = ds.attrs["transmission_unit_s"]
    return unit, ds.attrs["bin_width_s"] / unit, ds[bin_dim].values / unit


def a_label(ds, i) -> str:
    """Legend label of the ``i``-th Aggregation Degree: A and the reference rate."""
    a = ds["aggregation_degree"].values[i]
    return f"A = {a_text(a)} (ref. {to_kbps(ds['ref_rate_bps'].values[i]):g} kbit/s)"


def palette(n):
    """``n`` colours along viridis, one per point."""
    return sns.color_palette("viridis", n)


def stand_in_footer(fig, ds, extra: str = "", pooled: bool = True) -> None:
    """The footer: stand-in BE sizes and how they reach the queue (the Dataset's
    ``be_size_reading``, from its
    scenarios: :func:`be_sizes_text`), the seeds, pooling, and ``extra``."""
    seeds = ds.attrs.get("n_seeds", ds.sizes.get("seed", 1))
    text = f"{STAND_IN_NOTE}, {ds.attrs['be_size_reading']}; {kit.seed_count(int(seeds))}"
    text += ", distributions pooled over seeds" if pooled else ""
    kit.footer(fig, text + (f"; {extra}" if extra else ""))


def errorbar_vs(ax, x, ds, name, convert, color="C0", label="pqlab (mean, 95% CI over seeds)"):
    """Per-seed values, their mean and CI of ``name`` (seconds) against ``x``, converted by
    ``convert``."""
    mean, half = convert(ds[f"{name}_mean"].values), convert(ds[f"{name}_ci"].values)
    for j in range(ds.sizes["seed"]):
        ax.plot(
            x,
            convert(ds[name].values[:, j]),
            "o",
            color=color,
            alpha=0.3,
            ms=4,
            label="pqlab, one seed each" if j == 0 else None,
        )
    ax.errorbar(
        x,
        mean,
        yerr=None if np.all(np.isnan(half)) else half,
        fmt="-s",
        color=color,
        capsize=4,
        label=label,
    )
