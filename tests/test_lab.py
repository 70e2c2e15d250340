"""The teaching lab: pqlab.lab's self-checks and redraw, and every lab notebook headless under
papermill."""

from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

from pqlab import lab  # noqa: E402
from pqlab.base import locations  # noqa: E402

LAB_NOTEBOOKS = sorted((locations.NOTEBOOKS / "lab").glob("*.ipynb"))


def test_compare_right_wrong_none():
    assert lab.compare(1.0, 1.0) == lab.RIGHT
    assert lab.compare(1.02, 1.0, rel_tol=0.03) == lab.RIGHT
    assert lab.compare(1.5, 1.0, rel_tol=0.03) == lab.NOT_YET
    assert lab.compare(None, 1.0) == lab.NO_ANSWER


def test_check_uses_the_computed_answer(capsys):
    assert lab.check("01.2", None) == lab.NO_ANSWER
    assert lab.check("01.2", lab.expected("01.2")) == lab.RIGHT
    assert lab.expected("01.2") == 7  # the papers' 7-particle overshoot
    assert lab.check("01.1", lab.expected("01.1") + 1.0) == lab.NOT_YET
    assert "right" in capsys.readouterr().out


def test_self_checks_name_the_unit_a_fraction_included(capsys):
    """An unanswered check says how to answer ("in ms", "as a fraction"), never "in 1"."""
    lab.check("01.1", None)
    lab.check("03.1", None)
    lab.check("04.1", lab.expected("04.1"))
    out = capsys.readouterr().out
    assert "set the variable to your value, in ms" in out
    assert "set the variable to your value, as a fraction (0.25 for 25 %)" in out
    assert " in 1" not in out and " 1 (tolerance" not in out and "tolerance 0.005)" in out


def test_redraw_names_payload_ip_length_and_units():
    """The title says the slider's payload and the IP length it makes; the statistics name their
    unit."""
    fig = lab.redraw(n_ef_samples=300, be_payload_bytes=952)
    title = fig._suptitle.get_text()
    assert "BE payload 952 B (IP 980 B)" in title
    assert "transmission units (0.636 ms each)" in title
    assert all("transmission units" in t.get_text() for t in fig.axes[1].get_legend().get_texts())


def test_bad_answer_and_exercise_raise():
    with pytest.raises(ValueError, match="answer"):
        lab.compare("7", 7.0)
    with pytest.raises(ValueError, match="exercise"):
        lab.check("99.9", 1.0)


def test_redraw_returns_a_figure():
    fig = lab.redraw(n_ef_samples=300)
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    fig = lab.redraw(n_ef_samples=300, scheduler="wfq", be_distribution="real")
    assert isinstance(fig, Figure)


@pytest.mark.parametrize(
    "name, value",
    [
        ("ring_limit_particles", 0),
        ("scheduler", "fifo"),
        ("be_payload_bytes", -1),
        ("n_ef_streams", 0),
        ("n_ef_samples", 0),
    ],
)
def test_redraw_bad_input_names_the_parameter(name, value):
    with pytest.raises(ValueError, match=name):
        lab.redraw(**{name: value})


def test_controls_are_real_ipywidgets_with_the_defaults():
    import ipywidgets as w

    ctrl = lab.controls()
    assert list(ctrl) == [
        "be_payload_bytes",
        "ring_limit_particles",
        "ef_frame_bytes",
        "n_ef_streams",
        "scheduler",
        "ef_weight_bps",
        "be_distribution",
    ]
    payload = ctrl["be_payload_bytes"]
    assert isinstance(payload, w.IntSlider)
    assert (payload.value, payload.min, payload.max, payload.step) == (1472, 20, 1472, 4)
    weight = ctrl["ef_weight_bps"]
    assert isinstance(weight, w.FloatSlider)
    assert (weight.value, weight.min, weight.max, weight.step) == (400e3, 50e3, 1.9e6, 50e3)
    assert isinstance(ctrl["scheduler"], w.ToggleButtons) and ctrl["scheduler"].value == "pq"
    assert lab.controls(ring_limit_particles=3)["ring_limit_particles"].value == 3


def test_moving_a_slider_redraws_the_panel():
    panel = lab.RedrawPanel(["be_payload_bytes", "ring_limit_particles"], n_ef_samples=300)
    assert (
        panel.redraws == 1 and "BE payload 1472 B (IP 1500 B)" in panel.figure.texts[0].get_text()
    )
    first = panel.figure
    panel.controls["be_payload_bytes"].value = 472  # IP 500 bytes
    assert panel.redraws == 2 and panel.figure is not first
    assert "BE payload 472 B (IP 500 B)" in panel.figure.texts[0].get_text()
    assert panel.timing.value.startswith("redraw (simulate + plot): ")
    assert panel.box.children[:2] == tuple(panel.controls.values())


def test_interactive_redraw_shows_widgets_not_a_fallback(capsys):
    panel = lab.interactive_redraw(True, keys=["scheduler"], n_ef_samples=300)
    assert isinstance(panel, lab.RedrawPanel) and list(panel.controls) == ["scheduler"]
    assert "widgets unavailable" not in capsys.readouterr().out
    with pytest.raises(ValueError, match="keys"):
        lab.RedrawPanel(["no_such_control"], n_ef_samples=300)


def test_there_are_lab_notebooks():
    assert LAB_NOTEBOOKS


@pytest.mark.parametrize("notebook", LAB_NOTEBOOKS, ids=lambda p: p.name)
@pytest.mark.slow  # a Jupyter kernel per notebook
def test_lab_notebook_runs_headless(notebook, tmp_path):
    import papermill

    papermill.execute_notebook(
        str(notebook),
        str(tmp_path / notebook.name),
        parameters={"interactive": False, "n_ef_samples": 500},
        cwd=str(Path(notebook).parent),
        progress_bar=False,
    )
