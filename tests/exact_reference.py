"""An exact-arithmetic (fractions.Fraction) reference of the node contract, for tests.

Deliberately naive and independent of the kernel: an event loop over Python
lists with every time and every WFQ finish tag a ``Fraction``, so a tie of
finish tags is a tie exactly (node contract rule 3). Policers are left out (the
traces that use it have none); rules 2-5 are implemented as written.
"""

from __future__ import annotations

from fractions import Fraction

WIRE_OVERHEAD = {"none": 0, "ethernet": 38}


def wire_bytes(size: int, framing: str) -> int:
    if framing == "atm-aal5":
        return 53 * -(-(size + 16) // 48)
    return size + WIRE_OVERHEAD[framing]


def reference_schedule(node, arrival_s, size_bytes, queue):
    """Return ``(ring_entry, departure, drop)`` lists (Fractions; None when dropped).

    ``node`` is a :class:`pqlab.Node` without policers.
    """
    qs = node.queues
    prio = next((j for j, q in enumerate(qs) if q.kind == "priority"), -1)
    waiting = [[] for _ in qs]  # (packet index, size, tag)
    f_last = [Fraction(0)] * len(qs)
    v = Fraction(0)
    ring = []  # (particles, departure)
    used = 0
    line_free = Fraction(0)
    rate = Fraction(node.line_rate_bps)
    n = len(arrival_s)
    entry, departure, drop = [None] * n, [None] * n, [0] * n

    def schedule(now):
        nonlocal v, used, line_free
        while used < node.ring_limit_particles and any(waiting):
            if prio >= 0 and waiting[prio]:
                sel = prio
            else:
                sel = min((w[0][2], j) for j, w in enumerate(waiting) if w and j != prio)[1]
                v = waiting[sel][0][2]
            i, size, _ = waiting[sel].pop(0)
            need = max(1, -(-size // node.particle_bytes))
            used += need
            start = max(line_free, now)
            line_free = start + Fraction(wire_bytes(size, node.framing) * 8) / rate
            ring.append((need, line_free))
            entry[i], departure[i] = now, line_free

    k = 0
    while k < n or ring:
        t = Fraction(float(arrival_s[k])) if k < n else None
        if t is not None and (not ring or t < ring[0][1]):
            j, size = int(queue[k]), int(size_bytes[k])
            if len(waiting[j]) >= qs[j].limit_packets:
                drop[k] = 2
            else:
                tag = None
                if j != prio:
                    tag = max(v, f_last[j]) + Fraction(size * 8) / Fraction(qs[j].weight_bps)
                    f_last[j] = tag
                waiting[j].append((k, size, tag))
            k += 1
            schedule(t)
        else:
            need, now = ring.pop(0)
            used -= need
            schedule(now)
    return entry, departure, drop


#: Weights (bit/s) of the equal-weight traces: integers, a float that is not, and extremes.
EQUAL_WEIGHTS_BPS = (3.0, 7.0, 1e3, 3e5, 1e6, 1.7e6, 1234567.0, 1e6 / 3, 1.0, 1e12)
#: Sizes (bytes) drawn for the equal-weight traces: few, so that sums of sizes, and so tags, often tie.
TIE_SIZES_BYTES = (40, 64, 100, 128, 411, 451, 576, 1000, 1500)


def equal_weight_trace(seed: int):
    """A random trace of 3-4 WFQ queues of equal weight, with exactly representable times.

    The line (framing "none", 8192 bit/s) sends one byte in 1/1024 s and arrivals
    fall on multiples of 1/1024 s, so every time is a dyadic rational the kernel's
    float64 holds exactly: only the finish tags can round.
    """
    import numpy as np

    from pqlab import Node, Queue

    rng = np.random.default_rng(seed)
    n_queues = int(rng.integers(3, 5))
    weight = float(EQUAL_WEIGHTS_BPS[rng.integers(len(EQUAL_WEIGHTS_BPS))])
    node = Node(8192.0, "none", int(rng.integers(1, 4)), 512,
                tuple(Queue("wfq", int(rng.integers(2, 12)), weight_bps=weight) for _ in range(n_queues)))
    n = int(rng.integers(10, 80))
    gaps = rng.integers(0, 400, n)
    gaps[rng.random(n) < 0.4] = 0
    arrival = np.cumsum(gaps) / 1024.0
    size = np.asarray(TIE_SIZES_BYTES)[rng.integers(len(TIE_SIZES_BYTES), size=n)]
    queue = rng.integers(0, n_queues, n)
    return node, arrival, size, queue


def matches_reference(simulate_arrivals, node, arrival, size, queue) -> bool:
    """Whether the engine's outputs equal the exact reference's, bit for bit."""
    ds = simulate_arrivals(node, arrival, size, queue)
    entry, departure, drop = reference_schedule(node, arrival, size, queue)
    if list(ds["drop"].values) != drop:
        return False
    for got_e, got_d, ref_e, ref_d in zip(ds["ring_entry"].values, ds["departure"].values, entry, departure):
        if ref_e is None:
            if got_e == got_e:  # not NaN
                return False
        elif Fraction(float(got_e)) != ref_e or Fraction(float(got_d)) != ref_d:
            return False
    return True
