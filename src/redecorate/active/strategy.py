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
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from redecorate.active import scores as _scores
from redecorate.active.committee import CommitteeOutput
from redecorate.active.selection import TIE_BREAKS, proportional_sample, random_sample, top_m

__all__ = ["SCORES", "SELECTIONS", "QueryStrategy", "ScoreSpec", "minority_class"]


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


SCORES = MappingProxyType({
    "probability_margin": ScoreSpec(
        lambda out, counts: _scores.probability_margin(out.proba, out.weights), False,
        "P(1) - P(2) of the committee's mean distribution (ActiveDecorate)"),
    "vote_margin": ScoreSpec(
        lambda out, counts: _scores.vote_margin(out.proba, out.weights, votes=out.votes), False,
        "top minus runner-up vote count (QBag, QBoost)"),
    "vote_entropy": ScoreSpec(
        lambda out, counts: _scores.vote_entropy(out.proba, out.weights, votes=out.votes), True,
        "entropy of the vote shares"),
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
})
"""Utility scores by name (see :mod:`redecorate.active.scores`)."""

SELECTIONS: tuple[str, ...] = ("top", "proportional", "random")
"""``top``: the m most useful; ``proportional``: sampled ∝ score; ``random``: uniform."""


def _unknown(kind: str, name: object, valid) -> ValueError:
    close = difflib.get_close_matches(str(name), list(valid), n=2, cutoff=0.5)
    hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    return ValueError(f"unknown {kind} {name!r}; valid: {', '.join(valid)}.{hint}")


@dataclass(frozen=True)
class QueryStrategy:
    """A utility score and the rule that turns scores into a batch.

    Parameters
    ----------
    score:
        A name of :data:`SCORES`, or ``None`` for random sampling.
    selection:
        ``"top"`` (the m most useful, Algorithm 4), ``"proportional"`` (sampled with
        probability ∝ score, §7.1; needs a score that grows with utility) or ``"random"``.
    tie_break:
        For ``"top"``: ``"random"`` (default, spec §1.6) or ``"first"`` (lowest pool
        position among ties).
    """

    score: str | None = "probability_margin"
    selection: str = "top"
    tie_break: str = "random"

    def __post_init__(self) -> None:
        if self.selection not in SELECTIONS:
            raise _unknown("selection", self.selection, SELECTIONS)
        if self.tie_break not in TIE_BREAKS:
            raise _unknown("tie_break", self.tie_break, TIE_BREAKS)
        if self.selection == "random":
            if self.score is not None:
                raise ValueError(f"random selection uses no score; got score={self.score!r}. "
                                 "Use QueryStrategy.random()")
            return
        if self.score is None:
            raise ValueError(f"selection {self.selection!r} needs a score; one of "
                             f"{', '.join(SCORES)}")
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

    def scores(self, output: CommitteeOutput, class_counts: np.ndarray) -> np.ndarray:
        """The raw score of every candidate, in the score's own direction."""
        if self.score is None:
            raise ValueError("random sampling has no scores")
        return SCORES[self.score].compute(output, np.asarray(class_counts))

    def select(self, output: CommitteeOutput | None, m: int, rng: np.random.Generator,
               class_counts: np.ndarray | None = None, n_candidates: int | None = None,
               ) -> tuple[np.ndarray, np.ndarray | None]:
        """``(positions, scores)``: the batch among the candidates, and their raw scores.

        ``output`` describes the candidates (``None`` for random sampling, which then needs
        ``n_candidates``); ``class_counts`` are the labeled examples per class.
        """
        if self.selection == "random":
            if n_candidates is None:
                n_candidates = 0 if output is None else output.proba.shape[1]
            return random_sample(n_candidates, m, rng), None
        if output is None:
            raise ValueError(f"score {self.score!r} needs the committee's outputs")
        counts = np.zeros(output.proba.shape[2]) if class_counts is None else class_counts
        raw = self.scores(output, counts)
        if self.selection == "proportional":
            return proportional_sample(raw, m, rng), raw
        utility = raw if SCORES[self.score].higher_is_better else -raw
        return top_m(utility, m, rng, tie_break=self.tie_break), raw
