"""Every input of a cached artefact and of a section is in its key (issue 28, items 1, 5 and 6).

Each test works on a scratch copy of the package (laid out as a wheel installs it: the data,
notebooks and locks inside ``pqlab/``), never on the worktree: a helper or a data file of the
copy is edited, the keys (or a run) are looked at in a new process of the copy, then the file is
restored and the original keys, numbers and report come back.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import pqlab
from pqlab.base import locations


def _shared_modules() -> list[str]:
    """The modules artefact modules share: the kit and every module of a document folder without an
    ``ARTEFACT``."""
    from pqlab.papers import registry

    return sorted(["pqlab.papers.kit", *registry.shared_modules()])


#: The artefacts' shared helper modules (imported by the artefact modules, not artefacts
#: themselves).
HELPERS = _shared_modules()


def _scratch(root: Path) -> Path:
    """A copy of the installed package under ``root`` (returned: the folder to put on
    PYTHONPATH)."""
    site = root / "site"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(Path(pqlab.__file__).parent, site / "pqlab", ignore=skip)
    for folder, name in (
        (locations.DATA, "_data"),
        (locations.NOTEBOOKS, "_notebooks"),
        (locations.REQUIREMENTS, "_requirements"),
    ):
        shutil.copytree(folder, site / "pqlab" / name, ignore=skip)
    return site


def _python(site: Path, code: str, cwd: Path, **env) -> str:
    """Run ``code`` in a new process of the scratch copy; its stdout."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("PQLAB_")}
    environ.update(PYTHONPATH=str(site), NUMBA_CACHE_DIR=str(cwd / "numba"), **env)
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


class Edit:
    """Edit a file of the scratch copy; ``restore()`` puts its original bytes back."""

    def __init__(self, path: Path):
        self.path, self.original = path, path.read_bytes()

    def append(self, text: str) -> "Edit":
        self.path.write_bytes(self.original + text.encode())
        return self

    def replace(self, old: str, new: str) -> "Edit":
        text = self.original.decode()
        assert text.count(old) == 1, (self.path, old)
        self.path.write_bytes(text.replace(old, new).encode())
        return self

    def restore(self) -> None:
        self.path.write_bytes(self.original)


# --------------------------------------------------------------------------- the keys, in a new
# process

KEYS = """
import json, sys
from pqlab.measure import cache
from pqlab.papers import registry
from pqlab.pipeline import reproduce
keys = {}
for a in registry.artefacts():
    f = a.function("compute")
    if f is not None:
        keys[a.id] = cache.key(a.id, getattr(f, "__wrapped__", f), (), {})[0]
plan = reproduce.validate(["02_real_distribution", "05_worst_case", "08_tftant_ring_and_star"], quick=True,
                          out_dir=sys.argv[1] + "/figures", build_dir=sys.argv[1] + "/build")
keys.update({s.stem: reproduce.section_key(s, plan) for s in plan.sources})
print(json.dumps(keys))
"""  # noqa: E501


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    root = tmp_path_factory.mktemp("cache_inputs")
    return root, _scratch(root)


def _keys(copy) -> dict:
    root, site = copy
    return json.loads(
        _python(site, f"import sys; sys.argv = ['keys', {str(root / 'out')!r}]\n" + KEYS, root)
        .strip()
        .splitlines()[-1]
    )


def _changed(before: dict, after: dict) -> set:
    return {k for k in before if before[k] != after[k]}


@pytest.mark.slow  # edits the package, then imports or reproduces afresh
def test_an_edited_helper_or_data_file_changes_the_keys_of_what_reads_it_and_a_revert_restores_them(
    copy,
):
    """Item 1 and 5: the artefact key covers the helpers an artefact imports and the data files;
    the section key covers the data files. Reverting gives the original keys back. (Each helper
    and each data file, and that a helper is in the keys of its importers only: the
    ``Sources`` tests below.)"""
    _, site = copy
    artefacts = site / "pqlab" / "papers" / "analysis"
    data = site / "pqlab" / "_data"
    original = _keys(copy)
    sections = {"02_real_distribution", "05_worst_case", "08_tftant_ring_and_star"}
    ids = set(original) - sections

    edit = Edit(artefacts.parent / "kit.py").append("\nHELPER_EDIT = 1\n")
    try:
        after = _keys(copy)
    finally:
        edit.restore()
    assert _changed(original, after) == ids | sections  # every artefact module imports the kit

    edit = Edit(data / "be_size_cdf_standin.csv").replace(
        "\n40,0.330000000000\n", "\n40,0.200000000000\n"
    )
    try:
        after = _keys(copy)
    finally:
        edit.restore()
    changed = _changed(original, after)
    assert {"globecom01_fig4", "globecom01_fig5", "02_real_distribution"} <= changed

    assert _keys(copy) == original


# --------------------------------------------------------------------------- a cached artefact,
# computed

PROBE = '''"""A test artefact of the scratch copy: its number comes from a helper it imports in the function."""
import pandas as pd

from ...measure import cache


@cache.artefact("probe")
def probe(seed: int = 1):
    from .probe_helper import SCALE
    return pd.DataFrame({"value": [SCALE * seed]})
'''  # noqa: E501

RUN_PROBE = """
import json
from pqlab.measure import cache
from pqlab.papers.analysis.probe import probe
value = float(probe(3)["value"][0])
print(json.dumps({"value": value, "counts": cache.counts()}))
"""


def _probe(copy, force=False, code=RUN_PROBE) -> dict:
    root, site = copy
    out = _python(
        site,
        code,
        root,
        PQLAB_CACHE_DIR=str(root / "probe_cache"),
        PQLAB_CACHE_FORCE="1" if force else "0",
    )
    return json.loads(out.strip().splitlines()[-1])


@pytest.fixture()
def probe(copy):
    _, site = copy
    artefacts = site / "pqlab" / "papers" / "analysis"
    (artefacts / "probe.py").write_text(PROBE)
    (artefacts / "probe_helper.py").write_text("SCALE = 1.0\n")
    shutil.rmtree(copy[0] / "probe_cache", ignore_errors=True)
    yield artefacts / "probe_helper.py"
    for name in ("probe.py", "probe_helper.py"):
        (artefacts / name).unlink()


@pytest.mark.slow  # edits the package, then imports or reproduces afresh
def test_force_with_an_edited_helper_then_revert_gives_the_original_numbers(copy, probe):
    """Item 6: ``--force`` with an edited helper writes under the edited code's key, so reverting
    the
    edit reads the entry of the original code (its numbers), never the edited numbers."""
    first = _probe(copy)
    assert first["value"] == 3.0 and first["counts"]["computed"] == 1
    edit = Edit(probe).replace("SCALE = 1.0", "SCALE = 2.0")
    edited = _probe(copy)  # a helper imported inside the function is in the key too
    assert edited["value"] == 6.0 and edited["counts"]["computed"] == 1
    forced = _probe(copy, force=True)
    assert forced["value"] == 6.0
    edit.restore()
    reverted = _probe(copy)
    assert (
        reverted["value"] == 3.0 and reverted["counts"].get("computed", 0) == 0
    )  # the first entry, reused


def test_a_helper_edited_after_import_is_not_keyed_as_the_edited_version(copy, probe):
    """The process computes with the code it imported: a file edited on disk after that is not
    what it ran, so its result is never stored under the edited file's key."""
    edit_after_import = RUN_PROBE.replace(
        "value = ",
        "import pathlib\nfrom pqlab.papers.analysis import probe_helper\n"
        f"pathlib.Path({str(probe)!r}).write_text('SCALE = 2.0\\n')\nvalue = ",
        1,
    )
    ran = _probe(copy, code=edit_after_import)
    assert ran["value"] == 3.0  # the imported helper
    edited = _probe(copy)  # a new process, the edited helper on disk
    assert edited["value"] == 6.0 and edited["counts"]["computed"] == 1


def test_a_helper_edited_between_import_and_call_is_never_served_from_the_cache(copy, probe):
    """pqlab imported (its sources read), then the helper edited before the artefact imports it: the
    process runs the edited helper, so the entry of the original helper is not what it computes."""
    assert _probe(copy)["value"] == 3.0  # the original helper's entry is in the cache
    edit_before_import = (
        f"import pathlib, pqlab\npathlib.Path({str(probe)!r}).write_text('SCALE = 2.0\\n')\n"
        + RUN_PROBE
    )
    ran = _probe(copy, code=edit_before_import)
    assert (
        ran["value"] == 6.0
        and ran["counts"]["computed"] == 1
        and ran["counts"].get("reused", 0) == 0
    )


# --------------------------------------------------------------------------- one read of the
# papers' values


def test_a_section_key_covers_the_papers_values(tmp_path):
    """Item 5: the notes of a section quote the papers' values: another table reruns the section."""
    from pqlab.papers import records
    from pqlab.pipeline import reproduce

    table = records.load_paper_values()
    edited = table.copy()
    edited.loc[(edited.artefact == "globecom01_tab4") & (edited.quantity == "w_pq_k1"), "value"] = (
        2000.0
    )
    plans = [
        reproduce.validate(
            ["05_worst_case"],
            quick=True,
            out_dir=tmp_path / "f",
            build_dir=tmp_path / "b",
            paper_values=t,
        )
        for t in (table, edited, table.copy())
    ]
    keys = [reproduce.section_key(p.sources[0], p) for p in plans]
    assert keys[0] != keys[1] and keys[0] == keys[2]


NOTE_NOTEBOOK = (
    "from pqlab.papers import records\nfrom pqlab.papers.kit import paper_value\npaper ="
    " paper_value('tiny_note', 'value')[0]\nrecords.record(results_dir, 'tiny_note', 'value', 1.0,"
    " '1', note=f'the paper prints {paper:g}', seed=seed)\n"
)


def test_a_claims_note_and_its_paper_column_come_from_one_read_of_the_papers_values(tmp_path):
    """Item 5: the kernel's notes read the same papers' values as the report's paper column."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook

    from pqlab.pipeline import report, reproduce

    nb = new_notebook(
        cells=[
            new_code_cell(
                'figures_dir: str = ""\nresults_dir: str = ""\nquick: bool = False\nseed: int = 1',
                metadata={"tags": ["parameters"]},
            ),
            new_code_cell(NOTE_NOTEBOOK),
        ]
    )
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    path = tmp_path / "a_note.ipynb"
    nbformat.write(nb, str(path))
    paper = pd.DataFrame(
        [["tiny_note", "value", "1.5", "1", "tiny paper", "it is 1.5"]],
        columns=list(report.PAPER_COLUMNS),
    )
    result = reproduce.run_all(
        [path],
        out_dir=tmp_path / "figures",
        build_dir=tmp_path / "build",
        progress=False,
        paper_values=paper,
        site=False,
        jobs=1,
    )
    assert result.ok, result.failures
    row = result.report.set_index(["artefact", "quantity"]).loc[("tiny_note", "value")]
    assert row["paper value"] == 1.5 and row["explanation"] == "the paper prints 1.5"


# --------------------------------------------------------------------------- end to end


def _reproduce(copy, *argv) -> str:
    root, site = copy
    code = (
        "import sys\nfrom pqlab import cli\nsys.exit(cli.main(['reproduce', '--quick',"
        f" '--no-site', '--no-progress', '--out', {str(root / 'e2e')!r}, '--notebooks',"
        f" '02_real_distribution', *{list(argv)!r}]))"
    )
    return _python(site, code, root)


@pytest.mark.slow  # edits the package, then imports or reproduces afresh
def test_reproduce_recomputes_after_a_helper_or_data_edit_and_a_revert_gives_the_original_report(
    copy,
):
    """Items 1, 5, 6 end to end on one small section: an appended statement in a shared helper and a
    lowered BE law each recompute the section's artefacts; restored, the original report comes back.
    """
    root, site = copy
    report_files = [root / "e2e" / "figures" / name for name in ("report.csv", "report.md")]
    out = _reproduce(copy)
    assert "cache: 2 artefacts computed, 0 reused" in out, out
    original = [p.read_bytes() for p in report_files]

    edit = Edit(site / "pqlab" / "papers" / "kit.py").append(
        "\nHELPER_EDIT = 1\n"
    )  # the section's artefacts import it
    try:
        out = _reproduce(copy)
    finally:
        edit.restore()
    assert "cache: 2 artefacts computed, 0 reused" in out, out

    edit = Edit(site / "pqlab" / "_data" / "be_size_cdf_standin.csv").replace(
        "\n40,0.330000000000\n", "\n40,0.200000000000\n"
    )
    try:
        out = _reproduce(copy)
    finally:
        edit.restore()
    assert "up to date" not in out and "cache: 2 artefacts computed, 0 reused" in out, out
    assert [p.read_bytes() for p in report_files] != original

    out = _reproduce(copy)
    assert "up to date" not in out and "cache: 0 artefacts computed, 2 reused" in out, out
    assert [p.read_bytes() for p in report_files] == original


# --------------------------------------------------------------------------- each helper, each data
# file


def _compute_modules() -> list[str]:
    from pqlab.papers import registry

    return sorted(a.module for a in registry.artefacts())


@pytest.mark.parametrize("helper", HELPERS)
def test_each_shared_helper_is_in_the_code_key_of_the_artefact_modules_importing_it(copy, helper):
    """Edit each shared helper of the scratch copy: the code key of every artefact module whose
    imports reach it changes (of every one, for the helpers the package itself imports), the
    others' do not; restored, every key is the original one."""
    from pqlab.measure import cache

    _, site = copy
    package = site / "pqlab"
    before = cache.Sources(package, package / "_data")
    edit = Edit(package.joinpath(*helper.split(".")[1:]).with_suffix(".py")).append(
        "\nHELPER_EDIT = 1\n"
    )
    try:
        after = cache.Sources(package, package / "_data")
    finally:
        edit.restore()
    restored = cache.Sources(package, package / "_data")
    modules = _compute_modules()
    changed = {m for m in modules if before.code_digest(m) != after.code_digest(m)}
    assert changed == {m for m in modules if helper in before.closure(m)} != set()
    assert all(before.code_digest(m) == restored.code_digest(m) for m in modules)


@pytest.mark.parametrize(
    "name",
    sorted(
        p.name for p in locations.DATA.iterdir() if p.is_file() and p.suffix in (".csv", ".json")
    ),
)
def test_each_data_file_is_in_the_data_key(copy, name):
    from pqlab.measure import cache

    _, site = copy
    package = site / "pqlab"
    before = cache.Sources(package, package / "_data")
    edit = Edit(package / "_data" / name).append("\n")
    try:
        after = cache.Sources(package, package / "_data")
    finally:
        edit.restore()
    assert before.data_digest() != after.data_digest() == after.data_digest()
    assert cache.Sources(package, package / "_data").data_digest() == before.data_digest()


LOADED = """
import json, sys
loaded = {}
for module in sys.argv[1:]:
    for name in [n for n in sys.modules if n == "pqlab" or n.startswith("pqlab.")]:
        del sys.modules[name]
    __import__(module)
    loaded[module] = sorted(n for n in sys.modules if n == "pqlab" or n.startswith("pqlab."))
print(json.dumps(loaded))
"""


@pytest.mark.slow  # edits the package, then imports or reproduces afresh
def test_the_closure_holds_every_module_importing_an_artefact_module_loads():
    """The closure is read from import statements; importing each artefact module in a new process
    loads no pqlab module outside it (the documented aliases, e.g. ``pqlab.metrics``, and the
    resource packages aside)."""
    import pqlab as package
    from pqlab.measure import cache

    modules = _compute_modules()
    done = subprocess.run(
        [sys.executable, "-c", LOADED, *modules], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    aliases = {f"pqlab.{name}" for name in package.PUBLIC_MODULES}
    resources = {
        "pqlab._data",
        "pqlab._notebooks",
        "pqlab._requirements",
    }  # no code; the data files: data key
    for module in modules:
        assert set(loaded[module]) - aliases - resources <= set(cache.SOURCES.closure(module)), (
            module
        )


def test_every_import_statement_of_every_module_is_read():
    """The import statements are found as text (fast); a full parse of each module finds no
    other."""
    import ast

    from pqlab.measure import cache

    def described(node):
        return (
            type(node).__name__,
            getattr(node, "module", None),
            getattr(node, "level", 0),
            tuple(a.name for a in node.names),
        )

    for module, (path, source) in cache.SOURCES.modules.items():
        parsed = {
            described(n)
            for n in ast.walk(ast.parse(source))
            if isinstance(n, (ast.Import, ast.ImportFrom))
        }
        assert parsed <= {described(n) for n in cache.import_statements(source)}, path


def test_a_papers_values_variable_naming_no_file_is_one_clear_error(tmp_path, monkeypatch):
    from pqlab.measure import cache

    monkeypatch.setenv(locations.ENV_PAPER_VALUES, str(tmp_path / "missing.csv"))
    with pytest.raises(
        ValueError, match=r"^PQLAB_PAPER_VALUES=.*missing.csv: no such file \(name a papers'"
    ):
        cache.key("x", _compute_modules, (), {})
    (tmp_path / "missing.csv").write_text("artefact,quantity,value,unit,source,statement\n")
    named = cache.key("x", _compute_modules, (), {})[1]["data_sha256"]
    monkeypatch.delenv(locations.ENV_PAPER_VALUES)
    assert (
        cache.key("x", _compute_modules, (), {})[1]["data_sha256"] != named
    )  # the table in effect is keyed
