"""Figures label results in words: the short titles of the measured results, the worst-case bound
cases in words, and bars too low to see marked on their axis."""

import matplotlib
import numpy as np
import pandas as pd

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from pqlab.base import locations  # noqa: E402
from pqlab.papers import kit, titles  # noqa: E402
from pqlab.papers.analysis import testbed_model  # noqa: E402

#: Longest short title (characters): a tick label that stays short on a rotated axis.
TITLE_MAX_CHARS = 32


def test_every_measured_number_has_a_short_title_in_words():
    paper = pd.read_csv(locations.paper_values_file())
    numbers = paper[(paper["kind"] == "result") & paper["value"].notna()]
    keys = set(zip(numbers["artefact"], numbers["quantity"]))
    assert sorted(keys - set(titles.titles())) == []
    assert sorted(set(titles.titles()) - keys) == []  # no title of a result that is gone
    for key, text in titles.titles().items():
        assert "_" not in text and 0 < len(text) <= TITLE_MAX_CHARS, (key, text)
    assert titles.title("no_such", "a_quantity") == "a quantity"


def test_the_bound_cases_are_named_in_words():
    labels = [testbed_model._case_label(c) for c in testbed_model.BOUND_CASES]
    assert labels[0] == "Table IV, k = 1" and labels[3] == "Table III, A = 5/6"
    assert all("_" not in label for label in labels)


def test_bars_too_low_to_see_are_marked_on_the_axis():
    fig, ax = plt.subplots()
    positions, heights = np.array([0.0, 1.0, 2.0]), np.array([1e-16, 5.0, 0.04])
    ax.bar(positions, heights)
    ax.set_ylim(0, 6)
    kit.mark_flat_bars(ax, positions, heights, "C1")
    (marks,) = ax.lines
    assert list(marks.get_xdata()) == [0.0, 2.0]  # 0.04 < 1 % of 6; 5.0 is seen
    assert marks.get_clip_on() is False and marks.get_marker() == "s"
    plt.close(fig)
