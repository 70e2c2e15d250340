"""pqlab.papers.globecom01.globecom01_tab2: Table II rendered from the aggregation preset, and its
claims."""

import pytest
from globecom01_claim_rows import recorded_verdicts

from pqlab.papers import kit
from pqlab.papers.globecom01 import globecom01_tab2 as tab2


def test_tab2_renders_table_ii_from_the_aggregation_preset():
    t = tab2.compute(n_ef_samples=10)
    assert list(t["EF BA load (kbit/s)"]) == pytest.approx([300] * 4)
    assert list(t["EF streams"]) == [6, 3, 2, 1]
    assert list(t["Aggregation degree A"]) == pytest.approx([5 / 6, 2 / 3, 1 / 3, 0])
    assert (
        list(t["BE size min (bytes)"]) == [40] * 4 and list(t["BE size max (bytes)"]) == [1500] * 4
    )


def test_claims_use_the_paper_keys_and_units_and_can_be_recorded(tmp_path):
    recorded_verdicts(tab2.ARTEFACT.id, tab2.claims(tab2.compute(n_ef_samples=10)), tmp_path)


def test_save_table_writes_markdown_and_csv(tmp_path):
    t = tab2.compute(n_ef_samples=10)
    paths = kit.save_table(tab2.ARTEFACT, t, tmp_path, tmp_path / "results")
    assert [p.rsplit(".", 1)[1] for p in paths] == ["md", "csv"]
    lines = (tmp_path / "globecom01_tab2.md").read_text().splitlines()
    assert lines[0].startswith("| ref_load_kbps | EF BA load (kbit/s)") and set(lines[1]) <= set(
        "|-"
    )
    assert len([x for x in lines if x.startswith("| ")]) == len(t) + 1
    assert lines[-1].startswith("Table: globecom01_tab2")
    assert (tmp_path / "globecom01_tab2.csv").read_text().count("\n") == len(t) + 1


@pytest.mark.parametrize("rates", [[0.0], []])
def test_bad_arguments_raise_value_error_naming_the_parameter(rates):
    with pytest.raises(ValueError, match="ref_rates_bps"):
        tab2.compute(ref_rates_bps=rates)
