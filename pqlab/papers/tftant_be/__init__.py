"""The TF-TANT test page "PQ performance with multiple BE streams in the background".

One module per artefact, named by its id (:mod:`pqlab.papers.registry`); a module without an
``ARTEFACT`` holds what two of them share.
"""
