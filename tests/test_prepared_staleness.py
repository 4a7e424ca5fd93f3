"""What the prepared copy of a dataset depends on (:mod:`redecorate.data.staleness`): the
parameter of rule ``prepare_dataset`` changes exactly when the data's source or the entry's
data fields change, never for a mirror/download switch or a note; data prepared before
sidecars recorded their source keeps an unrecorded parameter while its file is unchanged (so
finished runs are not recomputed); the declared sizes are compared with prepared data that
stays in use; a missing or changed local file fails naming the registry used."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from redecorate.data import DatasetError, load_dataset, load_registry, save_prepared
from redecorate.data.staleness import UNRECORDED, prepared_source_param

REPO = Path(__file__).resolve().parents[1]
SCHEMA = REPO / "workflow" / "schemas" / "datasets.schema.yaml"
MIRROR = (REPO / ".." / "shared" / "datasets" / "uci").resolve()
TABLE = "a,b,label\n1,x,yes\n2,y,no\n3,x,yes\n4,y,no\n5,x,no\n"


def _registry(tmp_path: Path, **entry: object) -> Path:
    base = {"source": "csv", "path": str(tmp_path / "t.csv"), "instances": 5, "classes": 2, "attributes": 2}
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump({"datasets": {"t": {**base, **entry}}}), encoding="utf-8")
    return path


def _param(tmp_path: Path, mirror: Path | None = None) -> object:
    registry = load_registry(tmp_path / "mine.yaml", schema_path=SCHEMA)
    return prepared_source_param("t", registry, mirror=mirror, prepared=tmp_path / "prepared" / "t.parquet")


def _prepare(tmp_path: Path, *, legacy: bool = False) -> None:
    dataset = load_dataset("t", registry=load_registry(tmp_path / "mine.yaml", schema_path=SCHEMA))
    if legacy:  # as the workflow wrote it before sidecars recorded their source
        dataset.source_fingerprint = None
    (tmp_path / "prepared").mkdir(exist_ok=True)
    save_prepared(dataset, tmp_path / "prepared" / "t.parquet")


@pytest.fixture
def table(tmp_path: Path) -> Path:
    (tmp_path / "t.csv").write_text(TABLE, encoding="utf-8")
    _registry(tmp_path)
    return tmp_path


def test_the_parameter_follows_the_file_and_the_entrys_data_fields(table: Path) -> None:
    before = _param(table)
    _prepare(table)
    assert _param(table) == before, "preparing must not change the parameter it was prepared under"
    _registry(table, note="a note", aliases=["tee"])
    assert _param(table) == before, "a note or an alias does not change the data"
    _registry(table, class_attribute="b")
    assert _param(table) != before
    registry = _registry(table)
    (table / "t.csv").write_text(TABLE + "6,y,yes\n", encoding="utf-8")
    # the edited file is read before it is prepared again: its sixth row against the entry's 5
    with pytest.raises(DatasetError, match=rf"has 6 instances, expected 5 .*'instances' for 't' in {registry}"):
        _param(table)
    _registry(table, instances=6)
    assert _param(table) != before
    assert json.loads(str(_param(table)))["file_sha256"] != json.loads(str(before))["file_sha256"]


def test_an_entry_whose_sizes_no_longer_match_fails_while_the_data_stays(table: Path) -> None:
    _prepare(table)
    registry = _registry(table, instances=6)
    with pytest.raises(DatasetError, match=rf"has 5 instances, but {registry} declares instances: 6"):
        _param(table)
    # With the data changed too, the copy will be prepared again: no complaint now (the
    # preparation checks the new data).
    (table / "t.csv").write_text(TABLE + "6,y,yes\n", encoding="utf-8")
    assert isinstance(_param(table), str)


def test_data_prepared_before_sidecars_recorded_their_source(table: Path) -> None:
    _prepare(table, legacy=True)
    assert _param(table) is UNRECORDED, "an unchanged file must not rerun a finished run's jobs"
    registry = _registry(table, classes=3)
    with pytest.raises(DatasetError, match=rf"has 2 classes, but {registry} declares classes: 3"):
        _param(table)
    _registry(table, instances=6)
    (table / "t.csv").write_text(TABLE + "6,y,yes\n", encoding="utf-8")
    assert isinstance(_param(table), str), "an edited file must be prepared again"


def test_a_missing_or_changed_file_names_the_registry_used(table: Path) -> None:
    registry = _registry(table, path="elsewhere/t.csv")
    with pytest.raises(DatasetError, match=rf"t.csv not found \(key 'path' of 't' in {registry}"):
        _param(table)
    registry = _registry(table, sha256="0" * 64)
    with pytest.raises(DatasetError, match=rf"but {registry} pins 0{{64}} \(key 'sha256' of 't'\)"):
        _param(table)


def test_load_dataset_names_the_registry_it_loaded_from(table: Path) -> None:
    registry = _registry(table, class_attribute="c")
    with pytest.raises(DatasetError) as info:
        load_dataset("t", registry=load_registry(registry, schema_path=SCHEMA))
    assert str(registry) in str(info.value) and "config/datasets.yaml" not in str(info.value)


@pytest.mark.skipif(not (MIRROR / "iris.arff").is_file(), reason=f"ARFF mirror not found at {MIRROR}")
def test_a_mirror_and_a_download_of_a_pinned_file_are_the_same_source() -> None:
    registry = load_registry(REPO / "config" / "datasets.yaml")
    offline = prepared_source_param("iris", registry, mirror=MIRROR, prepared=Path("/nonexistent/iris.parquet"))
    online = prepared_source_param("iris", registry, mirror=None, prepared=Path("/nonexistent/iris.parquet"))
    assert offline == online


def test_a_mirror_without_the_file_is_left_to_the_preparation_job(tmp_path: Path) -> None:
    """The mirror is one directory on the command line: a file missing from it fails that
    dataset's preparation job (naming the mirror), so --keep-going still runs the others."""
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump({"datasets": {"t": {"source": "arff", "file": "t.arff", "instances": 5,
                                                       "classes": 2}}}), encoding="utf-8")  # fmt: skip
    registry = load_registry(path, schema_path=SCHEMA)
    (tmp_path / "mirror").mkdir()
    param = prepared_source_param("t", registry, mirror=tmp_path / "mirror", prepared=tmp_path / "t.parquet")
    assert json.loads(str(param))["file_sha256"] is None
    with pytest.raises(DatasetError, match=rf"not found in the mirror .*check 'file' for 't' in {path}"):
        load_dataset("t", registry=registry, mirror=tmp_path / "mirror")
