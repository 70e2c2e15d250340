"""The uncongested part of the measured path, added to the node's delay.

The papers' one-way delay runs from the SmartBits' sender wire to its receiver
wire (RFC 2679). Only the C7200 output interface is congested and simulated;
the rest of the path (ingress serialisation, the two uncongested C7500 hops,
propagation and device latency) adds a delay that depends only on the packet's
size: a fixed latency plus one store-and-forward serialisation per hop. This
module holds that model; its parameters are documented and fitted, never hidden.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np

from ..base._validate import (
    check_choice,
    check_fields,
    check_mapping,
    check_real,
    check_unmasked,
    from_part,
)
from ..base.jitcache import cached_njit
from .framing import FRAMING_CODES, packet_line_time_s


@dataclass(frozen=True)
class Hop:
    """One uncongested store-and-forward hop: the packet is serialised once at ``rate_bps``.

    Parameters
    ----------
    rate_bps : float
        Line rate of the hop, bit/s (> 0).
    framing : {"none", "atm-aal5", "ethernet"}
        Line framing of the hop.
    """

    rate_bps: float
    framing: str = "none"

    def __post_init__(self):
        object.__setattr__(
            self, "rate_bps", check_real("rate_bps", self.rate_bps, 0.0, strict_minimum=True)
        )
        check_choice("framing", self.framing, tuple(FRAMING_CODES))


@dataclass(frozen=True)
class PathModel:
    """Fixed part of the one-way delay outside the simulated node.

    ``extra(size) = fixed_s + sum over hops of wire_bytes(size, hop.framing) * 8 / hop.rate_bps``

    Parameters
    ----------
    fixed_s : float
        Size-independent latency (propagation, device processing), seconds (>= 0).
    hops : sequence of Hop
        Uncongested store-and-forward hops whose serialisation the packet pays once each.
    """

    fixed_s: float = 0.0
    hops: tuple = field(default_factory=tuple)

    def __post_init__(self):
        object.__setattr__(self, "fixed_s", check_real("fixed_s", self.fixed_s, 0.0))
        try:
            hops = tuple(self.hops)
        except TypeError:
            raise ValueError(
                f"hops must be a sequence of pqlab.node.path.Hop, got {self.hops!r}"
            ) from None
        for i, h in enumerate(hops):
            if not isinstance(h, Hop):
                raise ValueError(f"hops[{i}] must be a pqlab.node.path.Hop, got {type(h).__name__}")
        object.__setattr__(self, "hops", hops)

    def extra_delay_s(self, size_bytes):
        """Delay the path adds to packets of the given IP lengths, seconds.

        Parameters
        ----------
        size_bytes : int or array_like of int
            IP length(s), bytes (a masked array with a masked entry is refused).

        Returns
        -------
        float or numpy.ndarray
            ``fixed_s`` plus one serialisation time per hop.
        """
        sizes = np.asarray(check_unmasked("size_bytes", size_bytes), dtype=np.int64)
        total = np.empty(sizes.size)
        codes, rates = self.hop_arrays()
        flat = np.ascontiguousarray(sizes.ravel())
        _extra_delays_s(flat, float(self.fixed_s), codes, rates, total)
        total = total.reshape(sizes.shape)
        return float(total) if total.ndim == 0 else total

    def hop_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The hops' framing codes (int64) and line rates (bit/s, float64), in path order: the
        arguments of :func:`extra_delay_of`. Read-only, computed once per (frozen) path."""
        arrays = self.__dict__.get("_hop_arrays")
        if arrays is None:
            codes = np.array([FRAMING_CODES[h.framing] for h in self.hops], dtype=np.int64)
            rates = np.array([h.rate_bps for h in self.hops], dtype=np.float64)
            codes.flags.writeable = rates.flags.writeable = False
            arrays = self.__dict__["_hop_arrays"] = (codes, rates)
        return arrays

    def to_dict(self) -> dict:
        """Plain-data form (JSON-serialisable) for provenance."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> PathModel:
        """Inverse of :meth:`to_dict`.

        Raises
        ------
        ValueError
            Naming ``path``, ``hops`` or ``path.hops[i]`` and the key or value that is wrong.
        """
        data = check_fields(cls, check_mapping("path", data))
        hops = data.get("hops", ())
        if not isinstance(hops, (list, tuple)):
            raise ValueError(f"hops must be a list of hop mappings, got {hops!r}")
        built = []
        for i, hop in enumerate(hops):
            name = f"path.hops[{i}]"  # the lambda runs at once, in this iteration
            built.append(
                from_part(name, lambda h: Hop(**check_fields(Hop, check_mapping(name, h))), hop)
            )
        return cls(fixed_s=data.get("fixed_s", 0.0), hops=tuple(built))


@cached_njit(nogil=True)
def extra_delay_of(size_bytes, fixed_s, codes, rates):
    """:meth:`PathModel.extra_delay_s` of one packet, seconds: ``fixed_s``, then each hop's line
    time added in path order (``codes``, ``rates``: :meth:`PathModel.hop_arrays`)."""
    total = fixed_s
    for h in range(codes.shape[0]):
        total = total + packet_line_time_s(size_bytes, codes[h], rates[h])
    return total


@cached_njit(nogil=True)
def _extra_delays_s(sizes, fixed_s, codes, rates, out):
    for i in range(sizes.shape[0]):
        out[i] = extra_delay_of(sizes[i], fixed_s, codes, rates)
