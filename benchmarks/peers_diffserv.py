"""pqlab's DRR and RED against ns.py 0.4.3's DRRServer and REDPort: agreement per packet, and speed.

The companion of ``benchmarks/peers.py`` (strict priority against ns.py's SPServer and a SimPy
model), whose helpers it uses: the precomputed trace is generated once with pqlab's seeded
generators and replayed into ns.py by ``peers.TraceGenerator``; ns.py's servers have no buffer
limit, so ``peers.TailDrop`` drops in front of them; ``peers.compare`` checks that the same
packets are kept and that every kept packet's delay agrees to 1e-9 s. Every pqlab node here has
``framing="none"`` (line time = size * 8 / rate, as ns.py's ``size * 8.0 / rate``) and a ring of
ONE packet (``ring_limit_packets=1``): one packet in service, the next chosen when it has left,
as an ns.py server does.

DRR: docs/model.md rule 3b against ``ns.scheduler.drr.DRRServer``
------------------------------------------------------------------
What ns.py 0.4.3's ``DRRServer`` does (read from its source): ``quantum[c] = 1500 * weight[c] /
min(weights)`` bytes; its ``run`` loop visits the flows in the order of the ``weights`` dict's
keys, cyclically (a scan, not an active list); a flow whose count is > 0 when visited gets its
quantum, then sends its head while ``deficit > 0`` and the head's size is at most the deficit
(deficit -= size after the packet has been SENT); a head too large is kept aside
(``head_of_line``) and the scan moves on with the deficit kept. ``flow_queue_count`` counts the
packet in service as well as the waiting ones: a flow "empties" (its deficit returns to 0) when
its last packet has LEFT the line. No buffer limit.

Where it coincides with rule 3b: the quantum is added at the start of a turn, the head is taken
while it fits the deficit and the queue keeps its turn, a head that does not fit ends the turn
with the deficit kept, an empty queue's deficit returns to 0, sizes are IP bytes (``wfq_bytes``
"ip" = ``framing`` "none"'s wire bytes). ``deficit > 0`` in ns.py's loop is rule 3b's
``size <= deficit`` for sizes >= 1.

Where it does not: (a) pqlab's queue empties when its last WAITING packet enters the ring, ns.py's
when that packet has left the line; a packet arriving to that queue in between continues the
queue's turn with its deficit in ns.py, but rejoins pqlab's active list at its tail with deficit
0. (b) pqlab's active list is in the order the queues became non-empty, ns.py's scan in flow-id
order; they agree while no queue empties. (c) ns.py's server starts its first turn with the
queue of the first packet, which in pqlab empties at once (a).

So the scenario keeps every queue backlogged: a prologue (:func:`drr_prologue`) sends ONE
packet of queue 0 at t = 0 (alone: in both models queue 0 is empty with deficit 0 when it has
left), a burst of ``limit`` packets to each other queue at a quarter of its line time (they
join pqlab's list in index order, as ns.py's scan continues from queue 0), and queue 0's burst
at 1.5 of its line time (pqlab: at the list's tail, after the last queue; ns.py: after the
last flow id, the scan starting again). Then CBR and Poisson streams of different sizes, each
offering more than its DRR share, keep every queue near its limit. The script counts the
takes (after the first) that leave a queue with no packet waiting (pqlab's output: arrivals
of the queue before the take minus the queue's takes); with none, every condition above
holds and the departures must agree packet by packet. Waiting packets are counted the same
way for the limits: ``flow_queue_count[c]`` minus the packet in service if it is flow c's.
The quanta are integers (1500, 3000, 4500 bytes from ns.py weights 1500, 3000, 4500) and
sizes integers, so the deficits are exact in both.

Ties: pqlab orders events at one instant by its contract (releases, then arrivals in input
order, the scheduler after each); ns.py by SimPy's event order. ``peers.TraceGenerator`` puts
simultaneous arrivals (the prologue's bursts) one after another without yielding, so they reach
ns.py in input order too; an arrival at the very instant of a departure could be ordered
differently: the script counts them (none in the runs recorded).

A second DRR run (:data:`DRR_UNSATURATED`) has no prologue and offers 1.08 times the line, queue
2 less than its DRR share (0.48 of the line against 1/2): queue 2 empties and refills, so (a),
(b) and (c) apply and only the long-run shares can agree: the bytes each queue sends, as a
fraction of all bytes sent, agree within :data:`SHARE_TOL`; the packets whose departure differs
are counted.

RED: docs/model.md rule 2a against ``ns.port.red_port.REDPort``
---------------------------------------------------------------
What ns.py 0.4.3's ``REDPort.put`` does: on every arrival, before its limit test,
``avg = avg * (1 - a) + q * a`` with ``a = 2 ** -weight_factor`` and ``q = len(store.items) + 1``
(the packets WAITING -- ``Port.run`` takes a packet out of the store when its transmission starts
-- PLUS the arriving one; the docstring says "includes the packet in service", the code does
not); no idle-time correction; a packet is dropped if ``q > qlimit``, else if ``avg >=
max_threshold`` with probability ``max_probability`` (``random.uniform(0, 1) <= max_p``), else
if ``avg >= min_threshold`` with probability ``max_p * (avg - min) / (max - min)``
(``random.uniform(0, 1) <= p``); no count correction; one draw only when ``avg >= min``.

Where it coincides with rule 2a: the EWMA on every arrival (before the limit test, also for
a packet that the limit then drops), no idle correction, no count correction, the linear
probability between the thresholds; ``q > qlimit`` is ``waiting >= limit``, rule 2's full
queue, so ``qlimit = limit_packets``. The order of the two tests changes only the drop code
(pqlab: 3 early, ns.py: not told), not which packets are dropped.

Where it does not, and the adaptation: (a) ns.py's ``q`` is pqlab's ``n + 1``; starting ns.py's
average at 1 (``port.average_queue_size = 1.0``; 0 in pqlab) makes ``avg_ns = avg_pq + 1`` after
every update (exact in real arithmetic), so ns.py gets thresholds ``min + 1`` and ``max + 1``;
in floating point the two averages differ by rounding (about 1e-15), which changes a decision
only if a draw or the average falls within that of a boundary. (b) Above ``max`` ns.py drops
with probability ``max_p``, pqlab always: run :data:`RED_BELOW_MAX` has ``max`` above the
queue limit (the average of waiting packets never reaches it) and ``max_p`` 0.2, run
:data:`RED_ABOVE_MAX` has ``max_p`` = 1 (ns.py then drops whenever ``avg >= max``, as pqlab does)
and an average that crosses ``max``. (c) The draws: pqlab's packet i uses
``default_rng(seed).random(n)[i]`` (``simulate_arrivals(..., seed=)``); ns.py's
``random.uniform(0, 1)`` is replaced, during the run, by an element in front of the port that
returns the same packet's draw (:class:`InjectedUniform`); ns.py drops when ``u <= p``, pqlab
when ``u < p``: they differ only for ``u == p`` exactly. Then the same packets are dropped and
the kept packets' delays agree.

Timing: wall time of the whole call on the precomputed trace, best of the repeats with
``gc.collect()`` before each: pqlab ``simulate_arrivals`` (validation, kernel, Dataset; numba
compiled beforehand), ns.py building the model, replaying the trace, simulating and collecting
the delays (the injected draws replace ns.py's own ``random.uniform`` calls one for one).

Run: ``python benchmarks/peers_diffserv.py`` (about 1.5 minutes on a loaded 2-core VM), ``--quick``
(small runs). Writes ``benchmarks/results/peers_diffserv.json`` (not with ``--quick``). Needs
``pip install ns-py simpy`` (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import sys
from contextlib import contextmanager
from pathlib import Path

import numpy as np

import pqlab
from pqlab import CBRStream, Deterministic, Node, PoissonStream, Queue, Uniform
from pqlab.node.traffic import merge_streams


def _sibling(name: str):
    """A module of benchmarks/ imported by path (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location(
        f"pqlab_benchmark_{name}", Path(__file__).with_name(f"{name}.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


peers = _sibling("peers")

RESULTS_FILE = Path(__file__).with_name("results") / "peers_diffserv.json"

#: Line rate of every node here, bit/s.
LINE_RATE_BPS = 10e6

#: Agreement required per packet delay, seconds (as peers.py).
TOL_S = peers.TOL_S

#: Largest difference allowed between the two models' long-run byte shares (absolute fraction).
SHARE_TOL = 0.01

#: Repeats (best of) for pqlab and for ns.py.
REPEATS_PQ, REPEATS_NS = 10, 2


# --------------------------------------------------------------------------- ns.py side


class DepartureSink:
    """The last ns.py-style element: notes when each packet (by ``packet_id``) has left, seconds."""

    def __init__(self, env, n_packets: int):
        self.env = env
        self.departure = np.full(n_packets, np.nan)

    def put(self, packet):
        """Sends a packet to this element."""
        self.departure[packet.packet_id] = self.env.now


# --------------------------------------------------------------------------- DRR scenario

#: DRR quanta, bytes; ns.py gets them as its weights (its quantum = 1500 * w / min(w) = w).
DRR_QUANTA_BYTES = (1500, 3000, 4500)
DRR_LIMITS = (32, 32, 32)


def drr_streams(load: float, start_s: float) -> tuple:
    """The DRR queues' traffic: ``load`` x (0.3, 0.45, 0.6) of the line, from ``start_s``.

    Queue 0: 4 CBR streams of 1500-byte packets; queue 1: Poisson, sizes uniform in
    [40, 1500] bytes; queue 2: Poisson of 64-byte packets and 4 CBR streams of 576-byte packets
    (DRR shares when all are backlogged: 1/6, 1/3, 1/2 of the line's bytes).
    """
    r = LINE_RATE_BPS * load
    return tuple(
        [
            CBRStream(r * 0.3 / 4, Deterministic(1500), queue=0, flow=k, start_s=start_s)
            for k in range(4)
        ]
        + [
            PoissonStream(r * 0.45, Uniform(40, 1500), queue=1, flow=10, start_s=start_s),
            PoissonStream(r * 0.3, Deterministic(64), queue=2, flow=20, start_s=start_s),
        ]
        + [
            CBRStream(r * 0.3 / 4, Deterministic(576), queue=2, flow=21 + k, start_s=start_s)
            for k in range(4)
        ]
    )


#: Saturated run: offered load (x the line) and prologue on; unsaturated run: neither.
DRR_SATURATED = dict(name="DRR saturated", load=2.0, prologue=True)
DRR_UNSATURATED = dict(name="DRR unsaturated", load=0.8, prologue=False)


def drr_node() -> Node:
    """Three DRR queues with :data:`DRR_QUANTA_BYTES` and :data:`DRR_LIMITS`, one packet in
    service."""
    return Node(
        line_rate_bps=LINE_RATE_BPS,
        framing="none",
        ring_limit_particles=None,
        particle_bytes=None,
        ring_limit_packets=1,
        queues=tuple(
            Queue("drr", lim, quantum_bytes=qb) for lim, qb in zip(DRR_LIMITS, DRR_QUANTA_BYTES)
        ),
    )


def drr_prologue():
    """Queue 0's lone first packet, the other queues' bursts, then queue 0's burst (module
    docstring).

    Returns (arrival_s, size_bytes, queue) and the instant the streams may start, seconds.
    """
    first_bytes, burst_bytes = 40, 1000
    line_s = first_bytes * 8 / LINE_RATE_BPS
    times, sizes, queues = [0.0], [first_bytes], [0]
    for q in range(1, len(DRR_LIMITS)):
        times += [line_s / 4] * DRR_LIMITS[q]
        sizes += [burst_bytes] * DRR_LIMITS[q]
        queues += [q] * DRR_LIMITS[q]
    times += [1.5 * line_s] * DRR_LIMITS[0]
    sizes += [burst_bytes] * DRR_LIMITS[0]
    queues += [0] * DRR_LIMITS[0]
    return (
        np.array(times),
        np.array(sizes, dtype=np.int64),
        np.array(queues, dtype=np.int64),
    ), 2 * line_s


def drr_trace(case: dict, duration_s: float, seed: int):
    """The DRR arrivals: (arrival_s, size_bytes, queue), the prologue first when ``case`` has
    one."""
    if case["prologue"]:
        (t0, s0, q0), start_s = drr_prologue()
    else:
        (t0, s0, q0), start_s = (np.zeros(0), np.zeros(0, np.int64), np.zeros(0, np.int64)), 0.0
    arrival, size, queue, _ = merge_streams(
        drr_streams(case["load"], start_s), np.random.default_rng(seed), duration_s
    )
    return np.concatenate([t0, arrival]), np.concatenate([s0, size]), np.concatenate([q0, queue])


def emptied_takes(arrival, queue, ring_entry):
    """Takes that leave their queue with no packet waiting while more of its packets will arrive.

    From pqlab's output: for a kept packet of queue q taken at ``t``, the kept packets of q
    arrived at or before ``t`` minus the takes of q up to and including it (FIFO per queue);
    a take counts when that is 0 and a packet of q arrives after ``t`` (the models part there:
    module docstring). The very first packet of the trace is not counted (the prologue's).
    Returns the count.
    """
    kept = ~np.isnan(ring_entry)
    emptied = 0
    for q in np.unique(queue):
        mine = kept & (queue == q)
        arr, entry = arrival[mine], ring_entry[mine]
        waiting = np.searchsorted(arr, entry, side="right") - np.arange(1, entry.size + 1)
        emptied += int(np.count_nonzero((waiting == 0) & (entry < arrival[queue == q][-1])))
    first_alone = np.count_nonzero(arrival == arrival[0]) == 1 and ring_entry[0] == arrival[0]
    return emptied - int(first_alone and arrival[queue == queue[0]][-1] > arrival[0])


def byte_shares(size, queue, departure, n_queues):
    """Each queue's share of the bytes sent (kept packets), fractions summing to 1."""
    sent = np.array(
        [size[(queue == q) & ~np.isnan(departure)].sum() for q in range(n_queues)], dtype=np.float64
    )
    return sent / sent.sum()


def run_ns_drr(trace):
    """Whole ns.py call: TraceGenerator -> TailDrop -> DRRServer -> DepartureSink.

    Returns
    -------
    numpy.ndarray of float64
        Departure of each packet, seconds (NaN if dropped).
    """
    import simpy
    from ns.scheduler.drr import DRRServer

    env = simpy.Environment()
    gen = peers.TraceGenerator(env, "DRR", *trace)
    server = DRRServer(env, LINE_RATE_BPS, dict(enumerate(DRR_QUANTA_BYTES)))
    assert [server.quantum[q] for q in range(len(DRR_QUANTA_BYTES))] == list(DRR_QUANTA_BYTES)
    count = server.flow_queue_count  # waiting + head kept aside + the packet in service

    def waiting(c):
        cur = server.current_packet
        return count[c] - (cur is not None and cur.flow_id == c)

    drop = peers.TailDrop(waiting, DRR_LIMITS)
    sink = DepartureSink(env, trace[0].size)
    gen.out, drop.out, server.out = drop, server, sink
    env.run()
    assert np.count_nonzero(np.isnan(sink.departure)) == sum(drop.dropped)
    return sink.departure


# --------------------------------------------------------------------------- RED scenario

RED_LIMIT = 64
#: ns.py's weight_factor n: a = 2**-n, pqlab's red_weight.
RED_WEIGHT_FACTOR = 5
RED_BELOW_MAX = dict(name="RED, max above the limit", min=8.0, max=72.0, max_p=0.2, load=1.3)
RED_ABOVE_MAX = dict(name="RED, max_p 1, crossing max", min=4.0, max=6.0, max_p=1.0, load=3.0)


def red_node(case: dict) -> Node:
    """One FIFO queue with RED (``case``'s thresholds), limit :data:`RED_LIMIT`, one packet in
    service."""
    queue = Queue(
        "priority",
        RED_LIMIT,
        red_min_packets=case["min"],
        red_max_packets=case["max"],
        red_max_p=case["max_p"],
        red_weight=2.0**-RED_WEIGHT_FACTOR,
    )
    return Node(
        line_rate_bps=LINE_RATE_BPS,
        framing="none",
        ring_limit_particles=None,
        particle_bytes=None,
        ring_limit_packets=1,
        queues=(queue,),
    )


def red_trace(case: dict, duration_s: float, seed: int):
    """RED arrivals: Poisson, sizes uniform in [40, 1500], and 3 CBR streams of 1000-byte
    packets."""
    r = LINE_RATE_BPS * case["load"]
    streams = [PoissonStream(r * 0.7, Uniform(40, 1500), queue=0, flow=0)]
    streams += [CBRStream(r * 0.1, Deterministic(1000), queue=0, flow=1 + k) for k in range(3)]
    arrival, size, queue, _ = merge_streams(streams, np.random.default_rng(seed), duration_s)
    return arrival, size, queue


def red_uniforms(seed: int, n: int) -> np.ndarray:
    """pqlab's RED draws for ``n`` packets and ``seed`` (``simulate_arrivals``'s documented
    rule)."""
    return np.random.default_rng(seed).random(n)


class InjectedUniform:
    """In front of a REDPort: notes each packet's index, and stands for ns.py's ``random`` module.

    ``uniform(a, b)`` returns ``a + (b - a) * u[i]`` for the packet ``i`` being put (ns.py calls
    ``random.uniform(0, 1)``, which is ``random.random()``), and counts the draws.
    """

    def __init__(self, u):
        self.u = np.asarray(u, dtype=np.float64).tolist()
        self.index = None
        self.draws = 0
        self.out = None

    def put(self, packet):
        """Sends a packet to this element."""
        self.index = packet.packet_id
        return self.out.put(packet)

    def uniform(self, a, b):
        """The current packet's draw, scaled to [a, b)."""
        self.draws += 1
        return a + (b - a) * self.u[self.index]


@contextmanager
def ns_random(replacement):
    """ns.py's REDPort draws from ``replacement`` (an object with ``uniform``) inside the block."""
    import ns.port.red_port as red_port

    saved = red_port.random
    red_port.random = replacement
    try:
        yield
    finally:
        red_port.random = saved


def run_ns_red(trace, case: dict, u):
    """Whole ns.py call: TraceGenerator -> InjectedUniform -> REDPort -> DepartureSink, pqlab's
    draws ``u``.

    Returns
    -------
    departure : numpy.ndarray of float64
        Departure of each packet, seconds (NaN if dropped).
    draws : int
        How many draws ns.py took (one per packet whose average was at or above ``min``).
    """
    import simpy
    from ns.port.red_port import REDPort

    env = simpy.Environment()
    gen = peers.TraceGenerator(env, "RED", *trace)
    draws = InjectedUniform(u)
    port = REDPort(
        env,
        LINE_RATE_BPS,
        max_threshold=case["max"] + 1,
        min_threshold=case["min"] + 1,
        max_probability=case["max_p"],
        weight_factor=RED_WEIGHT_FACTOR,
        qlimit=RED_LIMIT,
    )
    port.average_queue_size = 1.0  # ns.py's average counts the arriving packet: avg_ns = avg_pq + 1
    sink = DepartureSink(env, trace[0].size)
    gen.out, draws.out, port.out = draws, port, sink
    with ns_random(draws):
        env.run()
    assert np.count_nonzero(np.isnan(sink.departure)) == port.packets_dropped
    return sink.departure, draws.draws


# --------------------------------------------------------------------------- pqlab side, checks,
# timing


def pqlab_drr(trace):
    """pqlab on the DRR node: the Dataset of ``simulate_arrivals``."""
    return pqlab.simulate_arrivals(drr_node(), *trace)


def pqlab_red(trace, case: dict, seed: int):
    """pqlab on ``case``'s RED node with draws from ``seed``: the Dataset of
    ``simulate_arrivals``."""
    return pqlab.simulate_arrivals(red_node(case), *trace, seed=seed)


def departures_differing(dep_a, dep_b, tol=TOL_S) -> int:
    """Packets kept by one model and not the other, or kept by both with departures more than
    ``tol`` apart."""
    drop_a, drop_b = np.isnan(dep_a), np.isnan(dep_b)
    both = ~drop_a & ~drop_b
    return int(
        np.count_nonzero(drop_a != drop_b)
        + np.count_nonzero(np.abs(dep_a[both] - dep_b[both]) > tol)
    )


def arrivals_at_departures(arrival, departure) -> int:
    """Arrivals at the very instant of a departure (where the models' event order may differ)."""
    return int(np.count_nonzero(np.isin(arrival, departure[~np.isnan(departure)])))


def agreement(trace, dep_pq, dep_ns, n_queues: int) -> dict:
    """Per-packet and long-run agreement of two departure arrays on ``trace``.

    ``max_delay_diff_s`` is None when the two keep different packets.
    """
    arrival, size, queue = trace
    ok, details = peers.compare(
        peers.results_from_departure(arrival, queue, dep_pq, n_queues),
        peers.results_from_departure(arrival, queue, dep_ns, n_queues),
    )
    max_diff = max(d["max_diff"] for d in details.values())  # inf when the kept packets differ
    shares_pq = byte_shares(size, queue, dep_pq, n_queues)
    shares_ns = byte_shares(size, queue, dep_ns, n_queues)
    return dict(
        exact=bool(ok),
        departures_differing=departures_differing(dep_pq, dep_ns),
        max_delay_diff_s=max_diff if np.isfinite(max_diff) else None,
        drops_pqlab=[
            int(np.count_nonzero(np.isnan(dep_pq) & (queue == q))) for q in range(n_queues)
        ],
        drops_ns=[int(np.count_nonzero(np.isnan(dep_ns) & (queue == q))) for q in range(n_queues)],
        byte_shares_pqlab=shares_pq.tolist(),
        byte_shares_ns=shares_ns.tolist(),
        max_share_diff=float(np.max(np.abs(shares_pq - shares_ns))),
        arrivals_at_departures=arrivals_at_departures(arrival, dep_pq),
    )


def speed(n_packets: int, pq_fn, ns_fn, repeats_pq: int, repeats_ns: int) -> dict:
    """Best and median wall times of both calls, packets/s of the best, and the ratio ns / pqlab."""
    best_pq, med_pq, _ = peers.timed(pq_fn, repeats_pq)
    best_ns, med_ns, _ = peers.timed(ns_fn, repeats_ns)
    return dict(
        pqlab_best_s=best_pq,
        pqlab_median_s=med_pq,
        pqlab_packets_per_s=n_packets / best_pq,
        ns_best_s=best_ns,
        ns_median_s=med_ns,
        ns_packets_per_s=n_packets / best_ns,
        ns_over_pqlab=best_ns / best_pq,
        repeats=[repeats_pq, repeats_ns],
    )


def run_drr(case: dict, duration_s: float, seed: int, repeats=(REPEATS_PQ, REPEATS_NS)) -> dict:
    """One DRR case: agreement, coincidence conditions and speed. Returns its record."""
    trace = drr_trace(case, duration_s, seed)
    pqlab_drr(tuple(a[:100] for a in trace))  # numba compiled outside the timing
    ds = pqlab_drr(trace)
    dep_pq = ds.departure.values
    dep_ns = run_ns_drr(trace)
    rec = dict(
        case=case,
        duration_s=duration_s,
        seed=seed,
        packets=int(trace[0].size),
        quanta_bytes=list(DRR_QUANTA_BYTES),
        limits_packets=list(DRR_LIMITS),
        emptied_takes=emptied_takes(trace[0], trace[2], ds.ring_entry.values),
        **agreement(trace, dep_pq, dep_ns, len(DRR_LIMITS)),
    )
    rec["speed"] = speed(
        rec["packets"], lambda: pqlab_drr(trace), lambda: run_ns_drr(trace), *repeats
    )
    return rec


def run_red(case: dict, duration_s: float, seed: int, repeats=(REPEATS_PQ, REPEATS_NS)) -> dict:
    """One RED case: per-packet drop decisions and delays, and speed. Returns its record."""
    trace = red_trace(case, duration_s, seed)
    u = red_uniforms(seed, trace[0].size)
    pqlab_red(tuple(a[:100] for a in trace), case, seed)  # numba compiled outside the timing
    ds = pqlab_red(trace, case, seed)
    dep_pq, drop = ds.departure.values, ds["drop"].values
    dep_ns, draws = run_ns_red(trace, case, u)
    rec = dict(
        case=case,
        duration_s=duration_s,
        seed=seed,
        packets=int(trace[0].size),
        limit_packets=RED_LIMIT,
        weight=2.0**-RED_WEIGHT_FACTOR,
        early_drops_pqlab=int(np.count_nonzero(drop == 3)),
        full_drops_pqlab=int(np.count_nonzero(drop == 2)),
        draws_ns=draws,
        **agreement(trace, dep_pq, dep_ns, 1),
    )
    rec["speed"] = speed(
        rec["packets"],
        lambda: pqlab_red(trace, case, seed),
        lambda: run_ns_red(trace, case, u),
        *repeats,
    )
    return rec


def print_record(rec: dict) -> None:
    """One case's lines: agreement and speed."""
    sp = rec["speed"]
    verdict = (
        "EXACT (same drops, delays within 1e-9 s)"
        if rec["exact"]
        else f"{rec['departures_differing']:,} departures differ (kept sets differ)"
    )
    print(
        f"{rec['case']['name']}: {rec['packets']:,} packets, drops pqlab"
        f" {sum(rec['drops_pqlab']):,} ns.py {sum(rec['drops_ns']):,}: {verdict}"
        + (
            f"; max |delay diff| {rec['max_delay_diff_s']:.1e} s"
            if rec["max_delay_diff_s"] is not None
            else ""
        )
        + f"; byte shares pqlab {np.round(rec['byte_shares_pqlab'], 4).tolist()} ns.py"
        f" {np.round(rec['byte_shares_ns'], 4).tolist()}; arrivals at a departure"
        f" {rec['arrivals_at_departures']}"
        + (f"; takes emptying a queue {rec['emptied_takes']}" if "emptied_takes" in rec else "")
        + (
            f"; pqlab early drops {rec['early_drops_pqlab']:,}, full {rec['full_drops_pqlab']:,}, "
            f"ns.py draws {rec['draws_ns']:,}"
            if "draws_ns" in rec
            else ""
        )
    )
    print(
        f"  speed: pqlab {sp['pqlab_best_s'] * 1e3:.2f} ms ({sp['pqlab_packets_per_s']:,.0f}"
        f" packets/s), ns.py {sp['ns_best_s']:.3f} s ({sp['ns_packets_per_s']:,.0f} packets/s):"
        f" pqlab {sp['ns_over_pqlab']:.0f}x faster (best of {sp['repeats'][0]} /"
        f" {sp['repeats'][1]})"
    )


#: Simulated seconds per case (full run); ``--quick`` runs a tenth.
DURATIONS_S = {
    "DRR saturated": 20.0,
    "DRR unsaturated": 20.0,
    "RED, max above the limit": 100.0,
    "RED, max_p 1, crossing max": 50.0,
}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the run, nothing written")
    parser.add_argument(
        "--seed", type=int, default=1, help="traffic (and RED draw) seed, default 1"
    )
    args = parser.parse_args(argv)
    try:
        import ns.scheduler.drr  # noqa: F401
        import simpy  # noqa: F401
    except ImportError:
        sys.exit(
            "ns.py and simpy are needed: pip install ns-py simpy (or pip install -e '.[bench]')"
        )
    scale = 0.1 if args.quick else 1.0
    versions = dict(
        pqlab=pqlab.__version__,
        numba=peers.package_version("numba"),
        numpy=np.__version__,
        simpy=peers.package_version("simpy"),
        ns_py=peers.package_version("ns.py"),
        python=platform.python_version(),
        machine=platform.processor() or platform.machine(),
    )
    print(", ".join(f"{k} {v}" for k, v in versions.items()))
    records = []
    for case in (DRR_SATURATED, DRR_UNSATURATED):
        records.append(run_drr(case, DURATIONS_S[case["name"]] * scale, args.seed))
        print_record(records[-1])
    for case in (RED_BELOW_MAX, RED_ABOVE_MAX):
        records.append(run_red(case, DURATIONS_S[case["name"]] * scale, args.seed))
        print_record(records[-1])
    expected_exact = [r for r in records if r["case"] is not DRR_UNSATURATED]
    ok = all(r["exact"] for r in expected_exact) and records[1]["max_share_diff"] <= SHARE_TOL
    print(
        f"exact where the models coincide, shares within {SHARE_TOL} where they do not:"
        f" {'PASS' if ok else 'FAIL'}"
    )
    if not args.quick:
        RESULTS_FILE.write_text(
            json.dumps(
                dict(
                    versions=versions,
                    line_rate_bps=LINE_RATE_BPS,
                    tol_s=TOL_S,
                    share_tol=SHARE_TOL,
                    passed=ok,
                    cases=records,
                ),
                indent=1,
            )
            + "\n"
        )
        print(f"wrote {RESULTS_FILE}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
