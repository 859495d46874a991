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
from sklearn.naive_bayes import GaussianNB  # noqa: E402

from helpers.cv import (bootstrap_oob_shares, corrected_resampled_ttest, cv_spread_state,  # noqa: E402
                        describe_cv_spread_state)
from helpers.cv_plots import CLASS_COLOURS, plot_cv_splits, plot_cv_spread  # noqa: E402
from helpers.style import SPLIT_COLOURS  # noqa: E402
from helpers.cv import cv_split_roles  # noqa: E402
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
    again = cv_spread_state(DummyClassifier(strategy="prior"), X, y, k=4, n_repeats=3)
    assert again.keys() == state.keys() and all(np.array_equal(again[key], state[key]) for key in state), \
        "the state is pure: nothing measured, the same inputs give the same state"


def test_spread_state_matches_repeated_cross_val_score(small_data):
    X, y = small_data
    model = GaussianNB()
    state = cv_spread_state(model, X, y, k=5, n_repeats=3, random_state=7)
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=3, random_state=7)
    expected = cross_val_score(model, X, y, cv=cv, scoring="roc_auc").reshape(3, 5)
    assert np.allclose(state["scores"], expected)
    assert np.allclose(state["estimates"], expected.mean(axis=1))
    assert math.isclose(state["mean"], expected.mean())
    assert math.isclose(state["spread"], expected.mean(axis=1).std(ddof=1))
    assert math.isclose(state["fold_spread"], expected.std(ddof=1))
    assert (state["k"], state["n_repeats"], state["n_fits"]) == (5, 3, 15)
    assert not hasattr(model, "classes_"), "the estimator passed in must stay unfitted"


@settings(deadline=None, derandomize=True, max_examples=8)
@given(k=st.integers(2, 6), n_repeats=st.integers(2, 4), seed=st.integers(0, 1000))
def test_spread_state_agrees_with_scikit_learn_for_any_k(small_data, k, n_repeats, seed):
    X, y = small_data
    state = cv_spread_state(GaussianNB(), X, y, k, n_repeats, random_state=seed)
    cv = RepeatedStratifiedKFold(n_splits=k, n_repeats=n_repeats, random_state=seed)
    expected = cross_val_score(GaussianNB(), X, y, cv=cv, scoring="roc_auc").reshape(n_repeats, k)
    assert np.allclose(state["scores"], expected)
    assert math.isclose(state["spread"], expected.mean(axis=1).std(ddof=1), abs_tol=1e-12)
    sizes = [len(train) for train, _ in cv.split(X, y)]
    assert math.isclose(state["train_size"], np.mean(sizes))


def test_spread_state_uses_the_scoring_and_is_reproducible(small_data):
    X, y = small_data
    first = cv_spread_state(GaussianNB(), X, y, k=4, n_repeats=2, scoring="accuracy", random_state=1)
    again = cv_spread_state(GaussianNB(), X, y, k=4, n_repeats=2, scoring="accuracy", random_state=1)
    assert np.array_equal(first["scores"], again["scores"])
    # accuracy on a test fold of 20 rows is a multiple of 1/20
    assert np.allclose(first["scores"] * 20, np.round(first["scores"] * 20))


def test_spread_state_does_not_modify_its_inputs(small_data):
    X, y = small_data
    X_before, y_before = X.copy(), y.copy()
    cv_spread_state(GaussianNB(), X, y, k=3, n_repeats=2)
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
        cv_spread_state(GaussianNB(), X, y, **kwargs)


def test_spread_state_rejects_bad_data(small_data):
    X, y = small_data
    with pytest.raises(ValueError, match="different lengths: 80 and 79"):
        cv_spread_state(GaussianNB(), X, y[:-1], k=3)
    with pytest.raises(ValueError, match="one-dimensional"):
        cv_spread_state(GaussianNB(), X, y.reshape(-1, 1), k=3)
    with pytest.raises(ValueError, match="at least two classes"):
        cv_spread_state(GaussianNB(), X, np.zeros(80), k=3)


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
def state_from_scores(scores, train_size=50.0):
    scores = np.asarray(scores, dtype=float)
    estimates = scores.mean(axis=1)
    return {"k": scores.shape[1], "n_repeats": scores.shape[0], "scores": scores, "estimates": estimates,
            "mean": float(estimates.mean()), "spread": float(estimates.std(ddof=1)),
            "fold_spread": float(scores.std(ddof=1)), "n_fits": scores.size, "train_size": train_size}


def hand_state():
    # estimates 0.62, 0.60, 0.63: mean 0.61667, spread sqrt((0.0033^2 + 0.0167^2 + 0.0133^2) / 2) = 0.01528;
    # the six folds around 0.61667: sqrt(0.003333 / 5) = 0.02582
    return state_from_scores([[0.60, 0.64], [0.58, 0.62], [0.61, 0.65]])


def test_describe_cv_spread_state():
    assert describe_cv_spread_state(hand_state()) == (
        "k = 2 | 3 repeats x 2 folds = 6 fits, 50 training rows each | estimate 0.617, "
        "SD between repeats 0.015, SD of single folds 0.026")


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
        "mean +/- SD between repeats (0.015)", "mean estimate (0.617)", "single fold", "repeat estimate"]


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
    assert "estimate 0.600, SD between repeats 0.000" in box.text.value
    assert box.image.value[:4] == b"\x89PNG", "the figure is drawn"
    assert box.state is given_states[(5, 5)]
    assert (k_slider.value, repeats_slider.value) == (5, 5)
    assert list(k_slider.options) == [2, 5]
    assert given_states == before


def test_explorer_computes_a_new_state_when_a_slider_moves(small_data):
    X, y = small_data
    box = cv_spread_explorer(GaussianNB(), X, y, ks=(2, 5))
    k_slider, repeats_slider = box.children[0].children
    expected = cv_spread_state(GaussianNB(), X, y, 2, 3)
    first_image = box.image.value
    k_slider.value, repeats_slider.value = 2, 3
    assert box.image.value != first_image, "the figure is redrawn"
    printed = box.text.value
    assert "k = 2 | 3 repeats x 2 folds = 6 fits" in printed
    assert f"estimate {expected['mean']:.3f}" in printed


# --------------------------------------------------------------------------- issue 7 helpers
from sklearn.base import clone  # noqa: E402
from sklearn.dummy import DummyRegressor  # noqa: E402
from sklearn.linear_model import LinearRegression  # noqa: E402
from sklearn.metrics import roc_auc_score  # noqa: E402
from sklearn.model_selection import TimeSeriesSplit, cross_validate  # noqa: E402

from helpers.cv import (bootstrap_632, describe_train_sizes, efron_632, estimates_over_datasets,  # noqa: E402
                        forecast_scores, pooled_and_averaged_auc)


def test_state_reports_the_range_of_training_sizes(small_data):
    X, y = small_data
    X81, y81 = np.vstack([X, X[:1]]), np.append(y, y[0])  # 81 rows: 2 folds of 40 and 41
    state = cv_spread_state(GaussianNB(), X81, y81, k=2, n_repeats=2)
    assert (state["train_size_min"], state["train_size_max"]) == (40, 41)
    assert isinstance(state["train_size_min"], int) and isinstance(state["train_size_max"], int)
    assert state["scoring"] == "roc_auc"
    assert describe_train_sizes(state) == "40 to 41 training rows"
    assert "40 to 41 training rows |" in describe_cv_spread_state(state)
    even = cv_spread_state(GaussianNB(), X, y, k=2, n_repeats=2, scoring="accuracy")
    assert describe_train_sizes(even) == "40 training rows each" and even["scoring"] == "accuracy"


def test_describe_train_sizes_falls_back_to_the_mean():
    assert describe_train_sizes({"train_size": 59.6}) == "60 training rows each"


def test_spread_state_accepts_k_equal_to_the_smallest_class():
    X = np.arange(20, dtype=float).reshape(-1, 1)
    y = np.repeat([0, 1], [15, 5])
    state = cv_spread_state(DummyClassifier(), X, y, k=5, n_repeats=2, scoring="accuracy")
    assert state["n_fits"] == 10
    with pytest.raises(ValueError, match="k=6 is larger than the smallest class"):
        cv_spread_state(DummyClassifier(), X, y, k=6, n_repeats=2)


def test_spread_state_uses_five_repeats_by_default(small_data):
    X, y = small_data
    state = cv_spread_state(DummyClassifier(), X, y, k=2, scoring="accuracy")
    assert state["n_repeats"] == 5 and state["scores"].shape == (5, 2) and state["n_fits"] == 10


def test_spread_state_shuffles_with_seed_0_by_default(small_data):
    X, y = small_data
    default = cv_spread_state(GaussianNB(), X, y, k=3, n_repeats=2)
    seeded = cv_spread_state(GaussianNB(), X, y, k=3, n_repeats=2, random_state=0)
    other = cv_spread_state(GaussianNB(), X, y, k=3, n_repeats=2, random_state=1)
    assert np.array_equal(default["scores"], seeded["scores"])
    assert not np.array_equal(default["scores"], other["scores"]), "seed 1 must shuffle differently"


def test_bootstrap_oob_shares_defaults_to_1000_rounds():
    shares = bootstrap_oob_shares(7, random_state=0)
    assert shares.shape == (1000,)
    assert np.array_equal(shares, bootstrap_oob_shares(7, 1000, 0))


def test_efron_632_mixes_resubstitution_and_out_of_bag():
    assert efron_632(1.0, 0.5) == pytest.approx(0.368 + 0.632 * 0.5, abs=1e-15)
    assert efron_632(0.0, 1.0) == pytest.approx(0.632, abs=1e-15)
    assert efron_632(0.8, 0.8) == pytest.approx(0.8, abs=1e-15)
    for bad in (np.nan, "0.5", True, None):
        with pytest.raises(ValueError, match="resubstitution must be a finite number"):
            efron_632(bad, 0.5)
        with pytest.raises(ValueError, match="out_of_bag must be a finite number"):
            efron_632(0.5, bad)


def replay_bootstrap(estimator, X, y, n_rounds, seed):
    """bootstrap_632 written again, loop for loop, with the same random draws."""
    rng = np.random.default_rng(seed)
    n, scores, distinct = len(y), [], []
    while len(scores) < n_rounds:
        drawn = rng.integers(0, n, n)
        oob = np.setdiff1d(np.arange(n), drawn)
        if len(set(y[oob])) < 2 or len(set(y[drawn])) < 2:
            continue
        model = clone(estimator).fit(X[drawn], y[drawn])
        scores.append(roc_auc_score(y[oob], model.predict_proba(X[oob])[:, 1]))
        distinct.append(np.unique(drawn).size / n)
    full = clone(estimator).fit(X, y)
    return np.array(scores), roc_auc_score(y, full.predict_proba(X)[:, 1]), float(np.mean(distinct))


def test_bootstrap_632_equals_a_replay(small_data):
    X, y = small_data
    result = bootstrap_632(GaussianNB(), X, y, n_rounds=4, random_state=5)
    scores, resubstitution, distinct = replay_bootstrap(GaussianNB(), X, y, 4, 5)
    assert np.allclose(result["oob_scores"], scores, rtol=0, atol=1e-12)
    assert result["oob"] == pytest.approx(scores.mean(), abs=1e-12)
    assert result["resubstitution"] == pytest.approx(resubstitution, abs=1e-12)
    assert result["estimate_632"] == pytest.approx(0.368 * resubstitution + 0.632 * scores.mean(), abs=1e-12)
    assert result["distinct_share"] == pytest.approx(distinct, abs=1e-12)
    assert result["n_rounds"] == 4


def test_bootstrap_632_redraws_single_class_rounds_and_defaults_to_50():
    X = np.arange(12, dtype=float).reshape(-1, 1)
    y = np.array([0] * 10 + [1] * 2)  # two positives: many out-of-bag sets have none
    result = bootstrap_632(DummyClassifier(strategy="prior"), X, y, random_state=0)
    assert result["oob_scores"].shape == (50,)
    assert np.all(result["oob_scores"] == 0.5)  # a constant score ranks nothing; every round was scorable
    assert result["resubstitution"] == 0.5


def test_bootstrap_632_validates(small_data):
    X, y = small_data
    with pytest.raises(ValueError, match="n_rounds must be at least 1"):
        bootstrap_632(GaussianNB(), X, y, n_rounds=0)
    with pytest.raises(ValueError, match="y needs at least two classes"):
        bootstrap_632(GaussianNB(), X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="X and y have different lengths: 80 and 79"):
        bootstrap_632(GaussianNB(), X, y[:-1])
    with pytest.raises(ValueError, match="y must be one-dimensional"):
        bootstrap_632(GaussianNB(), X, y.reshape(-1, 1))


def test_estimates_over_datasets_equals_cross_validation_on_each_part(small_data):
    X, y = small_data
    table = estimates_over_datasets(GaussianNB(), X, y, ks=(2, 4), n_datasets=2, random_state=3)
    assert list(table.columns) == [2, 4] and list(table.index) == [1, 2]
    parts = [part for _, part in StratifiedKFold(2, shuffle=True, random_state=3).split(X, y)]
    for row, part in zip(table.index, parts):
        for k in (2, 4):
            expected = cross_val_score(GaussianNB(), X[part], y[part], scoring="roc_auc",
                                       cv=StratifiedKFold(k, shuffle=True, random_state=3)).mean()
            assert table.loc[row, k] == pytest.approx(expected, abs=1e-12)


def test_estimates_over_datasets_defaults():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 2))
    y = np.tile([0, 1], 200)
    table = estimates_over_datasets(DummyClassifier(), X, y)  # ks 2, 5, 10 on 8 parts, ROC AUC
    assert table.shape == (8, 3) and list(table.columns) == [2, 5, 10]
    assert np.all(table.to_numpy() == 0.5)


@pytest.mark.parametrize("kwargs, message", [
    ({"n_datasets": 1}, "n_datasets must be at least 2"),
    ({"n_datasets": 41}, "n_datasets=41 is larger than the smallest class"),
    ({"ks": (2, 21), "n_datasets": 2}, "k=21 is larger than the smallest class of a data set"),
    ({"ks": ()}, "ks is empty"),
    ({"ks": (1,)}, "k must be at least 2"),
])
def test_estimates_over_datasets_validates(small_data, kwargs, message):
    X, y = small_data
    with pytest.raises(ValueError, match=message):
        estimates_over_datasets(GaussianNB(), X, y, **kwargs)


def test_estimates_over_datasets_accepts_a_k_equal_to_a_part_smallest_class(small_data):
    X, y = small_data  # 40 per class: 2 parts of 20 per class
    table = estimates_over_datasets(DummyClassifier(), X, y, ks=(20,), n_datasets=2)
    assert table.shape == (2, 1)
    with pytest.raises(ValueError, match="y needs at least two classes"):
        estimates_over_datasets(DummyClassifier(), X, np.zeros(len(y)))


def test_pooled_and_averaged_auc_by_hand():
    # fold 1: scores order its pairs perfectly (AUC 1); fold 2: backwards (AUC 0)
    y = np.array([0, 1, 0, 1])
    s = np.array([0.1, 0.2, 0.9, 0.8])
    fold = np.array([1, 1, 2, 2])
    result = pooled_and_averaged_auc(y, s, fold)
    assert result["averaged"] == 0.5 and list(result["per_fold"]) == [1.0, 0.0]
    # pooled: positive 0.2 beats negative 0.1 only; 0.8 beats 0.1 only: 2 of 4 pairs
    assert result["pooled"] == 0.5
    # two folds that each rank perfectly; pooling mixes their scales
    right = np.array([0.1, 0.2, 0.3, 0.4])
    both = pooled_and_averaged_auc(y, right, fold)
    assert both["averaged"] == 1.0 and both["pooled"] == 0.75  # 0.2 < 0.3: one pair of four out of order
    shifted = pooled_and_averaged_auc(y, right - np.array([0, 0, 0.25, 0.25]), fold)
    assert shifted["averaged"] == 1.0 and shifted["pooled"] == 1.0  # same ranking per fold, aligned scales


def test_pooled_and_averaged_auc_validates():
    with pytest.raises(ValueError, match="fold 2 holds a single class"):
        pooled_and_averaged_auc([0, 1, 1, 1], [0.1, 0.2, 0.3, 0.4], [1, 1, 2, 2])
    with pytest.raises(ValueError, match="fold 2 holds a single class"):
        pooled_and_averaged_auc([0, 1, 0, 0], [0.1, 0.2, 0.3, 0.4], [1, 1, 2, 2])
    with pytest.raises(ValueError, match="fold must give one fold per score: 3 and 4"):
        pooled_and_averaged_auc([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], [1, 1, 2])


def test_forecast_scores_by_hand():
    y = np.array([1.0, 2.0, 4.0, 8.0, 6.0, 5.0])
    X = np.arange(6).reshape(-1, 1)
    table = forecast_scores(DummyRegressor(), X, y, TimeSeriesSplit(n_splits=2, test_size=2))
    # split 1: train y[:2] = 1, 2 (mean 1.5, last 2); test 4, 8
    assert table.loc[1, "last value"] == pytest.approx(((4 - 2) ** 2 + (8 - 2) ** 2) / 2)
    assert table.loc[1, "past mean"] == pytest.approx(((4 - 1.5) ** 2 + (8 - 1.5) ** 2) / 2)
    assert table.loc[1, "model"] == table.loc[1, "past mean"]  # the dummy predicts the past mean
    # split 2: train 1, 2, 4, 8 (mean 3.75, last 8); test 6, 5
    assert table.loc[2, "last value"] == pytest.approx(((6 - 8) ** 2 + (5 - 8) ** 2) / 2)
    assert table.loc[2, "skill vs last value"] == pytest.approx(
        1 - table.loc[2, "model"] / table.loc[2, "last value"])
    assert list(table.columns) == ["model", "last value", "past mean", "skill vs last value"]


def test_forecast_scores_skill_is_nan_when_the_last_value_is_perfect():
    y = np.array([1.0, 3.0, 3.0, 3.0, 3.0, 3.0])
    table = forecast_scores(LinearRegression(), np.arange(6).reshape(-1, 1), y,
                            TimeSeriesSplit(n_splits=2, test_size=2))
    assert table.loc[2, "last value"] == 0 and math.isnan(table.loc[2, "skill vs last value"])
    assert table.loc[1, "last value"] == 0 and math.isnan(table.loc[1, "skill vs last value"])


def test_forecast_scores_validates():
    X = np.arange(10).reshape(-1, 1)
    with pytest.raises(ValueError, match="cv must test on rows after its training rows"):
        forecast_scores(LinearRegression(), X, np.arange(10.0), KFold(n_splits=2))
    with pytest.raises(ValueError, match="X and y have different lengths: 10 and 9"):
        forecast_scores(LinearRegression(), X, np.arange(9.0), TimeSeriesSplit(n_splits=2))
    with pytest.raises(ValueError, match="y contains infinite values"):
        forecast_scores(LinearRegression(), X, np.r_[np.arange(9.0), np.inf], TimeSeriesSplit(n_splits=2))


def test_plot_cv_spread_names_the_score_and_outlines_the_band():
    state = {**hand_state(), "scoring": "roc_auc"}
    ax = plot_cv_spread(state)
    assert ax.get_xlabel() == "ROC AUC"
    band = ax.patches[0]
    assert band.get_linewidth() >= 1 and band.get_edgecolor()[3] == 1  # an opaque outline
    assert plot_cv_spread({**hand_state(), "scoring": "neg_log_loss"}).get_xlabel() == "neg_log_loss"
    assert plot_cv_spread(hand_state()).get_xlabel() == "score"


@pytest.mark.parametrize("args, kwargs, message", [
    (([0.1, 0.2], [0.2, np.nan]), {}, "^scores_b contains NaN or an infinite score; every fold score must be a finite number$"),
    (([0.1, 0.2], [[0.2, 0.3]]), {}, r"^scores_b must be one-dimensional; got shape \(1, 2\)$"),
    (([0.1, 0.2], [0.0, 0.1]), {}, "^the paired differences are all equal \\(zero variance\\): the t statistic is undefined$"),
    (([0.1, 0.3], [0.2, 0.2]), {"n_test": 0}, "^n_test must be at least 1; got 0$"),
])
def test_corrected_ttest_messages_name_the_argument(args, kwargs, message):
    arguments = {"n_train": 8, "n_test": 2, **kwargs}
    with pytest.raises(ValueError, match=message):
        corrected_resampled_ttest(*args, **arguments)


def test_corrected_ttest_accepts_boolean_paired_outcomes():
    # per-sample correctness of two classifiers, True = right: the differences are 1, 0, 0, -1, 1
    a = [True, True, False, False, True]
    b = [False, True, False, True, False]
    result = corrected_resampled_ttest(a, b, n_train=80, n_test=20)
    d = np.array([1, 0, 0, -1, 1], dtype=float)
    assert result.mean_difference == pytest.approx(d.mean()) and result.std_difference == pytest.approx(d.std(ddof=1))
    swapped = corrected_resampled_ttest(b, a, n_train=80, n_test=20)
    assert swapped.t == pytest.approx(-result.t)


@pytest.mark.parametrize("a, b, message", [
    ([0.8, None, 0.7], [0.7, 0.6, 0.6], "^scores_a contains NaN or an infinite score"),
    ([0.8, 0.7, 0.7], [0.7, 0.6, None], "^scores_b contains NaN or an infinite score"),
])
def test_corrected_ttest_reads_a_missing_score_as_nan_and_names_the_array(a, b, message):
    # None becomes NaN in a float array: a clear ValueError, not a TypeError from an object array
    with pytest.raises(ValueError, match=message):
        corrected_resampled_ttest(a, b, n_train=80, n_test=20)


class _Splits:
    """A splitter that yields fixed (train, test) pairs."""

    def __init__(self, *pairs):
        self.pairs = [(np.array(train), np.array(test)) for train, test in pairs]

    def split(self, X, y=None, groups=None):
        yield from self.pairs


def test_forecast_scores_refuses_a_test_block_that_starts_inside_the_training_rows():
    X, y = np.arange(6).reshape(-1, 1), np.arange(6.0)
    with pytest.raises(ValueError, match=r"^cv must test on rows after its training rows \(a forward split such as "
                                         r"TimeSeriesSplit\)$"):
        forecast_scores(LinearRegression(), X, y, _Splits(([0, 1, 2], [2, 3])))
    table = forecast_scores(LinearRegression(), X, y, _Splits(([0, 1, 2], [3, 4])))  # starts right after: fine
    assert table.index.name == "split" and list(table.index) == [1]


def test_pooled_and_averaged_auc_names_the_lengths_even_for_a_scalar_fold():
    with pytest.raises(ValueError, match=r"^fold must give one fold per score: 0 and 4$"):
        pooled_and_averaged_auc([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], 1)


def test_bootstrap_632_message_in_full(small_data):
    X, y = small_data
    with pytest.raises(ValueError, match="^y needs at least two classes$"):
        bootstrap_632(GaussianNB(), X, np.ones(len(y)))


def test_estimates_over_datasets_names_its_axes_and_defaults_to_seed_0(small_data):
    X, y = small_data
    default = estimates_over_datasets(GaussianNB(), X, y, ks=(2, 4), n_datasets=2)
    assert default.index.name == "data set" and default.columns.name == "k"
    seeded = estimates_over_datasets(GaussianNB(), X, y, ks=(2, 4), n_datasets=2, random_state=0)
    assert default.equals(seeded)
    other = estimates_over_datasets(GaussianNB(), X, y, ks=(2, 4), n_datasets=2, random_state=1)
    assert not default.equals(other)


@pytest.mark.parametrize("kwargs, y_kind, message", [
    ({"ks": ()}, "both", "^ks is empty; give at least one number of folds$"),
    ({}, "one", "^y needs at least two classes$"),
    # 40 data sets for 40 samples per class are allowed, but then each holds one sample per class
    ({"n_datasets": 40}, "both", "^k=10 is larger than the smallest class of a data set \\(1 samples\\)$"),
    ({"n_datasets": 41}, "both", "^n_datasets=41 is larger than the smallest class \\(40 samples\\)$"),
])
def test_estimates_over_datasets_messages_in_full(small_data, kwargs, y_kind, message):
    X, y = small_data
    with pytest.raises(ValueError, match=message):
        estimates_over_datasets(GaussianNB(), X, y if y_kind == "both" else np.zeros(len(y)), **kwargs)


def test_describe_train_sizes_uses_the_smallest_and_largest():
    assert describe_train_sizes({"train_size": 40.5, "train_size_min": 39, "train_size_max": 42}) == \
        "39 to 42 training rows"


def test_data_frames_keep_their_column_names(small_data):
    import pandas as pd
    from sklearn.compose import make_column_transformer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    X, y = small_data
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    by_name = make_pipeline(make_column_transformer((StandardScaler(), ["a", "c"])), GaussianNB())
    table = estimates_over_datasets(by_name, frame, y, ks=(2,), n_datasets=2)
    assert table.shape == (1 * 2, 1)
    on_array = estimates_over_datasets(make_pipeline(StandardScaler(), GaussianNB()), X[:, [0, 2]], y,
                                       ks=(2,), n_datasets=2)
    assert np.allclose(table.to_numpy(), on_array.to_numpy())
    boot = bootstrap_632(by_name, frame, y, n_rounds=2, random_state=0)
    assert boot["oob_scores"].shape == (2,)


def test_rank_scorer_gives_scikit_learns_roc_auc():
    from sklearn.metrics import get_scorer
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    from helpers.cv import rank_scorer

    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 3))
    y = np.where(X[:, 0] + rng.normal(scale=1.5, size=120) > 0, "yes", "no")   # words: "yes" is classes_[1]
    reference = get_scorer("roc_auc")
    for model in (LogisticRegression(), GaussianNB(), DecisionTreeClassifier(max_depth=2, random_state=0)):
        fitted = model.fit(X[:80], y[:80])    # a shallow tree: many tied scores
        expected = reference(fitted, X[80:], y[80:])
        assert rank_scorer("roc_auc")(fitted, X[80:], y[80:]) == pytest.approx(expected, abs=1e-12)
    # flipping which class is positive would give 1 - AUC: the scorer must use classes_[1]
    fitted = LogisticRegression().fit(X[:80], y[:80])
    assert rank_scorer("roc_auc")(fitted, X[80:], y[80:]) > 0.6
    # other scorings and more than two classes are scikit-learn's own
    assert rank_scorer("accuracy") is not None and rank_scorer("accuracy")(fitted, X[80:], y[80:]) == \
        pytest.approx(get_scorer("accuracy")(fitted, X[80:], y[80:]))
    y3 = np.array([0, 1, 2] * 40)
    three = LogisticRegression().fit(X, y3)
    with pytest.raises(ValueError):   # scikit-learn's binary roc_auc refuses three classes; so must this
        rank_scorer("roc_auc")(three, X, y3)


@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
def test_corrected_ttest_refuses_an_infinite_or_missing_score_before_any_numpy_warning(bad):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="scores_b contains NaN or an infinite score"):
            corrected_resampled_ttest([0.8, 0.7, 0.9], [0.7, bad, 0.7], n_train=8, n_test=2)


def test_seeded_target_encoder_uses_seeded_stratified_folds():
    from sklearn.model_selection import StratifiedKFold
    from sklearn.preprocessing import TargetEncoder
    from helpers.cv import seeded_target_encoder

    rng = np.random.default_rng(1)
    X, y = rng.integers(0, 12, 90).reshape(-1, 1), rng.integers(0, 2, 90)
    ours = seeded_target_encoder(n_splits=3, random_state=5).fit_transform(X, y)
    theirs = TargetEncoder(cv=StratifiedKFold(n_splits=3, shuffle=True, random_state=5)).fit_transform(X, y)
    other_seed = seeded_target_encoder(n_splits=3, random_state=6).fit_transform(X, y)
    assert np.array_equal(ours, theirs) and not np.array_equal(ours, other_seed)
    for bad in ({"n_splits": 1}, {"n_splits": 2.5}, {"random_state": -1}, {"random_state": None}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            seeded_target_encoder(**bad)
