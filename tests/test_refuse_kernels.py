"""The public entry points of compiled code refuse what would crash or miscount, in one line.

numba does no bounds checks: :meth:`pqlab.base.sketch.LogBins.add`,
:meth:`~pqlab.base.sketch.LogBins.quantiles` and :meth:`pqlab.node.summary.FlowSummary.update`
check shapes, lengths, ranges and dtypes before their kernels run (DESIGN.md: validation lives
in the Python wrapper). A refused call changes no count.
"""

from __future__ import annotations

import numpy as np
import pytest

from pqlab.base.sketch import LogBins
from pqlab.node.summary import FlowSummary


def one_line(exc_info, *words):
    text = str(exc_info.value)
    assert "\n" not in text and len(text) <= 300, text
    for word in words:
        assert word in text, text
    assert "-9223372036854775808" not in text, text


@pytest.fixture(scope="module")
def bins():
    return LogBins()


@pytest.mark.parametrize("row", [100000, 10**9, -(10**9), 5, -1, 1])
def test_logbins_add_refuses_a_row_outside_counts(bins, row):
    counts = bins.zeros(1)
    with pytest.raises(ValueError) as exc:
        bins.add(np.array([1.0]), np.array([row]), counts)
    one_line(exc, "rows", "[0, 0]", str(row))
    assert counts.sum() == 0


def test_logbins_add_refuses_rows_of_another_length(bins):
    counts = bins.zeros(1)
    with pytest.raises(ValueError) as exc:
        bins.add(np.ones(10**6), np.zeros(1, np.int64), counts)
    one_line(exc, "rows", "1000000")
    assert counts.sum() == 0


@pytest.mark.parametrize(
    "rows",
    [np.array([0.5]), np.array([np.nan]), np.array([2.0**70]), np.array(["0"]), np.array([[0]])],
)
def test_logbins_add_refuses_rows_that_are_not_row_indices(bins, rows):
    counts = bins.zeros(1)
    with pytest.raises((ValueError, TypeError)) as exc:
        bins.add(np.ones(rows.size), rows, counts)
    one_line(exc, "rows")
    assert counts.sum() == 0


NOT_A_TABLE = {  # counts tables of n bins that a kernel must not be given to write into
    "too few bins": lambda n: np.zeros((1, 5), np.int64),
    "1-D": lambda n: np.zeros(n, np.int64),
    "float": lambda n: np.zeros((1, n)),
    "int32": lambda n: np.zeros((1, n), np.int32),
    "strided": lambda n: np.zeros((1, 2 * n), np.int64)[:, ::2],
    "list": lambda n: [[0] * n],
}


def read_only(n):
    counts = np.zeros((1, n), np.int64)
    counts.setflags(write=False)
    return counts


NOT_A_TABLE["read-only"] = read_only


@pytest.mark.parametrize("case", sorted(NOT_A_TABLE))
def test_logbins_add_refuses_counts_not_its_own_table(bins, case):
    counts = NOT_A_TABLE[case](bins.n_bins)
    with pytest.raises((ValueError, TypeError)) as exc:
        bins.add(np.ones(1), np.zeros(1, np.int64), counts)
    one_line(exc, "counts")
    assert np.sum(counts) == 0


@pytest.mark.parametrize(
    "values", [np.array(["1.0"]), np.array([[1.0]]), np.array([1 + 2j]), [[1.0], 2.0]]
)
def test_logbins_add_refuses_values_that_are_not_numbers(bins, values):
    counts = bins.zeros(1)
    with pytest.raises(ValueError) as exc:
        bins.add(values, np.zeros(1, np.int64), counts)
    one_line(exc, "values")
    assert counts.sum() == 0


@pytest.mark.parametrize(
    "counts",
    [
        np.zeros((1, 5), np.int64),
        np.zeros((1, 9000), np.int64),
        np.zeros(3457, np.int64),
        np.full((1, 3457), -1, np.int64),
    ],
)
def test_logbins_quantiles_refuses_counts_not_its_own_table(bins, counts):
    assert bins.n_bins == 3457  # the default bins
    with pytest.raises((ValueError, TypeError)) as exc:
        bins.quantiles(counts, [0.5])
    one_line(exc, "counts")


@pytest.mark.parametrize("q", [[1.5], [np.nan], [0.9, 0.5], list(range(500))])
def test_logbins_quantiles_refuses_q_outside_0_1_echoing_little(bins, q):
    with pytest.raises(ValueError) as exc:
        bins.quantiles(bins.zeros(1), q)
    one_line(exc, "q")
    assert len(str(exc.value)) < 200


def batch(n=4, **change):
    arrays = dict(
        arrival_s=np.arange(n, dtype=float),
        size_bytes=np.full(n, 100),
        flow=np.zeros(n, np.int64),
        departure_s=np.arange(n) + 0.5,
        drop=np.zeros(n, np.int8),
        queue=np.zeros(n, np.int64),
    )
    arrays.update(change)
    return arrays


@pytest.mark.parametrize(
    "name", ["arrival_s", "size_bytes", "flow", "departure_s", "drop", "queue"]
)
@pytest.mark.parametrize("length", [0, 1, 3, 5])
def test_flowsummary_update_refuses_an_array_of_another_length(name, length):
    good = batch()
    s = FlowSummary()
    with pytest.raises(ValueError) as exc:
        other = good[name][:length] if length < 4 else np.resize(good[name], length)
        s.update(**{**good, name: other})
    one_line(exc, name)
    assert s.n_flows == 0


@pytest.mark.parametrize(
    "name, value, words",
    [
        ("flow", np.array([0.5, 1, 1, 1]), ("flow", "integers", "0.5")),
        ("flow", np.array([-1, 0, 0, 0]), ("flow", ">= 0")),
        ("queue", np.array([0, 0, 2**40, 0]), ("queue", "65535")),
        ("queue", np.array([0, 0, 1.5, 0]), ("queue", "1.5")),
        ("drop", np.array([0, 9, 0, 0]), ("drop", "[0, 3]", "9")),
        ("drop", np.array([0, -1, 0, 0]), ("drop", "[0, 3]")),
        ("drop", np.array([0, 0.5, 0, 0]), ("drop", "0.5")),
        ("drop", np.array([0, 256 + 1, 0, 0]), ("drop", "257")),
        ("size_bytes", np.array([1e300, 1, 1, 1]), ("size_bytes", "1e+300")),
        ("size_bytes", np.array([10.5, 1, 1, 1]), ("size_bytes", "10.5")),
        ("arrival_s", np.array([0, np.nan, 2, 3]), ("arrival_s", "nan")),
        ("departure_s", np.array([0.5, np.nan, 2.5, 3.5]), ("departure_s", "index 1")),
        ("departure_s", np.array([0.5, 0.9, 2.5, 3.5]), ("departure_s", "index 1")),
        ("departure_s", np.array([0.5, np.inf, 2.5, 3.5]), ("departure_s", "index 1")),
        ("flow", np.array(["a", "b", "c", "d"]), ("flow",)),
        ("drop", np.array([[0, 0, 0, 0]]), ("drop",)),
    ],
)
def test_flowsummary_update_refuses_values_that_cannot_be_meant(name, value, words):
    s = FlowSummary()
    with pytest.raises((ValueError, TypeError)) as exc:
        s.update(**batch(**{name: value}))
    one_line(exc, *words)
    assert s.n_flows == 0


def test_flowsummary_update_takes_nan_departures_of_dropped_packets():
    s = FlowSummary()
    s.update(**batch(departure_s=np.array([0.5, np.nan, 2.5, np.nan]), drop=np.array([0, 1, 0, 2])))
    ds = s.to_dataset()
    assert int(ds.sent.sum()) == 4 and int(ds.kept.sum()) == 2 and int(ds.policed.sum()) == 1


@pytest.mark.parametrize(
    "change, words",
    [
        ({"offset": np.array([0, 10**9])}, ("offset", "captured", "data")),
        ({"offset": np.array([0, -5])}, ("offset", ">= 0")),
        ({"captured": np.array([40, 2**62])}, ("captured",)),
        ({"captured": np.array([40])}, ("captured", "2 elements")),
        ({"data": np.zeros(80)}, ("data", "uint8")),
        ({"link": 999}, ("link type 999",)),
        ({"link": np.array([101])}, ("link",)),
    ],
)
def test_ip_fields_refuses_frames_outside_its_data(change, words):
    from pqlab.node.captures import ip_fields

    args = {
        "data": np.zeros(80, np.uint8),
        "offset": np.array([0, 40]),
        "captured": np.array([40, 40]),
        "link": 101,
        **change,
    }
    with pytest.raises(ValueError) as exc:
        ip_fields(**args)
    one_line(exc, *words)
