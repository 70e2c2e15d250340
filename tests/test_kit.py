"""The kit every artefact module shares (pqlab.papers.kit): arguments, paper values, claim records,
CIs,
figures, the notebooks' setup."""

import json
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import xarray as xr  # noqa: E402
from scipy import stats  # noqa: E402

from pqlab.base import locations  # noqa: E402
from pqlab.measure import analysis  # noqa: E402
from pqlab.papers import judge, kit  # noqa: E402
from pqlab.papers.kit import setup  # noqa: E402
from pqlab.pipeline import report  # noqa: E402


@pytest.mark.parametrize("seeds", [(1, 2, 3), [0], range(4, 6)])
def test_check_seeds_accepts_distinct_non_negative_ints(seeds):
    assert kit.check_seeds(seeds) == list(seeds)


@pytest.mark.parametrize("seeds", [(), (1, 1), (-1,), (1.5,), 3, None, ("a",)])
def test_check_seeds_names_the_parameter(seeds):
    with pytest.raises(ValueError, match="seeds"):
        kit.check_seeds(seeds)


def test_paper_value_reads_data_paper_values_csv():
    assert kit.paper_value("globecom01_fig3_1", "local_max_be_payload_1") == (485.0, "bytes")
    value, unit = kit.paper_value("globecom01_fig3_1", "no_such_claim")
    assert math.isnan(value) and unit == ""
    table = report.load_paper_values()
    table = table.assign(value=table["value"] * 2)
    assert kit.paper_value("globecom01_fig3_1", "local_max_be_payload_1", table)[0] == 970.0


def test_claim_records_have_one_shape():
    why = judge.reason(
        "arithmetic",
        "drops before {first_after}",
        [judge.fact("first_after", np.int64(500), "bytes")],
    )
    c = kit.claim(
        "globecom01_fig3_1",
        "local_max_be_payload_1",
        np.int64(484),
        "bytes",
        "note",
        seed=np.int64(2),
        reason=why,
    )
    assert list(c) == list(kit.CLAIM_KEYS)
    assert c["value"] == 484.0 and type(c["value"]) is float
    assert c["shape_ok"] is None and c["seed"] == 2 and type(c["seed"]) is int
    assert c["reason"]["facts"] == [{"name": "first_after", "value": 500.0, "unit": "bytes"}]
    assert kit.claim("a", "q", None, "-", "n", shape_ok=np.bool_(True))["shape_ok"] is True
    assert kit.claim("a", "q", float("nan"), "ms", "n")["value"] is None
    assert kit.claim("a", "q", None, "-", "n")["shape_ok"] is None


def test_paper_vs_ours_for_numeric_qualitative_and_pqlab_only_claims():
    line = kit.paper_vs_ours(
        kit.claim("globecom01_fig3_1", "local_max_be_payload_1", 484, "bytes", "why")
    )
    assert (
        line
        == "globecom01_fig3_1 / local_max_be_payload_1: paper 485 bytes; ours 484 bytes (-0.2%)"
        " -- why"
    )
    line = kit.paper_vs_ours(
        kit.claim("globecom01_fig3_1", "non_monotone", None, "-", "why", shape_ok=True)
    )
    assert (
        line == "globecom01_fig3_1 / non_monotone: paper: qualitative claim; ours: qualitative "
        "[shape_ok=True] -- why"
    )
    line = kit.paper_vs_ours(kit.claim("globecom01_fig3_1", "mine", 1.5, "ms", "why"))
    assert line == "globecom01_fig3_1 / mine: pqlab only: 1.5 ms -- why"


def test_record_claims_records_every_claim_with_the_default_seed(tmp_path, capsys):
    claims = [
        kit.claim("globecom01_fig3_1", "local_max_be_payload_1", 484, "bytes", "a"),
        kit.claim("globecom01_fig3_1", "mine", None, "-", "b", shape_ok=False, seed=7),
    ]
    assert kit.record_claims(tmp_path, claims, seed=3) is None
    records = report.load_records(tmp_path)
    assert [(r["artefact"], r["quantity"], r["value"], r["seed"]) for r in records] == [
        ("globecom01_fig3_1", "local_max_be_payload_1", 484.0, 3),
        ("globecom01_fig3_1", "mine", None, 7),
    ]
    assert (
        capsys.readouterr()
        .out.splitlines()[0]
        .startswith("globecom01_fig3_1 / local_max_be_payload_1: paper 485")
    )


def test_mean_ci_is_the_student_t_interval_of_experiments_across_seeds():
    values = np.random.default_rng(1).normal(size=(4, 5))
    mean, half = analysis.mean_ci(values)
    np.testing.assert_array_equal(mean, values.mean(axis=1))
    want = values.std(axis=1, ddof=1) * stats.t.ppf(0.975, 4) / np.sqrt(5)
    np.testing.assert_allclose(half, want, rtol=1e-15)
    mean, half = analysis.mean_ci(np.array([2.0]))
    assert float(mean) == 2.0 and np.isnan(half)


def test_add_mean_ci_names_and_labels_the_new_variables():
    ds = xr.Dataset(
        {"w": (("k", "seed"), np.arange(6.0).reshape(3, 2), {"units": "us", "long_name": "W"})}
    )
    kit.add_mean_ci(ds, ["w"])
    np.testing.assert_array_equal(ds["w_mean"].values, [0.5, 2.5, 4.5])
    assert ds["w_mean"].attrs == {"units": "us", "long_name": "W, mean over seeds"}
    assert ds["w_ci"].attrs == {"units": "us", "long_name": "95% CI half-width of w over seeds"}


def test_check_artefact_rejects_other_data():
    ds = xr.Dataset(attrs=kit.provenance("path", "path: title", "tests", seeds=[1]))
    assert kit.check_artefact(ds, "path") is ds
    assert ds.attrs["seeds"] == [1] and ds.attrs["history"] == "computed by tests"
    with pytest.raises(ValueError, match="data must be"):
        kit.check_artefact(ds, "gap")
    with pytest.raises(ValueError, match="data must be"):
        kit.check_artefact({"artefact": "path"}, "path")


def test_times_in_ms_converts_only_the_seconds_and_statistics_in_ms_recomputes():
    from pqlab.base import units

    ds = xr.Dataset(
        {
            "delay": ("seed", [1e-3, 2e-3, 4e-3], {"units": "s", "long_name": "delay"}),
            "slope": ((), 2e-4, {"units": "s/particle", "long_name": "slope"}),
            "time": ("seed", [0.5, 1.0, 1.5], {"units": "s", "long_name": "arrival time"}),
            "rate": ((), 3e5, {"units": "bit/s", "long_name": "rate"}),
            "loss": ("seed", [0.0, 0.1, 0.2], {"units": "1", "long_name": "loss"}),
        },
        attrs={"artefact": "x"},
    )
    ms = units.times_in_ms(ds, keep=("time",))
    assert ms["delay"].attrs == {"units": "ms", "long_name": "delay"}
    np.testing.assert_array_equal(ms["delay"].values, ds["delay"].values * 1e3)
    assert ms["slope"].attrs["units"] == "ms/particle" and float(ms["slope"]) == 0.2
    for name in ("time", "rate", "loss"):
        xr.testing.assert_identical(ms[name], ds[name])
    assert ms.attrs == ds.attrs and ds["delay"].attrs["units"] == "s"  # the input is left as it was
    assert units.to_mbps(2e6) == 2.0

    def statistics(d):
        return d.assign(
            delay_mean=d["delay"].mean("seed").assign_attrs(units=d["delay"].attrs["units"])
        )

    view = kit.statistics_in_ms(statistics(ds), statistics)
    assert view["delay_mean"].attrs["units"] == "ms"
    assert float(view["delay_mean"]) == float(
        (ds["delay"] * 1e3).mean("seed")
    )  # converted before the mean


def _title_and_top_labels(top_axis: bool):
    fig, ax = kit.subplots(figsize=(5, 3), top_axis=top_axis)
    ax.plot([0, 1], [0, 1])
    sec = ax.secondary_xaxis("top")
    sec.set_xlabel("a label on top")
    ax.set_title("the title")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    title = ax.title.get_window_extent(renderer)
    top = sec.get_tightbbox(renderer)
    plt.close(fig)
    return title, top


def test_titles_of_subplots_axes_are_at_a_fixed_height_and_rc_is_left_alone():
    before = matplotlib.rcParams["axes.titley"]
    fig, ax = kit.subplots(figsize=(4, 3))
    ax.set_title("t")
    assert ax._autotitlepos is False  # placed at axes.titley, not measured at every draw
    assert matplotlib.rcParams["axes.titley"] == before  # the global setting is not changed
    plt.close(fig)


def test_a_figure_with_an_axis_on_top_keeps_its_title_above_that_axis():
    title, top = _title_and_top_labels(top_axis=True)
    assert title.y0 >= top.y1 - 0.5  # above the top axis's label
    title, top = _title_and_top_labels(top_axis=False)
    assert title.y0 < top.y1  # what top_axis=True is for: a fixed title would overlap it


NOTEBOOKS = sorted(Path(__file__).resolve().parents[1].glob("notebooks/[0-9]*.ipynb"))


def test_full_run_keeps_the_parameters_and_makes_the_figures_folder(tmp_path):
    run = setup(
        quick=False,
        seed=3,
        n_seeds=2,
        n_ef_samples=10_000,
        figures_dir=str(tmp_path / "fig"),
        results_dir=str(tmp_path / "res"),
    )
    assert run == (str(tmp_path / "fig"), str(tmp_path / "res"), 10_000, 2, (3, 4))
    assert (tmp_path / "fig").is_dir() and (tmp_path / "res").is_dir()


def test_quick_profile_is_defined_once(tmp_path):
    folders = {"figures_dir": str(tmp_path), "results_dir": str(tmp_path)}
    run = setup(quick=True, seed=1, n_seeds=3, n_ef_samples=10_000, **folders)
    assert (run.n_ef_samples, run.n_seeds, run.seeds) == (
        kit.QUICK_N_EF_SAMPLES,
        kit.QUICK_N_SEEDS,
        (1,),
    )
    assert (
        setup(
            quick=True, seed=1, n_seeds=3, n_ef_samples=10_000, quick_n_ef_samples=1_000, **folders
        ).n_ef_samples
        == 1_000
    )
    assert setup(quick=True, seed=1, n_seeds=3, n_ef_samples=200, **folders).n_ef_samples == 200


def test_empty_folders_mean_a_scratch_folder_never_the_reproductions(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    run = setup(quick=True, seed=1, n_seeds=1, n_ef_samples=10, notebook="05_worst_case")
    for folder in (run.figures_dir, run.results_dir):
        assert Path(folder).is_dir() and Path(folder).is_relative_to(tmp_path)
        assert not Path(folder).is_relative_to(locations.FIGURES) and not Path(
            folder
        ).is_relative_to(locations.BUILD)
    assert "05_worst_case" in run.figures_dir and "scratch" in capsys.readouterr().out


@pytest.mark.parametrize(
    "bad, name",
    [
        ({"quick": 1}, "quick"),
        ({"seed": -1}, "seed"),
        ({"n_seeds": 0}, "n_seeds"),
        ({"n_ef_samples": 2.5}, "n_ef_samples"),
    ],
)
def test_bad_parameters_are_named(tmp_path, bad, name):
    kwargs = {
        "quick": False,
        "seed": 1,
        "n_seeds": 1,
        "n_ef_samples": 10,
        "figures_dir": str(tmp_path),
        **bad,
    }
    with pytest.raises(ValueError, match=name):
        setup(**kwargs)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_paper_notebook_calls_setup_and_repeats_none_of_it(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    code = "\n".join(
        "".join(c["source"])
        for c in cells
        if c["cell_type"] == "code" and "parameters" not in c["metadata"].get("tags", [])
    )
    assert code.count("kit.setup(") == 1
    for copied in (
        "pqlab.base.locations.FIGURES",
        "seeds = tuple(range(",
        "n_seeds = 1",
        ".mkdir(",
    ):
        assert copied not in code, copied
