"""Cross-validation helpers of notebook 03: helpers.cv, the splitter plots and the k slider."""

import math
import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402
from scipy import stats  # noqa: E402
from sklearn.datasets import make_classification  # noqa: E402
from sklearn.dummy import DummyClassifier  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import (GroupKFold, KFold, LeaveOneOut, RepeatedStratifiedKFold,  # noqa: E402
                                     ShuffleSplit, StratifiedKFold, cross_val_score)

from helpers.cv import (bootstrap_oob_shares, corrected_resampled_ttest, cv_spread_state,  # noqa: E402
                        describe_cv_spread_state)
from helpers.plotting import (CLASS_COLOURS, SPLIT_COLOURS, cv_split_roles, plot_cv_splits,  # noqa: E402
                              plot_cv_spread)
from helpers.widgets import cv_spread_explorer  # noqa: E402

SETTINGS = settings(deadline=None, derandomize=True, max_examples=40)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def small_data():
    X, y = make_classification(n_samples=80, n_features=4, n_informative=2, n_redundant=0,
                               weights=[0.5], random_state=0)
    return X, y


# --------------------------------------------------------------------------- bootstrap_oob_shares
def test_oob_share_of_a_single_row_is_zero():
    # one row, one draw: the row is always drawn
    assert np.array_equal(bootstrap_oob_shares(1, 5, random_state=0), np.zeros(5))


def test_oob_shares_match_a_hand_simulation_with_the_same_generator():
    rng = np.random.default_rng(3)
    expected = [1 - np.unique(rng.integers(0, 7, 7)).size / 7 for _ in range(50)]
    assert np.allclose(bootstrap_oob_shares(7, 50, random_state=3), expected)


def test_oob_share_converges_to_the_formula_and_to_one_over_e():
    n = 50
    shares = bootstrap_oob_shares(n, 4000, random_state=0)
    assert abs(shares.mean() - (1 - 1 / n) ** n) < 0.005  # standard error about 0.001
    assert abs((1 - 1 / n) ** n - math.exp(-1)) < 0.004
    assert abs(bootstrap_oob_shares(10_000, 50, random_state=0).mean() - math.exp(-1)) < 0.003


def test_oob_shares_are_reproducible():
    first = bootstrap_oob_shares(30, 10, random_state=5)
    assert np.array_equal(first, bootstrap_oob_shares(30, 10, random_state=5))
    assert not np.array_equal(first, bootstrap_oob_shares(30, 10, random_state=6))


@SETTINGS
@given(n=st.integers(1, 300), rounds=st.integers(1, 20), seed=st.integers(0, 2**32 - 1))
def test_oob_shares_are_whole_row_counts_below_n(n, rounds, seed):
    shares = bootstrap_oob_shares(n, rounds, random_state=seed)
    assert shares.shape == (rounds,)
    counts = shares * n
    assert np.allclose(counts, np.round(counts))
    assert np.all(shares >= 0) and np.all(shares <= (n - 1) / n)  # at least one row is drawn


@pytest.mark.parametrize("kwargs, message", [
    ({"n_samples": 0}, "n_samples must be at least 1"),
    ({"n_samples": -3}, "n_samples must be at least 1"),
    ({"n_samples": 2.5}, "n_samples must be an integer"),
    ({"n_samples": True}, "n_samples must be an integer"),
    ({"n_samples": 5, "n_rounds": 0}, "n_rounds must be at least 1"),
    ({"n_samples": 5, "n_rounds": "3"}, "n_rounds must be an integer"),
])
def test_oob_shares_reject_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        bootstrap_oob_shares(**kwargs)


# --------------------------------------------------------------------------- cv_spread_state
def test_spread_state_of_a_constant_scorer_is_zero(small_data):
    # A prior-only classifier gives every row the same score: AUC = 0.5 in every fold.
    X, y = small_data
    state = cv_spread_state(DummyClassifier(strategy="prior"), X, y, k=4, n_repeats=3)
    assert np.array_equal(state["scores"], np.full((3, 4), 0.5))
    assert state["mean"] == 0.5 and state["spread"] == 0 and state["fold_spread"] == 0
    assert state["n_fits"] == 12
    assert state["train_size"] == 60  # 80 rows, 40 per class: 10 + 10 per test fold
    assert state["fit_seconds"] > 0


def test_spread_state_matches_repeated_cross_val_score(small_data):
    X, y = small_data
    model = LogisticRegression()
    state = cv_spread_state(model, X, y, k=5, n_repeats=3, random_state=7)
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=3, random_state=7)
    expected = cross_val_score(model, X, y, cv=cv, scoring="roc_auc").reshape(3, 5)
    assert np.allclose(state["scores"], expected)
    assert np.allclose(state["estimates"], expected.mean(axis=1))
    assert math.isclose(state["mean"], expected.mean())
    assert math.isclose(state["spread"], expected.mean(axis=1).std(ddof=1))
    assert math.isclose(state["fold_spread"], expected.std(ddof=1))
    assert (state["k"], state["n_repeats"], state["n_fits"]) == (5, 3, 15)
    assert not hasattr(model, "coef_"), "the estimator passed in must stay unfitted"


@settings(deadline=None, derandomize=True, max_examples=8)
@given(k=st.integers(2, 6), n_repeats=st.integers(2, 4), seed=st.integers(0, 1000))
def test_spread_state_agrees_with_scikit_learn_for_any_k(small_data, k, n_repeats, seed):
    X, y = small_data
    state = cv_spread_state(LogisticRegression(), X, y, k, n_repeats, random_state=seed)
    cv = RepeatedStratifiedKFold(n_splits=k, n_repeats=n_repeats, random_state=seed)
    expected = cross_val_score(LogisticRegression(), X, y, cv=cv, scoring="roc_auc").reshape(n_repeats, k)
    assert np.allclose(state["scores"], expected)
    assert math.isclose(state["spread"], expected.mean(axis=1).std(ddof=1), abs_tol=1e-12)
    sizes = [len(train) for train, _ in cv.split(X, y)]
    assert math.isclose(state["train_size"], np.mean(sizes))


def test_spread_state_uses_the_scoring_and_is_reproducible(small_data):
    X, y = small_data
    first = cv_spread_state(LogisticRegression(), X, y, k=4, n_repeats=2, scoring="accuracy", random_state=1)
    again = cv_spread_state(LogisticRegression(), X, y, k=4, n_repeats=2, scoring="accuracy", random_state=1)
    assert np.array_equal(first["scores"], again["scores"])
    # accuracy on a test fold of 20 rows is a multiple of 1/20
    assert np.allclose(first["scores"] * 20, np.round(first["scores"] * 20))


def test_spread_state_does_not_modify_its_inputs(small_data):
    X, y = small_data
    X_before, y_before = X.copy(), y.copy()
    cv_spread_state(LogisticRegression(), X, y, k=3, n_repeats=2)
    assert np.array_equal(X, X_before) and np.array_equal(y, y_before)


@pytest.mark.parametrize("kwargs, message", [
    ({"k": 1}, "k must be at least 2"),
    ({"k": 3.0}, "k must be an integer"),
    ({"k": 41}, "larger than the smallest class"),
    ({"k": 3, "n_repeats": 1}, "n_repeats must be at least 2"),
])
def test_spread_state_rejects_bad_parameters(small_data, kwargs, message):
    X, y = small_data
    with pytest.raises(ValueError, match=message):
        cv_spread_state(LogisticRegression(), X, y, **kwargs)


def test_spread_state_rejects_bad_data(small_data):
    X, y = small_data
    with pytest.raises(ValueError, match="different lengths: 80 and 79"):
        cv_spread_state(LogisticRegression(), X, y[:-1], k=3)
    with pytest.raises(ValueError, match="one-dimensional"):
        cv_spread_state(LogisticRegression(), X, y.reshape(-1, 1), k=3)
    with pytest.raises(ValueError, match="at least two classes"):
        cv_spread_state(LogisticRegression(), X, np.zeros(80), k=3)


# --------------------------------------------------------------------------- corrected t-test
def test_corrected_ttest_on_a_hand_worked_example():
    # d = (0.1, 0, 0.2): mean 0.1, s^2 = 0.01, J = 3, n_test/n_train = 2/8.
    # t = 0.1 / sqrt((1/3 + 1/4) * 0.01) = sqrt(12/7); with 2 degrees of freedom the
    # t distribution has closed forms: p = 1 - t / sqrt(t^2 + 2) = 1 - sqrt(6/13) and
    # the 97.5 % quantile is 0.95 / sqrt(2 * 0.975 * 0.025).
    result = corrected_resampled_ttest([0.8, 0.7, 0.9], [0.7, 0.7, 0.7], n_train=8, n_test=2)
    assert math.isclose(result.mean_difference, 0.1)
    assert math.isclose(result.std_difference, 0.1)
    assert math.isclose(result.t, math.sqrt(12 / 7))
    assert result.df == 2
    assert math.isclose(result.p_value, 1 - math.sqrt(6 / 13))
    margin = 0.95 / math.sqrt(2 * 0.975 * 0.025) * math.sqrt(7 / 12) * 0.1
    assert math.isclose(result.ci_low, 0.1 - margin) and math.isclose(result.ci_high, 0.1 + margin)


def test_corrected_ttest_is_symmetric_in_the_two_models():
    a, b = [0.71, 0.74, 0.69, 0.75, 0.72], [0.70, 0.70, 0.71, 0.72, 0.69]
    ab = corrected_resampled_ttest(a, b, 80, 20)
    ba = corrected_resampled_ttest(b, a, 80, 20)
    assert math.isclose(ab.t, -ba.t) and math.isclose(ab.p_value, ba.p_value)
    assert math.isclose(ab.ci_low, -ba.ci_high) and math.isclose(ab.ci_high, -ba.ci_low)


def test_corrected_ttest_widens_with_the_test_share():
    a, b = [0.71, 0.74, 0.69, 0.75, 0.72], [0.70, 0.70, 0.71, 0.72, 0.69]
    narrow = corrected_resampled_ttest(a, b, n_train=900, n_test=100)
    wide = corrected_resampled_ttest(a, b, n_train=500, n_test=500)
    assert abs(wide.t) < abs(narrow.t) and wide.p_value > narrow.p_value
    assert wide.ci_high - wide.ci_low > narrow.ci_high - narrow.ci_low


@SETTINGS
@given(pairs=st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=2, max_size=30),
       n_train=st.integers(10, 10_000), n_test=st.integers(1, 5_000),
       confidence=st.floats(0.5, 0.99))
def test_corrected_ttest_against_scipy_paired_ttest(pairs, n_train, n_test, confidence):
    a, b = np.array(pairs).T
    differences = a - b
    assume(np.ptp(differences) > 1e-6)  # without variance the helper refuses and scipy returns nan
    result = corrected_resampled_ttest(a, b, n_train, n_test, confidence)
    naive = stats.ttest_rel(a, b)
    j = differences.size
    # The correction scales the standard error by sqrt((1/J + n_test/n_train) / (1/J)).
    inflation = math.sqrt((1 / j + n_test / n_train) * j)
    assert math.isclose(result.t * inflation, naive.statistic, rel_tol=1e-9, abs_tol=1e-12)
    assert math.isclose(result.p_value, 2 * stats.t.sf(abs(naive.statistic) / inflation, j - 1), rel_tol=1e-9)
    low, high = naive.confidence_interval(confidence)
    centre = differences.mean()
    assert math.isclose(result.ci_low, centre - (centre - low) * inflation, rel_tol=1e-9, abs_tol=1e-12)
    assert math.isclose(result.ci_high, centre + (high - centre) * inflation, rel_tol=1e-9, abs_tol=1e-12)


def test_corrected_ttest_does_not_modify_its_inputs():
    a, b = np.array([0.8, 0.7, 0.9]), [0.7, 0.6, 0.75]
    a_before, b_before = a.copy(), list(b)
    corrected_resampled_ttest(a, b, 8, 2)
    assert np.array_equal(a, a_before) and b == b_before


@pytest.mark.parametrize("args, kwargs, message", [
    (([0.1, 0.2, 0.3], [0.1, 0.2]), {}, "different lengths: 3 and 2"),
    (([0.1], [0.2]), {}, "at least two paired scores"),
    (([0.1, np.nan], [0.2, 0.3]), {}, "scores_a contains NaN"),
    (([[0.1, 0.2]], [[0.2, 0.3]]), {}, "scores_a must be one-dimensional"),
    (([0.1, 0.2], [0.0, 0.1]), {}, "zero variance"),
    (([0.1, 0.3], [0.2, 0.2]), {"n_train": 0}, "n_train must be at least 1"),
    (([0.1, 0.3], [0.2, 0.2]), {"n_test": 1.5}, "n_test must be an integer"),
    (([0.1, 0.3], [0.2, 0.2]), {"confidence": 1.0}, "confidence must be a number strictly between 0 and 1"),
    (([0.1, 0.3], [0.2, 0.2]), {"confidence": True}, "confidence must be a number"),
])
def test_corrected_ttest_rejects_bad_input(args, kwargs, message):
    arguments = {"n_train": 8, "n_test": 2, **kwargs}
    with pytest.raises(ValueError, match=message):
        corrected_resampled_ttest(*args, **arguments)


# --------------------------------------------------------------------------- cv_split_roles / plot_cv_splits
def test_split_roles_of_kfold_by_hand():
    roles = cv_split_roles(KFold(n_splits=3), np.zeros((6, 1)))
    assert roles.tolist() == [[2, 2, 1, 1, 1, 1], [1, 1, 2, 2, 1, 1], [1, 1, 1, 1, 2, 2]]


def test_split_roles_mark_unused_samples():
    roles = cv_split_roles(ShuffleSplit(n_splits=4, test_size=2, train_size=5, random_state=0), np.zeros((10, 1)))
    assert roles.shape == (4, 10)
    assert ((roles == 2).sum(axis=1) == 2).all() and ((roles == 1).sum(axis=1) == 5).all()
    assert ((roles == 0).sum(axis=1) == 3).all()


@SETTINGS
@given(n=st.integers(2, 60), k=st.integers(2, 10), shuffle=st.booleans(), seed=st.integers(0, 1000))
def test_split_roles_agree_with_the_splitter(n, k, shuffle, seed):
    k = min(k, n)
    cv = KFold(n_splits=k, shuffle=shuffle, random_state=seed if shuffle else None)
    roles = cv_split_roles(cv, np.zeros((n, 1)))
    for row, (train, test) in zip(roles, cv.split(np.zeros((n, 1)))):
        assert np.array_equal(np.flatnonzero(row == 2), np.sort(test))
        assert np.array_equal(np.flatnonzero(row == 1), np.sort(train))
    assert ((roles == 2).sum(axis=0) == 1).all()  # k-fold tests every sample exactly once


def test_split_roles_pass_groups_only_to_splitters_that_use_them():
    X, groups = np.zeros((8, 1)), np.repeat([0, 1, 2, 3], 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # KFold warns when it is given groups
        roles = cv_split_roles(KFold(n_splits=2), X, groups=groups)
    assert roles.tolist() == [[2, 2, 2, 2, 1, 1, 1, 1], [1, 1, 1, 1, 2, 2, 2, 2]]
    grouped = cv_split_roles(GroupKFold(n_splits=4), X, groups=groups)
    for row in grouped:  # both rows of a group are always on the same side
        assert (row[::2] == row[1::2]).all()


class OverlappingSplitter:
    def split(self, X, y=None, groups=None):
        yield np.array([0, 1, 2]), np.array([2, 3])


@pytest.mark.parametrize("cv, X, kwargs, message", [
    (OverlappingSplitter(), np.zeros((4, 1)), {}, "split 1 puts a sample in both"),
    (5, np.zeros((4, 1)), {}, "must be a scikit-learn splitter"),
    (KFold(2), np.zeros((0, 1)), {}, "X is empty"),
    (KFold(2), np.zeros((4, 1)), {"y": [0, 1, 0]}, "X and y have different lengths: 4 and 3"),
    (KFold(2), np.zeros((4, 1)), {"groups": [0, 1]}, "X and groups have different lengths: 4 and 2"),
])
def test_split_roles_reject_bad_input(cv, X, kwargs, message):
    with pytest.raises(ValueError, match=message):
        cv_split_roles(cv, X, **kwargs)
    with pytest.raises(ValueError, match=message):
        plot_cv_splits(cv, X, **kwargs)


def image(ax) -> np.ndarray:
    return np.asarray(ax.images[0].get_array())


def test_plot_cv_splits_draws_the_roles_and_the_classes():
    X, y = np.zeros((6, 1)), np.array([0, 0, 0, 1, 1, 1])
    ax = plot_cv_splits(KFold(n_splits=3), X, y)
    pixels = image(ax)
    assert pixels.shape == (4, 6, 3)  # 3 splits + the class row
    test, train = to_rgb(SPLIT_COLOURS["test"]), to_rgb(SPLIT_COLOURS["train"])
    expected_test = [[0, 1], [2, 3], [4, 5]]
    for split, columns in enumerate(expected_test):
        for sample in range(6):
            assert np.allclose(pixels[split, sample], test if sample in columns else train)
    assert np.allclose(pixels[3, :3], to_rgb(CLASS_COLOURS[0]))
    assert np.allclose(pixels[3, 3:], to_rgb(CLASS_COLOURS[1]))
    assert [t.get_text() for t in ax.get_yticklabels()] == ["split 1", "split 2", "split 3", "class"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["train", "test", "class 0", "class 1"]
    assert ax.get_title() == "KFold: 3 splits"


def test_plot_cv_splits_shows_stratification_read_back_from_the_image():
    X, y = np.zeros((24, 1)), np.repeat([0, 1], [16, 8])
    test = to_rgb(SPLIT_COLOURS["test"])
    for cv, balanced in [(KFold(n_splits=4), False),
                         (StratifiedKFold(n_splits=4, shuffle=True, random_state=0), True)]:
        pixels = image(plot_cv_splits(cv, X, y))
        is_test = np.all(np.isclose(pixels[:4], test), axis=2)
        positives_per_test_fold = [int(y[row].sum()) for row in is_test]
        if balanced:
            assert positives_per_test_fold == [2, 2, 2, 2]
        else:  # consecutive blocks of sorted data: the first folds have no positive at all
            assert positives_per_test_fold == [0, 0, 2, 6]


def test_plot_cv_splits_marks_unused_samples_and_groups():
    X, y, groups = np.zeros((10, 1)), np.repeat([0, 1], 5), np.repeat(np.arange(5), 2)
    ax = plot_cv_splits(ShuffleSplit(n_splits=2, test_size=2, train_size=4, random_state=0), X, y, groups=groups,
                        title="custom")
    pixels = image(ax)
    assert pixels.shape == (4, 10, 3)  # 2 splits, class, group
    assert (np.all(np.isclose(pixels[:2], to_rgb(SPLIT_COLOURS["unused"])), axis=2).sum(axis=1) == 4).all()
    group_row = pixels[3]
    assert all(np.allclose(group_row[2 * g], group_row[2 * g + 1]) for g in range(5))
    assert not np.allclose(group_row[0], group_row[2])
    assert "unused" in [t.get_text() for t in ax.get_legend().get_texts()]
    assert ax.get_title() == "custom"
    assert [t.get_text() for t in ax.get_yticklabels()][-2:] == ["class", "group"]


def test_plot_cv_splits_uses_the_given_axes_and_can_skip_legend_and_classes():
    fig, ax = plt.subplots()
    out = plot_cv_splits(LeaveOneOut(), np.zeros((5, 1)), ax=ax, legend=False)
    assert out is ax and ax.get_legend() is None
    assert image(ax).shape == (5, 5, 3)  # no class row without y
    is_test = np.all(np.isclose(image(ax), to_rgb(SPLIT_COLOURS["test"])), axis=2)
    assert np.array_equal(is_test, np.eye(5, dtype=bool))  # leave-one-out tests sample i in split i


def test_plot_cv_splits_does_not_modify_its_inputs():
    X, y, groups = np.arange(8.0).reshape(-1, 1), np.array([1, 0] * 4), np.repeat([3, 1, 2, 0], 2)
    before = (X.copy(), y.copy(), groups.copy())
    plot_cv_splits(GroupKFold(n_splits=2), X, y, groups=groups)
    assert all(np.array_equal(a, b) for a, b in zip(before, (X, y, groups)))


# --------------------------------------------------------------------------- k slider
def state_from_scores(scores, fit_seconds=0.25, train_size=50.0):
    scores = np.asarray(scores, dtype=float)
    estimates = scores.mean(axis=1)
    return {"k": scores.shape[1], "n_repeats": scores.shape[0], "scores": scores, "estimates": estimates,
            "mean": float(estimates.mean()), "spread": float(estimates.std(ddof=1)),
            "fold_spread": float(scores.std(ddof=1)), "n_fits": scores.size, "train_size": train_size,
            "fit_seconds": fit_seconds}


def hand_state():
    # estimates 0.62, 0.60, 0.63: mean 0.61667, spread sqrt((0.0033^2 + 0.0167^2 + 0.0133^2) / 2) = 0.01528;
    # the six folds around 0.61667: sqrt(0.003333 / 5) = 0.02582
    return state_from_scores([[0.60, 0.64], [0.58, 0.62], [0.61, 0.65]])


def test_describe_cv_spread_state():
    assert describe_cv_spread_state(hand_state()) == (
        "k = 2 | 3 repeats x 2 folds = 6 fits, 50 training rows each | estimate 0.617, "
        "spread between repeats 0.015, spread of single folds 0.026 | fitting took 0.25 s")


def test_plot_cv_spread_draws_folds_estimates_and_band():
    state = hand_state()
    ax = plot_cv_spread(state, xlim=(0.5, 0.7))
    dots = [line for line in ax.lines if line.get_marker() == "o"]
    diamonds = [line for line in ax.lines if line.get_marker() == "D"]
    assert [list(line.get_xdata()) for line in dots] == state["scores"].tolist()
    assert [list(line.get_ydata()) for line in dots] == [[1, 1], [2, 2], [3, 3]]
    assert np.allclose(diamonds[0].get_xdata(), [0.62, 0.60, 0.63]) and list(diamonds[0].get_ydata()) == [1, 2, 3]
    mean_line = [line for line in ax.lines if line.get_marker() in ("None", "", None)][0]
    assert np.allclose(mean_line.get_xdata(), state["mean"])
    band = ax.patches[0]
    assert np.isclose(band.get_x(), state["mean"] - state["spread"])
    assert np.isclose(band.get_width(), 2 * state["spread"])
    assert ax.get_xlim() == (0.5, 0.7)
    assert ax.get_title() == "k = 2: 3 repeats of 2 folds"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "mean +/- spread (0.015)", "mean estimate (0.617)", "single fold", "repeat estimate"]


class FailingClassifier(LogisticRegression):
    """Raises if fitted: proves that a cached state was reused."""

    def fit(self, X, y):
        raise AssertionError("fit should not be called")


def test_explorer_reuses_given_states_without_modifying_them(small_data):
    X, y = small_data
    given_states = {(5, 5): state_from_scores(np.full((5, 5), 0.6))}
    before = dict(given_states)
    box = cv_spread_explorer(FailingClassifier(), X, y, ks=(2, 5), states=given_states)
    k_slider, repeats_slider = box.children[0].children
    assert "estimate 0.600, spread between repeats 0.000" in box.text.value
    assert box.image.value[:4] == b"\x89PNG", "the figure is drawn"
    assert box.state is given_states[(5, 5)]
    assert (k_slider.value, repeats_slider.value) == (5, 5)
    assert list(k_slider.options) == [2, 5]
    assert given_states == before


def test_explorer_computes_a_new_state_when_a_slider_moves(small_data):
    X, y = small_data
    box = cv_spread_explorer(LogisticRegression(), X, y, ks=(2, 5))
    k_slider, repeats_slider = box.children[0].children
    expected = cv_spread_state(LogisticRegression(), X, y, 2, 3)
    first_image = box.image.value
    k_slider.value, repeats_slider.value = 2, 3
    assert box.image.value != first_image, "the figure is redrawn"
    printed = box.text.value
    assert "k = 2 | 3 repeats x 2 folds = 6 fits" in printed
    assert f"estimate {expected['mean']:.3f}" in printed
