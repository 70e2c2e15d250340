"""pqlab.papers.analysis.path: RTT of the uncongested path and the C7500 hops (small run, one seed).

Checked against what the mechanism fixes exactly: store-and-forward lags of deterministic packets.
"""

import matplotlib
import pytest

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

from pqlab.node.framing import line_time_s  # noqa: E402
from pqlab.papers.analysis import path as path_artefact  # noqa: E402

N = 300
MS = 1e3
#: Line time of a 128-byte EF frame (110 IP) on the 2 Mbit/s ATM line, ms.
EF_MS = line_time_s(110, "atm-aal5", 2e6) * MS


@pytest.fixture(scope="module")
def path():
    return path_artefact.compute(n_ef_samples=N, seed=1)


def test_path_rtt_and_hops(path):
    assert float(path["rtt"].sel(size=64)) == pytest.approx(2 * 3 * 0.424e-3)  # s; 2 cells per hop
    assert path["line_rate"].attrs["units"] == "bit/s" and float(path.line_rate) == 2e6
    assert (path["rtt"].diff("size") >= -1e-12).all()
    assert (path["rtt_unframed"] < path["rtt"]).all()
    # simulated C7500 hops: every EF packet lags by the 1028-byte BE line time at each hop,
    # constantly
    assert float(path.ef_hop_delay_mean) == pytest.approx(2 * float(path.be_line_time), abs=1e-12)
    assert float(path.ef_hop_delay_std) < 1e-12
    assert float(path.hop_max_wait) == pytest.approx(
        2 * (float(path.be_line_time) - EF_MS / MS), abs=1e-12
    )
    claims = {c["quantity"]: c for c in path_artefact.claims(path, n_ef_samples_measured=N)}
    assert claims["rtt_64_byte_packet"]["unit"] == "ms"
    assert claims["c7500_hops_uncongested"]["shape_ok"] is False


def test_bad_arguments_name_the_parameter():
    with pytest.raises(ValueError, match="sizes_bytes"):
        path_artefact.compute(sizes_bytes=[0])


def test_figure_has_labelled_axes(path):
    import matplotlib.pyplot as plt

    fig = path_artefact.figure(path)
    assert isinstance(fig, Figure)
    axes = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
    assert axes and all(ax.get_xlabel() and ax.get_ylabel() for ax in axes)
    titles = [fig._suptitle.get_text() if fig._suptitle else ""] + [ax.get_title() for ax in axes]
    assert any(path_artefact.ARTEFACT.id in t for t in titles)
    plt.close(fig)


def test_rtt_reason_is_the_arithmetic_of_the_idle_path(path):
    """Issue 30 item 2: the RTT row blamed the node for an idle-path round trip; its reason is
    arithmetic."""
    record = {c["quantity"]: c for c in path_artefact.claims(path)}["rtt_64_byte_packet"]
    assert record["reason"]["kind"] == "arithmetic"
    got = {f["name"]: (f["value"], f["unit"]) for f in record["reason"]["facts"]}
    assert got["hops"] == (3.0, "hops")
    assert got["cells"] == (2.0, "cells")
    assert got["hop_time"] == (pytest.approx(0.424), "ms")
    assert got["rtt"] == (pytest.approx(2 * 3 * 0.424), "ms")
    assert got["paper_rtt"] == (2.0, "ms")
