"""GLOBECOM'01 Sec. II-IV: the node, the test parameters and the influence of best-effort traffic.

One compute function per paper artefact id; each builds its scenarios from the
presets of :mod:`pqlab.scenarios`, runs the engine and returns the data (no
plotting, no file output). The figure functions of the same names are in
:mod:`pqlab.papers.figures.background`, the notebooks are ``notebooks/01_background_traffic``
(``globecom01_tab1``, ``globecom01_tab2``, ``globecom01_fig1``, ``globecom01_fig3_1``,
``globecom01_fig3_2``) and ``notebooks/02_real_distribution`` (``globecom01_fig4``,
``globecom01_fig5``).

=====================  ==========================================================
artefact id            what it reproduces
=====================  ==========================================================
``globecom01_tab1``    Table I, test parameters (rendered from the presets)
``globecom01_tab2``    Table II, aggregation test parameters (from the presets)
``globecom01_fig1``    Figs. 1-2, the node: classifier, policer, PQ, WFQ, tx ring, line
``globecom01_fig3_1``  Fig. 3-1, mean EF one-way delay vs deterministic BE payload
``globecom01_fig3_2``  Fig. 3-2, EF delay over time for BE payloads 450 and 475 bytes
``globecom01_fig4``    Fig. 4, the "real" BE size CDF (here the STAND-IN)
``globecom01_fig5``    Fig. 5, EF complementary delay with the (stand-in) real BE sizes
=====================  ==========================================================

The claims, ``<id>_claims(data)`` in :mod:`pqlab.papers.artefacts.claims.background`, turn a
result into claim records (quantity keys and units as in ``data/paper_values.csv``) for
:func:`pqlab.papers.artefacts.record_claims`; the notes are computed from the data. Import
them on their own, ``from pqlab.papers.artefacts.claims import background as bg_claims``:
this module does not import or offer the claims.

The Datasets are in SI units (times in seconds, sizes in bytes; delays of Fig. 5 in
transmission units; each variable's ``units`` attr says which); time attrs end in ``_s``.
The statistics the claims state in the paper's milliseconds (Figs. 3-1 and 3-2) are
computed by the functions of :data:`STATISTICS` from the values in whatever time unit they
hold, once here in seconds and once by the claims from the values converted to ms
(:func:`pqlab.papers.artefacts._common.statistics_in_ms`); their time attrs end in the unit
(``_s`` here, ``_ms`` there). Tables I and II are rendered tables: their columns state
kbit/s as the paper does (converted with :func:`pqlab.base.units.to_kbps`).

The compute functions live in two modules by figure group,
:mod:`~pqlab.papers.artefacts.background_deterministic` (notebook 01) and
:mod:`~pqlab.papers.artefacts.background_real` (notebook 02), over what they share
(:mod:`~pqlab.papers.artefacts.background_common`); this module is the section and re-exports them.
"""

from __future__ import annotations

from .background_common import (PAPER_BE_PAYLOAD_RANGE, PAPER_FIG3_2_PAYLOADS, PAPER_FIG5_THRESHOLD_UNITS,
                                FIG4_PROBABILITIES)  # noqa: F401  (re-exported)
from .background_deterministic import (globecom01_tab1, globecom01_tab2, globecom01_fig1,
                                       globecom01_fig3_1_payloads, globecom01_fig3_1, fig3_1_statistics,
                                       globecom01_fig3_2, fig3_2_statistics)  # noqa: F401  (re-exported)
from .background_real import globecom01_fig4, globecom01_fig5  # noqa: F401  (re-exported)

#: The function that adds each artefact's statistics (in whatever time unit its values hold)
#: to its Dataset; the claims and figures run it on the values in ms
#: (:func:`pqlab.papers.artefacts._common.statistics_in_ms`).
STATISTICS = {
    "globecom01_fig3_1": fig3_1_statistics,
    "globecom01_fig3_2": fig3_2_statistics,
}
