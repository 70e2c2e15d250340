"""Simulation vs queueing theory.

With ``ring_limit_particles=1`` and particles larger than any packet, the ring
holds exactly the packet on the line and the scheduler picks the next one only
when it leaves: the node is an M/G/1 queue with non-preemptive priority. With
Poisson arrivals, a packet's waiting time is ``ring_entry - arrival``, and the
mean waits of both classes must match Cobham's formula.

Run length and seeds: 2,000,000 packets (about 800 s of simulated time at
70% load), seeds 11 and 12; tolerance 3% (measured: EF -0.3% and +0.2%, BE -1.0% and 0.0%).
"""

import numpy as np
import pytest

from pqlab import Node, Queue, simulate_arrivals
from pqlab.bounds import cobham_waits
from pqlab.node.framing import line_time_s

TOLERANCE = 0.03
N_PACKETS = 2_000_000


def _mixed_sizes(rng, n, support, probs):
    return rng.choice(np.asarray(support), size=n, p=np.asarray(probs))


@pytest.mark.parametrize("seed", [11, 12])
def test_priority_node_matches_cobham_mean_waits(seed):
    line_bps = 2e6
    node = Node(
        line_rate_bps=line_bps,
        framing="none",
        ring_limit_particles=1,
        particle_bytes=65535,
        queues=(Queue("priority", 10**7), Queue("wfq", 10**7, weight_bps=1e6)),
    )
    # EF: 20% load, sizes 64..512 uniform; BE: 50% load, 40/576/1500 bytes mix (mixed sizes)
    ef_sizes, ef_p = np.arange(64, 513), np.full(449, 1 / 449)
    be_sizes, be_p = np.array([40, 576, 1500]), np.array([0.5, 0.25, 0.25])
    service = {k: line_time_s(v, "none", line_bps) for k, v in (("ef", ef_sizes), ("be", be_sizes))}
    m1 = {"ef": ef_p @ service["ef"], "be": be_p @ service["be"]}
    m2 = {"ef": ef_p @ service["ef"] ** 2, "be": be_p @ service["be"] ** 2}
    lam = {"ef": 0.20 / m1["ef"], "be": 0.50 / m1["be"]}

    rng = np.random.default_rng(seed)
    duration_s = N_PACKETS / (lam["ef"] + lam["be"])
    t, s, q = [], [], []
    for j, cls, sizes, p in ((0, "ef", ef_sizes, ef_p), (1, "be", be_sizes, be_p)):
        n = rng.poisson(lam[cls] * duration_s)
        t.append(np.sort(rng.uniform(0.0, duration_s, n)))
        s.append(_mixed_sizes(rng, n, sizes, p))
        q.append(np.full(n, j))
    t, s, q = (np.concatenate(x) for x in (t, s, q))
    order = np.argsort(t, kind="stable")
    ds = simulate_arrivals(node, t[order], s[order], q[order])

    assert int((ds["drop"] != 0).sum()) == 0
    wait = (ds.ring_entry - ds.arrival).values
    warm = ds.arrival.values > 0.05 * duration_s  # drop the first 5% as warm-up
    theory = cobham_waits([lam["ef"], lam["be"]], [m1["ef"], m1["be"]], [m2["ef"], m2["be"]])
    qv = ds["queue"].values
    for j in (0, 1):
        sim = wait[warm & (qv == j)].mean()
        print(f"seed {seed} class {j}: sim {sim * 1e3:.4f} ms, Cobham {theory[j] * 1e3:.4f} ms")
        assert sim == pytest.approx(theory[j], rel=TOLERANCE), (j, sim, theory[j])
