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
``pqlab.traffic``, ``pqlab.streaming`` and ``pqlab.traces`` are their layer's modules under a second
name
(``import pqlab.metrics`` and ``from pqlab import metrics`` keep working).

Each public name is imported when first used (:mod:`pqlab.base.lazy`): ``import pqlab`` loads
neither numba nor xarray, ``pqlab.simulate`` loads what a simulation needs.
"""

import sys as _sys
from collections.abc import Mapping as _Mapping
from typing import TYPE_CHECKING

from ._version import __version__


def _exit_if_the_command() -> None:
    """Ctrl-C while the ``pqlab`` command starts (its first seconds): one line, exit 130."""
    if _sys.argv[:1] == ["-m"] or _sys.argv[0].replace("\\", "/").rsplit("/", 1)[-1] == "pqlab":
        print("pqlab: interrupted", file=_sys.stderr)
        raise SystemExit(130) from None


try:
    from .base import lazy as _lazy
except KeyboardInterrupt:
    _exit_if_the_command()
    raise

# The public names, each imported when first used (pqlab.base.lazy reads this block).
if TYPE_CHECKING:
    from .measure import bounds, experiments, metrics
    from .measure.tables import summary_table
    from .node import streaming, traces, traffic
    from .node.engine import simulate_arrivals
    from .node.model import Node, Queue
    from .node.plausibility import ImplausibleRateWarning, ImplausibleSettingWarning
    from .node.scenario import Scenario, simulate
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
    from .papers import presets as scenarios  # pqlab.papers.presets under its documented name

_getattr, __dir__ = _lazy.attach(__name__)


def __getattr__(name: str):
    """A public name, imported when first used; Ctrl-C while the ``pqlab`` command imports it:
    one line, exit 130."""
    try:
        value = _getattr(name)
    except KeyboardInterrupt:
        _exit_if_the_command()
        raise
    if name == "Node":  # pqlab.Node.cisco7200_atm(), the papers' router, set by the papers' layer
        from .papers import stated  # noqa: F401
    return value


class _PublicModules(_Mapping):
    """The documented modules by their public names, each imported when first read."""

    def __init__(self, names):
        self._names = tuple(names)

    def __getitem__(self, name):
        if name not in self._names:
            raise KeyError(name)
        return getattr(_sys.modules[__name__], name)

    def __iter__(self):
        return iter(self._names)

    def __len__(self):
        return len(self._names)


#: The documented modules by their public names (``pqlab.metrics`` is ``pqlab.measure.metrics``).
PUBLIC_MODULES = _PublicModules(
    ("metrics", "bounds", "experiments", "scenarios", "traffic", "streaming", "traces")
)
_lazy.alias(__name__, PUBLIC_MODULES)

__all__ = [
    "Node",
    "Queue",
    "ImplausibleRateWarning",
    "ImplausibleSettingWarning",
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
