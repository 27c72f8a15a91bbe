"""What the data commands share (``cli._common``): the estimator built from the options."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from kernel_patterns.cli import main


@pytest.fixture
def two_blobs_csv(tmp_path):
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 20)
    X = rng.normal(scale=0.5, size=(40, 2)) + 4.0 * y[:, None]
    path = tmp_path / "d.csv"
    pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "truth": y}).to_csv(path, index=False)
    return path


@pytest.mark.parametrize(("command", "option", "param"), [
    (["cluster", "--method", "kernel-kmeans"], ["--n-clusters", "2"], "n_clusters=3"),
    (["embed", "--method", "mds"], ["--n-components", "2"], "n_components=3"),
])
def test_a_param_its_own_option_sets_is_an_error_naming_both(tmp_path, capsys, two_blobs_csv,
                                                              command, option, param) -> None:
    # --n-clusters 2 --param n_clusters=3 fitted 3 clusters, and the summary said
    # "--n-clusters 3"
    out = tmp_path / "out"
    code = main(["--quiet", command[0], str(two_blobs_csv), *command[1:], *option,
                 "--label-column", "truth",
                 "--param", param, "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    key = param.split("=")[0]
    assert (f"--param {param} sets {key}, which {option[0]} sets ({' '.join(option)} here); "
            f"give it once, with {option[0]}") in err
    assert not out.exists()


@pytest.mark.parametrize("name", ["label", "Class"])
def test_a_column_named_like_labels_is_left_out_with_the_options_that_use_it(
        tmp_path, capsys, two_blobs_csv, name) -> None:
    # a column literally named 'label' was used as a feature without a word (issue 62: it is
    # label-like, left out by default, told with --keep-columns and --label-column)
    path = tmp_path / "l.csv"
    pd.read_csv(two_blobs_csv).rename(columns={"truth": name}).to_csv(path, index=False)
    out = tmp_path / "out"
    args = ["--quiet", "cluster", str(path), "--method", "kernel-kmeans", "--n-clusters", "2"]
    assert main([*args, "--out", str(out)]) == 0
    note = (f"left out of the features: '{name}' (label-like: whole numbers, 2 distinct "
            f"values, named like a class); --keep-columns {name} uses it as a feature, "
            f"--label-column {name} scores the clusters against it")
    assert f"kernel-patterns cluster: note: {note}\n" in capsys.readouterr().err
    summary = json.loads((out / "summary.json").read_text())
    assert note in summary["input"]["notes"] and name not in summary["input"]["features"]
    assert {"column": name, "role": "label-like", "reason": "whole numbers, 2 distinct values, "
            "named like a class"} in summary["input"]["column_roles"]
    # a feature again with --keep-columns or --columns; the labels with --label-column
    for extra, features in ((["--keep-columns", name], ["a", "b", name]),
                            (["--columns", f"a,b,{name}"], ["a", "b", name]),
                            (["--label-column", name], ["a", "b"])):
        assert main([*args, *extra, "--out", str(tmp_path / "o2"), "--force"]) == 0
        assert "label-like" not in capsys.readouterr().err
        got = json.loads((tmp_path / "o2" / "summary.json").read_text())
        assert got["input"]["features"] == features


def test_first_line_of_an_error_is_its_message_or_its_type() -> None:
    from kernel_patterns.cli._registry import first_line

    assert first_line(ValueError("bad value\nmore detail")) == "bad value"
    assert first_line(OSError()) == "OSError"
    wrapped = ValueError("An error occurred while calling the read_csv method registered to "
                         "the pandas backend.\nOriginal Message: Error tokenizing data.\nmore")
    assert first_line(wrapped) == "Error tokenizing data."


def test_fitted_kernel_names_the_transform_the_landscape_lives_behind() -> None:
    import warnings

    from sklearn.datasets import make_blobs

    from kernel_patterns import GPClustering
    from kernel_patterns.cli._common import fitted_kernel

    X, _ = make_blobs(n_samples=120, centers=3, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        far = fitted_kernel(GPClustering(random_state=0).fit(X + 1e10))
        tails = fitted_kernel(GPClustering(random_state=0, feature_transform="yeo-johnson")
                              .fit(X))
        plain = fitted_kernel(GPClustering(random_state=0).fit(X))
    assert far["feature_transform_"] == "centre (data far from the origin)"
    assert tails["feature_transform_"].startswith("standardise, then Yeo-Johnson")
    assert "feature_transform_" not in plain


def test_dropped_rows_are_a_warning_with_count_share_and_the_columns_to_blame(
        tmp_path, capsys) -> None:
    # issue 62: --drop-na on storms kept 2,170 of 19,537 rows and the terminal said nothing
    rng = np.random.default_rng(1)
    n = 40
    frame = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n),
                          "gust": rng.normal(size=n)})
    frame.loc[:29, "gust"] = np.nan  # 30 of 40 rows miss 'gust'
    frame.loc[35, "a"] = np.nan
    src = tmp_path / "s.csv"
    frame.to_csv(src, index=False)
    args = ["-q", "cluster", str(src), "--method", "kernel-kmeans", "--n-clusters", "2",
            "--drop-na"]
    assert main([*args, "--out", str(tmp_path / "o")]) == 0
    warning = ("kernel-patterns cluster: warning: dropped 31 of the 40 rows (77.5 %) for "
               "missing values (--drop-na); most of them miss 'gust' (30 rows), 'a' (1 row): "
               "--columns without them keeps more rows")
    assert warning in capsys.readouterr().err.splitlines()
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["input"]["row_loss"] == warning.split("warning: ")[1]
    assert "dropped 31 of the 40 rows" in (tmp_path / "o" / "report.html").read_text()
    # under half: the count and the share only
    assert main([*args, "--columns", "a,b", "--out", str(tmp_path / "o2")]) == 0
    assert ("kernel-patterns cluster: warning: dropped 1 of the 40 rows (2.5 %) for missing "
            "values (--drop-na)\n") in capsys.readouterr().err
