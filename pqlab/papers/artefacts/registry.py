"""The one list of artefacts: id -> compute, claims, figure, source document, notebook.

An *artefact id* (``globecom01_fig7``, ``tftant_slides_ring``, ...) names one figure or
table of a source document and everything pqlab does for it: the compute function that
returns its data, the claims function that turns the data into claim records, the
figure function, the output files ``<figures>/<stem>.{png,pdf}`` and the notebook section
that runs them. :data:`ARTEFACTS` is that table, in the order of the notebooks;
:data:`DOCUMENTS` lists the source documents with their full references.

What reads it: :mod:`pqlab.pipeline.website` (which page an artefact is on), the provenance attrs of
every artefact Dataset (:func:`pqlab.papers.artefacts._common.provenance` takes the
``references`` from the artefact's document) and ``pqlab reproduce --list``. The report
(:func:`pqlab.pipeline.report.build_report`) does not: it sorts its rows by artefact id.

Functions are named as ``"module:function"`` strings and imported only when asked for
(:meth:`Artefact.function`), so reading the table imports no simulation code.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

__all__ = ["Document", "Artefact", "DOCUMENTS", "ARTEFACTS", "artefact", "document", "document_of",
           "ids", "references", "listing"]


@dataclass(frozen=True)
class Document:
    """A source document: its site page, title, full reference and which artefacts it holds.

    ``prefixes``/``ids`` place an artefact id that is not in :data:`ARTEFACTS` (a new or a
    user's artefact); ``source_starts`` places a report row by its ``source`` column.
    ``cites``: keys of the documents whose references an artefact of this document
    carries in its provenance (pqlab's own analysis cites the papers it explains).
    """

    key: str
    title: str
    reference: str
    prefixes: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    source_starts: tuple[str, ...] = ()
    cites: tuple[str, ...] = ()

    @property
    def page(self) -> str:
        """File name of the document's page of the static site."""
        return f"{self.key}.html"

    def holds(self, artefact: str) -> bool:
        """Whether an artefact id belongs to this document by its id or prefix."""
        return artefact in self.ids or artefact.startswith(self.prefixes)


#: The source documents, in the order the site lists them.
DOCUMENTS: tuple[Document, ...] = (
    Document(
        "globecom01", "GLOBECOM'01",
        "T. Ferrari, G. Pau, C. Raffaelli, \u201cMeasurement-based analysis of delay in priority "
        "queuing\u201d, IEEE GLOBECOM'01.",
        prefixes=("globecom01_",), source_starts=("GLOBECOM",),
    ),
    Document(
        "long", "Long version",
        "T. Ferrari, G. Pau, C. Raffaelli, \u201cPriority queueing applied to expedited forwarding: "
        "a measurement-based analysis\u201d, long version of the GLOBECOM'01 paper.",
        prefixes=("long_",), source_starts=("long version", "derived from long version"),
    ),
    Document(
        "tftant_wfq", "TF-TANT: PQ vs WFQ",
        "TF-TANT test page \u201cPriority Queuing and Weighted Fair Queuing for the support of EF traffic\u201d.",
        prefixes=("tftant_wfq_",), source_starts=("TF-TANT PQ vs WFQ",),
    ),
    Document(
        "tftant_slides", "TF-TANT slides",
        "TF-TANT slides \u201cDelay and Delay Variation Measurements in a Differentiated Services "
        "Test Network\u201d (T. Ferrari).",
        prefixes=("tftant_slides_",), source_starts=("TF-TANT slides",),
    ),
    Document(
        "tftant_be", "TF-TANT: multiple BE streams",
        "TF-TANT test page \u201cPQ performance with multiple BE streams in the background\u201d.",
        prefixes=("tftant_be_",), source_starts=("TF-TANT test page 'PQ performance with multiple BE",),
    ),
    Document(
        "analysis", "Analysis",
        "pqlab's own analysis: the measurement path the papers describe, and the hypotheses that "
        "explain the gap between the simulated node and the measurements.",
        prefixes=("gap_", "path_"), ids=("gap", "path", "testbed_model"), cites=("globecom01", "long"),
    ),
)

_DOCUMENTS_BY_KEY = {d.key: d for d in DOCUMENTS}


@dataclass(frozen=True)
class Artefact:
    """One artefact: where its data, claims and figure are computed and which notebook runs it.

    ``compute``, ``claims`` and ``figure`` are ``"module:function"`` names (``figure`` is
    the function writing a table's files for a table; ``claims`` is None for an artefact
    the papers state nothing measurable about); ``stem`` is the file stem of its figure
    (default: the id).
    """

    id: str
    document: str
    notebook: str
    compute: str
    claims: str | None
    figure: str
    stem: str = ""

    @property
    def source(self) -> Document:
        """The source document (:data:`DOCUMENTS`)."""
        return _DOCUMENTS_BY_KEY[self.document]

    @property
    def output_stem(self) -> str:
        """Stem of the figure or table files."""
        return self.stem or self.id

    def function(self, role: str):
        """The function named for ``role`` (``"compute"``, ``"claims"`` or ``"figure"``), imported now.

        None for the ``claims`` of an artefact that has none.
        """
        if role not in ("compute", "claims", "figure"):
            raise ValueError(f"role must be 'compute', 'claims' or 'figure', got {role!r}")
        if getattr(self, role) is None:
            return None
        module, name = getattr(self, role).split(":")
        return getattr(importlib.import_module(module), name)


#: Artefacts with no claims function: the node schematic only illustrates the papers' Figs. 1-2.
_NO_CLAIMS = ("globecom01_fig1",)


def _entries(document: str, notebook: str, section: str, rows) -> tuple[Artefact, ...]:
    """Entries whose compute, claims and figure functions follow the naming rule of the package."""
    compute, figures = f"pqlab.papers.artefacts.{section}", f"pqlab.papers.figures.{section}"
    return tuple(
        Artefact(aid, document, notebook, f"{compute}:{aid}",
                 None if aid in _NO_CLAIMS else f"pqlab.papers.artefacts.claims.{section}:{aid}_claims", f"{figures}:{figure}")
        for aid, figure in rows
    )


#: Every artefact pqlab reproduces, in notebook order.
ARTEFACTS: tuple[Artefact, ...] = (
    ]),
)

_ARTEFACTS_BY_ID = {a.id: a for a in ARTEFACTS}


def ids() -> tuple[str, ...]:
    """Every artefact id, in notebook order."""
    return tuple(_ARTEFACTS_BY_ID)


def artefact(artefact_id: str) -> Artefact:
    """The registry entry of ``artefact_id`` (``ValueError`` naming the known ids otherwise)."""
    try:
        return _ARTEFACTS_BY_ID[artefact_id]
    except (KeyError, TypeError):
        raise ValueError(f"artefact_id must be one of {list(_ARTEFACTS_BY_ID)}, got {artefact_id!r}") from None


def document(key: str) -> Document:
    """The source document of key ``key`` (``ValueError`` naming the known keys otherwise)."""
    try:
        return _DOCUMENTS_BY_KEY[key]
    except (KeyError, TypeError):
        raise ValueError(f"key must be one of {list(_DOCUMENTS_BY_KEY)}, got {key!r}") from None


def document_of(artefact_id: str) -> Document | None:
    """The source document of an artefact id: its registry entry's, else the first whose prefix it has."""
    entry = _ARTEFACTS_BY_ID.get(artefact_id)
    if entry is not None:
        return entry.source
    return next((d for d in DOCUMENTS if d.holds(artefact_id)), None)


def references(artefact_id: str) -> str:
    """Full reference(s) an artefact's Dataset carries: those its document cites, else its own.

    ``"; "``-joined; an id of no known document gets every paper's reference
    (:data:`DOCUMENTS` with no ``cites``).
    """
    found = document_of(artefact_id)
    if found is None:
        return "; ".join(d.reference for d in DOCUMENTS if not d.cites)
    return "; ".join(_DOCUMENTS_BY_KEY[k].reference for k in found.cites) if found.cites else found.reference


def listing() -> str:
    """One line per artefact: id, source document, notebook and compute function (``pqlab reproduce --list``)."""
    width = max(len(a.id) for a in ARTEFACTS)
    return "\n".join(f"{a.id:<{width}}  {a.source.title:<28}  {a.notebook:<38}  {a.compute}" for a in ARTEFACTS)
