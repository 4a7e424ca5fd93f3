"""The §4.8 backpropagation MLP: defining properties (not a match with Weka's weights,
whose random initialisation cannot be reproduced)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from uci_mirror import MIRROR  # tools/ is on sys.path (conftest)

from redecorate.learners import AdaBoostM1, Bagging, Decorate, make_learner
from redecorate.learners.features import FeatureSchema
from redecorate.learners.mlp import MLP, network_inputs, train_network, train_stream


def _separable(n: int = 80, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    return X * 10 + 3, y  # raw scale far from [-1, 1]: normalisation must handle it


def test_dissertation_defaults() -> None:
    m = MLP()
    assert (m.learning_rate, m.momentum, m.epochs, m.hidden) == (0.15, 0.9, 80, "a")


def test_training_error_falls_over_epochs_on_a_separable_set() -> None:
    X, y = _separable()
    m = MLP(random_state=1).fit(X, y)
    curve = m.loss_curve_
    assert curve.size == 80 and curve[-1] < 0.25 * curve[0]
    assert np.mean(curve[-10:]) < np.mean(curve[:10])
    assert (m.predict(X) == y).mean() >= 0.95


def test_hidden_units_count_inputs_after_nominal_to_binary() -> None:
    X = pd.DataFrame({
        "c3": pd.Categorical(["a", "b", "c", "a"]),  # 3 indicator inputs
        "c2": pd.Categorical(["u", "v", "u", "v"]),  # 1 input
        "x": [0.0, 1.0, 2.0, np.nan],  # 1 input; NaN contributes 0
    })
    y = pd.Series(pd.Categorical(["p", "q", "p", "r"]))
    m = MLP(random_state=0).fit(X, y)
    assert m.W1_.shape == (m.n_hidden_, 5 + 1)
    assert m.n_hidden_ == (5 + 3) // 2
    assert network_inputs(FeatureSchema.from_input(X)) == 5  # what the cost model prices
    proba = m.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_deterministic_with_random_state() -> None:
    X, y = _separable()
    a = MLP(random_state=3).fit(X, y).predict_proba(X)
    b = MLP(random_state=3).fit(X, y).predict_proba(X)
    c = MLP(random_state=4).fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def _reference_step(x, target, w, W1, W2, dW1, dW2, rate, momentum) -> float:
    """One backpropagation step written out a unit at a time, weights as ``(units, inputs
    + 1)`` (bias first), in plain Python floats: the arithmetic the module docstring states
    (sigmoids clipped at ±45, squared error, momentum), each sum in the order it reads. The
    exponential is the C library's, as the compiled code's (numpy's own may differ in the
    last bit)."""
    def sigmoid(z: float) -> float:
        return 0.0 if z < -45.0 else 1.0 if z > 45.0 else 1.0 / (1.0 + math.exp(-z))

    hidden = []
    for u in range(W1.shape[0]):
        z = W1[u, 0]
        for j in range(x.size):
            z += W1[u, j + 1] * x[j]
        hidden.append(sigmoid(z))
    out = []
    for k in range(W2.shape[0]):
        z = W2[k, 0]
        for h in range(len(hidden)):
            z += W2[k, h + 1] * hidden[h]
        out.append(sigmoid(z))
    total, err_out = 0.0, []
    for k in range(len(out)):
        diff = (1.0 if k == target else 0.0) - out[k]
        total += w * diff * diff
        err_out.append(diff * out[k] * (1.0 - out[k]))
    err_hidden = []
    for h in range(len(hidden)):
        s = 0.0
        for k in range(len(out)):
            s += W2[k, h + 1] * err_out[k]
        err_hidden.append(hidden[h] * (1.0 - hidden[h]) * s)
    for W, dW, err, inputs in ((W2, dW2, err_out, hidden), (W1, dW1, err_hidden, x)):
        for u in range(W.shape[0]):
            learn = rate * w * err[u]
            for j in range(len(inputs) + 1):
                change = (learn if j == 0 else learn * inputs[j - 1]) + momentum * dW[u, j]
                W[u, j] += change
                dW[u, j] = change
    return total


@pytest.mark.parametrize(("inputs", "hidden", "classes"), [(2, 1, 2), (5, 3, 3), (12, 9, 4), (30, 17, 2)])
def test_compiled_training_is_the_plain_per_unit_arithmetic_bit_for_bit(inputs, hidden, classes) -> None:
    """The compiled loops keep the first layer transposed and sum the hidden units side by
    side (for speed); every weight, error and epoch total must still be exactly what a unit
    at a time gives, so the change cannot move a recorded result."""
    rng = np.random.default_rng(inputs)
    X = rng.uniform(-1.0, 1.0, size=(25, inputs))
    X[rng.random(X.shape) < 0.1] = 0.0  # missing inputs contribute 0
    y = rng.integers(0, classes, size=25).astype(np.int64)
    w = rng.uniform(0.5, 2.0, size=25)
    order = rng.permutation(25).astype(np.int64)
    W1 = rng.uniform(-0.5, 0.5, size=(hidden, inputs + 1))
    W2 = rng.uniform(-0.5, 0.5, size=(classes, hidden + 1))

    R1, R2, dR1, dR2 = W1.copy(), W2.copy(), np.zeros_like(W1), np.zeros_like(W2)
    totals = []
    for _ in range(3):
        totals.append(sum(_reference_step(X[i], y[i], w[i], R1, R2, dR1, dR2, 0.15, 0.9) for i in order))
    C1, C2 = W1.copy(), W2.copy()
    history = train_network(X, y, w, order, C1, C2, 0.15, 0.9, 3)
    np.testing.assert_array_equal(C1, R1)
    np.testing.assert_array_equal(C2, R2)
    np.testing.assert_array_equal(history, totals)

    # The stream trainer: two calls carry the momentum terms between them.
    S1, S2, dS1, dS2 = W1.copy(), W2.copy(), np.zeros_like(W1), np.zeros_like(W2)
    R1, R2, dR1, dR2 = W1.copy(), W2.copy(), np.zeros_like(W1), np.zeros_like(W2)
    for part in (slice(0, 10), slice(10, 25)):
        train_stream(X[part], y[part], w[part], S1, S2, dS1, dS2, 0.15, 0.9, 2)
        for i in range(part.start, part.stop):
            for _ in range(2):
                _reference_step(X[i], y[i], w[i], R1, R2, dR1, dR2, 0.15, 0.9)
    for got, want in ((S1, R1), (S2, R2), (dS1, dR1), (dS2, dR2)):
        np.testing.assert_array_equal(got, want)


def test_sample_weights_matter_and_their_scale_does_not() -> None:
    X, y = _separable()
    w = np.where(y == 1, 5.0, 0.2)
    plain = MLP(random_state=0, epochs=5).fit(X, y).predict_proba(X)
    weighted = MLP(random_state=0, epochs=5).fit(X, y, sample_weight=w).predict_proba(X)
    scaled = MLP(random_state=0, epochs=5).fit(X, y, sample_weight=w / w.sum()).predict_proba(X)
    assert not np.allclose(plain, weighted)
    np.testing.assert_allclose(weighted, scaled, rtol=1e-10, atol=1e-12)
    # Up-weighting a class pulls the average predicted probability towards it.
    assert weighted[:, 1].mean() > plain[:, 1].mean()


@pytest.mark.parametrize("name", ["mlp", "naive_bayes"])
def test_registered_and_usable_as_ensemble_base(name: str) -> None:
    X, y = _separable(40)
    for meta in ("decorate", "bagging", "adaboost"):
        params = {"base": name}
        params.update({"n_estimators": 3, "max_iterations": 5} if meta == "decorate"
                      else {"n_estimators": 3})
        model = make_learner(meta, params, random_state=0)
        assert isinstance(model, Decorate | Bagging | AdaBoostM1)
        model.fit(X, y)
        assert model.predict(X).shape == y.shape


# ------------------------------------------------------------ differential vs Weka 3.6
# Weka's random initialisation cannot be reproduced, so the comparison is structural (the
# same number of hidden units after nominal-to-binary, i.e. the same network) and
# statistical (held-out accuracy within a few points over several splits).
@pytest.mark.weka
@pytest.mark.parametrize("name", ["breast.w", "labor"])
def test_same_network_and_similar_accuracy_as_weka(weka_oracle, name: str) -> None:

    path = MIRROR / f"{name}.arff"
    if not path.is_file():
        pytest.skip(f"{path} not found (set REDECORATE_UCI_DIR)")
    data = weka_oracle.load_oracle_data(path, "last")
    n = len(data.y)
    rng = np.random.default_rng(0)
    sets = [rng.permutation(n)[: n // 2] for _ in range(4)]
    tests = [np.setdiff1d(np.arange(n), s) for s in sets]
    results = weka_oracle.run_weka(
        path, data.class_index, [data.file_rows[s].tolist() for s in sets],
        [data.file_rows[t].tolist() for t in tests],
        "weka.classifiers.functions.MultilayerPerceptron", "-L 0.15 -M 0.9 -N 80 -H a",
    )
    codes = np.asarray(data.y.cat.codes)
    weka_acc = np.mean([np.mean(r["pred"] == codes[t]) for r, t in zip(results, tests, strict=True)])
    ours, accs = None, []
    for i, (s, t) in enumerate(zip(sets, tests, strict=True)):
        ours = MLP(random_state=i).fit(data.X.iloc[s], data.y.iloc[s])
        accs.append(np.mean(np.asarray(ours.predict(data.X.iloc[t])) == np.asarray(data.y.iloc[t])))
    weka_hidden = results[0]["model"].count("Sigmoid Node") - len(data.class_values)
    assert ours is not None and ours.n_hidden_ == weka_hidden
    assert abs(np.mean(accs) - weka_acc) < 0.05
