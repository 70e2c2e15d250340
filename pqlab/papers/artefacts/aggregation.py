"""EF aggregation and EF frame size: GLOBECOM'01 Sec. V, long version Sec. 6 and 7.

One compute function per artefact id, each building its scenarios from the presets
:func:`pqlab.scenarios.aggregation` / :func:`pqlab.scenarios.ef_frame_size`, running
the engine for every point and seed, and returning an ``xarray.Dataset`` with the
samples, the per-run statistics, their mean and 95% confidence half-width across
seeds, and the pooled distributions its figure draws:

``globecom01_fig7``
    EF one-way delay frequency distribution and CCDF vs the Aggregation Degree A
    (GLOBECOM'01 Fig. 7-1 / 7-2; long version Fig. 6).
``globecom01_tab3``
    Mean one-way delay per A (GLOBECOM'01 Table III; long version Sec. 6.1), with
    the measured parts of the delay (path, node) that explain the gap.
``long_ipdv_vs_a``
    IPDV distributions vs A, mean and maximum |IPDV|, peaks (long version Sec. 6.2).
``long_fig7_tab3``
    IPDV vs EF frame size 128 / 512 / 1024 bytes (long version Sec. 7, Fig. 7, Table 3).

:mod:`pqlab.papers.artefacts.claims.aggregation` (``globecom01_fig7_claims``, ``globecom01_tab3_claims``,
``long_ipdv_vs_a_claims``, ``long_fig7_tab3_claims``) turns these Datasets into the claim
records a notebook records with :func:`pqlab.papers.artefacts.record_claims` (paper keys of
``data/paper_values.csv``, the paper's units, a one-line computed note and ``shape_ok``
for trend claims); import it on its own, ``from pqlab.papers.artefacts.claims import
aggregation as agg_claims``: this module does not import or offer the claims.

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

from ...measure import cache, metrics
from ...measure.analysis import count_peaks, pooled_frequencies, trend
from ...base._validate import check_int, check_real
from ...measure.experiments import measurement_window, reference_delay, reference_ipdv
from ..stated import EF_AGGREGATE_BPS, EF_FRAME_SIZES, EF_IP_BYTES, transmission_unit_s
from ...node.scenario import Scenario, simulate
from ..presets import (
    BE_QUEUE,
    EF_FRAME_BYTES,
    ETHERNET_FRAME_OVERHEAD_BYTES,
    aggregation,
    base_case,
    be_streams_first,
    ef_frame_size,
    ef_ip_bytes,
    real_be_sizes,
)
from ._common import (
    add_mean_ci,
    be_streams,
    check_bool,
    check_n_ef_samples,
    check_seeds,
    check_values,
    CONFIDENCE,
    ef_streams,
    frame_rate_bps,
    MTU_PAYLOAD_BYTES,
    provenance,
    REF_RATES_BPS,
)

__all__ = [
    "REF_RATES_BPS",
    "EF_FRAME_SIZES",
    "globecom01_fig7",
    "globecom01_tab3",
    "long_ipdv_vs_a",
    "long_fig7_tab3",
    "count_peaks",
    "a_key",
    "a_text",
]

#: Deterministic BE payloads (bytes) whose delays show the BE profile's influence: GLOBECOM'01 Fig. 3's range.
BE_REFERENCE_PAYLOADS = (100, 1450)
#: Log-scale peak counting (a secondary check): a peak must be twice its trough ...
LOG_PEAK_DECADES = float(np.log10(2.0))
#: ... and its bin must hold this many samples or more (pooled).
LOG_PEAK_MIN_SAMPLES = 30


# --------------------------------------------------------------------------- helpers


def _ef_rates_bps(sc: Scenario) -> np.ndarray:
    return np.array([frame_rate_bps(s) for s in ef_streams(sc)])


def _unit_s(sc: Scenario) -> float:
    """The transmission unit on the scenario's line (:func:`pqlab.papers.transmission_unit_s`)."""
    return transmission_unit_s(sc.node)


def _pad(samples: list[np.ndarray]) -> np.ndarray:
    """Stack 1-D arrays of unequal length, padding with NaN."""
    n = max(s.size for s in samples)
    out = np.full((len(samples), n), np.nan)
    for i, s in enumerate(samples):
        out[i, : s.size] = s
    return out


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
def _run(sc: Scenario, seed: int) -> dict:
    """Simulate one scenario and take the reference stream's measurements."""
    ds = simulate(sc, seed=seed)
    delay = reference_delay(ds, sc).values
    ipdv = reference_ipdv(ds, sc).values
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


def _mtu_runs(n_ef_samples: int, seeds, frames=(EF_FRAME_BYTES,)) -> dict:
    """Reference runs with deterministic 1500-byte BE packets (A = 0): per (frame, seed) statistics."""
    out = {k: np.zeros((len(frames), len(seeds))) for k in ("delay_mean", "jitter_mean", "jitter_std", "jitter_max")}
    for i, f in enumerate(frames):
        sc = base_case(be_payload_bytes=MTU_PAYLOAD_BYTES, ef_frame_bytes=int(f), n_ef_samples=n_ef_samples)
        for j, seed in enumerate(seeds):
            r = _run(sc, seed)
            jitter = metrics.jitter_of_ipdv(r["ipdv"])
            out["delay_mean"][i, j] = np.nanmean(r["delay"])
            out["jitter_mean"][i, j] = jitter.mean()
            out["jitter_std"][i, j] = jitter.std(ddof=1)
            out["jitter_max"][i, j] = jitter.max()
    return out


def _aggregation_runs(n_ef_samples, seeds, ref_rates_bps, ef_aggregate_bps, common_be):
    """Every (reference rate, seed) run of the aggregation experiment, plus the A coordinates."""
    n = check_n_ef_samples(n_ef_samples)
    seeds = check_seeds(seeds)
    aggregate = check_real("ef_aggregate_bps", ef_aggregate_bps, 0.0, strict_minimum=True)
    rates = check_values("ref_rates_bps", ref_rates_bps, 0.0)
    if max(rates) > aggregate:
        raise ValueError(f"ref_rates_bps must be <= ef_aggregate_bps = {aggregate!r}, got {max(rates)!r}")
    common_be = check_bool("common_be", common_be)
    scenarios_, a_values, n_streams, runs = [], [], [], []
    for rate in rates:
        sc = aggregation(ref_rate_bps=rate, ef_aggregate_bps=aggregate, n_ef_samples=n)
        sc = be_streams_first(sc) if common_be else sc
        ef = _ef_rates_bps(sc)
        a_values.append(metrics.aggregation_degree(ef))
        n_streams.append(ef.size)
        scenarios_.append(sc)
        runs.append([_run(sc, s) for s in seeds])
    coords = {
        "aggregation_degree": ("aggregation_degree", np.array(a_values),
                               {"units": "1", "long_name": "Aggregation Degree A = 1 - l_max / L_BA (eq. 1)"}),
        "ref_rate_bps": ("aggregation_degree", np.array(rates),
                         {"units": "bit/s", "long_name": "reference stream rate (frames)"}),
        "n_ef_streams": ("aggregation_degree", np.array(n_streams),
                         {"units": "1", "long_name": "EF streams in the aggregate"}),
        "seed": ("seed", np.array(seeds), {"units": "1", "long_name": "random seed"}),
    }
    return scenarios_, runs, coords


def _attrs(artefact: str, scenarios_, seeds, common_be, title: str, **extra) -> dict:
    sc = scenarios_[0]
    return provenance(
        artefact, title, __name__, seeds,
        scenario_first=sc.to_json(),
        presets=", ".join(s.name for s in scenarios_),
        n_seeds=len(seeds),
        confidence=CONFIDENCE,
        common_be=int(bool(common_be)),
        be_sizes="stand-in 'real' distribution (data/be_size_cdf_standin.csv), by packet count",
        transmission_unit_s=_unit_s(sc),
        path_delay_ef_s=float(sc.path.extra_delay_s(EF_IP_BYTES)),
        ef_aggregate_bps=float(_ef_rates_bps(sc).sum()),
        **extra,
    )


#: Attrs of the per-run variables :func:`_run` measures besides the samples.
_RUN_ATTRS = {
    "node_delay_mean": {"units": "s", "long_name": "mean node delay (departure - arrival)"},
    "be_kept_mean_bytes": {"units": "bytes", "long_name": "mean IP length of BE packets accepted by the node"},
    "be_offered_mean_bytes": {"units": "bytes", "long_name": "mean IP length of the BE packets offered to the node"},
    "be_loss_ratio": {"units": "1", "long_name": "BE loss ratio"},
}


def _per_run(runs, key) -> np.ndarray:
    return np.array([[r[key] for r in row] for row in runs])


def _add_per_run(ds: xr.Dataset, runs, dims, *names) -> None:
    """Add the (point, seed) variables ``names`` measured by :func:`_run` to ``ds``."""
    for name in names:
        ds[name] = (dims, _per_run(runs, name), dict(_RUN_ATTRS[name]))


def _samples(runs, key) -> np.ndarray:
    """(point, seed, sample) array of the runs' ``key`` samples, NaN-padded."""
    flat = [r[key] for row in runs for r in row]
    padded = _pad(flat)
    return padded.reshape(len(runs), len(runs[0]), padded.shape[1])


def _with_frequency(ds: xr.Dataset, samples: np.ndarray, width: float, width_units: float, *,
                    point: str, bin_dim: str, bins_text: str, of: str) -> tuple[xr.Dataset, np.ndarray]:
    """``ds`` with the frequency distribution of ``samples`` pooled over seeds (:func:`pooled_frequencies`).

    Parameters
    ----------
    ds : xarray.Dataset
        The artefact's Dataset, with the dimension ``point``.
    samples : numpy.ndarray
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
        A copy with the coordinate ``bin_dim`` (left bin edges, s) and ``frequency (point, bin_dim)``.
    frequency : numpy.ndarray
        The ``(point, bin)`` relative frequencies.
    """
    edges, freq = pooled_frequencies(samples, width)
    ds = ds.assign_coords({bin_dim: (bin_dim, edges,
                                     {"units": "s", "long_name": f"left edge of {width_units:g}-unit {bins_text}"})})
    ds["frequency"] = ((point, bin_dim), freq,
                       {"units": "1", "long_name": f"relative frequency of {of}, pooled over seeds"})
    return ds, freq


# --------------------------------------------------------------------------- artefacts


@cache.artefact()
def globecom01_fig7(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    *,
    ref_rates_bps=REF_RATES_BPS,
    ef_aggregate_bps: float = EF_AGGREGATE_BPS,
    common_be: bool = True,
    bin_width_units: float = 0.5,
    be_reference_payloads=BE_REFERENCE_PAYLOADS,
) -> xr.Dataset:
    """EF one-way delay distribution and CCDF vs Aggregation Degree (GLOBECOM'01 Fig. 7).

    Parameters
    ----------
    n_ef_samples : int
        Reference packets per run (the papers: 10,000), >= 2.
    seeds : sequence of int
        Distinct seeds >= 0; every number is a mean over them.
    ref_rates_bps : sequence of float
        Reference stream rates, bit/s of frames, each <= ``ef_aggregate_bps``.
    ef_aggregate_bps : float
        EF aggregate rate, bit/s of frames (300 kbit/s).
    common_be : bool
        Generate BE before EF so a seed gives the same BE mix at every A.
    bin_width_units : float
        Bin width of the frequency distributions, transmission units (> 0).
    be_reference_payloads : sequence of int
        Deterministic BE UDP payloads, bytes, run with :func:`pqlab.scenarios.base_case`
        (A = 0, same seeds): how much the BE profile moves the mean delay, against how
        much A does (the paper: "the influence of the BE traffic profile on delay is
        greater"). Default: the ends of GLOBECOM'01 Fig. 3's range, 100 and 1450 bytes.
        Empty: skip.

    Returns
    -------
    xarray.Dataset
        ``delay (aggregation_degree, seed, sample)`` s; per run ``delay_mean``,
        ``delay_std``, ``delay_p99`` (s) with ``_mean``/``_ci`` over seeds;
        ``frequency (aggregation_degree, delay_bin)`` and ``ccdf (aggregation_degree,
        threshold)`` pooled over seeds; ``ccdf_seed`` per seed;
        ``be_reference_delay_mean (be_payload_bytes, seed)``; attrs with the
        transmission unit, the trend of the spread and the CCDF distances.
    """
    width_u = check_real("bin_width_units", bin_width_units, 0.0, strict_minimum=True)
    try:
        payloads = list(be_reference_payloads)
    except TypeError:
        raise ValueError(
            f"be_reference_payloads must be a sequence of integers, got {be_reference_payloads!r}") from None
    if payloads:
        payloads = check_values("be_reference_payloads", payloads, 1, integer=True)
    scs, runs, coords = _aggregation_runs(n_ef_samples, seeds, ref_rates_bps, ef_aggregate_bps, common_be)
    unit = _unit_s(scs[0])
    delay = _samples(runs, "delay")
    s = {"units": "s"}
    ds = xr.Dataset(coords=coords)
    ds["delay"] = (("aggregation_degree", "seed", "sample"), delay,
                   {**s, "long_name": "one-way delay of the reference stream (NaN: lost or padding)"})
    ds["delay_mean"] = (("aggregation_degree", "seed"), np.nanmean(delay, axis=2),
                        {**s, "long_name": "mean one-way delay"})
    ds["delay_std"] = (("aggregation_degree", "seed"), np.nanstd(delay, axis=2, ddof=1),
                       {**s, "long_name": "standard deviation of one-way delay"})
    ds["delay_p99"] = (("aggregation_degree", "seed"), np.nanpercentile(delay, 99, axis=2),
                       {**s, "long_name": "99th percentile of one-way delay"})
    add_mean_ci(ds, ("delay_mean", "delay_std", "delay_p99"))
    width = width_u * unit
    ds, _ = _with_frequency(ds, delay, width, width_u, point="aggregation_degree", bin_dim="delay_bin",
                            bins_text="delay bins", of="one-way delay")
    thresholds = np.linspace(0.0, np.nanmax(delay), 600)
    ds = ds.assign_coords(threshold=("threshold", thresholds, {"units": "s", "long_name": "delay threshold d"}))
    ds["ccdf"] = (("aggregation_degree", "threshold"),
                  np.array([metrics.ccdf(delay[i].ravel(), thresholds).probability for i in range(delay.shape[0])]),
                  {"units": "1", "long_name": "P(D > d), pooled over seeds"})
    ds["ccdf_seed"] = (("aggregation_degree", "seed", "threshold"),
                       np.array([[metrics.ccdf(delay[i, j], thresholds).probability for j in range(delay.shape[1])]
                                 for i in range(delay.shape[0])]),
                       {"units": "1", "long_name": "P(D > d) per seed"})
    a = ds["aggregation_degree"].values
    slope, half, holds = trend(ds["delay_std"].values, a)
    hi, lo = int(np.argmax(a)), int(np.argmin(a))
    distance = float(np.max(np.abs(ds["ccdf"].values[hi] - ds["ccdf"].values[lo])))
    seed_distance = [float(np.max(np.abs(ds["ccdf_seed"].values[lo, j] - ds["ccdf_seed"].values[lo, k])))
                     for j in range(delay.shape[1]) for k in range(j + 1, delay.shape[1])]
    if payloads:
        seeds_ = [int(x) for x in ds["seed"].values]
        ref = []
        for p in payloads:
            sc = base_case(be_payload_bytes=p, n_ef_samples=int(n_ef_samples))
            ref.append([float(np.nanmean(_run(sc, x)["delay"])) for x in seeds_])  # memoised runs
        ds = ds.assign_coords(be_payload_bytes=("be_payload_bytes", np.array(payloads),
                                                {"units": "bytes", "long_name": "deterministic BE UDP payload"}))
        ds["be_reference_delay_mean"] = (("be_payload_bytes", "seed"), np.array(ref),
                                         {"units": "s", "long_name": "mean one-way delay, deterministic BE, A = 0"})
    ds.attrs = _attrs(
        "globecom01_fig7", scs, coords["seed"][1], common_be,
        "GLOBECOM'01 Fig. 7: EF one-way delay distribution vs Aggregation Degree (stand-in BE sizes)",
        bin_width_s=width,
        delay_std_slope_s=slope, delay_std_slope_ci_s=half, spread_increases=int(holds),
        ccdf_distance_extreme_a=distance,
        ccdf_distance_between_seeds_a0=float(np.mean(seed_distance)) if seed_distance else np.nan,
    )
    return ds


@cache.artefact()
def globecom01_tab3(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    *,
    ref_rates_bps=REF_RATES_BPS,
    ef_aggregate_bps: float = EF_AGGREGATE_BPS,
    common_be: bool = True,
    mtu_reference: bool = True,
) -> xr.Dataset:
    """Mean one-way delay per Aggregation Degree (GLOBECOM'01 Table III) and its parts.

    Parameters
    ----------
    n_ef_samples, seeds, ref_rates_bps, ef_aggregate_bps, common_be
        As in :func:`globecom01_fig7`.
    mtu_reference : bool
        Also run :func:`pqlab.scenarios.base_case` with 1500-byte BE packets (same
        seeds and sample count): the node's delay with the largest BE packets, to
        tell the stand-in BE mix from the node model as the cause of a gap.

    Returns
    -------
    xarray.Dataset
        Per (aggregation_degree, seed): ``delay_mean`` (s), ``node_delay_mean`` (s,
        node only: departure - arrival), ``be_kept_mean_bytes`` (mean IP length of
        the BE packets the node accepted), ``be_offered_mean_bytes`` (of those offered); each with
        ``_mean``/``_ci`` over seeds; ``mtu_delay_mean (seed)``; attrs with the
        path's part and the trend of the mean along A.
    """
    mtu = check_bool("mtu_reference", mtu_reference)
    scs, runs, coords = _aggregation_runs(n_ef_samples, seeds, ref_rates_bps, ef_aggregate_bps, common_be)
    ds = xr.Dataset(coords=coords)
    dims = ("aggregation_degree", "seed")
    ds["delay_mean"] = (dims, np.array([[np.nanmean(r["delay"]) for r in row] for row in runs]),
                        {"units": "s", "long_name": "mean one-way delay (node + path)"})
    _add_per_run(ds, runs, dims, "node_delay_mean", "be_kept_mean_bytes", "be_offered_mean_bytes", "be_loss_ratio")
    add_mean_ci(ds, ("delay_mean", "node_delay_mean", "be_kept_mean_bytes", "be_offered_mean_bytes",
                     "be_loss_ratio"))
    seeds_ = list(coords["seed"][1])
    if mtu:
        ref = _mtu_runs(int(n_ef_samples), seeds_)
        ds["mtu_delay_mean"] = ("seed", ref["delay_mean"][0],
                                {"units": "s",
                                 "long_name": "mean one-way delay with deterministic 1500-byte BE packets"})
    slope, half, holds = trend(ds["delay_mean"].values, ds["aggregation_degree"].values)
    ds.attrs = _attrs(
        "globecom01_tab3", scs, seeds_, common_be,
        "GLOBECOM'01 Table III: mean EF one-way delay vs Aggregation Degree (stand-in BE sizes)",
        delay_slope_s=slope, delay_slope_ci_s=half, mean_increases=int(holds),
        stand_in_mean_bytes=float(real_be_sizes().mean_bytes),
    )
    return ds


@cache.artefact()
def long_ipdv_vs_a(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    *,
    ref_rates_bps=REF_RATES_BPS,
    ef_aggregate_bps: float = EF_AGGREGATE_BPS,
    common_be: bool = True,
    bin_width_units: float = 0.5,
    smooth_units: float = 0.5,
    min_prominence: float = 0.05,
    mtu_reference: bool = True,
) -> xr.Dataset:
    """IPDV (RFC 3393) of the reference stream vs Aggregation Degree (long version Sec. 6.2).

    Parameters
    ----------
    n_ef_samples, seeds, ref_rates_bps, ef_aggregate_bps, common_be
        As in :func:`globecom01_fig7`.
    bin_width_units : float
        Bin width of the |IPDV| frequency distributions, transmission units (> 0).
    smooth_units, min_prominence : float
        Peak counting (:func:`count_peaks`): Gaussian smoothing in transmission units,
        and the prominence a peak needs, as a fraction of the tallest bin.
    mtu_reference : bool
        Also run :func:`pqlab.scenarios.base_case` with 1500-byte BE packets (A = 0,
        same seeds): ``mtu_jitter_mean``, ``mtu_jitter_max (seed)``, to tell the BE
        mix's share of a gap.

    Returns
    -------
    xarray.Dataset
        ``ipdv (aggregation_degree, seed, sample)`` signed, s; per run ``jitter_mean``
        (mean |IPDV|), ``ipdv_mean`` (signed), ``jitter_max`` (max |IPDV|), ``ipdv_std``,
        ``jitter_std`` (s) and ``fraction_below_unit`` (share of |IPDV| below one
        transmission unit), with ``_mean``/``_ci``; pooled ``frequency`` and
        ``smoothed`` |IPDV| distributions on ``ipdv_bin``, ``is_peak`` and ``n_peaks``.
    """
    width_u = check_real("bin_width_units", bin_width_units, 0.0, strict_minimum=True)
    check_real("smooth_units", smooth_units, 0.0)
    check_real("min_prominence", min_prominence, 0.0, 1.0, strict_minimum=True)
    mtu = check_bool("mtu_reference", mtu_reference)
    scs, runs, coords = _aggregation_runs(n_ef_samples, seeds, ref_rates_bps, ef_aggregate_bps, common_be)
    unit = _unit_s(scs[0])
    ipdv = _samples(runs, "ipdv")
    jitter = metrics.jitter_of_ipdv(ipdv)
    dims = ("aggregation_degree", "seed")
    s = {"units": "s"}
    ds = xr.Dataset(coords=coords)
    ds["ipdv"] = (("aggregation_degree", "seed", "sample"), ipdv,
                  {**s, "long_name": "IPDV D[i+1] - D[i] of the reference stream (NaN: padding)"})
    with np.errstate(invalid="ignore"):
        per_run = {
            "jitter_mean": (np.nanmean(jitter, axis=2), "mean |IPDV| (the papers' 'average IPDV')"),
            "ipdv_mean": (np.nanmean(ipdv, axis=2), "mean signed IPDV (telescopes to ~0)"),
            "jitter_max": (np.nanmax(jitter, axis=2), "maximum |IPDV|"),
            "jitter_std": (np.nanstd(jitter, axis=2, ddof=1), "standard deviation of |IPDV|"),
            "ipdv_std": (np.nanstd(ipdv, axis=2, ddof=1), "standard deviation of signed IPDV"),
        }
    for name, (values, long_name) in per_run.items():
        ds[name] = (dims, values, {**s, "long_name": long_name})
    finite = np.isfinite(jitter)
    ds["fraction_below_unit"] = (dims, np.sum((jitter < unit) & finite, axis=2) / np.sum(finite, axis=2),
                                 {"units": "1", "long_name": "share of |IPDV| below one transmission unit"})
    _add_per_run(ds, runs, dims, "be_kept_mean_bytes")
    add_mean_ci(ds, [*per_run, "fraction_below_unit", "be_kept_mean_bytes"])
    width = width_u * unit
    ds, freq = _with_frequency(ds, jitter, width, width_u, point="aggregation_degree", bin_dim="ipdv_bin",
                               bins_text="|IPDV| bins", of="|IPDV|")
    smoothed, is_peak = np.zeros_like(freq), np.zeros(freq.shape, dtype=bool)
    is_peak_log = np.zeros(freq.shape, dtype=bool)
    for i in range(freq.shape[0]):
        smoothed[i], peaks = count_peaks(freq[i], width_u, smooth=smooth_units, min_prominence=min_prominence)
        is_peak[i, peaks] = True
        floor = LOG_PEAK_MIN_SAMPLES / np.isfinite(jitter[i]).sum()
        _, peaks = count_peaks(freq[i], width_u, smooth=smooth_units, min_prominence=LOG_PEAK_DECADES,
                               scale="log", floor=floor)
        is_peak_log[i, peaks] = True
    ds["smoothed"] = (("aggregation_degree", "ipdv_bin"), smoothed,
                      {"units": "1", "long_name": f"frequency smoothed (Gaussian, sigma {smooth_units:g} units)"})
    ds["is_peak"] = (("aggregation_degree", "ipdv_bin"), is_peak,
                     {"units": "1", "long_name": "peak of the smoothed frequency"})
    ds["n_peaks"] = ("aggregation_degree", is_peak.sum(axis=1),
                     {"units": "1", "long_name": "peaks of the |IPDV| distribution"})
    ds["is_peak_log"] = (("aggregation_degree", "ipdv_bin"), is_peak_log,
                         {"units": "1", "long_name": "peak of the smoothed frequency on a log scale"})
    ds["n_peaks_log"] = ("aggregation_degree", is_peak_log.sum(axis=1),
                         {"units": "1", "long_name": "peaks of the |IPDV| distribution on a log scale"})
    if mtu:
        ref = _mtu_runs(int(n_ef_samples), list(coords["seed"][1]))
        ds["mtu_jitter_mean"] = ("seed", ref["jitter_mean"][0],
                                 {"units": "s",
                                  "long_name": "mean |IPDV| with deterministic 1500-byte BE packets, A = 0"})
        ds["mtu_jitter_max"] = ("seed", ref["jitter_max"][0],
                                {"units": "s",
                                 "long_name": "max |IPDV| with deterministic 1500-byte BE packets, A = 0"})
    a = ds["aggregation_degree"].values
    jm_slope, jm_half, jm_holds = trend(ds["jitter_mean"].values, a)
    fb_slope, fb_half, fb_holds = trend(ds["fraction_below_unit"].values, a)
    ds.attrs = _attrs(
        "long_ipdv_vs_a", scs, list(coords["seed"][1]), common_be,
        "Long version Sec. 6.2: IPDV of the reference stream vs Aggregation Degree (stand-in BE sizes)",
        bin_width_s=width, smooth_units=float(smooth_units), min_prominence=float(min_prominence),
        jitter_mean_slope_s=jm_slope, jitter_mean_slope_ci_s=jm_half, jitter_mean_increases=int(jm_holds),
        fraction_below_unit_slope=fb_slope, fraction_below_unit_slope_ci=fb_half,
        fraction_below_unit_increases=int(fb_holds),
    )
    return ds


@cache.artefact()
def long_fig7_tab3(
    n_ef_samples: int = 10_000,
    seeds=(1, 2, 3),
    *,
    ef_frame_bytes=EF_FRAME_SIZES,
    common_be: bool = True,
    interval_units: float = 1.0,
    mtu_reference: bool = True,
) -> xr.Dataset:
    """IPDV vs EF frame size, one EF stream of 300 kbit/s (long version Sec. 7, Fig. 7, Table 3).

    Parameters
    ----------
    n_ef_samples : int
        Reference packets per run (the papers: 10,000), >= 2.
    seeds : sequence of int
        Distinct seeds >= 0.
    ef_frame_bytes : sequence of int
        EF frame sizes, bytes (IP length = frame - 18), each in [64, 1518].
    common_be : bool
        Generate BE before EF so a seed gives the same BE mix at every frame size.
    interval_units : float
        Width of the |IPDV| intervals, in transmission units of the 128-byte frame
        (0.636 ms); the paper's "single interval" width is not stated.
    mtu_reference : bool
        Also run every frame size with deterministic 1500-byte BE packets (same seeds):
        ``mtu_jitter_std (ef_frame_bytes, seed)``.

    Returns
    -------
    xarray.Dataset
        ``ipdv (ef_frame_bytes, seed, sample)`` signed, s; per run ``jitter_std``
        (std of |IPDV|, the papers' IPDV std), ``ipdv_std`` (signed), ``jitter_mean``
        (s) and ``mode_fraction`` (share of |IPDV| in the most populated interval),
        with ``_mean``/``_ci``; pooled ``frequency`` on ``ipdv_bin``.
    """
    n = check_n_ef_samples(n_ef_samples)
    seeds = check_seeds(seeds)
    frames = check_values("ef_frame_bytes", ef_frame_bytes, 64, integer=True)
    for f in frames:
        check_int("ef_frame_bytes", f, 64, 1518)
    common_be = check_bool("common_be", common_be)
    width_u = check_real("interval_units", interval_units, 0.0, strict_minimum=True)
    mtu = check_bool("mtu_reference", mtu_reference)
    scs, runs = [], []
    for f in frames:
        sc = ef_frame_size(ef_frame_bytes=f, n_ef_samples=n)
        sc = be_streams_first(sc) if common_be else sc
        scs.append(sc)
        runs.append([_run(sc, s) for s in seeds])
    unit = _unit_s(scs[0])
    width = width_u * unit
    ipdv = _samples(runs, "ipdv")
    jitter = metrics.jitter_of_ipdv(ipdv)
    coords = {
        "ef_frame_bytes": ("ef_frame_bytes", np.array(frames), {"units": "bytes", "long_name": "EF frame size"}),
        "ef_ip_bytes": ("ef_frame_bytes", np.array(frames) - ETHERNET_FRAME_OVERHEAD_BYTES,
                        {"units": "bytes", "long_name": "EF IP length"}),
        "seed": ("seed", np.array(seeds), {"units": "1", "long_name": "random seed"}),
    }
    dims = ("ef_frame_bytes", "seed")
    ds = xr.Dataset(coords=coords)
    ds["ipdv"] = (("ef_frame_bytes", "seed", "sample"), ipdv,
                  {"units": "s", "long_name": "IPDV D[i+1] - D[i] of the EF stream (NaN: padding)"})
    ds["jitter_std"] = (dims, np.nanstd(jitter, axis=2, ddof=1),
                        {"units": "s", "long_name": "standard deviation of |IPDV|"})
    ds["ipdv_std"] = (dims, np.nanstd(ipdv, axis=2, ddof=1),
                      {"units": "s", "long_name": "standard deviation of signed IPDV"})
    ds["jitter_mean"] = (dims, np.nanmean(jitter, axis=2), {"units": "s", "long_name": "mean |IPDV|"})
    mode = np.zeros(jitter.shape[:2])
    for i in range(jitter.shape[0]):
        for j in range(jitter.shape[1]):
            mode[i, j] = metrics.frequency_distribution(jitter[i, j], width).probability.max()
    ds["mode_fraction"] = (dims, mode, {"units": "1", "long_name": f"share of |IPDV| in the most populated "
                                                                   f"{width_u:g}-unit interval"})
    _add_per_run(ds, runs, dims, "be_kept_mean_bytes")
    add_mean_ci(ds, ("jitter_std", "ipdv_std", "jitter_mean", "mode_fraction", "be_kept_mean_bytes"))
    ds, _ = _with_frequency(ds, jitter, width, width_u, point="ef_frame_bytes", bin_dim="ipdv_bin",
                            bins_text="|IPDV| intervals", of="|IPDV|")
    if mtu:
        ref = _mtu_runs(n, seeds, frames)
        ds["mtu_jitter_std"] = (dims, ref["jitter_std"],
                                {"units": "s", "long_name": "std of |IPDV| with deterministic 1500-byte BE packets"})
    slope, half, holds = trend(ds["jitter_std"].values, frames)
    be = be_streams(scs[0])
    ds.attrs = _attrs(
        "long_fig7_tab3", scs, seeds, common_be,
        "Long version Sec. 7: IPDV vs EF frame size, one EF stream of 300 kbit/s (stand-in BE sizes)",
        bin_width_s=width, interval_units=width_u,
        jitter_std_slope_s_per_byte=slope, jitter_std_slope_ci_s_per_byte=half, std_increases=int(holds),
        ef_rate_bps=float(_ef_rates_bps(scs[0]).sum()),
        n_ef_streams=int(len(_ef_rates_bps(scs[0]))),
        be_load_bps=float(sum(s.rate_bps for s in be)),
        n_be_streams=len(be),
        be_size_max_bytes=int(max(s.size.max_bytes + s.header_bytes for s in be)),
    )
    return ds
