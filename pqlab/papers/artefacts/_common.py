"""What every artefact module shares: seeds, the papers' values, claim records, CIs, provenance.

A *claim record* is the one shape in which every ``<artefact id>_claims(data)``
function returns what a notebook records: a dict with ``quantity`` (the key of
``data/paper_values.csv``, or a new one), ``value`` (in the paper row's unit,
None for a qualitative claim), ``unit``, ``note`` (one computed line),
``shape_ok`` (whether the paper's shape or trend holds, None if not judged),
``seed`` (None: the notebook's seed is recorded) and ``artefact``.
:func:`record_claims` records a list of them with :func:`pqlab.papers.records.record`
and prints the paper's value next to ours (:func:`paper_vs_ours`).
"""

from __future__ import annotations

import functools
import math
import warnings

import numpy as np
import pandas as pd
import xarray as xr

from ...measure import experiments
from .. import records
from ...measure.analysis import CONFIDENCE, mean_ci  # noqa: F401  (re-exported for the artefact modules)
from ...base import locations
from ...base.provenance import provenance_attrs
from . import registry
from ...base._validate import check_array, check_int, check_real
from ...node.model import Node
from ...node.path import PathModel
from ...node.scenario import Scenario
from ..presets import BE_QUEUE, EF_QUEUE, ETHERNET_FRAME_OVERHEAD_BYTES, paper_path
from ..stated import PAPERS
from ...node.traffic import UDP_IP_HEADER_BYTES
from ...base.units import times_in_ms

#: Largest BE IP packet (Ethernet MTU), bytes: GLOBECOM'01 Sec. II "the MTU size is 1500 by".
MTU_BYTES = 1500
#: BE UDP payload of an MTU packet (IP length 1500 bytes), bytes.
MTU_PAYLOAD_BYTES = MTU_BYTES - UDP_IP_HEADER_BYTES
#: Reference stream rates of GLOBECOM'01 Tables II-III, bit/s of frames (A = 5/6, 2/3, 1/3, 0).
REF_RATES_BPS = (50e3, 100e3, 200e3, 300e3)
#: Keys of a claim record, in order.
CLAIM_KEYS = ("quantity", "value", "unit", "note", "shape_ok", "seed", "artefact", "model", "role")


# --------------------------------------------------------------------------- arguments


def check_values(name: str, values, minimum, *, integer: bool = False, strict: bool = True) -> list:
    """``values`` as a non-empty list of distinct numbers >= ``minimum`` (> with ``strict``, reals only).

    ``integer``: ints (:func:`pqlab.base._validate.check_int`), else finite reals; a
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
    """``seeds`` as a non-empty list of distinct ints >= 0 (``ValueError`` naming ``seeds`` otherwise)."""
    return check_values("seeds", seeds, 0, integer=True)


def check_n_ef_samples(n_ef_samples, minimum: int = 2, maximum: int = 10_000_000) -> int:
    """EF reference packets per run, an int in ``[minimum, maximum]``."""
    return check_int("n_ef_samples", n_ef_samples, minimum, maximum)


def check_ks(ks) -> list[int]:
    """Transmission units a BE packet fills (Table IV's ``k``): a non-empty list of ints in [1, 100]."""
    arr = check_array("ks", list(ks), kind="int", minimum=1, maximum=100)
    if arr.size == 0:
        raise ValueError("ks must hold at least one k, got none")
    return [int(k) for k in arr]


def check_bool(name: str, value) -> bool:
    """``value`` if it is True or False (numpy's too), else ``ValueError`` naming ``name``."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def renamed_keyword(function: str, name: str, value, default, old_name: str, old_value):
    """The value of keyword ``name`` of ``function``, or of its deprecated former name ``old_name``.

    ``old_value`` None (not given): ``value``. Else a ``FutureWarning`` pointing at the caller of
    ``function``, and ``old_value``; a ``ValueError`` if ``value`` was given too (it is not
    ``default``, the very object of the signature).
    """
    if old_value is None:
        return value
    warnings.warn(f"{function}: {old_name} is deprecated, use {name}", FutureWarning, stacklevel=3)
    if value is not default:
        raise ValueError(f"give {name} or its deprecated name {old_name}, not both")
    return old_value


def check_artefact(data, artefact: str):
    """``data`` if it was made by the compute function of ``artefact`` (its ``attrs['artefact']``)."""
    attrs = getattr(data, "attrs", None)
    if not isinstance(data, (xr.Dataset, pd.DataFrame)) or attrs.get("artefact") != artefact:
        raise ValueError(f"data must be what pqlab.papers.artefacts computes for {artefact!r} "
                         f"(attrs['artefact'] == {artefact!r}), got {type(data).__name__}")
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
        raise ValueError(f"path must be a pqlab.node.path.PathModel or None, got {type(path).__name__}")
    return node, path


# --------------------------------------------------------------------------- streams of a preset


def ef_streams(scenario: Scenario) -> list:
    """The scenario's EF streams (priority queue), reference stream first."""
    return [s for s in scenario.streams if s.queue == EF_QUEUE]


def be_streams(scenario: Scenario) -> list:
    """The scenario's best-effort streams."""
    return [s for s in scenario.streams if s.queue == BE_QUEUE]


def frame_rate_bps(stream) -> float:
    """Rate of an EF stream counted on Ethernet frames (IP + 18 bytes, how the papers state EF loads), bit/s."""
    ip = stream.size.mean_bytes + stream.header_bytes
    return stream.rate_bps * (ip + ETHERNET_FRAME_OVERHEAD_BYTES) / ip


# --------------------------------------------------------------------------- the papers' values


def _paper_index() -> dict:
    return _paper_index_of(locations.paper_values_file())


@functools.lru_cache(maxsize=2)
def _paper_index_of(path) -> dict:
    return _index(records.load_paper_values(path))


def _index(table: pd.DataFrame) -> dict:
    return {(a, q): (float(v), str(u)) for a, q, v, u in zip(table.artefact, table.quantity, table.value, table.unit)}


def _paper_row(artefact: str, quantity: str, paper_values=None):
    index = _paper_index() if paper_values is None else _index(paper_values)
    return index.get((artefact, quantity))


def paper_value(artefact: str, quantity: str, paper_values: pd.DataFrame | None = None) -> tuple[float, str]:
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


def claim(artefact: str, quantity: str, value, unit: str, note: str, shape_ok=None, seed=None,
          model: str = "papers_node", role=None) -> dict:
    """One claim record (see the module docstring); a non-finite ``value`` becomes None.

    ``model`` and ``role`` are those of :func:`pqlab.papers.records.record` (the test-bed model's
    records name it and their role in the calibration protocol).
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
        percent = math.nan if ours is None else records.relative_percent(ours, paper[0])
        diff = "" if math.isnan(percent) else f" ({percent:+.1f}%)"
        head = f"paper {paper[0]:.6g} {paper[1]}; ours {ours_text}{diff}"
    shape = "" if record["shape_ok"] is None else f" [shape_ok={record['shape_ok']}]"
    return f"{artefact} / {quantity}: {head}{shape} -- {record['note']}"


def record_claims(results_dir, claims, *, seed: int | None = None, show: bool = True) -> None:
    """Record claim records with :func:`pqlab.papers.records.record` and print each next to the paper's value.

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
        records.record(results_dir, c["artefact"], c["quantity"], c["value"], c["unit"], note=c["note"],
                      shape_ok=c["shape_ok"], seed=seed if own is None else own,
                      model=c.get("model", records.MODELS[0]), role=c.get("role"))
        if show:
            print(paper_vs_ours(c))


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
    """Add ``<name>_mean`` and ``<name>_ci`` (over ``seed``, :func:`pqlab.experiments.across_seeds`) in place."""
    names = list(names)
    stats = experiments.across_seeds(ds[names], confidence)
    for name in names:
        attrs = ds[name].attrs
        ds[f"{name}_mean"] = stats[name]
        ds[f"{name}_mean"].attrs = {**attrs, "long_name": f"{attrs.get('long_name', name)}, mean over seeds"}
        ds[f"{name}_ci"] = stats[f"{name}_ci"]
        ds[f"{name}_ci"].attrs = {**attrs, "long_name": f"{confidence:.0%} CI half-width of {name} over seeds"}
    return ds


# --------------------------------------------------------------------------- provenance


def provenance(artefact: str, title: str, module: str, seeds=None, **extra) -> dict:
    """Dataset attrs of an artefact: its id, title, source, version, references, history (and seeds).

    ``references`` is the full reference of the artefact's source document in
    :mod:`pqlab.papers.artefacts.registry` (:func:`~pqlab.papers.artefacts.registry.references`).
    """
    attrs = {"artefact": artefact, **provenance_attrs(title=title, history=f"computed by {module}",
                                                      references=registry.references(artefact)),
             "Conventions": "CF-1.8"}
    if seeds is not None:
        attrs["seeds"] = [int(s) for s in seeds]
    attrs.update(extra)
    return attrs
