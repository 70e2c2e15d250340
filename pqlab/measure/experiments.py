"""Measure a scenario the way the papers did, and sweep it over parameters and seeds.

The papers measure one EF *reference stream* (flow 0) over 10,000 packets after
the node has reached steady congestion; :func:`reference_delay` and
:func:`reference_ipdv` take exactly that sample from a simulated Dataset;
:func:`reference_delay_through_hops` the delays with the path's hops simulated.
:func:`sweep` runs a preset over a parameter grid and several seeds into one
``xarray.Dataset`` (a dimension per parameter plus ``seed``) and
:func:`across_seeds` turns it into mean and 95% confidence half-width.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import numpy.typing as npt
import xarray as xr

from ..base._validate import check_int
from ..base.confidence import t_quantile
from ..base.jitcache import cached_njit
from ..base.provenance import provenance_attrs
from ..node.engine import KEPT
from ..node.measured import is_measured
from ..node.path import extra_delay_of
from ..node.scenario import Scenario, simulate, simulate_runs  # noqa: F401  (re-exported)
from ..node.tandem import simulate_downstream_hops
from . import metrics

#: Flow id of the papers' EF reference stream, the one they measure (SmartBits' hardware-timed
#: stream); the presets (:mod:`pqlab.scenarios`) give it to the first EF stream.
REFERENCE_FLOW = 0


def measurement_rows(ds: xr.Dataset, scenario: Scenario, flow: int = REFERENCE_FLOW) -> np.ndarray:
    """The rows (indices along ``packet``) of :func:`measurement_window`: the packets of ``flow``
    arriving at or after the scenario's warm-up, in Dataset order. ``ds`` may also be a mapping of
    the Dataset's variable names to numpy arrays (:func:`pqlab.papers.testbed.testbed_runs`)."""
    return np.flatnonzero(
        (np.asarray(ds["flow"]) == flow) & is_measured(np.asarray(ds["arrival"]), scenario.warmup_s)
    )


def measurement_window(
    ds: xr.Dataset, scenario: Scenario, flow: int = REFERENCE_FLOW
) -> xr.Dataset:
    """The packets of ``flow`` measured after the scenario's warm-up (the warm-up rule of
    :mod:`pqlab.node.measured`: arrival at or after ``warmup_s``; integer dtypes kept)."""
    return ds.isel(packet=measurement_rows(ds, scenario, flow))


def _delay_of_rows(ds: xr.Dataset, rows: np.ndarray, path) -> np.ndarray:
    """:func:`pqlab.metrics.one_way_delay`'s values for the packets ``rows`` of ``ds`` (every one
    measured): ``departure - arrival + path.extra_delay_s(size)``, NaN where dropped."""
    arrays = [np.ascontiguousarray(ds[name]) for name in ("arrival", "departure", "size")]
    has_drop = "drop" in ds
    drop = np.ascontiguousarray(ds["drop"]) if has_drop else np.zeros(0, dtype=np.int8)
    values = np.empty(rows.shape[0])
    _delays_of_rows(
        *arrays,
        drop,
        has_drop,
        np.ascontiguousarray(rows, dtype=np.int64),
        float(path.fixed_s),
        *path.hop_arrays(),
        values,
    )
    return values


@cached_njit(nogil=True)
def _delays_of_rows(arrival, departure, size, drop, has_drop, rows, fixed_s, codes, rates, out):
    """``out[j] = departure[r] - arrival[r] + extra_delay_of(size[r], ...)`` for ``r = rows[j]``,
    NaN where ``has_drop`` and the packet was not kept (the path delay computed again only when
    the size changes: a flow's packets mostly have one size)."""
    last_size = -1
    extra = 0.0
    for j in range(rows.shape[0]):
        r = rows[j]
        if has_drop and drop[r] != KEPT:
            out[j] = np.nan
            continue
        if size[r] != last_size:
            last_size = size[r]
            extra = extra_delay_of(last_size, fixed_s, codes, rates)
        out[j] = departure[r] - arrival[r] + extra


def reference_delay_values(
    ds: xr.Dataset, scenario: Scenario, flow: int = REFERENCE_FLOW
) -> np.ndarray:
    """:func:`reference_delay`'s values (seconds, NaN if lost), without building the DataArray.

    ``ds``: a Dataset, or a mapping of its variable names to arrays (:func:`measurement_rows`).
    """
    return _delay_of_rows(ds, measurement_rows(ds, scenario, flow), scenario.path)


def reference_delay(ds: xr.Dataset, scenario: Scenario, flow: int = REFERENCE_FLOW) -> xr.DataArray:
    """One-way delay (RFC 2679) of the reference flow's measured packets, seconds (NaN if lost).

    ``departure - arrival`` at the simulated node plus ``scenario.path`` (see
    :func:`pqlab.metrics.one_way_delay`).
    """
    # the window applies the scenario's warm-up: not once more from ds's attrs
    return metrics.one_way_delay(
        measurement_window(ds, scenario, flow), scenario.path, include_warmup=True
    )


def reference_ipdv_values(
    ds: xr.Dataset, scenario: Scenario, flow: int = REFERENCE_FLOW
) -> np.ndarray:
    """:func:`reference_ipdv`'s values (seconds), without building the DataArray.

    ``ds``: a Dataset, or a mapping of its variable names to arrays (:func:`measurement_rows`).
    The measured packets of ``flow`` in sending order (ties in Dataset order), their one-way
    delays and the defined differences of consecutive ones (:func:`pqlab.metrics.ipdv`).
    """
    rows = measurement_rows(ds, scenario, flow)
    if rows.size == 0:  # no measured packet of the flow: the same error as reference_ipdv's
        metrics.check_flow({"flow": np.asarray(ds["flow"])[rows]}, flow)
    rows = rows[np.argsort(np.asarray(ds["arrival"])[rows], kind="stable")]
    values = metrics.ipdv_of_delays(_delay_of_rows(ds, rows, scenario.path), dropna=False)
    return values[~np.isnan(values)]


def reference_delay_through_hops(ds: xr.Dataset, scenario: Scenario) -> np.ndarray:
    """One-way delay of the reference flow's measured packets with the path's hops simulated,
    seconds.

    Like :func:`reference_delay`, but the packets cross the path's hops as
    simulated FIFO nodes (:func:`pqlab.node.tandem.simulate_downstream_hops`,
    behind the BE packets ahead of them) instead of the path model's
    serialisation; ``scenario.path.fixed_s`` is added.

    Parameters
    ----------
    ds : xarray.Dataset
        Output of :func:`pqlab.simulate` for ``scenario``.
    scenario : Scenario
        Gives the path (its hops and ``fixed_s``) and the warm-up.

    Returns
    -------
    numpy.ndarray
        Delays of the :data:`REFERENCE_FLOW` packets kept by the node that arrived
        after the warm-up, in node departure order, seconds; lost packets have no
        delay here (left out, not NaN).
    """
    hops = simulate_downstream_hops(ds, scenario.path)
    ref = (hops["flow"].values == REFERENCE_FLOW) & is_measured(
        hops["arrival"].values, scenario.warmup_s
    )
    return hops["hops_departure"].values[ref] - hops["arrival"].values[ref] + scenario.path.fixed_s


def reference_ipdv(ds: xr.Dataset, scenario: Scenario, flow: int = REFERENCE_FLOW) -> xr.DataArray:
    """IPDV (RFC 3393) of consecutive measured packets of the reference flow, seconds."""
    return metrics.ipdv(
        measurement_window(ds, scenario, flow), flow, scenario.path, include_warmup=True
    )


def delay_summary(ds: xr.Dataset, scenario: Scenario, flow: int = REFERENCE_FLOW) -> dict:
    """Mean, std, min, max of a flow's delay and mean |IPDV|, seconds; loss ratio
    (:func:`delay_statistics`).

    Parameters
    ----------
    ds : xarray.Dataset or mapping
        Output of :func:`pqlab.simulate` for ``scenario``, or one run of
        :func:`pqlab.node.scenario.simulate_runs` (variable names to arrays).
    scenario : Scenario
        Gives the path and the warm-up.
    flow : int
        The flow measured; default the papers' reference flow (:data:`REFERENCE_FLOW`). Every
        class or flow at once: :func:`pqlab.measure.tables.summary_table`.
    """
    flow = metrics.check_flow(ds, flow)
    return delay_statistics(
        reference_delay_values(ds, scenario, flow), reference_ipdv_values(ds, scenario, flow)
    )


#: Units and long names of :func:`delay_statistics`' numbers, declared where they are measured.
DELAY_STATISTICS_ATTRS = {
    "delay_mean_s": {"units": "s", "long_name": "mean one-way delay of the reference flow"},
    "delay_std_s": {"units": "s", "long_name": "standard deviation of the one-way delay"},
    "delay_min_s": {"units": "s", "long_name": "smallest one-way delay"},
    "delay_max_s": {"units": "s", "long_name": "largest one-way delay"},
    "ipdv_abs_mean_s": {"units": "s", "long_name": "mean |IPDV| (RFC 3393) of consecutive packets"},
    "ipdv_std_s": {"units": "s", "long_name": "standard deviation of the IPDV"},
    "loss_ratio": {"units": "1", "long_name": "share of the reference packets lost"},
}


def delay_statistics(delay_s: npt.ArrayLike, ipdv_s: npt.ArrayLike) -> dict:
    """The delay-summary numbers of a sweep: the one place they are computed.

    Parameters
    ----------
    delay_s : numpy.ndarray
        One-way delay of each measured packet, seconds; NaN for a lost packet.
    ipdv_s : numpy.ndarray
        IPDV (RFC 3393) of consecutive received packets, seconds (finite values).

    Returns
    -------
    dict
        ``delay_mean_s``, ``delay_std_s`` (ddof=1), ``delay_min_s``, ``delay_max_s``,
        ``ipdv_abs_mean_s`` (mean |IPDV|), ``ipdv_std_s`` (ddof=1), seconds, and
        ``loss_ratio`` (NaN delays / all); NaN where the sample is too small.
    """
    delay, ipdv = np.asarray(delay_s, dtype=float), np.asarray(ipdv_s, dtype=float)
    kept = delay[np.isfinite(delay)]
    return {
        "delay_mean_s": float(kept.mean()) if kept.size else np.nan,
        "delay_std_s": float(kept.std(ddof=1)) if kept.size > 1 else np.nan,
        "delay_min_s": float(kept.min()) if kept.size else np.nan,
        "delay_max_s": float(kept.max()) if kept.size else np.nan,
        "ipdv_abs_mean_s": float(metrics.jitter_of_ipdv(ipdv).mean()) if ipdv.size else np.nan,
        "ipdv_std_s": float(ipdv.std(ddof=1)) if ipdv.size > 1 else np.nan,
        "loss_ratio": float(1.0 - kept.size / delay.size) if delay.size else np.nan,
    }


delay_summary.attrs = DELAY_STATISTICS_ATTRS  # type: ignore[attr-defined]  # read by the sweeps
delay_summary.reads_arrays = True  # type: ignore[attr-defined]  # a run's arrays will do (sweep)


def measure_runs(
    scenario: Scenario,
    seeds: Sequence[int],
    measure: Callable[..., Mapping[str, float]] = delay_summary,
) -> list[dict]:
    """``measure`` of ``scenario`` simulated with each seed: the runs of one sweep point, batched.

    The scenario is checked once and its runs made by :func:`pqlab.node.scenario.simulate_runs`
    (each draws what ``simulate(scenario, seed)`` draws, in the same order) when ``measure``
    reads arrays (its attribute ``reads_arrays`` is True, as :func:`delay_summary`'s): it is
    then given each run as a mapping of variable names to numpy arrays, and no Dataset is
    built. Any other measure is given :func:`pqlab.simulate`'s Dataset of each seed.

    Parameters
    ----------
    scenario : Scenario
        What to simulate.
    seeds : sequence of int
        Seeds (>= 0), one run each, in this order.
    measure : callable
        ``measure(run, scenario) -> {name: float}`` (see :func:`sweep`).

    Returns
    -------
    list of dict
        ``measure``'s numbers, one dict per seed.
    """
    if getattr(measure, "reads_arrays", False) is True:
        return [dict(measure(run, scenario)) for run in simulate_runs(scenario, list(seeds))]
    return [dict(measure(simulate(scenario, seed=seed), scenario)) for seed in seeds]


def run_point(
    make_scenario: Callable[..., Scenario],
    kwargs: dict,
    seed: int,
    measure: Callable[[xr.Dataset, Scenario], Mapping[str, float]],
) -> dict:
    """One sweep point: build the scenario, simulate it with ``seed``, measure it (picklable for
    workers)."""
    scenario = make_scenario(**kwargs)
    return dict(measure(simulate(scenario, seed=seed), scenario))


def sweep(
    make_scenario: Callable[..., Scenario],
    grid: Mapping[str, Sequence],
    seeds: Sequence[int] = (1,),
    measure: Callable[[xr.Dataset, Scenario], Mapping[str, float]] = delay_summary,
    *,
    # "serial", "processes", a dask.distributed Client or a scheduler's address
    backend: Any = "serial",
    max_workers: int | None = None,
    progress: bool = False,
) -> xr.Dataset:
    """Run ``make_scenario(**point)`` for every grid point and seed; collect ``measure``.

    Parameters
    ----------
    make_scenario : callable
        Builds a Scenario from keyword arguments named like the grid's keys
        (e.g. ``pqlab.scenarios.base_case`` with grid ``{"be_payload_bytes": [...]}``).
        For the process and dask backends it must be picklable (a module-level function).
    grid : mapping of str to sequence
        Parameter values; the result has one dimension per key, in order.
    seeds : sequence of int
        Seeds (>= 0); the result has a ``seed`` dimension.
    measure : callable
        ``measure(ds, scenario) -> {name: float}``; each name becomes a variable, with the
        ``units``/``long_name`` the measure declares in its ``attrs`` mapping (name ->
        attrs; e.g. :data:`DELAY_STATISTICS_ATTRS`), where the number is measured:
        a name it does not declare is a ``ValueError`` (units are never guessed from a name).
        A measure whose attribute ``reads_arrays`` is True (:func:`delay_summary`) is given
        each run as a mapping of variable names to arrays (:func:`measure_runs`).
    backend : {"serial", "processes"}, dask.distributed.Client or str
        Where the points run: in this process, in a local process pool of
        ``max_workers``, or on a dask.distributed cluster (a ``Client``, or a
        scheduler address such as ``"tcp://host:8786"``). Results do not depend
        on the backend: every point is seeded by its own seed.
    max_workers : int, optional
        Size of the process pool (default: the number of cores).
    progress : bool
        Show a tqdm progress bar.

    Returns
    -------
    xarray.Dataset
        Variables named by ``measure`` with dims ``(*grid, "seed")``; attrs record
        the preset's name, the pqlab version and the scenario of the first point
        (:func:`pqlab.base.provenance.provenance_attrs`).
    """
    if not grid:
        raise ValueError("grid must name at least one parameter, got an empty mapping")
    names = list(grid)
    values = [list(grid[k]) for k in names]
    for k, v in zip(names, values):
        if not v:
            raise ValueError(f"grid[{k!r}] must hold at least one value, got none")
    seeds = [check_int("seeds", s, 0) for s in seeds]
    if not seeds:
        raise ValueError("seeds must hold at least one seed, got none")
    shape = [len(v) for v in values] + [len(seeds)]
    points = list(itertools.product(*(range(n) for n in shape)))
    tasks = [
        ({k: values[i][j] for i, (k, j) in enumerate(zip(names, idx[:-1]))}, seeds[idx[-1]])
        for idx in points
    ]
    first_json = make_scenario(**tasks[0][0]).to_json()
    preset = getattr(make_scenario, "__name__", str(make_scenario))
    results = _run_tasks(
        make_scenario,
        tasks,
        measure,
        backend,
        max_workers,
        progress,
        getattr(make_scenario, "__name__", "sweep"),
        len(seeds),
    )
    out: dict[str, np.ndarray] = {}
    for idx, measured in zip(points, results):
        for key, val in measured.items():
            out.setdefault(key, np.full(shape, np.nan))[idx] = val
    dims = names + ["seed"]
    declared = getattr(measure, "attrs", {})
    undeclared = sorted(set(out) - set(declared))
    if undeclared:
        raise ValueError(
            "measure must declare units and long_name of every number it returns in its attrs "
            f"mapping (name -> {{'units': ..., 'long_name': ...}}), missing for {undeclared}"
        )
    return xr.Dataset(
        {k: (dims, v, dict(declared[k])) for k, v in out.items()},
        coords={**{k: v for k, v in zip(names, values)}, "seed": seeds},
        attrs=provenance_attrs(
            title=f"pqlab sweep of {preset}",
            history="computed by pqlab.experiments.sweep",
            preset=preset,
            first_scenario=first_json,
        ),
    )


def _run_tasks(
    make_scenario, tasks, measure, backend, max_workers, progress, label, n_seeds: int
) -> list:
    """Run ``run_point`` for every (kwargs, seed) task on the chosen backend; results in task order.

    The tasks are the grid points' in turn, each point's ``n_seeds`` seeds in a row: serially, a
    point's scenario is built once and its seeds run by :func:`measure_runs`."""
    from tqdm import tqdm

    bar = tqdm(total=len(tasks), disable=not progress, desc=label)
    try:
        results: list
        if isinstance(backend, str) and backend == "serial":  # a grid point's seeds: one batch
            results = []
            for start in range(0, len(tasks), n_seeds):
                point = tasks[start : start + n_seeds]
                seeds_of_point = [seed for _, seed in point]
                results.extend(measure_runs(make_scenario(**point[0][0]), seeds_of_point, measure))
                bar.update(len(point))
            return results
        if isinstance(backend, str) and backend == "processes":
            from concurrent.futures import ProcessPoolExecutor, as_completed

            if max_workers is not None:
                check_int("max_workers", max_workers, 1, 1024)
            with ProcessPoolExecutor(max_workers=max_workers) as pool:
                futures = {
                    pool.submit(run_point, make_scenario, kw, seed, measure): k
                    for k, (kw, seed) in enumerate(tasks)
                }
                results = [None] * len(tasks)
                for fut in as_completed(futures):
                    results[futures[fut]] = fut.result()
                    bar.update()
            return results
        return _run_on_dask(make_scenario, tasks, measure, backend, bar)
    finally:
        bar.close()


def _run_on_dask(make_scenario, tasks, measure, backend, bar) -> list:
    try:
        from distributed import Client, as_completed
    except ImportError:  # pragma: no cover - depends on the environment
        raise ValueError(
            "backend must be 'serial', 'processes', a dask.distributed Client or a scheduler"
            " address; dask.distributed is not installed (pip install 'pqlab[dask]')"
        ) from None
    if isinstance(backend, str):
        if "://" not in backend:
            raise ValueError(
                "backend must be 'serial', 'processes', a dask.distributed Client or a scheduler"
                f" address like 'tcp://host:8786', got {backend!r}"
            )
        client, own = Client(backend), True
    elif isinstance(backend, Client):
        client, own = backend, False
    else:
        raise ValueError(
            "backend must be 'serial', 'processes', a dask.distributed Client or a scheduler"
            f" address, got {type(backend).__name__}"
        )
    try:
        futures = [
            client.submit(run_point, make_scenario, kw, seed, measure, pure=False)
            for kw, seed in tasks
        ]
        position = {f.key: k for k, f in enumerate(futures)}
        results = [None] * len(tasks)
        for fut in as_completed(futures):
            results[position[fut.key]] = fut.result()
            bar.update()
        return results
    finally:
        if own:
            client.close()


def across_seeds(result: xr.Dataset, confidence: float = 0.95) -> xr.Dataset:
    """Mean over ``seed`` and the half-width of its Student-t confidence interval.

    Returns a Dataset with ``<var>`` (mean) and ``<var>_ci`` (half-width; NaN with one seed).
    """
    n = result.sizes["seed"]
    mean = result.mean("seed", keep_attrs=True)
    if n > 1:
        half = result.std("seed", ddof=1) * t_quantile(confidence, n - 1) / np.sqrt(n)
    else:
        half = xr.full_like(mean, np.nan)
    halves = {}
    for k in list(result.data_vars):
        halves[f"{k}_ci"] = half[k].copy()
        halves[f"{k}_ci"].attrs = {
            **result[k].attrs,
            "long_name": f"{confidence:.0%} CI half-width of {k}",
        }
    mean.update(halves)  # one merge for all the half-widths
    mean.attrs = dict(result.attrs, confidence=confidence, n_seeds=n)
    return mean
