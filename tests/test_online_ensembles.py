"""Oza's online bagging and boosting: Poisson weights, stream invariance, convergence to
batch bagging, the boosting weight rule, river's interface and river as a peer."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import StratifiedKFold
from uci_mirror import mirror_dir  # noqa: E402 - tools/ is on sys.path (conftest)

from redecorate.data import load_dataset
from redecorate.learners import Bagging
from redecorate.learners.decision_stump import DecisionStump
from redecorate.learners.naive_bayes import NaiveBayes
from redecorate.learners.online_ensembles import OnlineBagging, OnlineBoosting, poisson_weights
from redecorate.learners.online_tree import OnlineTree

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("lam", [1.0, 0.3, 2.5])
def test_poisson_weights_have_mean_and_variance_lambda(lam: float) -> None:
    k = poisson_weights(np.random.default_rng(11), 100_000, 4, lam)
    # standard errors: mean sqrt(lam/n) = 0.0016 (lam 1, n 4e5); variance about 0.003
    assert k.mean() == pytest.approx(lam, abs=0.01 * max(lam, 1))
    assert k.var() == pytest.approx(lam, abs=0.02 * max(lam, 1))
    assert (k == np.round(k)).all() and (k >= 0).all()
    # P(K = 0) = e^-lam: the share of an example's copies a member never sees
    assert (k == 0).mean() == pytest.approx(np.exp(-lam), abs=0.005)


@pytest.mark.parametrize("base", [NaiveBayes(), DecisionStump(), OnlineTree()])
def test_online_bagging_is_the_same_model_whatever_the_mini_batches(base) -> None:
    X, y = load_breast_cancer(return_X_y=True)
    whole = OnlineBagging(base, n_estimators=7, random_state=3).fit(X[:400], y[:400])
    pieces = OnlineBagging(base, n_estimators=7, random_state=3)
    for start in range(0, 400, 23):
        pieces.partial_fit(X[start:min(start + 23, 400)], y[start:min(start + 23, 400)], classes=[0, 1])
    np.testing.assert_allclose(pieces.predict_proba(X[400:]), whole.predict_proba(X[400:]))


def test_online_bagging_of_a_lossy_member_is_example_by_example() -> None:
    """A lossy member learns each example k times, in stream order. One fit hands each member
    its whole sequence at once; a stream of one-example batches is the definition: they give
    the same networks."""
    from redecorate.learners.online_mlp import OnlineMLP

    X, y = load_breast_cancer(return_X_y=True)
    whole = OnlineBagging(OnlineMLP(random_state=2), n_estimators=4, random_state=3).fit(X[:150], y[:150])
    stream = OnlineBagging(OnlineMLP(random_state=2), n_estimators=4, random_state=3)
    for i in range(150):
        stream.partial_fit(X[i:i + 1], y[i:i + 1], classes=[0, 1])
    for a, b in zip(whole.estimators_, stream.estimators_, strict=True):
        np.testing.assert_array_equal(a.W1_, b.W1_)
    np.testing.assert_array_equal(whole.predict_proba(X[150:]), stream.predict_proba(X[150:]))


def test_learn_one_is_partial_fit_of_one_row() -> None:
    X, y = load_breast_cancer(return_X_y=True)
    names = [f"f{j}" for j in range(X.shape[1])]
    frame = pd.DataFrame(X, columns=names)
    river_style = OnlineBagging(NaiveBayes(), n_estimators=5, random_state=8)
    for i in range(200):
        river_style.learn_one(dict(zip(names, X[i].tolist(), strict=True)), int(y[i]))
    sklearn_style = OnlineBagging(NaiveBayes(), n_estimators=5, random_state=8)
    sklearn_style.partial_fit(frame.iloc[:200], y[:200], classes=[0, 1])
    expected = sklearn_style.predict_proba(frame.iloc[200:210])
    got = [river_style.predict_proba_one(dict(zip(names, X[i].tolist(), strict=True))) for i in range(200, 210)]
    np.testing.assert_allclose([[p[0], p[1]] for p in got], expected)
    assert river_style.predict_one(dict(zip(names, X[200].tolist(), strict=True))) in (0, 1)


def test_learn_one_names_the_attribute_whose_value_is_not_a_number() -> None:
    """Not a bare "could not convert string to float": the attribute, the value and the fix,
    on the first example (which fixes the attributes) and on a later one."""
    model = OnlineBagging(NaiveBayes(), n_estimators=3, random_state=0)
    with pytest.raises(ValueError, match=r"learn_one: attribute 'colour' has the value 'red', which is not a number"):
        model.learn_one({"size": 1.0, "colour": "red"}, "a")
    model.learn_one({"size": 1.0, "colour": 2.0}, "a")
    model.learn_one({"size": 2.0, "colour": None}, "b")  # None: a missing value
    with pytest.raises(ValueError, match=r"attribute 'colour' is numeric, but the example gives 'red'; fix:"):
        model.learn_one({"size": 1.0, "colour": "red"}, "a")


def _mirror_dataset(name: str):
    mirror = mirror_dir()
    if mirror is None:
        pytest.skip("ARFF mirror ../shared/datasets/uci not found")
    return load_dataset(name, registry=REPO / "config" / "datasets.yaml", mirror=mirror)


@pytest.fixture(scope="module")
def kr_vs_kp():
    return _mirror_dataset("kr-vs-kp")


@pytest.fixture(scope="module")
def credit_g():
    return _mirror_dataset("credit-g")


def test_online_bagging_of_a_lossless_learner_converges_to_batch_bagging(credit_g) -> None:
    """Oza §3.4: with a lossless base learner, online bagging tends to batch bagging. Both are
    random, so "equal" means equal in distribution: on the same folds (credit-g, where bagging
    changes J48's predictions on 14 % of test examples), online bagging disagrees with batch
    bagging hardly more than batch bagging under another seed does, far less than one J48
    does, and their accuracies agree within two points."""
    from redecorate.learners.j48 import J48

    X, y = credit_g.X, credit_g.y
    folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    online_vs_batch, batch_vs_batch, tree_vs_batch, gaps = [], [], [], []
    for i, (train, test) in enumerate(folds):
        Xt, yt, Xs = X.iloc[train], y.iloc[train], X.iloc[test]
        online = OnlineBagging(OnlineTree(), n_estimators=25, random_state=i).fit(Xt, yt).predict(Xs)
        batch = Bagging(n_estimators=25, voting="hard", random_state=i).fit(Xt, yt).predict(Xs)
        other = Bagging(n_estimators=25, voting="hard", random_state=100 + i).fit(Xt, yt).predict(Xs)
        tree = J48().fit(Xt, yt).predict(Xs)
        truth = y.iloc[test].to_numpy()
        online_vs_batch.append(np.mean(online != batch))
        batch_vs_batch.append(np.mean(other != batch))
        tree_vs_batch.append(np.mean(tree != batch))
        gaps.append(abs(np.mean(online == truth) - np.mean(batch == truth)))
    summary = (np.mean(online_vs_batch), np.mean(batch_vs_batch), np.mean(tree_vs_batch))
    assert summary[0] < 1.5 * summary[1], summary
    assert summary[0] < 0.75 * summary[2], summary
    assert np.mean(gaps) < 0.02, gaps


def test_online_boosting_follows_ozas_weight_rule() -> None:
    """Member 1 sees every example with lambda = 1, so its lambda_sc + lambda_sw counts the
    examples; each later member's total is what the rule passed on: 1/(2(1 - eps)) after a
    correct vote of its predecessor, 1/(2 eps) after a wrong one (recomputed here step by step)."""
    X, y = load_breast_cancer(return_X_y=True)
    model = OnlineBoosting(NaiveBayes(), n_estimators=3, random_state=5)
    totals = np.zeros(3)
    for i in range(120):
        before_c, before_w = (model.lambda_correct_.copy(), model.lambda_wrong_.copy()) if i else (np.zeros(3), np.zeros(3))
        model.partial_fit(X[i:i + 1], y[i:i + 1], classes=[0, 1])
        lam = 1.0
        for m in range(3):
            d_c = model.lambda_correct_[m] - before_c[m]
            d_w = model.lambda_wrong_[m] - before_w[m]
            assert (d_c == 0) != (d_w == 0)  # exactly one of the two grew
            assert d_c + d_w == pytest.approx(lam)
            eps = model.lambda_wrong_[m] / (model.lambda_correct_[m] + model.lambda_wrong_[m])
            lam *= 1 / (2 * (1 - eps)) if d_c else 1 / (2 * eps)
        totals += (model.lambda_correct_ + model.lambda_wrong_) - (before_c + before_w)
    assert totals[0] == pytest.approx(120)
    eps = model.member_errors()
    assert np.all((eps >= 0) & (eps <= 1))


class _CopyCountingNaiveBayes(NaiveBayes):
    """Naive Bayes that keeps the copy counts (weights) of the rows it is given."""

    def partial_fit_prepared(self, X_encoded, y_codes, sample_weight=None):
        self.copies_ = [*getattr(self, "copies_", []), *np.asarray(sample_weight, dtype=float)]
        return super().partial_fit_prepared(X_encoded, y_codes, sample_weight)


def test_online_bagging_gives_each_member_poisson_1_copies_of_each_example() -> None:
    """The copies members actually learn (not the draws of poisson_weights, which could be
    called with another rate) follow Poisson(1): 3000 examples x 10 members, their counts
    against Poisson(1)'s probabilities (a rate of 0.5 or a coin flip fails at once)."""
    from scipy import stats

    X, y = load_breast_cancer(return_X_y=True)
    rows, members = 3000, 10
    Xs, ys = X[np.arange(rows) % len(y)], y[np.arange(rows) % len(y)]
    model = OnlineBagging(_CopyCountingNaiveBayes(), n_estimators=members, random_state=3).fit(Xs, ys)
    copies = np.concatenate([np.asarray(getattr(m, "copies_", []), dtype=np.int64) for m in model.estimators_])
    counts = np.bincount(copies, minlength=5)
    counts[0] = rows * members - copies.size  # a member is not called for an example it gets 0 times
    observed = np.array([*counts[:4], counts[4:].sum()])
    p = stats.poisson.pmf(np.arange(4), 1.0)
    expected = rows * members * np.array([*p, 1 - p.sum()])
    assert stats.chisquare(observed, expected).pvalue > 1e-3, (observed, expected.round())
    assert copies.sum() / (rows * members) == pytest.approx(1.0, abs=4 / np.sqrt(rows * members))


def test_online_boosting_votes_with_log_odds_of_each_members_error() -> None:
    """Each member that has seen examples and has eps < 1/2 adds log((1 - eps)/eps) to the
    class it predicts; the probabilities are the normalised votes (recomputed here)."""
    from redecorate.learners.base import member_classify

    X, y = load_breast_cancer(return_X_y=True)
    model = OnlineBoosting(DecisionStump(), n_estimators=6, random_state=0).fit(X[:300], y[:300])
    eps = model.member_errors()
    voting = np.isfinite(eps) & (eps < 0.5)
    weights = np.log((1 - eps[voting]) / eps[voting])
    assert voting.sum() >= 3 and np.ptp(weights) > 0.2  # unequal weights: the test can tell
    test = np.asarray(X[300:], dtype=np.float64)
    votes = np.zeros((len(test), 2))
    for member, weight in zip(np.asarray(model.estimators_, dtype=object)[voting], weights, strict=True):
        votes[np.arange(len(test)), member_classify(member, test)] += weight
    np.testing.assert_allclose(model.predict_proba(X[300:]), votes / votes.sum(axis=1, keepdims=True),
                               rtol=1e-12)


def test_online_boosting_learns(kr_vs_kp) -> None:
    """Ten online-boosted stumps beat one stump by a wide margin on kr-vs-kp (shuffled: the
    file is sorted by class)."""
    X, y = kr_vs_kp.X, kr_vs_kp.y
    order = np.random.default_rng(0).permutation(len(y))
    train, test = order[:1000], order[1000:]
    stump = DecisionStump().fit(X.iloc[train], y.iloc[train])
    boosted = OnlineBoosting(DecisionStump(), n_estimators=10, random_state=0).fit(X.iloc[train], y.iloc[train])
    truth = y.iloc[test].to_numpy()
    assert np.mean(boosted.predict(X.iloc[test]) == truth) > np.mean(stump.predict(X.iloc[test]) == truth) + 0.03


def test_river_bagging_is_a_peer() -> None:
    """river's BaggingClassifier also gives each member Poisson(1) copies of each example; with
    naive Bayes members (river's Gaussian, ours Weka's) the two online ensembles reach the same
    accuracy on the same stream within two points."""
    from river import ensemble, naive_bayes

    X, y = load_breast_cancer(return_X_y=True)
    order = np.random.default_rng(0).permutation(len(y))
    X, y = X[order], y[order]
    names = [f"f{j}" for j in range(X.shape[1])]
    ours = OnlineBagging(NaiveBayes(), n_estimators=10, random_state=1)
    peer = ensemble.BaggingClassifier(naive_bayes.GaussianNB(), n_models=10, seed=1)
    right_ours = right_peer = 0
    for i in range(len(y)):  # prequential: test on each example, then learn it
        x = dict(zip(names, X[i].tolist(), strict=True))
        if i >= 50:
            right_ours += ours.predict_one(x) == y[i]
            right_peer += peer.predict_one(x) == y[i]
        ours.learn_one(x, int(y[i]))
        peer.learn_one(x, int(y[i]))
    n = len(y) - 50
    assert right_ours / n > 0.9 and right_peer / n > 0.9
    assert abs(right_ours - right_peer) / n < 0.02, (right_ours / n, right_peer / n)


def test_primed_online_boosting_primes_on_the_first_fifth_at_most_ten_thousand() -> None:
    from redecorate.learners.online_ensembles import PrimedOnlineBoosting

    model = PrimedOnlineBoosting(NaiveBayes(), n_estimators=3)
    assert (model.n_prime(100), model.n_prime(99), model.n_prime(80000)) == (20, 19, 10000)
    X, y = load_breast_cancer(return_X_y=True)
    primed = PrimedOnlineBoosting(NaiveBayes(), n_estimators=3, random_state=4).fit(X[:300], y[:300])
    # Member 1 sees every example with lambda = 1: its totals count the examples, primed or not.
    assert primed.lambda_correct_[0] + primed.lambda_wrong_[0] == pytest.approx(300)
    # No priming is plain online boosting, draw for draw.
    unprimed = PrimedOnlineBoosting(NaiveBayes(), n_estimators=3, prime_fraction=0.0, random_state=4).fit(X[:300], y[:300])
    plain = OnlineBoosting(NaiveBayes(), n_estimators=3, random_state=4).fit(X[:300], y[:300])
    np.testing.assert_array_equal(unprimed.lambda_wrong_, plain.lambda_wrong_)
    np.testing.assert_array_equal(unprimed.predict_proba(X[300:]), plain.predict_proba(X[300:]))
    assert not np.array_equal(primed.lambda_wrong_, plain.lambda_wrong_)


def test_online_bagging_of_a_lossy_network_learns() -> None:
    from redecorate.learners.online_mlp import OnlineMLP

    X, y = load_breast_cancer(return_X_y=True)
    order = np.random.default_rng(1).permutation(len(y))
    X, y = X[order], y[order]
    model = OnlineBagging(OnlineMLP(random_state=0), n_estimators=5, random_state=0).fit(X[:400], y[:400])
    assert not model.lossless_ and model.ensemble_size_ == 5
    assert np.mean(model.predict(X[400:]) == y[400:]) > 0.9


def test_members_get_their_own_seeds() -> None:
    """Bagged networks start from different weights, as batch bagging's members do."""
    from redecorate.learners.online_mlp import OnlineMLP

    X, y = load_breast_cancer(return_X_y=True)
    model = OnlineBagging(OnlineMLP(random_state=2), n_estimators=3, random_state=3).fit(X[:50], y[:50])
    seeds = {m.random_state for m in model.estimators_}
    assert len(seeds) == 3
    again = OnlineBagging(OnlineMLP(random_state=2), n_estimators=3, random_state=3).fit(X[:50], y[:50])
    assert [m.random_state for m in again.estimators_] == [m.random_state for m in model.estimators_]
