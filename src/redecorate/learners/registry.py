"""Registry name → learner class: the names an experiment file gives its learners.

A name maps to ``"module:Class"``, imported on first use, so reading this registry (the
workflow checks algorithm names when it parses) imports no learner. Everything else the
workflow needs to know of a learner, the learner carries itself (its parameters and their
constraints, cost model, whether it takes a pool or forms a committee:
:class:`~redecorate.learners.base.EncodedClassifier`); adding a learner is its module and one
line here (``docs/adding-a-learner.md``).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from types import MappingProxyType

from redecorate.config import did_you_mean

__all__ = ["ALGORITHMS", "UnknownAlgorithmError", "learner_class", "learner_display_name"]

ALGORITHMS: Mapping[str, str] = MappingProxyType({
    "j48": "redecorate.learners.j48:J48",
    "decorate": "redecorate.learners.decorate:Decorate",
    "bagging": "redecorate.learners.bagging:Bagging",
    "adaboost": "redecorate.learners.adaboost_m1:AdaBoostM1",
    "rf": "redecorate.learners.random_forest:RandomForest",
    "naive_bayes": "redecorate.learners.naive_bayes:NaiveBayes",
    "feature_subset_ensemble": "redecorate.learners.feature_subsets:FeatureSubsetEnsemble",
    "decision_stump": "redecorate.learners.decision_stump:DecisionStump",
    "online_tree": "redecorate.learners.online_tree:OnlineTree",
    "online_mlp": "redecorate.learners.online_mlp:OnlineMLP",
    "online_bagging": "redecorate.learners.online_ensembles:OnlineBagging",
    "online_boosting": "redecorate.learners.online_ensembles:OnlineBoosting",
    "primed_online_boosting": "redecorate.learners.online_ensembles:PrimedOnlineBoosting",
    "mlp": "redecorate.learners.mlp:MLP",
})
"""Registry name -> ``"module:Class"`` of its learner."""

_YAML_HINT = "the algorithm `name:` of an entry under `algorithms:` in config/experiments/*.yaml"


class UnknownAlgorithmError(ValueError):
    """An algorithm name that the registry does not know."""

    def __init__(self, name: object, where: str | None = None):
        self.name = name
        known = sorted(ALGORITHMS)
        super().__init__(
            f"unknown algorithm {name!r} (from {where or _YAML_HINT}); known algorithms: "
            f"{', '.join(known)}.{did_you_mean(str(name).lower(), known, n=3)}"
        )


def learner_class(name: str, where: str | None = None) -> type:
    """The learner class of registry name ``name`` (case and surrounding blanks ignored).

    ``where`` names the config location for the error message.

    Raises:
        UnknownAlgorithmError: ``name`` is not a registry name (with the close ones).
    """
    target = ALGORITHMS.get(name.strip().lower()) if isinstance(name, str) else None
    if target is None:
        raise UnknownAlgorithmError(name if isinstance(name, str) else repr(name), where)
    return _imported(target)


def learner_display_name(name: str) -> str | None:
    """How the learner of registry name ``name`` names itself (its ``display_name``), or None
    when ``name`` is not a registry name or its learner gives no name. Imports the learner."""
    target = ALGORITHMS.get(name.strip().lower()) if isinstance(name, str) else None
    return None if target is None else getattr(_imported(target), "display_name", None)


@functools.cache
def _imported(target: str) -> type:
    """The class ``module:Class`` names (cached: the plan looks classes up by the million)."""
    module, _, cls = target.partition(":")
    return getattr(importlib.import_module(module), cls)
