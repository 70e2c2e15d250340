"""The artefact ids by notebook of ``docs/reproduction.md``, generated from the registry.

The page ``docs/reproduction.md`` (what is reproduced, and where it differs; the README links to
it) describes each notebook in prose (a table written by hand: the registry holds ids and
notebooks, not the words) and, between the markers :data:`BEGIN` and :data:`END` under it, lists
the artefact ids each notebook runs: :func:`artefact_list`, the registry's
(:func:`pqlab.papers.registry.artefacts`). ``tests/test_docs_readme_artefacts.py`` checks that
the page holds the current list and that every notebook its table names exists;
``python -m pqlab.pipeline.readme_table docs/reproduction.md`` rewrites the list after an artefact
module was added or moved.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..papers import registry

#: The page that holds the generated list, from the repository's root.
PAGE = "docs/reproduction.md"
#: The lines that enclose the generated list in :data:`PAGE`.
BEGIN = (
    "<!-- artefact ids by notebook: generated from pqlab.papers.registry"
    f" (python -m pqlab.pipeline.readme_table {PAGE}) -->"
)
END = "<!-- end of the generated artefact ids -->"


def artefact_list() -> str:
    """One Markdown bullet per notebook, ``- `<notebook>`: `<id>`, `<id>```, in the registry's
    order."""
    by_notebook: dict[str, list[str]] = {}
    for entry in registry.artefacts():
        by_notebook.setdefault(entry.notebook, []).append(entry.id)
    return "\n".join(
        f"- `{notebook}`: " + ", ".join(f"`{i}`" for i in ids)
        for notebook, ids in by_notebook.items()
    )


def listed(text: str) -> str:
    """The list between :data:`BEGIN` and :data:`END` in ``text`` (``ValueError`` if a marker is
    missing)."""
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise ValueError(
            f"the page must hold the lines {BEGIN!r} and {END!r} once each, in that order"
        )
    return text[text.index(BEGIN) + len(BEGIN) : text.index(END)].strip("\n")


def with_current_list(text: str) -> str:
    """``text`` with the list between the markers replaced by :func:`artefact_list`."""
    listed(text)  # the markers, once each, in order
    head, rest = text.split(BEGIN)
    tail = rest.split(END)[1]
    return f"{head}{BEGIN}\n{artefact_list()}\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    """Rewrite the list in the page given as the one argument (:data:`PAGE`); 2 with a one-line
    error otherwise."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or not Path(args[0]).is_file():
        print(
            f"usage: python -m pqlab.pipeline.readme_table {PAGE} (an existing file)",
            file=sys.stderr,
        )
        return 2
    path = Path(args[0])
    try:
        path.write_text(with_current_list(path.read_text(encoding="utf-8")), encoding="utf-8")
    except ValueError as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
