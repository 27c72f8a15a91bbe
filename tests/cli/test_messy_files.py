"""Users' files as they come (found by fuzzing the reader): trailing separators, header rows
shorter than the data, other encodings and separators, comment lines, empty columns and
numbers written as text. Each is read as meant with a note, or is one clear error."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns.cli import main
from kernel_patterns.cli._io import read_frame, read_table
from kernel_patterns.cli._registry import UsageError


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


# rows with more fields than the header -------------------------------------------------------

def test_a_separator_ending_every_data_row_does_not_shift_the_columns(tmp_path) -> None:
    # pandas would take 'id' as the index and read a's values under 'id', b's under 'a'
    src = _write(tmp_path, "t.csv", "id,a,b\nr0,1,2,\nr1,3,4,\nr2,5,7,\n")
    table = read_table(src)
    assert table.feature_names == ["a", "b"] and table.ids.tolist() == ["r0", "r1", "r2"]
    np.testing.assert_array_equal(table.X, [[1, 2], [3, 4], [5, 7]])
    assert table.read_notes == ["data rows end with ',' and an empty field the header has no "
                                "name for: the empty fields are left out"]


def test_a_header_without_a_name_for_the_row_names_reads_them_as_rownames(tmp_path) -> None:
    # R's write.table(x, sep=",") with row names: the header has one name fewer
    src = _write(tmp_path, "r.csv", "a,b\nr0,1,2\nr1,3,4\nr2,5,7\n")
    table = read_table(src)
    assert table.feature_names == ["a", "b"] and table.id_column == "rownames"
    assert table.ids.tolist() == ["r0", "r1", "r2"]
    np.testing.assert_array_equal(table.X, [[1, 2], [3, 4], [5, 7]])
    assert "the first column is read as the row names" in table.read_notes[0]


@pytest.mark.parametrize("text, line", [("b\nr0,1,2\nr1,3,4\nr2,5,7\n", 2),
                                        ("id,a,b\nr0,1,2\nr1,3,4,9\nr2,5,7\n", 3)])
def test_rows_longer_than_the_header_otherwise_are_an_error(tmp_path, capsys, text,
                                                            line) -> None:
    src = _write(tmp_path, "h.csv", text)
    with pytest.raises(UsageError, match=rf"line {line} has \d fields but the header names "
                       r"\d columns?; give every column a name"):
        read_table(src)
    assert main(["-q", "cluster", str(src), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


# rows of empty fields ---------------------------------------------------------------------------

def test_rows_whose_fields_are_all_empty_are_skipped_as_blank_lines(tmp_path, capsys) -> None:
    # a spreadsheet's CSV export of a sheet with empty rows between the data: ",,"
    src = _write(tmp_path, "b.csv", "name,a,b\nr0,1,2\n,,\nr1,3,4\nr2,5,7\n,,\n")
    table = read_table(src)
    assert table.id_column == "name" and table.ids.tolist() == ["r0", "r1", "r2"]
    np.testing.assert_array_equal(table.X, [[1, 2], [3, 4], [5, 7]])
    assert table.read_notes == ["skipped 2 row(s) whose fields are all empty, as blank lines"]
    assert main(["-q", "cluster", str(src), "--method", "kernel-kmeans", "--n-clusters", "2",
                 "--out", str(tmp_path / "o")]) == 0
    assert ("note: skipped 2 row(s) whose fields are all empty, as blank lines; row ids from "
            "column 'name'") in capsys.readouterr().err
    # a row with some fields empty is a row with missing values, named by its id
    _write(tmp_path, "m.csv", "name,a,b\nr0,1,2\nr1,,\nr2,5,7\n,,\n")
    with pytest.raises(UsageError, match=r"1 row\(s\) have missing .*\(first: \['r1'\]"):
        read_table(tmp_path / "m.csv")
    # fields of spaces only are empty too, and a header's spaces after a comma no part of a
    # name: an export that pads its fields ("a, b"; " , " for an empty row)
    _write(tmp_path, "s.csv", "name, a, b\nr0, 1, 2\n , , \nr1, 3, 4\n   \nr2, 5,  7\n")
    table = read_table(tmp_path / "s.csv")
    assert table.feature_names == ["a", "b"] and table.ids.tolist() == ["r0", "r1", "r2"]
    np.testing.assert_array_equal(table.X, [[1, 2], [3, 4], [5, 7]])
    assert table.read_notes == ["skipped 1 row(s) whose fields are all empty, as blank lines"]
    _write(tmp_path, "r.csv", "a, b, a\n1, 2, 3\n4, 5, 6\n")  # a name repeated after a space
    table = read_table(tmp_path / "r.csv")
    assert table.feature_names == ["a", "b", "a.1"]
    assert table.read_notes == ["the header names 'a' twice (read as 'a' and 'a.1')"]
    _write(tmp_path, "p.csv", "name,a,b\nr0,1,2\nr1,3,  \nr2,5,7\n")
    with pytest.raises(UsageError, match=r"1 row\(s\) have missing .*\(first: \['r1'\]"):
        read_table(tmp_path / "p.csv")
    # nothing but empty rows: no data
    _write(tmp_path, "e.csv", "name,a,b\n,,\n,,\n")
    with pytest.raises(UsageError, match=r"'.*e.csv' has a header but no data rows"):
        read_table(tmp_path / "e.csv")


# names the header repeats -----------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "id,a,b,a\nr0,1,2,3\nr1,3,4,5\nr2,5,7,1\n",
    "id,a,b,a,\nr0,1,2,3,\nr1,3,4,5,\nr2,5,7,1,\n",  # and a separator ending the rows
    "a,b,a\nr0,1,2,3\nr1,3,4,5\nr2,5,7,1\n",  # and R's row names (pandas refused these)
])
def test_a_name_the_header_repeats_is_read_renamed_with_a_note(tmp_path, capsys,
                                                               text) -> None:
    src = _write(tmp_path, "d.csv", text)
    table = read_table(src)
    assert table.feature_names == ["a", "b", "a.1"] and table.ids.tolist() == ["r0", "r1", "r2"]
    np.testing.assert_array_equal(table.X, [[1, 2, 3], [3, 4, 5], [5, 7, 1]])
    assert table.read_notes[-1] == "the header names 'a' twice (read as 'a' and 'a.1')"
    assert main(["-q", "cluster", str(src), "--method", "kernel-kmeans", "--n-clusters", "2",
                 "--out", str(tmp_path / "o")]) == 0
    assert "the header names 'a' twice (read as 'a' and 'a.1')" in capsys.readouterr().err


def test_a_repeated_name_is_never_renamed_onto_a_name_the_header_has(tmp_path) -> None:
    src = _write(tmp_path, "d.csv", "a,b,a,a.1,b,a\n1,2,3,4,5,6\n7,8,9,1,2,3\n")
    table = read_table(src)
    assert table.feature_names == ["a", "b", "a.2", "a.1", "b.1", "a.3"]
    np.testing.assert_array_equal(table.X[0], [1, 2, 3, 4, 5, 6])
    assert table.read_notes == ["the header names 'a' 3 times (read as 'a', 'a.2' and 'a.3') "
                                "and 'b' twice (read as 'b' and 'b.1')"]


@pytest.mark.parametrize("option", ["--label-column", "--id-column"])
def test_a_label_or_id_column_the_header_repeats_is_an_error(tmp_path, capsys,
                                                             option) -> None:
    src = _write(tmp_path, "d.csv", "id,a,b,a\nr0,1,2,3\nr1,3,4,5\nr2,5,7,1\n")
    assert main(["-q", "cluster", str(src), option, "a", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err == (f"kernel-patterns cluster: error: {option} 'a' is ambiguous: the header "
                   "names 2 columns 'a' (read as 'a' and 'a.1'); rename them apart in the "
                   f"file, or pass {option} 'a.1' for the second\n")
    kw = {"label_column" if option == "--label-column" else "id_column": "a.1"}
    assert read_table(src, **kw).feature_names == ["a", "b"]


# empty columns ---------------------------------------------------------------------------------

def test_an_empty_column_is_left_out_with_a_note(tmp_path, capsys) -> None:
    # a column the user left blank, and the empty column of a separator ending every line
    src = _write(tmp_path, "e.csv", "id,a,notes,b,\nr0,1,,2,\nr1,3,,4,\nr2,5,,7,\n")
    table = read_table(src)
    assert table.feature_names == ["a", "b"]
    assert table.dropped_columns == {"notes": "empty", "Unnamed: 4": "empty"}
    np.testing.assert_array_equal(table.X, [[1, 2], [3, 4], [5, 7]])
    assert main(["-q", "cluster", str(src), "--method", "kernel-kmeans", "--n-clusters", "2",
                 "--out", str(tmp_path / "o")]) == 0
    assert "note: left out of the features: 'notes' (empty), 'Unnamed: 4' (empty)\n" in (
        capsys.readouterr().err)


# encodings and files that are not text -----------------------------------------------------

def test_a_utf16_file_is_read_with_a_note(tmp_path) -> None:
    # Excel's "Unicode text": UTF-16 with a byte-order mark, tabs, CRLF
    src = tmp_path / "u.tsv"
    src.write_bytes("id\tpétale\tb\r\nr0\t1.5\t2\r\nr1\t3\t4\r\nr2\t5\t7\r\n"
                    .encode("utf-16"))
    table = read_table(src)
    assert table.feature_names == ["pétale", "b"] and table.ids.tolist() == ["r0", "r1", "r2"]
    np.testing.assert_array_equal(table.X, [[1.5, 2], [3, 4], [5, 7]])
    assert table.read_notes == ["the file is not UTF-8: read as utf-16"]


@pytest.mark.parametrize("head, name, what", [
    (b"PK\x03\x04\x14\x00\x06\x00", "book.csv", r"a zip archive \(an Excel .xlsx workbook\?\)"),
    (b"\x1f\x8b\x08\x00\x00\x00", "data.csv", "gzip-compressed: name it .csv.gz or .tsv.gz"),
    (b"PAR1\x15\x04\x15", "data.csv", "a Parquet file: name it .parquet"),
    (b"a,b\n1,\x00\x002\n3,4\n", "nul.csv", "not a text table: it holds NUL bytes"),
])
def test_a_file_that_is_not_text_is_one_clear_error(tmp_path, capsys, head, name,
                                                    what) -> None:
    src = tmp_path / name
    src.write_bytes(head + bytes(range(256)))
    with pytest.raises(UsageError, match=rf"input '.*{name}' is {what}"):
        read_table(src)
    assert main(["-q", "embed", str(src), "--method", "mds", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_spreadsheet_is_refused_with_what_to_do(tmp_path) -> None:
    src = tmp_path / "book.xlsx"
    src.write_bytes(b"PK\x03\x04")
    with pytest.raises(UsageError, match=r"unsupported type '.xlsx'; use .csv, .tsv or "
                       r".parquet; save the sheet as CSV"):
        read_table(src)


# separators the file's name does not say ---------------------------------------------------

@pytest.mark.parametrize("name, text, note", [
    ("t.csv", "id\ta\tb\nr0\t1\t2\nr1\t3\t4\nr2\t5\t7\n",
     "read with tabs between fields (its lines split there, though the file is named .csv)"),
    ("c.tsv", "id,a,b\nr0,1,2\nr1,3,4\nr2,5,7\n",
     "read with ',' between fields (its lines split there, though the file is named .tsv)"),
    ("e.tsv", "id;a;b\nr0;1,0;2\nr1;3;4\nr2;5;7\n",
     "read with ';' between fields and ',' as the decimal mark (its lines split there, "
     "though the file is named .tsv)"),
])
def test_a_separator_other_than_the_name_says_is_found_with_a_note(tmp_path, name, text,
                                                                   note) -> None:
    table = read_table(_write(tmp_path, name, text))
    assert table.feature_names == ["a", "b"] and table.ids.tolist() == ["r0", "r1", "r2"]
    np.testing.assert_array_equal(table.X, [[1, 2], [3, 4], [5, 7]])
    assert table.read_notes == [note]


@pytest.mark.parametrize("name, text, what", [
    ("p.csv", "id|a|b\nr0|1.5|2\nr1|3|4\nr2|5|7\n", "'|'"),
    ("p.tsv", "id | a | b\nr0 | 1.5 | 2\nr1 | 3 | 4\nr2 | 5 | 7\n", "'|'"),  # padded
    ("s.csv", "id    a  b\nr0  1.5  2\nr1    3  4\nr2    5  7\n", "spaces"),
    ("s.tsv", "  id    a  b\n  r0  1.5  2\n  r1    3  4\n  r2    5  7\n", "spaces"),
])
def test_a_bar_or_spaces_between_fields_is_found_with_a_note(tmp_path, name, text,
                                                             what) -> None:
    table = read_table(_write(tmp_path, name, text))
    assert table.feature_names == ["a", "b"] and table.ids.tolist() == ["r0", "r1", "r2"]
    np.testing.assert_array_equal(table.X, [[1.5, 2], [3, 4], [5, 7]])
    assert table.read_notes == [f"read with {what} between fields (its lines split there, "
                                f"though the file is named {name[-4:]})"]


def test_the_note_on_a_compressed_file_names_the_table_it_holds(tmp_path) -> None:
    import gzip

    (tmp_path / "t.csv.gz").write_bytes(gzip.compress(b"id\ta\tb\nr0\t1\t2\nr1\t3\t4\n"))
    table = read_table(tmp_path / "t.csv.gz")
    np.testing.assert_array_equal(table.X, [[1, 2], [3, 4]])
    assert table.read_notes == ["read with tabs between fields (its lines split there, "
                                "though the file is named .csv)"]


def test_numpy_savetxt_and_r_write_table_files_are_read(tmp_path) -> None:
    X = np.array([[1.5, 2, 3], [3, 4, 5], [5, 7, 1], [2, 2, 2.25]])
    np.savetxt(tmp_path / "x.csv", X)  # '1.500000000000000000e+00 2.0…' : no header
    table = read_table(tmp_path / "x.csv")
    assert table.feature_names == ["x0", "x1", "x2"]
    np.testing.assert_array_equal(table.X, X)
    assert table.read_notes[0] == ("read with spaces between fields (its lines split there, "
                                   "though the file is named .csv)")
    # R's write.table(df): spaces, quoted text, a header without a name for the row names
    _write(tmp_path, "r.csv", '"a" "b"\n"r0" 1.5 2\n"r1" 3 4\n"r2" 5 7\n')
    table = read_table(tmp_path / "r.csv")
    assert table.feature_names == ["a", "b"] and table.ids.tolist() == ["r0", "r1", "r2"]
    np.testing.assert_array_equal(table.X, [[1.5, 2], [3, 4], [5, 7]])
    # the spaces of one text column (no column of numbers) are no separator
    _write(tmp_path, "n.csv", "full name\nAnn Lee\nBo Ng\nCy Wu\n")
    frame = read_frame(tmp_path / "n.csv")
    assert frame.columns.tolist() == ["full name"] and frame.attrs["read_notes"] == []


def test_excel_unicode_text_named_tsv_reads(tmp_path, capsys) -> None:
    src = tmp_path / "export.tsv"  # Excel's "Unicode text": UTF-16, tabs, CRLF
    rows = "".join(f"p{i}\t{i % 5}.5\t{i % 3}\r\n" for i in range(12))
    src.write_bytes(("name\ta\tb\r\n" + rows).encode("utf-16"))
    assert main(["-q", "cluster", str(src), "--method", "kernel-kmeans", "--n-clusters", "2",
                 "--out", str(tmp_path / "o")]) == 0
    assert ("note: the file is not UTF-8: read as utf-16; row ids from column 'name'"
            in capsys.readouterr().err)
    # as Excel names it, .txt: refused, saying what to do
    src.rename(tmp_path / "export.txt")
    with pytest.raises(UsageError, match=r"unsupported type '.txt'; use .csv, .tsv or "
                       r".parquet; a text table: name it .csv or .tsv"):
        read_table(tmp_path / "export.txt")


# comment lines -----------------------------------------------------------------------------

def test_comment_lines_above_the_header_are_skipped_with_a_note(tmp_path, capsys) -> None:
    src = _write(tmp_path, "c.csv", "# exported by the plate reader\n\n# units: mm\n"
                 "id,a,b\nr0,1,2\nr1,3,4\nr2,5,7\n")
    table = read_table(src)
    assert table.feature_names == ["a", "b"] and table.ids.tolist() == ["r0", "r1", "r2"]
    np.testing.assert_array_equal(table.X, [[1, 2], [3, 4], [5, 7]])
    assert table.read_notes == ["skipped the first 3 line(s): comments, starting with '#'"]
    # a longer row is named by its line in the file, the comments counted
    _write(tmp_path, "d.csv", "# units: mm\nid,a,b\nr0,1,2\nr1,3,4,9\nr2,5,7\n")
    with pytest.raises(UsageError, match="line 4 has 4 fields"):
        read_table(tmp_path / "d.csv")


# numbers written as text -------------------------------------------------------------------

def test_a_column_of_numbers_written_as_text_is_named_with_the_value(tmp_path, capsys) -> None:
    # a currency, a percent, a missing-value mark pandas does not know, thousands separators
    src = _write(tmp_path, "m.csv", 'id,a,price,share,n,b,ok\n'
                 'r0,1,$3.50,12%,"1,234",2,TRUE\nr1,3,$4.00,7%,"2,345",?,FALSE\n'
                 'r2,5,$1.25,9%,"3,456",7,TRUE\n')
    table = read_table(src)
    assert table.feature_names == ["a"]
    assert table.dropped_columns == {
        "price": "not numeric: 3 values are not numbers, e.g. '$3.50'",
        "share": "not numeric: 3 values are not numbers, e.g. '12%'",
        "n": "not numeric: 3 values are not numbers, e.g. '1,234'",
        "b": "not numeric: 1 value is not a number, '?'",
        "ok": "not numeric: true/false",
    }
    assert main(["-q", "cluster", str(src), "--columns", "a,b", "--out",
                 str(tmp_path / "o")]) == 2
    assert ("error: feature column(s) ['b'] are not numeric ('b': 1 value is not a number, "
            "'?'); choose numeric features with --columns") in capsys.readouterr().err


# compressed files --------------------------------------------------------------------------

@pytest.mark.parametrize("name, opener", [("d.csv.gz", "gzip"), ("d.tsv.bz2", "bz2"),
                                          ("d.CSV.xz", "lzma")])
def test_a_compressed_csv_or_tsv_is_read(tmp_path, name, opener) -> None:
    import importlib

    text = "id;a;b\nr0;1,5;2\nr1;3;4\nr2;5;7\n" if ".csv" in name.lower() else (
        "id\ta\tb\nr0\t1.5\t2\nr1\t3\t4\nr2\t5\t7\n")
    with importlib.import_module(opener).open(tmp_path / name, "wt") as fh:
        fh.write(text)
    table = read_table(tmp_path / name)
    assert table.feature_names == ["a", "b"] and table.ids.tolist() == ["r0", "r1", "r2"]
    np.testing.assert_array_equal(table.X, [[1.5, 2], [3, 4], [5, 7]])


def test_a_damaged_or_unnamed_compressed_file_is_one_clear_error(tmp_path) -> None:
    import gzip

    rows = "".join(f"{i},{(i * 7919) % 104729}\n" for i in range(50000))
    whole = gzip.compress(("a,b\n" + rows).encode())
    (tmp_path / "cut.csv.gz").write_bytes(whole[:len(whole) // 2])  # a download cut short
    with pytest.raises(UsageError, match=r"could not read '.*cut.csv.gz': Compressed file "
                       "ended before the end-of-stream marker"):
        read_table(tmp_path / "cut.csv.gz")
    (tmp_path / "data.gz").write_bytes(gzip.compress(b"a,b\n1,2\n3,4\n"))
    with pytest.raises(UsageError, match=r"unsupported type '.gz'; use .csv, .tsv or .parquet; "
                       r"a compressed table: name it .csv.gz or .tsv.gz"):
        read_table(tmp_path / "data.gz")


# found by the reader's property tests and the harsher fuzz (issue 63) --------------------------

@pytest.mark.parametrize(("name", "sep"), [("t.csv", "|"), ("t.tsv", "\t"), ("t.csv", "\t")])
def test_decimal_commas_under_another_separator(tmp_path, name, sep) -> None:
    """Decimal commas with '|' or tabs between fields (the commas split the lines unevenly,
    so ',' is not taken for the separator)."""
    src = tmp_path / name
    src.write_text(f"name{sep}a{sep}b\nr0{sep}1,5{sep}2\nr1{sep}-3,25{sep}4\nr2{sep}0,5{sep}1\n")
    table = read_table(src)
    assert table.feature_names == ["a", "b"]
    np.testing.assert_array_equal(table.X, [[1.5, 2], [-3.25, 4], [0.5, 1]])
    assert any("',' as the decimal mark" in n for n in table.read_notes)


def test_utf32_with_a_byte_order_mark_is_read_as_utf32(tmp_path) -> None:
    """UTF-32 with its BOM (which begins with UTF-16's) is read as UTF-32, not UTF-16."""
    src = tmp_path / "t.csv"
    src.write_bytes("a,b\n1.5,2\n3,4\n".encode("utf-32"))
    table = read_table(src)
    assert table.feature_names == ["a", "b"]
    np.testing.assert_array_equal(table.X, [[1.5, 2], [3, 4]])


def test_utf16_cut_to_an_odd_byte_count_is_one_clear_error(tmp_path) -> None:
    """UTF-16 whose last byte is cut is an error naming the file and the encoding, not a
    Latin-1 re-read with NULs in every name."""
    src = tmp_path / "t.csv"
    src.write_bytes("a,b\n1.5,2\n3,4\n".encode("utf-16")[:-1])
    with pytest.raises(UsageError, match=r"t\.csv.*UTF-16 byte-order mark.*cut short"):
        read_table(src)


def test_a_header_longer_than_the_sniff_sample_is_read_whole(tmp_path) -> None:
    """20,000 columns × 5 rows: the header (about 130 KB) is longer than the first 64 KB the
    reader looked at; the cut header named 10,950 columns and the run hung. Now the sample
    grows to hold the header and two rows, and every name is read."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5, 20_000))
    src = tmp_path / "wide.csv"
    src.write_text(",".join(f"feature{j}" for j in range(20_000)) + "\n"
                   + "\n".join(",".join(f"{v:.6g}" for v in row) for row in X) + "\n")
    table = read_table(src)
    assert table.X.shape == (5, 20_000)
    assert table.feature_names[-1] == "feature19999" and table.read_notes == []
    np.testing.assert_allclose(table.X, X, rtol=1e-5)


def test_one_line_with_no_line_break_is_refused_at_the_sniff(tmp_path) -> None:
    """A single 5 MB line ``1.5,1.5,…`` (no newline) was taken as a header of a million
    repeated names, whose renaming never ended; it is refused, naming the file."""
    src = tmp_path / "line.csv"
    src.write_text("1.5," * (5 * 2**20 // 4))
    with pytest.raises(UsageError, match=r"line\.csv' has no line break in its first 4 MB"):
        read_table(src)


@pytest.mark.parametrize("end", ["\r", "\r\n"])
def test_old_mac_line_endings_are_read(tmp_path, end) -> None:
    """Lines ending in a carriage return alone (was: "new-line character seen in unquoted
    field" from the sniff)."""
    src = tmp_path / "mac.csv"
    src.write_bytes(end.join(["a,b", "1.5,2", "3,4", "5,6.5"]).encode() + end.encode())
    table = read_table(src)
    np.testing.assert_array_equal(table.X, [[1.5, 2], [3, 4], [5, 6.5]])


def test_a_corrupt_gzip_is_one_error_naming_the_file(tmp_path) -> None:
    """A ``.csv.gz`` whose deflate stream is damaged (``zlib.error`` was a traceback)."""
    import gzip

    rng = np.random.default_rng(0)
    text = "a,b\n" + "\n".join(f"{x:.6f},{y:.6f}" for x, y in rng.normal(size=(400, 2)))
    data = bytearray(gzip.compress(text.encode()))
    data[40:60] = b"\xff" * 20
    src = tmp_path / "t.csv.gz"
    src.write_bytes(bytes(data))
    with pytest.raises(UsageError, match=r"could not read '.*t\.csv\.gz': .*decompress"):
        read_table(src)


def _nested_parquet(path) -> np.ndarray:
    import pyarrow as pa
    import pyarrow.parquet as pq

    X = np.arange(12, dtype=float).reshape(6, 2)
    pq.write_table(pa.table({
        "a": X[:, 0], "s": pa.array([{"u": 1, "v": "x"}] * 6), "b": X[:, 1],
        "m": pa.array([[("k", 1)]] * 6, type=pa.map_(pa.string(), pa.int64())),
        "blob": pa.array([b"\xff\xfe" + bytes([i % 2]) for i in range(6)])}), path)
    return X


def test_parquet_nested_and_bytes_columns_are_left_out_with_a_note(tmp_path) -> None:
    """Struct and map columns (``unhashable type: 'dict'`` was a traceback) and a bytes
    column (``'utf-8' codec can't decode``, no column named) are left out, each named."""
    src = tmp_path / "n.parquet"
    X = _nested_parquet(src)
    table = read_table(src)
    assert table.feature_names == ["a", "b"]
    np.testing.assert_array_equal(table.X, X)
    assert table.read_notes == [
        "column(s) 's' (struct<u: int64, v: string>: nested values), 'm' (map<string, int64 "
        "('m')>: nested values), 'blob' (bytes) left out: not numbers nor text"]


def test_a_parquet_file_with_a_damaged_footer_is_one_error(tmp_path) -> None:
    """A damaged footer (thrift's ``TProtocolException``) is one error naming the file."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    src = tmp_path / "c.parquet"
    pq.write_table(pa.table({"a": [1.0, 2.0, 3.0], "b": [4.0, 5.0, 6.0]}), src)
    data = bytearray(src.read_bytes())
    data[-40:-8] = b"\x13" * 32
    src.write_bytes(bytes(data))
    with pytest.raises(UsageError, match=r"could not read '.*c\.parquet': not a readable "
                       r"Parquet file \(.*\); write it again$"):
        read_table(src)


def test_whole_numbers_beyond_64_bits_say_why_they_are_not_features(tmp_path) -> None:
    """A column of integers past 2**64 (pandas keeps them as Python ints) is left out with
    a reason that says so (it said only "not numeric")."""
    src = tmp_path / "big.csv"
    src.write_text("a,b\n" + "\n".join(f"{i}.5,{10**30 * (i % 3)}" for i in range(6)) + "\n")
    table = read_table(src)
    assert table.feature_names == ["a"]
    assert table.dropped_columns == {"b": "not numeric: whole numbers beyond 64 bits, e.g. "
                                          "1000000000000000000000000000000; "
                                          "write them with a decimal point or an exponent "
                                          "(1e30) to read them as numbers"}


def test_subnormal_features_are_one_error_naming_the_columns(tmp_path, capsys) -> None:
    """Features of subnormal numbers (1e-320), which the scalers leave unscaled: one error
    naming the column and --columns (it was the RBF width's error, naming neither)."""
    src = tmp_path / "s.csv"
    src.write_text("a,b\n" + "\n".join(f"{i}.5,{1e-320 * (i % 5)}" for i in range(30)) + "\n")
    code = main(["--quiet", "cluster", str(src), "--method", "kernel-kmeans", "--n-clusters",
                 "2", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "feature column(s) ['b'] vary by less than 1e-154 even after --scale minmax" in err
    assert "--columns" in err


def test_a_folder_of_parquet_parts_read_here_names_scheduler(tmp_path) -> None:
    """A partitioned Parquet folder given to the local reader: the error says that such a
    folder is read with --scheduler."""
    import pandas as pd

    parts = tmp_path / "parts"
    parts.mkdir()
    pd.DataFrame({"a": [1.0, 2.0]}).to_parquet(parts / "p0.parquet")
    with pytest.raises(UsageError, match=r"parts' is a folder, not a file; a folder of Parquet "
                       r"parts is read on a Dask cluster: pass --scheduler ADDRESS$"):
        read_table(parts)
