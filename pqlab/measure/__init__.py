"""Measurement: metrics of a run, the analytical bounds, sweeps with confidence intervals, the
results cache.

What it does: ``metrics`` (RFC 2679/3393 one-way delay and IPDV, loss, CCDFs, aggregation degree),
``tables`` (the summary table of a run per traffic class or flow: ``pqlab.summary_table``),
``bounds`` (the papers' analytical bounds: Table IV, Cobham's waits), ``experiments``
(seeded sweeps over a parameter, replications and measurement windows), ``analysis``
(confidence intervals, trends, peaks: how a measured curve is read) and ``cache`` (computed
Datasets kept as netCDF, keyed on their inputs and the code).

Exports: those modules; ``pqlab.metrics``, ``pqlab.bounds`` and ``pqlab.experiments`` are the
public names.

May import: ``pqlab.node`` and ``pqlab.base`` (and ``pqlab._version``), never the papers,
pipeline or lab layers above it.
"""

__all__ = ["metrics", "tables", "bounds", "experiments", "analysis", "cache"]
