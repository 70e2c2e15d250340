"""A new artefact module is picked up by the registry, ``--list``, the report and the site, no other
file changed.

The module is CONTRIBUTING.md's worked example, taken from that file: the recipe a contributor
follows is the one tested. It is written into a copy of the package laid out as a wheel installs it
(``pqlab/``, ``pqlab/_data``, ``pqlab/_notebooks``), and a fresh Python process runs it there the
way
its notebook cell does (compute, ``kit.save_figure``, ``kit.record_claims``), then builds the report
and the site from what it recorded.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pqlab

ROOT = Path(__file__).resolve().parents[1]
NEW_ID = "tftant_slides_ef_ccdf"


def worked_example() -> str:
    """The python block after ``<!-- worked-example -->`` in CONTRIBUTING.md."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- worked-example -->\s*```python\n(.*?)```", text, re.S)
    assert match, "CONTRIBUTING.md has no worked example block"
    return match.group(1)


def _package_copy(target: Path) -> Path:
    """pqlab as a wheel lays it out, under ``target``; returns the package folder."""
    package = Path(pqlab.__file__).resolve().parent
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc")
    shutil.copytree(package, target / "pqlab", ignore=ignore)
    from pqlab.base import locations

    for name, folder in (("_data", locations.DATA), ("_notebooks", locations.NOTEBOOKS)):
        if not (target / "pqlab" / name).exists():
            shutil.copytree(folder, target / "pqlab" / name, ignore=ignore)
    return target / "pqlab"


RUN = """
import json, sys
from pathlib import Path
import matplotlib
matplotlib.use("Agg")
import pqlab
from pqlab.papers import kit, registry
from pqlab.pipeline import report, website

out = Path(sys.argv[1])
entry = registry.artefact("{new}")
module = __import__(entry.module, fromlist=["compute"])
data = module.compute(n_ef_samples=200, seeds=(1,))
figures, results = out / "figures", out / "results"
figures.mkdir(parents=True)
kit.save_figure(module.ARTEFACT, module.figure(data), figures, results)
kit.record_claims(results, module.claims(data), seed=1)
table = report.build_report(results, figures)
site = website.build_site(table, figures, out / "no-notebooks", out / "site", results_dir=results)
print(json.dumps({{
    "package": pqlab.__file__,
    "ids": list(registry.ids()),
    "document": entry.document, "notebook": entry.notebook,
    "rows": table.loc[table.artefact == "{new}", ["quantity", "verdict"]].values.tolist(),
    "page": (Path(site).parent / registry.document(entry.document).page).read_text(encoding="utf-8"),
}}))
""".format(new=NEW_ID)  # noqa: E501


@pytest.mark.slow  # a fresh package copy: two processes compile the engine from cold
def test_a_new_artefact_module_is_picked_up_by_the_registry_the_report_and_the_site(tmp_path):
    package = _package_copy(tmp_path / "install")
    before = {p.relative_to(package): p.read_bytes() for p in package.rglob("*") if p.is_file()}
    (package / "papers" / "tftant_slides" / f"{NEW_ID}.py").write_text(
        worked_example(), encoding="utf-8"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PQLAB_")}
    env.update(PYTHONPATH=str(tmp_path / "install"), PYTHONDONTWRITEBYTECODE="1", MPLBACKEND="Agg")

    listed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from pqlab import cli; sys.exit(cli.main(sys.argv[1:]))",
            "reproduce",
            "--list",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert listed.returncode == 0, listed.stderr
    assert any(
        line.split()[0] == NEW_ID and "11_network_and_slides" in line
        for line in listed.stdout.splitlines()
    )

    done = subprocess.run(
        [sys.executable, "-c", RUN, str(tmp_path / "out")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    assert (
        Path(found["package"]).resolve().parent == package.resolve()
    )  # the copy ran, not the checkout
    assert NEW_ID in found["ids"] and (found["document"], found["notebook"]) == (
        "tftant_slides",
        "11_network_and_slides",
    )
    assert found["rows"] == [["delay_p99", "pqlab only"]]
    assert f'id="a-{NEW_ID}"' in found["page"] or NEW_ID in found["page"]
    assert f"figures/{NEW_ID}.png" in found["page"]
    # nothing but the new module was added or changed in the package
    after = {
        p.relative_to(package): p.read_bytes()
        for p in package.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert set(after) - set(before) == {Path("papers", "tftant_slides", f"{NEW_ID}.py")}
    assert all(after[p] == before[p] for p in before)
