"""Rates valid but implausible for the link warn (issue 33: ``Node(10, "ethernet", ...)`` was
silent),
naming the parameter, its value and the plausible range; the papers' presets never do."""

import warnings

import pytest

import pqlab
from pqlab import CBRStream, Deterministic, Node, Queue, Scenario
from pqlab.node.plausibility import (
    MAX_OFFERED_LOAD,
    MIN_LINE_RATE_BPS,
    ImplausibleRateWarning,
    rate_text,
)
from pqlab.papers import presets


def _node(rate, framing="ethernet"):
    return Node(rate, framing, 5, 512, (Queue("priority", 10), Queue("wfq", 64, weight_bps=1.0)))


def test_the_warning_is_public_and_a_user_warning():
    assert pqlab.ImplausibleRateWarning is ImplausibleRateWarning and issubclass(
        ImplausibleRateWarning, UserWarning
    )
    assert "ImplausibleRateWarning" in pqlab.__all__


def test_a_line_of_10_bit_per_s_on_ethernet_warns_at_the_users_line():
    with pytest.warns(ImplausibleRateWarning) as seen:
        _node(10)
    (warning,) = seen
    text = str(warning.message)
    assert (
        "line_rate_bps = 10 bit/s" in text
        and "framing 'ethernet'" in text
        and "plausible 1 Mbit/s to 1 Tbit/s" in text
    )
    assert "10e6" in text
    assert warning.filename == __file__  # the user's line, not pqlab's


@pytest.mark.parametrize("framing", sorted(MIN_LINE_RATE_BPS))
def test_each_framing_warns_below_its_floor_and_not_at_it(framing):
    floor = MIN_LINE_RATE_BPS[framing]
    with pytest.warns(ImplausibleRateWarning, match=rf"plausible {rate_text(floor)}"):
        _node(floor / 2, framing)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _node(floor, framing)


def test_streams_far_above_the_line_rate_warn_naming_the_largest():
    node = Node.cisco7200_atm()  # 2 Mbit/s
    ef = CBRStream(300e3, Deterministic(128), queue=0, flow=0)
    slip = CBRStream(300e6, Deterministic(128), queue=1, flow=1)  # 300 kbit/s meant
    with pytest.warns(ImplausibleRateWarning) as seen:
        Scenario(node, (ef, slip), duration_s=1.0)
    text = str(seen[0].message)
    assert "150.2 times the line rate" in text and "streams[1].rate_bps = 3e+08 bit/s" in text
    assert f"plausible up to {MAX_OFFERED_LOAD:g} times" in text
    assert seen[0].filename == __file__
    with (
        warnings.catch_warnings()
    ):  # an overload study (the papers' BE offers 1.1 times the line) is plausible
        warnings.simplefilter("error")
        Scenario(
            node,
            (ef, CBRStream(100 * 2e6 - 300e3, Deterministic(1500), queue=1, flow=1)),
            duration_s=1.0,
        )


def test_the_papers_presets_never_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error", ImplausibleRateWarning)
        built = [
            presets.base_case(),
            presets.real_distribution(),
            presets.ef_frame_size(ef_frame_bytes=1518),
            presets.aggregation(ref_rate_bps=100e3, ef_aggregate_bps=1.2e6),
            presets.full_units(k=3),
            presets.pq_vs_wfq(),
            presets.pq_vs_wfq(scheduler="wfq", n_be_streams=5),
            presets.tftant_star(star=5.0),
            presets.pq_experiment(n_be_streams=200),
        ]
    assert all(isinstance(s, Scenario) for s in built)
