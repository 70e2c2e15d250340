"""pqlab.papers.artefacts.network: GLOBECOM'01 Figs. 2 and 6, with their claims."""

import matplotlib.pyplot as plt
import numpy as np
import pytest
import xarray as xr

from pqlab import scenarios
from pqlab.node.path import Hop, PathModel
from pqlab.papers import PAPERS
from pqlab.papers.artefacts import network as nw
from pqlab.papers.artefacts import registry
from pqlab.papers.artefacts.claims import network as cn
from pqlab.papers.figures import network as fn
from pqlab.papers.records import load_paper_values


def _by_quantity(rows):
    return {r["quantity"]: r for r in rows}


def _texts(fig):
    return " ".join(t.get_text() for ax in fig.axes for t in ax.texts)


def test_fig2_is_drawn_from_the_node_and_the_path_model():
    d = nw.globecom01_fig2()
    assert list(d["name"].values) == ["C7200", "C7500", "C7500"]
    assert list(d["out_rate_bps"].values) == [PAPERS.line_rate_bps] * 3
    assert list(d["congested"].values) == [True, False, False]
    claims = _by_quantity(cn.globecom01_fig2_claims(d))
    assert claims["n_routers"]["value"] == 3 and claims["n_routers"]["shape_ok"]
    assert claims["line_rate"]["value"] == 2000 and claims["line_rate"]["shape_ok"]
    assert claims["qos_only_on_c7200"]["shape_ok"] and claims["c7500_departure_rate_covers_arrivals"]["shape_ok"]
    fig = fn.globecom01_fig2(d)
    assert "C7200" in _texts(fig) and "2 Mbit/s" in _texts(fig) and "globecom01_fig2" in fig.axes[0].get_title()
    plt.close(fig)


def test_fig2_claims_follow_the_objects_they_are_drawn_from():
    # a slower second hop: arrivals at the first C7500 exceed its output, the paper's rate condition fails
    slow = PathModel(hops=(Hop(1e6, "atm-aal5"), Hop(2e6, "atm-aal5")))
    claims = _by_quantity(cn.globecom01_fig2_claims(nw.globecom01_fig2(path=slow)))
    assert claims["c7500_departure_rate_covers_arrivals"]["shape_ok"] is False
    assert claims["line_rate"]["shape_ok"] is False and claims["qos_only_on_c7200"]["shape_ok"] is False
    # one hop only: not the paper's three routers
    one = _by_quantity(cn.globecom01_fig2_claims(nw.globecom01_fig2(path=PathModel(hops=(Hop(2e6, "atm-aal5"),)))))
    assert one["n_routers"]["value"] == 2 and one["n_routers"]["shape_ok"] is False
    # BE below the line: the C7200 is not congested
    light = _by_quantity(cn.globecom01_fig2_claims(nw.globecom01_fig2(be_offered_bps=1e6)))
    assert light["be_congests_c7200_egress"]["shape_ok"] is False
    with pytest.raises(ValueError, match="node"):
        nw.globecom01_fig2(node="c7200")
    with pytest.raises(ValueError, match="path"):
        nw.globecom01_fig2(path=3)


def test_pq_occupancy_counts_packets_waiting_at_each_arrival():
    # three EF packets: 0 arrives at 0 and enters the ring at 5; 1 arrives at 1 (0 waiting), enters at 6;
    # 2 arrives at 5.5 (0 has entered, 1 waits); a BE packet and a dropped EF packet are not counted
    trace = xr.Dataset({
        "arrival": ("packet", [0.0, 1.0, 2.0, 5.5, 3.0]),
        "ring_entry": ("packet", [5.0, 6.0, 2.0, 7.0, np.nan]),
        "queue": ("packet", [0, 0, 1, 0, 0]),
        "drop": ("packet", [0, 0, 0, 0, 1]),
    })
    assert list(nw.pq_occupancy_at_arrival(trace)) == [0, 1, 1]
    # a packet entering the ring the instant it arrives does not count itself
    trace2 = xr.Dataset({"arrival": ("packet", [0.0, 2.0]), "ring_entry": ("packet", [0.0, 2.0]),
                         "queue": ("packet", [0, 0]), "drop": ("packet", [0, 0])})
    assert list(nw.pq_occupancy_at_arrival(trace2)) == [0, 0]
    with pytest.raises(ValueError, match="trace"):
        nw.pq_occupancy_at_arrival(xr.Dataset())


def test_clustered_share_counts_arrivals_close_after_another_flow():
    trace = xr.Dataset({"arrival": ("packet", [0.0, 0.0005, 0.002, 0.0021, 0.01]),
                        "queue": ("packet", [0, 0, 0, 0, 0]), "flow": ("packet", [1, 2, 1, 1, 2])})
    # 0.0005 follows flow 1 within 1 ms (clustered); 0.0021 follows its own flow (not); 0.002 and 0.01 not
    assert nw.clustered_share(trace, 1e-3) == pytest.approx(1 / 5)
    assert nw.clustered_share(trace, 1e-3, start_s=0.001) == 0
    with pytest.raises(ValueError, match="within_s"):
        nw.clustered_share(trace, 0.0)


def test_fig6_measures_clustering_and_its_claims_judge_every_step():
    d = nw.globecom01_fig6(n_ef_samples=200, seeds=(1,), ref_rates_bps=(300e3, 50e3), n_phase_draws=500)
    assert list(d["aggregation_degree"].values.round(3)) == [0.0, 0.833]
    # one stream never clusters; six CBR streams with uniform phases: 1 - (1 - w / T)^5 (T = 6 x 3.41 ms)
    w, period = d.attrs["ef_line_time_s"], 6 * d.attrs["single_stream_interval_s"]
    assert d["p_clustered_phases"].values[0] == 0
    assert d["p_clustered_phases"].values[1] == pytest.approx(1 - (1 - w / period) ** 5, abs=0.02)
    assert d["ev_flow"].size > 0 and d["q_len"].min() >= 0
    assert np.all((d["p_nonempty"] >= 0) & (d["p_nonempty"] <= 1))
    claims = _by_quantity(cn.globecom01_fig6_claims(d))
    assert set(claims) == {"pq_holds_two_or_more_with_aggregation", "clustering_grows_with_a",
                           "pq_at_most_one_without_aggregation"}
    # a share that falls with A fails the trend, a queue never holding two fails the claim
    fake = d.copy()
    fake["p_clustered_phases"] = ("ref_load", [0.5, 0.1])
    fake["max_waiting"] = xr.zeros_like(d["max_waiting"])
    claims = _by_quantity(cn.globecom01_fig6_claims(fake))
    assert claims["clustering_grows_with_a"]["shape_ok"] is False
    assert claims["pq_holds_two_or_more_with_aggregation"]["shape_ok"] is False
    assert claims["pq_at_most_one_without_aggregation"]["shape_ok"] is True
    fig = fn.globecom01_fig6(d)
    assert len(fig.axes) == 2 and "aggregation degree" in fig.axes[1].get_xlabel()
    plt.close(fig)
    with pytest.raises(ValueError, match="ref_rates_bps"):
        nw.globecom01_fig6(n_ef_samples=50, seeds=(1,), ref_rates_bps=(400e3,))


def test_the_new_artefacts_are_registered_and_their_rows_are_recorded():
    rows = load_paper_values()
    for aid, fn_claims in (("globecom01_fig2", cn.globecom01_fig2_claims),
                           ("globecom01_fig6", cn.globecom01_fig6_claims)):
        entry = registry.artefact(aid)
        assert entry.notebook == "11_network_and_slides" and entry.function("claims") is fn_claims
        assert set(rows.loc[rows.artefact == aid, "quantity"])
    # every row of the three artefacts is one the claims functions record, in the row's unit
    d = {"globecom01_fig2": nw.globecom01_fig2(),
         "globecom01_fig6": nw.globecom01_fig6(n_ef_samples=50, seeds=(1,), ref_rates_bps=(300e3, 100e3))}
    for aid, data in d.items():
        recorded = {r["quantity"]: r["unit"] for r in registry.artefact(aid).function("claims")(data)}
        stated = dict(zip(rows.loc[rows.artefact == aid, "quantity"], rows.loc[rows.artefact == aid, "unit"]))
        assert recorded == stated, aid
    assert scenarios.EF_FRAME_BYTES == 128
