"""The shared figure helpers of ``pqlab.papers.figures``: fixed title height, titles above a top axis."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from pqlab.papers import figures  # noqa: E402


def _title_and_top_labels(top_axis: bool):
    fig, ax = figures.subplots(figsize=(5, 3), top_axis=top_axis)
    ax.plot([0, 1], [0, 1])
    sec = ax.secondary_xaxis("top")
    sec.set_xlabel("a label on top")
    ax.set_title("the title")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    title = ax.title.get_window_extent(renderer)
    top = sec.get_tightbbox(renderer)
    plt.close(fig)
    return title, top


def test_titles_of_subplots_axes_are_at_a_fixed_height_and_rc_is_left_alone():
    before = matplotlib.rcParams["axes.titley"]
    fig, ax = figures.subplots(figsize=(4, 3))
    ax.set_title("t")
    assert ax._autotitlepos is False  # placed at axes.titley, not measured at every draw
    assert matplotlib.rcParams["axes.titley"] == before  # the global setting is not changed
    plt.close(fig)


def test_a_figure_with_an_axis_on_top_keeps_its_title_above_that_axis():
    title, top = _title_and_top_labels(top_axis=True)
    assert title.y0 >= top.y1 - 0.5  # above the top axis's label
    title, top = _title_and_top_labels(top_axis=False)
    assert title.y0 < top.y1  # what top_axis=True is for: a fixed title would overlap it
