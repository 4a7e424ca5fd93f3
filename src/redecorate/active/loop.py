"""The pool-based active-learning loop (Algorithm 4, generalized query by committee).

::

    repeat:
        C* = EnsembleMethod(BaseLearn, T)            # the committee, refitted on T
        u_j = Utility(C*, x_j) for all x_j in U
        S = m examples of U chosen by u             # top-m, proportional or random
        label S; U = U \\ S; T = T ∪ S
    return EnsembleMethod(BaseLearn, T)             # the predictor

:class:`ActiveLearner` holds the pool and composes a committee
(:class:`~redecorate.active.committee.Committee`) with a query strategy
(:class:`~redecorate.active.strategy.QueryStrategy`), in the ``fit`` / ``query`` /
``teach`` style of modAL::

    learner = ActiveLearner(Decorate(), "probability_margin", batch_size=3, random_state=0)
    learner.fit(X_pool, y_partial)          # y_partial: NaN/None = not labeled yet
    while learner.n_unlabeled_:
        idx = learner.query()               # pool positions, never labeled before
        learner.teach(idx, oracle[idx])     # their labels; models refit lazily
        accuracy = learner.score(X_test, y_test)

or in scikit-activeml's, the pool and its labels so far given with every query (the same
batches: :meth:`ActiveLearner.query`)::

    idx = learner.query(X_pool, y_partial, batch_size=3)
    y_partial[idx] = oracle[idx]

Where the dissertation is silent, the loop takes these readings:

* The predictor is the committee itself (the same fitted ensemble selects and predicts,
  Algorithm 4's last line) unless ``predictor`` is given (§6.4.2, "select with Bagging,
  predict with DECORATE").
* Every model is trained on the labeled examples **in pool order**, not in acquisition
  order, so the model for a labeled set depends only on that set and the seed: at the end
  of the pool every system trains on the same examples in the same order (§6.3.1).
* Models are refitted lazily: the committee when the next query needs it, the predictor
  when something is predicted, each at most once per labeled set. Random sampling never
  builds a committee to select with.

Determinism: every random stream is a child of the ``random_state`` SeedSequence keyed by
name and the number of labeled examples: a model's seed by its class name (``"Decorate"``,
``"Bagging"``, ...), the selection's tie-breaking or sampling by ``"select"``. Identical
inputs and seed give bit-identical queries. Because a model's seed does not depend on
the system or on the model's role, two systems that train the same ensemble on the same
labeled set with the same ``random_state`` get the same model (common random numbers):
at the end of the pool ActiveDecorate and random-sampling DECORATE are then identical,
and their paired differences elsewhere are not blurred by seed noise.
"""

from __future__ import annotations

import numbers
import time
from collections.abc import Sequence

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator

from redecorate.active.committee import Committee, fit_model
from redecorate.active.strategy import PoolView, QueryStrategy
from redecorate.learners.base import EncodedClassifier, member_proba
from redecorate.learners.features import FeatureSchema
from redecorate.protocol.seeds import key_words
from redecorate.util import as_seed_sequence

__all__ = ["ActiveLearner", "NotFittedError", "query_by_committee"]



class NotFittedError(RuntimeError):
    """``query``/``teach``/``predict`` called before ``fit``."""


def _is_missing(values: np.ndarray) -> np.ndarray:
    return np.asarray(pd.isna(values), dtype=bool)


class ActiveLearner:
    """Pool-based active learner: a committee, a query strategy and the pool's labels.

    Parameters
    ----------
    committee:
        A :class:`~redecorate.active.committee.Committee`, or an ensemble estimator (wrapped
        with the default vote weighting), or ``None`` for ``Decorate()`` with the thesis
        defaults. With random sampling it is only the default predictor.
    strategy:
        A :class:`~redecorate.active.strategy.QueryStrategy`, a score name (top-m
        selection) or ``"random"``.
    batch_size:
        ``m``, examples per query (1 in the thesis; 2 or 3 on the larger datasets).
    predictor:
        The estimator evaluated on new data; ``None`` means the committee ensemble.
    random_state:
        ``int``, :class:`numpy.random.SeedSequence` or ``None``.

    Attributes (after ``fit``)
    --------------------------
    classes_: class labels (codes are positions in this array).
    schema_: the :class:`~redecorate.learners.features.FeatureSchema` of the pool.
    X_: the encoded pool. is_labeled_: bool mask over the pool.
    acquisition_order_: pool positions in the order they were labeled (initial set first,
        in pool order). queries_: the batches taught, one array each.
    fit_log_: one ``{"n_labeled", "role", "seconds"}`` dict per model fitted; expected error
        reduction adds one ``{"n_labeled", "role": "eer", "seconds", "fits"}`` per query for
        its hypothetical retrainings.
    last_candidates_, last_scores_: the candidates of the last query and their raw scores
        (``None`` for random sampling).
    """

    def __init__(self, committee: Committee | BaseEstimator | None = None,
                 strategy: QueryStrategy | str = "probability_margin", *, batch_size: int = 1,
                 predictor: BaseEstimator | None = None, random_state=None):
        if not isinstance(batch_size, numbers.Integral) or isinstance(batch_size, bool) \
                or batch_size < 1:
            raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
        if predictor is not None and not (hasattr(predictor, "fit")
                                          and hasattr(predictor, "predict_proba")):
            raise TypeError(f"predictor must be a classifier with fit and predict_proba, "
                            f"got {predictor!r}")
        self.committee = committee if isinstance(committee, Committee) else Committee(committee)
        self.strategy = QueryStrategy.coerce(strategy)
        self.batch_size = int(batch_size)
        self.predictor = predictor
        self.random_state = random_state

    def __repr__(self) -> str:
        extra = "" if self.predictor is None else f", predictor={self.predictor!r}"
        return (f"ActiveLearner({self.committee!r}, {self.strategy!r}, "
                f"batch_size={self.batch_size}{extra})")

    # -- set-up ---------------------------------------------------------------------------
    def fit(self, X, y, *, classes: Sequence | None = None) -> ActiveLearner:
        """Take the pool ``X`` and its known labels ``y`` (missing = not labeled yet).

        ``X`` is a DataFrame (pandas Categorical = nominal, as
        :class:`redecorate.data.Dataset` gives it) or a numeric array; it is encoded once.
        ``y`` has one entry per pool example, NaN/None where the label is unknown. The class
        list is ``classes`` if given, else the categories of a Categorical ``y`` (the
        declared classes), else the sorted labels present. At least one example must be
        labeled.
        """
        self.schema_ = FeatureSchema.from_input(X)
        self.X_ = self.schema_.encode(X)
        n = self.X_.shape[0]
        if n == 0:
            raise ValueError("the pool is empty")
        self.classes_, codes = self._pool_labels(y, classes, n)
        if (codes < 0).all():
            raise ValueError("no example of the pool is labeled: label an initial set first "
                             "(e.g. redecorate.active.curve.initial_labeled_set)")
        self._codes = codes
        self.is_labeled_ = codes >= 0
        self.acquisition_order_ = list(np.flatnonzero(self.is_labeled_))
        self.queries_: list[np.ndarray] = []
        self.fit_log_: list[dict] = []
        self.last_candidates_ = None
        self.last_scores_ = None
        self._seed = as_seed_sequence(self.random_state)
        self._models: dict[str, object] = {}
        self._pool_cache: dict[str, object] = {}
        return self

    def _pool_labels(self, y, classes, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The class list and the pool's class codes (−1 = unlabeled)."""
        if isinstance(y, pd.Series | pd.Categorical) and isinstance(y.dtype, pd.CategoricalDtype) \
                and classes is None:
            cat = pd.Categorical(y)
            known = np.asarray(cat.categories)
            self._lookup = {v: i for i, v in enumerate(known.tolist())}
            codes = np.asarray(cat.codes, dtype=np.int64)
        else:
            values = np.asarray(y, dtype=object)
            if values.ndim != 1:
                raise ValueError(f"y must be one label per pool example, got shape {values.shape}")
            missing = _is_missing(values)
            known = (np.asarray(classes) if classes is not None
                     else np.asarray(sorted(set(values[~missing].tolist()))))
            self._lookup = {v: i for i, v in enumerate(known.tolist())}
            codes = np.full(values.size, -1, dtype=np.int64)
            codes[~missing] = self._encode(values[~missing])
        if codes.size != n:
            raise ValueError(f"y has {codes.size} labels for a pool of {n} examples")
        if len(known) == 0:
            raise ValueError("no class labels: give classes= or a Categorical y")
        return known, codes

    def _encode(self, labels: np.ndarray) -> np.ndarray:
        out = np.empty(labels.size, dtype=np.int64)
        for i, v in enumerate(labels.tolist()):
            code = self._lookup.get(v)
            if code is None:
                raise ValueError(
                    f"label {v!r} is not one of the classes {list(self._lookup)}; pass the full "
                    "class list to fit(..., classes=...) or use a Categorical y"
                )
            out[i] = code
        return out

    def _check_fitted(self) -> None:
        if not hasattr(self, "_codes"):
            raise NotFittedError("call fit(X_pool, y_partial) before query, teach or predict")

    # -- state ------------------------------------------------------------------------------
    @property
    def n_labeled_(self) -> int:
        self._check_fitted()
        return int(self.is_labeled_.sum())

    @property
    def n_unlabeled_(self) -> int:
        self._check_fitted()
        return int((~self.is_labeled_).sum())

    @property
    def labeled_indices_(self) -> np.ndarray:
        """Pool positions of the labeled examples, in pool order (the training order)."""
        self._check_fitted()
        return np.flatnonzero(self.is_labeled_)

    @property
    def labels_(self) -> np.ndarray:
        """Class codes of the pool, −1 where unlabeled."""
        self._check_fitted()
        return self._codes.copy()

    def seed_for(self, name: str, n_labeled: int | None = None) -> np.random.SeedSequence:
        """The SeedSequence of the stream ``name`` for a labeled set of ``n_labeled``
        examples (default: the current count). Models use their class name (a fitted
        ``Decorate`` is seeded by ``seed_for("Decorate")``), selection uses ``"select"``."""
        self._check_fitted()
        if not isinstance(name, str) or not name:
            raise ValueError(f"a stream name is a non-empty string, got {name!r}")
        n = self.n_labeled_ if n_labeled is None else int(n_labeled)
        return np.random.SeedSequence(self._seed.entropy,
                                      spawn_key=(*self._seed.spawn_key, *key_words(name), n),
                                      pool_size=self._seed.pool_size)

    def _training_set(self) -> tuple[np.ndarray, np.ndarray]:
        rows = self.labeled_indices_
        return self.X_[rows], self._codes[rows]

    def _fit(self, role: str, estimator) -> object:
        key = f"{role}@{self.n_labeled_}"
        model = self._models.get(key)
        if model is None:
            X, y = self._training_set()
            t0 = time.perf_counter()
            model = fit_model(estimator, X, y, self.schema_, len(self.classes_),
                              self.seed_for(type(estimator).__name__))
            self.fit_log_.append({"n_labeled": self.n_labeled_, "role": role,
                                  "seconds": time.perf_counter() - t0})
            self._models[key] = model
        return model

    @property
    def committee_(self):
        """The committee fitted on the current labeled set (fitted on first use)."""
        self._check_fitted()
        return self._fit("committee", self.committee.ensemble)

    @property
    def predictor_(self):
        """The model that predicts: the committee unless a separate predictor was given."""
        self._check_fitted()
        if self.predictor is None:
            return self.committee_
        return self._fit("predictor", self.predictor)

    # -- the loop ---------------------------------------------------------------------------
    def query(self, X=None, y=None, *, batch_size: int | None = None,
              classes: Sequence | None = None) -> np.ndarray:
        """Pool positions of the next batch (``batch_size``, default the learner's), all
        unlabeled.

        Two call shapes. ``query()`` asks for the next batch of the pool given to :meth:`fit`
        and labeled since by :meth:`teach` (modAL's shape). ``query(X, y)`` is
        scikit-activeml's: the pool ``X`` and its labels so far ``y`` (NaN/None = not labeled
        yet, scikit-activeml's ``MISSING_LABEL``) with every call, i.e. :meth:`fit` on them
        (``classes`` as there) and then ``query()``; the batches are the same either way,
        since a batch depends only on the labeled set and the seed.

        Does not label them; :meth:`teach` does. Querying again before teaching gives the
        same batch. Fewer than ``batch_size`` are returned when fewer remain; an empty array
        once the pool is exhausted. When the batch is the whole rest of the pool no committee
        is built (there is nothing to choose).
        """
        if X is not None or y is not None:
            if X is None or y is None or isinstance(X, numbers.Number):
                raise TypeError("query takes the pool and its labels, query(X, y), or nothing "
                                f"after fit; got X={X!r:.40}, y={y!r:.40} (a batch size is "
                                "query(batch_size=m))")
            self.fit(X, y, classes=classes)
        self._check_fitted()
        m = self.batch_size if batch_size is None else batch_size
        if not isinstance(m, numbers.Integral) or isinstance(m, bool) or m < 0:
            raise ValueError(f"batch_size must be a non-negative integer, got {batch_size!r}")
        candidates = np.flatnonzero(~self.is_labeled_)
        m = min(int(m), candidates.size)
        if m == 0:
            return np.zeros(0, dtype=np.int64)
        if m == candidates.size:
            self.last_candidates_, self.last_scores_ = candidates, None
            return candidates.copy()
        rng = np.random.default_rng(self.seed_for("select"))
        if self.strategy.needs_committee:
            output = self.committee.outputs(self.committee_, self.X_[candidates],
                                            votes=self.strategy.needs_votes)
            counts = np.bincount(self._codes[self.is_labeled_], minlength=len(self.classes_))
            if self.strategy.needs_pool:
                # Pool scores can be costly (expected error reduction refits the model per
                # candidate and label): a repeated query of the same labeled set reuses them.
                key = f"query@{self.n_labeled_}:{m}"
                if key not in self._models:
                    self._models[key] = self.strategy.select(
                        output, m, rng, counts, pool=self._pool_view(candidates))
                chosen, raw = self._models[key]
            else:
                chosen, raw = self.strategy.select(output, m, rng, counts)
        else:
            chosen, raw = self.strategy.select(None, m, rng, n_candidates=candidates.size)
        self.last_candidates_, self.last_scores_ = candidates, raw
        return candidates[chosen]

    def _pool_view(self, candidates: np.ndarray) -> PoolView:
        """The pool as expected error reduction, expected model change and density weights
        read it (:class:`~redecorate.active.strategy.PoolView`)."""
        n_labeled = self.n_labeled_

        def log(role: str, seconds: float, fits: int) -> None:
            self.fit_log_.append({"n_labeled": n_labeled, "role": role, "seconds": seconds,
                                  "fits": int(fits)})

        return PoolView(X=self.X_, labels=self._codes.copy(), candidates=candidates,
                        schema=self.schema_, n_classes=len(self.classes_),
                        committee=self.committee, model=self.committee_,
                        seed_for=self.seed_for, cache=self._pool_cache, log=log)

    def teach(self, indices, labels) -> ActiveLearner:
        """Record the labels of pool examples ``indices`` (from :meth:`query` or chosen by
        hand) and move them from the unlabeled pool to the labeled set.

        An example can be taught only once: teaching a labeled example, an index twice or a
        position outside the pool is an error.
        """
        self._check_fitted()
        idx = np.asarray(indices)
        if idx.ndim != 1:
            raise ValueError(f"indices must be 1-D pool positions, got shape {idx.shape}")
        if idx.size and not np.issubdtype(idx.dtype, np.integer):
            raise TypeError(f"indices must be integer pool positions, got dtype {idx.dtype}")
        idx = idx.astype(np.int64)
        if idx.size and (idx.min() < 0 or idx.max() >= self.X_.shape[0]):
            raise IndexError(f"pool positions must be in [0, {self.X_.shape[0]}), got {idx}")
        if np.unique(idx).size != idx.size:
            raise ValueError(f"indices repeat an example: {idx}")
        already = idx[self.is_labeled_[idx]]
        if already.size:
            raise ValueError(f"examples {already.tolist()} are already labeled; an example is "
                             "queried and taught only once")
        values = np.asarray(labels, dtype=object).ravel()
        if values.size != idx.size:
            raise ValueError(f"got {values.size} labels for {idx.size} examples")
        if _is_missing(values).any():
            raise ValueError("labels must not be missing")
        codes = self._encode(values)
        if idx.size == 0:
            return self
        self._codes[idx] = codes
        self.is_labeled_[idx] = True
        self.acquisition_order_.extend(idx.tolist())
        self.queries_.append(idx)
        self._models = {}
        return self

    # -- prediction -------------------------------------------------------------------------
    def encode(self, X) -> np.ndarray:
        """New examples in the pool's encoded representation (for repeated evaluation)."""
        self._check_fitted()
        return self.schema_.encode(X)

    def predict_proba_encoded(self, X: np.ndarray) -> np.ndarray:
        """Class distributions of the predictor on already encoded examples."""
        return np.asarray(member_proba(self.predictor_, X))

    def predict_proba(self, X) -> np.ndarray:
        """Class distributions of the predictor (columns follow ``classes_``)."""
        return self.predict_proba_encoded(self.encode(X))

    def predict(self, X) -> np.ndarray:
        """Predicted labels: the first most probable class of the predictor."""
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]

    def score(self, X, y) -> float:
        """Accuracy (fraction) of the predictor on ``(X, y)``."""
        return float(np.mean(np.asarray(self.predict(X), dtype=object)
                             == np.asarray(y, dtype=object)))

    @property
    def ensemble_size_(self) -> int:
        """Members of the predictor (1 for a single learner)."""
        model = self.predictor_
        if isinstance(model, EncodedClassifier):
            return int(model.ensemble_size_)
        return len(getattr(model, "estimators_", (model,)))


def query_by_committee(X, y, initial: Sequence[int] | np.ndarray,
                       committee: Committee | BaseEstimator | None = None,
                       strategy: QueryStrategy | str = "probability_margin", *,
                       batch_size: int = 1, iterations: int | None = None,
                       predictor: BaseEstimator | None = None,
                       random_state=None) -> ActiveLearner:
    """Algorithm 4 with a perfect oracle: label ``initial``, then ``iterations`` rounds of
    query-and-teach (until the pool is exhausted when ``None``).

    ``y`` holds the true label of every pool example (the oracle); only the labels of
    ``initial`` and of queried examples are ever given to the learner. Returns the learner,
    whose ``predictor_`` is ``EnsembleMethod(BaseLearn, T)``.
    """
    labels = np.asarray(y, dtype=object)
    start = np.asarray(initial, dtype=np.int64)
    partial = np.full(labels.size, None, dtype=object)
    partial[start] = labels[start]
    classes = (np.asarray(y.cat.categories) if isinstance(y, pd.Series)
               and isinstance(y.dtype, pd.CategoricalDtype)
               else np.asarray(sorted(set(labels.tolist()))))
    learner = ActiveLearner(committee, strategy, batch_size=batch_size, predictor=predictor,
                            random_state=random_state).fit(X, partial, classes=classes)
    rounds = 0
    while learner.n_unlabeled_ and (iterations is None or rounds < iterations):
        batch = learner.query()
        learner.teach(batch, labels[batch])
        rounds += 1
    return learner
