"""Node contract rule 4, exactly: the line time of every framing over a range of sizes.

``wire_bytes``: ``none`` -> size; ``atm-aal5`` -> ``53 * ceil((size + 8 + 8) / 48)``;
``ethernet`` -> ``size + 38``; line time ``wire_bytes * 8 / line_rate``. The expected
values are computed here from the contract's formula with integer arithmetic, never
from pqlab's constants, and checked both in :mod:`pqlab.node.framing` and in the engine's
departures. The sizes include every AAL5 cell boundary (``size + 16`` at and just past
each multiple of 48) up to the largest packet the engine accepts.
"""

import numpy as np
import pytest

from pqlab import Node, Queue, simulate_arrivals
from pqlab.node.framing import FRAMING_CODES, line_time_s, particles_needed, wire_bytes

MAX_SIZE = 65_535
LINE_BPS = 2e6


def contract_wire_bytes(size: int, framing: str) -> int:
    """The contract's rule 4, in exact integers."""
    if framing == "none":
        return size
    if framing == "atm-aal5":
        return 53 * (-(-(size + 8 + 8) // 48))
    if framing == "ethernet":
        return size + 38
    raise AssertionError(framing)


def _sizes():
    """1..300, every AAL5 cell boundary (size + 16 = 48 k and 48 k + 1), MTUs, the maximum."""
    edges = [48 * k - 16 + d for k in range(1, (MAX_SIZE + 16) // 48 + 2) for d in (-1, 0, 1)]
    picked = (
        set(range(1, 301))
        | {s for s in edges if 1 <= s <= MAX_SIZE}
        | {576, 1500, 4470, 9000, MAX_SIZE}
    )
    return np.array(sorted(picked), dtype=np.int64)


SIZES = _sizes()


def test_the_sizes_cover_every_aal5_cell_boundary():
    cells = np.array([contract_wire_bytes(int(s), "atm-aal5") // 53 for s in SIZES])
    # every cell count from 1 to the maximum appears, and each step of one cell happens between
    # two consecutive sizes (the boundary itself is in the sample)
    assert set(cells) == set(range(1, cells.max() + 1))
    steps = np.flatnonzero(np.diff(cells))
    assert np.all(SIZES[steps + 1] - SIZES[steps] == 1)
    assert np.all((SIZES[steps] + 16) % 48 == 0)


@pytest.mark.parametrize("framing", sorted(FRAMING_CODES))
def test_wire_bytes_and_line_time_follow_the_contract_for_every_size(framing):
    expected_wire = np.array([contract_wire_bytes(int(s), framing) for s in SIZES])
    got_wire = np.array([wire_bytes(int(s), FRAMING_CODES[framing]) for s in SIZES])
    np.testing.assert_array_equal(got_wire, expected_wire)
    for rate in (LINE_BPS, 155.52e6):
        np.testing.assert_allclose(
            line_time_s(SIZES, framing, rate), expected_wire * 8 / rate, rtol=1e-13, atol=0
        )
        assert line_time_s(int(SIZES[5]), framing, rate) == pytest.approx(
            expected_wire[5] * 8 / rate, rel=1e-13
        )


def test_known_wire_sizes():
    assert [contract_wire_bytes(s, "atm-aal5") for s in (1, 32, 33, 80, 81, 128, 1500)] == [
        53,
        53,
        106,
        106,
        159,
        159,
        1696,
    ]
    assert wire_bytes(128, FRAMING_CODES["atm-aal5"]) == 159
    assert wire_bytes(128, FRAMING_CODES["ethernet"]) == 166
    assert wire_bytes(128, FRAMING_CODES["none"]) == 128


@pytest.mark.parametrize("framing", sorted(FRAMING_CODES))
def test_engine_departures_use_the_contract_line_time(framing):
    """Isolated packets: ring entry at arrival, departure one contract line time later."""
    node = Node(
        line_rate_bps=LINE_BPS,
        framing=framing,
        ring_limit_particles=1000,
        particle_bytes=512,
        queues=(Queue("wfq", 10, weight_bps=1e6),),
    )
    arrival = np.arange(SIZES.size, dtype=float)  # 1 s apart: longer than any line time at 2 Mbit/s
    ds = simulate_arrivals(node, arrival, SIZES, np.zeros(SIZES.size, dtype=np.int64))
    expected = np.array([contract_wire_bytes(int(s), framing) for s in SIZES]) * 8 / LINE_BPS
    assert np.all(ds["drop"].values == 0)
    np.testing.assert_array_equal(ds.ring_entry.values, arrival)
    # 1 byte at 2 Mbit/s is 4 us: a tolerance of 1 ns tells every byte apart
    np.testing.assert_allclose(ds.departure.values - arrival, expected, rtol=0, atol=1e-9)


@pytest.mark.parametrize("framing", sorted(FRAMING_CODES))
def test_engine_sends_a_burst_back_to_back_at_the_contract_line_times(framing):
    """A burst at time 0 into a large ring: departures are the running sums of the line times."""
    sizes = SIZES[::7][:400]
    node = Node(
        line_rate_bps=LINE_BPS,
        framing=framing,
        ring_limit_particles=1000,
        particle_bytes=MAX_SIZE,
        queues=(Queue("wfq", 1000, weight_bps=1e6),),
    )
    ds = simulate_arrivals(node, np.zeros(sizes.size), sizes, np.zeros(sizes.size, dtype=np.int64))
    wire = np.array([contract_wire_bytes(int(s), framing) for s in sizes])
    np.testing.assert_allclose(
        ds.departure.values, np.cumsum(wire) * 8 / LINE_BPS, rtol=1e-12, atol=0
    )
    np.testing.assert_array_equal(ds.ring_entry.values, np.zeros(sizes.size))


def test_particles_follow_the_contract():
    """Rule 3: ``max(1, ceil(size / particle_bytes))`` particles, at and around every multiple."""
    for particle in (1, 2, 64, 512, 4096):
        for size in sorted(
            {
                1,
                2,
                3,
                particle - 1,
                particle,
                particle + 1,
                2 * particle,
                2 * particle + 1,
                10 * particle - 1,
                MAX_SIZE,
            }
            - {0}
        ):
            assert particles_needed(size, particle) == max(1, -(-size // particle)), (
                size,
                particle,
            )


@pytest.mark.slow  # numba recompiles the engine
def test_an_edit_of_framing_recompiles_the_cached_engine_kernel(tmp_path):
    """The engine's kernel calls framing's jitted functions; numba's on-disk cache keys a function
    on its own file only, so without pqlab.base.jitcache.cached_njit an edited framing.py was
    ignored (the stale machine code loaded): run, edit the framing rule, run again in a new
    process."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    import pqlab

    shutil.copytree(
        Path(pqlab.__file__).parent,
        tmp_path / "pqlab",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    script = (
        "import pqlab\n"
        "ds = pqlab.simulate_arrivals(pqlab.Node.cisco7200_atm(), [0.0], [128], [1])\n"
        "print(repr(float(ds['departure'][0])))\n"
    )
    env = {
        **__import__("os").environ,
        "PYTHONPATH": str(tmp_path),
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
    }

    def departure():
        done = subprocess.run(
            [sys.executable, "-c", script],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return float(done.stdout.strip().splitlines()[-1])

    before = departure()  # 159 bytes on the line at 2 Mbit/s
    assert before == 159 * 8 / 2e6
    framing = tmp_path / "pqlab" / "node" / "framing.py"
    text = framing.read_text()
    assert "\nATM_CELL_BYTES = 53\n" in text
    framing.write_text(text.replace("\nATM_CELL_BYTES = 53\n", "\nATM_CELL_BYTES = 106\n"))
    assert departure() == 2 * before


def test_atm_cells_counts_whole_cells_of_the_aal5_frame():
    """``framing.atm_cells``: wire bytes / 53 for every size, as an int or elementwise on arrays."""
    from pqlab.node.framing import ATM_CELL_BYTES, FRAMING_CODES, atm_cells, wire_bytes

    sizes = np.arange(1, 1501)
    expected = (
        np.array([wire_bytes(int(s), FRAMING_CODES["atm-aal5"]) for s in sizes]) // ATM_CELL_BYTES
    )
    assert np.array_equal(atm_cells(sizes), expected)
    assert atm_cells(110) == 3 and isinstance(atm_cells(110), int) and atm_cells(1500) == 32


def test_line_times_and_path_delays_are_the_array_formulas_bit_for_bit():
    from pqlab.node.framing import _wire_bytes_array
    from pqlab.node.path import Hop, PathModel

    sizes = np.arange(1, 3001, dtype=np.int64)
    rates = (2e6, 1e8 / 3, 155.52e6, 7.0)
    for framing in FRAMING_CODES:
        for rate in rates:
            want = _wire_bytes_array(sizes, FRAMING_CODES[framing]) * 8.0 / float(rate)
            np.testing.assert_array_equal(line_time_s(sizes, framing, rate), want)
            assert line_time_s(int(sizes[99]), framing, rate) == want[99]
    path = PathModel(
        fixed_s=1.3e-3 / 7, hops=(Hop(1e8 / 3, "ethernet"), Hop(2e6, "atm-aal5"), Hop(7.0))
    )
    want = np.full(sizes.shape, path.fixed_s)
    for hop in path.hops:
        want = want + line_time_s(sizes, hop.framing, hop.rate_bps)
    np.testing.assert_array_equal(path.extra_delay_s(sizes), want)
    np.testing.assert_array_equal(path.extra_delay_s(sizes.reshape(30, 100)), want.reshape(30, 100))
    assert path.extra_delay_s(77) == want[76]
    assert PathModel(0.5).extra_delay_s([1, 2]).tolist() == [0.5, 0.5]
