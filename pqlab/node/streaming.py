"""Runs of any length in bounded memory: batches through one carried node state, summaries online.

:func:`run_batches` feeds consecutive batches of arrivals through a
:class:`pqlab.node.engine.NodeState`, so the per-packet outputs are exactly those of
one in-memory run over all arrivals; a batch is handed on once every one of its
packets has its fate (a packet may wait in a queue across batch boundaries).
:class:`FlowSummary` accumulates per-flow statistics from those batches (count,
loss by cause, delay moments, min/max, fixed-bin delay and IPDV histograms) and
:func:`simulate_summary` runs a whole scenario that way, generating its traffic
window by window, without ever holding more than a few windows of packets.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import Any
from collections import deque

import numpy as np
import xarray as xr
from numba import njit

from ..base._validate import check_int, check_memory, check_real
from .engine import EARLY_DROP, POLICED, QUEUE_FULL, NodeState, validate_arrivals
from .markers import FlowColours
from .model import Node
from .path import PathModel
from ..base.provenance import provenance_attrs
from .scenario import Scenario, check_trace_window, kernel_options, red_uniforms
from .timeorigin import check_absolute
from .traffic import TrafficWindows


#: Largest histogram of one flow, bytes (16 MiB: 2 million bins).
MAX_HISTOGRAM_BYTES = 16 * 2**20
#: Largest number of traffic windows of one run (the window edges are one array).
MAX_WINDOWS = 10_000_000


def run_batches(node: Node, batches: Iterable[tuple]) -> Iterator[tuple]:
    """Run consecutive batches ``(arrival_s, size_bytes, queue, extra)`` through one node state.

    Parameters
    ----------
    node : Node
        The node.
    batches : iterable of tuple
        ``(arrival_s, size_bytes, queue, extra)``: each batch's arrivals must not
        precede the previous batch's; ``extra`` (e.g. flow ids) is passed through.
        Optionally ``(arrival_s, size_bytes, queue, extra, colour, red_uniform)``: the
        packets' colours (int8, 0 green, 1 yellow, 2 red; None: all green) and RED draws
        (float64 in [0, 1), one per packet; required when a queue has RED, else None), as
        :func:`pqlab.node.engine.run_kernel` takes them.

    Yields
    ------
    tuple
        ``(arrival_s, size_bytes, queue, extra, ring_entry_s, departure_s, drop)``
        per non-empty input batch, in order, once all its packets are resolved
        (empty batches are skipped). The
        concatenated outputs equal :func:`pqlab.node.engine.run_kernel` on the
        concatenated inputs, bit for bit.
    """
    state = NodeState(node)
    pending: deque = deque()  # [first id, arrays..., ring_entry, departure, drop, unresolved count]
    iterator = (b for b in batches if np.asarray(b[0]).size)  # an empty batch has no horizon
    nxt = next(iterator, None)
    while nxt is not None:
        arrival, size, queue = validate_arrivals(node, *nxt[:3])
        check_absolute(node, arrival, size)  # the carried state is in absolute time
        extra, options = nxt[3], kernel_options(*nxt[4:6]) if len(nxt) > 4 else {}
        nxt = next(iterator, None)
        horizon = np.inf if nxt is None else float(np.asarray(nxt[0], dtype=float)[0])
        first_id = state.next_id
        ring_entry, departure, drop, (cid, centry, cdep) = state.advance(arrival, size, queue, horizon, **options)
        for entry in pending:
            lo, hi = entry[0], entry[0] + entry[1].shape[0]
            mine = (cid >= lo) & (cid < hi)
            if mine.any():
                local = cid[mine] - lo
                entry[5][local] = centry[mine]
                entry[6][local] = cdep[mine]
                entry[8] -= int(mine.sum())
        unresolved = int(np.count_nonzero((drop == 0) & np.isnan(ring_entry)))
        pending.append([first_id, arrival, size, queue, extra, ring_entry, departure, drop, unresolved])
        while pending and pending[0][8] == 0:
            yield tuple(pending.popleft()[1:8])
    while pending:  # the last batch drains everything (horizon inf)
        yield tuple(pending.popleft()[1:8])


class FlowSummary:
    """Per-flow statistics accumulated online from resolved batches (in arrival order): packets
    offered, policed, dropped at a full queue and dropped early (RED/WRED), delay and IPDV.

    Parameters
    ----------
    path : PathModel
        Added to ``departure - arrival`` for the one-way delay.
    delay_bin_s, delay_max_s : float
        Width and upper end of the one-way delay histogram, seconds (bins from 0;
        values beyond go to the last bin, which is flagged as overflow).
    ipdv_bin_s, ipdv_max_s : float
        Width and range ``[-ipdv_max_s, ipdv_max_s)`` of the IPDV histogram, seconds.
    start_s : float
        Packets arriving before this (warm-up) are simulated but not counted.

    Notes
    -----
    IPDV follows RFC 3393: consecutive packets of a flow in arrival order; a
    pair with a lost packet gives no value. The pair spanning two batches is
    formed from the last delay carried per flow.
    """

    def __init__(self, path: PathModel | None = None, *, delay_bin_s=1e-4, delay_max_s=0.2,
                 ipdv_bin_s=1e-4, ipdv_max_s=0.1, start_s: float = 0.0):
        self.path = PathModel() if path is None else path
        if not isinstance(self.path, PathModel):
            raise ValueError(f"path must be a pqlab.node.path.PathModel, got {type(self.path).__name__}")
        self.delay_bin_s = check_real("delay_bin_s", delay_bin_s, 0.0, strict_minimum=True)
        self.delay_max_s = check_real("delay_max_s", delay_max_s, self.delay_bin_s)
        self.ipdv_bin_s = check_real("ipdv_bin_s", ipdv_bin_s, 0.0, strict_minimum=True)
        self.ipdv_max_s = check_real("ipdv_max_s", ipdv_max_s, self.ipdv_bin_s)
        self.start_s = check_real("start_s", start_s, 0.0)
        self.n_delay_bins = check_memory("delay_bin_s (delay_max_s / delay_bin_s histogram bins per flow)",
                                         math.ceil(self.delay_max_s / self.delay_bin_s), 8, MAX_HISTOGRAM_BYTES)
        self.n_ipdv_bins = check_memory("ipdv_bin_s (2 * ipdv_max_s / ipdv_bin_s histogram bins per flow)",
                                        math.ceil(2 * self.ipdv_max_s / self.ipdv_bin_s), 8, MAX_HISTOGRAM_BYTES)
        self.n_flows = 0
        self._counts = {k: np.zeros(0, np.int64) for k in ("sent", "policed", "queue_full", "early_drop", "ipdv_count")}
        self._sums = {k: np.zeros(0) for k in ("delay_sum", "delay_sumsq", "ipdv_sum", "ipdv_sumsq", "ipdv_abs_sum")}
        self._min = np.zeros(0)
        self._max = np.zeros(0)
        self._delay_hist = np.zeros((0, self.n_delay_bins), np.int64)
        self._ipdv_hist = np.zeros((0, self.n_ipdv_bins), np.int64)
        self._last_delay = np.zeros(0)  # last packet's delay per flow (NaN: lost or none yet)

    def _grow(self, n_flows: int):
        if n_flows <= self.n_flows:
            return
        extra = n_flows - self.n_flows
        for d, fill in ((self._counts, 0), (self._sums, 0.0)):
            for k in d:
                d[k] = np.concatenate([d[k], np.full(extra, fill, d[k].dtype)])
        self._min = np.concatenate([self._min, np.full(extra, np.inf)])
        self._max = np.concatenate([self._max, np.full(extra, -np.inf)])
        self._delay_hist = np.vstack([self._delay_hist, np.zeros((extra, self.n_delay_bins), np.int64)])
        self._ipdv_hist = np.vstack([self._ipdv_hist, np.zeros((extra, self.n_ipdv_bins), np.int64)])
        self._last_delay = np.concatenate([self._last_delay, np.full(extra, np.nan)])
        self.n_flows = n_flows

    def update(self, arrival_s: np.ndarray, size_bytes: np.ndarray, flow: np.ndarray, departure_s: np.ndarray,
               drop: np.ndarray) -> None:
        """Add one resolved batch (arrays in arrival order)."""
        if flow.size == 0:
            return
        self._grow(int(flow.max()) + 1)
        delay = departure_s - arrival_s + self.path.extra_delay_s(size_bytes)
        c, s = self._counts, self._sums
        _accumulate(
            arrival_s, np.ascontiguousarray(flow, dtype=np.int64), delay, drop, self.start_s,
            self.delay_bin_s, self.ipdv_bin_s, self.ipdv_max_s,
            c["sent"], c["policed"], c["queue_full"], c["early_drop"], c["ipdv_count"],
            s["delay_sum"], s["delay_sumsq"], s["ipdv_sum"], s["ipdv_sumsq"], s["ipdv_abs_sum"],
            self._min, self._max, self._delay_hist, self._ipdv_hist, self._last_delay,
        )

    def to_dataset(self) -> xr.Dataset:
        """The summaries as a Dataset with dims ``flow``, ``delay_bin``, ``ipdv_bin``."""
        c, s = self._counts, self._sums
        kept = c["sent"] - c["policed"] - c["queue_full"] - c["early_drop"]
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = s["delay_sum"] / kept
            var = (s["delay_sumsq"] - kept * mean**2) / (kept - 1)
            ipdv_mean = s["ipdv_sum"] / c["ipdv_count"]
            ipdv_abs = s["ipdv_abs_sum"] / c["ipdv_count"]
            ipdv_var = (s["ipdv_sumsq"] - c["ipdv_count"] * ipdv_mean**2) / (c["ipdv_count"] - 1)
            loss = 1.0 - kept / c["sent"]
        f = ("flow",)
        present = c["sent"] > 0
        return xr.Dataset(
            {
                "sent": (f, c["sent"], _attrs("1", "packets offered")),
                "policed": (f, c["policed"], _attrs("1", "packets policed")),
                "queue_full": (f, c["queue_full"], _attrs("1", "packets dropped, queue full")),
                "early_drop": (f, c["early_drop"], _attrs("1", "packets dropped early (RED/WRED)")),
                "loss_ratio": (f, loss, _attrs("1", "lost / offered")),
                "delay_mean": (f, mean, _attrs("s", "mean one-way delay")),
                "delay_std": (f, np.sqrt(np.maximum(var, 0.0)), _attrs("s", "std of one-way delay")),
                "delay_min": (f, np.where(kept > 0, self._min, np.nan), _attrs("s", "minimum one-way delay")),
                "delay_max": (f, np.where(kept > 0, self._max, np.nan), _attrs("s", "maximum one-way delay")),
                "ipdv_count": (f, c["ipdv_count"], _attrs("1", "IPDV values (pairs without loss)")),
                "ipdv_mean": (f, ipdv_mean, _attrs("s", "mean IPDV")),
                "ipdv_abs_mean": (f, ipdv_abs, _attrs("s", "mean |IPDV| (jitter)")),
                "ipdv_std": (f, np.sqrt(np.maximum(ipdv_var, 0.0)), _attrs("s", "std of IPDV")),
                "delay_hist": (("flow", "delay_bin"), self._delay_hist,
                               _attrs("1", "one-way delay histogram (last bin: overflow)")),
                "ipdv_hist": (("flow", "ipdv_bin"), self._ipdv_hist,
                              _attrs("1", "IPDV histogram (first/last bins: overflow)")),
            },
            coords={
                "flow": np.arange(self.n_flows),
                "delay_bin": ("delay_bin", np.arange(self.n_delay_bins) * self.delay_bin_s,
                              _attrs("s", "left edge of the delay bin")),
                "ipdv_bin": ("ipdv_bin", -self.ipdv_max_s + np.arange(self.n_ipdv_bins) * self.ipdv_bin_s,
                             _attrs("s", "left edge of the IPDV bin")),
            },
        ).isel(flow=np.flatnonzero(present))


@njit(cache=True, nogil=True)
def _accumulate(arrival_s, flow, delay_s, drop, start_s, delay_bin_s, ipdv_bin_s, ipdv_max_s,
                sent, policed, queue_full, early_drop, ipdv_count, delay_sum, delay_sumsq, ipdv_sum, ipdv_sumsq,
                ipdv_abs_sum, delay_min, delay_max, delay_hist, ipdv_hist, last_delay):
    """Add packets (in arrival order) to the per-flow accumulators, in place."""
    n_delay_bins = delay_hist.shape[1]
    n_ipdv_bins = ipdv_hist.shape[1]
    for i in range(arrival_s.shape[0]):
        if arrival_s[i] < start_s:
            continue
        f = flow[i]
        sent[f] += 1
        d = delay_s[i]
        if drop[i] == POLICED:
            policed[f] += 1
        elif drop[i] == QUEUE_FULL:
            queue_full[f] += 1
        elif drop[i] == EARLY_DROP:
            early_drop[f] += 1
        if drop[i] == 0:
            delay_sum[f] += d
            delay_sumsq[f] += d * d
            if d < delay_min[f]:
                delay_min[f] = d
            if d > delay_max[f]:
                delay_max[f] = d
            b = int(d / delay_bin_s)
            delay_hist[f, b if b < n_delay_bins else n_delay_bins - 1] += 1
            prev = last_delay[f]
            if prev == prev:  # RFC 3393: a pair with a lost packet gives no value
                v = d - prev
                ipdv_count[f] += 1
                ipdv_sum[f] += v
                ipdv_sumsq[f] += v * v
                ipdv_abs_sum[f] += abs(v)
                b = int((v + ipdv_max_s) / ipdv_bin_s)
                if b < 0:
                    b = 0
                elif b >= n_ipdv_bins:
                    b = n_ipdv_bins - 1
                ipdv_hist[f, b] += 1
            last_delay[f] = d
        else:
            last_delay[f] = np.nan


def _attrs(units: str, long_name: str) -> dict:
    return {"units": units, "long_name": long_name}


def simulate_summary(scenario: Scenario, seed: int = 0, *, window_s: float = 10.0, **summary_kw: Any) -> xr.Dataset:
    """Run ``scenario`` window by window and return per-flow summaries (bounded memory).

    Parameters
    ----------
    scenario : Scenario
        The scenario; its warm-up is excluded from the summaries and its path
        added to the delays.
    seed : int
        Seed of the traffic, an integer >= 0 (windows are drawn in order: deterministic per seed
        and ``window_s``; the per-packet draws differ from :func:`pqlab.simulate`'s
        single window, the engine's outputs on the same arrivals do not). A node with RED/WRED
        draws its packets' uniforms (rule 2a) from a generator of their own, the seed's first
        spawned child (``numpy.random.SeedSequence(seed).spawn(1)[0]``), window after window in
        packet order: the traffic is the one the node without RED sees, and a run cut into other
        windows that gives the same packets gives each packet the same draw. Markers' buckets
        are carried from window to window (:class:`pqlab.node.markers.FlowColours`).
    window_s : float
        Seconds of traffic generated and simulated per batch (> 0, at most
        :data:`MAX_WINDOWS` windows per run); memory grows with the packets in one window.
    **summary_kw
        Histogram settings of :class:`FlowSummary`.

    Returns
    -------
    xarray.Dataset
        The :meth:`FlowSummary.to_dataset` summaries with provenance attrs (and
        ``trace_packets_outside_window`` for a scenario with trace streams).

    Raises
    ------
    ValueError
        On a bad argument, or a trace stream none of whose packets is in the run's window
        ``[0, duration_s)``; a trace partly outside warns, as :func:`pqlab.simulate` (the
        window rule: :func:`pqlab.node.scenario.check_trace_window`).
    """
    if not isinstance(scenario, Scenario):
        raise ValueError(f"scenario must be a pqlab.Scenario, got {type(scenario).__name__}")
    seed = check_int("seed", seed, 0)
    window_s = check_real("window_s", window_s, 0.0, strict_minimum=True)
    n_windows = math.ceil(scenario.duration_s / window_s)
    if n_windows > MAX_WINDOWS:
        raise ValueError(
            f"window_s must give at most {MAX_WINDOWS:,} windows of the {scenario.duration_s!r} s run "
            f"(window_s >= {scenario.duration_s / MAX_WINDOWS:.3g} s), got {window_s!r}: "
            f"{n_windows:,} windows would need {n_windows * 8 / 2**30:.3g} GiB for their edges alone"
        )
    window_attrs = check_trace_window(scenario, stacklevel=2)
    summary = FlowSummary(scenario.path, start_s=scenario.warmup_s, **summary_kw)  # checks its sizes first
    traffic = TrafficWindows(scenario.streams, np.random.default_rng(seed))
    colours = FlowColours(scenario.streams)
    red_rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])
    edges = np.append(np.arange(0.0, scenario.duration_s, window_s), scenario.duration_s)

    def batches():
        for t0, t1 in zip(edges[:-1], edges[1:]):
            arrival, size, queue, flow = traffic.window(t0, t1)
            # One draw per packet in packet order from a generator used for nothing else: the
            # concatenated draws of consecutive windows are the draws of one window of all packets.
            yield (arrival, size, queue, flow, colours.colour(arrival, size, flow),
                   red_uniforms(scenario.node, red_rng, arrival.shape[0]))

    for arrival, size, _queue, flow, _entry, departure, drop in run_batches(scenario.node, batches()):
        summary.update(arrival, size, flow, departure, drop)
    ds = summary.to_dataset()
    ds.attrs.update(provenance_attrs(
        title=f"pqlab streaming summary: {scenario.name}",
        history="computed by pqlab.streaming.simulate_summary (streaming mode, windows of window_s)",
        seed=int(seed),
        window_s=window_s,
        scenario=scenario.to_json(),
        **window_attrs,
    ))
    return ds
