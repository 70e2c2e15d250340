"""The setup every paper notebook runs first: output folders, the quick profile, the seeds.

A paper notebook's ``parameters`` cell holds typed literals (``seed``, ``n_seeds``,
``n_ef_samples``, ``quick``, ``figures_dir``, ``results_dir`` and its own); its
setup cell calls :func:`setup` once instead of repeating the same lines in every
notebook::

    figures_dir, results_dir, n_ef_samples, n_seeds, seeds = pqlab.artefacts.setup(
        quick=quick, seed=seed, n_seeds=n_seeds, n_ef_samples=n_ef_samples,
        figures_dir=figures_dir, results_dir=results_dir)

The quick profile (``pqlab reproduce --quick`` and the notebook tests: small sample
counts, one seed; a fast check, not the papers' numbers) is defined once here
(:data:`QUICK_N_EF_SAMPLES`, :data:`QUICK_N_SEEDS`); a notebook whose sections need
more packets to show their effect passes ``quick_n_ef_samples``.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from .. import paths
from .._validate import check_int

__all__ = ["QUICK_N_EF_SAMPLES", "QUICK_N_SEEDS", "NotebookRun", "setup", "output_folders"]

#: Quick profile: EF reference packets per run at most.
QUICK_N_EF_SAMPLES = 500
#: Quick profile: seeds per point (no confidence interval across seeds).
QUICK_N_SEEDS = 1


class NotebookRun(NamedTuple):
    """What :func:`setup` resolved: unpack it into the notebook's names."""

    figures_dir: str
    results_dir: str
    n_ef_samples: int
    n_seeds: int
    seeds: tuple


def output_folders(figures_dir: str = "", results_dir: str = "") -> tuple[Path, Path]:
    """The folders a notebook writes its figures and recorded numbers to.

    The one place a notebook's output folders are resolved: an empty argument means
    the reproduction's folder, ``pqlab.paths.FIGURES`` and ``pqlab.paths.BUILD / "results"``.
    """
    figures = Path(figures_dir) if figures_dir else paths.FIGURES
    results = Path(results_dir) if results_dir else paths.BUILD / "results"
    return figures, results


def setup(*, quick: bool, seed: int, n_seeds: int, n_ef_samples: int, figures_dir: str = "",
          results_dir: str = "", quick_n_ef_samples: int = QUICK_N_EF_SAMPLES) -> NotebookRun:
    """Resolve a paper notebook's parameters: output folders (the figures folder is created) and seeds.

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
        Output folders; empty means :func:`output_folders`' defaults.
    quick_n_ef_samples : int
        The quick profile's EF packets per run for this notebook (default :data:`QUICK_N_EF_SAMPLES`).

    Returns
    -------
    NotebookRun
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
    figures, results = output_folders(figures_dir, results_dir)
    figures.mkdir(parents=True, exist_ok=True)
    return NotebookRun(str(figures), str(results), n_ef_samples, n_seeds, tuple(range(seed, seed + n_seeds)))
