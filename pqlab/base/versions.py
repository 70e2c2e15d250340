"""Which software computed a result, and whether it is the locked environment.

pqlab's numbers depend, in their last digits, on the numpy, pandas, scipy, ... that compute
them (a sum's order, a library's rounding). The repository pins every package of the
reproduction, transitive ones included, in ``requirements/run.txt`` (the *lock*: one version
per supported Python version, with the sha256 of every file; ``requirements/refresh.sh``
rewrites it), shipped inside the package so that an installed pqlab reads it too. This module:

* reads the lock for the running interpreter (:func:`locked_versions`, environment markers
  evaluated with :mod:`packaging.markers`) and its digest (:func:`lock_sha256`);
* reads the installed versions (:func:`installed_versions`) and names every locked package
  whose installed version differs (:func:`lock_differences`): ``pqlab reproduce`` says so in
  one line of its report, never as an error (a user may run newer packages on purpose);
* builds what results carry: the provenance attrs of every Dataset
  (:func:`environment_attrs`), the report's environment line (:func:`environment_text`) and
  the fingerprint that keys cached results (:func:`fingerprint`), so a result computed under
  other package versions is never reused as if it were this environment's.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
from importlib import metadata

from .._version import __version__
from . import locations

__all__ = [
    "REPORTED_PACKAGES",
    "LOCK_FILE",
    "ENVIRONMENT_LINE_PREFIXES",
    "is_locked_environment",
    "lock_text",
    "lock_sha256",
    "parse_lock",
    "locked_versions",
    "installed_versions",
    "lock_differences",
    "differences_text",
    "environment_summary",
    "environment_attrs",
    "environment_text",
    "fingerprint",
]

#: The packages whose versions a report and a Dataset name (the computing stack), in this order.
REPORTED_PACKAGES = ("numpy", "numba", "xarray", "pandas", "scipy", "matplotlib", "seaborn")
#: The lock of the reproduction (package resource ``pqlab._requirements``).
LOCK_FILE = "run.txt"
#: Hex digits of a digest shown to readers (48 bits: two runs compared by eye).
SHORT_DIGEST = 12
#: How the lines of the report's environment block begin (:func:`environment_text`): the
#: versions, then whether the installed packages are the lock's.
ENVIRONMENT_LINE_PREFIXES = (
    "Environment: ",
    "This run's environment differs from the lock",
    "The installed packages are the lock's",
)


def lock_text(name: str = LOCK_FILE) -> str:
    """The text of one of pqlab's locks (``run.txt`` or ``test.txt``) as shipped with the
    package."""
    return (locations.REQUIREMENTS / name).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=None)
def lock_sha256(name: str = LOCK_FILE) -> str:
    """sha256 (hex) of a lock file's bytes: which lock a report or a Dataset refers to."""
    return hashlib.sha256((locations.REQUIREMENTS / name).read_bytes()).hexdigest()


def parse_lock(text: str, environment: dict | None = None) -> dict[str, str]:
    """The pins of a requirements lock that apply to one interpreter.

    Parameters
    ----------
    text : str
        A pip requirements file of exact pins (``name==version ; marker`` with ``--hash``
        options and ``\\`` line continuations, as ``uv pip compile --universal`` writes).
    environment : dict, optional
        PEP 508 marker environment (default: the running interpreter's).

    Returns
    -------
    dict of str to str
        Canonical package name to version, for the pins whose marker holds.

    Raises
    ------
    ValueError
        If a requirement is not an exact ``==`` pin, or cannot be parsed (naming the line).
    """
    from packaging.markers import Marker, default_environment  # imported when a lock is read
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    env = default_environment() if environment is None else environment
    pins: dict[str, str] = {}
    for line in text.replace("\\\n", " ").splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith(("#", "-")):
            continue
        requirement_text = " ".join(word for word in line.split() if not word.startswith("--hash="))
        try:
            requirement = Requirement(requirement_text)
        except InvalidRequirement as err:
            raise ValueError(
                f"lock line {requirement_text!r} is not a requirement: {err}"
            ) from None
        specifiers = list(requirement.specifier)
        if len(specifiers) != 1 or specifiers[0].operator != "==":
            raise ValueError(f"lock line {requirement_text!r} is not an exact '==' pin")
        if requirement.marker is not None and not Marker(str(requirement.marker)).evaluate(env):
            continue
        pins[canonicalize_name(requirement.name)] = specifiers[0].version
    return pins


@functools.lru_cache(maxsize=None)
def _locked_for_this_interpreter(name: str) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(parse_lock(lock_text(name)).items()))


def locked_versions(name: str = LOCK_FILE) -> dict[str, str]:
    """The lock's pins for the running interpreter: canonical name to version."""
    return dict(_locked_for_this_interpreter(name))


@functools.lru_cache(maxsize=None)
def _installed() -> tuple[tuple[str, str], ...]:
    from packaging.utils import canonicalize_name

    found: dict[str, str] = {}
    for (
        dist
    ) in metadata.distributions():  # one scan of sys.path; the first of a name wins, as for import
        name, version = _name_and_version(dist)
        if name:
            found.setdefault(canonicalize_name(name), version)
    return tuple(sorted(found.items()))


def _name_and_version(dist) -> tuple[str | None, str]:
    """A distribution's name and version, read from its ``<name>-<version>.dist-info`` folder's
    name (the wheel format's rule: PEP 427, names escaped so that the first ``-`` separates them)
    where it has one, else from its metadata, whose every file is parsed as an e-mail message:
    the slow way to the same two strings (every process that keys a result reads them).
    """
    folder = getattr(dist, "_path", None)  # importlib.metadata's PathDistribution
    stem, suffix = os.path.splitext(getattr(folder, "name", ""))
    if suffix == ".dist-info" and stem.count("-") == 1:
        name, version = stem.split("-")
        if name and version:
            return name, version
    return dist.metadata["Name"], dist.version


def installed_versions() -> dict[str, str]:
    """Every installed distribution of this interpreter: canonical name to version (read once per
    process)."""
    return dict(_installed())


def lock_differences(
    locked: dict[str, str] | None = None, installed: dict[str, str] | None = None
) -> list[tuple[str, str, str | None]]:
    """The locked packages whose installed version is not the lock's.

    Returns
    -------
    list of (name, locked version, installed version or None)
        Sorted by name; ``None`` where the package is not installed; empty when the running
        environment is the locked one.
    """
    locked = locked_versions() if locked is None else locked
    installed = installed_versions() if installed is None else installed
    return [
        (name, version, installed.get(name))
        for name, version in sorted(locked.items())
        if installed.get(name) != version
    ]


def differences_text(differences: list[tuple[str, str, str | None]]) -> str:
    """One line naming the packages that differ from the lock ('' when none)."""
    if not differences:
        return ""
    items = [
        f"{name} {installed or 'not installed'} (lock {locked})"
        for name, locked, installed in differences
    ]
    return f"{ENVIRONMENT_LINE_PREFIXES[1]} in {len(items)} package(s): " + ", ".join(items) + "."


def is_locked_environment(python: str, lock_sha256_prefix: str) -> bool:
    """True if this interpreter is Python ``python`` (major.minor) running exactly the shipped lock,
    and that lock's sha256 starts with ``lock_sha256_prefix``.

    The environment a committed report was made in
    (:func:`pqlab.pipeline.reportdiff.report_environment`
    reads it from the report): where this holds, the report is expected byte for byte.
    """
    minor = ".".join(platform.python_version_tuple()[:2])
    return (
        minor == python
        and bool(lock_sha256_prefix)
        and lock_sha256().startswith(lock_sha256_prefix)
        and not lock_differences()
    )


def environment_summary() -> dict:
    """The running environment in plain data: Python, pqlab and :data:`REPORTED_PACKAGES` versions,
    the lock.

    Keys: ``python``, ``pqlab``, one per reported package (``None`` if not installed),
    ``lock_sha256`` and ``lock_differences`` (as :func:`lock_differences`).
    """
    installed = installed_versions()
    summary = {"python": platform.python_version(), "pqlab": __version__}
    summary.update({name: installed.get(name) for name in REPORTED_PACKAGES})
    summary["lock_sha256"] = lock_sha256()
    summary["lock_differences"] = lock_differences(installed=installed)
    return summary


def _versions_text(summary: dict) -> str:
    names = {"python": "Python"}
    return ", ".join(
        f"{names.get(name, name)} {summary[name] or 'not installed'}"
        for name in ("python", "pqlab", *REPORTED_PACKAGES)
    )


def environment_attrs() -> dict:
    """Provenance attrs naming the environment (strings, netCDF-safe), for every Dataset pqlab
    returns.

    ``software_versions`` (Python, pqlab and the computing stack), ``environment_lock_sha256``
    (the lock the package ships) and ``environment_matches_lock`` (``"yes"``, or the
    packages that differ). Built once per process (every :func:`pqlab.simulate` stamps them),
    as the installed versions are read once.
    """
    return dict(_environment_attrs())


@functools.lru_cache(maxsize=None)
def _environment_attrs() -> tuple[tuple[str, str], ...]:
    summary = environment_summary()
    return (
        ("software_versions", _versions_text(summary)),
        ("environment_lock_sha256", summary["lock_sha256"]),
        ("environment_matches_lock", differences_text(summary["lock_differences"]) or "yes"),
    )


def environment_text(results_digest: str | None = None) -> list[str]:
    """The report's environment block: one line of versions, lock and results digest; a second if
    off the lock.

    Parameters
    ----------
    results_digest : str, optional
        Digest of the report's numbers (:func:`pqlab.pipeline.report.results_digest`), shown
        shortened.
    """
    summary = environment_summary()
    line = (
        f"Environment: {_versions_text(summary)}; lock requirements/{LOCK_FILE} sha256 "
        f"{summary['lock_sha256'][:SHORT_DIGEST]}"
    )
    if results_digest is not None:
        line += f"; results digest {results_digest[:SHORT_DIGEST]}"
    lines = [line + "."]
    differences = differences_text(summary["lock_differences"])
    lines.append(differences or f"{ENVIRONMENT_LINE_PREFIXES[2]}, every one.")
    return lines


@functools.lru_cache(maxsize=None)
def fingerprint() -> str:
    """sha256 (hex) of the Python minor version and the installed versions of every locked package.

    What cached results are keyed on besides their code and parameters: the same key means
    the same computing environment, so a result is reused only where it would be recomputed
    identically.
    """
    installed = installed_versions()
    description = {
        "python": ".".join(platform.python_version_tuple()[:2]),
        "packages": {name: installed.get(name) for name in sorted(locked_versions())},
    }
    return hashlib.sha256(json.dumps(description, sort_keys=True).encode()).hexdigest()
