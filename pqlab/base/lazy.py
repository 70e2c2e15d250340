"""Names of a package imported when first used (PEP 562), read from its ``if TYPE_CHECKING:`` imports.

What it does: a package ``__init__`` lists the names it offers as ordinary import statements in
an ``if TYPE_CHECKING:`` block (so the type checker and a reader of the import graph see every
one) and ends with ``__getattr__, __dir__ = lazy.attach(__name__)``. :func:`attach` reads that
block from the package's source and answers each name on first access by importing its module
then, as the statement would have (``from .measure import metrics``: the attribute ``metrics``
of ``pqlab.measure``, else its submodule). ``import pqlab`` then costs what ``pqlab/__init__.py``
itself costs, and ``pqlab.simulate`` what its module costs, once.

:func:`alias` makes ``import package.name`` work for a name that is a module imported under
another path (``import pqlab.metrics`` is ``pqlab.measure.metrics``): a finder on
``sys.meta_path`` answers it with the very module object, imported when first asked for.

A ``from .module import *`` in the block stands for the names of that module's ``__all__``, read
from its source (a literal list).

Exports: :func:`attach`, :func:`alias`, :func:`names`.

May import: the standard library only (a module of ``pqlab.base``).
"""

from __future__ import annotations

import ast
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from pathlib import Path

__all__ = ["attach", "alias", "names"]


def _lazy_imports(package: str) -> dict:
    """``{name: (module, attribute)}`` of the ``if TYPE_CHECKING:`` imports of ``package``'s source."""
    source = Path(sys.modules[package].__file__).read_bytes()
    table = {}
    for node in ast.parse(source).body:
        test = getattr(node, "test", None)
        if not (isinstance(node, ast.If) and getattr(test, "id", getattr(test, "attr", None)) == "TYPE_CHECKING"):
            continue
        for statement in node.body:
            if isinstance(statement, ast.ImportFrom):
                base = importlib.util.resolve_name("." * statement.level + (statement.module or ""), package)
                for a in statement.names:
                    names = _public_names(base) if a.name == "*" else [a.asname or a.name]
                    table.update({name: (base, name if a.name == "*" else a.name) for name in names})
            else:
                raise ValueError(f"{package}: its TYPE_CHECKING block holds only 'from ... import' statements")
    return table


def _public_names(module: str) -> list:
    """The ``__all__`` of ``module``, a list of strings in its source, read without importing it."""
    source = Path(importlib.util.find_spec(module).origin).read_bytes()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"]:
            return list(ast.literal_eval(node.value))
    raise ValueError(f"{module} has no literal __all__: 'from {module} import *' cannot be read lazily")


def names(package: str) -> list:
    """The names ``package``'s ``if TYPE_CHECKING:`` block imports, in order (e.g. its ``__all__``)."""
    return list(_lazy_imports(package))


def _load(base: str, attribute: str | None):
    module = importlib.import_module(base)
    if attribute is None:
        return module
    try:
        return getattr(module, attribute)
    except AttributeError:
        return importlib.import_module(f"{base}.{attribute}")


def attach(package: str):
    """``__getattr__`` and ``__dir__`` for ``package``: its ``if TYPE_CHECKING:`` names, imported on use.

    Parameters
    ----------
    package : str
        The package's ``__name__`` (its module is in ``sys.modules``: call this from its ``__init__``).

    Returns
    -------
    tuple of callable
        ``(__getattr__, __dir__)``: the first imports a listed name's module, stores the name on the
        package (the next access is a plain attribute) and returns it; an unlisted name raises
        ``AttributeError``.
    """
    table = _lazy_imports(package)
    namespace = vars(sys.modules[package])

    def __getattr__(name: str):
        try:
            base, attribute = table[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        # ``from . import exercises``: a submodule of this very package (its getattr would come back here)
        value = importlib.import_module(f"{base}.{attribute}") if base == package else _load(base, attribute)
        namespace[name] = value
        return value

    def __dir__():
        return sorted(set(namespace) | set(table))

    return __getattr__, __dir__


class _AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers ``import <package>.<name>`` with the module a package's lazy name stands for."""

    def __init__(self, package: str, names):
        self.package, self.names, self.specs = package, frozenset(names), {}

    def find_spec(self, fullname, path=None, target=None):
        parent, _, name = fullname.rpartition(".")
        if parent != self.package or name not in self.names:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec):
        module = getattr(sys.modules[self.package], spec.name.rpartition(".")[2])
        self.specs[module.__name__] = module.__spec__
        return module

    def exec_module(self, module):
        module.__spec__ = self.specs[module.__name__]  # its own, which the import machinery replaced


def alias(package: str, names) -> None:
    """Make ``import <package>.<name>`` import the module ``<package>.<name>`` stands for, for ``names``.

    Parameters
    ----------
    package : str
        The package's ``__name__``; its attribute ``name`` (e.g. answered by :func:`attach`) is a module.
    names : iterable of str
        The names that are modules under a second path.
    """
    if not any(isinstance(f, _AliasFinder) and f.package == package for f in sys.meta_path):
        sys.meta_path.append(_AliasFinder(package, names))
