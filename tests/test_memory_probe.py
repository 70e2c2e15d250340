"""pqlab.simulate checks the memory a run needs; a sweep of small runs does not read the counters
every run."""

import pytest

from pqlab import scenarios, simulate
from pqlab.base import memory
from pqlab.node import scenario as scenario_module


@pytest.fixture
def probes(monkeypatch):
    calls = []
    room = {"bytes": 2**40}

    def available():
        calls.append(room["bytes"])
        return room["bytes"], "the machine's available memory"

    simulate(
        scenarios.base_case(n_ef_samples=20), seed=0
    )  # imported and compiled before the probes counted
    monkeypatch.setattr(memory, "available_bytes", available)
    monkeypatch.setattr(scenario_module, "_last_probe", [float("-inf"), 0])
    monkeypatch.setattr(
        scenario_module, "MEMORY_PROBE_S", 600.0
    )  # a loaded machine's slow runs: still "recent"
    return calls, room


def test_small_runs_in_a_row_probe_once(probes):
    calls, _ = probes
    sc = scenarios.base_case(n_ef_samples=20)
    for seed in range(3):
        simulate(sc, seed=seed)
    assert len(calls) == 1


def test_a_run_that_does_not_fit_is_refused_even_right_after_a_probe(probes):
    calls, room = probes
    sc = scenarios.base_case(n_ef_samples=20)
    simulate(sc, seed=1)
    room["bytes"] = 1000
    scenario_module._last_probe[0] = float("-inf")  # the last probe is old: probed again
    with pytest.raises(memory.NotEnoughMemory, match="simulate"):
        simulate(sc, seed=2)
    room["bytes"] = 2**40
    simulate(sc, seed=3)
    room["bytes"] = 1000  # the probe just made found plenty: a small run is not probed again
    simulate(sc, seed=4)
    big = scenarios.base_case(
        n_ef_samples=10**7
    )  # about 20 M packets: over the small-run size, probed every time
    with pytest.raises(memory.NotEnoughMemory):
        simulate(big, seed=1)
    assert (
        len(calls) == 6
    )  # seed 1; seed 2 and the big run twice (the probe, check_available's message); seed 3
