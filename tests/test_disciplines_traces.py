"""The DiffServ toolbox (docs/model.md rules 1a-3e) on hand traces and random traces.

Each hand trace's ring entries, departures and drops were computed by hand from the contract's
text (the arithmetic is in the comments) and are asserted against the exact reference
(:mod:`pqlab.node.reference`) *and* the kernel. Times are in byte times: the line is framing
``none`` at 8192 bit/s, so one byte takes 1/1024 s and every time is exact in float64.

The random traces (``tests/reference_traces.py``) are dyadic, so the kernel must equal the
reference exactly: departures as Fractions and drop codes, for each discipline alone and mixed
with priority levels, shapers, RED/WRED, byte limits and ring limits.
"""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_traces import toolbox_trace

from pqlab import Node, Queue
from pqlab.node.reference import EARLY_DROP, KEPT, QUEUE_FULL, first_mismatch, reference_schedule

LINE_BPS = 8192.0  # 1024 bytes/s: one byte time = 1/1024 s
B = Fraction(1, 1024)


def _check(
    node,
    t_bytes,
    sizes,
    queues,
    entry_bytes,
    departure_bytes,
    drops=None,
    colour=None,
    uniform=None,
):
    """Assert the hand-computed outputs on the reference, then the kernel against the reference."""
    arrival = [float(t * B) for t in t_bytes]
    entry, departure, drop = reference_schedule(node, arrival, sizes, queues, colour, uniform)
    drops = drops or [KEPT] * len(sizes)
    assert drop == drops
    assert entry == [None if e is None else e * B for e in entry_bytes]
    assert departure == [None if d is None else d * B for d in departure_bytes]
    assert first_mismatch(node, arrival, sizes, queues, colour, uniform) is None


# --------------------------------------------------------------------------- hand traces


def test_priority_levels_serve_level_0_first_and_one_fifo_per_level():
    # q0, q2: level 1; q1: level 0; q3: WFQ. Ring: one packet (1 particle of 2000 bytes).
    # t=0: p0 (q3, 100 B) enters the empty ring, 0 -> 100. p1 (q0, 50), p2 (q2, 60), p3 (q1, 70),
    # p4 (q3, 80) wait; p5 (q0, 40) arrives at 10.
    # 100: level 0 first: p3, 100 -> 170. 170: level 1's FIFO by admission: p1 (q0) before p2
    # (q2), 170 -> 220. 220: p2 (admitted before p5, although p5 is q0's head), 220 -> 280.
    # 280: p5, 280 -> 320. 320: the WFQ queue last: p4, 320 -> 400.
    node = Node(
        LINE_BPS,
        "none",
        1,
        2000,
        (
            Queue("priority", 10, level=1),
            Queue("priority", 10),
            Queue("priority", 10, level=1),
            Queue("wfq", 10, weight_bps=1024.0),
        ),
    )
    _check(
        node,
        [0, 0, 0, 0, 0, 10],
        [100, 50, 60, 70, 80, 40],
        [3, 0, 2, 1, 3, 0],
        [0, 170, 220, 100, 320, 280],
        [100, 220, 280, 170, 400, 320],
    )


def test_drr_deficits_turns_and_the_active_list():
    # q0 quantum 300, q1 quantum 500; ring: one packet.
    # t=0: p0 (q1, 100) -> q1's turn: deficit 500, takes 100 (400 left), q1 empties: deficit 0.
    #   p0 0 -> 100. Then p1 (q0, 400), p2 (q0, 200), p3 (q1, 300), p4 (q1, 300): list [q0, q1].
    # 100: q0's turn: 0 + 300 < 400: turn ends, q0 to the tail with 300: [q1, q0]. q1's turn:
    #   500 >= 300: p3 (200 left), 100 -> 400.
    # 400: q1 keeps its turn: 200 < 300 (p4): to the tail with 200: [q0, q1]. q0's turn:
    #   300 + 300 = 600 >= 400: p1 (200 left), 400 -> 800.
    # 800: q0 keeps its turn: 200 >= 200: p2 (0 left), q0 empties and leaves, 800 -> 1000.
    # 1000: q1's turn: 200 + 500 = 700 >= 300: p4, 1000 -> 1300.
    node = Node(
        LINE_BPS,
        "none",
        1,
        2000,
        (Queue("drr", 10, quantum_bytes=300), Queue("drr", 10, quantum_bytes=500)),
    )
    _check(
        node,
        [0] * 5,
        [100, 400, 200, 300, 300],
        [1, 0, 0, 1, 1],
        [0, 400, 800, 100, 1000],
        [100, 800, 1000, 400, 1300],
    )


def test_drr_counts_wire_bytes_with_wfq_bytes_wire():
    # Ethernet adds 38 bytes: q0 quantum 300 sends a 262-byte packet (300 wire bytes) in one turn,
    # not a 263-byte one (301). t=0: p0 (q0, 263) -> q0's turn: 300 < 301: to the tail; only
    # queue: a new turn, 600 >= 301: p0 enters at 0 (wire 301 bytes), 0 -> 301; q0 empties.
    # p1 (q1, 262), p2 (q0, 262) wait: [q1, q0]. 301: q1: 300 >= 300: p1, 301 -> 601.
    # 601: q0: 300 >= 300: p2, 601 -> 901.
    node = Node(
        LINE_BPS,
        "ethernet",
        1,
        2000,
        (Queue("drr", 10, quantum_bytes=300), Queue("drr", 10, quantum_bytes=300)),
        wfq_bytes="wire",
    )
    _check(node, [0, 0, 0], [263, 262, 262], [0, 1, 0], [0, 301, 601], [301, 601, 901])


def test_wrr_turns_in_index_order_with_weights_in_packets():
    # q0 weight 2, q1 weight 1, q2 weight 1; ring: one packet.
    # t=0: p0 (q1, 100): the turn is q0's, which has no head: it passes to q1, which sends p0
    #   (1 of 1), 0 -> 100. p1 (q0, 50), p2 (q0, 60), p3 (q0, 70), p4 (q1, 80), p5 (q2, 90),
    #   p6 (q1, 40) wait.
    # 100: q1 has sent its 1: q2 sends p5, 100 -> 190. 190: q0 sends p1 (1 of 2), 190 -> 240.
    # 240: q0 sends p2 (2 of 2), 240 -> 300. 300: q1 sends p4, 300 -> 380. 380: q2 has no head:
    # q0 sends p3, 380 -> 450. 450: q0 is empty: q1 sends p6, 450 -> 490.
    node = Node(
        LINE_BPS,
        "none",
        1,
        2000,
        (
            Queue("wrr", 10, weight_packets=2),
            Queue("wrr", 10, weight_packets=1),
            Queue("wrr", 10, weight_packets=1),
        ),
    )
    _check(
        node,
        [0] * 7,
        [100, 50, 60, 70, 80, 90, 40],
        [1, 0, 0, 0, 1, 2, 1],
        [0, 190, 240, 380, 300, 100, 450],
        [100, 240, 300, 450, 380, 190, 490],
    )


def test_byte_limit_and_packet_limit_whichever_first():
    # One queue, limit 3 packets or 1000 bytes waiting; ring: one packet.
    # t=0: p0 (600) enters the ring, 0 -> 600. p1 (500): 500 waiting. p2 (400): 900 <= 1000.
    # p3 (100): 1000 <= 1000 (3 packets). p4 (1): 3 packets: full (2). t=10: p5 (50): full (2).
    # 600: p1 enters, 600 -> 1100: p2, p3 wait (500 bytes, 2 packets).
    # 700: p6 (600): 500 + 600 > 1000: full (2, by bytes). p7 (500): 1000 <= 1000: waits.
    # 1100: p2, 1100 -> 1500. 1500: p3, 1500 -> 1600. 1600: p7, 1600 -> 2100.
    node = Node(LINE_BPS, "none", 1, 2000, (Queue("priority", 3, limit_bytes=1000),))
    N = None
    _check(
        node,
        [0, 0, 0, 0, 0, 10, 700, 700],
        [600, 500, 400, 100, 1, 50, 600, 500],
        [0] * 8,
        [0, 600, 1100, 1500, N, N, N, 1600],
        [600, 1100, 1500, 1600, N, N, N, 2100],
        [KEPT] * 4 + [QUEUE_FULL] * 3 + [KEPT],
    )
    # only a byte limit: the fourth small packet is no problem, a byte over is
    node = Node(LINE_BPS, "none", 1, 2000, (Queue("priority", None, limit_bytes=300),))
    _check(
        node,
        [0] * 5,
        [100, 100, 100, 100, 1],
        [0] * 5,
        [0, 100, 200, 300, N],
        [100, 200, 300, 400, N],
        [KEPT] * 4 + [QUEUE_FULL],
    )


def test_shaper_holds_the_head_and_wakes_up_after_the_arrivals_of_its_instant():
    # q0: priority level 1, shaped at 4096 bit/s = 0.5 byte per byte time, burst 1500 bytes;
    # q1: WFQ; q2: priority level 0. Ring: 3 packets.
    # t=0: p0 (q0, 1000): bucket 1500 >= 1000: enters, 0 -> 1000; bucket 500 at t0 = 0.
    #   p1 (q0, 1000): eligible at 0 + (1000 - 500) / 0.5 = 1000: a wake-up at 1000.
    #   p2 (q1, 200): enters, 1000 -> 1200.
    # 1000: p0's release first; p1 eligible (1000 >= 1000): enters; bucket 500 + 1000 * 0.5 -
    #   1000 = 0 at t0 = 1000; 1200 -> 2200.
    # 1100: p3 (q0, 300): eligible at 1000 + 300 / 0.5 = 1600. p4 (q1, 100): enters (2 < 3
    #   packets), 2200 -> 2300: the ring is full. 1200: p2's release; p3 not eligible.
    # 1600: p5 (q2, 50) arrives: arrivals before the wake-up, so p5 takes the last place,
    #   2300 -> 2350, and p3 (eligible since 1600) waits for room.
    # 2200: p1's release: p3 enters; bucket min(1500, 0 + 1200 * 0.5) - 300 = 300; 2350 -> 2650.
    node = Node(
        LINE_BPS,
        "none",
        None,
        None,
        (
            Queue("priority", 10, level=1, shape_rate_bps=4096.0, shape_burst_bytes=1500.0),
            Queue("wfq", 10, weight_bps=1024.0),
            Queue("priority", 10),
        ),
        ring_limit_packets=3,
    )
    _check(
        node,
        [0, 0, 0, 1100, 1100, 1600],
        [1000, 1000, 200, 300, 100, 50],
        [0, 0, 1, 0, 1, 2],
        [0, 1000, 0, 2200, 1100, 1600],
        [1000, 2200, 1200, 2650, 2300, 2350],
    )


def test_shaper_wake_up_on_an_idle_ring():
    # One shaped queue at 4096 bit/s (half a byte per byte time), burst 1000; ring: 4 packets.
    # t=0: p0 (1000) enters, 0 -> 1000; bucket 0 at t0 = 0. p1 (500): eligible at 0 + 500 / 0.5 =
    # 1000, when the ring is idle: it enters at 1000 (bucket 0 + 1000 * 0.5 - 500 = 0),
    # 1000 -> 1500.
    # p2 (250) at 1200: eligible at 1000 + 250 / 0.5 = 1500: a wake-up at 1500, 1500 -> 1750.
    node = Node(
        LINE_BPS,
        "none",
        4,
        2000,
        (Queue("priority", 10, shape_rate_bps=4096.0, shape_burst_bytes=1000.0),),
    )
    _check(node, [0, 0, 1200], [1000, 500, 250], [0, 0, 0], [0, 1000, 1500], [1000, 1500, 1750])


def test_red_and_wred_with_given_uniform_draws():
    # One priority queue with WRED: green (min 1, max 3, max_p 0.5), yellow (0, 2, 1), red (0,
    # 1, 1);
    # red_weight 0.5: avg = 0.5 avg + 0.5 n (n waiting at the arrival). Ring: one packet.
    # p0 (t=0, 1000 B): n=0, avg 0 < 1: enters, 0 -> 1000.
    # p1 (t=1): n=0, avg 0: waits. p2 (t=2): n=1, avg 0.5 < 1: waits.
    # p3 (t=3): n=2, avg 0.25 + 1 = 1.25: p = 0.5 * 0.25 / 2 = 0.0625 > u 0.05: early drop (3).
    # p4 (t=4): n=2, avg 0.625 + 1 = 1.625: p = 0.15625 <= u 0.2: waits.
    # p5 (t=5): n=3, avg 0.8125 + 1.5 = 2.3125: p = 0.328125 > u 0.3: early drop.
    # p6 (t=6, yellow): n=3, avg 1.15625 + 1.5 = 2.65625 >= yellow max 2: early drop (u 0.99).
    # p7 (t=7): n=3, avg 1.328125 + 1.5 = 2.828125: p = 0.45703125 <= u 0.5: waits.
    # p8 (t=8): n=4, avg 1.4140625 + 2 = 3.4140625 >= 3: early drop (u 0.999).
    # p1, p2, p4, p7 (100 B each) leave at 1100, 1200, 1300, 1400.
    node = Node(
        LINE_BPS,
        "none",
        1,
        2000,
        (
            Queue(
                "priority",
                10,
                red_min_packets=(1, 0, 0),
                red_max_packets=(3, 2, 1),
                red_max_p=(0.5, 1, 1),
                red_weight=0.5,
            ),
        ),
    )
    N = None
    uniform = [0.9, 0.9, 0.9, 0.05, 0.2, 0.3, 0.99, 0.5, 0.999]
    colour = [0, 0, 0, 0, 0, 0, 1, 0, 0]
    _check(
        node,
        list(range(9)),
        [1000] + [100] * 8,
        [0] * 9,
        [0, 1000, 1100, N, 1200, N, N, 1300, N],
        [1000, 1100, 1200, N, 1300, N, N, 1400, N],
        [KEPT, KEPT, KEPT, EARLY_DROP, KEPT, EARLY_DROP, EARLY_DROP, KEPT, EARLY_DROP],
        colour,
        uniform,
    )


RING_SIZES = [100, 200, 300, 50]


@pytest.mark.parametrize(
    "ring, entry, departure",
    [
        # 2 packets: p0, p1 enter at 0 (0 -> 100, 100 -> 300); p2 at p0's release, 300 -> 600; p3 at
        # p1's release (300), 600 -> 650.
        (dict(ring_limit_packets=2), [0, 0, 100, 300], [100, 300, 600, 650]),
        # 250 bytes: p0 (100 < 250) and p1 (100 < 250, overshoot to 300) enter at 0; p2 at 100 (200
        # <
        # 250, 500 in the ring); at 300 the ring holds 300 bytes: p3 waits until p2 leaves at 600.
        (dict(ring_limit_bytes=250), [0, 0, 100, 600], [100, 300, 600, 650]),
        # 4 particles of 128 bytes (1, 2, 3, 1): p0, p1 (1 < 4), p2 (3 < 4, overshoot to 6) at 0; at
        # 100
        # 5 in use; at 300, 3: p3 enters, 600 -> 650.
        (dict(ring_limit_particles=4, particle_bytes=128), [0, 0, 0, 300], [100, 300, 600, 650]),
        # particles and bytes, whichever first: at 0 p0, p1 (3 particles, 300 bytes >= 250: full by
        # bytes); at 100, 2 particles and 200 bytes: p2 enters (5, 500); at 300, 300 bytes: full; p3
        # at 600.
        (
            dict(ring_limit_particles=4, particle_bytes=128, ring_limit_bytes=250),
            [0, 0, 100, 600],
            [100, 300, 600, 650],
        ),
    ],
)
def test_ring_limits_in_packets_bytes_and_particles(ring, entry, departure):
    base = dict(ring_limit_particles=None, particle_bytes=None)
    node = Node(LINE_BPS, "none", queues=(Queue("priority", 10),), **{**base, **ring})
    _check(node, [0] * 4, RING_SIZES, [0] * 4, entry, departure)


def test_a_packets_bytes_leave_the_ring_with_its_last_unit():
    # Rule 5' with a byte limit: p0 (300 B, 3 units of 100) enters at 0; its units return at 100
    # (2 in use: full) and 200 (1 in use), but its 300 bytes stay until 300, its departure: p1 (50)
    # enters at 300, not 200 (without the byte limit, at 200).
    for limit, entry in ((250, 300), (None, 200)):
        node = Node(
            LINE_BPS,
            "none",
            2,
            100,
            (Queue("priority", 10),),
            ring_release="unit",
            ring_limit_bytes=limit,
        )
        _check(node, [0, 0], [300, 50], [0, 0], [0, entry], [300, 350])


# --------------------------------------------------------------------------- random traces:
# kernel == reference

ALL = ("levels", "bytes", "police", "shaper", "red", "ring")
#: (kind of the non-priority queues, toolbox features): each discipline alone and mixed.
CONFIGURATIONS = [
    ("priority", ("levels",)),
    ("priority", ("levels", "shaper")),
    ("drr", ()),
    ("drr", ("shaper",)),
    ("wrr", ()),
    ("wrr", ("shaper",)),
    ("wfq", ("shaper",)),
    ("drr", ("bytes", "ring")),
    ("wrr", ("bytes", "ring")),
    ("wfq", ("red",)),
    ("drr", ("red", "police")),
    (None, ALL),
]


@pytest.mark.parametrize(
    "kind, features",
    CONFIGURATIONS,
    ids=lambda v: "+".join(v) or "plain" if isinstance(v, tuple) else str(v),
)
def test_kernel_equals_the_reference_on_fixed_seeds(kind, features):
    for seed in range(60):
        mismatch = first_mismatch(*toolbox_trace(seed, kind, features))
        assert mismatch is None, f"seed {seed}: {mismatch}"


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["wfq", "drr", "wrr", "priority"]))
def test_kernel_equals_the_reference_on_every_mechanism_mixed(seed, kind):
    assert first_mismatch(*toolbox_trace(seed, kind, ALL)) is None
