"""The node and its traffic: the router model, the numba engine, traffic generators, one run.

What it does: ``model`` (:class:`Node`, :class:`Queue`: a priority queue and WFQ queues in
front of a particle-based transmission ring and a framed line), ``framing`` (the line's
framing and the ring's particles, jitted), ``wfq`` (WFQ tag arithmetic, under both the model and
the kernel), ``engine`` (the jitted kernel and :func:`simulate_arrivals`), ``disciplines`` (the
scheduler seam: the kernel's named state and one jitted module per mechanism: admission, shaper,
priority levels, WFQ/DRR/WRR), ``reference`` (the node contract in exact rational arithmetic, the
kernel's executable specification), ``markers`` (RFC 2697/2698 colour markers), ``timeorigin`` (the
engine's time origin), ``traffic`` (size laws, streams and their merge), ``traces`` (packet trace
files read into
streams), ``captures`` (a pcap's frames and IP fields as arrays), ``scenario``
(:class:`Scenario` and :func:`simulate`: one seeded run as an xarray Dataset), ``streaming``
(long runs summarised chunk by chunk), ``summary`` (the online per-flow and per-class summaries,
mergeable), ``path`` (the hops after the node) and ``tandem``
(nodes in series).

Exports: those modules; the package re-exports the public names (``pqlab.Node``,
``pqlab.simulate``, ``pqlab.traffic``, ``pqlab.streaming``, ``pqlab.traces``).

May import: ``pqlab.base`` and ``pqlab._version`` only (no measurement, papers, pipeline or
lab: they sit above).
"""

__all__ = [
    "model",
    "framing",
    "wfq",
    "disciplines",
    "engine",
    "reference",
    "markers",
    "timeorigin",
    "traffic",
    "captures",
    "traces",
    "scenario",
    "streaming",
    "summary",
    "path",
    "tandem",
]
