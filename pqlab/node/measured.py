"""Which packets of a run are measured (the warm-up rule), and what a run's traffic classes are
called.

**The warm-up rule**, one for every measurement pqlab makes: a packet is *measured* when it
arrives at or after the run's warm-up, ``arrival >= warmup_s`` (:func:`is_measured`). Warm-up
packets are simulated (they fill the queues) but counted nowhere: not in delays, not in loss, and
an IPDV pair is formed only of two measured packets. The warm-up of a per-packet Dataset is its
attribute ``warmup_s`` (:func:`pqlab.simulate` records the scenario's; a Dataset without it, e.g.
:func:`pqlab.simulate_arrivals`' output, has none, so every packet is measured);
``include_warmup=True`` measures every packet instead. The metrics
(:mod:`pqlab.measure.metrics`), the summary table and the papers' measurement windows
(:func:`pqlab.measure.experiments.measurement_window`) apply it through this module, as the
streaming summaries (:mod:`pqlab.node.streaming`) apply it to each batch.

**Class names**: the packets' ``queue`` index is their traffic class; its label is the queue's
:attr:`pqlab.Queue.name`, ``"queue <index>"`` for an unnamed queue (:attr:`pqlab.Node.class_names`),
read from the node recorded in the Dataset's ``scenario`` attribute (:func:`dataset_class_names`).
"""

from __future__ import annotations

import json
import math
import numbers

import numpy as np
import xarray as xr

from .model import MAX_NAME_CHARS, Node, check_name, default_class_name

#: The attribute of a per-packet Dataset holding its warm-up, seconds.
WARMUP_ATTR = "warmup_s"
#: Attributes of the coordinates that label results per traffic class (the metrics' loss and summary
#: table; the streaming summaries' per-class totals should carry the same).
CLASS_COORD_ATTRS = {
    "traffic_class": {"long_name": "traffic class (queue index)"},
    "class_name": {"long_name": "traffic class (queue name)"},
}


def is_measured(arrival_s, warmup_s: float) -> np.ndarray:
    """The warm-up rule: whether each packet is measured, ``arrival_s >= warmup_s``.

    Parameters
    ----------
    arrival_s : array_like of float
        Arrival times, seconds.
    warmup_s : float
        The run's warm-up, seconds (0: every packet is measured).

    Returns
    -------
    numpy.ndarray
        Booleans of ``arrival_s``'s shape (a NaN arrival is not measured).
    """
    return np.asarray(arrival_s) >= warmup_s


def check_include_warmup(include_warmup) -> bool:
    """Return ``include_warmup`` as a bool if it is True or False."""
    if not isinstance(include_warmup, (bool, np.bool_)):
        raise ValueError(f"include_warmup must be True or False, got {include_warmup!r}")
    return bool(include_warmup)


def warmup_of(ds: xr.Dataset) -> float:
    """The warm-up of a per-packet Dataset, seconds: its attribute ``warmup_s``, 0 without one.

    Raises
    ------
    ValueError
        If the attribute is not a finite number >= 0.
    """
    value = ds.attrs.get(WARMUP_ATTR, 0.0)
    if isinstance(value, np.ndarray) and value.size == 1:  # a number read back from netCDF
        value = value.item()
    if (
        isinstance(value, (bool, np.bool_))
        or not isinstance(value, numbers.Real)
        or not (math.isfinite(value) and value >= 0)
    ):
        raise ValueError(
            f"ds.attrs['{WARMUP_ATTR}'] must be a finite number of seconds >= 0 (the run's warm-up,"
            f" as pqlab.simulate records it), got {value!r}"
        )
    return float(value)


def measured_packets(ds: xr.Dataset, *, include_warmup: bool = False) -> xr.Dataset:
    """The packets of ``ds`` the warm-up rule measures (all of them with ``include_warmup=True``).

    Parameters
    ----------
    ds : xarray.Dataset
        A per-packet Dataset (dimension ``packet``); ``arrival`` is needed when its warm-up is > 0.
    include_warmup : bool
        ``True``: every packet, the warm-up's too.

    Returns
    -------
    xarray.Dataset
        ``ds`` itself when every packet is measured, else its measured packets (``isel``: dtypes,
        ``packet`` labels and attrs kept).
    """
    if check_include_warmup(include_warmup):
        return ds
    warmup_s = warmup_of(ds)
    if warmup_s == 0.0:
        return ds
    if "arrival" not in ds.variables:
        raise ValueError(
            "ds must have an 'arrival' variable on dimension 'packet' to leave out its warm-up "
            f"(ds.attrs['{WARMUP_ATTR}'] = {warmup_s!r} s), it has none"
        )
    mask = is_measured(ds["arrival"].values, warmup_s)
    return ds if mask.all() else ds.isel(packet=np.flatnonzero(mask))


def dataset_class_names(ds: xr.Dataset, class_names=None) -> tuple:
    """The label of each queue index of ``ds``, in index order.

    Parameters
    ----------
    ds : xarray.Dataset
        A per-packet Dataset with a ``queue`` variable.
    class_names : sequence of str, optional
        One label per queue index, from 0 to the largest in ``ds`` (at least); default: the
        :attr:`~pqlab.Node.class_names` of the node in ``ds.attrs["scenario"]`` (recorded by
        :func:`pqlab.simulate`), else ``"queue <index>"``.

    Returns
    -------
    tuple of str
        Distinct labels, at least one per queue index of ``ds``.
    """
    queues = np.asarray(ds["queue"].values) if "queue" in ds.variables else np.zeros(0, np.int64)
    top = int(np.nanmax(queues)) if queues.size else -1
    if class_names is None:
        names = _recorded_names(ds)
        if names is None:
            return tuple(default_class_name(i) for i in range(top + 1))
        if len(names) <= top:
            raise ValueError(
                f"ds.attrs['scenario']'s node has {len(names)} queues but ds has queue index {top};"
                " pass class_names=... to name the classes yourself"
            )
        return names
    if isinstance(class_names, str) or not hasattr(class_names, "__len__"):
        raise ValueError(
            f"class_names must be a sequence of str, one per queue index, got {class_names!r}"
        )
    names = tuple(class_names)
    for i, name in enumerate(names):
        try:
            valid = isinstance(name, str) and check_name(name) == name
        except ValueError:
            valid = False
        if not valid:
            raise ValueError(
                f"class_names[{i}] must be a str of 1 to {MAX_NAME_CHARS} printable characters, "
                f"got {name!r}"
            )
    if len(names) <= top:
        raise ValueError(
            f"class_names must name every queue index in ds (0 to {top}), got {len(names)} "
            f"name{'s' if len(names) != 1 else ''}: {names!r}"
        )
    if len(set(names)) != len(names):
        raise ValueError(f"class_names must be distinct, got {names!r}")
    return names


def _recorded_names(ds: xr.Dataset) -> tuple | None:
    """The class names of the node in ``ds.attrs['scenario']``, or None if no scenario is
    recorded."""
    text = ds.attrs.get("scenario")
    if not isinstance(text, str) or not text.startswith("{"):  # none, or "not recorded"
        return None
    try:
        return Node.from_dict(json.loads(text)["node"]).class_names
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(
            "ds.attrs['scenario'] must be a scenario's JSON whose node can be read to name the "
            f"classes ({exc}); pass class_names=... to name them yourself"
        ) from None


def resolve_class(traffic_class, names: tuple) -> int:
    """The queue index of ``traffic_class``: one of the class ``names``
    (see :func:`dataset_class_names`)
    or a queue index into them."""
    if isinstance(traffic_class, str):
        if traffic_class in names:
            return names.index(traffic_class)
    elif (
        isinstance(traffic_class, numbers.Integral)
        and not isinstance(traffic_class, (bool, np.bool_))
        and 0 <= traffic_class < len(names)
    ):
        return int(traffic_class)
    raise ValueError(
        f"traffic_class must be one of {', '.join(map(repr, names))} (or a queue index in "
        f"[0, {len(names) - 1}]), got {traffic_class!r}"
    )
