"""pqlab against peer simulators: same EF delays where the models coincide, and the speed ratio.

Scenario S1: one EF CBR stream of 128-byte IP packets at 300 kbit/s (queue 0, strict
priority, limit 10) and 20 BE CBR streams of 1000-byte IP packets at 110 kbit/s each
(queue 1, FIFO, limit 64) on a 2 Mbit/s line, 10,000 EF samples (34.13 s, about 19,400
packets), and the same run 100 times longer (1,000,000 EF samples, about 1.94 million
packets). The BE aggregate (2.2 Mbit/s) overloads the line, so the BE queue sits near
its limit and drops, and every EF packet waits for the BE packet in service.

Where the models coincide
-------------------------
* pqlab node: ``framing="none"`` (line time = size * 8 / rate), a ring of ONE packet
  (``ring_limit_particles=1``, ``particle_bytes=1500`` >= the largest packet, so a
  packet enters the ring only when it is empty: non-preemptive priority with one
  packet in service), no policer, queue 0 ``priority`` limit 10, queue 1 a single
  ``wfq`` queue limit 64 (one WFQ queue is FIFO whatever its weight).
* Arrivals are generated ONCE with pqlab's seeded generators (:func:`s1_scenario`,
  :func:`pqlab.traffic.merge_streams`, random phases from ``default_rng(seed)``) and
  the same ``(time, size, queue)`` arrays are fed to every simulator.
* Queue limits count WAITING packets (not the one in service) in every model:
  pqlab by its node contract; the SimPy model below by construction; ns.py's
  ``SPServer`` has no buffer limit at all, so :class:`TailDrop` in front of it drops
  an arrival when ``len(server.stores[prio].items) >= limit``; those stores hold
  waiting packets only (``SPServer.run`` takes a packet out of its store when its
  transmission starts), so the limit is used unchanged (no off-by-one adaptation).
  (ns.py's ``Port`` would count the packet in service in ``qlimit``; it is not used.)
* ns.py ``SPServer``: ``priorities={0: 1, 1: 0}`` keyed by ``flow_id`` = queue index
  (larger value = served first), ``rate`` = line rate in bit/s (its service time is
  ``size * 8.0 / rate``, identical to pqlab's ``size / (rate / 8)`` in floating point),
  default ``zero_buffer=False``, ``zero_downstream_buffer=False``. It is non-preemptive
  with one packet in service, like the pqlab node above.
* Exact ties (an arrival at the very instant of a completion, or two arrivals at one
  instant) are ordered by pqlab's contract (completion first, then input order) but by
  SimPy's event order in the peers. With the seeded random phases the traces have none;
  the script counts them and reports the number.

Then each simulator's per-packet delays (departure - arrival) agree to 1e-9 s, for EF
and for BE, and the drop counts are equal: checked on every run, PASS/FAIL per peer.

Peers
-----
* ns.py 0.4.3 (``pip install ns-py``): :class:`TraceGenerator` (an ns.py-style packet
  generator replaying the precomputed trace; ns.py's own ``TracePacketGenerator``
  parses a text file and stamps ``env.now`` accumulated from time differences, and
  ``DistPacketGenerator`` stamps each packet one inter-arrival time before it puts it) ->
  :class:`TailDrop` -> ``SPServer`` -> ``PacketSink``. ns.py's ``WFQServer`` (GPS
  virtual time) is timed too, against pqlab with two SCFQ ``wfq`` queues (weights
  300 kbit/s and 1.7 Mbit/s), for speed only: the two WFQ algorithms differ.
* :func:`simpy_node`: a hand-written SimPy 4 model of the node (two processes,
  deque queues, direct hand-over to an idle server, per-packet results in lists).

Timing: wall time of the whole call. pqlab: ``pqlab.simulate(scenario, seed)``
(trace generation + validation + kernel + Dataset; numba compiled beforehand) and
``pqlab.simulate_arrivals`` on the precomputed trace (kernel + Dataset). Peers:
building the model, creating their packets from the precomputed trace, simulating,
and collecting the delays as numpy arrays; they do not pay for the trace generation
(about 1.5 ms for S1, 0.1 s for S1 x100), which pqlab.simulate does. Best of the
repeats (their counts are printed), with ``gc.collect()`` before each.

DRR and RED against ns.py's DRRServer and REDPort: ``benchmarks/peers_diffserv.py``, which uses
this module's trace replay, tail drop, comparison and timing.

Run: ``python benchmarks/peers.py`` (about 3 minutes on a 2-core VM), ``--quick``
(peers on S1 only, about 10 s), ``--skip-ns`` (no ns.py). Needs ``pip install ns-py simpy``
(pip resolves ns-py 0.4.3 on Python 3.11, 0.5 needs 3.14; the TailDrop adapters read its
``SPServer.stores`` and ``WFQServer.flow_queue_count`` / ``current_packet``).
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
from collections import deque
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np

import pqlab
from pqlab import CBRStream, Deterministic, Node, Queue, Scenario
from pqlab.traffic import merge_streams

#: S1 parameters (IP lengths, bytes; rates, bit/s).
LINE_RATE_BPS = 2e6
EF_BYTES, EF_RATE_BPS, EF_LIMIT = 128, 300e3, 10
BE_BYTES, BE_RATE_BPS, BE_LIMIT, N_BE = 1000, 110e3, 64, 20
N_EF_SAMPLES = 10_000
EF_QUEUE, BE_QUEUE = 0, 1
LIMITS = (EF_LIMIT, BE_LIMIT)
SEED = 1

#: Agreement required between simulators, per packet delay, seconds.
TOL_S = 1e-9

#: WFQ weights of the speed-only pair, bit/s (pqlab ``weight_bps``; ns.py gets them / line rate).
WFQ_WEIGHTS_BPS = (300e3, 1.7e6)

#: The long run is S1 x BIG.
BIG = 100

#: Longest ns.py time at x100 we accept (predicted from S1, SP + WFQ); beyond, run x10 and
#: extrapolate.
NS_BUDGET_S = 300.0

#: Repeats (best of) per run size.
REPEATS_PQ_S1, REPEATS_PEER_S1 = 20, 5
REPEATS_PQ_BIG, REPEATS_SIMPY_BIG, REPEATS_NS_BIG = 5, 3, 2


# --------------------------------------------------------------------------- scenario


def coinciding_node(*, wfq: bool = False) -> Node:
    """The pqlab node whose model coincides with the peers' (see the module docstring).

    ``wfq=True``: both queues ``wfq`` (SCFQ), for the speed-only WFQ pair.
    """
    if wfq:
        queues = (
            Queue("wfq", EF_LIMIT, weight_bps=WFQ_WEIGHTS_BPS[0]),
            Queue("wfq", BE_LIMIT, weight_bps=WFQ_WEIGHTS_BPS[1]),
        )
    else:
        queues = (Queue("priority", EF_LIMIT), Queue("wfq", BE_LIMIT, weight_bps=1.7e6))
    return Node(
        line_rate_bps=LINE_RATE_BPS,
        framing="none",
        ring_limit_particles=1,
        particle_bytes=1500,
        queues=queues,
    )


def s1_scenario(scale: float = 1.0, *, wfq: bool = False) -> Scenario:
    """S1 (``scale`` = 1) or S1 ``scale`` times longer: ``scale * 10,000`` EF samples."""
    streams = [CBRStream(EF_RATE_BPS, Deterministic(EF_BYTES), queue=EF_QUEUE, flow=0)]
    streams += [
        CBRStream(BE_RATE_BPS, Deterministic(BE_BYTES), queue=BE_QUEUE, flow=100 + k)
        for k in range(N_BE)
    ]
    ef_interval_s = EF_BYTES * 8 / EF_RATE_BPS
    return Scenario(
        node=coinciding_node(wfq=wfq),
        streams=tuple(streams),
        duration_s=scale * N_EF_SAMPLES * ef_interval_s,
        name=f"S1 x{scale:g}" + (" (WFQ)" if wfq else ""),
    )


def make_trace(scenario: Scenario, seed: int = SEED):
    """The arrivals, generated once: (arrival_s float64, size_bytes int64, queue int64)."""
    arrival, size, queue, _ = merge_streams(
        scenario.streams, np.random.default_rng(seed), scenario.duration_s
    )
    return arrival, size, queue


# --------------------------------------------------------------------------- results


def results_from_departure(arrival, queue, departure, n_queues=2):
    """Per queue: (arrival of kept packets, their delays) in arrival order, and drops."""
    out = {}
    for c in range(n_queues):
        mine = queue == c
        kept = mine & ~np.isnan(departure)
        out[c] = (
            arrival[kept],
            departure[kept] - arrival[kept],
            int(np.count_nonzero(mine & np.isnan(departure))),
        )
    return out


def pqlab_results(ds):
    """:func:`results_from_departure` of a pqlab Dataset."""
    queue = ds.queue.values
    return results_from_departure(
        ds.arrival.values, queue, ds.departure.values, int(queue.max()) + 1
    )


# --------------------------------------------------------------------------- hand-written SimPy
# model


def simpy_node(arrival_s, size_bytes, queue, *, line_rate_bps=LINE_RATE_BPS, limits=LIMITS):
    """A non-preemptive strict-priority node in SimPy 4: FIFO per queue, tail drop, one packet in
    service.

    Queue ``c`` is served before queue ``c + 1``; ``limits[c]`` counts waiting packets
    (an arrival finding ``limits[c]`` packets waiting in its queue is dropped). A packet
    of ``s`` bytes takes ``s * 8 / line_rate_bps`` seconds on the line.

    Two processes: the source replays the trace (one timeout per distinct arrival
    time) and hands a packet straight to the server when it is idle; the server takes
    the head of the first non-empty queue and holds it for its line time (one timeout
    per packet) or, when all queues are empty, waits on one event for the next arrival.

    Returns
    -------
    numpy.ndarray of float64
        Departure time of each packet (the instant its last bit leaves), NaN if dropped.
    """
    import simpy

    n = len(arrival_s)
    env = simpy.Environment()
    timeout, new_event = env.timeout, env.event
    t_arr = np.asarray(arrival_s, dtype=np.float64).tolist()
    line_s = (np.asarray(size_bytes, dtype=np.float64) * 8.0 / line_rate_bps).tolist()
    q_of = np.asarray(queue, dtype=np.int64).tolist()
    queues = [deque() for _ in limits]
    limit_of = list(limits)
    departure = [np.nan] * n
    idle = [None]  # the event the idle server waits on, None while it is busy

    def source():
        for i in range(n):
            t = t_arr[i]
            now = env.now
            if t > now:
                yield timeout(t - now)
            wake = idle[0]
            if wake is not None:  # idle server: the packet goes straight into service
                idle[0] = None
                wake.succeed(i)
                continue
            q = queues[q_of[i]]
            if len(q) < limit_of[q_of[i]]:
                q.append(i)

    def server():
        while True:
            for q in queues:
                if q:
                    i = q.popleft()
                    break
            else:
                idle[0] = wake = new_event()
                i = yield wake
            yield timeout(line_s[i])
            departure[i] = env.now

    env.process(server())
    env.process(source())
    env.run()
    return np.array(departure)


def run_simpy(trace):
    """Whole peer call: SimPy model on the trace, then per-queue delays."""
    arrival, size, queue = trace
    return results_from_departure(arrival, queue, simpy_node(arrival, size, queue))


# --------------------------------------------------------------------------- ns.py


class TraceGenerator:
    """ns.py-style packet generator replaying a precomputed trace.

    Like ns.py's generators it is a SimPy process with an ``out`` element: packet
    ``i`` is an ``ns.packet.packet.Packet(time=arrival_s[i], size=size_bytes[i],
    packet_id=i, flow_id=flow_id[i])`` put to ``out`` at ``arrival_s[i]``.
    """

    def __init__(self, env, element_id, arrival_s, size_bytes, flow_id):
        self.env = env
        self.element_id = element_id
        self.out = None
        self.packets_sent = 0
        self._trace = (
            np.asarray(arrival_s, np.float64).tolist(),
            np.asarray(size_bytes).tolist(),
            np.asarray(flow_id).tolist(),
        )
        self.action = env.process(self.run())

    def run(self):
        """The generator function used in simulations."""
        from ns.packet.packet import Packet

        env, src = self.env, self.element_id
        for i, (t, size, flow) in enumerate(zip(*self._trace)):
            now = env.now
            if t > now:
                yield env.timeout(t - now)
            self.packets_sent += 1
            self.out.put(Packet(t, size, i, src=src, flow_id=flow))


class TailDrop:
    """Tail drop in front of an ns.py server: drop when ``waiting(flow_id) >= limits[flow_id]``."""

    def __init__(self, waiting, limits):
        self.waiting = waiting
        self.limits = limits
        self.dropped = [0] * len(limits)
        self.out = None

    def put(self, packet):
        """Sends a packet to this element."""
        c = packet.flow_id
        if self.waiting(c) >= self.limits[c]:
            self.dropped[c] += 1
            return
        self.out.put(packet)


def _ns_results(sink, drop, n_queues=2):
    return {
        c: (np.array(sink.packet_times[c]), np.array(sink.waits[c]), drop.dropped[c])
        for c in range(n_queues)
    }


def run_ns_sp(trace):
    """Whole peer call: TraceGenerator -> TailDrop -> ns.py SPServer -> PacketSink; per-queue
    delays."""
    import simpy
    from ns.packet.sink import PacketSink
    from ns.scheduler.sp import SPServer

    env = simpy.Environment()
    gen = TraceGenerator(env, "S1", *trace)
    prio = {EF_QUEUE: 1, BE_QUEUE: 0}  # larger = served first
    server = SPServer(env, LINE_RATE_BPS, prio)
    stores = server.stores  # prio -> simpy.Store of the packets waiting (in service: taken out)

    def waiting(c):
        store = stores.get(prio[c])
        return 0 if store is None else len(store.items)

    drop = TailDrop(waiting, LIMITS)
    sink = PacketSink(env, rec_arrivals=False, rec_waits=True)
    gen.out, drop.out, server.out = drop, server, sink
    env.run()
    return _ns_results(sink, drop)


def run_ns_wfq(trace):
    """Whole peer call with ns.py's WFQServer (speed only): per-queue delays."""
    import simpy
    from ns.packet.sink import PacketSink
    from ns.scheduler.wfq import WFQServer

    env = simpy.Environment()
    gen = TraceGenerator(env, "S1", *trace)
    server = WFQServer(
        env, LINE_RATE_BPS, {c: w / LINE_RATE_BPS for c, w in enumerate(WFQ_WEIGHTS_BPS)}
    )
    count = server.flow_queue_count  # includes the packet in service

    def waiting(c):
        cur = server.current_packet
        return count[c] - (cur is not None and cur.flow_id == c)

    drop = TailDrop(waiting, LIMITS)
    sink = PacketSink(env, rec_arrivals=False, rec_waits=True)
    gen.out, drop.out, server.out = drop, server, sink
    env.run()
    return _ns_results(sink, drop)


# --------------------------------------------------------------------------- checks and timing


def compare(ref, res, tol=TOL_S):
    """Compare peer results with pqlab's. Returns (ok, per-queue details)."""
    ok, details = True, {}
    for c, (t_ref, d_ref, drops_ref) in ref.items():
        t, d, drops = res[c]
        same_set = drops == drops_ref and t.shape == t_ref.shape and np.array_equal(t, t_ref)
        max_diff = (
            float(np.max(np.abs(d - d_ref)))
            if same_set and d.size
            else (0.0 if same_set else np.inf)
        )
        ok &= same_set and max_diff <= tol
        details[c] = dict(
            kept=t.size,
            drops=drops,
            max_diff=max_diff,
            mean=float(d.mean()) if d.size else np.nan,
            std=float(d.std()) if d.size else np.nan,
            max=float(d.max()) if d.size else np.nan,
        )
    return ok, details


def timed(fn, repeats=1):
    """(best wall time, median, last result) of ``repeats`` calls."""
    times, result = [], None
    for _ in range(repeats):
        result = None
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times), result


def exact_ties(arrival, departure):
    """Arrivals at the same instant as another arrival or as a departure (ordering differs
    there)."""
    dup = int(np.count_nonzero(np.diff(arrival) == 0))
    dep = departure[~np.isnan(departure)]
    return dup + int(np.count_nonzero(np.isin(arrival, dep)))


def package_version(name):
    """The installed version of distribution ``name``, or "not installed"."""
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


def print_stats(label, details, ok, ref=False):
    ef, be = details[EF_QUEUE], details[BE_QUEUE]
    diff = "reference" if ref else f"{max(ef['max_diff'], be['max_diff']):.1e}"
    print(
        f"  {label:<28} EF kept {ef['kept']:>9,} drop {ef['drops']:>3}  BE kept {be['kept']:>9,} "
        f"drop {be['drops']:>9,}  EF delay mean {ef['mean'] * 1e3:8.5f} std {ef['std'] * 1e3:8.5f} "
        f"max {ef['max'] * 1e3:8.5f} ms  max |diff| {diff}"
        + ("" if ref else f"  {'PASS' if ok else 'FAIL'}")
    )


def run_size(scale, peers, repeats_pq):
    """Time and check every simulator on S1 x ``scale``. Returns (table rows, all checks passed)."""
    sc = s1_scenario(scale)
    t_gen, _, trace = timed(lambda: make_trace(sc), repeats_pq)
    arrival, size, queue = trace
    n = arrival.size
    print(
        f"\nS1 x{scale:g}: {n:,} packets ({np.count_nonzero(queue == EF_QUEUE):,} EF), "
        f"{sc.duration_s:,.2f} s simulated; trace generation (merge_streams) {t_gen * 1e3:.1f} ms"
    )
    pqlab.simulate_arrivals(
        sc.node, arrival[:100], size[:100], queue[:100]
    )  # compile/load numba outside timing
    best_sim, med_sim, ds = timed(lambda: pqlab.simulate(sc, seed=SEED), repeats_pq)
    assert np.array_equal(ds.arrival.values, arrival), (
        "pqlab.simulate must regenerate the same trace"
    )
    best_arr, med_arr, ds_arr = timed(
        lambda: pqlab.simulate_arrivals(sc.node, arrival, size, queue), repeats_pq
    )
    assert np.array_equal(ds_arr.departure.values, ds.departure.values, equal_nan=True)
    ref = pqlab_results(ds)
    ties = exact_ties(arrival, ds.departure.values)
    print(f"  exact ties (arrival = another arrival or a departure): {ties}")
    _, ref_details = compare(ref, ref)
    print_stats("pqlab", ref_details, True, ref=True)
    rows = [
        ("pqlab.simulate (SP)", n, best_sim, med_sim, None),
        ("pqlab.simulate_arrivals (SP)", n, best_arr, med_arr, None),
    ]
    all_ok = True
    for name, fn, equal, n_scale, repeats in peers:
        if n_scale != scale:  # run smaller and extrapolate linearly in packets
            sub = s1_scenario(n_scale)
            sub_trace = make_trace(sub)
            best, med, res = timed(lambda: fn(sub_trace), repeats)
            n_sub = sub_trace[0].size
            label = f"{name} [{n_scale:g}x run: {n_sub:,} pkts in {best:.1f} s, extrapolated]"
            best, med = best * n / n_sub, med * n / n_sub
            if equal:
                sub_ref = pqlab_results(pqlab.simulate(sub, seed=SEED))
                ok, details = compare(sub_ref, res)
                print_stats(name + f" ({n_scale:g}x)", details, ok)
                all_ok &= ok
        else:
            best, med, res = timed(lambda: fn(trace), repeats)
            label = name
            if equal:
                ok, details = compare(ref, res)
                print_stats(name, details, ok)
                all_ok &= ok
        rows.append((label, n, best, med, "SP" if equal else "WFQ"))
    if any(p[2] is False for p in peers):
        wsc = s1_scenario(scale, wfq=True)
        best_w, med_w, _ = timed(lambda: pqlab.simulate(wsc, seed=SEED), repeats_pq)
        rows.insert(2, ("pqlab.simulate (2 WFQ queues)", n, best_w, med_w, None))
    return rows, all_ok


def print_table(scale, rows):
    pq = {
        "SP": rows[0][2],
        "WFQ": next((r[2] for r in rows if r[0].startswith("pqlab.simulate (2 WFQ")), None),
    }
    pq_arr = rows[1][2]
    print(f"\n  S1 x{scale:g}")
    print(
        f"  {'simulator':<66} {'packets':>10} {'wall time best':>15} {'median':>10}"
        f" {'packets/s':>11} {'pqlab.simulate/peer':>20} {'simulate_arrivals/peer':>23}"
    )
    for name, n, best, med, kind in rows:
        r1 = f"{best / pq[kind]:.0f}x" if kind else ""
        r2 = f"{best / pq_arr:.0f}x" if kind == "SP" else ""
        print(
            f"  {name:<66} {n:>10,} {best:>13.4f} s {med:>8.4f} s {n / best:>11,.0f} {r1:>20}"
            f" {r2:>23}"
        )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="peers on S1 only (pqlab still runs S1 x100)"
    )
    parser.add_argument("--skip-ns", action="store_true", help="do not run ns.py")
    parser.add_argument(
        "--streaming-packets",
        type=float,
        default=1e8,
        help="packets of the streaming-mode memory run (default 1e8; 1e9 takes a few minutes)",
    )
    args = parser.parse_args(argv)
    try:
        import simpy  # noqa: F401
    except ImportError:
        sys.exit(
            "simpy is needed for the peers benchmark: pip install simpy (or pip install -e"
            " '.[bench]')"
        )
    if not args.skip_ns:
        try:
            import ns.scheduler.sp  # noqa: F401
        except ImportError:
            sys.exit("ns.py is not installed: pip install ns-py (or run with --skip-ns)")
    print(
        f"pqlab {pqlab.__version__}, numba {package_version('numba')}, numpy {np.__version__},"
        f" simpy {package_version('simpy')}, ns.py {package_version('ns.py')}, python"
        f" {platform.python_version()}, {platform.processor() or platform.machine()},"
        f" {os.cpu_count()} cores (every simulator uses one)"
    )
    t_start = time.perf_counter()

    def peers(scale, simpy_repeats, ns_scale=None, ns_repeats=0):
        out = [("SimPy 4 hand-written model", run_simpy, True, scale, simpy_repeats)]
        if not args.skip_ns and ns_repeats:
            out += [
                ("ns.py SPServer", run_ns_sp, True, ns_scale, ns_repeats),
                ("ns.py WFQServer (speed only)", run_ns_wfq, False, ns_scale, ns_repeats),
            ]
        return out

    rows_1, ok_1 = run_size(
        1, peers(1, REPEATS_PEER_S1, 1, REPEATS_PEER_S1), repeats_pq=REPEATS_PQ_S1
    )
    if args.quick:
        rows_big, ok_big = run_size(BIG, [], repeats_pq=REPEATS_PQ_BIG)
    else:
        ns_rows = [r for r in rows_1 if r[0].startswith("ns.py")]
        ns_predicted_s = (
            sum(best for _, _, best, _, _ in ns_rows) * BIG
        )  # one SP + one WFQ run at x100
        ns_scale, ns_repeats = BIG, REPEATS_NS_BIG
        while ns_repeats > 1 and ns_predicted_s * ns_repeats > NS_BUDGET_S:
            ns_repeats -= 1
        if ns_predicted_s > NS_BUDGET_S:
            ns_scale, ns_repeats = 10, REPEATS_NS_BIG
            print(
                f"\nns.py at x{BIG} predicted {ns_predicted_s:.0f} s > {NS_BUDGET_S:.0f} s: "
                f"run at x{ns_scale} and extrapolated"
            )
        rows_big, ok_big = run_size(
            BIG, peers(BIG, REPEATS_SIMPY_BIG, ns_scale, ns_repeats), repeats_pq=REPEATS_PQ_BIG
        )
    print(
        f"\nWall time of the whole call, best of repeats (S1: pqlab {REPEATS_PQ_S1}, peers"
        f" {REPEATS_PEER_S1}; x{BIG}: pqlab {REPEATS_PQ_BIG}, SimPy {REPEATS_SIMPY_BIG}, ns.py up"
        f" to {REPEATS_NS_BIG})."
    )
    print(
        "Ratio = peer time / pqlab time (how many times faster pqlab is); SP rows against pqlab's"
        " SP node,"
    )
    print("the WFQ row against pqlab with two SCFQ wfq queues.")
    print_table(1, rows_1)
    print_table(BIG, rows_big)
    print(
        f"\nequal EF and BE delays (|diff| <= {TOL_S:g} s) and drop counts: "
        f"{'PASS' if ok_1 and ok_big else 'FAIL'} (every peer run above)"
    )
    print("\nmemory: pqlab's streaming mode on S1 (per-flow summaries, no per-packet arrays):")
    _engine_benchmark().bench_streaming(1e7 if args.quick else args.streaming_packets)
    print(f"total benchmark time {time.perf_counter() - t_start:.0f} s")
    return 0 if ok_1 and ok_big else 1


def _engine_benchmark():
    """benchmarks/engine.py, imported by path (benchmarks/ is not a package): one streaming
    benchmark."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "pqlab_engine_benchmark", Path(__file__).with_name("engine.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


if __name__ == "__main__":
    sys.exit(main())
