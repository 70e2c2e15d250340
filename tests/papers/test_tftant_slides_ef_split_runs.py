"""pqlab.papers.tftant_slides.ef_split_runs: the EF load split over several CBR streams."""

import numpy as np
import pytest

from pqlab import scenarios
from pqlab.papers.tftant_slides import ef_split_runs

EF_IP = 110  # IP length of a 128-byte EF frame


def test_ef_split_scenario_splits_the_load_and_polices_at_it():
    sc = ef_split_runs.ef_split_scenario(4, 1.2e6, n_ef_samples=100)
    ef = [s for s in sc.streams if s.queue == scenarios.EF_QUEUE]
    assert [s.flow for s in ef] == [0, 1, 2, 3]
    np.testing.assert_allclose([s.rate_bps for s in ef], 1.2e6 / 4 * EF_IP / 128)  # frames -> IP
    assert sc.node.queues[scenarios.EF_QUEUE].police_rate_bps == 1.2e6
    assert sc.node.queues[scenarios.EF_QUEUE].police_burst_bytes == pytest.approx(1.2e6 * 0.2 / 8)
    assert sc.streams[0].queue == scenarios.BE_QUEUE  # BE generated first: paired comparisons
    assert (
        len(
            [
                s
                for s in ef_split_runs.ef_split_scenario(3, 3e5, be_traffic="none").streams
                if s.queue == scenarios.BE_QUEUE
            ]
        )
        == 0
    )
    # n_ef_samples counts the reference stream, or all EF streams
    one = ef_split_runs.ef_split_scenario(4, 1.2e6, n_ef_samples=400)
    total = ef_split_runs.ef_split_scenario(4, 1.2e6, n_ef_samples=400, total_samples=True)
    assert one.duration_s - one.warmup_s == pytest.approx(4 * (total.duration_s - total.warmup_s))
    with pytest.raises(ValueError, match="n_streams"):
        ef_split_runs.ef_split_scenario(0, 1e6)
    with pytest.raises(ValueError, match="be_traffic"):
        ef_split_runs.ef_split_scenario(1, 1e6, be_traffic="uniform")
