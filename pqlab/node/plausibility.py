"""Warnings for settings that are valid but implausible: most often a unit slip.

``Node(10, "ethernet", ...)`` is a valid node (a line of 10 bit/s) but almost surely meant
10 Mbit/s; a stream of 300e6 bit/s into a 2 Mbit/s line is a valid overload but almost surely meant
300 kbit/s. Neither is an error (a toy model in bytes per second, or an overload study, is
legitimate), so each gives an :class:`ImplausibleRateWarning` naming the parameter, its value and
the plausible range, and the run goes on.

The thresholds (:data:`MIN_LINE_RATE_BPS`, :data:`MAX_OFFERED_LOAD`) are far from every real
link and every experiment pqlab reproduces (the named presets, :mod:`pqlab.papers.presets`, offer
1.1 to 1.6 times the line rate; the papers' slowest line is 2 Mbit/s), and an order of magnitude
or more short of the usual slips (a factor 1,000 or 1,000,000):

==========================  ========================  ==============================================
what                        warns when                why
==========================  ========================  ==============================================
``line_rate_bps``,          < 1 Mbit/s                the slowest Ethernet (10BASE-T, 10BASE-T1S)
``"ethernet"``                                        is 10 Mbit/s
``line_rate_bps``,          < 1 Mbit/s                the slowest ATM line (T1) is 1.544 Mbit/s
``"atm-aal5"``
``line_rate_bps``,          < 1 kbit/s                the slowest serial lines run at 1.2 kbit/s
``"none"``
offered load (a scenario)   > 100 times the line      an overload study rarely offers more than a
                            rate                      few times the line
a policer's or shaper's     < 1/1000 of the line      10 bit/s written for 10 Mbit/s (a 200-ms
rate (a node)               rate                      bucket of 0.25 bytes drops every packet)
a stream's ``rate_bps``     < 1/1000 of the line      the same slip (80 bit/s for 80 kbit/s)
(a scenario)                rate
a rate-driven stream        < 1 expected packet in    it sends nothing (or one packet by chance)
(a scenario)                ``[0, duration_s)``
``red_min_packets`` (a      >= ``limit_packets``      the average queue never reaches it: RED never
queue)                                                drops that colour early
a ``"priority"`` queue      listed after a fair-      every priority level is served before all
(a node)                    queued queue              fair-queued classes (rule 3a), at any level
==========================  ========================  ==============================================

Each check gives at most one warning per call, naming every parameter it concerns (the last two:
:class:`ImplausibleSettingWarning`, the base of :class:`ImplausibleRateWarning`).

The offered load is the sum of the rate-driven streams' ``rate_bps`` (IP bits; a trace stream is
not counted) over the node's ``line_rate_bps``.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

__all__ = [
    "ImplausibleRateWarning",
    "ImplausibleSettingWarning",
    "MIN_LINE_RATE_BPS",
    "MAX_OFFERED_LOAD",
    "MIN_RATE_OF_LINE",
    "check_line_rate",
    "check_offered_load",
    "check_queue_rates",
    "check_stream_rates",
    "check_red_thresholds",
    "check_priority_order",
    "check_class_markers_fed",
    "rate_text",
]

#: Below these line rates (bit/s), per framing, a node warns.
MIN_LINE_RATE_BPS = {"ethernet": 1e6, "atm-aal5": 1e6, "none": 1e3}
#: Above this offered load (the streams' rates over the line rate) a scenario warns.
MAX_OFFERED_LOAD = 100.0
#: Below this fraction of the line rate a policer's, a shaper's or a stream's rate warns: 10 bit/s
#: written for 10 Mbit/s (a 200-ms policer bucket of 0.25 bytes, which drops every packet).
MIN_RATE_OF_LINE = 1e-3


class ImplausibleSettingWarning(UserWarning):
    """A setting that is valid but almost surely not what was meant (see
    :mod:`pqlab.node.plausibility`)."""


class ImplausibleRateWarning(ImplausibleSettingWarning):
    """A rate or an offered load that is valid but implausible for the link
    (see :mod:`pqlab.node.plausibility`)."""


def rate_text(bps: float) -> str:
    """A rate in bit/s with its unit scaled: ``10 bit/s``, ``2 Mbit/s``, ``1.544 Mbit/s``."""
    for factor, unit in ((1e12, "Tbit/s"), (1e9, "Gbit/s"), (1e6, "Mbit/s"), (1e3, "kbit/s")):
        if abs(bps) >= factor:
            return f"{bps / factor:.4g} {unit}"
    return f"{bps:.4g} bit/s"


def check_line_rate(line_rate_bps: float, framing: str, stacklevel: int = 4) -> None:
    """Warn if ``line_rate_bps`` is below :data:`MIN_LINE_RATE_BPS` for ``framing``.

    ``stacklevel`` (default: a caller's ``Node(...)`` through the dataclass's ``__init__`` and
    ``__post_init__``) points the warning at the user's line.
    """
    floor = MIN_LINE_RATE_BPS.get(framing)
    if floor is not None and line_rate_bps < floor:
        scaled = "" if line_rate_bps < 1e3 else f" ({rate_text(line_rate_bps)})"
        hint = (
            f" (for {line_rate_bps:g} Mbit/s write {line_rate_bps:g}e6)"
            if line_rate_bps < 1e3
            else ""
        )
        warnings.warn(
            f"line_rate_bps = {line_rate_bps:g} bit/s{scaled} is implausible for framing"
            f" {framing!r}: plausible {rate_text(floor)} to 1 Tbit/s; line_rate_bps counts"
            f" bit/s{hint}",
            ImplausibleRateWarning,
            stacklevel=stacklevel,
        )


def check_offered_load(node, streams, stacklevel: int = 4) -> None:
    """Warn if the rate-driven ``streams`` offer more than :data:`MAX_OFFERED_LOAD` times ``node``'s
    line rate."""
    rates = [
        (i, float(getattr(s, "rate_bps")))
        for i, s in enumerate(streams)
        if getattr(s, "rate_bps", None)
    ]
    if not rates:
        return
    load = sum(rate for _, rate in rates) / node.line_rate_bps
    if load > MAX_OFFERED_LOAD:
        index, top = max(rates, key=lambda item: item[1])
        warnings.warn(
            f"the streams offer {load:.4g} times the line rate"
            f" ({rate_text(sum(r for _, r in rates))} into line_rate_bps ="
            f" {rate_text(node.line_rate_bps)}; the largest, streams[{index}].rate_bps = {top:g}"
            f" bit/s): plausible up to {MAX_OFFERED_LOAD:g} times (an overload study); rates count"
            " bit/s: a unit slip (kbit/s, Mbit/s) is the usual cause",
            ImplausibleRateWarning,
            stacklevel=stacklevel,
        )


def _listed(items: list) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _below_line(node, named_rates: list) -> str:
    """The ``(name, rate_bps)`` below :data:`MIN_RATE_OF_LINE` of ``node``'s line rate, as text
    for a warning ("" if none)."""
    floor = MIN_RATE_OF_LINE * node.line_rate_bps
    slow = [f"{name} = {rate_text(rate)}" for name, rate in named_rates if rate < floor]
    if not slow:
        return ""
    return (
        f"{_listed(slow)} {'is' if len(slow) == 1 else 'are'} below {MIN_RATE_OF_LINE:g} of "
        f"line_rate_bps = {rate_text(node.line_rate_bps)}: rates count bit/s"
    )


def check_queue_rates(node, stacklevel: int = 4) -> None:
    """Warn once, naming each, if a queue's policer or shaper rate is below
    :data:`MIN_RATE_OF_LINE` of ``node``'s line rate (WFQ weights are relative: not checked)."""
    text = _below_line(
        node,
        [
            (f"queues[{i}].{name}", getattr(q, name))
            for i, q in enumerate(node.queues)
            for name in ("police_rate_bps", "shape_rate_bps")
            if getattr(q, name) is not None
        ],
    )
    if text:
        warnings.warn(
            f"{text} (10 Mbit/s is 10e6), and a policer's default bucket holds 200 ms of its rate",
            ImplausibleRateWarning,
            stacklevel=stacklevel,
        )


def check_stream_rates(node, streams, duration_s: float, stacklevel: int = 4) -> None:
    """Warn once if rate-driven ``streams`` run below :data:`MIN_RATE_OF_LINE` of ``node``'s line
    rate, and once if rate-driven streams expect less than one packet in ``[0, duration_s)``
    (their ``expected_packets(duration_s)``), naming each (a trace outside the window: the
    window rule, :func:`pqlab.node.scenario.check_trace_window`)."""
    rated = [(i, s) for i, s in enumerate(streams) if getattr(s, "rate_bps", None) is not None]
    text = _below_line(node, [(f"streams[{i}].rate_bps", s.rate_bps) for i, s in rated])
    if text:
        warnings.warn(
            f"{text} (300 kbit/s is 300e3)", ImplausibleRateWarning, stacklevel=stacklevel
        )
    expected = [(i, s.expected_packets(duration_s)) for i, s in rated]
    empty = [f"streams[{i}] ({n:.2g})" for i, n in expected if n < 1.0]
    if empty:
        verb = "expects" if len(empty) == 1 else "expect"
        warnings.warn(
            f"{_listed(empty)} {verb} less than one packet (in brackets) in the run's window "
            f"[0, duration_s) = [0, {duration_s:g}) s: no packet, or one by chance; a longer "
            "duration_s, a higher rate_bps or an earlier start_s",
            ImplausibleRateWarning,
            stacklevel=stacklevel,
        )


def check_red_thresholds(lows: tuple, limit_packets, colours: tuple, stacklevel: int = 5) -> None:
    """Warn once if a colour's RED minimum threshold is at or above the queue's
    ``limit_packets``: the average queue never reaches it, so that colour is never dropped
    early."""
    if limit_packets is None:
        return
    high = [f"{c} {low:g}" for c, low in zip(colours, lows) if low >= limit_packets]
    if high:
        one = len(high) == 1
        warnings.warn(
            f"red_min_packets ({_listed(high)}) {'is' if one else 'are'} at or above limit_packets "
            f"= {limit_packets}: the average queue never reaches {'it' if one else 'them'}, so RED "
            "never drops early; thresholds below the limit",
            ImplausibleSettingWarning,
            stacklevel=stacklevel,
        )


def check_priority_order(queues, stacklevel: int = 4) -> None:
    """Warn once if a ``"priority"`` queue is listed after a fair-queued one: every priority level
    is served before every non-priority queue (node contract rule 3a), whatever its level."""
    fair = [i for i, q in enumerate(queues) if q.kind != "priority"]
    late = [
        f"queues[{i}] (level {q.level})"
        for i, q in enumerate(queues)
        if q.kind == "priority" and fair and i > fair[0]
    ]
    if late:
        kind = queues[fair[0]].kind
        parameter = {"wfq": "weight_bps", "drr": "quantum_bytes", "wrr": "weight_packets"}[kind]
        what = "is a priority queue" if len(late) == 1 else "are priority queues"
        warnings.warn(
            f"{_listed(late)} {what} listed after the {kind!r} queues but served before all of "
            "them, whatever the level (rule 3a: levels order the priority queues only); a class "
            f"below the others is a {kind!r} queue with a small {parameter}",
            ImplausibleSettingWarning,
            stacklevel=stacklevel,
        )


def check_class_markers_fed(unfed: list, names: Sequence[str], stacklevel: int = 5) -> None:
    """Warn once if a scenario's ``class_markers`` name classes no stream feeds (rule 1a): their
    markers colour no packet, most often a class index or name typed wrong."""
    one = len(unfed) == 1
    listed = _listed([f"queue {q} ({names[q]!r})" for q in unfed])
    warnings.warn(
        f"class_markers: {listed} {'is' if one else 'are'} fed by no stream: "
        f"{'its marker colours' if one else 'their markers colour'} no packet; name a class "
        "that a stream's queue feeds",
        ImplausibleSettingWarning,
        stacklevel=stacklevel,
    )
