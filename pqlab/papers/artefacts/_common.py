"""TRANSITIONAL (removed when the last artefact has moved to its own module): the kit's names for the old modules.

Everything here is :mod:`pqlab.papers.kit`; see there.
"""

from __future__ import annotations

import warnings

from ...measure.analysis import CONFIDENCE, mean_ci  # noqa: F401
from ..stated import MTU_BYTES, MTU_PAYLOAD_BYTES, REF_RATES_BPS  # noqa: F401
from ..kit import (CLAIM_KEYS, add_mean_ci, be_streams,  # noqa: F401
                   check_artefact, check_bool, check_ks, check_n_ef_samples, check_node_and_path, check_seeds,
                   check_values, claim, ef_streams, frame_rate_bps, paper_value, paper_vs_ours, provenance,
                   record_claims, seed_mean_in, statistics_in_ms)


def renamed_keyword(function: str, name: str, value, default, old_name: str, old_value):
    """The value of keyword ``name`` of ``function``, or of its deprecated former name ``old_name``.

    ``old_value`` None (not given): ``value``. Else a ``FutureWarning`` pointing at the caller of
    ``function``, and ``old_value``; a ``ValueError`` if ``value`` was given too (it is not
    ``default``, the very object of the signature).
    """
    if old_value is None:
        return value
    warnings.warn(f"{function}: {old_name} is deprecated, use {name}", FutureWarning, stacklevel=3)
    if value is not default:
        raise ValueError(f"give {name} or its deprecated name {old_name}, not both")
    return old_value
