"""docs/own_router.md: every code block runs, in order, in one namespace, and says what the page
says it does.

The page is the user's way into the DiffServ toolbox; a block that no longer runs, or a number
that no longer holds what the text around it claims (the voice bound, the shaper's rate, red
dropped first, DRR serving the same traffic), fails here.
"""

import re
from pathlib import Path

import numpy as np
import pytest

from pqlab.node.framing import line_time_s

PAGE = Path(__file__).resolve().parents[1] / "docs" / "own_router.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", PAGE.read_text(encoding="utf-8"), flags=re.M | re.S)


def _voice_bound_ms() -> float:
    """The page's bound: 4 ring packets of 1500 bytes, the 7 other calls' 200-byte packets, its
    own."""
    return (
        float(4 * line_time_s(1500, "ethernet", 10e6) + 8 * line_time_s(200, "ethernet", 10e6))
        * 1e3
    )


@pytest.fixture(scope="module")
def page():
    """The page's namespace after running every block in order."""
    namespace = {"__name__": "own_router"}
    for i, block in enumerate(BLOCKS):
        try:
            exec(compile(block, f"{PAGE.name} block {i + 1}", "exec"), namespace)
        except Exception as exc:  # name the block that failed
            raise AssertionError(
                f"{PAGE.name} code block {i + 1} failed: {exc!r}\n{block}"
            ) from exc
    return namespace


def test_the_page_has_its_blocks_and_the_first_example_is_under_25_lines():
    assert len(BLOCKS) >= 6
    assert len(BLOCKS[0].strip().splitlines()) < 25


def test_the_first_router_serves_voice_within_the_bound_the_page_states(page):
    assert 6.3 < _voice_bound_ms() < 6.5  # the page's "at most 6.4 ms"
    assert float(page["per_queue"].sel(queue=0)) <= _voice_bound_ms()
    drops = page["drops"]
    assert int(drops["lost"].sel(traffic_class=0)) == 0  # voice: no drop
    assert int(drops["queue_full"].sel(traffic_class=2)) > 0  # best effort overloads the line
    assert set(np.unique(page["ds"]["drop"].values)) <= {0, 1, 2, 3}
    assert page["voice_summary"]["max"] == pytest.approx(float(page["per_queue"].sel(queue=0)))


def test_drr_keeps_the_voice_bound_and_serves_both_classes(page):
    ds = page["ds_drr"]
    voice = (ds["queue"].values == 0) & (ds["arrival"].values >= 2.0)
    assert np.nanmax((ds["departure"] - ds["arrival"]).values[voice]) * 1e3 <= _voice_bound_ms()
    kept = ds["drop"].values == 0
    for queue in (1, 2):
        assert (kept & (ds["queue"].values == queue)).sum() > 0


def test_the_shaper_holds_video_to_its_rate(page):
    ds = page["ds_shaped"]
    assert page["video_rate_bps"] <= 3e6 + 8 * 15_000 / page["scenario"].duration_s
    assert page["video_rate_bps"] > 2.5e6  # offered 4 Mbit/s: the shaper, not the offer, limits it
    assert (
        int((ds["drop"].values[ds["queue"].values == 1] == 2).sum()) > 0
    )  # the queue limit drops the rest


def test_the_af_class_is_coloured_and_red_is_dropped_first(page):
    by_colour = page["by_colour"]
    assert list(by_colour["colour"].values) == [0, 1, 2]
    ratio = by_colour["loss_ratio"].values
    assert ratio[2] > ratio[0] and ratio[2] >= ratio[1]
    assert int(by_colour["early_drop"].sum()) > 0


def test_the_class_marker_colours_the_af_class_in_the_long_run(page):
    colours = page["af_colours"]
    assert colours["colour"].values.tolist() == [-1, 0, 1, 2]
    sent = colours.values
    assert sent[0] == 0 and (sent[1:] > 0).all()  # every AF packet marked, all three colours
    assert int(sent.sum()) == int(page["long_run"]["class_sent"].sel(traffic_class=3))
    red_ratio = page["long_run"]["class_colour_loss_ratio"].sel(traffic_class=3).values
    assert red_ratio[3] > red_ratio[1]  # red dropped first


def test_the_sweep_ran_on_every_backend_with_the_same_numbers(page):
    result, on_dask = page["result"], page["on_dask"]
    assert dict(result.sizes) == {"be_rate_bps": 3, "seed": 2}
    assert result["voice_max_ms"].attrs["units"] == "ms"
    assert (result["voice_max_ms"].values <= _voice_bound_ms()).all()
    np.testing.assert_array_equal(result["voice_max_ms"].values, on_dask["voice_max_ms"].values)
    assert "voice_max_ms_ci" in page["summary"]


def test_the_per_class_table_is_labelled_by_the_queue_names_and_leaves_the_warmup_out(page):
    table, ds = page["per_class"], page["ds"]
    assert table["class_name"].values.tolist() == ["voice", "video", "best effort"]
    assert float(table["loss_ratio"].sel(traffic_class=0)) == 0.0  # voice: no drop, as above
    assert float(table["loss_ratio"].sel(traffic_class=2)) > 0.0  # best effort overloads the line
    assert int(table["sent"].sum()) == int(
        (ds["arrival"].values >= 2.0).sum()
    )  # a name changes no packet
    assert float(table["delay_max"].sel(traffic_class=0)) * 1e3 <= _voice_bound_ms()
    assert {"delay_p99", "jitter_p99"} <= set(table.data_vars)


def test_the_trace_section_runs_every_packet_and_keeps_the_captures_origin(page):
    ds, capture = page["ds_trace"], page["capture"]
    assert ds.sizes["packet"] == 20_000 and [s.flow for s in page["trace"]] == [100, 101]
    first = capture.groupby("app")["time_epoch"].min().min()
    assert page["origin_s"] == {"100": first, "101": first}
    np.testing.assert_allclose(
        np.sort(page["absolute_s"].values), capture["time_epoch"].values, rtol=0, atol=1e-6
    )
    voice = page["trace"][0] if page["trace"][0].queue == 0 else page["trace"][1]
    assert voice.size_bytes.tolist() == [200] * int((capture["dscp"] == 46).sum())
    assert len(ds.attrs["scenario"]) < 5000  # recorded by digest: 20,000 packets would be ~500 kB
    assert int(page["trace_loss"]["sent"].sum()) == 20_000


def test_one_runs_interval_holds_the_pollaczek_khinchine_mean_as_the_page_says(page):
    md1_sojourn_s = 1e-3 + 0.5 * 1e-3 / (2 * (1 - 0.5))  # M/D/1, rho 0.5, 1 ms of service
    one, long = page["one_run"].isel(traffic_class=0), page["long_fifo"].isel(traffic_class=0)
    for low, high in (
        (one["delay_mean_ci_low"], one["delay_mean_ci_high"]),
        (long["class_delay_mean_ci_low"], long["class_delay_mean_ci_high"]),
    ):
        assert float(low) < md1_sojourn_s < float(high)
        assert float(high - low) < 0.03 * md1_sojourn_s  # the page's 0.03 ms wide intervals
    printed_ms = [round(float(one[f"delay_mean_ci_{end}"]) * 1e3, 3) for end in ("low", "high")]
    assert printed_ms == [1.494, 1.526]  # the page's numbers
    assert abs(float(one["delay_batch_lag1"])) < 2 / np.sqrt(page["one_run"].attrs["ci_batches"])
    assert float(long["class_delay_p99_ci_low"]) < float(long["class_delay_p99_ci_high"])
