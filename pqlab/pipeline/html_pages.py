"""The HTML pages' templates, rendered with Jinja2: the site's pages and ``report.html``.

The templates are the files of ``pqlab/pipeline/templates`` (package data): ``site_page.html``
(a page of the site), ``index.html`` and ``document.html`` (its front page and a source
document's page, :mod:`pqlab.pipeline.website`), ``report.html`` (the standalone report,
:mod:`pqlab.pipeline.report`), the macros they share (``macros.html``, ``site_macros.html``,
``claims.html``: an artefact's claims, laid out by :func:`pqlab.pipeline.claims_html.claim_groups`)
and the style sheet ``style.css`` (:func:`style`). Every value is escaped as HTML
(autoescaping); the Python modules prepare text and numbers, the templates hold every tag.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import PurePath
from urllib.parse import quote

import jinja2
from markupsafe import Markup

from .claims_html import artefact_anchor, verdict_class

#: The templates' folder, inside this package.
TEMPLATES = "templates"
#: The style sheet of the site (written as ``style.css``) and of ``report.html`` (inlined).
STYLE_SHEET = "style.css"


@functools.cache
def environment() -> jinja2.Environment:
    """The Jinja2 environment of the templates: autoescaped, strict about undefined names.

    Filters besides Jinja's own: ``verdict_class`` and ``artefact_anchor``
    (:mod:`pqlab.pipeline.claims_html`), ``urlquote`` (a file name as a URL path) and
    ``stem`` (a file name without its extension).
    """
    env = jinja2.Environment(
        loader=jinja2.PackageLoader(__package__, TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        extensions=["jinja2.ext.do"],
    )
    env.filters.update(
        verdict_class=verdict_class,
        artefact_anchor=artefact_anchor,
        urlquote=quote,
        stem=lambda name: PurePath(str(name)).stem,
    )
    return env


def render(template: str, **context) -> str:
    """The page ``template`` (a file of the templates' folder) rendered with ``context``."""
    return environment().get_template(template).render(**context)


@functools.cache
def style() -> str:
    """The style sheet's text (no trailing newline)."""
    return (
        resources.files(__package__)
        .joinpath(TEMPLATES, STYLE_SHEET)
        .read_text(encoding="utf-8")
        .rstrip("\n")
    )


def style_markup() -> Markup:
    """The style sheet as markup, to inline in a ``<style>`` element unescaped."""
    return Markup(style())
