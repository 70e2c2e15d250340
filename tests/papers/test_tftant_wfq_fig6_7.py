"""pqlab.papers.tftant_wfq.tftant_wfq_fig6_7: the page's Figs. 6-7 (IPDV over time, PQ vs WFQ).

300 EF packets, one seed: under WFQ every 1024-byte EF packet waits four more BE packets than
under PQ, so both IPDV series are the same sawtooth, below one BE tx time.
"""

import numpy as np
import pytest
from pq_vs_wfq_judged import facts, judged

from pqlab.papers import kit  # noqa: E402
from pqlab.papers.tftant_wfq import pq_vs_wfq_testbed
from pqlab.papers.tftant_wfq import tftant_wfq_fig6_7 as fig6_7_module

N = 300
SEEDS = (1,)


def test_fig6_7_ipdv_is_the_same_sawtooth_under_both_schedulers():
    fig6_7 = fig6_7_module.compute(N, SEEDS)
    a = fig6_7["ipdv"].sel(ef_frame_bytes=1024)
    np.testing.assert_allclose(a.sel(scheduler="pq"), a.sel(scheduler="wfq"), atol=1e-12)
    assert float(fig6_7["ipdv_max_be_tx"].sel(scheduler="pq", ef_frame_bytes=1024).max()) < 1.0


def test_the_largest_ipdv_is_judged_by_its_number_with_the_sawtooth_as_reason():
    """Issue 30: 0.855 BE tx times is no "shape only": it differs from 1, and the arithmetic of the
    sawtooth
    max(s, t_BE - s) / t_BE, s = (T_EF - t_EF) mod t_BE, is its reason, with s and t_BE as facts."""
    rows = kit.claims(fig6_7_module.ARTEFACT, fig6_7_module.compute(N, SEEDS))
    assert all(r["shape_ok"] is None for r in rows if r["quantity"].startswith("max_ipdv_fig7_"))
    j = judged("tftant_wfq_fig6_7", rows)
    s = pq_vs_wfq_testbed.beat_slip_s(1024)[0] * 1e3
    be_tx = pq_vs_wfq_testbed.be_tx_time_s() * 1e3
    for sched in ("pq", "wfq"):
        row = j[f"max_ipdv_fig7_{sched}"]
        assert row["verdict"] == "differs" and row["reason kind"] == "arithmetic"
        f = facts(row)
        assert f["slip"] == pytest.approx(s) and f["t_be"] == pytest.approx(be_tx)
        assert (
            f["sawtooth_max"]
            == pytest.approx(max(s, be_tx - s) / be_tx)
            == pytest.approx(row["ours"])
        )
    # the qualitative misses carry numbers: both schedulers give the same IPDV series at 1024 and
    # 128 bytes
    for q in ("wfq_max_more_often", "pq_higher_peaks_128", "same_peak_height_1500"):
        assert j[q]["verdict"] == "differs" and facts(j[q])


def test_bad_arguments_name_the_parameter():
    with pytest.raises(ValueError, match="peak_fraction"):
        fig6_7_module.compute(N, peak_fraction=0)
