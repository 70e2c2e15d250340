"""An empirical size law draws exactly what numpy's ``Generator.choice`` draws with its pmf."""

import numpy as np
import pytest

from pqlab.node.traffic import Empirical
from pqlab.papers import presets


@pytest.mark.parametrize(
    "law",
    [
        presets.real_be_sizes(),
        Empirical((40, 576, 1500), (0.5, 0.7, 1.0)),
        Empirical((100,), (1.0,)),
    ],
    ids=["real", "trimodal", "one size"],
)
def test_draws_equal_generator_choice_and_leave_the_generator_where_choice_does(law):
    for seed in range(30):
        for n in (0, 1, 9, 5000):
            mine, theirs = np.random.default_rng(seed), np.random.default_rng(seed)
            got = law.sample(mine, n)
            want = theirs.choice(np.array(law.sizes_bytes, dtype=np.int64), size=n, p=law.pmf())
            assert got.dtype == want.dtype and np.array_equal(got, want)
            assert mine.random() == theirs.random()


def test_the_law_tables_are_read_only_and_pmf_is_a_copy():
    law = Empirical((40, 1500), (0.25, 1.0))
    pmf = law.pmf()
    pmf[0] = 9.0
    assert law.pmf()[0] == 0.25 and law.mean_bytes == 0.25 * 40 + 0.75 * 1500
    sizes, table_pmf, _, cdf = law._table()
    assert not (sizes.flags.writeable or table_pmf.flags.writeable or cdf.flags.writeable)
