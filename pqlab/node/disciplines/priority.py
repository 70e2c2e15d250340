"""Strict priority with levels (rule 3a): the lowest level with an eligible head, FIFO within a
level."""

from __future__ import annotations

from . import kernel_function
from .shaper import eligible_at


@kernel_function
def select(order, qp, qs, slots, now):
    """The priority queue whose head enters the ring next, or -1 if no priority head is eligible.

    ``order``: the priority queues' indices by (level, index). Within the first level that has an
    eligible head, the head admitted first (smallest packet id) wins: one FIFO per level.
    """
    if (
        order.shape[0] == 1
    ):  # one priority queue (the papers' node): no level or FIFO order to decide
        j = order[0]
        s = qs[j]
        if s.length == 0:
            return -1
        p = qp[j]
        if p.shape_rate_Bps <= 0.0 or now >= eligible_at(p, s, slots[p.offset + s.head].size):
            return j
        return -1
    sel = -1
    best_pid = 0
    level = 0
    for m in range(order.shape[0]):
        j = order[m]
        p = qp[j]
        if sel >= 0 and p.level != level:
            break
        s = qs[j]
        if s.length > 0:
            slot = slots[p.offset + s.head]
            if p.shape_rate_Bps <= 0.0 or now >= eligible_at(p, s, slot.size):
                if sel < 0 or slot.pid < best_pid:
                    sel = j
                    best_pid = slot.pid
                    level = p.level
    return sel
