"""pqlab.papers.globecom01.globecom01_tab1: Table I rendered from the presets, and its claims."""

import pytest
from globecom01_claim_rows import recorded_verdicts

import pqlab
from pqlab.measure import analysis
from pqlab.papers.globecom01 import globecom01_tab1 as tab1

N = 300  # EF packets per run: enough for the deterministic cases, fast


@pytest.fixture(scope="module")
def tab1_data():
    return tab1.compute(seed=1, n_ef_samples=N)


def test_tab1_renders_table_i_from_the_presets(tab1_data):
    t = tab1_data
    assert len(t) == 2
    assert list(t["EF load (kbit/s)"]) == pytest.approx([300, 300])
    assert list(t["EF frame size (bytes)"]) == [128, 128] and list(t["BE streams"]) == [20, 20]
    assert (t["BE load (kbit/s)"] > 2000).all()
    a = t.attrs
    assert (a["pq_limit"], a["be_queue_limit"], a["tx_queue_limit"], a["tx_unit_bytes"]) == (
        10,
        64,
        5,
        512,
    )
    assert a["tx_queue_max_units"] == a["tx_queue_max_units_rule"] == 7
    assert a["ef_rate_fraction"] == pytest.approx(0.15)


def test_max_ring_particles_on_the_papers_seven_units():
    node = pqlab.Node.cisco7200_atm()
    ds = pqlab.simulate_arrivals(node, [0.0, 0.0, 0.0], [1500, 128, 1500], [1, 0, 1])
    assert analysis.max_ring_particles(ds, node) == 7
    ds = pqlab.simulate_arrivals(node, [0.0, 0.0], [128, 128], [0, 0])
    assert analysis.max_ring_particles(ds, node) == 2


def test_claims_use_the_paper_keys_and_units_and_can_be_recorded(tmp_path, tab1_data):
    verdicts = recorded_verdicts(tab1.ARTEFACT.id, tab1.claims(tab1_data), tmp_path)
    assert verdicts["tx_queue_max_units"] == "reproduced"


def test_bad_arguments_raise_value_error_naming_the_parameter():
    with pytest.raises(ValueError, match="seed"):
        tab1.compute(seed=-1)
