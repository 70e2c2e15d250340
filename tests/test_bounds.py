"""Tests of pqlab.bounds: GLOBECOM'01 Table IV, Cobham's formula, the PQ burst bound."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pqlab import bounds

# GLOBECOM'01 Table IV, microseconds: k -> (W_pq, W_t, W).
TABLE_IV_US = {
    1: (2409.41, 10240.0, 12649.41),
    2: (4818.82, 12288.0, 17106.82),
    3: (7228.23, 14336.0, 21564.23),
}


def _truncate_hundredths(x_us: float) -> float:
    """Cut to the hundredth of a microsecond, as the paper prints (tiny eps for float noise)."""
    return math.floor(x_us * 100.0 + 1e-6) / 100.0


# --------------------------------------------------------------------------- Table IV


def test_transmission_unit_is_512_bytes_at_2_mbps_unframed():
    assert bounds.particle_time_s(512, 2e6) == pytest.approx(2048e-6, rel=0, abs=1e-18)
    assert bounds.particle_time_s(128, 2e6) == pytest.approx(512e-6, rel=0, abs=1e-18)


def test_the_papers_transmission_unit_has_one_home():
    """Issue 29: ``transmission_unit_s`` is :func:`pqlab.papers.transmission_unit_s` only (the
    papers'
    delay unit, 0.636 ms); the bounds' unit is :func:`particle_time_s` (2.048 ms), under that name
    alone.
    """
    from pqlab import papers

    assert (
        not hasattr(bounds, "transmission_unit_s") and "transmission_unit_s" not in bounds.__all__
    )
    assert papers.transmission_unit_s() != bounds.particle_time_s(512, 2e6)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_worst_case_delay_reproduces_table_iv_as_printed(k):
    got = bounds.worst_case_delay(k, 0.15, 5, 2048e-6)
    for value_s, paper_us in zip(got, TABLE_IV_US[k]):
        assert _truncate_hundredths(value_s * 1e6) == paper_us
        assert abs(value_s * 1e6 - paper_us) < 0.01


@pytest.mark.parametrize(
    "k, column",
    [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (3, 1)],
)
def test_worst_case_delay_rounds_to_table_iv(k, column):
    got = bounds.worst_case_delay(k, 0.15, 5, 2048e-6)[column]
    assert round(got * 1e6, 2) == TABLE_IV_US[k][column]


def test_table_iv_k3_rounding_differs_from_print_by_one_hundredth():
    # Exact: 3 * 2048 / 0.85 = 7228.2353 us, printed 7228.23 (= 3 x the rounded 2409.41).
    got = bounds.worst_case_delay(3, 0.15, 5, 2048e-6)
    assert round(got.w_pq_s * 1e6, 2) == 7228.24
    assert round(got.w_s * 1e6, 2) == 21564.24
    assert round(3 * 2409.41, 2) == TABLE_IV_US[3][0]


def test_worst_case_delay_is_eq_7():
    k, rho, q_t, t_u = 2, 0.3, 7, 1e-3
    got = bounds.worst_case_delay(k, rho, q_t, t_u)
    assert got.w_s == pytest.approx((k / (1 - rho) + q_t + k - 1) * t_u, rel=1e-15)
    assert got.w_s == pytest.approx(got.w_pq_s + got.w_t_s, rel=1e-15)
    assert got.w_pq_s == pytest.approx(k * t_u / (1 - rho), rel=1e-15)
    assert got.w_t_s == pytest.approx((q_t + k - 1) * t_u, rel=1e-15)


def test_worst_case_delay_fields_and_rho_zero():
    got = bounds.worst_case_delay(1, 0.0, 1, 1.0)
    assert got._fields == ("w_pq_s", "w_t_s", "w_s")
    assert got == (1.0, 1.0, 2.0)


def test_table_iv_dataframe():
    table = bounds.table_iv()
    assert list(table.columns) == ["k", "W_pq_us", "W_t_us", "W_us"]
    assert table["k"].tolist() == [1, 2, 3]
    for _, row in table.iterrows():
        paper = TABLE_IV_US[int(row["k"])]
        assert [_truncate_hundredths(row[c]) for c in ("W_pq_us", "W_t_us", "W_us")] == list(paper)


def test_table_iv_from_transmission_unit_and_custom_ks():
    t_u = bounds.particle_time_s(512, 2e6)
    table = bounds.table_iv(t_u_s=t_u, ks=[4])
    assert table["k"].tolist() == [4]
    assert table["W_us"].iloc[0] == pytest.approx((4 / 0.85 + 5 + 3) * 2048, rel=1e-12)


# --------------------------------------------------------------------------- Cobham


def test_cobham_two_classes_by_hand():
    # lambda = (1, 2)/s, E[S] = (0.1, 0.2) s, E[S^2] = (0.01, 0.08) s^2
    # (deterministic, exponential): rho = (0.1, 0.4), R = (0.01 + 0.16) / 2 = 0.085 s,
    # W1 = 0.085 / 0.9, W2 = 0.085 / (0.9 * 0.5).
    waits = bounds.cobham_waits([1.0, 2.0], [0.1, 0.2], [0.01, 0.08])
    assert isinstance(waits, np.ndarray)
    np.testing.assert_allclose(waits, [0.085 / 0.9, 0.085 / 0.45], rtol=1e-13)


@pytest.mark.parametrize("lam, mu", [(1.0, 2.0), (3.0, 4.0), (0.1, 10.0), (0.0, 1.0)])
def test_cobham_single_class_is_mm1(lam, mu):
    waits = bounds.cobham_waits([lam], [1 / mu], [2 / mu**2])
    rho = lam / mu
    assert waits.shape == (1,)
    assert waits[0] == pytest.approx(rho / (mu - lam), rel=1e-13, abs=1e-300)


def test_cobham_single_class_md1_is_pollaczek_khinchine():
    lam, s = 0.5, 1.0
    assert bounds.cobham_waits([lam], [s], [s**2])[0] == pytest.approx(
        lam * s**2 / (2 * (1 - lam * s))
    )


def test_cobham_highest_class_is_globecom_eq_3():
    # D = R / (1 - rho) with rho the highest class's utilisation.
    lam, es, es2 = [292.97, 100.0], [512e-6, 4e-3], [512e-6**2, 2 * 4e-3**2]
    residual = (lam[0] * es2[0] + lam[1] * es2[1]) / 2
    assert bounds.cobham_waits(lam, es, es2)[0] == pytest.approx(residual / (1 - lam[0] * es[0]))


class_params = st.lists(
    st.tuples(
        st.floats(0.0, 5.0),  # arrival rate
        st.floats(0.01, 1.0),  # mean service
        st.floats(1.0, 3.0),  # E[S^2] / E[S]^2
    ),
    min_size=1,
    max_size=5,
)


@settings(max_examples=200, deadline=None)
@given(class_params, st.floats(0.05, 0.95))
def test_cobham_conservation_law_and_ordering(params, total_load):
    lam = np.array([p[0] for p in params])
    es = np.array([p[1] for p in params])
    es2 = np.array([p[2] for p in params]) * es**2
    rho = lam * es
    if rho.sum() == 0:
        return
    lam = lam * total_load / rho.sum()  # scale to the wanted total utilisation
    rho = lam * es
    waits = bounds.cobham_waits(lam, es, es2)
    residual = np.sum(lam * es2) / 2
    # Kleinrock's conservation law: sum rho_k W_k = rho R / (1 - rho) (= rho W_FCFS).
    assert np.sum(rho * waits) == pytest.approx(rho.sum() * residual / (1 - rho.sum()), rel=1e-9)
    # Lower priority never waits less.
    assert np.all(np.diff(waits) >= -1e-12 * waits.max())


def test_priority_queue_max_delay_paper_5_12_ms():
    assert bounds.priority_queue_max_delay(10, 128, 2e6) == pytest.approx(5.12e-3, rel=0, abs=1e-15)


def test_priority_queue_max_delay_atm_framing():
    # 128 bytes on atm-aal5 = 3 cells = 159 bytes = 0.636 ms.
    got = bounds.priority_queue_max_delay(10, 128, 2e6, framing="atm-aal5")
    assert got == pytest.approx(6.36e-3, rel=0, abs=1e-15)


# --------------------------------------------------------------------------- bad inputs


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"particle_bytes": 0}, "particle_bytes"),
        ({"particle_bytes": 1.5}, "particle_bytes"),
        ({"particle_bytes": True}, "particle_bytes"),
        ({"line_rate_bps": 0.0}, "line_rate_bps"),
        ({"line_rate_bps": -1.0}, "line_rate_bps"),
        ({"line_rate_bps": float("inf")}, "line_rate_bps"),
    ],
)
def test_transmission_unit_bad_inputs(kwargs, name):
    args = {"particle_bytes": 512, "line_rate_bps": 2e6, **kwargs}
    with pytest.raises(ValueError, match=name):
        bounds.particle_time_s(**args)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"k": 0}, "k must"),
        ({"k": 1.5}, "k must"),
        ({"k": True}, "k must"),
        ({"rho": -0.1}, r"rho must .*\[0, 1\)"),
        ({"rho": 1.0}, r"rho must .*\[0, 1\)"),
        ({"rho": 1.5}, r"rho must .*\[0, 1\)"),
        ({"rho": float("nan")}, "rho"),
        ({"rho": "0.15"}, "rho"),
        ({"q_t": 0}, "q_t"),
        ({"q_t": 2.5}, "q_t"),
        ({"t_u_s": 0.0}, "t_u_s"),
        ({"t_u_s": -1e-3}, "t_u_s"),
        ({"t_u_s": float("inf")}, "t_u_s"),
    ],
)
def test_worst_case_delay_bad_inputs(kwargs, name):
    args = {"k": 1, "rho": 0.15, "q_t": 5, "t_u_s": 2048e-6, **kwargs}
    with pytest.raises(ValueError, match=name):
        bounds.worst_case_delay(**args)


@pytest.mark.parametrize(
    "kwargs, name",
    [({"ks": [0]}, "ks"), ({"ks": [1.5]}, "ks"), ({"rho": 1.0}, "rho"), ({"q_t": 0}, "q_t")],
)
def test_table_iv_bad_inputs(kwargs, name):
    with pytest.raises(ValueError, match=name):
        bounds.table_iv(**kwargs)


GOOD_COBHAM = {
    "arrival_rate_per_s": [1.0, 2.0],
    "mean_service_s": [0.1, 0.2],
    "second_moment_service_s2": [0.01, 0.08],
}


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"arrival_rate_per_s": [-1.0, 2.0]}, "arrival_rate_per_s must be >= 0"),
        ({"arrival_rate_per_s": [float("nan"), 2.0]}, "arrival_rate_per_s"),
        ({"arrival_rate_per_s": []}, "arrival_rate_per_s"),
        ({"arrival_rate_per_s": [[1.0, 2.0]]}, "arrival_rate_per_s"),
        ({"mean_service_s": [0.1]}, "mean_service_s must have 2"),
        ({"mean_service_s": [0.0, 0.2]}, "mean_service_s must be > 0"),
        ({"mean_service_s": [0.1, float("inf")]}, "mean_service_s"),
        ({"second_moment_service_s2": [0.01]}, "second_moment_service_s2 must have 2"),
        ({"second_moment_service_s2": [0.01, 0.039]}, "second_moment_service_s2 must be >="),
        ({"arrival_rate_per_s": [1.0, 4.5]}, r"arrival_rate_per_s.*total utilisation.*1\.0"),
        ({"arrival_rate_per_s": [5.0, 3.0]}, r"total utilisation.*1\.1"),
    ],
)
def test_cobham_bad_inputs(kwargs, name):
    with pytest.raises(ValueError, match=name):
        bounds.cobham_waits(**{**GOOD_COBHAM, **kwargs})


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"limit_packets": 0}, "limit_packets"),
        ({"limit_packets": 2.5}, "limit_packets"),
        ({"size_bytes": 0}, "size_bytes"),
        ({"size_bytes": 12.5}, "size_bytes"),
        ({"line_rate_bps": 0.0}, "line_rate_bps"),
        ({"framing": "atm"}, "framing"),
    ],
)
def test_priority_queue_max_delay_bad_inputs(kwargs, name):
    args = {"limit_packets": 10, "size_bytes": 128, "line_rate_bps": 2e6, **kwargs}
    with pytest.raises(ValueError, match=name):
        bounds.priority_queue_max_delay(**args)
