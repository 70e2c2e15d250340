"""``pqlab lab [DIR]``: copy the teaching lab's notebooks into a folder and start JupyterLab there.

The notebooks come from the package's resources (:data:`pqlab.base.locations.LAB_NOTEBOOKS`), so
this
works from an installed wheel. A student's copy is never overwritten: a notebook already in
the folder that differs from the shipped one is kept unless ``force`` is given.
"""

from __future__ import annotations

import filecmp
import importlib.util
import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

from ..base import locations

#: Default folder of ``pqlab lab``, in the current folder.
DEFAULT_DIR = "pqlab-lab"
#: How to get the front end when it is missing.
INSTALL_HINT = 'pip install "pqlab[lab]"'


def copy_notebooks(folder, *, force: bool = False) -> dict[str, list[Path]]:
    """Copy the lab notebooks into ``folder`` (created).

    Parameters
    ----------
    folder : str or os.PathLike
        Target folder.
    force : bool
        Overwrite notebooks the folder already holds and that differ from the shipped ones.

    Returns
    -------
    dict
        ``{"copied": [...], "unchanged": [...], "kept": [...]}``: files written, files
        already identical, and edited copies left as they were.
    """
    target = Path(folder).resolve()
    if target.exists() and not target.is_dir():
        raise ValueError(f"lab folder {target} exists and is not a folder")
    target.mkdir(parents=True, exist_ok=True)
    done: dict[str, list[Path]] = {"copied": [], "unchanged": [], "kept": []}
    for source in sorted(locations.LAB_NOTEBOOKS.glob("*.ipynb")):
        dest = target / source.name
        if dest.exists() and filecmp.cmp(source, dest, shallow=False):
            done["unchanged"].append(dest)
        elif dest.exists() and not force:
            done["kept"].append(dest)
        else:
            shutil.copyfile(source, dest)
            done["copied"].append(dest)
    return done


def new_token() -> str:
    """A fresh random access token for the lab's JupyterLab server (48 hexadecimal digits)."""
    return secrets.token_hex(24)


def lab_url(token: str, port: int | None = None) -> str:
    """The address to open the lab at, with its token (JupyterLab's default port 8888 when none is
    given;
    JupyterLab may take the next free one and then prints its own)."""
    return f"http://127.0.0.1:{8888 if port is None else int(port)}/lab?token={token}"


def jupyterlab_command(
    folder, *, port: int | None = None, browser: bool = True, token: str | None = None
) -> list[str]:
    """The command that starts JupyterLab in ``folder`` with this Python (with ``token`` as its
    access
    token; None: JupyterLab makes one and prints it).

    Raises
    ------
    ValueError
        If ``token`` is empty or blank (that would switch the server's authentication off).
    """
    command = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={Path(folder).resolve()}"]
    if token is not None:
        if not str(token).strip():
            raise ValueError(
                "the access token must not be empty (an empty token switches authentication off)"
            )
        command.append(f"--IdentityProvider.token={token}")
    if port is not None:
        command += [
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={int(port)}",
            "--ServerApp.port_retries=0",
        ]
    if not browser:
        command.append("--no-browser")
    if (
        hasattr(os, "geteuid") and os.geteuid() == 0
    ):  # containers and CI: Jupyter refuses root otherwise
        command.append("--allow-root")
    return command


def have_jupyterlab() -> bool:
    """Whether JupyterLab is importable by this Python."""
    return importlib.util.find_spec("jupyterlab") is not None


def start(
    folder, *, port: int | None = None, browser: bool = True, token: str | None = None
) -> int:
    """Run JupyterLab in ``folder`` until it stops; its exit code.

    Raises
    ------
    ValueError
        If JupyterLab is not installed (names the command that installs it).
    """
    if not have_jupyterlab():
        raise ValueError(
            f"JupyterLab is not installed; install the lab's front end with: {INSTALL_HINT}"
        )
    try:
        return subprocess.call(jupyterlab_command(folder, port=port, browser=browser, token=token))
    except KeyboardInterrupt:
        return 130
