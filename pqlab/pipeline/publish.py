"""Publish a run in one step, and check that what is published is what its record says.

A reproduction is published into several folders: the figures folder (``out``: figures,
report, site) and the build folder's ``results``, ``notebooks``, ``html`` and ``logs``, which
may sit on different file systems. No single rename can replace them all, so a publish is
a **journalled switch** (:func:`switch`):

1. *prepare*: each new folder is moved next to its target as ``.pqlab-new-<name>`` (a rename,
   or a copy when the run folder is on another file system: a full disk fails here, and
   everything prepared is removed: nothing changed);
2. *commit*: the journal ``<build>/publish-journal.json`` is written (a new file renamed into
   place after ``fsync``): from this instant the publish is decided;
3. *switch*: each target is renamed to ``.pqlab-old-<name>`` and its new folder into place;
4. *clean up*: the old folders, then the journal, are removed.

``kill -9`` or a power cut at any point is repaired by :func:`recover`, which every run calls
before deciding anything: with a journal the switch is finished (every prepared folder goes
in), without one every prepared folder is removed (the previous publish stays).

Each publish writes a **manifest** (:data:`MANIFEST`) into both the figures folder and the
build's results: the publish id, where each folder is seen from the other, the seed and parameters, every section's
input key and the SHA-256 of every published file. :func:`verified` trusts a published
reproduction only when both manifests exist, name each other (the same publish id, this out
and this build: two outs sharing one build never take each other's results) and every file
still has its digest. Anything else is reported in one line and recomputed.

Both state files are read against their schema (:data:`MANIFEST_SCHEMA`, :data:`JOURNAL_SCHEMA`,
with :mod:`pqlab.pipeline.statefile`): a damaged manifest (not JSON, a field missing or of the wrong
type) is not trusted, named in the one line; a damaged journal is named and its publish rolled
back (it was renamed into place whole, so it is not pqlab's: what it named is not trusted either).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import shutil
from pathlib import Path

from . import interrupts, statefile

#: The journal of a publish in progress, in the build folder.
JOURNAL = "publish-journal.json"
#: The record of a publish, in the figures folder and in the build's results folder.
MANIFEST = ".pqlab-published.json"
_OLD = ".pqlab-old-"
_NEW = ".pqlab-new-"

#: What a manifest holds (:func:`write_manifests`): the publish id, where each folder is seen from
#: the other, the figures folder's absolute path, the seed and ``quick``, each section's input key
#: (null: unknown) and the SHA-256 of every published file of the figures and results folders.
MANIFEST_SCHEMA = statefile.record({
    "publish_id": statefile.text(), "out": statefile.path(), "build": statefile.path(),
    "out_path": statefile.path(absolute=True), "seed": statefile.integer(0), "quick": statefile.boolean(),
    "sections": statefile.mapping(statefile.nullable(statefile.text())),
    "files": statefile.record({"out": statefile.mapping(statefile.text()),
                               "results": statefile.mapping(statefile.text())}),
}, optional=("out_path", "seed", "quick"))
#: What a journal holds (:func:`switch`): the absolute path of every folder the publish replaces.
JOURNAL_SCHEMA = statefile.record({"targets": statefile.array(statefile.path(absolute=True), min_length=1)})


class OutputError(RuntimeError):
    """The reproduction could not be written (a full disk, an I/O error): nothing was published."""


def output_error(exc: OSError, doing: str) -> OutputError:
    """A one-line :class:`OutputError` for ``exc`` raised while ``doing`` (names the file and the way out)."""
    where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
    reason, code = exc.strerror or str(exc), exc.errno
    if isinstance(exc, shutil.Error) and exc.args and isinstance(exc.args[0], list) and exc.args[0]:
        _, where, why = exc.args[0][0]  # a copy across file systems: its first failed file
        where, reason = f" ({where})", str(why)
        code = next((c for c in (errno.ENOSPC, errno.EDQUOT) if f"[Errno {c}]" in reason), None)
    if code in (errno.ENOSPC, errno.EDQUOT):
        way_out = "free some space or choose another --out/--build"
    else:
        way_out = "check the folder's permissions and file system"
    return OutputError(f"{doing} failed: {reason}{where}; nothing was published, the previous "
                       f"reproduction is unchanged; {way_out}")


# --------------------------------------------------------------------------- manifests


def file_digests(folder: Path) -> dict[str, str]:
    """``relative path -> sha256`` of every file under ``folder`` (the manifest itself excluded;
    a symbolic link by its target path)."""
    digests = {}
    for path in sorted(Path(folder).rglob("*")):
        if path.name == MANIFEST:
            continue
        if path.is_symlink():
            digests[str(path.relative_to(folder))] = "symlink:" + os.readlink(path)
        elif path.is_file():
            digests[str(path.relative_to(folder))] = _sha256(path)
    return digests


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_manifests(new_out: Path, new_results: Path, *, publish_id: str, out_dir: Path, build_dir: Path,
                    sections: dict, about: dict) -> dict:
    """Write the manifest of a run about to be published into its figures and results folders.

    Parameters
    ----------
    new_out, new_results : pathlib.Path
        The run's figures folder and results folder (published as ``out_dir`` and
        ``<build_dir>/results``).
    publish_id : str
        Unique id of this publish (the run id).
    out_dir, build_dir : pathlib.Path
        Where the run is published.
    sections : dict
        Section (notebook) name -> the input key its results were computed from.
    about : dict
        Run parameters recorded with it (``seed``, ``quick``).
    """
    manifest = {"publish_id": publish_id, **_relation(out_dir, build_dir), "out_path": str(out_dir), **about,
                "sections": dict(sorted(sections.items())),
                "files": {"out": file_digests(new_out), "results": file_digests(new_results)}}
    text = json.dumps(manifest, indent=1, sort_keys=True)
    for folder in (new_out, new_results):
        (folder / MANIFEST).write_text(text, encoding="utf-8")
    return manifest


def _relation(out_dir: Path, build_dir: Path) -> dict:
    """Where each folder is seen from the other (relative: a tree moved whole stays trusted)."""
    return {"out": os.path.relpath(out_dir, build_dir), "build": os.path.relpath(build_dir, out_dir)}


def read_manifest(folder: Path) -> dict | None:
    """The manifest in ``folder`` (:data:`MANIFEST_SCHEMA`), None if there is none.

    Raises
    ------
    pqlab.pipeline.statefile.Damaged
        It cannot be read, is not JSON or does not match the schema (one line naming it).
    """
    return statefile.load(Path(folder) / MANIFEST, MANIFEST_SCHEMA)


def holds_publish(out_dir: Path, publish_id: str) -> bool:
    """Whether the figures folder ``out_dir`` records the publish ``publish_id`` in its manifest
    (none, or a damaged one: no)."""
    try:
        return (read_manifest(Path(out_dir)) or {}).get("publish_id") == publish_id
    except statefile.Damaged:
        return False


def verified(out_dir: Path, build_dir: Path) -> tuple[dict | None, str | None]:
    """The published reproduction's manifest if it can be trusted, else why not.

    Returns
    -------
    (manifest, None)
        Both manifests agree, name ``out_dir`` and ``build_dir``, and every file has its digest.
    (None, reason)
        One line naming the folder or file that does not match (None: nothing published yet).
    """
    out_dir, build_dir = Path(out_dir), Path(build_dir)
    results = build_dir / "results"
    try:
        mine, build = read_manifest(out_dir), read_manifest(results)
    except statefile.Damaged as exc:
        return None, str(exc)
    if mine is None and build is None:
        return None, (f"{results} holds no record of its publish (an older pqlab?)" if results.is_dir() else None)
    if mine is None and not (out_dir / "report.md").exists():
        return None, None  # nothing was published into this figures folder yet: nothing to distrust
    if mine is None:
        return None, f"the record {out_dir / MANIFEST} is missing"
    if build is None:
        return None, f"the record {results / MANIFEST} is missing"
    relation = _relation(out_dir, build_dir)
    if build["out"] != relation["out"]:
        was = (build_dir / build["out"]).resolve()
        return None, f"the build folder {build_dir} was last published into {was}, not {out_dir}"
    if mine["build"] != relation["build"]:
        was = (out_dir / mine["build"]).resolve()
        return None, f"{out_dir} was last published from the build folder {was}, not {build_dir}"
    if mine["publish_id"] != build["publish_id"]:
        return None, (f"{out_dir} holds the publish {mine['publish_id']}, {results} the publish "
                      f"{build['publish_id']}")
    if mine != build:
        return None, f"the records {out_dir / MANIFEST} and {results / MANIFEST} differ"
    for folder, listed in ((out_dir, mine["files"]["out"]), (results, mine["files"]["results"])):
        found = file_digests(folder)
        for name, digest in listed.items():
            if found.get(name) != digest:
                state = "is missing" if name not in found else "changed since it was published"
                return None, f"{folder / name} {state}"
    return mine, None


# --------------------------------------------------------------------------- the switch


def switch(pairs, build_dir: Path) -> None:
    """Replace every ``target`` by its ``new`` folder in one journalled step (module docstring).

    Ctrl-C (SIGINT) or SIGTERM, in whichever thread of the process it lands
    (:mod:`pqlab.pipeline.interrupts`): before the commit, every prepared folder is removed and
    ``KeyboardInterrupt`` raised (nothing changed); from the commit on, it is recorded, the
    switch is completed, and then ``KeyboardInterrupt`` is raised (the publish is whole).

    Parameters
    ----------
    pairs : list of (pathlib.Path, pathlib.Path)
        ``(new folder, target)``; ``new`` is moved (renamed, or copied across file systems).
    build_dir : pathlib.Path
        Where the journal is written.

    Raises
    ------
    OutputError
        Preparing failed (e.g. a full disk): every prepared folder was removed, nothing changed.
    KeyboardInterrupt
        Ctrl-C or SIGTERM: nothing changed if it came before the commit, else after the switch.
    """
    pairs = [(Path(new), Path(target)) for new, target in pairs]
    with interrupts.caught() as stop:
        staged = []
        try:
            for new, target in pairs:
                target.parent.mkdir(parents=True, exist_ok=True)
                prepared = target.with_name(f"{_NEW}{target.name}")
                staged.append(prepared)
                shutil.rmtree(prepared, ignore_errors=True)
                shutil.move(str(new), str(prepared))  # a rename, or a copy across file systems
            stop.deferring = True
            stop.check()  # a signal while preparing whose exception was lost: nothing is decided yet
            _write_journal(build_dir, [str(t) for _, t in pairs])
        except BaseException as exc:  # an error or a signal before the commit: nothing changes
            stop.deferring = True  # a second Ctrl-C does not cut the cleaning short
            for prepared in staged:
                shutil.rmtree(prepared, ignore_errors=True)
            with contextlib.suppress(OSError):
                (Path(build_dir) / JOURNAL).unlink()
            if isinstance(exc, OSError):
                raise output_error(exc, "publishing") from None
            raise
        _finish([t for _, t in pairs], build_dir)
    stop.check()  # the publish is whole: now the signal acts


def _write_journal(build_dir: Path, targets: list[str]) -> None:
    journal = Path(build_dir) / JOURNAL
    tmp = journal.with_name(f"{JOURNAL}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump({"targets": targets}, fh)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, journal)
    _fsync_dir(journal.parent)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _finish(targets, build_dir: Path) -> None:
    """Switch every prepared folder into place, then remove the old ones and the journal."""
    for target in targets:
        prepared, old = target.with_name(f"{_NEW}{target.name}"), target.with_name(f"{_OLD}{target.name}")
        if not prepared.exists():
            continue  # switched already
        if target.exists() or target.is_symlink():
            if old.exists():
                shutil.rmtree(old)
            os.rename(target, old)
        os.rename(prepared, target)
    for target in targets:
        shutil.rmtree(target.with_name(f"{_OLD}{target.name}"), ignore_errors=True)
    (Path(build_dir) / JOURNAL).unlink(missing_ok=True)


def recover(targets, build_dir: Path) -> str | None:
    """Repair a publish a crash interrupted (see the module docstring); return what was done.

    Parameters
    ----------
    targets : list of pathlib.Path
        The published folders (used when no journal names them).
    build_dir : pathlib.Path
        The build folder holding the journal.
    """
    journal = Path(build_dir) / JOURNAL
    try:
        entry = statefile.load(journal, JOURNAL_SCHEMA)
    except statefile.Damaged as exc:  # renamed into place whole: not a journal pqlab committed
        entry, undone = None, f"ignored the damaged journal {journal} ({exc.reason}) and rolled back its publish"
        with contextlib.suppress(OSError):
            journal.unlink()
    else:
        undone = None
    if entry is not None:
        _finish([Path(t) for t in entry["targets"]], build_dir)
        return "finished an interrupted publish"
    for target in map(Path, targets):
        prepared, old = target.with_name(f"{_NEW}{target.name}"), target.with_name(f"{_OLD}{target.name}")
        if prepared.exists():
            shutil.rmtree(prepared, ignore_errors=True)
            undone = undone or "rolled back an interrupted publish"
        if old.exists() and not target.exists():  # left by an earlier pqlab's unjournalled swap
            os.rename(old, target)
        shutil.rmtree(old, ignore_errors=True)
    journal.with_name(f"{JOURNAL}.tmp").unlink(missing_ok=True)
    return undone
