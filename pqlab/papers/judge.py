"""The one judge: every verdict of the report, by one set of rules, from structured claim records.

A claim record (:func:`pqlab.papers.kit.claim`) holds numbers, never a verdict: our value and
unit, the model it was computed under, the artefact's own check for a qualitative claim
(``shape_ok``), how it was computed (``note``) and, for a result that may miss, a **reason**:
a kind (:data:`REASON_KINDS`), a sentence with placeholders, and the **facts** (numbers with
units) that fill them (:func:`reason`, :func:`fact`). The paper's side (``data/paper_values.csv``)
gives the value, the kind of row (``setup``, ``result``, ``analysis``, ``derived``) and the
**rule** the statement is judged by (:data:`RULES`, column ``rule``; empty: ``number`` when the
paper gives a value, else ``qualitative``).

This module is the only place that decides: :func:`within` is the one tolerance test,
:func:`verdict` the one rule table, :func:`apply_links` the links between claims
(``data/claim_links.csv``), :func:`render` the one way a reason becomes text, and
:func:`borderline` names the rows near the tolerance. Every model is judged by the same rules:
the verdict depends on the paper's row and the record's numbers, never on the model's name.

Rules
-----
``number``
    Reproduced when ``|ours - paper| / |paper| <= 10 %`` (:data:`TOLERANCE_PERCENT`), else it
    differs. A number has no partial credit: its shape, where the paper states one, is a claim
    of its own (a ``qualitative`` row).
``position``
    A payload where a swept curve drops (a particle boundary): reproduced when the paper's
    payload lies in our drop interval ``(ours, first_after]`` (the record's fact
    ``first_after``), whatever the relative difference (:func:`position_ok`).
``qualitative``
    The artefact's computed check (``shape_ok``) decides: reproduced when true, differs when
    false, missing when not recorded; but a statement about an effect the model does not produce
    (the record's reason carries the fact ``effect_size``, :data:`EFFECT_FACT`: the size of that
    effect in the model's runs, e.g. the largest EF loss of a loss statement, and it is 0) is
    ``not tested`` by this model, whatever its check: counted apart, never as reproduced.
``not_checkable``
    The statement names nothing a simulation can check (a method, a diagram, a garbled or
    unstated value, a number whose definition the paper leaves open): ``not checkable``,
    counted apart from the results, whatever is recorded.

A claim that implies another (``implies``) is never reproduced while the claim it implies
differs; a row that restates another (``same_as``) and was left ``missing`` takes its verdict. No
link moves a number's verdict: a ``number`` or ``position`` row is judged by its number alone (the
statement it illustrates is a row of its own), so a count of numbers is the same whether or not
the statements were judged with them (:mod:`pqlab.papers.ledger`).
"""

from __future__ import annotations

import ast
import math
import operator
import string

import numpy as np
import pandas as pd
import xarray as xr

#: Relative difference (percent) within which a number is reproduced: the one tolerance.
TOLERANCE_PERCENT = 10.0
#: A reproduced number whose relative difference is larger than this (percent) is borderline:
#: the opening names it.
BORDERLINE_PERCENT = 8.0

#: The rules a paper's statement is judged by (column ``rule`` of ``data/paper_values.csv``).
RULES = {
    "number": f"a number: reproduced within {TOLERANCE_PERCENT:g} % of the paper's value",
    "position": (
        "a payload where a curve drops: reproduced when the paper's payload lies in our drop "
        "interval (within one sweep step, on the same side of the particle boundary)"
    ),
    "qualitative": (
        "a statement: the artefact's computed check decides; not tested when the model "
        "does not produce the effect it is about"
    ),
    "not_checkable": (
        "names nothing a simulation can check (a method, a diagram, a garbled or unstated value, "
        "a definition the paper leaves open): counted apart"
    ),
}

#: Verdicts, in the order reports list them.
VERDICTS = ("reproduced", "differs", "not tested", "not checkable", "missing", "pqlab only")
#: The fact of a statement's reason that gives the size of the effect the statement is about in the
#: model's runs (0: the model does not produce it, the statement is ``not tested``).
EFFECT_FACT = "effect_size"

#: The kinds of reason a result that differs gives, each with a number (:func:`reason`).
REASON_KINDS = {
    "mechanism": "a mechanism of the model, with its size",
    "bound": "a bound no member of the model family can pass",
    "definition": "a definition the paper leaves open, and how far the result moves with it",
    "arithmetic": "the exact arithmetic of the scenario",
    "input": "an input the paper does not state, and how far the result moves with it",
    "implied": "a claim it implies differs",
}


class ClaimError(ValueError):
    """A claim record or a paper row that breaks the judge's contract (a number with a shape flag, a
    position without ``first_after``, a reason without a number, an unknown rule)."""


#: A reason's text names its facts as ``{name}`` (:meth:`str.format_map` fields, names are
#: identifiers).
_FORMATTER = string.Formatter()


def _placeholders(text: str) -> set[str]:
    """The field names of a reason's text; a field with a conversion, a format spec or a
    non-identifier is refused."""
    try:
        fields = [
            (name, spec, conv) for _, name, spec, conv in _FORMATTER.parse(text) if name is not None
        ]
    except ValueError as exc:
        raise ClaimError(f"reason text {text!r}: {exc}") from None
    bad = [name for name, spec, conv in fields if not name.isidentifier() or spec or conv]
    if bad:
        raise ClaimError(f"reason text {text!r}: placeholders must be plain {{name}}, got {bad}")
    return {name for name, _, _ in fields}


# --------------------------------------------------------------------------- facts and reasons


def fact(name: str, value, unit: str) -> dict:
    """One fact of a reason: a named number with its unit.

    Parameters
    ----------
    name : str
        An identifier, used as ``{name}`` in the reason's text.
    value : float
        The number (finite).
    unit : str
        Its unit ("" for a pure number, "1" for a ratio).

    Returns
    -------
    dict
        ``{"name", "value", "unit"}``.

    Raises
    ------
    ValueError
        If the name is not an identifier, the value not a finite number or the unit not a string.
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise ClaimError(f"fact name must be an identifier, got {name!r}")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ClaimError(f"fact {name!r}: value must be a finite number, got {value!r}") from None
    if not math.isfinite(number) or isinstance(value, bool):
        raise ClaimError(f"fact {name!r}: value must be a finite number, got {value!r}")
    if not isinstance(unit, str):
        raise ClaimError(f"fact {name!r}: unit must be a string, got {unit!r}")
    return {"name": name, "value": number, "unit": unit.strip()}


def reason(kind: str, text: str, facts) -> dict:
    """Why a result is what it is: a kind, a sentence with ``{fact}`` placeholders, and the facts.

    Parameters
    ----------
    kind : str
        One of :data:`REASON_KINDS`.
    text : str
        A sentence naming each fact as ``{name}`` at least once (:func:`render` fills them).
    facts : iterable of dict
        :func:`fact` records (at least one: a reason always carries a number).

    Returns
    -------
    dict
        ``{"kind", "text", "facts"}``.

    Raises
    ------
    ValueError
        If the kind is unknown, there is no fact, a placeholder names no fact, a fact is not named
        in the text, or two facts share a name.
    """
    if kind not in REASON_KINDS:
        raise ClaimError(f"reason kind must be one of {list(REASON_KINDS)}, got {kind!r}")
    if not isinstance(text, str) or not text.strip():
        raise ClaimError(f"reason text must be a non-empty string, got {text!r}")
    checked = [fact(f["name"], f["value"], f["unit"]) for f in facts]
    if not checked:
        raise ClaimError(f"a reason needs at least one fact (a number), got none for {text!r}")
    names = [f["name"] for f in checked]
    if len(set(names)) != len(names):
        raise ClaimError(f"reason facts must have distinct names, got {names}")
    used = _placeholders(text)
    unknown, unused = sorted(used - set(names)), sorted(set(names) - used)
    if unknown or unused:
        raise ClaimError(
            f"reason text {text!r}: placeholders without a fact {unknown}, facts not in the text"
            f" {unused}"
        )
    return {"kind": kind, "text": " ".join(text.split()), "facts": checked}


def check_reason(value) -> dict | None:
    """A reason as read back from a record (a dict, or None), checked again by :func:`reason`."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"kind", "text", "facts"}:
        raise ClaimError(f"reason must be None or a dict with kind, text and facts, got {value!r}")
    return reason(value["kind"], value["text"], value["facts"])


def number_text(value: float, unit: str = "") -> str:
    """A fact's value as a reader reads it: 4 significant digits (an integer as it is), then the
    unit.

    Units ``""`` and ``"1"`` print no unit; ``"%"`` is joined without a space.
    """
    if not math.isfinite(value):
        return "n/a"
    text = f"{value:.0f}" if value == round(value) and abs(value) < 1e6 else f"{value:.4g}"
    if unit in ("", "1"):
        return text
    return f"{text}{unit}" if unit == "%" else f"{text} {unit}"


def render(reason_record: dict | None) -> str:
    """A reason's sentence with each ``{fact}`` replaced by its number and unit ("" for None)."""
    if not reason_record:
        return ""
    values = {f["name"]: number_text(f["value"], f["unit"]) for f in reason_record["facts"]}
    return reason_record["text"].format_map(values)


def fact_value(reason_record: dict | None, name: str) -> float:
    """The value of the fact ``name`` of a reason (NaN if there is no such fact)."""
    for f in (reason_record or {}).get("facts", []):
        if f["name"] == name:
            return float(f["value"])
    return math.nan


# --------------------------------------------------------------------------- rules


def relative_percent(ours: float, paper: float) -> float:
    """``(ours - paper) / |paper|`` in percent; 0 if both are 0, NaN if undefined."""
    if ours is None or paper is None or math.isnan(ours) or math.isnan(paper):
        return math.nan
    if paper == 0:
        return 0.0 if ours == 0 else math.nan
    return (ours - paper) / abs(paper) * 100.0


def within(ours: float, paper: float) -> bool:
    """The one tolerance test: ``|ours - paper| / |paper| <= 10 %`` (False when undefined)."""
    percent = relative_percent(ours, paper)
    return bool(math.isfinite(percent) and abs(percent) <= TOLERANCE_PERCENT)


def borderline(percent: float) -> bool:
    """Whether a reproduced number lies near the tolerance: ``8 % < |difference| <= 10 %``."""
    return bool(math.isfinite(percent) and BORDERLINE_PERCENT < abs(percent) <= TOLERANCE_PERCENT)


def position_ok(last_before: float, first_after: float, paper: float) -> bool:
    """The position rule: the paper's payload lies in our drop interval ``(last_before,
    first_after]``.

    Our curve drops between the swept payloads ``last_before`` (the last that fits ``k``
    particles) and ``first_after`` (one sweep step on, needing ``k + 1``): the paper's
    discontinuity is reproduced when it lies on the same side of the particle boundary as our
    first payload past it, within one sweep step. A +-10 % band (+-48 bytes at 485) would span
    both sides and test nothing. All in bytes.
    """
    return bool(last_before < paper <= first_after)


def rule_of(rule: str, paper: float) -> str:
    """The rule a paper row is judged by: its ``rule`` cell, else ``number`` with a value,
    ``qualitative`` without."""
    rule = (
        "" if rule is None or (isinstance(rule, float) and math.isnan(rule)) else str(rule).strip()
    )
    if not rule:
        return "qualitative" if paper is None or math.isnan(paper) else "number"
    if rule not in RULES:
        raise ClaimError(f"rule must be one of {list(RULES)} or empty, got {rule!r}")
    return rule


def verdict(
    rule: str,
    *,
    has_paper: bool,
    has_record: bool,
    paper: float,
    ours: float,
    shape_ok,
    first_after: float = math.nan,
    effect: float = math.nan,
) -> str:
    """One row's verdict by the rules of the module docstring, the same for every model.

    Parameters
    ----------
    rule : str
        The row's rule (:func:`rule_of`).
    has_paper, has_record : bool
        Whether the paper has the row, and whether the model recorded it.
    paper, ours : float
        The paper's value and ours (NaN where none), in the paper's unit.
    shape_ok : bool or None
        The artefact's check of a qualitative claim (None for other rules).
    first_after : float
        For a ``position``: our first swept payload past the drop (the record's fact).
    effect : float
        For a ``qualitative`` statement: the size of the effect it is about in the model's runs (the
        record's fact :data:`EFFECT_FACT`; NaN: none given). 0 makes the statement ``not tested``.

    Raises
    ------
    ValueError
        If a ``number`` or ``position`` record carries a ``shape_ok`` (a number is judged by its
        number; its shape is a claim of its own) or an ``effect``, or a ``position`` record has no
        ``first_after``.
    """
    if not has_paper:
        return "pqlab only"
    if rule == "not_checkable":
        return "not checkable"
    if not has_record:
        return "missing"
    if rule == "qualitative":
        if effect == 0:
            return "not tested"
        return {True: "reproduced", False: "differs", None: "missing"}[shape_ok]
    if not math.isnan(effect):
        raise ClaimError(
            f"a {rule!r} claim is judged by its number; an effect size is for "
            f"statements (got {effect!r})"
        )
    if shape_ok is not None:
        raise ClaimError(
            f"a {rule!r} claim is judged by its number, not by shape_ok (got shape_ok={shape_ok!r})"
        )
    if ours is None or math.isnan(ours):
        return "missing"
    if rule == "position":
        if math.isnan(first_after):
            raise ClaimError(
                "a 'position' claim needs the fact first_after (our first swept payload past the"
                " drop)"
            )
        return "reproduced" if position_ok(ours, first_after, paper) else "differs"
    return "reproduced" if within(ours, paper) else "differs"


# --------------------------------------------------------------------------- claims from a Dataset

#: The checks a statement's ``shape_ok`` is computed by (column ``check`` of
#: ``data/paper_values.csv``), over the variables of the artefact's Dataset: the row's ``variable``
#: and the parameters of its ``params`` cell (``name=value;...``, a value a variable's name or a
#: number). Every threshold of a statement is a parameter of its row, none is in an artefact module.
CHECKS = {
    "holds": (
        "the boolean variable is true everywhere; or, if given, the expression ``that`` "
        "(comparisons, ``and``, ``or``, ``not``, ``all``, ``any`` over variables) about it"
    ),
    "greater": "the variable is larger than ``than`` everywhere",
    "at_most": "the variable is at most ``bound`` everywhere",
    "at_least": "the variable is at least ``bound`` everywhere",
    "band": "the variable lies in ``[lo, hi]`` everywhere",
    "less": "the variable is smaller than ``than`` everywhere",
    "close": (
        "the variable lies within ``tol`` (a fraction) of ``ref``: ``|ours - ref| <= tol * "
        "max(|ours|, |ref|)`` everywhere"
    ),
}
#: The parameters each check needs.
CHECK_PARAMS = {
    "holds": (),
    "greater": ("than",),
    "at_most": ("bound",),
    "at_least": ("bound",),
    "band": ("lo", "hi"),
    "less": ("than",),
    "close": ("ref", "tol"),
}


#: Functions a parameter's expression may call: elementwise with two arguments, over every
#: element with one (``max(x)``: the largest value of ``x``).
_FUNCTIONS = {"max": (np.max, np.maximum), "min": (np.min, np.minimum), "abs": (np.abs, None)}
_OPERATORS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}
_COMPARISONS = {
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}
#: Functions of a boolean expression (``holds``'s ``that``): every, or some, element true.
_TRUTH = {"all": np.all, "any": np.any}


def evaluate(expression: str, data, names: dict | None = None):
    """A parameter's value: a number, a Dataset variable (as a DataArray, so dimensions broadcast
    by name), an earlier parameter of ``names``, or ``+ - * /`` and :data:`_FUNCTIONS` of them
    (``max(0.05 * mean_min, 2 * ci_max)``, say).

    Raises
    ------
    ClaimError
        If the expression names something else or uses another construct.
    """
    names = names or {}

    def value(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return float(node.value)
        if isinstance(node, ast.Name):
            if node.id in names:
                return names[node.id]
            if node.id in data.variables:
                return data[node.id]
            raise ClaimError(f"{expression!r}: {node.id!r} names no variable or earlier parameter")
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not bool(np.all(value(node.operand)))
        if (
            isinstance(node, ast.Compare)
            and len(node.ops) == 1
            and type(node.ops[0]) in _COMPARISONS
        ):
            return _COMPARISONS[type(node.ops[0])](value(node.left), value(node.comparators[0]))
        if isinstance(node, ast.BoolOp):
            truths = (bool(np.all(value(v))) for v in node.values)
            return all(truths) if isinstance(node.op, ast.And) else any(truths)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in _TRUTH
            and not node.keywords
            and len(node.args) == 1
        ):
            return bool(_TRUTH[node.func.id](np.asarray(value(node.args[0]))))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in _FUNCTIONS
            and not node.keywords
            and 1 <= len(node.args) <= 2
        ):
            reduce, pairwise = _FUNCTIONS[node.func.id]
            args = [value(arg) for arg in node.args]
            if len(args) == 1:
                return reduce(args[0])
            if pairwise is not None:
                return pairwise(*args)
        raise ClaimError(
            f"{expression!r}: only numbers, variables, + - * /, comparisons, and, or, "
            f"not and {sorted({*_FUNCTIONS, *_TRUTH})} are allowed"
        )

    try:
        tree = ast.parse(str(expression).strip(), mode="eval")
    except SyntaxError:
        raise ClaimError(f"parameter expression {expression!r} does not parse") from None
    return value(tree.body)


def parse_params(text: str) -> dict:
    """A ``params`` cell, ``name=value;name=value``, as a dict of strings ({} for an empty cell)."""
    out = {}
    for item in filter(None, (part.strip() for part in str(text or "").split(";"))):
        name, sep, value = item.partition("=")
        if not sep or not name.strip().isidentifier() or not value.strip():
            raise ClaimError(f"params must read name=value;...; got {text!r}")
        out[name.strip()] = value.strip()
    return out


def evaluate_params(params: dict, data) -> dict:
    """A row's parameters evaluated in order (:func:`evaluate`; each may name those before it); a
    0-d result becomes a Python number or boolean (what a note's template prints)."""
    values = {}
    for key, expression in params.items():
        value = evaluate(expression, data, values)
        values[key] = value.values.item() if getattr(value, "ndim", None) == 0 else value
    return values


def check(name: str, variable: str, params: dict, data) -> tuple[bool, dict]:
    """A statement's computed check: :data:`CHECKS` ``name`` of ``data[variable]`` with ``params``.

    Parameters
    ----------
    name : str
        One of :data:`CHECKS`.
    variable : str
        The Dataset variable the statement is about.
    params : dict
        :func:`parse_params` of the row; each value an expression (:func:`evaluate`) that may
        name the parameters before it.
    data : xarray.Dataset
        The artefact's Dataset.

    Returns
    -------
    ok : bool
        Whether the statement holds.
    witness : dict
        Where it comes nearest to failing (or fails most), as facts a reason may name:
        ``worst_ours`` and ``worst_ref`` (the variable and what it is compared with there, in the
        variable's unit), and ``worst_<dim>`` (the coordinate there) for each dimension; empty for
        ``holds``.

    Raises
    ------
    ClaimError
        If the check is unknown, the variable absent or a parameter missing.
    """
    if name not in CHECKS:
        raise ClaimError(f"check must be one of {list(CHECKS)}, got {name!r}")
    if variable not in data.variables:
        raise ClaimError(f"check {name!r}: the Dataset has no variable {variable!r}")
    missing = [p for p in CHECK_PARAMS[name] if p not in params]
    if missing:
        raise ClaimError(f"check {name!r} on {variable!r} needs the parameter(s) {missing}")
    ours = data[variable]
    ref = evaluate_params(params, data)
    if name == "holds":
        return bool(np.all(ref["that"])) if "that" in ref else bool(ours.values.all()), {}
    if name in ("greater", "less"):
        against = ref["than"]
        margin = ours - against if name == "greater" else against - ours
        ok = margin > 0
    elif name in ("at_most", "at_least"):
        against = ref["bound"]
        margin = against - ours if name == "at_most" else ours - against
        ok = margin >= 0
    elif name == "close":
        against = ref["ref"]
        margin = ref["tol"] * np.maximum(abs(ours), abs(against)) - abs(ours - against)
        ok = margin >= 0
    else:
        against = ours * 0 + ref["lo"]
        margin = np.minimum(ours - ref["lo"], ref["hi"] - ours)
        ok = margin >= 0
    return bool(np.all(ok)), _witness(ours, ours * 0 + against, margin)


def _witness(ours, against, margin) -> dict:
    """The facts where ``margin`` is smallest: ``worst_ours``, ``worst_ref``, ``worst_<dim>``."""
    margin = ours * 0 + margin
    flat = int(np.nanargmin(np.asarray(margin.values, dtype=float).ravel())) if margin.size else 0
    index = np.unravel_index(flat, margin.shape) if margin.ndim else ()
    where = dict(zip(margin.dims, index))
    unit = ours.attrs.get("units", "")
    facts = {
        "worst_ours": (float(ours.isel(where)), unit),
        "worst_ref": (float((ours * 0 + against).isel(where)), unit),
    }
    for dim, i in where.items():
        # the variable's own coordinate: one computed through arithmetic keeps its attrs in
        # some xarray versions only (the units of the witness's position would depend on them)
        coord = ours[dim] if dim in ours.dims else margin[dim]
        facts[f"worst_{dim}"] = (float(coord.values[i]), coord.attrs.get("units", ""))
    return facts


class _Items(list):
    """A variable's values as a template field sees them: one item per element of its last
    dimension (a row of items per element of the first, for a 2-D one), with the coordinates."""

    def __init__(self, da):
        super().__init__(v.item() for v in da.values.ravel())
        self.da = da


class _Where(list):
    """The coordinates where a 1-D boolean variable holds (``!w``: joined, ``!l``: as a list)."""

    def __init__(self, labels, as_list: bool):
        super().__init__(labels)
        self.as_list = as_list


class _DataFormatter(string.Formatter):
    """Fills ``{name:spec}`` from a Dataset: a variable, else an attr (or a row's parameter).

    A variable with dimensions is joined: its items with ", " (a 2-D one's rows with "; "), each
    formatted by ``spec``; a spec holding ``[...]`` is an item template, ``[coord]`` the item's
    coordinate and ``[spec]`` its value (``{range:[ef_frame_bytes] B: [.2f] ms}``), ``[name:spec]``
    another variable on the same dimension; a spec ending ``|sep`` joins with ``sep``. The
    conversion ``!u`` upper-cases text, ``!r`` of a variable gives its values as a Python list;
    ``!w`` of a 1-D boolean variable the coordinates where it holds, joined (``!l``: as a list),
    or its spec's text where it holds nowhere (``{congested!w:none}``). A boolean's spec
    ``yes|no`` picks a text (``{every:every|not every}``; ``yes||no`` where the texts hold a
    ``|``).
    """

    def __init__(self, data, extra=None):
        super().__init__()
        self.data, self.extra = data, dict(extra or {})

    def get_value(self, key, args, kwargs):
        if key in self.extra:
            return self.extra[key]
        if key in self.data.variables:
            values = self.data[key].values
            return values.item() if values.ndim == 0 else _Items(self.data[key])
        if key in self.data.attrs:
            value = self.data.attrs[key]
            return _Items(xr.DataArray(list(value))) if isinstance(value, (list, tuple)) else value
        raise ClaimError(f"template field {key!r} names no variable or attr of the Dataset")

    def convert_field(self, value, conversion):
        if conversion == "u":
            return str(value).upper()
        if conversion == "r" and isinstance(value, _Items):
            return repr(list(value))
        if conversion in ("w", "l") and isinstance(value, _Items):
            labels = value.da[value.da.dims[0]].values[np.asarray(value.da.values, dtype=bool)]
            return _Where([v.item() for v in labels], conversion == "l")
        return super().convert_field(value, conversion)

    def format_field(self, value, format_spec):
        if isinstance(value, _Where):
            if not value:
                return format_spec
            return repr(list(value)) if value.as_list else ", ".join(str(v) for v in value)
        if isinstance(value, bool) and "|" in format_spec:
            true, _, false = format_spec.partition("||" if "||" in format_spec else "|")
            return true if value else false
        if not isinstance(value, _Items):
            return format(value, format_spec)
        da = value.da
        if da.ndim == 2:
            rows = (self.format_field(_Items(da[i]), format_spec) for i in range(da.shape[0]))
            return "; ".join(rows)
        separator = ", "
        if "|" in format_spec:
            format_spec, separator = format_spec.rsplit("|", 1)
        if "[" not in format_spec:
            return separator.join(format(v, format_spec) for v in value)
        dim = da.dims[0]

        def field(text, i):  # "[coord]", "[variable:spec]", or "[spec]" / "[:spec]" of the item
            name, _, spec = text.partition(":")
            if name == dim or (name in self.data.variables and self.data[name].dims == (dim,)):
                return format(self.data[name].values[i].item(), spec)
            return format(value[i], spec if not name else text)

        def item(i):  # "[name]" parts alternate with text: "a [x] b [y]".split("[") -> "x] b", ...
            head, *parts = format_spec.split("[")
            pieces = (p.partition("]") for p in parts)
            return head + "".join(field(name, i) + text for name, _, text in pieces)

        return separator.join(item(i) for i in range(len(value)))


def fill(template: str, data, params: dict | None = None) -> str:
    """A note's template with each ``{name:spec}`` filled from the Dataset (:class:`_DataFormatter`)
    or from the row's ``params`` (a number where it reads as one: a threshold the note prints)."""
    numbers = {
        k: _number_or_text(v) if isinstance(v, str) else v for k, v in (params or {}).items()
    }
    return _DataFormatter(data, numbers).format(template)


def _number_or_text(value: str):
    try:
        return float(value)
    except ValueError:
        return value


def condition(spec: str, data) -> bool:
    """A claim note's ``reason_when`` condition, ``"<check> <variable> <params>"``
    (:func:`check`)."""
    name, _, rest = spec.partition(" ")
    variable, _, params = rest.strip().partition(" ")
    return check(name, variable, parse_params(params), data)[0]


def reason_from(
    kind: str, text: str, data, bindings: dict | None = None, witness: dict | None = None
) -> dict:
    """A reason whose facts are the Dataset's variables its text names (value and ``units``), in
    the order of ``bindings``, then of the text; ``bindings`` maps a fact's name to the variable
    holding it where the two differ (a fact ``ef_tag`` read from ``ef_tag_1024``, say) or to a
    fact of the row's check's ``witness`` (:func:`check`: ``worst_ours``, ...)."""
    named = _placeholders(text)  # plain {name} fields only
    in_text = [name for _, name, _, _ in _FORMATTER.parse(text) if name]
    names = list(dict.fromkeys([n for n in bindings or {} if n in named] + in_text))
    where = {n: (bindings or {}).get(n, n) for n in names}
    witness = witness or {}
    absent = [v for v in where.values() if v not in data.variables and v not in witness]
    if absent:
        raise ClaimError(f"reason {text!r}: the Dataset has no variable(s) {absent}")
    facts = [
        (
            fact(n, *witness[v])
            if v in witness
            else fact(n, data[v].values.item(), data[v].attrs.get("units", ""))
        )
        for n, v in where.items()
    ]
    return reason(kind, text, facts)


# --------------------------------------------------------------------------- links between claims

#: Relations a link of ``data/claim_links.csv`` may state.
RELATIONS = ("implies", "same_as")


def apply_links(table: pd.DataFrame, links: pd.DataFrame) -> pd.DataFrame:
    """``table`` with the verdicts the links impose, as a copy (within each model).

    ``implies``: a reproduced statement whose target differs becomes ``differs``, and its reason
    (kind ``implied``) names the target and its difference; applied until nothing changes, so chains
    propagate. ``same_as``: a ``missing`` row takes its target's verdict, reason and explanation.

    Parameters
    ----------
    table : pandas.DataFrame
        Columns ``artefact, quantity, model, verdict, explanation, reason`` at least (``reason`` a
        dict or None), ``difference %`` and ``rule`` optional.
    links : pandas.DataFrame
        Columns ``artefact, quantity, relation, target_artefact, target_quantity, reason``.

    Raises
    ------
    ClaimError
        If ``table`` has a ``rule`` column and an ``implies`` link starts at a ``number`` or
        ``position`` row (a number is judged by its number).
    """
    if "rule" in table.columns:
        rules = dict(zip(zip(table["artefact"], table["quantity"]), table["rule"]))
        bad = sorted(
            {
                f"{link.artefact}/{link.quantity}"
                for link in links.itertuples()
                if link.relation == "implies"
                and rules.get((link.artefact, link.quantity)) in ("number", "position")
            }
        )
        if bad:
            raise ClaimError(
                f"a number is judged by its number: no 'implies' link may start at {bad}"
            )
    table = table.copy()
    where = {
        (m, a, q): i
        for i, (m, a, q) in enumerate(zip(table["model"], table["artefact"], table["quantity"]))
    }
    verdicts = table["verdict"].tolist()
    reasons = table["reason"].tolist()
    notes = table["explanation"].tolist()
    percent = (
        table["difference %"].tolist()
        if "difference %" in table.columns
        else [math.nan] * len(table)
    )
    for model in dict.fromkeys(table["model"]):
        pairs = [
            (
                where.get((model, ln.artefact, ln.quantity)),
                where.get((model, ln.target_artefact, ln.target_quantity)),
                ln,
            )
            for ln in links.itertuples()
        ]
        pairs = [(s, t, ln) for s, t, ln in pairs if s is not None and t is not None]
        for s, t, link in pairs:
            if link.relation == "same_as" and verdicts[s] == "missing" and verdicts[t] != "missing":
                verdicts[s], reasons[s] = verdicts[t], reasons[t]
                notes[s] = (
                    f"judged as {link.target_artefact}/{link.target_quantity} ({link.reason}):"
                    f" {notes[t]}"
                )
        changed = True
        while changed:
            changed = False
            for s, t, link in pairs:
                if (
                    link.relation == "implies"
                    and verdicts[s] == "reproduced"
                    and verdicts[t] == "differs"
                ):
                    verdicts[s] = "differs"
                    reasons[s] = _implied_reason(link, reasons[t], percent[t])
                    changed = True
    table["verdict"], table["reason"], table["explanation"] = verdicts, reasons, notes
    return table


def _implied_reason(link, target_reason: dict | None, target_percent: float) -> dict:
    """The reason of a claim that fails because a claim it implies differs: the target and its
    number."""
    target = f"{link.target_artefact}/{link.target_quantity}"
    if isinstance(target_percent, float) and math.isfinite(target_percent):
        return reason(
            "implied",
            f"it implies {target} ({link.reason}), which differs by {{target_difference}}",
            [fact("target_difference", target_percent, "%")],
        )
    if target_reason:
        return reason(
            "implied",
            f"it implies {target} ({link.reason}), which differs: {target_reason['text']}",
            target_reason["facts"],
        )
    raise ClaimError(
        f"{link.artefact}/{link.quantity} implies {target}, which differs without a number or a"
        " reason"
    )
