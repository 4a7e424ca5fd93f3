"""What one fit of a learner costs: the model that sizes workflow jobs before any data exist.

Every learner declares its own cost as a :class:`FitCost` (``fit_cost``, a class attribute of
:class:`~redecorate.learners.base.EncodedClassifier`), calibrated against the per-job CPU of
the committed runs (``reproduced/*/provenance.json``, :mod:`redecorate.calibration`); the
formula that turns it into seconds is the same for every learner and lives here. Only the
grouping of units into jobs depends on it, never a record.

The entry points by registry name are :func:`estimated_fit_seconds` and
:func:`estimated_members`; a learner class answers the same questions for itself
(``Decorate.estimated_fit_seconds(params, n, d)``).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import inspect
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from redecorate.learners.registry import ALGORITHMS, learner_class

__all__ = [
    "ENGINE_SPEED",
    "MEMBER_SECONDS",
    "NETWORK_ROW_WEIGHTS",
    "NETWORK_WEIGHT_SPEED",
    "REFERENCE_EXAMPLES",
    "REFERENCE_MEMBER",
    "REFERENCE_SIZE",
    "REJECTION_TRIALS_PER_MEMBER",
    "ROW_ATTRIBUTES",
    "FitCost",
    "estimated_fit_seconds",
    "engine_speed",
    "estimated_members",
    "fit_members",
    "fit_seconds",
    "network_weights",
    "before_lever",
    "priced_before_levers",
    "values_seen",
]

REFERENCE_EXAMPLES = 300.0
"""Where a learner whose cost grows faster than linearly costs what the linear model says."""

ROW_ATTRIBUTES = 34.0
"""Per-example work of a fit that does not grow with the attributes (class counts, sorting,
predicting the training set, DECORATE's artificial examples), in attribute units: a fit costs
``per_example × n × (d + ROW_ATTRIBUTES)``. Fitted with the costs to the committed runs' CPU: a
model linear in n × d gave datasets with few attributes a quarter of their CPU (balance-scale,
glass, iris) and mushroom or splice many times theirs."""

MEMBER_SECONDS = 1.1e-4
"""Fixed CPU seconds per model built in a fit (one J48 member, one DECORATE trial): Python's
share, independent of the data, which is most of a fit on the few examples of an active
learning curve's first iterations (chapter 7's early curves took 10× what n × d said)."""

REFERENCE_SIZE = 15
"""The ensemble size an ensemble's ``per_example`` was calibrated at (the thesis's): a fit of
another size costs in proportion, and a size the parameters do not give is priced as this."""

NETWORK_SETUP_WEIGHTS = 2000.0
"""Per-example work of a network's fit done once, however many passes it makes (the inputs
encoded nominal-to-binary and scaled, the weights set up, the fitted network's outputs), in
weight units of one pass: a network fit costs ``per_pass × n × ((weights +
NETWORK_ROW_WEIGHTS) × passes + NETWORK_SETUP_WEIGHTS)``. Without it fits of 1, 10 and 80
passes could not all be priced: with ``350`` per pass and no set-up (fitted to Oza's pilot at
10 passes) §4.8's small networks at 80 epochs were priced at 1.5-1.9 times their CPU, and an
online network of one update per example at a third of it or less
(``benchmarks/results/network_pricing.md``: 32 fits, 1 to 80 passes, eight datasets; the
set-up fitted there is 2,107 weight units, on a loaded machine)."""

NETWORK_ROW_WEIGHTS = 140.0
"""Per-example work of a network's pass that does not grow with its weights (the loop over
the example, its target and learning rate), in weight units: see
:data:`NETWORK_SETUP_WEIGHTS`. With it the networks' ``per_example`` (1.2 ns per weight and
pass) is fitted to the committed runs: Oza's network pilot before the kernel's lever
(``reproduced/oza_readings_nn/oza_online_nn_momentum09``, balance-scale's 21 weights to mushroom's 7,503, 1 to 10 passes) and §4.8's networks
(``reproduced/ch4_base_learners``, 21 and 55 weights, 80 epochs) are planned at 0.86-1.16 of
their CPU per dataset with 20 CPU s or more (350 and no set-up: the pilot 0.80-1.02, §4.8
1.53-1.91). The micro-benchmark's own fit (77) rests on fits of a few milliseconds."""

NETWORK_WEIGHT_SPEED = 0.5
"""CPU of a network's weight per pass today against the kernel the networks' ``per_example``
was fitted on (the ``"network"`` engine's lever, 02690e1: the first layer kept transposed, so
the hidden units' sums and steps run side by side over contiguous weights; the same weights).
It vectorises the work per weight, not the loop per example, so only the weights' part of a
pass is priced lower: :data:`NETWORK_ROW_WEIGHTS` and :data:`NETWORK_SETUP_WEIGHTS` stay in
the old kernel's weight units. Fitted to Oza's three networks on the seven mirror datasets
(``benchmarks/results/network_kernel.md``, the two revisions in turns, 21 fits): with 0.5 the
price of today's fits is 1.00 of their summed CPU and 0.82-1.14 of each fit's. Whole fits went
to 0.49-0.50 of their CPU on mushroom's 7,566 weights at 10 passes, 0.67-0.82 on 300-2,000
weights, 0.8-1.1 on the smallest networks, where a pass's constant part is most of it. Oza's
network pilot at today's kernel (``reproduced/oza_online_nn``, momentum 0) is planned at 1.11 of
its CPU, 0.73-1.16 per dataset (mushroom 1.16). The earlier committed network runs ran the
kernel before it (``config/engine_revisions.tsv``), and
:mod:`redecorate.calibration` prices them without it."""

REJECTION_TRIALS_PER_MEMBER = 2.1
"""Trials a DECORATE fit with rejection builds per member, on average: its ``per_example`` was
fitted to runs with rejection, and a fit without it (``FitCost.rejection``) builds exactly its
members, so it costs ``n_estimators / min(max_iterations, this × n_estimators)`` of one with it.
A fit's CPU is in proportion to its trials (``benchmarks/results/decorate_trials.md``: without
rejection 0.21–0.36 of the CPU where rejection took all 50 trials, 0.87–1.17 where it took 15;
with rejection 15–50 trials for 15 members, 2.39 per member weighted by CPU). At 2.1,
§4.7's DECORATE (No Rejection) is planned at 1.08 of its units' measured CPU, 2.28 before."""

REFERENCE_MEMBER = "j48"
"""The member learner a meta-learner's ``per_example`` was calibrated with (its default): another
base learner scales the cost by the ratio of the two learners' ``per_example``."""

ENGINE_SPEED: Mapping[str, float] = {"c45": 0.46}
"""CPU of a compiled engine today against the engine the ``per_example`` values were fitted on,
by engine (``FitCost.engine``). The C4.5 engine's speed levers (exact: the same trees) took
whole units to 0.43–0.53 of their CPU, median 0.46 (``benchmarks/results/unit_cpu.md``: segment
PETs 0.46, credit-g ActiveDecorate 0.53, kr-vs-kp masked-pool DECORATE 0.43; measured in
turns on one machine, where comparing runs also measures their load). The committed runs the values were fitted to ran the
earlier engine (their commits: ``config/engine_revisions.tsv``), so a plan prices today's
engine as fitted × this factor, and :mod:`redecorate.calibration` prices those runs' units
without it (:func:`priced_before_levers`)."""

_BEFORE_LEVERS = contextvars.ContextVar[frozenset[str] | None]("before_levers", default=frozenset())
"""The engines whose speed levers the code being priced lacked (None: every engine's)."""


@contextlib.contextmanager
def priced_before_levers(engines: Iterable[str] | None = None) -> Iterator[None]:
    """Within the block, fits are priced as the code before the speed levers of ``engines``
    ran them (None: every engine's): no :data:`ENGINE_SPEED` for those engines, and a kind's
    cost model asks :func:`before_lever` for its own (chapter 8's merged masked rows). What a
    run at an earlier commit cost, for the calibration (``config/engine_revisions.tsv``)."""
    token = _BEFORE_LEVERS.set(None if engines is None else frozenset(engines))
    try:
        yield
    finally:
        _BEFORE_LEVERS.reset(token)


def before_lever(engine: str) -> bool:
    """Whether the code being priced lacks the speed levers of ``engine``
    (:func:`priced_before_levers`; outside such a block: no, today's code is priced)."""
    absent = _BEFORE_LEVERS.get()
    return absent is None or engine in absent


WORK_PARAMETERS = ("epochs", "updates_per_example")
"""Parameters that multiply a learner's work (passes or updates per example), priced relative
to the class's default value."""


@dataclass(frozen=True)
class FitCost:
    """How one fit of a learner costs CPU, declared by the learner (``fit_cost``).

    Attributes:
        per_example: CPU seconds of one fit per training example × (attribute +
            :data:`ROW_ATTRIBUTES`), at the default settings (an ensemble: at
            :data:`REFERENCE_SIZE` members of :data:`REFERENCE_MEMBER`). The default, 1e-6,
            is an uncalibrated guess for a new learner.
        growth: how the cost grows with the examples, ``n ** growth``, scaled to agree with
            the linear model at :data:`REFERENCE_EXAMPLES`. DECORATE's is above 1: its
            artificial set grows with ``n`` and every trial predicts ``T`` and ``R`` with a
            committee whose trees grow too (on heart-statlog a DECORATE active-learning curve
            to 100 labeled examples fitted in about a thirteenth of the time of one to 243,
            where a linear model says a sixth).
        ensemble: the fit builds ``n_estimators`` members: the cost scales with the size
            relative to :data:`REFERENCE_SIZE`, and so does the number of models built.
        committee_share: the share of a fit at :data:`REFERENCE_SIZE` members whose work
            grows with the committee as well as with the trials (DECORATE: every trial's
            artificial examples are labelled by every member built so far), so a fit of
            ``S`` members costs ``S/S₀ × (1 − q + q × S/S₀)`` of one at ``S₀``, not ``S/S₀``.
        trials: the parameter that counts the models a fit builds when that is not the
            ensemble size (DECORATE's ``max_iterations``: every trial builds a candidate).
        subset: the parameter that bounds the attributes each member sees (the
            feature-subset ensembles' ``k``).
        engine: the compiled engine whose speed the cost depends on (``"c45"``: J48's trees,
            :data:`ENGINE_SPEED`; ``"network"``: the backpropagation kernel, whose lever
            prices a ``network``'s weights, :data:`NETWORK_WEIGHT_SPEED`); a meta-learner
            declares its default base learner's, and with another base learner given costs
            at that one's.
        network: the fit trains a network whose weights are what every example's pass costs:
            ``per_example`` is per example × (weight + :data:`NETWORK_ROW_WEIGHTS`), the
            weights from the inputs after nominal-to-binary and the classes
            (:func:`network_weights`). The attribute count says little here: one-hot inputs
            widen the network and the hidden layer grows with them, so mushroom's 22
            attributes make 7,503 weights and nursery's 8 make 465.
        member_share: a meta-learner whose base learner is a ``network`` costs its models
            built (:func:`fit_members`) × this × one fit of the base learner on the whole
            training set (a network's cost is linear in its passes, unlike a tree's; the
            meta-learner's ``per_example``, fitted with J48 members, does not carry over).
        own_share: the share of a meta-learner's ``per_example`` that is its own work, which
            another base learner does not change (DECORATE's artificial examples and its
            committee's predictions on them and on the training set); the rest scales with the
            base learner's ``per_example`` against :data:`REFERENCE_MEMBER`'s. 0: all of it
            scales (a DECORATE of naive Bayes members was priced at 1/60 of one of J48
            members, and took 0.43–2.46 of its CPU: ``benchmarks/results/meta_member_pricing.md``).
        per_value: a counting learner's CPU seconds, per (numeric value it holds × class), to
            rebuild its model from its counts after one online update: naive Bayes'
            estimators and the stump's best test rescan every distinct numeric value seen.
        refreshes: the meta-learner rebuilds a member's model after every update (Oza's
            online boosting, which classifies each example right after the member learns
            it): its fit also costs members × examples × the member's ``per_value`` × the
            values a member holds on average along the stream (:func:`values_seen`; priced
            only when the data are at hand and the base learner is given) × classes. A
            type-blind model put waveform's online boosting of stumps at 1/300 of its CPU and
            segment's at 1/200 (``benchmarks/results/online_boosting_pricing.md``).
    """

    per_example: float = 1e-6
    growth: float = 1.0
    committee_share: float = 0.0
    ensemble: bool = False
    trials: str | None = None
    subset: str | None = None
    engine: str | None = None
    network: bool = False
    member_share: float = 1.0
    own_share: float = 0.0
    per_value: float = 0.0
    refreshes: bool = False
    artificial: str | None = None
    rejection: str | None = None


def _spelled(cls: type, params: Mapping[str, Any] | None) -> dict[str, Any]:
    """``params`` as the constructor names them: old spellings renamed, ``base`` as
    ``estimator`` (what :func:`redecorate.learners.params.make_learner` accepts)."""
    renamed = {**dict(getattr(cls, "renamed_parameters", {})), "base": "estimator"}
    return {renamed.get(key, key): value for key, value in (params or {}).items()}


@functools.cache
def _default(cls: type, name: str) -> Any:
    """The constructor's default of ``name`` (None without one); cached, because a plan
    prices hundreds of thousands of fits and a signature costs more than the pricing."""
    parameter = inspect.signature(cls.__init__).parameters.get(name)
    return None if parameter is None else parameter.default


def _work(cls: type, params: Mapping[str, Any]) -> float:
    """The factor of :data:`WORK_PARAMETERS` given in ``params`` against the class's defaults."""
    factor = 1.0
    for key in WORK_PARAMETERS:
        if isinstance(params.get(key), int):
            default = _default(cls, key)
            if isinstance(default, int) and default > 0:
                factor *= params[key] / default
    return factor


def _default_passes(cls: type) -> int:
    """Passes over each example a fit makes at the class's defaults: the product of the
    :data:`WORK_PARAMETERS` it takes (an MLP's 80 epochs, the online MLP's 1 update)."""
    passes = 1
    for key in WORK_PARAMETERS:
        default = _default(cls, key)
        if isinstance(default, int) and default > 0:
            passes *= default
    return passes


def _size(cls: type, params: Mapping[str, Any]) -> int | None:
    """The ensemble size the parameters give (None: not an ensemble, or not given)."""
    size = params.get("n_estimators")
    return size if cls.fit_cost.ensemble and isinstance(size, int) else None


def fit_members(cls: type, params: Mapping[str, Any] | None = None) -> int:
    """Models built in one fit of ``cls`` with the experiment file's ``params``: a trial each
    (``trials``), an ensemble's members, or 1."""
    cost: FitCost = cls.fit_cost
    params = _spelled(cls, params)
    if cost.trials is not None:
        trials = _trials(cls, params)
        return min(trials, _size(cls, params) or REFERENCE_SIZE) if _keeps_every_trial(cls, params) else trials
    size = _size(cls, params)
    return max(size, 1) if size is not None else (REFERENCE_SIZE if cost.ensemble else 1)


def network_weights(inputs: int, classes: int, hidden: Any = "a") -> int:
    """Weights of one hidden layer between ``inputs`` inputs and ``classes`` outputs:
    ``hidden × (inputs + classes)``, with Weka's wildcard ``"a"`` = ``(inputs + classes) // 2``
    hidden units (at least one)."""
    units = max(1, (inputs + classes) // 2) if not isinstance(hidden, int) else max(1, hidden)
    return units * (max(inputs, 1) + max(classes, 2))


def fit_seconds(cls: type, params: Mapping[str, Any] | None, n_examples: float,
                n_attributes: int, *, inputs: int | None = None, classes: int = 2,
                values: float | None = None) -> float:
    """Rough CPU seconds of one fit of ``cls`` with the experiment file's ``params`` on an
    ``n × d`` training set (``inputs``: its width after nominal-to-binary, ``d`` when not
    known; ``classes``: its classes; both price networks only; ``values``: the numeric values a
    streamed member holds on average, :func:`values_seen`, for a meta-learner that
    ``refreshes`` its members).

    ``per_example`` × examples (to the power ``growth``) × (attributes +
    :data:`ROW_ATTRIBUTES`; a member sees ``subset`` of them; a ``network`` its weights +
    :data:`NETWORK_ROW_WEIGHTS`), scaled by the ensemble size
    against :data:`REFERENCE_SIZE`, by passes or updates per example (:data:`WORK_PARAMETERS`)
    against the defaults, and, for a meta-learner with another base learner (a registry name
    or ``{name, params}``), by that learner's ``per_example`` against
    :data:`REFERENCE_MEMBER`'s (and its own passes; all but the meta-learner's
    ``own_share``); plus :data:`MEMBER_SECONDS` per model built; all × the engine's :data:`ENGINE_SPEED` (the levers sped whole units up, the
    Python around the engine's calls too). A meta-learner over a ``network`` costs its
    models × ``member_share`` × the network's fit. A meta-learner that ``refreshes`` its
    members adds their rebuilds (``per_value``) when ``values`` is given.
    """
    cost: FitCost = cls.fit_cost
    spelled = _spelled(cls, params)
    member = _base_member(cls, spelled)
    if member is not None and member.fit_cost.network:
        base = spelled["estimator"]
        base_params = (base.get("params") or {}) if isinstance(base, Mapping) else {}
        one = fit_seconds(member, base_params, n_examples, n_attributes, inputs=inputs, classes=classes)
        return fit_members(cls, params) * cost.member_share * one
    work = _work(cls, spelled)
    if cost.network:
        weights = network_weights(inputs if inputs is not None else n_attributes, classes,
                                  spelled.get("hidden", "a"))
        if cost.engine is not None and not before_lever(cost.engine):
            weights *= NETWORK_WEIGHT_SPEED
        row = weights + NETWORK_ROW_WEIGHTS
        row += NETWORK_SETUP_WEIGHTS / (_default_passes(cls) * work)
    else:
        attributes = max(n_attributes, 1)
        if cost.subset is not None and isinstance(spelled.get(cost.subset), int):
            attributes = max(min(spelled[cost.subset], attributes), 1)
        row = attributes + ROW_ATTRIBUTES
    examples = REFERENCE_EXAMPLES * (max(n_examples, 1.0) / REFERENCE_EXAMPLES) ** cost.growth
    seconds = cost.per_example * examples * row * work
    size = _size(cls, spelled)
    if size is not None:
        relative = max(size, 1) / REFERENCE_SIZE
        seconds *= relative * (1.0 - cost.committee_share + cost.committee_share * relative)
    if _keeps_every_trial(cls, spelled):  # every trial kept: its members, not the trials rejection takes
        kept = fit_members(cls, params)
        seconds *= kept / max(min(_trials(cls, spelled), REJECTION_TRIALS_PER_MEMBER * kept), 1)
    own, members = _artificial_factors(cls, spelled)
    if member is not None:
        ratio = member.fit_cost.per_example / learner_class(REFERENCE_MEMBER).fit_cost.per_example
        base = spelled["estimator"]
        if isinstance(base, Mapping):
            ratio *= _work(member, base.get("params") or {})
        members *= ratio
    seconds *= cost.own_share * own + (1.0 - cost.own_share) * members
    if cost.refreshes and values and member is not None:
        seconds += fit_members(cls, params) * max(n_examples, 1.0) * member.fit_cost.per_value * values * classes
    return (seconds + MEMBER_SECONDS * fit_members(cls, params)) * _speed(cls, spelled)


def _trials(cls: type, spelled: Mapping[str, Any]) -> int:
    """The ``FitCost.trials`` parameter's value: given, or the class's default."""
    return int(spelled.get(cls.fit_cost.trials, _default(cls, cls.fit_cost.trials)))


def _keeps_every_trial(cls: type, spelled: Mapping[str, Any]) -> bool:
    """Whether the parameters turn off the learner's rejection of trials (``FitCost.rejection``;
    only with ``FitCost.trials``, the count rejection draws from)."""
    name = cls.fit_cost.rejection
    return name is not None and cls.fit_cost.trials is not None and spelled.get(name) is False


def _artificial_factors(cls: type, spelled: Mapping[str, Any]) -> tuple[float, float]:
    """The factors of a fit's own share and its members' share for the artificial set's size
    given against the default (``FitCost.artificial``; (1, 1) when not given)."""
    name = cls.fit_cost.artificial
    size = spelled.get(name) if name is not None else None
    default = _default(cls, name) if name is not None else None
    if not isinstance(size, (int, float)) or isinstance(size, bool) or not isinstance(default, (int, float)) \
            or default <= 0:
        return 1.0, 1.0
    size = max(float(size), 0.0)
    return size / default, (1.0 + size) / (1.0 + default)


def values_seen(X: Any, fraction: float = 1.0) -> float:
    """The numeric distinct values a learner that streams ``fraction`` of the rows of ``X`` (a
    frame; nominal columns are categorical) holds on average along a random order: summed over
    the numeric columns, Σ over each value of c / (c + 1), c its expected count among the rows
    streamed. Why: a value occurring c times is first met, on average, a 1 / (c + 1) share
    into the stream, so continuous columns hold about half their values on average and a
    column of few repeated values all of them from the start."""
    total = 0.0
    for column in X.columns:
        series = X[column]
        if isinstance(series.dtype, pd.CategoricalDtype) or not pd.api.types.is_numeric_dtype(series):
            continue
        counts = series.value_counts(dropna=True).to_numpy(dtype=float) * fraction
        total += float((counts / (counts + 1.0)).sum())
    return total


@functools.cache
def _param_names(cls: type) -> frozenset[str]:
    """The constructor's parameters (scikit-learn's ``_get_param_names``), cached as
    :func:`_default` is."""
    return frozenset(cls._get_param_names())


def _base_member(cls: type, spelled: Mapping[str, Any]) -> type | None:
    """The registry class of a meta-learner's base learner given in the parameters, or None."""
    base = spelled.get("estimator")
    name = base.get("name") if isinstance(base, Mapping) else base
    if "estimator" in _param_names(cls) and isinstance(name, str) and name.strip().lower() in ALGORITHMS:
        return learner_class(name)
    return None


def _speed(cls: type, spelled: Mapping[str, Any]) -> float:
    """:data:`ENGINE_SPEED` of the engine a fit runs on (its base learner's, if one is given)."""
    member = _base_member(cls, spelled)
    engine = (member or cls).fit_cost.engine
    if engine is None or before_lever(engine):
        return 1.0
    return ENGINE_SPEED.get(engine, 1.0)


def engine_speed(name: str, params: Mapping[str, Any] | None = None) -> float:
    """:data:`ENGINE_SPEED` of the engine the registry learner ``name`` runs on (1 for a learner
    on no listed engine): for costs a kind adds beside the fits, such as a committee scoring a
    pool with its trees."""
    cls = learner_class(name)
    return _speed(cls, _spelled(cls, params))


def estimated_fit_seconds(name: str, params: Mapping[str, Any] | None, n_examples: float,
                          n_attributes: int, *, inputs: int | None = None, classes: int = 2,
                          values: float | None = None) -> float:
    """:func:`fit_seconds` of the registry learner ``name`` (used only to size jobs)."""
    return learner_class(name).estimated_fit_seconds(params or {}, n_examples, n_attributes,
                                                     inputs=inputs, classes=classes, values=values)


def estimated_members(name: str, params: Mapping[str, Any] | None = None) -> int:
    """:func:`fit_members` of the registry learner ``name``."""
    return learner_class(name).estimated_members(params or {})
