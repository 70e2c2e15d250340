"""Issue 31's test-bed mechanisms (pqlab.papers.testbed, pqlab.papers.testbed_input): exact traces
and properties."""

import numpy as np
import pytest

from pqlab import scenarios
from pqlab.node.framing import line_time_s
from pqlab.papers import presets
from pqlab.papers import testbed as tb
from pqlab.papers import testbed_eval as te
from pqlab.papers import testbed_input as ti

ATM = 2e6
T_EF = 3 * 53 * 8 / ATM  # 110-byte IP (128-byte frame): 3 cells


# --------------------------------------------------------------------------- generators: several
# mgen hosts


def test_one_mgen_host_draws_what_the_single_host_model_drew():
    send = np.array([0.0011, 0.0042, 0.013, 0.0207, 0.031, 0.05])
    flow = np.array([0, 1, 2, 100, 3, 101])
    a = ti.generator_release_s(send, flow, 0.01, 1, np.random.default_rng(7))
    phase_ef, phase_be = np.random.default_rng(7).random(2) * 0.01
    expect = send.copy()
    for i in (1, 2, 4):
        expect[i] = phase_ef + np.ceil((send[i] - phase_ef) / 0.01 - 1e-12) * 0.01
    for i in (3, 5):
        expect[i] = phase_be + np.ceil((send[i] - phase_be) / 0.01 - 1e-12) * 0.01
    np.testing.assert_array_equal(a, expect)


def test_several_mgen_hosts_release_each_flow_on_its_own_hosts_grid():
    rng = np.random.default_rng(3)
    flow = np.repeat(np.array([0, 1, 2, 3, 4, 100]), 50)
    send = np.sort(rng.random(flow.size))
    out = ti.generator_release_s(send, flow, 0.01, 2, np.random.default_rng(11))
    host = ti.ef_host_of(flow, 2)
    np.testing.assert_array_equal(host[flow == 1], 0)
    np.testing.assert_array_equal(host[flow == 2], 1)
    np.testing.assert_array_equal(host[flow == 3], 0)
    np.testing.assert_array_equal(host[(flow == 0) | (flow == 100)], -1)
    np.testing.assert_array_equal(
        out[flow == 0], send[flow == 0]
    )  # the SmartBits is hardware-timed
    assert np.all(out >= send - 1e-12) and np.all(out < send + 0.01 + 1e-9)
    phases = []
    for h in (0, 1):
        t = out[host == h]
        steps = (t - t[0]) / 0.01
        np.testing.assert_allclose(steps, np.round(steps), atol=1e-6)  # one grid per host
        phases.append(t[0] % 0.01)
    assert abs(phases[0] - phases[1]) > 1e-6  # two hosts, two phases (for this seed)


# --------------------------------------------------------------------------- router stalls


def test_stalled_packets_wait_for_the_stall_end_by_hand():
    starts = np.array([1.0, 5.0])
    at = np.array([0.95, 1.0, 1.05, 1.1, 5.09, 6.0])
    np.testing.assert_allclose(ti.stalled_s(at, starts, 0.1), [0.95, 1.1, 1.1, 1.1, 5.1, 6.0])
    np.testing.assert_array_equal(ti.stalled_s(at, np.empty(0), 0.1), at)


def test_stall_windows_are_a_poisson_process_of_the_stated_spacing():
    starts = ti.stall_windows_s(20_000.0, 2.0, 0.005, np.random.default_rng(5))
    gaps = np.diff(starts)
    assert starts.min() >= 0 and starts.max() <= 20_000.0
    assert gaps.min() >= 0.005 - 1e-9  # stalls never overlap (up to the sums' rounding)
    # 10,000 exponential gaps of mean 2 s: the sample mean is within 5 sigma (2 / sqrt(1e4) = 0.02
    # s)
    assert abs(gaps.mean() - 2.0) < 5 * 0.02
    assert ti.stall_windows_s(10.0, 0.0, 0.0, np.random.default_rng(1)).size == 0


def test_a_stall_delays_the_reference_packet_and_the_bound_grows_by_one_stall():
    sc = scenarios.aggregation(ref_rate_bps=300e3, n_ef_samples=2000)
    base = tb.testbed()
    stalled = tb.testbed(stall_interval_s=0.5, stall_s=0.008)
    d0, d1 = tb.reference_delays(sc, 2, base), tb.reference_delays(sc, 2, stalled)
    assert np.nanmax(d1) > np.nanmax(d0)
    assert tb.worst_case_bound(sc, stalled) == pytest.approx(tb.worst_case_bound(sc, base) + 0.008)
    assert np.nanmax(d1) <= tb.worst_case_bound(sc, stalled)


# --------------------------------------------------------------------------- the BE law, the extra
# EF streams


def test_bimodal_law_replaces_the_stand_in_law_only():
    model = tb.testbed(be_law="bimodal", be_small_share=0.7)
    real = tb.testbed_scenario(scenarios.real_distribution(n_ef_samples=10), model)
    be = [s for s in real.streams if s.flow >= presets.FIRST_BE_FLOW]
    assert be and all(
        s.size.sizes_bytes == (46, 1500) and s.size.cdf == pytest.approx((0.7, 1.0)) for s in be
    )
    fixed = tb.testbed_scenario(scenarios.full_units(k=2, n_ef_samples=10), model)
    assert (
        fixed.streams
        == tb.testbed_scenario(scenarios.full_units(k=2, n_ef_samples=10), tb.testbed()).streams
    )


def test_bimodal_law_draws_its_share_of_small_packets():
    model = tb.testbed(be_law="bimodal", be_small_share=0.6)
    ds = tb.simulate_testbed(scenarios.real_distribution(n_ef_samples=2000), 4, model)
    size = ds["size"].values[ds["flow"].values >= presets.FIRST_BE_FLOW]
    assert set(np.unique(size)) == {46, 1500}
    share = float(np.mean(size == 46))
    assert abs(share - 0.6) < 5 * np.sqrt(0.6 * 0.4 / size.size)


def test_extra_ef_streams_send_the_given_frames_at_the_stated_frame_rate():
    sc = scenarios.aggregation(ref_rate_bps=50e3, n_ef_samples=10)
    out = tb.testbed_scenario(sc, tb.testbed(extra_ef_frame_bytes=1518, be_law="preset"))
    for old, new in zip(sc.streams, out.streams):
        if old.flow == 0 or old.flow >= presets.FIRST_BE_FLOW:
            assert new == old
            continue
        assert new.size.size_bytes == 1500
        # 50 kbit/s of frames either way: the IP rate follows the frame's share of IP bytes
        assert new.rate_bps * 1518 / 1500 == pytest.approx(old.rate_bps * 128 / 110)


def test_extra_ef_streams_of_large_frames_raise_the_bound_by_the_queue_of_them():
    sc = scenarios.aggregation(ref_rate_bps=50e3, n_ef_samples=300)
    small, large = tb.testbed(extra_ef_frame_bytes=0), tb.testbed(extra_ef_frame_bytes=1518)
    t1500 = 32 * 53 * 8 / ATM
    # the 10 EF packets ahead may now be 1500-byte ones (the input port's term grows too)
    assert (
        tb.worst_case_bound(sc, large) - tb.worst_case_bound(sc, small)
        >= 10 * (t1500 - T_EF) - 1e-12
    )
    assert np.nanmax(tb.reference_delays(sc, 1, large)) <= tb.worst_case_bound(sc, large)


# --------------------------------------------------------------------------- policer, delay
# definition


@pytest.mark.parametrize(
    "accounting, counted",
    [("ip", 110), ("frame", 128), ("aal5", 126), ("aal5_padded", 144), ("cells", 159)],
)
def test_policer_counts_the_bytes_of_its_accounting(accounting, counted):
    sc = scenarios.full_units(k=1, n_ef_samples=10)
    q = tb.testbed_node(sc, tb.Testbed(police_accounting=accounting, police_burst_s=0.02)).queues[0]
    assert q.police_rate_bps == pytest.approx(300e3 * 110 / counted)
    assert q.police_burst_bytes == pytest.approx(300e3 * 0.02 / 8 * 110 / counted)


def test_a_small_policer_burst_drops_clumped_packets_at_the_policer():
    sc = te.loss_scenario(1000)
    ds = tb.simulate_testbed(sc, 1, tb.testbed(police_burst_s=0.005))
    drop = ds["drop"].values[ds["queue"].values == presets.EF_QUEUE]
    assert np.sum(drop == 1) > 0  # POLICED: the clumps released at one tick exceed a 5 ms burst


def test_cut_through_plus_line_adds_the_packets_line_time_to_cut_through():
    sc = scenarios.full_units(k=1, n_ef_samples=200)
    cut = tb.reference_delays(sc, 1, tb.testbed(timestamp="cut_through"))
    plus = tb.reference_delays(sc, 1, tb.testbed(timestamp="cut_through_plus_line"))
    np.testing.assert_allclose(plus - cut, T_EF, rtol=0, atol=1e-12)
    rfc = tb.reference_delays(sc, 1, tb.testbed())
    np.testing.assert_allclose(rfc - cut, line_time_s(110, "ethernet", 1e8), rtol=0, atol=1e-12)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"adapter_packets": -1}, "adapter_packets"),
        ({"adapter_packets": 9}, "adapter_packets"),
        ({"adapter_packets": 1, "ring_release": "unit"}, "ring_release"),
        ({"be_law": "trimodal"}, "be_law"),
        ({"be_small_share": 1.0}, "be_small_share"),
        ({"be_small_share": float("nan")}, "be_small_share"),
        ({"extra_ef_frame_bytes": 20}, "extra_ef_frame_bytes"),
        ({"extra_ef_frame_bytes": 9000}, "extra_ef_frame_bytes"),
        ({"ef_hosts": 0}, "ef_hosts"),
        ({"police_burst_s": -1.0}, "police_burst_s"),
        ({"stall_interval_s": 1.0}, "stall_s"),
        ({"stall_s": 0.01}, "stall_interval_s"),
        ({"stall_interval_s": 1e-6, "stall_s": 1e-7}, "stall_interval_s"),
        ({"timestamp": "gps"}, "timestamp"),
    ],
)
def test_bad_mechanism_options_raise_naming_the_option(kwargs, name):
    with pytest.raises(ValueError, match=name):
        tb.Testbed(**kwargs)


def test_ticks_release_every_host_s_packets_as_the_array_formula_does_bit_for_bit():
    rng = np.random.default_rng(5)
    flow = rng.choice(np.array([0, 1, 2, 3, 4, 5, 100, 101, 119]), 4000)
    send = np.sort(rng.random(flow.size) * 3.0)
    for hosts, tick in ((1, 0.01), (3, 0.01), (2, 0.003)):
        out = ti.generator_release_s(send, flow, tick, hosts, np.random.default_rng(hosts))
        draws = np.random.default_rng(hosts)
        first = draws.random(2) * tick
        phases = np.concatenate([first[:1], draws.random(hosts - 1) * tick])
        host = ti.ef_host_of(flow, hosts)
        expect = send.copy()
        groups = [(host == h, phases[h]) for h in range(hosts)] + [(flow >= 100, first[1])]
        for mask, phase in groups:
            expect[mask] = phase + np.ceil((send[mask] - phase) / tick - 1e-12) * tick
        np.testing.assert_array_equal(out, expect)
        np.testing.assert_array_equal(out[flow == 0], send[flow == 0])


def test_the_stable_order_is_lexsort_s_by_time_then_key():
    rng = np.random.default_rng(2)
    for n, distinct in ((0, 1), (1, 1), (50, 5), (3000, 40), (3000, 3), (3000, 3000)):
        time_s = np.round(rng.random(n) * distinct) / 7.0  # many ties, far from sorted: numpy's
        key = rng.integers(0, 25, n)
        np.testing.assert_array_equal(ti.stable_order(time_s, key), np.lexsort((key, time_s)))
        np.testing.assert_array_equal(ti.stable_order(time_s), np.argsort(time_s, kind="stable"))
        near = np.round(np.arange(n) + rng.random(n) * 3.0) * 1e-3  # nearly sorted: insertion
        order = np.empty(n, dtype=np.int64)
        assert ti._insertion_order(near, key, ti.INSERTION_MOVES, order)
        np.testing.assert_array_equal(order, np.lexsort((key, near)))
        np.testing.assert_array_equal(ti.stable_order(near, key), np.lexsort((key, near)))
    backwards, zeros = np.arange(500.0)[::-1], np.zeros(500, dtype=np.int64)
    assert not ti._insertion_order(backwards, zeros, 16, np.empty(500, np.int64))
