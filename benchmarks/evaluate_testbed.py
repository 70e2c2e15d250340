"""Every measured result of the papers under the papers' node model and the frozen test-bed model.

Writes ``benchmarks/results/testbed_evaluation.csv`` (one row per numeric measured result of
``data/paper_values.csv``: paper, papers_node, testbed, errors, the judge's verdicts, calibration or
held-out, the test bed's spread over seeds and over plausible BE size laws) and
``benchmarks/results/testbed_evaluation.json`` (counts per model and role: the ledger,
:mod:`pqlab.papers.ledger`, the not-checkable row in no count, as the report counts; the
per-hop-count cross table that
shows which results no single hop count reproduces together, the BE laws, seeds, version).

Run: ``python benchmarks/evaluate_testbed.py [--n-ef-samples 10000] [--seeds 1 2 3]`` (about 5-10
minutes on one core).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import pandas as pd

import pqlab
from pqlab.papers import judge, ledger
from pqlab.papers import testbed_eval as te
from pqlab.papers.testbed import PAPERS_NODE, TESTBED, TESTBED_ISSUE13, testbed

#: The models evaluated: the papers' node, issue 13's preset (before issue 31) and the frozen
#: preset.
MODELS = {"papers_node": PAPERS_NODE, "testbed_issue13": TESTBED_ISSUE13, "testbed": TESTBED}

#: Where the benchmarks write their results (benchmarks/results/README.md names each file).
RESULTS_DIR = Path(__file__).resolve().parent / "results"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-ef-samples", type=int, default=10_000)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    args = parser.parse_args(argv)
    n, seeds = args.n_ef_samples, tuple(args.seeds)
    t0 = time.time()
    frame = te.evaluate(MODELS, n_ef_samples=n, seeds=seeds)
    print(f"main table {time.time() - t0:.0f} s", flush=True)
    # spread over seeds (runs are memoised: no extra simulation)
    per_seed = [
        te.evaluate({"testbed": TESTBED}, n_ef_samples=n, seeds=(s,))["testbed"].to_numpy()
        for s in seeds
    ]
    frame["testbed_seed_min"] = np.min(per_seed, axis=0)
    frame["testbed_seed_max"] = np.max(per_seed, axis=0)
    # spread over BE size laws, for the results that use the "real" distribution
    real = [r for r in te.RESULTS if r.uses_real_be]
    law_values = {}
    for name, law in te.plausible_be_laws().items():
        f = te.evaluate(
            {"testbed": TESTBED}, n_ef_samples=n, seeds=seeds[:1], results=real, be_size=law
        )
        law_values[name] = dict(zip(f["quantity"] + "@" + f["artefact"], f["testbed"]))
        print(f"law {name}: {time.time() - t0:.0f} s", flush=True)
    keys = frame["quantity"] + "@" + frame["artefact"]
    frame["testbed_law_min"] = [
        (
            min(v[k] for v in law_values.values())
            if k in law_values[next(iter(law_values))]
            else np.nan
        )
        for k in keys
    ]
    frame["testbed_law_max"] = [
        (
            max(v[k] for v in law_values.values())
            if k in law_values[next(iter(law_values))]
            else np.nan
        )
        for k in keys
    ]
    # the band's point nearest the paper's value, judged by the one tolerance
    frame["testbed_law_band_within"] = [
        bool(np.isfinite(lo) and judge.within(min(max(p, lo), hi), p))
        for lo, hi, p in zip(frame["testbed_law_min"], frame["testbed_law_max"], frame["paper"])
    ]
    # which results each downstream hop count reproduces (the rest of the preset fixed)
    cross_models = {f"hops={h}": testbed(store_forward_hops=h) for h in (0, 1, 2)}
    cross = te.evaluate(cross_models, n_ef_samples=n, seeds=seeds[:1])
    print(f"cross table {time.time() - t0:.0f} s", flush=True)
    frame.to_csv(RESULTS_DIR / "testbed_evaluation.csv", index=False, float_format="%.6g")
    summary = {
        "pqlab_version": pqlab.__version__,
        "n_ef_samples": n,
        "seeds": list(seeds),
        "models": {name: m.to_dict() for name, m in MODELS.items()},
        "counts": te.counts(frame, MODELS).to_dict(orient="records"),
        "be_laws": list(te.plausible_be_laws()),
        "be_law_values": law_values,
        "cross_hops": {
            "within": {
                m: dict(
                    zip(cross["artefact"] + "/" + cross["quantity"], cross[f"{m}_within"].map(bool))
                )
                for m in cross_models
            },
            "err_pct": {
                m: dict(zip(cross["artefact"] + "/" + cross["quantity"], cross[f"{m}_err_pct"]))
                for m in cross_models
            },
            "counts": te.counts(cross, cross_models).to_dict(orient="records"),
        },
        "wall_time_s": round(time.time() - t0, 1),
    }
    (RESULTS_DIR / "testbed_evaluation.json").write_text(
        json.dumps(summary, indent=2, sort_keys=True, default=float) + "\n"
    )
    pd.set_option("display.width", 250)
    print(
        frame[
            [
                "artefact",
                "quantity",
                "role",
                "paper",
                "papers_node",
                "papers_node_err_pct",
                "testbed_issue13",
                "testbed_issue13_err_pct",
                "testbed",
                "testbed_err_pct",
                "testbed_law_min",
                "testbed_law_max",
            ]
        ].to_string()
    )
    counts = te.counts(frame, MODELS)
    print(counts.to_string())
    print(ledger.markdown(counts))
    print(te.counts(cross, cross_models).to_string())
    print(f"total {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
