"""Damaged state files and unusable paths, through the real ``pqlab reproduce``.

A state file is pqlab's own record, read against its JSON Schema in one place
(:func:`pqlab.pipeline.publish.load_state`): a manifest (``.pqlab-published.json``) or a section's
key (``section.json``) that is not JSON, or JSON of the wrong shape, is not trusted (one warning
line naming it; the sections are recomputed). The run lock is the operating system's: it holds
no state that could be damaged (``tests/test_reproduce_safety.py``). A symbolic link loop as
``--out`` or ``--build`` is exit 2, one line naming it. Never a traceback.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_reproduce_safety import PAPER, _notebook, _recording

from pqlab.pipeline import publish, reproduce, runfolder


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """One tiny notebook (a kernel, no simulation) and the papers' values for it."""
    folder = tmp_path_factory.mktemp("nbs")
    paper = folder / "paper.csv"
    PAPER.to_csv(paper, index=False)
    return _notebook(folder, "a_first", _recording("tiny_a")), paper


def _reproduce(tiny, *where) -> subprocess.CompletedProcess:
    """``pqlab reproduce`` of the tiny notebook in a process of its own, with ``where``
    (``--out DIR`` and/or ``--build DIR``)."""
    notebook, paper = tiny
    argv = [
        sys.executable,
        "-m",
        "pqlab.cli",
        "reproduce",
        *map(str, where),
        "--no-progress",
        "--no-site",
        "--jobs",
        "1",
        "--paper-values",
        str(paper),
        "--notebooks",
        str(notebook),
    ]
    return subprocess.run(argv, capture_output=True, text=True, timeout=600)


def _one_line(done: subprocess.CompletedProcess, code: int, *named) -> str:
    """The single line on stderr of ``done``, which exited ``code`` and names each of ``named``."""
    lines = done.stderr.strip().splitlines()
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr and len(lines) == 1, done.stderr
    for name in named:
        assert str(name) in lines[0], (name, lines[0])
    return lines[0]


def _listing(root: Path) -> list:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


# --------------------------------------------------------------------------- the manifest


@pytest.fixture(scope="module")
def published(tiny, tmp_path_factory):
    """A tree into which the tiny notebook was published (seed 1)."""
    root = tmp_path_factory.mktemp("published")
    result = reproduce.run_all(
        [tiny[0]],
        out_dir=root / "figures",
        build_dir=root / "build",
        progress=False,
        paper_values=tiny[1],
        jobs=1,
        site=False,
    )
    assert result.published
    return root


def _manifest(root: Path) -> dict:
    return json.loads((root / "figures" / publish.MANIFEST).read_text())


#: A field of the manifest -> values of the wrong type or shape for it.
WRONG_FIELDS = {
    "publish_id": [None, 5, ["x"]],
    "out_path": [7, ""],
    "seed": ["1", -1, 1.5, True],
    "quick": ["no", 0],
    "sections": [None, "x", [1], {"a_first": 5}],
    "files": [
        None,
        "x",
        [],
        {"out": "x", "results": {}},
        {"out": {}, "results": {"a.png": 5}},
        {"out": {}},
    ],
}
BAD_MANIFESTS = {
    f"{field} = {json.dumps(value)}": (field, value)
    for field, values in WRONG_FIELDS.items()
    for value in values
}


@pytest.mark.parametrize("field, value", BAD_MANIFESTS.values(), ids=BAD_MANIFESTS.keys())
@pytest.mark.slow  # reads published: a pqlab reproduce run
def test_a_manifest_of_the_wrong_shape_is_not_trusted_and_named(published, tmp_path, field, value):
    tree = shutil.copytree(published, tmp_path / "tree", symlinks=True)
    manifest = {**_manifest(tree), field: value}
    (tree / "figures" / publish.MANIFEST).write_text(json.dumps(manifest))
    trusted, why = publish.verified(tree / "figures", tree / "build")
    assert trusted is None and str(tree / "figures" / publish.MANIFEST) in why and field in why
    assert "\n" not in why


@pytest.mark.parametrize(
    "text",
    [
        "",
        '{"publish_id": "x", "sec',
        "[1, 2]",
        '"x"',
        "null",
        "[" * 100_000,
        '{"seed": ' + "9" * 5000 + "}",
    ],
    ids=["empty", "truncated", "a list", "a string", "null", "nested too deep", "huge number"],
)
@pytest.mark.slow  # reads published: a pqlab reproduce run
def test_a_manifest_that_is_no_object_is_not_trusted_and_named(published, tmp_path, text):
    tree = shutil.copytree(published, tmp_path / "tree", symlinks=True)
    (tree / "figures" / publish.MANIFEST).write_text(text)
    trusted, why = publish.verified(tree / "figures", tree / "build")
    assert trusted is None and str(tree / "figures" / publish.MANIFEST) in why and "\n" not in why


@pytest.mark.parametrize(
    "field, value", [("sections", None), ("files", "x")], ids=["sections null", "files x"]
)
@pytest.mark.slow  # pqlab reproduce in a fresh process
def test_a_damaged_manifest_is_one_warning_line_then_a_whole_publish(
    published, tiny, tmp_path, field, value
):
    tree = shutil.copytree(published, tmp_path / "tree", symlinks=True)
    manifest = {**_manifest(tree), field: value}
    (tree / "figures" / publish.MANIFEST).write_text(json.dumps(manifest))
    line = _one_line(_reproduce(tiny, "--out", tree), 0, tree / "figures" / publish.MANIFEST)
    assert "recomput" in line
    trusted, why = publish.verified(tree / "figures", tree / "build")
    assert trusted is not None and trusted["sections"], why


def test_a_section_key_of_the_wrong_type_is_unknown(tmp_path):
    for content in ('{"key": 5}', '{"key": ["x"]}', "[1]", "{"):
        (tmp_path / runfolder.SECTION_FILE).write_text(content)
        assert runfolder.read_section_key(tmp_path) is None
    (tmp_path / runfolder.SECTION_FILE).write_text('{"key": "abc", "seed": 1}')
    assert runfolder.read_section_key(tmp_path) == "abc"


# --------------------------------------------------------------------------- unusable paths


@pytest.mark.parametrize("option", ["--out", "--build", "--out through a loop"])
@pytest.mark.slow  # pqlab reproduce in a fresh process
def test_a_symbolic_link_loop_as_a_folder_is_one_line_exit_2(tiny, tmp_path, option):
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    given = loop / "sub" if option == "--out through a loop" else loop
    where = [option.split()[0], given]
    if option == "--build":
        where = ["--out", tmp_path / "out", *where]
    before = _listing(tmp_path)
    _one_line(_reproduce(tiny, *where), 2, given)
    assert _listing(tmp_path) == before  # nothing touched
    with pytest.raises(ValueError, match="loop"):
        reproduce.validate([tiny[0]], out_dir=given, build_dir=tmp_path / "b")
