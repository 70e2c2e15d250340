"""pqlab.papers.globecom01.globecom01_fig2: the test network of Fig. 2, its claims and figure."""

import matplotlib.pyplot as plt
import pytest

from pqlab import scenarios
from pqlab.node.path import Hop, PathModel
from pqlab.papers import PAPERS, kit
from pqlab.papers.globecom01 import globecom01_fig2 as fig2
from pqlab.papers.records import load_paper_values


def _by_quantity(rows):
    return {r["quantity"]: r for r in rows}


def _texts(fig):
    return " ".join(t.get_text() for ax in fig.axes for t in ax.texts)


def _claims(data):
    return kit.claims(fig2.ARTEFACT, data)


def test_fig2_is_drawn_from_the_node_and_the_path_model():
    d = fig2.compute()
    assert list(d["name"].values) == ["C7200", "C7500", "C7500"]
    assert list(d["out_rate_bps"].values) == [PAPERS.line_rate_bps] * 3
    assert list(d["congested"].values) == [True, False, False]
    claims = _by_quantity(_claims(d))
    # numbers are judged by their number (no shape_ok)
    assert claims["n_routers"]["value"] == 3 and claims["n_routers"]["shape_ok"] is None
    assert claims["line_rate"]["value"] == 2000 and claims["line_rate"]["shape_ok"] is None
    assert (
        claims["qos_only_on_c7200"]["shape_ok"]
        and claims["c7500_departure_rate_covers_arrivals"]["shape_ok"]
    )
    fig = fig2.figure(d)
    assert (
        "C7200" in _texts(fig)
        and "2 Mbit/s" in _texts(fig)
        and "globecom01_fig2" in fig.axes[0].get_title()
    )
    plt.close(fig)


def test_fig2_claims_follow_the_objects_they_are_drawn_from():
    # a slower second hop: arrivals at the first C7500 exceed its output, the paper's rate condition
    # fails
    slow = PathModel(hops=(Hop(1e6, "atm-aal5"), Hop(2e6, "atm-aal5")))
    claims = _by_quantity(_claims(fig2.compute(path=slow)))
    assert claims["c7500_departure_rate_covers_arrivals"]["shape_ok"] is False
    assert claims["line_rate"]["value"] == 1000 and claims["qos_only_on_c7200"]["shape_ok"] is False
    # one hop only: not the paper's three routers
    one = _by_quantity(_claims(fig2.compute(path=PathModel(hops=(Hop(2e6, "atm-aal5"),)))))
    assert one["n_routers"]["value"] == 2 and one["n_routers"]["shape_ok"] is None
    # BE below the line: the C7200 is not congested
    light = _by_quantity(_claims(fig2.compute(be_offered_bps=1e6)))
    assert light["be_congests_c7200_egress"]["shape_ok"] is False
    with pytest.raises(ValueError, match="node"):
        fig2.compute(node="c7200")
    with pytest.raises(ValueError, match="path"):
        fig2.compute(path=3)


def test_every_paper_row_is_recorded_in_its_unit():
    rows = load_paper_values()
    recorded = {r["quantity"]: r["unit"] for r in _claims(fig2.compute())}
    stated = dict(
        zip(
            rows.loc[rows.artefact == fig2.ARTEFACT.id, "quantity"],
            rows.loc[rows.artefact == fig2.ARTEFACT.id, "unit"],
        )
    )
    assert stated and recorded == stated
    assert scenarios.EF_FRAME_BYTES == 128


def test_fig2_draws_the_papers_senders_and_the_switched_ethernet():
    # issue 30: the SmartBits was drawn sending BE (the papers: test workstations send the
    # background traffic)
    # and an ATM link into the receiver (the papers: a switched Ethernet)
    fig = fig2.figure(fig2.compute())
    boxes = [" ".join(t.get_text().split()) for t in fig.axes[0].texts]
    smartbits = [t for t in boxes if t.startswith("SmartBits")]
    workstations = [t for t in boxes if t.startswith("test workstations")]
    assert smartbits and workstations
    assert all("BE" not in t for t in smartbits) and any("BE" in t for t in workstations)
    assert (
        sum(t == "Site 1 switched Ethernet" for t in boxes) == 2
    )  # into the C7200 and into the receiver
    plt.close(fig)
