"""The artefacts, found by importing the document folders: id -> module, document, notebook, files.

An *artefact* is one figure or table of a source document (``globecom01_fig7``,
``tftant_slides_ring``, ...) or one of pqlab's own analyses (``gap``). Each is one module,
``pqlab.papers.<document key>.<artefact id>``, that holds everything pqlab does for it:

* ``ARTEFACT = Artefact(__name__, notebook="...")`` at its top: its id (the module's name),
  its document (the folder's name, a key of :data:`DOCUMENTS`) and the notebook that runs it;
* ``compute(...)``: the data (a cached xarray Dataset or a pandas table), ``claims(data)``: its
  claim records (absent for an artefact the papers state nothing measurable about), and
  ``figure(data, ...)``: its matplotlib figure (``ARTEFACT.table``: a table, written as
  ``<id>.md``/``<id>.csv`` by :func:`pqlab.papers.kit.save_table`).

One id everywhere: the module's name, the cache's id, the files ``<figures>/<id>.{png,pdf}`` and
the report rows' ``artefact``. :func:`artefacts` imports every module of every document folder
(the first time it is called) and returns those holding an :class:`Artefact`: a new artefact
module is found without any other file changing. What reads it: the site (which page and
notebook an artefact is on), the provenance attrs of every artefact Dataset (``references``),
``pqlab reproduce --list``, the artefact ids of docs/reproduction.md (checked by the tests)
and the tests.

:func:`declared` reads the same entries from the modules' source, importing none of them (and so
no engine): the ``ARTEFACT = Artefact(__name__, ...)`` statement at the top of each, its arguments
literals. ``pqlab reproduce --list`` prints it; the tests hold it equal to :func:`artefacts`.

An artefact module imports the kit (:mod:`pqlab.papers.kit`), the layers below and modules of
a document folder that hold no artefact (what two artefacts share), never another artefact's
module: its cache key (the source of its import closure, :mod:`pqlab.measure.cache`) then
changes with its own code and what it shares, not with another artefact's.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import pkgutil
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "Document",
    "Artefact",
    "DOCUMENTS",
    "artefacts",
    "declared",
    "declared_artefact",
    "shared_modules",
    "artefact",
    "document",
    "document_of",
    "ids",
    "references",
    "listing",
]

#: The package the document folders are in.
PAPERS_PACKAGE = __name__.rpartition(".")[0]


@dataclass(frozen=True)
class Document:
    """A source document: its folder and site page (``key``), title, full reference.

    ``prefixes``/``ids`` place a report row whose artefact id is not a registered module (a
    row of ``data/paper_values.csv`` nothing computes yet); ``source_starts`` places such a row
    by its ``source`` column. ``cites``: keys of the documents whose references an artefact of
    this document carries in its provenance (pqlab's own analysis cites the papers it explains).
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

    @property
    def package(self) -> str:
        """The package (folder) of the document's artefact modules."""
        return f"{PAPERS_PACKAGE}.{self.key}"

    def holds(self, artefact: str) -> bool:
        """Whether an artefact id belongs to this document by its id or prefix."""
        return artefact in self.ids or artefact.startswith(self.prefixes)


#: The source documents, in the order the site lists them; each has a folder of its key.
DOCUMENTS: tuple[Document, ...] = (
    Document(
        "globecom01",
        "GLOBECOM'01",
        "T. Ferrari, G. Pau, C. Raffaelli, \u201cMeasurement-based analysis of delay in priority "
        "queuing\u201d, IEEE GLOBECOM'01.",
        prefixes=("globecom01_",),
        source_starts=("GLOBECOM",),
    ),
    Document(
        "long",
        "Long version",
        "T. Ferrari, G. Pau, C. Raffaelli, \u201cPriority queueing applied to expedited forwarding:"
        " a measurement-based analysis\u201d, long version of the GLOBECOM'01 paper.",
        prefixes=("long_",),
        source_starts=("long version", "derived from long version"),
    ),
    Document(
        "tftant_wfq",
        "TF-TANT: PQ vs WFQ",
        "TF-TANT test page \u201cPriority Queuing and Weighted Fair Queuing for the support of EF"
        " traffic\u201d.",
        prefixes=("tftant_wfq_",),
        source_starts=("TF-TANT PQ vs WFQ",),
    ),
    Document(
        "tftant_slides",
        "TF-TANT slides",
        "TF-TANT slides \u201cDelay and Delay Variation Measurements in a Differentiated Services "
        "Test Network\u201d (T. Ferrari).",
        prefixes=("tftant_slides_",),
        source_starts=("TF-TANT slides",),
    ),
    Document(
        "tftant_be",
        "TF-TANT: multiple BE streams",
        "TF-TANT test page \u201cPQ performance with multiple BE streams in the background\u201d.",
        prefixes=("tftant_be_",),
        source_starts=("TF-TANT test page 'PQ performance with multiple BE",),
    ),
    Document(
        "analysis",
        "Analysis",
        "pqlab's own analysis: the measurement path the papers describe, and the hypotheses that "
        "explain the gap between the simulated node and the measurements.",
        prefixes=("gap_", "path_"),
        ids=("gap", "path", "testbed_model"),
        cites=("globecom01", "long"),
    ),
)

_DOCUMENTS_BY_KEY = {d.key: d for d in DOCUMENTS}

#: What an artefact module defines for each role (:meth:`Artefact.function`).
ROLES = ("compute", "claims", "figure")


@dataclass(frozen=True)
class Artefact:
    """One artefact: the module holding its computation, claims and figure, and the notebook running
    it.

    Parameters
    ----------
    module : str
        The artefact module's ``__name__``: ``pqlab.papers.<document key>.<artefact id>``.
    notebook : str
        Name (no extension) of the notebook of ``notebooks/`` that runs it.
    table : bool
        The artefact is a table: its ``figure`` is absent and the notebook writes the computed
        table with :func:`pqlab.papers.kit.save_table` as ``<id>.md`` and ``<id>.csv``.

    Raises
    ------
    ValueError
        If ``module`` is not in a document folder of :data:`DOCUMENTS` or ``notebook`` is empty.
    """

    module: str
    notebook: str
    table: bool = False

    def __post_init__(self):
        parts = str(self.module).split(".")
        if (
            len(parts) != len(PAPERS_PACKAGE.split(".")) + 2
            or ".".join(parts[:-2]) != PAPERS_PACKAGE
            or parts[-2] not in _DOCUMENTS_BY_KEY
        ):
            raise ValueError(
                f"module must be {PAPERS_PACKAGE}.<document>.<artefact id> with <document> one of "
                f"{list(_DOCUMENTS_BY_KEY)}, got {self.module!r}"
            )
        if not isinstance(self.notebook, str) or not self.notebook:
            raise ValueError(f"notebook must be a notebook's name, got {self.notebook!r}")

    @property
    def id(self) -> str:
        """The artefact id: the module's own name."""
        return self.module.rpartition(".")[2]

    @property
    def document(self) -> str:
        """Key of the source document: the folder's name."""
        return self.module.split(".")[-2]

    @property
    def source(self) -> Document:
        """The source document (:data:`DOCUMENTS`)."""
        return _DOCUMENTS_BY_KEY[self.document]

    @property
    def output_stem(self) -> str:
        """Stem of the figure or table files: the id."""
        return self.id

    def function(self, role: str):
        """The module's function for ``role`` (``"compute"``, ``"claims"`` or ``"figure"``).

        None for the ``claims`` of an artefact that has none and the ``figure`` of a table.
        """
        if role not in ROLES:
            raise ValueError(f"role must be one of {list(ROLES)}, got {role!r}")
        return getattr(importlib.import_module(self.module), role, None)


@functools.cache
def _found() -> tuple[tuple[Artefact, ...], tuple[str, ...]]:
    """Every module of the document folders, imported once: (the artefacts, the other modules'
    names)."""
    found, shared = [], []
    for doc in DOCUMENTS:
        package = importlib.import_module(doc.package)
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
            module = importlib.import_module(f"{doc.package}.{info.name}")
            entry = getattr(module, "ARTEFACT", None)
            if not isinstance(entry, Artefact):
                shared.append(module.__name__)
                continue
            if entry.module != module.__name__:
                raise ValueError(
                    f"{module.__name__}: ARTEFACT names module {entry.module!r}; "
                    "use Artefact(__name__, ...)"
                )
            found.append(entry)
    return tuple(sorted(found, key=lambda a: (a.notebook, a.id))), tuple(sorted(shared))


def artefacts() -> tuple[Artefact, ...]:
    """Every artefact, by notebook then id: the :class:`Artefact` of every module of the document
    folders.

    Imports those modules the first time it is called (and so the engine they use).
    """
    return _found()[0]


#: The statement that makes a module an artefact, at a line's start.
_DECLARATION = re.compile(r"^ARTEFACT\s*=\s*Artefact\(", re.MULTILINE)


def _declaration(module: str, source: str) -> Artefact | None:
    """The :class:`Artefact` a module's ``ARTEFACT = Artefact(__name__, ...)`` statement makes,
    read from its source; None if it has none; ``ValueError`` if its arguments are not literals."""
    found = _DECLARATION.search(source)
    if found is None:
        return None
    end = found.end()
    depth = 1
    while depth and end < len(source):
        depth += {"(": 1, ")": -1}.get(source[end], 0)
        end += 1
    call = ast.parse(source[found.start() : end]).body[0].value
    if [getattr(a, "id", None) for a in call.args] != ["__name__"]:
        raise ValueError(f"{module}: write ARTEFACT = Artefact(__name__, notebook=..., ...)")
    try:
        options = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    except ValueError:
        raise ValueError(f"{module}: the arguments of Artefact(...) must be literals") from None
    return Artefact(module, **options)


@functools.cache
@functools.cache
def declared() -> tuple[Artefact, ...]:
    """Every artefact as its module's source declares it, by notebook then id, importing none.

    The same entries as :func:`artefacts` (the tests hold them equal), read with :mod:`ast` from the
    ``ARTEFACT = Artefact(__name__, ...)`` statement of each module of the document folders.
    """
    found = []
    for doc in DOCUMENTS:
        folder = importlib.util.find_spec(doc.package).submodule_search_locations[0]
        for info in pkgutil.iter_modules([folder]):
            path = Path(folder) / f"{info.name}.py"
            entry = (
                _declaration(f"{doc.package}.{info.name}", path.read_text(encoding="utf-8"))
                if path.is_file()
                else None
            )
            if entry is not None:
                found.append(entry)
    return tuple(sorted(found, key=lambda a: (a.notebook, a.id)))


def shared_modules() -> tuple[str, ...]:
    """Names of the modules of the document folders that hold no artefact: what two or more
    artefacts share."""
    return _found()[1]


def declared_artefact(artefact_id: str) -> Artefact | None:
    """The artefact of an id as its module's source declares it (:func:`declared`), importing no
    artefact module; None for an id no module declares."""
    return _declared_by_id().get(artefact_id)


@functools.cache
def _declared_by_id() -> dict[str, Artefact]:
    return {a.id: a for a in declared()}


@functools.cache
def _by_id() -> dict[str, Artefact]:
    return {a.id: a for a in artefacts()}


def ids() -> tuple[str, ...]:
    """Every artefact id, by notebook then id."""
    return tuple(a.id for a in artefacts())


def artefact(artefact_id: str) -> Artefact:
    """The registry entry of ``artefact_id`` (``ValueError`` naming the known ids otherwise)."""
    known = _by_id()
    try:
        return known[artefact_id]
    except (KeyError, TypeError):
        raise ValueError(f"artefact_id must be one of {list(known)}, got {artefact_id!r}") from None


def document(key: str) -> Document:
    """The source document of key ``key`` (``ValueError`` naming the known keys otherwise)."""
    try:
        return _DOCUMENTS_BY_KEY[key]
    except (KeyError, TypeError):
        raise ValueError(f"key must be one of {list(_DOCUMENTS_BY_KEY)}, got {key!r}") from None


def document_of(artefact_id: str) -> Document | None:
    """The source document of an artefact id: its module's folder, else the first whose prefix it
    has.

    Reads the artefact modules' declarations (:func:`declared`, as text) only when the id's prefix
    names no document: it imports no artefact module.
    """
    by_prefix = next((d for d in DOCUMENTS if d.holds(str(artefact_id))), None)
    if by_prefix is not None:
        return by_prefix
    entry = declared_artefact(artefact_id)
    return None if entry is None else entry.source


def references(artefact_id: str) -> str:
    """Full reference(s) an artefact's Dataset carries: those its document cites, else its own.

    ``"; "``-joined; an id of no known document gets every paper's reference
    (:data:`DOCUMENTS` with no ``cites``).
    """
    found = document_of(artefact_id)
    if found is None:
        return "; ".join(d.reference for d in DOCUMENTS if not d.cites)
    return (
        "; ".join(_DOCUMENTS_BY_KEY[k].reference for k in found.cites)
        if found.cites
        else found.reference
    )


def listing() -> str:
    """One line per artefact: id, source document, notebook and module (``pqlab reproduce --list``).

    Read from the modules' source (:func:`declared`): no artefact module is imported.
    """
    entries = declared()
    width = max(len(a.id) for a in entries)
    return "\n".join(
        f"{a.id:<{width}}  {a.source.title:<28}  {a.notebook:<38}  {a.module}" for a in entries
    )
