"""Your learner against the dissertation: an experiment file that runs a new learner beside a
chapter's systems, at that chapter's protocol, and reports it against each of them.

Why: the question a researcher brings is "does my learner beat DECORATE where DECORATE was
strong, and J48, Bagging, AdaBoost and Random Forests too?". The answer needs the chapter's
protocol exactly (seed, datasets, runs, folds, curve points or noise levels, the systems'
parameters), and nothing of the thesis systems computed again: a unit's key depends on its
kind, settings, dataset and algorithm entry, not on the experiment's name, so with
``records_from=reproduced`` every unit of the chapter's systems is read from the committed
records and only the new learner's are computed. The generated file is an ordinary experiment
file (``docs/experiments.md``): edit it as any other.

Usage::

    python3 -m redecorate.versus ch4_passive extra_trees            # writes config/experiments/ch4_passive_vs_extra_trees.yaml
    python3 -m redecorate.versus ch5_class_noise my_learner --param n_estimators=50 --label mine

then the plan and the run it prints, for example::

    python3 -m redecorate.plan experiments=[ch4_passive_vs_extra_trees] records_from=reproduced data_mirror=...
    snakemake --cores 2 --config experiments=[ch4_passive_vs_extra_trees] records_from=reproduced data_mirror=...

The report compares the new learner with every system of the chapter: per curve point (or noise
level) W/D/L, significant W/D/L under the paired and the corrected resampled t-test, the GM
error ratio, Friedman ranks and the critical-difference diagram. It names no published values:
it is not a replication, and says so.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from redecorate.config import ConfigError, ExperimentConfigError, load_yaml
from redecorate.learners.registry import UnknownAlgorithmError, learner_class

__all__ = ["CHAPTERS", "versus_experiment", "write_versus_experiment"]

CHAPTERS: Mapping[str, str] = {
    "ch4_passive": "learning curves (Tables 4.2-4.5)",
    "ch5_class_noise": "class noise (Tables 5.5-5.7)",
    "ch5_feature_noise": "feature noise (Tables 5.8-5.10)",
    "ch5_missing": "missing features (Tables 5.2-5.4)",
}
"""The experiment files a learner can be put against: those whose systems are learners (the
active-learning chapters compare query strategies, which a learner alone is not)."""


def _parse_value(text: str) -> Any:
    """A ``--param`` value as YAML reads it (``50`` an int, ``true`` a bool, ``gini`` a str)."""
    return yaml.safe_load(text)


def versus_experiment(chapter: str, learner: str, *, label: str | None = None,
                      params: Mapping[str, Any] | None = None, repo: str | Path = ".") -> dict[str, Any]:
    """The experiment file (as a mapping) that runs ``learner`` (a registry name, with
    ``params``) under ``label`` beside every system of ``chapter``, at its protocol.

    Raises:
        ExperimentConfigError: ``chapter`` is not one of :data:`CHAPTERS`, ``learner`` is not a
            registry name, or ``label`` is already one of the chapter's systems.
    """
    if chapter not in CHAPTERS:
        raise ExperimentConfigError(f"no chapter experiment {chapter!r} to put a learner against; fix: one of "
                                    f"{', '.join(CHAPTERS)}")
    try:
        learner_class(learner, where="the learner of `python3 -m redecorate.versus`")
    except UnknownAlgorithmError as exc:
        raise ExperimentConfigError(str(exc)) from None
    label = label or learner
    path = Path(repo) / "config" / "experiments" / f"{chapter}.yaml"
    source = load_yaml(path)
    systems = list(source["algorithms"])
    if label in systems:
        raise ExperimentConfigError(f"{path}: the chapter already has a system {label!r}; fix: give the new one "
                                    "another name with --label")
    entry = {"learner": learner, **dict(params or {})} if (params or label != learner) else {}
    report: dict[str, Any] = {}
    if source["kind"] == "passive":
        report = {"baseline": label, "others": systems}
    else:  # noise: one table per (new learner, system) pair at every level
        report = {"comparisons": [{"a": label, "b": system} for system in systems]}
    out = {key: value for key, value in source.items() if key not in ("name", "description", "algorithms", "report")}
    return {
        "name": f"{chapter}_vs_{label}",
        "description": f"{label} ({learner}) against every system of {chapter}, {CHAPTERS[chapter]}, at its "
                       "protocol; not a replication (no published values).",
        **{k: out.pop(k) for k in ("kind", "seed") if k in out},
        "algorithms": {**source["algorithms"], label: entry},
        **out,
        "report": report,
    }


def write_versus_experiment(data: Mapping[str, Any], directory: str | Path) -> Path:
    """Write ``data`` as ``<directory>/<name>.yaml`` (refusing to replace a file) and return it."""
    path = Path(directory) / f"{data['name']}.yaml"
    if path.exists():
        raise ConfigError(f"{path} exists; fix: remove it, or name the new system otherwise with --label")
    header = ("# Written by `python3 -m redecorate.versus`: a new learner against every system of the chapter, at its\n"
              "# protocol. The chapter's systems keep their settings, so `records_from=reproduced` reads their units.\n")
    path.write_text(header + yaml.safe_dump(dict(data), sort_keys=False, width=100), encoding="utf-8")
    return path


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python3 -m redecorate.versus", description=__doc__.splitlines()[0])
    parser.add_argument("chapter", help=f"the chapter's experiment: {', '.join(CHAPTERS)}")
    parser.add_argument("learner", help="the learner's registry name (src/redecorate/learners/registry.py)")
    parser.add_argument("--label", help="the system's name in the tables (default: the learner's name)")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="a learner parameter, as in an experiment file (repeatable)")
    parser.add_argument("--repo", default=".", help="the repository (default: the current directory)")
    parser.add_argument("--out", help="where to write the file (default: <repo>/config/experiments)")
    parser.add_argument("--data-mirror", default="../shared/datasets/uci",
                        help="the data_mirror of the commands printed (default: ../shared/datasets/uci)")
    return parser


def main(argv: Iterable[str] | None = None) -> int:
    """Write the experiment file and print the plan and run commands."""
    args = _parser().parse_args(None if argv is None else list(argv))
    params: dict[str, Any] = {}
    for item in args.param:
        key, sep, value = item.partition("=")
        if not sep or not key:
            print(f"--param {item!r}: fix: write KEY=VALUE (e.g. --param n_estimators=50)", file=sys.stderr)
            return 2
        params[key.strip()] = _parse_value(value)
    try:
        data = versus_experiment(args.chapter, args.learner, label=args.label, params=params, repo=args.repo)
        path = write_versus_experiment(data, args.out or Path(args.repo) / "config" / "experiments")
    except ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    shared = f"experiments=[{data['name']}] records_from=reproduced data_mirror={args.data_mirror}"
    print(f"wrote {path}\n\nWhat it costs (only the new units are left; the chapter's are read from reproduced/):\n"
          f"  python3 -m redecorate.plan {shared}\nThe run:\n  snakemake --cores 2 --config {shared}\n"
          f"Its report: results/{data['name']}/replication.md and tables/ (W/D/L, Sig. W/D/L, GM ratios, "
          "Friedman ranks, CD diagram)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
