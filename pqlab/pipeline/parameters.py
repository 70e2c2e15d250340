"""A notebook's parameters: read from its ``parameters`` cell, set from the command line, checked.

A paper notebook's cell tagged ``parameters`` (papermill's convention) holds one typed, commented
literal per line::

    n_seeds: int = 3  # seeds per point (mean and 95% CI over seeds) [1..1000]

:func:`read_parameters` reads that cell with :mod:`ast` (the names, annotations and literal
defaults) and :mod:`tokenize` (each line's comment, ending in the allowed range ``[MIN..MAX]``,
:data:`RANGE`): ``pqlab params`` lists what it finds.
``pqlab reproduce -p NOTEBOOK:NAME=VALUE`` sets one of them for one notebook of the run:
:func:`parse_override` splits the option, :func:`resolve` checks every override against the
notebook's cell (an unknown notebook, an unknown name, a value not of the parameter's type or
outside its range, one parameter given twice, a parameter :data:`RESERVED` to ``pqlab reproduce``,
or with ``--quick`` one the notebook's quick profile sets, :func:`quick_sets`, raise one
:class:`ValueError` line naming it and what is allowed, a value echoed in at most
:data:`pqlab.pipeline.names.ECHO_CHARS` characters) and keeps those that differ from the
default. They are part of the notebook's section key (a changed value never reuses a stale
section) and of the report's provenance (:func:`provenance_text`).

``NOTEBOOK`` names one notebook of the run: its name (``01_background_traffic``), file name
(``01_background_traffic.ipynb``), its number (``01``), its path, or the id of an artefact it runs
(``globecom01_fig3_1``, as ``pqlab reproduce --list`` shows them: the parameter is still the
notebook's, for every artefact it runs), read by :func:`pqlab.pipeline.names.match_notebook`, as
``--notebooks`` and ``pqlab params`` read them.
"""

from __future__ import annotations

import ast
import io
import json
import math
import numbers
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

# find_notebooks, match_notebook and shipped_notebooks: also this module's (their former home)
from .names import find_notebooks, match_notebook, shipped_notebooks, shown  # noqa: F401

__all__ = ["Parameter", "RESERVED", "TYPES", "RANGE", "read_parameters", "parse_override",
           "collect", "shipped_notebooks", "find_notebooks", "match_notebook", "quick_sets",
           "convert", "check_range", "shown",
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
#: A parameter's allowed range at the end of its comment, both ends included, either one left out
#: for no limit: ``n_seeds: int = 3  # seeds per point [1..1000]``.
RANGE = re.compile(r"\s*\[\s*([-+0-9_.eE]*)\s*\.\.\s*([-+0-9_.eE]*)\s*\]\s*$")
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
    minimum, maximum : int, float or None
        The allowed range, both ends included, from the ``[MIN..MAX]`` at the end of its comment
        (:data:`RANGE`); None: no limit on that side.
    """

    name: str
    type: str
    default: object
    comment: str = ""
    set_by: str | None = None
    minimum: float | None = None
    maximum: float | None = None

    def to_dict(self) -> dict:
        """Plain data (JSON) for ``pqlab params --json``."""
        return {"name": self.name, "type": self.type, "default": self.default, "comment": self.comment,
                "set_by": self.set_by, "minimum": self.minimum, "maximum": self.maximum}

    def range_text(self) -> str:
        """The allowed range as the comment declares it (``"1..1000"``, ``"0.0.."``), "" if none."""
        if self.minimum is None and self.maximum is None:
            return ""
        return "..".join("" if end is None else f"{end:,}" for end in (self.minimum, self.maximum))


def _code_cells(notebook: Path) -> list[tuple[bool, str]]:
    """``(is the parameters cell, source)`` of each code cell of ``notebook``."""
    try:
        nb = json.loads(Path(notebook).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"notebook {notebook} cannot be read: {exc}") from None
    cells = nb.get("cells", []) if isinstance(nb, dict) else []
    found = []
    for cell in cells:
        if isinstance(cell, dict) and cell.get("cell_type", "code") == "code":
            source = cell.get("source", "")
            tags = (cell.get("metadata") or {}).get("tags", [])
            text = "".join(source) if isinstance(source, list) else str(source)
            found.append((PARAMETERS_TAG in tags, text))
    return found


def _cell_source(notebook: Path) -> str | None:
    return next((source for tagged, source in _code_cells(notebook) if tagged), None)


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
        comment = comments.get(statement.end_lineno or statement.lineno, "")
        ends: tuple = (None, None)
        declared = RANGE.search(comment)
        if declared:
            comment = comment[:declared.start()].rstrip()
            ends = tuple(_range_end(text, target, notebook) for text in declared.groups())
        found[target] = Parameter(target, _type_of(annotation, default, literal), default, comment,
                                  RESERVED.get(target), *ends)
    return tuple(found.values())


def _range_end(text: str, name: str, notebook) -> float | None:
    if not text:
        return None
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        value = None
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise ValueError(f"the range of {name} in {Path(notebook).name}'s parameters cell is not "
                         f"[MIN..MAX] of numbers: {text!r}")
    return value


def quick_sets(notebook) -> frozenset[str]:
    """The parameters ``notebook``'s quick profile may change: those assigned in an ``if quick:``
    block, or by a call given ``quick`` (``... n_seeds, ... = kit.setup(quick=quick, ...)``).

    Read from the notebook's code with :mod:`ast` (a cell that is not Python, e.g. a magic, is
    skipped).
    """
    names = {p.name for p in read_parameters(notebook)}
    changed: set[str] = set()
    for tagged, source in _code_cells(Path(notebook)):
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and getattr(node.test, "id", None) == "quick":
                changed |= {n for statement in node.body for n in _assigned(statement)}
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                    and any(k.arg == "quick" for k in node.value.keywords):
                changed |= _assigned(node)
    return frozenset(changed & names - set(RESERVED))


def _assigned(statement) -> set[str]:
    """The names a statement assigns (its tuple targets' names included)."""
    targets = statement.targets if isinstance(statement, ast.Assign) else \
        [statement.target] if isinstance(statement, (ast.AugAssign, ast.AnnAssign)) else []
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


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
                         f"lists the names), got {shown(text)}")
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
            raise ValueError(f"-p {shown(notebook)[1:-1]}:{name} is given twice, "
                             f"{shown(previous)} and {shown(value)}")
    return out


def _type_error(where: str, parameter: Parameter, value) -> ValueError:
    kind = {"int": "an integer", "float": "a finite number", "bool": "True or False",
            "str": "text"}.get(parameter.type, "a value")
    return ValueError(f"{where} must be {kind} (type {parameter.type}, default {parameter.default!r}), "
                      f"got {shown(value)}")


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


def check_range(parameter: Parameter, value, where: str | None = None):
    """``value`` if it lies in ``parameter``'s declared range (:data:`RANGE`), else a ValueError
    naming ``where`` (default the parameter's name) and the range."""
    low, high = parameter.minimum, parameter.maximum
    number = float(value) if isinstance(value, numbers.Real) and not isinstance(value, bool) else None
    if number is not None and ((low is not None and number < low)
                               or (high is not None and number > high)):
        allowed = f"from {low:,} to {high:,}" if low is not None and high is not None else \
            f"at least {low:,}" if low is not None else f"at most {high:,}"
        raise ValueError(f"{where or parameter.name} must be {allowed} (its range in the "
                         f"notebook's parameters cell), got {shown(value)}")
    return value


def resolve(overrides, sources, quick: bool = False) -> dict[str, dict[str, object]]:
    """Check ``overrides`` against the notebooks' parameters cells; keep those that differ from the default.

    Parameters
    ----------
    overrides : mapping or None
        Notebook (name, file name, number or path: :func:`match_notebook`) -> {parameter name: value};
        a value is text (from ``-p``) or a value of the parameter's type.
    sources : sequence of pathlib.Path
        The run's notebooks.
    quick : bool
        The run is ``--quick``: a parameter its quick profile may change (:func:`quick_sets`) is
        refused, so a value given is never reported as used when the profile overrode it.

    Returns
    -------
    dict
        Notebook name (file stem) -> {parameter name: value of its type}, only the values other than
        the notebook's default, notebooks and names sorted; notebooks with none are left out.

    Raises
    ------
    ValueError
        One line naming the notebook and parameter, and what is allowed: an unknown notebook or
        name, a parameter set by another option, a value not of its type or out of its range, one
        parameter given twice (under two spellings of its notebook), or one ``--quick`` sets.
    """
    if not overrides:
        return {}
    if not hasattr(overrides, "items"):
        raise ValueError("parameters must map notebook names to {name: value}, got "
                         f"{shown(overrides)}")
    given: dict[tuple[str, str], tuple[str, object, Parameter]] = {}
    for key, values in overrides.items():
        source = match_notebook(key, sources)
        if not hasattr(values, "items"):
            raise ValueError(f"parameters[{shown(key)}] must map parameter names to values, got "
                             f"{shown(values)}")
        known = {p.name: p for p in read_parameters(source)}
        settable = [p for p in known.values() if p.set_by is None]
        for name, value in values.items():
            where = f"{source.stem}:{shown(name)[1:-1]}"
            parameter = known.get(name)
            if parameter is None:
                allowed = ", ".join(f"{p.name} ({p.type})" for p in settable) or "none"
                raise ValueError(f"{where}: {source.stem} has no parameter {shown(name)}; "
                                 f"its parameters: {allowed}")
            if parameter.set_by is not None:
                raise ValueError(f"{where}: {name} is set for every notebook by pqlab reproduce {parameter.set_by}, "
                                 "not by -p")
            typed = check_range(parameter, convert(parameter, value, where), where)
            if quick and name in quick_sets(source):
                raise ValueError(f"{where}: --quick sets {name} itself (the notebook's quick "
                                 f"profile), so {shown(typed)} would not be used; drop --quick, "
                                 "or this -p")
            first = given.setdefault((source.stem, name), (str(key), typed, parameter))
            spelling, previous = first[:2]
            if previous != typed or type(previous) is not type(typed):
                raise ValueError(f"{where} is given twice, as "
                                 f"{shown(spelling)[1:-1]}:{name}={shown(previous)} and "
                                 f"{shown(str(key))[1:-1]}:{name}={shown(typed)}")
    out: dict[str, dict[str, object]] = {}
    for (stem, name), (_, typed, parameter) in given.items():
        if typed != parameter.default or type(typed) is not type(parameter.default):
            out.setdefault(stem, {})[name] = typed
    return {stem: dict(sorted(values.items())) for stem, values in sorted(out.items())}


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

