"""The paper notebooks, shipped inside pqlab as package data (``pqlab._notebooks``).

This file only makes the folder a package so setuptools maps it into the wheel and the
editable install (see pyproject.toml); read the notebooks through :mod:`pqlab.base.locations`.
"""
