"""Learners: J48 (C4.5), DECORATE and the ensembles it is compared with, batch and online
(Oza's online bagging and boosting, :mod:`redecorate.learners.online_ensembles`).

Every learner class of the registry (:data:`redecorate.learners.registry.ALGORITHMS`) is a
name of this package, e.g. ``from redecorate.learners import Decorate``, as are the helpers
below. Each is imported on first use (module ``__getattr__``), not with the package: the
workflow imports :mod:`redecorate.learners.registry` when it parses (to validate algorithm
names) and a job imports only the learners its units build, so neither pays for
scikit-learn and the numba-compiled engines (~1-2 s of CPU) of learners it does not use.
It also lets the package and the registry import where the tree engine (numba) is not
compiled yet. ``dir(redecorate.learners)`` lists every name.
"""

from __future__ import annotations

from redecorate.learners.registry import ALGORITHMS
from redecorate.util import lazy_exports

_EXPORTS = {
    # Every registry learner under its class name, from the module the registry names.
    **{target.partition(":")[2]: target.partition(":")[0].rpartition(".")[2]
       for target in ALGORITHMS.values()},
    "ALGORITHMS": "registry",
    "EncodedClassifier": "base",
    "FeatureSchema": "features",
    "UnknownAlgorithmError": "registry",
    "check_learner": "params",
    "ensemble_diversity": "diversity",
    "fit_member": "base",
    "learner_class": "registry",
    "make_learner": "params",
    "member_proba": "base",
}

__all__ = sorted(_EXPORTS)

__getattr__ = lazy_exports(__name__, _EXPORTS)
