"""The per-queue token-bucket shaper (rule 3d): when a queue's head may leave, and its take.

The bucket after the queue's last take is ``(shape_t, shape_tokens)``; it refills at
``shape_rate_Bps`` bytes/s up to ``shape_burst_bytes``. A head of ``size`` bytes is eligible at
and after :func:`eligible_at`; the same expression decides eligibility and the wake-up time, so a
wake-up always finds its head eligible (no rounding can make the kernel wait forever).
"""

from __future__ import annotations

import numpy as np

from . import kernel_function


@kernel_function
def eligible_at(p, s, size):
    """The first instant (s) the bucket holds ``size`` bytes; ``-inf`` for an unshaped queue."""
    rate = p.shape_rate_Bps
    if rate <= 0.0:
        return -np.inf
    return s.shape_t + (size - s.shape_tokens) / rate


@kernel_function
def take(p, s, now, size):
    """The head of ``size`` bytes enters the ring at ``now``: the bucket gives its bytes."""
    rate = p.shape_rate_Bps
    if rate > 0.0:
        tokens = s.shape_tokens + (now - s.shape_t) * rate
        if tokens > p.shape_burst_bytes:
            tokens = p.shape_burst_bytes
        s.shape_tokens = tokens - size
        s.shape_t = now
