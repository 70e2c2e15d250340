"""Regenerate ``be_size_cdf_standin.csv``: the STAND-IN for the papers' "real" BE size CDF.

Run ``python data/make_be_size_cdf_standin.py`` (numpy only). The output is
deterministic; ``data/README.md`` explains every weight. This is NOT the papers'
distribution (which was never published): it is a smooth, multi-modal IP length
distribution fitted by hand to CAIDA's published statistics of the NASA Ames
Internet Exchange (AIX) May 1999 traces.
"""

from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent / "be_size_cdf_standin.csv"

SIZES = np.arange(40, 1501)  # IP lengths, bytes: 40 (bare TCP/IP header) .. 1500 (Ethernet MTU)

#: Point masses (IP length bytes -> probability): the modes of the AIX histogram.
POINT_MASSES = {
    40: 0.330,  # bare TCP ACK/SYN/FIN/RST (20 IP + 20 TCP)
    44: 0.020,  # TCP SYN carrying the 4-byte MSS option
    52: 0.050,  # TCP segment with the 12-byte timestamp option (pure ACK)
    552: 0.030,  # 512-byte MSS + 40
    576: 0.120,  # the default IP datagram size (RFC 879 MSS 536 + 40)
    1500: 0.132,  # Ethernet MTU
}
#: CDF values fixed at segment ends (they set the median and the 75th percentile).
F_93 = 0.5005  # just above 0.5 at 93 bytes, F(92) < 0.5: the median is 93 bytes
F_575 = 0.678  # below 0.75, and F(576) = F_575 + 0.120 = 0.798 > 0.75: the 75th pct is 576


def pmf() -> np.ndarray:
    p = np.zeros(SIZES.size)
    for size, mass in POINT_MASSES.items():
        p[size - 40] += mass

    def smooth(lo, hi, mass):  # density proportional to 1/size on the integers lo..hi
        x = np.arange(lo, hi + 1)
        p[lo - 40 : hi - 40 + 1] += mass * (1.0 / x) / (1.0 / x).sum()

    pm = POINT_MASSES
    smooth(41, 93, F_93 - pm[40] - pm[44] - pm[52])  # 0.1005
    smooth(94, 575, F_575 - F_93 - pm[552])  # 0.1475
    smooth(577, 1499, 1.0 - F_575 - pm[576] - pm[1500])  # 0.0700
    assert abs(p.sum() - 1.0) < 1e-12 and np.all(p >= 0)
    return p


HEADER = """\
# STAND-IN best-effort (BE) IP packet length distribution -- NOT the papers' data.
#
# Ferrari, Pau, Raffaelli (GLOBECOM'01 Sec. IV-B / Fig. 4; long version Sec. 5.2 / Fig. 4)
# drew BE sizes from a "real" CDF measured over more than 100 billion packets on an
# intercontinental link (both directions). That CDF was never published (only plotted),
# so pqlab uses this stand-in. The papers' own trace differs from it.
#
# Fitted by hand to CAIDA's published statistics of the NASA Ames Internet Exchange (AIX)
# traces of 13-19 May 1999 (39 traces, 127,710,031 packets; CAIDA "Packet Length
# Distributions", https://www.caida.org/research/traffic-analysis/AIX/plen_hist/; see also
# S. McCreary, k. claffy, "Trends in wide area IP traffic patterns - A view from Ames
# Internet Exchange", ITC Specialist Seminar on IP Traffic Measurement, Modeling and
# Management, Monterey CA, Sep. 2000):
#   percentiles 5th 40, 25th 40, median 93, 75th 576, 95th 1500 bytes; mean 413, SD 509;
#   modes at 40, 552/576 and 1500 bytes.
#
# Construction (data/make_be_size_cdf_standin.py; details in data/README.md):
#   point masses  40: 0.330   44: 0.020   52: 0.050   552: 0.030   576: 0.120   1500: 0.132
#   smooth remainder, density ~ 1/size on every integer of each segment:
#     41..93: 0.1005 (so F(93) = 0.5005, F(92) < 0.5),  94..575: 0.1475 (so F(575) = 0.678),
#     577..1499: 0.0700 (so F(1499) = 0.868)
# Resulting quantiles (q_p = min{x : F(x) >= p}): q_0.05 = q_0.25 = 40, q_0.5 = 93,
#   q_0.75 = 576, q_0.95 = 1500; F(40) = 0.33, F(575) = 0.678, F(576) = 0.798, F(1499) = 0.868.
#   mean MEAN bytes, SD SD bytes (targets 413 and 509).
#
# Columns: size_bytes = IP length (bytes, 40..1500, every integer); cdf = P(size <= size_bytes).
"""


def main() -> None:
    p = pmf()
    cdf = np.cumsum(p)
    cdf[-1] = 1.0
    mean = float((SIZES * p).sum())
    sd = float(np.sqrt(((SIZES - mean) ** 2 * p).sum()))
    header = HEADER.replace("MEAN", f"{mean:.1f}").replace("SD SD", f"SD {sd:.1f}")
    lines = [header, "size_bytes,cdf\n"]
    lines += [f"{s},{c:.12f}\n" for s, c in zip(SIZES[:-1], cdf[:-1])]
    lines.append(f"{SIZES[-1]},1.0\n")
    OUT.write_text("".join(lines))
    print(f"wrote {OUT}: {SIZES.size} sizes, mean {mean:.2f} B, SD {sd:.2f} B")


if __name__ == "__main__":
    main()
