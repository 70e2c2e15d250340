"""The static HTML site: built from a small synthetic report, then checked in headless Chromium.

The browser test serves the site with ``http.server`` on 127.0.0.1, crawls every link of
every page (HTTP status via urllib, then each page loaded in Chromium through selenium
and Debian's chromedriver), checks that every ``<img>`` decoded (``naturalWidth > 0``) and
opens ``index.html`` once from disk (``file://``). It is skipped, with the reason, when
Chromium, chromedriver or selenium is missing.
"""

from __future__ import annotations

import ast
import functools
import http.server
import re
import threading
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

import matplotlib
import pandas as pd
import pytest
from markupsafe import escape

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from _browser import browser_missing, headless_chromium  # noqa: E402

from pqlab.base import locations  # noqa: E402
from pqlab.papers import registry  # noqa: E402
from pqlab.pipeline import claims_html, front_figure, manual, overview, report  # noqa: E402
from pqlab.pipeline import website as site  # noqa: E402

PAPER = pd.DataFrame(
    [
        [
            "globecom01_fig3_1",
            "local_max_be_payload_1",
            "485",
            "bytes",
            "GLOBECOM'01 Fig. 3-1",
            "local maxima at 485 & 1000 bytes <b>not bold</b>",
        ],
        [
            "globecom01_fig3_1",
            "sawtooth_shape",
            "",
            "-",
            "GLOBECOM'01 Sec. IV-A",
            "a saw-tooth shape",
        ],
        ["globecom01_tab4", "w_k1", "10.1", "ms", "GLOBECOM'01 Table IV", "W for k = 1"],
        [
            "long_ipdv_vs_a",
            "mean_ipdv_a_0",
            "3.63",
            "ms",
            "long version Sec. 6.2",
            "mean IPDV 3.63 ms at A = 0",
        ],
        [
            "tftant_wfq_fig1",
            "pq_below_wfq",
            "",
            "-",
            "TF-TANT PQ vs WFQ page, comments on Fig. 1",
            "PQ beats WFQ",
        ],
        ["tftant_slides_ring", "ring_7", "7", "units", "TF-TANT slides 'Delay ...'", "7 particles"],
        [
            "tftant_be_fig4",
            "two_modes",
            "",
            "-",
            "TF-TANT test page 'PQ performance with multiple BE streams'",
            "two modes",
        ],
        ["path", "rtt_64_byte_packet", "2", "ms", "GLOBECOM'01 Sec. III", "RTT about 2 ms"],
        ["odd id/with space", "x", "1", "ms", "somewhere else", "an artefact of no known document"],
    ],
    columns=list(report.PAPER_COLUMNS),
)
RESULTS = pd.DataFrame(
    [
        ["globecom01_fig3_1", "local_max_be_payload_1", 484.0, "bytes", "IP 512 bytes", None, 1],
        ["globecom01_fig3_1", "sawtooth_shape", None, "-", "saw-tooth holds", True, 1],
        [
            "globecom01_tab4",
            "w_k1",
            8.0,
            "ms",
            "<script>alert(1)</script> lower than measured",
            None,
            1,
        ],
        ["long_ipdv_vs_a", "mean_ipdv_a_0", 3.7, "ms", "close", None, 2],
        ["gap", "best_hypothesis", None, "-", "H7: store-and-forward hops", None, 1],
    ],
    columns=["artefact", "quantity", "value", "unit", "note", "shape_ok", "seed"],
)
NOTEBOOK = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>03_aggregation</title>
<script src="https://cdnjs.cloudflare.com/ajax/libs/require.js/2.1.10/require.min.js"></script>
<link rel="stylesheet" href="https://cdn.example.org/x.css">
<script type="module">import m from "https://cdnjs.cloudflare.com/ajax/libs/mermaid/11.10.0/mermaid.esm.min.mjs";</script>
</head><body><h1>Aggregation</h1><pre>record_claims(results_dir, &quot;long_ipdv_vs_a&quot;, claims)</pre></body></html>
"""  # noqa: E501


def _png(path: Path, colour: str) -> Path:
    fig, ax = plt.subplots(figsize=(2, 1.5), dpi=50)
    ax.plot([0, 1, 2], [0, 1, 0], color=colour)
    fig.savefig(path)
    plt.close(fig)
    return path


@pytest.fixture(scope="module")
def table():
    return report.compare(report.check_paper_values(PAPER, "PAPER").assign(kind="result"), RESULTS)


@pytest.fixture(scope="module")
def built(tmp_path_factory, table):
    root = tmp_path_factory.mktemp("site")
    figures, html_dir = root / "figures", root / "build" / "html"
    figures.mkdir()
    html_dir.mkdir(parents=True)
    _png(figures / "globecom01_fig3_1.png", "C0")
    (figures / "globecom01_fig3_1.pdf").write_bytes(b"%PDF-1.4 tiny")
    _png(figures / "long_ipdv_vs_a_ccdf.png", "C1")
    (html_dir / "03_aggregation.html").write_text(NOTEBOOK, encoding="utf-8")
    index = site.build_site(table, figures, html_dir, figures / "site")
    return index


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs, self.srcs, self.ids, self.stylesheets, self.images = [], [], set(), [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "link" and attrs.get("href"):
            self.stylesheets.append(attrs["href"])
        if tag == "img":
            self.images.append(attrs)
        if tag in ("a", "link") and attrs.get("href"):
            self.hrefs.append(attrs["href"])
        if tag in ("img", "script") and attrs.get("src"):
            self.srcs.append(attrs["src"])


def _parse(text: str) -> _Links:
    parser = _Links()
    parser.feed(text)
    return parser


def _pages(index: Path) -> list[Path]:
    return sorted(index.parent.glob("*.html"))


#: The manual's site pages (:mod:`pqlab.pipeline.manual`): its contents and one per docs page.
MANUAL_PAGES = {
    manual.CONTENTS,
    *(manual.site_name(p.name) for p in locations.docs_dir().glob("*.md")),
}


def _is_manual(name: str) -> bool:
    return name in MANUAL_PAGES


# --------------------------------------------------------------------------- without a browser


def test_site_files_and_documents(built, table):
    out = built.parent
    assert built.name == "index.html"
    names = {p.name for p in _pages(built)}
    assert names == {
        "index.html",
        "globecom01.html",
        "long.html",
        "tftant_wfq.html",
        "tftant_slides.html",
        "tftant_be.html",
        "analysis.html",
        "other.html",
        *MANUAL_PAGES,
    }
    assert (out / "style.css").is_file() and (out / "report.csv").is_file()
    assert sorted(p.name for p in (out / "figures").iterdir()) == [
        "globecom01_fig3_1.pdf",
        "globecom01_fig3_1.png",
        "long_ipdv_vs_a_ccdf.png",
        "paper_vs_ours.png",
    ]
    assert [p.name for p in (out / "notebooks").iterdir()] == ["03_aggregation.html"]
    analysis = (out / "analysis.html").read_text()
    assert 'id="a-gap"' in analysis and 'id="a-path"' in analysis
    assert 'id="a-odd-id-with-space"' in (out / "other.html").read_text()


def test_front_page_lists_every_artefact_with_a_link(built, table):
    front = built.read_text()
    links = _parse(front).hrefs
    for artefact in table["artefact"].unique():
        assert f">{escape(artefact)}</a>" in front
        known = registry.document_of(artefact)
        page = known.page if known is not None else "other.html"
        assert f"{page}#{claims_html.artefact_anchor(artefact)}" in links


def test_text_is_escaped_and_there_is_no_script_or_external_resource(built):
    globecom = (built.parent / "globecom01.html").read_text()
    assert "&lt;b&gt;not bold&lt;/b&gt;" in globecom and "485 &amp; 1000" in globecom
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in globecom
    for page in [*_pages(built), built.parent / "style.css"]:
        text = page.read_text()
        assert "<script" not in text.lower(), page.name
        if _is_manual(page.name):  # the manual links other sites (its references) and loads nothing
            links = _parse(text)
            assert not [r for r in links.srcs + links.stylesheets if "//" in r], page.name
            continue
        assert "http://" not in text and "https://" not in text, page.name
    notebook = (built.parent / "notebooks" / "03_aggregation.html").read_text()
    assert (
        "cdnjs" not in notebook
        and "cdn.example.org" not in notebook
        and "<h1>Aggregation</h1>" in notebook
    )


def test_document_page_has_statement_numbers_explanation_figure_and_notebook(built):
    long_page = (built.parent / "long.html").read_text()
    assert "mean IPDV 3.63 ms at A = 0" in long_page and "long version Sec. 6.2" in long_page
    assert ">3.7<" in long_page and "+1.9 %" in long_page and ">close<" in long_page
    assert 'src="figures/long_ipdv_vs_a_ccdf.png"' in long_page
    # a notebook is linked from an artefact only as the registry's notebook of it (03_aggregation
    # mentions
    # long_ipdv_vs_a in its HTML: that alone links nothing)
    registered = (
        "long_ipdv_vs_a" in registry.ids()
        and registry.artefact("long_ipdv_vs_a").notebook == "03_aggregation"
    )
    section = long_page[long_page.index('id="a-long_ipdv_vs_a"') :]
    assert ('href="notebooks/03_aggregation.html"' in section) == registered
    globecom = (built.parent / "globecom01.html").read_text()
    assert 'href="figures/globecom01_fig3_1.pdf"' in globecom
    assert "check holds" in globecom and 'class="differs"' in globecom


def test_no_notebooks_is_said_and_recorded_figures_are_used(tmp_path, table):
    figures, results = tmp_path / "figures", tmp_path / "results"
    figures.mkdir()
    png = _png(figures / "gap_table_iv.png", "C2")
    _png(figures / "globecom01_fig3_1.png", "C3")  # stale: not recorded in this run
    report.record_figure(results, "gap", [png])
    index = site.build_site(
        table, figures, tmp_path / "no_html", tmp_path / "site", results_dir=results
    )
    front = index.read_text()
    assert "No executed notebooks" in front
    assert 'src="figures/gap_table_iv.png"' in (tmp_path / "site" / "analysis.html").read_text()
    assert "globecom01_fig3_1.png" not in (tmp_path / "site" / "globecom01.html").read_text()
    # rebuilt in place; a folder that holds something else is not replaced
    assert site.build_site(table, figures, tmp_path / "no_html", tmp_path / "site") == index
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "keep.txt").write_text("mine")
    with pytest.raises(ValueError, match="holds no pqlab site"):
        site.build_site(table, figures, tmp_path / "no_html", tmp_path / "other")
    with pytest.raises(ValueError, match="missing columns"):
        site.build_site(table.drop(columns=["verdict"]), figures, tmp_path, tmp_path / "site")


def test_an_artefacts_notebook_is_its_registry_entrys_and_its_document_is_the_registrys(tmp_path):
    """issue 29: the site reads the registry; it finds no artefact in a notebook's HTML and invents
    no document.

    The registered artefact links its registry entry's notebook only (another notebook that prints
    its
    id is not linked from it); an id of no registered document (an unknown ``tftant_<x>_`` prefix)
    is on
    the "other" page, not on a page made up from its prefix.
    """
    entry = registry.artefact("tftant_slides_pq_delay")
    paper = report.check_paper_values(
        pd.DataFrame(
            [
                [entry.id, "q", "1", "ms", "TF-TANT slides", "one"],
                [
                    "tftant_new_fig1",
                    "q",
                    "1",
                    "ms",
                    "a new TF-TANT page",
                    "an id of no registered document",
                ],
            ],
            columns=list(report.PAPER_COLUMNS),
        ),
        "paper",
    )
    table = report.compare(paper, RESULTS.iloc[:0])
    html_dir = tmp_path / "html"
    html_dir.mkdir()
    (html_dir / f"{entry.notebook}.html").write_text(
        "<html><body><h1>runs it, by another name</h1></body></html>"
    )
    (html_dir / "03_aggregation.html").write_text(
        f"<html><body><pre>{entry.id} tftant_new_fig1</pre></body></html>"
    )
    index = site.build_site(table, tmp_path / "figures", html_dir, tmp_path / "site")
    pages = {p.name for p in _pages(index)}
    assert pages - MANUAL_PAGES == {"index.html", entry.source.page, "other.html"}
    page = (tmp_path / "site" / entry.source.page).read_text()
    section = page[page.index(f'id="{claims_html.artefact_anchor(entry.id)}"') :]
    assert f'href="notebooks/{entry.notebook}.html"' in section and "03_aggregation" not in section
    other = (tmp_path / "site" / "other.html").read_text()
    assert (
        'id="a-tftant_new_fig1"' in other and "notebooks/03_aggregation.html" in other
    )  # all notebooks listed


def test_site_places_artefacts_by_the_registry():
    for entry in registry.artefacts():
        assert site.document_of(entry.id, []) is entry.source
    assert site.document_of("tftant_slides_new_thing", []).key == "tftant_slides"
    assert (
        site.document_of("unknown", ["GLOBECOM'01 Fig. 2"]).key == "globecom01"
    )  # by its source column
    assert site.document_of("unknown", []) is site.OTHER


#: A tag of the pages (not the notebook copies' script, link, style and head, which the site
#: rewrites).
_PAGE_TAG = re.compile(
    r"</?(?:html|body|main|nav|header|footer|section|h[1-6]|p|div|span|a|em|code|br|ul|li|dl|dt|dd"
    r"|table|colgroup|col|thead|tbody|tr|th|td|figure|figcaption|img|details|summary)[\s>]"
)


def test_the_pages_tags_are_in_the_templates_not_in_python_strings():
    """issue 29: the site and report.html are rendered from templates; no Python string (f-string or
    not, docstrings aside) of the pipeline's page modules writes a tag of the pages."""
    from pqlab.pipeline import html_pages, runfolder

    found = []
    for module in (site, report, claims_html, overview, html_pages, runfolder):
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        found += [
            f"{module.__name__}:{node.lineno}: {node.value[:60]!r}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and _PAGE_TAG.search(node.value)
        ]
    assert found == []


# --------------------------------------------------------------------------- in Chromium


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server(built):
    handler = functools.partial(_QuietHandler, directory=str(built.parent))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser():
    reason = browser_missing()
    if reason:
        pytest.skip(reason)
    with headless_chromium() as driver:
        yield driver


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


_IMAGES = (
    "return Array.from(document.images).map(i => [i.getAttribute('src'), i.complete,"
    " i.naturalWidth]);"
)
_HREFS = "return Array.from(document.querySelectorAll('a[href]')).map(a => a.href);"


def _check_page_in_browser(driver, url: str) -> list[str]:
    driver.get(url)
    assert driver.execute_script("return document.readyState") == "complete", url
    images = driver.execute_script(_IMAGES)
    bad = [(src, complete, width) for src, complete, width in images if not complete or width <= 0]
    assert not bad, f"{url}: images that did not load: {bad}"
    return images


@pytest.mark.slow  # a browser
def test_every_link_of_the_served_site_resolves_and_every_image_loads(
    built, server, browser, table, tmp_path
):
    seen, queue, images, checked_fragments = set(), [server + "index.html"], 0, 0
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        assert _status(url) == 200, f"{url} does not load"
        if not url.endswith(".html") or "/notebooks/" in url:
            continue
        with urllib.request.urlopen(url, timeout=10) as response:
            text = response.read().decode("utf-8")
        links = _parse(text)
        manual_page = _is_manual(urlsplit(url).path.rsplit("/", 1)[-1])
        for ref in [*links.hrefs, *links.srcs]:
            target = urljoin(url, ref)
            other_site = urlsplit(ref).scheme in ("http", "https", "mailto")
            if manual_page and ref in links.hrefs and other_site:
                continue  # the manual's references to other sites: links, not followed
            assert target.startswith(server), f"{url} links outside the site: {ref}"
            page, fragment = urldefrag(target)
            if fragment:
                with urllib.request.urlopen(page, timeout=10) as response:
                    ids = _parse(response.read().decode("utf-8")).ids
                assert fragment in ids, f"{url}: no element #{fragment} in {page}"
                checked_fragments += 1
            queue.append(page)
        # in the browser: the page renders, every image decoded, every link stays in the site
        images += len(_check_page_in_browser(browser, url))
        hrefs = browser.execute_script(_HREFS)
        assert hrefs and all(h.startswith(server) for h in hrefs if not manual_page), url
        assert "404" not in browser.title and browser.title, url
        name = urlsplit(url).path.strip("/").replace("/", "_")
        assert browser.save_screenshot(str(tmp_path / f"{name}.png")), url
    pages = {urlsplit(u).path for u in seen}
    for document in (
        "globecom01",
        "long",
        "tftant_wfq",
        "tftant_slides",
        "tftant_be",
        "analysis",
        "other",
    ):
        assert f"/{document}.html" in pages
    assert {
        "/figures/globecom01_fig3_1.png",
        "/figures/globecom01_fig3_1.pdf",
        "/notebooks/03_aggregation.html",
        "/style.css",
        "/report.csv",
        "/figures/paper_vs_ours.png",
    } <= pages
    assert {f"/{name}" for name in MANUAL_PAGES} <= pages  # every manual page reached by links
    assert images >= 2 and checked_fragments >= table["artefact"].nunique()
    # the notebook copy loads in the browser too (its CDN scripts were removed)
    browser.get(server + "notebooks/03_aggregation.html")
    assert browser.find_element("tag name", "h1").text == "Aggregation"
    # every artefact's section is in the DOM the browser built
    browser.get(server + "index.html")
    listed = {a.text for a in browser.find_elements("css selector", "table.verdicts a.id")}
    assert listed == set(table["artefact"])


@pytest.mark.slow  # a browser
def test_site_opens_from_disk(built, browser):
    page = built.parent / "long.html"
    images = _check_page_in_browser(browser, page.as_uri())
    assert len(images) == 1
    browser.get(built.as_uri())
    hrefs = browser.execute_script(_HREFS)
    assert hrefs and all(h.startswith("file://") for h in hrefs)
    for href in hrefs:
        assert Path(urllib.request.url2pathname(urlsplit(urldefrag(href)[0]).path)).is_file(), href
    assert "pqlab" in browser.title


def test_the_site_shows_both_models(tmp_path):
    """Test-bed rows: a model column in the claims (one row group per claim), their own count next
    to the
    papers' node verdicts, and the computed opening and per-model table on the index."""
    bed = pd.DataFrame(
        [
            [
                "long_ipdv_vs_a",
                "mean_ipdv_a_0",
                3.6,
                "ms",
                "1 hop, OS tick",
                None,
                1,
                "testbed",
                "held_out",
            ]
        ],
        columns=[
            "artefact",
            "quantity",
            "value",
            "unit",
            "note",
            "shape_ok",
            "seed",
            "model",
            "role",
        ],
    )
    both = pd.concat([RESULTS.assign(model="papers_node", role=None), bed], ignore_index=True)
    paper = report.check_paper_values(PAPER, "PAPER").assign(kind="result")
    table = report.compare(paper, both)
    figures = tmp_path / "figures"
    figures.mkdir()
    index = site.build_site(table, figures, tmp_path / "html", figures / "site")
    page = index.read_text(encoding="utf-8")
    assert escape(overview.opening(table)) in page
    assert (
        "the calibrated test-bed model reproduces 1 of the 1 numbers (all held out) and was "
        "run on no statement" in overview.opening(table)
    )
    assert "<h2>Measured results per model</h2>" in page and "<th>model</th><th>kind</th>" in page
    assert all(
        escape(line) in page.split('<p class="lead">')[0]  # the environment block first
        for line in report.environment_lines(table)
    )
    long_page = (figures / "site" / registry.document("long").page).read_text(encoding="utf-8")
    assert (
        '<td class="num">1 of 1</td>' in long_page
    )  # the test bed's reproduced rows of long_ipdv_vs_a
    assert '<span class="model-name">test bed</span>' in long_page
    assert '<span class="model-name">' + str(escape("papers' node")) + "</span>" in long_page
    assert (
        'rowspan="2"><span class="id">mean_ipdv_a_0</span>' in long_page
    )  # the claim spans both models' rows
    assert "test bed: 1 of 1 reproduced" in long_page


def test_the_site_is_built_without_importing_an_artefact_module():
    """The registry's declarations (read as text) say which notebook shows an artefact."""
    import subprocess
    import sys

    code = (
        "import sys\nfrom pqlab.pipeline import website\nfrom pqlab.papers import registry\n"
        "ids = [a.id for a in registry.declared()]\n"
        "pages = [website._notebook_of(i, [f'{a.notebook}.html' for a in registry.declared()])"
        " for i in ids]\n"
        "docs = [registry.document_of(i) for i in ids]\n"
        "assert all(pages) and all(docs), (pages, docs)\n"
        "folders = tuple(d.package + '.' for d in registry.DOCUMENTS)\n"
        "loaded = [m for m in sys.modules\n"
        "          if m.startswith((*folders, 'matplotlib', 'seaborn'))]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ----------------------------------------------------------------- the manual, the opening figure


def test_every_docs_page_has_a_site_page_whose_links_resolve(built):
    """Each docs/*.md is a page of the site, reached from the navigation's "Manual"; every link
    of the manual to a page or an anchor of the site lands (no 404 among the manual's links)."""
    out = built.parent
    docs = sorted(locations.docs_dir().glob("*.md"))
    assert docs
    contents = _parse((out / manual.CONTENTS).read_text(encoding="utf-8")).hrefs
    for doc in docs:
        assert manual.site_name(doc.name) in contents, doc.name
    for page in [out / "index.html", *(out / manual.site_name(d.name) for d in docs)]:
        assert 'href="manual.html">Manual</a>' in page.read_text(encoding="utf-8"), page.name
    checked = 0
    for name in sorted(MANUAL_PAGES):
        links = _parse((out / name).read_text(encoding="utf-8"))
        for ref in links.hrefs:
            if urlsplit(ref).scheme:
                continue
            target, fragment = urldefrag(ref)
            path = out / (target or name)
            assert path.is_file(), f"{name}: {ref} is not a page of the site"
            if fragment:
                assert fragment in _parse(path.read_text(encoding="utf-8")).ids, f"{name}: {ref}"
            checked += 1
    assert checked > len(docs)


#: A link to another site, kept in the manual.
DOI = "https://doi.org/10.1109/GLOCOM.2001.965892"


def test_the_manual_is_rendered_with_tables_code_and_rewritten_links(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "one.md").write_text(
        "# One page\n\nFirst <b>paragraph</b>.\n\n## A heading, here\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n```python\nx = 1 < 2\n```\n\n"
        "[two](two.md#a-part) [readme](../README.md) [code](../pqlab/cli.py) "
        f"[doi]({DOI}) [here](#a-heading-here)\n",
        encoding="utf-8",
    )
    (docs / "two.md").write_text("# Two\n\n## A part\n\n[one](one.md)\n", encoding="utf-8")
    one, two = manual.pages(docs)
    assert (one.title, one.summary, one.page) == ("One page", "First paragraph.", "manual_one.html")
    body = str(one.body)
    assert "<table>" in body and "<td>1</td>" in body and 'class="language-python"' in body
    assert "x = 1 &lt; 2" in body and "&lt;b&gt;paragraph&lt;/b&gt;" in body  # raw HTML escaped
    assert 'href="manual_two.html#a-part"' in body and 'href="index.html"' in body
    assert f'href="{DOI}"' in body and 'href="#a-heading-here"' in body
    # a file the site lacks: its text without the link
    assert "cli.py" not in body and ">code<" not in body and "code" in body
    assert 'id="a-heading-here"' in body and 'id="a-part"' in str(two.body)
    assert manual.pages(tmp_path / "absent") == [] and manual.pages(None) == []


def test_the_front_page_opens_with_the_papers_values_against_ours(built, table):
    front = built.read_text(encoding="utf-8")
    (img,) = [i for i in _parse(front).images if i["src"] == site.OPENING_FIGURE]
    assert (built.parent / site.OPENING_FIGURE).stat().st_size > 0
    assert front.index(site.OPENING_FIGURE) < front.index("<h2>")  # before any section
    found = front_figure.points(table)
    assert len(found) == 3 and set(found["title"]) == {
        "first delay peak (BE payload)",
        "w k1",
        "mean IPDV, A = 0",
    }  # a title, else spaced
    alt = img["alt"]
    assert "3 measured numbers" in alt and "band of ±10 %" in alt
    assert "The papers' node model: 2 reproduced, 1 differs (of 3)" in alt
    assert "_" not in alt  # words, not ids


def test_the_site_without_a_manual_has_no_manual_entry(tmp_path, table):
    index = site.build_site(
        table, tmp_path / "figures", tmp_path / "html", tmp_path / "site", docs_dir=None
    )
    assert "Manual" not in index.read_text(encoding="utf-8")
    assert not (tmp_path / "site" / manual.CONTENTS).exists()
