"""A static HTML site of the paper-vs-reproduced report.

:func:`build_site` writes ``<out_dir>/index.html`` (the verdict counts of every
artefact, grouped by source document, each linked to its section), one page per
source document (GLOBECOM'01, its long version, each TF-TANT document, and pqlab's own
"analysis": the measurement path and the gap notebook) holding, for each artefact, its
figures, the papers' statements, our numbers and the explanations, and links to the
executed notebooks rendered as HTML.

The site is self-contained: figures are copied into ``figures/``, the notebooks into
``notebooks/`` (with the CDN scripts nbconvert adds removed, so they open offline) and
the style sheet is ``style.css``. It uses no JavaScript and no external resources and
works opened from disk (``file://``) or served by any static server.

The document of an artefact comes from the artefact registry
(:func:`pqlab.papers.artefacts.registry.document_of`: its entry, else its id prefix); an unknown
``tftant_<x>_`` prefix gets its own TF-TANT page, and anything else is placed by its
``source`` column, or on an "other" page.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import pandas as pd

from .._version import __version__
from . import numbers, overview, report
from .claims_html import STYLE, artefact_anchor, claims_table, esc, percent_text, plain, verdict_class
from ..papers.artefacts import registry
from ..papers.artefacts.registry import DOCUMENTS, Document

#: Marks a folder written by :func:`build_site`; only such a folder is ever replaced.
MARKER = ".pqlab-site"


_OTHER = Document("other", "Other", "Artefacts of no known source document.")

_EXTERNAL_SCRIPT = re.compile(r"<script\b[^>]*\bsrc\s*=\s*[\"']?(?:https?:)?//[^>]*>\s*</script>", re.I | re.S)
_EXTERNAL_LINK = re.compile(r"<link\b[^>]*\bhref\s*=\s*[\"']?(?:https?:)?//[^>]*>", re.I | re.S)
_SCRIPT_BLOCK = re.compile(r"<script\b[^>]*>.*?</script>", re.I | re.S)
_CDN = re.compile(r"(?:https?:)?//cdn", re.I)


@dataclass
class _Artefact:
    id: str
    document: Document
    rows: list[dict] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)  # source files, PNG first
    links: list[str] = field(default_factory=list)  # their copies, relative to the site
    notebooks: list[str] = field(default_factory=list)  # notebook names mentioning it

    @property
    def anchor(self) -> str:
        return artefact_anchor(self.id)

    @property
    def href(self) -> str:
        return f"{self.document.page}#{self.anchor}"


def build_site(report_table: pd.DataFrame, figures_dir, html_dir, out_dir, *, results_dir=None) -> Path:
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
                artefacts[artefact_id] = _Artefact(artefact_id, _document_of(artefact_id, []))
            artefacts[artefact_id].files = files
    else:
        _match_figures(artefacts, Path(figures_dir))
    _copy_figures(artefacts.values(), out / "figures")
    notebooks = _copy_notebooks(Path(html_dir), out / "notebooks", artefacts.values())
    documents = _documents(artefacts.values())

    (out / "style.css").write_text(STYLE + "\n", encoding="utf-8")
    report_table.to_csv(out / "report.csv", index=False)
    (out / "index.html").write_text(_index_page(report_table, documents, notebooks), encoding="utf-8")
    for document, members in documents:
        page = _document_page(document, members, documents, notebooks)
        (out / document.page).write_text(page, encoding="utf-8")
    return out / "index.html"


# --------------------------------------------------------------------------- gathering


def _fresh_site_folder(out: Path) -> Path:
    if out.exists():
        if not out.is_dir():
            raise ValueError(f"site folder is a file: {out}")
        if (out / MARKER).is_file():
            shutil.rmtree(out)
        elif any(out.iterdir()):
            raise ValueError(f"site folder {out} is not empty and holds no pqlab site; not replacing it")
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text("written by pqlab.pipeline.website.build_site; replaced on every build\n", encoding="utf-8")
    return out


def _artefacts(table: pd.DataFrame) -> dict[str, _Artefact]:
    rows: dict[str, list[dict]] = {}
    for row in table.to_dict("records"):
        rows.setdefault(str(row["artefact"]), []).append(row)
    return {a: _Artefact(a, _document_of(a, [r["source"] for r in rs]), rs) for a, rs in rows.items()}


def _document_of(artefact: str, sources: list) -> Document:
    known = registry.document_of(artefact)
    if known is not None:
        return known
    match = re.match(r"tftant_([A-Za-z0-9]+)_", artefact)
    if match:
        name = match.group(1)
        return Document(f"tftant_{name.lower()}", f"TF-TANT: {name}", f"TF-TANT document \u201c{name}\u201d.",
                        prefixes=(f"tftant_{name}_",))
    for source in sources:
        text = str(source or "").strip()
        for document in DOCUMENTS:
            if document.source_starts and text.startswith(document.source_starts):
                return document
    return _OTHER


def _recorded_figures(results_dir) -> dict[str, list[Path]]:
    if results_dir is None or not Path(results_dir).is_dir():
        return {}
    found = report.figure_files(report.load_records(results_dir))
    return {a: _png_first([Path(p) for p in files if Path(p).is_file()]) for a, files in found.items()}


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


def _copy_notebooks(html_dir: Path, target: Path, artefacts) -> list[str]:
    """Copy the notebooks (external scripts removed); note which artefacts each mentions."""
    sources = sorted(html_dir.glob("*.html")) if html_dir.is_dir() else []
    if not sources:
        return []
    target.mkdir(parents=True, exist_ok=True)
    artefacts = list(artefacts)
    names = []
    for source in sources:
        text = source.read_text(encoding="utf-8", errors="replace")
        name = _safe_name(source.name)
        (target / name).write_text(_offline(text), encoding="utf-8")
        names.append(name)
        words = _DATA_URI.sub("", text)  # embedded images: megabytes that never name an artefact
        for artefact in artefacts:
            if _mentions(words, artefact.id):
                artefact.notebooks.append(name)
    return names


#: Added to each notebook page: a table's one-character cells (an index "k", "1") at least 2 em wide.
NOTEBOOK_STYLE = "<style>table.dataframe th, table.dataframe td { min-width: 2em; }</style>"


def _offline(text: str) -> str:
    """The notebook page without scripts and style sheets fetched from other sites (and with
    :data:`NOTEBOOK_STYLE`)."""
    text = _EXTERNAL_SCRIPT.sub("", text)
    text = _EXTERNAL_LINK.sub("", text)
    text = re.sub(r"</head>", lambda m: NOTEBOOK_STYLE + m.group(0), text, count=1, flags=re.I)
    return _SCRIPT_BLOCK.sub(lambda m: "" if _CDN.search(m.group(0)) else m.group(0), text)


#: An embedded file (``data:image/png;base64,...``) in a notebook's HTML, up to its closing quote.
_DATA_URI = re.compile(r"data:[\w/+.-]+;base64,[A-Za-z0-9+/=\s]*")


def _mentions(text: str, artefact: str) -> bool:
    """Whether a notebook's HTML names the artefact id (quoted, if the id is a plain word)."""
    if artefact not in text:  # a plain substring search first: the patterns below are slow on megabytes
        return False
    word = re.escape(artefact)
    if "_" in artefact:
        return re.search(rf"(?<![A-Za-z0-9_]){word}(?![A-Za-z0-9])", text) is not None
    quote_marks = r"(?:&quot;|&#34;|&#x27;|&#39;|\"|')"
    return re.search(rf"{quote_marks}{word}{quote_marks}", text) is not None


def _documents(artefacts) -> list[tuple[Document, list[_Artefact]]]:
    grouped: dict[str, tuple[Document, list[_Artefact]]] = {}
    for artefact in artefacts:
        grouped.setdefault(artefact.document.key, (artefact.document, []))[1].append(artefact)
    order = [d.key for d in DOCUMENTS]
    keys = sorted(grouped, key=lambda k: (order.index(k) if k in order else len(order), k == "other", k))
    return [(grouped[k][0], sorted(grouped[k][1], key=lambda a: a.id)) for k in keys]


# --------------------------------------------------------------------------- writing


def _safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


def _page(title: str, here: str, documents, body: list[str]) -> str:
    nav = [f'<a class="brand{" here" if here == "index.html" else ""}" href="index.html">pqlab report</a>']
    current = ' class="here"'
    nav += [f'<a{current if here == d.page else ""} href="{d.page}">{esc(d.title)}</a>' for d, _ in documents]
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{esc(title)}</title>\n<link rel=\"stylesheet\" href=\"style.css\">\n</head>\n<body>\n"
        f"<header><nav>{''.join(nav)}</nav></header>\n<main>\n" + "\n".join(body)
        + f"\n<footer>Written by pqlab {esc(__version__)} (<code>pqlab reproduce</code>). "
        "The full table: <a href=\"report.csv\">report.csv</a>.</footer>\n</main>\n</body>\n</html>\n"
    )


def _counts(rows: list[dict]) -> dict[str, int]:
    counts = dict.fromkeys(report.VERDICTS, 0)
    for row in rows:
        counts[row["verdict"]] = counts.get(row["verdict"], 0) + 1
    return counts


def _results(rows: list[dict]) -> list[dict]:
    """The rows counted under the verdicts: measured results and pqlab's own numbers, not setup echoes or analysis."""
    return [r for r in rows if plain(r.get("kind")) not in report.APART]


def _apart(rows: list[dict], group: str) -> tuple[int, int]:
    """(reproduced, rows) among the rows counted apart as ``group`` (``setup``; ``analysis``: analysis and derived)."""
    mine = [r for r in rows if report.APART.get(plain(r.get("kind")) or "") == group]
    return sum(r["verdict"] == "reproduced" for r in mine), len(mine)


def _apart_cell(rows: list[dict], group: str) -> str:
    ok, n = _apart(rows, group)
    return f'<td class="num">{ok} of {n}</td>' if n else '<td class="num zero"></td>'


def _apart_note(rows: list[dict]) -> str:
    """Words for the rows counted apart: ' plus 9 setup echoes (9 echoed) and 12 analysis rows (12 reproduced)'."""
    parts = []
    for group, noun, verb in (("setup", "setup echoes", "echoed"), ("analysis", "analysis rows", "reproduced")):
        ok, n = _apart(rows, group)
        if n:
            parts.append(f"{n} {noun} ({ok} {verb})")
    return f' <span class="note">plus {" and ".join(parts)}</span>' if parts else ""


def _count_cells(counts: dict[str, int]) -> str:
    return "".join(
        f'<td class="num{" " + verdict_class(v) if counts.get(v) else " zero"}">{counts.get(v, 0)}</td>'
        for v in report.VERDICTS
    )


def _badges(counts: dict[str, int]) -> str:
    shown = [f'<span class="badge {verdict_class(v)}">{esc(v)}: {n}</span>' for v, n in counts.items() if n]
    return "".join(shown) or '<span class="badge missing">no claims</span>'


def _model_rows(rows: list[dict], model: str) -> list[dict]:
    return [r for r in rows if r.get("model", report.MODELS[0]) == model]


def _testbed_cell(rows: list[dict]) -> str:
    """The test-bed model's rows of an artefact: reproduced of rows (empty when it has none)."""
    bed = _model_rows(rows, "testbed")
    if not bed:
        return '<td class="num zero"></td>'
    return f'<td class="num">{sum(r["verdict"] == "reproduced" for r in bed)} of {len(bed)}</td>'


def _testbed_badge(rows: list[dict]) -> str:
    bed = _model_rows(rows, "testbed")
    if not bed:
        return ""
    return (f' <span class="badge pqlab-only">test bed: {sum(r["verdict"] == "reproduced" for r in bed)} of '
            f"{len(bed)} reproduced</span>")


def _verdict_table(members: list[_Artefact], *, on_index: bool) -> str:
    """Verdict counts of the papers' node model per artefact, and the test-bed model's reproduced rows.

    The verdict columns count measured results and pqlab's own numbers; setup echoes and the
    papers' own analysis are counted apart (columns "setup": echoed of rows, "analysis":
    reproduced of rows), as in the report.
    """
    head = ("<tr><th>artefact</th>"
            + "".join(f"<th class=\"num\">{esc(v)}</th>" for v in report.VERDICTS)
            + "<th class=\"num\" title=\"setup echoes: echoed of rows\">setup</th>"
            + "<th class=\"num\" title=\"the papers' own analysis: reproduced of rows\">analysis</th>"
            + "<th class=\"num\" title=\"the test-bed model: reproduced of its rows\">test bed</th>"
            + "<th class=\"num\">figures</th></tr>")
    body, total = [], dict.fromkeys(report.VERDICTS, 0)
    for artefact in members:
        node_rows = _model_rows(artefact.rows, report.MODELS[0])
        counts = _counts(_results(node_rows))
        for v, n in counts.items():
            total[v] = total.get(v, 0) + n
        figures = sum(1 for p in artefact.files if p.suffix.lower() == ".png")
        body.append(
            f'<tr><td><a class="id" href="{esc(artefact.href if on_index else "#" + artefact.anchor)}">'
            f"{esc(artefact.id)}</a></td>{_count_cells(counts)}"
            f"{_apart_cell(node_rows, 'setup')}{_apart_cell(node_rows, 'analysis')}{_testbed_cell(artefact.rows)}<td class=\"num\">{figures}</td></tr>"
        )
    every = [r for a in members for r in _model_rows(a.rows, report.MODELS[0])]
    body.append(f'<tr class="total"><td>total</td>'
                f"{_count_cells(total)}{_apart_cell(every, 'setup')}{_apart_cell(every, 'analysis')}"
                f"{_testbed_cell([r for a in members for r in a.rows])}<td class=\"num\">"
                f"{sum(1 for a in members for p in a.files if p.suffix.lower() == '.png')}</td></tr>")
    return "<table class=\"verdicts\">\n<thead>" + head + "</thead>\n<tbody>\n" + "\n".join(body) + "\n</tbody>\n</table>"


def _notebook_list(names: list[str], empty: str) -> str:
    if not names:
        return f"<p class=\"note\">{esc(empty)}</p>"
    items = "".join(f'<li><a href="notebooks/{quote(n)}">{esc(Path(n).stem)}</a></li>' for n in names)
    return f"<ul class=\"files\">{items}</ul>"


_NO_NOTEBOOKS = ("No executed notebooks rendered as HTML were found (nbconvert missing, or no notebook "
                 "ran): the notebooks are not part of this site.")


def _index_page(table: pd.DataFrame, documents, notebooks: list[str]) -> str:
    node = table[table["model"] == report.MODELS[0]]
    rows = node.to_dict("records")
    total = _counts(_results(rows))
    body = [f"<h1>{esc(report.title())}</h1>", report.environment_html(table),
            f"<p class=\"lead\">{esc(overview.opening(table))}</p>", *_overview_html(table),
            "<h2>How to read the verdicts</h2>",
            f"<p>{report.rules_text(lambda v: f'<em>{esc(v)}</em>')}</p>",
            f"<p>{len(_results(rows))} result rows of {esc(report.MODEL_TITLES[report.MODELS[0]])} over "
            f"{node['artefact'].nunique()} artefacts: {_badges(total)}{_apart_note(rows)}</p>",
            "<h3>Verdicts per model and kind of row</h3>", _kind_table(table), _kind_legend(),
            f"<p class=\"note\">Units: {esc(overview.UNIT_NOTE)}</p>"]
    for document, members in documents:
        body += [
            f'<h2><a href="{document.page}">{esc(document.title)}</a></h2>',
            f"<p class=\"note\">{esc(document.reference)}</p>",
            _scroll(_verdict_table(members, on_index=True)),
        ]
    body += ["<h2>Executed notebooks</h2>",
             _notebook_list(notebooks, _NO_NOTEBOOKS)]
    return _page(report.title(), "index.html", documents, body)


def _scroll(table: str) -> str:
    """A wide table in a box of its own that scrolls, never the page (a last resort at small widths)."""
    return f'<div class="scroll">{table}</div>'


def _overview_html(table: pd.DataFrame) -> list[str]:
    """The index's opening tables: measured results per model, the largest misses, the inconsistent results."""
    counts = overview.measured_table(table)
    if counts.empty:
        return []
    head = ("<tr><th>model</th><th>measured results</th>"
            + "".join(f'<th class="num">{esc(v)}</th>' for v in overview.MEASURED_VERDICTS)
            + '<th class="num">total</th></tr>')
    body, previous = [], None
    for r in counts.to_dict("records"):
        cells = "".join(f'<td class="num{" " + verdict_class(v) if r[v] else " zero"}">{r[v]}</td>'
                        for v in overview.MEASURED_VERDICTS)
        model = ""
        if r["model"] != previous:  # the model's name spans its rows
            model = (f'<td rowspan="{int((counts["model"] == r["model"]).sum())}">'
                     f'{esc(report.MODEL_TITLES[r["model"]])}</td>')
        group = ' class="group"' if r["model"] != previous else ""
        previous = r["model"]
        body.append(f"<tr{group}>{model}<td>{esc(overview.ROLE_TITLES[r['role']])}</td>{cells}"
                    f"<td class=\"num\">{r['total']}</td></tr>")
    parts = ["<h2>Measured results per model</h2>",
             _scroll('<table class="measured">\n<thead>' + head + "</thead>\n<tbody>\n" + "\n".join(body)
                     + "\n</tbody>\n</table>")]
    misses = overview.largest_misses(table)
    if not misses.empty:
        rows = "".join(
            f"<tr><td><span class=\"id\">{esc(m['result'])}</span></td>"
            f"<td class=\"num\">{esc(numbers.paper_text(m['paper']))}</td>"
            f"<td class=\"num\">{esc(overview.ours_text(m['ours'], m['paper']))}</td>"
            f"<td>{esc(m['unit'])}</td><td class=\"num\">{esc(percent_text(m['difference %']))}</td>"
            f"<td>{_folded(m['reason'], m['explanation'])}</td></tr>"
            for m in misses.to_dict("records"))
        parts += [f"<h2>Largest misses of {esc(report.MODEL_TITLES['testbed'])}</h2>",
                  '<table class="misses"><colgroup><col class="result"><col class="number"><col class="number">'
                  '<col class="unit"><col class="diff"><col></colgroup>\n<thead><tr><th>result</th>'
                  '<th class="num">paper</th><th class="num">ours</th><th>unit</th><th class="num">difference</th>'
                  "<th>reason</th></tr></thead>\n<tbody>" + rows + "</tbody>\n</table>"]
    sentence, items = overview.inconsistent_results(table)
    if sentence:
        parts += ["<h2>Results no single test bed reproduces together</h2>", f"<p>{esc(sentence)}</p>"]
        if items:
            parts.append('<ul class="inconsistent">' + "".join(f"<li>{esc(i)}</li>" for i in items) + "</ul>")
    return parts


def _folded(shown: str, whole: str) -> str:
    """``shown``, and the whole text in a details element when it says more."""
    if not whole or whole.strip() == shown.strip():
        return esc(shown)
    return f"<details><summary>{esc(shown)}</summary>{esc(whole)}</details>"


def _kind_table(table: pd.DataFrame) -> str:
    by_model = report.model_summary(table)
    rows = [[overview.MODEL_LABELS.get(m, m), *rest] for m, *rest in report.kind_rows(by_model)]
    return _scroll(report.html_table(["model", "kind", *by_model.columns], rows))


def _kind_legend() -> str:
    items = "".join(f"<dt>{esc(k)}</dt><dd>{esc(text)}</dd>" for k, text in overview.kind_legend())
    return f'<dl class="legend">{items}</dl>'


def _document_page(document: Document, members: list[_Artefact], documents, notebooks: list[str]) -> str:
    used = sorted({n for a in members for n in a.notebooks})
    body = [f"<h1>{esc(document.title)}</h1>", f"<p class=\"lead\">{esc(document.reference)}</p>",
            _scroll(_verdict_table(members, on_index=False)), "<h3>Executed notebooks</h3>"]
    if notebooks and not used:
        body.append("<p class=\"note\">No notebook names these artefacts; all executed notebooks:</p>")
        body.append(_notebook_list(notebooks, _NO_NOTEBOOKS))
    else:
        body.append(_notebook_list(used, _NO_NOTEBOOKS))
    body += [_artefact_section(a) for a in members]
    return _page(f"{document.title}: the papers' values and ours", document.page, documents, body)


def _artefact_section(artefact: _Artefact) -> str:
    parts = [f'<section class="artefact" id="{esc(artefact.anchor)}">',
             f"<h2>{esc(artefact.id)}</h2>", f"<p>{_badges(_counts(_results(_model_rows(artefact.rows, report.MODELS[0]))))}"
             + _apart_note(_model_rows(artefact.rows, report.MODELS[0])) + _testbed_badge(artefact.rows) + "</p>"]
    images = [(f, link) for f, link in zip(artefact.files, artefact.links) if f.suffix.lower() == ".png"]
    others = [(f, link) for f, link in zip(artefact.files, artefact.links) if f.suffix.lower() != ".png"]
    if images:
        parts.append('<div class="figures">')
        for file, link in images:
            parts.append(f'<figure><a href="{esc(link)}"><img src="{esc(link)}" '
                         f'alt="{esc(artefact.id)}: {esc(file.name)}"></a>'
                         f"<figcaption>{esc(file.name)}</figcaption></figure>")
        parts.append("</div>")
    else:
        parts.append("<p class=\"note\">No figure for this artefact.</p>")
    if others:
        parts.append("<p>Files: " + ", ".join(f'<a href="{esc(link)}">{esc(f.name)}</a>' for f, link in others)
                     + "</p>")
    if artefact.notebooks:
        parts.append("<p>Notebooks: " + ", ".join(
            f'<a href="notebooks/{quote(n)}">{esc(Path(n).stem)}</a>' for n in artefact.notebooks) + "</p>")
    if artefact.rows:
        parts.append(claims_table(artefact.rows))
    else:
        parts.append("<p class=\"note\">No claims recorded for this artefact.</p>")
    parts.append("</section>")
    return "\n".join(parts)
