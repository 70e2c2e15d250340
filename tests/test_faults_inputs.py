"""Fault injection on inputs: malformed scenario JSON names the parameter (issue 22, item 12)."""

import json

import pytest

from pqlab import scenarios
from pqlab.scenario import Scenario


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
