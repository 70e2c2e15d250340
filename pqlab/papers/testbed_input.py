"""What happens to the test bed's packets before the C7200's queues (:mod:`pqlab.papers.testbed`).

Three mechanisms, each a pure function of arrays and a seeded generator:

* the software generators' timer ticks (:func:`generator_release_s`): mgen 3.1 and the BE
  workstations on a 2001-era OS release due packets at their host's next timer tick; the EF
  streams may be spread over several hosts, each with its own timer phase;
* the shared input Ethernet port (:func:`ethernet_port_s`): a store-and-forward FIFO;
* rare router stalls (:func:`stalled_s`): while the router is busy with process-level
  housekeeping, a packet reaching it waits for the stall's end.
"""

from __future__ import annotations

import functools

import numpy as np

from ..base.jitcache import cached_njit
from ..measure.experiments import REFERENCE_FLOW
from ..node.engine import run_kernel, validate_arrivals
from ..node.framing import PACKET_PARTICLE_BYTES, line_time_s
from ..node.model import Node, Queue
from .presets import FIRST_BE_FLOW

__all__ = [
    "FIFO_LIMIT_PACKETS",
    "ef_host_of",
    "generator_release_s",
    "ethernet_port_s",
    "stable_order",
    "stall_windows_s",
    "stalled_s",
]

#: Queue limit of a simulated FIFO device (input Ethernet port, downstream hop): no loss there.
FIFO_LIMIT_PACKETS = 10_000_000


def ef_host_of(flow: np.ndarray, ef_hosts: int) -> np.ndarray:
    """The mgen host of each extra EF flow (flows ``1, 2, ...`` dealt to hosts in turn), ``-1`` for
    other flows."""
    flow = np.asarray(flow)
    extra = (flow != REFERENCE_FLOW) & (flow < FIRST_BE_FLOW)
    return np.where(extra, (flow - 1) % ef_hosts, -1)


def generator_release_s(
    send_s: np.ndarray, flow: np.ndarray, tick_s: float, ef_hosts: int, rng
) -> np.ndarray:
    """Release times of the software generators' packets at their host's next timer tick, seconds.

    The reference flow (the SmartBits' hardware generator) keeps its exact times. Each EF host
    (:func:`ef_host_of`) and the BE host have a timer of period ``tick_s`` with a phase drawn
    uniformly from ``rng`` (the first EF host's and the BE host's phases first, so one EF host
    draws exactly what the single-host model drew); a packet due at ``t`` leaves at the first tick
    at or after ``t``. ``tick_s = 0``: no tick, the times are returned unchanged (a copy).
    """
    out = np.array(send_s, dtype=np.float64, copy=True)
    if tick_s <= 0:
        return out
    first = rng.random(2) * tick_s  # the (first) EF host's and the BE host's timer phases
    ef_phase = np.concatenate([first[:1], rng.random(ef_hosts - 1) * tick_s])
    flow = np.ascontiguousarray(flow, dtype=np.int64)
    _released_at_ticks(
        out,
        ef_host_of(flow, ef_hosts),
        flow >= FIRST_BE_FLOW,
        ef_phase,
        float(first[1]),
        float(tick_s),
        out,
    )
    return out


@cached_njit(nogil=True)
def _released_at_ticks(send_s, host, be, ef_phase, be_phase, tick_s, out):
    """:func:`generator_release_s` per packet: a packet of EF host ``host[i] >= 0`` (phase
    ``ef_phase[host[i]]``) or of the BE host (``be[i]``, phase ``be_phase``) leaves at
    ``phase + ceil((t - phase) / tick_s - 1e-12) * tick_s``; any other keeps its time.
    ``out`` may be ``send_s``."""
    for i in range(send_s.shape[0]):
        if host[i] >= 0:
            phase = ef_phase[host[i]]
        elif be[i]:
            phase = be_phase
        else:
            out[i] = send_s[i]
            continue
        out[i] = phase + np.ceil((send_s[i] - phase) / tick_s - 1e-12) * tick_s


@functools.lru_cache(maxsize=16)
def _ethernet_port(rate_bps: float) -> Node:
    """The switch port as a node: one FIFO queue, a one-packet ring, Ethernet framing at
    ``rate_bps``."""
    return Node(
        rate_bps,
        "ethernet",
        1,
        PACKET_PARTICLE_BYTES,
        (Queue("wfq", FIFO_LIMIT_PACKETS, weight_bps=rate_bps),),
    )


def ethernet_port_s(send_s: np.ndarray, size: np.ndarray, rate_bps: float) -> np.ndarray:
    """Arrival at the C7200 through one store-and-forward Ethernet port (FIFO at ``rate_bps``),
    seconds."""
    own = line_time_s(size, "ethernet", rate_bps)
    at_switch = send_s + own  # the frame has left the sender's port: the switch holds it whole
    order = stable_order(at_switch)
    port = _ethernet_port(float(rate_bps))
    arrays = validate_arrivals(
        port, at_switch[order], size[order], np.zeros(size.size, dtype=np.int64)
    )
    departure = run_kernel(port, *arrays)[1]
    out = np.empty_like(send_s)
    out[order] = departure
    return out


def stable_order(time_s: np.ndarray, key: np.ndarray | None = None) -> np.ndarray:
    """``numpy.lexsort((key, time_s))`` (``numpy.argsort(time_s, kind="stable")`` without ``key``):
    the packets by time, equal times by key, then by index, for finite times.

    The test bed's times between devices are nearly sorted (a FIFO's departures, send times plus
    a line time), so they are sorted by insertion in compiled code (:func:`_insertion_order`),
    with numpy's sort when the insertion would move more than :data:`INSERTION_MOVES` entries per
    packet; a stable order is unique, so both give the same permutation.
    """
    time_s = np.ascontiguousarray(time_s, dtype=np.float64)
    keys = (
        np.zeros(time_s.shape[0], dtype=np.int64)
        if key is None
        else np.ascontiguousarray(key, dtype=np.int64)
    )
    out = np.empty(time_s.shape[0], dtype=np.int64)
    if _insertion_order(time_s, keys, INSERTION_MOVES, out):
        return out
    return np.argsort(time_s, kind="stable") if key is None else np.lexsort((keys, time_s))


#: Entries :func:`stable_order`'s insertion may move per packet before it leaves the sort to numpy.
INSERTION_MOVES = 16


@cached_njit(nogil=True)
def _insertion_order(time_s, key, moves_per_packet, out):
    """``out``: the indices sorted by (time, key, index), by insertion (each index placed after
    every earlier one not greater). False, ``out`` unfinished, once more than
    ``moves_per_packet`` entries per packet (plus 64) have been moved."""
    budget = moves_per_packet * time_s.shape[0] + 64
    for a in range(time_s.shape[0]):
        t = time_s[a]
        k = key[a]
        b = a - 1
        while b >= 0 and (time_s[out[b]] > t or (time_s[out[b]] == t and key[out[b]] > k)):
            out[b + 1] = out[b]
            b -= 1
            budget -= 1
        if budget < 0:
            return False
        out[b + 1] = a
    return True


def stall_windows_s(end_s: float, interval_s: float, stall_s: float, rng) -> np.ndarray:
    """Start times of the router's stalls in ``[0, end_s]``: a Poisson process of mean spacing
    ``interval_s``
    (spacings drawn exponentially, each at least ``stall_s`` so that stalls do not overlap),
    seconds.
    """
    if interval_s <= 0 or stall_s <= 0 or end_s <= 0:
        return np.empty(0)
    n = int(end_s / interval_s * 1.5) + 16
    starts = np.cumsum(np.maximum(rng.exponential(interval_s, n), stall_s))
    while starts[-1] < end_s:  # rare: the first batch fell short
        starts = np.concatenate(
            [starts, starts[-1] + np.cumsum(np.maximum(rng.exponential(interval_s, n), stall_s))]
        )
    return starts[starts <= end_s]


def stalled_s(at_node_s: np.ndarray, starts_s: np.ndarray, stall_s: float) -> np.ndarray:
    """Arrival times at the router's queues: a packet reaching it inside a stall ``[start, start +
    stall_s)``
    waits for the stall's end; others keep their time (seconds; the order of packets is kept)."""
    out = np.array(at_node_s, dtype=np.float64, copy=True)
    if starts_s.size == 0:
        return out
    k = (
        np.searchsorted(starts_s, out, side="right") - 1
    )  # the last stall starting at or before the packet
    inside = (k >= 0) & (out < starts_s[np.maximum(k, 0)] + stall_s)
    out[inside] = starts_s[k[inside]] + stall_s
    return out
