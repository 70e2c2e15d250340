"""A cache of computed artefacts (netCDF, CF attributes) and of identical simulations in one run.

Two mechanisms, each applied with one decorator line:

* :func:`artefact` caches what an artefact's compute function returns (an
  :class:`xarray.Dataset` or a :class:`pandas.DataFrame`) as one netCDF file per call,
  keyed by the artefact id, the call's arguments (parameters and seeds, defaults filled
  in), the pqlab version, the installed versions of the locked packages
  (:func:`pqlab.base.versions.fingerprint`: a result of other numpy, pandas, ... is not reused),
  the source of every pqlab module in the import closure of the function's module (found
  at run time from the import statements, relative and function-level ones included:
  :meth:`Sources.closure`; a function outside pqlab, e.g. a notebook's, on its own source and
  every pqlab module) and the content of every file of pqlab's data folder
  (:data:`pqlab.base.locations.DATA`: the BE size law, the papers' values, the claim links,
  ...; all of them, as which file an artefact reads is not known before it runs) and of the
  papers' values in effect (:func:`pqlab.base.locations.paper_values_file`). Code and data
  are keyed as this process read them when it imported this module (:data:`SOURCES`), and while one
  of those files differs on disk from what was read (:func:`changed_inputs`) the cache is
  neither read nor written for the call (a warning names the file): which version the
  process runs is then not known, so no result is stored under, or taken from, a key that may
  not describe it. A rerun with
  nothing changed reads the file instead of simulating. Files carry CF attributes (``Conventions``,
  ``units`` and ``long_name`` on every variable, ``flag_values``/``flag_meanings`` on drop
  codes and packet colours), the cache key with its full description and a SHA-256 of the content
  (:func:`content_digest`). A file is kept only if reading it back gives an identical result;
  on every read the key, the description and the checksum are verified, and a file that fails
  (a flipped bit, a file copied under another key, one written by an older pqlab) is a miss:
  recomputed and rewritten, with a one-line warning naming the file, never used.
* :func:`memoize` computes identical calls once per process (e.g. the same simulation grid
  that three artefacts of one notebook share).

The disk cache is on when ``PQLAB_CACHE_DIR`` names a folder (``pqlab reproduce`` sets it
to ``<build>/cache`` for its kernels; ``PQLAB_CACHE_FORCE=1`` recomputes and overwrites).
Every computation, reuse and simulation is counted by :mod:`pqlab.base.counts` (re-exported
here: :func:`counts`, :func:`read_counts`) and, when ``PQLAB_CACHE_LOG`` names a file, appended
to it as a JSON line (how ``pqlab reproduce`` counts what its kernels did).

A result the cache cannot store (a DataFrame without a default RangeIndex, an argument it
cannot key) is computed each time: counted as ``"uncached"`` and said on the ``pqlab.measure.cache``
logger at INFO level, never as a warning (a reader of an executed notebook is not the one to
act on it). A damaged cache file is a warning: it is recomputed.
"""

from __future__ import annotations

import ast
import copy
import functools
import hashlib
import inspect
import json
import logging
import os
import re
import warnings
from pathlib import Path

import numpy as np

from .._version import __version__
from ..base import locations, versions
from ..base.counts import (  # noqa: F401  (the counter, re-exported)
    ENV_LOG,
    counted,
    counts,
    note,
    read_counts,
)

#: Environment variables read by the cache.
ENV_DIR, ENV_FORCE = "PQLAB_CACHE_DIR", "PQLAB_CACHE_FORCE"
#: The name of the package whose modules :class:`Sources` reads.
PACKAGE_NAME = "pqlab"
_PACKAGE = Path(__file__).resolve().parents[1]
#: CF convention version written into every file.
CONVENTIONS = "CF-1.8"
#: Drop codes of the engine (``ds["drop"]``), written as CF flags.
DROP_FLAGS = {
    "flag_values": np.array([0, 1, 2, 3], dtype="int8"),
    "flag_meanings": "kept policed queue_full early_drop",
}


@functools.cache
def colour_flags() -> dict:
    """Packet colours set by a stream's marker (``ds["colour"]``, node contract rule 1a), as CF
    flags.

    Read from :data:`pqlab.node.engine.COLOUR_ATTRS` when first needed: the command line's
    process, which only names the cache's folders, never loads the engine (and numba).
    """
    from ..node.engine import COLOUR_ATTRS

    return {
        "flag_values": np.array(COLOUR_ATTRS["flag_values"], dtype="int8"),
        "flag_meanings": COLOUR_ATTRS["flag_meanings"],
    }


#: True/false variables (e.g. whether a claim's shape holds), written as CF flags.
BOOL_FLAGS = {"flag_values": np.array([0, 1], dtype="int8"), "flag_meanings": "false true"}

_log = logging.getLogger(__name__)


def environment(cache_dir, log_file, *, force: bool = False) -> dict:
    """The environment variables that turn the cache on in a kernel (see the module docstring)."""
    return {ENV_DIR: str(cache_dir), ENV_LOG: str(log_file), ENV_FORCE: "1" if force else "0"}


# --------------------------------------------------------------------------- keys


def _canonical(value):
    """A JSON-able, deterministic description of an argument."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    if isinstance(value, np.ndarray):
        return {
            "ndarray": str(value.dtype),
            "shape": list(value.shape),
            "sha256": hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest(),
        }
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple, set, frozenset, range)):
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else list(value)
        return [_canonical(v) for v in items]
    if hasattr(value, "__dataclass_fields__"):
        return {
            "dataclass": type(value).__qualname__,
            **{f: _canonical(getattr(value, f)) for f in value.__dataclass_fields__},
        }
    if callable(value):
        return {
            "callable": (
                f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', repr(value))}"
            )
        }
    raise TypeError(f"cannot key a cached call on an argument of type {type(value).__name__}")


class Sources:
    """The source of every module of a pqlab package folder and every file of its data folder, read
    once.

    What a cache key says about code and data comes from here: the bytes of each file as they
    were when this object read them, never as they are on disk later. The process's own
    :data:`SOURCES` is read when this module is first imported (with the first artefact module a
    kernel imports), so a file edited on disk while a kernel runs is not keyed as the edited
    version, and :meth:`changed` finds it before the cache is read or written. (Not covered: a
    module imported before this one, e.g. by ``import pqlab``, and edited in between.)

    Parameters
    ----------
    package : str or os.PathLike
        The folder of the ``pqlab`` package (every ``*.py`` under it is a module).
    data : str or os.PathLike
        pqlab's data folder (:data:`pqlab.base.locations.DATA`): every file under it is an input.
    """

    def __init__(self, package, data):
        self.package, self.data = Path(package), Path(data)
        #: Module name (``"pqlab.papers.presets"``) -> (file, its bytes).
        self.modules = {
            self._module_name(path): (path, path.read_bytes())
            for path in _files(self.package, "*.py")
        }
        #: Data file (path relative to the data folder, ``/``-separated) -> (file, its bytes).
        self.data_files = {
            path.relative_to(self.data).as_posix(): (path, path.read_bytes())
            for path in _files(self.data, "*")
        }
        #: Files read on demand (the papers' values in effect, outside the data folder) -> their
        #: bytes.
        self.other_files: dict[Path, bytes] = {}
        self._closures: dict[str, tuple[str, ...]] = {}
        self._imported: dict[str, list[str]] = {}
        self._digests: dict = {}

    @classmethod
    def now(cls) -> "Sources":
        """The running pqlab's package and data folder, read now."""
        return cls(_PACKAGE, locations.DATA)

    def _module_name(self, path: Path) -> str:
        parts = path.relative_to(self.package).with_suffix("").parts
        return ".".join((PACKAGE_NAME, *(parts[:-1] if parts[-1] == "__init__" else parts)))

    def _is_package(self, module: str) -> bool:
        return self.modules[module][0].name == "__init__.py"

    # ---------------------------------------------------------------- the import closure

    def closure(self, module: str) -> tuple[str, ...]:
        """Every pqlab module that importing ``module`` can run, sorted: ``module``, the packages
        above it and, recursively, every pqlab module an import statement of theirs names.

        Read from the modules' import statements: ``import`` and ``from ... import``, absolute and
        relative, at module level or inside a function (:func:`import_statements`). A module
        imported by a name computed at run time (``importlib.import_module(name)``) cannot be
        followed: no pqlab module an artefact imports does that (the registry names functions,
        it does not run them).
        """
        if module not in self._closures:
            seen: set[str] = set()
            todo = [module]
            while todo:
                name = todo.pop()
                for known in (*_parents(name), name):
                    if known in self.modules and known not in seen:
                        seen.add(known)
                        todo.extend(self._imports(known))
            self._closures[module] = tuple(sorted(seen))
        return self._closures[module]

    def _imports(self, module: str) -> list[str]:
        """The pqlab modules (and names that may be modules) the import statements of ``module``
        name."""
        if module not in self._imported:
            self._imported[module] = self._parse_imports(module)
        return self._imported[module]

    def _parse_imports(self, module: str) -> list[str]:
        package = module if self._is_package(module) else module.rpartition(".")[0]
        named = []
        for statement in import_statements(self.modules[module][1]):
            if isinstance(statement, ast.Import):
                named += [alias.name for alias in statement.names]
                continue
            base = statement.module or ""
            if statement.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (statement.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            named += [base, *(f"{base}.{alias.name}" for alias in statement.names)]
        return [n for n in named if n == PACKAGE_NAME or n.startswith(PACKAGE_NAME + ".")]

    # ---------------------------------------------------------------- digests

    def code_digest(self, module: str | None = None) -> str:
        """SHA-256 of the source of :meth:`closure` of ``module`` (default: of every module)."""
        if ("code", module) not in self._digests:
            names = sorted(self.modules) if module is None else self.closure(module)
            self._digests["code", module] = _digest((n, self.modules[n][1]) for n in names)
        return self._digests["code", module]

    def data_digest(self, paper_values=None) -> str:
        """SHA-256 of every data file and of the papers' values in effect (``paper_values``, a
        file),
        the latter by content only, wherever it is."""
        extra = None if paper_values is None else Path(paper_values)
        if ("data", extra) not in self._digests:
            items = [(name, content) for name, (_, content) in sorted(self.data_files.items())]
            if extra is not None and self.data.resolve() not in extra.resolve().parents:
                if extra not in self.other_files:
                    self.other_files[extra] = extra.read_bytes()
                items.append(("<papers' values in effect>", self.other_files[extra]))
            self._digests["data", extra] = _digest(items)
        return self._digests["data", extra]

    def changed(self, module: str | None = None) -> list[str]:
        """The files of :meth:`closure` of ``module`` (default: every module), the data files and
        the other files read whose bytes on disk now differ from those read here (edited, or
        removed, since)."""
        names = sorted(self.modules) if module is None else self.closure(module)
        files = (
            [self.modules[n] for n in names]
            + list(self.data_files.values())
            + list(self.other_files.items())
        )
        return [str(path) for path, content in files if _bytes_or_none(path) != content]


#: Where an import statement may start: a line's start, or after ``;`` or ``:`` (``try: import x``).
_IMPORT_START = re.compile(
    rb"(?:^|[;:])[ \t]*((?:from[ \t]+[\w.]+[ \t]+)?import[ \t][^\n]*)", re.MULTILINE
)


def import_statements(source: bytes) -> list:
    """The import statements of a module's source (``ast.Import``/``ast.ImportFrom``), at any depth.

    Found as text and parsed one by one, not by parsing the whole module (ten times slower):
    a statement's parenthesized or backslash-continued lines are joined; a match that is not
    Python (a docstring's "import or offer them") is skipped, one that is (a docstring's code
    example) is kept: a closure may hold a module too many, never one too few.
    """
    found = []
    for match in _IMPORT_START.finditer(source):
        text, end = match.group(1), match.end()
        while (text.count(b"(") > text.count(b")") or text.rstrip().endswith(b"\\")) and end < len(
            source
        ):
            stop = source.find(b"\n", end + 1)
            stop = len(source) if stop < 0 else stop
            text, end = text + source[end:stop], stop
        for candidate in dict.fromkeys((text, match.group(1))):  # joined; else its first line alone
            try:
                tree = ast.parse(candidate)
            except (SyntaxError, ValueError):
                continue
            found += [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
            break
    return found


def _files(folder: Path, pattern: str) -> list[Path]:
    return sorted(
        p
        for p in folder.rglob(pattern)
        if p.is_file() and "__pycache__" not in p.relative_to(folder).parts and p.suffix != ".pyc"
    )


def _parents(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:k]) for k in range(1, len(parts))]


def _bytes_or_none(path: Path):
    try:
        return path.read_bytes()
    except OSError:
        return None


def _digest(items) -> str:
    digest = hashlib.sha256()
    for name, content in items:
        digest.update(f"{name}\0{hashlib.sha256(content).hexdigest()}\n".encode())
    return digest.hexdigest()


#: The running pqlab's modules and data files as this process first read them
#: (see :class:`Sources`).
SOURCES = Sources.now()


def code_hash(func=None) -> str:
    """Hash of the code a call of ``func`` runs (default: of every pqlab module).

    A function of a pqlab module: the source of every pqlab module in its module's import
    closure (:meth:`Sources.closure`). Any other (e.g. one defined in a notebook, which may
    call any of pqlab): its own source (its byte code where none is available) and every
    pqlab module.
    """
    module = getattr(func, "__module__", "") or ""
    if func is None or module in SOURCES.modules:
        return SOURCES.code_digest(module or None)
    try:
        source = inspect.getsource(func).encode()
    except (OSError, TypeError):
        import marshal

        source = marshal.dumps(func.__code__)
    return _digest([("<function>", source), ("<pqlab>", SOURCES.code_digest().encode())])


def data_hash() -> str:
    """Hash of pqlab's data files and of the papers' values in effect
    (:func:`pqlab.base.locations.paper_values_file`), as this process read them."""
    return SOURCES.data_digest(locations.paper_values_file())


def changed_inputs(func) -> list[str]:
    """The files behind :func:`code_hash` of ``func`` and :func:`data_hash` that changed on disk
    since
    this process read them: a result computed now is not what its key describes."""
    module = getattr(func, "__module__", "") or ""
    return SOURCES.changed(module if module in SOURCES.modules else None)


def key(artefact_id: str, func, args, kwargs) -> tuple[str, dict]:
    """The cache key of a call and the description it hashes.

    The description: the artefact id, the function, its arguments (parameters and seeds,
    defaults filled in), the pqlab version, the code (:func:`code_hash`: every pqlab module of
    the function's import closure), the data (:func:`data_hash`: every data file and the papers'
    values in effect) and the environment (:func:`pqlab.base.versions.fingerprint`).
    """
    bound = inspect.signature(func).bind(*args, **kwargs)
    bound.apply_defaults()
    description = {
        "artefact": artefact_id,
        "function": f"{func.__module__}.{func.__qualname__}",
        "arguments": _canonical(dict(bound.arguments)),
        "pqlab_version": __version__,
        "code_sha256": code_hash(func),
        "data_sha256": data_hash(),
        "environment_sha256": versions.fingerprint(),
    }
    digest = hashlib.sha256(json.dumps(description, sort_keys=True).encode()).hexdigest()
    return digest, description


# --------------------------------------------------------------------------- netCDF


class CacheMismatch(ValueError):
    """A cache file whose stored key or content checksum does not match: a miss, never a result."""


def content_digest(result) -> str:
    """SHA-256 of a result's content: every variable's name, dimensions, dtype and values, and
    every attribute (an :class:`xarray.Dataset`, or a :class:`pandas.DataFrame` as cached).

    Stored in each cache file and recomputed on read, so one flipped bit anywhere in the
    values is found (numbers are hashed as their bytes; strings and objects as text).
    """
    ds, kind = _to_dataset(result)
    digest = hashlib.sha256(kind.encode())
    digest.update(json.dumps(dict(ds.attrs), default=_json_default, sort_keys=True).encode())
    for name in sorted(ds.variables, key=str):
        var = ds.variables[name]
        values = np.asarray(var.values)
        head = {
            "name": str(name),
            "dims": list(var.dims),
            "dtype": values.dtype.str,
            "shape": list(values.shape),
            "attrs": json.loads(json.dumps(dict(var.attrs), default=_json_default, sort_keys=True)),
        }
        digest.update(json.dumps(head, sort_keys=True).encode())
        if values.dtype.kind in "OUS":
            digest.update(json.dumps([str(v) for v in values.ravel().tolist()]).encode())
        else:
            digest.update(np.ascontiguousarray(values).tobytes())
    return digest.hexdigest()


def _cf(ds, description: dict, digest: str, kind: str, content: str):
    """A copy of ``ds`` ready for netCDF: original attrs as JSON, CF attributes added."""
    out = ds.copy()
    for name, var in out.variables.items():
        original = dict(var.attrs)
        attrs = {"pqlab_attrs_json": json.dumps(original, default=_json_default)}
        attrs["long_name"] = str(original.get("long_name", name))
        attrs["units"] = str(original.get("units", "1"))
        if name == "drop" and np.issubdtype(var.dtype, np.integer):
            attrs.update(DROP_FLAGS)
        elif name == "colour" and np.issubdtype(var.dtype, np.integer):
            attrs.update(colour_flags())
        elif var.dtype == bool:
            attrs.update(BOOL_FLAGS)
        # netCDF-3 has no 64-bit or unsigned integers: xarray stores them as 32-bit signed ones
        # when every value fits (else it refuses, and the next format is tried); read back as this
        attrs["pqlab_dtype"] = np.asarray(var.values).dtype.str
        var.attrs = attrs
    out.attrs = {
        "Conventions": CONVENTIONS,
        "title": str(ds.attrs.get("title", description["artefact"])),
        "pqlab_attrs_json": json.dumps(dict(ds.attrs), default=_json_default),
        "pqlab_cache_key": digest,
        "pqlab_cache_description": json.dumps(description, sort_keys=True),
        "pqlab_kind": kind,
        "pqlab_content_sha256": content,
    }
    return out


def _json_default(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return {"__ndarray__": value.tolist(), "dtype": str(value.dtype)}
    raise TypeError(f"attribute of type {type(value).__name__} cannot be cached")


def _json_restore(value):
    if isinstance(value, dict):
        if set(value) == {"__ndarray__", "dtype"}:
            return np.asarray(value["__ndarray__"], dtype=value["dtype"])
        return {k: _json_restore(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_restore(v) for v in value]
    return value


def _uncf(ds):
    """``ds`` as :func:`_cf` was given it: the original attrs and each variable's own dtype."""
    stored = {name: var.attrs.get("pqlab_dtype") for name, var in ds.variables.items()}
    for var in ds.variables.values():
        var.attrs = _json_restore(json.loads(var.attrs["pqlab_attrs_json"]))
        var.encoding = {}
    for name, dtype in stored.items():
        if dtype is not None and ds[name].dtype != np.dtype(dtype):
            restored = ds[name].astype(dtype)
            if name in ds.coords:
                ds = ds.assign_coords({name: restored})
            else:
                ds = ds.assign({name: restored})
    ds.attrs = _json_restore(json.loads(ds.attrs["pqlab_attrs_json"]))
    return ds


def _to_dataset(result):
    import pandas as pd
    import xarray as xr

    if isinstance(result, xr.Dataset):
        return result, "dataset"
    if isinstance(result, pd.DataFrame):
        frame = result
        if (
            not isinstance(frame.index, pd.RangeIndex)
            or frame.index.start != 0
            or frame.index.step != 1
        ):
            raise TypeError("only DataFrames with a default RangeIndex are cached")
        if len(set(map(str, frame.columns))) != frame.shape[1]:
            raise TypeError("DataFrame columns must have distinct names to be cached")
        ds = xr.Dataset(
            {f"c{k}": ("row", frame[c].to_numpy()) for k, c in enumerate(frame.columns)}
        )
        ds.attrs = {**frame.attrs, "__columns__": [str(c) for c in frame.columns]}
        return ds, "dataframe"
    raise TypeError(
        f"only xarray Datasets and pandas DataFrames are cached, got {type(result).__name__}"
    )


def _from_dataset(ds, kind: str):
    import pandas as pd

    if kind == "dataset":
        return ds
    attrs = dict(ds.attrs)
    columns = attrs.pop("__columns__")
    frame = pd.DataFrame({c: ds[f"c{k}"].values for k, c in enumerate(columns)})
    frame.attrs = attrs
    return frame


def _same(a, b) -> bool:
    import pandas as pd

    if isinstance(a, pd.DataFrame):
        return (
            isinstance(b, pd.DataFrame)
            and list(a.columns) == list(b.columns)
            and all(a[c].dtype == b[c].dtype for c in a.columns)
            and a.equals(b)
            and a.attrs == b.attrs
        )
    return a.identical(b) and _attrs_equal(a, b)


def _attrs_equal(a, b) -> bool:
    def norm(attrs):
        return json.dumps(attrs, default=_json_default, sort_keys=True)

    return norm(a.attrs) == norm(b.attrs) and all(
        norm(a[n].attrs) == norm(b[n].attrs) for n in a.variables
    )


def _read(file: Path, digest: str | None = None, description: dict | None = None):
    """Read a cache file; check its stored key (if ``digest`` is given) and its content checksum.

    Raises
    ------
    CacheMismatch
        The file was stored under another key or description, carries no checksum, or its
        content does not match its checksum (a damaged file).
    """
    import xarray as xr

    engine = _engine_of(file)
    with xr.open_dataset(file, engine=engine) as opened:
        ds = opened.load()
    stored = dict(ds.attrs)
    if digest is not None and stored.get("pqlab_cache_key") != digest:
        raise CacheMismatch(
            f"stored under the key {str(stored.get('pqlab_cache_key'))[:12]}..., "
            f"not {digest[:12]}..."
        )
    if description is not None and stored.get("pqlab_cache_description") != json.dumps(
        description, sort_keys=True
    ):
        raise CacheMismatch("its stored key description differs from this call's")
    result = _from_dataset(_uncf(ds), stored["pqlab_kind"])
    expected = stored.get("pqlab_content_sha256")
    if expected is None:
        raise CacheMismatch("it carries no content checksum (written by an older pqlab)")
    if content_digest(result) != expected:
        raise CacheMismatch("its content does not match its checksum (the file is damaged)")
    return result


#: The netCDF formats a result is written in, the first that holds it exactly: netCDF-3 (64-bit
#: offsets; scipy's writer and reader, far lighter than HDF5's on these small files), then
#: netCDF-4/HDF5 (h5netcdf) for what netCDF-3 cannot hold (an integer beyond 32 bits, a variable
#: over 4 GiB). Each is read back by the engine its file's first bytes name (:func:`_engine_of`).
WRITE_ENGINES = ("scipy", "h5netcdf")
#: The first bytes of a file of each format, and the xarray engine that reads it.
_MAGIC_ENGINES = ((b"CDF", "scipy"), (b"\x89HDF", "h5netcdf"))


def _engine_of(file: Path) -> str:
    """The xarray engine that reads ``file`` (netCDF-3 or HDF5), from its first bytes.

    Raises
    ------
    CacheMismatch
        The file is neither (e.g. cut to nothing or overwritten): a miss.
    """
    with open(file, "rb") as fh:
        head = fh.read(4)
    engine = next((e for magic, e in _MAGIC_ENGINES if head.startswith(magic)), None)
    if engine is None:
        raise CacheMismatch("it is neither a netCDF-3 nor an HDF5 file (damaged)")
    return engine


def _write(file: Path, result, description: dict, digest: str) -> bool:
    """Write ``result`` in the first of :data:`WRITE_ENGINES`' formats that reads back identical;
    keep the file only then. Returns whether kept."""
    file.parent.mkdir(parents=True, exist_ok=True)
    tmp = file.with_name(f"{file.name}.{os.getpid()}.tmp")
    why: Exception = TypeError("no format")
    try:
        ds, kind = _to_dataset(result)
        ready = _cf(ds, description, digest, kind, content_digest(result))
    except (TypeError, ValueError) as exc:
        ready, why = None, exc
    for engine in WRITE_ENGINES if ready is not None else ():
        try:
            ready.to_netcdf(tmp, engine=engine)
            if not _same(result, _read(tmp, digest, description)):
                raise TypeError("it does not read back identical")
            os.replace(tmp, file)
            return True
        except (TypeError, ValueError, OSError) as exc:  # CacheMismatch too: checksum not stable
            why = exc
            tmp.unlink(missing_ok=True)
    _not_cached(description["artefact"], why)
    return False


def _not_cached(artefact: str, why: Exception) -> None:
    """Count and log (INFO) a result the cache could not store (module docstring)."""
    note("uncached", artefact)
    _log.info("pqlab.measure.cache: %s not cached: %s", artefact, why)


def artefact(artefact_id: str | None = None):
    """Decorator: cache the function's result on disk per artefact and arguments (module docstring).

    Parameters
    ----------
    artefact_id : str, optional
        The artefact id of the key and of the cache subfolder; default the function's name.
    """

    def wrap(func):
        name = artefact_id or func.__name__

        @functools.wraps(func)
        def inner(*args, **kwargs):
            folder = os.environ.get(ENV_DIR)
            if not folder:
                note("computed", name)
                return func(*args, **kwargs)
            try:
                digest, description = key(name, func, args, kwargs)
            except TypeError as exc:  # an argument we cannot key: compute, uncached
                _not_cached(name, exc)
                note("computed", name)
                return func(*args, **kwargs)
            file = Path(folder) / name / f"{digest[:32]}.nc"
            stale = changed_inputs(
                func
            )  # edited since read: which version runs is not known, no reuse
            if not stale and file.is_file() and os.environ.get(ENV_FORCE, "0") != "1":
                try:
                    result = _read(file, digest, description)
                except CacheMismatch as exc:
                    warnings.warn(
                        f"pqlab.measure.cache: {file} failed its key or checksum check ({exc});"
                        " recomputing",
                        stacklevel=2,
                    )
                except Exception as exc:  # noqa: BLE001 - a damaged file is recomputed
                    text = " ".join(str(exc).split())
                    warnings.warn(
                        f"pqlab.measure.cache: unreadable {file} (checksum not verified:"
                        f" {type(exc).__name__}: {text}); recomputing",
                        stacklevel=2,
                    )
                else:
                    note("reused", name, digest)
                    return result
            result = func(*args, **kwargs)
            note("computed", name, digest)
            stale = stale or changed_inputs(func)  # an edit while it computed counts too
            if stale:  # the key describes the files as read at import, not necessarily what ran
                note("uncached", name)
                warnings.warn(
                    f"pqlab.measure.cache: {name} neither reused nor cached: {stale[0]} changed on"
                    " disk after this process read it; a new process (a new run, a restarted"
                    " kernel) caches it",
                    stacklevel=2,
                )
            else:
                _write(file, result, description, digest)
            return result

        inner.cache_artefact_id = name
        return inner

    return wrap


def _memo_canonical(value):
    """:func:`_canonical`, but an object with a ``to_json`` method (a :class:`pqlab.Scenario`,
    computed once
    per frozen object) is described by the SHA-256 of that JSON: a scenario's JSON describes it
    exactly
    (:meth:`pqlab.Scenario.from_json` rebuilds it), without walking its size laws value by value."""
    to_json = getattr(type(value), "to_json", None)
    if to_json is not None and hasattr(value, "__dataclass_fields__"):
        return {
            "json": type(value).__qualname__,
            "sha256": hashlib.sha256(to_json(value).encode()).hexdigest(),
        }
    if isinstance(value, (list, tuple)):
        return [_memo_canonical(v) for v in value]
    return _canonical(value)


def memoize(func):
    """Decorator: compute identical calls once per process; each caller gets its own copy.

    Calls are identical when their arguments (defaults filled in) are: this process runs one
    version of the code, so the key holds no code or data digest, unlike :func:`key`.
    """
    memo: dict = {}
    signature = inspect.signature(func)

    @functools.wraps(func)
    def inner(*args, **kwargs):
        try:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            digest = json.dumps(
                {k: _memo_canonical(v) for k, v in bound.arguments.items()}, sort_keys=True
            )
        except TypeError:
            return func(*args, **kwargs)
        if digest not in memo:
            memo[digest] = func(*args, **kwargs)
        return copy.deepcopy(memo[digest])

    inner.cache_clear = memo.clear
    return inner
