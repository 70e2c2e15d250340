"""The TF-TANT test page "Priority Queuing and Weighted Fair Queuing for the support of EF traffic".

One module per artefact, named by its id (:mod:`pqlab.papers.registry`); a module without an
``ARTEFACT`` holds what two of them share.
"""
