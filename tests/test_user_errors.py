"""What a user meets when something is wrong or shared: errors before any job, and outputs a
collaborator can read.

* a wrong-typed learner parameter (``n_estimators: fifteen``) fails in the dry run, naming the
  file, the key and what the learner's constraints expect;
* a malformed ``config/config.yaml`` fails with its file, line and key, not Snakemake's
  generic error;
* every scale the README names exists in every experiment file;
* files and directories the workflow writes respect the umask, as any file the user writes;
* ``snakemake --report`` finds its dependencies (pygments) in a plain install;
* a custom experiment of every kind without published values still gets its report;
* a misspelt key, dataset, scale or experiment name gets the name meant; a value no job could
  use (an unknown strategy or score, a batch beyond the pool, k beyond every dataset's
  features) fails when the file is read, i.e. in ``snakemake -n``.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml
from shipped_experiments import shipped_experiment_files, shipped_experiments

from redecorate.config import ExperimentConfigError
from redecorate.experiments import check_learner_params, load_experiment, report_settings
from redecorate.kinds import KINDS
from redecorate.util import atomic_dir, atomic_files, write_parquet_atomic

REPO = Path(__file__).resolve().parents[1]
SCHEMA = REPO / "workflow" / "schemas" / "experiment.schema.yaml"


def _experiment(tmp_path: Path, algorithms: dict) -> Path:
    data = yaml.safe_load((REPO / "config" / "experiments" / "ch4_passive.yaml").read_text())
    data.update(name="typed", algorithms=algorithms, report={})
    path = tmp_path / "typed.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("params", "wanted"),
    [
        ({"n_estimators": "fifteen"}, "an int in the range [1, inf)"),
        ({"n_estimators": 15.5}, "an int in the range [1, inf)"),
        ({"n_estimators": True}, "an int in the range [1, inf)"),
        ({"voting": "majority"}, "a str among"),
    ],
)
def test_a_wrong_typed_learner_parameter_fails_before_any_job(tmp_path, params, wanted) -> None:
    spec = load_experiment(_experiment(tmp_path, {"bagging": params}), schema=SCHEMA)
    with pytest.raises(ExperimentConfigError) as info:
        check_learner_params(spec)
    message = str(info.value)
    name = next(iter(params))
    assert "typed.yaml" in message and f"key 'algorithms.bagging.{name}'" in message
    assert f"'{name}' parameter of Bagging" in message and wanted in message


def test_well_typed_parameters_pass(tmp_path) -> None:
    spec = load_experiment(
        _experiment(tmp_path, {"decorate": {"n_estimators": 15, "artificial_size": 1,
                                            "rejection": False}}), schema=SCHEMA)  # fmt: skip
    check_learner_params(spec)  # an int where a float is meant is fine


@pytest.mark.parametrize("scale", ["thesis", "quick", "smoke", "pilot"])
def test_every_shipped_experiment_has_every_scale_the_readme_names(scale) -> None:
    assert f"`{scale}`" in (REPO / "README.md").read_text() or f"scale={scale}" in (REPO / "README.md").read_text()
    for name in shipped_experiments():
        load_experiment(REPO / "config" / "experiments" / f"{name}.yaml", schema=SCHEMA, scale=scale)


def test_the_readme_describes_every_shipped_experiment_file() -> None:
    shipped = subprocess.run(["git", "ls-files", "config/experiments"], cwd=REPO, capture_output=True,
                             text=True, check=False)  # fmt: skip
    if shipped.returncode != 0:
        pytest.skip("not a git checkout")
    files = {Path(line).stem for line in shipped.stdout.split()}
    assert files == set(shipped_experiments())


def test_an_experiment_without_profiles_is_left_out_of_all_at_that_scale(tmp_path: Path) -> None:
    """A user's file needs only the thesis protocol: `experiments: all` at scale quick leaves
    it out, saying which and how to add it; named explicitly, the missing profile is an error."""
    copy = tmp_path / "repo"
    copy.mkdir()
    for name in ("Snakefile", "workflow", "config", "scripts"):
        source = REPO / name
        (shutil.copytree(source, copy / name, symlinks=True) if source.is_dir()
         else shutil.copy(source, copy / name))  # fmt: skip
    for path in (copy / "config" / "experiments").glob("*.yaml"):
        if path.stem != "ch4_passive":
            path.unlink()
    data = yaml.safe_load((REPO / "config" / "experiments" / "ch4_passive.yaml").read_text())
    data.update(name="mine", report={})
    del data["profiles"]
    (copy / "config" / "experiments" / "mine.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")

    def dry(*config: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "snakemake", "--snakefile", str(copy / "Snakefile"), "-n", "--cores", "1",
             "--directory", str(tmp_path), "--config", "scale=quick", *config],
            capture_output=True, text=True, timeout=300)  # fmt: skip

    result = dry()
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-3000:]
    assert "mine: left out at scale 'quick'" in output and "add profiles.quick" in output, output[-3000:]
    named = dry("experiments=[mine]")
    assert named.returncode != 0 and "has no profile 'quick'" in named.stdout + named.stderr


@pytest.mark.parametrize(
    ("overlay", "wanted"),
    [
        ({"runs": 1, "folds": 3}, r"profiles\.pilot'.*may only set datasets, runs; it sets folds"),
        ({"runs": 1, "datasets": ["iris", "zoo"]}, r"profiles\.pilot\.datasets'.*zoo not in"),
    ],
)
def test_a_pilot_profile_may_not_change_the_protocol(tmp_path, overlay, wanted) -> None:
    """Pilot reports count conclusions, so a pilot must be the source's protocol, thinner."""
    data = yaml.safe_load((REPO / "config" / "experiments" / "ch4_passive.yaml").read_text())
    data["datasets"] = ["iris", "labor"]
    data["profiles"]["pilot"] = overlay
    path = tmp_path / "pilot.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    with pytest.raises(ExperimentConfigError, match=wanted):
        load_experiment(path, schema=SCHEMA, scale="thesis")


def test_a_missing_scale_lists_the_ones_that_exist(tmp_path) -> None:
    with pytest.raises(ExperimentConfigError, match=r"no profile 'huge'.*thesis, quick, pilot, smoke"):
        load_experiment(REPO / "config" / "experiments" / "ch4_passive.yaml", schema=SCHEMA, scale="huge")


def test_a_malformed_config_file_names_file_line_and_key(tmp_path: Path) -> None:
    """A copy of the workflow whose config/config.yaml has a wrong type on one line."""
    copy = tmp_path / "repo"
    copy.mkdir()
    for name in ("Snakefile", "workflow", "config"):
        source = REPO / name
        (shutil.copytree(source, copy / name, symlinks=True) if source.is_dir()
         else shutil.copy(source, copy / name))  # fmt: skip
    text = (copy / "config" / "config.yaml").read_text().replace("job_seconds: 120", "job_seconds: soon")
    (copy / "config" / "config.yaml").write_text(text)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("job_seconds"))
    result = subprocess.run(
        [sys.executable, "-m", "snakemake", "--snakefile", str(copy / "Snakefile"), "-n",
         "--cores", "1", "--directory", str(tmp_path)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert f"config/config.yaml:{line}: job_seconds: 'soon' is not of type 'number'" in output, output[-3000:]


def test_outputs_respect_the_umask(tmp_path: Path) -> None:
    previous = os.umask(0o022)
    try:
        write_parquet_atomic(pd.DataFrame({"a": [1]}), tmp_path / "records.parquet")
        with atomic_dir(tmp_path / "tables") as staged:
            (staged / "t.csv").write_text("x\n")
        with atomic_files(tmp_path / "a.md", tmp_path / "b.csv") as (a, b):
            a.write_text("a")
            b.write_text("b")
    finally:
        os.umask(previous)
    for name in ("records.parquet", "tables/t.csv", "a.md", "b.csv"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o644, name
    assert stat.S_IMODE((tmp_path / "tables").stat().st_mode) == 0o755


def test_the_report_dependencies_are_installed() -> None:
    """snakemake --report imports pygments and jinja2; both come with a plain install."""
    import importlib.metadata

    requires = importlib.metadata.requires("redecorate") or []
    assert any(r.split(">")[0].split("=")[0].strip() == "pygments" for r in requires), requires
    import jinja2  # noqa: F401
    import pygments  # noqa: F401


#: Per kind: a repository experiment file of that kind and one small dataset of its smoke scale.
KIND_EXAMPLES = {
    "passive": ("ch4_passive", "iris"),
    "noise": ("ch5_missing", "iris"),
    "active": ("ch6_active", "iris"),
    "acquisition": ("ch8_afa", "autos"),
    "feature_subsets": ("fs_ensembles", "iris"),
    "online": ("oza_online", "balance-scale"),
}


def test_every_kind_has_a_report_example() -> None:
    assert set(KIND_EXAMPLES) == set(KINDS)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(KIND_EXAMPLES))
def test_a_custom_experiment_without_published_values_gets_its_report(tmp_path, kind) -> None:
    """A user's own experiment has no published tables (``report.published`` absent): its
    report is the kind's tables and figures, and a replication report saying so, as the
    workflow's report rule writes them (same settings, same output names)."""
    import smoke_support as smoke


    if (reason := smoke.mirror_missing_reason()) is not None:
        pytest.skip(reason)
    name, dataset_name = KIND_EXAMPLES[kind]
    data = yaml.safe_load((REPO / "config" / "experiments" / f"{name}.yaml").read_text())
    data["report"].pop("published", None)
    data["name"] = "custom"
    data["profiles"]["smoke"]["datasets"] = [dataset_name]
    path = tmp_path / "custom.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    spec = load_experiment(path, schema=SCHEMA, scale="smoke")
    assert report_settings(spec, REPO / "config" / "published").published == ()
    replication, out = smoke.smoke_report(spec, dataset_name, tmp_path)
    assert replication.markdown.startswith("# ")
    # not titled as a comparison with a source it has nothing from
    assert "published (" not in replication.markdown.splitlines()[0], replication.markdown.splitlines()[0]
    assert any(out.tables.iterdir())
    # Nothing published, nothing compared: no cell "not run" against another experiment's tables.
    assert "status" not in replication.cells or not (replication.cells["status"] == "not run").any()


# What a new user met (issue 29): every mistake below fails when the experiment file is read,
# which is what `snakemake -n` does, with the file, the key and the fix.


def _variant(tmp_path: Path, source: str, change, name: str = "custom") -> Path:
    """A copy of ``config/experiments/<source>.yaml`` as a user's file, changed by ``change``."""
    data = yaml.safe_load((REPO / "config" / "experiments" / f"{source}.yaml").read_text())
    data["name"] = name
    change(data)
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def _read_error(path: Path, scale: str = "thesis") -> str:
    from redecorate.data import load_registry

    with pytest.raises(ExperimentConfigError) as info:
        load_experiment(path, schema=SCHEMA, scale=scale, known_datasets=load_registry())
    return str(info.value)


@pytest.mark.parametrize("scale", ["thesis", "quick", "smoke", "pilot"])
def test_every_experiment_passes_the_checks_that_use_the_registry(scale) -> None:
    """The checks of dataset sizes (batch vs pool, k vs features) accept the repository's files
    (the shipped ones: a user's own file need not define every scale)."""
    from redecorate.data import load_registry

    registry = load_registry()
    for path in shipped_experiment_files():
        load_experiment(path, schema=SCHEMA, scale=scale, known_datasets=registry)


def test_a_wrong_feature_subset_strategy_names_the_key_and_the_valid_ones(tmp_path) -> None:
    """Asked of the learner, as every learner parameter is (its constraints)."""
    path = _variant(tmp_path, "fs_ensembles",
                    lambda d: d["algorithms"]["top_gain_k2"].update(strategy="info_gain"))  # fmt: skip
    with pytest.raises(ExperimentConfigError) as info:
        check_learner_params(load_experiment(path, schema=SCHEMA))
    message = str(info.value)
    assert f"{path}: key 'algorithms.top_gain_k2.strategy': The 'strategy' parameter" in message
    assert "Got 'info_gain' instead. Did you mean 'top_gain'?" in message
    assert all(f"'{s}'" in message for s in ("random", "top_gain", "cumulative_gain", "feature_boost"))


def test_a_wrong_active_score_names_the_key_and_the_valid_ones(tmp_path) -> None:
    path = _variant(tmp_path, "ch6_active",
                    lambda d: d["algorithms"].update(active_decorate={"score": "entropy_margin"}))  # fmt: skip
    message = _read_error(path)
    assert f"{path}: key 'algorithms.active_decorate': " in message
    assert "unknown score 'entropy_margin'" in message
    assert "Did you mean" in message and "probability_margin" in message  # among the valid ones


def test_k_at_least_every_datasets_features_is_refused(tmp_path) -> None:
    """k: 50 on labor's 16 features: every member sees every feature (bagged J48)."""

    def change(data: dict) -> None:
        data.update(datasets=["labor"], profiles={})
        data["algorithms"]["random_k2"]["k"] = 50

    message = _read_error(_variant(tmp_path, "fs_ensembles", change))
    assert "key 'algorithms.random_k2.k': k=50" in message and "(labor 16)" in message
    assert "fix: set k below 16" in message


def test_k_above_some_datasets_features_is_the_sources_cap(tmp_path) -> None:
    """The source's "≤ 12" columns: k = 12 on iris (4 features) beside labor (16) is allowed."""
    from redecorate.data import load_registry

    path = _variant(tmp_path, "fs_ensembles", lambda d: d.update(datasets=["iris", "labor"]))
    load_experiment(path, schema=SCHEMA, known_datasets=load_registry())


@pytest.mark.parametrize(
    ("settings", "scale", "wanted"),
    [
        ({"batch_size": 290}, "quick",
         r"key 'batch_size': 290 examples per iteration .* on dataset 'sk-iris' exceed the end of "
         r"its curve, 60 examples \(max_labeled 60.*fix: set batch_size for 'sk-iris' to at most 60"),
        ({"batch_size": {"default": 1, "iris": 200}}, "thesis",
         r"key 'batch_size.iris': 200 .* 135 examples \(the pool: about 135 training examples of "
         r"150 at 10-fold CV"),
        ({"initial_size": 200}, "thesis", r"key 'initial_size': 200 initial labeled examples"),
    ],
)  # fmt: skip
def test_a_batch_larger_than_the_pool_names_the_key_the_user_set(tmp_path, settings, scale, wanted) -> None:
    message = _read_error(_variant(tmp_path, "ch6_active", lambda d: d.update(settings)), scale)
    assert re.search(wanted, message), message


def test_a_negative_batch_size_says_what_is_wrong_with_it(tmp_path) -> None:
    message = _read_error(_variant(tmp_path, "ch6_active", lambda d: d.update(batch_size=-2)))
    assert "batch_size: -2 is less than the minimum of 1" in message
    assert "is not of type" not in message


def test_a_misspelt_key_points_at_its_line_and_the_key_meant(tmp_path) -> None:
    path = _variant(tmp_path, "ch6_active", lambda d: d.update(max_labelled=60))
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if t.startswith("max_labelled"))
    message = _read_error(path)
    assert f"{path}:{line}: max_labelled: unknown key 'max_labelled'. Did you mean 'max_labeled'?" in message


def test_a_dataset_one_letter_off_gets_the_close_name_not_the_registry(tmp_path) -> None:
    message = _read_error(_variant(tmp_path, "ch4_passive", lambda d: d.update(datasets=["iris", "labr"])))
    assert "key 'datasets': unknown dataset 'labr'; Did you mean 'labor'?" in message
    assert "anneal" not in message  # not the ~70 registry keys


def test_a_misspelt_scale_is_blamed_on_the_scale(tmp_path) -> None:
    with pytest.raises(ExperimentConfigError) as info:
        load_experiment(REPO / "config" / "experiments" / "ch4_passive.yaml", schema=SCHEMA, scale="thesiss")
    message = str(info.value)
    assert message.startswith("config key 'scale'") and "Did you mean 'thesis'?" in message


def test_an_unknown_experiment_name_lists_the_available_ones() -> None:
    from redecorate.experiments import experiment_file

    with pytest.raises(ExperimentConfigError) as info:
        experiment_file("ch4_pasive", REPO / "config" / "experiments")
    message = str(info.value)
    assert "config key 'experiments'" in message and "Did you mean 'ch4_passive'" in message
    assert "fs_ensembles" in message


@pytest.mark.parametrize(
    ("text", "class_attribute"),
    [("a,b,label\n1,x,yes\n2,y,no\n3,x,yes\n4,y,no\n", None),  # the default: the last column
     ("label,a,b\nyes,1,x\nno,2,y\nyes,3,x\nno,4,y\n", 0)],  # a 0-based index
)  # fmt: skip
def test_a_csv_dataset_takes_the_last_column_as_its_class_unless_told(tmp_path, text, class_attribute) -> None:
    """As the registry schema says of every source; it was required for CSV files alone."""
    from redecorate.data import load_dataset, load_registry

    (tmp_path / "t.csv").write_text(text)
    entry = {"source": "csv", "path": str(tmp_path / "t.csv"), "instances": 4, "classes": 2,
             "attributes": 2}  # fmt: skip
    if class_attribute is not None:
        entry["class_attribute"] = class_attribute
    registry = tmp_path / "datasets.yaml"
    registry.write_text(yaml.safe_dump({"datasets": {"table": entry}}), encoding="utf-8")
    schema = REPO / "workflow" / "schemas" / "datasets.schema.yaml"
    dataset = load_dataset("table", registry=load_registry(registry, schema_path=schema))
    assert dataset.y.name == "label" and list(dataset.X.columns) == ["a", "b"]


@pytest.mark.parametrize(
    ("source", "change", "config", "wanted"),
    [
        ("ch4_passive", None, ["scale=thesiss"], "config key 'scale'"),
        ("fs_ensembles", lambda d: d["algorithms"]["top_gain_k2"].update(strategy="info_gain"), [],
         "key 'algorithms.top_gain_k2.strategy': The 'strategy' parameter of FeatureSubsetEnsemble"),
        ("ch6_active", lambda d: d.update(batch_size=290), ["scale=quick"],
         "key 'batch_size': 290 examples per iteration"),
    ],
)  # fmt: skip
def test_the_dry_run_refuses_each_mistake_before_any_job(tmp_path, source, change, config, wanted) -> None:
    """`snakemake -n`, what a user runs first, fails with the library's message and the file."""
    import smoke_support as smoke

    path = _variant(tmp_path, source, change or (lambda d: None))
    result = smoke.run_snakemake(tmp_path, "-n", "--config", f"experiments=[{path}]", *config,
                                 cores=1, timeout=300)  # fmt: skip
    output = smoke.output_of(result)
    assert result.returncode != 0 and wanted in output and str(path) in output, output[-3000:]


@pytest.mark.parametrize("option", [("--cores", "0"), ("--jobs", "0")])
def test_no_cores_or_no_jobs_is_refused_instead_of_waiting_forever(tmp_path, option) -> None:
    """Snakemake with ``--cores 0`` schedules nothing and waits at "Select jobs to execute..."
    without a word; the workflow refuses it when it is read, saying what to give instead."""
    import smoke_support as smoke

    command = [*smoke.snakemake_command(tmp_path, "--config", "scale=quick", "experiments=[ch4_passive]",
                                        cores=None), *option]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, env=smoke.snakemake_env())
    output = smoke.output_of(result)
    assert result.returncode != 0, output[-3000:]
    assert "--cores 0 (or --jobs 0): no job could ever start" in output and "give at least 1" in output
    assert "Select jobs to execute" not in output


def _own_dataset(data: dict) -> None:
    """ch4_passive on the user's dataset ``mine`` alone, without the shipped scale profiles."""
    data.update(datasets=["mine"], report={}, runs=1, folds=2)
    data.pop("profiles")


_STRING_ARFF = "@relation t\n@attribute a numeric\n@attribute note string\n@attribute class {x,y}\n@data\n" + \
    "".join(f"{i},'w{i}',{'xy'[i % 2]}\n" for i in range(8))
_BLANK_CLASS_CSV = "a,b,class\n" + "".join(f"{i},{i + 1},{'' if i == 3 else 'xy'[i % 2]}\n" for i in range(8))


@pytest.mark.parametrize(
    ("file", "text", "sizes", "wanted"),
    [("s.arff", _STRING_ARFF, {"instances": 8, "classes": 2, "attributes": 2},
      ["the string attribute(s) 'note' (line 3)", "declare each as nominal", "'attributes: 1'"]),
     ("b.csv", _BLANK_CLASS_CSV, {"instances": 8, "classes": 2, "attributes": 2},
      ["after dropping 1 row(s) with a missing class (file line 5)", "fill in the class of those rows"]),
     ("s.arff", _STRING_ARFF, {"instances": 9, "classes": 2, "attributes": 1},
      ["has 8 instances, expected 9", "update 'instances'"])],
    ids=["string-attribute", "blank-class-cell", "instance-count"],
)  # fmt: skip
def test_a_local_dataset_the_loader_refuses_fails_the_dry_run(tmp_path, file, text, sizes, wanted) -> None:
    """A user's own file (a registry ``path``) is read in ``snakemake -n`` before it is first
    prepared, so a string attribute, a blank class cell or a wrong count in the registry is
    named there, with the line and the fix, not in the preparation job."""
    import smoke_support as smoke

    data = tmp_path / file
    data.write_text(text, encoding="utf-8")
    registry = tmp_path / "datasets.yaml"
    registry.write_text(yaml.safe_dump({"datasets": {"mine": {"source": data.suffix[1:], "path": str(data), **sizes}}}),
                        encoding="utf-8")  # fmt: skip
    experiment = _variant(tmp_path, "ch4_passive", _own_dataset)
    result = smoke.run_snakemake(tmp_path, "-n", "--config", f"experiments=[{experiment}]", f"registry={registry}",
                                 cores=1, timeout=300)  # fmt: skip
    output = smoke.output_of(result)
    assert result.returncode != 0, output[-3000:]
    for part in wanted:
        assert part in output, (part, output[-3000:])
    assert str(data) in output and str(registry) in output


def test_a_dropped_string_attribute_is_said_in_the_dry_run(tmp_path) -> None:
    import smoke_support as smoke

    data = tmp_path / "s.arff"
    data.write_text(_STRING_ARFF, encoding="utf-8")
    registry = tmp_path / "datasets.yaml"
    registry.write_text(yaml.safe_dump({"datasets": {"mine": {"source": "arff", "path": str(data), "instances": 8, "classes": 2}}}),
                        encoding="utf-8")  # fmt: skip
    experiment = _variant(tmp_path, "ch4_passive", _own_dataset)
    result = smoke.run_snakemake(tmp_path, "-n", "--config", f"experiments=[{experiment}]", f"registry={registry}",
                                 cores=1, timeout=300)  # fmt: skip
    output = smoke.output_of(result)
    assert result.returncode == 0, output[-3000:]
    assert "Note: dataset 'mine'" in output and "dropped string attribute 'note' (line 3" in output


@pytest.mark.parametrize("text", ["name: x\nkind: passive\n\tseed: 1\n", "name: x\nalgorithms:\n\tj48: {}\n"])
def test_a_tab_in_yaml_is_called_a_tab(tmp_path, text) -> None:
    """PyYAML reports a tab as "found character that cannot start any token"; the message
    names the tab, its line and the fix."""
    from redecorate.config import ConfigError, load_yaml

    path = tmp_path / "tabbed.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_yaml(path)
    assert f"{path}:3:1:" in str(info.value) and "tab character" in str(info.value)
    assert "replace the tab with spaces" in str(info.value)
