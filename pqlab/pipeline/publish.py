"""Publish a run in one atomic step, and check that what is published is what its record says.

A run writes only its own folder, ``<build>/runs/<run id>/`` (``out/``, ``results/``,
``notebooks/``, ``html/``, ``logs/``). The figures folder ``out`` is a symbolic link to the
``out/`` of the run it shows, and the build folder's ``results``, ``notebooks``, ``html`` and
``logs`` are links that reach the same run through it (``<build>/results`` ->
``<out>/../results``). Publishing a run (:func:`switch`) replaces the figures folder's link by
a new one with ``os.replace``, one atomic rename: ``kill -9``, a power cut or Ctrl-C at any
instant leaves the previous reproduction or the new one whole, never a mix, and nothing to
repair. A figures folder that is a real folder (from an earlier pqlab, or made by hand) is
swapped for the link in one step too (``renameat2`` with ``RENAME_EXCHANGE``, Linux).

Each run folder names the figures folder it was published into (the link
:data:`PUBLISHED_INTO`): :func:`clean_runs` keeps the runs a figures folder shows and removes the
others (superseded or interrupted runs). Each publish writes a **manifest** (:data:`MANIFEST`, in
the run's ``out/``): the publish id, the seed and parameters, every section's input key and the
SHA-256 of every published file; :func:`verified` trusts a published reproduction only when
its manifest matches its schema (:data:`MANIFEST_SCHEMA`, a JSON Schema checked by
``jsonschema``) and every file still has its digest. Anything else is reported in one line.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import hashlib
import json
import os
import shutil
from pathlib import Path

#: The record of a publish, in the run's figures folder.
MANIFEST = ".pqlab-published.json"
#: Inside a run folder: a link to the figures folder the run was published into.
PUBLISHED_INTO = "published-into"
#: Folders of a run the build folder shows, as links through the figures folder.
BUILD_PARTS = ("results", "notebooks", "html", "logs")
#: Name prefix of the links and folders a publish makes next to the figures folder.
_TEMP = ".pqlab-swap-"
_FILES = {"type": "object", "additionalProperties": {"type": "string"}}
#: What a manifest holds (:func:`write_manifest`), as a JSON Schema.
MANIFEST_SCHEMA = {
    "type": "object",
    "required": ["publish_id", "sections", "files"],
    "properties": {
        "publish_id": {"type": "string"},
        "out_path": {"type": "string", "minLength": 1},
        "seed": {"type": "integer", "minimum": 0},
        "quick": {"type": "boolean"},
        "sections": {"type": "object", "additionalProperties": {"type": ["string", "null"]}},
        "files": {
            "type": "object",
            "required": ["out", "results"],
            "properties": {"out": _FILES, "results": _FILES},
        },
    },
}


class OutputError(RuntimeError):
    """The reproduction could not be written (a full disk, an I/O error): nothing was published."""


class Damaged(ValueError):
    """A state file that does not hold what pqlab writes (``file``; ``reason``: what is wrong)."""

    def __init__(self, file, reason: str):
        self.file, self.reason = Path(file), reason
        super().__init__(f"{self.file} is damaged: {reason}")


def output_error(exc: OSError, doing: str) -> OutputError:
    """A one-line :class:`OutputError` for ``exc`` raised while ``doing`` (names the file and the
    way out)."""
    where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
    reason, code = exc.strerror or str(exc), exc.errno
    if isinstance(exc, shutil.Error) and exc.args and isinstance(exc.args[0], list) and exc.args[0]:
        _, where, why = exc.args[0][0]  # a copy: its first failed file
        where, reason = f" ({where})", str(why)
        code = next((c for c in (errno.ENOSPC, errno.EDQUOT) if f"[Errno {c}]" in reason), None)
    if code in (errno.ENOSPC, errno.EDQUOT):
        way_out = "free some space or choose another --out/--build"
    else:
        way_out = "check the folder's permissions and file system"
    return OutputError(
        f"{doing} failed: {reason}{where}; nothing was published, the previous "
        f"reproduction is unchanged; {way_out}"
    )


def load_state(file, schema: dict):
    """The JSON in ``file`` checked against the JSON Schema ``schema``; None if there is no file.

    Raises
    ------
    Damaged
        The file cannot be read, is not JSON or does not match ``schema`` (one line naming the
        first wrong field).
    """
    import jsonschema

    try:
        raw = Path(file).read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise Damaged(file, f"it cannot be read ({exc.strerror or exc})") from None
    try:
        value = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError) as exc:  # also bad UTF-8, a nesting too deep
        raise Damaged(file, f"it is not JSON ({str(exc)[:80]})") from None
    errors = jsonschema.Draft202012Validator(schema).iter_errors(value)
    error = jsonschema.exceptions.best_match(errors)
    if error is not None:
        where = ".".join(map(str, error.absolute_path)) or "its content"
        message = error.message if len(error.message) <= 100 else f"{error.message[:97]}..."
        raise Damaged(file, f"{where}: {message}")
    return value


# --------------------------------------------------------------------------- what is published


def shown_run(out_dir) -> Path | None:
    """The run folder the figures folder ``out_dir`` shows (a link to its ``out/``), else None."""
    out_dir = Path(out_dir)
    if not out_dir.is_symlink():
        return None
    try:
        target = out_dir.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    run = target.parent
    return run if target.name == "out" and (run / PUBLISHED_INTO).is_symlink() else None


def published_path(folder, resolved: Path) -> Path:
    """The figures folder ``folder`` (``resolved``: its absolute path, links resolved) as
    pqlab publishes it: the link itself when it is one to a run (its parent resolved)."""
    absolute = Path(os.path.abspath(os.fsdecode(folder)))
    link = absolute.parent.resolve() / absolute.name
    return link if shown_run(link) is not None else resolved


def holds_publish(out_dir, publish_id: str) -> bool:
    """Whether the figures folder ``out_dir`` shows the run ``publish_id``."""
    run = shown_run(out_dir)
    return run is not None and run.name == publish_id


def file_digests(folder: Path) -> dict[str, str]:
    """``relative path -> sha256`` of every file under ``folder`` (the manifest excluded; a
    symbolic link by its target path)."""
    digests = {}
    for path in sorted(Path(folder).rglob("*")):
        if path.name == MANIFEST:
            continue
        if path.is_symlink():
            digests[str(path.relative_to(folder))] = "symlink:" + os.readlink(path)
        elif path.is_file():
            digest = hashlib.sha256()
            with open(path, "rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    digest.update(block)
            digests[str(path.relative_to(folder))] = digest.hexdigest()
    return digests


def write_manifest(run: Path, *, out_dir: Path, sections: dict, about: dict) -> dict:
    """Write the manifest of the run folder ``run``, about to be published into ``out_dir``.

    Parameters
    ----------
    run : pathlib.Path
        The run folder (its name is the publish id).
    out_dir : pathlib.Path
        The figures folder it is published into.
    sections : dict
        Section (notebook) name -> the input key its results were computed from.
    about : dict
        Run parameters recorded with it (``seed``, ``quick``).
    """
    manifest = {
        "publish_id": run.name,
        "out_path": str(out_dir),
        **about,
        "sections": dict(sorted(sections.items())),
        "files": {part: file_digests(run / part) for part in ("out", "results")},
    }
    text = json.dumps(manifest, indent=1, sort_keys=True)
    (run / "out" / MANIFEST).write_text(text, encoding="utf-8")
    return manifest


def read_manifest(folder: Path) -> dict | None:
    """The manifest in ``folder`` (:data:`MANIFEST_SCHEMA`), None if there is none.

    Raises
    ------
    Damaged
        It cannot be read, is not JSON or does not match the schema (one line naming it).
    """
    return load_state(Path(folder) / MANIFEST, MANIFEST_SCHEMA)


def verified(out_dir, build_dir) -> tuple[dict | None, str | None]:
    """The published reproduction's manifest if it can be trusted, else why not.

    Returns
    -------
    (manifest, None)
        ``out_dir`` shows a run whose manifest matches its schema and every file its digest.
    (None, reason)
        One line naming the folder or file that does not match (None: nothing published yet).
    """
    out_dir, build_dir = Path(out_dir), Path(build_dir)
    run = shown_run(out_dir)
    if run is None:
        if (out_dir / "report.md").exists():
            return None, f"{out_dir} is a folder, not a link to the run it shows (an older pqlab?)"
        return None, None  # nothing was published into this figures folder yet
    try:
        manifest = read_manifest(run / "out")
    except Damaged as exc:
        return None, f"{out_dir / MANIFEST} is damaged: {exc.reason}"
    if manifest is None:
        return None, f"the record {out_dir / MANIFEST} is missing"
    for part, shown in (("out", out_dir), ("results", build_dir / "results")):
        found, listed = file_digests(run / part), manifest["files"][part]
        for name, digest in listed.items():
            if found.get(name) != digest:
                state = "is missing" if name not in found else "changed since it was published"
                return None, f"{shown / name} {state}"
    return manifest, None


# --------------------------------------------------------------------------- the switch


def switch(run: Path, out_dir: Path, build_dir: Path) -> None:
    """Publish the run folder ``run``: ``out_dir`` shows its ``out/`` from one atomic rename on.

    Then (best effort: a step cut short is done by the next run) the build folder's
    :data:`BUILD_PARTS` are pointed through ``out_dir``, and the runs it no longer shows are
    removed (:func:`clean_runs`).

    Raises
    ------
    OutputError
        The link could not be made (e.g. a full disk): nothing was published.
    """
    run, out_dir, build_dir = Path(run), Path(out_dir), Path(build_dir)
    link = out_dir.with_name(f"{_TEMP}{out_dir.name}-{os.getpid()}")
    try:
        _link(run / PUBLISHED_INTO, os.path.relpath(out_dir, run))
        _link(link, os.path.relpath(run / "out", out_dir.parent))
        if out_dir.is_dir() and not out_dir.is_symlink():  # a real folder: swapped for the link
            _exchange(link, out_dir)
        else:
            os.replace(link, out_dir)  # the publish
    except OSError as exc:
        with contextlib.suppress(OSError):
            link.unlink()
        raise output_error(exc, "publishing") from None
    with contextlib.suppress(OSError):
        through = os.path.relpath(out_dir, build_dir)
        for part in BUILD_PARTS:
            target, where = os.path.join(through, os.pardir, part), build_dir / part
            if not (where.is_symlink() and os.readlink(where) == target):
                if where.exists() and not where.is_symlink():  # a folder of an earlier pqlab
                    os.rename(where, build_dir / "runs" / f"{_TEMP}{part}-{run.name}")
                _link(build_dir / f"{_TEMP}{part}", target)
                os.replace(build_dir / f"{_TEMP}{part}", where)
        remove_leftovers(out_dir, build_dir)


def remove_leftovers(out_dir: Path, build_dir: Path) -> None:
    """Remove what a publish cut short left next to ``out_dir`` and the runs it no longer shows."""
    for left in Path(out_dir).parent.glob(f"{_TEMP}{Path(out_dir).name}-*"):
        if left.is_symlink() or left.is_file():
            left.unlink()
        else:
            shutil.rmtree(left, ignore_errors=True)
    clean_runs(build_dir)


def clean_runs(build_dir: Path, keep: Path | None = None, failed: bool = True) -> None:
    """Remove every run folder of ``build_dir`` that no figures folder shows, but ``keep`` and
    (with ``failed``) the failed runs kept for inspection."""
    runs = Path(build_dir) / "runs"
    for run in runs.iterdir() if runs.is_dir() else ():
        if run == keep or (failed and (run / "failed").exists()):
            continue
        back = run / PUBLISHED_INTO
        if back.is_symlink() and shown_run(back) == run.resolve():
            continue
        shutil.rmtree(run, ignore_errors=True)


def _link(link: Path, target: str) -> None:
    """Make ``link`` a symbolic link to ``target`` (replacing a link of that name)."""
    with contextlib.suppress(FileNotFoundError):
        link.unlink()
    os.symlink(target, link)


def _exchange(new: Path, old: Path) -> None:
    """Swap the names ``new`` and ``old`` in one step (Linux ``renameat2`` ``RENAME_EXCHANGE``);
    where the system cannot, ``old`` is renamed aside first."""
    try:
        rename = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        rename = None
    at_cwd, exchange = -100, 2  # AT_FDCWD, RENAME_EXCHANGE (linux/fcntl.h, linux/fs.h)
    if rename is not None and not rename(
        at_cwd, os.fsencode(new), at_cwd, os.fsencode(old), exchange
    ):
        return
    code = ctypes.get_errno() if rename is not None else errno.ENOSYS
    if code not in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        raise OSError(code, os.strerror(code), str(old))
    aside = new.with_name(f"{new.name}-old")
    os.rename(old, aside)
    os.replace(new, old)
