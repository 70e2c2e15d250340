"""The setup every paper notebook runs first: output folders, the quick profile, the seeds.

A paper notebook's ``parameters`` cell holds typed literals (``seed``, ``n_seeds``,
``n_ef_samples``, ``quick``, ``figures_dir``, ``results_dir`` and its own); its
setup cell calls :func:`setup` once instead of repeating the same lines in every
notebook::

    figures_dir, results_dir, n_ef_samples, n_seeds, seeds = pqlab.papers.artefacts.setup(
        quick=quick, seed=seed, n_seeds=n_seeds, n_ef_samples=n_ef_samples,
        figures_dir=figures_dir, results_dir=results_dir, notebook="05_worst_case")

The quick profile (``pqlab reproduce --quick`` and the notebook tests: small sample
counts, one seed; a fast check, not the papers' numbers) is defined once here
(:data:`QUICK_N_EF_SAMPLES`, :data:`QUICK_N_SEEDS`); a notebook whose sections need
more packets to show their effect passes ``quick_n_ef_samples``.
"""

from __future__ import annotations

from typing import NamedTuple

from ...base import locations
from ...base._validate import check_int

__all__ = ["QUICK_N_EF_SAMPLES", "QUICK_N_SEEDS", "NotebookSetup", "setup"]

#: Quick profile: EF reference packets per run at most.
QUICK_N_EF_SAMPLES = 500
#: Quick profile: seeds per point (no confidence interval across seeds).
QUICK_N_SEEDS = 1


class NotebookSetup(NamedTuple):
    """What :func:`setup` resolved: unpack it into the notebook's names."""

    figures_dir: str
    results_dir: str
    n_ef_samples: int
    n_seeds: int
    seeds: tuple


def setup(*, quick: bool, seed: int, n_seeds: int, n_ef_samples: int, figures_dir: str = "",
          results_dir: str = "", quick_n_ef_samples: int = QUICK_N_EF_SAMPLES,
          notebook: str | None = None) -> NotebookSetup:
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
        Output folders (``pqlab reproduce`` passes both); empty means a scratch folder named
        in the output (:func:`pqlab.base.locations.notebook_outputs`), so a notebook run by hand
        never writes into the reproduction.
    quick_n_ef_samples : int
        The quick profile's EF packets per run for this notebook (default :data:`QUICK_N_EF_SAMPLES`).
    notebook : str, optional
        The notebook's name, naming its scratch folder.

    Returns
    -------
    NotebookSetup
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
    figures, results = locations.notebook_outputs(figures_dir, results_dir, notebook)
    return NotebookSetup(figures, results, n_ef_samples, n_seeds, tuple(range(seed, seed + n_seeds)))
