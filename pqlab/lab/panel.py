"""Sliders that redraw a figure: the lab notebooks' one widget panel, for any drawing function.

A :class:`Panel` wires ipywidgets controls to a function that returns a matplotlib Figure
(``draw(**fixed, **values)``): changing a control redraws at once into the panel's output
and shows the wall time of simulate + draw + render. :func:`interactive` shows a panel, or
draws once where there are no widgets (papermill, tests). :mod:`pqlab.lab.exercises`' redraw
and :mod:`pqlab.lab.diffserv_figures`' use it.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

__all__ = ["timed_draw", "Panel", "interactive"]


def timed_draw(draw: Callable, **kw):
    """``draw(**kw)`` and its wall time (simulate + draw + render to pixels), seconds: ``(fig,
    seconds)``."""
    t0 = time.perf_counter()
    fig = draw(**kw)
    fig.canvas.draw()
    return fig, time.perf_counter() - t0


class Panel:
    """Controls wired to ``draw``: a timing label and the plot output below them.

    Changing any control's value redraws at once (in the widget's ``observe`` callback) into
    :attr:`output`; :attr:`figure` is the last figure drawn, :attr:`redraws` counts the drawings
    and :attr:`timing` shows the last one's wall time. :attr:`box` is the widget to display.

    Parameters
    ----------
    controls : dict
        ipywidgets controls keyed by ``draw``'s parameter names.
    draw : callable
        ``draw(**fixed, **values) -> matplotlib.figure.Figure``.
    **fixed
        ``draw``'s parameters without a control.
    """

    def __init__(self, controls: dict, draw: Callable, **fixed):
        import ipywidgets as w

        self.controls = dict(controls)
        self.draw = draw
        self.fixed = fixed
        self.output = w.Output()
        self.timing = w.Label(value="")
        self.box = w.VBox(children=[*self.controls.values(), self.timing, self.output])
        self.figure = None
        self.redraws = 0
        for widget in self.controls.values():
            widget.observe(self._changed, names="value")
        self.update()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(controls={list(self.controls)}, redraws={self.redraws})"

    def values(self) -> dict:
        """The controls' current values, keyed by parameter."""
        return {k: widget.value for k, widget in self.controls.items()}

    def _changed(self, change) -> None:
        self.update()

    def update(self) -> None:
        """Redraw with the controls' current values into :attr:`output`."""
        import matplotlib.pyplot as plt
        from IPython.display import display

        with self.output:
            self.output.clear_output(wait=True)
            fig, seconds = timed_draw(self.draw, **self.fixed, **self.values())
            display(fig)
            plt.close(fig)
        self.figure = fig
        self.redraws += 1
        self.timing.value = f"redraw (simulate + plot): {seconds:.3f} s"


def interactive(interactive: bool, make_panel: Callable, draw_once: Callable):
    """``make_panel()`` displayed when ``interactive`` and ipywidgets is installed, else
    ``draw_once()``.

    Returns the displayed panel or the figure. Without ipywidgets a line says why the defaults are
    drawn once; any other error propagates, so a broken widget call shows as an error rather than
    a static plot.
    """
    if not isinstance(interactive, (bool, np.bool_)):
        raise ValueError(f"interactive must be True or False, got {interactive!r}")
    if interactive:
        try:
            import ipywidgets  # noqa: F401
        except ImportError as exc:
            print(f"widgets unavailable ({exc}); drawing once with the defaults")
        else:
            from IPython.display import display

            panel = make_panel()
            display(panel.box)
            return panel
    return draw_once()
