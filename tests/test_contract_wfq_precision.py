"""WFQ tag precision in the fixed-point fallback (docs/model.md, "Valid inputs").

Weights whose exact rational tag steps would overflow int64 (here non-integer float weights
with huge denominators) get fixed-point steps. The documented promise: every per-byte step is
accurate to a relative 2**-20 or better, and a node where that cannot hold (weights too far apart
for the queue limits) is rejected with an error naming ``weight_bps`` and ``limit_packets``.
"""

import pytest

import pqlab
from pqlab.node.engine import wfq_tag_steps

#: Relative accuracy promised for a fixed-point tag step.
STEP_RELATIVE_ERROR = 2.0**-20


def _node(spread, limit=64):
    return pqlab.Node(
        2e6,
        "none",
        5,
        512,
        [
            pqlab.Queue("wfq", limit, weight_bps=1.1),
            pqlab.Queue("wfq", limit, weight_bps=1.1 * spread),
        ],
    )


@pytest.mark.parametrize("spread", [1e3, 1e5, 3e5, 5e5])
def test_accepted_fallback_steps_keep_the_weight_ratio(spread):
    steps, exact = wfq_tag_steps(_node(spread))
    assert not exact
    # a step is inversely proportional to its weight: steps[0] / steps[1] == w1 / w0 == spread
    assert abs(steps[0] / steps[1] / spread - 1.0) <= STEP_RELATIVE_ERROR
    assert steps.min() >= 2**20  # each step resolved to 1 part in 2**20 at least


@pytest.mark.parametrize("spread, limit", [(1e6, 64), (3e6, 64), (6e5, 64), (1e5, 1000)])
def test_weights_too_far_apart_for_the_limits_are_rejected(spread, limit):
    with pytest.raises(ValueError, match="weight_bps.*limit_packets"):
        _node(spread, limit)
