"""Compare two paper-vs-pqlab claims tables (``report.csv``) of ``pqlab reproduce`` runs.

A refactor must leave every number, verdict and explanation of the report unchanged.
Run ``pqlab reproduce --quick`` before the change, keep a copy of ``figures/report.csv``
outside the repository, run it again after, then::

    python benchmarks/compare_reports.py BEFORE/report.csv figures/report.csv

Exit status 0 when the two files are byte-identical; else 1, after printing each row
(keyed by artefact and quantity) that is only in one file or differs, column by column.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path


def _rows(path: Path) -> tuple[list[str], dict[tuple[str, str], dict[str, str]]]:
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        rows = {(row["artefact"], row["quantity"]): row for row in reader}
        return list(reader.fieldnames or []), rows


def differences(before: Path, after: Path) -> list[str]:
    """Lines describing how ``after`` differs from ``before``; empty when the bytes are the same."""
    if before.read_bytes() == after.read_bytes():
        return []
    head_b, rows_b = _rows(before)
    head_a, rows_a = _rows(after)
    out = [] if head_b == head_a else [f"columns: {head_b} -> {head_a}"]
    for key in sorted(rows_b.keys() | rows_a.keys()):
        if key not in rows_a:
            out.append(f"{key}: only before")
        elif key not in rows_b:
            out.append(f"{key}: only after")
        else:
            for column in head_b:
                old, new = rows_b[key].get(column), rows_a[key].get(column)
                if old != new:
                    out.append(f"{key} {column}: {old!r} -> {new!r}")
    return out or ["the files differ in row order or formatting only"]


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
