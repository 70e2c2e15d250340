"""pqlab.papers.tftant_slides.pq_streams_text: a mean and its CI half-width as the claims write them."""

import math

from pqlab.papers.tftant_slides.pq_streams_text import ci_text


def test_ci_text_writes_the_half_width_unless_one_seed_gave_none():
    assert ci_text(2.345, 0.1) == "2.35 +/- 0.10"
    assert ci_text(2.345, 0.1, 1, "ms") == "2.3 +/- 0.1 ms"
    assert ci_text(5.6, math.nan, 3) == "5.600"  # one seed: no CI
    assert ci_text(5.6, math.nan, unit="units") == "5.60 units"
