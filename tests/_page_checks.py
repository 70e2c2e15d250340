"""What a reader sees of one page in a real browser: measured by the browser tests of the site.

:func:`measure` loads a page in a selenium driver and returns, as plain Python values, the
things a reader notices first: whether the page scrolls sideways, table cells too narrow to
read, images that did not load, the page's text (for the notebook pages' noise) and the
index's opening paragraph.
"""

from __future__ import annotations

import re

#: Narrowest readable table cell with text in it (CSS px): a cell narrower than this shows
#: its text one or two letters per line.
MIN_CELL_PX = 24

_MEASURE_JS = """
const doc = document.documentElement;
const narrow = [];
for (const cell of document.querySelectorAll('td, th')) {
  const text = cell.innerText.trim();
  if (!text) continue;
  const box = cell.getBoundingClientRect();
  if (box.width > 0 && box.width < arguments[0]) narrow.push([Math.round(box.width * 10) / 10, text.slice(0, 40)]);
}
const broken = [];
for (const img of document.images) {
  if (!img.complete || img.naturalWidth === 0) broken.push(img.getAttribute('src').slice(0, 80));
}
const units = [];
for (const table of document.querySelectorAll('table')) {
  const heads = [...table.querySelectorAll('thead th')].map(th => th.innerText.trim());
  const at = heads.indexOf('unit');
  if (at < 0) continue;
  const marked = table.querySelectorAll('td[data-column="unit"]');
  const cells = marked.length ? [...marked]
    : [...table.querySelectorAll('tbody tr')].map(row => row.children[at]).filter(Boolean);
  for (const cell of cells) units.push(cell.innerText.trim());
}
const boxes = [...document.querySelectorAll('main div.scroll, main table')]
  .filter(e => e.scrollWidth > e.clientWidth + 1)
  .map(e => [e.tagName.toLowerCase() + (e.className ? '.' + e.className : ''), e.scrollWidth - e.clientWidth]);
const lead = document.querySelector('p.lead');
return {
  scroll_px: doc.scrollWidth - doc.clientWidth,
  overflowing: boxes,
  narrow_cells: narrow,
  broken_images: broken,
  units: units,
  lead_chars: lead ? lead.innerText.length : null,
  text: document.body.innerText,
};
"""  # noqa: E501

#: Noise a reader of an executed notebook must not see: IPython's history errors, tracebacks,
#: Python warnings, and absolute paths of temporary or run folders.
NOISE = {
    "IPython history error": re.compile(r"ERROR! Session/line number"),
    "traceback": re.compile(r"Traceback \(most recent call last\)"),
    "warning": re.compile(r"\b[A-Z][A-Za-z]*Warning\b|warnings\.warn"),
    "temporary path": re.compile(r"/tmp/|/var/folders/|ipykernel_\d+"),
    "run folder path": re.compile(r"build/runs/|\bruns/\d{8}"),
}


def measure(driver, url: str) -> dict:
    """Load ``url`` and return what a reader would notice.

    Parameters
    ----------
    driver : selenium.webdriver.Remote
        A driver whose window has the width to test.
    url : str
        The page (``file://`` or ``http://``).

    Returns
    -------
    dict
        ``scroll_px`` (how far the page scrolls sideways, CSS px), ``overflowing``
        (``[element, px]`` of every table or scroll box of the site's ``main`` whose content
        is wider than it: a box that scrolls sideways on its own), ``narrow_cells``
        (``[width px, text]`` of every table cell with text narrower than
        :data:`MIN_CELL_PX`), ``broken_images`` (sources of images that did not decode),
        ``units`` (the texts of every table's ``unit`` column: its cells marked
        ``data-column="unit"`` if it has any, else the cells at the header's position),
        ``lead_chars`` (length of the first ``p.lead``, None without one) and ``text``.
    """
    driver.get(url)
    return driver.execute_script(_MEASURE_JS, MIN_CELL_PX)


def noise(text: str) -> dict[str, list[str]]:
    """The :data:`NOISE` found in a page's text: per kind, the lines it is on."""
    found = {}
    for name, pattern in NOISE.items():
        lines = [line.strip()[:160] for line in text.splitlines() if pattern.search(line)]
        if lines:
            found[name] = lines
    return found
