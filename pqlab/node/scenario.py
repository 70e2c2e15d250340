"""A scenario (node + streams + duration + path) and the one call that simulates it.

:func:`simulate` generates the scenario's streams with a seeded generator, runs
the engine (:func:`pqlab.node.engine.simulate_arrivals`: validate, kernel, Dataset) and
returns the per-packet ``xarray.Dataset`` with a ``flow`` variable and provenance
attributes from which the run can be repeated exactly (same seed, same Dataset).

This module is the generic machinery, one :class:`Scenario` and how it runs, and
knows nothing of the papers; the catalogue of the papers' named scenarios is
:mod:`pqlab.papers.presets` (public name ``pqlab.scenarios``).
"""

from __future__ import annotations

import json
import math
import numbers
import time
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import cast

import numpy as np
import xarray as xr

from ..base import counts, memory
from ..base._validate import (
    check_fields,
    check_int,
    check_mapping,
    check_real,
    echo,
    from_part,
    json_nesting,
)
from ..base.provenance import provenance_attrs
from .engine import COLOUR_ATTRS, packets_dataset, run_kernel, validate_arrivals
from .markers import FlowColours, Marker
from .model import Node
from .path import PathModel
from .plausibility import check_class_markers_fed, check_offered_load, check_stream_rates
from .sources import expected_packets
from .timeorigin import origin_attrs, rebase
from .traces import origins_json
from .traffic import (
    TraceStream,
    canonical_json,
    check_streams,
    marker_from_dict,
    merge_streams,
    stream_from_dict,
)

#: Deepest nesting of arrays and objects :meth:`Scenario.from_json` reads (a scenario's JSON nests
#: 5 deep: scenario, streams, a stream, its size law, the law's sizes); deeper text is refused
#: before it is parsed, as :func:`json.loads` would raise ``RecursionError`` some 1,000 levels deep.
MAX_JSON_NESTING = 32
#: Longest run, s (about 31,700 years: beyond it a run's packet count overflows any memory check).
MAX_DURATION_S = 1e12

#: Peak bytes per packet of :func:`simulate` (arrival, size, queue, flow, ring entry,
#: departure, drop and the merge's temporaries: 56 measured with tracemalloc on the papers'
#: base case, 575,050 packets, 2026-11-25), rounded up.
SIMULATE_BYTES_PER_PACKET = 64

#: Citation of the paper whose experiments pqlab reproduces.
REFERENCES = (
    'T. Ferrari, G. Pau, C. Raffaelli, "Measurement Based Analysis of Delay in Priority Queueing", '
    "IEEE GLOBECOM 2001"
)


@dataclass(frozen=True)
class Scenario:
    """One experiment: a node, the streams offered to it, and how long they run.

    Parameters
    ----------
    node : Node
        The simulated router output interface.
    streams : sequence of Stream
        At least one stream; each ``stream.queue`` must index ``node.queues``.
        Stored as a tuple; generated in this order.
    duration_s : float
        Traffic is generated on ``[0, duration_s)``, seconds, in (0, 1e12]: the run's window. A
        :class:`~pqlab.traffic.TraceStream`'s packets outside it are not simulated, and said so
        (:func:`check_trace_window`).
    warmup_s : float
        Start of the measurement window, seconds, in ``[0, duration_s)``. Recorded
        for the metrics; every packet is simulated and kept in the Dataset.
    path : PathModel
        Fixed part of the one-way delay outside the node.
    name : str
        Label used in the Dataset title.
    class_markers : mapping of int or str to SrTCM or TrTCM, optional
        Markers per class (node contract rule 1a): ``{queue: marker}``, the queue by its index
        in ``node.queues`` or its name (:attr:`pqlab.Queue.name`). One marker meters all the
        streams of its class together, their packets in the order they reach the node (a
        stream's own ``marker`` meters that stream alone; a stream in a class with a marker has
        none of its own). Stored as ``((queue index, marker), ...)`` by index; a scenario
        without is written to JSON as before.
    """

    node: Node
    streams: tuple
    duration_s: float
    warmup_s: float = 0.0
    path: PathModel = field(default_factory=PathModel)
    name: str = ""
    class_markers: Mapping[int | str, Marker] | tuple = ()

    def __post_init__(self) -> None:
        if not isinstance(self.node, Node):
            raise ValueError(f"node must be a pqlab.Node, got {type(self.node).__name__}")
        streams = check_streams(self.streams)
        if not streams:
            raise ValueError("streams must hold at least one stream, got an empty sequence")
        n_queues = len(self.node.queues)
        for i, stream in enumerate(streams):
            if stream.queue >= n_queues:
                raise ValueError(
                    f"streams[{i}].queue must be an index into node.queues, in [0, {n_queues - 1}],"
                    f" got {stream.queue}"
                )
        object.__setattr__(self, "streams", streams)
        object.__setattr__(
            self, "class_markers", check_class_markers(self.node, streams, self.class_markers)
        )
        check_offered_load(self.node, streams)  # a warning: far above the line rate is a unit slip
        duration = check_real(
            "duration_s", self.duration_s, 0.0, MAX_DURATION_S, strict_minimum=True
        )
        object.__setattr__(self, "duration_s", duration)
        check_stream_rates(self.node, streams, duration)  # warnings: 80 bit/s, no packet in the run
        warmup = check_real("warmup_s", self.warmup_s, 0.0)
        if warmup >= duration:
            raise ValueError(f"warmup_s must be < duration_s = {duration!r}, got {warmup!r}")
        object.__setattr__(self, "warmup_s", warmup)
        if not isinstance(self.path, PathModel):
            raise ValueError(
                f"path must be a pqlab.node.path.PathModel, got {type(self.path).__name__}"
            )
        if not isinstance(self.name, str):
            raise ValueError(f"name must be a str, got {type(self.name).__name__}")

    def to_dict(self, encoded: dict | None = None, *, full_traces: bool = False) -> dict:
        """Plain-data (JSON-serialisable) form; inverse :meth:`from_dict` (``encoded``: see
        :meth:`pqlab.traffic.Stream.to_dict`). A trace stream longer than
        :data:`pqlab.traffic.TRACE_JSON_MAX_PACKETS` is written as its digest and source file
        (:meth:`pqlab.traffic.TraceStream.to_dict`) unless ``full_traces``."""
        return {
            "name": self.name,
            "node": self.node.to_dict(),
            "streams": [
                (
                    s.to_dict(encoded, full=full_traces)
                    if isinstance(s, TraceStream)
                    else s.to_dict(encoded)
                )
                for s in self.streams
            ],
            "duration_s": self.duration_s,
            "warmup_s": self.warmup_s,
            "path": self.path.to_dict(),
            **(
                {
                    "class_markers": [
                        {"queue": q, "marker": m.to_dict()}
                        for q, m in cast(tuple, self.class_markers)
                    ]
                }
                if self.class_markers
                else {}
            ),
        }

    def to_json(self, *, full_traces: bool = False) -> str:
        """:meth:`to_dict` as canonical JSON (sorted keys); inverse :meth:`from_json`.

        Computed once per (frozen) scenario and cached; numpy scalars are written
        as the Python numbers they hold. A long trace stream is written as its digest and
        source file (read back from there by :meth:`from_json`), unless ``full_traces``.
        """
        key = "_json_full" if full_traces else "_json"
        text = self.__dict__.get(key)
        if text is None:  # an empirical size law is encoded once, however many streams share it
            laws: dict = {}
            text = canonical_json(self.to_dict(encoded=laws, full_traces=full_traces), laws)
            self.__dict__[key] = text
        return text

    @classmethod
    def from_dict(cls, data: dict) -> Scenario:
        """Inverse of :meth:`to_dict`.

        Raises
        ------
        ValueError
            One line naming the part that is missing or wrong (``node``, ``streams[2]``,
            ``node.queues[1]``, ``duration_s``, ...).
        """
        data = check_mapping("scenario", data)
        check_fields(
            cls, data, required=False
        )  # a misspelt optional key (warmup) is not a default used silently
        for name in ("node", "streams", "duration_s"):
            if name not in data:
                raise ValueError(f"scenario is missing {name} (its keys: {sorted(data)})")
            if name == "node":  # the parts in order: the first wrong one is named
                node = from_part("node", Node.from_dict, data["node"])
        streams = data["streams"]
        if not isinstance(streams, (list, tuple)):
            raise ValueError(f"streams must be a list of stream mappings, got {streams!r}")
        streams = tuple(
            from_part(f"streams[{i}]", lambda s: stream_from_dict(check_mapping("stream", s)), s)
            for i, s in enumerate(streams)
        )
        path = from_part(
            "path", lambda p: PathModel.from_dict(check_mapping("path", p)), data.get("path", {})
        )
        return cls(
            node=node,
            streams=streams,
            duration_s=data["duration_s"],
            warmup_s=data.get("warmup_s", 0.0),
            path=path,
            name=data.get("name", ""),
            class_markers=_class_markers_from_list(data.get("class_markers", [])),
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> Scenario:
        """Inverse of :meth:`to_json` (e.g. of a Dataset's ``scenario`` attribute).

        Raises
        ------
        ValueError
            ``text`` is not JSON (the position named), nests arrays and objects more than
            :data:`MAX_JSON_NESTING` deep, or names a bad part (see :meth:`from_dict`).
        """
        try:
            if isinstance(text, (bytes, bytearray)):  # as json.loads reads bytes
                text = bytes(text).decode(json.detect_encoding(text), "surrogatepass")
            depth = json_nesting(text) if isinstance(text, str) else 0
            data = json.loads(text) if depth <= MAX_JSON_NESTING else None
        except (TypeError, ValueError) as exc:
            raise ValueError(f"scenario JSON cannot be read: {exc}") from None
        if depth > MAX_JSON_NESTING:
            raise ValueError(
                f"Scenario.from_json: the JSON nests arrays and objects {depth:,} deep, more than "
                f"{MAX_JSON_NESTING} (a scenario's JSON nests 5 deep): not a scenario"
            )
        return cls.from_dict(data)  # type: ignore[arg-type]  # None only past MAX_JSON_NESTING, refused above


def check_class_markers(node: Node, streams: tuple, class_markers) -> tuple:
    """A scenario's ``class_markers`` as ``((queue index, marker), ...)`` sorted by index.

    Raises
    ------
    ValueError
        Naming ``class_markers``: not a mapping (or pairs), a key neither a queue index of
        ``node`` nor a class name of it, a queue given twice, a value not a marker; or a stream
        with a marker of its own in a class with one (a packet is coloured once, rule 1a).
    """
    try:
        given = list(dict(class_markers).items())
    except (TypeError, ValueError):
        raise ValueError(
            "class_markers must be a mapping of queue index or class name to marker, "
            f"got {type(class_markers).__name__}"
        ) from None
    names = node.class_names
    by_queue: dict = {}
    for key, marker in given:
        if isinstance(key, str):
            if key not in names or node.queues[names.index(key)].name is None:
                named = ", ".join(repr(n) for q, n in zip(node.queues, names) if q.name is not None)
                raise ValueError(
                    f"class_markers: {echo(key)} names no class of the node (its "
                    f"classes: {named or 'none named: give queue indices'})"
                )
            queue = names.index(key)
        elif isinstance(key, numbers.Integral) and not isinstance(key, bool):
            if not 0 <= int(key) < len(node.queues):
                raise ValueError(
                    f"class_markers: queue {echo(key)} must be an index into "
                    f"node.queues, in [0, {len(node.queues) - 1}]"
                )
            queue = int(key)
        else:
            raise ValueError(
                "class_markers: a key must be a queue index (int) or a class name "
                f"(str), got {echo(key)}"
            )
        if not isinstance(marker, Marker):
            raise ValueError(
                f"class_markers[{key!r}] must be a pqlab.SrTCM or a pqlab.TrTCM, got "
                f"{type(marker).__name__}"
            )
        if queue in by_queue:
            raise ValueError(
                f"class_markers: queue {queue} is given twice ({by_queue[queue][0]!r} and {key!r})"
            )
        by_queue[queue] = (key, marker)
    for i, stream in enumerate(streams):
        if stream.queue in by_queue and getattr(stream, "marker", None) is not None:
            raise ValueError(
                f"streams[{i}] (flow {stream.flow}) has a marker and its class, queue "
                f"{stream.queue} ({names[stream.queue]!r}), has one in class_markers: "
                "a packet is coloured once (rule 1a); remove one of them"
            )
    unfed = [q for q in sorted(by_queue) if all(s.queue != q for s in streams)]
    if unfed:
        check_class_markers_fed(unfed, names)
    return tuple((q, by_queue[q][1]) for q in sorted(by_queue))


def _class_markers_from_list(data) -> dict:
    """``class_markers`` from their JSON form ``[{"queue": q, "marker": {...}}, ...]``."""
    if not isinstance(data, list):
        raise ValueError(
            f"class_markers must be a list of {{'queue', 'marker'}} mappings, got {echo(data)}"
        )
    out = {}
    for i, item in enumerate(data):
        item = check_mapping(f"class_markers[{i}]", item)
        if set(item) != {"queue", "marker"}:
            raise ValueError(
                f"class_markers[{i}] must have the keys 'queue' and 'marker', got {sorted(item)}"
            )
        queue = item["queue"]
        if queue in out:
            raise ValueError(f"class_markers: queue {echo(queue)} is given twice")
        out[queue] = from_part(f"class_markers[{i}].marker", marker_from_dict, item["marker"])
    return out


def red_uniforms(node: Node, rng: np.random.Generator, n: int) -> np.ndarray | None:
    """The uniform draws in [0, 1) of ``n`` packets for RED/WRED (node contract rule 2a):
    ``rng.random(n)``
    when a queue of ``node`` has RED, else None (nothing drawn, the generator untouched)."""
    return rng.random(n) if any(q.red for q in node.queues) else None


def kernel_options(colour: np.ndarray | None, red_uniform: np.ndarray | None) -> dict:
    """Keyword arguments of :func:`pqlab.node.engine.run_kernel` / ``NodeState.advance`` for the
    packets'
    colours and RED draws: only those given (a run without markers and RED passes nothing)."""
    return {k: v for k, v in (("colour", colour), ("red_uniform", red_uniform)) if v is not None}


#: The result attribute holding, per trace stream's flow, its packets outside the run's window.
OUTSIDE_WINDOW_ATTR = "trace_packets_outside_window"
#: The result attribute holding, per trace stream's flow, the absolute time of its 0
#: (``time_origin_s``).
TIME_ORIGIN_ATTR = "trace_time_origin_s"
#: Times from here on look like Unix times (1973-03-03), seconds: a trace that starts there beside a
#: rate-driven stream (which runs from 0) is refused by :func:`check_trace_window`.
UNIX_TIME_FLOOR_S = 1e8


def check_trace_window(scenario: Scenario, stacklevel: int = 2) -> dict:
    """Apply the window rule of :class:`~pqlab.traffic.TraceStream` to a scenario about to run.

    A run simulates the packets in ``[0, duration_s)`` (warm-up included). For each trace
    stream, the packets at or after ``duration_s`` are counted (:meth:`TraceStream.outside`).

    Parameters
    ----------
    scenario : Scenario
        The scenario.
    stacklevel : int
        Of the warning, as the caller would pass it to :func:`warnings.warn` (2: the line that
        called the caller).

    Returns
    -------
    dict
        ``{OUTSIDE_WINDOW_ATTR: JSON {"<flow>": count, ...}}`` in stream order for a scenario
        with trace streams (attrs of the result), else empty; and, when a trace was rebased
        (``time_origin_s`` not 0), ``{TIME_ORIGIN_ATTR: JSON {"<flow>": time_origin_s, ...}}``
        of every trace stream.

    Raises
    ------
    ValueError
        If every packet of a non-empty trace is outside the window, naming the stream, the
        window, the trace's time range and the way out (rebase epoch times); or if a trace
        starts at a Unix time (:data:`UNIX_TIME_FLOOR_S` or later) beside a rate-driven stream,
        which would run from 0 to it (a duration_s of 1.7e9 s: ~1e12 packets).

    Warns
    -----
    UserWarning
        Once, naming each trace with some (not all) packets outside: how many of how many.
    """
    counts_by_flow, partly = {}, []
    duration = scenario.duration_s
    rate_driven = any(not isinstance(s, TraceStream) for s in scenario.streams)
    for i, stream in enumerate(scenario.streams):
        if not isinstance(stream, TraceStream):
            continue
        n, k = stream.arrival_s.shape[0], stream.outside(duration)
        counts_by_flow[str(stream.flow)] = k
        if n > k and rate_driven and stream.arrival_s[0] >= UNIX_TIME_FLOOR_S:
            raise ValueError(
                f"streams[{i}] (TraceStream, flow {stream.flow}): its first packet arrives at"
                f" {stream.arrival_s[0]:.9g} s, a Unix time, and the scenario's rate-driven streams"
                f" run from 0 (about {expected_packets(scenario.streams, duration):.3g} packets in"
                f" duration_s = {duration:.9g} s); rebase it (pqlab.traces.rebase(stream): times"
                " after its first packet, the origin kept in the result's attribute"
                f" {TIME_ORIGIN_ATTR}; pqlab.traces.read_trace rebases) and make duration_s the"
                " trace's span"
            )
        if not k:
            continue
        where = (
            f"streams[{i}] (TraceStream, flow {stream.flow}): ",
            f"the run's window [0, duration_s) = [0, {duration:.9g}) s",
            f"its arrival_s spans [{stream.arrival_s[0]:.9g}, {stream.arrival_s[-1]:.9g}] s",
        )
        if k == n:
            raise ValueError(
                f"{where[0]}none of its {n:,} packets arrives in {where[1]}: {where[2]}; rebase"
                " epoch (Unix) times to the run (subtract the first time: arrival_s -"
                " arrival_s[0]) or make duration_s longer than the trace"
            )
        partly.append(f"{where[0]}{k:,} of {n:,} packets")
    if partly:  # one warning per call, naming each stream
        warnings.warn(
            f"{'; '.join(partly)} arrive at or after duration_s, outside the run's "
            f"window [0, duration_s) = [0, {duration:.9g}) s, and are not simulated (the "
            f"count per flow is the result's attribute {OUTSIDE_WINDOW_ATTR})",
            UserWarning,
            stacklevel=stacklevel + 1,
        )
    traces = [s for s in scenario.streams if isinstance(s, TraceStream)]
    origins = (
        {TIME_ORIGIN_ATTR: origins_json(traces)} if any(s.time_origin_s for s in traces) else {}
    )
    return {OUTSIDE_WINDOW_ATTR: json.dumps(counts_by_flow), **origins} if counts_by_flow else {}


#: A run needing less than this (bytes) is not probed again within :data:`MEMORY_PROBE_S` of a probe
#: that found at least :data:`MEMORY_PROBE_MARGIN` times its need available (:func:`_check_memory`).
SMALL_RUN_BYTES = 64 * 2**20
MEMORY_PROBE_S = 1.0
MEMORY_PROBE_MARGIN = 8
_last_probe = [-math.inf, 0]  # (monotonic time, bytes available) of the last probe


def _check_memory(what: str, need_bytes: int) -> None:
    """:func:`pqlab.base.memory.check_available` for a run, without reading the system's memory
    counters again for a small run (under :data:`SMALL_RUN_BYTES`) within :data:`MEMORY_PROBE_S` of
    a
    probe that left :data:`MEMORY_PROBE_MARGIN` times its need: a sweep of small runs probes about
    once a second, not once a run; any larger run is probed every time."""
    now = time.monotonic()
    when, room = _last_probe
    if (
        need_bytes < SMALL_RUN_BYTES
        and now - when < MEMORY_PROBE_S
        and need_bytes * MEMORY_PROBE_MARGIN <= room
    ):
        return
    room = memory.available_bytes()[0]
    if need_bytes > room:  # check_available says how much, and by which limit
        memory.check_available(
            what,
            need_bytes,
            "use pqlab.streaming.simulate_summary (bounded memory) or a shorter duration_s",
        )
    _last_probe[:] = [now, room]


@counts.counted("simulation")
def simulate(scenario: Scenario, seed: int = 0, *, record_scenario: bool = True) -> xr.Dataset:
    """Generate the scenario's traffic and pass it through its node.

    Parameters
    ----------
    scenario : Scenario
        What to simulate.
    seed : int or numpy.random.Generator
        Integer seed (>= 0, preferred: it is recorded and makes the run
        repeatable) or a generator (recorded as ``"generator"``).
    record_scenario : bool
        True (default): attribute ``scenario`` holds the scenario's JSON. False: it holds
        ``"not recorded"``, for a caller that records its own provenance in place of a
        trace-driven scenario whose JSON holds every arrival (about 7 ms to encode 20,000).

    Returns
    -------
    xarray.Dataset
        The engine's per-packet Dataset (see :func:`pqlab.simulate_arrivals`)
        plus ``flow`` (flow id) and attributes ``title``, ``source``,
        ``pqlab_version``, ``seed``, ``scenario`` (JSON of the scenario),
        ``warmup_s``, ``duration_s`` (seconds), ``history`` and ``references``, and for a
        scenario with trace streams ``trace_packets_outside_window`` and, for rebased traces,
        ``trace_time_origin_s`` (see :func:`check_trace_window`); ``scenario`` holds a trace of
        more than :data:`pqlab.traffic.TRACE_JSON_MAX_PACKETS` packets as its digest and source.
        When a stream or a class has a marker, ``colour`` (int8: 0 green, 1 yellow, 2 red;
        packets no marker colours are green). The same scenario and
        integer seed give an identical Dataset.

    Notes
    -----
    The traffic is drawn first, from ``numpy.random.default_rng(seed)``; then, only when a queue
    of the node has RED/WRED, one uniform per packet from the same generator (rule 2a), so a
    node with RED sees the traffic the same node without it sees. Markers (a stream's, a class's)
    draw nothing.

    Raises
    ------
    ValueError
        If every packet of a non-empty trace stream is outside the run's window
        ``[0, duration_s)`` (:func:`check_trace_window`).
    pqlab.base.memory.NotEnoughMemory
        Before anything is drawn, if the run's packets would not fit in the memory this
        process can use (the machine's, a container's limit or ``ulimit -v``).

    Warns
    -----
    UserWarning
        If some packets of a trace stream are outside the run's window (how many of how many).
    """
    if not isinstance(scenario, Scenario):
        raise ValueError(f"scenario must be a pqlab.Scenario, got {type(scenario).__name__}")
    if not isinstance(record_scenario, bool):
        raise ValueError(f"record_scenario must be True or False, got {record_scenario!r}")
    seed, seed_attr = _check_run(scenario, seed)
    window_attrs = check_trace_window(
        scenario, stacklevel=3
    )  # the caller of simulate (under counts.counted)
    _check_run_memory(scenario)
    run = _run_arrays(scenario, seed)
    origin = run.pop("time_origin_s")
    attrs = provenance_attrs(
        title=f"pqlab simulation{': ' + scenario.name if scenario.name else ''}",
        history="simulated by pqlab.simulate",
        references=REFERENCES,
        seed=seed_attr,
        scenario=scenario.to_json() if record_scenario else "not recorded",
        warmup_s=scenario.warmup_s,
        duration_s=scenario.duration_s,
        **window_attrs,
        **(origin_attrs(origin) if origin else {}),
    )
    extra: dict[str, tuple] = {"flow": (run["flow"], {"units": "1", "long_name": "flow id"})}
    if "colour" in run:
        extra["colour"] = (run["colour"], dict(COLOUR_ATTRS))
    return packets_dataset(*(run[name] for name in RUN_VARIABLES[:6]), extra=extra, attrs=attrs)


#: The per-packet variables of :func:`simulate_runs`' runs, in the order of :func:`simulate`'s
#: Dataset (which also holds ``colour`` when a stream has a marker).
RUN_VARIABLES = ("arrival", "size", "queue", "ring_entry", "departure", "drop", "flow")


def simulate_runs(scenario: Scenario, seeds) -> list[dict]:
    """:func:`simulate`'s per-packet arrays for several seeds, without building Datasets.

    The scenario is checked once (the trace window rule, the memory a run needs); each seed's run
    draws the same numbers in the same order as ``simulate(scenario, seed)``, so every array
    equals that Dataset's variable of the same name.

    Parameters
    ----------
    scenario : Scenario
        What to simulate.
    seeds : sequence of int or numpy.random.Generator
        One run each, in this order (as :func:`simulate`'s ``seed``).

    Returns
    -------
    list of dict
        One dict per seed mapping each name of :data:`RUN_VARIABLES` (and ``colour`` when a
        stream has a marker) to its numpy array, and ``time_origin_s`` to the run's time origin
        (seconds; 0.0 unless the arrivals were rebased, :mod:`pqlab.node.timeorigin`).

    Raises
    ------
    ValueError
        As :func:`simulate`, naming ``seeds`` if it is not a list or tuple.
    """
    if not isinstance(seeds, (list, tuple, range, np.ndarray)):
        raise ValueError(f"seeds must be a list or tuple of seeds, got {type(seeds).__name__}")
    checked = [_check_run(scenario, seed)[0] for seed in seeds]
    check_trace_window(scenario)
    _check_run_memory(scenario)
    runs = []
    for seed in checked:
        counts.note("simulation", "simulate")
        runs.append(_run_arrays(scenario, seed))
    return runs


def _check_run(scenario, seed) -> tuple:
    """``(seed, its attribute)`` for :func:`simulate` after checking the scenario and the seed."""
    if not isinstance(scenario, Scenario):
        raise ValueError(f"scenario must be a pqlab.Scenario, got {type(scenario).__name__}")
    if isinstance(seed, np.random.Generator):
        return seed, "generator"
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
        seed = check_int("seed", seed, 0)
        return seed, seed
    raise ValueError(f"seed must be an integer >= 0 or a numpy.random.Generator, got {seed!r}")


def _check_run_memory(scenario: Scenario) -> None:
    """Refuse, before anything is drawn, a run whose packets would not fit in memory."""
    packets = expected_packets(scenario.streams, scenario.duration_s)
    _check_memory(
        f"simulate({scenario.name or 'scenario'}): about {packets:,} packets in "
        f"{scenario.duration_s:g} s",
        packets * SIMULATE_BYTES_PER_PACKET,
    )


def _run_arrays(scenario: Scenario, seed) -> dict:
    """One run of a checked scenario: the traffic from ``default_rng(seed)``, then RED's draws,
    the time origin and the kernel (:func:`simulate_runs`' dict)."""
    rng = np.random.default_rng(seed)
    arrival, size, queue, flow = merge_streams(scenario.streams, rng, scenario.duration_s)
    arrival, size, queue = validate_arrivals(scenario.node, arrival, size, queue)
    colours = FlowColours(scenario.streams, scenario.class_markers)
    colour = colours.colour(arrival, size, flow, queue)  # on the streams' own times
    # after the traffic: the traffic's draws are unchanged
    red_uniform = red_uniforms(scenario.node, rng, arrival.shape[0])
    arrival, origin = rebase(scenario.node, arrival, size)
    ring_entry, departure, drop = run_kernel(
        scenario.node, arrival, size, queue, **kernel_options(colour, red_uniform)
    )
    run = dict(zip(RUN_VARIABLES, (arrival, size, queue, ring_entry, departure, drop, flow)))
    if colour is not None:
        run["colour"] = colour
    run["time_origin_s"] = origin
    return run
