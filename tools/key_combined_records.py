"""Give the finished runs committed before job records carried unit keys their keyed job files.

Why: ``records_from`` finds a unit by its key in ``<dir>/<experiment>/records/<dataset>/*.parquet``
(:mod:`redecorate.job_records`), and the planner counts recorded units the same way. Nine
thesis-scale runs (``ch4_passive``, ``ch5_missing``, ``fs_ensembles``, ...) were committed as a
combined ``records.parquet`` only, so a later run would compute them again and the plan would
call them undone. This tool writes, per dataset, one job file ``records/<dataset>/combined.parquet``
holding the rows of every unit of that run, keyed as today's experiment file keys them — but
only where the run is today's experiment:

* the protocol the run's ``provenance.json`` records (kind, datasets, algorithms and their
  parameters, runs, folds, points, seed and, where recorded, the kind's settings) gives the same
  unit key as today's file for every unit, or, for the oldest runs that recorded no kind
  settings, the same protocol fields;
* every unit has rows in the combined records;
* ``--verify`` recomputes the cheapest unit of each experiment with today's code and requires
  its records (every column but ``fit_seconds``) to equal the committed rows.

A unit's CPU is its job's measured CPU where a job was one unit, else the dataset's measured
job CPU shared in proportion to the cost plan. Nothing is overwritten: a dataset that already
has job files is left alone.

    python3 tools/key_combined_records.py reproduced --verify --data-mirror ../shared/datasets/uci
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from redecorate.calibration import measured_job_cpu, spec_of_provenance  # noqa: E402
from redecorate.data import load_registry  # noqa: E402
from redecorate.experiments import load_experiment  # noqa: E402
from redecorate.job_records import APPORTIONED_FILE, unit_key, write_job_records  # noqa: E402
from redecorate.kinds import get_kind  # noqa: E402
from redecorate.kinds.jobs import dataset_shape  # noqa: E402
from redecorate.learners.registry import ALGORITHMS  # noqa: E402

_PROTOCOL_FIELDS = ("kind", "datasets", "runs", "folds", "points", "seed")


def _today(name: str, registry: Any) -> Any:
    return load_experiment(REPO / "config" / "experiments" / f"{name}.yaml",
                           schema=REPO / "workflow" / "schemas" / "experiment.schema.yaml",
                           scale="thesis", known_algorithms=list(ALGORITHMS), known_datasets=registry)


def _same_protocol(ran: dict[str, Any], spec: Any) -> str | None:
    """Why the recorded protocol differs from today's file, or None."""
    today = {"kind": spec.kind, "datasets": list(spec.datasets), "runs": len(spec.runs),
             "folds": spec.protocol.folds, "points": list(spec.protocol.points), "seed": spec.protocol.seed}
    for key in _PROTOCOL_FIELDS:
        if key == "datasets":  # a run offline leaves out what only OpenML has
            if not set(ran[key]) <= set(today[key]):
                return f"datasets: ran {sorted(set(ran[key]) - set(today[key]))}, not in today's file"
        elif key in ran and ran[key] != today[key]:
            return f"{key}: ran {ran[key]!r}, today {today[key]!r}"
    algorithms = ran.get("algorithms") or {}
    if set(algorithms) != set(spec.algorithms):
        return f"algorithms: ran {sorted(algorithms)}, today {sorted(spec.algorithms)}"
    return None


def _job_cpu(provenance: dict[str, Any]) -> dict[str, float]:
    """``dataset/...`` -> measured CPU of every experiment job: today's ``experiment_job/<dataset>/chunkN``
    and the first runs' one-unit jobs ``passive_job/<dataset>/<algorithm>/run<r>`` (Snakemake's
    sampled CPU there, a lower bound)."""
    out = {label: now + then for label, (now, then) in measured_job_cpu(provenance).items()}  # as measured
    for job in provenance["jobs"]:
        name, _, rest = job["job"].partition("/")
        if name.endswith("_job") and name != "experiment_job" and job.get("cpu_s") is not None:
            out[rest] = float(job["cpu_s"])
    return out


def _unit_rows(records: pd.DataFrame, unit: dict[str, Any]) -> pd.DataFrame:
    mask = pd.Series(True, index=records.index)
    for field, value in unit.items():
        mask &= records[field] == value
    return records[mask]


def key_experiment(root: Path, name: str, registry: Any, say: Any = print) -> list[tuple[Any, str, dict]]:
    """Write the keyed job files of one finished run; returns (spec, dataset, unit) per unit
    written, for verification."""
    folder = root / name
    provenance = json.loads((folder / "provenance.json").read_text(encoding="utf-8"))
    ran = provenance["experiment"]["settings"]
    spec = _today(name, registry)
    why = f"scale {ran.get('scale')}" if ran.get("scale") != "thesis" else _same_protocol(ran, spec)
    if why is not None:
        say(f"{name}: skipped, not today's thesis protocol ({why})")
        return []
    kind = get_kind(spec.kind)
    settings = kind.job_settings(spec)
    ran_spec = spec_of_provenance(provenance, REPO)
    ran_settings = kind.job_settings(ran_spec) if ran_spec is not None else None
    records = pd.read_parquet(folder / "records.parquet")
    measured = _job_cpu(provenance)
    done: list[tuple[Any, str, dict]] = []
    for dataset in [d for d in spec.datasets if d in ran["datasets"]]:
        target = folder / "records" / dataset / APPORTIONED_FILE
        if (folder / "records" / dataset).is_dir() and any((folder / "records" / dataset).glob("*.parquet")):
            say(f"{name}/{dataset}: has job files already, left alone")
            continue
        units = list(kind.units(spec))
        keys = [unit_key(kind, settings, u, dataset) for u in units]
        if ran_settings is not None:
            ran_keys = [unit_key(kind, ran_settings, u, dataset) for u in units]
            if ran_keys != keys:
                say(f"{name}/{dataset}: skipped, the run's settings key its units differently from today's file")
                continue
        frames = [_unit_rows(records[records["dataset"] == dataset], dict(u)) for u in units]
        if any(frame.empty for frame in frames):
            missing = [dict(u) for u, f in zip(units, frames, strict=True) if f.empty]
            say(f"{name}/{dataset}: skipped, no rows for {missing[:3]}")
            continue
        shape = dataset_shape(registry[dataset], dataset)
        costs = [max(1e-9, float(kind.unit_cost(settings, u, shape))) for u in units]
        per_unit = {k: v for k, v in measured.items() if k.startswith(f"{dataset}/")}
        one_job_per_unit = {f"{dataset}/{u['algorithm']}/run{u['run']}" for u in units} <= set(per_unit)
        if one_job_per_unit:
            cpu = [per_unit[f"{dataset}/{u['algorithm']}/run{u['run']}"] for u in units]
        else:
            total = sum(per_unit.values())
            cpu = [total * c / sum(costs) for c in costs]
        frame = pd.concat(frames, ignore_index=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        write_job_records(frame, target, units=[dict(u) for u in units], unit_keys=keys,
                          unit_rows=[len(f) for f in frames], unit_cpu_s=cpu,
                          unit_sources=[f"{name}/records.parquet"] * len(units),
                          git=provenance.get("git") or {}, cpu_s=sum(cpu))
        done.extend((spec, dataset, dict(u)) for u in units)
        say(f"{name}/{dataset}: {len(units)} units keyed ({len(frame)} rows)")
    return done


def verify(root: Path, name: str, written: list[tuple[Any, str, dict]], mirror: str, data_dir: Path) -> bool:
    """Recompute the cheapest written unit of every algorithm with today's code; True when
    their records equal the committed ones."""
    if not written:
        return True
    registry = load_registry(REPO / "config" / "datasets.yaml")
    spec, _, _ = written[0]
    kind = get_kind(spec.kind)
    settings = kind.job_settings(spec)

    def cost(item: tuple[Any, str, dict]) -> float:
        return kind.unit_cost(settings, item[2], dataset_shape(registry[item[1]], item[1]))

    cheapest: dict[str, tuple[Any, str, dict]] = {}
    for item in sorted(written, key=cost):
        cheapest.setdefault(item[2]["algorithm"], item)
    same = True
    for _, dataset, unit in cheapest.values():
        same &= _recomputed_equal(root, name, kind, settings, registry, dataset, unit, mirror, data_dir)
    return same


def _recomputed_equal(root: Path, name: str, kind: Any, settings: Any, registry: Any, dataset: str,
                      unit: dict, mirror: str, data_dir: Path) -> bool:
    from redecorate.data import load_dataset
    from redecorate.job_records import run_job_records

    data = load_dataset(dataset, registry=registry, data_dir=data_dir, mirror=mirror)
    fresh, _ = run_job_records(data, kind, settings, [unit], records_from=None, progress=lambda _: None)
    kept = pd.read_parquet(root / name / "records" / dataset / APPORTIONED_FILE)
    kept = _unit_rows(kept, unit).reset_index(drop=True)
    columns = [c for c in fresh.columns if c != "fit_seconds"]
    try:  # values, not storage: parquet reads text columns back as pandas' string dtype
        pd.testing.assert_frame_equal(fresh[columns].reset_index(drop=True), kept[columns], check_dtype=False,
                                      check_exact=True)
        same = True
    except AssertionError:
        same = False
    print(f"{name}: recomputed {dataset} {unit}: {'equal' if same else 'DIFFERENT'} records")
    return same


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, help="the committed results, e.g. reproduced")
    parser.add_argument("experiments", nargs="*", help="experiment names (default: every run without job files)")
    parser.add_argument("--verify", action="store_true", help="recompute one unit per experiment")
    parser.add_argument("--data-mirror", default="../shared/datasets/uci")
    parser.add_argument("--data-dir", type=Path, default=Path("data"))
    args = parser.parse_args()
    registry = load_registry(REPO / "config" / "datasets.yaml")
    names = args.experiments or sorted(
        p.parent.name for p in args.root.glob("*/records.parquet")
        if not (p.parent / "records").is_dir() and (REPO / "config" / "experiments" / f"{p.parent.name}.yaml").is_file())
    ok = True
    for name in names:
        written = key_experiment(args.root, name, registry)
        if args.verify:
            ok &= verify(args.root, name, written, args.data_mirror, args.data_dir)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
