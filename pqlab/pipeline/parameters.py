"""A notebook's parameters: read from its ``parameters`` cell, set from the command line, checked.

A paper notebook's cell tagged ``parameters`` (papermill's convention) holds one typed, commented
literal per line::

    n_seeds: int = 3  # seeds per point (mean and 95% CI over seeds)

:func:`read_parameters` reads that cell with :mod:`ast` (the names, annotations and literal
defaults) and :mod:`tokenize` (each line's comment): ``pqlab params`` lists what it finds.
``pqlab reproduce -p NOTEBOOK:NAME=VALUE`` sets one of them for one notebook of the run:
:func:`parse_override` splits the option, :func:`resolve` checks every override against the
notebook's cell (an unknown notebook, an unknown name, a value not of the parameter's type, or a
parameter :data:`RESERVED` to ``pqlab reproduce`` raise one :class:`ValueError` line naming it and
what is allowed) and keeps those that differ from the default. They are part of the notebook's
section key (a changed value never reuses a stale section) and of the report's provenance
(:func:`provenance_text`).

``NOTEBOOK`` names one notebook of the run: its name (``01_background_traffic``), file name
(``01_background_traffic.ipynb``), its number (``01``), its path, or the id of an artefact it runs
(``globecom01_fig3_1``, as ``pqlab reproduce --list`` shows them: the parameter is still the notebook's,
for every artefact it runs).
"""

from __future__ import annotations

import ast
import io
import json
import math
import numbers
import os
import tokenize
from dataclasses import dataclass
from pathlib import Path

from ..base import locations

__all__ = ["Parameter", "RESERVED", "TYPES", "read_parameters", "parse_override", "collect",
           "find_notebooks", "match_notebook", "convert",
           "resolve", "provenance_text", "overrides_text"]

#: Parameters every notebook gets from ``pqlab reproduce`` itself, and the option that sets each.
RESERVED = {"seed": "--seed", "quick": "--quick", "figures_dir": "--out", "results_dir": "--out/--build"}
#: The types a parameter may be given on the command line.
TYPES = {"int": int, "float": float, "bool": bool, "str": str}
#: Type of a parameter with neither a known annotation nor a literal default: the value is read as a
#: Python literal, else taken as text.
ANY = "any"
#: The tag of the parameters cell (papermill's).
PARAMETERS_TAG = "parameters"
#: How the report's line of non-default notebook parameters starts.
PROVENANCE_PREFIX = "Notebook parameters other than the defaults (pqlab reproduce -p):"


@dataclass(frozen=True)
class Parameter:
    """One parameter of a notebook's ``parameters`` cell.

    Attributes
    ----------
    name : str
    type : str
        ``"int"``, ``"float"``, ``"bool"``, ``"str"`` (its annotation, else its default's type), or
        :data:`ANY`.
    default : object
        The literal default (None if it is not a literal).
    comment : str
        The comment on its line, without ``#``.
    set_by : str or None
        The ``pqlab reproduce`` option that sets it (:data:`RESERVED`), None if ``-p`` may.
    """

    name: str
    type: str
    default: object
    comment: str = ""
    set_by: str | None = None

    def to_dict(self) -> dict:
        """Plain data (JSON) for ``pqlab params --json``."""
        return {"name": self.name, "type": self.type, "default": self.default, "comment": self.comment,
                "set_by": self.set_by}


def _cell_source(notebook: Path) -> str | None:
    try:
        nb = json.loads(Path(notebook).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"notebook {notebook} cannot be read: {exc}") from None
    cells = nb.get("cells", []) if isinstance(nb, dict) else []
    for cell in cells:
        if isinstance(cell, dict) and PARAMETERS_TAG in (cell.get("metadata") or {}).get("tags", []):
            source = cell.get("source", "")
            return "".join(source) if isinstance(source, list) else str(source)
    return None


def _comments(source: str) -> dict[int, str]:
    """Line number -> the comment on that line."""
    found = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                found[token.start[0]] = token.string.lstrip("#").strip()
    except (tokenize.TokenError, SyntaxError):
        pass
    return found


def _literal(node: ast.expr | None) -> tuple[bool, object]:
    if node is None:
        return False, None
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _type_of(annotation: ast.expr | None, default: object, literal: bool) -> str:
    if isinstance(annotation, ast.Name) and annotation.id in TYPES:
        return annotation.id
    if isinstance(annotation, ast.Constant) and annotation.value in TYPES:  # a string annotation: "int"
        return str(annotation.value)
    if literal:
        kind = type(default).__name__
        return kind if kind in TYPES else ANY
    return ANY


def read_parameters(notebook) -> tuple[Parameter, ...]:
    """The parameters of ``notebook``'s ``parameters`` cell, in the cell's order (none without one).

    Every assignment of one name at the cell's top level is a parameter: ``name: type = literal``
    (or ``name = literal``, typed by its value), its comment the one on its line.

    Raises
    ------
    ValueError
        The notebook cannot be read, or its parameters cell is not valid Python (naming the line).
    """
    source = _cell_source(Path(notebook))
    if source is None:
        return ()
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise ValueError(f"the parameters cell of {Path(notebook).name} is not valid Python (line {exc.lineno}: "
                         f"{exc.msg})") from None
    comments = _comments(source)
    found: dict[str, Parameter] = {}
    for statement in tree.body:
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            target, annotation, value = statement.target.id, statement.annotation, statement.value
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                and isinstance(statement.targets[0], ast.Name):
            target, annotation, value = statement.targets[0].id, None, statement.value
        else:
            continue
        literal, default = _literal(value)
        found[target] = Parameter(target, _type_of(annotation, default, literal), default,
                                  comments.get(statement.end_lineno or statement.lineno, ""), RESERVED.get(target))
    return tuple(found.values())


def parse_override(text: str) -> tuple[str, str, str]:
    """``"NOTEBOOK:NAME=VALUE"`` as ``(notebook, name, value)`` (the value is text, checked by :func:`resolve`).

    Raises
    ------
    ValueError
        One line naming the option's form.
    """
    left, equals, value = str(text).partition("=")
    notebook, colon, name = left.rpartition(":")
    if not (equals and colon and notebook.strip() and name.strip().isidentifier()):
        raise ValueError(f"-p must be NOTEBOOK:NAME=VALUE (e.g. -p 01_background_traffic:n_seeds=5; pqlab params "
                         f"lists the names), got {text!r}")
    return notebook.strip(), name.strip(), value


def collect(texts) -> dict[str, dict[str, str]]:
    """Every ``-p NOTEBOOK:NAME=VALUE`` of the command line as ``{notebook: {name: value text}}``.

    Raises
    ------
    ValueError
        A malformed option (:func:`parse_override`), or one notebook's parameter given two values.
    """
    out: dict[str, dict[str, str]] = {}
    for text in texts or ():
        notebook, name, value = parse_override(text)
        previous = out.setdefault(notebook, {}).setdefault(name, value)
        if previous != value:
            raise ValueError(f"-p {notebook}:{name} is given twice, {previous!r} and {value!r}")
    return out


def _number(stem: str) -> str:
    head = stem.split("_", 1)[0]
    return head if head.isdigit() else ""


def find_notebooks(notebooks=None) -> list[Path]:
    """Resolve the notebooks to run.

    Parameters
    ----------
    notebooks : iterable of str or os.PathLike, optional
        Notebook files, folders (their notebooks), or names of the paper notebooks
        (:data:`pqlab.base.locations.NOTEBOOKS`) with or without ``.ipynb``. Default: every
        paper notebook.

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


def _resolve(item) -> list[Path]:
    path = Path(item)
    if path.is_dir():
        return sorted(p.resolve() for p in path.glob("*.ipynb") if not p.name.startswith("_"))
    candidates = [path, locations.NOTEBOOKS / path, locations.NOTEBOOKS / f"{path}.ipynb"]
    for candidate in candidates:
        if candidate.is_file() and candidate.suffix == ".ipynb":
            return [candidate.resolve()]
    raise ValueError(f"notebook not found: {item!s} (looked for {', '.join(map(str, candidates))})")


def match_notebook(key: str, sources) -> Path:
    """The notebook of ``sources`` that ``key`` names: its name, file name, number, path, or the id of an
    artefact it runs (``globecom01_fig3_1`` names ``01_background_traffic``).

    Raises
    ------
    ValueError
        No notebook (or more than one) of ``sources`` is named ``key``; the message lists their names.
    """
    sources = [Path(s) for s in sources]
    text = str(key)
    found = [s for s in sources if text in (s.stem, s.name) or (text.isdigit() and text == _number(s.stem))]
    if not found and text.endswith(".ipynb"):
        path = Path(text).expanduser()
        found = [s for s in sources if path.exists() and path.resolve() == s.resolve()]
    if not found and "_" in text and not text.endswith(".ipynb"):  # an artefact id names its notebook
        from ..papers import registry

        owner = next((a.notebook for a in registry.declared() if a.id == text), None)
        found = [s for s in sources if owner is not None and s.stem == owner]
    if len(found) != 1:
        why = "names more than one" if found else "is not a notebook"
        raise ValueError(f"{text!r} {why} of this run; its notebooks: {', '.join(s.stem for s in sources)}")
    return found[0]


def _type_error(where: str, parameter: Parameter, value) -> ValueError:
    kind = {"int": "an integer", "float": "a finite number", "bool": "True or False",
            "str": "text"}.get(parameter.type, "a value")
    return ValueError(f"{where} must be {kind} (type {parameter.type}, default {parameter.default!r}), "
                      f"got {value!r}")


def convert(parameter: Parameter, value, where: str | None = None):
    """``value`` (text from the command line, or a Python value) as ``parameter``'s type.

    Text is read as a Python literal for ``int``, ``float`` and :data:`ANY` (``1_000``, ``2.5e6``),
    as ``True``/``true``/``False``/``false`` for ``bool``, and kept as it is for ``str``.

    Raises
    ------
    ValueError
        One line naming ``where`` (default the parameter's name), its type and default, and the value.
    """
    where = where or parameter.name
    kind, given = parameter.type, value
    if isinstance(value, str) and kind != "str":
        if kind == "bool":
            words = {"true": True, "false": False}
            if value.strip().lower() not in words:
                raise _type_error(where, parameter, value)
            return words[value.strip().lower()]
        try:
            literal = ast.literal_eval(value.strip())
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            if kind == ANY:
                return value
            raise _type_error(where, parameter, given) from None
        value = literal
    if kind == ANY:
        return value
    if kind == "bool":
        ok = isinstance(value, bool)
    elif kind == "int":
        ok = isinstance(value, numbers.Integral) and not isinstance(value, bool)
        value = int(value) if ok else value
    elif kind == "float":
        ok = isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)
        value = float(value) if ok else value
    else:
        ok = isinstance(value, str)
    if not ok:
        raise _type_error(where, parameter, given)
    return value


def resolve(overrides, sources) -> dict[str, dict[str, object]]:
    """Check ``overrides`` against the notebooks' parameters cells; keep those that differ from the default.

    Parameters
    ----------
    overrides : mapping or None
        Notebook (name, file name, number or path: :func:`match_notebook`) -> {parameter name: value};
        a value is text (from ``-p``) or a value of the parameter's type.
    sources : sequence of pathlib.Path
        The run's notebooks.

    Returns
    -------
    dict
        Notebook name (file stem) -> {parameter name: value of its type}, only the values other than
        the notebook's default, notebooks and names sorted; notebooks with none are left out.

    Raises
    ------
    ValueError
        One line naming the notebook and parameter, and what is allowed.
    """
    if not overrides:
        return {}
    if not hasattr(overrides, "items"):
        raise ValueError(f"parameters must map notebook names to {{name: value}}, got {overrides!r}")
    out: dict[str, dict[str, object]] = {}
    for key, values in overrides.items():
        source = match_notebook(key, sources)
        if not hasattr(values, "items"):
            raise ValueError(f"parameters[{key!r}] must map parameter names to values, got {values!r}")
        known = {p.name: p for p in read_parameters(source)}
        settable = [p for p in known.values() if p.set_by is None]
        for name, value in values.items():
            where = f"{source.stem}:{name}"
            parameter = known.get(name)
            if parameter is None:
                allowed = ", ".join(f"{p.name} ({p.type})" for p in settable) or "none"
                raise ValueError(f"{where}: {source.stem} has no parameter {name!r}; its parameters: {allowed}")
            if parameter.set_by is not None:
                raise ValueError(f"{where}: {name} is set for every notebook by pqlab reproduce {parameter.set_by}, "
                                 "not by -p")
            typed = convert(parameter, value, where)
            if typed != parameter.default or type(typed) is not type(parameter.default):
                previous = out.setdefault(source.stem, {}).setdefault(name, typed)
                if previous != typed:
                    raise ValueError(f"{where} is given twice, {previous!r} and {typed!r}")
    return {stem: dict(sorted(values.items())) for stem, values in sorted(out.items()) if values}


def overrides_text(values: dict) -> str:
    """``{name: value}`` as ``name=value, name=value``."""
    return ", ".join(f"{name}={value!r}" if isinstance(value, str) else f"{name}={value}"
                     for name, value in sorted(values.items()))


def provenance_text(parameters: dict) -> str:
    """The report's line naming the notebooks run with parameters other than their defaults ("" if none).

    Parameters
    ----------
    parameters : dict
        Notebook name -> {parameter name: value}, as :func:`resolve` returns.
    """
    parts = [f"{notebook} ran with {overrides_text(values)}" for notebook, values in sorted(parameters.items())
             if values]
    if not parts:
        return ""
    return f"{PROVENANCE_PREFIX} {'; '.join(parts)}."

