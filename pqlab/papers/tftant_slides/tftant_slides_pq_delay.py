"""TF-TANT slides, "PQ: one-way delay": mean EF delay with PQ against the BE and the EF packet size.

The artefact's computation (:func:`compute`), claims (:func:`claims`) and figure (:func:`figure`);
the notebook ``notebooks/11_network_and_slides`` runs them. The Dataset is in SI units (times in
seconds, sizes in bytes, rates in bit/s); the claims and the figure state times in ms.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import xarray as xr

from ...base.units import to_kbps, to_mbps, to_ms
from ...measure import cache, experiments
from ...measure.analysis import mean_ci
from ...node.framing import line_time_s
from .. import judge, kit, presets
from ..registry import Artefact

__all__ = ["ARTEFACT", "compute", "claims", "figure", "PQ_DELAY_EF_FRAMES", "PQ_DELAY_BE_SIZES",
           "DEPENDS_MIN_SHARE", "DEPENDS_CI_MULTIPLE"]

ARTEFACT = Artefact(__name__, notebook="11_network_and_slides")

#: EF frame sizes of the sweep, bytes (the slides' 128 .. 1518 range).
PQ_DELAY_EF_FRAMES = (128, 512, 1024, 1518)
#: ... and the BE IP lengths, bytes (the TF-TANT BE profile is one size, 1000 bytes; 256 .. 1500 around it).
PQ_DELAY_BE_SIZES = (256, 512, 1000, 1500)
#: "Delay depends on X" holds when, at every value of the other size, the mean delay's range over X
#: exceeds this share of its smallest value ...
DEPENDS_MIN_SHARE = 0.05
#: ... and this many widest 95 % CI half-widths (when there are several seeds).
DEPENDS_CI_MULTIPLE = 2


@cache.artefact(ARTEFACT.id)
def compute(n_ef_samples: int = 10_000, seeds=(1, 2, 3), ef_frames: Sequence[int] = PQ_DELAY_EF_FRAMES,
            be_sizes: Sequence[int] = PQ_DELAY_BE_SIZES) -> xr.Dataset:
    """Mean EF delay with PQ for every EF frame size and BE IP length (TF-TANT slides, "PQ: one-way delay").

    Runs :func:`pqlab.scenarios.pq_vs_wfq` with ``scheduler="pq"`` (the slides' C7200:
    tx-ring-limit 5, EF queue 10, EF 300 kbit/s policed at 400 kbit/s, one BE CBR stream of
    2.0 Mbit/s) for every EF frame size and BE IP length.

    Parameters
    ----------
    n_ef_samples : int
        EF packets measured per run (>= 10).
    seeds : sequence of int
        Seeds.
    ef_frames : sequence of int
        EF frame sizes, bytes (IP = frame - 18), increasing.
    be_sizes : sequence of int
        BE IP lengths, bytes (one size per run), increasing.

    Returns
    -------
    xarray.Dataset
        Dims ``ef_frame_bytes``, ``be_ip_bytes``, ``seed``: ``delay`` (mean EF one-way delay of
        a run, s); ``delay_mean``/``delay_ci`` over seeds; ``ef_line_time`` (the EF packet's
        own line time, s, per frame size), ``path_delay`` (what :func:`pqlab.scenarios.paper_path`
        adds to it, s) and ``be_line_time`` (s, per BE size).
    """
    n = kit.check_n_ef_samples(n_ef_samples, minimum=10)
    seeds = kit.check_seeds(seeds)
    frames = [int(x) for x in kit.check_values("ef_frames", ef_frames, 64, integer=True)]
    sizes = [int(x) for x in kit.check_values("be_sizes", be_sizes, 29, integer=True)]
    for name, vals in (("ef_frames", frames), ("be_sizes", sizes)):
        if sorted(set(vals)) != vals or len(vals) < 2:
            raise ValueError(f"{name} must be at least two increasing distinct sizes, got {vals}")
    delay = np.full((len(frames), len(sizes), len(seeds)), np.nan)
    for i, frame in enumerate(frames):
        for j, be in enumerate(sizes):
            sc = presets.pq_vs_wfq(scheduler="pq", ef_frame_bytes=frame, be_ip_bytes=be, n_ef_samples=n)
            delay[i, j, :] = [m["delay_mean_s"] for m in experiments.measure_runs(sc, seeds)]
    mean, ci = mean_ci(delay)
    node = presets.tftant_node("pq")
    ds = xr.Dataset(
        {
            "delay": (("ef_frame_bytes", "be_ip_bytes", "seed"), delay,
                      {"units": "s", "long_name": "mean EF one-way delay of one run"}),
            "delay_mean": (("ef_frame_bytes", "be_ip_bytes"), mean, {"units": "s", "long_name": "mean EF one-way delay"}),
            "delay_ci": (("ef_frame_bytes", "be_ip_bytes"), ci, {"units": "s", "long_name": "95% CI half-width over seeds"}),
            "ef_line_time": ("ef_frame_bytes", np.array([line_time_s(presets.ef_ip_bytes(f), node.framing,
                                                                     node.line_rate_bps) for f in frames]),
                             {"units": "s", "long_name": "line time of the EF packet"}),
            "path_delay": ("ef_frame_bytes", np.asarray(presets.paper_path().extra_delay_s(
                               [presets.ef_ip_bytes(f) for f in frames]), dtype=float),
                           {"units": "s", "long_name": "delay the path model adds to the EF packet"}),
            "be_line_time": ("be_ip_bytes", np.array([line_time_s(b, node.framing, node.line_rate_bps) for b in sizes]),
                             {"units": "s", "long_name": "line time of the BE packet"}),
        },
        coords={"ef_frame_bytes": ("ef_frame_bytes", frames, {"units": "bytes", "long_name": "EF frame size"}),
                "be_ip_bytes": ("be_ip_bytes", sizes, {"units": "bytes", "long_name": "BE IP packet size"}),
                "seed": ("seed", seeds)},
        attrs={**kit.provenance(ARTEFACT.id, f"{ARTEFACT.id}: PQ one-way delay vs BE and EF "
                                "packet size (TF-TANT slides)", __name__, seeds=seeds),
               "n_ef_samples": n, "ef_rate_bps": presets.TFTANT_EF_RATE_BPS,
               "ef_service_rate_bps": presets.TFTANT_EF_SERVICE_RATE_BPS, "be_rate_bps": presets.TFTANT_BE_RATE_BPS,
               "ring_limit_particles": node.ring_limit_particles},
    )
    return ds


def claims(ds: xr.Dataset) -> list:
    """Claim records of this artefact and of the two slides that state nothing checkable.

    "Depends on the BE size" holds when, at every EF frame, the mean delay's range over the BE
    sizes exceeds :data:`DEPENDS_MIN_SHARE` of its smallest value and :data:`DEPENDS_CI_MULTIPLE`
    CI half-widths; "rises with the EF size" when every step over the EF frames is positive.
    """
    art = ARTEFACT.id
    kit.check_artefact(ds, art)
    mean = to_ms(ds["delay_mean"]).values  # (ef_frame_bytes, be_ip_bytes), ms
    ci = np.nan_to_num(to_ms(ds["delay_ci"]).values, nan=0.0)
    frames = [int(x) for x in ds["ef_frame_bytes"].values]
    sizes = [int(x) for x in ds["be_ip_bytes"].values]

    be_range = mean.max(axis=1) - mean.min(axis=1)  # per EF frame
    be_ok = be_range > np.maximum(DEPENDS_MIN_SHARE * mean.min(axis=1), DEPENDS_CI_MULTIPLE * ci.max(axis=1))
    ef_steps = np.diff(mean, axis=0)  # per BE size
    ef_ok = bool(np.all(ef_steps > 0))
    ef_line = to_ms(ds["ef_line_time"]).values
    path = to_ms(ds["path_delay"]).values
    return [
        kit.claim(art, "depends_on_be_avg_size", None, "-",
                  f"range of the mean EF delay over BE sizes {sizes} bytes, per EF frame "
                  f"{', '.join(f'{f} B: {r:.2f} ms' for f, r in zip(frames, be_range))}; 'depends' needs more than "
                  f"{DEPENDS_MIN_SHARE:.0%} of the smallest mean and {DEPENDS_CI_MULTIPLE} CI half-widths at every "
                  f"EF size (not monotone in the BE size: the ring's particles, as GLOBECOM Fig. 3-1)",
                  shape_ok=bool(np.all(be_ok)), reason=None if np.all(be_ok) else _weakest_be_reason(
                      frames, be_range, np.maximum(DEPENDS_MIN_SHARE * mean.min(axis=1),
                                                   DEPENDS_CI_MULTIPLE * ci.max(axis=1)))),
        kit.claim(art, "depends_on_ef_avg_size", None, "-",
                  f"mean EF delay rises with the EF frame {frames} bytes at every BE size (steps "
                  f"{'; '.join(', '.join(f'{s:+.2f}' for s in ef_steps[:, j]) for j in range(len(sizes)))} ms), "
                  f"from {frames[0]} to {frames[-1]} bytes by {float(np.mean(mean[-1] - mean[0])):.2f} ms on average "
                  f"over BE sizes: {float(ef_line[-1] - ef_line[0]):.2f} ms more EF line time at the C7200 and "
                  f"{float(path[-1] - path[0]):.2f} ms more on the path's hops (the transmission time of the packet, "
                  f"as the slide says), the rest waits in the node", shape_ok=ef_ok,
                  reason=None if ef_ok else _smallest_step_reason(frames, sizes, ef_steps)),
        kit.claim(art, "network_configuration_1", None, "-",
                  "the slide 'Network configuration 1' is a diagram (not in the text) and a list of "
                  "goals, no number or observation; the test network it draws is judged in globecom01_fig2 and its "
                  "goals in tftant_slides_ring (tx queue size), tftant_slides_star (EF service rate) and "
                  "tftant_wfq_fig1 (WFQ vs PQ)"),
        kit.claim(art, "ef_dependency_section", None, "-",
                  "'EF: dependency to aggregation, congestion and load' is a section title whose figure "
                  "is not in the text; the claims of its section are judged in tftant_slides_tandem, "
                  "tftant_slides_loss, tftant_slides_ipdv_size and tftant_slides_ipdv_aggregation"),
    ]


def _weakest_be_reason(frames, be_range, needed) -> dict:
    """Why the delay does not depend on the BE size at some EF frame: its range against the range needed (ms)."""
    i = int(np.argmin(be_range - needed))
    return judge.reason("mechanism", "at EF frames of {frame} the mean delay moves by only {moves} over the BE sizes, "
                        "below the {needed} the check needs",
                        [judge.fact("frame", frames[i], "bytes"), judge.fact("moves", be_range[i], "ms"),
                         judge.fact("needed", needed[i], "ms")])


def _smallest_step_reason(frames, sizes, ef_steps) -> dict:
    """Why the delay does not rise with the EF frame everywhere: the smallest step, where it is (ms)."""
    i, j = np.unravel_index(int(np.argmin(ef_steps)), ef_steps.shape)
    return judge.reason("mechanism", "with BE packets of {be} the mean delay changes by {step} from EF frames of "
                        "{frame_from} to {frame_to}",
                        [judge.fact("be", sizes[j], "bytes"), judge.fact("step", ef_steps[i, j], "ms"),
                         judge.fact("frame_from", frames[i], "bytes"), judge.fact("frame_to", frames[i + 1], "bytes")])

def figure(data: xr.Dataset):
    """Mean EF delay vs EF frame size, one line per BE packet size (95 % CI), with the EF packet's own
    transmission times (the C7200's line and the path's hops) dashed."""
    kit.check_artefact(data, ARTEFACT.id)
    fig, ax = kit.subplots(figsize=(8, 5.2))
    frames = data["ef_frame_bytes"].values
    for j, be in enumerate(data["be_ip_bytes"].values):
        ci = np.nan_to_num(to_ms(data["delay_ci"].values[:, j]), nan=0.0)
        ax.errorbar(frames, to_ms(data["delay_mean"].values[:, j]), yerr=ci, marker="o", capsize=3,
                    label=f"BE IP packets of {int(be)} B")
    ax.plot(frames, to_ms(data["ef_line_time"].values + data["path_delay"].values), ls="--", color="0.4",
            label="EF transmission times\n(C7200 + path hops)")
    ax.set_xlabel("EF frame size (bytes)")
    ax.set_ylabel("mean EF one-way delay (ms)")
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=8)
    a = data.attrs
    ax.set_title(f"{ARTEFACT.id}: PQ, EF {to_kbps(a['ef_rate_bps']):g} kbit/s, BE "
                 f"{to_mbps(a['be_rate_bps']):g} Mbit/s, tx-ring-limit {a['ring_limit_particles']}, "
                 f"{kit.seed_count(len(data['seed']))}", fontsize=10)
    return fig
