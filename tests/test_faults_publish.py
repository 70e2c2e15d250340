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
import time
from pathlib import Path

import pytest
from test_reproduce_safety import PAPER, _notebook, _recording

from pqlab import cli
from pqlab.pipeline import publish, report, reproduce, runfolder, schedule


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nbs")
    return [
        _notebook(folder, "a_first", _recording("tiny_a")),
        _notebook(folder, "b_second", _recording("tiny_b", "2.0 + seed")),
    ]


def _run(tiny, out, build, seed, **kwargs):
    return reproduce.run_all(
        tiny,
        out_dir=out,
        build_dir=build,
        seed=seed,
        progress=False,
        paper_values=PAPER,
        jobs=2,
        **kwargs,
    )


def _seeds_seen(out: Path, build: Path) -> set:
    """Every seed visible to a reader: in the figures, the report, the site and the build's
    results."""
    seen = {int(p.read_bytes().split()[1]) for p in out.glob("tiny_*.png")}
    seen |= {int(r["seed"]) for r in report.load_records(build / "results") if "seed" in r}
    table = (out / "report.csv").read_text() if (out / "report.csv").is_file() else ""
    if table:
        from io import StringIO

        import pandas as pd

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
    """Each figures folder shows its own run of the shared build folder; publishing one never
    removes the run the other shows."""
    build = tmp_path / "B"
    a, c = tmp_path / "A", tmp_path / "C"
    assert _run(tiny, a, build, 1).published
    assert _run(tiny, c, build, 2).published
    again = _run(tiny, a, build, 2)
    assert again.up_to_date == ()  # A holds seed 1: nothing of it is current for seed 2
    assert _seeds_seen(a, publish.shown_run(a)) == {2} and _seeds_seen(c, publish.shown_run(c)) == {
        2
    }
    links = (a / "report.html").read_text() + "".join(
        p.read_text() for p in (a / "site").rglob("*.html")
    )
    assert str(c) not in links  # no image link into the other out
    assert not any(
        str(c) in line
        for line in (build / "results" / report.RESULTS_FILE).read_text().splitlines()
    )
    assert sorted((build / "runs").iterdir()) == sorted(
        [publish.shown_run(a), publish.shown_run(c)]
    )
    back = _run(tiny, c, build, 2)
    assert back.up_to_date == ("a_first", "b_second") and _seeds_seen(c, build) == {2}


@pytest.fixture(scope="module")
def seed2(tiny, tmp_path_factory):
    root = tmp_path_factory.mktemp("seed2")
    assert _run(tiny, root / "figures", root / "build", 2).published
    return root


def test_the_figures_folder_is_a_link_switched_in_one_rename(seed1):
    """What the build leaves: the figures folder a relative link to its run's ``out/``, the build
    folder's parts links through it, one run folder, no lock and nothing next to the figures."""
    out, build = seed1 / "figures", seed1 / "build"
    run = publish.shown_run(out)
    assert out.is_symlink() and os.readlink(out) == os.path.join("build", "runs", run.name, "out")
    for part in publish.BUILD_PARTS:
        assert os.readlink(build / part) == os.path.join("..", "figures", "..", part)
        assert (build / part).resolve() == run / part
    assert list((build / "runs").iterdir()) == [run]
    assert sorted(p.name for p in seed1.iterdir()) == ["build", "figures"]


#: Stops ``pqlab reproduce`` (run by ``main`` in this process) at the ``step``-th file system
#: operation of staging or publishing a run: SIGKILL, or SIGINT (Ctrl-C) sent to the process
#: and acted on before the operation. Step 0 counts the operations and prints the count, and
#: the index of the one that switches the figures folder.
KILLER = textwrap.dedent("""
    import os, shutil, signal, sys
    from pqlab.pipeline import publish, runfolder
    step = int(os.environ["PQLAB_TEST_KILL_STEP"])
    sent = getattr(signal, os.environ.get("PQLAB_TEST_SIGNAL", "SIGKILL"))
    count, depth, active, switched = [0], [0], [False], [0]
    def stopping(real, name):
        def call(*args, **kwargs):
            if depth[0] == 0 and active[0]:
                count[0] += 1
                if name == "replace" and str(args[1]).endswith("figures"):
                    switched[0] = count[0]
                if count[0] == step:
                    os.kill(os.getpid(), sent)
            depth[0] += 1
            try:
                return real(*args, **kwargs)
            finally:
                depth[0] -= 1
        return call
    for module, names in ((os, ("replace", "rename", "symlink")), (shutil, ("copytree", "copy2", "rmtree")),
                          (publish, ("_exchange",))):
        for name in names:
            setattr(module, name, stopping(getattr(module, name), name))
    def activating(real):
        def call(*args, **kwargs):
            active[0] = True
            try:
                return real(*args, **kwargs)
            finally:
                active[0] = False
        return call
    runfolder.stage = activating(runfolder.stage)
    runfolder.RunFolder.publish = activating(runfolder.RunFolder.publish)
    from pqlab import cli
    code = cli.main(sys.argv[1:])
    print("steps", count[0], "switch", switched[0], flush=True)
    sys.exit(code)
""")  # noqa: E501


def _child(script, step, *argv, sent="SIGKILL"):
    env = dict(
        os.environ,
        PQLAB_TEST_KILL_STEP=str(step),
        PQLAB_TEST_SIGNAL=sent,
        PYTHONPATH=os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")]),
    )
    return subprocess.run(
        [sys.executable, "-c", script, *map(str, argv)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _published_seed(out: Path, build: Path):
    """The seed every reader sees (figures, report, site, results) and the trusted record's seed."""
    seen = _seeds_seen(out, build)
    manifest, why = publish.verified(out, build)
    assert manifest is not None, why
    assert seen == {manifest["seed"]}, (seen, manifest["seed"])
    return manifest["seed"]


def _leftovers(tree: Path) -> list:
    """What a publish cut short may leave until the next run: swap links, runs not shown."""
    shown = publish.shown_run(tree / "figures")
    return [
        *tree.glob(".pqlab-swap-*"),
        *(r for r in (tree / "build" / "runs").iterdir() if r != shown),
    ]


def _shown_seed(out: Path, build: Path) -> int:
    """The seed of the rerun section b_second that every reader sees (its figure, its records),
    in a reproduction whose manifest is trusted (every file has its digest)."""
    manifest, why = publish.verified(out, build)
    assert manifest is not None, why
    seen = {int((out / "tiny_b.png").read_bytes().split()[1])}
    seen |= {
        int(r["seed"]) for r in report.load_records(build / "results" / "b_second") if "seed" in r
    }
    assert seen == {manifest["seed"]}, (seen, manifest["seed"])
    return manifest["seed"]


@pytest.mark.parametrize("sections", ["every notebook", "one notebook"])
@pytest.mark.parametrize("sent", ["SIGKILL", "SIGINT"])
@pytest.mark.slow  # runs pqlab reproduce (Jupyter kernels)
def test_kill_9_or_ctrl_c_at_every_step_of_a_run_leaves_one_whole_reproduction(
    tiny, seed1, tmp_path, sent, sections
):
    """``pqlab reproduce --quick`` of seed 2 over seed 1 (every notebook, or b_second alone: the
    other section's results, notebook and HTML copied into the run), stopped before each file
    system operation of staging and publishing its run: before the switch the seed-1
    reproduction is whole, from it on the seed-2 one; Ctrl-C says which (exit 130 or 0). What a
    stopped run leaves (its run folder, a swap link) is removed by the next run's first step."""
    paper = _paper_csv(tmp_path)
    notebooks = tiny if sections == "every notebook" else tiny[1:]
    argv = [
        "reproduce",
        "--quick",
        "--no-progress",
        "--paper-values",
        paper,
        "--seed",
        "2",
        "--notebooks",
        *notebooks,
    ]
    counted = _child(
        KILLER,
        0,
        *argv[:1],
        "--out",
        shutil.copytree(seed1, tmp_path / "count", symlinks=True),
        *argv[1:],
    )
    assert counted.returncode == 0, counted.stderr
    steps, switch = map(int, counted.stdout.split("steps")[-1].split("switch"))
    assert 0 < switch < steps and steps >= (5 if sections == "every notebook" else 8), (
        counted.stdout
    )
    for step in range(1, steps + 1):
        tree = shutil.copytree(seed1, tmp_path / f"step{step}", symlinks=True)
        stopped = _child(KILLER, step, argv[0], "--out", tree, *argv[1:], sent=sent)
        seed = _shown_seed(tree / "figures", tree / "build")
        assert seed == (1 if step <= switch else 2), (step, stopped.stderr)
        if sent == "SIGKILL":
            assert stopped.returncode == -signal.SIGKILL, (step, stopped.stderr)
        else:
            said = stopped.stderr.strip().splitlines()[-1]
            assert stopped.returncode == (130 if seed == 1 else 0), (step, stopped.stderr)
            assert ("unchanged" in said) == (seed == 1) and "Traceback" not in stopped.stderr, said
        publish.remove_leftovers(tree / "figures", tree / "build")  # the next run's first step
        assert _leftovers(tree) == [], step
        assert _shown_seed(tree / "figures", tree / "build") == seed
        if sections == "one notebook":  # the kept section, whole, seed 1
            assert (tree / "figures" / "tiny_a.png").read_bytes() == b"png 1"


@pytest.mark.parametrize("sent", ["SIGKILL", "SIGINT"])
@pytest.mark.slow  # runs pqlab reproduce (Jupyter kernels)
def test_kill_9_or_ctrl_c_while_a_notebook_runs_leaves_the_previous_reproduction(
    tiny, seed1, tmp_path, sent
):
    tree = shutil.copytree(seed1, tmp_path / "tree", symlinks=True)
    before = _snapshot(tree)
    marker = tmp_path / "running"
    slow = _notebook(
        tmp_path,
        "a_first",
        f"from pathlib import Path\nimport time\nPath({str(marker)!r}).touch()\ntime.sleep(600)",
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pqlab.cli",
            "reproduce",
            "--quick",
            "--out",
            str(tree),
            "--no-progress",
            "--paper-values",
            str(_paper_csv(tmp_path)),
            "--seed",
            "2",
            "--notebooks",
            str(slow),
            str(tiny[1]),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 300
    while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(getattr(signal, sent))
    _, err = proc.communicate(timeout=120)
    assert marker.exists() and proc.returncode == (-signal.SIGKILL if sent == "SIGKILL" else 130), (
        err
    )
    assert _published_seed(tree / "figures", tree / "build") == 1
    publish.remove_leftovers(tree / "figures", tree / "build")
    assert _snapshot(tree) == before and _leftovers(tree) == []


@pytest.mark.slow  # runs pqlab reproduce (Jupyter kernels)
def test_a_changed_published_figure_is_not_up_to_date(tiny, seed1, tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(seed1, tree, symlinks=True)
    (tree / "figures" / "tiny_a.png").write_bytes(b"png 7")  # e.g. a half-copied or foreign figure
    with pytest.warns(UserWarning, match="tiny_a.png"):
        result = _run(tiny, tree / "figures", tree / "build", 1)
    assert result.up_to_date == () and (tree / "figures" / "tiny_a.png").read_bytes() == b"png 1"


@pytest.mark.slow  # runs pqlab reproduce (Jupyter kernels)
def test_a_truncated_results_file_is_a_miss_named_in_one_line(tiny, seed1, tmp_path, capsys):
    tree = tmp_path / "tree"
    shutil.copytree(seed1, tree, symlinks=True)
    file = tree / "build" / "results" / "a_first" / report.RESULTS_FILE
    file.write_bytes(file.read_bytes()[:50])
    code = cli.main(
        [
            "reproduce",
            "--out",
            str(tree),
            "--no-progress",
            "--jobs",
            "2",
            "--paper-values",
            str(_paper_csv(tmp_path)),
            "--notebooks",
            *map(str, tiny),
        ]
    )
    err = capsys.readouterr().err
    assert code == 0, err
    warned = [line for line in err.splitlines() if "results.jsonl" in line]
    assert len(warned) == 1 and str(file) in warned[0] and "recomput" in warned[0]
    assert report.load_records(tree / "build" / "results" / "a_first")


@pytest.mark.slow  # reads seed1: a pqlab reproduce run
def test_a_huge_number_in_the_notebook_times_is_ignored(tiny, seed1, tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(seed1, tree, symlinks=True)
    (tree / "build" / schedule.SECONDS_FILE).write_text(
        '{"a_first": ' + "9" * 400 + ', "b_second": 1.5}'
    )
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

    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not set(skip) & set(p.parts) and "lock" not in p.name
    }


def _mount(folder: Path, size: str = "4m") -> Path:
    """Mount a fresh tmpfs of ``size`` at ``folder`` (root only), or skip the test saying why."""
    if os.geteuid() != 0:
        pytest.skip(
            "a small tmpfs can be mounted only by root: the full-disk and mount-point tests run as"
            " root"
        )
    folder.mkdir(parents=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
    )
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
def test_a_full_disk_is_one_line_exit_4_and_leaves_nothing(
    tiny, tmp_path, small_disk, layout, capsys
):
    """All on the full disk: one line, exit 4, nothing changed. The figures folder alone on it:
    it holds only a link to the run (in the build folder), and the run is published."""
    paper = _paper_csv(tmp_path)
    if layout == "all on the full disk":
        where = ["--out", str(small_disk)]
        out, build = small_disk / "figures", small_disk / "build"
    else:
        out, build = small_disk / "figures", tmp_path / "build"
        where = ["--out", str(small_disk), "--build", str(build)]
    argv = [
        "reproduce",
        *where,
        "--no-progress",
        "--paper-values",
        str(paper),
        "--notebooks",
        *map(str, tiny),
    ]
    assert cli.main([*argv, "--seed", "1"]) == 0
    capsys.readouterr()
    before = {**_snapshot(small_disk), **{f"build/{k}": v for k, v in _snapshot(build).items()}}
    _fill(small_disk, 16 * 1024)
    code = cli.main([*argv, "--seed", "2"])
    err = capsys.readouterr().err.strip().splitlines()
    if layout == "figures alone on the full disk":
        assert code == 0 and _published_seed(out, build) == 2, err
        return
    assert code == 4, err
    assert (
        len(err) == 1
        and "error" in err[0]
        and "No space left on device" in err[0]
        and "--out" in err[0]
    ), err
    assert {
        **_snapshot(small_disk),
        **{f"build/{k}": v for k, v in _snapshot(build).items()},
    } == before
    assert list((build / "runs").iterdir()) == [publish.shown_run(out)]
    assert not list(small_disk.glob(".pqlab-*")) and not (build / "reproduce.lock").exists()
    (small_disk / "filler").unlink()
    assert cli.main([*argv, "--seed", "2"]) == 0
    assert _published_seed(out, build) == 2


def test_an_out_folder_that_is_a_mount_point_is_refused_before_anything(tiny, tmp_path, capsys):
    root = tmp_path / "volume"
    _mount(root / "figures")  # e.g. a container volume mounted as the figures folder
    try:
        before = _snapshot(tmp_path)
        code = cli.main(
            ["reproduce", "--out", str(root), "--no-progress", "--notebooks", *map(str, tiny)]
        )
        err = capsys.readouterr().err.strip().splitlines()
        assert (
            code == 2
            and len(err) == 1
            and "mount point" in err[0]
            and str(root / "figures") in err[0]
        ), err
        assert _snapshot(tmp_path) == before and not (root / "build").exists()
        with pytest.raises(ValueError, match="mount point"):
            reproduce.validate(tiny, out_dir=root / "figures", build_dir=tmp_path / "b")
    finally:
        subprocess.run(["umount", "-l", str(root / "figures")], check=False)


@pytest.mark.slow  # runs pqlab reproduce (Jupyter kernels)
def test_a_flipped_bit_in_a_real_runs_cache_is_recomputed_not_published(tiny, seed1, tmp_path):
    tree = shutil.copytree(seed1, tmp_path / "tree", symlinks=True)
    (file,) = (tree / "build" / "cache" / "tiny_b").glob("*.nc")
    _flip_bit_in_values(file, [3.0])  # tiny_b's value for seed 1 (2 + seed)
    (
        tree / "figures" / publish.MANIFEST
    ).unlink()  # nothing trusted: both sections run, through the cache
    with pytest.warns(UserWarning, match="not trusting"):
        result = _run(tiny, tree / "figures", tree / "build", 1)
    assert (
        result.published
        and result.cache_counts["computed"] == 1
        and result.cache_counts["reused"] == 1
    )
    assert result.report.set_index("artefact").loc["tiny_b", "ours"] == 3.0
    log = (tree / "build" / "logs" / "b_second.log").read_text() + "".join(
        p.read_text() for p in (tree / "build" / "notebooks").glob("b_second.ipynb")
    )
    assert "checksum" in log and file.name in log


def test_an_untrusted_out_keeps_its_own_files_and_drops_every_old_figure(tmp_path):
    out, build = tmp_path / "figures", tmp_path / "build"
    (out / "sub").mkdir(parents=True)
    for name in ("README.md", "old_figure.png", "sub/old.pdf", publish.MANIFEST, "report.md"):
        (out / name).write_text("x")
    run = runfolder.stage(out, build, ["a"], keep_others=True, trusted=False)
    assert sorted(str(p.relative_to(run.out)) for p in run.out.rglob("*") if p.is_file()) == [
        "README.md"
    ]


@pytest.mark.slow  # runs pqlab reproduce (Jupyter kernels)
def test_a_moved_tree_stays_trusted_and_links_only_into_itself(tiny, seed1, tmp_path):
    tree = shutil.copytree(seed1, tmp_path / "moved", symlinks=True)
    result = _run(
        tiny[1:], tree / "figures", tree / "build", 1, force=True
    )  # --notebooks b_second --force
    assert result.kept_sections == ("a_first",) and [r.name for r in result.runs] == ["b_second"]
    pages = (tree / "figures" / "report.html").read_text() + "".join(
        p.read_text() for p in (tree / "figures" / "site").rglob("*.html")
    )
    records = (tree / "build" / "results" / report.RESULTS_FILE).read_text()
    links = re.findall(r'(?:src|href)="([^"]*)"', pages)
    assert links and not [link for link in links if str(seed1) in link]
    assert str(seed1) not in records


def test_cached_results_keep_every_dtype_in_the_first_netcdf_format_that_holds_them(
    tmp_path, monkeypatch
):
    """netCDF-3 (32-bit integers at most) when it holds the result exactly, else netCDF-4."""
    import numpy as np
    import xarray as xr

    from pqlab.measure import cache

    @cache.artefact("tiny_dtypes")
    def compute(largest):
        return xr.Dataset(
            {
                "count": ("ring", np.array([3, largest], dtype=np.int64)),
                "code": ("ring", np.array([1, 2], dtype=np.uint16)),
                "held": ("ring", np.array([True, False])),
                "label": ("ring", np.array(["k1", "k22"])),
                "delay_s": ("ring", np.array([0.5, np.nan])),
            },
            coords={"ring": np.array([6, 16], dtype=np.int64)},
            attrs={"seed": np.int64(7)},
        )

    monkeypatch.setenv(cache.ENV_DIR, str(tmp_path))
    monkeypatch.delenv(cache.ENV_FORCE, raising=False)
    for largest, magic in ((2**31 - 1, b"CDF"), (2**40, b"\x89HDF")):
        first = compute(largest)
        (file,) = [
            f
            for f in (tmp_path / "tiny_dtypes").glob("*.nc")
            if f.read_bytes()[:4].startswith(magic)
        ]
        reused = cache.counts().get("reused", 0)
        again = compute(largest)
        assert cache.counts().get("reused", 0) == reused + 1  # read, not computed again
        assert again.identical(first) and cache.content_digest(again) == cache.content_digest(first)
        assert {n: v.dtype for n, v in again.variables.items()} == {
            n: v.dtype for n, v in first.variables.items()
        }
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
