"""pqlab.papers.tftant_slides.tftant_slides_pq_delay: the slides' "PQ: one-way delay", its claims and figure."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from pqlab.papers.tftant_slides import tftant_slides_pq_delay as pq_delay


def _by_quantity(rows):
    return {r["quantity"]: r for r in rows}


def test_pq_delay_depends_on_both_sizes_and_the_claims_can_fail():
    d = pq_delay.compute(n_ef_samples=100, seeds=(1,), ef_frames=(128, 1024), be_sizes=(256, 1500))
    mean = d["delay_mean"].values
    assert mean.shape == (2, 2) and np.all(mean[1] > mean[0])
    claims = _by_quantity(pq_delay.claims(d))
    assert claims["depends_on_ef_avg_size"]["shape_ok"] and claims["depends_on_be_avg_size"]["shape_ok"]
    for q in ("network_configuration_1", "ef_dependency_section"):
        assert claims[q]["value"] is None and claims[q]["shape_ok"] is None
        assert claims[q]["note"].startswith("not checkable")
    flat = d.copy()
    flat["delay_mean"] = (("ef_frame_bytes", "be_ip_bytes"), np.array([[0.01, 0.01], [0.005, 0.005]]))
    claims = _by_quantity(pq_delay.claims(flat))
    assert claims["depends_on_ef_avg_size"]["shape_ok"] is False
    assert claims["depends_on_be_avg_size"]["shape_ok"] is False
    fig = pq_delay.figure(d)
    assert fig.axes[0].get_ylabel() == "mean EF one-way delay (ms)"
    plt.close(fig)


@pytest.mark.parametrize("kwargs, name", [
    ({"ef_frames": (1024, 128)}, "ef_frames"),
    ({"be_sizes": (1500,)}, "be_sizes"),
    ({"n_ef_samples": 5}, "n_ef_samples"),
])
def test_bad_arguments_name_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        pq_delay.compute(**{"n_ef_samples": 100, "seeds": (1,), **kwargs})


def test_the_claims_and_figure_refuse_another_artefacts_data():
    other = pq_delay.compute(n_ef_samples=50, seeds=(1,), ef_frames=(128, 256), be_sizes=(256, 512)).copy()
    other.attrs["artefact"] = "globecom01_fig6"
    for function in (pq_delay.claims, pq_delay.figure):
        with pytest.raises(ValueError, match="tftant_slides_pq_delay"):
            function(other)
