"""Kind ``active``: pool-based active learning with committees (dissertation chapter 6).

Protocol (spec Part 3 E6.3): runs of k-fold CV; in each fold the training fold is the
unlabeled pool and the test fold is held out. Every system starts from the same random
initial labeled set (m examples unless ``initial_size`` says otherwise), labels m examples per
iteration (``batch_size``: 1 by default; 2 for primary-tumor; 3 for breast-w, soybean,
diabetes, vowel, credit-g), retrains and is tested after every iteration, until the pool is
exhausted or ``max_labeled`` (Table 6.4's maximum train size) is reached.

Unit of work: one system × one run, every fold's curve
(:func:`redecorate.active.curve.active_learning_curve`, one fold in :func:`_evaluate_fold`). Records: ``point`` and ``n_train``
are the number of labeled examples, ``metric`` ``accuracy`` (% of the test fold). The
systems are the experiment's ``algorithms:``, labels of :data:`redecorate.active.systems.SYSTEMS`
entries (``qbag: {}``) or labelled variants (``decorate: {system: random}``,
``ad_js: {system: active_decorate, score: js_divergence}``).

Report: one of two variants (``report.variant``), each a report module:

- ``utilization`` (chapter 6, the default, :mod:`redecorate.report.active_learning`): Table 6.1 (data utilization: examples needed to
  reach the target error, and the ratio to random sampling), Table 6.2 (top-20 % error
  reduction over random sampling, paired t-test), Table 6.4 (% error reduction over all
  points) of ``report.others`` over ``report.baseline``, learning-curve figures, and
  reproduced vs published;
- ``probability`` (chapter 7, :mod:`redecorate.report.probability`): the ``report.comparisons`` "A vs B" of Tables 7.1–7.4 (% MSE
  reduction, % AULC increase, w/d/l of significant results), MSE curves, and reproduced vs
  published.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from redecorate.config import ExperimentConfigError
from redecorate.kinds.jobs import dataset_shape
from redecorate.kinds.kind import (
    DatasetShape,
    ExperimentKind,
    ExperimentSpec,
    Fold,
    Record,
    Unit,
)
from redecorate.kinds.report_keys import comparisons_schema, deferred_report, require_comparisons
from redecorate.learners.cost import engine_speed, estimated_fit_seconds, estimated_members
from redecorate.protocol.seeds import seed_sequence
from redecorate.protocol.settings import JobSettings, KeyLayout, KindSettings

__all__ = ["ACTIVE", "REPORT_VARIANTS", "SYSTEM_KEY", "VOTE_MARGIN_SYSTEMS", "ActiveSettings", "arithmetic_revision", "per_dataset", "report_variant", "systems_of"]

SYSTEM_KEY = "system"
"""The key of an ``algorithms:`` entry naming the active-learning system of a labelled variant."""

_PER_DATASET = {
    "description": "a whole number, or a mapping dataset -> number with an optional 'default'",
    "oneOf": [
        {"type": "integer", "minimum": 1},
        {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {"type": "integer", "minimum": 1},
        },
    ],
}

SCHEMA: dict[str, Any] = {
    "required": [],
    "properties": {
        "batch_size": {
            **_PER_DATASET,
            "description": (
                "m, examples labeled per iteration: a number, or per dataset with a 'default' "
                "(section 6.3: 1; 2 for primary-tumor; 3 for breast-w, soybean, diabetes, "
                "vowel, credit-g)"
            ),
        },
        "initial_size": {
            **_PER_DATASET,
            "description": (
                "size of the random initial labeled set (the same for every system of a "
                "fold); default the batch size (the dissertation does not say, spec Part 3 E6.3)"
            ),
        },
        "max_labeled": {
            **_PER_DATASET,
            "description": (
                "stop each curve at this many labeled examples (Table 6.4's maximum train "
                "size); default the whole pool"
            ),
        },
        "schedule": {
            "description": (
                "chapter 7's acquisition schedule instead of a fixed batch size: 'batches' "
                "batches growing geometrically (or as 'growth' says) from 'initial' labeled "
                "examples to the whole pool (the dissertation makes 33 and prints neither "
                "sizes nor the initial set, spec E7)"
            ),
            "type": "object",
            "additionalProperties": False,
            "required": ["initial", "batches"],
            "properties": {
                "initial": {"type": "integer", "minimum": 1},
                "batches": {"type": "integer", "minimum": 1},
                "growth": {
                    "description": (
                        "how the batches grow: geometric (the reading adopted; the default, "
                        "left out of unit keys), linear or equal (ablations, "
                        "reproduced/ch7_readings_schedule)"
                    ),
                    "enum": ["geometric", "linear", "equal"],
                },
            },
        },
        "metrics": {
            "description": (
                "what each curve point records: accuracy (%, always), mse (multi-class Brier "
                "score), aulc (area under the lift chart, classes weighted by the labeled "
                "set's priors) and aulc_fold (the same, weighted by the whole training fold's "
                "priors)"
            ),
            "type": "array",
            "minItems": 1,
            "uniqueItems": True,
            "contains": {"const": "accuracy"},
            "items": {"enum": ["accuracy", "mse", "aulc", "aulc_fold"]},
            "default": ["accuracy"],
        },
    },
    "profile_properties": {
        "max_labeled": {"$ref": "#/properties/max_labeled"},
        "schedule": {"$ref": "#/properties/schedule"},
    },
}

REPORT_VARIANTS = ("utilization", "probability")
"""The active kind's two reports (``report.variant``): chapter 6's data utilization and error
reductions over a baseline (the default), chapter 7's "A vs B" comparisons of probability
estimates."""

REPORT_SCHEMA: dict[str, Any] = {
    "variant": {
        "description": (
            "which report: utilization (chapter 6, the default: Tables 6.1-6.4 of report.others "
            "over report.baseline) or probability (chapter 7: the report.comparisons of Tables "
            "7.1-7.4, % MSE reduction and % AULC increase)"
        ),
        "enum": list(REPORT_VARIANTS),
        "default": "utilization",
    },
    "comparisons": comparisons_schema(
        'variant probability: the "A vs B" tables of chapter 7 (a and b are entries of '
        "algorithms; table is the thesis's table number, 7.1-7.4, which selects the published "
        "values to compare with)", min_items=1),
}


@dataclass(frozen=True)
class ActiveSettings(KindSettings):
    """The active kind's own keys.

    The per-dataset keys hold a number or a mapping dataset -> number with an optional
    ``default`` (:func:`per_dataset`). None means "not set": the batch size is then 1, the
    initial set one batch and the curve runs to the whole pool. These defaults are not
    written into the settings because unit keys carry a key only when the file sets it (as
    they did when the records in ``reproduced/`` were computed), and ``batch_size: 1`` is
    set in a file (ch7_early).

    Attributes:
        batch_size: m, examples labeled per iteration.
        initial_size: the random initial labeled set; None: one batch.
        max_labeled: where each curve stops (Table 6.4's maximum train size); None: the pool.
        schedule: chapter 7's ``{initial, batches}`` schedule of growing batches instead of
            batches of m (``growth`` other than geometric, an ablation, is kept; the default
            is dropped so that unit keys stay those of the committed records); None:
            batches of m.
        metrics: what each curve point records (``accuracy`` always).
    """

    batch_size: int | Mapping[str, int] | None = None
    initial_size: int | Mapping[str, int] | None = None
    max_labeled: int | Mapping[str, int] | None = None
    schedule: Mapping[str, Any] | None = None
    metrics: tuple[str, ...] = ("accuracy",)

    def __post_init__(self) -> None:
        if self.schedule is not None and self.schedule.get("growth") == "geometric":
            object.__setattr__(self, "schedule", {k: v for k, v in self.schedule.items() if k != "growth"})


def per_dataset(value: Any, dataset: str, default: int | None) -> int | None:
    """A per-dataset setting: the number itself, or the dataset's entry, or ``default``."""
    if value is None:
        return default
    if isinstance(value, Mapping):
        return value.get(dataset, value.get("default", default))
    return int(value)


def systems_of(spec: ExperimentSpec) -> dict[str, dict[str, Any]]:
    """Algorithm label -> ``{"system": name, "params": {...}}`` (the job entries)."""
    return {label: _system_entry(spec, label) for label in spec.algorithms}


def _system_entry(spec: ExperimentSpec, label: str) -> dict[str, Any]:
    """The job entry of one system: its :data:`redecorate.active.systems.SYSTEMS` name (the
    ``system`` key, else the label's learner) and its parameters."""
    params = dict(spec.algorithms[label])
    name = str(params.pop(SYSTEM_KEY, spec.learner_of(label)))
    return {"system": name, "params": params}


VOTE_MARGIN_SYSTEMS = frozenset({"qbag", "qboost"})
"""Systems that rank the pool by their members' vote margin (:data:`redecorate.active.systems.SYSTEMS`)."""


def arithmetic_revision(entry: Mapping[str, Any]) -> int:
    """The arithmetic revision of one system's records (:attr:`ExperimentKind.arithmetic_revision`).

    Revision 1 (redecorate 1.0.0): a committee's mean distribution, its JS and KL divergences
    and the density weights are summed in a fixed order instead of by BLAS, whose kernels
    chose the order by CPU, and scores are compared on the tie grid
    (:func:`redecorate.arithmetic.on_tie_grid`) by both selection rules. Every system that
    scores the pool moved to it (reruns of committed units changed: docs/operations.md,
    "Determinism"), except random sampling, which scores nothing, and QBag and QBoost with
    their own vote margin and no density weights: a vote margin is a difference of sums of
    whole votes, or of the same members' weights added in member order, which neither change
    touches (their committed units rerun identical)."""
    system = str(entry.get("system"))
    params = entry.get("params") or {}
    if system == "random":
        return 0
    if system in VOTE_MARGIN_SYSTEMS and params.get("score", "vote_margin") == "vote_margin" \
            and params.get("density") is None:
        return 0
    return 1


def _schedule_sizes(schedule: Mapping[str, Any] | None, pool: int) -> list[int] | None:
    """Chapter 7's labeled-set sizes on a pool, or None for batches of a fixed size."""
    from redecorate.active.curve import schedule_sizes

    if schedule is None:
        return None
    return schedule_sizes(pool, schedule["initial"], schedule["batches"], schedule.get("growth", "geometric"))


def _fold_settings(options: ActiveSettings, dataset: str) -> dict[str, Any]:
    m = per_dataset(options.batch_size, dataset, 1)
    return {
        "batch_size": m,
        "initial_size": per_dataset(options.initial_size, dataset, m),
        "max_labeled": per_dataset(options.max_labeled, dataset, None),
    }


def _evaluate_fold(fold: Fold) -> list[Record]:
    """One fold's learning curve: the training fold is the pool, the test fold held out; one
    record per (labeled-set size, metric), ``point`` and ``n_train`` the labeled examples."""
    from redecorate.active.curve import active_learning_curve

    job, options, dataset = fold.job, fold.job.options, fold.dataset
    system = fold.entry
    metrics = list(options.metrics)
    # The fold's stream: keyed by (seed, dataset, run, fold), never by the system, so
    # every system of a fold starts from the same labeled examples.
    seed = seed_sequence(job.seed, "active", dataset.name, fold.run, fold.index)
    sizes = _schedule_sizes(options.schedule, len(fold.train))
    curve = active_learning_curve(
        dataset.X.iloc[fold.train], dataset.y.iloc[fold.train], dataset.X.iloc[fold.test],
        dataset.y.iloc[fold.test], system["system"], system["params"], seed=seed, sizes=sizes,
        metrics=metrics, **_fold_settings(options, dataset.name),
    )  # fmt: skip
    return [Record(point["n_labeled"], point["n_labeled"], metric, point[metric], point["fit_seconds"],
                   point["ensemble_size"])
            for point in curve for metric in metrics]  # fmt: skip


def _retraining_seconds(system: str, p: Mapping[str, Any], n: int, shape: DatasetShape) -> float:
    """Expected error reduction's extra work at one query: a model refitted per candidate and
    label (the dataset's declared classes) on the labeled set plus one example, then its
    evaluation sample scored."""
    if system != "eer":
        return 0.0
    one = (estimated_fit_seconds(p["model"], {}, n + 1, shape.n_attributes, inputs=shape.n_inputs,
                                 classes=shape.n_classes)
           + SCORE_SECONDS * p["evaluation"])  # fmt: skip
    return p["candidates"] * shape.n_classes * one


def _pool_size(shape: DatasetShape, n_folds: int) -> int:
    """The pool of a fold (its training part), as the declared size predicts it (±1: folds
    are stratified); the cost estimate and the check before any job use the same figure."""
    return max(2, round(shape.n_instances * (n_folds - 1) / n_folds))


SCORE_SECONDS = 8.3e-7
"""CPU seconds per pool example and committee member to score the pool at one iteration
(fitted with the learners' costs to the committed runs' CPU: with few labeled examples,
scoring the whole pool is most of an iteration), at the engines the model was fitted on: × the
committee's :func:`~redecorate.learners.cost.engine_speed` today."""


SCHEDULE_FIT_FACTOR = 0.85
"""Chapter 7's fits (a ``schedule`` of growing batches: unpruned Laplace PETs in every
committee) against the learners' cost model, fitted to the committed chapter-7 runs' CPU:
without it ch7_cpe and ch7_multiclass were planned at 1.58 and 1.46 times their measured
CPU, but ch7_readings, measured a day earlier on another machine, at 0.87; with it 1.34,
1.24 and 0.74 (``tests/test_cost_calibration.py`` holds every run within 1.5x). The model does not know attribute types, so per dataset it stays off by more:
all-nominal sets (nursery, car) are overpriced up to tenfold, numeric ones (optdigits,
segment, sonar) underpriced up to fourfold (docs/performance.md)."""


def _unit_cost(job: JobSettings, unit: Unit, shape: DatasetShape) -> float:
    """One fit per iteration, on a labeled set growing from m to the pool (or the maximum),
    and the pool scored by each committee."""
    from redecorate.active.curve import labeled_set_sizes
    from redecorate.active.systems import SYSTEMS, system_parameters

    k = job.folds
    pool = _pool_size(shape, k)
    options = job.options
    sizes = _schedule_sizes(options.schedule, pool)
    if sizes is None:
        fold = _fold_settings(options, shape.name)
        sizes = labeled_set_sizes(pool, fold["batch_size"], min(fold["initial_size"], pool),
                                  fold["max_labeled"])  # fmt: skip
    system = job.algorithms[unit["algorithm"]]
    p = system_parameters(system["system"], system["params"])
    per_fold = sum(
        estimated_fit_seconds(family, {}, n, shape.n_attributes, inputs=shape.n_inputs, classes=shape.n_classes)
        + SCORE_SECONDS * pool * estimated_members(family) * engine_speed(family)
        for family in SYSTEMS[system["system"]].models(p) for n in sizes
    ) + sum(_retraining_seconds(system["system"], p, n, shape) for n in sizes)
    return k * per_fold * (SCHEDULE_FIT_FACTOR if options.schedule is not None else 1.0)


def report_variant(report: Mapping[str, Any]) -> str:
    """The ``report.variant`` of an active experiment (``utilization`` when not set)."""
    return str(report.get("variant", REPORT_VARIANTS[0]))


def _check_report(spec: ExperimentSpec) -> None:
    """The report's variant and the keys it reads agree: chapter 7's ``comparisons`` only
    with ``variant: probability``, which needs them; chapter 6's ``baseline`` otherwise."""
    report = spec.report
    variant = report_variant(report)
    where = f"experiment file {spec.path}: key 'report"
    if variant == "probability" and not report.get("comparisons"):
        raise ExperimentConfigError(
            f"{where}.variant': variant probability (chapter 7) reports the 'A vs B' tables of "
            "report.comparisons, which the file does not give; add e.g. comparisons: "
            "[{a: bootstrap_js, b: bagged_pets, table: '7.2'}], or leave variant out for "
            "chapter 6's utilization report (report.baseline and report.others)"
        )
    if variant != "probability" and "comparisons" in report:
        raise ExperimentConfigError(
            f"{where}.comparisons': comparisons are chapter 7's 'A vs B' tables, reported by "
            f"variant probability; this report is variant {variant!r}"
            + ("" if "variant" in report else " (the default)")
            + ". Add 'variant: probability' to the report section, or remove comparisons for "
            "chapter 6's utilization report of report.others over report.baseline"
        )
    if variant == "utilization" and "baseline" not in report:
        raise ExperimentConfigError(
            f"{where}.baseline': the utilization report (chapter 6, the default variant) "
            "compares report.others with report.baseline, the random-sampling system, which "
            "the file does not name; add e.g. baseline: decorate, or 'variant: probability' "
            "with report.comparisons for chapter 7's tables"
        )


def _check(spec: ExperimentSpec) -> None:
    """Every system name and its parameters, before any job (with close matches): the system
    is built unfitted, so a value no job could use (``score: entropy_margin``) fails here.
    Then the report's variant against the keys it reads (:func:`_check_report`)."""
    from redecorate.active.systems import make_system
    for label, system in systems_of(spec).items():
        try:
            make_system(system["system"], system["params"])
        except (TypeError, ValueError) as exc:
            raise ExperimentConfigError(
                f"experiment file {spec.path}: key 'algorithms.{label}': {exc}"
            ) from None
    _check_report(spec)
    require_comparisons(spec)


def _setting_key(value: Any, key: str, dataset: str) -> str:
    """The key a user set a per-dataset value under: ``batch_size``, ``batch_size.iris`` or
    ``batch_size.default``."""
    if not isinstance(value, Mapping):
        return key
    return f"{key}.{dataset}" if dataset in value else f"{key}.default"


def _check_datasets(spec: ExperimentSpec, entries: Mapping[str, Any]) -> None:
    """The initial labeled set (one batch unless ``initial_size`` says otherwise) must fit in
    each dataset's curve, which ends at its pool or at ``max_labeled``: otherwise every job of
    the dataset fails. Chapter 7's ``schedule`` sets the sizes itself and is not checked."""
    options: ActiveSettings = spec.settings
    if options.schedule is not None:
        return
    for dataset, entry in entries.items():
        fold = _fold_settings(options, dataset)
        shape = dataset_shape(entry, dataset)
        pool = _pool_size(shape, spec.protocol.folds)
        end = pool if fold["max_labeled"] is None else min(pool, fold["max_labeled"])
        if fold["initial_size"] <= end:
            continue
        own = options.initial_size is not None
        name = "initial_size" if own else "batch_size"
        key = _setting_key(getattr(options, name), name, dataset)
        what = ("initial labeled examples" if own else
                "examples per iteration (the initial labeled set is one batch unless "
                "initial_size says otherwise)")  # fmt: skip
        limit = (f"max_labeled {fold['max_labeled']}" if end < pool else
                 f"the pool: about {pool} training examples of {shape.n_instances} at "
                 f"{spec.protocol.folds}-fold CV")  # fmt: skip
        raise ExperimentConfigError(
            f"experiment file {spec.path}: key '{key}': {fold['initial_size']} {what} on dataset "
            f"{dataset!r} exceed the end of its curve, {end} examples ({limit}, scale "
            f"{spec.scale!r}); fix: set {name} for {dataset!r} to at most {end}, "
            f"e.g. {name}: {{default: 1, {dataset}: {end}}}"
        )


ACTIVE = ExperimentKind(  # fmt: skip
    name="active",
    description="chapters 6-7: pool-based active learning curves, m examples per iteration",
    settings=ActiveSettings, schema=SCHEMA, report_schema=REPORT_SCHEMA,
    algorithm_entry=_system_entry, evaluate_fold=_evaluate_fold, unit_cost=_unit_cost,
    report=deferred_report({"utilization": "redecorate.report.active_learning",
                            "probability": "redecorate.report.probability"}),
    points_key=None, check=_check, check_datasets=_check_datasets,
    key_layout=KeyLayout(points=None, algorithms="systems"), algorithms_are_learners=False,
    # Chapter 7's schedule ends each fold's batches at its own pool: lined up by batch number.
    point_alignment=lambda options: "size" if options.schedule is None else "batch",
    arithmetic_revision=arithmetic_revision,
)
