"""pqlab.papers.globecom01.globecom01_fig4: the STAND-IN "real" BE size CDF, its claims and
figure."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from globecom01_claim_rows import recorded_verdicts  # noqa: E402

from pqlab.papers import kit  # noqa: E402
from pqlab.papers.globecom01 import globecom01_fig4 as fig4  # noqa: E402


def test_fig4_quantiles_of_the_standin():
    d = fig4.compute()
    assert d["cdf"].values[-1] == pytest.approx(1.0)
    assert list(d["quantile_bytes"].values) == [40, 40, 93, 576, 1500]
    assert d.attrs["mean_bytes"] == pytest.approx(413.4, abs=0.5)
    assert d.attrs["modes_bytes"] == [40, 576, 1500]
    assert "STAND-IN" in d.attrs["title"]


def test_fig4_cites_the_repositorys_data_file_also_from_an_installed_package(monkeypatch, tmp_path):
    """A wheel reads the stand-in from pqlab/_data/; readers are pointed to the repository's data/
    file."""
    from pqlab import scenarios

    installed = tmp_path / "site-packages" / "pqlab" / "_data" / "be_size_cdf_standin.csv"
    installed.parent.mkdir(parents=True)
    installed.write_bytes(scenarios.REAL_BE_CDF.read_bytes())
    monkeypatch.setattr(scenarios, "REAL_BE_CDF", installed)
    assert fig4.compute().attrs["file"] == "data/be_size_cdf_standin.csv"


def test_claims_use_the_paper_keys_and_units_and_can_be_recorded(tmp_path):
    recorded_verdicts(fig4.ARTEFACT.id, kit.claims(fig4.ARTEFACT, fig4.compute()), tmp_path)


def test_the_figure_is_labelled():
    fig = fig4.figure(fig4.compute())
    ax = fig.axes[0]
    assert ax.get_xlabel() and ax.get_ylabel() and "globecom01_fig4" in ax.get_title()
    plt.close(fig)


def test_bad_arguments_raise_value_error_naming_the_parameter():
    with pytest.raises(ValueError, match="mode_min_probability"):
        fig4.compute(mode_min_probability=0.0)
