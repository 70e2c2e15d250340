"""What the artefact modules share (pqlab.papers.artefacts._common): seeds, paper values, claim records, CIs."""

import math

import numpy as np
import pytest
import xarray as xr
from scipy import stats

from pqlab.pipeline import report
from pqlab.papers.artefacts import _common as common


@pytest.mark.parametrize("seeds", [(1, 2, 3), [0], range(4, 6)])
def test_check_seeds_accepts_distinct_non_negative_ints(seeds):
    assert common.check_seeds(seeds) == list(seeds)


@pytest.mark.parametrize("seeds", [(), (1, 1), (-1,), (1.5,), 3, None, ("a",)])
def test_check_seeds_names_the_parameter(seeds):
    with pytest.raises(ValueError, match="seeds"):
        common.check_seeds(seeds)


def test_paper_value_reads_data_paper_values_csv():
    assert common.paper_value("globecom01_fig3_1", "local_max_be_payload_1") == (485.0, "bytes")
    value, unit = common.paper_value("globecom01_fig3_1", "no_such_claim")
    assert math.isnan(value) and unit == ""
    table = report.load_paper_values()
    table = table.assign(value=table["value"] * 2)
    assert common.paper_value("globecom01_fig3_1", "local_max_be_payload_1", table)[0] == 970.0


def test_claim_records_have_one_shape():
    c = common.claim("globecom01_fig3_1", "local_max_be_payload_1", np.int64(484), "bytes", "note",
                     shape_ok=np.bool_(True), seed=np.int64(2))
    assert list(c) == list(common.CLAIM_KEYS)
    assert c["value"] == 484.0 and type(c["value"]) is float
    assert c["shape_ok"] is True and c["seed"] == 2 and type(c["seed"]) is int
    assert common.claim("a", "q", float("nan"), "ms", "n")["value"] is None
    assert common.claim("a", "q", None, "-", "n")["shape_ok"] is None


def test_paper_vs_ours_for_numeric_qualitative_and_pqlab_only_claims():
    line = common.paper_vs_ours(common.claim("globecom01_fig3_1", "local_max_be_payload_1", 484, "bytes", "why"))
    assert line == "globecom01_fig3_1 / local_max_be_payload_1: paper 485 bytes; ours 484 bytes (-0.2%) -- why"
    line = common.paper_vs_ours(common.claim("globecom01_fig3_1", "non_monotone", None, "-", "why", shape_ok=True))
    assert line == ("globecom01_fig3_1 / non_monotone: paper: qualitative claim; ours: qualitative "
                    "[shape_ok=True] -- why")
    line = common.paper_vs_ours(common.claim("globecom01_fig3_1", "mine", 1.5, "ms", "why"))
    assert line == "globecom01_fig3_1 / mine: pqlab only: 1.5 ms -- why"


def test_record_claims_records_every_claim_with_the_default_seed(tmp_path, capsys):
    claims = [common.claim("globecom01_fig3_1", "local_max_be_payload_1", 484, "bytes", "a"),
              common.claim("globecom01_fig3_1", "mine", None, "-", "b", shape_ok=False, seed=7)]
    assert common.record_claims(tmp_path, claims, seed=3) is None
    records = report.load_records(tmp_path)
    assert [(r["artefact"], r["quantity"], r["value"], r["seed"]) for r in records] == [
        ("globecom01_fig3_1", "local_max_be_payload_1", 484.0, 3), ("globecom01_fig3_1", "mine", None, 7)]
    assert capsys.readouterr().out.splitlines()[0].startswith("globecom01_fig3_1 / local_max_be_payload_1: paper 485")


def test_mean_ci_is_the_student_t_interval_of_experiments_across_seeds():
    values = np.random.default_rng(1).normal(size=(4, 5))
    mean, half = common.mean_ci(values)
    np.testing.assert_array_equal(mean, values.mean(axis=1))
    want = values.std(axis=1, ddof=1) * stats.t.ppf(0.975, 4) / np.sqrt(5)
    np.testing.assert_allclose(half, want, rtol=1e-15)
    mean, half = common.mean_ci(np.array([2.0]))
    assert float(mean) == 2.0 and np.isnan(half)


def test_add_mean_ci_names_and_labels_the_new_variables():
    ds = xr.Dataset({"w": (("k", "seed"), np.arange(6.0).reshape(3, 2), {"units": "us", "long_name": "W"})})
    common.add_mean_ci(ds, ["w"])
    np.testing.assert_array_equal(ds["w_mean"].values, [0.5, 2.5, 4.5])
    assert ds["w_mean"].attrs == {"units": "us", "long_name": "W, mean over seeds"}
    assert ds["w_ci"].attrs == {"units": "us", "long_name": "95% CI half-width of w over seeds"}


def test_check_artefact_rejects_other_data():
    ds = xr.Dataset(attrs=common.provenance("path", "path: title", "tests", seeds=[1]))
    assert common.check_artefact(ds, "path") is ds
    assert ds.attrs["seeds"] == [1] and ds.attrs["history"] == "computed by tests"
    with pytest.raises(ValueError, match="data must be"):
        common.check_artefact(ds, "gap")
    with pytest.raises(ValueError, match="data must be"):
        common.check_artefact({"artefact": "path"}, "path")


def test_times_in_ms_converts_only_the_seconds_and_statistics_in_ms_recomputes():
    from pqlab.base import units

    ds = xr.Dataset(
        {"delay": ("seed", [1e-3, 2e-3, 4e-3], {"units": "s", "long_name": "delay"}),
         "slope": ((), 2e-4, {"units": "s/particle", "long_name": "slope"}),
         "time": ("seed", [0.5, 1.0, 1.5], {"units": "s", "long_name": "arrival time"}),
         "rate": ((), 3e5, {"units": "bit/s", "long_name": "rate"}),
         "loss": ("seed", [0.0, 0.1, 0.2], {"units": "1", "long_name": "loss"})},
        attrs={"artefact": "x"})
    ms = units.times_in_ms(ds, keep=("time",))
    assert ms["delay"].attrs == {"units": "ms", "long_name": "delay"}
    np.testing.assert_array_equal(ms["delay"].values, ds["delay"].values * 1e3)
    assert ms["slope"].attrs["units"] == "ms/particle" and float(ms["slope"]) == 0.2
    for name in ("time", "rate", "loss"):
        xr.testing.assert_identical(ms[name], ds[name])
    assert ms.attrs == ds.attrs and ds["delay"].attrs["units"] == "s"  # the input is left as it was
    assert units.to_mbps(2e6) == 2.0

    def statistics(d):
        return d.assign(delay_mean=d["delay"].mean("seed").assign_attrs(units=d["delay"].attrs["units"]))

    view = common.statistics_in_ms(statistics(ds), statistics)
    assert view["delay_mean"].attrs["units"] == "ms"
    assert float(view["delay_mean"]) == float((ds["delay"] * 1e3).mean("seed"))  # converted before the mean
