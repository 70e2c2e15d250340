"""Each test-bed mechanism kept or rejected, with numbers: the frozen preset with one mechanism changed.

For every mechanism of :class:`pqlab.papers.testbed.Testbed` the frozen preset (``TESTBED``) is run with that
mechanism switched off or set to its alternative, on every measured result it can act on (all numeric
results but Fig. 3-1's maxima, which the calibration already settles for the ring), and the count of
results within 10 % and the RMS error are compared with the preset's. Writes
``benchmarks/results/testbed_mechanisms.csv`` (one row per variant and result) and prints the summary.

Run: ``python benchmarks/ablate_testbed.py [--n-ef-samples 3000] [--seed 1]`` (about 80 s).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from pqlab.papers import testbed_eval as te
from pqlab.papers.testbed import TESTBED, testbed

#: Where the benchmarks write their results (benchmarks/results/README.md names each file).
RESULTS_DIR = Path(__file__).resolve().parent / "results"

VARIANTS = {
    "preset": {},
    "hops 0 (path model only)": {"store_forward_hops": 0},
    "hops 2": {"store_forward_hops": 2},
    "no OS tick": {"os_tick_s": 0.0},
    "OS tick 1 ms (1000 Hz)": {"os_tick_s": 0.001},
    "BE per-flow WFQ conversations": {"be_queueing": "flow"},
    "policer counts AAL5 frames": {"police_accounting": "aal5"},
    "policer counts cells": {"police_accounting": "cells"},
    "no input Ethernet port": {"input_ethernet_bps": 0.0},
    "cut-through timestamps": {"timestamp": "cut_through"},
    "no BE MTU cap": {"be_mtu_bytes": 0},
}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-ef-samples", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    t0 = time.time()
    results = [r for r in te.RESULTS if r.artefact != "globecom01_fig3_1"]
    models = {name: testbed(**kw) for name, kw in VARIANTS.items()}
    frame = te.evaluate(models, n_ef_samples=args.n_ef_samples, seeds=(args.seed,), results=results)
    frame.to_csv(RESULTS_DIR / "testbed_mechanisms.csv", index=False, float_format="%.6g")
    rows = []
    for name in models:
        err = frame[f"{name}_err_pct"].to_numpy(float)
        changed = ~np.isclose(frame[name].to_numpy(float), frame["preset"].to_numpy(float), rtol=1e-9, equal_nan=True)
        rows.append({"variant": name, "within_10pct": int(frame[f"{name}_within"].sum()), "total": len(frame),
                     "rms_err_pct": float(np.sqrt(np.nanmean(err**2))), "results_changed": int(changed.sum())})
    pd.set_option("display.width", 250)
    print(pd.DataFrame(rows).to_string(index=False))
    cols = ["artefact", "quantity", "paper"] + [c for n in models for c in (n,)]
    print(frame[cols].to_string())
    print(f"{time.time() - t0:.0f} s; preset {TESTBED}")


if __name__ == "__main__":
    main()
