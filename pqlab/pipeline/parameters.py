"""A notebook's parameters: read with papermill, set from the command line, checked.

A paper notebook's cell tagged ``parameters`` (papermill's convention) holds one typed, commented
literal per line, its allowed range (both ends included, either left out for no limit) at the
end of its comment::

    n_seeds: int = 3  # seeds per point (mean and 95% CI over seeds) [1..1000]

:func:`read_parameters` reads that cell with :func:`papermill.inspect_notebook` (each line's
name, annotation, default and comment, as ``papermill --help-notebook`` shows them) and adds
what ``-p`` needs: the default as a value (:func:`ast.literal_eval`) and the range
(:data:`RANGE`), which the notebook declares and nothing else repeats. ``pqlab params`` lists
them. ``pqlab reproduce -p NOTEBOOK:NAME=VALUE`` sets one for one notebook of the run:
:func:`parse_override` splits the option, :func:`resolve` checks every value against the
notebook's cell before anything runs (an unknown notebook or name, a value not of the
parameter's type or outside its range, one parameter given twice under any spelling of its
notebook, a parameter :data:`RESERVED` to ``pqlab reproduce``, or with ``--quick`` one the
notebook's quick profile sets, :func:`quick_sets`: one :class:`ValueError` line naming it and
what is allowed, a value echoed in at most :data:`pqlab.pipeline.names.ECHO_CHARS` characters)
and keeps those that differ from the default. They are part of the notebook's section key and
of the report's provenance (:func:`provenance_text`).

``NOTEBOOK`` is read by :func:`pqlab.pipeline.names.match_notebook`, as ``--notebooks`` and
``pqlab params`` read it: a name, file name, number, path, or the id of an artefact it runs.
"""

from __future__ import annotations

import ast
import dataclasses
import math
import numbers
import re
from pathlib import Path

# find_notebooks, match_notebook, shipped_notebooks, shown: also read from here (their former home)
from .names import find_notebooks, match_notebook, shipped_notebooks, shown  # noqa: F401

__all__ = [
    "Parameter",
    "RESERVED",
    "TYPES",
    "ANY",
    "RANGE",
    "read_parameters",
    "quick_sets",
    "parse_override",
    "collect",
    "convert",
    "check_range",
    "resolve",
    "overrides_text",
    "provenance_text",
    "find_notebooks",
    "match_notebook",
    "shipped_notebooks",
    "shown",
]

#: Parameters every notebook gets from ``pqlab reproduce`` itself, and the option that sets each.
RESERVED = {
    "seed": "--seed",
    "quick": "--quick",
    "figures_dir": "--out",
    "results_dir": "--out/--build",
}
#: The types a parameter may be given on the command line.
TYPES = {"int": int, "float": float, "bool": bool, "str": str}
#: Type of a parameter with neither a known annotation nor a literal default: the value is read
#: as a Python literal, else taken as text.
ANY = "any"
#: A parameter's allowed range at the end of its comment, both ends included, either one left
#: out for no limit: ``n_seeds: int = 3  # seeds per point [1..1000]``.
RANGE = re.compile(r"\s*\[\s*([-+0-9_.eE]*)\s*\.\.\s*([-+0-9_.eE]*)\s*\]\s*$")
#: How the report's line of non-default notebook parameters starts.
PROVENANCE_PREFIX = "Notebook parameters other than the defaults (pqlab reproduce -p):"


@dataclasses.dataclass(frozen=True)
class Parameter:
    """One parameter of a notebook's ``parameters`` cell.

    Attributes
    ----------
    name : str
    type : str
        ``"int"``, ``"float"``, ``"bool"``, ``"str"`` (its annotation, else its default's type),
        or :data:`ANY`.
    default : object
        The literal default (None if it is not a literal).
    comment : str
        The comment on its line, without ``#`` and without its range.
    set_by : str or None
        The ``pqlab reproduce`` option that sets it (:data:`RESERVED`), None if ``-p`` may.
    minimum, maximum : int, float or None
        The allowed range, both ends included (:data:`RANGE`); None: no limit on that side.
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
        return dataclasses.asdict(self)

    def range_text(self) -> str:
        """The allowed range as the comment declares it (``"1..1,000"``, ``"0.0.."``), "" if
        none."""
        if self.minimum is None and self.maximum is None:
            return ""
        return "..".join("" if end is None else f"{end:,}" for end in (self.minimum, self.maximum))


def _literal(text: str) -> tuple[bool, object]:
    """``(True, value)`` if ``text`` is a Python literal, else ``(False, None)``."""
    try:
        return True, ast.literal_eval(text.strip())
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _parameter(found: dict, notebook: Path) -> Parameter:
    """A :class:`Parameter` from what :func:`papermill.inspect_notebook` found of one line."""
    name, kind = found["name"], found["inferred_type_name"]
    literal, default = _literal(found["default"] or "")
    if kind not in TYPES:  # "None" (no annotation) or another: the default's type, if one
        kind = type(default).__name__ if type(default).__name__ in TYPES and literal else ANY
    comment = found["help"].strip()
    ends: list[float | None] = [None, None]
    declared = RANGE.search(comment)
    if declared:
        comment = comment[: declared.start()].rstrip()
        for side, text in enumerate(declared.groups()):
            end = _literal(text)[1] if text else None
            if text and (isinstance(end, bool) or not isinstance(end, (int, float))):
                raise ValueError(
                    f"the range of {name} in {notebook.name}'s parameters cell is "
                    f"not [MIN..MAX] of numbers: {declared.group().strip()!r}"
                )
            ends[side] = end if isinstance(end, (int, float)) else None
    return Parameter(name, kind, default, comment, RESERVED.get(name), *ends)


def read_parameters(notebook) -> tuple[Parameter, ...]:
    """The parameters of ``notebook``'s ``parameters`` cell, in the cell's order (none without
    one), read by :func:`papermill.inspect_notebook`.

    Every line ``name: type = default  # comment`` (or ``name = default``, typed by its value)
    at the cell's top level is a parameter (papermill reads each line with a regular expression:
    a default holding ``#`` is not read as a literal).

    Raises
    ------
    ValueError
        The notebook cannot be read by papermill (not a notebook, no kernel named in its
        metadata), or a range is not ``[MIN..MAX]`` of numbers.
    """
    import nbformat
    import papermill
    from papermill.exceptions import PapermillException

    try:
        found = papermill.inspect_notebook(str(notebook))
    except (OSError, ValueError, nbformat.ValidationError, PapermillException) as exc:
        raise ValueError(f"notebook {notebook} cannot be read: {shown(str(exc))}") from None
    return tuple(_parameter(p, Path(notebook)) for p in found.values())


def quick_sets(notebook) -> frozenset[str]:
    """The parameters ``notebook``'s quick profile may change: those assigned in an ``if quick:``
    block, or by a call given ``quick`` (``... n_seeds, ... = kit.setup(quick=quick, ...)``).

    Read from the notebook's code cells with :mod:`ast` (a cell that is not Python, e.g. a
    magic, is skipped).
    """
    import nbformat

    names = {p.name for p in read_parameters(notebook)} - set(RESERVED)
    changed: set[str] = set()
    for cell in nbformat.read(str(notebook), as_version=4).cells:
        try:
            tree = ast.parse(cell.source if cell.cell_type == "code" else "")
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and getattr(node.test, "id", None) == "quick":
                changed |= {n for statement in node.body for n in _assigned(statement)}
            elif (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and any(k.arg == "quick" for k in node.value.keywords)
            ):
                changed |= _assigned(node)
    return frozenset(changed & names)


def _assigned(statement) -> set[str]:
    """The names a statement assigns (its tuple targets' names included)."""
    targets = (
        statement.targets
        if isinstance(statement, ast.Assign)
        else [statement.target]
        if isinstance(statement, (ast.AugAssign, ast.AnnAssign))
        else []
    )
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def parse_override(text: str) -> tuple[str, str, str]:
    """``"NOTEBOOK:NAME=VALUE"`` as ``(notebook, name, value)`` (the value is text, checked by
    :func:`resolve`).

    Raises
    ------
    ValueError
        One line naming the option's form.
    """
    left, equals, value = str(text).partition("=")
    notebook, colon, name = left.rpartition(":")
    if not (equals and colon and notebook.strip() and name.strip().isidentifier()):
        raise ValueError(
            "-p must be NOTEBOOK:NAME=VALUE (e.g. -p 01_background_traffic:"
            f"n_seeds=5; pqlab params lists the names), got {shown(text)}"
        )
    return notebook.strip(), name.strip(), value


def collect(texts) -> list[tuple[str, str, str]]:
    """Every ``-p NOTEBOOK:NAME=VALUE`` of the command line as ``(notebook, name, value text)``,
    in the order given (:func:`resolve` checks them, one given twice included)."""
    return [parse_override(text) for text in texts or ()]


def convert(parameter: Parameter, value, where: str | None = None):
    """``value`` (text from the command line, or a Python value) as ``parameter``'s type.

    Text is read as a Python literal for ``int``, ``float`` and :data:`ANY` (``1_000``,
    ``2.5e6``), as ``True``/``true``/``False``/``false`` for ``bool``, and kept as it is for
    ``str``.

    Raises
    ------
    ValueError
        One line naming ``where`` (default the parameter's name), its type and default, and the
        value.
    """
    kind, given = parameter.type, value
    if isinstance(value, str) and kind == "bool":
        value = {"true": True, "false": False}.get(value.strip().lower(), value)
    elif isinstance(value, str) and kind != "str":
        literal, read = _literal(value)
        value = read if literal else value
        if not literal and kind == ANY:
            return value
    if kind == ANY:
        return value
    real = isinstance(value, numbers.Real) and not isinstance(value, bool)
    ok = {
        "bool": isinstance(value, bool),
        "str": isinstance(value, str),
        "int": real and isinstance(value, numbers.Integral),
        "float": real and math.isfinite(value),
    }[kind]
    if not ok:
        wanted = {
            "int": "an integer",
            "float": "a finite number",
            "bool": "True or False",
            "str": "text",
        }[kind]
        raise ValueError(
            f"{where or parameter.name} must be {wanted} (type {kind}, default "
            f"{parameter.default!r}), got {shown(given)}"
        )
    return TYPES[kind](value)


def check_range(parameter: Parameter, value, where: str | None = None):
    """``value`` if it lies in ``parameter``'s declared range (:data:`RANGE`), else a ValueError
    naming ``where`` (default the parameter's name) and the range."""
    low, high = parameter.minimum, parameter.maximum
    number = (
        float(value) if isinstance(value, numbers.Real) and not isinstance(value, bool) else None
    )
    if number is not None and (
        (low is not None and number < low) or (high is not None and number > high)
    ):
        allowed = (
            f"from {low:,} to {high:,}"
            if low is not None and high is not None
            else f"at least {low:,}"
            if low is not None
            else f"at most {high:,}"
        )
        raise ValueError(
            f"{where or parameter.name} must be {allowed} (its range in the "
            f"notebook's parameters cell), got {shown(value)}"
        )
    return value


def _given(overrides) -> list[tuple]:
    """``overrides`` (a mapping notebook -> {name: value}, or ``(notebook, name, value)``
    triples) as triples."""
    if hasattr(overrides, "items"):
        for key, values in overrides.items():
            if not hasattr(values, "items"):
                raise ValueError(
                    f"parameters[{shown(key)}] must map parameter names to values, "
                    f"got {shown(values)}"
                )
        return [
            (key, name, value)
            for key, values in overrides.items()
            for name, value in values.items()
        ]
    if not isinstance(overrides, (list, tuple)) or not all(
        isinstance(t, tuple) and len(t) == 3 for t in overrides
    ):
        raise ValueError(
            f"parameters must map notebook names to {{name: value}}, got {shown(overrides)}"
        )
    return list(overrides)


def resolve(overrides, sources, quick: bool = False) -> dict[str, dict[str, object]]:
    """Check ``overrides`` against the notebooks' parameters cells; keep those that differ from
    the default.

    Parameters
    ----------
    overrides : mapping, sequence of tuples, or None
        Notebook (name, file name, number, path or artefact id: :func:`match_notebook`) ->
        {parameter name: value}, or ``(notebook, name, value)`` triples (:func:`collect`); a
        value is text (from ``-p``) or a value of the parameter's type.
    sources : sequence of pathlib.Path
        The run's notebooks.
    quick : bool
        The run is ``--quick``: a parameter its quick profile may change (:func:`quick_sets`) is
        refused, so a value given is never reported as used when the profile overrode it.

    Returns
    -------
    dict
        Notebook name (file stem) -> {parameter name: value of its type}, only the values other
        than the notebook's default, notebooks and names sorted; notebooks with none left out.

    Raises
    ------
    ValueError
        One line naming the notebook and parameter, and what is allowed: an unknown notebook or
        name, a parameter set by another option, a value not of its type or out of its range,
        one parameter given twice (under any spelling of its notebook), or one ``--quick`` sets.
    """
    if not overrides:
        return {}
    given: dict[tuple[str, str], tuple[str, object, Parameter]] = {}
    for key, name, value in _given(overrides):
        source = match_notebook(key, sources)
        known = {p.name: p for p in read_parameters(source)}
        where = f"{source.stem}:{shown(name, quotes=False)}"
        parameter = known.get(name)
        if parameter is None:
            allowed = (
                ", ".join(f"{p.name} ({p.type})" for p in known.values() if p.set_by is None)
                or "none"
            )
            raise ValueError(
                f"{where}: {source.stem} has no parameter {shown(name)}; its parameters: {allowed}"
            )
        if parameter.set_by is not None:
            raise ValueError(
                f"{where}: {name} is set for every notebook by pqlab reproduce "
                f"{parameter.set_by}, not by -p"
            )
        typed = check_range(parameter, convert(parameter, value, where), where)
        if quick and name in quick_sets(source):
            raise ValueError(
                f"{where}: --quick sets {name} itself (the notebook's quick "
                f"profile), so {shown(typed)} would not be used; drop --quick, "
                "or this -p"
            )
        spelling, previous, _ = given.setdefault((source.stem, name), (str(key), typed, parameter))
        if previous != typed or type(previous) is not type(typed):
            raise ValueError(
                f"{where} is given twice, as "
                f"{shown(spelling, quotes=False)}:{name}={shown(previous)} and "
                f"{shown(str(key), quotes=False)}:{name}={shown(typed)}"
            )
    out: dict[str, dict[str, object]] = {}
    for (stem, name), (_, typed, parameter) in sorted(given.items()):
        if typed != parameter.default or type(typed) is not type(parameter.default):
            out.setdefault(stem, {})[name] = typed
    return out


def overrides_text(values: dict) -> str:
    """``{name: value}`` as ``name=value, name=value``."""
    return ", ".join(
        f"{name}={value!r}" if isinstance(value, str) else f"{name}={value}"
        for name, value in sorted(values.items())
    )


def provenance_text(parameters: dict) -> str:
    """The report's line naming the notebooks run with parameters other than their defaults
    ("" if none).

    Parameters
    ----------
    parameters : dict
        Notebook name -> {parameter name: value}, as :func:`resolve` returns.
    """
    parts = [
        f"{notebook} ran with {overrides_text(values)}"
        for notebook, values in sorted(parameters.items())
        if values
    ]
    return f"{PROVENANCE_PREFIX} {'; '.join(parts)}." if parts else ""
