"""Percentiles as pqlab reports them: one convention (percents) and one naming (``p<percent>``).

Every summary of pqlab, per packet (:func:`pqlab.summary_table`, :func:`pqlab.metrics.summary`)
or streamed (:func:`pqlab.streaming.simulate_summary`), takes ``percentiles`` in percents, in
``[0, 100]``, as :func:`numpy.percentile` does, and names the value of percentile ``q`` of a
quantity ``<quantity>_p<q>`` (``delay_p99``, ``jitter_p99.9``: the ``p`` says percent). A list
whose values are all at most 1 and one above 0 (``(0.5, 0.99)``) is ambiguous (fractions meant
as the median and the 99th percentile, or the 0.5th and 0.99th percentiles?) and refused, as are
repeated values (two results of one name).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ._validate import check_array, echo


def check_percentiles(percentiles: Sequence[float], name: str = "percentiles") -> np.ndarray:
    """``percentiles`` as a float array of distinct percents in [0, 100], in the given order.

    Raises
    ------
    ValueError
        Naming ``name``: not a sequence of numbers in [0, 100], a repeated value, or every value
        at most 1 and one above 0 (it reads as fractions; the message gives their percents).
    """
    try:
        given = list(percentiles)
    except TypeError:
        raise ValueError(
            f"{name} must be a sequence of percents in [0, 100], got {echo(percentiles)}"
        ) from None
    q = check_array(name, given, kind="float", minimum=0.0, maximum=100.0)
    if q.size and q.max() <= 1.0 and q.max() > 0.0:
        percents = [float(v * 100) for v in q]
        raise ValueError(
            f"{name} are percents in [0, 100], got {echo(percentiles)}: all at most "
            f"1, they read as fractions; write {percents} for those fractions (a "
            "percentile below 1 beside one above 1 is not ambiguous)"
        )
    if np.unique(q).size != q.size:
        raise ValueError(
            f"{name} must be distinct percents (each names one result), got {echo(percentiles)}"
        )
    return q


def percentile_names(q: np.ndarray) -> list[str]:
    """The suffix naming each percentile of ``q`` (percents): ``p50``, ``p99``, ``p99.9``."""
    return [f"p{p:g}" for p in q]
