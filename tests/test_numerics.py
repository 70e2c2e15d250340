"""pqlab.base.numerics: the reductions behind reported numbers give the same digits on every CPU."""

import os
import platform
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pqlab.base import numerics

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@given(st.lists(st.tuples(finite, finite), min_size=1, max_size=300))
@settings(max_examples=60, deadline=None)
def test_dot_is_numpys_pairwise_sum_of_the_products(pairs):
    a, b = (np.array(v) for v in zip(*pairs))
    assert numerics.dot(a, b) == float(np.sum(a * b))
    assert numerics.dot(a, b) == pytest.approx(float(np.dot(a, b)), rel=1e-9, abs=1e-3)


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 127, 128, 129, 136, 300, 1000, 5003])
def test_lagged_dots_are_dot_of_each_lag_bit_for_bit(n):
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n) * 10.0 ** rng.integers(-6, 6, n)  # magnitudes that round differently
    lags = numerics.lagged_dots(x, n + 2)
    assert lags.shape == (n + 3,)
    for k in range(n + 3):
        assert lags[k] == numerics.dot(x[: max(n - k, 0)], x[min(k, n) :])


@given(st.lists(finite, min_size=1, max_size=400), st.integers(0, 40))
@settings(max_examples=60, deadline=None)
def test_lagged_dots_sum_in_numpys_order(values, max_lag):
    x = np.array(values)
    got = numerics.lagged_dots(x, max_lag)
    want = [
        float(np.sum(x[: max(x.size - k, 0)] * x[min(k, x.size) :])) for k in range(max_lag + 1)
    ]
    assert got.tolist() == want


def test_lagged_dots_refuse_a_negative_lag_and_a_2d_series():
    with pytest.raises(ValueError, match="max_lag"):
        numerics.lagged_dots(np.ones(3), -1)
    with pytest.raises(ValueError, match="1-D"):
        numerics.lagged_dots(np.ones((2, 2)), 1)


@given(st.lists(st.tuples(st.floats(-1e3, 1e3), finite), min_size=2, max_size=50))
@settings(max_examples=60, deadline=None)
def test_line_fit_is_polyfits_line(points):
    x, y = (np.array(v) for v in zip(*points))
    if np.ptp(x) == 0:
        with pytest.raises(ValueError):
            numerics.line_fit(x, y)
        return
    if np.ptp(x) < 1e-3:  # ill-conditioned: polyfit's own answer is not a reference there
        return
    slope, intercept = numerics.line_fit(x, y)
    ref_slope, ref_intercept = np.polyfit(x, y, 1)
    scale = max(1.0, float(np.max(np.abs(y))))
    assert slope == pytest.approx(ref_slope, rel=1e-7, abs=1e-7 * scale)
    assert intercept == pytest.approx(ref_intercept, rel=1e-7, abs=1e-6 * scale)


def test_exact_line_and_bad_input():
    assert numerics.line_fit([1, 2, 3], [3, 5, 7]) == (2.0, 1.0)
    with pytest.raises(ValueError, match="distinct"):
        numerics.line_fit([1, 1], [2, 3])
    with pytest.raises(ValueError, match="1-D"):
        numerics.dot([1, 2], [1, 2, 3])


@pytest.mark.skipif(
    platform.machine() != "x86_64", reason="OpenBLAS core types named here are x86-64 kernels"
)
def test_the_stand_in_mean_does_not_depend_on_the_blas_kernel():
    """BLAS's ddot gave 413.4382836402509 (Haswell) and 413.43828364025103 (Prescott) for the same
    law."""
    code = (
        "import numpy as np; from pqlab import scenarios; d = scenarios.real_be_sizes(); s ="
        " np.array(d.sizes_bytes, dtype=float); p = d.pmf(); print(repr(d.mean_bytes), repr(float(s"
        " @ p)))"
    )
    found = {}
    for core in ("Haswell", "Prescott"):
        env = {**os.environ, "OPENBLAS_CORETYPE": core}
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
        )
        assert done.returncode == 0, done.stderr
        found[core] = done.stdout.split()
    assert found["Haswell"][0] == found["Prescott"][0]
    # the BLAS product itself differs between the two kernels: the test would catch a return to it
    assert found["Haswell"][1] != found["Prescott"][1]


def test_no_blas_reduction_behind_a_reported_number():
    """Every dot product and line fit of the package goes through pqlab.base.numerics (read from the
    sources)."""
    import re
    from pathlib import Path

    import pqlab

    package = Path(pqlab.__file__).parent
    pattern = re.compile(
        r"np\.(polyfit|dot|vdot|inner|matmul|einsum|cov|corrcoef|linalg)\b|[\w\])] @"
        r" [\w(\[]|\.dot\("
    )
    found = []
    for source in package.rglob("*.py"):
        if source.name == "numerics.py":
            continue
        for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if pattern.search(code) and not code.lstrip().startswith(('"', "'")):
                found.append(f"{source.relative_to(package)}:{number}: {line.strip()}")
    assert found == []


def test_equal_x_values_are_refused_even_where_their_mean_rounds():
    """0.1 three times: the mean rounds to 0.10000000000000002, so the deviations are not all 0."""
    with pytest.raises(ValueError, match="distinct"):
        numerics.line_fit([0.1, 0.1, 0.1], [1.0, 2.0, 3.0])
