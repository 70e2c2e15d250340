"""GLOBECOM'01 Fig. 4, the "real" BE size CDF (here the STAND-IN).

The artefact's computation (:func:`compute`), the numbers its claims quote (:func:`claim_values`)
and figure (:func:`figure`); the notebook ``notebooks/02_real_distribution`` runs them. Sizes in
bytes, probabilities in 1.
"""

from __future__ import annotations

import math

import numpy as np
import xarray as xr

from ...base._validate import check_real
from ...base.numerics import dot
from ...measure import cache
from ...node.traffic import merge_streams
from .. import kit, presets
from ..registry import Artefact
from .shared import STANDIN_NOTE, check_dataset

__all__ = ["ARTEFACT", "compute", "claim_values", "figure", "FIG4_PROBABILITIES"]

ARTEFACT = Artefact(__name__, notebook="02_real_distribution")

#: Quantiles of the BE size CDF printed with Fig. 4.
FIG4_PROBABILITIES = (0.05, 0.25, 0.5, 0.75, 0.95)


@cache.artefact(ARTEFACT.id)
def compute(*, mode_min_probability: float = 0.1) -> xr.Dataset:
    """GLOBECOM'01 Fig. 4: the "real" BE size CDF -- here the STAND-IN
    (:func:`pqlab.scenarios.real_be_sizes`).

    Parameters
    ----------
    mode_min_probability : float
        Smallest probability mass, in (0, 1), of a size counted as a mode.

    Returns
    -------
    xarray.Dataset
        ``cdf`` and ``pmf`` on ``size_bytes``; ``quantile_bytes`` on ``probability``
        (5, 25, 50, 75, 95 %); attrs: mean, SD, modes, the preset's BE stream model,
        the provenance lines of the CSV.
    """
    thr = check_real("mode_min_probability", mode_min_probability, 0.0, 1.0, strict_minimum=True)
    dist = presets.real_be_sizes()
    sizes = np.array(dist.sizes_bytes)
    cdf = np.array(dist.cdf)
    pmf = dist.pmf()
    probs = np.array(FIG4_PROBABILITIES)
    quant = sizes[np.minimum(np.searchsorted(cdf, probs - 1e-12, side="left"), sizes.size - 1)]
    mean = dot(sizes, pmf)
    sd = math.sqrt(dot((sizes - mean) ** 2, pmf))
    modes = [int(s) for s in sizes[pmf >= thr]]
    header = [
        line[1:].strip()
        for line in presets.REAL_BE_CDF.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    ]
    real = presets.real_distribution(n_ef_samples=2)
    be = kit.be_streams(real)
    # the BE sizes the preset offers (seed 1, 2,000 EF intervals): by count they must follow the law
    offered_sc = presets.real_distribution(n_ef_samples=2000)
    _, offered, _, offered_flow = merge_streams(
        offered_sc.streams, np.random.default_rng(1), offered_sc.duration_s
    )
    offered = offered[offered_flow >= presets.FIRST_BE_FLOW]
    offered_ks = float(
        np.max(np.abs(np.searchsorted(np.sort(offered), sizes, side="right") / offered.size - cdf))
    )
    return claim_values(
        xr.Dataset(
            {
                "cdf": (
                    "size_bytes",
                    cdf,
                    {"units": "1", "long_name": "P(BE IP length <= size) (STAND-IN)"},
                ),
                "pmf": (
                    "size_bytes",
                    pmf,
                    {"units": "1", "long_name": "P(BE IP length = size) (STAND-IN)"},
                ),
                "quantile_bytes": (
                    "probability",
                    quant,
                    {"units": "bytes", "long_name": "q_p = min{x : F(x) >= p}"},
                ),
            },
            coords={
                "size_bytes": (
                    "size_bytes",
                    sizes,
                    {"units": "bytes", "long_name": "BE IP packet length"},
                ),
                "probability": ("probability", probs, {"units": "1"}),
            },
            attrs={
                **kit.provenance(
                    ARTEFACT.id,
                    f"{ARTEFACT.id}: STAND-IN 'real' BE packet size CDF (CAIDA AIX 1999 "
                    "fit), not the papers' trace",
                    __name__,
                ),
                # the repository's path, which a reader can look up, also when the file is read from
                # an
                # installed wheel (where it sits in pqlab/_data/)
                "file": f"data/{presets.REAL_BE_CDF.name}",
                "provenance": " ".join(header[:3]),
                "mean_bytes": mean,
                "sd_bytes": sd,
                "mode_min_probability": thr,
                "modes_bytes": modes,
                "mode_probabilities": [float(pmf[sizes == m][0]) for m in modes],
                "be_stream_models": sorted(
                    {f"{type(s).__name__}(size_per={s.size_per})" for s in be}
                ),
                "be_size_reading": presets.BE_SIZE_READINGS[be[0].size_per],
                "offered_be_packets": int(offered.size),
                "offered_be_mean_bytes": float(offered.mean()),
                "offered_be_ks": offered_ks,
                "be_streams": len(be),
            },
        )
    )


def claim_values(ds: xr.Dataset) -> xr.Dataset:
    """Add the numbers the claims quote (in place; returned): the quantiles' probabilities in %, the
    STAND-IN's modes (sizes with at least the mode mass) on a dimension ``mode`` and one by one
    (``mode_1``, ...), their count, the offered BE sizes against the law, whether every BE stream
    is a CBR stream, and the STAND-IN's mean and median IP length."""
    a = ds.attrs
    modes = [float(m) for m in a["modes_bytes"]]
    cbr = [m.startswith("CBRStream") for m in a["be_stream_models"]]
    q = dict(zip(ds["probability"].values, ds["quantile_bytes"].values))
    ds.coords["mode"] = ("mode", np.arange(1, len(modes) + 1), {"long_name": "mode, by size"})
    values = {
        "probability_pct": (ds["probability"] * 100, "%", "probability of a quantile"),
        "mode_bytes": (xr.DataArray(modes, dims=("mode",)), "bytes", "a size with the mode mass"),
        "mode_probability": (
            xr.DataArray(np.asarray(a["mode_probabilities"], dtype=float), dims=("mode",)),
            "1",
            "its probability",
        ),
        "n_modes": (len(modes), "", "sizes with the mode mass"),
        "mode_min_mass": (100 * a["mode_min_probability"], "%", "the mode mass"),
        "be_stream_is_cbr": (
            xr.DataArray(cbr, dims=("be_stream_model",)),
            "1",
            "a constant-rate BE stream",
        ),
        "offered_mean": (
            a["offered_be_mean_bytes"],
            "bytes",
            "mean IP length of the offered BE packets",
        ),
        "law_mean": (a["mean_bytes"], "bytes", "mean IP length of the law"),
        "offered_ks": (a["offered_be_ks"], "1", "KS distance of the offered BE sizes from the law"),
        "standin_used": (True, "1", "the BE sizes are the STAND-IN's"),
        "standin_mean_size": (a["mean_bytes"], "bytes", "STAND-IN mean IP length"),
        "standin_median_size": (float(q.get(0.5, math.nan)), "bytes", "STAND-IN median IP length"),
    }
    values.update({f"mode_{i}": (m, "bytes", f"mode {i}") for i, m in enumerate(modes, start=1)})
    return kit.add_claim_values(ds, values)


def figure(data: xr.Dataset):
    """GLOBECOM'01 Fig. 4: the BE size CDF used as "real" -- the STAND-IN -- as a step CDF with its
    quantiles."""
    check_dataset(ARTEFACT.id, data, ("cdf", "quantile_bytes"))
    a = data.attrs
    fig, ax = kit.subplots(figsize=(9, 5.2))
    sizes, cdf = data["size_bytes"].values, data["cdf"].values
    ax.step(
        np.r_[0, sizes],
        np.r_[0.0, cdf],
        where="post",
        color="C0",
        lw=2,
        label="STAND-IN CDF P(size <= x)",
    )
    for p, q in zip(data["probability"].values, data["quantile_bytes"].values):
        ax.plot([0, q], [p, p], color="0.6", ls=":", lw=1)
        ax.plot(q, p, "o", color="C3", ms=5)
        ax.annotate(
            f"q{p * 100:g} = {int(q)} B",
            (q, p),
            xytext=(8, -12 if p > 0.9 else 4),
            textcoords="offset points",
            fontsize=8,
            color="C3",
        )
    ax.text(
        0.55,
        0.35,
        "STAND-IN",
        transform=ax.transAxes,
        fontsize=48,
        color="C3",
        alpha=0.12,
        rotation=20,
        ha="center",
        va="center",
        fontweight="bold",
    )
    ax.text(
        0.98,
        0.04,
        f"mean {a['mean_bytes']:.0f} B, SD {a['sd_bytes']:.0f} B\nmodes "
        + ", ".join(f"{m} B" for m in np.atleast_1d(a["modes_bytes"]))
        + f"\n{a['file']}",
        transform=ax.transAxes,
        ha="right",
        va="bottom",
        fontsize=8,
        bbox=dict(fc="white", ec="0.7"),
    )
    ax.set_xlim(0, 1550)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("BE IP packet length x (bytes)")
    ax.set_ylabel("P(size <= x)")
    ax.legend(loc="upper left", fontsize=8)
    ax.set_title(f"{ARTEFACT.id}: {STANDIN_NOTE}", fontsize=10.5)
    return fig
