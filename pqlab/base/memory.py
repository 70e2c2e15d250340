"""The memory a run can actually use, and a clear error before allocating more.

The machine's free memory is not what a process may use: a container's cgroup limit
(``memory.max``, cgroup v2; ``memory.limit_in_bytes``, v1) or an address-space limit
(``RLIMIT_AS``, ``ulimit -v``) can be far lower, and exceeding them gives a ``MemoryError``
after seconds of work or a kill by the out-of-memory killer. :func:`available_bytes` takes the
smallest of the three; :func:`check_available` raises :class:`NotEnoughMemory` (a
``MemoryError`` with one line naming what needs the memory, how much, the limit and a way out)
before anything is allocated.
"""

from __future__ import annotations

import contextlib
import os
import resource
from pathlib import Path

_CGROUP = Path("/sys/fs/cgroup")


class NotEnoughMemory(MemoryError):
    """A computation would need more memory than this process can use (nothing was allocated)."""


def _cgroup_dir() -> Path | None:
    """This process's cgroup v2 folder, or None."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            if line.startswith("0::"):
                return _CGROUP / line[3:].lstrip("/")
    return None


def _read_int(file: Path) -> int | None:
    with contextlib.suppress(OSError, ValueError):
        text = file.read_text().strip()
        return None if text == "max" else int(text)
    return None


def _cgroup_room() -> int | None:
    """Bytes the cgroup's limit leaves (limit - usage), or None without a limit."""
    folder = _cgroup_dir()
    if folder is not None:
        limit, used = _read_int(folder / "memory.max"), _read_int(folder / "memory.current")
        if limit is not None and used is not None:
            return max(0, limit - used)
    limit = _read_int(_CGROUP / "memory" / "memory.limit_in_bytes")  # cgroup v1
    used = _read_int(_CGROUP / "memory" / "memory.usage_in_bytes")
    if limit is not None and used is not None and limit < 2**60:
        return max(0, limit - used)
    return None


def _address_space_room() -> int | None:
    """Bytes ``RLIMIT_AS`` leaves above this process's current virtual size, or None without a
    limit."""
    import psutil

    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return None
    return max(0, soft - psutil.Process(os.getpid()).memory_info().vms)


def available_bytes() -> tuple[int, str]:
    """The memory this process can still use, bytes, and which limit sets it.

    Returns
    -------
    (int, str)
        The smallest of the machine's available memory, the cgroup limit's room and the
        address-space limit's room, and a description of that limit.
    """
    import psutil

    rooms = [(psutil.virtual_memory().available, "the machine's available memory")]
    cgroup, address = _cgroup_room(), _address_space_room()
    if cgroup is not None:
        rooms.append((cgroup, "the container's (cgroup) memory limit"))
    if address is not None:
        rooms.append((address, "the address-space limit (ulimit -v)"))
    return min(rooms)


def oom_kills() -> int | None:
    """How many processes of this cgroup the out-of-memory killer has ended (None: unknown)."""
    folder = _cgroup_dir()
    with contextlib.suppress(OSError, ValueError):
        for line in (folder / "memory.events").read_text().splitlines():
            name, value = line.split()
            if name == "oom_kill":
                return int(value)
    return None


def check_available(what: str, need_bytes: int, way_out: str) -> None:
    """Raise :class:`NotEnoughMemory` if ``need_bytes`` exceed :func:`available_bytes`.

    Parameters
    ----------
    what : str
        What needs the memory (named in the message).
    need_bytes : int
        Its estimated peak, bytes.
    way_out : str
        What to do instead (named in the message).
    """
    room, limit = available_bytes()
    if need_bytes > room:
        raise NotEnoughMemory(
            f"{what} would need about {_gib(need_bytes)}, more than the {_gib(room)} left "
            f"by {limit}; {way_out}"
        )


def _gib(n: int) -> str:
    return f"{n / 2**30:.3g} GiB"
