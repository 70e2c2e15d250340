"""GLOBECOM'01 Table II, aggregation test parameters (from the presets).

The artefact's computation (:func:`compute`) and claims (:func:`claims`); a table, written by
the notebook ``notebooks/01_background_traffic`` with :func:`pqlab.papers.kit.save_table`. Its
columns state loads in kbit/s as the paper does (:func:`pqlab.base.units.to_kbps`), sizes in bytes.
"""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from ...base._validate import check_real
from ...base.units import to_kbps
from ...measure import cache, metrics
from .. import kit, presets
from ..registry import Artefact
from ..stated import REF_RATES_BPS
from .stream_columns import frame_bytes, protocol, size_text

__all__ = ["ARTEFACT", "compute", "claims"]

ARTEFACT = Artefact(__name__, notebook="01_background_traffic", table=True)


@cache.artefact(ARTEFACT.id)
def compute(
    *, ref_rates_bps: Sequence[float] = REF_RATES_BPS, n_ef_samples: int = 10_000
) -> pd.DataFrame:
    """GLOBECOM'01 Table II (aggregation test parameters), rendered
    from :func:`pqlab.scenarios.aggregation`.

    Parameters
    ----------
    ref_rates_bps : sequence of float
        Reference stream loads, bit/s, each in (0, 300e3] (default: Table III's 50..300 kbit/s).
    n_ef_samples : int
        Passed to the preset (sets only the duration).

    Returns
    -------
    pandas.DataFrame
        One row per reference load (index ``ref_load_kbps``).
    """
    try:
        rates = [
            float(check_real("ref_rates_bps", r, 0.0, 300e3, strict_minimum=True))
            for r in ref_rates_bps
        ]
    except TypeError:
        raise ValueError(
            f"ref_rates_bps must be a sequence of loads in (0, 300000] bit/s, got {ref_rates_bps!r}"
        ) from None
    if not rates:
        raise ValueError("ref_rates_bps must hold at least one load, got none")
    n = kit.check_n_ef_samples(n_ef_samples)
    rows = []
    for rate in rates:
        sc = presets.aggregation(ref_rate_bps=rate, n_ef_samples=n)
        ef, be = kit.ef_streams(sc), kit.be_streams(sc)
        loads = [kit.frame_rate_bps(s) for s in ef]
        rows.append(
            {
                "EF BA load (kbit/s)": to_kbps(sum(loads)),
                "EF streams": len(ef),
                "Ref. stream load (kbit/s)": to_kbps(loads[0]),
                "Other EF stream load (kbit/s)": to_kbps(loads[1]) if len(loads) > 1 else 0.0,
                "Ref. stream frame size (bytes)": frame_bytes(ef[0]),
                "Aggregation degree A": metrics.aggregation_degree(loads),
                "EF protocol": protocol(ef[0]),
                "BE load (kbit/s)": to_kbps(sum(s.rate_bps for s in be)),
                "BE streams": len(be),
                "BE size distribution": size_text(be[0]),
                "BE size min (bytes)": int(be[0].size.sizes_bytes[0] + be[0].header_bytes),
                "BE size max (bytes)": int(be[0].size.sizes_bytes[-1] + be[0].header_bytes),
            }
        )
    frame = pd.DataFrame(rows, index=pd.Index([to_kbps(r) for r in rates], name="ref_load_kbps"))
    frame.attrs = {
        "artefact": ARTEFACT.id,
        "title": (
            f"{ARTEFACT.id}: aggregation test parameters (GLOBECOM'01 Table II) rendered from "
            "pqlab.scenarios.aggregation"
        ),
        "preset": "pqlab.scenarios.aggregation",
    }
    return frame


def claims(frame: pd.DataFrame) -> list:
    """Claim records of ``globecom01_tab2``."""
    art = ARTEFACT.id
    kit.check_artefact(frame, art)
    ba = frame["EF BA load (kbit/s)"]
    n_ef = frame["EF streams"]
    be_min_paper = kit.paper_value(art, "be_size_min")[0]
    be_max_paper = kit.paper_value(art, "be_size_max")[0]
    be_lo, be_hi = int(frame["BE size min (bytes)"].min()), int(frame["BE size max (bytes)"].max())
    return [
        kit.claim(
            art,
            "ef_ba_load",
            float(ba.mean()),
            "kbit/s",
            f"EF aggregate {ba.min():g}..{ba.max():g} kbit/s over the {len(frame)} presets (their"
            " mean)",
        ),
        kit.claim(
            art,
            "ef_streams",
            None,
            "-",
            f"variable: {', '.join(str(int(v)) for v in n_ef)} EF streams for reference loads "
            f"{', '.join(f'{r:g}' for r in frame.index)} kbit/s (the others share the rest"
            " equally)",
            shape_ok=n_ef.nunique() > 1,
        ),
        kit.claim(
            art,
            "ref_load_min",
            float(frame["Ref. stream load (kbit/s)"].min()),
            "kbit/s",
            "smallest reference load",
        ),
        kit.claim(
            art,
            "ref_load_max",
            float(frame["Ref. stream load (kbit/s)"].max()),
            "kbit/s",
            "largest reference load",
        ),
        kit.claim(
            art,
            "ref_frame_size",
            int(frame["Ref. stream frame size (bytes)"].iloc[0]),
            "bytes",
            "EF frames of 128 bytes (IP 110) in every preset",
        ),
        kit.claim(
            art,
            "be_load_min",
            float(frame["BE load (kbit/s)"].min()),
            "kbit/s",
            f"{int(frame['BE streams'].iloc[0])} BE CBR streams, against the paper's lower bound",
            shape_ok=bool(frame["BE load (kbit/s)"].min() > kit.paper_value(art, "be_load_min")[0]),
        ),
        kit.claim(
            art,
            "be_streams",
            int(frame["BE streams"].iloc[0]),
            "streams",
            "BE streams of the preset",
        ),
        kit.claim(
            art,
            "be_size_min",
            be_lo,
            "bytes",
            f"STAND-IN CDF support starts at {be_lo} bytes (an IP+TCP header), checked against the"
            f" paper's [{be_min_paper:g}, {be_max_paper:g}] label (a range, not a size)",
            shape_ok=be_min_paper <= be_lo <= be_max_paper,
        ),
        kit.claim(
            art, "be_size_max", be_hi, "bytes", "STAND-IN CDF support ends at the Ethernet MTU"
        ),
    ]
