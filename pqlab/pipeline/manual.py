"""The manual (the Markdown pages of ``docs/``) as pages of the static site.

:func:`pages` reads each ``docs/*.md`` and renders it with mistune (CommonMark with GitHub's
tables and strikethrough; raw HTML in a page is escaped, never passed through). Links are
rewritten for the site: a link to another page of the manual goes to that page's site page
(:func:`site_name`), a link to the README goes to the site's front page, ``http(s)`` and
``mailto`` links and fragments stay, and a link to any other file of the repository (which
the site does not hold) keeps its text without the link. Headings carry GitHub's anchors
(lower case, punctuation removed, spaces as hyphens), so a link to ``page.md#a-heading``
lands on its heading.

The pages ship inside the package as ``pqlab._docs`` (package data, like the notebooks and
the data files: :func:`pqlab.base.locations.docs_dir`), so an installed wheel writes them too.
"""

from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import mistune
from markupsafe import Markup
from mistune.toc import add_toc_hook

#: The manual's contents page in the site.
CONTENTS = "manual.html"
#: What a link to the README goes to: the site's front page.
README_TARGET = "index.html"
_KEEP_SCHEMES = ("http", "https", "mailto")


@dataclass(frozen=True)
class Page:
    """A page of the manual: its source name, site page, title, first paragraph and body."""

    source: str  # e.g. "build.md"
    page: str  # its site page, e.g. "manual_build.html"
    title: str
    summary: str
    body: Markup


def site_name(source: str) -> str:
    """The site page of the manual page ``source`` (``build.md`` -> ``manual_build.html``)."""
    return f"manual_{re.sub(r'[^A-Za-z0-9_-]', '_', Path(source).stem)}.html"


def slug(text: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    words = re.sub(r"[^\w\- ]", "", mistune.toc.striptags(text).strip().lower())
    return words.replace(" ", "-")


def site_link(url: str, sources: set[str]) -> str | None:
    """The site's link for a link of a manual page, or None to keep the text without the link.

    Parameters
    ----------
    url : str
        The link as written in ``docs/<page>.md``.
    sources : set of str
        The manual's page names (``build.md``, ...).
    """
    parts = urlsplit(url)
    if parts.scheme in _KEEP_SCHEMES or (not parts.scheme and not parts.path):
        return url  # another site, or a fragment of this page
    if parts.scheme or parts.netloc:
        return None
    target = posixpath.normpath(posixpath.join("docs", parts.path))
    fragment = f"#{parts.fragment}" if parts.fragment else ""
    if target == "README.md":
        return README_TARGET + fragment
    folder, name = posixpath.split(target)
    if folder == "docs" and name in sources:
        return site_name(name) + fragment
    return None


class _SiteRenderer(mistune.HTMLRenderer):
    """mistune's HTML renderer (raw HTML escaped) with each link rewritten by :func:`site_link`."""

    def __init__(self, sources: set[str]):
        super().__init__(escape=True)
        self.sources = sources

    def link(self, text: str, url: str, title=None) -> str:
        target = site_link(url, self.sources)
        return text if target is None else super().link(text, target, title)


def _markdown(sources: set[str]) -> mistune.Markdown:
    md = mistune.create_markdown(
        renderer=_SiteRenderer(sources), plugins=["table", "strikethrough"]
    )
    add_toc_hook(md, min_level=1, max_level=6, heading_id=lambda token, index: slug(token["text"]))
    return md


def _title_and_summary(text: str, fallback: str) -> tuple[str, str]:
    heading = next((line[2:] for line in text.splitlines() if line.startswith("# ")), fallback)
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text)]
    first = next((p for p in paragraphs if p and p[0].isalnum()), "")
    return _plain(heading), _plain(first)


def _plain(markdown: str) -> str:
    """Markdown's text without its markup (for a title or a summary in the contents)."""
    return html.unescape(mistune.toc.striptags(mistune.html(markdown))).strip().replace("\n", " ")


def pages(docs_dir) -> list[Page]:
    """The manual's pages, rendered, in file-name order; none when ``docs_dir`` is None or absent.

    Parameters
    ----------
    docs_dir : str or os.PathLike or None
        The folder of the manual's Markdown pages (``docs/``).
    """
    if docs_dir is None or not Path(docs_dir).is_dir():
        return []
    files = sorted(Path(docs_dir).glob("*.md"))
    md = _markdown({f.name for f in files})
    out = []
    for file in files:
        text = file.read_text(encoding="utf-8")
        title, summary = _title_and_summary(text, file.stem)
        out.append(Page(file.name, site_name(file.name), title, summary, Markup(md(text))))
    return out
