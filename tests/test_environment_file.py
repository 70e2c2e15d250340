"""environment.yml (conda) lists the same packages, with the same version bounds, as pyproject.toml."""

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
#: The extras the conda environment carries besides the dependencies ("bench" needs ns-py, pip only).
EXTRAS_IN_ENVIRONMENT = ("test", "lab", "dask")
#: conda-forge names that differ from the PyPI names (conda name -> PyPI name).
CONDA_TO_PYPI = {"python-build": "build"}


def _split(requirement: str) -> tuple[str, str]:
    """``"simpy>=4.1,<5"`` -> ``("simpy", ">=4.1,<5")``, name normalised (PEP 503), spaces dropped."""
    match = re.fullmatch(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(.*?)\s*", requirement)
    assert match, f"cannot read requirement {requirement!r}"
    return re.sub(r"[-_.]+", "-", match.group(1)).lower(), match.group(2).replace(" ", "")


def pyproject_requirements() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = {}
    for requirement in [*project["dependencies"],
                        *(r for extra in EXTRAS_IN_ENVIRONMENT for r in project["optional-dependencies"][extra])]:
        name, spec = _split(requirement)
        assert wanted.setdefault(name, spec) == spec, f"{name} has two bounds in pyproject: {wanted[name]}, {spec}"
    return wanted


def environment_requirements() -> tuple[dict[str, str], list]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    conda, pip = {}, []
    for item in env["dependencies"]:
        if isinstance(item, dict):
            pip += item["pip"]
            continue
        name, spec = _split(item)
        name = CONDA_TO_PYPI.get(name, name)
        if name not in ("python", "pip"):
            assert name not in conda, f"{name} listed twice in environment.yml"
            conda[name] = spec
    return conda, pip


def test_environment_file_matches_pyproject():
    wanted = pyproject_requirements()
    conda, pip = environment_requirements()
    assert sorted(set(wanted) - set(conda)) == [], "in pyproject.toml but not in environment.yml"
    assert sorted(set(conda) - set(wanted)) == [], "in environment.yml but not in pyproject.toml"
    assert {n: s for n, s in conda.items() if s != wanted[n]} == {}, "version bounds differ from pyproject.toml"
    assert pip == ["-e ."], "environment.yml installs pqlab itself with pip"


def test_environment_has_a_jupyter_front_end_and_the_dask_dashboard():
    conda, _ = environment_requirements()
    assert "jupyterlab" in conda and "bokeh" in conda


def test_requirements_are_read_name_and_bounds():
    assert _split("simpy >= 4.1, <5") == ("simpy", ">=4.1,<5")
    assert _split("ns_py==0.4.3") == ("ns-py", "==0.4.3")
    assert _split("PyYAML") == ("pyyaml", "")
