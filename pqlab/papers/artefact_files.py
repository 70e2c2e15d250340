"""An artefact's files: its figures as PNG and PDF, its tables as Markdown and CSV, each
recorded for the report (:func:`pqlab.papers.records.record_figure`).

Used through :mod:`pqlab.papers.kit`, the notebooks' one import, which re-exports every public
name here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from . import records, registry


def in_kernel() -> bool:
    """True inside a Jupyter kernel (JupyterLab, papermill, nbconvert), False in plain Python or a
    terminal IPython."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


#: Pixels per inch of the PNG figures written by :func:`save` (the PDFs are vector graphics).
FIGURE_DPI = 150


def write_png(fig, path: str, dpi: float) -> None:
    """Draw ``fig`` once at ``dpi`` with matplotlib's Agg renderer and write its pixels as PNG.

    ``Figure.savefig`` draws a figure that has a layout engine twice: once to solve the layout,
    once to render. One Agg draw solves and renders in the same pass. Its pixels are written
    by Pillow as ``savefig`` writes them (the same ``Software`` text and resolution), but as RGB
    when every pixel is opaque (an opaque figure, the default): the same pixels without the
    alpha channel, a file about a tenth smaller, encoded about a fifth faster. The figure's
    canvas and resolution are restored afterwards.
    """
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image, PngImagePlugin

    shown, shown_dpi = fig.canvas, fig.dpi
    canvas = FigureCanvasAgg(fig)  # the figure's canvas until restored below
    try:
        fig.dpi = dpi
        canvas.draw()
        rgba = np.asarray(canvas.buffer_rgba())
        image = Image.frombuffer("RGBA", (rgba.shape[1], rgba.shape[0]), rgba, "raw", "RGBA", 0, 1)
        if (rgba[..., 3] == 255).all():
            image = image.convert("RGB")
        info = PngImagePlugin.PngInfo()
        info.add_text(
            "Software", f"Matplotlib version{matplotlib.__version__}, https://matplotlib.org/"
        )
        image.save(path, format="png", pnginfo=info, dpi=(dpi, dpi))
    finally:
        fig.dpi = shown_dpi
        fig.set_canvas(shown)


def save(fig, stem) -> list:
    """Write ``fig`` as ``<stem>.png`` and ``<stem>.pdf``, show it inline in a notebook, close it.

    Inside a Jupyter kernel (:func:`in_kernel`) the PNG written is displayed before the
    figure is closed, so every notebook that saves a figure also shows it (in JupyterLab
    and in papermill's executed notebook, under any matplotlib backend); the output's metadata
    ``{"pqlab": {"figure": <file name without extension>}}`` says which file it is.
    Returns the paths written.
    """
    paths = [f"{stem}.png", f"{stem}.pdf"]
    write_png(fig, paths[0], FIGURE_DPI)
    # The layout solved for the PNG is kept for the PDF (the same figure in figure coordinates):
    # without a layout engine savefig draws once, instead of once to solve the layout again and
    # once to render
    fig.set_layout_engine(None)
    # no creation date: the same figure gives the same bytes in every run
    fig.savefig(paths[1], dpi=FIGURE_DPI, metadata={"CreationDate": None})
    import matplotlib.pyplot as plt

    if in_kernel():
        from IPython.display import Image, display

        # the PNG just written (whatever the kernel's matplotlib backend); the metadata names
        # the file, so a test can match inline figures with saved ones
        display(Image(filename=paths[0]), metadata={"pqlab": {"figure": Path(stem).name}})
    plt.close(fig)
    return paths


def artefact_id(artefact) -> str:
    """The id of an :class:`~pqlab.papers.registry.Artefact` (or an id as str), checked."""
    if isinstance(artefact, registry.Artefact):
        return artefact.id
    if isinstance(artefact, str) and artefact:
        return artefact
    raise ValueError(
        f"artefact must be a pqlab.papers.registry.Artefact or an artefact id, got {artefact!r}"
    )


def save_figure(artefact, fig, figures_dir, results_dir, *, part: str = "") -> list:
    """:func:`save` ``fig`` as ``<figures_dir>/<artefact id>.{png,pdf}`` and record the files for
    the report.

    ``artefact`` is the artefact module's ``ARTEFACT`` (or its id). ``part`` names a second figure
    of the same artefact: its files are ``<artefact id>_<part>.{png,pdf}`` (letters, digits and
    underscores). The files are recorded under the artefact with
    :func:`pqlab.papers.records.record_figure` in ``results_dir``; returns the paths written (PNG
    first).
    """
    name = artefact_id(artefact)
    if not isinstance(part, str) or (part and not part.replace("_", "").isalnum()):
        raise ValueError(f"part must be letters, digits and underscores (or empty), got {part!r}")
    paths = save(fig, Path(figures_dir) / (f"{name}_{part}" if part else name))
    records.record_figure(results_dir, name, paths)
    return paths


def _cell(value) -> str:
    if isinstance(value, (float, np.floating)):
        return f"{value:.4g}"
    return str(value).replace("|", "\\|")


def markdown_table(frame: pd.DataFrame) -> str:
    """A DataFrame as a GitHub markdown table (index first), with its ``attrs['title']`` as
    caption."""
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"frame must be a pandas.DataFrame, got {type(frame).__name__}")
    head = [frame.index.name or ""] + [str(c) for c in frame.columns]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for index, row in frame.iterrows():
        lines.append("| " + " | ".join([_cell(index)] + [_cell(v) for v in row]) + " |")
    title = frame.attrs.get("title", "")
    return "\n".join(lines) + (f"\n\nTable: {title}\n" if title else "\n")


def write_table(frame: pd.DataFrame, stem) -> list:
    """Write ``<stem>.md`` (:func:`markdown_table`) and ``<stem>.csv``; return the paths written."""
    text = markdown_table(frame)
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    md, csv = stem.with_name(stem.name + ".md"), stem.with_name(stem.name + ".csv")
    md.write_text(text, encoding="utf-8")
    frame.to_csv(csv)
    return [str(md), str(csv)]


def save_table(artefact, frame: pd.DataFrame, figures_dir, results_dir) -> list:
    """Write a table artefact as ``<figures_dir>/<artefact id>.{md,csv}`` and record the files for
    the report.

    ``artefact`` is the artefact module's ``ARTEFACT`` (or its id); returns the paths written.
    """
    name = artefact_id(artefact)
    paths = write_table(frame, Path(figures_dir) / name)
    records.record_figure(results_dir, name, paths)
    return paths
