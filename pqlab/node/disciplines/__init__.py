"""The scheduler seam: the node's state as named arrays, and one small jitted module per mechanism.

The kernel (:mod:`pqlab.node.engine`) runs the events (arrivals, ring releases, shaper wake-ups)
and calls into these modules for everything a queue does:

* ``layout``: the named (structured) arrays of the kernel: per-queue parameters and state, the
  queues' packet slots, the ring's slots, the node's scalars, and their construction from a
  :class:`pqlab.Node`;
* ``admission``: policer (rule 1), RED/WRED (rule 2a) and the limits in packets and bytes
  (rules 2, 2b);
* ``shaper``: the per-queue token-bucket shaper (rule 3d): when a queue's head is eligible;
* ``priority``: strict priority with levels (rule 3a);
* ``fair``: the disciplines of the non-priority queues, dispatched by kind: WFQ/SCFQ finish tags
  (rules 2, 3), DRR (rule 3b), WRR (rule 3c).

Adding a discipline touches its own functions here (admission hook, selection, dequeue hook), the
kind's validation in :mod:`pqlab.node.model`, the contract (``docs/model.md``) and the executable
contract :mod:`pqlab.node.reference`.
"""

from ...base.jitcache import cached_njit

#: The decorator of every function here. ``_nrt=False``: they allocate nothing and borrow the
#: kernel's arrays, so they skip numba's reference counting (its increments and decrements of 4-6
#: array arguments on every call made the kernel 2.4 x slower on the papers' node). numba's
#: ``inline="always"`` was tried too: no faster once the kernel compiles the node's features in
#: (:func:`pqlab.node.engine.kernel_features`), and it doubled the first compilation (14.9 s
#: against 7.7 s cold for the papers' node, 14.4 s against 2.3 s for each further kind of node).
kernel_function = cached_njit(nogil=True, _nrt=False)

#: Kernel codes of the queue kinds (``Queue.kind``).
KIND_CODES = {"priority": 0, "wfq": 1, "drr": 2, "wrr": 3}
PRIORITY, WFQ, DRR, WRR = 0, 1, 2, 3

__all__ = [
    "kernel_function",
    "KIND_CODES",
    "PRIORITY",
    "WFQ",
    "DRR",
    "WRR",
    "layout",
    "admission",
    "shaper",
    "priority",
    "fair",
]
