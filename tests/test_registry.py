"""pqlab.papers.registry: the artefacts found by importing the document folders, and the rules each
module keeps.

Every check runs over :func:`pqlab.papers.registry.artefacts`, so a new artefact module is held to
them without this file changing.
"""

import ast
import importlib
import json
from pathlib import Path

import numpy as np
import pytest

from pqlab.papers import kit, registry
from pqlab.papers.records import load_claim_notes, load_paper_values

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
ENTRIES = registry.artefacts()


def _notebook_tree(name: str) -> ast.Module:
    cells = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    lines = [
        line
        for c in cells
        if c["cell_type"] == "code"
        for line in "".join(c["source"]).splitlines()
        if not line.lstrip().startswith(("%", "!"))
    ]
    return ast.parse("\n".join(lines))


def _imported_artefact_modules(tree: ast.Module) -> dict:
    """Local name -> artefact module a notebook imports with ``from pqlab.papers.<document> import
    <id>``."""
    bound = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if full in {e.module for e in ENTRIES}:
                    bound[alias.asname or alias.name] = full
    return bound


def test_the_registry_finds_artefact_modules():
    assert ENTRIES and len({e.id for e in ENTRIES}) == len(ENTRIES)
    assert set(load_paper_values().artefact) <= set(
        registry.ids()
    )  # every artefact the papers' values name
    assert registry.ids() == tuple(e.id for e in ENTRIES)
    assert list(ENTRIES) == sorted(ENTRIES, key=lambda e: (e.notebook, e.id))


def test_the_modules_source_declares_what_importing_them_finds():
    """``pqlab reproduce --list`` reads the ``ARTEFACT = Artefact(__name__, ...)`` statements from
    the source (registry.declared, no engine imported): the same entries, in the same order, as
    importing the modules."""
    assert registry.declared() == registry.artefacts()
    assert all(registry.declared_artefact(a.id) == a for a in registry.artefacts())
    assert registry.declared_artefact("no_such_artefact") is None


@pytest.mark.parametrize(
    "source, problem",
    [
        ("ARTEFACT = Artefact('pqlab.papers.long.x', notebook='01')\n", "Artefact\\(__name__"),
        ("NOTEBOOK = '01'\nARTEFACT = Artefact(__name__, notebook=NOTEBOOK)\n", "literals"),
    ],
)
def test_a_declaration_the_source_cannot_state_is_refused_by_name(source, problem):
    with pytest.raises(ValueError, match=problem):
        registry._declaration("pqlab.papers.long.x", source)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_an_artefact_module_holds_its_id_document_computation_claims_and_figure(entry):
    module = importlib.import_module(entry.module)
    assert module.ARTEFACT is entry
    assert entry.id == entry.module.rpartition(".")[2] and entry.source.key == entry.document
    assert (
        registry.document_of(entry.id) is entry.source
    )  # the id's prefix names its own folder's document
    compute = entry.function("compute")
    assert callable(compute) and compute.__module__ == entry.module
    assert (
        getattr(compute, "cache_artefact_id", entry.id) == entry.id
    )  # one id: module, cache, files
    figure = entry.function("figure")
    assert (figure is None) == entry.table, "a table has no figure function, a figure has one"
    assert figure is None or figure.__module__ == entry.module
    claims = entry.function("claims")
    assert claims is None or claims.__module__ == entry.module
    rows = load_paper_values()
    declared = set(load_claim_notes().artefact)
    assert claims is None or entry.id not in declared, (
        f"{entry.id}: claims both as data and by a function"
    )
    if set(rows.artefact) & {entry.id}:
        assert claims is not None or entry.id in declared, (
            f"{entry.id} has rows in data/paper_values.csv and neither claim notes nor claims()"
        )
    assert (NOTEBOOKS / f"{entry.notebook}.ipynb").is_file()


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_an_artefact_whose_claims_are_data_builds_no_claim_reason_or_verdict_itself(entry):
    """Claims as data: the judge fills the notes and reasons and computes the checks; the module
    (:func:`claim_values`) adds numbers to its Dataset, and calls no claim, reason or fact builder,
    no judge's rule and holds no float threshold of its own (a module-level float constant)."""
    if entry.id not in set(load_claim_notes().artefact):
        pytest.skip("claims built by the module's claims()")
    source = Path(importlib.import_module(entry.module).__file__).read_text(encoding="utf-8")
    tree = ast.parse(source)
    calls = {
        f"{n.func.value.id}.{n.func.attr}"
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and isinstance(n.func.value, ast.Name)
    }
    assert not calls & {"kit.claim", "judge.reason", "judge.fact", "judge.within", "judge.verdict"}
    floats = [
        t.id
        for n in tree.body
        if isinstance(n, ast.Assign)
        for t in n.targets
        if isinstance(t, ast.Name)
        and t.id.isupper()
        and isinstance(n.value, ast.Constant)
        and isinstance(n.value.value, float)
    ]
    assert floats == [], f"{entry.id}: thresholds belong to the rows' params: {floats}"


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_an_artefact_module_imports_no_other_artefacts_module(entry):
    """What two artefacts share sits in the kit or in a module of a document folder that holds no
    artefact; so an artefact's cache key (its import closure) never follows another artefact's code.
    """
    from pqlab.measure import cache

    others = {e.module for e in ENTRIES} - {entry.module}
    closure = set(cache.Sources.now().closure(entry.module))
    assert closure & others == set()
    assert "pqlab.papers.registry" in closure and "pqlab.papers.kit" in closure


def test_every_module_of_a_document_folder_is_an_artefact_or_shared_by_two():
    """A module of a document folder that holds no artefact is what two or more artefacts share."""
    from pqlab.measure import cache

    sources = cache.Sources.now()
    users: dict[str, set] = {}
    for entry in ENTRIES:
        for module in sources.closure(entry.module):
            users.setdefault(module, set()).add(entry.id)
    shared = registry.shared_modules()
    assert shared  # the document folders' shared modules are found
    assert [name for name in shared if len(users.get(name, ())) < 2] == []


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_its_notebook_runs_it_through_the_module_and_the_kit(entry):
    """The registered notebook imports the module, computes with it, saves its files under its
    ``ARTEFACT`` with the kit and records its claims; no other notebook imports it."""
    tree = _notebook_tree(entry.notebook)
    names = {
        local
        for local, module in _imported_artefact_modules(tree).items()
        if module == entry.module
    }
    assert names, f"{entry.notebook} does not import {entry.module}"
    calls = {
        (n.func.value.id, n.func.attr)
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and isinstance(n.func.value, ast.Name)
    }
    assert any((name, "compute") in calls for name in names)
    if entry.function("claims") is not None:
        assert any((name, "claims") in calls for name in names)
    if entry.id in set(load_claim_notes().artefact):  # claims as data: the kit reads its Dataset
        judged = [
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr == "claims"
            and getattr(n.func.value, "id", None) == "kit"
            and n.args
            and isinstance(n.args[0], ast.Attribute)
            and n.args[0].attr == "ARTEFACT"
            and getattr(n.args[0].value, "id", None) in names
        ]
        assert judged, (
            f"{entry.notebook} must record {entry.id}'s claims with kit.claims(<module>.ARTEFACT)"
        )
    saver = "save_table" if entry.table else "save_figure"
    saved = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == saver
        and n.args
        and isinstance(n.args[0], ast.Attribute)
        and n.args[0].attr == "ARTEFACT"
        and getattr(n.args[0].value, "id", None) in names
        and not any(k.arg == "part" for k in n.keywords)
    ]  # a second figure of it has a part
    assert len(saved) == 1, (
        f"{entry.notebook} must save {entry.id}'s files once with kit.{saver}({entry.id}.ARTEFACT,"
        " ...)"
    )
    for path in sorted(NOTEBOOKS.glob("[0-9]*.ipynb")):
        if path.stem != entry.notebook:
            assert (
                entry.module not in _imported_artefact_modules(_notebook_tree(path.stem)).values()
            ), path.stem


def test_unknown_ids_and_keys_are_refused_by_name():
    with pytest.raises(ValueError, match="artefact_id"):
        registry.artefact("globecom01_fig99")
    with pytest.raises(ValueError, match="key"):
        registry.document("nowhere")
    with pytest.raises(ValueError, match="module must be"):
        registry.Artefact("pqlab.papers.nowhere.thing", notebook="01_background_traffic")
    with pytest.raises(ValueError, match="notebook"):
        registry.Artefact("pqlab.papers.globecom01.thing", notebook="")
    with pytest.raises(ValueError, match="role"):
        ENTRIES[0].function("notebook")


def test_provenance_cites_the_artefacts_own_document():
    tftant = kit.provenance("tftant_wfq_fig1", "t", __name__)["references"]
    assert tftant == registry.document("tftant_wfq").reference
    assert "GLOBECOM" not in tftant
    assert (
        kit.provenance("long_fig7_tab3", "t", __name__)["references"]
        == registry.document("long").reference
    )
    gap = kit.provenance("gap", "t", __name__)["references"]
    assert (
        registry.document("globecom01").reference in gap
        and registry.document("long").reference in gap
    )


def test_the_kit_saves_files_named_by_the_artefact_id(tmp_path):
    import matplotlib.pyplot as plt
    import pandas as pd

    from pqlab.papers import records

    entry = ENTRIES[0]
    fig, _ = kit.subplots(figsize=(2, 2))
    (tmp_path / "f").mkdir()
    paths = kit.save_figure(entry, fig, tmp_path / "f", tmp_path / "r")
    assert [Path(p).name for p in paths] == [f"{entry.id}.png", f"{entry.id}.pdf"]
    plt.close("all")
    table = pd.DataFrame({"a": [1.5]}, index=pd.Index(["x"], name="k"))
    paths = kit.save_table(entry, table, tmp_path / "f", tmp_path / "r")
    assert [Path(p).name for p in paths] == [f"{entry.id}.md", f"{entry.id}.csv"]
    assert {r["artefact"] for r in records.load_records(tmp_path / "r")} == {entry.id}
    fig, _ = kit.subplots(figsize=(2, 2))
    paths = kit.save_figure(entry, fig, tmp_path / "f", tmp_path / "r", part="curves")
    assert [Path(p).name for p in paths] == [f"{entry.id}_curves.png", f"{entry.id}_curves.pdf"]
    assert {r["artefact"] for r in records.load_records(tmp_path / "r")} == {entry.id}
    with pytest.raises(ValueError, match="artefact"):
        kit.save_figure(None, fig, tmp_path / "f", tmp_path / "r")
    with pytest.raises(ValueError, match="part"):
        kit.save_figure(entry, fig, tmp_path / "f", tmp_path / "r", part="../x")
    plt.close("all")


def test_reproduce_list_prints_one_line_per_artefact(capsys):
    from pqlab import cli

    assert cli.main(["reproduce", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == list(registry.ids())
    assert all(
        entry.module in line and entry.notebook in line for entry, line in zip(ENTRIES, lines)
    )


def _labelled_figure():
    import matplotlib.pyplot as plt

    fig, axes = kit.subplots(1, 2, figsize=(4, 2.5))
    for ax in axes:
        ax.plot([0, 1, 2], [1, 0, 2], label="EF")
        ax.set_xlabel("BE packet size, bytes")
        ax.legend()
    fig.suptitle("a title the layout makes room for")
    return fig, plt


@pytest.mark.parametrize("opaque", [True, False])
def test_the_kit_writes_the_png_savefig_writes_and_the_same_bytes_each_time(tmp_path, opaque):
    """One Agg draw gives savefig's pixels (layout solved, same size), without the alpha channel
    when every pixel is opaque; PDFs carry no date."""
    from PIL import Image

    def figure():
        fig = _labelled_figure()[0]
        if not opaque:
            fig.patch.set_alpha(0.0)
        return fig

    import matplotlib.pyplot as plt

    fig = figure()
    fig.savefig(tmp_path / "by_savefig.png", dpi=kit.FIGURE_DPI)
    plt.close(fig)
    written = [kit.save(figure(), tmp_path / f"kit{i}") for i in (1, 2)]
    expected = np.asarray(Image.open(tmp_path / "by_savefig.png"))
    image = Image.open(written[0][0])
    assert image.mode == ("RGB" if opaque else "RGBA")
    assert expected.shape == (int(2.5 * kit.FIGURE_DPI), 4 * kit.FIGURE_DPI, 4)
    assert (expected[..., 3] == 255).all() == opaque
    assert np.array_equal(np.asarray(image.convert("RGBA")), expected)
    assert image.info["dpi"] == pytest.approx(
        (kit.FIGURE_DPI, kit.FIGURE_DPI), abs=0.05
    )  # pixels per metre
    assert image.info["Software"].startswith("Matplotlib version")
    for first, second in zip(*written):
        assert Path(first).read_bytes() == Path(second).read_bytes()
    assert b"CreationDate" not in Path(written[0][1]).read_bytes()
