"""The manual's pages, shipped inside pqlab as package data (``pqlab._docs``).

This file only makes the folder a package so setuptools maps it into the wheel and the
editable install (see pyproject.toml); read the pages through :mod:`pqlab.base.locations`.
"""
