"""The ``active`` experiment kind (chapter 6): settings, the unit of work, the report's numbers.

The unit of work runs the library's loop (tests/test_active_*.py test the loop itself); here:
every system of a fold starts from the same labeled examples and the records are the curve;
the chapter-6 summaries come out right on curves whose answer is known by hand; a misspelt
system, or a report whose variant and keys disagree, fails when the file is read, naming file
and key; the job settings hash to the unit keys of the committed records.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from redecorate.config import ExperimentConfigError
from redecorate.experiments import load_experiment
from redecorate.kinds import get_kind
from redecorate.kinds.active import ActiveSettings, per_dataset, systems_of
from redecorate.kinds.unit import run_unit
from redecorate.protocol.settings import JobSettings, ReportSettings, key_settings
from redecorate.report.active_learning import active_summary
from redecorate.stats.summary import RECORD_COLUMNS

REPO = Path(__file__).resolve().parents[1]
SCHEMA = REPO / "workflow" / "schemas" / "experiment.schema.yaml"
CH6 = REPO / "config" / "experiments" / "ch6_active.yaml"
CH7 = REPO / "config" / "experiments" / "ch7_binary.yaml"


def test_per_dataset_settings() -> None:
    m = {"default": 1, "soybean": 3}
    assert per_dataset(m, "soybean", 9) == 3 and per_dataset(m, "iris", 9) == 1
    assert per_dataset({"soybean": 3}, "iris", 9) == 9 and per_dataset(2, "iris", 9) == 2
    assert per_dataset(None, "iris", None) is None


def test_the_chapter_6_file_resolves_systems_and_batch_sizes() -> None:
    spec = load_experiment(CH6, schema=SCHEMA)
    systems = systems_of(spec)
    assert systems["decorate"] == {"system": "random", "params": {}}
    assert systems["active_decorate"]["system"] == "active_decorate"
    assert isinstance(spec.settings, ActiveSettings)
    assert spec.settings.batch_size["credit-g"] == 3
    assert spec.settings.metrics == ("accuracy",) and spec.settings.schedule is None
    smoke = load_experiment(CH6, schema=SCHEMA, scale="smoke")
    assert smoke.settings.max_labeled == 12


def test_only_the_keys_a_file_sets_enter_the_unit_keys() -> None:
    """As when the committed records were keyed: an unset key is absent, a set one present
    even at the value it defaults to (ch7_early's batch_size: 1)."""
    kind = get_kind("active")
    ch6 = key_settings(kind, kind.job_settings(load_experiment(CH6, schema=SCHEMA)))
    assert set(ch6) == {"experiment", "n_folds", "seed", "systems", "batch_size"}
    assert ch6["systems"]["decorate"] == {"system": "random", "params": {}}
    early = load_experiment(REPO / "config" / "experiments" / "ch7_early.yaml", schema=SCHEMA)
    keyed = key_settings(kind, kind.job_settings(early))
    assert keyed["batch_size"] == 1 and keyed["initial_size"] == 5
    assert keyed["metrics"] == ["accuracy", "mse", "aulc", "aulc_fold"] and "schedule" not in keyed


def _with_report(tmp_path: Path, source: Path, edit, name: str = "edited.yaml") -> Path:
    data = yaml.safe_load(source.read_text())
    edit(data["report"])
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def test_chapter_7_files_declare_the_probability_report() -> None:
    for path in sorted((REPO / "config" / "experiments").glob("ch[67]_*.yaml")):
        spec = load_experiment(path, schema=SCHEMA)
        wanted = "probability" if path.name.startswith("ch7_") else "utilization"
        assert spec.report.get("variant", "utilization") == wanted, path.name


@pytest.mark.parametrize(
    ("source", "edit", "wanted"),
    [
        (CH7, lambda r: r.pop("variant"),
         r"edited.yaml: key 'report.comparisons': .* variant probability; this report is variant "
         r"'utilization' \(the default\). Add 'variant: probability'"),
        (CH7, lambda r: r.update(variant="utilization"),
         r"key 'report.comparisons': .*this report is variant 'utilization'. Add"),
        (CH7, lambda r: r.pop("comparisons"),
         r"key 'report.variant': variant probability \(chapter 7\) reports .* report.comparisons"),
        (CH6, lambda r: r.update(variant="probability"),
         r"key 'report.variant': variant probability .* which the file does not give"),
        (CH6, lambda r: r.pop("baseline"), r"key 'report.baseline': the utilization report"),
        (CH6, lambda r: r.update(variant="utilisation"), r"report.variant"),
    ],
)  # fmt: skip
def test_a_report_whose_variant_and_keys_disagree_fails_when_read(tmp_path: Path, source, edit,
                                                                  wanted) -> None:
    with pytest.raises(ExperimentConfigError, match=wanted):
        load_experiment(_with_report(tmp_path, source, edit), schema=SCHEMA)


def test_a_misspelt_system_fails_naming_file_and_key(tmp_path: Path) -> None:
    data = yaml.safe_load(CH6.read_text())
    data["algorithms"]["qbagg"] = {}
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data))
    with pytest.raises(ExperimentConfigError, match=r"bad.yaml: key 'algorithms.qbagg'.*qbag"):
        load_experiment(bad, schema=SCHEMA)


def _records(curves: dict[str, np.ndarray], n: np.ndarray, folds: int = 4) -> pd.DataFrame:
    rows = []
    for system, error in curves.items():
        for fold in range(folds):
            for size, e in zip(n, error, strict=True):
                rows.append(("x", "d", system, 0, fold, int(size), int(size), "accuracy",
                             100.0 - e - 0.01 * fold, 0.0, 15))  # fmt: skip
    return pd.DataFrame(rows, columns=list(RECORD_COLUMNS))


def test_summaries_on_curves_known_by_hand() -> None:
    n = np.arange(1, 31)
    base = 40.0 - n  # mean over the last 50 (all 30) points: 24.5 (+ the fold offsets' mean)
    records = _records({"rand": base, "half": base / 2}, n)
    summary = active_summary(records, "rand", ["half"], ["d"]).set_index("system")
    target = 24.5 + 0.015  # folds are shifted by 0, .01, .02, .03 % accuracy
    assert summary.at["rand", "target_error"] == pytest.approx(target)
    assert summary.at["rand", "examples_to_target"] == 16  # 40 - 16 + .015 <= 24.515
    assert summary.at["half", "examples_to_target"] == 1
    assert summary.at["half", "utilization_ratio"] == pytest.approx(1 / 16)
    # Halving the error everywhere is a 50 % reduction at every point (up to the offsets).
    assert summary.at["half", "error_reduction"] == pytest.approx(50.0, abs=0.1)
    assert summary.at["half", "top20_error_reduction"] == pytest.approx(50.0, abs=0.1)
    assert summary.at["half", "top20_significant"]
    assert summary.at["half", "error_reduction_significant"]


def test_a_significant_increase_of_the_error_is_not_a_significant_reduction() -> None:
    """Table 8.2's "significant" (and the bold cells of 6.2-6.4) mean a significant reduction."""
    n = np.arange(1, 31)
    base = 40.0 - n
    records = _records({"rand": base, "double": base * 2}, n)
    row = active_summary(records, "rand", ["double"], ["d"]).set_index("system").loc["double"]
    assert row["error_reduction"] == pytest.approx(-100.0, abs=0.2)
    assert row["error_reduction_p"] < 0.05  # the test itself is two-sided
    assert not row["error_reduction_significant"] and not row["top20_significant"]


def test_summaries_use_only_sizes_every_fold_reached() -> None:
    n = np.arange(1, 31)
    records = _records({"rand": 40.0 - n, "same": 40.0 - n}, n)
    # One fold of one system has a longer pool: its extra point must not enter the means.
    extra = records.iloc[[-1]].assign(point=31, n_train=31, value=0.0)
    summary = active_summary(pd.concat([records, extra]), "rand", ["same"], ["d"])
    assert (summary["pool_size"] == 30).all()
    assert summary.set_index("system").at["same", "error_reduction"] == pytest.approx(0.0)


@pytest.mark.slow
def test_every_system_of_a_fold_starts_from_the_same_labeled_set() -> None:
    from redecorate.data import load_dataset, load_registry

    mirror = REPO / ".." / "shared" / "datasets" / "uci"
    dataset = load_dataset("iris", registry=load_registry(REPO / "config" / "datasets.yaml"),
                           mirror=mirror)  # fmt: skip
    kind = get_kind("active")
    spec = load_experiment(CH6, schema=SCHEMA, scale="smoke")
    # The curves stop at 4 labeled examples (the smoke scale's 12 cost a minute more and test
    # nothing more: the first point is the claim, the rest the repeatability).
    settings = kind.job_settings(spec)
    settings = dataclasses.replace(settings, options=dataclasses.replace(settings.options, max_labeled=4))
    lines: list[str] = []
    frames = {s: run_unit(kind, dataset, settings, {"algorithm": s, "run": 0}, lines.append)
              for s in ("decorate", "active_decorate")}  # fmt: skip
    for frame in frames.values():
        assert list(frame.columns) == list(RECORD_COLUMNS)
        # m = 1 on iris: one point per labeled example, 1 ... 4 in each of the 3 folds.
        assert sorted(frame["point"].unique()) == list(range(1, 5))
        assert (frame["n_train"] == frame["point"]).all()
    first = {s: f[f["point"] == 1].sort_values("fold")["value"].to_numpy() for s, f in frames.items()}
    # One labeled example, the same one: random sampling and ActiveDecorate fit the same model.
    np.testing.assert_array_equal(first["decorate"], first["active_decorate"])
    again = run_unit(kind, dataset, settings, {"algorithm": "active_decorate", "run": 0}, lines.append)
    columns = [c for c in RECORD_COLUMNS if c != "fit_seconds"]
    pd.testing.assert_frame_equal(again[columns], frames["active_decorate"][columns])
    assert any("fold 3/3 done" in line for line in lines)


# -- chapter 7 -----------------------------------------------------------------------------
def test_the_geometric_schedule_makes_the_asked_batches_and_ends_at_the_pool() -> None:
    from redecorate.active.curve import geometric_sizes

    for pool, initial, batches in [(900, 10, 33), (40, 5, 33), (135, 10, 33), (12, 5, 3)]:
        sizes = geometric_sizes(pool, initial, batches)
        assert sizes[0] == initial and sizes[-1] == pool
        assert len(sizes) == min(batches, pool - initial) + 1
        steps = np.diff(sizes)
        assert (steps >= 1).all()
        if pool - initial > 3 * batches:  # room to grow: later batches are no smaller
            assert steps[-1] >= steps[0]


@pytest.mark.parametrize("growth", ["linear", "equal"])
def test_the_ablation_schedules_make_the_asked_batches_growing_as_named(growth: str) -> None:
    from redecorate.active.curve import schedule_sizes

    for pool, initial, batches in [(900, 10, 33), (3000, 10, 33), (40, 5, 33), (12, 5, 3)]:
        sizes = schedule_sizes(pool, initial, batches, growth)
        assert sizes[0] == initial and sizes[-1] == pool
        assert len(sizes) == min(batches, pool - initial) + 1
        steps = np.diff(sizes)
        assert (steps >= 1).all()
    steps = np.diff(schedule_sizes(3000, 10, 33, growth))
    if growth == "equal":  # every batch within rounding of (3000 - 10) / 33
        assert steps.max() - steps.min() <= 1
    else:  # batch i holds about i times the first: the last about 33 times
        assert 25 <= steps[-1] / steps[0] <= 40
        assert np.all(np.diff(steps) >= -1)
    geometric = np.diff(schedule_sizes(3000, 10, 33, "geometric"))
    assert geometric[-1] / geometric[0] > 50  # geometric grows fastest: the three differ
    with pytest.raises(ValueError, match="growth 'quadratic'"):
        schedule_sizes(100, 10, 5, "quadratic")


def test_the_default_growth_leaves_the_unit_keys_of_the_committed_records(tmp_path: Path) -> None:
    """``growth: geometric`` written out keys like the files that leave it out (the committed
    chapter-7 records); another growth is another key, so an ablation never reuses them."""
    from redecorate.job_records import unit_key

    kind = get_kind("active")
    source = REPO / "config" / "experiments" / "ch7_binary.yaml"
    keys = {}
    for growth in (None, "geometric", "linear"):
        data = yaml.safe_load(source.read_text())
        if growth:
            data["schedule"]["growth"] = growth
        path = tmp_path / f"{growth}.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False))
        spec = load_experiment(path, schema=SCHEMA)
        keys[growth] = unit_key(kind, kind.job_settings(spec), {"algorithm": "bootstrap_js", "run": 0}, "vote")
    assert keys[None] == keys["geometric"] != keys["linear"]


def test_probability_comparisons_on_curves_known_by_hand() -> None:
    from redecorate.report.probability import probability_comparisons

    rows = []
    for system, mse, aulc in [("a", 0.2, 150.0), ("b", 0.4, 120.0)]:
        for fold in range(6):
            for n in (10, 20, 40):
                jitter = 0.001 * fold
                rows += [("x", "d", system, 0, fold, n, n, "mse", mse + jitter, 0.0, 15),
                         ("x", "d", system, 0, fold, n, n, "aulc", aulc - jitter, 0.0, 15)]
    records = pd.DataFrame(rows, columns=list(RECORD_COLUMNS))
    cells = probability_comparisons(records, [{"a": "a", "b": "b", "table": "7.x"}], ["d"])
    row = cells.iloc[0]
    assert row["comparison"] == "a_vs_b"
    # MSE halved: a 50 % reduction; AULC 150 vs 120: a 25 % increase; both significant wins.
    assert row["mse_reduction"] == pytest.approx(50.0, abs=0.5)
    assert row["aulc_increase"] == pytest.approx(25.0, abs=0.1)
    assert row["mse_reduction_outcome"] == 1 and row["aulc_increase_outcome"] == 1
    swapped = probability_comparisons(records, [{"a": "b", "b": "a", "table": "7.x"}], ["d"]).iloc[0]
    assert swapped["mse_reduction_outcome"] == -1 and swapped["mse_reduction"] < 0


@pytest.mark.parametrize(("name", "align"), [("ch7_cpe", "batch"), ("ch7_multiclass", "batch"),
                                             ("ch7_early", "size"), ("ch6_active", "size")])
def test_the_summary_lines_up_chapter_7s_batches_and_chapter_6s_sizes(name: str, align: str) -> None:
    spec = load_experiment(REPO / "config" / "experiments" / f"{name}.yaml", schema=SCHEMA)
    assert get_kind(spec.kind).alignment(spec) == align


def test_probability_significance_pairs_the_systems_on_each_fold() -> None:
    """Folds differ far more from each other (MSE 0.2 to 0.7, AULC 100 to 200) than the two
    systems do on any fold (A better by about 0.01 and 2, on every fold): a paired test
    finds the consistent difference significant, an unpaired one would drown it in the
    spread between folds."""
    from redecorate.report.probability import probability_comparisons

    rows = []
    for fold in range(6):
        mse_b, aulc_b = 0.2 + 0.1 * fold, 100.0 + 20.0 * fold
        wobble = 0.1 * (fold % 2)
        for system, mse, aulc in [("a", mse_b - 0.01 - wobble / 100, aulc_b + 2.0 + wobble), ("b", mse_b, aulc_b)]:
            for n in (10, 20, 40):
                rows += [("x", "d", system, 0, fold, n, n, "mse", mse, 0.0, 15),
                         ("x", "d", system, 0, fold, n, n, "aulc", aulc, 0.0, 15)]
    records = pd.DataFrame(rows, columns=list(RECORD_COLUMNS))
    row = probability_comparisons(records, [{"a": "a", "b": "b", "table": "7.x"}], ["d"]).iloc[0]
    assert row["mse_reduction_outcome"] == 1 and row["mse_reduction_p"] < 1e-6
    assert row["aulc_increase_outcome"] == 1 and row["aulc_increase_p"] < 1e-6


def test_active_conclusions_put_the_trivial_prediction_beside_each_mean_claim() -> None:
    from redecorate.report.active_learning import active_conclusions

    # Table 6.4-like: two systems' error reductions on three datasets; the thesis has system b
    # below zero on average, so "the active system always reduces the error" fails there.
    published = pd.DataFrame({
        "table": ["6.4"] * 6, "comparison": [np.nan] * 6,
        "dataset": ["d1", "d2", "d3"] * 2, "system": ["a"] * 3 + ["b"] * 3,
        "statistic": ["error_reduction"] * 6, "value": [5.0, 3.0, -1.0, -4.0, -2.0, 1.0],
    })
    summary = pd.DataFrame({"dataset": ["d1", "d2", "d3"] * 2, "system": ["a"] * 3 + ["b"] * 3,
                            "error_reduction": [4.0, 2.0, 1.0, -3.0, 1.0, -1.0],
                            "top20_error_reduction": [np.nan] * 6})
    out = active_conclusions(summary, published, "random", ["a", "b"], {"a": "a", "b": "b"}, ["6.4"])
    means = out[out["claim"] == "mean error_reduction > 0"].set_index("system")
    assert means["holds"].tolist() == [True, True]
    assert means["trivial_holds"].tolist() == [True, False]  # published mean of b is -5/3
    signs = out[out["claim"] == "sign of error_reduction per dataset"].set_index("system")
    assert signs.loc["a", "agreement"] == pytest.approx(2 / 3)  # d3 flips
    assert signs.loc["a", "trivial_agreement"] == pytest.approx(2 / 3)
    assert signs.loc["b", "agreement"] == pytest.approx(1 / 3) and pd.isna(signs.loc["b", "trivial_holds"])
    best = out[out["claim"] == "system with the largest mean error_reduction"].iloc[0]
    assert best["holds"] and pd.isna(best["trivial_holds"])


def test_a_table_of_wdl_counts_alone_is_comparable_when_the_run_covers_its_datasets() -> None:
    """Table 7.4 (early) prints w/d/l only; its 8 + 2 + 14 says it covers 24 datasets."""
    from redecorate.report.curves import wdl_comparability

    wdl = pd.DataFrame({"table": ["7.4 (early)"] * 3, "comparison": ["a_vs_b"] * 3, "metric": ["mse"] * 3,
                        "statistic": ["sig_w", "sig_d", "sig_l"], "value": ["8", "2", "14"]})
    names = [f"d{i}" for i in range(24)]
    assert wdl_comparability("pilot", wdl, names)[0]
    assert wdl_comparability("thesis", wdl, names) == (True, "")
    comparable, why = wdl_comparability("pilot", wdl, names[:20])
    assert not comparable and "4 of the source's 24 datasets not run" in why
    assert not wdl_comparability("quick", wdl, names)[0]


def test_the_chapter_7_report_counts_the_w_gt_l_sides_beside_the_trivial_prediction(tmp_path: Path) -> None:
    from redecorate.kinds.kind import ReportOutputs
    from redecorate.report.replication_report import ReplicationPaths, write_replication_report

    rows = []
    for dataset in ("d1", "d2", "d3"):
        for system, mse in [("a", 0.2), ("b", 0.4)]:
            for fold in range(6):
                for n in (10, 20, 40):
                    rows += [("x", dataset, system, 0, fold, n, n, "mse", mse + 0.001 * fold, 0.0, 15),
                             ("x", dataset, system, 0, fold, n, n, "aulc", 100.0 + fold, 0.0, 15)]
    records = pd.DataFrame(rows, columns=list(RECORD_COLUMNS))
    # The thesis: a beats b on MSE on 2 of 3 datasets (W > L); on AULC b wins (W < L), which
    # "A is better than B" gets wrong. Ours: MSE 3/0/0 (holds), AULC 0/3/0 (W = L: does not).
    published = tmp_path / "pub.tsv"
    published.write_text("table\tcomparison\tdataset\tpoint\tsystem\tmetric\tstatistic\tvalue\n" + "".join(
        f"7.x\ta_vs_b\t\t\t\t{metric}\t{stat}\t{value}\n"
        for metric, counts in [("mse", (2, 1, 0)), ("aulc", (0, 1, 2))]
        for stat, value in zip(("sig_w", "sig_d", "sig_l"), counts, strict=True)))
    out = ReportOutputs(tables=tmp_path / "tables", figures=tmp_path / "figures")
    out.tables.mkdir()
    out.figures.mkdir()
    settings = ReportSettings(
        job=JobSettings(experiment="x", folds=6, seed=0, options=ActiveSettings(metrics=("accuracy", "mse", "aulc"))),
        kind="active", scale="pilot", datasets=("d1", "d2", "d3"), params={"a": {}, "b": {}},
        report={"variant": "probability", "comparisons": [{"a": "a", "b": "b", "table": "7.x"}]},
        published=(str(published),),
    )  # fmt: skip
    report = get_kind("active").report(records, pd.DataFrame(), out, settings)
    assert (out.tables / "probability_tables.md").is_file()
    paths = ReplicationPaths(tmp_path / "replication.md", tmp_path / "replication.csv", tmp_path / "conclusions.csv")
    write_replication_report(report, paths, experiment="x")
    text = paths.markdown.read_text()
    assert text.startswith("# Replication report: x (scale pilot)\n\n") and "**Pilot scale**" in text
    assert ('1 of 2 W > L sides hold (the trivial prediction "A is better than B" would hold in 1 of 2)'
            in text)
    conclusions = pd.read_csv(paths.conclusions).set_index("metric")
    assert conclusions.loc["mse", "holds"] and not conclusions.loc["aulc", "holds"]
    assert conclusions["comparable"].all()


# -- unit keys of the committed records ------------------------------------------------------
#: committed records (reproduced/<name>/records) -> the experiment file and scale they were
#: computed at, and settings of the file those records predate (none today: chapter 7's run 0
#: was recomputed with the aulc_fold metric).
COMMITTED = {
    "ch6_active": ("config/experiments/ch6_active.yaml", "pilot", {}),
    "ch6_utility": ("config/experiments/ch6_utility.yaml", "pilot", {}),
    "ch6_readings": ("reproduced/ch6_readings/ch6_committees_readings.yaml", "pilot", {}),
    "ch7_binary": ("config/experiments/ch7_binary.yaml", "pilot", {}),
    "ch7_multiclass": ("config/experiments/ch7_multiclass.yaml", "pilot", {}),
    "ch7_cpe": ("config/experiments/ch7_cpe.yaml", "pilot", {}),
    "ch7_early": ("config/experiments/ch7_early.yaml", "pilot", {}),
    "ch7_readings": ("reproduced/ch7_readings/ch7_readings.yaml", "pilot", {}),
    "ch7_readings_aulc": ("reproduced/ch7_readings/ch7_readings_aulc.yaml", "pilot", {}),
    "ch7_readings_rejection": ("reproduced/ch7_readings/ch7_readings_rejection.yaml", "pilot", {}),
}


@pytest.mark.parametrize("name", sorted(COMMITTED))
def test_the_job_settings_hash_to_the_committed_unit_keys(tmp_path: Path, name: str) -> None:
    """Every unit of the committed per-job records gets the key it was stored under, so a run
    with ``records_from`` reuses them (the layout of the settings before the kinds declared
    typed settings: ``systems``, ``n_folds``, own keys only when the file sets them); or, for
    a system whose arithmetic has been revised since, the key of its first arithmetic
    (revision 0), which no run reuses any more."""
    from redecorate.job_records import arithmetic_revision, job_record_info, unit_key

    path, scale, older = COMMITTED[name]
    data = yaml.safe_load((REPO / path).read_text())
    data.update(older)
    if data["report"].get("comparisons"):
        data["report"].setdefault("variant", "probability")
    copy = tmp_path / Path(path).name
    copy.write_text(yaml.safe_dump(data, sort_keys=False))
    kind = get_kind("active")
    job = kind.job_settings(load_experiment(copy, schema=SCHEMA, scale=scale))
    files = sorted((REPO / "reproduced" / name / "records").glob("*/*.parquet"))
    assert files
    checked = 0
    for file in files:
        info = job_record_info(file)
        for unit, key in zip(info["units"], info["unit_keys"], strict=True):
            current = unit_key(kind, job, unit, file.parent.name)
            if key != current:
                assert arithmetic_revision(kind, job.algorithms[unit["algorithm"]]) > 0, (file, unit)
                assert unit_key(kind, job, unit, file.parent.name, revision=0) == key, (file, unit)
            checked += 1
    assert checked >= len(files)
