"""A learner as an experiment file gives it: a registry name and parameters → an estimator.

An experiment file maps each algorithm label to its parameters (the label is the registry
name, or a ``learner:`` key names it), e.g.::

    algorithms:
      decorate: {n_estimators: 15, max_iterations: 50, base: j48}
      adaboost_unpruned: {learner: adaboost, base: {name: j48, params: {unpruned: true}}}

Parameter names are the constructor's (scikit-learn's words: ``n_estimators``,
``estimator``), with one addition: ``base`` names a meta-learner's base learner as a file can
write it, a registry name or a ``{name, params}`` mapping, built recursively here; Python's
``estimator`` takes an estimator object (a file may say ``estimator:`` too, with the same
values). An old spelling a learner still accepts (its ``renamed_parameters``) works with a
:class:`FutureWarning`. A name the constructor does not take fails with the close ones,
because a silently ignored parameter would quietly change an experiment; the values are
checked by the learner's own constraints (:func:`check_learner`), the one check the
workflow's dry run makes of every learner parameter.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

from redecorate.config import did_you_mean
from redecorate.learners.registry import learner_class

__all__ = [
    "BASE_KEY",
    "RefusedValueError",
    "UnknownParameterError",
    "check_learner",
    "make_base",
    "make_learner",
]

BASE_KEY = "base"
"""The experiment files' key for a meta-learner's base learner (a name or ``{name, params}``);
the constructor's is ``estimator``."""


class UnknownParameterError(ValueError):
    """Parameters that the named learner (or active-learning system) does not take."""

    def __init__(self, owner: str, names: list[str], valid: list[str], where: str | None = None):
        self.owner, self.names, self.valid = owner, names, valid
        hints = "".join(did_you_mean(name, valid, n=1) for name in names)
        place = f" (from {where})" if where else ""
        super().__init__(
            f"{owner} does not take parameter(s) {', '.join(repr(n) for n in names)}{place}; "
            f"valid parameters: {', '.join(valid)}.{hints}"
        )


class RefusedValueError(ValueError):
    """A value a learner's constraints refuse; ``parameter`` names it when it is the learner's
    own (None: a base learner's, which its message names)."""

    def __init__(self, message: str, parameter: str | None):
        self.parameter = parameter
        super().__init__(message)


def make_base(spec: Any, where: str | None = None) -> Any:
    """A base learner as a file or a caller gives it: None (the meta-learner's default), a
    registry name, a ``{name, params}`` mapping or an estimator."""
    if spec is None or hasattr(spec, "fit"):
        return spec
    if isinstance(spec, str):
        return make_learner(spec, None, where=where)
    if isinstance(spec, Mapping) and "name" in spec and set(spec) <= {"name", "params"}:
        return make_learner(spec["name"], spec.get("params"), where=where)
    raise ValueError(
        f"base must be an algorithm name, a {{name, params}} mapping or an estimator; got {spec!r}"
        + (f" (from {where})" if where else "")
    )


def _renamed(name: str, cls: type, kwargs: dict[str, Any], place: str) -> None:
    """Old spellings in ``kwargs`` renamed in place, each with a :class:`FutureWarning`."""
    for old, new in dict(getattr(cls, "renamed_parameters", {})).items():
        if old not in kwargs:
            continue
        given = [k for k in (new, BASE_KEY if new == "estimator" else None) if k in kwargs]
        if given:
            raise ValueError(f"{name}: give either {given[0]} or its old name {old}, not both{place}")
        warnings.warn(f"{name}: parameter {old!r} was renamed {new!r} (scikit-learn's name) and "
                      f"will be removed in the next release{place}; write {new}: {kwargs[old]!r}",
                      FutureWarning, stacklevel=3)
        kwargs[new] = kwargs.pop(old)


def make_learner(name: str, params: Mapping[str, Any] | None = None, random_state: Any = None, *,
                 where: str | None = None) -> Any:
    """Build the unfitted estimator that the config entry ``{name, params}`` describes.

    ``random_state`` (an int or :class:`numpy.random.SeedSequence`, normally derived from the
    job's key) is given to estimators that take one; members of a meta-learner are seeded by
    the meta-learner, so a ``base`` never gets its own. ``where`` names the config location
    for error messages (e.g. ``"config/experiments/ch4_passive.yaml"``). The values are not
    checked here (:func:`check_learner` does, and so does the fit).
    """
    cls = learner_class(name, where)
    label = name.strip().lower()
    kwargs = dict(params or {})
    place = f" (from {where})" if where else ""
    if "random_state" in kwargs:
        raise ValueError(f"{label}: random_state cannot be set in params{place}; seeds come from "
                         "the experiment's seed scheme (experiment, dataset, run, fold)")
    _renamed(label, cls, kwargs, place)
    valid = cls._get_param_names()
    meta = "estimator" in valid
    if meta and BASE_KEY in kwargs:
        if "estimator" in kwargs:
            raise ValueError(f"{label}: give either base or estimator, not both{place}")
        kwargs["estimator"] = kwargs.pop(BASE_KEY)
    if meta and "estimator" in kwargs:
        kwargs["estimator"] = make_base(kwargs["estimator"], where)
    unknown = sorted(k for k in kwargs if k not in valid)
    if unknown:
        shown = sorted({*valid, BASE_KEY} if meta else set(valid))
        raise UnknownParameterError(label, unknown, [k for k in shown if k != "random_state"], where)
    if "random_state" in valid and random_state is not None:
        kwargs["random_state"] = random_state
    return cls(**kwargs)


def check_learner(name: str, params: Mapping[str, Any] | None = None, *,
                  where: str | None = None) -> Any:
    """:func:`make_learner`, then the learner's own check of every value (scikit-learn's
    ``_parameter_constraints``, base learners included): what the dry run asks of each
    learner of an experiment file, so a value no fit could use fails before any job.

    Raises:
        ValueError or TypeError: an unknown learner or parameter (with the close names), or
            a value outside the parameter's constraints (naming parameter, learner and what
            it must be).
    """
    # Deferred: this module is read when the workflow parses, which imports no scikit-learn
    # (tests/test_architecture.py); the learner's own module imports it anyway.
    from sklearn.utils._param_validation import InvalidParameterError

    learner = make_learner(name, params, 0, where=where)
    try:
        learner._validate_params()
    except InvalidParameterError as exc:
        parameter, hint = _refused(learner)
        raise RefusedValueError(f"{exc}{hint}", parameter) from None
    return learner


def _refused(learner: Any) -> tuple[str | None, str]:
    """The learner's own parameter whose value its constraints refuse, and the close ones of
    a misspelt option (``strategy: info_gain``); ``(None, "")`` when it is a base learner's."""
    from sklearn.utils._param_validation import StrOptions, make_constraint  # as check_learner

    for key, value in learner.get_params(deep=False).items():
        constraints = [make_constraint(c) for c in learner._parameter_constraints.get(key, [])]
        if constraints and not any(c.is_satisfied_by(value) for c in constraints):
            options = [o for c in constraints if isinstance(c, StrOptions) for o in sorted(c.options)]
            return key, did_you_mean(value, options) if isinstance(value, str) else ""
    return None, ""
