"""Start-up and first-use benchmark: what a user waits for before pqlab's first answer.

Every measurement runs in a fresh Python process, ``--runs`` times; the table gives the median
(and the range) with the date and the machine:

* ``import pqlab`` against ``import xarray`` (the import alone, ``time.perf_counter`` in the
  child, and the child's peak resident memory, ``resource.getrusage``), and ``import papermill``
  (the reader of ``pqlab params``), whole and without ``rfc3987_syntax`` as the command imports it;
* ``pqlab --help``, ``pqlab params`` and ``pqlab reproduce --list`` (the whole process, as a
  shell user waits for it);
* the first simulation of a node (the DiffServ router of ``docs/own_router.md``, 2 simulated
  seconds) with numba's on-disk cache cold (an empty ``NUMBA_CACHE_DIR``) and warm (the same
  directory, filled by a previous run);
* the DiffServ lab's first run (``notebooks/lab/05``: :func:`pqlab.lab.diffserv.ef_delays` and
  :func:`pqlab.lab.diffserv.af_colour_drops` at the notebook's defaults), cache cold;
* reading a 10,000-packet pcap with :func:`pqlab.traces.read_trace`, cache cold.

Run: ``python benchmarks/startup.py`` (``--runs 3`` by default; ``--only import,cli`` for a part).

Its last figures, with the machine and the date: docs/performance.md.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: A child's last line: the seconds of what it timed and its peak resident memory, MB.
REPORT = (
    "import json, resource, sys; print(json.dumps({'seconds': seconds, "
    "'rss_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))"
)

IMPORT = (
    "import time; t0 = time.perf_counter(); import {module}; seconds = time.perf_counter() - t0\n"
)

FIRST_SIMULATION = """\
import time
t0 = time.perf_counter()
import pqlab
from pqlab import Deterministic, Node, PoissonStream, Queue, Scenario, CBRStream
queues = (Queue("priority", 20, police_rate_bps=1e6), Queue("wfq", 64, weight_bps=6e6),
          Queue("wfq", 128, weight_bps=4e6))
router = Node(10e6, "ethernet", None, None, queues, ring_limit_packets=4)
streams = [CBRStream(80e3, Deterministic(200), queue=0, flow=k) for k in range(8)]
streams += [PoissonStream(4e6, Deterministic(1300), queue=1, flow=20),
            PoissonStream(8e6, Deterministic(1500), queue=2, flow=30)]
ds = pqlab.simulate(Scenario(router, streams, duration_s=2.0, warmup_s=0.2), seed=1)
seconds = time.perf_counter() - t0
"""

DIFFSERV_LAB = """\
import time
t0 = time.perf_counter()
from pqlab.lab import diffserv
delays = diffserv.ef_delays(ef_frame_bytes=1024, n_ef_samples=2_000, seed=1)
summary = diffserv.ef_summary(delays)
drops = diffserv.af_colour_drops([x * 1e6 for x in (0.2, 0.4, 0.5, 0.6, 0.8, 1.0, 1.4, 2.0)],
                                 seeds=(1,), duration_s=30.0)
seconds = time.perf_counter() - t0
"""

PCAP_READ = """\
import time
t0 = time.perf_counter()
from pqlab import traces
streams = traces.read_trace({path!r})
seconds = time.perf_counter() - t0
"""


def child(code: str, env: dict | None = None) -> dict:
    """Run ``code`` then :data:`REPORT` in a fresh interpreter: its report and its wall time."""
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", code + "\n" + REPORT],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        check=True,
    )
    report = json.loads(out.stdout.strip().splitlines()[-1])
    report["wall"] = time.perf_counter() - t0
    return report


def command(args: list) -> dict:
    """Run the ``pqlab`` console script with ``args``; its wall time."""
    script = Path(sys.executable).with_name("pqlab")
    t0 = time.perf_counter()
    subprocess.run([str(script), *args], capture_output=True, check=True)
    return {"wall": time.perf_counter() - t0, "seconds": None, "rss_mb": None}


def write_pcap(path: Path, n_packets: int = 10_000) -> None:
    """``n_packets`` Ethernet/IPv4/UDP frames of 20 flows, 1,000 a second (dpkt's writer)."""
    import struct

    import dpkt

    ether = bytes.fromhex("020000000002020000000001") + b"\x08\x00"
    with open(path, "wb") as f:
        writer = dpkt.pcap.Writer(f, snaplen=42)
        for i in range(n_packets):
            size, flow = 64 + (i * 37) % 1437, i % 20
            ip = struct.pack(
                "!BBHHHBBH4s4s",
                0x45,
                0,
                size,
                0,
                0,
                64,
                17,
                0,
                bytes([10, 0, 0, 1 + flow]),
                bytes([10, 0, 1, 1]),
            )
            writer.writepkt(
                ether + ip + struct.pack("!HHHH", 5000 + flow, 6000, size - 20, 0),
                ts=1.7e9 + i * 1e-3,
            )


def measure(runs: int, only: set, scratch: Path) -> list:
    """Rows (name, what is timed, list of child reports)."""
    rows = []

    def cold(tag: str, i: int) -> dict:
        folder = scratch / f"{tag}-cold-{i}"
        folder.mkdir()
        return {"NUMBA_CACHE_DIR": str(folder)}

    if "import" in only:
        for module in ("xarray", "pqlab", "numba", "papermill"):
            reports = [child(IMPORT.format(module=module)) for _ in range(runs)]
            rows.append((f"import {module}", "import", reports))
        skip = "import sys; sys.modules['rfc3987_syntax'] = None\n"
        rows.append(
            (
                "import papermill, no rfc3987_syntax",
                "import",
                [child(skip + IMPORT.format(module="papermill")) for _ in range(runs)],
            )
        )
    if "cli" in only:
        for args in (["--help"], ["params"], ["reproduce", "--list"]):
            reports = [command(args) for _ in range(runs)]
            rows.append(("pqlab " + " ".join(args), "process", reports))
    if "simulate" in only:
        rows.append(
            (
                "first simulation, cache cold",
                "import+run",
                [child(FIRST_SIMULATION, cold("sim", i)) for i in range(runs)],
            )
        )
        warm = cold("sim-warm", 0)
        child(FIRST_SIMULATION, warm)
        rows.append(
            (
                "first simulation, cache warm",
                "import+run",
                [child(FIRST_SIMULATION, warm) for _ in range(runs)],
            )
        )
    if "lab" in only:
        rows.append(
            (
                "DiffServ lab first run, cold",
                "import+run",
                [child(DIFFSERV_LAB, cold("lab", i)) for i in range(runs)],
            )
        )
    if "pcap" in only:
        pcap = scratch / "capture.pcap"
        write_pcap(pcap)
        rows.append(
            (
                "pcap read (10,000 packets), cold",
                "import+read",
                [child(PCAP_READ.format(path=str(pcap)), cold("pcap", i)) for i in range(runs)],
            )
        )
    return rows


def table(rows: list, runs: int) -> str:
    """The rows as a fixed-width table with the date and the machine."""
    now = datetime.datetime.now(datetime.timezone.utc)
    lines = [
        (
            f"{now:%Y-%m-%d %H:%M} UTC, {platform.node()}: "
            f"{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}, "
            f"median of {runs} fresh processes (min-max)"
        ),
        f"{'measurement':36s} {'timed':>11s} {'seconds':>22s} {'process s':>9s} {'peak MB':>8s}",
    ]
    for name, timed, reports in rows:
        walls = [r["wall"] for r in reports]
        inner = [r["seconds"] for r in reports if r["seconds"] is not None]
        shown = inner or walls
        rss = [r["rss_mb"] for r in reports if r["rss_mb"] is not None]
        lines.append(
            f"{name:36s} {timed:>11s} {statistics.median(shown):8.2f} "
            f"({min(shown):5.2f}-{max(shown):5.2f}) "
            f"{statistics.median(walls):9.2f} "
            f"{(f'{statistics.median(rss):8.0f}' if rss else '       -')}"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per measurement")
    parser.add_argument(
        "--only",
        default="import,cli,simulate,lab,pcap",
        help="comma-separated parts: import, cli, simulate, lab, pcap",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pqlab-startup-") as scratch:
        rows = measure(args.runs, set(args.only.split(",")), Path(scratch))
    print(table(rows, args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
