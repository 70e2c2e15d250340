"""The test bed's batched runs: arrays equal to simulate_testbed's Dataset, seed by seed."""

from dataclasses import replace

import numpy as np
import pytest

from pqlab.papers import presets, testbed
from pqlab.papers import testbed_eval as te


@pytest.mark.parametrize(
    "model",
    [
        testbed.TESTBED,
        replace(testbed.TESTBED, store_forward_hops=2),
        testbed.TESTBED_ISSUE13,
        testbed.PAPERS_NODE,
    ],
    ids=["frozen", "two hops", "issue 13", "papers node"],
)
def test_each_seed_of_a_batch_is_simulate_testbed_of_that_seed(model):
    sc = presets.base_case(n_ef_samples=300)
    seeds = (3, 1, 3)
    runs = testbed.testbed_runs(sc, seeds, model)
    assert len(runs) == len(seeds)
    for seed, packets in zip(seeds, runs):
        ds = testbed.simulate_testbed(sc, seed, model)
        names = [n for n in ds.data_vars if ds[n].dims == ("packet",)]
        assert set(names) <= set(packets)
        for name in names:
            np.testing.assert_array_equal(packets[name], ds[name].values, err_msg=name)
    np.testing.assert_array_equal(runs[0]["departure"], runs[2]["departure"])
    assert not np.array_equal(runs[0]["arrival"], runs[1]["arrival"])


def test_a_batch_validates_every_seed_before_running_any():
    sc = presets.base_case(n_ef_samples=100)
    for bad in (-1, True, 1.5):
        with pytest.raises(ValueError, match="seed"):
            testbed.testbed_runs(sc, (0, bad), testbed.TESTBED)
    with pytest.raises(ValueError):
        testbed.testbed_runs(sc, (0,), "testbed")
    assert testbed.testbed_runs(sc, (), testbed.TESTBED) == []


def test_the_evaluation_runs_in_batches_what_it_ran_one_seed_at_a_time():
    sc = presets.base_case(n_ef_samples=300)
    te._RUNS.clear()
    batched = te.runs(sc, (1, 2), testbed.TESTBED)
    te._RUNS.clear()
    single = [te.run(sc, s, testbed.TESTBED) for s in (1, 2)]
    for b, s in zip(batched, single):
        np.testing.assert_array_equal(b["delay"], s["delay"])
        assert (b["ef_loss"], b["ef_policed"]) == (s["ef_loss"], s["ef_policed"])
    ds = testbed.simulate_testbed(sc, 2, testbed.TESTBED)
    np.testing.assert_array_equal(
        batched[1]["delay"],
        te.experiments.reference_delay_values(ds, testbed.testbed_scenario(sc, testbed.TESTBED)),
    )
