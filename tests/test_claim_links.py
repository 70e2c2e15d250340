"""A claim is never reproduced when a claim it implies fails; a pointer row takes its target's verdict."""

import pandas as pd
import pytest

from pqlab.pipeline import claim_links, report


def _table(rows):
    return pd.DataFrame(rows, columns=["artefact", "quantity", "model", "verdict", "explanation"])


def _links(rows):
    return pd.DataFrame(rows, columns=list(claim_links.LINK_COLUMNS))


def test_implication_chains_and_pointers():
    table = _table([
        ["f7", "ccdf_varies", "papers_node", "reproduced", "d=0.07"],
        ["f7", "spread_up", "papers_node", "reproduced", "slope +"],
        ["t3", "mean_up", "papers_node", "differs", "last step down"],
        ["f7", "ccdf_varies", "testbed", "reproduced", ""],  # its target rows are absent: left alone
        ["p", "pointer", "papers_node", "missing", "see f3_2"],
        ["f3_2", "lower", "papers_node", "differs", "same cells"],
    ])
    links = _links([
        ["f7", "ccdf_varies", "implies", "f7", "spread_up", "spread"],
        ["f7", "spread_up", "implies", "t3", "mean_up", "mean"],
        ["p", "pointer", "same_as", "f3_2", "lower", "same figure"],
    ])
    out = claim_links.apply_links(table, links)
    assert out["verdict"].tolist() == ["differs", "differs", "differs", "reproduced", "differs", "differs"]
    assert "implies f7/spread_up, which differs (spread)" in out["explanation"][0]
    assert "judged as f3_2/lower: differs" in out["explanation"][4]
    assert table["verdict"][0] == "reproduced"  # a copy


def test_shape_only_target_fails_the_implying_claim():
    out = claim_links.apply_links(_table([["a", "x", "m", "reproduced", ""], ["a", "y", "m", "shape only", ""]]),
                                  _links([["a", "x", "implies", "a", "y", "why"]]))
    assert out["verdict"].tolist() == ["differs", "shape only"]


def test_the_links_file_names_existing_paper_claims():
    links = claim_links.load_claim_links()
    keys = set(zip(*(report.load_paper_values()[c] for c in ("artefact", "quantity"))))
    for a, q, ta, tq in zip(links.artefact, links.quantity, links.target_artefact, links.target_quantity):
        assert (a, q) in keys and (ta, tq) in keys


def test_bad_relation_is_refused(tmp_path):
    path = tmp_path / "links.csv"
    _links([["a", "x", "causes", "a", "y", "why"]]).to_csv(path, index=False)
    with pytest.raises(ValueError, match="relation"):
        claim_links.load_claim_links(path)
