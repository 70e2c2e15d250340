"""numba's on-disk cache, keyed on the source of what a jitted function calls: :func:`cached_njit`.

What it does: numba (``njit(cache=True)``) keys the machine code it stores on the function's own
file and byte code. That code also holds, compiled in, the jitted functions it calls (inlined or
linked) and the global values it reads (numba freezes globals as constants), which may live in
other files: after an edit of those, numba would load the stale code. :func:`cached_njit` is
``njit(cache=True)`` with one more part in the cache's index key: a SHA-256 of

* the source file of every function it can reach: the jitted functions it names (as globals, as
  attributes of a module it names, or in a closure) and, recursively, those they name;
* the value of every other global those functions read (a number, a tuple, an array, a dtype),
  so that a constant computed in another module is keyed by what was compiled in.

Only the package's own files are read (numba keys its own version; numpy is not hashed). The
digest is computed when numba first reads or writes the cache of the function (every callee is
defined by then), once per process.

Exports: :func:`cached_njit`, :func:`is_keyed`, :func:`callee_sources`.

May import: the standard library and numba (a module of ``pqlab.base``).
"""

from __future__ import annotations

import hashlib
import pickle
import sys
import types

from numba import njit
from numba.core.dispatcher import Dispatcher

__all__ = ["cached_njit", "is_keyed", "callee_sources"]


def cached_njit(func=None, **options):
    """``numba.njit(cache=True, **options)`` whose cache is keyed on the source of what it calls.

    Parameters
    ----------
    func : callable, optional
        The function to compile (``@cached_njit``); without it, a decorator
        (``@cached_njit(nogil=True)``).
    **options
        numba's ``njit`` options (``nogil``, ``inline``, ...); ``cache`` is always on.

    Returns
    -------
    numba.core.dispatcher.Dispatcher or callable
        The dispatcher, or the decorator that makes it.
    """
    if "cache" in options:
        raise ValueError("cached_njit always caches: do not pass cache=")

    def decorate(function):
        dispatcher = njit(cache=True, **options)(function)
        _key_on_callees(dispatcher)
        return dispatcher

    return decorate if func is None else decorate(func)


class _CalleeKey:
    """The cache's index key with the digest of :func:`callee_sources` appended."""

    def __init__(self, dispatcher, index_key):
        self.dispatcher, self.index_key, self.digest = dispatcher, index_key, None

    def __call__(self, sig, codegen):
        if self.digest is None:
            self.digest = _digest(self.dispatcher.py_func)
        return (*self.index_key(sig, codegen), self.digest)


def _key_on_callees(dispatcher) -> None:
    cache = dispatcher._cache
    cache._index_key = _CalleeKey(dispatcher, cache._index_key)


def is_keyed(dispatcher) -> bool:
    """Whether ``dispatcher``'s on-disk cache is keyed by :func:`cached_njit`."""
    return isinstance(getattr(getattr(dispatcher, "_cache", None), "_index_key", None), _CalleeKey)


def callee_sources(func) -> tuple[dict, dict]:
    """What the machine code of jitted ``func`` can hold, from its package.

    Parameters
    ----------
    func : function or numba Dispatcher
        A Python function (a dispatcher's ``py_func``).

    Returns
    -------
    files : dict
        Module name -> the bytes of its source file, for ``func`` and every function it reaches.
    values : dict
        ``"module.function:name"`` -> the bytes of the value of every other global it reads
        (pickled; its ``repr`` when it cannot be pickled).
    """
    func = getattr(func, "py_func", func)
    package = func.__module__.partition(".")[0]
    files, values, seen, todo = {}, {}, set(), [func]
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        files[f.__module__] = _source(f.__module__, f.__code__)
        for name, value in _referenced(f, package):
            if isinstance(value, Dispatcher):
                todo.append(value.py_func)
            elif isinstance(value, types.FunctionType):
                if (value.__module__ or "").partition(".")[0] == package:
                    todo.append(value)
            elif isinstance(value, type):  # a class of the package (an enum, a named tuple)
                if (value.__module__ or "").partition(".")[0] == package:
                    files[value.__module__] = _source(value.__module__)
            elif not isinstance(value, (types.ModuleType, types.BuiltinFunctionType)):
                values[f"{f.__module__}.{f.__qualname__}:{name}"] = _value_bytes(value)
    return files, values


def _source(module: str, code=None) -> bytes:
    """The bytes of ``module``'s source file (without one, e.g. code made at run time: ``code``'s
    byte code, else nothing)."""
    try:
        with open(sys.modules[module].__file__, "rb") as source:
            return source.read()
    except (OSError, KeyError, AttributeError, TypeError):
        return b"" if code is None else code.co_code


def _referenced(func, package: str):
    """(name, value) of the globals ``func``'s code names, of the attributes it names of the
    package's modules it names, and of its closure."""
    names = set()
    codes = [func.__code__]
    while codes:
        code = codes.pop()
        names.update(code.co_names)
        codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]
    scopes = [func.__globals__]
    for name in sorted(names):
        if name in func.__globals__:
            value = func.__globals__[name]
            yield name, value
            if isinstance(value, types.ModuleType) and value.__name__.partition(".")[0] == package:
                scopes.append(vars(value))
    for scope in scopes[1:]:
        for name in sorted(names & scope.keys()):
            yield name, scope[name]
    for i, cell in enumerate(func.__closure__ or ()):
        yield f"<closure {i}>", cell.cell_contents


def _value_bytes(value) -> bytes:
    if isinstance(value, (set, frozenset)):  # its order changes from process to process
        value = sorted(map(repr, value))
    try:
        return pickle.dumps(value, protocol=4)
    except Exception:  # noqa: BLE001  (any object: keyed by its repr)
        return repr(value).encode()


def _digest(func) -> str:
    files, values = callee_sources(func)
    digest = hashlib.sha256()
    for name, content in sorted(files.items()) + sorted(values.items()):
        digest.update(f"{name}\0{hashlib.sha256(content).hexdigest()}\n".encode())
    return digest.hexdigest()
