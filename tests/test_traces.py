"""Tests of pqlab.node.traces (issue 33, "traces in") and of the window rule on Unix-time traces."""

import json
import warnings

import numpy as np
import pytest

from pqlab import CBRStream, Deterministic, Node, Scenario, TraceStream, simulate
from pqlab.base.memory import NotEnoughMemory
from pqlab.streaming import simulate_summary


def epoch_scenario(duration_s):
    """The papers' node, an EF CBR stream (flow 0) and 1,000 packets of a trace at Unix times (flow 3)."""
    t = 1.7e9 + np.arange(1000) * 1e-3
    return Scenario(Node.cisco7200_atm(), [CBRStream(300e3, Deterministic(128), 0, 0),
                                           TraceStream(t, np.full(t.size, 100), 1, 3)], duration_s=duration_s)


# ----------------------------------------------------------------------------- defects of issue 33


def test_an_epoch_trace_beside_a_rate_driven_stream_is_refused_naming_it_not_a_huge_memory_request():
    """Issue 33: duration_s = 1.7e9 + 40 made the memory guard ask for 1.4e12 packets (the CBR
    stream runs from 0): the run is refused naming the trace, its Unix times and the way out."""
    sc = epoch_scenario(1.7e9 + 40)
    for run in (lambda: simulate(sc), lambda: simulate_summary(sc, window_s=1e3)):
        try:
            run()
        except NotEnoughMemory as exc:  # the defect: a memory request for ~1e12 packets
            pytest.fail(f"a memory request instead of the trace named: {exc}")
        except ValueError as exc:
            text = str(exc)
            assert text.startswith("streams[1] (TraceStream, flow 3): its first packet arrives at 1.7e+09 s"), text
            assert "Unix" in text and "pqlab.traces.rebase" in text and "\n" not in text
        else:
            pytest.fail("ran")
