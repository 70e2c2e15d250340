"""pqlab's environment locks (``run.txt``, ``test.txt``), shipped inside pqlab as package data
(``pqlab._requirements``) so that an installed pqlab can say whether it runs the locked versions.

This file only makes the folder a package so setuptools maps it into the wheel and the editable
install (see pyproject.toml); read the locks through :mod:`pqlab.base.versions`. ``refresh.sh``
rewrites
them (docs/environment.md).
"""
