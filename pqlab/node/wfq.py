"""WFQ tag arithmetic: the integer unit in which the engine's finish tags are exact.

The node's contract (``docs/model.md``, rule 2) increments a WFQ queue's finish tag by
``size * 8 / weight_bps``; :func:`wfq_tag_steps` turns those increments into int64 steps per
byte, so that tags compare exactly. It sits under both the configuration and the kernel:
:class:`pqlab.node.model.Node` calls it when a node is made (a node whose weights are too far
apart for its queue limits is rejected there) and :mod:`pqlab.node.engine` gives the kernel its
steps.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np

from .framing import FRAMING_CODES, MAX_SIZE_BYTES, wire_bytes

__all__ = ["TAG_REBASE", "TAG_SPREAD_BUDGET", "MIN_FALLBACK_STEP", "wfq_tag_steps"]

#: WFQ finish tags are int64 counts of a fixed unit (see :func:`wfq_tag_steps`).
#: When the virtual time passes ``TAG_REBASE`` every tag is shifted down by it
#: (exact in integers); the spread of live tags above the virtual time is at most
#: ``TAG_SPREAD_BUDGET``, so no tag ever exceeds ``2**62 + 2**61 < 2**63``.
TAG_REBASE = 2**62
TAG_SPREAD_BUDGET = 2**61
#: In the fixed-point fallback, the smallest per-byte tag step allowed (relative
#: resolution of a tag increment: 2**-20, about 1e-6).
MIN_FALLBACK_STEP = 2**20


@lru_cache(maxsize=256)
def wfq_tag_steps(node: "Node"):  # noqa: F821  (pqlab.node.model.Node, which imports this module)
    """Integer WFQ tag increments per byte, and whether they are exact.

    The contract's tag increment is ``size * 8 / weight_bps[j]`` (rule 2) and ties
    are decided in exact arithmetic (rule 3). Each weight is a binary float, so an
    exact rational ``p_j / q_j``; in the unit ``u = 8 * gcd(q) / lcm(p)`` every
    increment is the integer ``size * c_j`` with ``c_j = lcm(p) / p_j * q_j / gcd(q)``
    (``c_j = 1`` for equal weights, 2 and 1 for weights 1 and 2 Mbit/s), and tags
    compared as int64 are compared exactly. This is used when every
    ``limit_packets[j] * MAX_SIZE_BYTES * c_j <= 2**61`` (the largest spread of live tags:
    see :data:`TAG_SPREAD_BUDGET`), which holds for weights that are integers in bit/s
    with a modest least common multiple (the papers' configurations).

    Fallback (documented): otherwise tags are fixed point, ``c_j = round(R / weight_j)``
    with the largest ``R`` that fits the same budget; tags are then exact sums of
    rounded increments (relative error of an increment <= 2**-21) and ties
    between them are still resolved exactly, to the lower index. A node where even
    the largest weight would get an increment below :data:`MIN_FALLBACK_STEP` is
    rejected (weights too far apart for the queue limits).

    Returns
    -------
    steps : numpy.ndarray of int64
        ``c_j`` per queue (0 for the priority queue).
    exact : bool
        Whether the steps are the exact rational increments.
    """
    wfq = [(j, q) for j, q in enumerate(node.queues) if q.kind == "wfq"]
    steps = np.zeros(len(node.queues), dtype=np.int64)
    if not wfq:
        return steps, True
    weights = [Fraction(q.weight_bps) for _, q in wfq]
    lcm_p = math.lcm(*(w.numerator for w in weights))
    gcd_q = math.gcd(*(w.denominator for w in weights))
    exact = [lcm_p // w.numerator * (w.denominator // gcd_q) for w in weights]
    most = _max_tag_bytes(node)
    if all(q.max_waiting_packets * most * c <= TAG_SPREAD_BUDGET for (_, q), c in zip(wfq, exact)):
        for (j, _), c in zip(wfq, exact):
            steps[j] = c
        return steps, True
    # R / w_j * limit_j * MAX_SIZE_BYTES <= budget for every j.
    scale = min(
        Fraction(TAG_SPREAD_BUDGET) * w / (q.max_waiting_packets * most)
        for (_, q), w in zip(wfq, weights)
    )
    approx = [int(scale / w) for w in weights]
    if min(approx) < MIN_FALLBACK_STEP:
        spread = max(weights) / min(weights)
        raise ValueError(
            "weight_bps of the WFQ queues are too far apart for their limit_packets: the"
            " fixed-point WFQ tags need max(weight) / min(weight) * max(limit_packets) <="
            f" {TAG_SPREAD_BUDGET // (most * MIN_FALLBACK_STEP)} (got weights spread"
            f" {float(spread):.6g} with limits {[q.max_waiting_packets for _, q in wfq]}); use"
            " weights that are integers in bit/s with a small common multiple, or closer weights"
        )
    for (j, _), c in zip(wfq, approx):
        steps[j] = c
    return steps, False


def _max_tag_bytes(node: "Node") -> int:  # noqa: F821  (pqlab.node.model.Node)
    """The most bytes one packet adds to a WFQ tag: the largest IP length, or its wire bytes."""
    if node.wfq_bytes == "wire":
        return int(wire_bytes(MAX_SIZE_BYTES, FRAMING_CODES[node.framing]))
    return MAX_SIZE_BYTES
