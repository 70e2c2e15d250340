"""The teaching lab: the helpers the lab notebooks call, and ``pqlab lab`` that opens them in
JupyterLab.

What it does: ``exercises`` (each experiment a student runs is one call; each exercise's
answer is computed by pqlab and checked within its tolerance; the fast redraw behind the
sliders), ``diffserv`` and ``diffserv_figures`` (the DiffServ lab: EF under PQ, WFQ and DRR,
an AF class under WRED with colour marking, and their figures), ``panel`` (sliders that
redraw a figure) and ``jupyter`` (copy the lab notebooks into a folder and start JupyterLab there).

Exports: the notebooks' helpers (``from pqlab import lab; lab.check("01.2", value)``: every
name of :mod:`pqlab.lab.exercises`) and the modules.

May import: every layer below: ``pqlab.papers``, ``pqlab.measure``, ``pqlab.node``,
``pqlab.base``; ``jupyter`` only ``pqlab.base``. Nothing imports the lab but the CLI.
"""

from typing import TYPE_CHECKING

from ..base import lazy as _lazy

if TYPE_CHECKING:  # imported when first used (pqlab.base.lazy reads this block)
    # the notebooks' helpers, listed in exercises.__all__
    from . import (  # noqa: F401  (for type checkers)
        diffserv,
        diffserv_figures,
        exercises,
        jupyter,
        panel,
    )
    from .exercises import *  # noqa: F401,F403

__getattr__, __dir__ = _lazy.attach(__name__)
__all__ = _lazy.names(__name__)
