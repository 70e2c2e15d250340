"""Run the quick reproduction with today's newest packages and list every number that moved.

Installs pqlab from this checkout into a fresh virtual environment *without* the lock (pip
resolves pyproject.toml's ranges to the newest releases the index serves), runs
``pqlab reproduce --quick`` there, and compares its report with the committed quick report
(``tests/data/quick_report.csv`` and ``.md.txt``) the way the golden test does
(:mod:`pqlab.pipeline.reportdiff`: numbers within a relative 1e-9, text exactly). Prints the
packages
that differ from the lock, then every moved number and changed cell; exit status 0 when nothing
moved beyond the tolerance, 1 otherwise, 2 when the install or the run fails.

Run it before refreshing the lock (``bash requirements/refresh.sh``)::

    python requirements/check_latest.py [--keep DIR] [--python PYTHON]

About 2 minutes on 2 cores (the install, then the quick reproduction).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data"


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    print("+", " ".join(argv), flush=True)
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True)


def _fail(step: str, done: subprocess.CompletedProcess) -> int:
    print(
        f"check_latest: {step} failed (exit"
        f" {done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}",
        file=sys.stderr,
    )
    return 2


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--keep", type=Path, help="work in this folder and keep it (default: a temporary one)"
    )
    parser.add_argument(
        "--python", default=sys.executable, help="interpreter to build the venv with"
    )
    args = parser.parse_args(argv)
    work = (
        Path(tempfile.mkdtemp(prefix="pqlab-latest-")) if args.keep is None else args.keep.resolve()
    )
    work.mkdir(parents=True, exist_ok=True)
    try:
        venv = work / "venv"
        done = _run([args.python, "-m", "venv", str(venv)], work)
        if done.returncode:
            return _fail("creating the venv", done)
        python = venv / "bin" / "python"
        done = _run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--upgrade",
                "--upgrade-strategy",
                "eager",
                str(ROOT),
            ],
            work,
        )
        if done.returncode:
            return _fail("pip install (newest packages)", done)
        out = work / "quick"
        shutil.rmtree(out, ignore_errors=True)
        done = _run(
            [
                str(venv / "bin" / "pqlab"),
                "reproduce",
                "--quick",
                "--no-progress",
                "--out",
                str(out),
            ],
            work,
        )
        if done.returncode:
            return _fail("pqlab reproduce --quick", done)
        compare = (
            "import sys\nfrom pqlab import reportdiff, versions\ngolden, now = sys.argv[1],"
            " sys.argv[2]\nprint(versions.differences_text(versions.lock_differences()) or 'the"
            " newest packages are the lock')\ncells ="
            " reportdiff.compare_tables(reportdiff.read_table(f'{golden}/quick_report.csv'),\n     "
            "                             reportdiff.read_table(f'{now}/report.csv'))\ntext ="
            " reportdiff.compare_markdown(open(f'{golden}/quick_report.md.txt').read(),\n          "
            "                         open(f'{now}/report.md').read())\nprint(f'{len(cells)}"
            " cell(s) of report.csv beyond a relative"
            " {reportdiff.REL_TOL:g}:')\nprint('\\n'.join(f'  {c}' for c in"
            " cells))\nprint(f'{len(text)} line(s) of report.md diff:')\nprint('\\n'.join(f' "
            " {line[:300]}' for line in text))\nsys.exit(1 if cells or text else 0)\n"
        )
        done = subprocess.run(
            [str(python), "-c", compare, str(GOLDEN), str(out / "figures")], cwd=work
        )
        print(
            "nothing moved beyond the tolerance"
            if done.returncode == 0
            else "numbers or text moved: see above"
        )
        return done.returncode
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
