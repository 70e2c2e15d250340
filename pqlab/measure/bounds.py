"""Analytical delay formulas of the papers, each with its equation number.

* :func:`worst_case_delay` and :func:`table_iv`: the worst-case average delay of
  an EF packet behind a priority queue and a transmission ring, GLOBECOM'01
  Sec. VI, eqs. (2)-(7) and Table IV.
* :func:`cobham_waits`: mean waiting times of an M/G/1 queue with
  non-preemptive priority classes (Cobham 1954; Bertsekas & Gallager, *Data
  Networks*, 2nd ed., Sec. 3.5.3, eq. 3.79), the model GLOBECOM'01 eq. (3)
  refers to.
* :func:`priority_queue_max_delay`: the largest queueing delay a full
  priority queue can add (GLOBECOM'01 Sec. V: "10 packets ... 1280 by ...
  5.12 msec").
* :func:`particle_time_s`: the time ``T_u`` to send one ring particle (the bounds' transmission
  unit, 2.048 ms; not the papers' delay unit, :func:`pqlab.papers.transmission_unit_s`, 0.636 ms).

All times are seconds unless a name says otherwise (``_us``: microseconds).
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..base._validate import check_array, check_choice, check_int, check_real
from ..node.framing import FRAMING_CODES, line_time_s

__all__ = [
    "WorstCase",
    "particle_time_s",
    "worst_case_delay",
    "table_iv",
    "cobham_waits",
    "priority_queue_max_delay",
]

#: GLOBECOM'01 Sec. VI test set-up: EF utilisation 300 kbit/s / 2 Mbit/s.
PAPER_RHO = 0.15
#: GLOBECOM'01 Sec. VI: transmission units in the transmission queue (tx-ring-limit).
PAPER_Q_T = 5
#: GLOBECOM'01 Sec. VI: 512-byte unit at 2 Mbit/s, unframed, seconds.
PAPER_T_U_S = 2048e-6
#: GLOBECOM'01 Table IV: BE packets occupying k = 1, 2, 3 transmission units.
PAPER_KS = (1, 2, 3)

WorstCase = namedtuple("WorstCase", ["w_pq_s", "w_t_s", "w_s"])
WorstCase.__doc__ = """Worst-case average delay of an EF packet, seconds (GLOBECOM'01 Sec. VI).

Fields
------
w_pq_s : float
    Priority-queue part ``W_pq = k T_u / (1 - rho)``, eq. (5).
w_t_s : float
    Transmission-queue part ``W_t = (Q_t + k - 1) T_u``, eq. (6).
w_s : float
    Total ``W = W_pq + W_t``, eqs. (2) and (7).
"""


def _check_utilisation(name: str, value) -> float:
    """Return ``value`` as float if it is a utilisation in ``[0, 1)``."""
    message = f"{name} must be a finite number in [0, 1), got {value!r}"
    try:
        rho = check_real(name, value, 0.0)
    except ValueError:
        raise ValueError(message) from None
    if rho >= 1.0:
        raise ValueError(message)
    return rho


def particle_time_s(particle_bytes: float, line_rate_bps: float) -> float:
    """Time to transmit one transmission unit (ring particle), ``T_u``, seconds.

    ``T_u = particle_bytes * 8 / line_rate_bps`` with no line framing, as in
    GLOBECOM'01 Sec. VI ("the transmission unit capacity equal to 512 bytes,
    its service time at the line speed is 2 milliseconds": 2048 us at 2 Mbit/s).

    Parameters
    ----------
    particle_bytes : int
        Transmission-unit (particle) size, bytes (>= 1).
    line_rate_bps : float
        Line rate, bit/s (> 0).

    Returns
    -------
    float
        ``T_u``, seconds.
    """
    particle = check_int("particle_bytes", particle_bytes, 1)
    rate = check_real("line_rate_bps", line_rate_bps, 0.0, strict_minimum=True)
    return line_time_s(particle, "none", rate)


def worst_case_delay(k: int, rho: float, q_t: int, t_u_s: float) -> WorstCase:
    """Worst-case average delay of an EF packet, GLOBECOM'01 eqs. (2)-(7).

    The EF packet waits in the priority queue for a maximal residual service
    ``R_max = k T_u`` (a BE packet of ``k`` units entering the ring), inflated by
    the priority class's own load as in the M/G/1 non-preemptive result
    ``D = R / (1 - rho)`` (eq. 3):

    * ``W_pq = k T_u / (1 - rho)`` (eqs. 4, 5);
    * ``W_t = (Q_t + Q_e) T_u`` with ``Q_e = k - 1`` units in the stand-by
      buffer (eq. 6);
    * ``W = W_pq + W_t = (k / (1 - rho) + Q_t + k - 1) T_u`` (eqs. 2, 7).

    Parameters
    ----------
    k : int
        Transmission units a BE packet occupies (>= 1).
    rho : float
        Utilisation of the priority (EF) class, in ``[0, 1)``. The paper uses
        0.15 = 300 kbit/s / 2 Mbit/s, i.e. 292.97 packet/s times the unframed
        512 us service time of a 128-byte EF packet.
    q_t : int
        Transmission units in the transmission queue, ``Q_t`` (the
        tx-ring-limit; >= 1, like ``Node.ring_limit_particles``). The paper uses 5.
    t_u_s : float
        Time to transmit one unit, ``T_u``, seconds (> 0); the paper uses
        2048e-6 (512 bytes at 2 Mbit/s, unframed; see :func:`particle_time_s`).

    Returns
    -------
    WorstCase
        ``(w_pq_s, w_t_s, w_s)``, seconds. With ``rho=0.15, q_t=5,
        t_u_s=2048e-6`` and ``k=1`` : 2409.41, 10240, 12649.41 us (Table IV).
    """
    k = check_int("k", k, 1)
    rho = _check_utilisation("rho", rho)
    q_t = check_int("q_t", q_t, 1)
    t_u_s = check_real("t_u_s", t_u_s, 0.0, strict_minimum=True)
    w_pq_s = k * t_u_s / (1.0 - rho)
    q_e = k - 1
    w_t_s = (q_t + q_e) * t_u_s
    return WorstCase(w_pq_s, w_t_s, w_pq_s + w_t_s)


def table_iv(
    rho: float = PAPER_RHO,
    q_t: int = PAPER_Q_T,
    t_u_s: float = PAPER_T_U_S,
    ks: Sequence[int] = PAPER_KS,
) -> pd.DataFrame:
    """GLOBECOM'01 Table IV: worst-case average delay for each ``k``, microseconds.

    Values are exact (unrounded). The paper prints them cut to the hundredth
    of a microsecond: truncation reproduces all nine printed values, while
    rounding gives 7228.24 and 21564.24 for ``k = 3`` where the paper prints
    7228.23 and 21564.23 (= 3 x its rounded 2409.41).

    Parameters
    ----------
    rho, q_t, t_u_s
        As in :func:`worst_case_delay` (defaults: the paper's 0.15, 5, 2048e-6 s).
    ks : sequence of int
        Values of ``k``, one row each (default 1, 2, 3).

    Returns
    -------
    pandas.DataFrame
        Columns ``k``, ``W_pq_us``, ``W_t_us``, ``W_us``.
    """
    k_values = check_array("ks", list(ks), kind="int", minimum=1)
    rows = [worst_case_delay(int(k), rho, q_t, t_u_s) for k in k_values]
    return pd.DataFrame(
        {
            "k": k_values,
            "W_pq_us": [r.w_pq_s * 1e6 for r in rows],
            "W_t_us": [r.w_t_s * 1e6 for r in rows],
            "W_us": [r.w_s * 1e6 for r in rows],
        }
    )


def _check_class_array(name: str, values, length: int | None) -> np.ndarray:
    """A 1-D finite float array with one element per priority class."""
    arr = check_array(name, values, kind="float")
    if arr.size == 0:
        raise ValueError(f"{name} must hold at least one priority class, got an empty array")
    if length is not None and arr.size != length:
        raise ValueError(
            f"{name} must have {length} elements (one per priority class, like arrival_rate_per_s),"
            f" got {arr.size}"
        )
    return arr


def cobham_waits(
    arrival_rate_per_s: npt.ArrayLike,
    mean_service_s: npt.ArrayLike,
    second_moment_service_s2: npt.ArrayLike,
) -> np.ndarray:
    """Mean waiting times of M/G/1 non-preemptive priority classes (Cobham's formula).

    Classes are ordered highest priority first. For class ``k``

    ``W_k = R / ((1 - sigma_{k-1}) (1 - sigma_k))``,
    ``R = sum_i lambda_i E[S_i^2] / 2``, ``sigma_k = sum_{i<=k} rho_i``,
    ``rho_i = lambda_i E[S_i]``, ``sigma_0 = 0``

    (Cobham 1954; Bertsekas & Gallager, *Data Networks*, 2nd ed., eq. 3.79,
    pp. 203-205). ``W_1 = R / (1 - rho_1)`` is GLOBECOM'01 eq. (3). ``R`` is the
    mean residual service time over all classes (non-preemptive: a waiting
    packet of any class finishes its service).

    Parameters
    ----------
    arrival_rate_per_s : array_like of float
        Poisson arrival rate of each class, packet/s (>= 0).
    mean_service_s : array_like of float
        Mean service time ``E[S_i]`` of each class, seconds (> 0).
    second_moment_service_s2 : array_like of float
        Second moment ``E[S_i^2]`` of each class's service time, s^2
        (>= ``E[S_i]^2``; equal for deterministic service, ``2 E[S_i]^2`` for
        exponential).

    Returns
    -------
    numpy.ndarray
        Mean waiting time in queue of each class, seconds (excluding its own
        service). Add ``mean_service_s`` for the mean sojourn time.

    Raises
    ------
    ValueError
        If lengths differ, a value is out of range, or the total utilisation
        ``sum(arrival_rate_per_s * mean_service_s)`` is not < 1.
    """
    lam = _check_class_array("arrival_rate_per_s", arrival_rate_per_s, None)
    mean_s = _check_class_array("mean_service_s", mean_service_s, lam.size)
    second_s2 = _check_class_array("second_moment_service_s2", second_moment_service_s2, lam.size)
    if lam.min() < 0.0:
        bad = int(np.argmin(lam))
        raise ValueError(f"arrival_rate_per_s must be >= 0, got {lam[bad]!r} at index {bad}")
    if mean_s.min() <= 0.0:
        bad = int(np.argmin(mean_s))
        raise ValueError(f"mean_service_s must be > 0, got {mean_s[bad]!r} at index {bad}")
    too_small = second_s2 < mean_s**2 * (1.0 - 1e-12)
    if np.any(too_small):
        bad = int(np.flatnonzero(too_small)[0])
        raise ValueError(
            "second_moment_service_s2 must be >= mean_service_s**2 (a variance is >= 0), "
            f"got {second_s2[bad]!r} < {mean_s[bad] ** 2!r} at index {bad}"
        )
    rho = lam * mean_s
    sigma = np.cumsum(rho)
    if sigma[-1] >= 1.0:
        raise ValueError(
            "arrival_rate_per_s and mean_service_s must give a total utilisation "
            f"sum(arrival_rate_per_s * mean_service_s) < 1, got {sigma[-1]!r}"
        )
    residual_s = np.sum(lam * second_s2) / 2.0
    sigma_before = np.concatenate(([0.0], sigma[:-1]))
    return residual_s / ((1.0 - sigma_before) * (1.0 - sigma))


def priority_queue_max_delay(
    limit_packets: int, size_bytes: int, line_rate_bps: float, framing: str = "none"
) -> float:
    """Largest queueing delay a full priority queue adds, seconds.

    ``limit_packets * line_time(size_bytes)``; unframed this is
    ``limit_packets * size_bytes * 8 / line_rate_bps``, GLOBECOM'01 Sec. V:
    "a short EF queue (10 packets ...) limits the maximum instantaneous burst
    to 1280 by which corresponds to a maximum queueing delay of 5.12 msec"
    (10 x 128 bytes at 2 Mbit/s).

    Parameters
    ----------
    limit_packets : int
        Priority-queue limit, packets (>= 1).
    size_bytes : int
        Size of each queued packet, bytes (>= 1).
    line_rate_bps : float
        Line rate, bit/s (> 0).
    framing : {"none", "atm-aal5", "ethernet"}
        Line framing (default ``"none"``, as the paper); ``"atm-aal5"`` gives
        the line time the engine uses (10 x 0.636 ms for 128-byte packets).

    Returns
    -------
    float
        Seconds.
    """
    limit = check_int("limit_packets", limit_packets, 1)
    size = check_int("size_bytes", size_bytes, 1)
    rate = check_real("line_rate_bps", line_rate_bps, 0.0, strict_minimum=True)
    check_choice("framing", framing, tuple(FRAMING_CODES))
    return limit * line_time_s(size, framing, rate)
