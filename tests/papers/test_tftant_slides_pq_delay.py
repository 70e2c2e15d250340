"""pqlab.papers.tftant_slides.tftant_slides_pq_delay: the slides' "PQ: one-way delay", its claims
and figure."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from pqlab.papers import judge, kit
from pqlab.papers.tftant_slides import tftant_slides_pq_delay as pq_delay
from pqlab.pipeline import report


def _by_quantity(rows):
    return {r["quantity"]: r for r in rows}


def test_pq_delay_depends_on_both_sizes_and_the_claims_can_fail():
    d = pq_delay.compute(n_ef_samples=100, seeds=(1,), ef_frames=(128, 1024), be_sizes=(256, 1500))
    mean = d["delay_mean"].values
    assert mean.shape == (2, 2) and np.all(mean[1] > mean[0])
    claims = _by_quantity(kit.claims(pq_delay.ARTEFACT, d))
    assert (
        claims["depends_on_ef_avg_size"]["shape_ok"]
        and claims["depends_on_be_avg_size"]["shape_ok"]
    )
    for q in ("network_configuration_1", "ef_dependency_section"):
        assert claims[q]["value"] is None and claims[q]["shape_ok"] is None
    table = report.compare(report.load_paper_values(), report._results_frame(list(claims.values())))
    verdicts = dict(
        zip(
            table.loc[table.artefact == pq_delay.ARTEFACT.id, "quantity"],
            table.loc[table.artefact == pq_delay.ARTEFACT.id, "verdict"],
        )
    )
    # the two slides that state nothing checkable are judged so by their rule, not counted as
    # results
    assert (
        verdicts["network_configuration_1"] == verdicts["ef_dependency_section"] == "not checkable"
    )
    assert verdicts["depends_on_ef_avg_size"] == verdicts["depends_on_be_avg_size"] == "reproduced"
    flat = d.copy()
    flat["delay_mean"] = (
        ("ef_frame_bytes", "be_ip_bytes"),
        np.array([[0.01, 0.01], [0.005, 0.005]]),
    )
    claims = _by_quantity(kit.claims(pq_delay.ARTEFACT, pq_delay.claim_values(flat)))
    assert claims["depends_on_ef_avg_size"]["shape_ok"] is False
    assert claims["depends_on_be_avg_size"]["shape_ok"] is False
    # each failing check says why with its numbers: the smallest step, the weakest range
    assert judge.fact_value(claims["depends_on_ef_avg_size"]["reason"], "step") == pytest.approx(
        -5.0
    )
    assert judge.fact_value(claims["depends_on_be_avg_size"]["reason"], "moves") == pytest.approx(
        0.0
    )
    fig = pq_delay.figure(d)
    assert fig.axes[0].get_ylabel() == "mean EF one-way delay (ms)"
    plt.close(fig)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"ef_frames": (1024, 128)}, "ef_frames"),
        ({"be_sizes": (1500,)}, "be_sizes"),
        ({"n_ef_samples": 5}, "n_ef_samples"),
    ],
)
def test_bad_arguments_name_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        pq_delay.compute(**{"n_ef_samples": 100, "seeds": (1,), **kwargs})


def test_the_claims_and_figure_refuse_another_artefacts_data():
    other = pq_delay.compute(
        n_ef_samples=50, seeds=(1,), ef_frames=(128, 256), be_sizes=(256, 512)
    ).copy()
    other.attrs["artefact"] = "globecom01_fig6"
    for function in (lambda ds: kit.claims(pq_delay.ARTEFACT, ds), pq_delay.figure):
        with pytest.raises(ValueError, match="tftant_slides_pq_delay"):
            function(other)
