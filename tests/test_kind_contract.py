"""What every experiment kind keeps consistent: its schema, its settings, its files, the guide.

A kind declares its YAML keys twice: as the JSON-schema fragment that validates a file
(``schema``) and as the :class:`~redecorate.protocol.settings.KindSettings` dataclass that
jobs and reports read (``settings``, defaults filled when the file is read). The two must
name the same keys with the same defaults, or a key the schema accepts is refused (or
silently dropped) when the settings are built. Checked for every registered kind
(:data:`redecorate.kinds.KINDS`) and for the toy kind of ``tests/kinds``; every experiment
file of ``config/experiments/`` must load into its kind's settings at every scale; and the
guide ``docs/adding-an-experiment-kind.md`` names every registered kind.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from redecorate.config import load_yaml
from redecorate.experiments import load_experiment
from redecorate.kinds import KINDS, ExperimentKind, KindSettings, get_kind

REPO = Path(__file__).resolve().parents[1]
SCHEMA = REPO / "workflow" / "schemas" / "experiment.schema.yaml"
GUIDE = REPO / "docs" / "adding-an-experiment-kind.md"
KIND_DIR = Path(__file__).resolve().parent / "kinds"
TOY = "majority_kind:MAJORITY"
EXPERIMENT_FILES = sorted((REPO / "config" / "experiments").glob("*.yaml"))


def _kind(name: str) -> ExperimentKind:
    if name == TOY and str(KIND_DIR) not in sys.path:
        sys.path.insert(0, str(KIND_DIR))
    return get_kind(name)


def _plain(value: Any) -> Any:
    """Tuples as lists and mappings as dicts, so a dataclass default compares with YAML's."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


KIND_NAMES = [*KINDS, TOY]


@pytest.mark.parametrize("name", KIND_NAMES)
def test_schema_keys_are_the_settings_fields(name: str) -> None:
    kind = _kind(name)
    assert issubclass(kind.settings, KindSettings) and dataclasses.is_dataclass(kind.settings)
    keys = set(kind.schema.get("properties", {})) - {kind.points_key}
    assert keys == set(kind.settings.names()), (
        f"kind {name!r}: schema keys without a settings field: {sorted(keys - set(kind.settings.names()))}; "
        f"settings fields without a schema key: {sorted(set(kind.settings.names()) - keys)}"
    )


@pytest.mark.parametrize("name", KIND_NAMES)
def test_schema_defaults_are_the_settings_defaults(name: str) -> None:
    kind = _kind(name)
    defaults = kind.settings.defaults()
    schema_defaults = {key: prop["default"] for key, prop in kind.schema.get("properties", {}).items()
                       if isinstance(prop, Mapping) and "default" in prop}  # fmt: skip
    both = sorted(set(defaults) & set(schema_defaults))
    assert {k: _plain(defaults[k]) for k in both} == {k: _plain(schema_defaults[k]) for k in both}


@pytest.mark.parametrize("name", KIND_NAMES)
def test_a_setting_without_a_default_is_required_by_the_schema(name: str) -> None:
    """Otherwise a file that leaves it out passes validation and fails building the settings."""
    kind = _kind(name)
    without_default = set(kind.settings.names()) - set(kind.settings.defaults())
    assert without_default <= set(kind.schema.get("required", []))


@pytest.mark.parametrize("name", KIND_NAMES)
def test_profile_and_pilot_keys_are_keys_of_the_kind(name: str) -> None:
    kind = _kind(name)
    own = set(kind.schema.get("properties", {}))
    assert set(kind.schema.get("profile_properties", {})) <= own
    assert set(kind.pilot_keys) <= set(kind.schema.get("profile_properties", {}))


@pytest.mark.parametrize("path", EXPERIMENT_FILES, ids=[p.stem for p in EXPERIMENT_FILES])
def test_every_experiment_file_loads_into_its_kind_settings(path: Path) -> None:
    raw = load_yaml(path)
    kind = get_kind(str(raw.get("kind", "passive")))
    for scale in ["thesis", *(raw.get("profiles") or {})]:
        spec = load_experiment(path, schema=SCHEMA, scale=scale)
        assert isinstance(spec.settings, kind.settings), (path.name, scale, type(spec.settings))
        assert get_kind(spec.kind) is kind
        assert kind.job_settings(spec).options is spec.settings


def test_the_guide_names_every_registered_kind() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    missing = [name for name in KINDS if f"`{name}`" not in text]
    assert not missing, f"{GUIDE.name} does not name the kinds {missing}"


def test_the_guide_counts_the_toy_kind_right() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    lines = len((KIND_DIR / "majority_kind.py").read_text(encoding="utf-8").splitlines())
    said = re.findall(r"majority_kind\.py`[^.]*?(\d+) lines", text)
    assert said and all(int(n) == lines for n in said), (said, lines)
