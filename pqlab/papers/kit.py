"""The kit every artefact module shares: arguments, the papers' values, claims, provenance, figures,
notebooks.

An artefact module (:mod:`pqlab.papers.registry`) imports this one module for what is not its own:

* **arguments**: :func:`check_seeds`, :func:`check_n_ef_samples`, :func:`check_ks`,
  :func:`check_values`, :func:`check_bool`, :func:`check_artefact`, :func:`check_node_and_path`;
* **the papers' values and claims**: :func:`paper_value`; a *claim record* is the one shape in
  which every artefact's ``claims(data)`` returns what a notebook records: a dict with
  ``quantity`` (the key of ``data/paper_values.csv``, or a new one), ``value`` (in the paper
  row's unit, None for a qualitative claim), ``unit``, ``note`` (one computed line: how the
  value was computed), ``shape_ok`` (a qualitative claim's computed check, None otherwise: a
  number is judged by its number), ``seed`` (None: the notebook's seed is recorded),
  ``artefact``, ``model``, ``role`` and ``reason`` (:func:`pqlab.papers.judge.reason`: why the
  result is what it is, with numbers; every measured result that differs has one) (:func:`claim`).
  Claims hold numbers, never verdicts: :mod:`pqlab.papers.judge` decides;
  :func:`record_claims` records them with :func:`pqlab.papers.records.record` and prints the
  paper's value next to ours (:func:`paper_vs_ours`);
* **the position rule's words** (:func:`position_text`; the rule itself is
  :func:`pqlab.papers.judge.position_ok`, re-exported as :func:`position_ok`);
* **statistics over seeds and provenance**: :func:`seed_mean_in`, :func:`statistics_in_ms`,
  :func:`add_mean_ci`, :func:`provenance` (the Dataset attrs: id, title, version, references);
* **figures and tables**: the theme (:func:`set_theme`, :func:`subplots`, :func:`legend_below`,
  :func:`footer`, :func:`ci_half_widths`, :func:`seed_count`), :func:`save_figure` and
  :func:`save_table` (the files ``<figures>/<artefact id>.*``, recorded for the report), and
  :func:`delay_distribution` (``pqlab demo``);
* **notebooks**: :func:`setup` (output folders, the quick profile, the seeds).
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
import xarray as xr

from ..base import locations
from ..base._validate import check_array, check_int, check_real
from ..base.provenance import provenance_attrs
from ..base.units import times_in_ms
from ..measure import experiments
from ..measure.analysis import CONFIDENCE
from ..node.model import Node
from ..node.path import PathModel
from ..node.scenario import Scenario
from . import judge, records, registry
from .artefact_files import (  # noqa: F401  re-exported: the notebooks' one import
    FIGURE_DPI,
    artefact_id,
    in_kernel,
    markdown_table,
    save,
    save_figure,
    save_table,
    write_table,
)
from .presets import BE_QUEUE, EF_QUEUE, ETHERNET_FRAME_OVERHEAD_BYTES, paper_path
from .stated import PAPERS

#: Keys of a claim record, in order.
CLAIM_KEYS = (
    "quantity",
    "value",
    "unit",
    "note",
    "shape_ok",
    "seed",
    "artefact",
    "model",
    "role",
    "reason",
)


# --------------------------------------------------------------------------- arguments


def check_values(name: str, values, minimum, *, integer: bool = False, strict: bool = True) -> list:
    """``values`` as a non-empty list of distinct numbers >= ``minimum`` (> with ``strict``, reals
    only).

    ``integer``: ints , else finite reals; a
    ``ValueError`` names ``name`` otherwise.
    """
    try:
        items = list(values)
    except TypeError:
        kind = f"integers >= {minimum}" if integer else "numbers"
        raise ValueError(f"{name} must be a sequence of {kind}, got {values!r}") from None
    if not items:
        raise ValueError(f"{name} must hold at least one value, got none")
    if integer:
        out = [check_int(name, v, minimum) for v in items]
    else:
        out = [check_real(name, v, minimum, strict_minimum=strict) for v in items]
    if len(set(out)) != len(out):
        raise ValueError(f"{name} must hold distinct values, got {out!r}")
    return out


def check_seeds(seeds) -> list[int]:
    """``seeds`` as a non-empty list of distinct ints >= 0 (``ValueError`` naming ``seeds``
    otherwise)."""
    return check_values("seeds", seeds, 0, integer=True)


def check_n_ef_samples(n_ef_samples, minimum: int = 2, maximum: int = 10_000_000) -> int:
    """EF reference packets per run, an int in ``[minimum, maximum]``."""
    return check_int("n_ef_samples", n_ef_samples, minimum, maximum)


def check_ks(ks) -> list[int]:
    """Transmission units a BE packet fills (Table IV's ``k``): a non-empty list of ints in [1,
    100]."""
    arr = check_array("ks", list(ks), kind="int", minimum=1, maximum=100)
    if arr.size == 0:
        raise ValueError("ks must hold at least one k, got none")
    return [int(k) for k in arr]


def check_bool(name: str, value) -> bool:
    """``value`` if it is True or False (numpy's too), else ``ValueError`` naming ``name``."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_artefact(data, artefact: str):
    """``data`` if it was made by the compute function of ``artefact`` (its
    ``attrs['artefact']``)."""
    attrs = getattr(data, "attrs", None)
    if not isinstance(data, (xr.Dataset, pd.DataFrame)) or attrs.get("artefact") != artefact:
        raise ValueError(
            f"data must be what pqlab.papers.kit computes for {artefact!r} "
            f"(attrs['artefact'] == {artefact!r}), got {type(data).__name__}"
        )
    return data


def check_node_and_path(node, path) -> tuple[Node, PathModel]:
    """The papers' network an artefact draws or tabulates: ``node`` and ``path``, checked.

    ``node`` defaults to the papers' C7200 (``PAPERS.node()``, :data:`pqlab.papers.PAPERS`),
    ``path`` to :func:`pqlab.scenarios.paper_path` (the uncongested rest of the path).

    Raises
    ------
    ValueError
        If ``node`` is not a :class:`pqlab.Node` or ``path`` not a
        :class:`pqlab.node.path.PathModel` (None takes the default).
    """
    node = PAPERS.node() if node is None else node
    if not isinstance(node, Node):
        raise ValueError(f"node must be a pqlab.Node or None, got {type(node).__name__}")
    path = paper_path() if path is None else path
    if not isinstance(path, PathModel):
        raise ValueError(
            f"path must be a pqlab.node.path.PathModel or None, got {type(path).__name__}"
        )
    return node, path


# --------------------------------------------------------------------------- streams of a preset


def ef_streams(scenario: Scenario) -> list:
    """The scenario's EF streams (priority queue), reference stream first."""
    return [s for s in scenario.streams if s.queue == EF_QUEUE]


def be_streams(scenario: Scenario) -> list:
    """The scenario's best-effort streams."""
    return [s for s in scenario.streams if s.queue == BE_QUEUE]


def frame_rate_bps(stream) -> float:
    """Rate of an EF stream counted on Ethernet frames (IP + 18 bytes, how the papers state EF
    loads), bit/s."""
    ip = stream.size.mean_bytes + stream.header_bytes
    return stream.rate_bps * (ip + ETHERNET_FRAME_OVERHEAD_BYTES) / ip


# --------------------------------------------------------------------------- the papers' values


def _paper_index() -> dict:
    return _paper_index_of(locations.paper_values_file())


@functools.lru_cache(maxsize=2)
def _paper_index_of(path) -> dict:
    return _index(records.load_paper_values(path))


def _index(table: pd.DataFrame) -> dict:
    return {
        (a, q): (float(v), str(u))
        for a, q, v, u in zip(table.artefact, table.quantity, table.value, table.unit)
    }


def _paper_row(artefact: str, quantity: str, paper_values=None):
    index = _paper_index() if paper_values is None else _index(paper_values)
    return index.get((artefact, quantity))


def paper_value(
    artefact: str, quantity: str, paper_values: pd.DataFrame | None = None
) -> tuple[float, str]:
    """The paper's value and unit of one claim; ``(nan, "")`` if the paper has no such row.

    Parameters
    ----------
    artefact, quantity : str
        The key of ``data/paper_values.csv``.
    paper_values : pandas.DataFrame, optional
        :func:`pqlab.papers.records.load_paper_values`; default the papers' values in effect
        (:func:`pqlab.base.locations.paper_values_file`: ``data/paper_values.csv``, or in
        ``pqlab reproduce``'s kernels the one table the run read, which its report's paper
        column shows too), read once per process. The value is NaN for a qualitative claim too.
    """
    return _paper_row(artefact, quantity, paper_values) or (math.nan, "")


# --------------------------------------------------------------------------- claims


def claim(
    artefact: str,
    quantity: str,
    value,
    unit: str,
    note: str,
    shape_ok=None,
    seed=None,
    model: str = "papers_node",
    role=None,
    reason=None,
) -> dict:
    """One claim record (see the module docstring); a non-finite ``value`` becomes None.

    ``note`` says how the value was computed; ``shape_ok`` is the artefact's check of a
    qualitative claim (a number is judged by its number: :mod:`pqlab.papers.judge`);
    ``reason`` (:func:`pqlab.papers.judge.reason`) says, with numbers, why the result is what it
    is (every measured result that differs needs one). ``model`` and ``role`` are those of
    :func:`pqlab.papers.records.record` (the test-bed model's records name it and their role in
    the calibration protocol).
    """
    value = None if value is None or not math.isfinite(float(value)) else float(value)
    return {
        "quantity": quantity,
        "value": value,
        "unit": unit,
        "note": note,
        "shape_ok": None if shape_ok is None else bool(shape_ok),
        "seed": None if seed is None else int(seed),
        "artefact": artefact,
        "model": model,
        "role": role,
        "reason": judge.check_reason(reason),
    }


def paper_vs_ours(record: dict) -> str:
    """One printable line: the paper's value next to ours, the relative difference and the note."""
    artefact, quantity, ours = record["artefact"], record["quantity"], record["value"]
    ours_text = "qualitative" if ours is None else f"{ours:.6g} {record['unit']}"
    paper = _paper_row(artefact, quantity)
    if paper is None:
        head = f"pqlab only: {ours_text}"
    elif math.isnan(paper[0]):
        head = f"paper: qualitative claim; ours: {ours_text}"
    else:
        percent = math.nan if ours is None else judge.relative_percent(ours, paper[0])
        diff = "" if math.isnan(percent) else f" ({percent:+.1f}%)"
        head = f"paper {paper[0]:.6g} {paper[1]}; ours {ours_text}{diff}"
    shape = "" if record["shape_ok"] is None else f" [shape_ok={record['shape_ok']}]"
    why = judge.render(record.get("reason"))
    return f"{artefact} / {quantity}: {head}{shape} -- {record['note']}" + (
        f" [{why}]" if why else ""
    )


def record_claims(results_dir, claims, *, seed: int | None = None, show: bool = True) -> None:
    """Record claim records with :func:`pqlab.papers.records.record` and print each next to the
    paper's value.

    Parameters
    ----------
    results_dir : str or os.PathLike
        Folder of the run's results.
    claims : iterable of dict
        Claim records, e.g. from an ``<artefact id>_claims`` function.
    seed : int, optional
        Recorded for every claim whose own ``seed`` is None.
    show : bool
        Print :func:`paper_vs_ours` for each claim.
    """
    for c in claims:
        own = c["seed"]
        records.record(
            results_dir,
            c["artefact"],
            c["quantity"],
            c["value"],
            c["unit"],
            note=c["note"],
            shape_ok=c["shape_ok"],
            seed=seed if own is None else own,
            model=c.get("model", records.MODELS[0]),
            role=c.get("role"),
            reason=c.get("reason"),
        )
        if show:
            print(paper_vs_ours(c))


#: The ``role`` attr of a Dataset variable a claim quotes in the claim's own unit (the paper's
#: milliseconds, say), not in SI: :func:`add_claim_values`.
CLAIM_VALUE_ROLE = "claim value"


def add_claim_values(ds: xr.Dataset, values: dict) -> xr.Dataset:
    """Add the numbers an artefact's claims quote to its Dataset (in place; returned).

    Parameters
    ----------
    ds : xarray.Dataset
        The artefact's Dataset.
    values : dict
        name -> ``(value, units, long_name)``; ``value`` a number, a boolean or a DataArray
        (kept on its dimensions), in the unit the claim states (its ``units`` attr says which;
        the variable's ``role`` attr is :data:`CLAIM_VALUE_ROLE`).
    """
    added = {}
    for name, (value, unit, long_name) in values.items():
        attrs = {"units": unit, "long_name": long_name, "role": CLAIM_VALUE_ROLE}
        if isinstance(value, xr.DataArray) and value.ndim:
            added[name] = (value.dims, value.values, attrs)
        else:
            value = value.values.item() if isinstance(value, xr.DataArray) else value
            scalar = bool(value) if isinstance(value, (bool, np.bool_)) else float(value)
            added[name] = ((), scalar, attrs)
    ds.update(added)  # one merge for all: a merge per variable cost more than the values
    return ds


@functools.lru_cache(maxsize=1)
def _claim_rules() -> dict:
    """(artefact, quantity) -> (unit, variable, check, params) of the shipped papers' values."""
    table = records.load_paper_values(locations.DATA / "paper_values.csv")
    columns = [
        table.get(c, pd.Series([""] * len(table))).map(records.cell_text)
        for c in ("variable", "check", "params")
    ]
    return {
        (a, q): (u, v, c, judge.parse_params(p))
        for a, q, u, v, c, p in zip(table.artefact, table.quantity, table.unit, *columns)
    }


def claims(artefact, data) -> list[dict]:
    """The claim records of an artefact's Dataset, as the data files declare them.

    One record per row of ``data/claim_notes.csv`` for the artefact, in its order: the number is
    the Dataset variable its paper row (``data/paper_values.csv``, column ``variable``) or its
    note row names, in that row's unit (the variable's ``units``); a statement's ``shape_ok`` is
    the judge's check of the row (:func:`pqlab.papers.judge.check`, columns ``check`` and
    ``params``); the note and the reason are the rows' templates filled with the Dataset's numbers
    (:func:`pqlab.papers.judge.fill`, :func:`pqlab.papers.judge.reason_from`).

    Parameters
    ----------
    artefact : pqlab.papers.registry.Artefact or str
        The artefact (or its id).
    data : xarray.Dataset
        What its ``compute`` returned.

    Returns
    -------
    list of dict
        Claim records (:func:`claim`).

    Raises
    ------
    ValueError
        If ``data`` is not the artefact's, or a row names a variable the Dataset lacks or whose
        unit differs.
    """
    art = artefact_id(artefact)
    check_artefact(data, art)
    rules = _claim_rules()
    notes = records.load_claim_notes()
    out = []
    for row in notes[notes.artefact == art].itertuples(index=False):
        own = (row.unit, row.variable, row.check, judge.parse_params(row.params))
        unit, variable, check, params = rules.get((art, row.quantity), own)
        value = None
        if variable and not check:
            units = data[variable].attrs.get("units", "")
            if units != unit:
                raise judge.ClaimError(
                    f"{art}/{row.quantity}: variable {variable!r} is in "
                    f"{units!r}, the claim in {unit!r}"
                )
            value = float(data[variable].values)
        shape_ok, witness = judge.check(check, variable, params, data) if check else (None, {})
        paper = _paper_row(art, row.quantity)
        if paper is not None and math.isfinite(paper[0]):  # a reason may quote the paper's value
            witness = {**witness, "paper": paper}
        why = None
        if row.reason and _reason_given(row.reason_when, shape_ok, value, art, row.quantity, data):
            text = judge.fill(row.reason, data, judge.evaluate_params(params, data))  # {{f}} -> {f}
            bound = judge.parse_params(row.facts)
            kind = judge.fill(row.reason_kind, data)
            why = judge.reason_from(kind, text, data, bound, witness)
        values = judge.evaluate_params(params, data)  # a note may print a parameter or a test
        out.append(
            claim(
                art,
                row.quantity,
                value,
                unit,
                judge.fill(row.note, data, values),
                shape_ok=shape_ok,
                reason=why,
            )
        )
    return out


def _reason_given(when: str, shape_ok, value, artefact: str, quantity: str, data) -> bool:
    """Whether a claim note's reason is given: ``always`` (or empty), when the row ``fails`` (its
    check, or its number outside the tolerance), or when the condition ``when`` holds."""
    if when in ("", "always"):
        return True
    if when == "fails":
        paper = _paper_row(artefact, quantity)
        return shape_ok is False or (
            value is not None and paper is not None and not judge.within(value, paper[0])
        )
    return judge.condition(when, data)


# --------------------------------------------------------------------------- across seeds


def seed_mean_in(values: xr.DataArray, convert) -> xr.DataArray:
    """The mean over ``seed`` of ``convert(values)``: a claim's value in a paper's unit.

    ``convert`` is a :mod:`pqlab.base.units` function (``to_us``, ``to_ms``); converting
    before averaging gives the claims the same numbers whatever unit the Dataset holds.
    """
    return convert(values).mean("seed")


def statistics_in_ms(ds: xr.Dataset, statistics) -> xr.Dataset:
    """A Dataset's times in ms, with its statistics computed again from the converted values.

    ``statistics`` is the artefact's function that adds its means, CIs, differences
    and ratios to a Dataset of per-seed (or per-packet) values in whatever time unit
    they hold; it runs once in the compute function (seconds) and here on
    :func:`pqlab.base.units.times_in_ms` of the Dataset, so a claim compares the same
    numbers with the paper's milliseconds as :func:`seed_mean_in` gives: converted
    before any statistic.
    """
    return statistics(times_in_ms(ds))


def add_mean_ci(ds: xr.Dataset, names, confidence: float = CONFIDENCE) -> xr.Dataset:
    """Add ``<name>_mean`` and ``<name>_ci`` (over ``seed``, :func:`pqlab.experiments.across_seeds`)
    in place."""
    names = list(names)
    stats = experiments.across_seeds(ds[names], confidence)
    added = {}
    for name in names:
        attrs = ds[name].attrs
        mean, ci = stats[name].copy(), stats[f"{name}_ci"].copy()
        mean.attrs = {**attrs, "long_name": f"{attrs.get('long_name', name)}, mean over seeds"}
        ci.attrs = {**attrs, "long_name": f"{confidence:.0%} CI half-width of {name} over seeds"}
        added[f"{name}_mean"], added[f"{name}_ci"] = mean, ci
    ds.update(added)  # one merge for all the variables
    return ds


# --------------------------------------------------------------------------- provenance


def provenance(artefact: str, title: str, module: str, seeds=None, **extra) -> dict:
    """Dataset attrs of an artefact: its id, title, source, version, references, history (and
    seeds).

    ``references`` is the full reference of the artefact's source document
    (:func:`pqlab.papers.registry.references`).
    """
    attrs = {
        "artefact": artefact,
        **provenance_attrs(
            title=title, history=f"computed by {module}", references=registry.references(artefact)
        ),
        "Conventions": "CF-1.8",
    }
    if seeds is not None:
        attrs["seeds"] = [int(s) for s in seeds]
    attrs.update(extra)
    return attrs


# --------------------------------------------------------------------------- the position rule


#: The position rule: :func:`pqlab.papers.judge.position_ok` (the judge owns every rule).
position_ok = judge.position_ok


def position_text(last_before: float, first_after: float, paper: float) -> str:
    """The note of a position claim: whether the paper's payload lies in our drop interval.

    Parameters
    ----------
    last_before, first_after, paper : float
        As for :func:`position_ok`, bytes.

    Returns
    -------
    str
        ``"lies in our drop interval (a, b] ..."``, or ``"lies outside ..."``, the verdict of
        :func:`position_ok` in words.
    """
    side = "in" if position_ok(last_before, first_after, paper) else "outside"
    return (
        f"lies {side} our drop interval ({last_before:g}, {first_after:g}] (the same particle"
        " boundary, within one sweep step: the position rule)"
    )


# --------------------------------------------------------------------------- figures


#: Axes made by :func:`subplots` place their titles at a fixed height (just above the axes)
#: instead of matplotlib's automatic placement, which measures every tick label of the axes
#: (and of its siblings) each time a figure is drawn: 3 of 27 s of drawing the reproduction's
#: figures (2026-11-23). The same pictures, pixel for pixel, except where an axis has ticks or
#: a label on top (``subplots(top_axis=True)`` keeps the automatic placement there).
FIXED_TITLE_RC = {"axes.titley": 1.0}


def set_theme() -> None:
    """The seaborn theme of every pqlab figure."""
    sns.set_theme(style="whitegrid", context="notebook")


def subplots(
    nrows: int = 1,
    ncols: int = 1,
    *,
    figsize,
    footer: bool = False,
    top_axis: bool = False,
    **kwargs,
):
    """A new figure in the pqlab theme: ``plt.subplots`` with constrained layout.

    Parameters
    ----------
    nrows, ncols : int
        Grid of axes.
    figsize : tuple of float
        Inches.
    footer : bool
        Keep the bottom 4% free for a note written with ``fig.text``.
    top_axis : bool
        An axes will get ticks or a label on top (``secondary_xaxis("top")``): its title is
        placed above them automatically (see :data:`FIXED_TITLE_RC`).
    **kwargs
        Passed to :func:`matplotlib.pyplot.subplots` (``width_ratios``, ``gridspec_kw``, ...).

    Returns
    -------
    (matplotlib.figure.Figure, axes)
    """
    set_theme()
    with plt.rc_context({} if top_axis else FIXED_TITLE_RC):  # read when the axes are made
        fig, axes = plt.subplots(nrows, ncols, figsize=figsize, constrained_layout=True, **kwargs)
    if footer:
        fig.get_layout_engine().set(rect=(0, 0.04, 1, 0.96))
    return fig, axes


def legend_below(ax, ncol: int = 1, fontsize: float = 8, **kwargs):
    """A legend centred under ``ax``, below its tick labels and x label whatever the axes' height.

    Its top sits :func:`_below_x_label_points` under the axes' bottom edge (a distance in points
    from the theme's tick and label sizes: an offset in axes fractions touched the x label of
    short axes and left a gap under tall ones).
    """
    from matplotlib.transforms import offset_copy

    under = offset_copy(ax.transAxes, fig=ax.figure, y=-_below_x_label_points(), units="points")
    return ax.legend(
        fontsize=fontsize,
        loc="upper center",
        bbox_to_anchor=(0.5, 0.0),
        bbox_transform=under,
        ncol=ncol,
        **kwargs,
    )


#: A bar lower than this fraction of its axis is not seen: :func:`mark_flat_bars` marks it.
FLAT_BAR_FRACTION = 0.01


def mark_flat_bars(ax, positions, heights, colour) -> None:
    """Mark on the axis the bars of ``heights`` at ``positions`` too low to be seen.

    A bar under :data:`FLAT_BAR_FRACTION` of the axis' height (read from its limits, so call it
    after they are set) gets a square of its colour at its height, drawn over the axis line.
    """
    heights, positions = np.asarray(heights, dtype=float), np.asarray(positions, dtype=float)
    low = heights < FLAT_BAR_FRACTION * ax.get_ylim()[1]
    ax.plot(
        positions[low],
        heights[low],
        marker="s",
        ms=9,
        ls="none",
        color=colour,
        mec="0.3",
        clip_on=False,
        zorder=3,
    )


def _below_x_label_points() -> float:
    """Points from an axes' bottom edge to below its x label: tick, tick pad, tick label, label pad
    and label (each text line 1.25 times its font size), plus a 4-point gap."""
    import matplotlib as mpl
    from matplotlib.font_manager import FontProperties

    def line(size) -> float:
        return 1.25 * FontProperties(size=size).get_size_in_points()

    rc = mpl.rcParams
    return (
        rc["xtick.major.size"]
        + rc["xtick.major.pad"]
        + line(rc["xtick.labelsize"])
        + rc["axes.labelpad"]
        + line(rc["axes.labelsize"])
        + 4.0
    )


def delay_distribution(delay_s, *, unit_s: float, bound_s: float | None = None, title: str = ""):
    """EF delay frequency distribution and complementary distribution, in transmission units.

    Parameters
    ----------
    delay_s : array_like of float
        Delay samples, seconds (NaN, i.e. lost packets, are ignored).
    unit_s : float
        One transmission unit, seconds (0.636 ms for a 128-byte EF packet on the ATM line).
    bound_s : float, optional
        An analytical bound (e.g. Table IV's W) drawn as a vertical line, seconds.
    title : str
        Figure title.

    Returns
    -------
    matplotlib.figure.Figure
        Left: frequency distribution (probability per bin); right: P(D > d), log scale.
    """
    d = np.asarray(delay_s, dtype=float)
    d = d[np.isfinite(d)]
    frame = pd.DataFrame({"delay (transmission units)": d / unit_s})
    fig, (ax_f, ax_c) = subplots(1, 2, figsize=(10, 3.8))
    sns.histplot(frame, x="delay (transmission units)", stat="probability", binwidth=0.5, ax=ax_f)
    ax_f.set_ylabel("frequency")
    sns.ecdfplot(frame, x="delay (transmission units)", complementary=True, ax=ax_c)
    ax_c.set_yscale("log")
    ax_c.set_ylim(max(0.5 / max(d.size, 1), 1e-5), 1.05)
    ax_c.set_ylabel("P(D > d)")
    if bound_s is not None:
        for ax in (ax_f, ax_c):
            ax.axvline(bound_s / unit_s, color="C3", ls="--", label="Table IV bound W")
        ax_c.legend(loc="lower left")
    if title:
        fig.suptitle(title)
    return fig


def ci_half_widths(values, *, none_if_all_nan: bool = False) -> np.ndarray | None:
    """CI half-widths for error bars: NaN (a single seed) drawn as no bar.

    With ``none_if_all_nan`` the result is None when every half-width is NaN, so
    ``errorbar(yerr=...)`` draws no caps at all.
    """
    half = np.asarray(values, dtype=float)
    if none_if_all_nan and np.all(np.isnan(half)):
        return None
    return np.nan_to_num(half, nan=0.0)


def footer(fig, text: str) -> None:
    """The grey line at the foot of a figure: its conditions, seeds and stand-ins."""
    fig.text(0.5, 0.005, text, ha="center", va="bottom", fontsize=8, color="0.3")


def seed_count(n: int) -> str:
    """``"1 seed"``, ``"3 seeds"``."""
    return f"{n} seed{'s' if n > 1 else ''}"


# --------------------------------------------------------------------------- notebooks


#: Quick profile: EF reference packets per run at most.
QUICK_N_EF_SAMPLES = 500
#: Quick profile: seeds per point (no confidence interval across seeds).
QUICK_N_SEEDS = 1


class NotebookSetup(NamedTuple):
    """What :func:`setup` resolved: unpack it into the notebook's names."""

    figures_dir: str
    results_dir: str
    n_ef_samples: int
    n_seeds: int
    seeds: tuple


def setup(
    *,
    quick: bool,
    seed: int,
    n_seeds: int,
    n_ef_samples: int,
    figures_dir: str = "",
    results_dir: str = "",
    quick_n_ef_samples: int = QUICK_N_EF_SAMPLES,
    notebook: str | None = None,
) -> NotebookSetup:
    """Resolve a paper notebook's parameters: output folders (the figures folder is created) and
    seeds.

    Parameters
    ----------
    quick : bool
        Apply the quick profile: at most ``quick_n_ef_samples`` EF packets per run and
        :data:`QUICK_N_SEEDS` seed.
    seed : int
        First seed (>= 0); the seeds are ``seed, seed + 1, ...``.
    n_seeds : int
        Seeds per point (>= 1).
    n_ef_samples : int
        EF reference packets per run (>= 1).
    figures_dir, results_dir : str
        Output folders (``pqlab reproduce`` passes both); empty means a scratch folder named
        in the output (:func:`pqlab.base.locations.notebook_outputs`), so a notebook run by hand
        never writes into the reproduction.
    quick_n_ef_samples : int
        The quick profile's EF packets per run for this notebook
        (default :data:`QUICK_N_EF_SAMPLES`).
    notebook : str, optional
        The notebook's name, naming its scratch folder.

    Returns
    -------
    NotebookSetup
        ``(figures_dir, results_dir, n_ef_samples, n_seeds, seeds)``, folders as str.
    """
    if not isinstance(quick, bool):
        raise ValueError(f"quick must be True or False, got {quick!r}")
    seed = check_int("seed", seed, 0)
    n_seeds = check_int("n_seeds", n_seeds, 1, 1_000)
    n_ef_samples = check_int("n_ef_samples", n_ef_samples, 1, 10_000_000_000)
    if quick:
        n_ef_samples = min(n_ef_samples, check_int("quick_n_ef_samples", quick_n_ef_samples, 1))
        n_seeds = QUICK_N_SEEDS
    figures, results = locations.notebook_outputs(figures_dir, results_dir, notebook)
    return NotebookSetup(
        figures, results, n_ef_samples, n_seeds, tuple(range(seed, seed + n_seeds))
    )
