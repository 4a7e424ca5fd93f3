"""The dataset registry, config validation, bundled/CSV sources and prepared files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from uci_mirror import mirror_dir  # noqa: E402 - tools/ is on sys.path (conftest)

from redecorate.config import ConfigError, load_yaml_validated
from redecorate.data import (
    Dataset,
    DatasetError,
    RegistryError,
    load_arff,
    load_bundled,
    load_dataset,
    load_prepared,
    load_registry,
    save_prepared,
)

REPO = Path(__file__).resolve().parents[1]
REGISTRY = REPO / "config/datasets.yaml"
SCHEMA = REPO / "workflow/schemas/datasets.schema.yaml"


MIRROR = mirror_dir()
needs_mirror = pytest.mark.skipif(MIRROR is None, reason="ARFF mirror ../shared/datasets/uci not found")

TABLE_4_1 = ["anneal", "audio", "autos", "breast-w", "credit-a", "glass", "heart-c", "hepatitis",
             "colic", "iris", "labor", "lymph", "segment", "soybean", "splice"]
TABLE_4_6 = ["audio", "anneal", "colic", "balance-scale", "credit-g", "pima-diabetes", "glass",
             "heart-c", "heart-h", "credit-a", "autos", "kr-vs-kp", "labor", "lymph", "mushroom",
             "sonar", "soybean", "splice", "vehicle", "vote", "vowel", "breast-y", "breast-w",
             "heart-statlog", "hepatitis", "hypothyroid", "ionosphere", "iris", "primary-tumor",
             "segment", "sick", "waveform", "zoo"]


@pytest.fixture(scope="module")
def registry():
    return load_registry(REGISTRY)


def write_registry(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "datasets.yaml"
    path.write_text(body, encoding="utf-8")
    return path


# -- the registry file ---------------------------------------------------------------------
def test_registry_covers_the_dissertation(registry) -> None:
    for name in TABLE_4_1:
        assert name in registry.entries, name
        assert registry[name].file and registry[name].openml_id
    assert len(TABLE_4_6) == 33
    for label in TABLE_4_6 + ["Statlog", "Primary", "hypo", "ion", "balance-s", "Breast-w", "kr-vs-kr"]:
        assert label in registry, label
    for name in ("sk-iris", "sk-wine", "sk-breast-cancer", "car", "nursery", "optdigits", "wine"):
        assert name in registry.entries
    assert registry["wine"].class_attribute == "class"
    assert registry["audio"].file == "audiology.arff" and registry["audio"].classes == 24


def test_labels_resolve_case_insensitively(registry) -> None:
    assert registry.resolve("Breast-w").name == "breast-w"
    assert registry.resolve("hypo").name == "hypothyroid"
    assert registry.resolve("pima-diabetes").name == "diabetes"
    assert registry.get("nope") is None


def test_unknown_name_lists_close_matches_and_the_file(registry) -> None:
    with pytest.raises(RegistryError) as info:
        registry.resolve("anneel")
    msg = str(info.value)
    assert "unknown dataset 'anneel'" in msg and "anneal" in msg
    assert "datasets.yaml" in msg
    with pytest.raises(RegistryError, match="Did you mean .*breast-w"):
        load_dataset("breast_w", registry=registry)


@needs_mirror
def test_load_dataset_from_the_mirror_checks_sizes(registry) -> None:
    ds = load_dataset("Breast-w", registry=registry, mirror=MIRROR)
    assert ds.name == "breast-w" and ds.n_instances == 699 and ds.n_classes == 2
    assert "local mirror" in ds.source and ds.sha256 == registry["breast-w"].sha256
    wine = load_dataset("wine", registry=registry, mirror=MIRROR)
    assert wine.class_name == "class" and wine.n_classes == 3


@needs_mirror
def test_declared_inputs_are_the_networks_inputs_of_the_data(registry) -> None:
    """``inputs`` (default: one per attribute) prices networks: it must be what the MLP's
    nominal-to-binary makes of each dataset the mirror, a generator or scikit-learn gives."""
    from redecorate.learners.features import FeatureSchema
    from redecorate.learners.mlp import network_inputs

    checked = 0
    for name, entry in registry.entries.items():
        if entry.needs_network:
            continue
        data = load_dataset(name, registry=registry, mirror=MIRROR)
        declared = entry.inputs or entry.attributes
        assert declared == network_inputs(FeatureSchema.from_input(data.X)), name
        checked += 1
    assert checked >= 40


@needs_mirror
def test_heart_c_keeps_its_declared_classes_and_heart_c_2_only_the_present_ones(registry) -> None:
    """Weka's numClasses counts declared values: heart-c stays 5-class for chapters 4-6, and
    chapter 7's binary heart-c is the entry that drops the 3 classes without instances."""
    whole = load_dataset("heart-c", registry=registry, mirror=MIRROR)
    binary = load_dataset("heart-c-2", registry=registry, mirror=MIRROR)
    assert len(whole.y.cat.categories) == 5
    assert list(binary.y.cat.categories) == list(whole.y.cat.categories[:2])
    pd.testing.assert_series_equal(binary.y.astype(str), whole.y.astype(str))
    pd.testing.assert_frame_equal(binary.X, whole.X)
    assert any("dropped: >50_2, >50_3, >50_4" in note for note in binary.notes)


@needs_mirror
def test_size_mismatch_and_checksum_mismatch_name_the_fix(tmp_path: Path) -> None:
    reg = load_registry(write_registry(tmp_path, """
datasets:
  iris:
    file: iris.arff
    instances: 151
    classes: 3
"""), schema_path=SCHEMA)
    with pytest.raises(DatasetError) as info:
        load_dataset("iris", registry=reg, mirror=MIRROR)
    msg = str(info.value)
    assert "has 150 instances, expected 151" in msg and "'instances'" in msg
    reg = load_registry(write_registry(tmp_path, f"""
datasets:
  iris:
    file: iris.arff
    instances: 150
    classes: 3
    sha256: "{'0' * 64}"
"""), schema_path=SCHEMA)
    with pytest.raises(DatasetError, match="sha256 .* registry pins"):
        load_dataset("iris", registry=reg, mirror=MIRROR)


def test_mirror_only_entry_without_mirror_says_how_to_work_offline(tmp_path: Path) -> None:
    reg = load_registry(write_registry(tmp_path, "datasets:\n  x:\n    file: x.arff\n    instances: 3\n    classes: 2\n"),
                        schema_path=SCHEMA)
    with pytest.raises(RegistryError, match="data_mirror=../shared/datasets/uci"):
        load_dataset("x", registry=reg)


def test_local_arff_path_entry_with_drop_attributes(tmp_path: Path) -> None:
    arff = tmp_path / "toy.arff"
    arff.write_text("@relation t\n@attribute id {r1,r2,r3}\n@attribute x numeric\n@attribute c {a,b}\n"
                    "@data\nr1,1,a\nr2,2,b\nr3,3,a\n")
    reg = load_registry(write_registry(tmp_path, f"""
datasets:
  toy:
    path: {arff}
    drop_attributes: [id]
    instances: 3
    classes: 2
    attributes: 1
"""), schema_path=SCHEMA)
    ds = load_dataset("toy", registry=reg)
    assert list(ds.X.columns) == ["x"] and any("dropped attributes" in n for n in ds.notes)


# -- config validation ---------------------------------------------------------------------
def test_schema_error_names_file_line_and_key_path(tmp_path: Path) -> None:
    path = write_registry(tmp_path, """datasets:
  anneal:
    openml_id: two
    instances: 898
    classes: 5
""")
    with pytest.raises(ConfigError) as info:
        load_registry(path, schema_path=SCHEMA)
    msg = str(info.value)
    assert f"{path}:3: datasets.anneal.openml_id: 'two' is not of type 'integer'" in msg
    assert "fix:" in msg


def test_schema_errors_for_missing_keys_and_sources(tmp_path: Path) -> None:
    path = write_registry(tmp_path, "datasets:\n  a:\n    file: a.arff\n    classes: 1\n  b:\n    instances: 3\n    classes: 2\n")
    with pytest.raises(ConfigError) as info:
        load_registry(path, schema_path=SCHEMA)
    msg = str(info.value)
    assert "datasets.a: 'instances' is a required property" in msg
    assert "datasets.a.classes: 1 is less than the minimum of 2" in msg
    assert "datasets.b: expected one of: 'file'" in msg and "'openml_id'" in msg


def test_yaml_syntax_error_and_duplicate_key_report_the_line(tmp_path: Path) -> None:
    path = write_registry(tmp_path, "datasets:\n  a:\n    instances: [1, 2\n    classes: 2\n")
    with pytest.raises(ConfigError, match=r"datasets\.yaml:\d+:\d+: YAML syntax error"):
        load_yaml_validated(path, SCHEMA)
    path = write_registry(tmp_path, "datasets:\n  a:\n    file: a.arff\n    instances: 3\n    classes: 2\n"
                          "  a:\n    file: b.arff\n    instances: 3\n    classes: 2\n")
    with pytest.raises(ConfigError, match=r"datasets\.yaml:6:\d+: .*duplicate key 'a'"):
        load_yaml_validated(path, SCHEMA)


def test_schema_defaults_are_filled_on_request(tmp_path: Path) -> None:
    schema = tmp_path / "s.yaml"
    schema.write_text("type: object\nproperties:\n  runs: {type: integer, default: 10}\n"
                      "  scale: {enum: [quick, thesis], default: thesis}\n")
    config = tmp_path / "c.yaml"
    config.write_text("runs: 2\n")
    assert load_yaml_validated(config, schema) == {"runs": 2}
    assert load_yaml_validated(config, schema, fill_defaults=True) == {"runs": 2, "scale": "thesis"}
    config.write_text("")
    assert load_yaml_validated(config, schema, fill_defaults=True) == {"runs": 10, "scale": "thesis"}


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="file not found"):
        load_yaml_validated(tmp_path / "absent.yaml", SCHEMA)


def test_label_collisions_are_rejected(tmp_path: Path) -> None:
    path = write_registry(tmp_path, "datasets:\n  a:\n    file: a.arff\n    aliases: [B]\n    instances: 3\n"
                          "    classes: 2\n  b:\n    file: b.arff\n    instances: 3\n    classes: 2\n")
    with pytest.raises(RegistryError, match="label 'b' of dataset 'b' also names dataset 'a'"):
        load_registry(path, schema_path=SCHEMA)


# -- bundled and CSV sources ---------------------------------------------------------------
@pytest.mark.parametrize(("name", "n", "k", "d"), [("sk-iris", 150, 3, 4), ("sk-wine", 178, 3, 13),
                                                   ("sk-breast-cancer", 569, 2, 30)])
def test_sklearn_bundled_sources(registry, name: str, n: int, k: int, d: int) -> None:
    ds = load_dataset(name, registry=registry)
    assert (ds.n_instances, ds.n_classes, ds.X.shape[1]) == (n, k, d)
    assert all(dt == np.float64 for dt in ds.X.dtypes)
    assert isinstance(ds.y.dtype, pd.CategoricalDtype)
    assert "scikit-learn" in ds.source


def test_bundled_iris_target_names() -> None:
    ds = load_bundled("iris")
    assert list(ds.y.cat.categories) == ["setosa", "versicolor", "virginica"]
    with pytest.raises(DatasetError, match="choose one of iris, wine, breast_cancer"):
        load_bundled("digits")


def test_csv_source_via_registry(tmp_path: Path) -> None:
    csv = tmp_path / "toy.csv"
    csv.write_text("colour,size,label\nred,1.5,10\nblue,?,2\nred,3,2\ngreen,4,?\n")
    reg = load_registry(write_registry(tmp_path, f"""
datasets:
  toy:
    path: {csv}
    class_attribute: label
    instances: 3
    classes: 2
"""), schema_path=SCHEMA)
    ds = load_dataset("toy", registry=reg)
    assert list(ds.y.cat.categories) == ["2", "10"]  # numeric labels in numeric order
    assert list(ds.X["colour"].cat.categories) == ["blue", "green", "red"]
    assert ds.X["size"].dtype == np.float64 and np.isnan(ds.X["size"][1])
    assert ds.n_missing_class_dropped == 1


# -- prepared datasets ---------------------------------------------------------------------
def _toy_dataset() -> Dataset:
    X = pd.DataFrame({
        "outlook": pd.Categorical(["rainy", None, "sunny"], categories=["sunny", "overcast", "rainy"]),
        "temp": [1.0, np.nan, 3.5],
    })
    y = pd.Series(pd.Categorical(["no", "yes", "no"], categories=["yes", "no", "maybe"]), name="play")
    return Dataset("toy", X, y, source="unit test", sha256="ab" * 32, n_missing_class_dropped=2,
                   notes=("a note",), weights=np.array([1.0, 2.0, 0.5]))


def test_prepared_round_trip_preserves_categories_and_metadata(tmp_path: Path) -> None:
    ds = _toy_dataset()
    path = save_prepared(ds, tmp_path / "prepared" / "toy.parquet")
    assert path.is_file() and path.with_suffix(".json").is_file()
    back = load_prepared(path)
    pd.testing.assert_frame_equal(back.X, ds.X)
    pd.testing.assert_series_equal(back.y, ds.y)
    assert (back.name, back.source, back.sha256, back.n_missing_class_dropped, back.notes) == (
        "toy", "unit test", "ab" * 32, 2, ("a note",))
    assert back.weights is not None and back.weights.tolist() == [1.0, 2.0, 0.5]
    # parquet itself keeps the declared order, unused values included
    raw = pq.read_table(path).to_pandas()
    assert list(raw["outlook"].cat.categories) == ["sunny", "overcast", "rainy"]
    assert list(raw["__class__"].cat.categories) == ["yes", "no", "maybe"]
    meta = json.loads(path.with_suffix(".json").read_text())
    assert meta["name"] == "toy" and meta["sha256"] == "ab" * 32


@needs_mirror
def test_prepared_round_trip_of_a_real_dataset(tmp_path: Path) -> None:
    ds = load_arff(MIRROR / "anneal.arff", name="anneal")
    back = load_prepared(save_prepared(ds, tmp_path / "anneal.parquet"))
    pd.testing.assert_frame_equal(back.X, ds.X)
    pd.testing.assert_series_equal(back.y, ds.y)


def test_load_prepared_without_sidecar(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="sidecar"):
        load_prepared(tmp_path / "nothing.parquet")
