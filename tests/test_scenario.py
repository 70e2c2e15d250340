"""Tests of pqlab.node.scenario: Scenario validation and round trips, simulate()."""

import json

import numpy as np
import pytest
import xarray as xr

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
from pqlab.traffic import merge_streams


def papers_scenario(**kw):
    """GLOBECOM'01 shape: EF 128 B at 300 kbit/s + 20 BE UDP streams overloading 2 Mbit/s."""
    be = [
        CBRStream(110e3, Uniform(100, 1450), 1, f, header_bytes=UDP_IP_HEADER_BYTES, size_per="stream")
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
    assert Scenario(Node.cisco7200_atm(), [CBRStream(1e3, Deterministic(1), 0, 0)], 1.0).path == PathModel()


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


@pytest.mark.parametrize("make", [
    lambda: papers_scenario(streams=[
        CBRStream(300e3, Deterministic(128), 0, 0, phase_s=1e-3),
        CBRStream(110e3, Geometric(400, 40, 1472), 1, 1, header_bytes=28, size_per="stream"),
        PoissonStream(500e3, Empirical([64, 576, 1500], [0.4, 0.7, 1.0]), 1, 2),
        TraceStream(np.array([0.1, 0.2]), np.array([64, 1500]), 1, 3)]),
    lambda: pqlab.scenarios.real_distribution(n_ef_samples=200),
    lambda: pqlab.scenarios.tftant_star(star=2.5),
    lambda: pqlab.scenarios.full_units(k=2),
], ids=["every_type", "real_distribution", "tftant_star", "full_units"])
def test_json_is_the_canonical_encoding_of_the_dict(make):
    """to_json composes each stream's cached JSON: byte for byte json.dumps(to_dict(), sort_keys=True),
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
    xr.testing.assert_identical(ds.drop_attrs(deep=False), simulate(sc, seed=7).drop_attrs(deep=False))
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
