"""The teaching lab: the helpers the lab notebooks call, and ``pqlab lab`` that opens them in JupyterLab.

What it does: ``exercises`` (each experiment a student runs is one call; each exercise's
answer is computed by pqlab and checked within its tolerance; the fast redraw behind the
sliders) and ``jupyter`` (copy the lab notebooks into a folder and start JupyterLab there).

Exports: the notebooks' helpers (``from pqlab import lab; lab.check("01.2", value)``: every
name of :mod:`pqlab.lab.exercises`) and the two modules.

May import: every layer below: ``pqlab.papers``, ``pqlab.measure``, ``pqlab.node``,
``pqlab.base``; ``jupyter`` only ``pqlab.base``. Nothing imports the lab but the CLI.
"""

from .exercises import *  # noqa: F401,F403  (the notebooks' helpers, listed in exercises.__all__)
from .exercises import __all__ as _exercises_all

__all__ = [*_exercises_all, "exercises", "jupyter"]
