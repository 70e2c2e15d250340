"""The disciplines of the non-priority queues, one per node, dispatched by kind.

* WFQ/SCFQ (rules 2, 3): finish tags ``F = max(V, F_last) + bytes * step`` as exact int64 counts
  of the unit of :func:`pqlab.node.wfq.wfq_tag_steps`; the smallest eligible head tag wins (ties to
  the lower index) and becomes the virtual time ``V``.
* DRR (rule 3b, Shreedhar and Varghese 1996): an active list in the order queues became non-empty;
  the first eligible queue of the list gets its quantum at the start of its turn and sends while its
  head fits its deficit; a head that does not fit ends the turn and moves the queue to the tail.
* WRR (rule 3c): turns in index order, at most ``weight_packets`` packets a turn.

Each kind has three hooks, called by the kernel: :func:`admitted` (a packet joined queue ``j``),
:func:`select` (which queue's head enters the ring, or -1 when no head is eligible; a failed
selection changes no state) and :func:`taken` (the head of ``j`` entered the ring). ``counted`` is
the bytes these schedulers count: the IP length, or the wire bytes with ``Node.wfq_bytes="wire"``.
"""

from __future__ import annotations

from ..framing import wire_bytes
from ..wfq import TAG_REBASE
from . import DRR, WFQ, WRR, kernel_function
from .shaper import eligible_at


@kernel_function
def _eligible(p, s, slots, now):
    """Whether queue ``s`` has a head and it may leave now (rule 3d)."""
    if s.length == 0:
        return False
    return p.shape_rate_Bps <= 0.0 or now >= eligible_at(p, s, slots[p.offset + s.head].size)


@kernel_function
def admitted(kind, j, p, s, slot, counted, ns, active):
    """Queue ``j`` admitted the packet in ``slot`` (its length not yet counted)."""
    if kind == WFQ:
        base = s.f_last if s.f_last > ns.virtual_time else ns.virtual_time
        tag = base + counted * p.tag_step
        s.f_last = tag
        slot.tag = tag
    elif kind == DRR:
        if s.length == 0:  # joins the active list's tail with a deficit of 0
            active[ns.n_active] = j
            ns.n_active += 1


@kernel_function
def select(kind, order, qp, qs, slots, now, ns, active, counted_wire, framing):
    """The non-priority queue whose head enters the ring next, or -1."""
    if kind == WFQ:
        return _select_wfq(order, qp, qs, slots, now, ns)
    if kind == DRR:
        return _select_drr(qp, qs, slots, now, ns, active, counted_wire, framing)
    if kind == WRR:
        return _select_wrr(order, qp, qs, slots, now, ns)
    return -1


@kernel_function
def taken(kind, j, p, s, counted, ns, active):
    """The head of queue ``j`` (``counted`` bytes) entered the ring; ``s.length`` already
    reduced."""
    if kind == DRR:
        s.deficit_bytes -= counted
        if s.length == 0:  # leaves the active list; its deficit returns to 0
            s.deficit_bytes = 0
            s.in_turn = 0
            m = 0
            while active[m] != j:
                m += 1
            for k in range(m, ns.n_active - 1):
                active[k] = active[k + 1]
            ns.n_active -= 1


@kernel_function
def _select_wfq(order, qp, qs, slots, now, ns):
    sel = -1
    best = 0
    for m in range(order.shape[0]):
        k = order[m]
        p = qp[k]
        s = qs[k]
        if _eligible(p, s, slots, now):
            tag_k = slots[p.offset + s.head].tag
            if sel < 0 or tag_k < best:  # strict: an equal tag keeps the lower index
                best = tag_k
                sel = k
    if sel >= 0:
        ns.virtual_time = best
        if best > TAG_REBASE:
            _rebase_tags(order, qp, qs, slots, ns)
    return sel


@kernel_function
def _rebase_tags(order, qp, qs, slots, ns):
    """Shift every WFQ tag down by the virtual time (exact); the virtual time becomes 0.

    Every queued tag is >= the virtual time (it is the smallest head tag and tags grow along a
    queue), and the tag of an empty queue's last packet is <= it, so after the shift queued tags
    are >= 0 and an empty queue's ``F_last`` can be clamped to 0 without changing
    ``max(V, F_last)``: the order of all tags, and so the schedule, is unchanged.
    """
    v = ns.virtual_time
    for m in range(order.shape[0]):
        p = qp[order[m]]
        s = qs[order[m]]
        f = s.f_last - v
        s.f_last = f if f > 0 else 0
        for k in range(s.length):
            slot = s.head + k
            if slot >= p.capacity:
                slot -= p.capacity
            slots[p.offset + slot].tag -= v
    ns.virtual_time = 0


@kernel_function
def _select_drr(qp, qs, slots, now, ns, active, counted_wire, framing):
    m = 0
    while m < ns.n_active:
        j = active[m]
        p = qp[j]
        s = qs[j]
        if not _eligible(p, s, slots, now):
            m += 1  # keeps its place, deficit and turn
            continue
        if s.in_turn == 0:
            s.deficit_bytes += p.quantum_bytes
            s.in_turn = 1
        size = slots[p.offset + s.head].size
        counted = wire_bytes(size, framing) if counted_wire else size
        if counted <= s.deficit_bytes:
            return j
        s.in_turn = 0  # its turn ends: to the tail, with its deficit
        for k in range(m, ns.n_active - 1):
            active[k] = active[k + 1]
        active[ns.n_active - 1] = j
    return -1


@kernel_function
def _select_wrr(order, qp, qs, slots, now, ns):
    n = order.shape[0]
    current = ns.wrr_current
    sent = ns.wrr_sent
    for _ in range(n + 1):
        j = order[current]
        if sent < qp[j].weight_packets and _eligible(qp[j], qs[j], slots, now):
            ns.wrr_current = current
            ns.wrr_sent = sent + 1
            return j
        current += 1  # the turn passes to the next index
        if current == n:
            current = 0
        sent = 0
    return -1  # no eligible head: the turn does not move
