"""pqlab: a reproducible lab for priority-queueing delay of EF traffic.

A numba-jitted single-node engine (priority + WFQ queues, a particle-based
transmission ring, a framed line), traffic generators, metrics and the
analytical bounds of Ferrari, Pau and Raffaelli (GLOBECOM'01).
"""

from ._version import __version__

from . import bounds, metrics, scenarios
from .engine import simulate_arrivals
from .model import Node, Queue
from .scenario import Scenario, simulate
from .traffic import (
    UDP_IP_HEADER_BYTES,
    CBRStream,
    Deterministic,
    Empirical,
    Geometric,
    PoissonStream,
    TraceStream,
    Uniform,
)

__all__ = [
    "Node",
    "Queue",
    "simulate_arrivals",
    "__version__",
    "CBRStream",
    "PoissonStream",
    "TraceStream",
    "Deterministic",
    "Uniform",
    "Geometric",
    "Empirical",
    "UDP_IP_HEADER_BYTES",
    "Scenario",
    "simulate",
]
