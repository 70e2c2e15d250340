"""The data files (papers' values, stand-in BE size distribution), shipped inside pqlab as
package data (``pqlab._data``).

This file only makes the folder a package so setuptools maps it into the wheel and the
editable install (see pyproject.toml); read the files through :mod:`pqlab.base.locations`.
"""
