"""pqlab.papers.globecom01.aggregation_runs: what the aggregation artefacts share."""

from pqlab.papers.globecom01 import aggregation_runs


def test_a_keys():
    assert [aggregation_runs.a_key(a) for a in (5 / 6, 2 / 3, 1 / 3, 0.0)] == [
        "a_5_6",
        "a_2_3",
        "a_1_3",
        "a_0",
    ]
    assert aggregation_runs.a_text(0.8333333) == "5/6"


def test_delay_spread_of_known_sequences():
    import numpy as np
    import pytest

    d = np.array([[1.0, 3.0, 1.0, 3.0, np.nan, 1.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]])
    got = aggregation_runs.delay_spread(d)
    assert got["delay_range"].tolist() == [2.0, 5.0]
    assert got["delay_std"][1] == pytest.approx(np.std(np.arange(1, 7), ddof=1))
    # alternating delays: consecutive ones perfectly anti-correlated (the pair around the loss is
    # skipped)
    assert got["delay_lag1"][0] == pytest.approx(-1.0)
    assert got["delay_lag1"][1] == pytest.approx(1.0)
    # every |IPDV| of a sequence is at most its delay range (the bound the reasons use)
    assert np.all(np.nanmax(np.abs(np.diff(d, axis=1)), axis=1) <= got["delay_range"])


def test_be_sizes_text_reads_the_streams():
    from pqlab.papers import presets

    assert (
        aggregation_runs.be_sizes_text([presets.base_case(n_ef_samples=10)])
        == "deterministic BE sizes"
    )
    assert (
        aggregation_runs.be_sizes_text([presets.aggregation(ref_rate_bps=100e3, n_ef_samples=10)])
        == "law by packet count"
    )
