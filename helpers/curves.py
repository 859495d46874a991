"""Bias, variance and model complexity (notebook 05).

- :func:`noisy_sample`: a training set ``y = f(x) + e`` drawn from a function we know;
- :func:`bias_variance_decomposition`: bias^2, variance and noise by simulation,
  next to the squared error measured on fresh noisy targets;
- :func:`polynomial_model`: the polynomial regression whose degree is the
  complexity knob of the notebook;
- :func:`complexity_state` / :func:`describe_complexity_state`: the complexity
  slider's pure function and its text (:func:`complexity_states`: all degrees at once);
- :func:`penalty_constrained_minimum`: where a quadratic loss meets an L1 or L2
  ball (the geometry of regularisation, in two dimensions);
- :func:`variance_on_disjoint_sets`: the variance part of a model's error on
  real data, measured directly from models fitted on disjoint training sets.

Bad input raises ``ValueError`` naming the problem and the argument; inputs are
never modified.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures, StandardScaler

from helpers.validation import as_2d_floats, check_int, check_pair, check_real, finite_floats

DEGREES = tuple(range(1, 16))


# --------------------------------------------------------------------------- data from a known function
def _check_range(x_range) -> tuple[float, float]:
    try:
        low, high = x_range
    except (TypeError, ValueError):
        raise ValueError(f"x_range must be a pair (low, high); got {x_range!r}") from None
    low, high = check_real(low, "x_range[0]"), check_real(high, "x_range[1]")
    if not low < high:
        raise ValueError(f"x_range must have low < high; got {x_range!r}")
    return low, high


def _evaluate(f: Callable, x: np.ndarray, name: str = "f") -> np.ndarray:
    """``f(x)`` as a new float array, checked: one finite value per x."""
    if not callable(f):
        raise ValueError(f"{name} must be a function of x; got {f!r}")
    values = np.asarray(f(x.copy()), dtype=float)
    if values.shape != x.shape:
        raise ValueError(f"{name} must return one value per x: got shape {values.shape} for x of shape {x.shape}")
    if not np.isfinite(values).all():
        raise ValueError(f"{name} returned NaN or infinite values")
    return values


def noisy_sample(f: Callable, n: int, noise_sd: float, x_range=(0.0, 1.0), random_state=None):
    """``n`` points with x uniform in ``x_range`` and ``y = f(x) + e``, ``e ~ N(0, noise_sd^2)``.

    Returns ``(x, y)``, two new one-dimensional arrays.
    """
    n = check_int(n, "n", 1)
    noise_sd = check_real(noise_sd, "noise_sd", 0)
    low, high = _check_range(x_range)
    rng = np.random.default_rng(random_state)
    x = rng.uniform(low, high, n)
    return x, _evaluate(f, x) + rng.normal(0.0, noise_sd, n)


# --------------------------------------------------------------------------- bias-variance by simulation
@dataclass(frozen=True)
class BiasVariance:
    """What :func:`bias_variance_decomposition` measured, per test point and on average.

    ``predictions[s, j]`` is the model fitted on training set ``s`` at ``x_test[j]``;
    ``x_train``/``y_train`` hold the training sets (one row each) and ``y_fresh``
    the fresh noisy targets the measured error is computed on.
    """

    x_test: np.ndarray
    f_test: np.ndarray
    noise_sd: float
    x_train: np.ndarray
    y_train: np.ndarray
    predictions: np.ndarray
    y_fresh: np.ndarray

    @property
    def n_sets(self) -> int:
        return self.predictions.shape[0]

    @property
    def mean_prediction(self) -> np.ndarray:
        """E_D[f_D(x)] estimated by the mean over the training sets, per test point."""
        return self.predictions.mean(axis=0)

    @property
    def noise(self) -> np.ndarray:
        """sigma^2, the irreducible error, per test point."""
        return np.full(self.x_test.shape, self.noise_sd**2)

    @property
    def bias2(self) -> np.ndarray:
        """(f(x) - E_D[f_D(x)])^2 per test point."""
        return (self.f_test - self.mean_prediction) ** 2

    @property
    def variance(self) -> np.ndarray:
        """E_D[(f_D(x) - E_D[f_D(x)])^2] per test point (divided by the number of sets)."""
        return self.predictions.var(axis=0)

    @property
    def error(self) -> np.ndarray:
        """Measured E[(y - f_D(x))^2] on fresh noisy targets, per test point."""
        return ((self.y_fresh - self.predictions) ** 2).mean(axis=0)

    @property
    def error_se(self) -> float:
        """Monte-Carlo standard error of the averaged measured error (between training sets)."""
        per_set = ((self.y_fresh - self.predictions) ** 2).mean(axis=1)
        return float(per_set.std(ddof=1) / math.sqrt(per_set.size))

    def summary(self) -> dict[str, float]:
        """Averages over the test points: noise, bias2, variance, their sum, the measured error and its SE."""
        noise, bias2, variance = float(self.noise.mean()), float(self.bias2.mean()), float(self.variance.mean())
        return {"noise": noise, "bias2": bias2, "variance": variance, "sum": noise + bias2 + variance,
                "error": float(self.error.mean()), "error_se": self.error_se}


def bias_variance_decomposition(make_model: Callable, f: Callable, noise_sd: float, x_test, n_train: int,
                                n_sets: int, x_range=(0.0, 1.0), random_state=None) -> BiasVariance:
    """Fit a fresh model on each of ``n_sets`` training sets drawn from ``y = f(x) + e``.

    Each training set has ``n_train`` points with x uniform in ``x_range`` and
    ``e ~ N(0, noise_sd^2)``; ``make_model()`` returns a new unfitted
    scikit-learn regressor, fitted on x as a one-column matrix. The models'
    predictions at ``x_test`` give, per test point, the bias^2
    ``(f - mean prediction)^2`` and the variance of the predictions over the
    training sets; each set also draws fresh targets ``f(x_test) + e`` on
    which the squared error is measured. Their expectations satisfy
    ``error = noise_sd^2 + bias^2 + variance``; the simulation agrees within
    its Monte-Carlo error (``BiasVariance.error_se``).
    """
    if not callable(make_model):
        raise ValueError(f"make_model must be a function returning a new model; got {make_model!r}")
    noise_sd = check_real(noise_sd, "noise_sd", 0)
    x_test = finite_floats(x_test, "x_test")
    n_train = check_int(n_train, "n_train", 1)
    n_sets = check_int(n_sets, "n_sets", 2)
    low, high = _check_range(x_range)
    f_test = _evaluate(f, x_test)
    rng = np.random.default_rng(random_state)
    x_train = np.empty((n_sets, n_train))
    y_train = np.empty((n_sets, n_train))
    predictions = np.empty((n_sets, x_test.size))
    y_fresh = np.empty((n_sets, x_test.size))
    for s in range(n_sets):
        x_train[s] = rng.uniform(low, high, n_train)
        y_train[s] = _evaluate(f, x_train[s]) + rng.normal(0.0, noise_sd, n_train)
        y_fresh[s] = f_test + rng.normal(0.0, noise_sd, x_test.size)
        model = make_model()
        if not hasattr(model, "fit") or not hasattr(model, "predict"):
            raise ValueError(f"make_model must return an estimator with fit and predict; got {model!r}")
        model.fit(x_train[s].reshape(-1, 1), y_train[s])
        predictions[s] = np.asarray(model.predict(x_test.reshape(-1, 1)), dtype=float).ravel()
    return BiasVariance(x_test, f_test, noise_sd, x_train, y_train, predictions, y_fresh)


# --------------------------------------------------------------------------- complexity slider
def polynomial_model(degree: int):
    """Standardise x, expand it into x, x^2, ..., x^degree, standardise the powers, then least squares.

    Both standardisations keep the least-squares problem well conditioned; they
    do not change the fitted curve (a polynomial of a shifted, rescaled x is
    still a polynomial of x of the same degree). Without the second one, the
    solver drops the smallest singular values of the high powers and the
    training error of degree 15 can come out *above* that of degree 14.
    """
    degree = check_int(degree, "degree", 1)
    return make_pipeline(StandardScaler(), PolynomialFeatures(degree, include_bias=False), StandardScaler(),
                         LinearRegression())


def _mse(y, prediction) -> float:
    return float(np.mean((y - prediction) ** 2))


def complexity_states(x_train, y_train, x_val, y_val, degrees=DEGREES, n_grid: int = 200) -> dict[int, dict]:
    """:func:`complexity_state` for every degree of ``degrees`` at once: ``{degree: state}``.

    Each degree is fitted once; the states share their (read-only) error curves.
    The slider computes this once and then only looks its states up.
    """
    x_train, y_train = check_pair(x_train, y_train, ("x_train", "y_train"))
    x_val, y_val = check_pair(x_val, y_val, ("x_val", "y_val"))
    x_train, y_train = finite_floats(x_train, "x_train"), finite_floats(y_train, "y_train")
    x_val, y_val = finite_floats(x_val, "x_val"), finite_floats(y_val, "y_val")
    degrees = np.asarray(degrees)
    if degrees.ndim != 1 or degrees.size == 0:
        raise ValueError(f"degrees must be a non-empty list of integers; got {degrees!r}")
    degrees = np.array([check_int(d, "each degree", 1) for d in degrees.tolist()])
    if np.any(np.diff(degrees) <= 0):
        raise ValueError(f"degrees must be increasing without repeats; got {degrees.tolist()}")
    n_grid = check_int(n_grid, "n_grid", 2)
    grid = np.linspace(min(x_train.min(), x_val.min()), max(x_train.max(), x_val.max()), n_grid)
    train_mse, val_mse = np.empty(degrees.size), np.empty(degrees.size)
    curves = np.empty((degrees.size, n_grid))
    for i, d in enumerate(degrees):
        model = polynomial_model(int(d)).fit(x_train.reshape(-1, 1), y_train)
        train_mse[i] = _mse(y_train, model.predict(x_train.reshape(-1, 1)))
        val_mse[i] = _mse(y_val, model.predict(x_val.reshape(-1, 1)))
        curves[i] = model.predict(grid.reshape(-1, 1))
    best = int(np.argmin(val_mse))  # argmin returns the first minimum: the smallest degree
    best_degree = int(degrees[best])
    for array in (grid, curves, degrees, train_mse, val_mse, x_train, y_train, x_val, y_val):
        array.setflags(write=False)  # shared by every state
    states = {}
    for i, d in enumerate(degrees.tolist()):
        states[d] = {
            "degree": d,
            "train_mse": float(train_mse[i]),
            "val_mse": float(val_mse[i]),
            "verdict": "best" if d == best_degree else ("underfits" if d < best_degree else "overfits"),
            "grid": grid,
            "curve": curves[i],
            "degrees": degrees,
            "train_curve": train_mse,
            "val_curve": val_mse,
            "best_degree": best_degree,
            "best_val_mse": float(val_mse[best]),
            "x_train": x_train,
            "y_train": y_train,
            "x_val": x_val,
            "y_val": y_val,
        }
    return states


def complexity_state(degree: int, x_train, y_train, x_val, y_val, degrees=DEGREES, n_grid: int = 200) -> dict:
    """Every number the complexity slider shows for one polynomial ``degree``.

    Fits :func:`polynomial_model` of every degree in ``degrees`` on the
    training points and returns, for all of them, the training and validation
    mean squared errors (the error curves) and the best degree (lowest
    validation MSE, the smallest degree on a tie); for ``degree`` itself, its
    two errors, the fitted curve on ``n_grid`` points spanning every x, and a
    verdict: ``"underfits"`` below the best degree, ``"overfits"`` above it,
    ``"best"`` at it.
    """
    degree = check_int(degree, "degree", 1)
    states = complexity_states(x_train, y_train, x_val, y_val, degrees, n_grid)
    if degree not in states:
        raise ValueError(f"degree={degree} is not one of degrees {list(states)}")
    return states[degree]


def describe_complexity_state(state: dict) -> str:
    """One line of text for a :func:`complexity_state`."""
    return (f"degree {state['degree']} | training MSE {state['train_mse']:.3f} | "
            f"validation MSE {state['val_mse']:.3f} | best degree {state['best_degree']} "
            f"(validation MSE {state['best_val_mse']:.3f}) | {state['verdict']}")


# --------------------------------------------------------------------------- L1 / L2 geometry
def _quadratic_loss(A: np.ndarray, w_hat: np.ndarray, w: np.ndarray) -> float:
    d = w - w_hat
    return float(d @ A @ d)


def penalty_constrained_minimum(A, w_hat, radius: float, norm: int) -> np.ndarray:
    """Minimum of ``(w - w_hat)^T A (w - w_hat)`` over the ball ``||w||_norm <= radius`` in 2-D.

    ``A`` is a symmetric positive-definite 2 x 2 matrix (the loss's curvature),
    ``w_hat`` the unpenalised minimum, ``norm`` 1 (a diamond) or 2 (a disc).
    When ``w_hat`` is inside the ball it is the answer. Otherwise, for L2 the
    answer is ``(A + lam I)^-1 A w_hat`` with ``lam`` found by bisection so that
    it lies on the circle; for L1 the minimum over each of the diamond's four
    edges is found in closed form and the best edge point is returned.
    """
    A = np.asarray(A, dtype=float)
    w_hat = np.asarray(w_hat, dtype=float)
    if A.shape != (2, 2) or not np.isfinite(A).all() or not np.allclose(A, A.T):
        raise ValueError(f"A must be a finite symmetric 2 x 2 matrix; got {A.tolist()}")
    if np.linalg.eigvalsh(A).min() <= 0:
        raise ValueError("A must be positive definite (both eigenvalues > 0)")
    if w_hat.shape != (2,) or not np.isfinite(w_hat).all():
        raise ValueError(f"w_hat must be two finite numbers; got {w_hat.tolist()}")
    radius = check_real(radius, "radius", 0, strict=True)
    if norm not in (1, 2) or isinstance(norm, bool):
        raise ValueError(f"norm must be 1 or 2; got {norm!r}")
    if np.linalg.norm(w_hat, ord=norm) <= radius:
        return w_hat.copy()
    if norm == 2:
        def solution(lam):
            return np.linalg.solve(A + lam * np.eye(2), A @ w_hat)

        low, high = 0.0, 1.0
        while np.linalg.norm(solution(high)) > radius:
            high *= 2
        for _ in range(200):
            middle = (low + high) / 2
            low, high = (middle, high) if np.linalg.norm(solution(middle)) > radius else (low, middle)
        return solution(high)
    vertices = radius * np.array([[1, 0], [0, 1], [-1, 0], [0, -1], [1, 0]], dtype=float)
    best, best_loss = None, math.inf
    for a, b in zip(vertices[:-1], vertices[1:]):
        direction = b - a  # w = a + s (b - a), s in [0, 1]: the loss is a parabola in s
        curvature = direction @ A @ direction
        s = float(np.clip(direction @ A @ (w_hat - a) / curvature, 0.0, 1.0))
        point = a + s * direction
        loss = _quadratic_loss(A, w_hat, point)
        if loss < best_loss:
            best, best_loss = point, loss
    return best


# --------------------------------------------------------------------------- variance on real data
def variance_on_disjoint_sets(make_model: Callable, X, y, n_train: int, n_sets: int, n_eval: int,
                              random_state=None) -> dict:
    """Variance of a model's predictions over disjoint training sets of real data, and its share of the error.

    Shuffles the rows once, keeps ``n_eval`` of them to evaluate on and cuts
    ``n_sets`` disjoint training sets of ``n_train`` rows from the others; fits
    ``make_model()`` on each. At every evaluation row the predictions of the
    ``n_sets`` models vary: the mean over rows of their variance (``ddof=1``,
    unbiased) estimates the **variance** term of section 1's decomposition. The
    mean squared error of the models on the evaluation rows is the whole error;
    what is not variance is bias² plus noise (which real data cannot separate).

    Returns ``mse``, ``variance``, ``variance_share`` (variance / mse) and
    ``bias2_plus_noise`` (mse − variance), in squared units of ``y``.
    """
    X = as_2d_floats(X, "X")
    y = finite_floats(y, "y")
    if X.shape[0] != y.shape[0]:
        raise ValueError(f"X and y have different lengths: {X.shape[0]} and {y.shape[0]}")
    n_train = check_int(n_train, "n_train", 1)
    n_sets = check_int(n_sets, "n_sets", 2)
    n_eval = check_int(n_eval, "n_eval", 1)
    if n_train * n_sets + n_eval > X.shape[0]:
        raise ValueError(f"n_sets * n_train + n_eval = {n_sets * n_train + n_eval} rows are needed; "
                         f"X has {X.shape[0]}")
    order = np.random.default_rng(random_state).permutation(X.shape[0])
    evaluate, rest = order[:n_eval], order[n_eval:]
    predictions = np.array([make_model().fit(X[rows], y[rows]).predict(X[evaluate])
                            for rows in (rest[k * n_train:(k + 1) * n_train] for k in range(n_sets))])
    mse = float(np.mean((predictions - y[evaluate]) ** 2))
    variance = float(np.mean(predictions.var(axis=0, ddof=1)))
    share = variance / mse if mse > 0 else 0.0  # a perfect fit everywhere: no error, no variance to share
    return {"mse": mse, "variance": variance, "variance_share": share, "bias2_plus_noise": mse - variance}
