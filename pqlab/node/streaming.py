"""Runs of any length in bounded memory: batches through one carried node state, summaries online.

:func:`run_batches` feeds consecutive batches of arrivals through a
:class:`pqlab.node.engine.NodeState`, so the per-packet outputs are exactly those of
one in-memory run over all arrivals; a batch is handed on once every one of its
packets has its fate (a packet may wait in a queue across batch boundaries).
:class:`pqlab.node.summary.FlowSummary` accumulates per-flow and per-class statistics from
those batches (counts, bytes, loss by cause, delay and IPDV moments, min/max, percentiles within a
stated relative error) and :func:`simulate_summary` runs a whole scenario that way, generating its
traffic
window by window, without ever holding more than a few windows of packets (:func:`summarize`
returns the mergeable summary itself, for runs spread over workers).
"""

from __future__ import annotations

import hashlib
import math
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
import xarray as xr

from ..base._validate import check_int, check_real
from ..base.confidence import DEFAULT_BATCHES, check_batches, check_confidence
from ..base.percentiles import percentile_names
from ..base.provenance import provenance_attrs
from .batches import BatchSums
from .engine import NodeState, validate_arrivals
from .markers import UNMARKED, FlowColours
from .measured import CLASS_COORD_ATTRS
from .model import Node
from .scenario import Scenario, check_trace_window, kernel_options, red_uniforms
from .summary import FlowSummary, merge_summaries
from .timeorigin import check_absolute
from .traffic import TrafficWindows

__all__ = ["FlowSummary", "merge_summaries", "run_batches", "simulate_summary", "summarize"]

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
        ring_entry, departure, drop, (cid, centry, cdep) = state.advance(
            arrival, size, queue, horizon, **options
        )
        for entry in pending:
            lo, hi = entry[0], entry[0] + entry[1].shape[0]
            mine = (cid >= lo) & (cid < hi)
            if mine.any():
                local = cid[mine] - lo
                entry[5][local] = centry[mine]
                entry[6][local] = cdep[mine]
                entry[8] -= int(mine.sum())
        unresolved = int(np.count_nonzero((drop == 0) & np.isnan(ring_entry)))
        pending.append(
            [first_id, arrival, size, queue, extra, ring_entry, departure, drop, unresolved]
        )
        while pending and pending[0][8] == 0:
            yield tuple(pending.popleft()[1:8])
    while pending:  # the last batch drains everything (horizon inf)
        yield tuple(pending.popleft()[1:8])


def simulate_summary(
    scenario: Scenario,
    seed: int = 0,
    *,
    window_s: float = 10.0,
    ci: float | None = None,
    n_batches: int = DEFAULT_BATCHES,
    **summary_kw: Any,
) -> xr.Dataset:
    """Run ``scenario`` window by window and return per-flow and per-class summaries (bounded
    memory).

    Parameters
    ----------
    scenario : Scenario
        The scenario; its warm-up is excluded from the summaries (packets arriving before
        ``warmup_s`` are simulated, not counted: attr ``warmup_s``) and its path added to the
        delays.
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
    ci : float, optional
        A confidence level in (0, 1) (e.g. 0.95): add each class's confidence interval of the
        mean delay and of the delay percentiles from this one run, as :func:`pqlab.summary_table`
        gives them (``[warmup_s, duration_s)`` cut into ``n_batches`` equal lengths of time;
        batch means for the mean, sectioning for the percentiles, each batch's percentiles read
        from its own log-binned histogram: :class:`pqlab.node.batches.BatchSums`). Memory: a sum,
        a count and a histogram per class and batch. None (default): no interval.
    n_batches : int
        Batches of the intervals, in [2, 10000] (default 20; Schmeiser 1982: 10 to 30).
    **summary_kw
        Settings of :class:`pqlab.node.summary.FlowSummary`: histograms, the percentiles'
        relative accuracy ``alpha`` and range ``sketch_min_s``/``sketch_max_s``, ``percentiles``
        (percents; ``colours`` is the scenario's).

    Returns
    -------
    xarray.Dataset
        The :meth:`pqlab.node.summary.FlowSummary.to_dataset` summaries (per flow, per class
        ``traffic_class`` = queue index, percentiles within relative error ``alpha``; when a
        stream or a class has a marker, the counts per colour group ``colour``: -1 unmarked,
        0 green, 1 yellow, 2 red) with provenance attrs (and ``trace_packets_outside_window``
        for a scenario with trace streams). With ``ci``, per class: ``class_delay_mean_ci_low``,
        ``class_delay_mean_ci_high``, ``class_delay_p<q>_ci_low``/``_ci_high`` (s),
        ``class_delay_batch_lag1`` (1), and the attrs ``ci_confidence`` and ``ci_batches``.

    Raises
    ------
    ValueError
        On a bad argument, or a trace stream none of whose packets is in the run's window
        ``[0, duration_s)``; a trace partly outside warns, as :func:`pqlab.simulate` (the
        window rule: :func:`pqlab.node.scenario.check_trace_window`). Delays or |IPDV| above
        ``sketch_max_s`` warn, naming how many (counted in the Dataset).
    """
    if ci is not None:
        ci, n_batches = check_confidence(ci), check_batches(n_batches)
    summary, window_attrs, batches = _run(
        scenario, seed, window_s, summary_kw, ci is not None, n_batches
    )
    ds = summary.to_dataset(stacklevel=3)
    if batches is not None:
        q = summary.percentiles
        percentile_vars = [] if q is None else percentile_names(q)
        centres = {
            "mean": ds["class_delay_mean"].values,
            **{p: ds[f"class_delay_{p}"].values for p in percentile_vars},
        }
        for name, (values, long_name) in batches.intervals(centres, q, ci).items():
            ds[f"class_{name}"] = (
                "traffic_class",
                values,
                {"units": "1" if name.endswith("lag1") else "s", "long_name": long_name},
            )
        ds.attrs.update(ci_confidence=ci, ci_batches=n_batches)
    # the queues' labels (Queue.name or "queue i")
    labels = list(scenario.node.class_names[: ds.sizes["traffic_class"]])
    ds = ds.assign_coords(
        class_name=("traffic_class", labels, dict(CLASS_COORD_ATTRS["class_name"]))
    )
    ds.attrs.update(
        provenance_attrs(
            title=f"pqlab streaming summary: {scenario.name}",
            history=(
                "computed by pqlab.streaming.simulate_summary (streaming mode, windows of window_s)"
            ),
            seed=int(seed),
            window_s=float(window_s),
            scenario=scenario.to_json(),
            **window_attrs,
        )
    )
    return ds


def summarize(
    scenario: Scenario, seed: int = 0, *, window_s: float = 10.0, **summary_kw: Any
) -> FlowSummary:
    """:func:`simulate_summary`'s run, returning the
    mergeable :class:`pqlab.node.summary.FlowSummary`.

    For runs spread over processes or dask workers: the summaries pickle, and
    :func:`pqlab.node.summary.merge_summaries` of the runs (e.g. one per seed) pools them;
    ``.to_dataset()`` gives the Dataset. Arguments and errors as :func:`simulate_summary`.
    """
    return _run(scenario, seed, window_s, summary_kw)[0]


def _run(
    scenario, seed, window_s, summary_kw, with_batches=False, n_batches=DEFAULT_BATCHES
) -> tuple:
    """The summary of ``scenario``'s run, the trace-window attrs and, ``with_batches``, its
    :class:`pqlab.node.batches.BatchSums` (else None)."""
    if not isinstance(scenario, Scenario):
        raise ValueError(f"scenario must be a pqlab.Scenario, got {type(scenario).__name__}")
    seed = check_int("seed", seed, 0)
    window_s = check_real("window_s", window_s, 0.0, strict_minimum=True)
    n_windows = math.ceil(scenario.duration_s / window_s)
    if n_windows > MAX_WINDOWS:
        raise ValueError(
            f"window_s must give at most {MAX_WINDOWS:,} windows of the {scenario.duration_s!r} s"
            f" run (window_s >= {scenario.duration_s / MAX_WINDOWS:.3g} s), got {window_s!r}:"
            f" {n_windows:,} windows would need {n_windows * 8 / 2**30:.3g} GiB for their edges"
            " alone"
        )
    window_attrs = check_trace_window(
        scenario, stacklevel=3
    )  # the caller of simulate_summary/summarize
    colours = FlowColours(scenario.streams, scenario.class_markers)
    if "colours" in summary_kw:
        raise ValueError(
            "colours is set by the scenario (counts by colour when a stream or a "
            "class has a marker), got colours in the summary's settings"
        )
    summary = FlowSummary(
        scenario.path,
        start_s=scenario.warmup_s,
        n_classes=len(scenario.node.queues),
        colours=colours.active,
        **summary_kw,
    )  # checks its sizes first
    # pools with the summaries of its own runs only
    summary.scenario_sha256 = hashlib.sha256(scenario.to_json().encode()).hexdigest()
    batch_sums = (
        None
        if not with_batches
        else BatchSums(
            (scenario.warmup_s, scenario.duration_s),
            n_batches,
            summary.bins if summary.percentiles is not None else None,
        )
    )
    traffic = TrafficWindows(scenario.streams, np.random.default_rng(seed))
    red_rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])
    edges = np.append(np.arange(0.0, scenario.duration_s, window_s), scenario.duration_s)

    def batches():
        for t0, t1 in zip(edges[:-1], edges[1:]):
            arrival, size, queue, flow = traffic.window(t0, t1)
            # One draw per packet in packet order from a generator used for nothing else: the
            # concatenated draws of consecutive windows are the draws of one window of all packets.
            colour, marked = colours.colour_marked(arrival, size, flow, queue)
            group = None if colour is None else np.where(marked, colour, UNMARKED)
            yield (
                arrival,
                size,
                queue,
                (flow, group),
                colour,
                red_uniforms(scenario.node, red_rng, arrival.shape[0]),
            )

    for arrival, size, queue, (flow, group), _, departure, drop in run_batches(
        scenario.node, batches()
    ):
        # the engine's arrays: checked
        summary._add_checked(arrival, size, flow, departure, drop, queue, group)
        if batch_sums is not None:
            batch_sums.add_packets(scenario.path, arrival, size, queue, departure, drop)
    return summary, window_attrs, batch_sums
