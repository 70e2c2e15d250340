"""How an error message echoes what it was given: on one line, in at most :data:`ECHO_CHARS`.

What it does: :func:`echo` abridges a value's ``repr`` (long sequences, arrays and strings cut
by :mod:`reprlib`, never rendered whole); :func:`echo_typed` cuts the whole ``repr`` of what a
user typed (a command-line value) and says its length, so a 1 MB ``-p`` value is named as such.

Exports: :data:`ECHO_CHARS`, :func:`echo`, :func:`echo_typed`.

May import: the standard library only (the command line's start-up path reads it; a module of
``pqlab.base``).
"""

from __future__ import annotations

import reprlib

__all__ = ["ECHO_CHARS", "echo", "echo_typed"]

#: Most characters of a given value an error message echoes.
ECHO_CHARS = 80
_ECHO = reprlib.Repr()
_ECHO.maxstring = _ECHO.maxother = ECHO_CHARS


def echo(value) -> str:
    """A short ``repr`` of what was given, for an error message: at most :data:`ECHO_CHARS`
    characters on one line (long sequences and strings abridged with ``...``)."""
    text = " ".join(_ECHO.repr(value).split())
    return text if len(text) <= ECHO_CHARS else text[: ECHO_CHARS - 3] + "..."


def echo_typed(value, quotes: bool = True) -> str:
    """``repr(value)``, at most :data:`ECHO_CHARS` characters (a longer one cut, its length
    said); ``quotes=False``: a string's ``repr`` without its quotes (a name inside a longer
    word, ``NOTEBOOK:NAME``)."""
    text = repr(value)[1:-1] if not quotes and isinstance(value, str) else repr(value)
    if len(text) <= ECHO_CHARS:
        return text
    tail = f"... ({len(text):,} characters)"
    return text[: ECHO_CHARS - len(tail)] + tail
