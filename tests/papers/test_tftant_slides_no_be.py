"""pqlab.papers.tftant_slides.tftant_slides_no_be: the slides' delay over time with and without BE
traffic.

300 EF packets, one seed: without BE every EF packet takes its own line time plus the path.
"""

import numpy as np
import pytest

from pqlab.base.units import to_ms
from pqlab.papers import kit
from pqlab.papers.tftant_slides import tftant_slides_no_be as no_be_module

N = 300
SEEDS = (1,)


@pytest.fixture(scope="module")
def no_be():
    return no_be_module.compute(N, SEEDS)


def test_no_be_delay_is_own_line_time_plus_path(no_be):
    wo = no_be.sel(traffic="without BE")
    np.testing.assert_allclose(wo["delay"].values, float(no_be.uncongested_delay), atol=1e-12)
    assert float(no_be["delay_min"].sel(traffic="with BE").min()) > float(wo["delay_max"].max())


def test_claims_state_milliseconds_and_leave_the_dataset_as_it_was(no_be):
    b = {x["quantity"]: x for x in kit.claims(no_be_module.ARTEFACT, no_be)}
    assert b["mean_delay_without_be"]["value"] == pytest.approx(
        float(to_ms(no_be.uncongested_delay)), rel=1e-9
    )
    assert no_be["delay"].attrs["units"] == "s"  # the claims left the Dataset as it was


def test_bad_arguments_name_the_parameter():
    with pytest.raises(ValueError, match="scheduler"):
        no_be_module.compute(N, scheduler="fifo")
