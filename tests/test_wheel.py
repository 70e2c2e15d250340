"""``pip install`` of a built wheel is a complete product (issue 9).

Builds the sdist from this checkout, the wheel from that sdist (so both are proven
complete), installs the lock (``requirements/run.txt``, hash-checked) and then the wheel
without dependencies into a fresh virtual environment outside the checkout (no
``--system-site-packages``), and runs ``pqlab reproduce --quick`` from an empty folder: the
report, figures and site appear under ``./pqlab-output``, nothing is written into
site-packages, and the report is the committed quick report (exactly where this is the
environment it was made in: a second fresh install from the lock gives the same numbers).
About 2-4 minutes on 2 cores, most of it pip and the quick reproduction.
"""

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from pqlab.base import locations
from pqlab.pipeline import reportdiff

# Slow tier (.ci/run runs it after the README's command): an install and a quick reproduction.
pytestmark = [pytest.mark.install, pytest.mark.slow]

ROOT = locations.ROOT
WARNING = "without encryption"


def _run(argv, cwd, timeout=900, env=None):
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    assert done.returncode == 0, (
        f"{' '.join(map(str, argv))}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done


@pytest.fixture(scope="module")
def dists(tmp_path_factory):
    if not locations.is_source_checkout():
        pytest.skip("needs the source checkout to build from")
    pytest.importorskip("build", reason='the "build" front end is in the test extra')
    out = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "build", "--sdist", "--outdir", str(out), str(ROOT)], cwd=out)
    (sdist,) = out.glob("pqlab-*.tar.gz")
    unpacked = tmp_path_factory.mktemp("sdist")
    with tarfile.open(sdist) as tar:
        (
            tar.extractall(unpacked, filter="data")
            if hasattr(tarfile, "data_filter")
            else tar.extractall(unpacked)
        )
    (source,) = unpacked.iterdir()
    _run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(source)], cwd=out)
    (wheel,) = out.glob("pqlab-*.whl")
    # setuptools built in its own folder (pyproject.toml's [tool.distutils.build]), not in the
    # build/
    # that pqlab reproduce fills with its runs and results cache
    assert not (source / "build").exists() and (source / "build-setuptools").is_dir()
    return sdist, wheel


def test_sdist_and_wheel_hold_the_notebooks_and_data(dists):
    sdist, wheel = dists
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for name in (
        "notebooks/05_worst_case.ipynb",
        "notebooks/lab/01_priority_queue_and_ring.ipynb",
        "data/paper_values.csv",
        "data/be_size_cdf_standin.csv",
        "pqlab/base/locations.py",
        "tests/test_wheel.py",
        "requirements/run.txt",
        "requirements/test.txt",
        "requirements/refresh.sh",
        "binder/requirements.txt",
        "docs/build.md",
        "pqlab/py.typed",
    ):
        assert name in names, name
    with zipfile.ZipFile(wheel) as whl:
        files = set(whl.namelist())
    for name in (
        "pqlab/_notebooks/05_worst_case.ipynb",
        "pqlab/_notebooks/lab/01_priority_queue_and_ring.ipynb",
        "pqlab/_notebooks/lab/INSTRUCTOR.md",
        "pqlab/_data/paper_values.csv",
        "pqlab/_data/be_size_cdf_standin.csv",
        "pqlab/_requirements/run.txt",
        "pqlab/_docs/build.md",  # the manual: the site writes it from an installed wheel
        "pqlab/py.typed",
    ):  # PEP 561: type checkers read pqlab's annotations
        assert name in files, name
    paper_notebooks = {p.name for p in locations.NOTEBOOKS.glob("*.ipynb")}
    assert {
        f.rsplit("/", 1)[1]
        for f in files
        if f.startswith("pqlab/_notebooks/") and f.count("/") == 2 and f.endswith(".ipynb")
    } == paper_notebooks


@pytest.fixture(scope="module")
def installed(dists, tmp_path_factory):
    _, wheel = dists
    venv = tmp_path_factory.mktemp("venv") / "env"
    _run([sys.executable, "-m", "venv", str(venv)], cwd=venv.parent)
    python = venv / "bin" / "python"
    _run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-compile",
            "-r",
            str(ROOT / "requirements" / "run.txt"),
        ],
        cwd=venv.parent,
        timeout=1200,
    )
    _run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-compile", "--no-deps", str(wheel)],
        cwd=venv.parent,
    )
    return venv


def test_installed_wheel_reproduces_from_an_empty_folder(installed, tmp_path):
    work = tmp_path / "empty"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{installed / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    where = _run(
        [
            str(installed / "bin" / "python"),
            "-c",
            (
                "import pqlab, pqlab.base.locations as p; print(pqlab.__file__);"
                " print(p.is_source_checkout())"
            ),
        ],
        cwd=work,
        env=env,
    )
    package_file, checkout = where.stdout.split()
    assert str(installed) in package_file and checkout == "False"
    done = _run(
        [str(installed / "bin" / "pqlab"), "reproduce", "--quick", "--no-progress"],
        cwd=work,
        env=env,
        timeout=1500,
    )
    output = done.stdout + done.stderr
    assert WARNING not in output
    figures = work / "pqlab-output" / "figures"
    assert (figures / "report.md").stat().st_size > 0 and (
        figures / "site" / "index.html"
    ).is_file()
    manual = {p.name for p in (figures / "site").glob("manual*.html")}
    assert {"manual.html", "manual_build.html"} <= manual and len(manual) == 1 + len(
        list((ROOT / "docs").glob("*.md"))
    )
    assert (figures / "site" / "figures" / "paper_vs_ours.png").is_file()
    assert len(list(figures.glob("*.png"))) >= 20
    verdicts = pd.read_csv(figures / "report.csv")["verdict"]
    assert (verdicts == "reproduced").sum() > 0
    text = (figures / "report.md").read_text(encoding="utf-8")
    assert reportdiff.report_environment(text)["on_lock"], (
        "a fresh install from the lock is on the lock"
    )
    golden_dir = ROOT / "tests" / "data"
    golden_text = (golden_dir / "quick_report.md.txt").read_text(encoding="utf-8")
    golden = reportdiff.read_table(golden_dir / "quick_report.csv")
    now = reportdiff.read_table(figures / "report.csv")
    assert (
        reportdiff.compare_tables(golden, now, rel_tol=reportdiff.tolerance_against(golden_text))
        == []
    )
    assert reportdiff.compare_markdown(golden_text, text) == []
    site_packages = Path(package_file).parent.parent
    assert not (site_packages / "figures").exists() and not (site_packages / "build").exists()
    assert not list(site_packages.glob("pqlab-output"))
    # the lab: notebooks copied from the package; without JupyterLab a clear hint
    lab = subprocess.run(
        [str(installed / "bin" / "pqlab"), "lab", "--no-browser"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (work / "pqlab-lab" / "01_priority_queue_and_ring.ipynb").is_file()
    if lab.returncode != 0:  # jupyterlab is an extra, not installed here
        assert 'pip install "pqlab[lab]"' in lab.stderr and lab.returncode == 2
    shutil.rmtree(work)
