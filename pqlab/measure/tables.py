"""The one-call summary of a run per traffic class or per flow, as a tidy ``xarray.Dataset``.

:func:`summary_table` (public name ``pqlab.summary_table``) gives, for every class (queue) or
flow of a per-packet Dataset, the packets sent and lost by cause, the one-way delay's mean, std,
extremes and percentiles, and the IPDV's count, mean, std, mean ``|IPDV|`` (the papers' jitter)
and jitter percentiles, each with its units in ``attrs``; ``.to_dataframe()`` is one row per class
or flow, ready for seaborn. It measures the packets of the warm-up rule
(:mod:`pqlab.node.measured`) with the functions of :mod:`pqlab.measure.metrics`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import xarray as xr

from ..base._validate import check_choice
from ..base.confidence import DEFAULT_BATCHES, check_batches, check_confidence
from ..base.percentiles import percentile_names
from ..node.measured import (
    CLASS_COORD_ATTRS,
    check_include_warmup,
    dataset_class_names,
    measured_packets,
    warmup_of,
)
from ..node.path import PathModel
from . import metrics
from .batchmeans import batch_ci_variables

#: What :func:`summary_table` groups by.
SUMMARY_GROUPS = ("class", "flow")
#: Percentiles of the delay and of the jitter :func:`summary_table` reports by default.
DEFAULT_PERCENTILES = (50.0, 90.0, 99.0)
#: The ``traffic_class`` of a flow whose packets are in several queues (a hand-built dataset).
SEVERAL_CLASSES = -1


def summary_table(
    ds: xr.Dataset,
    by: str = "class",
    *,
    percentiles: Sequence[float] = DEFAULT_PERCENTILES,
    path: PathModel | None = None,
    include_warmup: bool = False,
    class_names: Sequence[str] | None = None,
    ci: float | None = None,
    n_batches: int = DEFAULT_BATCHES,
) -> xr.Dataset:
    """Delay, IPDV, jitter and loss of every traffic class or flow of a run, one row each.

    Parameters
    ----------
    ds : xarray.Dataset
        A per-packet Dataset of :func:`pqlab.simulate` (``arrival``, ``departure``, ``size``,
        ``queue``, ``drop`` and ``flow``; for :func:`pqlab.simulate_arrivals`' output,
        ``ds.assign(flow=ds["queue"])`` makes each queue one flow).
    by : {"class", "flow"}
        One row per traffic class (dimension ``traffic_class``, the queue index, with the
        coordinate ``class_name``) or per flow (dimension ``flow``, with the coordinates
        ``traffic_class`` and ``class_name`` of its queue; :data:`SEVERAL_CLASSES` and
        ``"several classes"`` for a flow in more than one queue).
    percentiles : sequence of float
        Percentiles in [0, 100] of the delay and of the jitter (linear interpolation), reported as
        ``delay_p<q>`` and ``jitter_p<q>`` (``delay_p99``, ``jitter_p99.9``), the names and the
        convention of :func:`pqlab.streaming.simulate_summary`'s. Percents: values all at most 1
        (``(0.5, 0.99)``) read as fractions and are refused, as are repeated values
        (:mod:`pqlab.base.percentiles`).
    path : PathModel, optional
        The path outside the node, added to the delays (:func:`pqlab.metrics.one_way_delay`).
    include_warmup : bool
        ``False`` (default): the packets arriving at or after ``ds.attrs["warmup_s"]``;
        ``True``: every packet (:mod:`pqlab.node.measured`).
    class_names : sequence of str, optional
        The classes' labels, one per queue index; default: the queue names of the node
        recorded in ``ds`` (:attr:`pqlab.Node.class_names`), else ``"queue <index>"``.
    ci : float, optional
        A confidence level in (0, 1) (e.g. 0.95): add each row's confidence interval of the mean
        delay and of the delay percentiles from this one run, by batches of time
        (:func:`pqlab.measure.batchmeans.batch_ci_variables`: the measurement interval, from the
        warm-up, or 0 with ``include_warmup``, to ``ds.attrs["duration_s"]``, else to the last
        arrival, cut into ``n_batches`` equal lengths; batch means for the mean, sectioning for
        the percentiles). None (default): no interval.
    n_batches : int
        Batches of the intervals, in [2, 10000] (default 20; Schmeiser 1982: 10 to 30).

    Returns
    -------
    xarray.Dataset
        Per class or flow (groups with a measured packet only): ``sent``, ``received``,
        ``policed``, ``queue_full``, ``early_drop``, ``lost`` (packets), ``loss_ratio`` (1),
        ``delay_mean``, ``delay_std`` (ddof=1), ``delay_min``, ``delay_max``, ``delay_p<q>``
        (s), ``ipdv_count`` (pairs), ``ipdv_mean``, ``ipdv_std`` (ddof=1), ``ipdv_abs_mean``
        (mean ``|IPDV|``, the papers' jitter) and ``jitter_p<q>`` (s). NaN where a class has
        too few values (no delay without a received packet, no IPDV without a pair). The
        IPDV of a class pools the pairs of its flows (each pair within one flow, RFC 3393).
        Attributes ``by``, ``warmup_s`` and ``include_warmup`` (0 or 1). With ``ci``:
        ``delay_mean_ci_low``/``_ci_high`` and ``delay_p<q>_ci_low``/``_ci_high`` (s), NaN for a
        row with a batch without a delay (percentiles) or no delay at all, ``delay_batch_lag1``
        (1: the lag-1 autocorrelation of the batch means; near 0 when the batches are long
        enough), and the attributes ``ci_confidence`` and ``ci_batches``.

    Raises
    ------
    ValueError
        On a bad argument, or when no packet of ``ds`` is measured.
    """
    check_choice("by", by, SUMMARY_GROUPS)
    q = metrics.check_percentiles(percentiles)
    include = check_include_warmup(include_warmup)
    if ci is not None:
        ci, n_batches = check_confidence(ci), check_batches(n_batches)
    metrics.check_dataset(ds, ("arrival", "departure", "size", "queue", "drop", "flow"))
    names = dataset_class_names(ds, class_names)
    packets = measured_packets(ds, include_warmup=include)
    warmup_s = warmup_of(ds)
    if packets.sizes["packet"] == 0:
        raise ValueError(
            f"no packet of ds arrives at or after its warm-up, ds.attrs['warmup_s'] = {warmup_s!r}"
            f" s (its last arrives at {float(ds['arrival'].max())!r} s): nothing to summarise;"
            " include_warmup=True measures every packet"
        )
    table = metrics.loss(packets, by=by, include_warmup=True, class_names=names)
    dim = "traffic_class" if by == "class" else "flow"
    groups = table[dim].values
    key = "queue" if by == "class" else "flow"
    # the measured packets' delays, each kept packet checked by its index in ds
    delay = metrics.one_way_delay(ds, path, include_warmup=include)
    ipdv = metrics.ipdv(packets, None, path, include_warmup=True)
    delay_stats = _stats_by_group(delay.values, packets[key].values, groups, q)
    ipdv_stats = _stats_by_group(ipdv.values, ipdv[key].values, groups, np.zeros(0))
    jitter_stats = _stats_by_group(metrics.jitter_of_ipdv(ipdv.values), ipdv[key].values, groups, q)
    seconds = {"units": "s"}
    variables = {
        "received": (
            delay_stats["count"],
            {"units": "packets", "long_name": "packets delivered (with a delay)"},
        ),
        "delay_mean": (
            delay_stats["mean"],
            {**seconds, "long_name": "mean one-way delay (RFC 2679)"},
        ),
        "delay_std": (
            delay_stats["std"],
            {**seconds, "long_name": "std of the one-way delay (ddof=1)"},
        ),
        "delay_min": (delay_stats["min"], {**seconds, "long_name": "smallest one-way delay"}),
        "delay_max": (delay_stats["max"], {**seconds, "long_name": "largest one-way delay"}),
        **{
            f"delay_{p}": (
                delay_stats[p],
                {**seconds, "long_name": f"{p[1:]}th percentile of the one-way delay"},
            )
            for p in percentile_names(q)
        },
        "ipdv_count": (
            ipdv_stats["count"],
            {"units": "pairs", "long_name": "IPDV values (pairs without loss)"},
        ),
        "ipdv_mean": (ipdv_stats["mean"], {**seconds, "long_name": "mean IPDV (RFC 3393)"}),
        "ipdv_std": (ipdv_stats["std"], {**seconds, "long_name": "std of the IPDV (ddof=1)"}),
        "ipdv_abs_mean": (jitter_stats["mean"], {**seconds, "long_name": "mean |IPDV| (jitter)"}),
        **{
            f"jitter_{p}": (
                jitter_stats[p],
                {**seconds, "long_name": f"{p[1:]}th percentile of |IPDV| (jitter)"},
            )
            for p in percentile_names(q)
        },
    }
    if ci is not None:
        interval_s = (
            0.0 if include else warmup_s,
            float(ds.attrs.get("duration_s", np.nextafter(packets["arrival"].max(), np.inf))),
        )
        centres = {"mean": delay_stats["mean"], **{p: delay_stats[p] for p in percentile_names(q)}}
        variables.update(
            {
                name: (values, {**seconds, "long_name": long_name})
                for name, (values, long_name) in batch_ci_variables(
                    delay.values,
                    packets["arrival"].values,
                    np.searchsorted(groups, packets[key].values),
                    groups.size,
                    interval_s,
                    n_batches,
                    ci,
                    q,
                    centres,
                ).items()
            }
        )
        variables["delay_batch_lag1"][1]["units"] = "1"
    for name, (values, attrs) in variables.items():
        table[name] = (dim, values, attrs)
    if by == "flow":
        classes = _class_of_flows(packets, groups)
        table = table.assign_coords(
            traffic_class=(dim, classes),
            class_name=(
                dim,
                [names[c] if c != SEVERAL_CLASSES else "several classes" for c in classes],
            ),
        )
    for name, attrs in CLASS_COORD_ATTRS.items():
        table[name].attrs = dict(attrs)
    table.attrs = {
        "by": by,
        "warmup_s": warmup_s,
        "include_warmup": int(include),
        "title": f"pqlab summary per {by} (pqlab.summary_table)",
    }
    if ci is not None:
        table.attrs.update(ci_confidence=ci, ci_batches=n_batches)
    return table


def _stats_by_group(
    values: np.ndarray, labels: np.ndarray, groups: np.ndarray, q: np.ndarray
) -> dict:
    """:func:`pqlab.metrics.summary` of the non-NaN ``values`` of each group, as arrays in
    ``groups``' order.

    ``count`` per group (0 without a value), then ``mean``, ``std``, ``min``, ``max`` and ``p<q>``,
    NaN for a group without a value.
    """
    keys = ["mean", "std", "min", "max", *percentile_names(q)]
    out = {k: np.full(groups.size, np.nan) for k in keys}
    out["count"] = np.zeros(groups.size, np.int64)
    kept = ~np.isnan(values)
    values, labels = values[kept], labels[kept]
    order = np.argsort(labels, kind="stable")
    values, labels = values[order], labels[order]
    starts = np.searchsorted(labels, groups, side="left")
    ends = np.searchsorted(labels, groups, side="right")
    for k, (lo, hi) in enumerate(zip(starts, ends)):
        if hi > lo:
            stats = metrics.summary(values[lo:hi], percentiles=q.tolist())
            out["count"][k] = stats["count"]
            for name in keys:
                out[name][k] = stats[name]
    return out


def _class_of_flows(packets: xr.Dataset, flows: np.ndarray) -> np.ndarray:
    """The queue index of each flow's packets, :data:`SEVERAL_CLASSES` for a flow in several
    queues."""
    flow, queue = packets["flow"].values, packets["queue"].values
    order = np.argsort(flow, kind="stable")
    starts = np.searchsorted(flow[order], flows)  # every flow has a packet: increasing starts
    lowest = np.minimum.reduceat(queue[order], starts)
    highest = np.maximum.reduceat(queue[order], starts)
    return np.where(lowest == highest, lowest, SEVERAL_CLASSES).astype(np.int64)
