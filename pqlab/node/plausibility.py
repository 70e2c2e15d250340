"""Warnings for rates that are valid but implausible for the link: most often a unit slip.

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
==========================  ========================  ==============================================

The offered load is the sum of the rate-driven streams' ``rate_bps`` (IP bits; a trace stream is
not counted) over the node's ``line_rate_bps``.
"""

from __future__ import annotations

import warnings

__all__ = ["ImplausibleRateWarning", "MIN_LINE_RATE_BPS", "MAX_OFFERED_LOAD", "check_line_rate",
           "check_offered_load", "rate_text"]

#: Below these line rates (bit/s), per framing, a node warns.
MIN_LINE_RATE_BPS = {"ethernet": 1e6, "atm-aal5": 1e6, "none": 1e3}
#: Above this offered load (the streams' rates over the line rate) a scenario warns.
MAX_OFFERED_LOAD = 100.0


class ImplausibleRateWarning(UserWarning):
    """A rate or an offered load that is valid but implausible for the link (see :mod:`pqlab.node.plausibility`)."""


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
        hint = f" (for {line_rate_bps:g} Mbit/s write {line_rate_bps:g}e6)" if line_rate_bps < 1e3 else ""
        warnings.warn(
            f"line_rate_bps = {line_rate_bps:g} bit/s{scaled} is implausible for framing {framing!r}: plausible "
            f"{rate_text(floor)} to 1 Tbit/s; line_rate_bps counts bit/s{hint}", ImplausibleRateWarning,
            stacklevel=stacklevel)


def check_offered_load(node, streams, stacklevel: int = 4) -> None:
    """Warn if the rate-driven ``streams`` offer more than :data:`MAX_OFFERED_LOAD` times ``node``'s line rate."""
    rates = [(i, float(getattr(s, "rate_bps"))) for i, s in enumerate(streams) if getattr(s, "rate_bps", None)]
    if not rates:
        return
    load = sum(rate for _, rate in rates) / node.line_rate_bps
    if load > MAX_OFFERED_LOAD:
        index, top = max(rates, key=lambda item: item[1])
        warnings.warn(
            f"the streams offer {load:.4g} times the line rate ({rate_text(sum(r for _, r in rates))} into "
            f"line_rate_bps = {rate_text(node.line_rate_bps)}; the largest, streams[{index}].rate_bps = {top:g} bit/s): "
            f"plausible up to {MAX_OFFERED_LOAD:g} times (an overload study); rates count bit/s: a unit slip "
            "(kbit/s, Mbit/s) is the usual cause", ImplausibleRateWarning, stacklevel=stacklevel)
