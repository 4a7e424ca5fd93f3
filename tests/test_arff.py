"""The ARFF reader: Weka's conventions, the mirror files, and errors that say what to fix."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from uci_mirror import mirror_dir  # noqa: E402 - tools/ is on sys.path (conftest)

from redecorate.data import (
    ArffContent,
    ArffError,
    DatasetError,
    load_arff,
    load_registry,
    read_arff,
    to_dataset,
)

REPO = Path(__file__).resolve().parents[1]


MIRROR = mirror_dir()
needs_mirror = pytest.mark.skipif(MIRROR is None, reason="ARFF mirror ../shared/datasets/uci not found")


def write(tmp_path: Path, text: str, name: str = "t.arff") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


WEATHER = """% the classic toy data
@relation weather
@attribute outlook {sunny, overcast, rainy}
@attribute temperature numeric
@attribute windy {TRUE, FALSE}
@attribute play {yes, no, maybe}   % 'maybe' never occurs
@data
sunny,85,FALSE,no
overcast,83,FALSE,yes
rainy,?,TRUE,no
? ,70, TRUE ,yes
"""


# -- the mirror ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def mirror_contents() -> dict[str, ArffContent]:
    """Every mirror file parsed once (the reader's speed is measured by
    ``benchmarks/arff_read.py``, not here: the suite shares the machine with other work)."""
    if MIRROR is None:
        pytest.skip("ARFF mirror ../shared/datasets/uci not found")
    return {path.name: read_arff(path) for path in sorted(MIRROR.glob("*.arff"))}


def test_every_mirror_file_parses(mirror_contents) -> None:
    assert len(mirror_contents) >= 37
    for content in mirror_contents.values():
        assert content.columns and len(content.lines) > 0


def test_every_registry_file_parses_with_the_recorded_counts(mirror_contents) -> None:
    reg = load_registry(REPO / "config/datasets.yaml")
    checked = 0
    for entry in reg.values():
        if entry.file is None:
            continue
        content = mirror_contents[entry.file]
        ds = to_dataset(content, entry.class_attribute, name=entry.name)
        ds.check(entry.instances, entry.classes, entry.attributes)
        assert content.sha256 == entry.sha256
        checked += 1
    assert checked >= 37


@needs_mirror
def test_wine_has_its_class_first() -> None:
    ds = load_arff(MIRROR / "wine.arff", "class")
    assert ds.class_name == "class"
    assert list(ds.y.cat.categories) == ["1", "2", "3"]
    assert "class" not in ds.X.columns and ds.X.shape == (178, 13)
    by_index = load_arff(MIRROR / "wine.arff", 0)
    assert by_index.y.equals(ds.y)


@needs_mirror
def test_anneal_keeps_quoted_question_mark_as_a_value_and_single_valued_attributes() -> None:
    anneal = load_arff(MIRROR / "anneal.arff")
    assert "?" in anneal.X["family"].cat.categories
    assert anneal.X["family"].notna().all()  # quoted '?' is a value in Weka, not missing
    sick = load_arff(MIRROR / "sick.arff")
    assert list(sick.X["TBG measured"].cat.categories) == ["f"]


# -- types, domains, missing values ---------------------------------------------------------
def test_categories_keep_declared_order_and_unused_values(tmp_path: Path) -> None:
    ds = load_arff(write(tmp_path, WEATHER))
    assert list(ds.X["outlook"].cat.categories) == ["sunny", "overcast", "rainy"]
    assert list(ds.y.cat.categories) == ["yes", "no", "maybe"]
    assert ds.n_classes == 2
    assert ds.class_counts.to_dict() == {"yes": 2, "no": 2, "maybe": 0}
    assert ds.X["temperature"].dtype == np.float64
    assert ds.nominal_attributes == ["outlook", "windy"]
    assert ds.numeric_attributes == ["temperature"]


def test_missing_values_become_nan(tmp_path: Path) -> None:
    ds = load_arff(write(tmp_path, WEATHER))
    assert np.isnan(ds.X["temperature"][2])
    assert pd.isna(ds.X["outlook"][3])
    assert ds.X["windy"][3] == "TRUE"  # surrounding spaces are not part of a value


def test_rows_with_missing_class_are_dropped_and_counted(tmp_path: Path) -> None:
    text = WEATHER + "rainy,60,TRUE,?\n"
    ds = load_arff(write(tmp_path, text))
    assert ds.n_instances == 4
    assert ds.n_missing_class_dropped == 1
    assert any("missing class" in n for n in ds.notes)


def test_quoted_names_and_values_with_spaces_commas_and_escapes(tmp_path: Path) -> None:
    text = """@RELATION 'quoted, relation'
@ATTRIBUTE 'the colour' {'light blue', "dark, red", 'it\\'s', plain}
@Attribute "size (cm)" REAL
@attribute class {'a b', c}
@DATA
'light blue', 1.5, 'a b'
"dark, red",2,c
'it\\'s',3,'a b' % trailing comment
plain,'4',c
'%not a comment',5,c
"""
    path = write(tmp_path, text.replace("'%not a comment'", "plain"))
    ds = load_arff(path)
    assert list(ds.X.columns) == ["the colour", "size (cm)"]
    assert list(ds.X["the colour"].cat.categories) == ["light blue", "dark, red", "it's", "plain"]
    assert ds.X["the colour"].tolist() == ["light blue", "dark, red", "it's", "plain", "plain"]
    assert ds.X["size (cm)"].tolist() == [1.5, 2.0, 3.0, 4.0, 5.0]
    assert ds.y.tolist() == ["a b", "c", "a b", "c", "c"]


def test_percent_inside_quotes_is_data(tmp_path: Path) -> None:
    text = "@relation r\n@attribute a {'50%', other}\n@attribute c {x, y}\n@data\n'50%',x\nother,y\n"
    ds = load_arff(write(tmp_path, text))
    assert ds.X["a"].tolist() == ["50%", "other"]


def test_sparse_rows_fill_zero_and_first_value(tmp_path: Path) -> None:
    text = """@relation sparse
@attribute x1 numeric
@attribute x2 numeric
@attribute colour {red, green}
@attribute class {A, B}
@data
{0 1.5, 3 B}
{1 ?, 2 green, 3 'A'}
{}
"""
    ds = load_arff(write(tmp_path, text + "{3 B}\n"))
    assert ds.X["x1"].tolist() == [1.5, 0.0, 0.0, 0.0]
    assert np.isnan(ds.X["x2"][1]) and ds.X["x2"][0] == 0.0
    assert ds.X["colour"].tolist() == ["red", "green", "red", "red"]
    assert ds.y.tolist() == ["B", "A", "A", "B"]


def test_instance_weights_are_kept(tmp_path: Path) -> None:
    text = """@relation w
@attribute x numeric
@attribute class {A, B}
@data
1, A, {0.5}
2, B
{0 3, 1 B}, {2}
"""
    ds = load_arff(write(tmp_path, text))
    assert ds.weights is not None
    assert ds.weights.tolist() == [0.5, 1.0, 2.0]
    assert ds.X["x"].tolist() == [1.0, 2.0, 3.0]


def test_string_attributes_are_dropped_with_a_note(tmp_path: Path) -> None:
    text = "@relation s\n@attribute id string\n@attribute x numeric\n@attribute c {a,b}\n@data\n'row one',1,a\nrow2,2,b\n"
    ds = load_arff(write(tmp_path, text))
    assert list(ds.X.columns) == ["x"]
    assert any("string attribute 'id'" in n for n in ds.notes)


def test_weka_integer_ranges_are_ignored(tmp_path: Path) -> None:
    text = "@relation r\n@attribute legs INTEGER [0,9]\n@attribute c {a,b}\n@data\n4,a\n2,b\n"
    assert load_arff(write(tmp_path, text)).X["legs"].tolist() == [4.0, 2.0]


def test_class_attribute_by_name_index_and_default(tmp_path: Path) -> None:
    path = write(tmp_path, WEATHER)
    assert load_arff(path).class_name == "play"
    assert load_arff(path, "windy").class_name == "windy"
    assert load_arff(path, "WINDY").class_name == "windy"  # unique case-insensitive match
    assert load_arff(path, -2).class_name == "windy"
    assert load_arff(path, 0).class_name == "outlook"


# -- errors ---------------------------------------------------------------------------------
def _error(tmp_path: Path, text: str, class_attribute: str | int | None = None) -> str:
    path = write(tmp_path, text, "bad_file.arff")
    with pytest.raises(ArffError) as info:
        load_arff(path, class_attribute)
    message = str(info.value)
    assert "bad_file.arff" in message and "fix:" in message
    return message


HEADER = "@relation r\n@attribute outlook {sunny, overcast, rainy}\n@attribute x numeric\n@attribute c {a, b}\n@data\n"


def test_error_value_not_in_domain_names_line_attribute_and_domain(tmp_path: Path) -> None:
    msg = _error(tmp_path, HEADER + "sunny,1,a\nxyz,2,b\n")
    assert "bad_file.arff:7:" in msg
    assert "value 'xyz' not in the declared domain of attribute 'outlook' {sunny, overcast, rainy}" in msg
    assert "line 2" in msg  # where to add the value


def test_error_quoted_question_mark_explains_missing_syntax(tmp_path: Path) -> None:
    msg = _error(tmp_path, HEADER + "'?',1,a\n")
    assert ":6:" in msg and "unquoted ? means missing" in msg


def test_error_wrong_number_of_values(tmp_path: Path) -> None:
    msg = _error(tmp_path, HEADER + "sunny,1,a\nsunny,1\n")
    assert ":7:" in msg and "row has 2 values but the header declares 3 attributes" in msg


def test_error_unquoted_comma_in_value_is_a_count_mismatch(tmp_path: Path) -> None:
    msg = _error(tmp_path, HEADER + "sunny,1,a,b\n")
    assert ":6:" in msg and "quote values that contain commas" in msg


def test_error_unknown_type(tmp_path: Path) -> None:
    msg = _error(tmp_path, "@relation r\n@attribute x numerc\n@attribute c {a,b}\n@data\n1,a\n")
    assert ":2:" in msg and "unknown type 'numerc' for attribute 'x'" in msg


def test_error_date_is_unsupported(tmp_path: Path) -> None:
    msg = _error(tmp_path, "@relation r\n@attribute d date 'yyyy-MM-dd'\n@attribute c {a,b}\n@data\n")
    assert ":2:" in msg and "type date" in msg and "convert it" in msg


def test_error_not_a_number(tmp_path: Path) -> None:
    msg = _error(tmp_path, HEADER + "sunny,1,a\nrainy,1.2.3,b\n")
    assert ":7:" in msg and "value '1.2.3' of numeric attribute 'x' is not a number" in msg


def test_error_unterminated_quote_in_data_and_header(tmp_path: Path) -> None:
    msg = _error(tmp_path, HEADER + "'sunny,1,a\n")
    assert ":6:" in msg and "malformed value" in msg
    msg = _error(tmp_path, "@relation r\n@attribute 'x numeric\n@data\n")
    assert ":2:" in msg and "unterminated quote" in msg


def test_error_structure(tmp_path: Path) -> None:
    assert "no @data section" in _error(tmp_path, "@relation r\n@attribute x numeric\n")
    msg = _error(tmp_path, "@relation r\n@attribute x numeric\n@attribute x {a,b}\n@data\n")
    assert ":3:" in msg and "declared twice" in msg
    msg = _error(tmp_path, "@relation r\n@attribute c {a, b, a}\n@data\n")
    assert ":2:" in msg and "'a' is declared twice" in msg
    msg = _error(tmp_path, "@relation r\n@attribute c {a, b\n@data\n")
    assert ":2:" in msg and "unterminated nominal domain" in msg
    msg = _error(tmp_path, "@relation r\nattribute c {a, b}\n@data\n")
    assert ":2:" in msg and "unexpected header line" in msg
    msg = _error(tmp_path, HEADER + "sunny,,a\n")
    assert ":6:" in msg and "empty value" in msg


def test_error_sparse_index_out_of_range(tmp_path: Path) -> None:
    msg = _error(tmp_path, HEADER + "{0 sunny, 7 a}\n")
    assert ":6:" in msg and "sparse index 7 is out of range" in msg


def test_error_numeric_class_and_unknown_class_name(tmp_path: Path) -> None:
    assert "class attribute 'x' is numeric" in _error(tmp_path, HEADER + "sunny,1,a\n", "x")
    assert "no attribute named 'nope'" in _error(tmp_path, HEADER + "sunny,1,a\n", "nope")


def test_single_class_dataset_is_rejected(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + "sunny,1,a\nrainy,2,a\n", "one_class.arff")
    with pytest.raises(DatasetError) as info:
        load_arff(path)
    msg = str(info.value)
    assert "dataset 'one_class' has a single class 'a'" in msg
    assert "classification needs at least two" in msg
    assert "class_attribute in config/datasets.yaml" in msg
    assert load_arff(path, check=False).n_classes == 1


def test_missing_file_is_an_arff_error(tmp_path: Path) -> None:
    with pytest.raises(ArffError, match="file not found"):
        load_arff(tmp_path / "absent.arff")


def test_a_quoted_brace_or_percent_in_a_sparse_row_is_data(tmp_path: Path) -> None:
    text = ("@relation r\n@attribute a {'x}y', 'p%q', z}\n@attribute c {u, v}\n@data\n"
            "{0 'x}y', 1 v} % comment\n{0 'p%q'}\n")  # fmt: skip
    ds = load_arff(write(tmp_path, text))
    assert ds.X["a"].tolist() == ["x}y", "p%q"]
    assert ds.y.tolist() == ["v", "u"]
