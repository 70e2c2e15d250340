"""Fault injection on inputs: malformed scenario JSON names the parameter (issue 22, item 12)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pqlab import scenarios
from pqlab.base._validate import json_nesting
from pqlab.node.scenario import Scenario


@pytest.mark.parametrize(
    "text, named",
    [
        ('{"node": 3}', "^node must be a mapping .* got 3$"),
        ('{"node": {"line_rate_bps": 2e6}, "streams": 3, "duration_s": 1}', "^node: .*framing"),
        ("[1]", "^scenario must be a mapping"),
        ("{}", "^scenario is missing node"),
        ('{"node": 3', "^scenario JSON cannot be read: .*char 10"),
    ],
)
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

    done = subprocess.run(
        [sys.executable, "-c", UNDER_A_LIMIT], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    name, seconds, message = done.stdout.strip().split(" ", 2)
    assert name == "NotEnoughMemory" and float(seconds) < 2, done.stdout
    assert "ulimit -v" in message and "GiB" in message and "streaming" in message


def test_available_memory_is_the_smallest_limit(monkeypatch):
    """The memory a process may use is the process's business, not the node's: ``pqlab.base.memory``
    (issue 29; ``pqlab.node.memory`` is gone)."""
    import importlib.util

    from pqlab.base import memory

    assert importlib.util.find_spec("pqlab.node.memory") is None

    monkeypatch.setattr(memory, "_cgroup_room", lambda: 5 * 2**30)
    monkeypatch.setattr(memory, "_address_space_room", lambda: None)
    room, limit = memory.available_bytes()
    assert room <= 5 * 2**30 and ("cgroup" in limit or room < 5 * 2**30)
    with pytest.raises(memory.NotEnoughMemory, match="6 GiB, more than .* left by"):
        memory.check_available("a run", 6 * 2**30, "use less")


# ----------------------------------------------------------------------------- deep and mistyped
# JSON (issue 28, item 10)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"node": ' + '{"a": ' * 50_000 + "1" + "}" * 50_001,
        '{"streams": [{"type": "TraceStream", "arrival_s": ' + "[" * 5000 + "]" * 5000 + "}]}",
        b"[" * 100_000 + b"]" * 100_000,
    ],
)
def test_deeply_nested_json_is_a_value_error_naming_from_json_and_the_limit(text):
    with pytest.raises(
        ValueError, match=r"^Scenario.from_json: .*nest.* (deeper than|more than) 32 "
    ) as caught:
        Scenario.from_json(text)
    assert "\n" not in str(caught.value)


def test_json_nested_as_deep_as_the_limit_or_with_brackets_in_strings_is_read():
    sc = scenarios.base_case(n_ef_samples=10)
    assert Scenario.from_json(
        sc.to_json().replace('"name": "', '"name": "' + "[{" * 100, 1)
    ).name.startswith("[{[{")
    assert Scenario.from_json(sc.to_json().encode()) == sc
    with pytest.raises(ValueError, match="^scenario must be a mapping"):
        Scenario.from_json("[" * 32 + "]" * 32)


def _stream_json(**fields):
    good = json.loads(scenarios.base_case(n_ef_samples=10).to_json())
    return json.dumps(dict(good, streams=[dict(good["streams"][0], **fields)]))


def _scenario_json(node=None, **fields):
    good = json.loads(scenarios.base_case(n_ef_samples=10).to_json())
    if node is not None:
        queues = [dict(good["node"]["queues"][0], **q) for q in node.pop("queues", [])] or good[
            "node"
        ]["queues"]
        fields["node"] = dict(good["node"], queues=queues, **node)
    return json.dumps(dict(good, **fields))


def _path_json(path):
    return _scenario_json(path=path)


TRACE = {"type": "TraceStream", "queue": 0, "flow": 0}


@pytest.mark.parametrize(
    "text, named",
    [
        (_stream_json(type=[1]), r"^streams\[0\]: type must be one of 'CBRStream', .*got \[1\]$"),
        (_stream_json(size=[1]), r"^streams\[0\]: size must be a mapping .*got \[1\]$"),
        (
            _stream_json(size={"type": {}}),
            r"^streams\[0\]: size: type must be one of 'Deterministic', .*got \{\}$",
        ),
        (
            _stream_json(bogus=1),
            r"^streams\[0\]: CBRStream has no field 'bogus' \(its fields: rate_bps, .*\)$",
        ),
        (
            _scenario_json(streams=[dict(TRACE, arrival_s=[[0.1], 0.2], size_bytes=[1, 1])]),
            r"^streams\[0\]: arrival_s must be a 1-D array of numbers, got a ragged sequence",
        ),
        (
            _scenario_json(streams=[dict(TRACE, arrival_s=[0.1, 0.2], size_bytes=[[1], 2])]),
            r"^streams\[0\]: size_bytes must be a 1-D array of numbers, got a ragged sequence",
        ),
        (_path_json({"hops": 3}), r"^path: hops must be a list of hop mappings, got 3$"),
        (
            _path_json({"hops": [3]}),
            r"^path.hops\[0\] must be a mapping of names to values .*got 3$",
        ),
        (
            _path_json({"hops": [{"x": 1}]}),
            r"^path.hops\[0\]: Hop has no field 'x' \(its fields: .*\)$",
        ),
        (
            _path_json({"fixed": 1}),
            r"^path: PathModel has no field 'fixed' \(its fields: fixed_s, hops\)$",
        ),
        (
            _scenario_json(warmup=5.0),
            r"^Scenario has no field 'warmup' \(its fields: node, streams, duration_s, warmup_s, "
            r"path, name, class_markers\)$",
        ),
        (
            _scenario_json(node={"line_rate": 1}),
            r"^node: Node has no field 'line_rate' \(its fields: line_rate_bps, .*\)$",
        ),
        (
            _scenario_json(node={"queues": [{"weight": 3}]}),
            r"^node.queues\[0\]: Queue has no field 'weight' \(its fields: ",
        ),
    ],
)
def test_mistyped_json_parts_are_value_errors_naming_the_part(text, named):
    with pytest.raises(ValueError, match=named) as caught:
        Scenario.from_json(text)
    assert "\n" not in str(caught.value)


def _depth(value) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=False) | st.text(alphabet='[]{}"\\ab\n'),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(alphabet='[]{}"\\a'), children, max_size=4)
    ),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(value=_JSON_VALUES, ascii_only=st.booleans())
def test_json_nesting_is_the_depth_of_the_parsed_value(value, ascii_only):
    """Counted without parsing, brackets and escapes inside strings ignored: the parsed value's
    depth."""
    assert json_nesting(json.dumps(value, ensure_ascii=ascii_only)) == _depth(value)
