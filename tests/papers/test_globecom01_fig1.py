"""pqlab.papers.globecom01.globecom01_fig1: the node of Figs. 1-2 as data and as a schematic."""

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

import pqlab  # noqa: E402
from pqlab.papers.globecom01 import diagram  # noqa: E402
from pqlab.papers.globecom01 import globecom01_fig1 as fig1  # noqa: E402


def test_fig1_is_computed_from_the_node():
    node = pqlab.Node(
        1e6, "ethernet", 3, 256, (pqlab.Queue("priority", 4), pqlab.Queue("wfq", 9, weight_bps=5e5))
    )
    d = fig1.compute(node)
    assert d.attrs["max_ring_particles"] == 3 - 1 + 6  # 1500 bytes = 6 particles of 256
    assert list(d["limit_packets"].values) == [4, 9] and math.isnan(float(d["police_rate_bps"][0]))
    fig = fig1.figure(d)
    texts = " ".join(t.get_text() for t in fig.axes[0].texts)
    assert "3 particles x 256 B" in texts and "limit 9 packets" in texts and "1 Mbit/s" in texts
    assert "no policer" in texts and "globecom01_fig1" in fig.axes[0].get_title()
    plt.close(fig)


def test_fig1_text_is_at_least_the_axis_label_size_and_stays_inside_the_figure():
    """The schematic reads at the size of the other figures: no text smaller than their axis labels
    (12 pt in the seaborn notebook theme; it was 7.5-8.5 pt), and none cut off at the figure's edge.
    """
    fig = fig1.figure(fig1.compute())
    ax = fig.axes[0]
    texts = [t for t in [*ax.texts, ax.title] if t.get_text().strip()]
    assert diagram.label_size() == 12.0
    small = [
        (t.get_text()[:30], t.get_fontsize())
        for t in texts
        if t.get_fontsize() < diagram.label_size()
    ]
    assert not small, small
    fig.canvas.draw()
    frame = fig.bbox
    outside = [
        t.get_text()[:30]
        for t in texts
        if not frame.contains(*t.get_window_extent().p0)
        or not frame.contains(*t.get_window_extent().p1)
    ]
    assert not outside, outside
    plt.close(fig)


@pytest.mark.parametrize("kwargs, name", [({"node": "c7200"}, "node"), ({"path": 3}, "path")])
def test_bad_arguments_raise_value_error_naming_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        fig1.compute(**kwargs)
