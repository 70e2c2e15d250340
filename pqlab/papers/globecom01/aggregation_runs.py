"""The aggregation sweep the EF-aggregation and EF-frame-size artefacts share: runs, samples,
Dataset parts.

GLOBECOM'01 Sec. V and the long version's Sec. 6 and 7 measure one reference stream while the
EF aggregate (:func:`pqlab.scenarios.aggregation`) or the EF frame size
(:func:`pqlab.scenarios.ef_frame_size`) changes. ``globecom01_fig7``, ``globecom01_tab3``,
``long_ipdv_vs_a`` and ``long_fig7_tab3`` read the same memoised runs (:func:`run`): the
aggregation sweep (:func:`aggregation_sweep`), the deterministic 1500-byte BE references
(:func:`mtu_runs`), and build their Datasets with :func:`samples`, :func:`add_per_run`,
:func:`with_frequency` and :func:`attrs`. Times are in seconds, rates in bit/s, sizes in bytes.

Choices, each stated once here and in the notes:

* BE sizes come from the *stand-in* "real" distribution (:func:`pqlab.scenarios.real_be_sizes`)
  by packet count (the papers' reading, ``be_size_per="packet"``): every number is a mean
  over seeds with a Student-t 95% CI, and the distributions are pooled over seeds. The
  former per-stream equal-bit-rate reading (``be_size_per="stream"``) is the gap study's H4.
* ``common_be=True`` (default) generates the BE streams before the EF streams, so one
  seed gives the same BE phases at every A and every EF frame size, and the same sizes
  as far as the runs are equally long (common random numbers): trends along A or frame
  size are paired comparisons within a seed. The presets are otherwise unchanged.
* The papers' "IPDV" is jitter ``|D_i - D_(i-1)|`` (long version Sec. 4: "In the following
  we will refer to jitter simply with ipdv"); the mean of signed IPDV telescopes to
  ``(D_last - D_first) / (n - 1)``, about 0, so "average IPDV" must be mean |IPDV|. The
  standard deviations of Sec. 7 are of |IPDV| too: for the same configuration (one EF
  stream, 128 bytes, 300 kbit/s, A = 0) the paper gives mean |IPDV| 3.63 ms and
  standard deviation 2.017 ms, while for signed IPDV ``mean|X| <= sqrt(E X^2)``, i.e.
  its standard deviation could not be below 3.63 ms. Signed-IPDV values are kept as
  extra ("pqlab only") numbers.
* A trend "increases with x" holds when the least-squares slope against x, computed per
  seed, has a positive mean whose 95% CI across seeds excludes 0 (one seed: slope > 0).
* Transmission unit: line time of the 128-byte EF frame (110-byte IP packet) on the ATM
  line, 0.636 ms (the papers' unit), for every frame size.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import xarray as xr

from ...base._validate import check_real
from ...base.numerics import dot
from ...measure import cache, metrics
from ...measure.analysis import CONFIDENCE, pooled_frequencies
from ...measure.experiments import measurement_window, reference_delay_values, reference_ipdv_values
from ...node.scenario import Scenario, simulate
from ...node.traffic import Empirical
from .. import kit
from ..presets import (
    BE_QUEUE,
    BE_SIZE_READINGS,
    EF_FRAME_BYTES,
    aggregation,
    base_case,
    be_streams_first,
)
from ..stated import EF_IP_BYTES, MTU_PAYLOAD_BYTES, transmission_unit_s

__all__ = [
    "a_key",
    "a_text",
    "ef_rates_bps",
    "unit_s",
    "run",
    "mtu_runs",
    "aggregation_sweep",
    "attrs",
    "RUN_ATTRS",
    "add_per_run",
    "samples",
    "with_frequency",
    "be_sizes_text",
    "delay_spread",
]


def ef_rates_bps(sc: Scenario) -> np.ndarray:
    """Rates of the scenario's EF streams, bit/s counted on frames."""
    return np.array([kit.frame_rate_bps(s) for s in kit.ef_streams(sc)])


def unit_s(sc: Scenario) -> float:
    """The transmission unit on the scenario's line, s
    (:func:`pqlab.papers.stated.transmission_unit_s`)."""
    return transmission_unit_s(sc.node)


def _pad(arrays: list[np.ndarray]) -> np.ndarray:
    """Stack 1-D arrays of unequal length, padding with NaN."""
    n = max(s.size for s in arrays)
    out = np.full((len(arrays), n), np.nan)
    for i, s in enumerate(arrays):
        out[i, : s.size] = s
    return out


def be_sizes_text(scenarios_) -> str:
    """How the scenarios' random BE sizes reach the queue, as their BE streams have it
    (:data:`BE_SIZE_READINGS`).

    ``"law by packet count"`` (the papers' reading) or ``"one size per stream at equal bit
    rates ..."``;
    ``"deterministic BE sizes"`` when no BE stream draws from a law. Read from the streams, never
    assumed.
    """
    readings = sorted(
        {
            s.size_per
            for sc in scenarios_
            for s in kit.be_streams(sc)
            if isinstance(s.size, Empirical)
        }
    )
    if not readings:
        return "deterministic BE sizes"
    return "; ".join(BE_SIZE_READINGS[r].split(":")[0] for r in readings)


def delay_spread(delays: np.ndarray) -> dict:
    """Spread statistics of reference delays per run, along the last axis (NaN: lost or padding), s.

    Returns
    -------
    dict
        ``delay_std`` (standard deviation, s), ``delay_range`` (max - min, s) and ``delay_lag1``
        (the
        correlation of consecutive delays, 1: pairs with both delays present), each of the shape of
        ``delays`` without its last axis. They bound the |IPDV| any model can give
        (:func:`pqlab.measure.analysis.min_delay_std_for_mean_ipdv`,
        :func:`pqlab.measure.analysis.min_delay_range_for_max_ipdv`).
    """
    d = np.asarray(delays, dtype=float)
    lag1 = np.full(d.shape[:-1], np.nan)
    for index in np.ndindex(*d.shape[:-1]):
        x, y = d[index][:-1], d[index][1:]
        both = np.isfinite(x) & np.isfinite(y)
        if both.sum() > 2 and np.std(x[both]) > 0 and np.std(y[both]) > 0:
            xc, yc = (
                x[both] - x[both].mean(),
                y[both] - y[both].mean(),
            )  # Pearson, summed in a pinned order
            lag1[index] = dot(xc, yc) / np.sqrt(dot(xc, xc) * dot(yc, yc))
    with np.errstate(invalid="ignore"):
        return {
            "delay_std": np.nanstd(d, axis=-1, ddof=1),
            "delay_range": np.nanmax(d, axis=-1) - np.nanmin(d, axis=-1),
            "delay_lag1": lag1,
        }


def a_key(a: float) -> str:
    """The paper's key suffix for an Aggregation Degree: ``5/6 -> "a_5_6"``, ``0 -> "a_0"``."""
    f = Fraction(a).limit_denominator(24)
    return "a_0" if f == 0 else f"a_{f.numerator}_{f.denominator}"


def a_text(a: float) -> str:
    """An Aggregation Degree as a fraction: ``0.8333 -> "5/6"``."""
    f = Fraction(a).limit_denominator(24)
    return "0" if f == 0 else f"{f.numerator}/{f.denominator}"


# --------------------------------------------------------------------------- runs


@cache.memoize
def run(sc: Scenario, seed: int) -> dict:
    """Simulate one scenario and take the reference stream's measurements.

    Returns
    -------
    dict
        ``delay`` and ``ipdv`` (s, per reference packet), ``node_delay_mean`` (s),
        ``be_kept_mean_bytes``, ``be_offered_mean_bytes`` (bytes) and ``be_loss_ratio``.
    """
    ds = simulate(sc, seed=seed)
    delay = reference_delay_values(ds, sc)
    ipdv = reference_ipdv_values(ds, sc)
    ref = measurement_window(ds, sc)
    node = (ref["departure"] - ref["arrival"]).values
    window = ds["arrival"].values >= sc.warmup_s
    be = window & (ds["queue"].values == BE_QUEUE)
    kept = be & (ds["drop"].values == 0)
    sizes = ds["size"].values
    return {
        "delay": delay,
        "ipdv": ipdv,
        "node_delay_mean": float(np.nanmean(node)),
        "be_kept_mean_bytes": float(sizes[kept].mean()) if kept.any() else np.nan,
        "be_offered_mean_bytes": float(sizes[be].mean()) if be.any() else np.nan,
        "be_loss_ratio": float(1.0 - kept.sum() / be.sum()) if be.any() else np.nan,
    }


def mtu_runs(n_ef_samples: int, seeds, frames=(EF_FRAME_BYTES,)) -> dict:
    """Reference runs with deterministic 1500-byte BE packets (A = 0): per (frame, seed) statistics.

    Returns
    -------
    dict
        ``delay_mean``, ``jitter_mean``, ``jitter_std``, ``jitter_max``: ``(frame, seed)`` arrays,
        s.
    """
    out = {
        k: np.zeros((len(frames), len(seeds)))
        for k in ("delay_mean", "jitter_mean", "jitter_std", "jitter_max")
    }
    for i, f in enumerate(frames):
        sc = base_case(
            be_payload_bytes=MTU_PAYLOAD_BYTES, ef_frame_bytes=int(f), n_ef_samples=n_ef_samples
        )
        for j, seed in enumerate(seeds):
            r = run(sc, seed)
            jitter = metrics.jitter_of_ipdv(r["ipdv"])
            out["delay_mean"][i, j] = np.nanmean(r["delay"])
            out["jitter_mean"][i, j] = jitter.mean()
            out["jitter_std"][i, j] = jitter.std(ddof=1)
            out["jitter_max"][i, j] = jitter.max()
    return out


def aggregation_sweep(n_ef_samples, seeds, ref_rates_bps, ef_aggregate_bps, common_be):
    """Every (reference rate, seed) run of the aggregation experiment, plus the A coordinates.

    Parameters
    ----------
    n_ef_samples : int
        Reference packets per run (>= 2).
    seeds : sequence of int
        Distinct seeds >= 0.
    ref_rates_bps : sequence of float
        Reference stream rates, bit/s of frames, each <= ``ef_aggregate_bps``.
    ef_aggregate_bps : float
        EF aggregate rate, bit/s of frames (> 0).
    common_be : bool
        Generate BE before EF so a seed gives the same BE mix at every A.

    Returns
    -------
    scenarios : list of Scenario
        One per reference rate.
    runs : list of list of dict
        ``runs[point][seed]``: what :func:`run` measured.
    coords : dict
        The coordinates ``aggregation_degree`` (with ``ref_rate_bps``, ``n_ef_streams``) and
        ``seed``.
    """
    n = kit.check_n_ef_samples(n_ef_samples)
    seeds = kit.check_seeds(seeds)
    aggregate = check_real("ef_aggregate_bps", ef_aggregate_bps, 0.0, strict_minimum=True)
    rates = kit.check_values("ref_rates_bps", ref_rates_bps, 0.0)
    if max(rates) > aggregate:
        raise ValueError(
            f"ref_rates_bps must be <= ef_aggregate_bps = {aggregate!r}, got {max(rates)!r}"
        )
    common_be = kit.check_bool("common_be", common_be)
    scenarios_, a_values, n_streams, runs = [], [], [], []
    for rate in rates:
        sc = aggregation(ref_rate_bps=rate, ef_aggregate_bps=aggregate, n_ef_samples=n)
        sc = be_streams_first(sc) if common_be else sc
        ef = ef_rates_bps(sc)
        a_values.append(metrics.aggregation_degree(ef))
        n_streams.append(ef.size)
        scenarios_.append(sc)
        runs.append([run(sc, s) for s in seeds])
    coords = {
        "aggregation_degree": (
            "aggregation_degree",
            np.array(a_values),
            {"units": "1", "long_name": "Aggregation Degree A = 1 - l_max / L_BA (eq. 1)"},
        ),
        "ref_rate_bps": (
            "aggregation_degree",
            np.array(rates),
            {"units": "bit/s", "long_name": "reference stream rate (frames)"},
        ),
        "n_ef_streams": (
            "aggregation_degree",
            np.array(n_streams),
            {"units": "1", "long_name": "EF streams in the aggregate"},
        ),
        "seed": ("seed", np.array(seeds), {"units": "1", "long_name": "random seed"}),
    }
    return scenarios_, runs, coords


def attrs(artefact: str, module: str, scenarios_, seeds, common_be, title: str, **extra) -> dict:
    """The Dataset attrs of an artefact of the sweep: provenance, the run's choices, the unit and
    the path's part."""
    sc = scenarios_[0]
    return kit.provenance(
        artefact,
        title,
        module,
        seeds,
        scenario_first=sc.to_json(),
        presets=", ".join(s.name for s in scenarios_),
        n_seeds=len(seeds),
        confidence=CONFIDENCE,
        common_be=int(bool(common_be)),
        be_sizes="stand-in 'real' distribution (data/be_size_cdf_standin.csv)",
        be_size_reading=be_sizes_text(scenarios_),
        transmission_unit_s=unit_s(sc),
        path_delay_ef_s=float(sc.path.extra_delay_s(EF_IP_BYTES)),
        ef_aggregate_bps=float(ef_rates_bps(sc).sum()),
        **extra,
    )


#: Attrs of the per-run variables :func:`run` measures besides the samples.
RUN_ATTRS = {
    "node_delay_mean": {"units": "s", "long_name": "mean node delay (departure - arrival)"},
    "be_kept_mean_bytes": {
        "units": "bytes",
        "long_name": "mean IP length of BE packets accepted by the node",
    },
    "be_offered_mean_bytes": {
        "units": "bytes",
        "long_name": "mean IP length of the BE packets offered to the node",
    },
    "be_loss_ratio": {"units": "1", "long_name": "BE loss ratio"},
    "delay_std": {
        "units": "s",
        "long_name": "standard deviation of the reference stream's one-way delay",
    },
    "delay_range": {
        "units": "s",
        "long_name": "range (max - min) of the reference stream's one-way delay",
    },
    "delay_lag1": {
        "units": "1",
        "long_name": "correlation of consecutive reference delays (lag 1)",
    },
}


def add_per_run(ds: xr.Dataset, runs, dims, *names) -> None:
    """Add the (point, seed) variables ``names`` measured by :func:`run` to ``ds`` (in place)."""
    for name in names:
        ds[name] = (dims, np.array([[r[name] for r in row] for row in runs]), dict(RUN_ATTRS[name]))


def samples(runs, key) -> np.ndarray:
    """(point, seed, sample) array of the runs' ``key`` samples (s), NaN-padded."""
    flat = [r[key] for row in runs for r in row]
    padded = _pad(flat)
    return padded.reshape(len(runs), len(runs[0]), padded.shape[1])


def with_frequency(
    ds: xr.Dataset,
    values: np.ndarray,
    width: float,
    width_units: float,
    *,
    point: str,
    bin_dim: str,
    bins_text: str,
    of: str,
) -> tuple[xr.Dataset, np.ndarray]:
    """``ds`` with the frequency distribution of ``values`` pooled over seeds
    (:func:`pooled_frequencies`).

    Parameters
    ----------
    ds : xarray.Dataset
        The artefact's Dataset, with the dimension ``point``.
    values : numpy.ndarray
        ``(point, seed, sample)`` samples in s (NaN ignored).
    width : float
        Bin width, s (> 0).
    width_units : float
        The same width in transmission units, as the labels print it.
    point, bin_dim : str
        The dimension of the points and the name of the new bin coordinate.
    bins_text : str
        What the bins are called in the coordinate's label (``"delay bins"``).
    of : str
        The quantity in the frequency's label (``"one-way delay"``).

    Returns
    -------
    ds : xarray.Dataset
        A copy with the coordinate ``bin_dim`` (left bin edges, s) and ``frequency (point,
        bin_dim)``.
    frequency : numpy.ndarray
        The ``(point, bin)`` relative frequencies.
    """
    edges, freq = pooled_frequencies(values, width)
    ds = ds.assign_coords(
        {
            bin_dim: (
                bin_dim,
                edges,
                {"units": "s", "long_name": f"left edge of {width_units:g}-unit {bins_text}"},
            )
        }
    )
    ds["frequency"] = (
        (point, bin_dim),
        freq,
        {"units": "1", "long_name": f"relative frequency of {of}, pooled over seeds"},
    )
    return ds, freq
