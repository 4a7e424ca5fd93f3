"""Config name → estimator: the one place experiment YAML meets the learner classes.

An experiment file maps each algorithm label to its parameters (the label is the registry
name, or a ``learner:`` key names it), e.g.::

    algorithms:
      decorate: {n_estimators: 15, max_iterations: 50, base: j48}
      adaboost_unpruned: {learner: adaboost, base: {name: j48, params: {unpruned: true}}}

:func:`make_learner` turns one such entry (name and parameters) into an unfitted estimator.
Parameter names are the estimators' constructor arguments, in scikit-learn's words
(``n_estimators``, ``estimator``), plus ``base`` for meta-learners (a name or a ``{name,
params}`` mapping, built recursively; the same as ``estimator``). Typos fail loudly, with
close matches, because a silently ignored parameter would quietly change an experiment. The
old names (``ensemble_size``, ``base_estimator``) are still accepted, with a
:class:`FutureWarning`, for one release; unit keys hash every spelling of a parameter as the
records were first computed with (:func:`key_params`).
"""

from __future__ import annotations

import difflib
import importlib
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

__all__ = [
    "ALGORITHMS",
    "AlgorithmEntry",
    "UnknownAlgorithmError",
    "UnknownParameterError",
    "estimated_fit_seconds",
    "estimated_members",
    "key_params",
    "make_learner",
]


@dataclass(frozen=True)
class AlgorithmEntry:
    """One learnable algorithm: where its class lives and what the thesis calls it."""

    name: str
    target: str  # "module:Class", imported on first use so the registry loads before j48.py
    description: str
    meta: bool  # takes a base learner (config key ``base``)
    cost: float = 1e-6
    """Estimated CPU seconds of one fit per training example × (attribute +
    :data:`ROW_ATTRIBUTES`), at the default settings (meta-learners: 15 J48 members). Sizes
    jobs only (:func:`estimated_fit_seconds`); calibrated against the per-job CPU of the
    committed runs (``reproduced/*/provenance.json``, ``redecorate.calibration``)."""
    growth: float = 1.0
    """How a fit's cost grows with the examples: ``n ** growth``, scaled to agree with the
    linear model at :data:`REFERENCE_EXAMPLES`. DECORATE's is above 1: its artificial set grows
    with ``n`` and every trial predicts ``T`` and ``R`` with a committee whose trees grow too
    (on heart-statlog a DECORATE active-learning curve to 100 labeled examples fitted in about a
    thirteenth of the time of one to 243, where a linear model says a sixth)."""

    def load(self) -> type:
        module, _, cls = self.target.partition(":")
        return getattr(importlib.import_module(module), cls)


ALGORITHMS: Mapping[str, AlgorithmEntry] = MappingProxyType({
    e.name: e for e in (
        AlgorithmEntry("j48", "redecorate.learners.j48:J48",
                       "C4.5 release 8 as Weka's J48 (the base learner of every experiment)",
                       False, 3e-7),
        AlgorithmEntry("decorate", "redecorate.learners.decorate:Decorate",
                       "DECORATE, Algorithm 2 (and its §4.6-4.7 variants via parameters)",
                       True, 1.4e-5, growth=1.3),
        AlgorithmEntry("bagging", "redecorate.learners.bagging:Bagging",
                       "Bagging with probability averaging (Weka meta.Bagging)", True, 8.6e-7),
        AlgorithmEntry("adaboost", "redecorate.learners.adaboost_m1:AdaBoostM1",
                       "AdaBoost.M1 by reweighting, Algorithm 1 (Weka meta.AdaBoostM1)",
                       True, 2.2e-6),
        AlgorithmEntry("rf", "redecorate.learners.random_forest:RandomForest",
                       "Random Forests: bagged J48 random trees, K = floor(log2(k+1))",
                       False, 9.2e-7),
        AlgorithmEntry("naive_bayes", "redecorate.learners.naive_bayes:NaiveBayes",
                       "Naive Bayes as Weka 3.6 bayes.NaiveBayes (the §4.9 base learner)",
                       False, 4.9e-9),
        AlgorithmEntry("feature_subset_ensemble",
                       "redecorate.learners.feature_subsets:FeatureSubsetEnsemble",
                       "Bagged trees on k-feature subsets: random, top or cumulative information "
                       "gain, feature boosting (Bommaganti §3)", True, 6.8e-7),
        AlgorithmEntry("decision_stump", "redecorate.learners.decision_stump:DecisionStump",
                       "One-level tree on the best-gain attribute, lossless online (Oza §2.1.1)",
                       False, 7.4e-9),
        AlgorithmEntry("online_tree", "redecorate.learners.online_tree:OnlineTree",
                       "J48 over every example seen, lossless online (Oza's ITI role)", False, 2.3e-8),
        AlgorithmEntry("online_mlp", "redecorate.learners.online_mlp:OnlineMLP",
                       "Backpropagation learned online, 1 or 10 steps per example (Oza §2.1.3)",
                       False, 1.4e-7),
        AlgorithmEntry("online_bagging", "redecorate.learners.online_ensembles:OnlineBagging",
                       "Oza's online bagging: Poisson(1) copies per member (Fig. 3.3)", True, 2.8e-6),
        AlgorithmEntry("online_boosting", "redecorate.learners.online_ensembles:OnlineBoosting",
                       "Oza's online boosting: Poisson(lambda) copies, lambda boosted (Fig. 4.3)",
                       True, 2.6e-4),
        AlgorithmEntry("primed_online_boosting", "redecorate.learners.online_ensembles:PrimedOnlineBoosting",
                       "Online boosting primed in batch on min(20 %, 10000) examples (Oza §4.4)",
                       True, 2e-4),
        AlgorithmEntry("mlp", "redecorate.learners.mlp:MLP",
                       "Backpropagation MLP as Weka MultilayerPerceptron -L 0.15 -M 0.9 -N 80 -H a "
                       "(the §4.8 base learner)", False, 1.45e-5),
    )
})

_YAML_HINT = "the algorithm `name:` of an entry under `algorithms:` in config/experiments/*.yaml"


class UnknownAlgorithmError(ValueError):
    """An algorithm name that the registry does not know."""

    def __init__(self, name: str, where: str | None = None):
        self.name = name
        known = sorted(ALGORITHMS)
        close = difflib.get_close_matches(str(name).lower(), known, n=3, cutoff=0.5)
        hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        place = where or _YAML_HINT
        super().__init__(
            f"unknown algorithm {name!r} (from {place}); known algorithms: {', '.join(known)}.{hint}"
        )


class UnknownParameterError(ValueError):
    """A parameter the named algorithm does not take."""

    def __init__(self, algorithm: str, names: list[str], valid: list[str], where: str | None = None):
        self.algorithm, self.names, self.valid = algorithm, names, valid
        hints = []
        for n in names:
            close = difflib.get_close_matches(n, valid, n=2, cutoff=0.6)
            if close:
                hints.append(f"{n!r} → {' or '.join(repr(c) for c in close)}?")
        hint = f" Did you mean: {'; '.join(hints)}" if hints else ""
        place = f" (from {where})" if where else ""
        super().__init__(
            f"{algorithm} does not take parameter(s) {', '.join(repr(n) for n in names)}{place}; "
            f"valid parameters: {', '.join(valid)}.{hint}"
        )


def _lookup(name: str, where: str | None) -> AlgorithmEntry:
    if not isinstance(name, str):
        raise UnknownAlgorithmError(repr(name), where)
    entry = ALGORITHMS.get(name.strip().lower())
    if entry is None:
        raise UnknownAlgorithmError(name, where)
    return entry


def _build_base(spec: Any, where: str | None):
    """``base:`` may be a name, a ``{name, params}`` mapping or an estimator instance."""
    if isinstance(spec, str):
        return make_learner(spec, None, where=where)
    if isinstance(spec, Mapping):
        extra = set(spec) - {"name", "params"}
        if "name" not in spec or extra:
            raise ValueError(
                f"base must be an algorithm name or a mapping {{name: ..., params: {{...}}}}; "
                f"got {dict(spec)!r}" + (f" (from {where})" if where else "")
            )
        return make_learner(spec["name"], spec.get("params"), where=where)
    if hasattr(spec, "fit"):
        return spec
    raise ValueError(f"base must be an algorithm name, a {{name, params}} mapping or an estimator; got {spec!r}")


def make_learner(name: str, params: Mapping[str, Any] | None = None, random_state=None, *,
                 where: str | None = None):
    """Build the unfitted estimator that the config entry ``{name, params}`` describes.

    ``random_state`` (an int or :class:`numpy.random.SeedSequence`, normally derived from
    the job's key) is given to estimators that take one; members of a meta-learner are
    seeded by the meta-learner, so a ``base`` never gets its own. ``where`` names the
    config location for error messages (e.g. ``"config/experiments/ch4_passive.yaml"``).
    """
    entry = _lookup(name, where)
    cls = entry.load()
    kwargs = dict(params or {})
    place = f" (from {where})" if where else ""
    renamed = dict(getattr(cls, "renamed_parameters", {}))  # deprecated old name -> new name
    valid = [n for n in cls._get_param_names() if n not in renamed]
    if "random_state" in kwargs:
        raise ValueError(
            f"{entry.name}: random_state cannot be set in params" + place
            + "; seeds come from the experiment's seed scheme (experiment, dataset, run, fold)"
        )
    for old, new in renamed.items():
        if old in kwargs:
            spellings = (new, "base") if entry.meta and new == "estimator" else (new,)
            given = [k for k in spellings if k in kwargs]
            if given:
                raise ValueError(f"{entry.name}: give either {given[0]} or its deprecated old name "
                                 f"{old}, not both{place}")
            warnings.warn(f"{entry.name}: parameter {old!r} was renamed {new!r} (scikit-learn's "
                          f"name) and will be removed in the next release{place}; write {new}: "
                          f"{kwargs[old]!r}", FutureWarning, stacklevel=2)
            kwargs[new] = kwargs.pop(old)
    valid_keys = sorted(({*valid, "base"} if entry.meta else set(valid)) - {"random_state"})
    if entry.meta and ("base" in kwargs or "estimator" in kwargs):
        if "base" in kwargs and "estimator" in kwargs:
            raise ValueError(f"{entry.name}: give either base or estimator, not both{place}")
        spec = kwargs.pop("base") if "base" in kwargs else kwargs.pop("estimator")
        kwargs["estimator"] = None if spec is None else _build_base(spec, where)
    unknown = sorted(k for k in kwargs if k not in valid)
    if unknown:
        raise UnknownParameterError(entry.name, unknown, valid_keys, where)
    if "random_state" in valid and random_state is not None:
        kwargs["random_state"] = random_state
    return cls(**kwargs)


_SIZE_KEYS = ("n_estimators", "ensemble_size")
_BASE_KEYS = ("base", "estimator", "base_estimator")
_DEFAULT_SIZE = 15
_WORK_KEYS = ("epochs", "updates_per_example")
"""Parameters that multiply a learner's work (passes or updates per example), priced relative
to the class's default value."""

REFERENCE_EXAMPLES = 300.0
"""Where a learner whose cost grows faster than linearly costs what the linear model says."""

ROW_ATTRIBUTES = 34.0
"""Per-example work of a fit that does not grow with the attributes (class counts, sorting,
predicting the training set, DECORATE's artificial examples), in attribute units: a fit costs
``cost × n × (d + ROW_ATTRIBUTES)``. Fitted with the costs to the committed runs' CPU: a model
linear in n × d gave datasets with few attributes a quarter of their CPU (balance-scale,
glass, iris) and mushroom or splice many times theirs."""

MEMBER_SECONDS = 1.1e-4
"""Fixed CPU seconds per model built in a fit (one J48 member, one DECORATE trial): Python's
share, independent of the data, which is most of a fit on the few examples of an active
learning curve's first iterations (chapter 7's early curves took 10× what n × d said)."""


def _size(name: str, params: Mapping[str, Any]) -> int | None:
    size = next((params[k] for k in _SIZE_KEYS if isinstance(params.get(k), int)), None)
    return size if size is not None and (_lookup(name, None).meta or name == "rf") else None


def _work(name: str, params: Mapping[str, Any]) -> float:
    """The factor of :data:`_WORK_KEYS` given in ``params`` against the learner's defaults."""
    import inspect

    factor = 1.0
    for key in _WORK_KEYS:
        if isinstance(params.get(key), int):
            default = inspect.signature(_lookup(name, None).load().__init__).parameters.get(key)
            if default is not None and isinstance(default.default, int) and default.default > 0:
                factor *= params[key] / default.default
    return factor


def estimated_members(name: str, params: Mapping[str, Any] | None = None) -> int:
    """Models built in one fit of ``name``: a DECORATE trial each (``max_iterations``, 50),
    an ensemble's members, or 1."""
    params = params or {}
    entry = _lookup(name, None)
    if entry.name == "decorate":
        return int(params.get("max_iterations", 50))
    size = _size(entry.name, params)
    return max(size, 1) if size is not None else (_DEFAULT_SIZE if entry.meta or entry.name == "rf" else 1)


def estimated_fit_seconds(
    name: str, params: Mapping[str, Any] | None, n_examples: float, n_attributes: int
) -> float:
    """Rough CPU seconds of one fit of ``name`` with ``params`` on an ``n × d`` training set.

    The registry's ``cost`` × examples (to the power ``growth``) × (attributes +
    :data:`ROW_ATTRIBUTES`; a feature-subset ensemble's members see ``k`` of them), scaled by
    the ensemble size relative to the thesis's 15, by passes or updates per example
    (``epochs``, ``updates_per_example``) against the defaults, and, for a meta-learner with
    another ``base``, by that base's cost relative to J48's (and its own passes); plus
    :data:`MEMBER_SECONDS` per model built. Used only to size workflow jobs.
    """
    entry = _lookup(name, None)
    params = params or {}
    attributes = max(n_attributes, 1)
    if entry.name == "feature_subset_ensemble" and isinstance(params.get("k"), int):
        attributes = max(min(params["k"], attributes), 1)
    examples = REFERENCE_EXAMPLES * (max(n_examples, 1.0) / REFERENCE_EXAMPLES) ** entry.growth
    seconds = entry.cost * examples * (attributes + ROW_ATTRIBUTES) * _work(entry.name, params)
    size = _size(entry.name, params)
    if size is not None:
        seconds *= max(size, 1) / _DEFAULT_SIZE
    base = next((params[k] for k in _BASE_KEYS if k in params), None)
    base_name = base.get("name") if isinstance(base, Mapping) else base
    if entry.meta and isinstance(base_name, str) and base_name.strip().lower() in ALGORITHMS:
        base_name = base_name.strip().lower()
        seconds *= ALGORITHMS[base_name].cost / ALGORITHMS["j48"].cost
        if isinstance(base, Mapping):
            seconds *= _work(base_name, base.get("params") or {})
    return seconds + MEMBER_SECONDS * estimated_members(entry.name, params)


_KEY_SPELLINGS: Mapping[str, Mapping[str, str]] = MappingProxyType({
    "decorate": MappingProxyType({"n_estimators": "ensemble_size"}),
})
_META_KEY_SPELLINGS: Mapping[str, str] = MappingProxyType({"estimator": "base"})


def key_params(name: str, params: Any) -> Any:
    """``params`` of algorithm ``name`` with every parameter spelled as unit keys hash it.

    Why: a unit key (:func:`redecorate.job_records.unit_key`) hashes each algorithm's
    parameters, and the committed records (``reproduced/*/records``) are reused by a later run
    only under an equal key. The parameters now have scikit-learn's names, and an experiment
    file that says ``n_estimators: 15`` where it said ``ensemble_size: 15`` describes the
    same learner: so the new names are hashed under the names the records were first
    computed with. DECORATE's ``n_estimators`` is hashed as ``ensemble_size``; a
    meta-learner's ``estimator`` as ``base`` (the experiment files' key for the base learner).
    Every name that existed before hashes as it always did (``ensemble_size``, ``base``,
    ``base_estimator``, Bagging's ``n_estimators``), and a nested ``{name, params}`` base is
    spelled the same way. An unknown algorithm, parameters that are not a mapping, or both
    spellings of one parameter (refused by :func:`make_learner` before any job) are returned
    as given.
    """
    entry = ALGORITHMS.get(name.strip().lower()) if isinstance(name, str) else None
    if entry is None or not isinstance(params, Mapping):
        return params
    spelling = {**(_META_KEY_SPELLINGS if entry.meta else {}), **_KEY_SPELLINGS.get(entry.name, {})}
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key in _BASE_KEYS and isinstance(value, Mapping) and "params" in value:
            value = {**value, "params": key_params(value.get("name"), value["params"])}
        out[spelling.get(key, key)] = value
    return out if len(out) == len(params) else dict(params)
