"""The long version: T. Ferrari, G. Pau, C. Raffaelli, "Priority queueing applied to expedited
forwarding: a measurement-based analysis".

One module per artefact, named by its id (:mod:`pqlab.papers.registry`); a module without an
``ARTEFACT`` holds what two of them share.
"""
