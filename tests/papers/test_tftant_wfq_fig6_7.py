"""pqlab.papers.tftant_wfq.tftant_wfq_fig6_7: the page's Figs. 6-7 (IPDV over time, PQ vs WFQ).

300 EF packets, one seed: under WFQ every 1024-byte EF packet waits four more BE packets than
under PQ, so both IPDV series are the same sawtooth, below one BE tx time.
"""

import numpy as np
import pytest

from pqlab.papers.tftant_wfq import tftant_wfq_fig6_7 as fig6_7_module

N = 300
SEEDS = (1,)


def test_fig6_7_ipdv_is_the_same_sawtooth_under_both_schedulers():
    fig6_7 = fig6_7_module.compute(N, SEEDS)
    a = fig6_7["ipdv"].sel(ef_frame_bytes=1024)
    np.testing.assert_allclose(a.sel(scheduler="pq"), a.sel(scheduler="wfq"), atol=1e-12)
    assert float(fig6_7["ipdv_max_be_tx"].sel(scheduler="pq", ef_frame_bytes=1024).max()) < 1.0


def test_bad_arguments_name_the_parameter():
    with pytest.raises(ValueError, match="peak_fraction"):
        fig6_7_module.compute(N, peak_fraction=0)
