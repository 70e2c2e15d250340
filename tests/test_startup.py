"""Start-up: ``import pqlab`` and the commands that only print load none of the heavy libraries.

``import pqlab`` offers its public names lazily (PEP 562, :mod:`pqlab.base.lazy`); ``pqlab --help``
and ``pqlab reproduce --list`` read the artefact modules' source instead of importing the engine;
``pqlab params`` reads the notebooks' parameters cells with papermill, and nothing of the engine.
Each is run in a fresh interpreter and the modules it loaded are read from ``sys.modules`` (the
time they take is measured by ``benchmarks/startup.py``).
"""

import json
import subprocess
import sys

import pytest

#: Libraries of the engine, its results and figures: no command that only prints loads them.
ENGINE = ("numba", "xarray", "pandas", "scipy", "matplotlib", "seaborn", "dask")
#: Libraries none of the paths but ``pqlab params`` needs (numpy: the engine's arrays).
HEAVY = (*ENGINE, "numpy", "packaging", "nbformat", "papermill", "jinja2")
#: Optional modules papermill's imports would load and the command marks absent (one compiles
#: grammars on import: :data:`pqlab.pipeline._notebook_worker.UNNEEDED_SLOW_IMPORTS`).
SLOW_OPTIONAL = ("rfc3987_syntax",)

#: Prints the modules loaded (not those marked absent: None in ``sys.modules``).
REPORT = (
    "\nimport json, sys\nprint(json.dumps(sorted({m.partition('.')[0] for m, module in "
    "sys.modules.items() if module is not None})))"
)


def _loaded(code: str) -> set:
    out = subprocess.run(
        [sys.executable, "-c", code + REPORT], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    "code",
    [
        "import pqlab",
        (
            "import pqlab\nfrom pqlab.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass"
        ),
        "from pqlab.cli import main\nmain(['reproduce', '--list'])",
    ],
    ids=["import", "help", "reproduce-list"],
)
def test_what_only_prints_loads_no_heavy_library(code):
    assert _loaded(code) & set(HEAVY) == set()


@pytest.mark.parametrize(
    "argv", [["params"], ["params", "globecom01_fig3_1"]], ids=["params", "params-of-an-artefact"]
)
def test_params_loads_papermill_and_nothing_of_the_engine(argv):
    loaded = _loaded(f"from pqlab.cli import main\nmain({argv!r})")
    assert "papermill" in loaded  # the reader of the parameters cells, as -p's
    assert loaded & {*ENGINE, *SLOW_OPTIONAL} == set()


def test_the_public_names_still_load_on_first_use():
    code = (
        "import pqlab\nimport pqlab.metrics\nfrom pqlab import scenarios, Node\n"
        "assert pqlab.metrics is pqlab.measure.metrics and scenarios is pqlab.papers.presets\n"
        "assert pqlab.Node.cisco7200_atm() == pqlab.papers.cisco7200_atm()\n"
        "assert set(pqlab.__all__) <= set(dir(pqlab))"
    )
    assert {"numba", "xarray"} <= _loaded(code)


def test_an_unknown_name_is_an_attribute_error():
    import pqlab

    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        pqlab.nope  # noqa: B018
    with pytest.raises(ModuleNotFoundError):
        import pqlab.nope  # noqa: F401


def test_the_build_command_loads_no_engine_before_its_notebooks_run():
    """``pqlab reproduce``'s own process plans, runs workers and writes the report: no numba,
    no figures (its kernels load those), so the workers start without waiting for them."""
    loaded = _loaded("import pqlab.pipeline.reproduce")
    assert loaded & {"numba", "scipy", "matplotlib", "seaborn"} == set()
