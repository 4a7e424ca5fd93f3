"""The scikit-learn face shared by every learner of the project, and what the workflow reads of it.

Every learner implements two private methods on the encoded representation
(:mod:`redecorate.learners.features`):

``_fit_encoded(X, y, sample_weight, schema, n_classes)``
    ``X`` float64 (nominal codes, NaN missing), ``y`` int class codes in ``[0, n_classes)``.
``_proba_encoded(X) -> (n, n_classes)``

Ensembles call these on their members directly, so a training set is validated and
encoded once per ensemble rather than once per member, and every member sees the full
class list even when a bootstrap sample or a tiny learning-curve prefix lacks a class.

Parameters are checked by scikit-learn's own mechanism: each learner declares
``_parameter_constraints`` and :meth:`EncodedClassifier.fit` (``fit_prepared``,
``partial_fit``) checks them before anything is fitted; the workflow's dry run asks the same
constraints of every learner of an experiment file
(:func:`redecorate.learners.params.check_learner`). Besides its parameters, a learner
declares what an experiment needs to know of it (:class:`EncodedClassifier`'s class
attributes): its cost model, whether it streams, takes an unlabeled pool or forms an active
learner's committee, and its old parameter spellings. ``docs/adding-a-learner.md`` walks
through a new one.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from sklearn import get_config
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import HasMethods, Interval, validate_parameter_constraints
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (
    _check_sample_weight,
    check_is_fitted,
    column_or_1d,
    validate_data,
)

from redecorate.learners.cost import FitCost, fit_members, fit_seconds
from redecorate.learners.features import FeatureSchema

SAMPLE_WEIGHT_CHECK = "check_sample_weight_equivalence_on_dense_data"
"""The scikit-learn estimator check some learners fail by design (a weight of k equals k copies
of the row, fit for fit): their ``sample_weight_departure`` says how they depart from it."""


class NumberInterval(Interval):
    """scikit-learn's :class:`~sklearn.utils._param_validation.Interval`, refusing booleans.

    Python counts ``True`` as the integer 1, so a YAML ``true`` where a number is meant
    (``n_estimators: yes``) would pass scikit-learn's own interval and build a one-member
    ensemble without a word.
    """

    def is_satisfied_by(self, val: Any) -> bool:
        return not isinstance(val, bool | np.bool_) and super().is_satisfied_by(val)


POSITIVE_INT = NumberInterval(numbers.Integral, 1, None, closed="left")
"""A count of one or more (ensemble sizes, iterations, epochs)."""

NON_NEGATIVE = NumberInterval(numbers.Real, 0, np.inf, closed="left")
"""A finite number >= 0 (learning rates, momenta, sizes relative to the training set)."""

RANDOM_STATE = ["random_state", np.random.SeedSequence, np.random.Generator]
"""scikit-learn's seeds, plus the :class:`~numpy.random.SeedSequence` the experiments derive
every learner's seed as, and a generator."""

ENSEMBLE_CONSTRAINTS = {
    "estimator": [HasMethods(["fit", "predict_proba"]), None],  # None: the default member
    "n_estimators": [POSITIVE_INT],
    "random_state": RANDOM_STATE,
}
"""The constraints of the parameters every ensemble of members has, which its own extend."""


def expected_failed_checks(estimator: Any) -> dict[str, str]:
    """scikit-learn check name -> why ``estimator`` fails it by design (empty: it passes every
    check): ``check_estimator(est, expected_failed_checks=expected_failed_checks(est))``."""
    reason = getattr(estimator, "sample_weight_departure", None)
    return {SAMPLE_WEIGHT_CHECK: reason} if reason else {}


def _is_frame(X) -> bool:
    return isinstance(X, pd.DataFrame)


def _check_frame_columns(estimator, X: pd.DataFrame, *, reset: bool) -> None:
    """scikit-learn's feature-name and feature-count bookkeeping for DataFrames.

    Done here rather than through ``sklearn.utils.validation`` because that path converts
    the frame through a dataframe-interchange layer costing ~0.3 ms a call, more than
    fitting a tree on a small learning-curve sample.
    """
    cols = X.columns.tolist()
    names = np.asarray(cols, dtype=object) if cols and all(isinstance(c, str) for c in cols) else None
    if cols and names is None and any(isinstance(c, str) for c in cols):
        raise TypeError(
            "Feature names are only supported if all input features have string names, "
            f"but your input has {sorted({type(c).__name__ for c in cols})} as feature name / "
            "column name types."
        )
    if reset:
        estimator.n_features_in_ = X.shape[1]
        if names is not None:
            estimator.feature_names_in_ = names
        elif hasattr(estimator, "feature_names_in_"):
            del estimator.feature_names_in_
        return
    fitted = getattr(estimator, "feature_names_in_", None)
    if fitted is None and names is not None:
        warnings.warn(
            f"X has feature names, but {type(estimator).__name__} was fitted without feature names",
            UserWarning,
            stacklevel=3,
        )
    elif fitted is not None and names is None:
        warnings.warn(
            f"X does not have valid feature names, but {type(estimator).__name__} was fitted "
            "with feature names",
            UserWarning,
            stacklevel=3,
        )
    elif fitted is not None and (len(fitted) != len(names) or (fitted != names).any()):
        unexpected = sorted(set(names) - set(fitted))
        missing = sorted(set(fitted) - set(names))
        msg = "The feature names should match those that were passed during fit.\n"
        if unexpected:
            msg += "Feature names unseen at fit time:\n" + "".join(f"- {n}\n" for n in unexpected)
        if missing:
            msg += "Feature names seen at fit time, yet now missing:\n" + "".join(
                f"- {n}\n" for n in missing
            )
        if not unexpected and not missing:
            msg += "Feature names must be in the same order as they were in fit.\n"
        raise ValueError(msg)
    if X.shape[1] != estimator.n_features_in_:
        raise ValueError(
            f"X has {X.shape[1]} features, but {type(estimator).__name__} is expecting "
            f"{estimator.n_features_in_} features as input."
        )


def _encode_labels(y) -> tuple[np.ndarray, np.ndarray]:
    """Class list and integer codes.

    A pandas Categorical target keeps its full declared class list (as Weka does with
    the ARFF header): a class absent from a small training sample still exists for the
    model, which matters for DECORATE's inverse labelling and for Laplace estimates.
    Any other target uses the sorted labels present, as scikit-learn expects.
    """
    if isinstance(y, pd.Series | pd.Categorical) and isinstance(y.dtype, pd.CategoricalDtype):
        cat = pd.Categorical(y)
        if (cat.codes < 0).any():
            raise ValueError("y contains missing class labels: drop those rows before fitting")
        return np.asarray(cat.categories), cat.codes.astype(np.int64)
    y = np.asarray(y)
    check_classification_targets(y)
    if pd.isna(y).any():
        raise ValueError("y contains missing class labels: drop those rows before fitting")
    classes, codes = np.unique(y, return_inverse=True)
    return classes, codes.astype(np.int64)


class EncodedClassifier(ClassifierMixin, BaseEstimator):
    """Base class: input validation, label encoding, parameter checks and the encoded
    fit/predict protocol; its class attributes are what an experiment knows of a learner."""

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = {}
    """scikit-learn's constraints of the constructor parameters, one entry per parameter."""

    # -- what an experiment needs to know of a learner (docs/adding-a-learner.md) -----------
    display_name: ClassVar[str | None] = None
    """How tables and legends name the learner (the sources' spelling: ``Random Forests``);
    None: its registry name. A report names a system by its experiment label, through this
    when the label is a registry name (:func:`redecorate.report.tables.display_name`)."""

    fit_cost: ClassVar[FitCost] = FitCost()
    """The cost model that sizes workflow jobs (:mod:`redecorate.learners.cost`)."""

    streamed: ClassVar[bool] = False
    """``fit`` is one pass over the rows in the order given, so the order is part of the input
    (the online kind streams each training fold in several random orders)."""

    committee_settings: ClassVar[tuple[str, ...] | None] = None
    """None: not an ensemble an active learner can query. Otherwise the system settings
    (:data:`redecorate.active.systems.SYSTEMS`) the ensemble takes besides its size and base
    learner: :meth:`as_committee` builds it from a system's parameters."""

    renamed_parameters: ClassVar[Mapping[str, str]] = MappingProxyType({})
    """Old spelling -> constructor parameter, for names renamed to scikit-learn's words
    (``base_estimator`` -> ``estimator``, DECORATE's ``ensemble_size`` -> ``n_estimators``):
    an experiment file may still use the old one, with a :class:`FutureWarning`
    (:func:`redecorate.learners.params.make_learner`)."""

    sample_weight_departure: ClassVar[str | None] = None
    """Why the learner departs from scikit-learn's sample-weight equivalence check, if it does
    (:func:`expected_failed_checks`)."""

    @classmethod
    def estimated_fit_seconds(cls, params: Mapping[str, Any], n_examples: float,
                              n_attributes: int, *, inputs: int | None = None, classes: int = 2,
                              values: float | None = None) -> float:
        """Rough CPU seconds of one fit with an experiment file's ``params`` on an ``n × d``
        training set of ``inputs`` inputs after nominal-to-binary and ``classes`` classes, a
        streamed member holding ``values`` numeric values on average
        (:func:`redecorate.learners.cost.fit_seconds` of :attr:`fit_cost`)."""
        return fit_seconds(cls, params, n_examples, n_attributes, inputs=inputs, classes=classes, values=values)

    @classmethod
    def estimated_members(cls, params: Mapping[str, Any]) -> int:
        """Models one fit builds with ``params`` (:func:`redecorate.learners.cost.fit_members`)."""
        return fit_members(cls, params)

    @classmethod
    def takes_pool(cls, params: Mapping[str, Any]) -> bool:
        """Whether a learner with these parameters is fitted with the unlabeled rest of the
        training fold, ``fit(X, y, pool=U)`` (DECORATE's §4.6.1 variants)."""
        return False

    @classmethod
    def as_committee(cls, n_estimators: int, estimator: Any,
                     settings: Mapping[str, Any]) -> EncodedClassifier:
        """This ensemble as an active learner's committee: ``n_estimators`` members of
        ``estimator`` (None: the default base learner) and those of its
        :attr:`committee_settings` that a system's ``settings`` give.

        Raises:
            TypeError: the learner is not a committee (:attr:`committee_settings` is None).
        """
        if cls.committee_settings is None:
            raise TypeError(f"{cls.__name__} is not an ensemble an active learner can query")
        own = {key: settings[key] for key in cls.committee_settings if key in settings}
        return cls(estimator=estimator, n_estimators=n_estimators, **own)

    # -- scikit-learn's protocol --------------------------------------------------------------
    @classmethod
    def _get_param_names(cls) -> list[str]:
        """scikit-learn's list of constructor parameters, read from the signature once per
        class: ``clone`` and ``get_params`` ask for it on every call, and an ensemble
        clones its base learner once per fit (tens of microseconds of ``inspect`` each)."""
        names = cls.__dict__.get("_param_names_cache")
        if names is None:
            names = super()._get_param_names()
            cls._param_names_cache = names
        return list(names)

    def _validate_params(self) -> None:
        """scikit-learn's check of the parameters against ``_parameter_constraints``, and of
        the base learner's (``estimator``): members are fitted through the encoded protocol,
        never through ``fit``, so the ensemble's fit is where their parameters are checked.

        Plain settings (numbers, strings, None) already found valid for this class are not
        checked again: a learning curve fits thousands of models with a few settings, and the
        whole check (~50 µs) costs about what fitting J48 on ten examples does. The other
        values (seeds, estimators, strategy objects) are checked every time.

        Raises:
            sklearn.utils._param_validation.InvalidParameterError: a ValueError and TypeError
                naming the parameter, the learner and what it must be.
        """
        cls = type(self)
        params = self.get_params(deep=False)
        plain = tuple((key, type(value), value) for key, value in params.items()
                      if isinstance(value, str | numbers.Number | None) and key != "random_state")
        valid = cls.__dict__.get("_valid_settings")
        if valid is None:
            valid = cls._valid_settings = set()
        checked = params if plain not in valid else {
            key: value for key, value in params.items()
            if not isinstance(value, str | numbers.Number | None) or key == "random_state"}
        validate_parameter_constraints(self._parameter_constraints, checked, caller_name=cls.__name__)
        valid.add(plain)
        estimator = params.get("estimator")
        if isinstance(estimator, BaseEstimator) and hasattr(estimator, "_validate_params"):
            estimator._validate_params()

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    # -- input handling -------------------------------------------------------------
    def _validate_X(self, X, *, reset: bool) -> np.ndarray:
        if _is_frame(X):
            _check_frame_columns(self, X, reset=reset)
            if reset:
                self.feature_schema_ = FeatureSchema.from_input(X)
            if X.shape[0] == 0:
                raise ValueError(
                    f"Found array with 0 sample(s) (shape=(0, {X.shape[1]})) while a minimum "
                    "of 1 is required."
                )
            return self.feature_schema_.encode(X)
        arr = validate_data(
            self, X, reset=reset, dtype=np.float64, ensure_all_finite="allow-nan"
        )
        if reset:
            self.feature_schema_ = FeatureSchema.from_input(arr)
        return arr

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit on a DataFrame (Categorical = nominal) or a numeric array; NaN = missing."""
        Xe = self._validate_X(X, reset=True)
        if y is None:
            raise ValueError(
                f"{type(self).__name__} requires y to be passed, but the target y is None"
            )
        if not (isinstance(y, pd.Series | pd.Categorical) and isinstance(y.dtype, pd.CategoricalDtype)):
            y = column_or_1d(np.asarray(y), warn=True)
        if len(y) != Xe.shape[0]:
            raise ValueError(
                f"Found input variables with inconsistent numbers of samples: [{Xe.shape[0]}, {len(y)}]"
            )
        self.classes_, y_codes = _encode_labels(y)
        w = _check_sample_weight(sample_weight, Xe, dtype=np.float64)
        if sample_weight is None:
            w = np.ones(Xe.shape[0], dtype=np.float64)
        self._fit_encoded(Xe, y_codes.astype(np.int64), w, self.feature_schema_, len(self.classes_))
        return self

    def fit_prepared(
        self, X_encoded: np.ndarray, y_codes: np.ndarray, *, classes: np.ndarray,
        schema: FeatureSchema, columns: pd.DataFrame, merge_identical: bool = False,
    ) -> EncodedClassifier:
        """:meth:`fit` on rows of a frame that was encoded once with ``schema``.

        Why: a learning-curve job fits thousands of small training sets drawn from one
        dataset; validating and encoding each subset again costs more than fitting a tree on
        it. Subsets of one frame share its schema (declared categories) and class list, so
        ``fit_prepared(schema.encode(X)[rows], codes[rows], ...)`` is :meth:`fit` on
        ``X.iloc[rows]``: the same fitted model, and the public methods work as after
        :meth:`fit`. ``columns`` is any frame with the dataset's columns (zero rows will do),
        for scikit-learn's feature-name bookkeeping.

        ``merge_identical``: a learner with ``fits_multiplicities`` is given each distinct
        (row, class) once with its count, the same model as on the copies (see
        :func:`merge_identical_rows`); chapter 8's masked pools are mostly copies of a few
        rows. Other learners ignore it.

        The parameters are checked as :meth:`fit` checks them, without the configuration
        context it enters to skip the checks of nested scikit-learn fits (~10 µs, a tenth of
        a small fit; a foreign base learner then checks its own parameters at every fit).
        """
        if not get_config()["skip_parameter_validation"]:
            self._validate_params()
        _check_frame_columns(self, columns, reset=True)
        if X_encoded.shape[0] == 0:
            raise ValueError(f"Found array with 0 sample(s) (shape={X_encoded.shape}) while a "
                             "minimum of 1 is required.")
        self.feature_schema_ = schema
        self.classes_ = np.asarray(classes)
        X = np.asarray(X_encoded, dtype=np.float64)
        y = np.asarray(y_codes, dtype=np.int64)
        if merge_identical and getattr(self, "fits_multiplicities", False):
            rows, counts, _ = merge_identical_rows(X, y)
            self._fit_encoded(X[rows], y[rows], counts.astype(np.float64), schema, len(self.classes_),
                              multiplicity=counts)
        else:
            self._fit_encoded(X, y, np.ones(X.shape[0], dtype=np.float64), schema, len(self.classes_))
        return self

    def predict_proba_prepared(self, X_encoded: np.ndarray) -> np.ndarray:
        """:meth:`predict_proba` on rows encoded with the schema given to :meth:`fit_prepared`."""
        check_is_fitted(self, "classes_")
        return self._proba_encoded(np.asarray(X_encoded, dtype=np.float64))

    def predict_prepared(self, X_encoded: np.ndarray) -> np.ndarray:
        """:meth:`predict` on rows encoded with the schema given to :meth:`fit_prepared`."""
        return self.classes_[np.argmax(self.predict_proba_prepared(X_encoded), axis=1)]

    def predict_proba(self, X) -> np.ndarray:
        check_is_fitted(self, "classes_")
        Xe = self._validate_X(X, reset=False)
        return self._proba_encoded(Xe)

    def predict(self, X) -> np.ndarray:
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    @property
    def ensemble_size_(self) -> int:
        """Members that vote in the fitted model (1 for a single tree)."""
        check_is_fitted(self, "classes_")
        return len(getattr(self, "estimators_", (self,)))

    # -- the encoded protocol (subclasses) -------------------------------------------
    def _fit_encoded(
        self,
        X: np.ndarray,
        y: np.ndarray,
        sample_weight: np.ndarray,
        schema: FeatureSchema,
        n_classes: int,
    ) -> None:
        raise NotImplementedError

    def _proba_encoded(self, X: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _classify_encoded(self, X: np.ndarray) -> np.ndarray:
        """Class codes as Weka's ``classifyInstance`` gives them (see below)."""
        return self._proba_and_classify_encoded(X)[1]

    def _proba_and_classify_encoded(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(_proba_encoded(X), class codes)``: the first maximum here; J48 overrides this
        with its own tolerance rule. One method for both because AdaBoost.M1 needs both of
        every member on the whole training set, and J48 gets them from one pass down the tree."""
        p = self._proba_encoded(X)
        return p, np.argmax(p, axis=1)


def merge_identical_rows(X: np.ndarray, y: np.ndarray | None = None
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(rows, counts, inverse)``: the first occurrence of each distinct row of ``X`` (with its
    class ``y``, if given), in the original order, how many rows it stands for, and for every
    row the position of its representative in ``rows``.

    Why: C4.5 sums weights except in two rules that count instances, and
    :func:`redecorate.learners.c45_engine.build_tree` counts those through a multiplicity, so
    ``c`` identical instances of weight 1 and one row of weight ``c`` grow the same tree (up to
    the order of floating-point sums); a prediction depends on the row alone. Missing values
    (any NaN) compare equal here; ``0.0`` and ``-0.0`` do not (left unmerged, which is safe).
    """
    key = np.where(np.isnan(X), np.nan, X)
    if y is not None:
        key = np.column_stack([key, np.asarray(y, dtype=np.float64)])
    key = np.ascontiguousarray(key, dtype=np.float64)
    if key.shape[0] == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    as_bytes = key.view(np.dtype((np.void, key.dtype.itemsize * key.shape[1]))).ravel()
    _, first, inverse, counts = np.unique(as_bytes, return_index=True, return_inverse=True,
                                          return_counts=True)
    order = np.argsort(first, kind="stable")  # first-occurrence order, not byte order
    position = np.empty_like(order)
    position[order] = np.arange(order.size)
    return first[order], counts[order].astype(np.int64), position[inverse.ravel()]


def fit_member(estimator, X, y, sample_weight, schema, n_classes, multiplicity=None):
    """Fit a clone-ready member on encoded data, whatever kind of estimator it is.

    Project learners take the encoded arrays directly; any other scikit-learn
    classifier gets the decoded DataFrame (or array, when all attributes are numeric)
    and its probabilities are mapped back onto the full class list. ``multiplicity``
    (instances per row) is only for learners with ``fits_multiplicities``.
    """
    if isinstance(estimator, EncodedClassifier):
        if multiplicity is None:
            estimator._fit_encoded(X, y, sample_weight, schema, n_classes)
        else:
            estimator._fit_encoded(X, y, sample_weight, schema, n_classes, multiplicity=multiplicity)
        estimator.classes_ = np.arange(n_classes)
        estimator.feature_schema_ = schema
        estimator.n_features_in_ = schema.n_features
        return estimator
    Xf = X if not schema.is_nominal.any() else schema.decode(X)
    try:
        estimator.fit(Xf, y, sample_weight=sample_weight)
    except TypeError:
        estimator.fit(Xf, y)
    estimator._redecorate_schema = schema
    estimator._redecorate_n_classes = n_classes
    return estimator


def fit_replicate(estimator, X, y, rows, schema, n_classes):
    """Fit a member on the replicate ``X[rows]`` (rows repeat), every copy of weight 1.

    A learner whose ``fits_multiplicities`` is true (J48) is given each distinct row once,
    weighted by its draw count, which grows the same model as the copies would on about
    63 % of the rows of a bootstrap replicate; any other learner gets the copies.
    """
    if getattr(estimator, "fits_multiplicities", False):
        counts = np.bincount(rows, minlength=X.shape[0])
        distinct = np.flatnonzero(counts)
        c = counts[distinct]
        return fit_member(estimator, X[distinct], y[distinct], c.astype(np.float64), schema,
                          n_classes, multiplicity=c)
    return fit_member(estimator, X[rows], y[rows], np.ones(rows.size), schema, n_classes)


def member_proba_and_classify(estimator, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`member_proba` and :func:`member_classify` of one member, sharing the work."""
    if isinstance(estimator, EncodedClassifier):
        return estimator._proba_and_classify_encoded(X)
    p = member_proba(estimator, X)
    return p, np.argmax(p, axis=1)


def member_classify(estimator, X: np.ndarray) -> np.ndarray:
    """Class codes a member assigns, by the member's own classification rule."""
    if isinstance(estimator, EncodedClassifier):
        return estimator._classify_encoded(X)
    return np.argmax(member_proba(estimator, X), axis=1)


def member_proba(estimator, X: np.ndarray) -> np.ndarray:
    """Class probabilities of a member fitted by :func:`fit_member`, on the full class list."""
    if isinstance(estimator, EncodedClassifier):
        return estimator._proba_encoded(X)
    schema = estimator._redecorate_schema
    Xf = X if not schema.is_nominal.any() else schema.decode(X)
    p = estimator.predict_proba(Xf)
    out = np.zeros((X.shape[0], estimator._redecorate_n_classes))
    out[:, np.asarray(estimator.classes_, dtype=np.int64)] = p
    return out
