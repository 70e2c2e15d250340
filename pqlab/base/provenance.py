"""Provenance attributes of pqlab's Datasets, built in one place.

Every Dataset pqlab returns says what made it (CF conventions' ``title``, ``source``,
``history``, ``references``) and with which software (``pqlab_version``,
and :func:`pqlab.base.versions.environment_attrs`:
``software_versions``, ``environment_lock_sha256``, ``environment_matches_lock``), so a result
can be traced and repeated: :func:`pqlab.simulate` (one run), the artefact compute
functions (:func:`pqlab.papers.kit.provenance`) and
:func:`pqlab.experiments.sweep` build their attrs with :func:`provenance_attrs`.
"""

from __future__ import annotations

from .._version import __version__
from .versions import environment_attrs

__all__ = ["SOURCE", "provenance_attrs"]

#: What computes every number: the ``source`` attribute.
SOURCE = f"pqlab {__version__} numba single-node engine"


def provenance_attrs(*, title: str, history: str, references: str | None = None, **extra) -> dict:
    """Dataset attrs: ``title``, ``source``, ``pqlab_version``, the environment, ``history``,
    ``references`` (if given), then ``extra``.

    The environment attrs are :func:`pqlab.base.versions.environment_attrs` (Python and package
    versions, the lock's sha256 and whether the installed packages are the lock's).
    """
    attrs = {
        "title": title,
        "source": SOURCE,
        "pqlab_version": __version__,
        **environment_attrs(),
        "history": history,
    }
    if references is not None:
        attrs["references"] = references
    attrs.update(extra)
    return attrs
