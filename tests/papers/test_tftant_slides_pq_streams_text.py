"""pqlab.papers.tftant_slides.pq_streams_text: a mean and its CI half-width as the claims write
them."""

import math

from pqlab.papers.tftant_slides.pq_streams_text import ci_text


def test_ci_text_writes_the_half_width_unless_one_seed_gave_none():
    assert ci_text(2.345, 0.1) == "2.35 +/- 0.10"
    assert ci_text(2.345, 0.1, 1, "ms") == "2.3 +/- 0.1 ms"
    assert ci_text(5.6, math.nan, 3) == "5.600"  # one seed: no CI
    assert ci_text(5.6, math.nan, unit="units") == "5.60 units"


def test_be_sizes_text_reads_the_scenario():
    import pytest

    from pqlab.papers import presets
    from pqlab.papers.tftant_slides.ef_split_runs import ef_split_scenario
    from pqlab.papers.tftant_slides.pq_streams_text import READING_TEXT, be_sizes_text

    assert set(READING_TEXT) == set(presets.BE_SIZE_READINGS)
    sc = ef_split_scenario(2, 1e6)
    assert be_sizes_text(sc) == be_sizes_text(sc.to_json())
    assert "STAND-IN" in be_sizes_text(sc) and READING_TEXT["packet"] in be_sizes_text(sc)
    assert "1500 bytes" in be_sizes_text(ef_split_scenario(2, 1e6, be_traffic="mtu"))
    with pytest.raises(ValueError, match="no BE stream"):
        be_sizes_text(ef_split_scenario(2, 1e6, be_traffic="none"))
