"""Names the command line reads: which notebooks a name names, and a value echoed short.

:func:`match_notebook` is the one reader of notebook names (``pqlab reproduce --notebooks``,
``-p NOTEBOOK:NAME=VALUE`` and ``pqlab params``): a notebook's name (``01_background_traffic``),
file name, number (``01``), path, or the id of an artefact it runs (``globecom01_fig3_1``).
:func:`find_notebooks` turns the names, files and folders given into the notebooks to run.
:func:`shown` (:func:`pqlab.base.echo.echo_typed`) echoes a value in an error line in at most
:data:`ECHO_CHARS` characters.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..base import locations
from ..base.echo import ECHO_CHARS  # noqa: F401  (re-exported)
from ..base.echo import echo_typed as shown

__all__ = ["ECHO_CHARS", "shown", "shipped_notebooks", "find_notebooks", "match_notebook"]


def _number(stem: str) -> str:
    head = stem.split("_", 1)[0]
    return head if head.isdigit() else ""


def shipped_notebooks() -> list[Path]:
    """The paper notebooks (:data:`pqlab.base.locations.NOTEBOOKS`), sorted, absolute."""
    return sorted(
        p.resolve() for p in Path(locations.NOTEBOOKS).glob("*.ipynb") if not p.name.startswith("_")
    )


def find_notebooks(notebooks=None) -> list[Path]:
    """Resolve the notebooks to run (``pqlab reproduce --notebooks``, ``pqlab params``).

    Parameters
    ----------
    notebooks : iterable of str or os.PathLike, optional
        Notebook files, folders (their notebooks), or paper notebooks
        (:data:`pqlab.base.locations.NOTEBOOKS`) named as :func:`match_notebook` reads them: name,
        file name, number or the id of an artefact it runs. Default: every paper notebook.

    Returns
    -------
    list of pathlib.Path
        Absolute paths, each once, in the order given (a folder's sorted).

    Raises
    ------
    ValueError
        If a name resolves to no file, or two notebooks share a name.
    """
    if isinstance(notebooks, (str, os.PathLike)):
        notebooks = [notebooks]
    items = [locations.NOTEBOOKS] if notebooks is None else list(notebooks)
    found: list[Path] = []
    for item in items:
        for path in _resolve(item):
            if path not in found:
                found.append(path)
    names = [p.stem for p in found]
    clash = sorted({n for n in names if names.count(n) > 1})
    if clash:
        raise ValueError(f"notebooks share a name, their outputs would collide: {clash}")
    return found


def _kind(path: Path) -> str | None:
    """``"dir"``, ``"file"``, or None: no such file, or a name no file may have (too long)."""
    try:
        return "dir" if path.is_dir() else "file" if path.is_file() else None
    except OSError:
        return None


def _resolve(item) -> list[Path]:
    path = Path(item)
    if _kind(path) == "dir":
        return sorted(p.resolve() for p in path.glob("*.ipynb") if not p.name.startswith("_"))
    if _kind(path) == "file" and path.suffix == ".ipynb":
        return [path.resolve()]
    try:
        return [match_notebook(item, shipped_notebooks())]
    except ValueError:
        names = ", ".join(p.stem for p in shipped_notebooks())
        raise ValueError(
            f"notebook not found: {shown(str(item), quotes=False)} is neither an "
            f".ipynb file, a folder, nor a notebook of {locations.NOTEBOOKS} (names: "
            f"{names}; or their numbers, e.g. 01)"
        ) from None


def match_notebook(key, sources) -> Path:
    """The notebook of ``sources`` that ``key`` names: its name, file name, number, path, or the id
    of an artefact it runs (``globecom01_fig3_1`` names ``01_background_traffic``).

    The one reader of notebook names: :func:`find_notebooks` (``--notebooks``, ``pqlab params``)
    matches against the paper notebooks, :func:`pqlab.pipeline.parameters.resolve` (``-p``)
    against the run's.

    Raises
    ------
    ValueError
        No notebook (or more than one) of ``sources`` is named ``key``; the message lists their
        names.
    """
    sources = [Path(s) for s in sources]
    text = str(key)
    found = [
        s
        for s in sources
        if text in (s.stem, s.name) or (text.isdigit() and text == _number(s.stem))
    ]
    if not found and text.endswith(".ipynb"):
        path = Path(text).expanduser()
        found = [s for s in sources if _kind(path) and path.resolve() == s.resolve()]
    if not found and "_" in text and not text.endswith(".ipynb"):  # an artefact id: its notebook
        from ..papers import registry

        owner = registry.declared_artefact(text)
        found = [s for s in sources if owner is not None and s.stem == owner.notebook]
    if len(found) != 1:
        why = "names more than one" if found else "is not a notebook"
        names = ", ".join(s.stem for s in sources)
        raise ValueError(f"{shown(text)} {why} of this run; its notebooks: {names}")
    return found[0]
