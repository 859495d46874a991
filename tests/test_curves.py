"""Bias, variance and complexity (notebook 05): helpers.curves, its figures and the complexity slider."""

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from sklearn.dummy import DummyRegressor  # noqa: E402
from sklearn.linear_model import LinearRegression  # noqa: E402
from sklearn.tree import DecisionTreeRegressor  # noqa: E402

import helpers.curves  # noqa: E402
from helpers.curves import (DEGREES, BiasVariance, bias_variance_decomposition, complexity_state,  # noqa: E402
                            complexity_states, describe_complexity_state, noisy_sample, penalty_constrained_minimum,
                            polynomial_model)
from helpers.curves_plots import (plot_bias_variance_by_x, plot_coefficient_paths, plot_complexity,  # noqa: E402
                                  plot_error_curves, plot_fitted_models, plot_penalty_geometry)
from helpers.widgets import complexity_explorer, plain_panel  # noqa: E402

SETTINGS = settings(deadline=None, derandomize=True, max_examples=25)
X_TEST = np.linspace(0.0, 1.0, 21)


def wave(x):
    return np.sin(2 * np.pi * x)


def tree():
    return DecisionTreeRegressor(random_state=0)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def toy():
    x, y = noisy_sample(wave, 30, 0.3, random_state=0)
    x_val, y_val = noisy_sample(wave, 200, 0.3, random_state=1)
    return x, y, x_val, y_val


# --------------------------------------------------------------------------- noisy_sample
def test_noisy_sample_draws_x_in_range_and_adds_gaussian_noise():
    x, y = noisy_sample(lambda x: 3 * x, 20_000, 0.5, x_range=(2.0, 4.0), random_state=0)
    assert x.shape == y.shape == (20_000,)
    assert x.min() >= 2 and x.max() < 4
    residuals = y - 3 * x
    assert abs(residuals.mean()) < 4 * 0.5 / math.sqrt(x.size)
    assert abs(residuals.std() - 0.5) < 0.01
    assert np.array_equal(noisy_sample(wave, 5, 0.0, random_state=3)[1], wave(noisy_sample(wave, 5, 0.0, random_state=3)[0]))


# --------------------------------------------------------------------------- the decomposition
@pytest.mark.parametrize("make_model", [LinearRegression, tree, DummyRegressor, lambda: polynomial_model(3)],
                         ids=["line", "tree", "constant", "cubic"])
@pytest.mark.parametrize("seed", [0, 1])
def test_decomposition_adds_up_to_the_measured_error_within_monte_carlo_error(make_model, seed):
    result = bias_variance_decomposition(make_model, wave, 0.3, X_TEST, n_train=25, n_sets=300, random_state=seed)
    summary = result.summary()
    assert summary["sum"] == pytest.approx(summary["noise"] + summary["bias2"] + summary["variance"])
    # the expectations are equal; the simulation agrees within 4 Monte-Carlo standard errors
    assert abs(summary["sum"] - summary["error"]) < 4 * summary["error_se"]
    assert summary["error_se"] < 0.05 * summary["error"], "the check above must not be vacuous"


def test_noise_free_error_is_exactly_bias2_plus_variance_per_point():
    # Without noise the fresh targets are f itself: mean_s (f - pred_s)^2 = bias^2 + variance exactly.
    result = bias_variance_decomposition(tree, wave, 0.0, X_TEST, n_train=15, n_sets=40, random_state=2)
    assert np.allclose(result.error, result.bias2 + result.variance, rtol=1e-12, atol=1e-15)
    assert np.all(result.noise == 0)


def test_a_model_that_contains_f_has_no_error_without_noise():
    result = bias_variance_decomposition(LinearRegression, lambda x: 2 * x - 1, 0.0, X_TEST, 10, 5, random_state=0)
    assert np.allclose(result.predictions, 2 * X_TEST - 1)
    assert result.summary()["bias2"] < 1e-20 and result.summary()["variance"] < 1e-20
    assert result.summary()["error"] < 1e-20


def test_flexible_model_has_lower_bias_and_higher_variance_than_a_rigid_one():
    rigid = bias_variance_decomposition(LinearRegression, wave, 0.3, X_TEST, 30, 200, random_state=0).summary()
    flexible = bias_variance_decomposition(tree, wave, 0.3, X_TEST, 30, 200, random_state=0).summary()
    assert flexible["bias2"] < rigid["bias2"] / 10
    assert flexible["variance"] > 2 * rigid["variance"]
    assert flexible["noise"] == rigid["noise"] == pytest.approx(0.09)


def test_constant_model_variance_is_the_variance_of_the_mean_of_its_training_targets():
    result = bias_variance_decomposition(DummyRegressor, wave, 0.5, X_TEST, 10, 500, random_state=0)
    means = result.y_train.mean(axis=1)
    assert np.allclose(result.predictions, means[:, None]), "the constant model predicts its training mean"
    assert np.allclose(result.variance, means.var())
    # and in expectation Var(mean) = (Var f(X) + sigma^2) / n, with Var sin(2 pi U) = 1/2
    expected = (0.5 + 0.25) / 10
    assert abs(result.variance[0] - expected) < 4 * expected * math.sqrt(2 / 499)


def test_constant_model_on_a_constant_function_has_no_bias_and_variance_sigma2_over_n():
    result = bias_variance_decomposition(DummyRegressor, lambda x: np.full_like(x, 2.0), 1.0, X_TEST, 10, 2000,
                                         random_state=0)
    assert result.variance[0] == pytest.approx(0.1, abs=4 * 0.1 * math.sqrt(2 / 1999))
    assert result.bias2.max() < 16 * 0.1 / 2000  # (4 standard errors of the mean of the means)^2


def test_decomposition_returns_every_training_set_and_is_reproducible():
    first = bias_variance_decomposition(tree, wave, 0.3, X_TEST, 12, 6, x_range=(0.2, 0.7), random_state=4)
    again = bias_variance_decomposition(tree, wave, 0.3, X_TEST, 12, 6, x_range=(0.2, 0.7), random_state=4)
    other = bias_variance_decomposition(tree, wave, 0.3, X_TEST, 12, 6, x_range=(0.2, 0.7), random_state=5)
    assert isinstance(first, BiasVariance) and first.n_sets == 6
    assert first.x_train.shape == first.y_train.shape == (6, 12)
    assert first.predictions.shape == first.y_fresh.shape == (6, X_TEST.size)
    assert first.x_train.min() >= 0.2 and first.x_train.max() < 0.7
    assert np.array_equal(first.predictions, again.predictions)
    assert not np.array_equal(first.predictions, other.predictions)
    # each row of predictions is a tree fitted on that row's training set
    refit = tree().fit(first.x_train[3].reshape(-1, 1), first.y_train[3])
    assert np.array_equal(refit.predict(X_TEST.reshape(-1, 1)), first.predictions[3])


@SETTINGS
@given(seed=st.integers(0, 10_000), n_train=st.integers(2, 30), noise=st.floats(0, 2),
       n_sets=st.integers(2, 15))
def test_decomposition_identities_hold_for_any_draw(seed, n_train, noise, n_sets):
    result = bias_variance_decomposition(LinearRegression, wave, noise, X_TEST, n_train, n_sets, random_state=seed)
    squared_gap = ((result.f_test - result.predictions) ** 2).mean(axis=0)
    assert np.allclose(result.bias2 + result.variance, squared_gap, rtol=1e-9, atol=1e-12)
    assert np.all(result.bias2 >= 0) and np.all(result.variance >= 0)
    assert np.allclose(result.mean_prediction, result.predictions.mean(axis=0))
    assert result.summary()["noise"] == pytest.approx(noise**2)


def test_decomposition_does_not_modify_its_inputs():
    x_test = X_TEST.copy()

    def greedy(x):
        x *= 2  # a function that writes into its argument must not reach ours
        return np.sin(x)

    bias_variance_decomposition(LinearRegression, greedy, 0.1, x_test, 5, 3, random_state=0)
    assert np.array_equal(x_test, X_TEST)


@pytest.mark.parametrize("kwargs, message", [
    ({"n_sets": 1}, "n_sets must be at least 2"),
    ({"n_sets": 2.0}, "n_sets must be an integer"),
    ({"noise_sd": -0.1}, "noise_sd must be >= 0"),
    ({"noise_sd": float("nan")}, "noise_sd must be a finite number"),
    ({"n_train": 0}, "n_train must be at least 1"),
    ({"x_test": []}, "x_test is empty"),
    ({"x_test": [0.1, np.nan]}, "x_test contains NaN"),
    ({"x_test": [[0.1, 0.2]]}, "x_test must be one-dimensional"),
    ({"f": lambda x: x[:-1]}, "f must return one value per x"),
    ({"f": lambda x: x / 0}, "f returned NaN or infinite values"),
    ({"f": 3}, "f must be a function"),
    ({"make_model": LinearRegression()}, "make_model must be a function"),
    ({"make_model": lambda: "model"}, "must return an estimator with fit and predict"),
    ({"x_range": (1, 0)}, "x_range must have low < high"),
    ({"x_range": 1}, "x_range must be a pair"),
])
def test_decomposition_rejects_bad_input(kwargs, message):
    arguments = {"make_model": LinearRegression, "f": wave, "noise_sd": 0.3, "x_test": X_TEST, "n_train": 10,
                 "n_sets": 5}
    with np.errstate(divide="ignore", invalid="ignore"):
        with pytest.raises(ValueError, match=message):
            bias_variance_decomposition(**{**arguments, **kwargs})


# --------------------------------------------------------------------------- complexity_state
def test_polynomial_model_fits_like_numpy_polynomial(toy):
    x, y, x_val, _ = toy
    for degree in (1, 2, 4, 6):
        ours = polynomial_model(degree).fit(x.reshape(-1, 1), y).predict(x_val.reshape(-1, 1))
        numpy = np.polynomial.Polynomial.fit(x, y, degree)(x_val)
        assert np.allclose(ours, numpy, atol=1e-8), f"degree {degree}"


def test_complexity_state_errors_match_numpy_fits(toy):
    x, y, x_val, y_val = toy
    state = complexity_state(3, x, y, x_val, y_val, degrees=(1, 2, 3, 5))
    for i, degree in enumerate((1, 2, 3, 5)):
        poly = np.polynomial.Polynomial.fit(x, y, degree)
        assert state["train_curve"][i] == pytest.approx(np.mean((y - poly(x)) ** 2), rel=1e-8)
        assert state["val_curve"][i] == pytest.approx(np.mean((y_val - poly(x_val)) ** 2), rel=1e-8)
    poly3 = np.polynomial.Polynomial.fit(x, y, 3)
    assert np.allclose(state["curve"], poly3(state["grid"]), atol=1e-8)
    assert state["train_mse"] == state["train_curve"][2] and state["val_mse"] == state["val_curve"][2]
    assert state["grid"][0] == min(x.min(), x_val.min()) and state["grid"][-1] == max(x.max(), x_val.max())


def test_training_error_never_rises_on_a_grid_of_ten_degrees(toy):
    x, y, x_val, y_val = toy
    train = complexity_state(1, x, y, x_val, y_val, degrees=range(1, 11))["train_curve"]
    assert np.all(np.diff(train) <= 1e-9), "nested least-squares fits: more terms cannot fit worse"


def test_best_degree_and_verdicts(toy):
    x, y, x_val, y_val = toy
    states = [complexity_state(d, x, y, x_val, y_val) for d in DEGREES]
    best = states[0]["best_degree"]
    assert best == DEGREES[int(np.argmin(states[0]["val_curve"]))]
    assert states[0]["best_val_mse"] == states[0]["val_curve"].min()
    assert 3 <= best <= 6, "a sine over one period needs a cubic or a little more"
    for state in states:
        expected = "best" if state["degree"] == best else ("underfits" if state["degree"] < best else "overfits")
        assert state["verdict"] == expected
    assert states[0]["val_mse"] > 3 * states[best - 1]["val_mse"], "a straight line underfits a sine"


def test_training_error_never_rises_with_the_degree(toy):
    """Each polynomial contains the previous ones (the notebook says so): least squares must honour it."""
    state = complexity_state(15, *toy)
    assert np.all(np.diff(state["train_curve"]) <= 1e-12), state["train_curve"]
    poly15 = np.polynomial.Chebyshev.fit(toy[0], toy[1], 15)
    assert state["train_curve"][-1] == pytest.approx(np.mean((toy[1] - poly15(toy[0])) ** 2), rel=1e-6)


def test_complexity_states_hold_every_degree_and_are_read_only(toy):
    states = complexity_states(*toy, degrees=(1, 3, 8))
    assert list(states) == [1, 3, 8]
    for degree, state in states.items():
        alone = complexity_state(degree, *toy, degrees=(1, 3, 8))
        assert describe_complexity_state(state) == describe_complexity_state(alone)
        assert np.array_equal(state["curve"], alone["curve"])
    with pytest.raises(ValueError, match="read-only"):
        states[3]["val_curve"][0] = 0.0


def test_complexity_state_passes_n_grid_on_and_defaults_to_200_points_and_degrees_1_to_15(toy):
    x, y, x_val, y_val = toy
    coarse = complexity_state(2, x, y, x_val, y_val, degrees=(1, 2), n_grid=7)
    assert coarse["grid"].shape == (7,) and coarse["curve"].shape == (7,)
    assert np.allclose(coarse["grid"], np.linspace(min(x.min(), x_val.min()), max(x.max(), x_val.max()), 7))
    default = complexity_state(2, x, y, x_val, y_val)
    assert default["grid"].shape == (200,) and list(default["degrees"]) == list(range(1, 16))


def test_describe_complexity_state():
    state = {"degree": 7, "train_mse": 0.04123, "val_mse": 0.1256, "best_degree": 4, "best_val_mse": 0.0919,
             "verdict": "overfits"}
    assert describe_complexity_state(state) == (
        "degree 7 | training MSE 0.041 | validation MSE 0.126 | best degree 4 (validation MSE 0.092) | overfits")


def test_complexity_state_does_not_modify_its_inputs(toy):
    arrays = [a.copy() for a in toy]
    complexity_state(2, *toy)
    assert all(np.array_equal(a, b) for a, b in zip(arrays, toy))


@pytest.mark.parametrize("change, message", [
    ({"degree": 16}, r"degree=16 is not one of degrees"),
    ({"degree": 0}, "degree must be at least 1"),
    ({"degree": 2.5}, "degree must be an integer"),
    ({"y_train": np.zeros(29)}, "x_train and y_train have different lengths: 30 and 29"),
    ({"x_val": np.zeros(3)}, "x_val and y_val have different lengths"),
    ({"x_train": np.r_[np.nan, np.zeros(29)]}, "x_train contains NaN"),
    ({"y_val": np.r_[np.inf, np.zeros(199)]}, "y_val contains infinite values"),
    ({"x_train": np.array([]), "y_train": np.array([])}, "x_train is empty"),
    ({"degrees": (3, 2, 1)}, "degrees must be increasing"),
    ({"degrees": ()}, "degrees must be a non-empty list"),
    ({"degrees": (0, 1)}, "each degree must be at least 1"),
])
def test_complexity_state_rejects_bad_input(toy, change, message):
    x, y, x_val, y_val = toy
    arguments = {"degree": 2, "x_train": x, "y_train": y, "x_val": x_val, "y_val": y_val}
    with pytest.raises(ValueError, match=message):
        complexity_state(**{**arguments, **change})


@pytest.mark.parametrize("change, message", [
    ({"x_train": np.r_[np.inf, np.zeros(29)]}, "^x_train contains infinite values"),
    ({"y_train": np.r_[np.zeros(29), -np.inf]}, "^y_train contains infinite values"),
    ({"x_val": np.r_[np.zeros(199), np.inf]}, "^x_val contains infinite values"),
    ({"degrees": (1, 2, 2)}, r"^degrees must be increasing without repeats; got \[1, 2, 2\]$"),
    ({"n_grid": 1}, "^n_grid must be at least 2; got 1$"),
    ({"n_grid": 2.5}, "^n_grid must be an integer; got 2.5$"),
])
def test_complexity_state_names_the_bad_argument_in_full(toy, change, message):
    x, y, x_val, y_val = toy
    arguments = {"degree": 2, "x_train": x, "y_train": y, "x_val": x_val, "y_val": y_val, "degrees": (1, 2, 3)}
    with pytest.raises(ValueError, match=message):
        complexity_state(**{**arguments, **change})


def test_complexity_state_accepts_a_grid_of_two_points(toy):
    state = complexity_state(1, *toy, degrees=(1,), n_grid=2)
    assert state["grid"].tolist() == [min(toy[0].min(), toy[2].min()), max(toy[0].max(), toy[2].max())]


# --------------------------------------------------------------------------- the complexity slider
def test_complexity_explorer_starts_on_its_state_and_follows_the_slider(toy):
    box = complexity_explorer(*toy, degree=1, noise=0.09)
    slider = box.controls["degree"]
    assert list(slider.options) == [(str(d), d) for d in DEGREES] or [v for _, v in slider.options] == list(DEGREES)
    assert box.text.value == plain_panel(describe_complexity_state(complexity_state(1, *toy)))
    first_image = box.image.value
    assert first_image[:4] == b"\x89PNG"
    slider.value = 12
    assert box.text.value == plain_panel(describe_complexity_state(complexity_state(12, *toy)))
    assert "overfits" in box.text.value
    assert box.image.value != first_image, "the figure is redrawn"


def test_complexity_explorer_fits_each_degree_once(toy, monkeypatch):
    calls = []
    original = helpers.curves.polynomial_model
    monkeypatch.setattr(helpers.curves, "polynomial_model", lambda degree: calls.append(degree) or original(degree))
    box = complexity_explorer(*toy, degrees=(1, 2, 3), degree=1)
    box.controls["degree"].value = 3
    box.controls["degree"].value = 2
    assert sorted(calls) == [1, 2, 3], "moving the slider only looks the states up"
    assert box.text.value == plain_panel(describe_complexity_state(complexity_state(2, *toy, degrees=(1, 2, 3))))


def test_complexity_explorer_move_draws_the_same_picture_as_a_fresh_start(toy):
    """The slider blits only what changes: after a move nothing of the old degree may remain."""
    from PIL import Image
    import io

    moved = complexity_explorer(*toy, degree=1, noise=0.09)
    moved.controls["degree"].value = 13
    fresh = complexity_explorer(*toy, degree=13, noise=0.09)
    pixels = [np.asarray(Image.open(io.BytesIO(box.image.value))) for box in (moved, fresh)]
    assert pixels[0].shape == pixels[1].shape and np.array_equal(pixels[0], pixels[1]), \
        "moving to degree 13 must give exactly the picture of an explorer started at 13"
    assert not np.array_equal(pixels[0], np.asarray(Image.open(io.BytesIO(
        complexity_explorer(*toy, degree=1, noise=0.09).image.value))))


def test_complexity_explorer_refuses_a_start_off_the_grid(toy):
    with pytest.raises(ValueError, match="not on its grid"):
        complexity_explorer(*toy, degrees=(1, 2, 3), degree=5)


# --------------------------------------------------------------------------- L1 / L2 geometry
A_TILTED = np.array([[2.0, 0.6], [0.6, 1.0]])


def test_inside_the_ball_the_unpenalised_minimum_is_kept():
    w_hat = np.array([0.2, -0.3])
    for norm in (1, 2):
        solution = penalty_constrained_minimum(A_TILTED, w_hat, 1.0, norm)
        assert np.array_equal(solution, w_hat) and solution is not w_hat


def test_l2_with_round_contours_is_the_radial_projection():
    solution = penalty_constrained_minimum(np.eye(2), [3.0, 4.0], 1.0, 2)
    assert np.allclose(solution, [0.6, 0.8], atol=1e-9)


def test_l1_with_round_contours_is_soft_thresholding_and_lands_on_a_corner():
    # Projection on the unit diamond: subtract theta from |w| so that |w1| + |w2| = 1 -> (1, 0)
    assert np.allclose(penalty_constrained_minimum(np.eye(2), [2.0, 0.5], 1.0, 1), [1.0, 0.0])
    # theta = 0.25 for (1, 0.5): (0.75, 0.25), on an edge, not a corner
    assert np.allclose(penalty_constrained_minimum(np.eye(2), [1.0, 0.5], 1.0, 1), [0.75, 0.25])


def test_l2_solution_is_on_the_circle_and_satisfies_the_optimality_condition():
    w_hat = np.array([2.0, 1.5])
    w = penalty_constrained_minimum(A_TILTED, w_hat, 1.0, 2)
    assert np.linalg.norm(w) == pytest.approx(1.0, abs=1e-9)
    pull = A_TILTED @ (w_hat - w)  # = lambda w with lambda > 0 (Lagrange)
    lam = pull @ w
    assert lam > 0 and np.allclose(pull, lam * w, atol=1e-8)


@SETTINGS
@given(w1=st.floats(-5, 5), w2=st.floats(-5, 5), a=st.floats(0.2, 3), b=st.floats(0.2, 3),
       c=st.floats(-0.9, 0.9), radius=st.floats(0.2, 2))
def test_penalised_solutions_beat_every_point_of_the_ball_boundary(w1, w2, a, b, c, radius):
    A = np.array([[a, c * math.sqrt(a * b)], [c * math.sqrt(a * b), b]])
    w_hat = np.array([w1, w2])
    angles = np.linspace(0, 2 * np.pi, 2001)
    circle = radius * np.c_[np.cos(angles), np.sin(angles)]
    diamond = circle / np.abs(circle).sum(axis=1, keepdims=True) * radius
    for norm, boundary in ((1, diamond), (2, circle)):
        w = penalty_constrained_minimum(A, w_hat, radius, norm)
        assert np.linalg.norm(w, ord=norm) <= radius + 1e-9
        losses = np.einsum("ij,jk,ik->i", boundary - w_hat, A, boundary - w_hat)
        assert (w - w_hat) @ A @ (w - w_hat) <= losses.min() + 1e-9


@pytest.mark.parametrize("args, message", [
    ((np.eye(3), [1, 1], 1, 1), "A must be a finite symmetric 2 x 2 matrix"),
    (([[1, 2], [0, 1]], [1, 1], 1, 1), "A must be a finite symmetric"),
    (([[1, 0], [0, -1]], [1, 1], 1, 1), "positive definite"),
    ((np.eye(2), [1, np.nan], 1, 1), "w_hat must be two finite numbers"),
    ((np.eye(2), [1, 1], 0, 1), "radius must be > 0"),
    ((np.eye(2), [1, 1], 1, 3), "norm must be 1 or 2"),
])
def test_penalty_geometry_rejects_bad_input(args, message):
    with pytest.raises(ValueError, match=message):
        penalty_constrained_minimum(*args)


# --------------------------------------------------------------------------- figures
def test_plot_fitted_models_draws_the_requested_models():
    result = bias_variance_decomposition(tree, wave, 0.3, X_TEST[::-1], 10, 25, random_state=0)
    ax = plot_fitted_models(result, n_show=20, title="tree")
    thin = [line for line in ax.lines if line.get_linewidth() == 1 and line.get_alpha() == 0.35]
    assert len(thin) == 20
    assert np.array_equal(thin[4].get_xdata(), X_TEST), "lines are drawn in increasing x"
    assert np.array_equal(thin[4].get_ydata(), result.predictions[4][::-1])
    assert ax.get_title() == "tree"
    assert "mean of 25 models" in [t.get_text() for t in ax.get_legend().get_texts()]
    with pytest.raises(ValueError, match="n_show must be an integer between 1 and the 25"):
        plot_fitted_models(result, n_show=26)


def test_plot_bias_variance_by_x_stacks_the_three_parts():
    result = bias_variance_decomposition(LinearRegression, wave, 0.3, X_TEST, 10, 20, random_state=0)
    ax = plot_bias_variance_by_x(result)
    top = ax.collections[-1].get_paths()[0].vertices[:, 1].max()
    assert top == pytest.approx((result.noise + result.bias2 + result.variance).max())
    assert np.allclose(ax.lines[0].get_ydata(), result.error)


def test_plot_complexity_marks_the_degree_and_the_best(toy):
    state = complexity_state(9, *toy)
    ax_fit, ax_err = plot_complexity(state, noise=0.09)
    assert np.allclose(ax_fit.lines[2].get_ydata(), state["curve"])
    assert ax_fit.get_title() == "degree 9: overfits"
    star = [line for line in ax_err.lines if line.get_marker() == "*"][0]
    assert (star.get_xdata()[0], star.get_ydata()[0]) == (state["best_degree"], state["best_val_mse"])
    assert ax_err.get_yscale() == "log"


def test_plot_error_curves_draws_means_and_checks_shapes():
    sizes = np.array([10, 100, 1000])
    train, val = np.array([[1.0, 3.0], [2.0, 2.0], [3.0, 3.0]]), np.array([[9.0, 7.0], [5.0, 5.0], [4.0, 4.0]])
    ax = plot_error_curves(sizes, train, val, label="model")
    assert np.allclose(ax.lines[0].get_ydata(), [8, 5, 4]) and np.allclose(ax.lines[1].get_ydata(), [2, 2, 3])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["model: validation", "model: training"]
    with pytest.raises(ValueError, match="must both have shape"):
        plot_error_curves(sizes, train, val[:2])


def test_plot_coefficient_paths_and_geometry():
    alphas = np.logspace(-2, 2, 5)
    coefs = np.outer(1 / (1 + alphas), [1.0, -2.0, 0.5])
    ax = plot_coefficient_paths(alphas, coefs, highlight=[1])
    assert len(ax.lines) == 4 and np.allclose(ax.lines[1].get_ydata(), coefs[:, 1])
    assert ax.get_xscale() == "log"
    with pytest.raises(ValueError, match="coefs must have shape"):
        plot_coefficient_paths(alphas, coefs[:3])
    ax_l1, ax_l2 = plot_penalty_geometry(A_TILTED, [1.5, 0.6], 1.0)
    dot = [line for line in ax_l1.lines if line.get_marker() == "o"][0]
    expected = penalty_constrained_minimum(A_TILTED, [1.5, 0.6], 1.0, 1)
    assert np.allclose([dot.get_xdata()[0], dot.get_ydata()[0]], expected)
    assert ax_l1.get_title().startswith("L1") and ax_l2.get_title().startswith("L2")


# --------------------------------------------------------------------------- gaps found by mutation testing
def test_noisy_sample_is_exactly_the_documented_draws():
    x, y = noisy_sample(wave, 7, 0.4, x_range=(-1.0, 2.0), random_state=11)
    rng = np.random.default_rng(11)
    expected_x = rng.uniform(-1.0, 2.0, 7)
    assert np.array_equal(x, expected_x)
    assert np.allclose(y - wave(x), rng.normal(0.0, 0.4, 7), rtol=0, atol=1e-12)  # f(x) PLUS the noise


def test_noisy_sample_accepts_its_smallest_values():
    x, y = noisy_sample(wave, 1, 0.0, random_state=0)  # one point, no noise: both limits are allowed
    assert x.shape == y.shape == (1,) and y[0] == wave(x)[0]


@pytest.mark.parametrize("kwargs, message", [
    ({"n": 0}, r"^n must be at least 1"),
    ({"noise_sd": -0.5}, r"^noise_sd must be >= 0"),
    ({"x_range": ("low", 1.0)}, r"^x_range\[0\] must be"),
    ({"x_range": (0.0, "high")}, r"^x_range\[1\] must be"),
    ({"x_range": (0.5, 0.5)}, r"^x_range must have low < high"),
])
def test_noisy_sample_names_the_bad_argument(kwargs, message):
    with pytest.raises(ValueError, match=message):
        noisy_sample(**{"f": wave, "n": 5, "noise_sd": 0.1, **kwargs})


def test_polynomial_model_needs_a_degree_of_at_least_one():
    assert polynomial_model(1).fit([[0.0], [1.0], [2.0]], [1.0, 3.0, 5.0]).predict([[3.0]]) == pytest.approx(7.0)
    for bad in (0, -2):
        with pytest.raises(ValueError, match=r"^degree must be at least 1"):
            polynomial_model(bad)


def test_decomposition_stores_f_plus_the_noise_it_drew():
    result = bias_variance_decomposition(LinearRegression, wave, 0.3, X_TEST, n_train=4, n_sets=3, random_state=9)
    rng = np.random.default_rng(9)
    for s in range(3):
        assert np.array_equal(result.x_train[s], rng.uniform(0.0, 1.0, 4))
        assert np.allclose(result.y_train[s] - wave(result.x_train[s]), rng.normal(0.0, 0.3, 4), rtol=0, atol=1e-12)
        assert np.allclose(result.y_fresh[s] - wave(X_TEST), rng.normal(0.0, 0.3, X_TEST.size), rtol=0, atol=1e-12)


def test_decomposition_needs_both_fit_and_predict():
    class FitOnly:
        def fit(self, X, y):
            return self

    with pytest.raises(ValueError, match="must return an estimator with fit and predict"):
        bias_variance_decomposition(FitOnly, wave, 0.3, X_TEST, n_train=4, n_sets=2)


def test_penalty_geometry_edge_cases():
    # positive definite means every eigenvalue > 0: a singular A is refused, with the whole message
    with pytest.raises(ValueError, match=r"^A must be positive definite \(both eigenvalues > 0\)$"):
        penalty_constrained_minimum([[1.0, 0.0], [0.0, 0.0]], [1.0, 1.0], 1.0, 2)
    # inside the L2 disc but outside the L1 diamond: the L1 answer is on the diamond
    assert np.allclose(penalty_constrained_minimum(np.eye(2), [0.6, 0.6], 1.0, 1), [0.5, 0.5])
    # exactly on the boundary: w_hat itself, as a new float array, even from integers
    for norm, w_hat in ((2, [1, 0]), (1, [0.5, 0.5]), (2, [0, 0])):
        solution = penalty_constrained_minimum(A_TILTED, w_hat, 1, norm)
        assert solution.dtype == float and np.array_equal(solution, np.asarray(w_hat, dtype=float))
    # steep curvature: lambda must grow far beyond 1 before the solution reaches the circle
    assert np.allclose(penalty_constrained_minimum(100 * np.eye(2), [3.0, 4.0], 0.5, 2), [0.3, 0.4], atol=1e-9)
    # the fourth edge of the diamond, from (0, -1) to (1, 0): soft thresholding by 0.25
    assert np.allclose(penalty_constrained_minimum(np.eye(2), [1.0, -0.5], 1.0, 1), [0.75, -0.25])
    assert np.allclose(penalty_constrained_minimum(np.eye(2), [-0.5, -1.0], 1.0, 1), [-0.25, -0.75])


# --------------------------------------------------------------------------- variance on disjoint training sets
def test_variance_on_disjoint_sets_by_hand():
    from helpers.curves import variance_on_disjoint_sets

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(70, 2)), rng.normal(size=70)
    result = variance_on_disjoint_sets(DummyRegressor, X, y, n_train=20, n_sets=3, n_eval=10, random_state=5)
    # the mean model predicts its training mean everywhere: the variance is that of the three means
    order = np.random.default_rng(5).permutation(70)
    evaluate, rest = order[:10], order[10:]
    means = np.array([y[rest[k * 20:(k + 1) * 20]].mean() for k in range(3)])
    assert result["variance"] == pytest.approx(means.var(ddof=1))
    assert result["mse"] == pytest.approx(np.mean((means[:, None] - y[evaluate][None, :]) ** 2))
    assert result["variance_share"] == pytest.approx(result["variance"] / result["mse"])
    assert result["bias2_plus_noise"] == pytest.approx(result["mse"] - result["variance"])
    # a model that ignores its training set has no variance at all
    fixed = variance_on_disjoint_sets(lambda: DummyRegressor(strategy="constant", constant=0.5), X, y,
                                      n_train=20, n_sets=3, n_eval=10, random_state=5)
    assert fixed["variance"] == 0.0 and fixed["mse"] == pytest.approx(np.mean((y[evaluate] - 0.5) ** 2))


def test_variance_on_disjoint_sets_rejects_bad_input_and_keeps_it():
    from helpers.curves import variance_on_disjoint_sets

    X, y = np.arange(40.0).reshape(20, 2), np.arange(20.0)
    X_copy = X.copy()
    variance_on_disjoint_sets(LinearRegression, X, y, n_train=5, n_sets=2, n_eval=5, random_state=0)
    assert np.array_equal(X, X_copy)
    with pytest.raises(ValueError, match="rows are needed"):
        variance_on_disjoint_sets(LinearRegression, X, y, n_train=8, n_sets=2, n_eval=5)
    with pytest.raises(ValueError, match="n_sets"):
        variance_on_disjoint_sets(LinearRegression, X, y, n_train=5, n_sets=1, n_eval=5)
    with pytest.raises(ValueError, match="different lengths"):
        variance_on_disjoint_sets(LinearRegression, X, y[:-1], n_train=5, n_sets=2, n_eval=5)
