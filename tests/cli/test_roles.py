"""Column roles (issue 62): small equivalents of wine, penguins, crabs and a table with a text
id; every column gets a role with its reason, and the non-features are left out and told."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from kernel_patterns.cli import main
from kernel_patterns.cli._io import choose_columns, read_table
from kernel_patterns.cli._registry import UsageError
from kernel_patterns.cli._roles import ColumnRole, column_stats, decide_roles, role_notes


def _roles(df: pd.DataFrame, **kw) -> dict[str, tuple[str, str]]:
    return {r.name: (r.role, r.reason) for r in choose_columns(df, **kw).roles}


@pytest.fixture
def wine() -> pd.DataFrame:
    """wine's shape: a `cultivar` class column 1..3 among numeric features."""
    rng = np.random.default_rng(0)
    y = np.repeat([1, 2, 3], 20)
    return pd.DataFrame({"alcohol": 12 + y + rng.normal(size=60),
                         "proline": 500 + 100 * y + rng.normal(size=60) * 30,
                         "cultivar": y})


@pytest.fixture
def penguins() -> pd.DataFrame:
    """penguins' shape: text `species`, `island`, `sex`, a `year` 2007–2009, a missing value."""
    rng = np.random.default_rng(1)
    n = 60
    species = np.repeat(["Adelie", "Gentoo"], n // 2)
    bill = np.where(species == "Adelie", 39.0, 47.0) + rng.normal(size=n)
    bill[3] = np.nan
    return pd.DataFrame({
        "rownames": np.arange(1, n + 1), "species": species,
        "island": rng.choice(["Biscoe", "Dream", "Torgersen"], size=n),
        "bill_length_mm": bill, "body_mass_g": rng.normal(4200, 500, size=n).round(),
        "sex": rng.choice(["male", "female"], size=n), "year": np.tile([2007, 2008, 2009], 20)})


@pytest.fixture
def crabs() -> pd.DataFrame:
    """crabs' shape: `sp`, `sex` text and an `index` 1..15 within each species and sex."""
    rng = np.random.default_rng(2)
    return pd.DataFrame({
        "sp": np.repeat(["B", "O"], 30), "sex": np.tile(np.repeat(["M", "F"], 15), 2),
        "index": np.tile(np.arange(1, 16), 4),
        "FL": rng.normal(15, 3, size=60), "RW": rng.normal(13, 2, size=60)})


def test_wine_cultivar_is_label_like(wine) -> None:
    roles = _roles(wine)
    assert roles["cultivar"] == ("label-like",
                                 "whole numbers, 3 distinct values, named like a class")
    assert roles["alcohol"] == roles["proline"] == ("feature", "numeric")
    assert choose_columns(wine).features == ["alcohol", "proline"]
    # put back with --keep-columns; the labels with --label-column
    assert choose_columns(wine, keep_columns="cultivar").features == [
        "alcohol", "proline", "cultivar"]
    assert _roles(wine, label_column="cultivar")["cultivar"] == ("label", "--label-column")


def test_penguins_year_and_species(penguins) -> None:
    roles = _roles(penguins)
    assert roles["year"] == ("label-like", "a year: 3 distinct values in 2007–2009")
    assert roles["species"] == ("label-like", "text, 2 distinct values, named like a class")
    assert roles["island"] == roles["sex"] == ("text", "not numeric")
    assert roles["rownames"] == ("id", "named like an id")
    assert roles["bill_length_mm"][0] == roles["body_mass_g"][0] == "feature"


def test_crabs_index_within_groups_is_an_id(crabs) -> None:
    roles = _roles(crabs)
    assert roles["index"] == ("id", "row numbers within groups")
    assert choose_columns(crabs).features == ["FL", "RW"]
    # counting up and restarting under another name stays a feature
    other = crabs.rename(columns={"index": "block"})
    assert _roles(other)["block"] == ("feature", "numeric")


def test_text_id_integer_key_and_constant() -> None:
    rng = np.random.default_rng(3)
    df = pd.DataFrame({"sample": [f"s{i:03d}" for i in range(30)],
                       "customer_id": rng.permutation(30) * 7 + 1000,
                       "x": rng.normal(size=30), "unit": 1.5})
    roles = _roles(df)
    assert roles["sample"] == ("id", "text, every value different")
    assert roles["customer_id"] == ("id", "a unique integer key")
    assert roles["unit"] == ("constant", "one value, 1.5")
    assert choose_columns(df).features == ["x"]


def test_role_notes_one_line_per_role_left_out() -> None:
    roles = [ColumnRole("n", "id", "row numbers"), ColumnRole("x", "feature", "numeric"),
             ColumnRole("c", "constant", "one value, 1"), ColumnRole("k", "constant", "one "
                                                                    "value, 2")]
    assert role_notes(roles) == ["left out of the features: 'n' (row numbers)",
                                 "left out of the features: 'c' (one value, 1), 'k' (one "
                                 "value, 2)"]


def test_keep_columns_errors_name_the_column(wine) -> None:
    with pytest.raises(UsageError, match=r"--keep-columns names unknown column\(s\) \['nope'\]"):
        choose_columns(wine, keep_columns="nope")
    with pytest.raises(UsageError, match=r"--keep-columns .cultivar. is the label column"):
        choose_columns(wine, keep_columns="cultivar", label_column="cultivar")


def test_a_very_wide_table_is_decided_in_one_vectorised_pass() -> None:
    rng = np.random.default_rng(4)
    df = pd.DataFrame(rng.normal(size=(5, 20_000)), columns=[f"c{i}" for i in range(20_000)])
    stats = column_stats(df)
    assert len(stats) == 20_000 and (stats["n_unique"] == 5).all()
    roles = decide_roles(stats)
    assert len(roles) == 20_000 and {r.role for r in roles} == {"feature"}


def test_cli_tells_each_role_and_the_report_lists_every_column(tmp_path, capsys,
                                                               penguins) -> None:
    src = tmp_path / "penguins.csv"
    penguins.to_csv(src, index=False)
    out = tmp_path / "o"
    assert main(["-q", "cluster", str(src), "--method", "kernel-kmeans", "--n-clusters", "2",
                 "--drop-na", "--out", str(out)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert ("kernel-patterns cluster: note: left out of the features: 'species' (label-like: "
            "text, 2 distinct values, named like a class), 'year' (label-like: a year: 3 "
            "distinct values in 2007–2009); --keep-columns species,year uses them as "
            "features, --label-column species scores the clusters against it") in err
    assert ("kernel-patterns cluster: note: left out of the features: 'island' (not numeric), "
            "'sex' (not numeric)") in err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["input"]["features"] == ["bill_length_mm", "body_mass_g"]
    assert [r["column"] for r in summary["input"]["column_roles"]] == list(penguins.columns)
    page = (out / "report.html").read_text()
    assert "The role of every column" in page and "a year: 3 distinct values" in page


def test_read_table_keeps_roles(tmp_path, crabs) -> None:
    src = tmp_path / "crabs.csv"
    crabs.to_csv(src, index=False)
    table = read_table(src)
    assert [r.role for r in table.roles] == ["text", "text", "id", "feature", "feature"]
    assert table.dropped_columns == {"sp": "not numeric", "sex": "not numeric",
                                     "index": "row numbers within groups"}
