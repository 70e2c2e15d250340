"""The foundations every layer of pqlab may import: checks, units, sums, files and versions.

What it does: the small helpers that every floor above uses and that know nothing of queues
or papers. ``_validate`` (argument checks with one-line errors), ``units`` (unit conversions
and unit names), ``numerics`` (sums and line fits whose result does not depend on the CPU or
BLAS), ``locations`` (the package's data, notebooks and lock, and the output folders),
``versions`` (the locked environment and the installed one), ``provenance`` (the CF attrs
every Dataset carries), ``counts`` (what a run did: simulations, computations, reuses), ``sketch``
(mergeable
quantiles with a stated relative error: log-binned histograms) and ``memory`` (the memory this
process can use: the machine's, a container's cgroup limit,
``ulimit -v``; the check before a large allocation), ``jitcache`` (numba's on-disk cache keyed on
the source of what a jitted function calls), ``echo`` (what an error message echoes of a
given value) and ``lazy`` (a package's names imported when first
used).

Exports: those twelve modules (import them by name, e.g. ``from pqlab.base import units``).

May import: only the standard library, third-party packages and ``pqlab._version``; nothing
else of pqlab (every other layer sits above this one).
"""

__all__ = [
    "_validate",
    "units",
    "numerics",
    "locations",
    "versions",
    "provenance",
    "counts",
    "sketch",
    "memory",
    "jitcache",
    "echo",
    "lazy",
]
