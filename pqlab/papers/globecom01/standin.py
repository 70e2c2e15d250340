"""The note the figures of the GLOBECOM'01 "real" BE size distribution carry (Figs. 4 and 5).

The papers' size distribution was measured on an unpublished trace; pqlab uses a STAND-IN
(``data/be_size_cdf_standin.csv``), and every figure drawn from it says so.
"""

from __future__ import annotations

__all__ = ["STANDIN_NOTE"]

#: What the figures of :mod:`~pqlab.papers.globecom01.globecom01_fig4` and
#: :mod:`~pqlab.papers.globecom01.globecom01_fig5` say of the BE sizes.
STANDIN_NOTE = "STAND-IN 'real' BE sizes (CAIDA AIX 1999 fit), not the papers' trace"
