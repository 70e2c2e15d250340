"""The papers: their stated test bed, their presets, the test-bed model and the artefacts.

What it does: ``stated`` (the test bed as the papers state it: :data:`PAPERS`, the EF frame,
the papers' node :func:`cisco7200_atm`, the transmission unit), ``records`` (what the notebooks
record and the papers' values: the format the artefacts write and the report reads), ``presets``
(every configuration
of the papers as a named :class:`~pqlab.node.scenario.Scenario`),
``testbed`` and ``testbed_eval`` (the calibrated model of the measured test bed and its
evaluation against every result), ``registry`` (the artefacts, found by importing the document
folders ``globecom01``, ``long``, ``tftant_wfq``, ``tftant_slides``, ``tftant_be`` and ``analysis``:
one module per figure or table, holding its computation, claims and figure) and ``kit`` (what
every artefact module shares).

Exports: the stated test bed's names (``from pqlab.papers import PAPERS``) and those modules;
``pqlab.scenarios`` is the public name of ``presets``.

May import: ``pqlab.measure``, ``pqlab.node`` and ``pqlab.base`` (and ``pqlab._version``);
never the pipeline or the lab, which use the papers' layer.
"""

from typing import TYPE_CHECKING

from ..base import lazy as _lazy

# Imported when first used (pqlab.base.lazy reads this block): the registry loads no engine.
if TYPE_CHECKING:
    from .stated import (
        EF_FRAME_BYTES,
        EF_IP_BYTES,
        ETHERNET_FRAME_OVERHEAD_BYTES,
        PAPERS,
        StatedTestBed,
        cisco7200_atm,
        transmission_unit_s,
        transmission_units,
    )

__getattr__, __dir__ = _lazy.attach(__name__)

__all__ = [
    "ETHERNET_FRAME_OVERHEAD_BYTES",
    "EF_FRAME_BYTES",
    "EF_IP_BYTES",
    "StatedTestBed",
    "PAPERS",
    "cisco7200_atm",
    "transmission_unit_s",
    "transmission_units",
    "stated",
    "records",
    "presets",
    "testbed",
    "testbed_eval",
    "registry",
    "kit",
]
