"""Each test-bed mechanism alone, with numbers: the frozen preset with one mechanism changed (issue
31's ablation).

For every mechanism of :class:`pqlab.papers.testbed.Testbed` the frozen preset (``TESTBED``) is run
with that
mechanism switched off or set to an alternative inside its plausible range (docs/testbed.md), on
every numeric
measured result, next to issue 13's preset (before issue 31), and the count of results within 10 %
and the RMS
error are compared with the preset's. Writes ``benchmarks/results/testbed_mechanisms.csv`` (one
column per
variant, one row per result) and prints the summary.

Run: ``python benchmarks/ablate_testbed.py [--n-ef-samples 3000] [--seed 1]`` (a few minutes on one
core).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from pqlab.papers import testbed_eval as te
from pqlab.papers.testbed import TESTBED, TESTBED_ISSUE13, testbed

#: Where the benchmarks write their results (benchmarks/results/README.md names each file).
RESULTS_DIR = Path(__file__).resolve().parent / "results"

VARIANTS = {
    "preset": {},
    "issue 13's preset (before issue 31)": "issue13",
    "hops 0 (path model only)": {"store_forward_hops": 0},
    "hops 1": {"store_forward_hops": 1},
    "hops 2": {"store_forward_hops": 2},
    "no adapter (ring released unit by unit)": {"adapter_packets": 0, "ring_release": "unit"},
    "adapter 1 packet": {"adapter_packets": 1, "ring_release": "packet"},
    "adapter 2 packets": {"adapter_packets": 2, "ring_release": "packet"},
    "stand-in BE law": {"be_law": "preset"},
    "bimodal BE law, 40 % small": {"be_law": "bimodal", "be_small_share": 0.4},
    "bimodal BE law, 60 % small": {"be_law": "bimodal", "be_small_share": 0.6},
    "bimodal BE law, 80 % small": {"be_law": "bimodal", "be_small_share": 0.8},
    "extra EF streams of 128-byte frames": {"extra_ef_frame_bytes": 128},
    "extra EF streams of 1518-byte frames": {"extra_ef_frame_bytes": 1518},
    "2 mgen hosts": {"ef_hosts": 2},
    "4 mgen hosts": {"ef_hosts": 4},
    "no OS tick": {"os_tick_s": 0.0},
    "OS tick 1 ms (1000 Hz)": {"os_tick_s": 0.001},
    "policer burst 20 ms": {"police_burst_s": 0.02},
    "policer burst 50 ms": {"police_burst_s": 0.05},
    "policer counts Ethernet frames": {"police_accounting": "frame"},
    "policer counts AAL5 frames": {"police_accounting": "aal5"},
    "policer counts padded AAL5 payloads": {"police_accounting": "aal5_padded"},
    "policer counts cells": {"police_accounting": "cells"},
    "cut-through timestamps": {"timestamp": "cut_through"},
    "cut-through + 2 Mbit/s line time": {"timestamp": "cut_through_plus_line"},
    "stalls of 5 ms every 1 s": {"stall_interval_s": 1.0, "stall_s": 0.005},
    "stalls of 10 ms every 10 s": {"stall_interval_s": 10.0, "stall_s": 0.01},
    "BE per-flow WFQ conversations": {"be_queueing": "flow"},
    "no input Ethernet port": {"input_ethernet_bps": 0.0},
    "no BE MTU cap": {"be_mtu_bytes": 0},
}


def variant_models() -> tuple[dict, dict]:
    """The variants that apply to the frozen preset: name -> Testbed, and name -> why a variant does
    not apply."""
    models, skipped = {}, {}
    for name, kw in VARIANTS.items():
        if kw == "issue13":
            models[name] = TESTBED_ISSUE13
            continue
        if name != "preset" and all(getattr(TESTBED, k) == v for k, v in kw.items()):
            skipped[name] = "the preset's own value"
            continue
        try:
            models[name] = testbed(**kw)
        except ValueError as err:  # e.g. an adapter with per-unit release
            skipped[name] = str(err)
    return models, skipped


def evaluate_each(models: dict, results, n: int, seed: int) -> pd.DataFrame:
    """:func:`pqlab.papers.testbed_eval.evaluate` of every variant, one result at a time: a result a
    variant cannot
    run (a policer accounting that needs one EF packet size where the extra EF streams send another)
    is left NaN
    with the verdict "not run"."""
    frame = None
    for name, model in models.items():
        parts = []
        for r in results:
            try:
                parts.append(
                    te.evaluate({name: model}, n_ef_samples=n, seeds=(seed,), results=(r,))
                )
            except ValueError as err:
                print(f"{name} / {r.artefact}/{r.quantity}: not run ({err})", flush=True)
                parts.append(
                    pd.DataFrame(
                        [
                            {
                                "artefact": r.artefact,
                                "quantity": r.quantity,
                                name: np.nan,
                                f"{name}_err_pct": np.nan,
                                f"{name}_verdict": "not run",
                                f"{name}_within": False,
                            }
                        ]
                    )
                )
        part = pd.concat(parts, ignore_index=True)
        if frame is None:
            frame = part
        else:
            frame = frame.merge(
                part[["artefact", "quantity"] + [c for c in part.columns if c.startswith(name)]],
                on=["artefact", "quantity"],
                how="left",
            )
        print(f"{name}: {int(part[f'{name}_within'].sum())} within 10 %", flush=True)
    return frame


def main(argv=None):
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--n-ef-samples", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    t0 = time.time()
    results = list(te.RESULTS)
    models, skipped = variant_models()
    frame = evaluate_each(models, results, args.n_ef_samples, args.seed)
    frame.to_csv(RESULTS_DIR / "testbed_mechanisms.csv", index=False, float_format="%.6g")
    rows = []
    for name in models:
        err = frame[f"{name}_err_pct"].to_numpy(float)
        changed = ~np.isclose(
            frame[name].to_numpy(float), frame["preset"].to_numpy(float), rtol=1e-9, equal_nan=True
        )
        rows.append(
            {
                "variant": name,
                "within_10pct": int(frame[f"{name}_within"].sum()),
                "total": len(frame),
                "rms_err_pct": float(np.sqrt(np.nanmean(err**2))),
                "results_changed": int(changed.sum()),
            }
        )
    pd.set_option("display.width", 250)
    print(pd.DataFrame(rows).to_string(index=False))
    cols = ["artefact", "quantity", "paper"] + [c for n in models for c in (n,)]
    print(frame[cols].to_string())
    for name, why in skipped.items():
        print(f"not run: {name}: {why}")
    print(f"{time.time() - t0:.0f} s; preset {TESTBED}")


if __name__ == "__main__":
    main()
