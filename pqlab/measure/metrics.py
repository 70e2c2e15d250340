"""Measurements computed from the engine's per-packet ``xarray.Dataset``.

The papers' metrics (GLOBECOM'01 Sec. III; the long version's Sec. 4; the
TF-TANT slides' "Metrics"):

* :func:`one_way_delay`: RFC 2679 one-way delay, node delay plus the path's
  fixed part (:class:`pqlab.node.path.PathModel`).
* :func:`ipdv` and :func:`jitter`: RFC 3393 IP packet delay variation of
  consecutive packets of one flow, and its absolute value; built on
  :func:`ipdv_of_delays`, :func:`jitter_of_ipdv` and :func:`jitter_of_delays`,
  the same of delays already in sending order (the one place both are computed).
* :func:`loss`: sent, policed, queue-full, early-dropped (RED/WRED) and lost packets per flow,
  class or colour.
* :func:`measured`: the measured packets of a dataset, of one traffic class (by name) or flow.
* :func:`frequency_distribution` and :func:`ccdf`: the papers' frequency
  distributions and complementary distributions ``P(D > d)``.
* :func:`aggregation_degree`: ``A = 1 - l_max / L_BA`` (GLOBECOM'01 eq. 1).
* :func:`summary`: count, mean, std, min, max and percentiles of a sample.

Functions taking a dataset need the engine's variables (``arrival``,
``departure``, ``size``, ``queue``, ``drop``) on dimension ``packet``; the
per-flow ones also need an integer ``flow`` variable (added by
:mod:`pqlab.node.scenario`).

**Warm-up**: every function taking a dataset measures the packets that arrive at or after the
dataset's warm-up, its attribute ``warmup_s`` (recorded by :func:`pqlab.simulate`; none: every
packet), and an IPDV pair only of two such packets: the one rule of :mod:`pqlab.node.measured`,
which the streaming summaries apply too. ``include_warmup=True`` measures every packet.
The summary table of every class or flow is :func:`pqlab.measure.tables.summary_table`.
"""

from __future__ import annotations

import json
from collections import namedtuple
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import xarray as xr

from ..base._validate import check_array, check_choice, check_int, check_real, shown
from ..base.percentiles import check_percentiles, percentile_names
from ..node.engine import EARLY_DROP, KEPT, POLICED, QUEUE_FULL
from ..node.markers import COLOUR_NAMES, UNMARKED
from ..node.measured import CLASS_COORD_ATTRS, dataset_class_names, measured_packets, resolve_class
from ..node.path import PathModel
from ..node.summary import DROP_CODES, check_kept_departures

__all__ = [
    "FrequencyDistribution",
    "CCDF",
    "one_way_delay",
    "ipdv",
    "jitter",
    "ipdv_of_delays",
    "jitter_of_ipdv",
    "jitter_of_delays",
    "loss",
    "measured",
    "largest_loss",
    "frequency_distribution",
    "ccdf",
    "aggregation_degree",
    "summary",
    "check_percentiles",
]


#: Most bins :func:`frequency_distribution` builds, a guard against a tiny ``bin_width``.
MAX_BINS = 10_000_000

FrequencyDistribution = namedtuple("FrequencyDistribution", ["bin_edges", "probability"])
FrequencyDistribution.__doc__ = """Relative frequency of a sample per bin.

Fields
------
bin_edges : numpy.ndarray
    ``n + 1`` edges in the sample's units; bin ``i`` is ``[bin_edges[i], bin_edges[i+1])``.
probability : numpy.ndarray
    ``n`` fractions of the sample per bin, summing to 1.
"""

CCDF = namedtuple("CCDF", ["threshold", "probability"])
CCDF.__doc__ = """Complementary distribution of a sample.

Fields
------
threshold : numpy.ndarray
    Thresholds ``d`` in the sample's units.
probability : numpy.ndarray
    ``P(D > d)`` at each threshold, in [0, 1].
"""


# --------------------------------------------------------------------------- helpers


def check_dataset(ds, variables) -> xr.Dataset:
    """Check ``ds`` is an engine dataset holding ``variables`` on dimension ``packet``."""
    if not isinstance(ds, xr.Dataset):
        raise ValueError(
            f"ds must be an xarray.Dataset from pqlab.simulate_arrivals, got {type(ds).__name__}"
        )
    for name in variables:
        if name not in ds.variables:
            hint = " (pqlab.node.scenario adds it)" if name == "flow" else ""
            raise ValueError(
                f"ds must have a '{name}' variable on dimension 'packet'{hint}, it has none"
            )
        if ds[name].dims != ("packet",):
            raise ValueError(f"ds['{name}'] must have dimension ('packet',), got {ds[name].dims}")
    return ds


def check_flow(ds, flow) -> int:
    """``flow`` as an int if it is a flow of ``ds`` (which has a ``flow`` variable; or a mapping
    of variable names to arrays, :func:`pqlab.node.scenario.simulate_runs`)."""
    flow = check_int("flow", flow)
    flows = np.asarray(ds["flow"])  # ds may also be a mapping of names to arrays (a run's)
    if not np.any(flows == flow):
        raise ValueError(
            f"flow must be one of the flows in ds {np.unique(flows).tolist()}, got {flow!r}"
        )
    return flow


def _check_path(path) -> PathModel:
    if path is None:
        return PathModel()
    if not isinstance(path, PathModel):
        raise ValueError(
            f"path must be a pqlab.node.path.PathModel or None, got {type(path).__name__}"
        )
    return path


def _sample(name: str, values) -> np.ndarray:
    """``values`` as a 1-D float array with NaN (lost packets) removed; infinities rejected."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array, got an array of shape {arr.shape}")
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number):
        raise ValueError(f"{name} must hold numbers, got dtype {arr.dtype}")
    arr = arr.astype(np.float64)
    if np.any(np.isinf(arr)):
        bad = int(np.flatnonzero(np.isinf(arr))[0])
        raise ValueError(f"{name} must be finite or NaN, got {arr[bad]!r} at index {bad}")
    return arr[~np.isnan(arr)]


def _numbers(name: str, values) -> np.ndarray:
    """``values`` as a float64 array of any shape (no copy if it is one), numbers only."""
    arr = np.asarray(values)
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number):
        raise ValueError(f"{name} must hold numbers, got dtype {arr.dtype}")
    return arr.astype(np.float64, copy=False)


def _check_dropna(dropna) -> bool:
    if not isinstance(dropna, (bool, np.bool_)):
        raise ValueError(f"dropna must be True or False, got {dropna!r}")
    return bool(dropna)


def _nonempty_sample(name: str, values) -> np.ndarray:
    sample = _sample(name, values)
    if sample.size == 0:
        raise ValueError(f"{name} must hold at least one value that is not NaN, got none")
    return sample


# --------------------------------------------------------------------------- delay


def one_way_delay(
    ds: xr.Dataset, path: PathModel | None = None, *, include_warmup: bool = False
) -> xr.DataArray:
    """One-way delay of every measured packet, seconds (RFC 2679).

    ``D = departure - arrival + path.extra_delay_s(size)``: the node's delay
    (waiting, ring and the packet's own line time) plus the fixed,
    size-dependent delay of the uncongested rest of the path.

    Parameters
    ----------
    ds : xarray.Dataset
        Engine output (variables ``arrival``, ``departure``, ``size``; ``drop``
        is used when present).
    path : PathModel, optional
        The path outside the node; ``None`` means ``PathModel()`` (no extra delay).
    include_warmup : bool
        ``False`` (default): the packets arriving at or after ``ds.attrs["warmup_s"]`` only (the
        warm-up rule, :mod:`pqlab.node.measured`); ``True``: every packet.

    Returns
    -------
    xarray.DataArray
        On dimension ``packet`` (the measured packets' labels), seconds; NaN for dropped packets.

    Raises
    ------
    ValueError
        If a kept packet (drop code 0) has no finite departure at or after its arrival (a
        hand-edited Dataset): its delay would be NaN or negative.
    """
    check_dataset(ds, ("arrival", "departure", "size"))
    path = _check_path(path)
    if "drop" in ds.variables:  # every packet's index: before the warm-up's are left out
        kept = ds["drop"].values == KEPT
        check_kept_departures(ds["departure"].values, ds["arrival"].values, kept)
    ds = measured_packets(ds, include_warmup=include_warmup)
    extra_s = np.asarray(path.extra_delay_s(ds["size"].values), dtype=np.float64)
    departure = ds["departure"]
    # numpy arithmetic on the values (xarray's aligned operators cost more than the subtraction)
    values = departure.values - ds["arrival"].values + extra_s
    if "drop" in ds.variables:
        values = np.where(ds["drop"].values == KEPT, values, np.nan)
    return xr.DataArray(
        values,
        coords=departure.coords,
        dims=departure.dims,
        name="one_way_delay",
        attrs={
            "units": "s",
            "long_name": (
                "one-way delay (RFC 2679): departure - arrival + path extra delay (NaN if lost)"
            ),
        },
    )


def ipdv(
    ds: xr.Dataset,
    flow: int | None = None,
    path: PathModel | None = None,
    *,
    dropna: bool = True,
    include_warmup: bool = False,
) -> xr.DataArray:
    """IP packet delay variation of consecutive packets of a flow, seconds (RFC 3393).

    Each flow's measured packets are taken in sending (arrival) order, equal times in
    dataset order; for each consecutive pair ``ipdv = D_{i+1} - D_i`` with
    ``D`` the :func:`one_way_delay`. A pair with a lost packet has no value
    (RFC 3393: undefined): a lost packet ``i`` voids the pairs ``(i-1, i)``
    and ``(i, i+1)``; no pair ``(i-1, i+1)`` is formed across it. Pairs are formed
    within a flow only, of two measured packets (the warm-up rule).

    Parameters
    ----------
    ds : xarray.Dataset
        Engine output with an integer ``flow`` variable.
    flow : int, optional
        The flow to measure; it must have packets in ``ds``. ``None`` (default): every flow,
        the pairs of each flow in turn, flows in increasing order (group them by the
        coordinates ``flow`` or ``queue``, e.g. per traffic class).
    path : PathModel, optional
        As in :func:`one_way_delay`; a size-independent part cancels out.
    dropna : bool
        ``True`` (default): omit undefined pairs. ``False``: keep them as NaN,
        one value per consecutive pair.
    include_warmup : bool
        As in :func:`one_way_delay`: ``True`` pairs every packet, the warm-up's too.

    Returns
    -------
    xarray.DataArray
        Dimension ``packet`` labelled by the later packet of each pair, with the
        coordinates ``previous_packet`` (the earlier one), and ``flow`` and ``queue`` (when
        ``ds`` has it) of the later packet; seconds.
    """
    check_dataset(ds, ("arrival", "departure", "size", "flow"))
    _check_dropna(dropna)
    if flow is not None:
        flow = check_flow(ds, flow)
    ds = measured_packets(ds, include_warmup=include_warmup)
    flows = ds["flow"].values
    members = np.arange(flows.size) if flow is None else np.flatnonzero(flows == flow)
    order = members[
        np.lexsort((ds["arrival"].values[members], flows[members]))
    ]  # stable: ties in ds order
    delay_s = one_way_delay(ds.isel(packet=order), path, include_warmup=True).values
    in_flow = flows[order][1:] == flows[order][:-1]  # a pair is two consecutive packets of one flow
    values = ipdv_of_delays(delay_s, dropna=False)[in_flow]
    packet_index = ds["packet"].values[order]
    coords = {
        "packet": packet_index[1:][in_flow],
        "previous_packet": ("packet", packet_index[:-1][in_flow]),
        "flow": ("packet", flows[order][1:][in_flow]),
    }
    if "queue" in ds.variables:
        coords["queue"] = ("packet", ds["queue"].values[order][1:][in_flow])
    of = "each flow" if flow is None else f"flow {flow}"
    result = xr.DataArray(
        values,
        dims="packet",
        coords=coords,
        name="ipdv",
        attrs={
            "units": "s",
            "long_name": f"IPDV (RFC 3393) D[i+1] - D[i] of consecutive packets of {of}",
        },
    )
    return result.dropna("packet") if dropna else result


def jitter(
    ds: xr.Dataset,
    flow: int | None = None,
    path: PathModel | None = None,
    *,
    dropna: bool = True,
    include_warmup: bool = False,
) -> xr.DataArray:
    """Jitter ``|D_{i+1} - D_i|`` of consecutive packets of a flow, seconds.

    The papers' "common usage" jitter (long version Sec. 4; RFC 3393
    "ipdv-jitter"): the absolute value of :func:`ipdv`, same arguments.
    """
    result = ipdv(ds, flow, path, dropna=dropna, include_warmup=include_warmup)
    result = result.copy(data=jitter_of_ipdv(result.values))
    result.name = "jitter"
    of = "each flow" if flow is None else f"flow {flow}"
    result.attrs = {
        "units": "s",
        "long_name": f"jitter |D[i+1] - D[i]| of consecutive packets of {of}",
    }
    return result


def ipdv_of_delays(delay_s: npt.ArrayLike, *, dropna: bool = True) -> np.ndarray:
    """IPDV (RFC 3393) of consecutive packets given their one-way delays in sending order, seconds.

    For each consecutive pair ``ipdv = D_{i+1} - D_i``. A pair with a lost
    packet (delay NaN) has no value (RFC 3393: undefined): a lost packet ``i``
    voids the pairs ``(i-1, i)`` and ``(i, i+1)``; no pair ``(i-1, i+1)`` is
    formed across it.

    Parameters
    ----------
    delay_s : array_like
        1-D one-way delays of one flow's packets in sending order, seconds;
        NaN for a lost packet.
    dropna : bool
        ``True`` (default): omit undefined pairs. ``False``: keep them as NaN,
        one value per consecutive pair (``len(delay_s) - 1`` values).

    Returns
    -------
    numpy.ndarray
        1-D float64, seconds, in the order of the pairs.
    """
    delay = _numbers("delay_s", delay_s)
    if delay.ndim != 1:
        raise ValueError(f"delay_s must be a 1-D array, got an array of shape {delay.shape}")
    if np.any(np.isinf(delay)):
        bad = int(np.flatnonzero(np.isinf(delay))[0])
        raise ValueError(f"delay_s must be finite or NaN, got {delay[bad]!r} at index {bad}")
    values = delay[1:] - delay[:-1]
    return values[~np.isnan(values)] if _check_dropna(dropna) else values


def jitter_of_ipdv(ipdv_s: npt.ArrayLike) -> np.ndarray:
    """Jitter ``|IPDV|``, the papers' "common usage" jitter (long version Sec. 4), seconds.

    Parameters
    ----------
    ipdv_s : array_like
        IPDV values of any shape (e.g. :func:`ipdv_of_delays`, or several runs
        padded with NaN), seconds; NaN stays NaN.

    Returns
    -------
    numpy.ndarray
        float64 of the same shape, seconds.
    """
    return np.abs(_numbers("ipdv_s", ipdv_s))


def jitter_of_delays(delay_s: npt.ArrayLike, *, dropna: bool = True) -> np.ndarray:
    """Jitter ``|D_{i+1} - D_i|`` of consecutive packets given their delays in sending order,
    seconds.

    :func:`jitter_of_ipdv` of :func:`ipdv_of_delays`, same arguments: a pair
    with a lost (NaN) packet has no value.

    Returns
    -------
    numpy.ndarray
        1-D float64, seconds.
    """
    return jitter_of_ipdv(ipdv_of_delays(delay_s, dropna=dropna))


# --------------------------------------------------------------------------- loss


#: What :func:`loss` groups by, and the variable of ``ds`` each reads.
LOSS_GROUPS = {"flow": "flow", "class": "queue", "queue": "queue", "colour": "colour"}


def loss(
    ds: xr.Dataset,
    by: str = "flow",
    *,
    include_warmup: bool = False,
    class_names: Sequence[str] | None = None,
) -> xr.Dataset:
    """Packets sent and lost per flow, per traffic class (queue) or per colour.

    Parameters
    ----------
    ds : xarray.Dataset
        Engine output (``drop``; ``flow``, ``queue`` or ``colour``; ``arrival`` when it has
        a warm-up).
    by : {"flow", "class", "queue", "colour"}
        Group by the ``flow`` variable (result dimension ``flow``), by the traffic class, the
        ``queue`` index (``"class"`` or its older name ``"queue"``: result dimension
        ``traffic_class``, labelled by queue index, with the coordinate ``class_name``) or by
        the markers' ``colour`` (result dimension ``colour``: 0 green, 1 yellow, 2 red; node
        contract rule 1a; with the coordinate ``colour_name``): the packets no marker of the
        scenario recorded in ``ds`` (``ds.attrs["scenario"]``) colours, neither their stream's
        nor their class's (``Scenario.class_markers``), are the group :data:`UNMARKED` (-1),
        not green.
    include_warmup : bool
        ``False`` (default): the packets arriving at or after ``ds.attrs["warmup_s"]`` only (the
        warm-up rule, :mod:`pqlab.node.measured`); ``True``: every packet.
    class_names : sequence of str, optional
        The classes' labels, one per queue index (default: the names of the node recorded in
        ``ds``, else ``"queue <index>"``; :func:`pqlab.node.measured.dataset_class_names`).

    Returns
    -------
    xarray.Dataset
        Variables ``sent``, ``policed`` (drop code 1), ``queue_full`` (drop
        code 2), ``early_drop`` (drop code 3, RED/WRED), ``lost`` (their sum) in packets and
        ``loss_ratio`` = ``lost / sent`` (1), one value per group present in the measured packets.
    """
    check_choice("by", by, tuple(LOSS_GROUPS))
    variable = LOSS_GROUPS[by]
    check_dataset(ds, ("drop", variable))
    names = dataset_class_names(ds, class_names) if variable == "queue" else None
    ds = measured_packets(ds, include_warmup=include_warmup)
    labels = _integer_labels(ds, variable)
    if by == "colour":
        unmarked = _unmarked_packets(ds)
        labels = labels if unmarked is None else np.where(unmarked, UNMARKED, labels)
    groups, inverse = np.unique(labels, return_inverse=True)
    drop = ds["drop"].values
    unknown = np.flatnonzero(~np.isin(drop, DROP_CODES))
    if unknown.size:  # a packet counted as sent and neither kept nor lost
        i = int(unknown[0])
        at = f"packet {shown(ds['packet'].values[i])}" if "packet" in ds.coords else f"index {i}"
        raise ValueError(
            "ds['drop'] must hold the engine's drop codes (0 kept, 1 policed, 2 "
            f"queue full, 3 early drop), got {shown(drop[i])} at {at}"
        )
    n = groups.size

    def count(mask):
        return np.bincount(inverse[mask], minlength=n).astype(np.int64)

    sent = np.bincount(inverse, minlength=n).astype(np.int64)
    policed = count(drop == POLICED)
    queue_full = count(drop == QUEUE_FULL)
    early_drop = count(drop == EARLY_DROP)
    lost = policed + queue_full + early_drop
    dim = "traffic_class" if variable == "queue" else by
    coords: dict[str, Any] = {dim: groups}
    if names is not None:
        coords["class_name"] = (
            dim,
            [names[g] for g in groups],
            dict(CLASS_COORD_ATTRS["class_name"]),
        )
    if by == "colour":
        coords["colour_name"] = (dim, [COLOUR_NAMES.get(int(g), str(g)) for g in groups])
    packets = {"units": "packets"}
    return xr.Dataset(
        {
            "sent": (dim, sent, {**packets, "long_name": "packets offered to the node"}),
            "policed": (dim, policed, {**packets, "long_name": "packets dropped by the policer"}),
            "queue_full": (
                dim,
                queue_full,
                {**packets, "long_name": "packets dropped at a full queue"},
            ),
            "early_drop": (
                dim,
                early_drop,
                {**packets, "long_name": "packets dropped early by RED/WRED"},
            ),
            "lost": (
                dim,
                lost,
                {**packets, "long_name": "packets lost (policed + queue_full + early_drop)"},
            ),
            "loss_ratio": (dim, lost / sent, {"units": "1", "long_name": "lost / sent"}),
        },
        coords=coords,
    )


def _unmarked_packets(ds: xr.Dataset) -> np.ndarray | None:
    """Whether each packet of ``ds`` is coloured by no marker, from the scenario recorded in
    ``ds.attrs["scenario"]`` (its streams' flows with a marker, its ``class_markers``' queues);
    None when ``ds`` records none."""
    try:
        scenario = json.loads(ds.attrs["scenario"])
        marked = [s["flow"] for s in scenario["streams"] if s.get("marker") is not None]
        classes = [c["queue"] for c in scenario.get("class_markers", [])]
    except (KeyError, TypeError, ValueError, AttributeError):  # not recorded, or no scenario's
        return None
    if "flow" not in ds.variables or (classes and "queue" not in ds.variables):
        return None
    by_class = np.isin(ds["queue"].values, classes) if classes else False
    return ~(np.isin(ds["flow"].values, marked) | by_class)


def _integer_labels(ds: xr.Dataset, variable: str) -> np.ndarray:
    """``ds[variable]`` as integers (e.g. after ``ds.where(...)``: NaN-free integers stored as
    floats)."""
    labels = ds[variable].values
    if np.issubdtype(labels.dtype, np.floating):
        if not np.all(np.isfinite(labels)) or np.any(labels != np.round(labels)):
            raise ValueError(f"ds['{variable}'] must hold integers, got non-integral or NaN values")
        labels = labels.astype(np.int64)
    return labels


def measured(
    ds: xr.Dataset,
    *,
    traffic_class: int | str | None = None,
    flow: int | None = None,
    include_warmup: bool = False,
    class_names: Sequence[str] | None = None,
) -> xr.Dataset:
    """The measured packets of ``ds`` (the warm-up rule), of one traffic class and/or flow.

    Parameters
    ----------
    ds : xarray.Dataset
        Engine output (``queue`` for ``traffic_class``, ``flow`` for ``flow``).
    traffic_class : str or int, optional
        A class name (``"voice"``, see ``class_names``) or a queue index; ``None``: every class.
    flow : int, optional
        A flow of ``ds``; ``None``: every flow.
    include_warmup : bool
        ``True``: the warm-up's packets too.
    class_names : sequence of str, optional
        As in :func:`loss`.

    Returns
    -------
    xarray.Dataset
        The packets selected (``isel``: dtypes, ``packet`` labels and attrs kept), e.g. for
        :func:`one_way_delay` and :func:`ccdf` of one class.
    """
    check_dataset(ds, ("queue",) if traffic_class is not None else ())
    keep = np.ones(ds.sizes.get("packet", 0), bool)
    if traffic_class is not None:
        index = resolve_class(traffic_class, dataset_class_names(ds, class_names))
        keep &= ds["queue"].values == index
    if flow is not None:
        check_dataset(ds, ("flow",))
        keep &= ds["flow"].values == check_flow(ds, flow)
    if not keep.all():
        ds = ds.isel(packet=np.flatnonzero(keep))
    return measured_packets(ds, include_warmup=include_warmup)


# --------------------------------------------------------------------------- distributions


def largest_loss(loss_per_run: npt.ArrayLike) -> float:
    """The largest EF loss ratio over runs (seeds): the statistic of the slide's "up to 12 %".

    The one definition of the TF-TANT slides' 20-stream loss, for the papers' node
    (:mod:`pqlab.papers.tftant_slides.tftant_slides_loss`) and the test-bed model
    (:mod:`pqlab.papers.testbed_eval`): a maximum, as the slide's "up to", not a mean.

    Parameters
    ----------
    loss_per_run : array_like of float
        Loss ratios (1) of the runs, one per seed (NaN: a run not made, ignored).

    Returns
    -------
    float
        The largest, ratio (1).

    Raises
    ------
    ValueError
        If no run has a finite loss ratio.
    """
    values = np.asarray(loss_per_run, dtype=float).ravel()
    values = values[np.isfinite(values)]
    if values.size == 0:
        raise ValueError(
            "loss_per_run must hold at least one finite loss ratio (one per seed), got"
            f" {loss_per_run!r}"
        )
    return float(values.max())


def frequency_distribution(
    values: npt.ArrayLike, bin_width: float, start: float = 0.0
) -> FrequencyDistribution:
    """Relative frequency of a sample in bins of equal width (the papers' frequency distributions).

    Bins are ``[start + i * bin_width, start + (i + 1) * bin_width)`` for
    ``i = 0 .. n - 1``, as many as needed to hold the largest value. NaN
    (lost packets) is ignored.

    Parameters
    ----------
    values : array_like of float
        The sample (e.g. one-way delay, seconds), 1-D; finite or NaN.
    bin_width : float
        Bin width, in the sample's units (> 0).
    start : float
        Left edge of the first bin (<= every value), e.g. negative for IPDV.

    Returns
    -------
    FrequencyDistribution
        ``(bin_edges, probability)``; ``probability`` sums to 1.
    """
    sample = _nonempty_sample("values", values)
    width = check_real("bin_width", bin_width, 0.0, strict_minimum=True)
    start = check_real("start", start)
    if sample.min() < start:
        smallest = float(sample.min())
        raise ValueError(
            f"start must be <= every value (the smallest is {smallest!r}), got {start!r}"
        )
    with np.errstate(over="ignore"):  # an overflow to inf is caught just below
        n_bins = np.floor((sample.max() - start) / width) + 1.0
    if not n_bins <= MAX_BINS:
        raise ValueError(
            f"bin_width must give at most {MAX_BINS} bins over the sample, got {width!r}"
            f" ({n_bins:.3g} bins)"
        )
    n_bins = int(n_bins)
    edges = start + width * np.arange(n_bins + 1)
    if edges[-1] <= sample.max():  # float rounding of the edges
        edges = np.append(edges, edges[-1] + width)
    index = np.searchsorted(edges, sample, side="right") - 1
    counts = np.bincount(index, minlength=edges.size - 1)
    return FrequencyDistribution(edges, counts / sample.size)


def ccdf(values: npt.ArrayLike, thresholds: npt.ArrayLike | None = None) -> CCDF:
    """Complementary distribution ``P(D > d)`` of a sample (GLOBECOM'01 Figs. 5, 7-2).

    Parameters
    ----------
    values : array_like of float
        The sample, 1-D; finite or NaN (NaN ignored).
    thresholds : array_like of float, optional
        Thresholds ``d``, finite; default: the sorted unique sample values.

    Returns
    -------
    CCDF
        ``(threshold, probability)`` with ``probability[i]`` the fraction of
        the sample strictly greater than ``threshold[i]``.
    """
    sample = np.sort(_nonempty_sample("values", values))
    if thresholds is None:
        d = np.unique(sample)
    else:
        d = check_array("thresholds", thresholds, kind="float")
    above = sample.size - np.searchsorted(sample, d, side="right")
    return CCDF(d, above / sample.size)


# --------------------------------------------------------------------------- units and summaries


def aggregation_degree(loads_bps: npt.ArrayLike) -> float:
    """Aggregation Degree ``A = 1 - l_max / L_BA`` of a behaviour aggregate (GLOBECOM'01 eq. 1).

    Parameters
    ----------
    loads_bps : array_like of float
        Load of each micro-flow of the aggregate, bit/s (>= 0, sum > 0).
        ``l_max`` is the largest, ``L_BA`` the sum.

    Returns
    -------
    float
        ``A`` in ``[0, 1)``: 0 for a single flow, near 1 for many tiny flows.
        300 kbit/s as six 50 kbit/s streams gives 5/6 (printed 1/6 in the
        header of the paper's Table III, an erratum).
    """
    loads = check_array("loads_bps", loads_bps, kind="float", minimum=0.0)
    if loads.size == 0 or loads.sum() <= 0.0:
        raise ValueError("loads_bps must hold at least one load > 0, got a total load of 0")
    return float(1.0 - loads.max() / loads.sum())


def summary(values: npt.ArrayLike, percentiles: Sequence[float] = (50.0, 90.0, 99.0)) -> dict:
    """Count, mean, std, min, max and percentiles of a sample, NaN ignored.

    Parameters
    ----------
    values : array_like of float
        The sample (e.g. one-way delay, seconds); finite or NaN.
    percentiles : sequence of float
        Percentiles in [0, 100] to report (linear interpolation); percents, not fractions: a
        list whose values are all at most 1 (``(0.5, 0.99)``) is ambiguous and refused
        (:func:`check_percentiles`).

    Returns
    -------
    dict
        ``count`` (non-NaN values), ``lost`` (NaN values), then ``mean``,
        ``std`` (sample standard deviation, ddof=1; NaN for one value),
        ``min``, ``max`` and ``p<q>`` (e.g. ``p99``) in the sample's units.
    """
    total = np.asarray(values).size
    sample = _nonempty_sample("values", values)
    q = check_percentiles(percentiles)
    out = {
        "count": int(sample.size),
        "lost": int(total - sample.size),
        "mean": float(sample.mean()),
        "std": float(sample.std(ddof=1)) if sample.size > 1 else float("nan"),
        "min": float(sample.min()),
        "max": float(sample.max()),
    }
    for key, v in zip(percentile_names(q), np.percentile(sample, q)):
        out[key] = float(v)
    return out
