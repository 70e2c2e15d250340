"""pqlab's own analysis: the measurement path the papers describe and the hypotheses that explain
the gap
between the simulated node and the measurements.

One module per artefact, named by its id (:mod:`pqlab.papers.registry`); a module without an
``ARTEFACT`` holds what two of them share.
"""
