"""The planner (``python3 -m redecorate.plan``): what a run has left, priced and counted as the
workflow would run it.

Its promises: a unit counts as recorded exactly when a job with ``records_from`` would read it
(same unit key, any file under ``<dir>/*/records/<dataset>/``), never by position or name; the
CPU left is the kind's cost model summed over the units not recorded; a job is left when any
of its units is; the jobs are the workflow's own (``snakemake -n`` plans the same number); and
cluster bundling is read from the profile the user names.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
import smoke_support as smoke

from redecorate.job_records import (
    APPORTIONED_FILE,
    arithmetic_revision,
    job_record_info,
    unit_key,
    write_job_records,
)
from redecorate.kinds import get_kind
from redecorate.kinds.jobs import Chunk, dataset_shape, plan_experiment, runtime_minutes
from redecorate.plan import (
    AlgorithmCost,
    DatasetPlan,
    ExperimentPlan,
    experiment_plan,
    format_plan,
    left_job_targets,
    main,
    read_bundling,
)
from redecorate.run_config import load_run, parse_config_values

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def quick_run():
    """ch4_passive at the quick scale (scikit-learn's bundled data: no mirror needed)."""
    return load_run({"scale": "quick", "experiments": ["ch4_passive"]}, REPO)


def _fake_job_file(path: Path, keys: list[str], units: list[dict], cpu: float) -> None:
    """A job file holding ``units`` under ``keys`` (one record row each; the planner reads
    only the metadata)."""
    frame = pd.DataFrame({"value": [1.0] * len(units)})
    write_job_records(frame, path, units=units, unit_keys=keys, unit_rows=[1] * len(units),
                      unit_cpu_s=[cpu] * len(units), unit_sources=[None] * len(units),
                      git={"commit": "test"}, cpu_s=cpu * len(units))


def test_recorded_units_are_found_by_key_and_the_rest_priced_by_the_cost_model(quick_run, tmp_path: Path) -> None:
    spec = quick_run.experiments["ch4_passive"]
    kind, settings = get_kind(spec.kind), get_kind(spec.kind).job_settings(spec)
    dataset = spec.datasets[0]
    units = [dict(u) for u in kind.units(spec)]
    kept = [units[2], units[5]]  # not a prefix: a positional count would be wrong
    # Kept under another experiment's folder, as records_from allows; plus a unit of a run the
    # experiment does not have, which the plan must not count.
    keys = [unit_key(kind, settings, u, dataset) for u in kept]
    _fake_job_file(tmp_path / "elsewhere" / "records" / dataset / "chunk9.parquet", keys, kept, cpu=10.0)
    wrong_key = unit_key(kind, settings, {"algorithm": units[0]["algorithm"], "run": 99}, dataset)
    _fake_job_file(tmp_path / "elsewhere" / "records" / dataset / "chunk10.parquet", [wrong_key],
                   [{"algorithm": units[0]["algorithm"], "run": 99}], cpu=1000.0)

    plan = experiment_plan(spec, quick_run.registry, 120.0, [tmp_path])
    row = next(d for d in plan.datasets if d.dataset == dataset)
    shape = dataset_shape(quick_run.registry[dataset], dataset)
    costs = [kind.unit_cost(settings, u, shape) for u in units]
    assert row.units == len(units)
    assert row.recorded == 2
    assert row.done_measured_s == pytest.approx(20.0)
    assert row.done_planned_s == pytest.approx(costs[2] + costs[5])
    assert row.left_s == pytest.approx(sum(costs) - costs[2] - costs[5])
    # Nothing recorded on the other datasets.
    assert all(d.recorded == 0 for d in plan.datasets if d.dataset != dataset)
    assert plan.plan_ratio == pytest.approx((costs[2] + costs[5]) / 20.0)


def test_units_keyed_after_the_fact_count_as_recorded_but_not_in_plan_over_measured(quick_run,
                                                                                    tmp_path: Path) -> None:
    """A run keyed after the fact (combined.parquet) carries its job's CPU shared by plan, not
    each unit's own: the plan counts its units but does not judge itself by them."""
    spec = quick_run.experiments["ch4_passive"]
    kind, settings = get_kind(spec.kind), get_kind(spec.kind).job_settings(spec)
    dataset = spec.datasets[0]
    units = [dict(u) for u in kind.units(spec)]
    shared, own = units[:2], units[2:3]
    _fake_job_file(tmp_path / "old" / "records" / dataset / APPORTIONED_FILE,
                   [unit_key(kind, settings, u, dataset) for u in shared], shared, cpu=500.0)
    _fake_job_file(tmp_path / "new" / "records" / dataset / "chunk3.parquet",
                   [unit_key(kind, settings, u, dataset) for u in own], own, cpu=7.0)
    # A later job that reused a shared unit carries its share on: still not the unit's own CPU.
    reused = units[3:4]
    path = tmp_path / "a_later" / "records" / dataset / "chunk0.parquet"  # read before "old"
    write_job_records(pd.DataFrame({"value": [1.0]}), path, units=reused,
                      unit_keys=[unit_key(kind, settings, reused[0], dataset)], unit_rows=[1], unit_cpu_s=[90.0],
                      unit_sources=[f"old/records/{dataset}/{APPORTIONED_FILE}"], git={"commit": "test"}, cpu_s=90.0)
    # So does a job that reused it from that job, though it names only the file it read.
    again = tmp_path / "a_again" / "records" / dataset / "chunk0.parquet"  # read before "a_later"
    write_job_records(pd.DataFrame({"value": [1.0]}), again, units=reused,
                      unit_keys=[unit_key(kind, settings, reused[0], dataset)], unit_rows=[1], unit_cpu_s=[90.0],
                      unit_sources=[str(path)], git={"commit": "test"}, cpu_s=1.0)
    row = next(d for d in experiment_plan(spec, quick_run.registry, 120.0, [tmp_path]).datasets
               if d.dataset == dataset)
    shape = dataset_shape(quick_run.registry[dataset], dataset)
    assert row.recorded == 4
    assert row.done_measured_s == pytest.approx(7.0)
    assert row.done_planned_s == pytest.approx(kind.unit_cost(settings, own[0], shape))
    assert row.left_s == pytest.approx(sum(kind.unit_cost(settings, u, shape) for u in units[4:]))


def test_a_job_is_left_when_any_of_its_units_is(quick_run, tmp_path: Path) -> None:
    spec = quick_run.experiments["ch4_passive"]
    kind, settings = get_kind(spec.kind), get_kind(spec.kind).job_settings(spec)
    chunks = plan_experiment(spec, quick_run.registry, 5.0)  # small jobs: several per dataset
    dataset = next(d for d, c in chunks.items() if len(c) >= 2 and len(c[0].units) >= 2)
    first = chunks[dataset][0]
    whole = [dict(u) for u in first.units]
    _fake_job_file(tmp_path / "x" / "records" / dataset / "a.parquet",
                   [unit_key(kind, settings, u, dataset) for u in whole], whole, cpu=1.0)
    # The second job has all but its last unit recorded: still left.
    partial = [dict(u) for u in chunks[dataset][1].units][:-1]
    if partial:
        _fake_job_file(tmp_path / "x" / "records" / dataset / "b.parquet",
                       [unit_key(kind, settings, u, dataset) for u in partial], partial, cpu=1.0)
    row = next(d for d in experiment_plan(spec, quick_run.registry, 5.0, [tmp_path]).datasets
               if d.dataset == dataset)
    assert row.jobs == len(chunks[dataset])
    assert row.jobs_left == len(chunks[dataset]) - 1
    assert row.limit_minutes_left == sum(runtime_minutes(c) for c in chunks[dataset][1:])
    assert row.left_jobs == tuple(range(1, len(chunks[dataset])))


def test_the_targets_are_the_record_files_of_the_jobs_left(quick_run, tmp_path: Path) -> None:
    """Snakemake's output names, under the experiment's folder (a slice's own), and only the
    jobs with a unit left."""
    spec = quick_run.experiments["ch4_passive"]
    kind, settings = get_kind(spec.kind), get_kind(spec.kind).job_settings(spec)
    chunks = plan_experiment(spec, quick_run.registry, 5.0)
    dataset = next(d for d, c in chunks.items() if len(c) >= 2)
    whole = [dict(u) for u in chunks[dataset][0].units]
    _fake_job_file(tmp_path / "x" / "records" / dataset / "a.parquet",
                   [unit_key(kind, settings, u, dataset) for u in whole], whole, cpu=1.0)
    plan = experiment_plan(spec, quick_run.registry, 5.0, [tmp_path])
    targets = left_job_targets("res/", {"ch4_passive.slice-0123abcd": plan})
    expected = [f"res/ch4_passive.slice-0123abcd/records/{d}/chunk{i}.parquet"
                for d, c in chunks.items() for i in range(len(c)) if (d, i) != (dataset, 0)]
    assert targets == expected


def test_time_limits_err_high_with_a_floor() -> None:
    assert runtime_minutes(Chunk((), 1.0)) == 20
    assert runtime_minutes(Chunk((), 600.0)) == 100  # 10x ten minutes
    assert runtime_minutes(Chunk((), 601.0)) == 101


def test_bundling_is_read_from_the_named_profile(tmp_path: Path) -> None:
    slurm = read_bundling(REPO / "workflow" / "profiles" / "slurm")
    assert (slurm.components, slurm.cores) == (4, 2)
    (tmp_path / "config.yaml").write_text("cores: 8\n")
    assert (read_bundling(tmp_path).components, read_bundling(tmp_path).cores) == (1, 8)


def test_the_report_totals_and_says_what_the_time_limits_are(quick_run, tmp_path: Path) -> None:
    spec = quick_run.experiments["ch4_passive"]
    plan = experiment_plan(spec, quick_run.registry, 120.0, [tmp_path])
    text = format_plan([plan, plan], records=[str(tmp_path)],
                       bundling=read_bundling(REPO / "workflow" / "profiles" / "slurm"))
    total = next(line for line in text.splitlines() if line.startswith("| **total**"))
    assert f"| {2 * plan.units:,} | 0 | {2 * plan.units:,} |" in total
    assert "kill limit, not the cost" in text
    assert f"about {-(-2 * plan.jobs_left // 4):,} cluster jobs" in text


def test_the_fixed_costs_a_quick_run_is_made_of_are_priced_beside_the_fits(quick_run, tmp_path: Path) -> None:
    """A quick run is mostly parse, start-ups, preparations and reports, which the units' cost
    model leaves out (it priced a quick ch4_passive at a tenth of its CPU): the plan adds them,
    counted from the jobs, datasets and experiments left, and nothing but the parse once all is
    recorded."""
    from redecorate.plan import FIXED_COSTS

    spec = quick_run.experiments["ch4_passive"]
    plan = experiment_plan(spec, quick_run.registry, 120.0, [tmp_path])
    assert plan.jobs_left == 3 and len(plan.datasets) == 3
    text = format_plan([plan], records=[str(tmp_path)])
    c = FIXED_COSTS
    minutes = (c.parse_s + 3 * c.job_start_s + 3 * c.dataset_s + c.experiment_s + c.replication_s) / 60
    assert (f"about {minutes:,.1f} CPU min of fixed costs (Snakemake's parse, 3 job start-ups, 3 dataset "
            "preparations, 1 experiment report(s)") in " ".join(text.split())
    # More than the fits of a quick run, as measured (61 s of CPU, 28 s of them fits).
    assert minutes * 60 > plan.planned_s
    assert FIXED_COSTS.seconds(jobs=0, datasets=3, experiments=1) == c.parse_s


def test_config_values_are_read_as_snakemake_reads_them() -> None:
    assert parse_config_values(["experiments=[ch6_active,ch6_utility]", "job_seconds=300",
                                "records_from=null", "scale=pilot"]) == {
        "experiments": ["ch6_active", "ch6_utility"], "job_seconds": 300, "records_from": None,
        "scale": "pilot"}


def test_a_configuration_mistake_is_reported_before_anything_is_planned(capsys) -> None:
    assert main(["--repo", str(REPO), "experiments=[no_such_experiment]"]) == 2
    err = capsys.readouterr().err
    assert "no_such_experiment" in err and "Invalid configuration" in err
    assert main(["--repo", str(REPO), "scale"]) == 2
    assert "key=value" in capsys.readouterr().err


def test_options_may_come_between_the_configuration_values(capsys) -> None:
    """``experiments=[x] --by-dataset scale=pilot`` is how a user adds a flag to a command they
    already have; it plans what the same values with the flag first plan."""
    config = ["experiments=[ch4_base_learners]", "scale=pilot", f"data_mirror={smoke.MIRROR}"]
    assert main(["--repo", str(REPO), "--by-dataset", *config]) == 0
    first = capsys.readouterr().out
    assert main(["--repo", str(REPO), config[0], "--by-dataset", *config[1:]]) == 0
    assert capsys.readouterr().out == first and "| **total**" in first


def test_committed_runs_are_recorded_under_todays_unit_keys() -> None:
    """Every committed job file of an experiment of config/experiments at its run's scale holds
    the units under the keys today's file gives them, so ``records_from=reproduced`` (and the
    plan) find them. Keys stored by tools/key_combined_records.py for the runs committed
    before job files carried keys are held to the same. A file kept with a scale's prefix
    (``tools/keep_records.py --prefix thesis``: a campaign's jobs beside a pilot whose
    provenance the folder still holds) is checked at that scale."""
    checked = 0
    scales = ("thesis", "pilot", "quick", "smoke")
    for provenance in sorted((REPO / "reproduced").glob("*/provenance.json")):
        name = provenance.parent.name
        if not (REPO / "config" / "experiments" / f"{name}.yaml").is_file():
            continue
        run_scale = json.loads(provenance.read_text())["experiment"]["settings"]["scale"]
        keyed = {}
        for path in sorted((provenance.parent / "records").glob("*/*.parquet")):
            prefix = path.name.split("-", 1)[0]
            scale = prefix if prefix in scales else run_scale
            if scale not in keyed:
                spec = load_run({"scale": scale, "experiments": [name]}, REPO).experiments[name]
                keyed[scale] = (get_kind(spec.kind), get_kind(spec.kind).job_settings(spec))
            kind, settings = keyed[scale]
            info = job_record_info(path)
            for unit, key in zip(info["units"], info["unit_keys"], strict=True):
                if unit_key(kind, settings, unit, path.parent.name) != key:
                    # superseded: computed under an earlier arithmetic of its algorithm
                    assert arithmetic_revision(kind, settings.algorithms[unit["algorithm"]]) > 0, (path, unit)
                    assert unit_key(kind, settings, unit, path.parent.name, revision=0) == key, (path, unit)
                checked += 1
    assert checked > 1000


@pytest.mark.workflow
@pytest.mark.skipif(not (smoke.MIRROR / "iris.arff").is_file(), reason="needs the ARFF mirror")
def test_the_plan_has_the_jobs_snakemake_would_run(tmp_path: Path, capsys) -> None:
    config = ["scale=smoke", "experiments=[ch4_passive,ch6_active]", f"data_mirror={smoke.MIRROR}",
              f"results_dir={tmp_path / 'results'}"]
    dry = smoke.run_snakemake(tmp_path, "-n", "--config", *config)
    assert dry.returncode == 0, dry.stderr
    planned = int(re.search(r"experiment_job\s+(\d+)", dry.stdout).group(1))
    assert main(["--repo", str(REPO), *config]) == 0
    total = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("| **total**"))
    cells = [c.strip() for c in total.split("|")]
    assert int(cells[6].replace(",", "")) == planned
    # The targets are the jobs' own outputs: Snakemake plans exactly those jobs from them.
    assert main(["--repo", str(REPO), *config, "--targets"]) == 0
    targets = capsys.readouterr().out.split()
    assert len(targets) == planned
    two = smoke.run_snakemake(tmp_path, "-n", "--config", *config, "--", *targets[:2])
    assert two.returncode == 0, two.stderr
    assert int(re.search(r"experiment_job\s+(\d+)", two.stdout).group(1)) == 2


def test_the_projection_corrects_each_algorithm_by_its_own_recorded_units() -> None:
    """A ratio measured on one algorithm's units (J48, mostly process start-up in the oldest
    records) must not rescale another's (DECORATE's), which stays as planned until 3 of its
    own units are recorded."""
    def dataset(name: str, algorithms: dict[str, AlgorithmCost]) -> DatasetPlan:
        return DatasetPlan(name, 0, sum(a.recorded for a in algorithms.values()), 1, 1, 0.0,
                           sum(a.left_s for a in algorithms.values()),
                           sum(a.done_planned_s for a in algorithms.values()),
                           sum(a.done_measured_s for a in algorithms.values()), 20, algorithms)

    plan = ExperimentPlan("e", "thesis", (
        dataset("iris", {"j48": AlgorithmCost(2, 1.0, 10.0, 0.0), "decorate": AlgorithmCost(left_s=3600.0)}),
        dataset("labor", {"j48": AlgorithmCost(2, 1.0, 10.0, 36.0), "decorate": AlgorithmCost(1, 100.0, 50.0, 0.0)}),
    ))
    # j48: 4 recorded, measured 10x the plan -> its 36 s left count 360 s; decorate: 1 recorded
    # unit only -> its 3,600 s stay as planned. The experiment-wide ratio would say 0.87x.
    assert plan.projected_left_s == pytest.approx(3600.0 + 360.0)
    assert plan.plan_ratio == pytest.approx(102.0 / 70.0)
    assert "| 1.1 |" in format_plan([plan], records=["reproduced"])
    few = ExperimentPlan("e", "thesis", (dataset("iris", {"j48": AlgorithmCost(2, 1.0, 10.0, 36.0)}),))
    assert few.projected_left_s is None


def test_algorithm_rows_split_the_experiment_by_label_and_add_up_to_it(quick_run, tmp_path: Path) -> None:
    """--by-algorithm: each label's units, recorded units and CPU left are its own (a slice by
    ``algorithms=[...]`` runs exactly them), and together they are the experiment's row."""
    spec = quick_run.experiments["ch4_passive"]
    kind, settings = get_kind(spec.kind), get_kind(spec.kind).job_settings(spec)
    dataset = spec.datasets[0]
    units = [dict(u) for u in kind.units(spec)]
    label = str(units[0]["algorithm"])
    kept = [u for u in units if u["algorithm"] == label][:2]
    _fake_job_file(tmp_path / "x" / "records" / dataset / "a.parquet",
                   [unit_key(kind, settings, u, dataset) for u in kept], kept, cpu=3.0)
    plan = experiment_plan(spec, quick_run.registry, 120.0, [tmp_path])
    text = format_plan([plan], records=[str(tmp_path)], by_algorithm=True)
    rows = {cells[1].strip(" ·"): cells for line in text.splitlines() if line.startswith("|   · ")
            for cells in [line.split("|")]}
    assert list(rows) == list(dict.fromkeys(str(u["algorithm"]) for u in units))
    counts = {name: int(cells[3].replace(",", "")) for name, cells in rows.items()}
    recorded = {name: int(cells[4].replace(",", "")) for name, cells in rows.items()}
    assert sum(counts.values()) == plan.units and sum(recorded.values()) == plan.recorded == 2
    assert recorded[label] == 2 and all(cells[6].strip() == "–" for cells in rows.values())
    # Every unit of every dataset counted under its own label.
    for name in rows:
        cost = sum((d.algorithms.get(name, AlgorithmCost()) for d in plan.datasets), AlgorithmCost())
        own = [u for u in units if str(u["algorithm"]) == name]
        assert cost.units == len(own) * len(plan.datasets)
    total = sum((c for d in plan.datasets for c in d.algorithms.values()), AlgorithmCost())
    assert total.left_s == pytest.approx(plan.left_s) and total.planned_s == pytest.approx(plan.planned_s)
    assert total.done_measured_s == pytest.approx(6.0)
