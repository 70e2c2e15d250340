"""Tests of pqlab.node.scenario: Scenario validation and round trips, simulate()."""

import json
import warnings

import numpy as np
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st

import pqlab
from pqlab import (
    UDP_IP_HEADER_BYTES,
    CBRStream,
    Deterministic,
    Empirical,
    Geometric,
    Node,
    PoissonStream,
    Queue,
    Scenario,
    TraceStream,
    Uniform,
    simulate,
    simulate_arrivals,
)
from pqlab.node.path import Hop, PathModel
from pqlab.streaming import simulate_summary
from pqlab.traffic import merge_streams


def papers_scenario(**kw):
    """GLOBECOM'01 shape: EF 128 B at 300 kbit/s + 20 BE UDP streams overloading 2 Mbit/s."""
    be = [
        CBRStream(
            110e3, Uniform(100, 1450), 1, f, header_bytes=UDP_IP_HEADER_BYTES, size_per="stream"
        )
        for f in range(1, 21)
    ]
    args = dict(
        node=Node.cisco7200_atm(),
        streams=[CBRStream(300e3, Deterministic(128), 0, 0)] + be,
        duration_s=2.0,
        warmup_s=0.5,
        path=PathModel(fixed_s=1e-3, hops=(Hop(2e6, "atm-aal5"),)),
        name="uniform BE",
    )
    args.update(kw)
    return Scenario(**args)


def test_scenario_stores_tuple_and_floats():
    sc = papers_scenario(duration_s=3, warmup_s=1)
    assert isinstance(sc.streams, tuple) and len(sc.streams) == 21
    assert sc.duration_s == 3.0 and isinstance(sc.duration_s, float) and sc.warmup_s == 1.0
    assert (
        Scenario(Node.cisco7200_atm(), [CBRStream(1e3, Deterministic(1), 0, 0)], 1.0).path
        == PathModel()
    )


def test_scenario_dict_and_json_round_trip():
    sc = papers_scenario(
        streams=[
            CBRStream(300e3, Deterministic(128), 0, 0, phase_s=1e-3),
            CBRStream(110e3, Geometric(400, 40, 1472), 1, 1, header_bytes=28, size_per="stream"),
            PoissonStream(500e3, Empirical([64, 576, 1500], [0.4, 0.7, 1.0]), 1, 2),
            TraceStream([0.1, 0.2], [64, 1500], 1, 3),
        ]
    )
    d = sc.to_dict()
    assert json.loads(json.dumps(d)) == json.loads(sc.to_json())
    assert Scenario.from_dict(json.loads(sc.to_json())) == sc
    assert Scenario.from_json(sc.to_json()) == sc
    assert Scenario.from_json(sc.to_json()).to_json() == sc.to_json()
    assert Scenario.from_dict(d) != papers_scenario()


@pytest.mark.parametrize(
    "make",
    [
        lambda: papers_scenario(
            streams=[
                CBRStream(300e3, Deterministic(128), 0, 0, phase_s=1e-3),
                CBRStream(
                    110e3, Geometric(400, 40, 1472), 1, 1, header_bytes=28, size_per="stream"
                ),
                PoissonStream(500e3, Empirical([64, 576, 1500], [0.4, 0.7, 1.0]), 1, 2),
                TraceStream(np.array([0.1, 0.2]), np.array([64, 1500]), 1, 3),
            ]
        ),
        lambda: pqlab.scenarios.real_distribution(n_ef_samples=200),
        lambda: pqlab.scenarios.tftant_star(star=2.5),
        lambda: pqlab.scenarios.full_units(k=2),
    ],
    ids=["every_type", "real_distribution", "tftant_star", "full_units"],
)
def test_json_is_the_canonical_encoding_of_the_dict(make):
    """to_json composes each stream's cached JSON: byte for byte json.dumps(to_dict(),
    sort_keys=True),
    the text provenance and the run caches key on."""
    sc = make()
    reference = json.dumps(sc.to_dict(), sort_keys=True, default=lambda v: v.tolist())
    assert sc.to_json() == reference
    assert Scenario.from_json(reference).to_json() == reference


def test_simulate_same_seed_identical_dataset():
    sc = papers_scenario()
    a, b = simulate(sc, seed=5), simulate(sc, seed=5)
    xr.testing.assert_identical(a, b)
    c = simulate(sc, seed=6)
    assert a.sizes["packet"] != c.sizes["packet"] or not np.array_equal(a["arrival"], c["arrival"])


def test_simulate_is_engine_on_merged_streams():
    sc = papers_scenario()
    ds = simulate(sc, seed=3)
    arrival, size, queue, flow = merge_streams(sc.streams, np.random.default_rng(3), sc.duration_s)
    ref = simulate_arrivals(sc.node, arrival, size, queue)
    xr.testing.assert_identical(ds.drop_vars("flow").drop_attrs(deep=False), ref)
    np.testing.assert_array_equal(ds["flow"].values, flow)
    assert ds["flow"].dims == ("packet",) and ds["flow"].dtype == np.int64
    assert ds["flow"].attrs == {"units": "1", "long_name": "flow id"}
    # BE overload (20 x 110 kbit/s > 2 Mbit/s): the BE queue drops, EF is not policed.
    assert (ds["drop"].values[ds["flow"].values > 0] == 2).any()
    assert (ds["drop"].values[ds["flow"].values == 0] == 0).all()


def test_simulate_attrs():
    sc = papers_scenario()
    ds = simulate(sc, seed=7)
    attrs = ds.attrs
    assert attrs["seed"] == 7
    assert attrs["pqlab_version"] == pqlab.__version__
    assert attrs["source"] == f"pqlab {pqlab.__version__} numba single-node engine"
    assert "uniform BE" in attrs["title"]
    assert attrs["warmup_s"] == 0.5 and attrs["duration_s"] == 2.0
    assert attrs["history"] == "simulated by pqlab.simulate"
    assert "Ferrari" in attrs["references"] and "GLOBECOM 2001" in attrs["references"]
    assert Scenario.from_json(attrs["scenario"]) == sc
    assert all(isinstance(v, (str, int, float)) for v in attrs.values())  # netCDF-storable


def test_simulate_with_generator_records_generator():
    sc = papers_scenario()
    ds = simulate(sc, seed=np.random.default_rng(7))
    assert ds.attrs["seed"] == "generator"
    xr.testing.assert_identical(
        ds.drop_attrs(deep=False), simulate(sc, seed=7).drop_attrs(deep=False)
    )
    assert simulate(sc, seed=np.int64(7)).attrs["seed"] == 7


def test_simulate_lone_ef_stream_delay_is_one_transmission_unit():
    # 128-byte packets on the 2 Mbit/s ATM line: 3 cells = 159 bytes = 0.636 ms (the papers' unit).
    sc = Scenario(Node.cisco7200_atm(), [CBRStream(300e3, Deterministic(128), 0, 0)], 1.0)
    ds = simulate(sc)
    assert ds.sizes["packet"] in (292, 293)
    np.testing.assert_allclose(ds["departure"] - ds["arrival"], 0.636e-3, rtol=1e-9)
    assert ds.attrs["seed"] == 0 and ds.attrs["title"] == "pqlab simulation"


# ----------------------------------------------------------------------------- bad inputs

NODE = Node.cisco7200_atm()  # two queues
EF = CBRStream(300e3, Deterministic(128), 0, 0)

BAD_SCENARIOS = [
    (dict(node="cisco"), "node"),
    (dict(node=Queue("priority", 10)), "node"),
    (dict(streams=[]), "streams"),
    (dict(streams=EF), "streams"),
    (dict(streams=None), "streams"),
    (dict(streams=[EF, Deterministic(3)]), r"streams\[1\]"),
    (dict(streams=[EF, CBRStream(1e3, Deterministic(1), 2, 1)]), r"streams\[1\]\.queue"),
    (dict(duration_s=0.0), "duration_s"),
    (dict(duration_s=-1.0), "duration_s"),
    (dict(duration_s=float("nan")), "duration_s"),
    (dict(duration_s="2"), "duration_s"),
    (dict(warmup_s=-0.1), "warmup_s"),
    (dict(warmup_s=2.0), "warmup_s"),
    (dict(warmup_s=float("inf")), "warmup_s"),
    (dict(path=None), "path"),
    (dict(path=1e-3), "path"),
    (dict(name=None), "name"),
    (dict(name=3), "name"),
]


@pytest.mark.parametrize("override, field", BAD_SCENARIOS)
def test_bad_scenario_names_field(override, field):
    with pytest.raises(ValueError, match=field):
        papers_scenario(**override)


@pytest.mark.parametrize("seed", [-1, 1.5, "1", None, True, [1]])
def test_simulate_bad_seed(seed):
    with pytest.raises(ValueError, match="seed"):
        simulate(papers_scenario(), seed=seed)


@pytest.mark.parametrize("scenario", [None, {"node": {}}, NODE])
def test_simulate_bad_scenario(scenario):
    with pytest.raises(ValueError, match="scenario"):
        simulate(scenario)


def test_simulate_can_leave_the_scenario_unrecorded_for_a_caller_that_records_its_own():
    sc = papers_scenario(duration_s=1.0, warmup_s=0.2)
    full, lean = simulate(sc, seed=3), simulate(sc, seed=3, record_scenario=False)
    xr.testing.assert_identical(full.drop_attrs(), lean.drop_attrs())
    assert lean.attrs["scenario"] == "not recorded" and full.attrs["scenario"] == sc.to_json()
    with pytest.raises(ValueError, match="record_scenario must be True or False, got 1"):
        simulate(sc, seed=3, record_scenario=1)


# ----------------------------------------------------------------------------- a trace's window
# (issue 28, item 3)


def trace_run(times, duration_s=1.0, warmup_s=0.0, flow=3):
    """The papers' node, an EF CBR stream (flow 0) and a trace of 100-byte packets (queue 1) at
    ``times``."""
    trace = TraceStream(np.asarray(times, dtype=float), np.full(len(times), 100), 1, flow)
    return papers_scenario(
        streams=[CBRStream(300e3, Deterministic(128), 0, 0), trace],
        duration_s=duration_s,
        warmup_s=warmup_s,
    )


def test_an_epoch_time_trace_is_refused_naming_the_stream_the_window_and_its_times():
    t = 1.7e9 + np.arange(100_000) * 1e-4  # Unix times: every packet after the 30-s run
    sc = papers_scenario(streams=[TraceStream(t, np.full(t.size, 100), 1, 0)], duration_s=30.0)
    for run in (lambda: simulate(sc), lambda: simulate_summary(sc)):
        with pytest.raises(ValueError) as caught:
            run()
        text = str(caught.value)
        assert text.startswith("streams[0] (TraceStream, flow 0): none of its 100,000 packets")
        assert "[0, 30) s" in text and "1.7e+09" in text and "subtract" in text and "\n" not in text


def test_a_trace_partly_outside_the_window_warns_and_its_count_is_in_the_attrs():
    sc = trace_run([0.1, 0.5, 1.0, 2.5], duration_s=1.0)
    expected = r"streams\[1\] \(TraceStream, flow 3\): 2 of 4 packets .*\[0, 1\) s"
    with pytest.warns(UserWarning, match=expected):
        ds = simulate(sc)
    assert json.loads(ds.attrs["trace_packets_outside_window"]) == {"3": 2}
    assert ds["arrival"].values[ds["flow"].values == 3].tolist() == [0.1, 0.5]
    with pytest.warns(UserWarning, match=expected):
        summary = simulate_summary(sc, window_s=0.25)
    assert json.loads(summary.attrs["trace_packets_outside_window"]) == {"3": 2}
    assert int(summary["sent"].sel(flow=3)) == 2


def test_warm_up_packets_are_inside_the_window_and_a_trace_inside_is_silent():
    sc = trace_run([0.0, 0.1, 0.2, 0.999999], duration_s=1.0, warmup_s=0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ds, summary = simulate(sc), simulate_summary(sc)
    for out in (ds, summary):
        assert json.loads(out.attrs["trace_packets_outside_window"]) == {"3": 0}
    assert np.count_nonzero(ds["flow"].values == 3) == 4


def test_an_empty_trace_is_not_refused_and_a_run_without_traces_has_no_window_attribute():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ds = simulate(trace_run([]))
        plain = simulate(papers_scenario(duration_s=1.0))
    assert json.loads(ds.attrs["trace_packets_outside_window"]) == {"3": 0}
    assert "trace_packets_outside_window" not in plain.attrs


@settings(max_examples=60, deadline=None)
@given(
    inside=st.lists(st.floats(0.0, 1.0, exclude_max=True), max_size=12),
    outside=st.lists(st.floats(1.0, 1e10), max_size=12),
)
def test_any_trace_with_k_of_n_packets_outside_the_window_reports_exactly_k(inside, outside):
    times = sorted(inside) + sorted(outside)
    k, n = len(outside), len(times)
    sc = trace_run(times, duration_s=1.0)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        if n and k == n:
            with pytest.raises(ValueError, match=rf"none of its {n:,} packets"):
                simulate(sc)
            return
        ds = simulate(sc)
    assert json.loads(ds.attrs["trace_packets_outside_window"]) == {"3": k}
    assert np.count_nonzero(ds["flow"].values == 3) == n - k
    texts = [str(w.message) for w in seen if "TraceStream" in str(w.message)]
    assert len(texts) == (1 if k else 0)
    assert not k or f"flow 3): {k:,} of {n:,} packets" in texts[0]
