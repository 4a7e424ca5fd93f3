"""Query strategies: a utility score of the committee's outputs plus a selection rule.

The dissertation's active learners differ along two independent axes (§6.4.1: "the method
employed to construct the committee, and ... the measure used to rank the utility of
unlabeled examples"), plus how a batch is drawn from the ranking (§7.1). A
:class:`QueryStrategy` is the second and third axis; the committee is the first
(:mod:`redecorate.active.committee`). For example::

    QueryStrategy("probability_margin")                 # ActiveDecorate (top-m)
    QueryStrategy("vote_margin")                        # QBag, QBoost
    QueryStrategy("js_divergence")                      # ActiveDecorate with JS, §6.4.1
    QueryStrategy("js_divergence", "proportional")      # ActiveDecorate-JS, Algorithm 5
    QueryStrategy("local_variance", "proportional")     # Bootstrap-LV
    QueryStrategy.random()                              # random sampling

The textbook's strategies (§11.7) are scores of the same kind: ``least_confident``,
``probability_margin`` and ``entropy`` of one model's (or a committee's mean) distribution,
``vote_entropy`` and ``kl_to_mean`` for query by committee; and two scores that need the pool
and the model, not only the committee's outputs on the candidates::

    QueryStrategy(ExpectedErrorReduction("log", candidates=20))   # Roy & McCallum
    QueryStrategy(ExpectedModelChange())                          # an MLP's gradient length

Any of them can be weighted by information density (Settles & Craven)::

    QueryStrategy("entropy", density=Density(beta=1.0))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from redecorate.active import scores as _scores
from redecorate.active.committee import CommitteeOutput
from redecorate.active.selection import TIE_BREAKS, proportional_sample, random_sample, top_m
from redecorate.config import did_you_mean

__all__ = ["SCORES", "SELECTIONS", "PoolView", "QueryStrategy", "ScoreSpec", "minority_class"]


def minority_class(class_counts: np.ndarray) -> int:
    """The class with the fewest labeled examples (the lowest code among ties).

    Bootstrap-LV's p̄_min is "the average probability estimate assigned to the minority
    class"; the dissertation does not say minority *where*. We take the current labeled set
    T (spec §1.6), the only class distribution the learner knows.
    """
    return int(np.argmin(np.asarray(class_counts)))


@dataclass(frozen=True)
class ScoreSpec:
    """One utility score: how to compute it and which direction is more useful."""

    compute: Callable[[CommitteeOutput, np.ndarray], np.ndarray]
    higher_is_better: bool
    description: str
    utility: Callable[[np.ndarray, CommitteeOutput], np.ndarray] | None = None
    """The score as a non-negative utility that grows with usefulness, for a product with a
    density weight (information density); ``None``: the score itself (it already is one)."""
    reads_votes: bool = False
    """Whether it counts the members' votes (their own classification rule), not only their
    distributions: only then are the votes computed (:attr:`QueryStrategy.needs_votes`)."""


def _one_minus(raw: np.ndarray, out: CommitteeOutput) -> np.ndarray:
    return np.maximum(1.0 - raw, 0.0)


def _vote_share_gap(raw: np.ndarray, out: CommitteeOutput) -> np.ndarray:
    return np.maximum(1.0 - raw / float(np.sum(out.weights)), 0.0)


SCORES = MappingProxyType({
    "probability_margin": ScoreSpec(
        lambda out, counts: _scores.probability_margin(out.proba, out.weights), False,
        "P(1) - P(2) of the committee's mean distribution (ActiveDecorate; margin sampling)",
        _one_minus),
    "vote_margin": ScoreSpec(
        lambda out, counts: _scores.vote_margin(out.proba, out.weights, votes=out.votes), False,
        "top minus runner-up vote count (QBag, QBoost)", _vote_share_gap, reads_votes=True),
    "vote_entropy": ScoreSpec(
        lambda out, counts: _scores.vote_entropy(out.proba, out.weights, votes=out.votes), True,
        "entropy of the vote shares", reads_votes=True),
    "js_divergence": ScoreSpec(
        lambda out, counts: _scores.js_divergence(out.proba, out.weights), True,
        "Jensen-Shannon divergence of the member distributions (§6.4.1)"),
    "local_variance": ScoreSpec(
        lambda out, counts: _scores.local_variance(out.proba, minority_class(counts),
                                                   out.weights), True,
        "Bootstrap-LV local variance, two classes (§7.2)"),
    "local_variance_ext": ScoreSpec(
        lambda out, counts: _scores.local_variance_ext(out.proba, out.weights), True,
        "Bootstrap-LV-EXT mean per-class variance (§7.2)"),
    "least_confident": ScoreSpec(
        lambda out, counts: _scores.least_confident(out.proba, out.weights), True,
        "1 - P(1) of the model's (committee's mean) distribution (uncertainty sampling)"),
    "entropy": ScoreSpec(
        lambda out, counts: _scores.predictive_entropy(out.proba, out.weights), True,
        "entropy of the model's (committee's mean) distribution (entropy sampling)"),
    "kl_to_mean": ScoreSpec(
        lambda out, counts: _scores.kl_to_mean(out.proba, out.weights), True,
        "mean KL divergence of the members to the committee's mean (QBC, McCallum & Nigam)"),
})
"""Utility scores by name (see :mod:`redecorate.active.scores`)."""

@dataclass(frozen=True)
class PoolView:
    """What a score that needs more than the committee's outputs on the candidates reads.

    Built by :meth:`ActiveLearner.query <redecorate.active.loop.ActiveLearner.query>` for
    expected error reduction, expected model change and density weighting.

    Attributes:
        X: the encoded pool. labels: class codes of the pool, −1 where unlabeled.
        candidates: pool positions being scored (the unlabeled examples).
        schema, n_classes: the pool's feature schema and number of classes.
        committee: the :class:`~redecorate.active.committee.Committee` (to refit it).
        model: the committee fitted on the current labeled set.
        seed_for: ``(name, n_labeled=None) -> SeedSequence``, the learner's named streams.
        cache: per-learner storage for what does not change with the labels (features).
        log: ``(role, seconds, fits)``, records extra model fits (the loop's ``fit_log_``).
    """

    X: np.ndarray
    labels: np.ndarray
    candidates: np.ndarray
    schema: Any
    n_classes: int
    committee: Any
    model: Any
    seed_for: Callable[..., np.random.SeedSequence]
    cache: dict = field(default_factory=dict)
    log: Callable[[str, float, int], None] = lambda role, seconds, fits: None


def _is_pool_score(score: object) -> bool:
    return all(hasattr(score, a) for a in ("compute", "higher_is_better", "needs_pool", "utility"))


SELECTIONS: tuple[str, ...] = ("top", "proportional", "random")
"""``top``: the m most useful; ``proportional``: sampled ∝ score; ``random``: uniform."""


def _unknown(kind: str, name: object, valid) -> ValueError:
    return ValueError(f"unknown {kind} {name!r}; valid: {', '.join(valid)}.{did_you_mean(str(name), valid)}")


@dataclass(frozen=True)
class QueryStrategy:
    """A utility score and the rule that turns scores into a batch.

    Parameters
    ----------
    score:
        A name of :data:`SCORES`, a pool score (an
        :class:`~redecorate.active.expected_error.ExpectedErrorReduction` or
        :class:`~redecorate.active.model_change.ExpectedModelChange`), or ``None`` for
        random sampling.
    selection:
        ``"top"`` (the m most useful, Algorithm 4), ``"proportional"`` (sampled with
        probability ∝ score, §7.1; needs a score that grows with utility) or ``"random"``.
    tie_break:
        For ``"top"``: ``"random"`` (default, spec §1.6) or ``"first"`` (lowest pool
        position among ties).
    density:
        ``None`` or a :class:`~redecorate.active.density.Density`: the score, as a
        non-negative utility, is multiplied by the candidate's information density^β.
    """

    score: Any = "probability_margin"
    selection: str = "top"
    tie_break: str = "random"
    density: Any = None

    def __post_init__(self) -> None:
        if self.selection not in SELECTIONS:
            raise _unknown("selection", self.selection, SELECTIONS)
        if self.tie_break not in TIE_BREAKS:
            raise _unknown("tie_break", self.tie_break, TIE_BREAKS)
        if self.selection == "random":
            if self.score is not None:
                raise ValueError(f"random selection uses no score; got score={self.score!r}. "
                                 "Use QueryStrategy.random()")
            if self.density is not None:
                raise ValueError("random selection uses no score for a density to weight")
            return
        if self.score is None:
            raise ValueError(f"selection {self.selection!r} needs a score; one of "
                             f"{', '.join(SCORES)}")
        if self.density is not None and not (hasattr(self.density, "weights")
                                             and hasattr(self.density, "beta")):
            raise TypeError(f"density must be None or a redecorate.active.density.Density, "
                            f"got {self.density!r}")
        if _is_pool_score(self.score):
            if self.selection == "proportional" and not self.score.higher_is_better:
                raise ValueError(f"proportional sampling needs a score that grows with utility; "
                                 f"{self.score.name!r} shrinks with utility. Use selection='top'")
            return
        if not isinstance(self.score, str) or self.score not in SCORES:
            raise _unknown("score", self.score, SCORES)
        if self.selection == "proportional" and not SCORES[self.score].higher_is_better:
            grows = [n for n, s in SCORES.items() if s.higher_is_better]
            raise ValueError(
                f"proportional sampling draws examples with probability proportional to a "
                f"score that grows with utility ({', '.join(grows)}); {self.score!r} shrinks "
                "with utility. Use selection='top' for margins"
            )

    @classmethod
    def random(cls) -> QueryStrategy:
        """Random sampling: the baseline every chapter-6 table compares against."""
        return cls(score=None, selection="random")

    @classmethod
    def coerce(cls, strategy: QueryStrategy | str | None) -> QueryStrategy:
        """A strategy from a strategy, a score name (top-m selection) or ``"random"``."""
        if isinstance(strategy, QueryStrategy):
            return strategy
        if strategy == "random":
            return cls.random()
        if isinstance(strategy, str):
            return cls(score=strategy)
        raise TypeError(
            f"strategy must be a QueryStrategy, a score name ({', '.join(SCORES)}) or "
            f"'random'; got {strategy!r}"
        )

    @property
    def needs_committee(self) -> bool:
        """Whether selection reads a committee (random sampling does not)."""
        return self.selection != "random"

    @property
    def needs_votes(self) -> bool:
        """Whether selection reads the members' votes. Why ask: a member's vote is a second
        pass down its tree when the member is a Laplace PET (its vote ignores the Laplace
        correction), and JS divergence and the margins of the mean distribution never read
        it. A pool score is assumed to read them."""
        if not self.needs_committee:
            return False
        return _is_pool_score(self.score) or SCORES[self.score].reads_votes

    @property
    def needs_pool(self) -> bool:
        """Whether selection reads the pool (:class:`PoolView`): pool scores and densities."""
        return self.density is not None or (_is_pool_score(self.score)
                                            and bool(self.score.needs_pool))

    @property
    def higher_is_better(self) -> bool:
        """The direction of the raw scores."""
        if _is_pool_score(self.score):
            return bool(self.score.higher_is_better)
        return SCORES[self.score].higher_is_better

    def scores(self, output: CommitteeOutput, class_counts: np.ndarray,
               pool: PoolView | None = None, m: int = 1) -> np.ndarray:
        """The raw score of every candidate, in the score's own direction (NaN: a candidate a
        pool score did not score, e.g. outside expected error reduction's subsample)."""
        if self.score is None:
            raise ValueError("random sampling has no scores")
        if _is_pool_score(self.score):
            if pool is None and self.score.needs_pool:
                raise ValueError(f"score {self.score.name!r} needs the pool (a PoolView)")
            return np.asarray(self.score.compute(output, np.asarray(class_counts), pool, m),
                              dtype=np.float64)
        return SCORES[self.score].compute(output, np.asarray(class_counts))

    def utilities(self, raw: np.ndarray, output: CommitteeOutput) -> np.ndarray:
        """``raw`` as non-negative utilities growing with usefulness (for density weights)."""
        if _is_pool_score(self.score):
            return self.score.utility(raw, output)
        spec = SCORES[self.score]
        return raw if spec.utility is None else spec.utility(raw, output)

    def select(self, output: CommitteeOutput | None, m: int, rng: np.random.Generator,
               class_counts: np.ndarray | None = None, n_candidates: int | None = None, *,
               pool: PoolView | None = None) -> tuple[np.ndarray, np.ndarray | None]:
        """``(positions, scores)``: the batch among the candidates, and their raw scores.

        ``output`` describes the candidates (``None`` for random sampling, which then needs
        ``n_candidates``); ``class_counts`` are the labeled examples per class; ``pool`` is
        needed by pool scores and density weighting (:attr:`needs_pool`). Only candidates
        with a finite score can be chosen.
        """
        if self.selection == "random":
            if n_candidates is None:
                n_candidates = 0 if output is None else output.proba.shape[1]
            return random_sample(n_candidates, m, rng), None
        if output is None:
            raise ValueError(f"score {self.score!r} needs the committee's outputs")
        if self.density is not None and pool is None:
            raise ValueError("density weighting needs the pool (a PoolView)")
        counts = np.zeros(output.proba.shape[2]) if class_counts is None else class_counts
        raw = self.scores(output, counts, pool, m)
        scored = np.isfinite(raw)
        if self.density is None:
            utility = raw if self.higher_is_better else -raw
        else:
            utility = np.where(scored, self.utilities(np.where(scored, raw, 0.0), output), 0.0)
            utility = utility * self.density.weights(pool)
        if scored.all():
            if self.selection == "proportional":
                return proportional_sample(utility, m, rng), raw
            return top_m(utility, m, rng, tie_break=self.tie_break), raw
        among = np.flatnonzero(scored)
        if self.selection == "proportional":
            return among[proportional_sample(utility[among], m, rng)], raw
        return among[top_m(utility[among], m, rng, tie_break=self.tie_break)], raw
