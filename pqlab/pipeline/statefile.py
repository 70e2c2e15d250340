"""Read the pipeline's JSON state files, each checked against its schema.

A state file is a record pqlab writes for itself: the publish manifest and journal
(:mod:`pqlab.pipeline.publish`), the run lock (:mod:`pqlab.pipeline.runlock`), a section's input key
(:mod:`pqlab.pipeline.runfolder`). Each module states its file's schema once, with the field types
below, and reads the file only through :func:`load`. A file that does not parse, is not an
object, lacks a field or holds a field of another type or out of range was not written by
pqlab as it is (a disk error, an edit, another program): :func:`load` raises :class:`Damaged`,
one line naming the file and the first wrong field, and the reader decides what a damaged file
means (see each module).

A schema is built from :func:`record`, :func:`mapping`, :func:`array`, :func:`text`,
:func:`path`, :func:`integer`, :func:`number`, :func:`boolean` and :func:`nullable`; each is a
function ``check(value, where)`` that raises :class:`Wrong` if ``value`` (found at ``where``)
does not match.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path


class Damaged(ValueError):
    """A state file that does not hold what pqlab writes.

    Attributes
    ----------
    file : pathlib.Path
        The file.
    reason : str
        What is wrong, e.g. ``pid must be an integer from 1 to 4194304, got -5``.
    """

    def __init__(self, file, reason: str):
        self.file, self.reason = Path(file), reason
        super().__init__(f"{self.file} is damaged: {reason}")


class Wrong(Exception):
    """A value that does not match its schema: ``where`` it is, what it ``must`` be, the value."""

    def __init__(self, where: str, must: str, value, *, missing: bool = False):
        self.where, self.must, self.value = where, must, value
        super().__init__(f"{where} is missing" if missing
                         else f"{where or 'its content'} must be {must}, got {_shown(value)}")


def _shown(value) -> str:
    try:
        text = json.dumps(value, allow_nan=True)
    except (TypeError, ValueError):  # pragma: no cover - every value read from JSON dumps
        text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


def load(file, schema, *, empty_is_absent: bool = False) -> dict | list | None:
    """The JSON in ``file``, checked against ``schema``; None if the file does not exist.

    Parameters
    ----------
    file : str or os.PathLike
        The state file.
    schema : callable
        ``check(value, where)`` (see the module docstring).
    empty_is_absent : bool
        Read an empty file as absent (a file created and not yet written, e.g. a lock).

    Raises
    ------
    Damaged
        The file cannot be read, does not parse or does not match ``schema``.
    """
    file = Path(file)
    try:
        raw = file.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise Damaged(file, f"it cannot be read ({exc.strerror or exc})") from None
    if not raw.strip():
        if empty_is_absent:
            return None
        raise Damaged(file, "it is empty")
    try:
        value = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError) as exc:  # ValueError: also bad UTF-8, an integer of 4300+ digits
        reason = "it is nested too deeply" if isinstance(exc, RecursionError) else f"it is not JSON ({exc})"
        raise Damaged(file, reason) from None
    try:
        schema(value, "")
    except Wrong as exc:
        raise Damaged(file, str(exc)) from None
    return value


# --------------------------------------------------------------------------- field types


def _at(where: str, key) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else str(key)


def record(fields: dict, optional=()):
    """An object with the named ``fields`` (name -> type); those in ``optional`` may be absent.
    Other fields are allowed (written by a later pqlab)."""
    def check(value, where):
        if not isinstance(value, dict):
            raise Wrong(where, f"an object with {', '.join(fields)}", value)
        for name, kind in fields.items():
            if name in value:
                kind(value[name], _at(where, name))
            elif name not in optional:
                raise Wrong(_at(where, name), "present", None, missing=True)
    return check


def mapping(kind):
    """An object whose every value is of type ``kind`` (keys are any text)."""
    def check(value, where):
        if not isinstance(value, dict):
            raise Wrong(where, "an object", value)
        for key, item in value.items():
            kind(item, f"{where}[{json.dumps(key)}]")
    return check


def array(kind, min_length: int = 0):
    """A list of at least ``min_length`` items, each of type ``kind``."""
    def check(value, where):
        if not isinstance(value, list) or len(value) < min_length:
            raise Wrong(where, f"a list of at least {min_length} item(s)", value)
        for index, item in enumerate(value):
            kind(item, _at(where, index))
    return check


def _instance(kind: type, must: str):
    def check(value, where):
        if not isinstance(value, kind):
            raise Wrong(where, must, value)
    return check


def text():
    """A string."""
    return _instance(str, "text")


def path(absolute: bool = False):
    """A non-empty string usable as a file path (no NUL character); with ``absolute``, an absolute one."""
    def check(value, where):
        usable = isinstance(value, str) and value and "\0" not in value
        if not usable or (absolute and not os.path.isabs(value)):
            raise Wrong(where, "an absolute path" if absolute else "a path", value)
    return check


def integer(low: int, high: int | None = None):
    """An integer (not a boolean) from ``low`` to ``high`` (None: no upper bound)."""
    must = f"an integer from {low} to {high}" if high is not None else f"an integer >= {low}"

    def check(value, where):
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
            raise Wrong(where, must, value)
    return check


def number(low: float, high: float):
    """A finite number (not a boolean) from ``low`` to ``high``."""
    def check(value, where):
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or (isinstance(value, float) and not math.isfinite(value)) or not low <= value <= high:
            raise Wrong(where, f"a number from {low:g} to {high:g}", value)
    return check


def boolean():
    """true or false."""
    return _instance(bool, "true or false")


def nullable(kind):
    """null, or a value of type ``kind``."""
    def check(value, where):
        if value is not None:
            try:
                kind(value, where)
            except Wrong as exc:
                raise Wrong(where, f"null or {exc.must}", value) from None
    return check
