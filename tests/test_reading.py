"""The published site as a reader reads it: every page of a quick reproduction in headless Chromium.

Each page of ``figures/site`` (the index, one page per source document and the executed
notebooks) and ``figures/report.html`` is opened from disk at a window 800, 1000 and 1400 px
wide and measured by :func:`_page_checks.measure`: it must not scroll sideways, no table cell with
text may be
narrower than :data:`_page_checks.MIN_CELL_PX`, every image must decode, the notebook pages
must be free of IPython's history errors, tracebacks, warnings and temporary or run-folder
paths, and the index must open with a short paragraph and the per-model table. Skipped, with
the reason, when Chromium, chromedriver or selenium is missing.
"""

from __future__ import annotations

import os

import pytest
from _browser import browser_missing, headless_chromium
from _page_checks import MIN_CELL_PX, measure, noise

pytestmark = pytest.mark.skipif(browser_missing() is not None, reason=browser_missing() or "")

#: Window widths a reader is tested at (CSS px).
WIDTHS = (800, 1000, 1400)
#: Longest opening paragraph of the index a reader is asked to read (characters).
LEAD_MAX_CHARS = 600
#: Unit texts that name nothing.
BARE_UNITS = {"1", "unit", "units"}


@pytest.fixture(scope="module")
def site(quick_run):
    result, out = quick_run
    assert result.failures == [], [str(f) for f in result.failures]
    folder = out / "site"
    pages = sorted(folder.glob("*.html")) + sorted(folder.glob("notebooks/*.html"))
    assert (folder / "index.html") in pages and any(p.parent.name == "notebooks" for p in pages)
    return folder, [*pages, out / "report.html"]  # and the standalone report, named ../report.html


@pytest.fixture(scope="module", params=WIDTHS, ids=[f"{w}px" for w in WIDTHS])
def measured(request, site):
    """Every page measured at one window width: {page name: measure(...)}."""
    folder, pages = site
    with headless_chromium(f"{request.param},900") as driver:
        return {os.path.relpath(p, folder): measure(driver, p.as_uri()) for p in pages}


def test_no_page_scrolls_sideways(measured):
    scrolling = {page: m["scroll_px"] for page, m in measured.items() if m["scroll_px"] > 0}
    assert not scrolling, f"pages that scroll sideways (px): {scrolling}"
    boxes = {page: m["overflowing"][:3] for page, m in measured.items() if m["overflowing"]}
    assert not boxes, f"tables or boxes wider than the page ([element, px]): {boxes}"


def test_no_table_cell_is_too_narrow_to_read(measured):
    narrow = {
        page: (len(m["narrow_cells"]), m["narrow_cells"][:3])
        for page, m in measured.items()
        if m["narrow_cells"]
    }
    assert not narrow, (
        f"cells under {MIN_CELL_PX} px with text (count, first three [px, text]): {narrow}"
    )


def test_every_image_loads(measured):
    broken = {page: m["broken_images"] for page, m in measured.items() if m["broken_images"]}
    assert not broken, broken


def test_notebook_pages_show_no_errors_warnings_or_temporary_paths(measured):
    noisy = {
        page: noise(m["text"]) for page, m in measured.items() if page.startswith("notebooks/")
    }
    noisy = {page: found for page, found in noisy.items() if found}
    assert not noisy, noisy


def test_the_index_opens_short_with_the_per_model_table(measured):
    index = measured["index.html"]
    assert index["lead_chars"] is not None and 0 < index["lead_chars"] <= LEAD_MAX_CHARS, index[
        "lead_chars"
    ]
    text = index["text"]
    for words in (
        "Measured results per model",
        "Largest misses",
        "reproduced",
        "not checkable",
        "differs",
        "calibration",
        "held out",
    ):
        assert words in text, words
    # no hop-count listing or claim-id enumeration in the opening
    assert "hops 0." not in text.split("Measured results per model")[0]


def test_the_site_names_every_unit(measured):
    """No bare "1", "unit" or "units" in a claims table's unit column: the reader is told what the
    number counts."""
    bare = {page: sorted(set(m["units"]) & BARE_UNITS) for page, m in measured.items()}
    bare = {page: units for page, units in bare.items() if units}
    assert not bare, bare
