"""The test bed's run on arrays is the tandem of its per-flow traces; the presets share their
scenarios."""

import json
import warnings
from dataclasses import replace

import numpy as np
import pytest

from pqlab.node.scenario import Scenario
from pqlab.node.tandem import TandemHop, simulate_tandem
from pqlab.node.traffic import TraceStream
from pqlab.papers import presets, testbed
from pqlab.papers import testbed_eval as te


def _as_tandem_of_traces(scenario, seed, model):
    """The test bed's C7200 and hops the way pqlab's public pieces compose them: one trace stream
    per
    flow at its arrivals at the C7200, :func:`pqlab.node.tandem.simulate_tandem` through the hops.
    """
    ds = testbed.simulate_testbed(scenario, seed, model)
    sc = testbed.testbed_scenario(scenario, model)
    traces = []
    for st in sc.streams:
        mine = np.flatnonzero(ds["flow"].values == st.flow)
        traces.append(
            TraceStream(
                ds["node_arrival"].values[mine],
                ds["size"].values[mine],
                int(ds["queue"].values[mine][0]),
                st.flow,
            )
        )
    trace_sc = Scenario(
        node=sc.node,
        streams=tuple(traces),
        duration_s=ds.attrs["duration_s"] + 10.0,
        warmup_s=sc.warmup_s,
        path=sc.path,
    )
    hops = [
        TandemHop(testbed._fifo_node(h)) for h in scenario.path.hops[: model.store_forward_hops]
    ]
    per_hop, departure = simulate_tandem(
        trace_sc, hops, flows=np.unique(ds["flow"].values), seed=seed
    )
    return ds, per_hop[0], departure


@pytest.mark.parametrize(
    "model",
    [
        testbed.TESTBED,
        replace(testbed.TESTBED, store_forward_hops=0),
        replace(testbed.TESTBED, store_forward_hops=2),
        testbed.TESTBED_ISSUE13,
    ],
    ids=["frozen", "no hop", "two hops", "issue 13"],
)
def test_the_run_is_the_tandem_of_its_traces(model):
    ds, first, departure = _as_tandem_of_traces(presets.base_case(n_ef_samples=300), 2, model)
    for name in ("size", "queue", "flow", "ring_entry", "drop"):
        np.testing.assert_array_equal(ds[name].values, first[name].values)
    np.testing.assert_array_equal(ds["node_arrival"].values, first["arrival"].values)
    np.testing.assert_array_equal(ds["node_departure"].values, first["departure"].values)
    last = np.full(ds.sizes["packet"], np.nan)
    last[departure["packet"].values] = departure.values[:, -1]
    np.testing.assert_array_equal(ds["departure"].values, last)
    assert np.isfinite(last).sum() > 1000


def test_a_run_measured_and_not_kept_records_no_scenario():
    sc = presets.base_case(n_ef_samples=200)
    kept = testbed.simulate_testbed(sc, 1, testbed.TESTBED)
    measured = testbed.simulate_testbed(sc, 1, testbed.TESTBED, record_scenario=False)
    assert measured.attrs["scenario"] == "not recorded"
    assert Scenario.from_json(kept.attrs["scenario"]) == testbed.testbed_scenario(
        sc, testbed.TESTBED
    )
    assert measured.drop_attrs().identical(kept.drop_attrs())
    assert json.loads(kept.attrs["testbed"]) == testbed.TESTBED.to_dict()
    assert testbed.TESTBED.to_json() == json.dumps(testbed.TESTBED.to_dict(), sort_keys=True)


def test_a_preset_called_again_with_the_same_arguments_is_the_same_scenario():
    assert presets.base_case(n_ef_samples=123) is presets.base_case(n_ef_samples=123)
    assert presets.aggregation(ref_rate_bps=100e3, n_ef_samples=50) is not presets.aggregation(
        ref_rate_bps=200e3, n_ef_samples=50
    )
    one = presets.pq_experiment(warmup_s=0.0, n_ef_samples=50)
    assert (
        presets.pq_experiment(warmup_s=-0.0, n_ef_samples=50) is not one
    )  # equal, but not the same float
    assert presets.pq_experiment(n_ef_samples=50, warmup_s=0.0) is one
    assert te.run(one, 1, testbed.TESTBED) is te.run(
        presets.pq_experiment(warmup_s=0.0, n_ef_samples=50), 1, testbed.TESTBED
    )


def test_a_preset_that_warns_warns_on_every_call():
    for _ in range(2):
        with pytest.warns(UserWarning):
            sc = presets.pq_experiment(be_stream_rate_bps=500e6, n_ef_samples=20)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert presets.pq_experiment(be_stream_rate_bps=500e6, n_ef_samples=20) is not sc


def test_a_verdict_reads_the_papers_values_in_effect_after_an_edit(tmp_path, monkeypatch):
    """verdict_of keeps the table it read, and reads it again when the file in effect changes."""
    import os

    r = te.RESULTS[0]
    table = te.paper_values()
    row = (table["artefact"] == r.artefact) & (table["quantity"] == r.quantity)
    value = float(table.loc[row, "value"].iloc[0])
    values = tmp_path / "paper_values.csv"
    table.to_csv(values, index=False)
    monkeypatch.setenv("PQLAB_PAPER_VALUES", str(values))
    assert te.verdict_of(r.artefact, r.quantity, value) == "reproduced"
    table.loc[row, "value"] = value * 3
    table.to_csv(values, index=False)
    os.utime(values, ns=(1, 1))  # an edit within the clock's resolution: the size or time differs
    assert te.verdict_of(r.artefact, r.quantity, value) != "reproduced"
