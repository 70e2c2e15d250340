"""pqlab: a reproducible lab for priority-queueing delay of EF traffic.

A numba-jitted single-node engine (priority + WFQ queues, a particle-based
transmission ring, a framed line), traffic generators, metrics and the
analytical bounds of Ferrari, Pau and Raffaelli (GLOBECOM'01).

The package is built in floors; each imports only the floors below it:

* ``pqlab.base``: argument checks, units, machine-independent sums, files, versions, provenance;
* ``pqlab.node``: the router model, the numba engine, traffic, one seeded run (``simulate``);
* ``pqlab.measure``: metrics, the analytical bounds, sweeps and CIs, the results cache;
* ``pqlab.papers``: the papers' stated test bed, presets, test-bed model, artefacts, figures;
* ``pqlab.pipeline``: ``pqlab reproduce``: notebooks, publish, report, static site;
* ``pqlab.lab``: the teaching lab's helpers and ``pqlab lab``;

and, at the top, this public API and the command line (``pqlab.cli``). The documented modules
``pqlab.metrics``, ``pqlab.bounds``, ``pqlab.experiments``, ``pqlab.scenarios``,
``pqlab.traffic``, ``pqlab.streaming`` and ``pqlab.traces`` are their layer's modules under a second name
(``import pqlab.metrics`` and ``from pqlab import metrics`` keep working).
"""

import sys as _sys

from ._version import __version__

try:
    from .measure import bounds, experiments, metrics
    from .node import streaming, traces, traffic
    from .papers import presets as scenarios  # pqlab.papers.presets under its documented name
    from .node.engine import simulate_arrivals
    from .node.model import Node, Queue
    from .node.plausibility import ImplausibleRateWarning
    from .node.scenario import Scenario, simulate
    from .measure.tables import summary_table
    from .papers.stated import cisco7200_atm
    from .node.traffic import (
        UDP_IP_HEADER_BYTES,
        CBRStream,
        Deterministic,
        Empirical,
        Geometric,
        PoissonStream,
        SrTCM,
        TraceStream,
        TrTCM,
        Uniform,
        read_trace,
    )
except KeyboardInterrupt:  # Ctrl-C while the pqlab command starts (its first seconds): one line, exit 130
    if _sys.argv[:1] == ["-m"] or _sys.argv[0].replace("\\", "/").rsplit("/", 1)[-1] == "pqlab":
        print("pqlab: interrupted", file=_sys.stderr)
        raise SystemExit(130) from None
    raise

# The papers' router as a Node constructor too, under the name users know (pqlab.Node.cisco7200_atm()):
# the preset is the papers' layer's (pqlab.papers.cisco7200_atm), which the node layer may not import.
Node.cisco7200_atm = staticmethod(cisco7200_atm)

#: The documented modules by their public names (``pqlab.metrics`` is ``pqlab.measure.metrics``).
PUBLIC_MODULES = {"metrics": metrics, "bounds": bounds, "experiments": experiments, "scenarios": scenarios,
                  "traffic": traffic, "streaming": streaming, "traces": traces}
for _name, _module in PUBLIC_MODULES.items():
    _sys.modules.setdefault(f"{__name__}.{_name}", _module)

__all__ = [
    "Node",
    "Queue",
    "ImplausibleRateWarning",
    "simulate_arrivals",
    "__version__",
    "CBRStream",
    "PoissonStream",
    "TraceStream",
    "read_trace",
    "Deterministic",
    "Uniform",
    "Geometric",
    "Empirical",
    "SrTCM",
    "TrTCM",
    "UDP_IP_HEADER_BYTES",
    "Scenario",
    "simulate",
    "summary_table",
    "metrics",
    "bounds",
    "experiments",
    "scenarios",
    "traffic",
    "streaming",
    "traces",
]
