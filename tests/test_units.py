"""pqlab.base.units: the conversions between the Datasets' SI units and the papers' units."""

import pytest

from pqlab.base import units


def test_units_helpers_convert_both_ways():
    assert (
        units.to_ms(0.5) == 500.0
        and units.to_us(2.5e-3) == 2500.0
        and units.to_kbps(300e3) == 300.0
    )
    assert units.ms_to_s(5.12) == pytest.approx(5.12e-3, rel=1e-15) and units.us_to_s(
        636.0
    ) == pytest.approx(636e-6)
    assert units.kbps_to_bps(units.to_kbps(1.7e6)) == pytest.approx(1.7e6, rel=1e-15)
