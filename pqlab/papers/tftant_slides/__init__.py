"""The TF-TANT slides "Delay and Delay Variation Measurements in a Differentiated Services Test
Network" (T. Ferrari).

One module per artefact, named by its id (:mod:`pqlab.papers.registry`); a module without an
``ARTEFACT`` holds what two of them share.
"""
