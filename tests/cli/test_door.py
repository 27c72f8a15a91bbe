"""The guards at the door (``cli/_door.py``): a table too large to read here, or for the
command's exact fit, is refused before it is read, naming the option (issue 63)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from kernel_patterns import GPClustering, KernelKMeans, LaplacianEmbedding, SpectralClustering
from kernel_patterns.cli import _door, main
from kernel_patterns.cli._registry import UsageError


def _csv(path, n: int, d: int = 2):
    X = np.random.default_rng(0).normal(size=(n, d))
    pd.DataFrame(X, columns=[f"x{j}" for j in range(d)]).to_csv(path, index=False)
    return path


def test_the_rows_of_a_csv_and_a_parquet_file_are_estimated(tmp_path) -> None:
    """A CSV's rows from its size and first lines (to 10 %), a Parquet file's from its
    footer (exactly); a compressed CSV is not estimated."""
    rows, cols = _door.estimate_shape(_csv(tmp_path / "t.csv", 5000, 3))
    assert abs(rows - 5000) < 500 and cols == 3
    pd.DataFrame({"a": np.arange(700.0), "b": 1.0}).to_parquet(tmp_path / "t.parquet")
    assert _door.estimate_shape(tmp_path / "t.parquet") == (700, 2)
    pd.DataFrame({"a": [1.0, 2.0]}).to_csv(tmp_path / "t.csv.gz", index=False)
    assert _door.estimate_shape(tmp_path / "t.csv.gz") is None


def test_which_fits_hold_a_dense_kernel_matrix() -> None:
    """Exact (or "auto" up to 10,000 rows) dense-kernel fits; not Nyström, a chunked
    operator, a sparse k-NN graph or an estimator without a memory budget."""
    assert _door._dense_fit(KernelKMeans(), 5000)
    assert not _door._dense_fit(KernelKMeans(), 50_000)  # auto: Nyström
    assert _door._dense_fit(KernelKMeans(approximation="exact"), 50_000)
    assert not _door._dense_fit(KernelKMeans(approximation="exact", operator="chunked"), 50_000)
    assert not _door._dense_fit(SpectralClustering(), 50_000)
    assert not _door._dense_fit(LaplacianEmbedding(), 50_000)
    assert not _door._dense_fit(GPClustering(), 50_000)  # auto: inducing points
    assert _door._dense_fit(GPClustering(approximation="exact"), 50_000)


def test_an_exact_fit_beyond_the_budget_is_refused_before_reading(tmp_path, capsys,
                                                                  monkeypatch) -> None:
    """``--param approximation=exact`` on a table whose kernel matrix exceeds the budget: one
    error naming ``approximation=nystrom`` and ``--scheduler``, before the table is read."""
    src = _csv(tmp_path / "t.csv", 3000)
    monkeypatch.setattr(_door, "_fmt", lambda nbytes: f"{nbytes:.0f} B")
    read = []
    monkeypatch.setattr("kernel_patterns.cli._common.read_table",
                        lambda *a, **k: read.append(a))
    code = main(["--quiet", "cluster", str(src), "--method", "kernel-kmeans",
                 "--n-clusters", "2", "--param", "approximation=exact",
                 "--param", "memory_budget=1000000", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2 and not read
    assert "the exact KernelKMeans fit holds the" in err
    assert "pass --param approximation=nystrom" in err and "--scheduler ADDRESS" in err
    assert len(err.strip().splitlines()) == 1


def test_a_table_too_large_to_read_here_is_refused(tmp_path, monkeypatch) -> None:
    """Reading needs about 24 bytes a value; past the memory available: one error naming
    ``--scheduler``."""
    src = _csv(tmp_path / "t.csv", 2000, 4)
    monkeypatch.setattr(_door, "default_memory_budget", lambda: 50_000)
    with pytest.raises(UsageError, match=r"t\.csv' is about [\d,]+ rows x 4 columns: reading "
                       r"it here needs about .* more than the .* of memory available; run it on "
                       r"a Dask cluster with --scheduler ADDRESS"):
        _door.check_at_the_door(src)
    monkeypatch.setattr(_door, "default_memory_budget", lambda: 2**40)
    _door.check_at_the_door(src, KernelKMeans())  # fits: no error


def test_an_exact_gp_fit_beyond_the_budget_names_inducing_points(tmp_path, capsys,
                                                                 monkeypatch) -> None:
    """``--param approximation=exact`` for GP on more rows than its covariance fits: one
    error naming ``approximation=inducing``, before the table is read."""
    src = _csv(tmp_path / "t.csv", 3000)
    monkeypatch.setattr(_door, "default_memory_budget", lambda: 10**6)
    code = main(["--quiet", "cluster", str(src), "--param", "approximation=exact",
                 "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2 and "the exact GPClustering fit holds the" in err
    assert "pass --param approximation=inducing" in err
    assert len(err.strip().splitlines()) == 1
