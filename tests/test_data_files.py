"""Tests of the data files: data/paper_values.csv and data/be_size_cdf_standin.csv (see
data/README.md)."""

import importlib.util
import re
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from pqlab import Empirical
from pqlab.base.locations import DATA
from pqlab.papers import judge
from pqlab.papers.records import load_claim_notes

PAPER_VALUES = DATA / "paper_values.csv"
STANDIN = DATA / "be_size_cdf_standin.csv"
COLUMNS = [
    "artefact",
    "quantity",
    "value",
    "unit",
    "source",
    "statement",
    "kind",
    "rule",
    "variable",
    "check",
    "params",
]
#: Values of the ``kind`` column (data/README.md).
KINDS = {"setup", "analysis", "result", "derived"}
ARTEFACTS = {
    "globecom01_tab1",
    "globecom01_tab2",
    "globecom01_fig3_1",
    "globecom01_fig3_2",
    "globecom01_fig4",
    "globecom01_fig5",
    "globecom01_fig7",
    "globecom01_tab3",
    "long_ipdv_vs_a",
    "long_fig7_tab3",
    "globecom01_tab4",
    "globecom01_pq_bound",
    "path",
    "globecom01_fig2",
    "globecom01_fig6",
}


# ------------------------------------------------------------------ paper_values.csv


@pytest.fixture(scope="module")
def pv():
    # strings throughout, empty cells stay "" (pandas would read "NA"-like text as NaN)
    return pd.read_csv(PAPER_VALUES, dtype=str, keep_default_na=False)


def value(pv, artefact, quantity):
    row = pv[(pv.artefact == artefact) & (pv.quantity == quantity)]
    assert len(row) == 1, (artefact, quantity)
    return float(row.value.iloc[0])


def test_columns_exactly(pv):
    assert list(pv.columns) == COLUMNS


def test_rule_values(pv):
    """Issue 30: the rule a statement is judged by, one of the judge's (empty: inferred from the
    value)."""
    assert set(pv["rule"].fillna("")) <= {"", *judge.RULES}
    rule = pv.set_index(["artefact", "quantity"])["rule"].fillna("")
    assert rule[("globecom01_fig3_1", "local_max_be_payload_1")] == "position"
    assert (
        rule[("tftant_slides_ring", "delay_ratio_512_256")] == "not_checkable"
    )  # garbled on the slide
    assert (
        rule[("long_fig7_tab3", "mode_fraction_ef_128")] == "not_checkable"
    )  # interval width never given


def test_claims_as_data_name_a_check_for_statements_and_a_variable_for_numbers(pv):
    """A row judged from an artefact's Dataset names its variable; a statement its check (one of the
    judge's, with the parameters it needs) and a number none (a not-checkable row may name the
    variable of the number it records); every claim note's row is the paper's or names its own
    variable and unit, and every paper row of an artefact with notes has one."""
    rows = pv.assign(value=pd.to_numeric(pv.value.replace("", None)))
    notes = load_claim_notes()
    keyed = set(zip(notes.artefact, notes.quantity))
    for r in rows[rows.check != ""].itertuples():
        assert r.variable and r.check in judge.CHECKS, (r.artefact, r.quantity)
        needs = set(judge.CHECK_PARAMS[r.check])
        assert needs <= set(judge.parse_params(r.params)), (r.artefact, r.quantity)
        assert judge.rule_of(r.rule, r.value) == "qualitative" and (r.artefact, r.quantity) in keyed
    for r in rows[(rows.variable != "") & (rows.check == "")].itertuples():
        rule = judge.rule_of(r.rule, r.value)
        assert rule in ("number", "position", "not_checkable"), (r.artefact, r.quantity)
    paper = set(zip(rows.artefact, rows.quantity))
    for n in notes.itertuples():
        own = bool((n.variable and n.unit) or n.check)
        assert own != ((n.artefact, n.quantity) in paper), (n.artefact, n.quantity)
        assert not n.check or (n.variable and n.check in judge.CHECKS), (n.artefact, n.quantity)
    declared = set(notes.artefact)
    assert {(a, q) for a, q in paper if a in declared} <= keyed


def test_kind_values(pv):
    assert set(pv.kind) <= KINDS, sorted(set(pv.kind) - KINDS)
    # every Table IV W_m is measured, every W (the bound) is analysis, Table I's load is set-up
    kind = pv.set_index(["artefact", "quantity"])["kind"]
    assert kind[("globecom01_tab4", "w_m_k2")] == "result"
    assert kind[("globecom01_tab4", "w_k2")] == "analysis"
    assert kind[("globecom01_tab1", "ef_load")] == "setup"
    assert kind[("globecom01_fig5", "ccdf_negligible_above_ms")] == "derived"


def test_artefact_quantity_unique(pv):
    dup = pv[pv.duplicated(["artefact", "quantity"], keep=False)]
    assert dup.empty, dup[["artefact", "quantity"]].to_string()


def test_artefact_ids_and_quantity_keys(pv):
    # the GLOBECOM'01 / long version artefacts exactly; the TF-TANT pages add ids prefixed tftant_
    assert ARTEFACTS <= set(pv.artefact)
    assert all(a.startswith("tftant_") for a in set(pv.artefact) - ARTEFACTS)
    bad = [q for q in pv.quantity if not re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", q)]
    assert not bad


def test_values_parse_units_sources_statements_nonempty(pv):
    numeric = pv[pv.value != ""]
    vals = pd.to_numeric(numeric.value, errors="raise")  # raises on any non-numeric value
    assert np.all(np.isfinite(vals))
    assert (pv.unit.str.strip() != "").all()
    assert (pv.source.str.strip() != "").all()
    assert (pv.statement.str.strip() != "").all()
    assert pv.source.str.contains("GLOBECOM'01|long version|TF-TANT").all()
    # qualitative rows (no value) carry the unit "-"; numeric rows a real unit; a value the paper
    # never states (rule not_checkable) may keep the unit of the value pqlab assumes for it
    assert (pv[(pv.value == "") & (pv.rule != "not_checkable")].unit == "-").all()
    assert (numeric.unit != "-").all()
    assert len(numeric) >= 60


def test_table_iii_values_and_erratum(pv):
    for key, ms, ref in [
        ("5_6", 18.29, 50),
        ("2_3", 17.66, 100),
        ("1_3", 17.23, 200),
        ("0", 16.75, 300),
    ]:
        assert value(pv, "globecom01_tab3", f"mean_delay_a_{key}") == ms
        assert value(pv, "globecom01_tab3", f"ref_load_a_{key}") == ref
        a = float(Fraction(key.replace("_", "/")))
        assert value(pv, "globecom01_tab3", f"a_ref_load_{ref}") == pytest.approx(a, abs=1e-9)
        assert a == pytest.approx(1 - ref / 300)
    erratum = pv[
        (pv.artefact == "globecom01_tab3") & (pv.quantity == "a_ref_load_50")
    ].statement.iloc[0]
    assert "1/6" in erratum and "5/6" in erratum and "ERRATUM" in erratum


def test_ipdv_values_mapped_to_a_as_long_version_states(pv):
    # long version Sec. 6.2: "A equal to 2/3, 1/3 and 0 ... 6.05, 5.16 and 3.63msec respectively"
    got = [value(pv, "long_ipdv_vs_a", f"mean_ipdv_a_{k}") for k in ("2_3", "1_3", "0")]
    assert got == [6.05, 5.16, 3.63]
    assert value(pv, "long_ipdv_vs_a", "max_ipdv") == 30
    stds = [value(pv, "long_fig7_tab3", f"ipdv_std_ef_{fs}") for fs in (128, 512, 1024)]
    assert stds == [2016.9, 2500.3, 3057.0]


def test_table_iv_rows_follow_the_papers_formula(pv):
    # Eq. (7): W_pq = k T_u / (1 - rho), W_t = (Q_t + k - 1) T_u; the paper truncates to 0.01 us
    t_u, rho, q_t = 2048.0, 0.15, 5
    assert value(pv, "globecom01_tab4", "t_u") == t_u
    assert value(pv, "globecom01_tab4", "rho") == rho
    assert value(pv, "globecom01_tab4", "q_t") == q_t
    assert value(pv, "globecom01_tab4", "ef_packet_rate") == pytest.approx(
        300e3 / (128 * 8), abs=5e-3
    )
    for k in (1, 2, 3):
        w_pq, w_t, w = (value(pv, "globecom01_tab4", f"{n}_k{k}") for n in ("w_pq", "w_t", "w"))
        assert w_pq == np.floor(k * t_u / (1 - rho) * 100) / 100
        assert w_t == (q_t + k - 1) * t_u
        assert w == pytest.approx(w_pq + w_t, abs=1e-9)
        assert value(pv, "globecom01_tab4", f"w_m_k{k}") < w  # "an overestimation of the delay"
    assert [value(pv, "globecom01_tab4", f"w_m_k{k}") for k in (1, 2, 3)] == [
        10162.51,
        15949.06,
        19272.81,
    ]


def test_other_headline_numbers(pv):
    assert value(pv, "globecom01_fig3_1", "local_max_be_payload_1") == 485
    assert value(pv, "globecom01_fig3_1", "local_max_be_payload_2") == 1000
    assert value(pv, "globecom01_fig5", "transmission_unit") == 0.636
    assert value(pv, "globecom01_fig5", "ccdf_negligible_above") == 36
    assert value(pv, "globecom01_pq_bound", "max_pq_delay") == 5.12
    assert value(pv, "globecom01_pq_bound", "max_burst") * 8 / 2e6 * 1e3 == pytest.approx(5.12)
    assert value(pv, "path", "rtt_64_byte_packet") == 2
    assert value(pv, "globecom01_fig3_2", "fluctuation_fraction") == pytest.approx(1 / 3, abs=1e-9)
    assert (pv.quantity == "erratum_475_two_units").sum() == 1


# ------------------------------------------------------------------ be_size_cdf_standin.csv


@pytest.fixture(scope="module")
def standin():
    return Empirical.from_csv(STANDIN)


def quantile(dist, p, side="left"):
    """q_p = min{x : F(x) >= p} (side="left") or min{x : F(x) > p} (side="right")."""
    return dist.sizes_bytes[int(np.searchsorted(np.array(dist.cdf), p, side=side))]


def test_standin_header_says_stand_in():
    header = [line for line in STANDIN.read_text().splitlines() if line.startswith("#")]
    assert header and "stand-in" in "\n".join(header).lower()
    assert "STAND-IN" in header[0]
    assert any("AIX" in line for line in header) and any("CAIDA" in line for line in header)


def test_standin_support_and_cdf(standin):
    sizes, cdf = np.array(standin.sizes_bytes), np.array(standin.cdf)
    assert sizes[0] == 40 and sizes[-1] == 1500
    assert np.all(np.diff(sizes) > 0) and np.all(np.diff(cdf) >= 0)
    assert cdf[-1] == 1.0
    assert standin.max_bytes == 1500


@pytest.mark.parametrize("side", ["left", "right"])
def test_standin_quantiles_match_caida_aix_1999(standin, side):
    F = dict(zip(standin.sizes_bytes, standin.cdf))
    assert F[40] >= 0.25
    assert quantile(standin, 0.05, side) == 40
    assert quantile(standin, 0.25, side) == 40
    assert abs(quantile(standin, 0.5, side) - 93) <= 10
    assert quantile(standin, 0.75, side) == 576
    assert quantile(standin, 0.95, side) == 1500
    # the same, stated on the CDF: P(size < 576) < 0.75 <= P(size <= 576), P(size < 1500) < 0.95
    assert F[575] < 0.75 <= F[576]
    assert F[1499] < 0.95 <= F[1500]


def test_standin_moments_and_modes(standin):
    pmf = standin.pmf()
    sizes = np.array(standin.sizes_bytes)
    assert standin.mean_bytes == pytest.approx(413, abs=2)  # CAIDA AIX May 1999: mean 413
    sd = np.sqrt(np.dot((sizes - standin.mean_bytes) ** 2, pmf))
    assert sd == pytest.approx(509, abs=2)  # and SD 509
    top = set(sizes[np.argsort(pmf)[::-1][:3]].tolist())
    assert top == {40, 576, 1500}
    assert pmf[sizes == 552][0] > 5 * pmf[sizes == 551][0]


def test_standin_matches_its_generator(standin):
    spec = importlib.util.spec_from_file_location(
        "make_standin", DATA / "make_be_size_cdf_standin.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # defines pmf(); writes nothing unless run as a script
    np.testing.assert_allclose(standin.pmf(), module.pmf(), atol=1e-11)


def test_standin_sampling(standin):
    draws = standin.sample(np.random.default_rng(7), 400_000)
    assert draws.min() >= 40 and draws.max() <= 1500
    assert np.median(draws) == pytest.approx(93, abs=10)
    assert np.percentile(draws, 75) == 576 and np.percentile(draws, 95) == 1500
