"""What the tests of the GLOBECOM'01 artefact modules check of an artefact's claim records.

Each artefact's ``claims(data)`` must use the keys and units of ``data/paper_values.csv`` and be
recordable; :func:`recorded_verdicts` checks that and returns the report's verdicts of its rows.
"""

from pqlab.papers import kit
from pqlab.pipeline import report


def recorded_verdicts(artefact: str, rows, results_dir) -> dict:
    """Check ``rows`` against the paper's rows of ``artefact``, record them in ``results_dir``:
    quantity -> verdict."""
    table = report.load_paper_values()
    paper = {q: u for a, q, u in zip(table.artefact, table.quantity, table.unit) if a == artefact}
    quantities = [r["quantity"] for r in rows]
    assert len(set(quantities)) == len(quantities)
    assert set(paper) <= set(quantities), (artefact, sorted(set(paper) - set(quantities)))
    for row in rows:
        assert row["artefact"] == artefact
        if row["quantity"] in paper:
            assert row["unit"] == paper[row["quantity"]], (artefact, row)
        assert row["note"] and "{" not in row["note"]
        assert kit.paper_vs_ours(row).startswith(f"{artefact} / {row['quantity']}")
    kit.record_claims(results_dir, rows, show=False)
    compared = report.compare(table, report._results_frame(report.load_records(results_dir)))
    return {
        q: v
        for a, q, v in zip(compared.artefact, compared.quantity, compared.verdict)
        if a == artefact
    }
