"""Kind ``acquisition``: active feature-value acquisition (dissertation chapter 8, §8.2.1).

Protocol (spec Part 3 E8.2): runs of k-fold CV; test folds complete; in each training fold
every instance starts incomplete, showing only ``known_fraction`` (30 %) of the features,
chosen at random per split; m random instances start complete; Algorithm 7 completes m more
per iteration (J48: 10, DECORATE: 20) until every instance is complete, and the learner,
trained on all instances with their missing values, is tested after every batch
(:func:`redecorate.active.acquisition.acquisition_curve`).

``algorithms:`` entries name a learner, a scorer and the batch size:
``j48_error_sampling: {learner: j48, scorer: error_sampling, batch_size: 10}``; readings the
text leaves open are further keys of an entry (:mod:`redecorate.active.acquisition`):
``missing: impute`` (hidden values imputed, not C4.5's fractional instances), ``known:
per_instance`` (each incomplete instance its own known features) and ``initial_size`` (the
initial complete set G: a number of instances, or a fraction of the pool below 1; default the
batch size). An entry that leaves them out (or gives the default) has the unit keys it had
before they existed. A unit of work
is one algorithm × one run of k-fold CV, or with ``fold_units: true`` in the entry one
algorithm × one fold: a DECORATE curve on kr-vs-kp or hypothyroid takes half an hour or more
per fold (one fit per batch of 20 on up to 3,400 instances, most with 70 % of their values
missing), so a run-sized unit would be a job of several hours that loses everything when killed.
Records
(:func:`_evaluate_fold`): ``point`` and ``n_train`` are the number of complete instances. Report: Tables 8.2/8.3's %
error reduction over random sampling (all points) and top-20 % reduction, significance, the
learning curves, and reproduced vs published (the web-usage rows are listed as "data not
public").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from redecorate.config import ExperimentConfigError
from redecorate.kinds.kind import DatasetShape, ExperimentKind, ExperimentSpec, Fold, Record, Unit
from redecorate.kinds.report_keys import comparisons_schema, deferred_report
from redecorate.learners.cost import before_lever, estimated_fit_seconds
from redecorate.learners.features import FeatureSchema
from redecorate.learners.params import check_learner
from redecorate.protocol.folds import run_folds
from redecorate.protocol.seeds import seed_sequence
from redecorate.protocol.settings import JobSettings, KeyLayout, KindSettings

__all__ = ["ACQUISITION", "AcquisitionSettings"]

_OWN_KEYS = ("scorer", "batch_size", "fold_units", "missing", "known", "initial_size")

_READING_DEFAULTS: dict[str, Any] = {"missing": "fractional", "known": "per_split", "initial_size": None}
"""The readings of ch8_afa; an entry carries a reading key only when it differs, so that unit
keys of entries written before the keys existed stay as they were."""

SCHEMA: dict[str, Any] = {
    "required": [],
    "properties": {
        "known_fraction": {
            "description": (
                "share of the features an incomplete instance shows (a new random choice per "
                "split; section 8.2.1: 0.3)"
            ),
            "type": "number",
            "exclusiveMinimum": 0,
            "maximum": 1,
            "default": 0.3,
        },
    },
    "profile_properties": {},
}

REPORT_SCHEMA: dict[str, Any] = {"comparisons": comparisons_schema(
    '"A vs B" tables of Tables 8.2/8.3: % error reduction of a over b (all points and the top '
    "20 %), a and b entries of algorithms; table is the thesis's table number, which selects the "
    "published values to compare with")}


@dataclass(frozen=True)
class AcquisitionSettings(KindSettings):
    """The acquisition kind's own keys.

    Attributes:
        known_fraction: the share of the features an incomplete instance shows (§8.2.1:
            0.3); always a float (unit keys hash it as one).
    """

    known_fraction: float = 0.3

    def __post_init__(self) -> None:
        object.__setattr__(self, "known_fraction", float(self.known_fraction))


def _entry(spec: ExperimentSpec, label: str) -> dict[str, Any]:
    """The job entry of one algorithm: learner, its parameters, scorer and batch size, and the
    reading keys that differ from ch8_afa's."""
    params = dict(spec.algorithms[label])
    own = {k: params.pop(k) for k in _OWN_KEYS if k in params}
    entry: dict[str, Any] = {"learner": spec.learner_of(label), "params": params,
                             "scorer": own.get("scorer", "error_sampling"),
                             "batch_size": int(own.get("batch_size", 10))}  # fmt: skip
    if own.get("fold_units"):
        # Only when set, so that the entries (and unit keys) of run-sized units stay as
        # they were before the option existed.
        entry["fold_units"] = True
    entry.update({k: own[k] for k, default in _READING_DEFAULTS.items()
                  if own.get(k, default) != default})  # fmt: skip
    return entry


def _algorithms(spec: ExperimentSpec) -> dict[str, dict[str, Any]]:
    return {label: _entry(spec, label) for label in spec.algorithms}


def _initial_size(entry: Mapping[str, Any], pool: int) -> int | None:
    """The initial G of an entry on a pool: ``initial_size`` instances, or that fraction of the
    pool (rounded half up) when it is below 1; None (the batch size) when not given."""
    size = entry.get("initial_size")
    if size is None or isinstance(size, int):
        return size
    return max(1, int(size * pool + 0.5))


def _units(spec: ExperimentSpec) -> list[Unit]:
    """One unit per (run, algorithm), run-major, or per (run, algorithm, fold) for entries
    with ``fold_units``: more runs only append units."""
    fold_units = {label for label, entry in _algorithms(spec).items() if entry.get("fold_units")}
    return [
        {"algorithm": a, "run": r, "fold": f} if a in fold_units else {"algorithm": a, "run": r}
        for r in spec.runs for a in spec.algorithms
        for f in (range(spec.protocol.folds) if a in fold_units else [None])
    ]


def _evaluate_fold(fold: Fold) -> list[Record]:
    """One fold's acquisition curve: one ``accuracy`` record per batch of completed instances."""
    from redecorate.active.acquisition import acquisition_curve

    job, dataset, entry = fold.job, fold.dataset, fold.entry
    # Keyed by (seed, dataset, run, fold) and the batch size, never the scorer: Error
    # Sampling and random sampling see the same known features and initial complete set.
    seed = seed_sequence(job.seed, "acquisition", dataset.name, fold.run, fold.index, entry["batch_size"])
    where = f"[{job.experiment}] {dataset.name} {fold.algorithm} run {fold.run} fold {fold.index + 1}"
    curve = acquisition_curve(
        dataset.X.iloc[fold.train], dataset.y.iloc[fold.train], dataset.X.iloc[fold.test],
        dataset.y.iloc[fold.test], learner=entry["learner"], params=entry["params"],
        scorer=entry["scorer"], batch_size=entry["batch_size"],
        known_fraction=job.options.known_fraction, seed=seed,
        missing=entry.get("missing", "fractional"), known=entry.get("known", "per_split"),
        initial_size=_initial_size(entry, len(fold.train)),
        progress=lambda text: fold.progress(f"{where}: {text}"),
    )  # fmt: skip
    return [Record(p["n_complete"], p["n_complete"], "accuracy", p["accuracy"], p["fit_seconds"],
                   p["ensemble_size"]) for p in curve]  # fmt: skip


MASKED_FIT_FACTOR: Mapping[str, float] = {"decorate": 0.8, "other": 0.7}
"""CPU of a fit on a masked pool against the learner's estimate for the rows it sees
(:func:`_fit_cost`), calibrated on the committed ch8_afa units and on fits sampled along
hypothyroid, kr-vs-kp and anneal curves (``docs/performance.md``)."""

READING_FIT_FACTOR: Mapping[tuple[str, str], Mapping[str, float]] = {
    ("known", "per_instance"): {"j48": 2.4, "decorate": 3.4},
    ("missing", "impute"): {"j48": 0.5},
}
"""CPU of a fit under a reading the text leaves open, against the same fit under ch8_afa's,
by learner, calibrated on the committed units of the readings (planned / measured CPU over
their units, ``docs/performance.md``). Why they differ although the distinct rows are priced
alike: with one set of known features per split, every hidden feature is missing in all the
incomplete instances, so the trees split on the known 30 % and the complete rows; with each
instance its own known features (``per_instance``), every feature is known in 30 % of them, so
any feature can be split on and the 70 % of rows missing it go down every branch as fractions
(J48: 2.4x the CPU; DECORATE, whose |pool| artificial rows share the spread: 3.4x, measured
on kr-vs-kp alone). Imputed hidden values (``impute``) leave no fractional rows (J48: half). A learner without a
measured factor is priced as under ch8_afa's reading."""

DECORATE_NUMERIC_WEIGHT = 7.5
"""How much a numeric feature adds to a DECORATE fit on a masked pool, as a multiple of the
factor above per unit of numeric share: each member learns from |pool| artificial rows, and
a numeric feature's artificial values are Gaussian draws, all distinct, so every node sorts
and scans them, where a nominal feature's few values cost little (sampled fits: kr-vs-kp,
all nominal, 0.74x what the learner's type-blind estimate says; hypothyroid, a quarter of
its features numeric, 2.1x)."""

ASSUMED_DISTINCT_SHARE = 0.5
"""The share of distinct masked rows assumed when the data are not at hand (the workflow's
job packing): across the 50 thesis splits of hypothyroid it is 1–97 %, median 72 %; 4–17 %
on kr-vs-kp; 12 % on anneal."""

ASSUMED_NUMERIC_SHARE = 0.25
"""The share of numeric features assumed when the data are not at hand (the registry does
not declare feature types)."""


MERGED_ROWS = "masked_rows"
"""The lever of the acquisition loop (``config/engine_revisions.tsv``): since e4e7f28 a fit
learns each distinct masked row once with its count. Code before it fitted DECORATE on every
copy (2.4–3.2× the CPU on kr-vs-kp and hypothyroid), so the calibration prices units computed
there with ``rows`` = the pool. J48's fits are not repriced: merging changed little of their
CPU (copies / merged 0.7–1.7 on kr-vs-kp and hypothyroid, ``benchmarks/results/acquisition_fit.md``)."""


def _fit_cost(entry: Mapping[str, Any], rows: float, pool: float, n_attributes: int,
              numeric_share: float) -> float:
    """One fit of the entry's learner that sees ``rows`` distinct rows of a pool of ``pool``."""
    return _reading_factor(entry) * _masked_fit_cost(entry, rows, pool, n_attributes, numeric_share)


def _reading_factor(entry: Mapping[str, Any]) -> float:
    """The product of :data:`READING_FIT_FACTOR` over the readings the entry takes."""
    factor = 1.0
    for (key, value), by_learner in READING_FIT_FACTOR.items():
        if entry.get(key, _READING_DEFAULTS[key]) == value:
            factor *= by_learner.get(entry["learner"], 1.0)
    return factor


def _masked_fit_cost(entry: Mapping[str, Any], rows: float, pool: float, n_attributes: int,
                     numeric_share: float) -> float:
    """One fit under ch8_afa's readings (:func:`_fit_cost`)."""
    if entry["learner"] == "decorate":
        if before_lever(MERGED_ROWS):
            rows = pool  # every copy, as the loop fitted before merging
        # Each member learns from the rows and from |R| = |pool| artificial rows, where the
        # learner's estimate for n examples counts n artificial ones: the mean of the two.
        factor = MASKED_FIT_FACTOR["decorate"] * (1 + DECORATE_NUMERIC_WEIGHT * numeric_share)
        return factor * estimated_fit_seconds(entry["learner"], entry["params"], (rows + pool) / 2, n_attributes)
    return MASKED_FIT_FACTOR["other"] * estimated_fit_seconds(entry["learner"], entry["params"], rows, n_attributes)


def _assumed_rows(entry: Mapping[str, Any], pool: int) -> list[float]:
    """Distinct rows along a curve without the data: complete ones plus the assumed share of
    the incomplete ones."""
    m = entry["batch_size"]
    complete = min(_initial_size(entry, pool) or m, pool)
    rows = []
    while True:
        rows.append(complete + ASSUMED_DISTINCT_SHARE * (pool - complete))
        if complete >= pool:
            return rows
        complete = min(pool, complete + m)


def _data_rows(job: JobSettings, entry: Mapping[str, Any], dataset: Any, run: int, fold: int,
               train: Any) -> list[float]:
    """Distinct rows along one fold's curve, from the fold's own known features and initial G
    (:func:`redecorate.active.acquisition.expected_distinct_rows`)."""
    from redecorate.active.acquisition import acquisition_start, expected_distinct_rows

    seed = seed_sequence(job.seed, "acquisition", dataset.name, run, fold, entry["batch_size"])
    start = acquisition_start(dataset.X.iloc[train], dataset.y.iloc[train], seed=seed,
                              batch_size=entry["batch_size"], known_fraction=job.options.known_fraction,
                              known=entry.get("known", "per_split"),
                              initial_size=_initial_size(entry, len(train)))
    return expected_distinct_rows(start, entry["batch_size"]).tolist()


def _unit_cost(job: JobSettings, unit: Unit, shape: DatasetShape) -> float:
    """One fit per batch, each priced by the distinct rows it sees, for every fold of the unit.

    With the data (``shape.data``: the planner), each fold is priced from its own known
    features, which decide how many masked rows coincide; without (the workflow's packing),
    from :data:`ASSUMED_DISTINCT_SHARE`.
    """
    entry = job.algorithms[unit["algorithm"]]
    k = job.folds
    folds = [int(unit["fold"])] if "fold" in unit else list(range(k))
    dataset = shape.data() if shape.data is not None else None
    if dataset is None:
        pool = round(shape.n_instances * (k - 1) / k)
        per_fold = sum(_fit_cost(entry, rows, pool, shape.n_attributes, ASSUMED_NUMERIC_SHARE)
                       for rows in _assumed_rows(entry, pool))
        return len(folds) * per_fold
    splits = run_folds(dataset, k, run=int(unit["run"]), seed=job.seed)
    numeric = 1.0 - float(FeatureSchema.from_input(dataset.X).is_nominal.mean())
    total = 0.0
    for fold in folds:
        train = splits[fold][0]
        total += sum(_fit_cost(entry, rows, len(train), dataset.X.shape[1], numeric)
                     for rows in _data_rows(job, entry, dataset, int(unit["run"]), fold, train))
    return total


def _check(spec: ExperimentSpec) -> None:
    """Learners, their parameters, scorers and batch sizes, before any job."""
    from redecorate.active.acquisition import KNOWN_MODES, MISSING_MODES, SCORERS
    for label, entry in _algorithms(spec).items():
        where = f"experiment file {spec.path}: key 'algorithms.{label}'"
        if entry["scorer"] not in SCORERS:
            raise ExperimentConfigError(f"{where}: scorer {entry['scorer']!r} is not one of "
                                        f"{', '.join(SCORERS)}")  # fmt: skip
        if entry["batch_size"] < 1:
            raise ExperimentConfigError(f"{where}: batch_size must be >= 1")
        for key, valid in (("missing", MISSING_MODES), ("known", KNOWN_MODES)):
            if entry.get(key, valid[0]) not in valid:
                raise ExperimentConfigError(f"{where}: {key} {entry[key]!r} is not one of {', '.join(valid)}")
        size = entry.get("initial_size")
        if size is not None and (isinstance(size, bool) or not isinstance(size, int | float)
                                 or size <= 0 or (isinstance(size, float) and size >= 1)):
            raise ExperimentConfigError(f"{where}: initial_size must be a number of instances (>= 1) "
                                        f"or a fraction of the pool in (0, 1), got {size!r}")  # fmt: skip
        if not isinstance(spec.algorithms[label].get("fold_units", False), bool):
            raise ExperimentConfigError(f"{where}: fold_units must be true or false, got "
                                        f"{spec.algorithms[label]['fold_units']!r}")  # fmt: skip
        try:
            learner = check_learner(entry["learner"], entry["params"], where=where)
        except (TypeError, ValueError) as exc:
            raise ExperimentConfigError(f"{where}: {exc}") from None
        if not hasattr(learner, "fit_prepared"):
            raise ExperimentConfigError(f"{where}: learner {entry['learner']!r} cannot learn from "
                                        "instances with missing values in place")  # fmt: skip


ACQUISITION = ExperimentKind(  # fmt: skip
    name="acquisition",
    description="chapter 8: active feature-value acquisition curves (Error Sampling vs random)",
    settings=AcquisitionSettings, schema=SCHEMA, report_schema=REPORT_SCHEMA,
    algorithm_entry=_entry, units=_units, evaluate_fold=_evaluate_fold, unit_cost=_unit_cost,
    report=deferred_report("redecorate.report.acquisition",
                           xlabel="Number of complete instances"),
    points_key=None, check=_check,
    key_layout=KeyLayout(points=None, always=frozenset({"known_fraction"})),
    algorithms_are_learners=False,
)
