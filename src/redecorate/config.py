"""Loading YAML configuration files with JSON-schema validation and readable errors.

Every configuration file of the workflow (``config/*.yaml``, ``config/experiments/*.yaml``,
the dataset registry) goes through :func:`load_yaml_validated`, so a mistake in any of them
is reported the same way: the file, the line, the key path (``datasets.anneal.openml_id``)
and what the schema expected. A typo caught here costs seconds; caught inside a cluster
job it costs hours.

Two deliberate strictnesses beyond plain ``yaml.safe_load``:

* a key repeated in one mapping is an error (PyYAML silently keeps the last one, which would
  make a duplicated registry entry override the first without a word);
* an empty file is validated as ``{}`` so the schema's ``required`` list explains what is missing.
"""

from __future__ import annotations

import copy
import difflib
import json
import re
from collections.abc import Hashable, Iterable, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import yaml

__all__ = [
    "ConfigError",
    "ExperimentConfigError",
    "did_you_mean",
    "format_key_path",
    "load_yaml",
    "load_yaml_validated",
    "validate_mapping",
]

_MAX_REPORTED_ERRORS = 10


class ConfigError(ValueError):
    """A configuration file cannot be read, or does not match its schema."""


class ExperimentConfigError(ConfigError):
    """An experiment file or the workflow configuration is invalid; names file and key."""


# libyaml's parser where PyYAML was built with it (the wheels are): the same documents, nodes
# and marks as the pure-Python parser at a tenth of its CPU, which is most of the time the
# workflow spends reading its experiment files.
_SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _UniqueKeyLoader(_SafeLoader):  # type: ignore[valid-type,misc]
    """A safe loader that rejects a key repeated within one mapping."""


def _construct_unique_mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode, deep: bool = False) -> Any:
    seen: dict[Hashable, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        if isinstance(key, Hashable) and key in seen:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping",
                node.start_mark,
                f"found duplicate key {key!r} (first on line {seen[key] + 1})",
                key_node.start_mark,
            )
        if isinstance(key, Hashable):
            seen[key] = key_node.start_mark.line
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_unique_mapping
)


def format_key_path(path: Iterable[Any]) -> str:
    """``['datasets', 'anneal', 'openml_id']`` -> ``datasets.anneal.openml_id``; list items as ``[i]``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


def _read_yaml(path: Path) -> tuple[Any, yaml.Node | None]:
    """Parse YAML text into data and its node tree (for line numbers)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: file not found; fix: check the path (relative paths are "
                          f"resolved against the working directory {Path.cwd()})") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc})") from None
    try:
        # One parse: the node tree (its marks give line numbers), then the data built from it.
        loader = _UniqueKeyLoader(text)
        try:
            node = loader.get_single_node()
            data = None if node is None else loader.construct_document(node)
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark is not None else str(path)
        problem = exc.problem or exc.context or "invalid YAML"
        context = f" ({exc.context})" if exc.context and exc.problem else ""
        lines = text.splitlines()
        if mark is not None and mark.line < len(lines) and "\t" in lines[mark.line]:
            # PyYAML calls a tab "character that cannot start any token"; say what it is.
            raise ConfigError(f"{where}: YAML syntax error: the line holds a tab character, and YAML "
                              f"indents with spaces only ({problem}); fix: replace the tab with spaces") from None
        raise ConfigError(f"{where}: YAML syntax error: {problem}{context}; fix: correct the "
                          "YAML at that line (indentation, a missing ':' or an unclosed quote or "
                          "bracket are the usual causes)") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: YAML syntax error: {exc}") from None
    return data, node


def load_yaml(path: str | Path) -> Any:
    """Read a YAML file strictly (duplicate keys rejected), raising :class:`ConfigError`."""
    data, _ = _read_yaml(Path(path))
    return data


def _line_of(node: yaml.Node | None, key_path: Iterable[Any]) -> int | None:
    """1-based line of the node at ``key_path`` (or of its deepest existing ancestor)."""
    line = node.start_mark.line + 1 if node is not None else None
    for part in key_path:
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if str(key_node.value) == str(part):
                    node = value_node
                    line = key_node.start_mark.line + 1
                    break
            else:
                return line
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def _load_schema(schema_path: Path | Mapping[str, Any]) -> dict[str, Any]:
    """Read and check a schema, so a broken schema is not mistaken for a broken config.

    ``schema_path`` may be a schema already in memory (e.g. one composed from an experiment
    kind's fragment, :func:`redecorate.experiments.experiment_schema`).
    """
    if isinstance(schema_path, Mapping):
        schema = dict(schema_path)
        schema_path = Path(str(schema.get("title", "schema")))
    else:
        schema = load_yaml(schema_path)
    if not isinstance(schema, dict):
        raise ConfigError(f"{schema_path}: a JSON schema must be a mapping, got {type(schema).__name__}")
    # Checked once per distinct schema: checking against the metaschema costs ~40 ms, and a run
    # reads every experiment file with its kind's schema (the replication report, 26 of them).
    key = json.dumps(schema, sort_keys=True, default=str)
    if key not in _CHECKED_SCHEMAS:
        try:
            jsonschema.validators.validator_for(schema).check_schema(schema)
        except jsonschema.SchemaError as exc:
            raise ConfigError(f"{schema_path}: invalid JSON schema at "
                              f"{format_key_path(exc.absolute_path)}: {exc.message}") from None
        _CHECKED_SCHEMAS.add(key)
    return schema


_CHECKED_SCHEMAS: set[str] = set()


def _unexpected_keys(err: jsonschema.ValidationError) -> list[str]:
    """The keys an ``additionalProperties: false`` error is about (none for other errors)."""
    if err.validator != "additionalProperties" or err.validator_value is not False:
        return []
    if not isinstance(err.instance, dict) or not isinstance(err.schema, dict):
        return []
    known = err.schema.get("properties", {})
    patterns = err.schema.get("patternProperties", {})
    return [str(k) for k in err.instance
            if k not in known and not any(re.search(p, str(k)) for p in patterns)]  # fmt: skip


def _error_path(err: jsonschema.ValidationError) -> list[Any]:
    """Where an error is: its instance's key path, or the one unknown key it complains about
    (so the message and the line point at the misspelt key, not at its parent mapping)."""
    unexpected = _unexpected_keys(err)
    return [*err.absolute_path, unexpected[0]] if len(unexpected) == 1 else list(err.absolute_path)


def did_you_mean(word: str, choices: Iterable[str], n: int = 2) -> str:
    """`` Did you mean 'x'?`` for the ``n`` closest of ``choices`` (difflib), or ``""``.

    The one way every name a user types (a key, a learner, a parameter, a dataset, a kind, a
    system, a strategy) is answered when it is unknown: the usual cause is a misspelling."""
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=n, cutoff=0.6)
    return f" Did you mean {' or '.join(map(repr, close))}?" if close else ""


def _describe(err: jsonschema.ValidationError) -> str:
    """The schema's complaint, made useful for ``anyOf``/``oneOf`` and kept to a sane length.

    jsonschema reports a failed alternative as "<whole instance> is not valid under any of the
    given schemas", which names neither the key nor the fix. The complaint of an alternative
    of the value's own type is shown (for ``-2`` against "a number >= 1 or a mapping", that
    -2 is below the minimum, not that it is no mapping), followed by the alternatives'
    ``description`` when every one has one. An unknown key is named with its closest known
    keys, the usual cause being a misspelling.
    """
    unexpected = _unexpected_keys(err)
    if unexpected:
        known = sorted(err.schema.get("properties", {}))
        hint = did_you_mean(unexpected[0], known) if len(unexpected) == 1 else ""
        return (f"unknown key{'s' if len(unexpected) > 1 else ''} "
                f"{', '.join(map(repr, unexpected))}.{hint} Valid keys here: "
                f"{', '.join(known)}")  # fmt: skip
    if err.validator in {"anyOf", "oneOf"} and isinstance(err.validator_value, list):
        described = [s.get("description") for s in err.validator_value if isinstance(s, dict)]
        verb = "exactly one of" if err.validator == "oneOf" else "one of"
        expected = (f"expected {verb}: " + "; or ".join(str(d) for d in described)
                    if described and all(described) else "")  # fmt: skip
        # An alternative whose type the value has explains the failure; a type mismatch of
        # every other alternative only says the value is not of their type.
        context = list(err.context or ())
        typed = ([e for e in context if e.validator != "type"]
                 if any(e.validator == "type" for e in context) else [])  # fmt: skip
        if typed or (err.context and not expected):
            best = jsonschema.exceptions.best_match(typed or err.context)
            rel = format_key_path(best.relative_path) if best.relative_path else ""
            message = (f"{rel}: " if rel else "") + _shorten(best.message)
            overall = err.schema.get("description") if isinstance(err.schema, dict) else None
            expected = expected or (f"expected: {overall}" if overall else "")
            return f"{message} ({expected})" if expected else message
        if expected:
            return expected
    message = _shorten(err.message)
    description = err.schema.get("description") if isinstance(err.schema, dict) else None
    if description and err.validator in {"pattern", "enum", "const", "type", "format"}:
        message += f" (expected: {description})"
    return message


def _shorten(text: str, limit: int = 300) -> str:
    """Cut a message that embeds a large instance repr."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _filling_defaults(validator_cls: Any) -> Any:
    """A validator class that also inserts each property's schema ``default`` when absent.

    This is jsonschema's documented recipe, and what ``snakemake.utils.validate(...,
    set_default=True)`` does, so a config read here or by Snakemake gets the same values.
    """
    validate_properties = validator_cls.VALIDATORS["properties"]

    def set_defaults(validator: Any, properties: dict[str, Any], instance: Any, schema: Any) -> Any:
        if isinstance(instance, dict):
            for prop, sub in properties.items():
                if isinstance(sub, dict) and "default" in sub:
                    instance.setdefault(prop, copy.deepcopy(sub["default"]))
        yield from validate_properties(validator, properties, instance, schema)

    return jsonschema.validators.extend(validator_cls, {"properties": set_defaults})


def _errors(schema: dict[str, Any], data: Any, fill_defaults: bool) -> list[jsonschema.ValidationError]:
    validator_cls = jsonschema.validators.validator_for(schema)
    if fill_defaults:
        validator_cls = _filling_defaults(validator_cls)
    validator = validator_cls(schema, format_checker=validator_cls.FORMAT_CHECKER)
    return sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])


def validate_mapping(
    data: Any, schema: str | Path | Mapping[str, Any], source: str, *, fill_defaults: bool = False
) -> None:
    """Validate data that did not come from one file (the workflow configuration merged with
    ``--config``) the same way as a file: key path, the schema's complaint and the fix.

    Raises:
        ExperimentConfigError: listing every violation (up to ten) as ``source: key: message``.
    """
    errors = _errors(_load_schema(schema if isinstance(schema, Mapping) else Path(schema)),
                     data, fill_defaults)  # fmt: skip
    if errors:
        lines = [f"{source}: key '{format_key_path(_error_path(e))}': {_describe(e)}"
                 for e in errors[:_MAX_REPORTED_ERRORS]]  # fmt: skip
        if len(errors) > _MAX_REPORTED_ERRORS:
            lines.append(f"... and {len(errors) - _MAX_REPORTED_ERRORS} more")
        raise ExperimentConfigError(
            f"{source} is invalid:\n  " + "\n  ".join(lines)
            + "\nfix: correct the values above (the schema file documents every key)"
        )


def load_yaml_validated(
    path: str | Path, schema_path: str | Path | Mapping[str, Any], *, fill_defaults: bool = False
) -> dict[str, Any]:
    """Load a YAML mapping and validate it against a JSON schema written in YAML.

    Raises :class:`ConfigError` whose message names the file, the line, the key path and the
    schema's complaint for every violation (up to ten), e.g.
    ``config/datasets.yaml:12: datasets.anneal.openml_id: 'two' is not of type 'integer'``.
    With ``fill_defaults`` the schema's ``default`` values are inserted for absent properties
    (of objects that exist); otherwise the data are returned exactly as written.
    """
    path = Path(path)
    schema = _load_schema(schema_path if isinstance(schema_path, Mapping) else Path(schema_path))
    if isinstance(schema_path, Mapping):
        schema_path = str(schema.get("title", "its schema"))
    data, node = _read_yaml(path)
    if data is None:
        data = {}
    errors = _errors(schema, data, fill_defaults)
    if errors:
        lines = []
        for err in errors[:_MAX_REPORTED_ERRORS]:
            key_path = _error_path(err)
            line = _line_of(node, key_path)
            where = f"{path}:{line}" if line is not None else str(path)
            lines.append(f"{where}: {format_key_path(key_path)}: {_describe(err)}")
        more = len(errors) - _MAX_REPORTED_ERRORS
        if more > 0:
            lines.append(f"... and {more} more")
        raise ConfigError(
            f"{path} does not match its schema {schema_path}:\n  " + "\n  ".join(lines)
            + "\nfix: correct the values above (the schema file documents every key)"
        )
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level, got {type(data).__name__}")
    return data
