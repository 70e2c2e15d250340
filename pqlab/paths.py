"""Absolute paths of the project's folders, so code runs from any working directory.

pqlab is installed editable (``pip install -e .``) from its source tree; the data
files, notebooks and figure folder live beside the package.
"""

from pathlib import Path

#: The source tree (the folder holding ``pqlab/``, ``data/``, ``notebooks/``).
ROOT = Path(__file__).resolve().parents[1]
#: Inputs with provenance: the stand-in packet size distribution, the papers' values.
DATA = ROOT / "data"
#: Parameterized notebooks, one per paper section.
NOTEBOOKS = ROOT / "notebooks"
#: Where ``pqlab reproduce`` writes figures and the report.
FIGURES = ROOT / "figures"
#: Executed notebooks and per-notebook results.
BUILD = ROOT / "build"
