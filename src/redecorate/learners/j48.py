"""J48: C4.5 release 8 as Weka 3.6 implements it, the base learner of every thesis table.

scikit-learn's CART is not a substitute: it one-hot encodes nominal attributes, splits
binarily, grows pure leaves and does not prune pessimistically, so its accuracy and its
class-probability estimates (which DECORATE's inverse labelling feeds on) differ from
the dissertation's. The induction itself lives in :mod:`redecorate.learners.c45_engine`.
"""

from __future__ import annotations

import math
import numbers
from typing import NamedTuple

import numpy as np
from sklearn.utils._param_validation import StrOptions

from redecorate.learners import c45_engine
from redecorate.learners.base import POSITIVE_INT, RANDOM_STATE, EncodedClassifier, NumberInterval
from redecorate.learners.cost import FitCost
from redecorate.learners.features import FeatureSchema


class Tree(NamedTuple):
    """A fitted tree as compact arrays (see :func:`c45_engine._flatten`)."""

    att: np.ndarray  # split attribute per node, -1 for a leaf
    split: np.ndarray  # numeric threshold (value <= split goes to the first branch)
    child0: np.ndarray  # index of the first child; children are consecutive
    nb: np.ndarray  # number of branches
    empty: np.ndarray  # leaf that received no training weight
    doff: np.ndarray  # rows doff[i]:doff[i+1] of dist belong to internal node i
    dist: np.ndarray  # class weights per branch of internal nodes
    totals: np.ndarray  # class weights per node


def _seed_from(random_state) -> int:
    if random_state is None:
        return int(np.random.SeedSequence().generate_state(1)[0] & 0x7FFFFFFF)
    if isinstance(random_state, np.random.SeedSequence):
        return int(random_state.generate_state(1)[0] & 0x7FFFFFFF)
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(0, 2**31 - 1))
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(0, 2**31 - 1))
    return int(random_state) & 0x7FFFFFFF


class J48(EncodedClassifier):
    """C4.5 decision tree (Weka's J48), with its unpruned, Laplace (PET) and random-tree modes.

    Parameters
    ----------
    confidence : float, default 0.25
        Confidence factor of the pessimistic error estimate (Weka ``-C``).
    min_instances : float, default 2
        Minimum weight in at least two branches of a split (Weka ``-M``).
    unpruned : bool, default False
        Skip pessimistic pruning (Weka ``-U``); the tree is still collapsed.
    subtree_raising : bool, default True
        Consider replacing a node by its largest branch while pruning.
    collapse_tree : bool, default True
        Remove splits that do not reduce training error before pruning.
    laplace : bool, default False
        Laplace-corrected leaf probabilities (Weka ``-A``); with ``unpruned=True`` this is
        the probability estimation tree (PET) of chapter 7.
    use_mdl_correction : bool, default True
        Penalise numeric splits by ``log2(#thresholds)/N`` (Quinlan 1996).
    max_features : int or None, default None
        Random-tree mode: at each node only ``max_features`` randomly chosen attributes
        are candidates (more if none of them has positive gain), chosen by
        ``random_criterion``. Random forests use this with ``unpruned=True``.
    draw_until_gain : bool, default True
        Random-tree mode only: when none of the ``max_features`` candidates has positive
        gain, draw more until one has (Weka's ``RandomTree``); False makes such a node a
        leaf (the text's "a random subset of F features at each node" read literally; an
        ablation of Table 4.4, ``reproduced/ch4_readings_rf/``).
    random_criterion : {"gain", "gain_ratio"}, default "gain"
        Random-tree mode only: choose among the candidates by information gain alone, with
        no minimum split size beyond ``min_instances`` (Weka's ``RandomTree``), or as C4.5
        chooses among all attributes (gain ratio among the candidates of at least average
        gain, C4.5's minimum split size, the MDL correction), i.e. J48 restricted to the
        candidates; with ``max_features`` at least the number of attributes that is J48.
    random_state : int, SeedSequence, Generator or None
        Only used in random-tree mode.
    """

    display_name = "J48"

    def __init__(
        self,
        confidence: float = 0.25,
        min_instances: float = 2,
        unpruned: bool = False,
        subtree_raising: bool = True,
        collapse_tree: bool = True,
        laplace: bool = False,
        use_mdl_correction: bool = True,
        max_features: int | None = None,
        draw_until_gain: bool = True,
        random_criterion: str = "gain",
        random_state=None,
    ):
        self.confidence = confidence
        self.min_instances = min_instances
        self.unpruned = unpruned
        self.subtree_raising = subtree_raising
        self.collapse_tree = collapse_tree
        self.laplace = laplace
        self.use_mdl_correction = use_mdl_correction
        self.max_features = max_features
        self.draw_until_gain = draw_until_gain
        self.random_criterion = random_criterion
        self.random_state = random_state

    _parameter_constraints = {
        "confidence": [NumberInterval(numbers.Real, 0, 0.5, closed="right")],
        "min_instances": [NumberInterval(numbers.Real, 0, None, closed="neither")],
        "unpruned": ["boolean"],
        "subtree_raising": ["boolean"],
        "collapse_tree": ["boolean"],
        "laplace": ["boolean"],
        "use_mdl_correction": ["boolean"],
        "max_features": [POSITIVE_INT, None],
        "draw_until_gain": ["boolean"],
        "random_criterion": [StrOptions({"gain", "gain_ratio"})],
        "random_state": RANDOM_STATE,
    }
    fit_cost = FitCost(3e-7, engine="c45")

    #: Fitting ``c`` identical instances of weight 1 equals fitting one row of weight ``c``
    #: with ``multiplicity=c`` (see :func:`c45_engine.build_tree`); ensembles fit bootstrap
    #: replicates that way (:func:`redecorate.learners.base.fit_replicate`).
    fits_multiplicities = True

    def _fit_encoded(self, X, y, sample_weight, schema: FeatureSchema, n_classes: int,
                     multiplicity: np.ndarray | None = None) -> None:
        X = np.ascontiguousarray(X, dtype=np.float64)
        y = np.ascontiguousarray(y, dtype=np.int64)
        w = np.ascontiguousarray(sample_weight, dtype=np.float64)
        mult = (np.ones(X.shape[0], dtype=np.int64) if multiplicity is None
                else np.ascontiguousarray(multiplicity, dtype=np.int64))
        if not (w > 0).all():
            if (w < 0).any():
                raise ValueError("sample_weight must be non-negative")
            keep = w > 0
            X, y, w, mult = X[keep], y[keep], w[keep], mult[keep]
        nom = schema.nominal_sizes
        random_k = 0 if self.max_features is None else max(1, int(self.max_features))
        if not self.draw_until_gain:
            random_k = -random_k  # the engine's spelling: exactly K candidates
        seed = _seed_from(self.random_state) if random_k else 0
        if X.shape[0] == 0:
            # No usable weight at all: a single empty leaf (uniform predictions).
            X = np.zeros((1, X.shape[1]))
            y = np.zeros(1, dtype=np.int64)
            w = np.full(1, 1e-9)
            mult = np.ones(1, dtype=np.int64)
        tree = c45_engine.build_tree(
            X, y, w, mult, int(n_classes), nom, float(self.min_instances),
            bool(self.use_mdl_correction), not self.unpruned, bool(self.subtree_raising),
            bool(self.collapse_tree), float(self.confidence), random_k, seed,
            self.random_criterion == "gain_ratio",
        )
        self.tree_ = Tree(*tree)
        self.n_classes_ = int(n_classes)
        self.nominal_sizes_ = nom
        self.tree_size_ = int(self.tree_.att.shape[0])
        self.n_leaves_ = int((self.tree_.att < 0).sum())

    def _proba_encoded(self, X) -> np.ndarray:
        t = self.tree_
        X = np.ascontiguousarray(X, dtype=np.float64)
        return c45_engine.predict_tree(
            X, t.att, t.split, t.child0, t.nb, t.empty, t.doff, t.dist, t.totals, self.nominal_sizes_,
            self.n_classes_, bool(self.laplace),
        )

    def _proba_and_classify_encoded(self, X) -> tuple[np.ndarray, np.ndarray]:
        """Probabilities and Weka's ``J48.classifyInstance``: the first class whose
        probability beats every earlier one by more than 1e-6, computed without the Laplace
        correction (Weka's J48 ignores ``-A`` here; AdaBoost.M1 judges errors and votes
        with it). One pass down the tree unless the Laplace correction separates the two."""
        t = self.tree_
        X = np.ascontiguousarray(X, dtype=np.float64)
        p = c45_engine.predict_tree(
            X, t.att, t.split, t.child0, t.nb, t.empty, t.doff, t.dist, t.totals,
            self.nominal_sizes_, self.n_classes_, bool(self.laplace),
        )
        plain = p
        if self.laplace:
            plain = c45_engine.predict_tree(
                X, t.att, t.split, t.child0, t.nb, t.empty, t.doff, t.dist, t.totals,
                self.nominal_sizes_, self.n_classes_, False,
            )
        return p, c45_engine.weka_classify(plain)

    # -- inspection -------------------------------------------------------------------
    def export_text(self) -> str:
        """The tree in Weka's text layout, e.g. ``petalwidth <= 0.6: Iris-setosa (50.0)``."""
        att, split, child0, nb = self.tree_.att, self.tree_.split, self.tree_.child0, self.tree_.nb
        totals = self.tree_.totals
        schema = self.feature_schema_
        classes = [str(c) for c in self.classes_]
        lines: list[str] = []

        def leaf_text(node: int, parent: int) -> str:
            pc = totals[node]
            total = pc.sum()
            # An empty leaf is labelled with its parent's majority class, as Weka prints it.
            shown = pc if total > 1e-6 or parent < 0 else totals[parent]
            best = int(np.argmax(shown))
            wrong = total - pc[best]
            txt = f"{classes[best]} ({_fmt(total)}"
            if wrong > 1e-6:
                txt += f"/{_fmt(wrong)}"
            return txt + ")"

        def walk(node: int, depth: int) -> None:
            a = att[node]
            for i in range(nb[node]):
                c = child0[node] + i
                name = schema.names[a]
                if schema.categories[a] is not None:
                    cond = f"{name} = {schema.categories[a][i]}"
                else:
                    cond = f"{name} {'<=' if i == 0 else '>'} {_fmt(split[node], 6)}"
                prefix = "|   " * depth + cond
                if att[c] < 0:
                    lines.append(f"{prefix}: {leaf_text(c, node)}")
                else:
                    lines.append(prefix)
                    walk(c, depth + 1)

        if att[0] < 0:
            lines.append(f": {leaf_text(0, -1)}")
        else:
            walk(0, 0)
        lines.append("")
        lines.append(f"Number of Leaves  : \t{self.n_leaves_}")
        lines.append("")
        lines.append(f"Size of the tree : \t{self.tree_size_}")
        return "\n".join(lines)


def _fmt(x: float, digits: int = 2) -> str:
    """Numbers as Weka prints them: leaf weights rounded half-up to two decimals ("50.0",
    "23.63"), thresholds rounded to six decimals without trailing zeros ("0.6", "3")."""
    if digits == 2:
        r = math.floor(float(x) * 100.0 + 0.5) / 100.0  # Java's Math.round(x * 100) / 100
        return f"{r:.1f}" if r == round(r, 1) else f"{r:.2f}"
    text = f"{round(float(x), digits):.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
