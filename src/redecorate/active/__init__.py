"""Pool-based active learning with committees (dissertation chapters 6 and 7).

* :mod:`~redecorate.active.scores`: utility scores of committee outputs (probability and
  vote margins, vote entropy, JS divergence, Bootstrap-LV local variance and LV-EXT; the
  textbook's least confident, entropy and KL divergence to the mean).
* :mod:`~redecorate.active.expected_error`: expected error reduction (Roy & McCallum).
* :mod:`~redecorate.active.model_change`: expected model change (an MLP's gradient length).
* :mod:`~redecorate.active.density`: information density weights (Settles & Craven).
* :mod:`~redecorate.active.selection`: top-m, score-proportional and random batches.
* :mod:`~redecorate.active.committee`: any project ensemble as a committee (members,
  votes, vote weights).
* :mod:`~redecorate.active.strategy`: :class:`QueryStrategy` = score + selection rule.
* :mod:`~redecorate.active.loop`: :class:`ActiveLearner` (``fit``/``query``/``teach``),
  Algorithm 4's generalized query by committee.
* :mod:`~redecorate.active.systems`: ActiveDecorate, ActiveDecorate-JS, QBag, QBoost,
  random sampling, select-with-X-predict-with-Y and the Bootstrap methods, by name; and the
  textbook's ``uncertainty``, ``qbc``, ``eer`` and ``emc``.
* :mod:`~redecorate.active.curve`: one fold of the chapter-6 protocol as learning-curve rows.

See ``docs/active-learning.md``.
"""

from redecorate.active.committee import (
    VOTE_WEIGHTS,
    Committee,
    CommitteeOutput,
    committee_members,
    committee_outputs,
    member_vote_weights,
)
from redecorate.active.curve import (
    active_learning_curve,
    curve_seed,
    initial_labeled_set,
    labeled_set_sizes,
)
from redecorate.active.density import Density
from redecorate.active.expected_error import ExpectedErrorReduction
from redecorate.active.loop import ActiveLearner, NotFittedError, query_by_committee
from redecorate.active.model_change import ExpectedModelChange
from redecorate.active.scores import (
    js_divergence,
    kl_to_mean,
    least_confident,
    local_variance,
    local_variance_ext,
    predictive_entropy,
    probability_margin,
    vote_counts,
    vote_entropy,
    vote_margin,
)
from redecorate.active.selection import proportional_sample, random_sample, top_m
from redecorate.active.strategy import SCORES, SELECTIONS, QueryStrategy
from redecorate.active.systems import (
    SYSTEMS,
    UnknownSystemError,
    make_ensemble,
    make_system,
    system_parameters,
)

__all__ = [
    "SCORES",
    "SELECTIONS",
    "SYSTEMS",
    "VOTE_WEIGHTS",
    "ActiveLearner",
    "Committee",
    "CommitteeOutput",
    "Density",
    "ExpectedErrorReduction",
    "ExpectedModelChange",
    "NotFittedError",
    "QueryStrategy",
    "UnknownSystemError",
    "active_learning_curve",
    "committee_members",
    "committee_outputs",
    "curve_seed",
    "initial_labeled_set",
    "js_divergence",
    "kl_to_mean",
    "labeled_set_sizes",
    "least_confident",
    "local_variance",
    "local_variance_ext",
    "make_ensemble",
    "make_system",
    "member_vote_weights",
    "predictive_entropy",
    "probability_margin",
    "proportional_sample",
    "query_by_committee",
    "random_sample",
    "system_parameters",
    "top_m",
    "vote_counts",
    "vote_entropy",
    "vote_margin",
]
