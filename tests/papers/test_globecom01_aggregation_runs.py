"""pqlab.papers.globecom01.aggregation_runs: what the aggregation artefacts share."""

from pqlab.papers.globecom01 import aggregation_runs


def test_a_keys():
    assert [aggregation_runs.a_key(a) for a in (5 / 6, 2 / 3, 1 / 3, 0.0)] == ["a_5_6", "a_2_3", "a_1_3", "a_0"]
    assert aggregation_runs.a_text(0.8333333) == "5/6"
