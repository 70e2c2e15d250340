"""Fault injection on inputs: malformed scenario JSON names the parameter (issue 22, item 12)."""

import json

import pytest

from pqlab import scenarios
from pqlab.node.scenario import Scenario


@pytest.mark.parametrize("text, named", [
    ('{"node": 3}', "^node must be a mapping .* got 3$"),
    ('{"node": {"line_rate_bps": 2e6}, "streams": 3, "duration_s": 1}', "^node: .*framing"),
    ('[1]', "^scenario must be a mapping"),
    ('{}', "^scenario is missing node"),
    ('{"node": 3', "^scenario JSON cannot be read: .*char 10"),
])
def test_a_malformed_scenario_json_is_a_value_error_naming_the_parameter(text, named):
    with pytest.raises(ValueError, match=named) as caught:
        Scenario.from_json(text)
    assert "\n" not in str(caught.value)


def test_bad_streams_and_queues_are_named_by_position():
    good = json.loads(scenarios.base_case(n_ef_samples=10).to_json())
    bad_stream = dict(good, streams=[good["streams"][0], 7])
    with pytest.raises(ValueError, match=r"streams\[1\]"):
        Scenario.from_dict(bad_stream)
    bad_queue = dict(good, node=dict(good["node"], queues=[good["node"]["queues"][0], "x"]))
    with pytest.raises(ValueError, match=r"node.queues\[1\]"):
        Scenario.from_dict(bad_queue)
    bad_path = dict(good, path=[])
    with pytest.raises(ValueError, match="path"):
        Scenario.from_dict(bad_path)
    assert Scenario.from_dict(good).to_json() == scenarios.base_case(n_ef_samples=10).to_json()


#: Runs ``simulate(base_case(n_ef_samples=10**8))`` under an address-space limit of the
#: current size + 3 GiB (the packets need about 12 GiB): the guard must refuse at once.
UNDER_A_LIMIT = """
import os, resource, sys, time
import psutil
import pqlab
from pqlab import scenarios
pqlab.simulate(scenarios.base_case(n_ef_samples=10), seed=1)  # compile and import first
vms = psutil.Process(os.getpid()).memory_info().vms
resource.setrlimit(resource.RLIMIT_AS, (vms + 3 * 2**30, resource.RLIM_INFINITY))
started = time.process_time()  # CPU seconds of this process: no wait for a loaded machine's cores
try:
    pqlab.simulate(scenarios.base_case(n_ef_samples=10**8), seed=1)
except MemoryError as exc:
    print(type(exc).__name__, round(time.process_time() - started, 2), exc)
"""


def test_simulate_under_a_memory_limit_refuses_before_allocating():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", UNDER_A_LIMIT], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    name, seconds, message = done.stdout.strip().split(" ", 2)
    assert name == "NotEnoughMemory" and float(seconds) < 2, done.stdout
    assert "ulimit -v" in message and "GiB" in message and "streaming" in message


def test_available_memory_is_the_smallest_limit(monkeypatch):
    from pqlab.node import memory

    monkeypatch.setattr(memory, "_cgroup_room", lambda: 5 * 2**30)
    monkeypatch.setattr(memory, "_address_space_room", lambda: None)
    room, limit = memory.available_bytes()
    assert room <= 5 * 2**30 and ("cgroup" in limit or room < 5 * 2**30)
    with pytest.raises(memory.NotEnoughMemory, match="6 GiB, more than .* left by"):
        memory.check_available("a run", 6 * 2**30, "use less")
