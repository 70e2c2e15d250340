"""A package's names imported when first used (PEP 562), read from its ``TYPE_CHECKING`` imports.

What it does: a package ``__init__`` lists the names it offers as ordinary import statements in
an ``if TYPE_CHECKING:`` block (so the type checker and a reader of the import graph see every
one) and ends with ``__getattr__, __dir__ = lazy.attach(__name__)``. :func:`attach` reads that
block from the package's source and answers each name on first access by importing its module
then, as the statement would have (``from .measure import metrics``: the attribute ``metrics``
of ``pqlab.measure``, else its submodule). ``import pqlab`` then costs what ``pqlab/__init__.py``
itself costs, and ``pqlab.simulate`` what its module costs, once. A ``from .module import *``
in the block stands for the names of that module's ``__all__``, read from its source.

:func:`alias` makes ``import package.name`` work for a name that is a module imported under
another path (``import pqlab.metrics`` is ``pqlab.measure.metrics``): a finder on
``sys.meta_path`` answers it with the very module object, imported when first asked for.

Exports: :func:`attach`, :func:`names`, :func:`alias`.

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

__all__ = ["attach", "names", "alias"]


def _lazy_imports(package: str) -> dict:
    """``{name: (module, attribute)}`` of the ``if TYPE_CHECKING:`` imports of ``package``."""
    source = Path(sys.modules[package].__file__).read_bytes()
    table = {}
    for node in ast.parse(source).body:
        test = getattr(node, "test", None)
        if not (isinstance(node, ast.If) and getattr(test, "id", None) == "TYPE_CHECKING"):
            continue
        for statement in node.body:
            if not isinstance(statement, ast.ImportFrom):
                raise ValueError(
                    f"{package}: its TYPE_CHECKING block holds only 'from ... import' statements"
                )
            base = importlib.util.resolve_name(
                "." * statement.level + (statement.module or ""), package
            )
            for a in statement.names:
                if a.name == "*":
                    table.update({name: (base, name) for name in _public_names(base)})
                else:
                    table[a.asname or a.name] = (base, a.name)
    return table


def _public_names(module: str) -> list:
    """The ``__all__`` of ``module``, a list of strings in its source, read without importing it."""
    source = Path(importlib.util.find_spec(module).origin).read_bytes()
    for node in ast.parse(source).body:
        targets = [getattr(t, "id", None) for t in getattr(node, "targets", ())]
        if isinstance(node, ast.Assign) and targets == ["__all__"]:
            return list(ast.literal_eval(node.value))
    raise ValueError(f"{module} has no literal __all__: 'from {module} import *' cannot be lazy")


def names(package: str) -> list:
    """The names the ``if TYPE_CHECKING:`` block of ``package`` imports, in order."""
    return list(_lazy_imports(package))


def attach(package: str):
    """``__getattr__`` and ``__dir__`` for ``package``: its ``TYPE_CHECKING`` names, on first use.

    Parameters
    ----------
    package : str
        The package's ``__name__`` (its module is in ``sys.modules``: call this from its
        ``__init__``).

    Returns
    -------
    tuple of callable
        ``(__getattr__, __dir__)``: the first imports a listed name's module, stores the name on
        the package (the next access is a plain attribute) and returns it; an unlisted name
        raises ``AttributeError``.
    """
    table = _lazy_imports(package)
    namespace = vars(sys.modules[package])

    def __getattr__(name: str):
        try:
            base, attribute = table[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        if base == package:  # ``from . import exercises``: a submodule of this very package
            value = importlib.import_module(f"{base}.{attribute}")
        else:
            module = importlib.import_module(base)
            try:
                value = getattr(module, attribute)
            except AttributeError:  # ``from .node import traces``: a submodule not imported yet
                value = importlib.import_module(f"{base}.{attribute}")
        namespace[name] = value
        return value

    def __dir__():
        return sorted(set(namespace) | set(table))

    return __getattr__, __dir__


class _AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers ``import <package>.<name>`` with the module a package's lazy name stands for."""

    def __init__(self, package: str, modules):
        self.package, self.modules, self.specs = package, frozenset(modules), {}

    def find_spec(self, fullname, path=None, target=None):
        parent, _, name = fullname.rpartition(".")
        if parent != self.package or name not in self.modules:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec):
        module = getattr(sys.modules[self.package], spec.name.rpartition(".")[2])
        self.specs[module.__name__] = module.__spec__
        return module

    def exec_module(self, module):
        module.__spec__ = self.specs[module.__name__]  # its own, which the import replaced


def alias(package: str, modules) -> None:
    """Make ``import <package>.<name>`` import the module that ``<package>.<name>`` stands for.

    Parameters
    ----------
    package : str
        The package's ``__name__``; its attribute ``name`` (e.g. answered by :func:`attach`) is
        a module of another path.
    modules : iterable of str
        Those names.
    """
    if not any(isinstance(f, _AliasFinder) and f.package == package for f in sys.meta_path):
        sys.meta_path.append(_AliasFinder(package, modules))
