"""Recompute a seeded sample of committed units and say whether they come out the same.

Why: a replication is only as good as a stranger's ability to get its numbers again. The
committed records (``reproduced/``) each carry the unit key of everything they depend on
(:mod:`redecorate.job_records`); this command finds units of the selected experiments there
by key, computes them again with the code and libraries at hand, and compares every record
column but the clock (:data:`TIMING_COLUMNS`) to the last bit.

Usage, from the repository root (the workflow's ``--config`` values as ``key=value``)::

    python3 -m redecorate.verify data_mirror=../shared/datasets/uci                  # 20 units
    python3 -m redecorate.verify experiments=[ch6_active] sample=50 data_mirror=...
    python3 -m redecorate.verify datasets=[iris] sample=all max_unit_cpu=120 data_mirror=...

``datasets=[...]`` and ``algorithms=[...]`` keep the committed units of those datasets and
algorithm labels (of every selected experiment that has them; not a slice).

It prints one line per unit (identical, or differing with how many values and the largest
difference, and for a differing unit the provenance of the committed one beside this
machine's), then a summary, and exits 0 when every unit is identical, 1 otherwise.

The sample: the committed units of the selected experiments that took at most
``max_unit_cpu`` CPU seconds when computed (default 30: the sample then takes minutes),
shuffled with ``seed`` and taken round-robin over (experiment, algorithm), so a sample as
large as the number of those pairs covers every algorithm of every experiment.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import math
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redecorate.determinism import pin_cpu_dispatch

pin_cpu_dispatch()  # before NumPy loads, as in every job: units are computed as the workflow computes them

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from redecorate.config import ExperimentConfigError  # noqa: E402
from redecorate.job_records import KeptUnit, job_record_info, kept_units, unit_key  # noqa: E402
from redecorate.kinds import get_kind  # noqa: E402
from redecorate.kinds.jobs import data_loader  # noqa: E402
from redecorate.kinds.unit import run_unit  # noqa: E402
from redecorate.provenance import arithmetic_environment  # noqa: E402
from redecorate.run_config import command_line, load_run, parse_config_values  # noqa: E402

__all__ = ["DEFAULT_MAX_UNIT_CPU", "DEFAULT_SAMPLE", "TIMING_COLUMNS", "CommittedUnit", "Comparison",
           "committed_units", "compare_records", "main", "record_digest", "sample_units", "verify_unit"]

TIMING_COLUMNS: tuple[str, ...] = ("fit_seconds",)
"""Record columns that are clock readings: they differ between any two runs by nature, so they
are the only ones left out of "identical records"."""

DEFAULT_SAMPLE = 20
DEFAULT_MAX_UNIT_CPU = 30.0


@dataclass(frozen=True)
class CommittedUnit:
    """One unit of an experiment found by key under the records directory."""

    experiment: str
    dataset: str
    unit: Mapping[str, Any]
    key: str
    kept: KeptUnit
    spec: Any = field(repr=False, compare=False)

    @property
    def algorithm(self) -> str:
        return str(self.unit.get("algorithm"))

    def describe(self) -> str:
        extra = "".join(f" {k} {v}" for k, v in self.unit.items() if k not in ("algorithm", "run"))
        return f"{self.experiment} {self.dataset} {self.algorithm} run {self.unit.get('run')}{extra}"


@dataclass(frozen=True)
class Comparison:
    """How a recomputed unit compares with its committed records."""

    unit: CommittedUnit
    status: str  # "identical", "differing", "data differ", "failed"
    values: int = 0
    differing: int = 0
    largest: float = 0.0
    seconds: float = 0.0
    note: str = ""

    @property
    def identical(self) -> bool:
        return self.status == "identical"


def committed_units(experiments: Mapping[str, Any], records: str | Path) -> list[CommittedUnit]:
    """Every unit of ``experiments`` (folder -> spec) kept under ``records``, once per key
    (a unit shared by two experiments, as ch6_utility's DECORATE is ch6_active's, counts for
    the first), in experiment, dataset and unit order."""
    found: list[CommittedUnit] = []
    seen: set[str] = set()
    for spec in experiments.values():
        kind = get_kind(spec.kind)
        settings = kind.job_settings(spec)
        units = list(kind.units(spec))
        for dataset in spec.datasets:
            kept = kept_units(records, dataset, prefer=spec.name)
            for unit in units:
                key = unit_key(kind, settings, unit, dataset)
                if key in kept and key not in seen:
                    seen.add(key)
                    found.append(CommittedUnit(spec.name, dataset, dict(unit), key, kept[key], spec))
    return found


def sample_units(units: Sequence[CommittedUnit], size: int | None, seed: int,
                 max_unit_cpu: float | None = DEFAULT_MAX_UNIT_CPU) -> list[CommittedUnit]:
    """A seeded sample of ``size`` units (None: all) among those whose recorded CPU is at most
    ``max_unit_cpu`` (None: any), round-robin over (experiment, algorithm) so that every pair
    is drawn before any is drawn twice; returned in draw order."""
    eligible = [u for u in units if max_unit_cpu is None or float(u.kept.cpu_s) <= max_unit_cpu]
    order = np.random.default_rng(seed).permutation(len(eligible))
    strata: dict[tuple[str, str], list[CommittedUnit]] = {}
    for i in order:
        unit = eligible[int(i)]
        strata.setdefault((unit.experiment, unit.algorithm), []).append(unit)
    queues = list(strata.values())
    drawn: list[CommittedUnit] = []
    limit = len(eligible) if size is None else min(size, len(eligible))
    depth = 0
    while len(drawn) < limit:
        for queue in queues:
            if depth < len(queue) and len(drawn) < limit:
                drawn.append(queue[depth])
        depth += 1
    return drawn


def compare_records(computed: pd.DataFrame, committed: pd.DataFrame) -> tuple[int, int, float]:
    """(values compared, values differing, largest absolute difference of a numeric value;
    inf when a non-numeric value, a dtype or the shape differs), clock columns aside."""
    a = computed.drop(columns=[c for c in TIMING_COLUMNS if c in computed.columns])
    b = committed.drop(columns=[c for c in TIMING_COLUMNS if c in committed.columns])
    if list(a.columns) != list(b.columns) or a.shape != b.shape:
        return max(a.size, b.size), max(a.size, b.size), math.inf
    values = differing = 0
    largest = 0.0
    for column in a.columns:
        x, y = a[column].to_numpy(), b[column].to_numpy()
        values += x.size
        if x.dtype != y.dtype:
            differing += x.size
            largest = math.inf
            continue
        if x.dtype.kind == "f":
            # bit for bit: a NaN equals its own bits, -0.0 is not 0.0
            bits = np.dtype(f"u{x.dtype.itemsize}")
            same = np.ascontiguousarray(x).view(bits) == np.ascontiguousarray(y).view(bits)
        elif np.issubdtype(x.dtype, np.number) or x.dtype.kind == "b":
            same = x == y
        else:
            same = None
        if same is not None:
            if not same.all():
                gaps = np.abs(x[~same].astype(np.float64) - y[~same].astype(np.float64))
                finite = gaps[np.isfinite(gaps)]
                largest = max(largest, float(finite.max()) if finite.size == gaps.size else math.inf)
            differing += int((~same).sum())
        else:
            equal = np.array([p == q for p, q in zip(x.tolist(), y.tolist(), strict=True)], dtype=bool)
            if not equal.all():
                largest = math.inf
            differing += int((~equal).sum())
    return values, differing, largest


def record_digest(records: pd.DataFrame) -> str:
    """SHA-256 of a unit's records, clock columns aside: column names, dtypes and every value's
    bits (text values by their ``str``), in row order. Equal digests: identical records."""
    frame = pd.read_parquet(io.BytesIO(records.to_parquet()))  # the dtypes a record file keeps
    digest = hashlib.sha256()
    for column in frame.columns:
        if column in TIMING_COLUMNS:
            continue
        values = frame[column].to_numpy()
        digest.update(f"{column}\x1e{values.dtype.str}\x1e".encode())
        if values.dtype.kind in "biuf":
            digest.update(np.ascontiguousarray(values).tobytes())
        else:
            digest.update("\x1f".join(map(str, values.tolist())).encode())
    return digest.hexdigest()


def verify_unit(unit: CommittedUnit, data: Callable[[str], Any]) -> Comparison:
    """Compute ``unit`` again on ``data(dataset)`` and compare it with its committed records."""
    dataset = data(unit.dataset)
    if dataset is None:
        return Comparison(unit, "failed", note=f"dataset {unit.dataset} not at hand (give data_mirror=...)")
    info = job_record_info(unit.kept.path) or {}
    recorded_sha = info.get("data_sha256")
    if recorded_sha is not None and recorded_sha != dataset.content_sha256():
        return Comparison(unit, "data differ", note=f"the committed unit was computed on data with sha256 "
                                                    f"{recorded_sha[:12]}, this dataset's is "
                                                    f"{dataset.content_sha256()[:12]}")
    kind = get_kind(unit.spec.kind)
    started = time.process_time()
    try:
        frame = run_unit(kind, dataset, kind.job_settings(unit.spec), unit.unit, progress=lambda _line: None)
    except Exception as exc:  # noqa: BLE001 - reported per unit, the others still checked
        return Comparison(unit, "failed", note=f"{type(exc).__name__}: {exc}")
    seconds = time.process_time() - started
    frame = pd.read_parquet(io.BytesIO(frame.to_parquet()))  # the dtypes a record file keeps
    values, differing, largest = compare_records(frame, unit.kept.frame(unit.experiment))
    return Comparison(unit, "identical" if differing == 0 else "differing", values, differing, largest, seconds)


def committed_provenance(unit: CommittedUnit) -> dict[str, Any]:
    """Where and with what the committed unit was computed, as its job file says."""
    info = job_record_info(unit.kept.path) or {}
    keep = ("commit", "host", "cpu", "written_at", "arithmetic")
    return {"file": str(unit.kept.path), "unit_commit": unit.kept.commit,
            **{k: info[k] for k in keep if k in info}}


def _line(c: Comparison) -> str:
    if c.status == "identical":
        return f"identical  {c.unit.describe()} ({c.values} values, {c.seconds:.1f} CPU s)"
    if c.status == "differing":
        gap = "a non-numeric value or the shape" if math.isinf(c.largest) else f"largest |difference| {c.largest:.6g}"
        return f"DIFFERING  {c.unit.describe()}: {c.differing} of {c.values} values, {gap}"
    return f"{c.status.upper():<10} {c.unit.describe()}: {c.note}"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python3 -m redecorate.verify",
        description="Recompute a seeded random sample of committed units and compare them with "
                    "their records to the last bit (the clock aside). Takes the workflow's "
                    "--config values as key=value, and sample=N|all, seed=S, max_unit_cpu=SECONDS|none, "
                    "records=DIR (default reproduced).")
    parser.add_argument("config", nargs="*", metavar="key=value")
    parser.add_argument("--json", metavar="FILE", help="also write every comparison to FILE as JSON")
    parser.add_argument("--repo", default=".", help="the repository (default: the current directory)")
    return parser


_OWN_KEYS = ("sample", "seed", "max_unit_cpu", "records")


def _own_values(values: dict[str, Any]) -> tuple[int | None, int, float | None, str]:
    sample, seed = values.pop("sample", DEFAULT_SAMPLE), values.pop("seed", 0)
    max_cpu, records = values.pop("max_unit_cpu", DEFAULT_MAX_UNIT_CPU), values.pop("records", "reproduced")
    if sample == "all":
        sample = None
    if sample is not None and (not isinstance(sample, int) or isinstance(sample, bool) or sample < 1):
        raise ExperimentConfigError(f"sample={sample!r}: give a whole number of units >= 1, or sample=all")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ExperimentConfigError(f"seed={seed!r}: give a whole number, e.g. seed=0")
    if max_cpu in ("none", None):
        max_cpu = None
    elif not isinstance(max_cpu, int | float) or isinstance(max_cpu, bool) or max_cpu <= 0:
        raise ExperimentConfigError(f"max_unit_cpu={max_cpu!r}: give CPU seconds > 0, or max_unit_cpu=none")
    return sample, seed, None if max_cpu is None else float(max_cpu), str(records)


def _names(value: Any, key: str) -> set[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return {value}
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ExperimentConfigError(f"{key}={value!r}: give a list of names, e.g. {key}=[labor,iris]")
    return set(value)


def main(argv: Iterable[str] | None = None) -> int:
    """Verify the sample the command line selects; 0 when every unit is identical."""
    parsed = command_line(_parser(), argv)
    if parsed is None:
        return 2
    args, repo = parsed
    try:
        values = parse_config_values(args.config)
        sample, seed, max_cpu, records = _own_values(values)
        # filters of the committed units, not slices: an experiment without them adds nothing
        only = {key: _names(values.pop(key, None), key) for key in ("datasets", "algorithms")}
        run = load_run(values, repo)
    except ExperimentConfigError as exc:
        print(f"Invalid configuration.\n{exc}", file=sys.stderr)
        return 2
    records_dir = repo / records
    if not records_dir.is_dir():
        print(f"records={records}: no directory {records_dir.resolve()} (the committed records are in "
              "reproduced/)", file=sys.stderr)
        return 2
    units = [u for u in committed_units(run.experiments, records_dir)
             if (only["datasets"] is None or u.dataset in only["datasets"])
             and (only["algorithms"] is None or u.algorithm in only["algorithms"])]
    chosen = sample_units(units, sample, seed, max_cpu)
    environment = arithmetic_environment()
    limit = "any" if max_cpu is None else f"<= {max_cpu:g} CPU s"
    print(f"{len(units)} committed units of {len(run.experiments)} experiments under {records}; "
          f"{len(chosen)} drawn (seed {seed}, recorded CPU {limit}).")
    print(f"here: {json.dumps(environment, sort_keys=True)}", flush=True)
    loaders: dict[str, Callable[[], Any]] = {}

    def data(dataset: str) -> Any:
        return loaders.setdefault(dataset, data_loader(dataset, run.registry, run.config["data_dir"],
                                                       run.config.get("data_mirror")))()

    results = []
    for c in (verify_unit(unit, data) for unit in chosen):
        results.append(c)
        print(_line(c), flush=True)
        if not c.identical and c.status != "failed":
            print(f"           committed: {json.dumps(committed_provenance(c.unit), sort_keys=True)}", flush=True)
    counts = {s: sum(c.status == s for c in results) for s in ("identical", "differing", "data differ", "failed")}
    print(", ".join(f"{n} {s}" for s, n in counts.items()) + f" of {len(results)} units "
          f"({sum(c.seconds for c in results):.0f} CPU s).")
    if args.json:
        rows = [{"experiment": c.unit.experiment, "dataset": c.unit.dataset, "unit": dict(c.unit.unit),
                 "key": c.unit.key, "status": c.status, "values": c.values, "differing": c.differing,
                 "largest": None if math.isinf(c.largest) else c.largest, "cpu_s": round(c.seconds, 3),
                 "note": c.note, "committed": committed_provenance(c.unit)} for c in results]
        Path(args.json).write_text(json.dumps({"environment": environment, "units": rows}, indent=1) + "\n",
                                   encoding="utf-8")
    return 0 if results and counts["identical"] == len(results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
