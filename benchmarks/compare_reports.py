"""Compare two paper-vs-pqlab claims tables (``report.csv``) of ``pqlab reproduce`` runs.

A refactor must leave every number, verdict and explanation of the report unchanged.
Run ``pqlab reproduce --quick`` before the change, keep a copy of ``figures/report.csv``
outside the repository, run it again after, then::

    python benchmarks/compare_reports.py BEFORE/report.csv figures/report.csv

Exit status 0 when the two files are byte-identical; else 1, after printing each row
(keyed by artefact, quantity and model) that is only in one file or differs, column by column.
The rows are compared by :func:`pqlab.pipeline.reportdiff.compare_tables` with no tolerance
(``rel_tol=0``): the check of the golden test, made exact.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pqlab.pipeline import reportdiff


def differences(before: Path, after: Path) -> list[str]:
    """Lines describing how ``after`` differs from ``before``; empty when the bytes are the same."""
    if before.read_bytes() == after.read_bytes():
        return []
    found = reportdiff.compare_tables(
        reportdiff.read_table(before), reportdiff.read_table(after), rel_tol=0
    )
    return [str(d) for d in found] or ["the files differ in formatting only (the same cells)"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="report.csv of the run before the change")
    parser.add_argument("after", type=Path, help="report.csv of the run after the change")
    args = parser.parse_args(argv)
    lines = differences(args.before, args.after)
    for line in lines:
        print(line)
    print("identical" if not lines else f"{len(lines)} difference(s)")
    return 0 if not lines else 1


if __name__ == "__main__":
    sys.exit(main())
