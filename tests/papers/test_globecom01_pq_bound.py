"""pqlab.papers.globecom01.globecom01_pq_bound: the 5.12 ms a full EF queue adds (small runs, one
seed).

Checked against what the mechanism fixes exactly: the tail drop of a 10-packet queue and
10 EF line times for a full queue.
"""

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

from pqlab.node.framing import line_time_s  # noqa: E402
from pqlab.papers import kit  # noqa: E402
from pqlab.papers.globecom01 import globecom01_pq_bound  # noqa: E402

N = 300
MS = 1e3
#: Line time of a 128-byte EF frame (110 IP) on the 2 Mbit/s ATM line, ms.
EF_MS = line_time_s(110, "atm-aal5", 2e6) * MS


@pytest.fixture(scope="module")
def pq_bound():
    return globecom01_pq_bound.compute(n_bursts=4, burst_packets=12, seeds=(1,), n_ef_samples=N)


def test_pq_bound_full_queue(pq_bound):
    assert float(pq_bound.bound_unframed) == pytest.approx(5.12e-3)  # s
    assert float(pq_bound.bound_atm) == pytest.approx(10 * EF_MS / MS)
    admitted = pq_bound["admitted"]
    assert (admitted.sum("position") == 10).all()  # the queue limit; the rest are tail-dropped
    assert not admitted.sel(position=[11, 12]).any()
    # the 10 queued EF packets leave back to back: the EF part of the last is 10 EF line times
    np.testing.assert_allclose(
        pq_bound["ef_part"].sel(position=10).values, 10 * EF_MS / MS, atol=1e-12
    )
    kept = pq_bound["sojourn"].where(admitted)
    assert (kept >= pq_bound["ef_part"] - 1e-12).sum() == admitted.sum()
    assert float(pq_bound["pq_wait"].max()) > float(pq_bound.bound_atm)  # the ring's BE goes first


def test_pq_bound_lone_wait_is_about_one_mtu(pq_bound):
    lone = float(pq_bound["lone_max_pq_wait"].max())
    mtu = float(pq_bound.mtu_line_time)
    assert mtu * 0.99 <= lone <= mtu + EF_MS / MS + 1e-12  # s
    claims = {c["quantity"]: c for c in kit.claims(globecom01_pq_bound.ARTEFACT, pq_bound)}
    assert claims["max_pq_delay"]["value"] == pytest.approx(5.12)
    assert claims["ef_queue_limit"]["value"] == 10
    assert claims["max_pq_wait_one_mtu"]["shape_ok"] is True


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: globecom01_pq_bound.compute(burst_packets=0), "burst_packets"),
        (lambda: globecom01_pq_bound.compute(spacing_s=0.0), "spacing_s"),
    ],
)
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_figure_has_labelled_axes(pq_bound):
    import matplotlib.pyplot as plt

    fig = globecom01_pq_bound.figure(pq_bound)
    assert isinstance(fig, Figure)
    axes = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
    assert axes and all(ax.get_xlabel() and ax.get_ylabel() for ax in axes)
    titles = [fig._suptitle.get_text() if fig._suptitle else ""] + [ax.get_title() for ax in axes]
    assert any(globecom01_pq_bound.ARTEFACT.id in t for t in titles)
    plt.close(fig)
