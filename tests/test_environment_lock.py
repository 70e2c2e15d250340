"""The environment lock: what pins it holds, who installs from it, and what pqlab reads of it.

``requirements/run.txt`` (the reproduction) and ``requirements/test.txt`` (with the test and lab
extras) pin every package at one version per supported Python, with hashes; the README's two
commands, ``.ci/run`` (through the README), ``environment.yml`` and Binder install from them.
"""

import re
from pathlib import Path

import pytest
import tomllib
import yaml
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

import pqlab
from pqlab.base import locations, versions
from pqlab.pipeline import reportdiff

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENTS = ROOT / "requirements"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
#: The Python versions pqlab supports: every minor version the lock resolves, from the
#: classifiers (requires-python must admit exactly these).
SUPPORTED = sorted(
    c.rsplit(":: ", 1)[1]
    for c in PYPROJECT["classifiers"]
    if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
)


def _marker_env(python: str) -> dict:
    env = default_environment()
    env.update(
        python_version=python,
        python_full_version=f"{python}.0",
        sys_platform="linux",
        platform_system="Linux",
        os_name="posix",
        platform_machine="x86_64",
        implementation_name="cpython",
        platform_python_implementation="CPython",
    )
    return env


def _lock(name: str, python: str) -> dict[str, str]:
    return versions.parse_lock(
        (REQUIREMENTS / name).read_text(encoding="utf-8"), _marker_env(python)
    )


def test_requires_python_admits_exactly_the_supported_versions():
    spec = SpecifierSet(PYPROJECT["requires-python"])
    assert SUPPORTED == ["3.10", "3.11", "3.12", "3.13"]
    for minor in range(8, 16):
        version = f"3.{minor}.0"
        assert (version in spec) == (f"3.{minor}" in SUPPORTED), version
    # the lock is resolved from the oldest supported version up (refresh.sh's --python-version)
    assert f"--python-version {SUPPORTED[0]}" in (REQUIREMENTS / "refresh.sh").read_text(
        encoding="utf-8"
    )


@pytest.mark.parametrize("python", SUPPORTED)
def test_the_locks_pin_every_requirement_for_every_supported_python(python):
    run, test = _lock("run.txt", python), _lock("test.txt", python)
    env = _marker_env(python)
    extras = PYPROJECT["optional-dependencies"]
    # the run lock holds the dask extra too (issue 33: dask.distributed sweeps were in the test lock
    # only)
    for lock, requirements in (
        (run, [*PYPROJECT["dependencies"], *extras["dask"]]),
        (test, [*PYPROJECT["dependencies"], *extras["test"], *extras["lab"], *extras["dask"]]),
    ):
        for text in requirements:
            requirement = Requirement(text)
            if requirement.marker is not None and not requirement.marker.evaluate(env):
                continue
            name = canonicalize_name(requirement.name)
            assert name in lock, f"{name} not pinned for Python {python}"
            assert requirement.specifier.contains(lock[name], prereleases=True), (
                f"{name}=={lock[name]} outside pyproject's {requirement.specifier}"
            )
    # the reproduction runs the versions the tests run
    assert {n: v for n, v in run.items() if test.get(n) != v} == {}


def test_every_pin_carries_hashes():
    for name in ("run.txt", "test.txt"):
        text = (REQUIREMENTS / name).read_text(encoding="utf-8").replace("\\\n", " ")
        pins = [
            line for line in text.splitlines() if "==" in line and not line.lstrip().startswith("#")
        ]
        assert len(pins) > 50
        unhashed = [line.split()[0] for line in pins if "--hash=sha256:" not in line]
        assert unhashed == [], f"{name}: pins without a hash"


def test_the_package_ships_the_lock_it_checks_against():
    assert (locations.REQUIREMENTS / versions.LOCK_FILE).read_bytes() == (
        REQUIREMENTS / "run.txt"
    ).read_bytes()
    assert versions.locked_versions()["numpy"]


def test_readme_commands_install_from_the_lock():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = {}
    for marker in ("main-command", "test-command"):
        block = readme.split(f"<!-- {marker} -->", 1)[1].split("```")[1]
        commands[marker] = block.split("\n", 1)[1].strip()
    assert (
        "-r requirements/run.txt" in commands["main-command"]
        and "pqlab reproduce" in commands["main-command"]
    )
    assert (
        "-r requirements/test.txt" in commands["test-command"]
        and "pytest" in commands["test-command"]
    )
    for command in commands.values():
        # pqlab itself first, without dependencies: pip's requires-python check names an unsupported
        # Python
        assert command.index("--no-deps -e .") < command.index("-r requirements/")
        assert "[test]" not in command  # not the extras' ranges: the lock


def test_environment_yml_installs_the_lock():
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    conda = [d for d in env["dependencies"] if isinstance(d, str)]
    pip = [d["pip"] for d in env["dependencies"] if isinstance(d, dict)]
    assert pip == [["-r requirements/test.txt"]]
    assert sorted(d.split("=")[0] for d in conda) == ["pip", "python"]
    python = next(d for d in conda if d.startswith("python="))
    assert python.split("=", 1)[1] in SUPPORTED


def test_binder_installs_the_lock():
    assert (ROOT / "binder" / "requirements.txt").read_bytes() == (
        REQUIREMENTS / "test.txt"
    ).read_bytes()
    conda_python = next(
        d
        for d in yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))[
            "dependencies"
        ]
        if isinstance(d, str) and d.startswith("python=")
    )
    assert (
        ROOT / "binder" / "runtime.txt"
    ).read_text().strip() == f"python-{conda_python.split('=', 1)[1]}"
    assert "--no-deps -e ." in (ROOT / "binder" / "postBuild").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- reading a lock


LOCK = """\
# header
numpy==2.2.6 ; python_full_version < '3.11' \\
    --hash=sha256:aa \\
    --hash=sha256:bb
    # via pqlab
numpy==2.4.6 ; python_full_version >= '3.11' \\
    --hash=sha256:cc
Pandas==3.1.1 \\
    --hash=sha256:dd
"""


def test_parse_lock_evaluates_markers_and_normalises_names():
    assert versions.parse_lock(LOCK, _marker_env("3.10")) == {"numpy": "2.2.6", "pandas": "3.1.1"}
    assert versions.parse_lock(LOCK, _marker_env("3.12")) == {"numpy": "2.4.6", "pandas": "3.1.1"}


def test_parse_lock_refuses_a_range():
    with pytest.raises(ValueError, match="not an exact '==' pin"):
        versions.parse_lock("numpy>=2\n", _marker_env("3.11"))
    with pytest.raises(ValueError, match="is not a requirement"):
        versions.parse_lock("@@@ bad\n", _marker_env("3.11"))


def test_lock_differences_name_every_package_off_the_lock():
    locked = {"numpy": "2.4.6", "pandas": "3.1.1", "scipy": "1.17.1"}
    installed = {"numpy": "2.5.0", "pandas": "3.1.1"}
    differences = versions.lock_differences(locked, installed)
    assert differences == [("numpy", "2.4.6", "2.5.0"), ("scipy", "1.17.1", None)]
    line = versions.differences_text(differences)
    assert (
        line == "This run's environment differs from the lock in 2 package(s): numpy 2.5.0 (lock"
        " 2.4.6), "
        "scipy not installed (lock 1.17.1)."
    )
    assert "\n" not in line and versions.differences_text([]) == ""


def test_this_test_environment_is_described_truthfully():
    summary = versions.environment_summary()
    import numpy

    assert summary["numpy"] == numpy.__version__ and summary["pqlab"] == pqlab.__version__
    lines = versions.environment_text("f" * 64)
    assert lines[0].startswith("Environment: Python ") and "results digest ffffffffffff" in lines[0]
    assert f"sha256 {versions.lock_sha256()[:12]}" in lines[0]
    on_lock = not versions.lock_differences()
    assert lines[1].startswith(versions.ENVIRONMENT_LINE_PREFIXES[2 if on_lock else 1])
    python = ".".join(__import__("platform").python_version_tuple()[:2])
    assert versions.is_locked_environment(python, versions.lock_sha256()[:12]) == on_lock
    assert not versions.is_locked_environment("2.7", versions.lock_sha256()[:12])
    assert not versions.is_locked_environment(
        python, "0" * 12 if not versions.lock_sha256().startswith("0" * 12) else "f" * 12
    )


def test_installed_versions_read_from_folder_names_are_the_metadata_s():
    """Every distribution's name and version as its dist-info folder names them (the quick read)
    are what its METADATA says, for every distribution of this environment."""
    from importlib import metadata

    from packaging.utils import canonicalize_name

    parsed = []
    for dist in metadata.distributions():
        name, version = versions._name_and_version(dist)
        assert canonicalize_name(name) == canonicalize_name(dist.metadata["Name"])
        assert version == dist.version

    class Counted(metadata.PathDistribution):
        @property
        def metadata(self):
            parsed.append(self)
            return super().metadata

    dists = [Counted(d._path) for d in metadata.distributions() if hasattr(d, "_path")]
    for dist in dists:
        versions._name_and_version(dist)
    # the quick read is the one taken: only folders not named <name>-<version>.dist-info parsed
    assert len(dists) > 50 and len(set(map(id, parsed))) == sum(
        not d._path.name.endswith(".dist-info") for d in dists
    )


def test_results_carry_the_environment():
    from pqlab import scenarios

    ds = pqlab.simulate(scenarios.base_case(n_ef_samples=20), seed=1)
    attrs = versions.environment_attrs()
    for name, value in attrs.items():
        assert ds.attrs[name] == value
    assert ds.attrs["environment_lock_sha256"] == versions.lock_sha256()
    assert "numpy " in ds.attrs["software_versions"] and "numba " in ds.attrs["software_versions"]


def test_cached_results_are_keyed_on_the_environment(monkeypatch):
    from pqlab.measure import cache

    def compute(a=1):
        return a

    first, _ = cache.key("x", compute, (), {})
    monkeypatch.setattr(cache.versions, "fingerprint", lambda: "another numpy")
    second, description = cache.key("x", compute, (), {})
    assert first != second and description["environment_sha256"] == "another numpy"


def test_report_environment_is_read_back():
    text = (
        "# t\n\nEnvironment: Python 3.11.7, pqlab 0.1.0; lock requirements/run.txt sha256"
        " 0123456789ab; x.\n\nThe installed packages are the lock's, every one.\n"
    )
    assert reportdiff.report_environment(text) == {
        "python": "3.11",
        "lock_sha256": "0123456789ab",
        "on_lock": True,
    }
    with pytest.raises(ValueError, match="no environment line"):
        reportdiff.report_environment("# an old report\n")


# --------------------------------------------------------------------------- CI on every Python

CI = ROOT / ".ci"


def _other_pythons_list(env: dict) -> list[str]:
    import subprocess

    done = subprocess.run(
        ["bash", str(CI / "other_pythons"), "--list"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    return done.stdout.splitlines()


def test_ci_runs_the_other_pythons_before_the_readme_test_command():
    """``.ci/run`` calls ``.ci/other_pythons`` and only then the README's command, and fails on
    either."""
    run = (CI / "run").read_text(encoding="utf-8")
    assert "bash .ci/other_pythons || others=$?" in run
    assert run.index(".ci/other_pythons ||") < run.index('bash -c "$cmd"')
    assert 'exit "$others"' in run


def test_other_pythons_says_for_every_supported_python_whether_it_runs_or_why_not(tmp_path):
    """With no pyenv and an empty PATH beyond the system's, every supported Python but the current
    one is reported skipped, naming where it looked; the current one is the README's suite."""
    import shutil
    import sys

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    # python3 is this interpreter (the README's venv is made from it); nothing else is on PATH.
    (bin_dir / "python3").symlink_to(sys.executable)
    for tool in (
        "bash",
        "grep",
        "sort",
        "ls",
        "mktemp",
        "cat",
        "tr",
        "sed",
        "tail",
        "rm",
        "dirname",
    ):
        found = shutil.which(tool)
        if found:
            (bin_dir / tool).symlink_to(found)
    env = {"PATH": str(bin_dir), "PYENV_ROOT": str(tmp_path / "no-pyenv"), "HOME": str(tmp_path)}
    lines = _other_pythons_list(env)
    current = "%d.%d" % sys.version_info[:2]
    assert lines[0] == f"supported Pythons (pyproject.toml classifiers: {' '.join(SUPPORTED)})"
    said = {re.match(r"  python (3\.\d+)(\.\d+)?: ", line).group(1): line for line in lines[1:]}
    assert len(said) == len(lines) - 1
    assert sorted(said) == SUPPORTED
    for version, line in said.items():
        if version == current:
            assert "the whole suite, by the README's test command" in line
        else:
            assert (
                line.strip() == f"python {version}: skipped: not installed here (looked in pyenv's "
                f"versions and for python{version} on PATH)"
            )


def test_other_pythons_runs_a_python_it_finds_in_pyenv(tmp_path):
    """A pyenv tree holding another supported Python is found (the newest patch release) and would
    run."""
    import sys

    current = "%d.%d" % sys.version_info[:2]
    other = next(v for v in SUPPORTED if v != current)
    root = tmp_path / "pyenv"
    for patch in ("1", "10", "9"):
        folder = root / "versions" / f"{other}.{patch}" / "bin"
        folder.mkdir(parents=True)
        fake = folder / f"python{other}"
        # A stand-in interpreter that says it is that version (all --list asks of it).
        fake.write_text(
            f'#!/bin/sh\ncase "$*" in *platform*) echo {other}.{patch};; *) echo {other};; esac\n'
        )
        fake.chmod(0o755)
    env = {"PATH": "/usr/bin:/bin", "PYENV_ROOT": str(root), "HOME": str(tmp_path)}
    pyenv = tmp_path / "bin" / "pyenv"
    pyenv.parent.mkdir()
    pyenv.write_text(f'#!/bin/sh\n[ "$1" = root ] && echo {root}\n')
    pyenv.chmod(0o755)
    env["PATH"] = f"{pyenv.parent}:{sys.executable.rsplit('/', 1)[0]}:/usr/bin:/bin"
    lines = _other_pythons_list(env)
    assert f"  python {other}.10: would run ({root}/versions/{other}.10/bin/python{other})" in lines
