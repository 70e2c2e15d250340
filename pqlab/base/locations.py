"""Where pqlab's inputs are and where its outputs go: the one place that knows.

Inputs (the paper notebooks, the lab notebooks, the data files with the papers' values and
the stand-in BE size distribution) are package resources: the repository's top-level
``notebooks/`` and ``data/`` folders ship inside the package as ``pqlab._notebooks`` and
``pqlab._data`` (see ``pyproject.toml``) and are read with :mod:`importlib.resources`, so
they are found the same way in a source checkout, an editable install and an installed wheel.

Outputs: ``pqlab reproduce`` writes, in a source checkout, into the repository
(``figures/`` and ``build/``, as docs/build.md says) and, when pqlab is installed (not a
checkout), into ``./pqlab-output`` of the current folder (``--out`` overrides both); never
into site-packages. A notebook run by hand, without the ``figures_dir``/``results_dir``
parameters that ``pqlab reproduce`` passes, writes into a scratch folder
(:func:`notebook_outputs`) and never into the reproduction.
"""

from __future__ import annotations

import os
import time
from importlib import resources
from pathlib import Path

#: The folder holding the ``pqlab`` package (the repository root in a source checkout).
ROOT = Path(__file__).resolve().parents[2]
#: Folder of the current folder that an installed pqlab writes its reproduction into.
INSTALLED_OUTPUT_NAME = "pqlab-output"
#: Folder of the current folder that notebooks run by hand write into.
SCRATCH_NAME = "pqlab-scratch"


def _resource_dir(package: str) -> Path:
    """The folder of a resource package, as a real file-system path.

    pqlab's resources are plain files on disk in every supported install (wheel, sdist
    build, editable), which papermill and pandas need; a zipped install is refused.
    """
    try:
        root = resources.files(package)
    except (TypeError, AttributeError):  # Python 3.10: files() of a namespace package
        import importlib.util

        return Path(next(iter(importlib.util.find_spec(package).submodule_search_locations)))
    if isinstance(root, Path):
        return root
    # A package without __init__.py (our resource folders) is a namespace package: its
    # Traversable is a MultiplexedPath over the folders that make it up; take the first.
    for child in root.iterdir():
        return Path(str(child)).parent
    raise FileNotFoundError(f"pqlab's resource package {package} is empty or not on disk")


#: Inputs with provenance: the stand-in packet size distribution, the papers' values.
DATA = _resource_dir("pqlab._data")
#: Environment variable naming the papers' values file in effect (:func:`paper_values_file`).
ENV_PAPER_VALUES = "PQLAB_PAPER_VALUES"
#: Parameterized notebooks, one per paper section (``lab/`` holds the teaching lab).
NOTEBOOKS = _resource_dir("pqlab._notebooks")
#: The teaching lab's notebooks and instructor notes.
LAB_NOTEBOOKS = NOTEBOOKS / "lab"
#: The environment locks (``run.txt``: what the reproduction runs; ``test.txt``: with the tests).
REQUIREMENTS = _resource_dir("pqlab._requirements")


def docs_dir() -> Path | None:
    """The manual's Markdown pages (the repository's ``docs/``, shipped as ``pqlab._docs``).

    None when they are not installed (an editable install made before they were package data
    reads them from the checkout's ``docs/``).
    """
    try:
        return _resource_dir("pqlab._docs")
    except (ModuleNotFoundError, FileNotFoundError, StopIteration, TypeError):
        checkout = ROOT / "docs"
        return checkout if is_source_checkout() and checkout.is_dir() else None


def file_state(path) -> tuple[str, int, int]:
    """A file's resolved path, size and modification time (ns): a key that changes when the file
    is replaced or edited, for what is read once per version of a file."""
    resolved = Path(path).resolve()
    stat = resolved.stat()
    return str(resolved), stat.st_size, stat.st_mtime_ns


def paper_values_file() -> Path:
    """The papers' values in effect: the file ``PQLAB_PAPER_VALUES`` names, else
    ``DATA/paper_values.csv``.

    ``pqlab reproduce`` names, for its kernels, the one table it read (its ``--paper-values``),
    so the notes the notebooks write and the report's paper column quote the same values.

    Raises
    ------
    ValueError
        ``PQLAB_PAPER_VALUES`` names no file.
    """
    named = os.environ.get(ENV_PAPER_VALUES)
    if not named:
        return DATA / "paper_values.csv"
    if not Path(named).is_file():
        raise ValueError(
            f"{ENV_PAPER_VALUES}={named}: no such file (name a papers' values CSV, or unset it "
            "for the shipped data/paper_values.csv)"
        )
    return Path(named)


def is_source_checkout() -> bool:
    """True if pqlab runs from its source tree (a clone, installed editable or not).

    The test: the package's parent folder holds ``pyproject.toml`` and the ``notebooks/``
    folder the resources come from. An installed wheel has neither beside it.
    """
    return (ROOT / "pyproject.toml").is_file() and NOTEBOOKS == (ROOT / "notebooks").resolve()


def default_output_dirs(cwd=None) -> tuple[Path, Path]:
    """Default ``(figures folder, build folder)`` of ``pqlab reproduce``.

    In a source checkout: the repository's ``figures/`` and ``build/``. Installed:
    ``<cwd>/pqlab-output/figures`` for the figures, report and site and
    ``<cwd>/pqlab-output/build`` for the executed notebooks, results and cache.
    """
    root = (
        ROOT
        if is_source_checkout()
        else (Path.cwd() if cwd is None else Path(cwd)).resolve() / INSTALLED_OUTPUT_NAME
    )
    return root / "figures", root / "build"


#: The default figures/report folder and build folder (see :func:`default_output_dirs`).
FIGURES, BUILD = default_output_dirs()


def scratch_dir(label: str | None = None, cwd=None) -> Path:
    """A new scratch folder ``<cwd>/pqlab-scratch/<label>-<timestamp>`` (created)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = (Path.cwd() if cwd is None else Path(cwd)).resolve() / SCRATCH_NAME
    name = f"{label}-{stamp}" if label else stamp
    folder = base / name
    k = 1
    while folder.exists():
        k += 1
        folder = base / f"{name}-{k}"
    folder.mkdir(parents=True)
    return folder


def notebook_outputs(
    figures_dir: str = "", results_dir: str = "", label: str | None = None, announce: bool = True
) -> tuple[str, str]:
    """Resolve a notebook's output folders: the reproduction's, or a scratch folder.

    ``pqlab reproduce`` passes both folders; a notebook run by hand (plain Jupyter, or
    papermill without those parameters) gets a fresh scratch folder instead, named in its
    output, so it never overwrites the reproduction's figures or results.

    Parameters
    ----------
    figures_dir, results_dir : str
        The notebook's parameters; empty means "not given".
    label : str, optional
        Name of the scratch subfolder (e.g. the notebook's name); default a timestamp.
    announce : bool
        Print where the outputs go when a scratch folder is used.

    Returns
    -------
    (str, str)
        Absolute figures folder and results folder, both created.
    """
    scratch = None
    if not figures_dir or not results_dir:
        scratch = scratch_dir(label)
    figures = Path(figures_dir) if figures_dir else scratch / "figures"
    results = Path(results_dir) if results_dir else scratch / "results"
    figures.mkdir(parents=True, exist_ok=True)
    results.mkdir(parents=True, exist_ok=True)
    if scratch is not None and announce:
        print(
            f"pqlab: run by hand, outputs go to the scratch folder {scratch} "
            "(only `pqlab reproduce` writes the reproduction)"
        )
    return str(figures.resolve()), str(results.resolve())


def writable_dir_error(folder) -> str | None:
    """Why ``folder`` cannot be used as an output folder, or None if it can.

    The folder need not exist; its nearest existing ancestor must then be a writable folder.
    """
    path = Path(folder)
    probe = path
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        return f"{probe} is not a folder"
    if not os.access(probe, os.W_OK | os.X_OK):
        return f"{probe} is not writable"
    return None
