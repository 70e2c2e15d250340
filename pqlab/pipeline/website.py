"""A static HTML site of the paper-vs-reproduced report.

:func:`build_site` writes ``<out_dir>/index.html`` (the verdict counts of every
artefact, grouped by source document, each linked to its section), one page per
source document (GLOBECOM'01, its long version, each TF-TANT document, and pqlab's own
"analysis": the measurement path and the gap notebook) holding, for each artefact, its
figures, the papers' statements, our numbers and the explanations, and a link to the
executed notebook that runs it, rendered as HTML. The front page opens with a figure of the
papers' measured numbers against ours (:mod:`pqlab.pipeline.front_figure`), and the manual
(``docs/*.md``, :mod:`pqlab.pipeline.manual`) is written next to the pages, one page each.

The site is self-contained: figures are copied into ``figures/``, the notebooks into
``notebooks/`` (with the CDN scripts nbconvert adds removed, so they open offline) and
the style sheet is ``style.css``. It uses no JavaScript and no external resources and
works opened from disk (``file://``) or served by any static server. The pages are the
templates ``index.html`` and ``document.html`` (:mod:`pqlab.pipeline.html_pages`); this
module gathers what they show.

What an artefact is comes from the registry (:mod:`pqlab.papers.registry`): its document is
:func:`pqlab.papers.registry.document_of` (its module's folder, else its id's prefix; a row
of no registered document is placed by its ``source`` column, else on an "other" page), its
notebook is its registry entry's (``<notebook>.html``), its figure files are those the run
recorded (:func:`pqlab.papers.records.record_figure`), else ``<id>.*`` and ``<id>_*.*``.
"""

from __future__ import annotations

import functools
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import pandas as pd

from .._version import __version__
from ..base import locations
from ..papers import ledger, registry
from ..papers.registry import DOCUMENTS, Document
from . import front_figure, html_pages, manual, numbers, overview, report
from .claims_html import artefact_anchor, claim_groups, percent_text, plain

#: Marks a folder written by :func:`build_site`; only such a folder is ever replaced.
MARKER = ".pqlab-site"


_EXTERNAL_SCRIPT = re.compile(
    r"<script\b[^>]*\bsrc\s*=\s*[\"']?(?:https?:)?//[^>]*>\s*</script>", re.I | re.S
)
_EXTERNAL_LINK = re.compile(r"<link\b[^>]*\bhref\s*=\s*[\"']?(?:https?:)?//[^>]*>", re.I | re.S)
_SCRIPT_BLOCK = re.compile(r"<script\b[^>]*>.*?</script>", re.I | re.S)
_CDN = re.compile(r"(?:https?:)?//cdn", re.I)


@dataclass
class _Artefact:
    """An artefact as the site shows it: its report rows, its files and the notebook that runs
    it."""

    id: str
    document: Document
    rows: list[dict] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)  # source files, PNG first
    links: list[str] = field(default_factory=list)  # their copies, relative to the site
    notebook: str | None = None  # its registry entry's notebook page, if that notebook ran

    @property
    def anchor(self) -> str:
        return artefact_anchor(self.id)

    @property
    def href(self) -> str:
        return f"{self.document.page}#{self.anchor}"

    @functools.cached_property
    def tally(self) -> "_Tally":
        """Its rows' verdict counts, computed once (the pages read them in several places)."""
        return _Tally.of(self.rows)

    @property
    def figure_count(self) -> int:
        return sum(1 for p in self.files if p.suffix.lower() == ".png")

    @property
    def images(self) -> list[tuple[str, str]]:
        """(file name, link) of its PNG figures."""
        return [
            (f.name, link) for f, link in zip(self.files, self.links) if f.suffix.lower() == ".png"
        ]

    @property
    def others(self) -> list[tuple[str, str]]:
        """(file name, link) of its other files (PDF, CSV, Markdown)."""
        return [
            (f.name, link) for f, link in zip(self.files, self.links) if f.suffix.lower() != ".png"
        ]

    @property
    def claims(self) -> list[dict]:
        return claim_groups(self.rows)


@dataclass(frozen=True)
class _Tally:
    """Verdict counts of some report rows, as the verdict tables and badges show them.

    ``counts``: verdict -> rows of the papers' node model among the measured results and
    pqlab's own numbers (setup echoes and the papers' analysis counted apart);
    ``setup``/``analysis``: (reproduced, rows) of those counted apart; ``testbed``:
    (reproduced, rows) of the test-bed model.
    """

    counts: dict
    setup: tuple[int, int]
    analysis: tuple[int, int]
    testbed: tuple[int, int]

    @classmethod
    def of(cls, rows: list[dict]) -> "_Tally":
        node = _model_rows(rows, report.MODELS[0])
        bed = _model_rows(rows, "testbed")
        return cls(
            _counts(_results(node)), _apart(node, "setup"), _apart(node, "analysis"), _testbed(bed)
        )


@dataclass
class _Page:
    """A source document's page: its artefacts, their totals and the notebooks that run them."""

    document: Document
    members: list[_Artefact]

    @property
    def total(self) -> _Tally:
        return _Tally.of([r for a in self.members for r in a.rows])

    @property
    def notebooks(self) -> list[str]:
        return sorted({a.notebook for a in self.members if a.notebook})


#: The front page's opening figure (:mod:`pqlab.pipeline.front_figure`), in the site.
OPENING_FIGURE = "figures/paper_vs_ours.png"
_DEFAULT_DOCS = object()


def build_site(
    report_table: pd.DataFrame,
    figures_dir,
    html_dir,
    out_dir,
    *,
    results_dir=None,
    parameters=None,
    docs_dir=_DEFAULT_DOCS,
) -> Path:
    """Write the static HTML site of a report.

    Parameters
    ----------
    report_table : pandas.DataFrame
        The report, columns :data:`pqlab.pipeline.report.REPORT_COLUMNS` (as returned by
        :func:`pqlab.pipeline.report.build_report`).
    figures_dir : str or os.PathLike
        Folder of the figures, ``<artefact id>.png`` or ``<artefact id>_<name>.png``
        (with ``.pdf``, ``.csv`` or ``.md`` files of the same name). Used when
        ``results_dir`` is not given or records no figure files.
    html_dir : str or os.PathLike
        Folder of the executed notebooks as HTML (``*.html``); may be absent.
    out_dir : str or os.PathLike
        The site's folder. Replaced if it holds an earlier site; created if absent.
    results_dir : str or os.PathLike, optional
        The run's results folder: the figure files it records per artefact
        (:func:`pqlab.pipeline.report.record_figure`) are used instead of matching file names.
    parameters : dict, optional
        Notebook -> {parameter: value}: the notebooks run with parameters other than their
        defaults, named on the front page next to the environment
        (:func:`pqlab.pipeline.report.environment_lines`).
    docs_dir : str or os.PathLike or None, optional
        The manual's Markdown pages, each written as a page of the site with a "Manual" entry
        in the navigation (:mod:`pqlab.pipeline.manual`); default the installed manual
        (:func:`pqlab.base.locations.docs_dir`); None: no manual.

    Returns
    -------
    pathlib.Path
        ``<out_dir>/index.html``.

    Raises
    ------
    ValueError
        If a report column is missing, or ``out_dir`` exists, is not empty and holds
        no earlier site.
    """
    absent = [c for c in report.REPORT_COLUMNS if c not in report_table.columns]
    if absent:
        raise ValueError(f"report_table is missing columns {absent}")
    out = _fresh_site_folder(Path(out_dir))
    artefacts = _artefacts(report_table)
    recorded = _recorded_figures(results_dir)
    if recorded:
        for artefact_id, files in recorded.items():
            if artefact_id not in artefacts:
                artefacts[artefact_id] = _Artefact(artefact_id, document_of(artefact_id, []))
            artefacts[artefact_id].files = files
    else:
        _match_figures(artefacts, Path(figures_dir))
    _copy_figures(artefacts.values(), out / "figures")
    notebooks = _copy_notebooks(Path(html_dir), out / "notebooks")
    for artefact in artefacts.values():
        artefact.notebook = _notebook_of(artefact.id, notebooks)
    pages = [_Page(document, members) for document, members in _documents(artefacts.values())]

    (out / "style.css").write_text(html_pages.style() + "\n", encoding="utf-8")
    report_table.to_csv(out / "report.csv", index=False)
    docs = manual.pages(locations.docs_dir() if docs_dir is _DEFAULT_DOCS else docs_dir)
    common = {
        "documents": [page.document for page in pages],
        "version": __version__,
        "verdicts": report.VERDICTS,
        "notebooks": notebooks,
        "manual": docs,
    }
    opening_alt = front_figure.draw(report_table, out / OPENING_FIGURE)
    (out / "index.html").write_text(
        html_pages.render(
            "index.html",
            here="index.html",
            **common,
            opening_figure=OPENING_FIGURE if opening_alt else None,
            opening_alt=opening_alt or "",
            **_index_context(report_table, pages, parameters),
        ),
        encoding="utf-8",
    )
    if docs:
        (out / manual.CONTENTS).write_text(
            html_pages.render("manual.html", here=manual.CONTENTS, **common), encoding="utf-8"
        )
    for doc in docs:
        (out / doc.page).write_text(
            html_pages.render("manual_page.html", here=doc.page, doc=doc, **common),
            encoding="utf-8",
        )
    for page in pages:
        (out / page.document.page).write_text(
            html_pages.render("document.html", here=page.document.page, page=page, **common),
            encoding="utf-8",
        )
    return out / "index.html"


# --------------------------------------------------------------------------- gathering


def _fresh_site_folder(out: Path) -> Path:
    if out.exists():
        if not out.is_dir():
            raise ValueError(f"site folder is a file: {out}")
        if (out / MARKER).is_file():
            shutil.rmtree(out)
        elif any(out.iterdir()):
            raise ValueError(
                f"site folder {out} is not empty and holds no pqlab site; not replacing it"
            )
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text(
        "written by pqlab.pipeline.website.build_site; replaced on every build\n", encoding="utf-8"
    )
    return out


def _artefacts(table: pd.DataFrame) -> dict[str, _Artefact]:
    rows: dict[str, list[dict]] = {}
    for row in table.to_dict("records"):
        rows.setdefault(str(row["artefact"]), []).append(row)
    return {
        a: _Artefact(a, document_of(a, [r["source"] for r in rs]), rs) for a, rs in rows.items()
    }


#: The page of the report rows of no registered document and no known source.
OTHER = Document("other", "Other", "Artefacts of no known source document.")


def document_of(artefact: str, sources: list) -> Document:
    """The document whose page shows an artefact's rows.

    Its registry document (:func:`pqlab.papers.registry.document_of`), else the first document
    one of the rows' ``sources`` starts like (``Document.source_starts``), else :data:`OTHER`.
    """
    known = registry.document_of(artefact)
    if known is not None:
        return known
    for source in sources:
        text = str(source or "").strip()
        for document in DOCUMENTS:
            if document.source_starts and text.startswith(document.source_starts):
                return document
    return OTHER


def _notebook_of(artefact: str, notebooks: list[str]) -> str | None:
    """The page of the notebook the registry says runs ``artefact`` if that notebook ran, else None.

    Read from the artefact modules' declarations (:func:`pqlab.papers.registry.declared`): the
    site is written without importing them (and the plotting stack they import).
    """
    entry = registry.declared_artefact(artefact)
    page = None if entry is None else _safe_name(f"{entry.notebook}.html")
    return page if page in notebooks else None


def _recorded_figures(results_dir) -> dict[str, list[Path]]:
    if results_dir is None or not Path(results_dir).is_dir():
        return {}
    found = report.figure_files(report.load_records(results_dir))
    return {
        a: _png_first([Path(p) for p in files if Path(p).is_file()]) for a, files in found.items()
    }


def _match_figures(artefacts: dict[str, _Artefact], figures_dir: Path) -> None:
    """Give each artefact the files ``<id>.*`` / ``<id>_*.*`` of figures_dir (longest id wins)."""
    if not figures_dir.is_dir():
        return
    ids = sorted(artefacts, key=len, reverse=True)
    for png in sorted(figures_dir.glob("*.png")):
        owner = next((a for a in ids if png.stem == a or png.stem.startswith(a + "_")), None)
        if owner is None:
            continue
        siblings = [png.with_suffix(ext) for ext in (".pdf", ".csv", ".md")]
        artefacts[owner].files += [png, *(s for s in siblings if s.is_file())]
    for artefact in artefacts.values():
        artefact.files = _png_first(artefact.files)


def _png_first(files: list[Path]) -> list[Path]:
    return sorted(files, key=lambda p: p.suffix.lower() != ".png")


def _copy_figures(artefacts, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    taken: dict[str, Path] = {}
    for artefact in artefacts:
        for source in artefact.files:
            name = _safe_name(source.name)
            if name in taken and taken[name] != source.resolve():
                name = _safe_name(f"{artefact.id}-{source.name}")
                k = 2
                while name in taken:
                    name, k = _safe_name(f"{artefact.id}-{k}-{source.name}"), k + 1
            if name not in taken:
                shutil.copyfile(source, target / name)
                taken[name] = source.resolve()
            artefact.links.append(f"figures/{quote(name)}")


def _copy_notebooks(html_dir: Path, target: Path) -> list[str]:
    """Copy the executed notebooks' pages (external scripts removed); their names in the site."""
    sources = sorted(html_dir.glob("*.html")) if html_dir.is_dir() else []
    if not sources:
        return []
    target.mkdir(parents=True, exist_ok=True)
    names = []
    for source in sources:
        name = _safe_name(source.name)
        (target / name).write_text(
            _offline(source.read_text(encoding="utf-8", errors="replace")), encoding="utf-8"
        )
        names.append(name)
    return names


#: Added to each notebook page: a table's one-character cells (an index "k", "1") at least 2 em
#: wide.
NOTEBOOK_STYLE = "<style>table.dataframe th, table.dataframe td { min-width: 2em; }</style>"


def _offline(text: str) -> str:
    """The notebook page without scripts and style sheets fetched from other sites (and with
    :data:`NOTEBOOK_STYLE`)."""
    text = _EXTERNAL_SCRIPT.sub("", text)
    text = _EXTERNAL_LINK.sub("", text)
    text = re.sub(r"</head>", lambda m: NOTEBOOK_STYLE + m.group(0), text, count=1, flags=re.I)
    return _SCRIPT_BLOCK.sub(lambda m: "" if _CDN.search(m.group(0)) else m.group(0), text)


def _documents(artefacts) -> list[tuple[Document, list[_Artefact]]]:
    grouped: dict[str, tuple[Document, list[_Artefact]]] = {}
    for artefact in artefacts:
        grouped.setdefault(artefact.document.key, (artefact.document, []))[1].append(artefact)
    order = [d.key for d in DOCUMENTS]
    keys = sorted(
        grouped, key=lambda k: (order.index(k) if k in order else len(order), k == "other", k)
    )
    return [(grouped[k][0], sorted(grouped[k][1], key=lambda a: a.id)) for k in keys]


# --------------------------------------------------------------------------- writing


def _safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


def _counts(rows: list[dict]) -> dict[str, int]:
    counts = dict.fromkeys(report.VERDICTS, 0)
    for row in rows:
        counts[row["verdict"]] = counts.get(row["verdict"], 0) + 1
    return counts


def _results(rows: list[dict]) -> list[dict]:
    """The rows counted under the verdicts: measured results and pqlab's own numbers, not setup
    echoes or analysis."""
    return [r for r in rows if plain(r.get("kind")) not in report.APART]


def _apart(rows: list[dict], group: str) -> tuple[int, int]:
    """(reproduced, rows) among the rows counted apart as ``group`` (``setup``; ``analysis``:
    analysis and derived)."""
    mine = [r for r in rows if report.APART.get(plain(r.get("kind")) or "") == group]
    return sum(r["verdict"] == "reproduced" for r in mine), len(mine)


def _testbed(rows: list[dict]) -> tuple[int, int]:
    """(reproduced, measured results) of the test-bed model's rows: the ledger's
    (:func:`pqlab.papers.ledger.counts`), the not checkable and pqlab's own notes in no count."""
    if not rows:
        return 0, 0
    counted = ledger.counts(pd.DataFrame(rows), ["testbed"])
    if counted.empty:
        return 0, 0
    total = counted[counted["role"] == "all"].iloc[0]
    return int(total["reproduced"]), int(total["total"])


def _model_rows(rows: list[dict], model: str) -> list[dict]:
    return [r for r in rows if r.get("model", report.MODELS[0]) == model]


def _index_context(table: pd.DataFrame, pages: list[_Page], parameters: dict | None = None) -> dict:
    """What the front page shows besides the pages' verdict tables: the opening, the overview, the
    legend."""
    node = table[table["model"] == report.MODELS[0]]
    rows = node.to_dict("records")
    by_model = report.model_summary(table)
    sentence, items = overview.inconsistent_results(table)
    environment, opening, sections = report.opening_parts(table, parameters)
    return {
        "title": report.title(),
        "environment_lines": environment,
        "opening": opening,
        "measured": _measured_rows(table),
        "measured_verdicts": overview.MEASURED_VERDICTS,
        "testbed_title": report.MODEL_TITLES["testbed"],
        "misses": [
            {
                "result": m["result"],
                "paper": numbers.paper_text(m["paper"]),
                "ours": overview.ours_text(m["ours"], m["paper"]),
                "unit": m["unit"],
                "difference": percent_text(m["difference %"]),
                "reason": (
                    f"{m['reason kind']}: {m['reason']}" if m["reason"] else "no reason recorded"
                ),
                "explanation": m["explanation"],
            }
            for m in overview.largest_misses(table).to_dict("records")
        ],
        "inconsistent": sentence,
        "inconsistent_items": items,
        "rule_parts": report.rules_parts(),
        "notes": [p for p in sections if p["key"] in ("borderline", "chosen")],
        "result_count": len(_results(rows)),
        "model_title": report.MODEL_TITLES[report.MODELS[0]],
        "artefact_count": node["artefact"].nunique(),
        "total": _Tally.of(rows),
        "kind_header": ["model", "kind", *by_model.columns],
        "kind_rows": [
            [overview.MODEL_LABELS.get(m, m), *rest] for m, *rest in report.kind_rows(by_model)
        ],
        "kind_legend": overview.kind_legend(),
        "unit_note": overview.UNIT_NOTE,
        "pages": pages,
    }


def _measured_rows(table: pd.DataFrame) -> list[dict]:
    """The rows of the front page's table of measured results per model; a model's name spans its
    rows."""
    counts = overview.measured_table(table)
    out, previous = [], None
    for r in counts.to_dict("records"):
        first = r["model"] != previous
        previous = r["model"]
        out.append(
            {
                "model": report.MODEL_TITLES[r["model"]],
                "rowspan": int((counts["model"] == r["model"]).sum()) if first else 0,
                "role": overview.ROLE_TITLES[r["role"]],
                "counts": [(v, r[v]) for v in overview.MEASURED_VERDICTS],
                "total": r["total"],
            }
        )
    return out
