"""The time origin of a run: the engine computes in times after it, exact at any valid origin.

Arrival times are valid from 0 to any finite value (a packet trace with Unix timestamps
starts near 1.7e9 s). float64 resolves only about 2.4e-7 s at 1.7e9 s and 16 s at 1e17 s,
so a node fed such times directly would return wrong delays (100 x 1500-byte packets on
1 GbE draining in 1239.777 us instead of 1230.400 us). :func:`rebase` therefore keeps
absolute times when float64 resolves the node's time resolution (:func:`resolution_s`: 1 ns,
or a thousandth of a byte's line time on lines slower than 8 Mbit/s) up to the last possible
departure (every run that starts near 0: nothing changes), and otherwise subtracts the first
arrival (an exact subtraction): every time of the result is then seconds after that origin,
stated in the result's ``time_origin_s`` attribute. A run whose own span float64 cannot
resolve is refused with a :class:`ValueError` naming ``arrival_s`` and the resolution lost.
"""

from __future__ import annotations

import numpy as np

from .framing import line_time_s

#: The coarsest float64 spacing of times the engine accepts anywhere in a run, s (1 ns) ...
TIME_RESOLUTION_S = 1e-9
#: ... or this fraction of one byte's line time, if coarser (a 1 bit/s line needs no nanoseconds).
BYTE_TIME_FRACTION = 1e-3


def resolution_s(node) -> float:
    """The time resolution a run on ``node`` needs, s: :data:`TIME_RESOLUTION_S`, or
    :data:`BYTE_TIME_FRACTION` of one byte's line time when that is coarser."""
    return max(TIME_RESOLUTION_S, BYTE_TIME_FRACTION * 8.0 / node.line_rate_bps)


def rebase(node, arrival: np.ndarray, size: np.ndarray) -> tuple[np.ndarray, float]:
    """The arrivals the kernel runs on and their origin (see the module docstring).

    Parameters
    ----------
    node : pqlab.Node
        The node (its framing and line rate bound the last departure).
    arrival : numpy.ndarray of float64
        Validated arrival times, seconds, sorted.
    size : numpy.ndarray of int64
        Validated IP lengths, bytes.

    Returns
    -------
    (numpy.ndarray, float)
        ``arrival`` itself and 0.0, or ``arrival - origin`` (a new array) and the origin,
        the first arrival, seconds.

    Raises
    ------
    ValueError
        If float64 cannot resolve :func:`resolution_s` over the run's span.
    """
    n = arrival.shape[0]
    if n == 0:
        return arrival, 0.0
    needed, drain = resolution_s(node), _drain_bound_s(node, size)
    if np.spacing(float(arrival[-1]) + drain) <= needed:
        return arrival, 0.0
    origin = float(arrival[0])
    _refuse_unresolved(
        float(arrival[-1]) - origin + drain, needed, f"from its first arrival {origin!r} s"
    )
    return arrival - origin, origin


def check_absolute(node, arrival: np.ndarray, size: np.ndarray) -> None:
    """Refuse arrivals whose absolute times float64 cannot resolve (runs that carry a node's
    state in absolute time from batch to batch, :func:`pqlab.streaming.run_batches`).

    Raises
    ------
    ValueError
        Naming ``arrival_s``, its reach and the resolution lost.
    """
    if arrival.shape[0]:
        _refuse_unresolved(
            float(arrival[-1]) + _drain_bound_s(node, size),
            resolution_s(node),
            "from 0 (a run in batches keeps absolute times: start its arrivals near 0)",
        )


def _drain_bound_s(node, size: np.ndarray) -> float:
    """An upper bound of the time the packets need on the line, s: each as long as the longest."""
    return size.shape[0] * line_time_s(int(size.max()), node.framing, node.line_rate_bps)


def _refuse_unresolved(span_s: float, needed_s: float, where: str) -> None:
    lost = float(np.spacing(span_s))
    if lost > needed_s:
        raise ValueError(
            f"arrival_s spans {span_s:.6g} s {where} to the last possible departure: float64"
            f" resolves only {lost:.3g} s there, coarser than the {needed_s:.3g} s resolution this"
            " node needs; split the packets into runs of a shorter span"
        )


def origin_attrs(origin: float) -> dict:
    """The Dataset attributes that state a run's time origin."""
    return {
        "time_origin_s": float(origin),
        "time_origin": "arrival, ring_entry and departure are seconds after time_origin_s",
    }
