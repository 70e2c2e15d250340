"""The report's number formats (pqlab.pipeline.numbers): a paper's value as printed, ours one digit
more."""

import math

import pandas as pd
import pytest

from pqlab.base import units
from pqlab.pipeline import numbers


def test_numbers_are_printed_positionally_at_their_significant_digits():
    assert numbers.significant_digits(10.16) == 4 and numbers.significant_digits(100.0) == 1
    assert (
        numbers.significant_digits(0.6) == 1
        and numbers.significant_digits(1 / 3) == numbers.MAX_SIGNIFICANT_DIGITS
    )
    assert (
        numbers.format_significant(10240.0, 4) == "10240"
        and numbers.format_significant(2e-5, 2) == "2e-05"
    )
    assert numbers.format_significant(math.inf) == "inf"
    assert (
        numbers.number_text(None)
        == numbers.number_text(pd.NA)
        == numbers.number_text(math.nan)
        == ""
    )
    assert numbers.signed_text(0.0) == "+0" and numbers.signed_text(-1.25) == "-1.25"
    assert (
        numbers.ours_digits(None) == numbers.DISPLAY_DIGITS and numbers.ours_digits(21564.23) == 7
    )


def test_a_digit_count_out_of_range_is_refused_by_name():
    with pytest.raises(ValueError, match=r"digits must be in \[1, 7\], got 8"):
        numbers.format_significant(1.0, 8)


def test_the_formats_live_in_the_pipeline_not_in_the_units():
    """issue 29: base.units converts units; how the report prints a number is the pipeline's."""
    assert not hasattr(units, "format_significant") and not hasattr(units, "paper_text")
