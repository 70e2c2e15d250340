"""Trace reading benchmark: packets per second of :func:`pqlab.traces.read_trace` for CSV, Parquet,
pcap, pcapng.

Writes one synthetic capture of ``--packets`` packets (default 1,000,000: Unix times from
1.7e9 s, IPv4/UDP in 100 flows, DSCP EF in a tenth of them, IP lengths 64-1500 bytes) in the four
formats (the pcap files by dpkt's writers, the tables by pandas; the CSV read by its integer
microseconds and, as ``csv-seconds``, by its decimal seconds; ``csv-exponent``, a file of the same
seconds in exponent form, ``1.700000000000123e+09``), reads each ``--repeats`` times
(best and median) and prints packets per second and the file's size. Then the cost of recording a
trace in a result: ``simulate`` on a 100,000-packet trace with the scenario recorded by its trace's
digest (the default) and in full (``Scenario.to_json(full_traces=True)``, what every result held
before), and the length of each JSON.

Run: ``python benchmarks/traces.py`` (``--packets 100000`` for a quick run); the numbers are
written to ``benchmarks/results/traces.json`` (``--json FILE`` for elsewhere).

Last measured: docs/performance.md, "Engine, peers, traces and sweeps" (2 loaded cores).
"""

from __future__ import annotations

import argparse
import json
import statistics
import struct
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

import pqlab
from pqlab import Node, Scenario, simulate
from pqlab.traces import read_trace

T0_S = 1_700_000_000
#: Where the numbers are written (``--json`` for elsewhere).
RESULT = Path(__file__).resolve().parent / "results" / "traces.json"


def synthetic(n: int, seed: int = 1) -> pd.DataFrame:
    """``n`` packets: Unix time (integer microseconds), IP length, flow (0-99), DSCP."""
    rng = np.random.default_rng(seed)
    gaps = rng.integers(1, 40, n)  # 1-39 us apart: about 50,000 packets/s
    flow = rng.integers(0, 100, n)
    return pd.DataFrame(
        {
            "time_us": T0_S * 1_000_000 + np.cumsum(gaps),
            "size_bytes": rng.integers(64, 1501, n),
            "flow": flow,
            "dscp": np.where(flow % 10 == 0, 46, 0),
        }
    )


def frames(df: pd.DataFrame):
    """Ethernet + IPv4 + UDP frames (headers only past the UDP header: a snap length of 42)."""
    ether = bytes.fromhex("020000000002020000000001") + b"\x08\x00"
    for size, flow, dscp in zip(
        df["size_bytes"].tolist(), df["flow"].tolist(), df["dscp"].tolist()
    ):
        ip = struct.pack(
            "!BBHHHBBH4s4s",
            0x45,
            dscp << 2,
            size,
            0,
            0,
            64,
            17,
            0,
            bytes([10, 0, 0, 1 + flow]),
            bytes([10, 0, 1, 1]),
        )
        yield ether + ip + struct.pack("!HHHH", 5000 + flow, 6000, size - 20, 0)


def write_all(df: pd.DataFrame, folder: Path, formats=("csv", "parquet", "pcap", "pcapng")) -> dict:
    """The capture in ``formats``; returns format -> (path, read_trace keyword arguments)."""
    import dpkt

    table = df.assign(time_s=df["time_us"] / 1e6)
    out = {
        "csv": (folder / "t.csv", dict(time_column="time_us", time_unit="us", flow_column="flow")),
        # the same file's decimal seconds (1700000000.000123: read as exact integer ticks)
        "csv-seconds": (folder / "t.csv", dict(time_column="time_s", flow_column="flow")),
        # the same seconds in exponent form (1.700000000000123e+09: exact integer ticks too)
        "csv-exponent": (folder / "t_e.csv", dict(time_column="time_s", flow_column="flow")),
        "parquet": (
            folder / "t.parquet",
            dict(time_column="time_us", time_unit="us", flow_column="flow"),
        ),
        "pcap": (folder / "t.pcap", {}),
        "pcapng": (folder / "t.pcapng", {}),
    }
    out = {k: v for k, v in out.items() if k in formats}
    if "csv" in out or "csv-seconds" in out:
        table.to_csv(folder / "t.csv", index=False)
    if "csv-exponent" in out:
        digits = df["time_us"].astype(
            str
        )  # 16 digits of microseconds: seconds * 10**9 in exponent form
        exponent = digits.str[0] + "." + digits.str[1:] + "e+09"
        table.drop(columns="time_s").assign(time_s=exponent).to_csv(
            out["csv-exponent"][0], index=False
        )
    if "parquet" in out:
        table.to_parquet(out["parquet"][0])
    times = (df["time_us"] / 1e6).tolist()
    for kind, writer in [
        (k, w) for k, w in (("pcap", dpkt.pcap.Writer), ("pcapng", dpkt.pcapng.Writer)) if k in out
    ]:
        with open(out[kind][0], "wb") as f:
            w = writer(f, snaplen=42) if kind == "pcap" else writer(f)
            for ts, buf in zip(times, frames(df)):
                w.writepkt(buf, ts=ts)
    return out


def timed(fn, repeats: int):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times), result


def recording(n: int, repeats: int) -> dict:
    """``simulate`` on an n-packet trace: the scenario recorded by digest (default) or in full."""
    rng = np.random.default_rng(2)
    trace = pqlab.TraceStream(np.cumsum(rng.exponential(2e-4, n)), rng.integers(64, 1501, n), 0, 0)
    sc = Scenario(
        Node(1e9, "ethernet", None, None, (pqlab.Queue("priority", 1000),), ring_limit_packets=4),
        [trace],
        duration_s=float(trace.arrival_s[-1]) + 1.0,
    )
    simulate(sc, record_scenario=False)  # compiled once before timing
    out = {}
    for label, full in (("digest", False), ("full", True)):

        def run():
            fresh = Scenario(
                sc.node, sc.streams, sc.duration_s
            )  # to_json is cached per scenario object
            ds = simulate(fresh, record_scenario=False)
            ds.attrs["scenario"] = fresh.to_json(full_traces=full)
            return ds

        best, median, ds = timed(run, repeats)
        out[label] = {
            "simulate_s_best": best,
            "simulate_s_median": median,
            "json_bytes": len(ds.attrs["scenario"]),
        }
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--packets", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, default=RESULT)
    parser.add_argument(
        "--formats",
        default="csv,csv-seconds,csv-exponent,parquet,pcap,pcapng",
        help="comma-separated, of the five",
    )
    args = parser.parse_args(argv)
    df = synthetic(args.packets)
    results = {"packets": args.packets, "read": {}}
    with tempfile.TemporaryDirectory() as folder:
        t0 = time.perf_counter()
        files = write_all(df, Path(folder), tuple(args.formats.split(",")))
        print(
            f"wrote {args.packets:,} packets in {len(files)} formats in"
            f" {time.perf_counter() - t0:.1f} s"
        )
        for kind, (path, kw) in files.items():
            best, median, streams = timed(lambda: read_trace(path, **kw), args.repeats)
            assert (
                sum(s.arrival_s.shape[0] for s in streams) == args.packets and len(streams) == 100
            )
            results["read"][kind] = {
                "best_s": best,
                "median_s": median,
                "packets_per_s": args.packets / best,
                "file_bytes": path.stat().st_size,
            }
            print(
                f"{kind:8s} {path.stat().st_size / 2**20:7.1f} MiB  best {best:6.2f} s  median"
                f" {median:6.2f} s  {args.packets / best:12,.0f} packets/s"
            )
    rec = recording(100_000, args.repeats)
    results["record_100k_trace"] = rec
    for label, r in rec.items():
        print(
            f"simulate, 100,000-packet trace, scenario by {label:6s}: best"
            f" {r['simulate_s_best']:.3f} s, attrs['scenario'] {r['json_bytes']:,} bytes"
        )
    results["versions"] = {
        "pqlab": pqlab.__version__,
        "python": sys.version.split()[0],
        **{m: __import__(m).__version__ for m in ("numpy", "pandas", "pyarrow", "dpkt")},
    }
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
