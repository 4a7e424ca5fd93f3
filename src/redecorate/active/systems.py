"""The dissertation's active learners, as named configurations of one loop.

Each system is an :class:`~redecorate.active.loop.ActiveLearner` with a particular
committee, score, selection rule and predictor (spec §1.8); none has code of its own.

=========================  ====================  =====================  =========  ==============
name                       committee             score                  selection  predictor
=========================  ====================  =====================  =========  ==============
``active_decorate``        DECORATE              probability margin     top-m      the committee
``active_decorate_js``     DECORATE, MSE         JS divergence          ∝ score    the committee
                           rejection
``qbag``                   Bagging, hard votes   vote margin            top-m      the committee
``qboost``                 AdaBoost.M1           weighted vote margin   top-m      the committee
``random``                 —                     —                      uniform    DECORATE
``select_predict``         ``select`` ensemble   probability margin     top-m      ``predict``
``select_with_bagging``    Bagging               probability margin     top-m      DECORATE
``select_with_adaboost``   AdaBoost.M1           probability margin     top-m      DECORATE
``select_with_decorate``   DECORATE              probability margin     top-m      DECORATE
``bootstrap_lv``           Bagging               local variance         ∝ score    the committee
``bootstrap_js``           Bagging               JS divergence          ∝ score    the committee
``bootstrap_lv_ext``       Bagging               LV-EXT                 ∝ score    the committee
``uncertainty``            ``model`` (J48 with   ``measure``: least     top-m      the model
                           Laplace; or an        confident, margin,                (``predict``)
                           ensemble's mean)      entropy
``qbc``                    ``committee``         ``measure``: vote      top-m      the committee
                           (Bagging)             entropy, KL to mean
``eer``                    ``model`` (Naive      expected log / 0-1     top-m of   the model
                           Bayes)                loss after retraining  a sample   (``predict``)
``emc``                    one MLP               expected gradient      top-m      the MLP
                                                 length
=========================  ====================  =====================  =========  ==============

The last four are the textbook's query strategies (Aggarwal, *Data Mining*, §11.7) on the
dissertation's protocol; ``density: {beta: 1, similarity: cosine}`` weights any system's
score by information density (:mod:`redecorate.active.density`). ``model`` is a single
learner (``j48``, ``naive_bayes``, ``mlp``; ``learner_params`` its parameters, default
``{laplace: true}`` for J48 so that it has graded probabilities) or an ensemble of ``base``
members (``bagging``, ``decorate``, ``adaboost``); ``n_estimators`` and the other ensemble
settings apply to an ensemble only. ``eer`` defaults to Naive Bayes, the model of Roy &
McCallum and the textbook's "Bayes model": it refits a model per candidate and label, and a
Naive Bayes fit costs a tenth to a hundredth of a J48's (``docs/active-learning.md``).

Every ensemble has 15 members and J48 (Weka defaults) as base learner unless ``params``
say otherwise; DECORATE explores at most 50 classifiers with R_size = 1.

Readings where the dissertation is silent or ambiguous:

* ``active_decorate_js`` is Algorithm 5 as §7.1 names it: JS divergence, score-proportional
  sampling and MSE rejection. The chapter-6 variant (§6.4.1, Table 6.3: JS with top-m and
  0/1 rejection) is ``active_decorate`` with ``{score: js_divergence}``. Chapter 7 runs all
  methods on PETs: ``{base: {name: j48, params: {unpruned: true, laplace: true}}}``.
* ``qbag``'s Bagging votes (``voting: hard``) both for the margin and for prediction (spec
  Part 8 D.26: §2.2 describes Bagging's prediction as a majority vote).
* ``qboost`` counts votes weighted by log(1/β_i), AdaBoost.M1's own voting rule
  (``vote_weights: model``; spec Part 8 D.21); ``vote_weights: uniform`` counts one each.
* ``select_*`` (§6.4.2): the utility is not stated; §6.4.2 calls these "an alternate
  version of ACTIVEDECORATE" with another committee, so they keep ActiveDecorate's
  probability margin (``score`` to change it).
* ``random``'s model family is DECORATE (the chapter-6 baseline) unless ``ensemble`` says
  otherwise (chapter 7 compares Bootstrap methods with random Bagged-PETs).
* The bootstrap systems (§7.2) predict with the same 15 bootstrap PETs they select with
  (spec §1.8: "reusing the 15 selection bootstrap PETs as the predictor is acceptable").
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from sklearn.base import BaseEstimator
from sklearn.utils._param_validation import InvalidParameterError

from redecorate.active.committee import Committee
from redecorate.active.density import Density
from redecorate.active.expected_error import ExpectedErrorReduction
from redecorate.active.loop import ActiveLearner
from redecorate.active.model_change import ExpectedModelChange
from redecorate.active.strategy import QueryStrategy
from redecorate.config import did_you_mean
from redecorate.learners.params import UnknownParameterError, make_base, make_learner
from redecorate.learners.registry import ALGORITHMS, learner_class

__all__ = ["ENSEMBLE_SIZE", "QBC_MEASURES", "RENAMED_PARAMETERS", "SINGLE_MODELS", "SYSTEMS",
           "SystemEntry", "UNCERTAINTY_MEASURES", "UnknownSystemError", "committee_learners",
           "make_ensemble", "make_system", "models", "system_parameters"]

ENSEMBLE_SIZE = 15
"""Members of every committee unless a system's ``n_estimators`` says otherwise (the thesis's)."""


@functools.cache
def committee_learners() -> tuple[str, ...]:
    """Registry learners a system can select or predict with, in registry order: those whose
    class builds an active learner's committee (``committee_settings``,
    :meth:`redecorate.learners.base.EncodedClassifier.as_committee`)."""
    return tuple(name for name in ALGORITHMS if learner_class(name).committee_settings is not None)


def make_ensemble(family: str, **settings: Any) -> BaseEstimator:
    """An unfitted committee: the registry learner ``family`` with ``n_estimators`` members
    (15 by default) of ``base`` (None: its default, J48) and the settings of ``settings``
    that the learner takes as a committee (DECORATE's ``max_iterations``, Bagging's
    ``voting``, ...); the others are another family's and ignored."""
    if family not in committee_learners():
        raise ValueError(f"unknown ensemble {family!r}; valid: {', '.join(committee_learners())}")
    return learner_class(family).as_committee(settings.get("n_estimators", ENSEMBLE_SIZE),
                                              make_base(settings.get("base")), settings)


@dataclass(frozen=True)
class SystemEntry:
    """One named system: its parameters with defaults, how to build its learner and, for a
    system that queries one committee of its own, that committee's registry learner."""

    name: str
    description: str
    defaults: Mapping[str, Any]
    build: Callable[[Mapping[str, Any]], tuple[Committee, QueryStrategy, BaseEstimator | None]]
    family: str | None = None

    def models(self, p: Mapping[str, Any]) -> list[str]:
        """The registry learners the system fits at every iteration, given its parameters
        ``p`` (:func:`system_parameters`): what the cost of a curve is made of."""
        if "select" in p:
            return [p["select"]] + ([p["predict"]] if p["predict"] != p["select"] else [])
        for key in ("ensemble", "model", "committee"):  # the textbook strategies: one model
            if key in p:
                return [p[key]]
        return [self.family or "decorate"]


SINGLE_MODELS: tuple[str, ...] = ("j48", "naive_bayes", "mlp")
"""Single learners a textbook strategy can query with (a committee of one)."""


def models() -> tuple[str, ...]:
    """``model`` values of ``uncertainty``, ``eer`` (and ``emc``: ``mlp`` only): a single
    learner or a committee."""
    return SINGLE_MODELS + committee_learners()

_LEARNER_DEFAULTS: dict[str, dict[str, Any]] = {"j48": {"laplace": True}}
"""A single J48 with Laplace leaf estimates: graded class probabilities for uncertainty."""

UNCERTAINTY_MEASURES: Mapping[str, str] = MappingProxyType({
    "least_confident": "least_confident", "margin": "probability_margin", "entropy": "entropy"})
"""``uncertainty``'s ``measure`` -> score of :data:`redecorate.active.strategy.SCORES`."""

QBC_MEASURES: Mapping[str, str] = MappingProxyType({
    "vote_entropy": "vote_entropy", "kl_to_mean": "kl_to_mean"})
"""``qbc``'s ``measure`` -> score."""


def _density(spec: Any) -> Density | None:
    """``density``: None, a ``{beta, similarity}`` mapping or a :class:`Density`."""
    if spec is None or isinstance(spec, Density):
        return spec
    if isinstance(spec, Mapping) and set(spec) <= {"beta", "similarity"}:
        return Density(**dict(spec))
    raise ValueError(f"density must be null or a mapping with keys beta (default 1) and "
                     f"similarity (cosine or euclidean); got {spec!r}")


def _strategy(p: Mapping[str, Any], score: Any = None) -> QueryStrategy:
    return QueryStrategy(p["score"] if score is None else score, p["selection"], p["tie_break"],
                         _density(p.get("density")))


def _model(p: Mapping[str, Any], allowed: tuple[str, ...] | None = None) -> BaseEstimator:
    """``model`` as an unfitted estimator: a single learner or an ensemble of ``base``."""
    name, allowed = p["model"], models() if allowed is None else allowed
    if name not in allowed:
        raise ValueError(f"model must be one of {', '.join(allowed)}, got {name!r}")
    if name in SINGLE_MODELS:
        params = p.get("learner_params")
        return make_learner(name, _LEARNER_DEFAULTS.get(name, {}) if params is None else params)
    if p.get("learner_params") is not None:
        raise ValueError(f"learner_params apply to a single model ({', '.join(SINGLE_MODELS)}); "
                         f"model {name!r} is an ensemble: set its members with base")
    return make_ensemble(name, **p)


def _measure(p: Mapping[str, Any], measures: Mapping[str, str]) -> str:
    if p["measure"] not in measures:
        raise ValueError(f"measure must be one of {', '.join(measures)}, got {p['measure']!r}")
    return measures[p["measure"]]


def _predictor(p: Mapping[str, Any]) -> BaseEstimator | None:
    return None if p["predict"] is None else make_ensemble(p["predict"], **p)


def _uncertainty(p):
    strategy = _strategy(p, _measure(p, UNCERTAINTY_MEASURES))
    return Committee(_model(p), p["vote_weights"]), strategy, _predictor(p)


def _qbc(p):
    if p["committee"] not in committee_learners():
        raise ValueError(f"committee must be one of {', '.join(committee_learners())}, "
                         f"got {p['committee']!r}")
    ens = make_ensemble(p["committee"], **p)
    strategy = _strategy(p, _measure(p, QBC_MEASURES))
    return Committee(ens, p["vote_weights"]), strategy, _predictor(p)


def _eer(p):
    score = ExpectedErrorReduction(p["loss"], p["candidates"], p["evaluation"])
    return Committee(_model(p), p["vote_weights"]), _strategy(p, score), _predictor(p)


def _emc(p):
    model = _model(p, ("mlp",))
    return Committee(model), _strategy(p, ExpectedModelChange()), _predictor(p)


def _committee_system(family: str):
    def build(p):
        ens = make_ensemble(family, **p)
        return Committee(ens, p.get("vote_weights", "model")), _strategy(p), None
    return build


def _random(p):
    ens = make_ensemble(p["ensemble"], **p)
    return Committee(ens), QueryStrategy.random(), None


def _select_predict(p):
    select = make_ensemble(p["select"], **p)
    # The same family selects and predicts: one ensemble does both, as in ActiveDecorate.
    predict = None if p["predict"] == p["select"] else make_ensemble(p["predict"], **p)
    return Committee(select, p["vote_weights"]), _strategy(p), predict


_COMMON = {"n_estimators": ENSEMBLE_SIZE, "base": None, "tie_break": "random"}
_DECORATE = {"max_iterations": 50, "artificial_size": 1.0, "rejection_loss": "error"}
_TEXTBOOK = {**_DECORATE, "voting": "soft", "vote_weights": "model", "selection": "top",
             "density": None, "predict": None}
"""Settings shared by the textbook strategies (§11.7): any ensemble may be the model, so
DECORATE's settings are accepted too; ``predict: null`` predicts with the selecting model."""


def _entry(name, description, build, **defaults) -> SystemEntry:
    """``build``: the system's builder, or the registry name of the one committee it queries."""
    scored = {} if build is _random else {"density": None}  # every system with a score
    family = build if isinstance(build, str) else None
    return SystemEntry(name, description, MappingProxyType({**_COMMON, **scored, **defaults}),
                       _committee_system(family) if family else build, family)


SYSTEMS: Mapping[str, SystemEntry] = MappingProxyType({e.name: e for e in (
    _entry("active_decorate", "ActiveDecorate (§6.2): DECORATE committee, probability margin, top-m",
           "decorate", **_DECORATE, score="probability_margin",
           selection="top"),
    _entry("active_decorate_js", "ActiveDecorate-JS (Algorithm 5, §7.1): JS divergence, "
           "score-proportional sampling, MSE rejection", "decorate",
           **{**_DECORATE, "rejection_loss": "mse"}, score="js_divergence",
           selection="proportional"),
    _entry("qbag", "Query by Bagging (Abe & Mamitsuka 1998): vote margin, majority vote",
           "bagging", voting="hard", score="vote_margin", selection="top"),
    _entry("qboost", "Query by Boosting (Abe & Mamitsuka 1998): weighted vote margin",
           "adaboost", vote_weights="model", score="vote_margin",
           selection="top"),
    _entry("random", "random sampling (DECORATE in Tables 6.1-6.4)", _random,
           **_DECORATE, ensemble="decorate", voting="soft"),
    _entry("select_predict", "select with one committee, predict with another (§6.4.2)",
           _select_predict, **_DECORATE, select="bagging", predict="decorate",
           vote_weights="model", voting="soft", score="probability_margin", selection="top"),
    _entry("select_with_bagging", "§6.4.2: Bagging selects, DECORATE predicts", _select_predict,
           **_DECORATE, select="bagging", predict="decorate", vote_weights="model",
           voting="soft", score="probability_margin", selection="top"),
    _entry("select_with_adaboost", "§6.4.2: AdaBoost.M1 selects, DECORATE predicts",
           _select_predict, **_DECORATE, select="adaboost", predict="decorate",
           vote_weights="model", voting="soft", score="probability_margin", selection="top"),
    _entry("select_with_decorate", "§6.4.2: DECORATE selects and predicts (= ActiveDecorate)",
           _select_predict, **_DECORATE, select="decorate", predict="decorate",
           vote_weights="model", voting="soft", score="probability_margin", selection="top"),
    _entry("bootstrap_lv", "Bootstrap-LV (§7.2): bagged committee, local variance, ∝ score",
           "bagging", voting="soft", vote_weights="uniform",
           score="local_variance", selection="proportional"),
    _entry("bootstrap_js", "Bootstrap-JS (Algorithm 6): bagged committee, JS divergence, ∝ score",
           "bagging", voting="soft", vote_weights="uniform",
           score="js_divergence", selection="proportional"),
    _entry("bootstrap_lv_ext", "Bootstrap-LV-EXT (§7.2): bagged committee, LV-EXT, ∝ score",
           "bagging", voting="soft", vote_weights="uniform",
           score="local_variance_ext", selection="proportional"),
    _entry("uncertainty", "uncertainty sampling (textbook §11.7.1.1): least confident, margin or "
           "entropy of one model's (or an ensemble's mean) distribution", _uncertainty,
           **_TEXTBOOK, model="j48", learner_params=None, measure="entropy"),
    _entry("qbc", "query by committee (§11.7.1.2): vote entropy or KL divergence to the mean",
           _qbc, **_TEXTBOOK, committee="bagging", measure="vote_entropy"),
    _entry("eer", "expected error reduction (Roy & McCallum 2001; §11.7.2.1): expected log or "
           "0/1 loss on a pool sample after retraining per candidate and label", _eer,
           **_TEXTBOOK, model="naive_bayes", learner_params=None, loss="log", candidates=20,
           evaluation=100),
    _entry("emc", "expected model change (§11.7.1.3): an MLP's expected gradient length",
           _emc, **_TEXTBOOK, model="mlp", learner_params=None),
)})
"""Every named active-learning system."""


class UnknownSystemError(ValueError):
    """A system name that :data:`SYSTEMS` does not know."""

    def __init__(self, name: object):
        known = sorted(SYSTEMS)
        super().__init__(f"unknown active-learning system {name!r}; known systems: "
                         f"{', '.join(known)}.{did_you_mean(str(name), known, n=3)}")


RENAMED_PARAMETERS: Mapping[str, str] = MappingProxyType({"ensemble_size": "n_estimators"})
"""Old spelling -> system parameter, accepted with a :class:`FutureWarning` (the learners'
name for the committee size is ``n_estimators``)."""


def system_parameters(name: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The system's defaults overlaid with ``params``; unknown parameters are an error."""
    if not isinstance(name, str) or name not in SYSTEMS:
        raise UnknownSystemError(name)
    entry = SYSTEMS[name]
    given = dict(params or {})
    if "random_state" in given:
        raise ValueError(f"{name}: random_state cannot be set in params; seeds come from the "
                         "learner's random_state (the fold's SeedSequence in a curve)")
    for old, new in RENAMED_PARAMETERS.items():
        if old in given:
            if new in given:
                raise ValueError(f"{name}: give either {new} or its old name {old}, not both")
            warnings.warn(f"{name}: parameter {old!r} was renamed {new!r} (the learners' name) "
                          f"and will be removed in the next release; write {new}: {given[old]!r}",
                          FutureWarning, stacklevel=2)
            given[new] = given.pop(old)
    unknown = sorted(k for k in given if k not in entry.defaults)
    if unknown:
        raise UnknownParameterError(name, unknown, sorted(entry.defaults))
    return {**entry.defaults, **given}


def make_system(name: str, params: Mapping[str, Any] | None = None, *, batch_size: int = 1,
                random_state=None) -> ActiveLearner:
    """The unfitted :class:`ActiveLearner` of the named system.

    ``params`` override the system's defaults (see :data:`SYSTEMS` and the module
    docstring); e.g. ``make_system("active_decorate", {"score": "js_divergence"})`` is the
    chapter-6 JS variant, ``make_system("random", {"ensemble": "bagging"})`` random
    sampling with Bagging, ``make_system("uncertainty", {"measure": "margin", "density":
    {"beta": 1}})`` density-weighted margin sampling with a J48. Every parameter is checked
    here, before any data is seen: unknown names and invalid values raise ``ValueError``.
    """
    p = system_parameters(name, params)
    for key in ("ensemble", "select", "predict"):
        optional = key in SYSTEMS[name].defaults and SYSTEMS[name].defaults[key] is None
        if key in p and not (optional and p[key] is None) and p[key] not in committee_learners():
            raise ValueError(f"{name}: {key} must be one of {', '.join(committee_learners())}, "
                             f"got {p[key]!r}")
    try:
        committee, strategy, predictor = SYSTEMS[name].build(p)
        for model in (committee.ensemble, predictor):  # the learners' own constraints
            if hasattr(model, "_validate_params"):
                model._validate_params()
    except (TypeError, ValueError) as exc:
        message = str(exc)
        # A learner's refused value stays scikit-learn's error (a ValueError and a TypeError).
        kind = next(k for k in (InvalidParameterError, TypeError, ValueError) if isinstance(exc, k))
        raise kind(message if message.startswith(f"{name}:") else f"{name}: {message}") from None
    return ActiveLearner(committee, strategy, batch_size=batch_size, predictor=predictor,
                         random_state=random_state)
