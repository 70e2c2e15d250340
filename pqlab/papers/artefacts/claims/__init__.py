"""Claims: each artefact's data judged against the papers, one module per compute module.

``pqlab.papers.artefacts.claims.<section>.<artefact id>_claims(data)`` turns what
``pqlab.papers.artefacts.<section>.<artefact id>(...)`` computed into claim records
(:func:`pqlab.papers.artefacts._common.claim`): the paper key, our value in the paper's
unit, a one-line computed note and whether the paper's shape holds. The thresholds
that decide a verdict are named constants at the top of each module, each with the
reason for its value. The compute modules return data only and do not import this
package: a caller imports the claims module it uses by name, e.g.
``from pqlab.papers.artefacts.claims import aggregation as agg_claims`` and then
``agg_claims.globecom01_fig7_claims(data)``. The verdict rules two sections share are
in :mod:`pqlab.papers.artefacts.claims.rules`.
"""
