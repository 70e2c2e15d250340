"""What happens to an arriving packet before it waits: policer, RED/WRED, limits (rules 1, 2, 2a,
2b).

Pure jitted functions of one queue's parameter record ``p`` and state record ``s`` (see
:mod:`pqlab.node.disciplines.layout`); each returns a decision and updates ``s`` in place.
"""

from __future__ import annotations

from . import kernel_function

#: Relative tolerance of the token-bucket test (rule 1). The bucket is kept as an
#: anchor (time, tokens) plus the bytes taken since, so its value is computed with
#: one rounding however long the run: the only error left is that of
#: ``(now - anchor) * rate``, a few units in the last place of ``now * rate``. A
#: packet conforms if it would conform in exact arithmetic on arrival times
#: perturbed by at most ``POLICE_RELATIVE_TOLERANCE * now`` (0.9 ns at 1000 s,
#: far below one bit time): a stream at exactly the policed rate is never
#: policed, however long it runs.
POLICE_RELATIVE_TOLERANCE = 2.0**-50

#: The policer's anchor is moved forward (one rounding) once this many bytes were
#: taken since it was set without the bucket filling up, so the byte count stays
#: exact (an integer far below 2**53) and the refill product small.
POLICE_REANCHOR_BYTES = 2.0**40


@kernel_function
def police(p, s, now, size):
    """Rule 1: whether a packet of ``size`` bytes arriving at ``now`` conforms (it then takes its
    tokens).

    Tokens now = tokens at the anchor + refill since it (``police_rate_Bps``, bytes/s) - bytes
    taken since it (an exact integer sum), capped at ``police_burst_bytes``: one rounding, no drift.
    A queue without a policer (rate 0) always conforms.
    """
    rate = p.police_rate_Bps
    if rate > 0.0:
        burst = p.police_burst_bytes
        t = s.police_tokens + (now - s.police_t) * rate - s.police_used
        if t >= burst or s.police_used >= POLICE_REANCHOR_BYTES:
            if t > burst:
                t = burst
            s.police_tokens = t  # new anchor: the bucket is full (exact) or re-anchored
            s.police_t = now
            s.police_used = 0.0
        tolerance = POLICE_RELATIVE_TOLERANCE * (abs(now) * rate + burst + s.police_used)
        if t + tolerance < size:
            return False
        s.police_used += size
    return True


@kernel_function
def red_drops(p, s, colour, uniform):
    """Rule 2a: update the queue's average and say whether RED/WRED drops the packet early.

    ``avg = (1 - w) * avg + w * n`` with ``n`` the packets waiting (before this one); with the
    colour's thresholds, ``avg < min`` passes, ``avg >= max`` drops, in between the packet is
    dropped if ``uniform < max_p * (avg - min) / (max - min)``. A queue without RED never drops.
    """
    if p.red == 0:
        return False
    w = p.red_weight
    avg = (1.0 - w) * s.red_avg_packets + w * s.length
    s.red_avg_packets = avg
    low = p.red_min_packets[colour]
    high = p.red_max_packets[colour]
    if avg < low:
        return False
    if avg >= high:
        return True
    return uniform < p.red_max_p[colour] * (avg - low) / (high - low)


@kernel_function
def over_bytes(p, s, size):
    """Rule 2b: whether ``size`` more IP bytes would take the queue over its byte limit.

    (Rule 2, the packet limit, is ``s.length >= p.limit_packets``; the kernel tests it first.)
    """
    return s.bytes + size > p.limit_bytes
