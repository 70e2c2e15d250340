"""The claims of an artefact as HTML, laid out alike in ``report.html`` and on the site.

One table per artefact (:func:`claims_table`: one row group per claim, one row per model;
long statements and explanations folded) and the style sheet both pages use (:data:`STYLE`).
:mod:`pqlab.pipeline.report` (``report.html``) and :mod:`pqlab.pipeline.website` (the document
pages) import it; it imports neither, only the report's overview words and the number formats.
The site's other tables use its cell helpers too (:func:`esc`, :func:`plain`, :func:`percent_text`,
:func:`verdict_class`, :func:`artefact_anchor`): those names are public, the rest stay private.
"""

from __future__ import annotations

import html
import math
import re

import pandas as pd

from . import overview
from .numbers import paper_text, signed_text
from ..papers.records import MODELS

#: The style sheet of ``report.html`` and of the site's pages (the site writes it to ``style.css``).
STYLE = """
:root { --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa; --accent: #0b5cad; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); }
header { background: #24292f; color: #fff; padding: 0.5em clamp(0.8em, 3vw, 2em); }
header nav { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.25em 1.2em; }
header a { color: #fff; text-decoration: none; white-space: nowrap; }
header a.here { border-bottom: 2px solid #fff; }
header .brand { font-weight: 600; margin-right: 0.8em; }
main { max-width: 1280px; margin: 0 auto; padding: 1em clamp(0.8em, 3vw, 2em) 3em; }
h1 { font-size: 1.6em; margin: 0.6em 0 0.2em; }
h2 { font-size: 1.3em; margin: 1.6em 0 0.4em; padding-bottom: 0.2em; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05em; margin: 1.2em 0 0.4em; }
a { color: var(--accent); }
p.lead { font-size: 1.08em; max-width: 46em; margin: 0.4em 0 1em; }
p.note, dl.legend { color: var(--muted); margin: 0.3em 0 1em; }
dl.legend dt { font-weight: 600; float: left; clear: left; margin-right: 0.4em; }
dl.legend dd { margin: 0 0 0.2em; }
.scroll { max-width: 100%; overflow-x: auto; }
table { border-collapse: collapse; margin: 0.6em 0 1em; font-size: 0.9em; }
th, td { border: 1px solid var(--line); padding: 0.3em 0.5em; vertical-align: top; text-align: left; }
th { background: var(--soft); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.verdicts td.num, table.measured td.num { white-space: nowrap; }
table.verdicts td:first-child { overflow-wrap: anywhere; }
td.zero { color: #b0b7bf; }
tr.total td { font-weight: 600; background: var(--soft); }
tr.group td { border-top: 2px solid #9aa5b1; }
table.claims, table.misses { width: 100%; table-layout: fixed; font-size: 0.88em; }
table.claims td, table.misses td { overflow-wrap: anywhere; hyphens: auto; }
table.claims col.claim { width: 24%; } table.claims col.model { width: 5.6em; }
table.claims col.paper { width: 6em; } table.claims col.ours { width: 6.4em; }
table.claims col.unit { width: 4.6em; } table.claims col.diff { width: 6.6em; }
table.claims col.verdict { width: 7.4em; }
table.claims td.num, table.misses td.num { overflow-wrap: normal; }
table.misses col.result { width: 26%; } table.misses col.number { width: 5.5em; }
table.misses col.unit { width: 4.8em; } table.misses col.diff { width: 7em; }
.model-name { font-size: 0.92em; } .role { display: block; color: var(--muted); font-size: 0.85em; }
.source { display: block; color: var(--muted); font-size: 0.85em; margin-top: 0.25em; }
.quote { display: block; margin-top: 0.25em; }
details summary { cursor: pointer; color: var(--ink); }
details summary::marker { color: var(--accent); }
.small { display: block; color: var(--muted); font-size: 0.85em; }
.reproduced { background: #dff3e0; } .shape-only { background: #fff3c4; } .differs { background: #fbdcdc; }
.missing { background: #eceff1; } .pqlab-only { background: #e1ebfb; }
.badge { display: inline-block; padding: 0.05em 0.55em; border-radius: 1em; font-size: 0.85em;
         margin: 0 0.3em 0.3em 0; border: 1px solid rgba(0,0,0,0.08); white-space: nowrap; }
ul.inconsistent li { margin: 0.15em 0; }
section.artefact { border-top: 3px solid var(--line); margin-top: 2.2em; padding-top: 0.2em; }
section.artefact h2 { border: 0; margin-top: 0.5em; font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
                      overflow-wrap: anywhere; }
.figures { display: flex; flex-wrap: wrap; gap: 1em; margin: 0.6em 0; }
figure { margin: 0; border: 1px solid var(--line); padding: 0.5em; background: #fff; max-width: 100%; }
.figures figure { flex: 1 1 100%; }
figure img { display: block; width: 100%; max-width: 100%; height: auto; }
figcaption { font-size: 0.85em; color: var(--muted); margin-top: 0.3em; }
ul.files { margin: 0.3em 0; padding-left: 1.2em; }
code, .id { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.92em; }
@media (max-width: 899px) { table.claims, table.misses, table.verdicts { font-size: 0.8em; } }
footer { color: var(--muted); font-size: 0.85em; border-top: 1px solid var(--line); margin-top: 3em; padding-top: 0.8em; }
""".strip()

# nbconvert's HTML loads require.js, MathJax and mermaid from a CDN: removed from the copies.


def esc(text) -> str:
    """``text`` as HTML text or attribute value (quotes escaped); None as the empty string."""
    return html.escape("" if text is None else str(text), quote=True)


def artefact_anchor(artefact: str) -> str:
    """The HTML id of an artefact's section: ``a-<id>``, characters other than ``[A-Za-z0-9_-]`` as ``-``."""
    return "a-" + re.sub(r"[^A-Za-z0-9_-]", "-", artefact)


def verdict_class(verdict: str) -> str:
    """The CSS class of a verdict (its words joined by ``-``: ``shape only`` -> ``shape-only``)."""
    return verdict.replace(" ", "-")


def percent_text(value) -> str:
    """A relative difference in percent as a signed number to 0.1 (``+12.3 %``); ``n/a`` if missing (:func:`plain`)."""
    value = plain(value)
    return "n/a" if value is None else f"{value:+.1f} %"


#: A paper's statement or an explanation longer than this (characters) is folded in a details element.
FOLD_CHARS = 160


def claims_table(rows: list[dict]) -> str:
    """The claims of one artefact: one row group per claim, one row per model inside it.

    The claim (its id, the paper's statement, folded when long, and its source), the paper's
    value and the unit span the group's rows; the model, our number, the difference, the
    verdict and the explanation are per row.
    """
    cols = "".join(f'<col class="{c}">' for c in ("claim", "model", "paper", "ours", "unit", "diff", "verdict",
                                                     "explanation"))
    head = ("<tr><th>claim and what the paper says</th><th>model</th><th class=\"num\">paper</th>"
            "<th class=\"num\">ours</th><th>unit</th><th class=\"num\">difference</th><th>verdict</th>"
            "<th>explanation</th></tr>")
    groups: list[list[dict]] = []
    for r in rows:
        if groups and groups[-1][0]["quantity"] == r["quantity"]:
            groups[-1].append(r)
        else:
            groups.append([r])
    body = []
    for group in groups:
        first = group[0]
        span = f' rowspan="{len(group)}"' if len(group) > 1 else ""
        source = f'<span class="source">{esc(first["source"])}</span>' if first["source"] else ""
        for k, r in enumerate(group):
            shared = (f"<td{span}><span class=\"id\">{esc(r['quantity'])}</span>{_statement(first['statement'])}"
                      f"{source}</td>" if k == 0 else "")
            paper = (f"<td class=\"num\"{span}>{esc(paper_text(plain(r['paper value'])))}</td>"
                     if k == 0 else "")
            unit = f'<td data-column="unit"{span}>{esc(overview.unit_text(r["unit"]))}</td>' if k == 0 else ""
            starts = ' class="group"' if k == 0 else ""
            body.append(
                f"<tr{starts}>{shared}<td>{_model_cell(r)}</td>{paper}"
                f"<td class=\"num\">{_ours_cell(r)}</td>{unit}"
                f"<td class=\"num\">{_difference_cell(r)}</td>"
                f"<td class=\"{verdict_class(str(r['verdict']))}\">{esc(r['verdict'])}</td>"
                f"<td>{_explanation(str(r['explanation']))}</td></tr>"
            )
    return ("<table class=\"claims\"><colgroup>" + cols + "</colgroup>\n<thead>" + head + "</thead>\n<tbody>\n"
            + "\n".join(body) + "\n</tbody>\n</table>")


def _statement(text) -> str:
    text = "" if plain(text) is None else str(text)
    if not text:
        return ""
    if len(text) <= FOLD_CHARS:
        return f'<span class="quote">\u201c{esc(text)}\u201d</span>'
    return (f'<details class="quote"><summary>\u201c{esc(_cut(text))}\u2026</summary>'
            f"{esc(text)}\u201d</details>")


def _explanation(text: str) -> str:
    if len(text) <= FOLD_CHARS:
        return esc(text)
    return f"<details><summary>{esc(_cut(text))}\u2026</summary>{esc(text)}</details>"


def _cut(text: str, chars: int = FOLD_CHARS // 2) -> str:
    """The first words of ``text``, up to about ``chars`` characters, without trailing dots or commas."""
    cut = text[:chars]
    cut = cut.rsplit(" ", 1)[0] if " " in cut else cut
    return cut.rstrip(" .,;:")  # the ellipsis that follows is the only one


def _model_cell(r: dict) -> str:
    model = str(r.get("model") or MODELS[0])
    role = plain(r.get("role"))
    role_text = f'<span class="role">{esc(overview.ROLE_TITLES.get(role, role))}</span>' if role else ""
    return f'<span class="model-name">{esc(overview.MODEL_LABELS.get(model, model))}</span>{role_text}'


def _ours_cell(r: dict) -> str:
    number = overview.ours_text(plain(r["ours"]), plain(r["paper value"]))
    words = overview.shape_text(r["shape_ok"])
    if number and words:
        return f'{esc(number)}<span class="small">{words}</span>'
    return esc(number or words)


def _difference_cell(r: dict) -> str:
    difference = plain(r["difference"])
    if difference is None:
        return ""
    return f'{esc(percent_text(r["difference %"]))}<span class="small">{esc(signed_text(difference))}</span>'


def plain(value):
    """NaN, None and pandas' NA as None; numbers as float; the rest unchanged."""
    if value is None or value is pd.NA:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    return value
