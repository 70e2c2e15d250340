"""Start-up: ``import pqlab`` and the commands that only print load none of the heavy libraries.

``import pqlab`` offers its public names lazily (PEP 562, :mod:`pqlab.base.lazy`); ``pqlab --help``,
``pqlab params`` and ``pqlab reproduce --list`` read the notebooks and the artefact modules'
source instead of importing the engine. Each is run in a fresh interpreter and the modules it
loaded are read from ``sys.modules`` (the time they take is measured by ``benchmarks/startup.py``).
"""

import json
import subprocess
import sys

import pytest

#: Libraries none of those paths needs (numpy and numba: the engine; the rest: results, figures).
HEAVY = ("numpy", "numba", "xarray", "pandas", "scipy", "matplotlib", "seaborn", "dask",
         "packaging", "nbformat", "papermill", "jinja2")

REPORT = "\nimport json, sys\nprint(json.dumps(sorted({m.partition('.')[0] for m in sys.modules})))"


def _loaded(code: str) -> set:
    out = subprocess.run([sys.executable, "-c", code + REPORT], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize("code", [
    "import pqlab",
    "import pqlab\nfrom pqlab.cli import main\n"
    "try:\n    main(['--help'])\nexcept SystemExit:\n    pass",
    "from pqlab.cli import main\nmain(['params'])",
    "from pqlab.cli import main\nmain(['params', 'globecom01_fig3_1'])",
    "from pqlab.cli import main\nmain(['reproduce', '--list'])",
], ids=["import", "help", "params", "params-of-an-artefact", "reproduce-list"])
def test_what_only_prints_loads_no_heavy_library(code):
    assert _loaded(code) & set(HEAVY) == set()


def test_the_public_names_still_load_on_first_use():
    code = ("import pqlab\nimport pqlab.metrics\nfrom pqlab import scenarios, Node\n"
            "assert pqlab.metrics is pqlab.measure.metrics and scenarios is pqlab.papers.presets\n"
            "assert pqlab.Node.cisco7200_atm() == pqlab.papers.cisco7200_atm()\n"
            "assert set(pqlab.__all__) <= set(dir(pqlab))")
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
