"""Weka 3.6 NaiveBayes: hand-computed posteriors and a differential test against Weka."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from redecorate.learners.naive_bayes import DEFAULT_NUM_PRECISION, NaiveBayes, numeric_precision


def _toy() -> tuple[pd.DataFrame, pd.Series]:
    X = pd.DataFrame({
        "c": pd.Categorical(["r", "r", "g", "g", "b"], categories=["r", "g", "b"]),
        "x": [1.0, 2.0, 4.0, 5.0, np.nan],
    })
    y = pd.Series(pd.Categorical(["a", "a", "b", "b", "b"], categories=["a", "b"]))
    return X, y


def test_numeric_precision_is_the_mean_gap_of_distinct_values() -> None:
    assert numeric_precision(np.array([1.0, 2.0, 2.0, 4.0, 5.0, np.nan])) == pytest.approx(4 / 3)
    assert numeric_precision(np.array([3.0, 3.0])) == DEFAULT_NUM_PRECISION
    assert numeric_precision(np.array([np.nan])) == DEFAULT_NUM_PRECISION


def test_posterior_equals_a_hand_computation() -> None:
    X, y = _toy()
    nb = NaiveBayes().fit(X, y)
    delta = 4 / 3  # gaps 1, 2, 1 over 3 distinct steps
    # values rounded to multiples of delta: 1 -> 4/3, 2 -> 4/3... rint(1.5)=2 -> 8/3
    r = lambda v: np.rint(v / delta) * delta  # noqa: E731
    xa, xb = r(np.array([1.0, 2.0])), r(np.array([4.0, 5.0]))
    mu_a, sd_a = xa.mean(), xa.std()  # population sd, as Weka
    mu_b, sd_b = xb.mean(), xb.std()
    sd_a = max(sd_a, delta / 6) if sd_a > 1e-10 else delta / 6
    sd_b = max(sd_b, delta / 6) if sd_b > 1e-10 else delta / 6
    query = pd.DataFrame({"c": pd.Categorical(["g"], categories=["r", "g", "b"]), "x": [3.0]})
    xq = r(3.0)

    def lik(mu: float, sd: float) -> float:
        return norm.cdf((xq - mu + delta / 2) / sd) - norm.cdf((xq - mu - delta / 2) / sd)

    prior_a, prior_b = (2 + 1) / (5 + 2), (3 + 1) / (5 + 2)
    c_a, c_b = (0 + 1) / (2 + 3), (2 + 1) / (3 + 3)  # P(c=g | y), Laplace over 3 values
    joint = np.array([prior_a * c_a * lik(mu_a, sd_a), prior_b * c_b * lik(mu_b, sd_b)])
    np.testing.assert_allclose(nb.predict_proba(query)[0], joint / joint.sum(), rtol=1e-12)


def test_missing_values_are_ignored() -> None:
    X, y = _toy()
    nb = NaiveBayes().fit(X, y)
    q = pd.DataFrame({"c": pd.Categorical([None], categories=["r", "g", "b"]), "x": [np.nan]})
    # Nothing observed: the posterior is the Laplace prior.
    np.testing.assert_allclose(nb.predict_proba(q)[0], [3 / 7, 4 / 7])


def test_sample_weights_act_as_counts_for_the_estimates() -> None:
    X, y = _toy()
    w = np.array([3.0, 1.0, 1.0, 1.0, 1.0])
    weighted = NaiveBayes().fit(X, y, sample_weight=w)
    copies = NaiveBayes().fit(pd.concat([X.iloc[[0, 0]], X]), pd.concat([y.iloc[[0, 0]], y]))
    q = X.iloc[:4]
    np.testing.assert_allclose(weighted.predict_proba(q), copies.predict_proba(q))
    assert not np.allclose(weighted.predict_proba(q), NaiveBayes().fit(X, y).predict_proba(q))


# ------------------------------------------------------------------ differential vs Weka 3.6
from uci_mirror import MIRROR  # noqa: E402 - tools/ is on sys.path (conftest)

UCI = MIRROR


@pytest.mark.weka
@pytest.mark.parametrize("name", ["iris", "labor", "colic"])
def test_matches_weka_naive_bayes(weka_oracle, name: str) -> None:
    path = UCI / f"{name}.arff"
    if not path.is_file():
        pytest.skip(f"{path} not found (set REDECORATE_UCI_DIR)")
    data = weka_oracle.load_oracle_data(path, "last")
    rng = np.random.default_rng(7)
    n = len(data.y)
    sets = [rng.permutation(n)[: max(5, n // 2)] for _ in range(3)]
    tests = [np.setdiff1d(np.arange(n), s) for s in sets]
    weights = [None, None, rng.uniform(0.2, 3.0, size=len(sets[2]))]
    results = weka_oracle.run_weka(
        path, data.class_index,
        [data.file_rows[s].tolist() for s in sets], [data.file_rows[t].tolist() for t in tests],
        "weka.classifiers.bayes.NaiveBayes", "",
        weights=[None if w is None else w.tolist() for w in weights],
    )
    for s, t, w, res in zip(sets, tests, weights, results, strict=True):
        assert res["error"] is None
        ours = NaiveBayes().fit(data.X.iloc[s], data.y.iloc[s], sample_weight=w)
        np.testing.assert_allclose(ours.predict_proba(data.X.iloc[t]), res["dist"], atol=1e-6)
