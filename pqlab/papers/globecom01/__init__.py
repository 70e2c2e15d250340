"""GLOBECOM'01: T. Ferrari, G. Pau, C. Raffaelli, "Measurement-based analysis of delay in priority
queuing", IEEE GLOBECOM'01.

One module per artefact, named by its id (:mod:`pqlab.papers.registry`); a module without an
``ARTEFACT`` holds what two of them share.
"""
