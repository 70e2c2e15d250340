"""The installed pqlab version, in a module of its own so that no module imports upward for it.

Every module that stamps provenance imports ``from ._version import __version__`` (or
``from .._version import __version__``) instead of the package ``__init__``, which
imports most of the package and so cannot be imported from inside it without a cycle.
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _metadata_version

try:
    __version__: str = _metadata_version("pqlab")
except PackageNotFoundError:  # pragma: no cover - running from a source tree that is not installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
