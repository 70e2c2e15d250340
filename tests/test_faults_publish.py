"""Fault injection on publishing (issue 22): kill -9 at each step of a publish, two ``--out``
folders sharing one ``--build``, damaged state files, an ``--out`` that is a mount point, a full
disk. Every check drives the real ``pqlab reproduce`` (or its publish step in a killed process)
on the tiny notebooks of ``test_reproduce_safety``.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pqlab import cli
from pqlab.pipeline import publish, report, reproduce, runfolder, schedule

from test_reproduce_safety import PAPER, _notebook, _recording


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nbs")
    return [_notebook(folder, "a_first", _recording("tiny_a")),
            _notebook(folder, "b_second", _recording("tiny_b", "2.0 + seed"))]


def _run(tiny, out, build, seed, **kwargs):
    return reproduce.run_all(tiny, out_dir=out, build_dir=build, seed=seed, progress=False,
                             paper_values=PAPER, jobs=2, **kwargs)


def _seeds_seen(out: Path, build: Path) -> set:
    """Every seed visible to a reader: in the figures, the report, the site and the build's results."""
    seen = {int(p.read_bytes().split()[1]) for p in out.glob("tiny_*.png")}
    seen |= {int(r["seed"]) for r in report.load_records(build / "results") if "seed" in r}
    table = (out / "report.csv").read_text() if (out / "report.csv").is_file() else ""
    if table:
        import pandas as pd
        from io import StringIO

        seen |= set(pd.read_csv(StringIO(table))["seed"].dropna().astype(int))
    for page in (out / "site").rglob("*.png"):
        seen.add(int(page.read_bytes().split()[1]))
    return seen


@pytest.fixture(scope="module")
def seed1(tiny, tmp_path_factory):
    root = tmp_path_factory.mktemp("seed1")
    result = _run(tiny, root / "figures", root / "build", 1)
    assert result.published
    return root


@pytest.mark.slow  # runs pqlab reproduce (Jupyter kernels)
def test_two_outs_sharing_one_build_never_mix(tiny, tmp_path):
    build = tmp_path / "B"
    a, c = tmp_path / "A", tmp_path / "C"
    assert _run(tiny, a, build, 1).published
    assert _run(tiny, c, build, 2).published  # a new out: nothing to distrust, no warning
    with pytest.warns(UserWarning, match=f"last published into {c}, not {a}"):
        again = _run(tiny, a, build, 2)
    assert again.up_to_date == ()  # A holds seed 1: nothing of it is current for seed 2
    assert _seeds_seen(a, build) == {2}
    links = (a / "report.html").read_text() + "".join(p.read_text() for p in (a / "site").rglob("*.html"))
    assert str(c) not in links  # no image link into the other out
    assert not any(str(c) in line for line in (build / "results" / report.RESULTS_FILE).read_text().splitlines())
    with pytest.warns(UserWarning, match=f"last published into {a}, not {c}"):
        back = _run(tiny, c, build, 2)  # C is still seed 2, but the build was last published into A
    assert back.up_to_date == () and _seeds_seen(c, build) == {2}
    assert back.cache_counts["computed"] == 0  # recomputing a section re-reads the cache: cheap


@pytest.fixture(scope="module")
def seed2(tiny, tmp_path_factory):
    root = tmp_path_factory.mktemp("seed2")
    assert _run(tiny, root / "figures", root / "build", 2).published
    return root


#: Kills its process with SIGKILL at the ``step``-th rename, move or replace of a publish
#: (:func:`pqlab.pipeline.publish.switch`); step 0 counts them and prints the count. With
#: ``PQLAB_TEST_SIGNAL=SIGINT`` it sends a Ctrl-C instead, to another thread of the process (an
#: idle thread started before the publish, as numpy's OpenBLAS threads are): the kernel gives a
#: process-directed SIGINT to any thread that does not block it, so a mask set by the publishing
#: thread alone does not keep it away. It waits (up to 2 minutes) until the main thread has run the
#: signal's handler, so the signal acts at this step however slowly a loaded machine delivers it.
KILLER = textwrap.dedent("""
    import os, signal, sys, threading, time
    from pqlab.pipeline import publish
    step = int(os.environ["PQLAB_TEST_KILL_STEP"])
    sent = getattr(signal, os.environ.get("PQLAB_TEST_SIGNAL", "SIGKILL"))
    idle = threading.Thread(target=threading.Event().wait, daemon=True)
    idle.start()
    count, depth = [0], [0]
    def killing(real):
        def call(*args, **kwargs):
            if depth[0] == 0 and active[0]:
                count[0] += 1
                if count[0] == step and sent == signal.SIGKILL:
                    os.kill(os.getpid(), signal.SIGKILL)
                elif count[0] == step:
                    signal.pthread_kill(idle.ident, sent)
                    handler, deadline = signal.getsignal(sent), time.monotonic() + 120
                    while getattr(handler, "received", None) is None and time.monotonic() < deadline:
                        time.sleep(0.01)  # until the main thread ran the handler: it raises here unless it defers
            depth[0] += 1
            try:
                return real(*args, **kwargs)
            finally:
                depth[0] -= 1
        return call
    active = [False]
    for module, name in ((publish.os, "rename"), (publish.os, "replace"), (publish.shutil, "move")):
        setattr(module, name, killing(getattr(module, name)))
    real_switch = publish.switch
    def switch(*args, **kwargs):
        active[0] = True
        try:
            return real_switch(*args, **kwargs)
        finally:
            active[0] = False
            print("publish steps", count[0], flush=True)
    publish.switch = switch
""")

#: Publishes the seed-2 tree ``argv[2]`` over the seed-1 tree ``argv[1]`` with the real publish
#: step (the run folder filled with the seed-2 run's parts), killed by :data:`KILLER`.
PUBLISH_SEED2 = KILLER + textwrap.dedent("""
    import shutil
    from pathlib import Path
    from pqlab.pipeline import runfolder
    tree, seed2 = Path(sys.argv[1]), Path(sys.argv[2])
    run = runfolder.RunFolder(tree / "build" / "runs" / "killed", tree / "figures", tree / "build")
    shutil.copytree(seed2 / "figures", run.out)
    for part in runfolder.PUBLISHED_BUILD_PARTS:
        shutil.copytree(seed2 / "build" / part, run.root / part)
    manifest = publish.read_manifest(run.results)
    for folder in (run.out, run.results):
        (folder / publish.MANIFEST).unlink()
    runfolder._rewrite_figure_paths(run.results, seed2 / "figures", run.out)
    run.publish(manifest["sections"], {"seed": 2, "quick": False})
""")


def _child(script, step, *argv, sent="SIGKILL"):
    env = dict(os.environ, PQLAB_TEST_KILL_STEP=str(step), PQLAB_TEST_SIGNAL=sent,
               PYTHONPATH=os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-c", script, *map(str, argv)], env=env, capture_output=True, text=True,
                          timeout=300)


def _published_seed(out: Path, build: Path):
    """The seed every reader sees (figures, report, site, results) and the trusted record's seed."""
    seen = _seeds_seen(out, build)
    manifest, why = publish.verified(out, build)
    assert manifest is not None, why
    assert seen == {manifest["seed"]}, (seen, manifest["seed"])
    return manifest["seed"]


@pytest.mark.slow  # runs pqlab reproduce (Jupyter kernels)
def test_kill_9_at_every_step_of_a_publish_leaves_one_whole_reproduction(seed1, seed2, tmp_path):
    counted = _child(PUBLISH_SEED2, 0, shutil.copytree(seed1, tmp_path / "count"), seed2)
    steps = int(counted.stdout.split("publish steps")[-1])
    assert counted.returncode == 0 and steps == 3 * (1 + len(runfolder.PUBLISHED_BUILD_PARTS)) + 1, counted
    outcomes = []
    for step in range(1, steps + 1):
        tree = shutil.copytree(seed1, tmp_path / f"step{step}")
        killed = _child(PUBLISH_SEED2, step, tree, seed2)
        assert killed.returncode == -signal.SIGKILL, (step, killed.stderr)
        runfolder.recover(tree / "figures", tree / "build")  # what every run does first
        outcomes.append(_published_seed(tree / "figures", tree / "build"))
        assert not list((tree).rglob(".pqlab-new-*")) and not list(tree.rglob(".pqlab-old-*"))
    # before the journal is written the publish is rolled back, after it it is finished
    commit = 1 + len(runfolder.PUBLISHED_BUILD_PARTS) + 1
    assert outcomes == [1] * commit + [2] * (steps - commit)


@pytest.mark.slow  # runs pqlab reproduce (Jupyter kernels)
def test_kill_9_of_reproduce_while_publishing_then_a_rerun(tiny, seed1, tmp_path):
    tree = shutil.copytree(seed1, tmp_path / "tree")
    script = KILLER + textwrap.dedent("""
        from pqlab import cli
        sys.exit(cli.main(sys.argv[1:]))
    """)
    paper = _paper_csv(tmp_path)
    argv = ["reproduce", "--out", tree, "--no-progress", "--paper-values", paper, "--seed", "2", "--notebooks", *tiny]
    killed = _child(script, 9, *argv)  # in the middle of the switch: figures of one seed, results of the other
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    mixed = _seeds_seen(tree / "figures", tree / "build")
    assert mixed == {1, 2}  # what a reader would see without the journal
    again = cli.main([str(a) for a in argv])
    assert again == 0
    assert _published_seed(tree / "figures", tree / "build") == 2


def _leftovers(tree: Path) -> list:
    """What a publish must never leave behind: prepared or old folders, a journal."""
    return [*tree.rglob(".pqlab-new-*"), *tree.rglob(".pqlab-old-*"), *tree.rglob(publish.JOURNAL)]


@pytest.mark.slow  # runs pqlab reproduce (Jupyter kernels)
def test_ctrl_c_at_every_step_of_a_publish_leaves_one_whole_reproduction_at_once(seed1, seed2, tmp_path):
    """Issue 28 items 7 and 9: a SIGINT taken by another thread at each rename of the switch. Before
    the commit the publish is rolled back (nothing of it left, not even in the build folder), from
    the commit on it is completed, and only then the Ctrl-C acts: never a half-switched tree, not
    even until the next run (no recovery is run here)."""
    steps = 3 * (1 + len(runfolder.PUBLISHED_BUILD_PARTS)) + 1
    outcomes = []
    for step in range(1, steps + 1):
        tree = shutil.copytree(seed1, tmp_path / f"step{step}")
        stopped = _child(PUBLISH_SEED2, step, tree, seed2, sent="SIGINT")
        assert "KeyboardInterrupt" in stopped.stderr, (step, stopped.stderr)
        assert _leftovers(tree) == [], (step, stopped.stderr)
        outcomes.append(_published_seed(tree / "figures", tree / "build"))
    prepared = 1 + len(runfolder.PUBLISHED_BUILD_PARTS)  # one move per folder, then the journal
    assert outcomes == [1] * prepared + [2] * (steps - prepared)


@pytest.mark.parametrize("step, code, published", [(2, 130, 1), (9, 0, 2)])
@pytest.mark.slow  # runs pqlab reproduce (Jupyter kernels)
def test_ctrl_c_while_publishing_says_what_is_on_disk(tiny, seed1, tmp_path, step, code, published):
    """Ctrl-C in the preparation: exit 130, "unchanged", and byte-identical; once the publish is
    decided (step 9: between two renames of the switch): it is completed, exit 0, said so."""
    tree = shutil.copytree(seed1, tmp_path / "tree")
    before = _snapshot(tree)
    script = KILLER + textwrap.dedent("""
        from pqlab import cli
        sys.exit(cli.main(sys.argv[1:]))
    """)
    argv = ["reproduce", "--out", tree, "--no-progress", "--paper-values", _paper_csv(tmp_path), "--seed", "2",
            "--notebooks", *tiny]
    stopped = _child(script, step, *argv, sent="SIGINT")
    assert stopped.returncode == code, stopped.stderr
    assert _leftovers(tree) == [] and not list((tree / "build" / "runs").iterdir())
    assert _published_seed(tree / "figures", tree / "build") == published
    said = stopped.stderr.strip().splitlines()[-1]
    if published == 1:
        assert "interrupted" in said and "unchanged" in said
        assert _snapshot(tree) == before
    else:
        assert "unchanged" not in stopped.stderr and "published" in said and str(tree / "figures") in said


@pytest.mark.slow  # runs pqlab reproduce (Jupyter kernels)
def test_a_changed_published_figure_is_not_up_to_date(tiny, seed1, tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(seed1, tree)
    (tree / "figures" / "tiny_a.png").write_bytes(b"png 7")  # e.g. a half-copied or foreign figure
    with pytest.warns(UserWarning, match="tiny_a.png"):
        result = _run(tiny, tree / "figures", tree / "build", 1)
    assert result.up_to_date == () and (tree / "figures" / "tiny_a.png").read_bytes() == b"png 1"


@pytest.mark.slow  # runs pqlab reproduce (Jupyter kernels)
def test_a_truncated_results_file_is_a_miss_named_in_one_line(tiny, seed1, tmp_path, capsys):
    tree = tmp_path / "tree"
    shutil.copytree(seed1, tree)
    file = tree / "build" / "results" / "a_first" / report.RESULTS_FILE
    file.write_bytes(file.read_bytes()[:50])
    code = cli.main(["reproduce", "--out", str(tree), "--no-progress", "--jobs", "2", "--paper-values",
                     str(_paper_csv(tmp_path)), "--notebooks", *map(str, tiny)])
    err = capsys.readouterr().err
    assert code == 0, err
    warned = [line for line in err.splitlines() if "results.jsonl" in line]
    assert len(warned) == 1 and str(file) in warned[0] and "recomput" in warned[0]
    assert report.load_records(tree / "build" / "results" / "a_first")


@pytest.mark.slow  # reads seed1: a pqlab reproduce run
def test_a_huge_number_in_the_notebook_times_is_ignored(tiny, seed1, tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(seed1, tree)
    (tree / "build" / schedule.SECONDS_FILE).write_text('{"a_first": ' + "9" * 400 + ', "b_second": 1.5}')
    assert schedule.previous_seconds(tree / "build") == {"b_second": 1.5}
    (tree / "build" / schedule.SECONDS_FILE).write_text('{"a_first": 1e999, "b_second": NaN}')
    assert schedule.previous_seconds(tree / "build") == {}


def _paper_csv(folder: Path) -> Path:
    file = folder / "paper.csv"
    PAPER.to_csv(file, index=False)
    return file


def _flip_bit_in_values(file: Path, values) -> None:
    """Flip one bit of the stored bytes of ``values`` (a float64 array) inside ``file``."""
    import numpy as np

    raw = bytearray(file.read_bytes())
    # netCDF-3 stores numbers big-endian, HDF5 as the machine does
    at = max(raw.find(np.asarray(values, dtype=order).tobytes()) for order in (">f8", "<f8"))
    assert at >= 0, "the values are not stored uncompressed"
    raw[at + 6] ^= 0x10
    file.write_bytes(bytes(raw))


def test_a_flipped_bit_in_a_cached_result_is_a_miss_named_in_one_warning(tmp_path, monkeypatch):
    import numpy as np
    import pandas as pd

    from pqlab.measure import cache

    calls = []

    @cache.artefact("tiny_flip")
    def compute(seed):
        calls.append(seed)
        return pd.DataFrame({"w_m_k1_us": [9264.5, 9300.25], "label": ["k1", "k2"]})

    monkeypatch.setenv(cache.ENV_DIR, str(tmp_path))
    monkeypatch.delenv(cache.ENV_FORCE, raising=False)
    first = compute(1)
    (file,) = (tmp_path / "tiny_flip").glob("*.nc")
    _flip_bit_in_values(file, [9264.5, 9300.25])
    with pytest.warns(UserWarning, match=f"{file.name}.*checksum") as caught:
        again = compute(1)
    assert len(caught) == 1 and "\n" not in str(caught[0].message)
    assert calls == [1, 1]  # recomputed, never the damaged numbers
    pd.testing.assert_frame_equal(again, first)
    assert np.isclose(compute(1)["w_m_k1_us"][0], 9264.5) and calls == [1, 1]  # rewritten whole


def _seed_frame_artefact(artefact_id: str):
    """A cached artefact whose result is a one-row frame of its seed."""
    import pandas as pd

    from pqlab.measure import cache

    @cache.artefact(artefact_id)
    def compute(seed):
        return pd.DataFrame({"seed": [float(seed)]})

    return compute


def test_a_cache_file_under_another_key_is_a_miss(tmp_path, monkeypatch):
    from pqlab.measure import cache

    compute = _seed_frame_artefact("tiny_key")
    monkeypatch.setenv(cache.ENV_DIR, str(tmp_path))
    compute(1)
    compute(2)
    one, two = sorted((tmp_path / "tiny_key").glob("*.nc"), key=lambda p: p.stat().st_mtime)
    shutil.copyfile(one, two)  # seed 1's result where seed 2's belongs: its checksum is intact
    with pytest.warns(UserWarning, match=f"{two.name}.*key"):
        assert compute(2)["seed"][0] == 2.0


def _snapshot(root: Path, skip=("cache", "filler", schedule.SECONDS_FILE)) -> dict:
    """sha256 of every file under ``root`` but the cache, the filler and the notebooks' times
    (they only order the next run)."""
    import hashlib

    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and not set(skip) & set(p.parts)
            and p.name != "reproduce.lock"}


def _mount(folder: Path, size: str = "4m") -> Path:
    """Mount a fresh tmpfs of ``size`` at ``folder`` (root only), or skip the test saying why."""
    if os.geteuid() != 0:
        pytest.skip("a small tmpfs can be mounted only by root: the full-disk and mount-point tests run as root")
    folder.mkdir(parents=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                             capture_output=True, text=True)
    if mounted.returncode:
        pytest.skip(f"cannot mount a tmpfs here ({mounted.stderr.strip()})")
    return folder


@pytest.fixture
def small_disk(tmp_path):
    """A fresh 4 MiB tmpfs, unmounted afterwards."""
    disk = _mount(tmp_path / "disk")
    yield disk
    subprocess.run(["umount", "-l", str(disk)], check=False)


def _fill(disk: Path, leave_bytes: int) -> None:
    """Fill ``disk`` up to ``leave_bytes`` free."""
    stat = os.statvfs(disk)
    free = stat.f_bavail * stat.f_frsize
    with open(disk / "filler", "wb") as fh:
        fh.write(b"\0" * max(0, free - leave_bytes))


@pytest.mark.parametrize("layout", ["all on the full disk", "figures alone on the full disk"])
@pytest.mark.slow  # runs pqlab reproduce (Jupyter kernels)
def test_a_full_disk_is_one_line_exit_4_and_leaves_nothing(tiny, tmp_path, small_disk, layout, capsys):
    paper = _paper_csv(tmp_path)
    if layout == "all on the full disk":
        where = ["--out", str(small_disk)]
        out, build = small_disk / "figures", small_disk / "build"
    else:
        out, build = small_disk / "figures", tmp_path / "build"
        where = ["--out", str(small_disk), "--build", str(build)]
    argv = ["reproduce", *where, "--no-progress", "--paper-values", str(paper), "--notebooks", *map(str, tiny)]
    assert cli.main([*argv, "--seed", "1"]) == 0
    capsys.readouterr()
    before = {**_snapshot(out), **{f"build/{k}": v for k, v in _snapshot(build).items()}}
    _fill(small_disk, 16 * 1024)
    code = cli.main([*argv, "--seed", "2"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 4, err
    assert len(err) == 1 and "error" in err[0] and "No space left on device" in err[0] and "--out" in err[0], err
    assert {**_snapshot(out), **{f"build/{k}": v for k, v in _snapshot(build).items()}} == before
    assert not list((build / "runs").iterdir())
    assert not list(small_disk.rglob(".pqlab-*-*")) and not (build / publish.JOURNAL).exists()
    assert not (build / "reproduce.lock").exists()
    (small_disk / "filler").unlink()
    assert cli.main([*argv, "--seed", "2"]) == 0
    assert _published_seed(out, build) == 2


def test_an_out_folder_that_is_a_mount_point_is_refused_before_anything(tiny, tmp_path, capsys):
    root = tmp_path / "volume"
    _mount(root / "figures")  # e.g. a container volume mounted as the figures folder
    try:
        before = _snapshot(tmp_path)
        code = cli.main(["reproduce", "--out", str(root), "--no-progress", "--notebooks", *map(str, tiny)])
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(err) == 1 and "mount point" in err[0] and str(root / "figures") in err[0], err
        assert _snapshot(tmp_path) == before and not (root / "build").exists()
        with pytest.raises(ValueError, match="mount point"):
            reproduce.validate(tiny, out_dir=root / "figures", build_dir=tmp_path / "b")
    finally:
        subprocess.run(["umount", "-l", str(root / "figures")], check=False)


@pytest.mark.slow  # runs pqlab reproduce (Jupyter kernels)
def test_a_flipped_bit_in_a_real_runs_cache_is_recomputed_not_published(tiny, seed1, tmp_path):
    tree = shutil.copytree(seed1, tmp_path / "tree")
    (file,) = (tree / "build" / "cache" / "tiny_b").glob("*.nc")
    _flip_bit_in_values(file, [3.0])  # tiny_b's value for seed 1 (2 + seed)
    (tree / "figures" / publish.MANIFEST).unlink()  # nothing trusted: both sections run, through the cache
    with pytest.warns(UserWarning, match="not trusting"):
        result = _run(tiny, tree / "figures", tree / "build", 1)
    assert result.published and result.cache_counts["computed"] == 1 and result.cache_counts["reused"] == 1
    assert result.report.set_index("artefact").loc["tiny_b", "ours"] == 3.0
    log = (tree / "build" / "logs" / "b_second.log").read_text() + "".join(
        p.read_text() for p in (tree / "build" / "notebooks").glob("b_second.ipynb"))
    assert "checksum" in log and file.name in log


def test_an_untrusted_out_keeps_its_own_files_and_drops_every_old_figure(tmp_path):
    out, build = tmp_path / "figures", tmp_path / "build"
    (out / "sub").mkdir(parents=True)
    for name in ("README.md", "old_figure.png", "sub/old.pdf", publish.MANIFEST, "report.md"):
        (out / name).write_text("x")
    run = runfolder.stage(out, build, ["a"], keep_others=True, trusted=False)
    assert sorted(str(p.relative_to(run.out)) for p in run.out.rglob("*") if p.is_file()) == ["README.md"]


@pytest.mark.slow  # runs pqlab reproduce (Jupyter kernels)
def test_a_moved_tree_stays_trusted_and_links_only_into_itself(tiny, seed1, tmp_path):
    tree = shutil.copytree(seed1, tmp_path / "moved")
    result = _run(tiny[1:], tree / "figures", tree / "build", 1, force=True)  # --notebooks b_second --force
    assert result.kept_sections == ("a_first",) and [r.name for r in result.runs] == ["b_second"]
    pages = (tree / "figures" / "report.html").read_text() + "".join(
        p.read_text() for p in (tree / "figures" / "site").rglob("*.html"))
    records = (tree / "build" / "results" / report.RESULTS_FILE).read_text()
    links = re.findall(r'(?:src|href)="([^"]*)"', pages)
    assert links and not [link for link in links if str(seed1) in link]
    assert str(seed1) not in records


def test_cached_results_keep_every_dtype_in_the_first_netcdf_format_that_holds_them(tmp_path,
                                                                                    monkeypatch):
    """netCDF-3 (32-bit integers at most) when it holds the result exactly, else netCDF-4."""
    import numpy as np
    import xarray as xr

    from pqlab.measure import cache

    @cache.artefact("tiny_dtypes")
    def compute(largest):
        return xr.Dataset(
            {"count": ("ring", np.array([3, largest], dtype=np.int64)),
             "code": ("ring", np.array([1, 2], dtype=np.uint16)),
             "held": ("ring", np.array([True, False])),
             "label": ("ring", np.array(["k1", "k22"])),
             "delay_s": ("ring", np.array([0.5, np.nan]))},
            coords={"ring": np.array([6, 16], dtype=np.int64)}, attrs={"seed": np.int64(7)})

    monkeypatch.setenv(cache.ENV_DIR, str(tmp_path))
    monkeypatch.delenv(cache.ENV_FORCE, raising=False)
    for largest, magic in ((2**31 - 1, b"CDF"), (2**40, b"\x89HDF")):
        first = compute(largest)
        (file,) = [f for f in (tmp_path / "tiny_dtypes").glob("*.nc")
                   if f.read_bytes()[:4].startswith(magic)]
        reused = cache.counts().get("reused", 0)
        again = compute(largest)
        assert cache.counts().get("reused", 0) == reused + 1  # read, not computed again
        assert again.identical(first) and cache.content_digest(again) == cache.content_digest(first)
        assert {n: v.dtype for n, v in again.variables.items()} == \
            {n: v.dtype for n, v in first.variables.items()}
        assert file.is_file()


def test_a_cache_file_of_neither_format_is_a_miss(tmp_path, monkeypatch):
    from pqlab.measure import cache

    compute = _seed_frame_artefact("tiny_garbage")
    monkeypatch.setenv(cache.ENV_DIR, str(tmp_path))
    compute(1)
    (file,) = (tmp_path / "tiny_garbage").glob("*.nc")
    file.write_bytes(b"not a netCDF file")
    with pytest.warns(UserWarning, match=f"{file.name}.*neither"):
        assert compute(1)["seed"][0] == 1.0
