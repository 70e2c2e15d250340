"""The reproduction pipeline: ``pqlab reproduce`` runs the notebooks and publishes figures, report
and site.

What it does: ``reproduce`` (the build: plan, run the notebooks, publish), ``_notebook_worker``
(the worker processes that keep one kernel each), ``kernelwatch`` (a hung or dead kernel found
within seconds), ``orphans`` (workers and kernels never outlive their run), ``runfolder`` (one
run's folder and its state), ``runlock`` (one run per tree), ``schedule`` (thread pools
per worker, the longest notebooks first), ``interrupts`` (Ctrl-C and
SIGTERM acted on at known points), ``publish`` (the atomic publish, its manifest and the
state files read against their JSON Schema),
``report`` (the paper-vs-pqlab report: records, verdicts, tables), ``claim_links`` (links
between claims applied to verdicts), ``reportdiff`` (two reports compared), ``overview`` (the
report's overview block), ``numbers`` (numbers as the report and the site print them),
``claims_html`` (an artefact's
claims as HTML, in ``report.html`` and on the site), ``notebook_html`` (the executed notebooks as
pages), ``html_pages`` (the Jinja2 templates of
the site and ``report.html``), ``website`` (the static site) and ``readme_table`` (the
artefact ids of docs/reproduction.md, from the registry).

Exports: those modules (``from pqlab.pipeline import reproduce``).

May import: ``pqlab.papers``, ``pqlab.measure``, ``pqlab.node`` and ``pqlab.base``; never the
lab.
"""

__all__ = [
    "reproduce",
    "_notebook_worker",
    "kernelwatch",
    "orphans",
    "runfolder",
    "runlock",
    "interrupts",
    "schedule",
    "publish",
    "report",
    "claim_links",
    "reportdiff",
    "overview",
    "numbers",
    "claims_html",
    "notebook_html",
    "html_pages",
    "website",
    "readme_table",
]
