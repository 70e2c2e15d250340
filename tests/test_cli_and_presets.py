"""``pqlab demo`` (docs/build.md) and the base-case preset."""

import dataclasses

import numpy as np
import pytest

import pqlab
from pqlab import cli, scenarios
from pqlab.traffic import UDP_IP_HEADER_BYTES


def test_base_case_follows_table_i():
    sc = scenarios.base_case(be_payload_bytes=485, n_ef_samples=100)
    ef, *be = sc.streams
    # 300 kbit/s of 128-byte Ethernet frames = IP packets of 110 bytes every 3.4133 ms
    assert (ef.size.size_bytes, ef.queue, ef.flow) == (110, 0, 0)
    assert ef.size.size_bytes * 8 / ef.rate_bps == pytest.approx(128 * 8 / 300e3)
    assert len(be) == 20 and sum(s.rate_bps for s in be) > 2e6
    assert {s.size.size_bytes + s.header_bytes for s in be} == {485 + UDP_IP_HEADER_BYTES}
    assert sc.duration_s == pytest.approx(sc.warmup_s + 100 * 128 * 8 / 300e3)
    assert len(sc.path.hops) == 2
    ds = pqlab.simulate(sc, seed=3)
    ef_after = (ds["flow"] == 0) & (ds.arrival >= sc.warmup_s)
    assert int(ef_after.sum()) == 100
    # the BE class overloads the line: its queue overflows, EF is never dropped
    assert int(((ds["flow"] > 0) & (ds["drop"] == 2)).sum()) > 0
    assert int(((ds["flow"] == 0) & (ds["drop"] != 0)).sum()) == 0


def test_base_case_rejects_bad_parameters():
    with pytest.raises(ValueError, match="be_payload_bytes"):
        scenarios.base_case(be_payload_bytes=0)
    with pytest.raises(ValueError, match="n_ef_samples"):
        scenarios.base_case(n_ef_samples=0)


def test_be_streams_first_moves_the_be_streams_ahead_each_group_in_its_order():
    sc = scenarios.aggregation(ref_rate_bps=50e3, n_ef_samples=30)
    first = scenarios.be_streams_first(sc)
    be = [s for s in sc.streams if s.queue == scenarios.BE_QUEUE]
    ef = [s for s in sc.streams if s.queue == scenarios.EF_QUEUE]
    assert len(be) == 20 and len(ef) > 1 and len(be) + len(ef) == len(sc.streams)
    assert first.streams == tuple(be + ef)
    assert [s.flow for s in first.streams[:20]] == list(
        range(scenarios.FIRST_BE_FLOW, scenarios.FIRST_BE_FLOW + 20)
    )
    assert dataclasses.replace(first, streams=sc.streams) == sc  # nothing else changes
    assert scenarios.be_streams_first(first) == first


def test_common_be_gives_the_same_be_traffic_at_every_a():
    def be_packets(rate, common):
        sc = scenarios.aggregation(ref_rate_bps=rate, n_ef_samples=30)
        sc = scenarios.be_streams_first(sc) if common else sc
        ds = pqlab.simulate(sc, seed=5)
        be = ds["queue"].values == scenarios.BE_QUEUE
        keep = ds["arrival"].values[be] < 2.0  # both scenarios run at least this long
        return (
            ds["flow"].values[be][keep],
            ds["size"].values[be][keep],
            ds["arrival"].values[be][keep],
        )

    a, b = be_packets(50e3, True), be_packets(300e3, True)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    c, d = be_packets(50e3, False), be_packets(300e3, False)
    assert not (np.array_equal(c[1], d[1]) and np.array_equal(c[2], d[2]))


def test_demo_prints_statistics_and_writes_the_figure(tmp_path, capsys):
    assert cli.main(["demo", "--n-ef-samples", "300", "--out", str(tmp_path), "--save-data"]) == 0
    out = capsys.readouterr().out
    assert "EF reference packets after warm-up: 300" in out and "W = 21.564 ms" in out
    for name in ("demo_ef_delay.png", "demo_ef_delay.pdf", "demo_packets.nc"):
        assert (tmp_path / name).stat().st_size > 0
    import xarray as xr

    saved = xr.open_dataset(tmp_path / "demo_packets.nc", engine="h5netcdf")
    assert saved.attrs["pqlab_version"] == pqlab.__version__ and int(saved.attrs["seed"]) == 1
    assert np.isfinite(saved.departure.values).any()


def test_demo_reports_bad_input_as_an_error(capsys):
    assert cli.main(["demo", "--n-ef-samples", "0"]) == 2
    assert "n_ef_samples" in capsys.readouterr().err
    assert (
        cli.main(["demo", "--samples", "0"]) == 2
    )  # the deprecated former name still works, and says so
    err = capsys.readouterr().err
    assert "--samples is deprecated, use --n-ef-samples" in err and "n_ef_samples" in err
