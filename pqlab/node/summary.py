"""Per-flow and per-class summaries accumulated online, mergeable: counts, losses, delay, IPDV,
percentiles.

:class:`FlowSummary` takes resolved batches of packets (in arrival order, as
:func:`pqlab.node.streaming.run_batches` yields them) and keeps, per flow and per class (the
packet's queue index, coordinate ``traffic_class``): packets and bytes offered and kept,
losses by cause, one-way delay and IPDV moments, min/max, fixed-bin histograms of a flow's
delay and IPDV, and log-binned histograms (:class:`pqlab.base.sketch.LogBins`) of the delay
and of |IPDV| from which percentiles within a stated relative error are read, and, with
``colours``, the packets offered and dropped per colour group (markers, rule 1a). Every
accumulator is a count, a sum or an extreme, so two summaries combine into the summary of all
their packets: consecutive batches of one run with :meth:`FlowSummary.followed_by` (the IPDV
pair spanning them is formed from the first and last delays each keeps per flow), independent
runs (seeds, dask workers) with :meth:`FlowSummary.merge` (pooled). The counts, histograms and
percentiles of a combination equal the one-shot summary's exactly, the sums up to rounding.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable

import numpy as np
import xarray as xr

from ..base._validate import check_array, check_int, check_memory, check_real, echo, shown
from ..base.jitcache import cached_njit
from ..base.percentiles import check_percentiles, percentile_names
from ..base.sketch import DEFAULT_ALPHA, LogBins, bin_of
from .engine import EARLY_DROP, KEPT, MAX_SIZE_BYTES, POLICED, QUEUE_FULL
from .markers import COLOUR_NAMES, UNMARKED
from .measured import is_measured
from .path import PathModel

#: Largest fixed-bin histogram of one flow, bytes (16 MiB: 2 million bins).
MAX_HISTOGRAM_BYTES = 16 * 2**20
#: Most traffic classes (queues) a summary keeps.
MAX_CLASSES = 2**16
#: The drop codes a packet may carry (:mod:`pqlab.node.engine`).
DROP_CODES = (KEPT, POLICED, QUEUE_FULL, EARLY_DROP)
#: Percentiles (percents, :mod:`pqlab.base.percentiles`) reported by default.
DEFAULT_PERCENTILES = (50.0, 90.0, 99.0, 99.9)
#: Packets of a batch accumulated per kernel call (bounds the scratch arrays: 9 bytes a packet).
CHUNK_PACKETS = 2**16
#: The accumulators: a row per flow then a row per class (``_rows_*``), or a row per flow only.
ACCUMULATORS = (
    "_rows_int",
    "_rows_float",
    "_rows_delay_sketch",
    "_rows_ipdv_sketch",
    "_rows_colour",
    "_first_class",
    "_delay_hist",
    "_ipdv_hist",
)
#: The colour groups of the counts by colour (:data:`pqlab.node.markers.COLOUR_NAMES`: -1 unmarked,
#: 0 green, 1 yellow, 2 red), as :func:`pqlab.metrics.loss` groups by colour.
COLOUR_GROUPS = tuple(sorted(COLOUR_NAMES))

# integer columns of a row (a flow or a class)
SENT, POLICED_N, QUEUE_FULL_N, EARLY_DROP_N, IPDV_COUNT, SENT_BYTES, KEPT_BYTES = range(7)
N_INT = 7
# float columns; the last four (a flow's first and last packet) are unused in a class's row
DELAY_SUM, DELAY_SUMSQ, IPDV_SUM, IPDV_SUMSQ, IPDV_ABS_SUM, MIN, MAX = range(7)
FIRST_ARRIVAL, FIRST_DELAY, LAST_ARRIVAL, LAST_DELAY = range(7, 11)
N_FLOAT = 11
#: The empty row's floats: extremes and first/last arrivals at their identities, delays NaN (none).
EMPTY_FLOATS = np.array([0.0, 0.0, 0.0, 0.0, 0.0, np.inf, -np.inf, np.inf, np.nan, -np.inf, np.nan])


class FlowSummary:
    """Per-flow and per-class statistics accumulated online from resolved batches (in arrival
    order).

    Parameters
    ----------
    path : PathModel
        Added to ``departure - arrival`` for the one-way delay.
    delay_bin_s, delay_max_s : float
        Width and upper end of a flow's fixed-bin one-way delay histogram, seconds (bins from 0;
        values beyond go to the last bin, which is flagged as overflow). The percentiles do not
        come from it.
    ipdv_bin_s, ipdv_max_s : float
        Width and range ``[-ipdv_max_s, ipdv_max_s)`` of a flow's fixed-bin IPDV histogram, seconds.
    start_s : float
        Packets arriving before this (warm-up) are simulated but not counted, seconds.
    alpha : float
        Relative accuracy of the percentiles, in (0, 0.5] (default 0.005: 0.5 %).
    sketch_min_s, sketch_max_s : float
        Range of the log-binned delay and |IPDV| histograms, seconds (default 1 ns to 1e6 s, 3,456
        bins at alpha 0.005): below ``sketch_min_s`` counts as 0, above ``sketch_max_s`` as
        overflow (counted, reported, its percentiles NaN).
    percentiles : sequence of float or None
        Percentiles of the delay and of |IPDV| reported by :meth:`to_dataset`, percents in
        [0, 100] (default 50, 90, 99, 99.9), as :func:`pqlab.summary_table` takes them (values all
        at most 1 read as fractions and are refused: :mod:`pqlab.base.percentiles`).
        None: no log-binned histograms and no percentiles (their cost: docs/performance.md, "Long
        runs in bounded memory").
    n_classes : int
        Traffic classes (queues) reported even if no packet comes (more are added as they come).
    colours : bool
        Count packets by colour too (each :meth:`update` then gives ``colour``): per flow and per
        class, packets offered and dropped by cause per colour group, the packets no marker
        colours in a group of their own (-1, ``"unmarked"``), as :func:`pqlab.metrics.loss`
        counts them by colour. :func:`pqlab.streaming.simulate_summary` sets it when a stream
        or a class has a marker.

    Notes
    -----
    IPDV follows RFC 3393: consecutive packets of a flow in arrival order; a pair with a lost
    packet gives no value. A class's IPDV values are its flows' (a pair counts in the class of
    its later packet). The percentiles are within relative error ``alpha`` of
    ``numpy.percentile`` of the same values (:mod:`pqlab.base.sketch`) for values in
    ``[sketch_min_s, sketch_max_s]``.
    """

    def __init__(
        self,
        path: PathModel | None = None,
        *,
        delay_bin_s=1e-4,
        delay_max_s=0.2,
        ipdv_bin_s=1e-4,
        ipdv_max_s=0.1,
        start_s: float = 0.0,
        alpha=DEFAULT_ALPHA,
        sketch_min_s=1e-9,
        sketch_max_s=1e6,
        percentiles=DEFAULT_PERCENTILES,
        n_classes: int = 0,
        colours: bool = False,
    ):
        self.path = PathModel() if path is None else path
        if not isinstance(self.path, PathModel):
            raise ValueError(
                f"path must be a pqlab.node.path.PathModel, got {type(self.path).__name__}"
            )
        self.delay_bin_s = check_real("delay_bin_s", delay_bin_s, 0.0, strict_minimum=True)
        self.delay_max_s = check_real("delay_max_s", delay_max_s, self.delay_bin_s)
        self.ipdv_bin_s = check_real("ipdv_bin_s", ipdv_bin_s, 0.0, strict_minimum=True)
        self.ipdv_max_s = check_real("ipdv_max_s", ipdv_max_s, self.ipdv_bin_s)
        self.start_s = check_real("start_s", start_s, 0.0)
        self.n_delay_bins = check_memory(
            "delay_bin_s (delay_max_s / delay_bin_s histogram bins per flow)",
            math.ceil(self.delay_max_s / self.delay_bin_s),
            8,
            MAX_HISTOGRAM_BYTES,
        )
        self.n_ipdv_bins = check_memory(
            "ipdv_bin_s (2 * ipdv_max_s / ipdv_bin_s histogram bins per flow)",
            math.ceil(2 * self.ipdv_max_s / self.ipdv_bin_s),
            8,
            MAX_HISTOGRAM_BYTES,
        )
        self.bins = LogBins(
            alpha, sketch_min_s, sketch_max_s, names=("alpha", "sketch_min_s", "sketch_max_s")
        )
        self.percentiles = None if percentiles is None else check_percentiles(percentiles)
        self.n_flows = 0
        self.n_classes = 0
        #: SHA-256 of the JSON of the scenario whose run this summarises (set by
        #: :func:`pqlab.streaming.summarize`; None: packets given by hand): runs of two scenarios
        #: do not pool.
        self.scenario_sha256: str | None = None
        # per flow, then per class: one table each, so one loop updates a flow's and a class's row
        self._rows_int = np.zeros((0, N_INT), np.int64)
        self._rows_float = np.zeros((0, N_FLOAT))
        self._rows_delay_sketch = self._sketch_zeros(0)
        self._rows_ipdv_sketch = self._sketch_zeros(0)
        # per flow only
        if not isinstance(colours, bool):
            raise ValueError(f"colours must be True or False, got {echo(colours)}")
        self.colours = colours
        # per row, colour group and drop code: packets (no table without colours)
        self._rows_colour = np.zeros(
            (0, len(COLOUR_GROUPS) if colours else 0, len(DROP_CODES)), np.int64
        )
        self._first_class = np.zeros(0, np.int64)  # the class of a flow's first counted packet
        self._delay_hist = np.zeros((0, self.n_delay_bins), np.int64)
        self._ipdv_hist = np.zeros((0, self.n_ipdv_bins), np.int64)
        self._extra_delay_s = np.zeros(0)  # the path's delay by IP length (up to the largest seen)
        self._grow(0, check_int("n_classes", n_classes, 0, MAX_CLASSES))

    # the flows' and the classes' rows of the tables (views)
    _ints = property(lambda self: self._rows_int[: self.n_flows])
    _floats = property(lambda self: self._rows_float[: self.n_flows])
    _delay_sketch = property(lambda self: self._rows_delay_sketch[: self.n_flows])
    _ipdv_sketch = property(lambda self: self._rows_ipdv_sketch[: self.n_flows])
    _class_ints = property(lambda self: self._rows_int[self.n_flows :])
    _class_floats = property(lambda self: self._rows_float[self.n_flows :])
    _class_delay_sketch = property(lambda self: self._rows_delay_sketch[self.n_flows :])
    _class_ipdv_sketch = property(lambda self: self._rows_ipdv_sketch[self.n_flows :])

    # ------------------------------------------------------------------ growth, settings, copies

    def _sketch_zeros(self, rows: int) -> np.ndarray:
        """Empty log-binned histograms (no bins without percentiles)."""
        return np.zeros((rows, self.bins.n_bins if self.percentiles is not None else 0), np.int64)

    def _grow(self, n_flows: int, n_classes: int):
        """Add empty rows up to ``n_flows`` flows and ``n_classes`` classes.

        The new tables start as ``numpy.zeros`` (the system's zero pages) and only the rows kept
        and the non-zero empty rows are written: a row or a bin no packet touches (a flow id no
        stream uses, a delay no packet has) takes no resident memory.
        """
        flows, classes = max(n_flows, self.n_flows), max(n_classes, self.n_classes)
        if (flows, classes) == (self.n_flows, self.n_classes):
            return
        if flows > self.n_flows:
            sketch_bins = self._rows_delay_sketch.shape[1]
            row_bytes = 8 * (self.n_delay_bins + self.n_ipdv_bins + 2 * sketch_bins)
            check_memory(
                "flow ids (per-flow histograms of the largest flow id + 1 flows)",
                n_flows,
                row_bytes,
                2**32,
            )
        old = self.n_flows

        def grown(rows, n_rows, empty=None):
            out = np.zeros((n_rows,) + rows.shape[1:], rows.dtype)
            if n_rows == flows + classes:  # a table of flows then classes
                out[:old], out[flows : flows + rows.shape[0] - old] = rows[:old], rows[old:]
                if empty is not None:
                    out[old:flows] = out[flows + rows.shape[0] - old :] = empty
            else:  # a table of flows
                out[:old] = rows
                if empty is not None:
                    out[old:] = empty
            return out

        self._first_class = grown(self._first_class, flows, -1)
        self._delay_hist = grown(self._delay_hist, flows)
        self._ipdv_hist = grown(self._ipdv_hist, flows)
        self._rows_int = grown(self._rows_int, flows + classes)
        self._rows_float = grown(self._rows_float, flows + classes, EMPTY_FLOATS)
        self._rows_delay_sketch = grown(self._rows_delay_sketch, flows + classes)
        self._rows_ipdv_sketch = grown(self._rows_ipdv_sketch, flows + classes)
        self._rows_colour = grown(self._rows_colour, flows + classes)
        self.n_flows, self.n_classes = flows, classes

    def settings(self) -> dict:
        """What two summaries must share to be merged."""
        return {
            "path": self.path,
            "delay_bin_s": self.delay_bin_s,
            "delay_max_s": self.delay_max_s,
            "ipdv_bin_s": self.ipdv_bin_s,
            "ipdv_max_s": self.ipdv_max_s,
            "start_s": self.start_s,
            "alpha": self.bins.alpha,
            "sketch_min_s": self.bins.min_value,
            "sketch_max_s": self.bins.max_value,
            "percentiles": None if self.percentiles is None else tuple(self.percentiles.tolist()),
            "scenario": self.scenario_sha256,
            "colours": self.colours,
        }

    def _arrays(self) -> dict:
        return {k: getattr(self, k) for k in ACCUMULATORS}

    def copy(self) -> FlowSummary:
        """An independent copy."""
        new = object.__new__(FlowSummary)
        new.__dict__.update(self.__dict__)
        for k, v in self._arrays().items():
            setattr(new, k, v.copy())
        return new

    # ------------------------------------------------------------------ accumulation

    def update(
        self,
        arrival_s: np.ndarray,
        size_bytes: np.ndarray,
        flow: np.ndarray,
        departure_s: np.ndarray,
        drop: np.ndarray,
        queue: np.ndarray,
        colour: np.ndarray | None = None,
    ) -> None:
        """Add one resolved batch of packets, in arrival order.

        Parameters
        ----------
        arrival_s : array_like
            1-D finite arrival times, seconds; every other array has one value per packet.
        size_bytes : array_like
            IP lengths, integers in ``[0, MAX_SIZE_BYTES]``.
        flow : array_like
            Flow ids, integers >= 0.
        departure_s : array_like
            Departure times, seconds: finite and >= the arrival for a kept packet (drop code 0),
            any number or NaN for a dropped one (DESIGN.md: the node contract's outputs).
        drop : array_like
            Drop codes of :mod:`pqlab.node.engine`: integers in [0, 3] (kept, policed, queue
            full, early drop).
        queue : array_like
            Each packet's class (queue index), integers in [0, 65535].
        colour : array_like, optional
            Each packet's colour group, integers in [-1, 2] (-1: no marker colours it; 0 green,
            1 yellow, 2 red): given if and only if the summary counts ``colours``.

        Raises
        ------
        ValueError
            Naming the first array that is not so, before any count changes.
        """
        arrival_s = check_array("arrival_s", arrival_s, kind="float")
        size_bytes = check_array("size_bytes", size_bytes, kind="int")
        if size_bytes.size and (size_bytes.min() < 0 or size_bytes.max() > MAX_SIZE_BYTES):
            i = int(np.flatnonzero((size_bytes < 0) | (size_bytes > MAX_SIZE_BYTES))[0])
            raise ValueError(
                f"size_bytes must be IP lengths in [0, {MAX_SIZE_BYTES}], "
                f"got {size_bytes[i]} at index {i}"
            )
        flow = check_array("flow", flow, kind="int", minimum=0)
        codes = check_array("drop", drop, kind="int", minimum=0, maximum=max(DROP_CODES))
        if not (type(drop) is np.ndarray and drop.dtype == np.int8 and drop.flags.c_contiguous):
            drop = codes.astype(np.int8)  # the engine's drop codes' dtype (one compiled kernel)
        queue = check_array("queue", queue, kind="int", minimum=0, maximum=MAX_CLASSES - 1)
        if (colour is not None) != self.colours:
            got = "an array" if colour is not None else None
            raise ValueError(
                "colour must be given if and only if the summary counts colours "
                f"(colours={self.colours}), got {got}"
            )
        departure_s = check_array("departure_s", departure_s, kind="float", finite=False)
        arrays = {
            "arrival_s": arrival_s,
            "size_bytes": size_bytes,
            "flow": flow,
            "departure_s": departure_s,
            "drop": drop,
            "queue": queue,
        }
        if colour is not None:
            arrays["colour"] = colour = check_array(
                "colour", colour, kind="int", minimum=UNMARKED, maximum=max(COLOUR_GROUPS)
            )
        n = arrival_s.shape[0]  # the kernels index every array by packet: one length for all
        if any(a.shape[0] != n for a in arrays.values()):
            got = ", ".join(f"{k} {a.shape[0]}" for k, a in arrays.items())
            raise ValueError(
                f"{', '.join(arrays)} must be 1-D arrays of one length (one value "
                f"per packet), got lengths {got}"
            )
        check_kept_departures(departure_s, arrival_s, drop == KEPT)
        self._add_checked(arrival_s, size_bytes, flow, departure_s, drop, queue, colour)

    def _add_checked(
        self, arrival_s, size_bytes, flow, departure_s, drop, queue, colour=None
    ) -> None:
        """:meth:`update` with arrays already checked: C-contiguous, of one length, float64
        times, int64 sizes, flows and queues, int8 drop codes, each in :meth:`update`'s ranges
        (the engine's own outputs, as :func:`pqlab.node.streaming.simulate_summary` passes
        them: validated once, where they entered)."""
        if flow.shape[0] == 0:
            return
        self._grow(int(flow.max()) + 1, int(queue.max()) + 1)
        if size_bytes.max() >= self._extra_delay_s.shape[0]:  # the path's delay by IP length
            lengths = np.arange(size_bytes.max() + 1)
            self._extra_delay_s = np.ascontiguousarray(self.path.extra_delay_s(lengths))
        bins, with_sketch = self.bins.kernel_args(), self.percentiles is not None
        ipdv = np.empty(min(flow.shape[0], CHUNK_PACKETS))  # each packet's IPDV value (NaN: none)
        for lo in range(0, flow.shape[0], CHUNK_PACKETS):
            part = slice(lo, lo + CHUNK_PACKETS)
            arrival, n = arrival_s[part], flow[part].shape[0]
            _accumulate(
                arrival,
                is_measured(arrival, self.start_s),
                size_bytes[part],
                flow[part],
                queue[part],
                departure_s[part],
                drop[part],
                self._extra_delay_s,
                self.n_flows,
                self.delay_bin_s,
                with_sketch,
                *bins,
                self._rows_int,
                self._rows_float,
                self._first_class,
                self._delay_hist,
                self._rows_delay_sketch,
                ipdv,
            )
            _add_pairs(
                flow[part],
                queue[part],
                ipdv[:n],
                self.n_flows,
                self.ipdv_bin_s,
                self.ipdv_max_s,
                with_sketch,
                *bins,
                self._rows_int,
                self._rows_float,
                self._ipdv_hist,
                self._rows_ipdv_sketch,
            )
        if self.colours:  # the measured packets by row, colour group and drop code
            _count_colours(
                is_measured(arrival_s, self.start_s),
                flow,
                queue,
                self.n_flows,
                np.ascontiguousarray(colour, dtype=np.int8),
                drop,
                self._rows_colour,
            )

    def merge(self, other: FlowSummary) -> FlowSummary:
        """The pooled summary of two independent runs (e.g. other seeds, other workers): a new
        object.

        No IPDV pair is formed between them. Commutative and associative: counts, histograms,
        extremes and percentiles equal the one-shot summary's exactly, in any order and grouping;
        the sums up to floating-point rounding. A pooled summary forms no pair with a
        :meth:`followed_by` summary.
        """
        return self._combine(other, consecutive=False)

    def followed_by(self, later: FlowSummary) -> FlowSummary:
        """The summary of this run's packets followed by ``later``'s (the next batches of the same
        run).

        The IPDV pair spanning the two (this summary's last delay of a flow, ``later``'s first)
        is formed, so consecutive batches summarised apart and joined in order equal the one
        summary of all of them: counts, histograms, extremes and percentiles exactly (in any
        grouping: associative), the sums up to rounding. Raises ``ValueError`` if a flow of
        ``later`` has a packet before this summary's last one of that flow.
        """
        return self._combine(later, consecutive=True)

    def _combine(self, other, consecutive: bool) -> FlowSummary:
        if not isinstance(other, FlowSummary):
            raise ValueError(
                f"a FlowSummary combines only with a FlowSummary, got {type(other).__name__}"
            )
        mine, theirs = self.settings(), other.settings()
        differ = [
            f"{k} ({echo(mine[k])} vs {echo(theirs[k])})" for k in mine if mine[k] != theirs[k]
        ]
        if differ:
            raise ValueError(
                f"summaries combine only with the same settings; they differ in {', '.join(differ)}"
            )
        a, b = self.copy(), other.copy()
        n_flows, n_classes = max(a.n_flows, b.n_flows), max(a.n_classes, b.n_classes)
        a._grow(n_flows, n_classes)
        b._grow(n_flows, n_classes)
        fa, fb = a._floats, b._floats
        in_a, in_b = np.isfinite(fa[:, FIRST_ARRIVAL]), np.isfinite(fb[:, FIRST_ARRIVAL])
        both = in_a & in_b
        if consecutive:
            early = np.flatnonzero(both & (fb[:, FIRST_ARRIVAL] < fa[:, LAST_ARRIVAL]))
            if early.size:
                f = int(early[0])
                raise ValueError(
                    f"the later summary must follow this one: flow {f}'s first packet in it arrives"
                    f" at {fb[f, FIRST_ARRIVAL]!r} s, before this summary's last of that flow"
                    f" ({fa[f, LAST_ARRIVAL]!r} s) ({early.size} flows overlap); pool independent"
                    " runs with merge()"
                )
            pair = np.flatnonzero(
                both & ~np.isnan(fa[:, LAST_DELAY]) & ~np.isnan(fb[:, FIRST_DELAY])
            )
            values = fb[pair, FIRST_DELAY] - fa[pair, LAST_DELAY]
            first_from_a = in_a
            first = np.where(
                in_a[:, None], fa[:, FIRST_ARRIVAL:LAST_ARRIVAL], fb[:, FIRST_ARRIVAL:LAST_ARRIVAL]
            )
            last = np.where(in_b[:, None], fb[:, LAST_ARRIVAL:], fa[:, LAST_ARRIVAL:])
            later_class = b._first_class[pair]
        else:  # pooled: extremes of the times, no delay to pair with (the same in either order)
            pair = np.zeros(0, np.int64)
            values, later_class = np.zeros(0), np.zeros(0, np.int64)
            first_from_a = ~in_b
            first = np.stack(
                [
                    np.minimum(fa[:, FIRST_ARRIVAL], fb[:, FIRST_ARRIVAL]),
                    np.where(in_a, fa[:, FIRST_DELAY], fb[:, FIRST_DELAY]),
                ],
                axis=1,
            )
            last = np.stack(
                [
                    np.maximum(fa[:, LAST_ARRIVAL], fb[:, LAST_ARRIVAL]),
                    np.where(in_b, fb[:, LAST_DELAY], fa[:, LAST_DELAY]),
                ],
                axis=1,
            )
            first[both, 1] = last[both, 1] = np.nan
        first_class = np.where(first_from_a, a._first_class, b._first_class)
        if not consecutive:
            first_class[both] = -1
        for name, arr in a._arrays().items():  # counts and histograms add; then sums, extremes
            if arr.dtype == np.int64 and name != "_first_class":
                arr += getattr(b, name)
        f_a, f_b = a._rows_float, b._rows_float  # the flows' and the classes' rows
        f_a[:, :MIN] += f_b[:, :MIN]
        f_a[:, MIN] = np.minimum(f_a[:, MIN], f_b[:, MIN])
        f_a[:, MAX] = np.maximum(f_a[:, MAX], f_b[:, MAX])
        a._floats[:, FIRST_ARRIVAL:LAST_ARRIVAL] = first
        a._floats[:, LAST_ARRIVAL:] = last
        a._first_class = first_class
        bins = a.bins
        _add_pairs(
            pair,
            later_class,
            values,
            a.n_flows,
            a.ipdv_bin_s,
            a.ipdv_max_s,
            a.percentiles is not None,
            *bins.kernel_args(),
            a._rows_int,
            a._rows_float,
            a._ipdv_hist,
            a._rows_ipdv_sketch,
        )
        return a

    # ------------------------------------------------------------------ results

    def overflow(self) -> dict:
        """Values above ``sketch_max_s`` (their percentiles are NaN): ``{"delay": n, "ipdv_abs":
        n}``."""
        if self.percentiles is None:
            return {"delay": 0, "ipdv_abs": 0}
        return {
            "delay": int(self._delay_sketch[:, -1].sum()),
            "ipdv_abs": int(self._ipdv_sketch[:, -1].sum()),
        }

    def to_dataset(self, *, warn: bool = True, stacklevel: int = 2) -> xr.Dataset:
        """The summaries as a Dataset: dims ``flow``, ``traffic_class``, ``delay_bin``,
        ``ipdv_bin``.

        Per flow the variables of the flow's packets; ``class_``-prefixed, the same per class.
        The percentiles are ``delay_p<q>`` and ``jitter_p<q>`` (of |IPDV|; ``delay_p99``,
        ``class_jitter_p99.9``), named as :func:`pqlab.summary_table` names them.
        With ``warn`` (default), values above ``sketch_max_s`` raise a :class:`UserWarning`
        naming how many; they are counted in ``delay_overflow``/``ipdv_abs_overflow`` and the
        attrs ``sketch_overflow_delay``/``sketch_overflow_ipdv_abs`` either way (``stacklevel``:
        of the warning, as :func:`warnings.warn` takes it).
        """
        f, c = ("flow",), ("traffic_class",)
        sent = np.flatnonzero(self._ints[:, SENT] > 0)  # the flows with a counted packet
        flows = self._row_variables(
            f,
            self._ints[sent],
            self._floats[sent],
            self._delay_sketch[sent],
            self._ipdv_sketch[sent],
        )
        flows["delay_hist"] = (
            ("flow", "delay_bin"),
            self._delay_hist[sent],
            _attrs("1", "one-way delay histogram (last bin: overflow)"),
        )
        flows["ipdv_hist"] = (
            ("flow", "ipdv_bin"),
            self._ipdv_hist[sent],
            _attrs("1", "IPDV histogram (first/last bins: overflow)"),
        )
        classes = self._row_variables(
            c,
            self._class_ints,
            self._class_floats,
            self._class_delay_sketch,
            self._class_ipdv_sketch,
        )
        if self.colours:
            flows.update(_colour_variables(f, self._rows_colour[: self.n_flows][sent]))
            classes.update(_colour_variables(c, self._rows_colour[self.n_flows :]))
        ds = xr.Dataset(
            {**flows, **{f"class_{k}": v for k, v in classes.items()}},
            coords={
                "flow": sent,
                **(
                    {}
                    if not self.colours
                    else {
                        "colour": (
                            "colour",
                            np.array(COLOUR_GROUPS),
                            _attrs("1", "colour group (-1 unmarked)"),
                        ),
                        "colour_name": ("colour", [COLOUR_NAMES[g] for g in COLOUR_GROUPS]),
                    }
                ),
                "traffic_class": (
                    "traffic_class",
                    np.arange(self.n_classes),
                    _attrs("1", "queue index"),
                ),
                "delay_bin": (
                    "delay_bin",
                    np.arange(self.n_delay_bins) * self.delay_bin_s,
                    _attrs("s", "left edge of the delay bin"),
                ),
                "ipdv_bin": (
                    "ipdv_bin",
                    -self.ipdv_max_s + np.arange(self.n_ipdv_bins) * self.ipdv_bin_s,
                    _attrs("s", "left edge of the IPDV bin"),
                ),
            },
        )
        over = self.overflow()
        ds.attrs["warmup_s"] = self.start_s
        if self.percentiles is not None:
            ds.attrs.update(
                sketch_relative_accuracy=self.bins.alpha,
                sketch_min_s=self.bins.min_value,
                sketch_max_s=self.bins.max_value,
                sketch_overflow_delay=over["delay"],
                sketch_overflow_ipdv_abs=over["ipdv_abs"],
            )
        if warn and (over["delay"] or over["ipdv_abs"]):
            warnings.warn(
                f"{over['delay']:,} one-way delays and {over['ipdv_abs']:,} |IPDV| values are above"
                f" sketch_max_s={self.bins.max_value!r} s: counted in"
                " delay_overflow/ipdv_abs_overflow, the percentiles that fall among them are NaN;"
                " raise sketch_max_s to resolve them",
                UserWarning,
                stacklevel=stacklevel,
            )
        return ds

    def _percentile_values(self, sketch: np.ndarray) -> np.ndarray:
        """The percentiles of each row of log-binned histograms, ``(rows, percentiles)`` in the
        given order (the fractions ``q / 100``, as :func:`numpy.percentile` takes them)."""
        percentiles = np.asarray(self.percentiles)  # with percentiles only
        order = np.argsort(percentiles)
        out = np.empty((sketch.shape[0], order.size))
        out[:, order] = self.bins.quantiles(sketch, percentiles[order] / 100.0)
        return out

    def _row_variables(self, dim, ints, floats, delay_sketch, ipdv_sketch) -> dict:
        """The statistics of rows (flows or classes) from their accumulators: one place for both."""
        sent, n_ipdv = ints[:, SENT], ints[:, IPDV_COUNT]
        kept = sent - ints[:, POLICED_N] - ints[:, QUEUE_FULL_N] - ints[:, EARLY_DROP_N]
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = floats[:, DELAY_SUM] / kept
            var = (floats[:, DELAY_SUMSQ] - kept * mean**2) / (kept - 1)
            ipdv_mean = floats[:, IPDV_SUM] / n_ipdv
            ipdv_abs = floats[:, IPDV_ABS_SUM] / n_ipdv
            ipdv_var = (floats[:, IPDV_SUMSQ] - n_ipdv * ipdv_mean**2) / (n_ipdv - 1)
            loss = 1.0 - kept / sent
        alpha = (
            f" (relative error <= {self.bins.alpha:g} within [{self.bins.min_value:g},"
            f" {self.bins.max_value:g}] s)"
        )
        out = {
            "sent": (dim, sent, _attrs("1", "packets offered")),
            "kept": (dim, kept, _attrs("1", "packets kept (delivered)")),
            "policed": (dim, ints[:, POLICED_N], _attrs("1", "packets policed")),
            "queue_full": (dim, ints[:, QUEUE_FULL_N], _attrs("1", "packets dropped, queue full")),
            "early_drop": (
                dim,
                ints[:, EARLY_DROP_N],
                _attrs("1", "packets dropped early (RED/WRED)"),
            ),
            "sent_bytes": (dim, ints[:, SENT_BYTES], _attrs("bytes", "bytes offered (IP length)")),
            "kept_bytes": (dim, ints[:, KEPT_BYTES], _attrs("bytes", "bytes kept (IP length)")),
            "loss_ratio": (dim, loss, _attrs("1", "lost / offered")),
            "delay_mean": (dim, mean, _attrs("s", "mean one-way delay")),
            "delay_std": (dim, np.sqrt(np.maximum(var, 0.0)), _attrs("s", "std of one-way delay")),
            "delay_min": (
                dim,
                np.where(kept > 0, floats[:, MIN], np.nan),
                _attrs("s", "minimum one-way delay"),
            ),
            "delay_max": (
                dim,
                np.where(kept > 0, floats[:, MAX], np.nan),
                _attrs("s", "maximum one-way delay"),
            ),
        }
        sketched = {}
        if self.percentiles is not None:
            names = percentile_names(self.percentiles)
            for what, sketch, long_name in (
                ("delay", delay_sketch, "of the one-way delay"),
                ("jitter", ipdv_sketch, "of |IPDV| (jitter)"),
            ):
                values = self._percentile_values(sketch)
                sketched.update(
                    {
                        f"{what}_{p}": (
                            dim,
                            values[:, k],
                            _attrs("s", f"{p[1:]}th percentile {long_name}{alpha}"),
                        )
                        for k, p in enumerate(names)
                    }
                )
            sketched["delay_overflow"] = (
                dim,
                delay_sketch[:, -1],
                _attrs("1", "one-way delays above sketch_max_s"),
            )
            sketched["ipdv_abs_overflow"] = (
                dim,
                ipdv_sketch[:, -1],
                _attrs("1", "|IPDV| values above sketch_max_s"),
            )
        out.update(
            {
                "ipdv_count": (dim, n_ipdv, _attrs("1", "IPDV values (pairs without loss)")),
                "ipdv_mean": (dim, ipdv_mean, _attrs("s", "mean IPDV")),
                "ipdv_abs_mean": (dim, ipdv_abs, _attrs("s", "mean |IPDV| (jitter)")),
                "ipdv_std": (dim, np.sqrt(np.maximum(ipdv_var, 0.0)), _attrs("s", "std of IPDV")),
            }
        )
        return {**out, **sketched}


def merge_summaries(summaries: Iterable[FlowSummary], *, consecutive: bool = False) -> FlowSummary:
    """All ``summaries`` pooled (:meth:`FlowSummary.merge`: independent runs, e.g. gathered from
    dask
    workers), or with ``consecutive`` joined in the given order (:meth:`FlowSummary.followed_by`:
    the consecutive batches of one run)."""
    summaries = list(summaries)
    if not summaries:
        raise ValueError("summaries must hold at least one FlowSummary, got none")
    out = summaries[0]
    if not isinstance(out, FlowSummary):
        raise ValueError(f"summaries must hold FlowSummary objects, got {type(out).__name__}")
    out = out.copy()
    for s in summaries[1:]:
        out = out.followed_by(s) if consecutive else out.merge(s)
    return out


def check_kept_departures(departure_s: np.ndarray, arrival_s: np.ndarray, kept: np.ndarray) -> None:
    """``ValueError`` naming the first kept packet whose departure is NaN or before its arrival."""
    with np.errstate(invalid="ignore"):
        bad = np.flatnonzero(kept & ~(np.isfinite(departure_s) & (departure_s >= arrival_s)))
    if bad.size:
        i = int(bad[0])
        raise ValueError(
            "departure_s must be a finite time >= arrival_s for each kept packet "
            f"(drop code 0), got {shown(departure_s[i])} at index {i} (arrival_s "
            f"{shown(arrival_s[i])}; {bad.size:,} such packets)"
        )


def _colour_variables(dim: tuple, table: np.ndarray) -> dict:
    """Packets offered and dropped by cause per row and colour group, from ``(rows, groups, drop
    codes)`` counts, with the names :func:`pqlab.metrics.loss` gives them by colour."""
    dims = (dim[0], "colour")
    sent = table.sum(axis=2)
    lost = table[:, :, [POLICED, QUEUE_FULL, EARLY_DROP]]
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = lost.sum(axis=2) / sent
    return {
        "colour_sent": (dims, sent, _attrs("1", "packets offered, per colour group")),
        "colour_policed": (dims, lost[:, :, 0], _attrs("1", "packets policed, per colour group")),
        "colour_queue_full": (
            dims,
            lost[:, :, 1],
            _attrs("1", "packets dropped, queue full, per colour group"),
        ),
        "colour_early_drop": (
            dims,
            lost[:, :, 2],
            _attrs("1", "packets dropped early (RED/WRED), per colour group"),
        ),
        "colour_loss_ratio": (dims, ratio, _attrs("1", "lost / offered, per colour group")),
    }


def _attrs(units: str, long_name: str) -> dict:
    return {"units": units, "long_name": long_name}


# The kernels update a flow's row and its class's row of the same tables in one loop, with no
# helper taking an array but the branch-free bin_of: numba counts references to the arrays passed
# to a helper with branches on every call, which cost more than the statistics themselves.


@cached_njit(nogil=True)
def _add_pairs(
    flows,
    classes,
    values,
    class_base,
    ipdv_bin_s,
    ipdv_max_s,
    with_sketch,
    max_value,
    upper,
    start,
    base,
    shift,
    rows_int,
    rows_float,
    ipdv_hist,
    ipdv_sketch,
):
    """Count each IPDV value ``values[i]`` (NaN: none) of flow ``flows[i]`` in that flow's row
    and in the row ``class_base + classes[i]`` (the class of the pair's later packet), in place."""
    n_bins = ipdv_hist.shape[1]
    for i in range(values.shape[0]):
        v = values[i]
        if v != v:
            continue
        f = flows[i]
        b = bin_of(abs(v), max_value, upper, start, base, shift) if with_sketch else 0
        for row in (f, class_base + classes[i]):
            rows_int[row, IPDV_COUNT] += 1
            rows_float[row, IPDV_SUM] += v
            rows_float[row, IPDV_SUMSQ] += v * v
            rows_float[row, IPDV_ABS_SUM] += abs(v)
            if with_sketch:
                ipdv_sketch[row, b] += 1
        h = int((v + ipdv_max_s) / ipdv_bin_s)
        ipdv_hist[f, 0 if h < 0 else (n_bins - 1 if h >= n_bins else h)] += 1


@cached_njit(nogil=True)
def _accumulate(
    arrival_s,
    measured,
    size,
    flow,
    queue,
    departure_s,
    drop,
    extra_delay_s,
    class_base,
    delay_bin_s,
    with_sketch,
    max_value,
    upper,
    start,
    base,
    shift,
    rows_int,
    rows_float,
    first_class,
    delay_hist,
    delay_sketch,
    ipdv,
):
    """Add packets (in arrival order) to their flow's and class's rows (class ``c``: row
    ``class_base + c``), in place (the log-binned histograms only ``with_sketch``); ``measured`` is
    the warm-up rule's mask (:func:`pqlab.node.measured.is_measured`). The one-way delay is
    ``departure - arrival + extra_delay_s[size]``; each packet's IPDV value with its flow's previous
    packet (RFC 3393: NaN if either is lost or the packet is not measured) goes to ``ipdv``, for
    :func:`_add_pairs`."""
    n_delay_bins = delay_hist.shape[1]
    for i in range(measured.shape[0]):
        ipdv[i] = np.nan
        if not measured[i]:
            continue
        f, code, nbytes = flow[i], drop[i], size[i]
        d = departure_s[i] - arrival_s[i] + extra_delay_s[nbytes]
        b = bin_of(d, max_value, upper, start, base, shift) if with_sketch and code == 0 else 0
        for row in (f, class_base + queue[i]):
            rows_int[row, SENT] += 1
            rows_int[row, SENT_BYTES] += nbytes
            if code == POLICED:
                rows_int[row, POLICED_N] += 1
            elif code == QUEUE_FULL:
                rows_int[row, QUEUE_FULL_N] += 1
            elif code == EARLY_DROP:
                rows_int[row, EARLY_DROP_N] += 1
            else:
                rows_int[row, KEPT_BYTES] += nbytes
            if code == 0:
                rows_float[row, DELAY_SUM] += d
                rows_float[row, DELAY_SUMSQ] += d * d
                if d < rows_float[row, MIN]:
                    rows_float[row, MIN] = d
                if d > rows_float[row, MAX]:
                    rows_float[row, MAX] = d
                if with_sketch:
                    delay_sketch[row, b] += 1
        if rows_float[f, FIRST_ARRIVAL] == np.inf:  # the flow's first counted packet
            rows_float[f, FIRST_ARRIVAL] = arrival_s[i]
            rows_float[f, FIRST_DELAY] = d if code == 0 else np.nan
            first_class[f] = queue[i]
        rows_float[f, LAST_ARRIVAL] = arrival_s[i]
        if code == 0:
            h = int(d / delay_bin_s)
            delay_hist[f, h if h < n_delay_bins else n_delay_bins - 1] += 1
            ipdv[i] = d - rows_float[f, LAST_DELAY]  # NaN after a lost packet: no pair
            rows_float[f, LAST_DELAY] = d
        else:
            rows_float[f, LAST_DELAY] = np.nan


@cached_njit(nogil=True)
def _count_colours(measured, flow, queue, class_base, colour, drop, rows_colour):
    """Count each measured packet in ``rows_colour[row, colour + 1, drop]`` of its flow's row and
    of its class's (``class_base + queue``), in place; colours in [-1, 2] and drop codes in
    [0, 3], the rows grown to hold every flow and class (checked before)."""
    for i in range(measured.shape[0]):
        if measured[i]:
            g, code = colour[i] + 1, drop[i]
            rows_colour[flow[i], g, code] += 1
            rows_colour[class_base + queue[i], g, code] += 1
