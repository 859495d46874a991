"""helpers.resampling (notebook 04): worked examples, imbalanced-learn on random data, bad input,
its figures and the SMOTE slider."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from imblearn.combine import SMOTETomek  # noqa: E402
from imblearn.over_sampling import ADASYN, SMOTE, SMOTENC, BorderlineSMOTE  # noqa: E402
from imblearn.under_sampling import TomekLinks  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from helpers.resampling_plots import plot_borderline, plot_sampler_scores, plot_smote, plot_tomek_links  # noqa: E402
from helpers.resampling import (adasyn_allocation, adasyn_counts, borderline_categories,  # noqa: E402
                                describe_smote_state, smote_by_hand, smote_per_sample_counts, smote_state,
                                smotenc_distance, tomek_links, toy_imbalanced)
from helpers.validation import as_2d_floats, check_label  # noqa: E402
from helpers.widgets import panel, smote_explorer  # noqa: E402

# Reproducible: the same examples on every run, nothing written to .hypothesis/.
PROPERTY = settings(deadline=None, derandomize=True, max_examples=30, database=None)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def random_data(seed, n, n_features, minority_share, shift, duplicates=False):
    """Imbalanced Gaussian data with a shifted minority class (at least 4 minority samples)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < minority_share).astype(int)
    y[:4] = 1
    y[4:8] = 0
    X = rng.normal(size=(n, n_features)) + shift * y[:, None]
    if duplicates:  # coarse values: many exact duplicates and distance ties
        X = np.round(X)
    return X, y


data_params = st.tuples(st.integers(0, 10_000), st.integers(30, 160), st.integers(1, 5),
                        st.floats(0.1, 0.4), st.floats(0.0, 2.5))


# --------------------------------------------------------------------------- SMOTE
def test_smote_points_lie_on_their_segments():
    X, y = toy_imbalanced(random_state=1)
    X_min = X[y == 1]
    X_new, base, neighbour, gap = smote_by_hand(X_min, 40, k_neighbors=3, random_state=0)
    assert X_new.shape == (40, 2) and base.shape == neighbour.shape == gap.shape == (40,)
    assert np.allclose(X_new, X_min[base] + gap[:, None] * (X_min[neighbour] - X_min[base]))
    assert ((gap >= 0) & (gap < 1)).all()
    assert (base != neighbour).all()
    # each neighbour is one of the 3 nearest other minority points of its base
    distances = np.linalg.norm(X_min[:, None] - X_min[None], axis=2)
    np.fill_diagonal(distances, np.inf)
    nearest3 = np.argsort(distances, axis=1)[:, :3]
    assert all(n in nearest3[b] for b, n in zip(base, neighbour))


def test_smote_interpolates_towards_the_neighbour_not_away():
    # two points: every synthetic point lies between them (the notes' sign would put it outside)
    X_new, base, neighbour, gap = smote_by_hand([[0.0, 0.0], [1.0, 2.0]], 20, k_neighbors=1, random_state=0)
    assert ((X_new[:, 0] >= 0) & (X_new[:, 0] <= 1)).all()
    assert np.allclose(X_new[:, 1], 2 * X_new[:, 0])


@PROPERTY
@given(data_params, st.integers(1, 6), st.integers(0, 1000), st.booleans())
def test_smote_by_hand_equals_imblearn(params, k, seed, duplicates):
    X, y = random_data(*params, duplicates=duplicates)
    X_min = X[y == 1]
    n_new = int((y == 0).sum() - (y == 1).sum())
    if k >= len(X_min) or n_new <= 0:
        return
    X_res, _ = SMOTE(k_neighbors=k, random_state=seed).fit_resample(X, y)
    X_new, base, neighbour, _ = smote_by_hand(X_min, n_new, k_neighbors=k, random_state=seed)
    assert np.allclose(X_new, X_res[len(X):])
    assert (base != neighbour).all(), "a sample is never its own neighbour, even with duplicates"


def test_smote_by_hand_leaves_its_input_alone_and_accepts_zero():
    X = np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 1.0]])
    copy = X.copy()
    X_new, base, neighbour, gap = smote_by_hand(X, 0, k_neighbors=2)
    assert X_new.shape == (0, 2) and base.size == neighbour.size == gap.size == 0
    smote_by_hand(X, 5, k_neighbors=2, random_state=0)
    assert np.array_equal(X, copy)


@pytest.mark.parametrize("kwargs, message", [
    ({"X_minority": [[0.0], [1.0], [2.0]], "n_new": 3, "k_neighbors": 3}, "k_neighbors=3 must be smaller"),
    ({"X_minority": [[0.0], [1.0], [2.0]], "n_new": -1}, "n_new must be at least 0"),
    ({"X_minority": [[0.0], [np.nan], [2.0]], "n_new": 1, "k_neighbors": 1}, "NaN"),
    ({"X_minority": [0.0, 1.0, 2.0], "n_new": 1, "k_neighbors": 1}, "two-dimensional"),
    ({"X_minority": [[0.0], [1.0]], "n_new": 1.5, "k_neighbors": 1}, "n_new must be an integer"),
    ({"X_minority": [[0.0], [1.0]], "n_new": 1, "k_neighbors": 0}, "k_neighbors must be at least 1"),
])
def test_smote_by_hand_rejects_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        smote_by_hand(**kwargs)


def test_paper_counts_balance_the_classes_and_spread_the_remainder():
    counts = smote_per_sample_counts(100, 30, random_state=0)
    assert counts.sum() == 70 and counts.size == 30
    assert sorted(set(counts)) == [2, 3] and (counts == 3).sum() == 10  # 70 = 30 x 2 + 10
    assert np.array_equal(smote_per_sample_counts(90, 30), np.full(30, 2))
    assert (smote_per_sample_counts(35, 30, random_state=1) == 1).sum() == 5  # N < 100 %: a random subset
    assert not np.array_equal(smote_per_sample_counts(100, 30, random_state=0),
                              smote_per_sample_counts(100, 30, random_state=1))


@pytest.mark.parametrize("args, message", [((10, 20), "must not exceed"), ((10, 0), "n_minority must be at least 1")])
def test_paper_counts_reject_bad_input(args, message):
    with pytest.raises(ValueError, match=message):
        smote_per_sample_counts(*args)


# --------------------------------------------------------------------------- Borderline-SMOTE
def test_borderline_categories_by_hand():
    # 1-D: minority at 0 among majority at 0.1 .. 0.3 (noise with m = 3), minority at 10, 10.1 with one
    # majority neighbour at 10.2 (danger: 1 or 2 of 3), minority 20, 20.1, 20.2, 20.3 (safe)
    X = np.array([[0.0], [0.1], [0.2], [0.3], [10.0], [10.1], [10.2], [20.0], [20.1], [20.2], [20.3]])
    y = np.array([1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1])
    categories = borderline_categories(X, y, minority_label=1, m_neighbors=3)
    assert list(categories) == ["noise", "danger", "danger", "safe", "safe", "safe", "safe"]


@PROPERTY
@given(data_params, st.integers(2, 12), st.booleans())
def test_danger_set_equals_borderline_smotes(params, m, duplicates):
    X, y = random_data(*params, duplicates=duplicates)
    if m >= len(y):
        return
    categories = borderline_categories(X, y, 1, m_neighbors=m)
    danger = np.flatnonzero(y == 1)[categories == "danger"]
    # a dict strategy makes the sampler look at class 1 even when it is not the smaller class
    sampler = BorderlineSMOTE(sampling_strategy={1: int((y == 1).sum()) + 1}, m_neighbors=m, k_neighbors=1,
                              random_state=0)
    sampler.fit_resample(X, y)
    assert set(danger) == set(sampler.in_danger_indices.get(1, []))
    assert set(categories) <= {"safe", "danger", "noise"}


def test_borderline_categories_accept_string_labels():
    X, y = random_data(0, 60, 2, 0.3, 1.0)
    labels = np.where(y == 1, "yes", "no")
    assert list(borderline_categories(X, labels, "yes", 5)) == list(borderline_categories(X, y, 1, 5))


@pytest.mark.parametrize("X, y, label, m, message", [
    ([[0.0], [1.0], [2.0]], [1, 0, 0], 2, 1, "minority_label=2 is not a label of y"),
    ([[0.0], [1.0], [2.0]], [1, 1, 1], 1, 1, "at least 2 classes"),
    ([[0.0], [1.0], [2.0]], [1, 0], 1, 1, "different numbers of samples"),
    ([[0.0], [1.0], [2.0]], [1, 0, 0], 1, 3, "m_neighbors=3 must be smaller"),
    ([[0.0], [np.inf], [2.0]], [1, 0, 0], 1, 1, "NaN or infinite"),
])
def test_borderline_categories_reject_bad_input(X, y, label, m, message):
    with pytest.raises(ValueError, match=message):
        borderline_categories(X, y, label, m)


# --------------------------------------------------------------------------- ADASYN
def test_adasyn_allocation_of_the_notes_example():
    # G = 7, r = 1/5, 2/5, 0: r-hat = 1/3, 2/3, 0 -> 2.33 -> 2 and 4.67 -> 5
    assert list(adasyn_allocation([1 / 5, 2 / 5, 0], 7)) == [2, 5, 0]


def test_adasyn_counts_by_hand_with_half_to_even_rounding():
    # k = 2. Minority 0.0, 0.1, 0.2: both neighbours minority (r = 0); 5.0 and 5.25: one of two is the
    # majority point 5.1 (r = 1/2); 9.0: both neighbours majority (r = 1). 13 majority, 6 minority: G = 7.
    X = np.array([[0.0], [0.1], [0.2], [5.0], [5.1], [5.25], [9.0], [9.1], [9.2]] + [[30.0 + i] for i in range(10)])
    y = np.array([1, 1, 1, 1, 0, 1, 1, 0, 0] + [0] * 10)
    # r-hat = 0, 0, 0, 1/4, 1/4, 1/2; times 7: 1.75, 1.75, 3.5 -> 2, 2, 4 (3.5 rounds to even): 8, not 7
    assert adasyn_counts(X, y, 1, n_neighbors=2).tolist() == [0, 0, 0, 2, 2, 4]
    X_res, _ = ADASYN(n_neighbors=2, random_state=0).fit_resample(X, y)
    assert len(X_res) - len(X) == 8


def _on_segment_from(new, base, candidates):
    """True when ``new`` lies on a segment from ``base`` towards one of the ``candidates``."""
    for other in candidates:
        direction = other - base
        if not direction.any():
            continue
        gap = np.dot(new - base, direction) / np.dot(direction, direction)
        if -1e-9 <= gap < 1 + 1e-9 and np.allclose(base + gap * direction, new):
            return True
    return np.allclose(new, base)


@PROPERTY
@given(data_params, st.integers(1, 8), st.booleans())
def test_adasyn_counts_equal_adasyns(params, k, duplicates):
    X, y = random_data(*params, duplicates=duplicates)
    if k >= len(y) or (y == 1).sum() >= (y == 0).sum():
        return
    try:
        X_res, _ = ADASYN(n_neighbors=k, random_state=0).fit_resample(X, y)
    except RuntimeError:  # no minority sample has a majority neighbour
        with pytest.raises(ValueError, match="every ratio is 0"):
            adasyn_counts(X, y, 1, n_neighbors=k)
        return
    except ValueError:  # every count rounds to 0
        assert adasyn_counts(X, y, 1, n_neighbors=k).sum() == 0
        return
    counts = adasyn_counts(X, y, 1, n_neighbors=k)
    assert counts.sum() == len(X_res) - len(X)
    # ADASYN makes counts[j] samples from minority sample j, in order: each lies on a segment from it
    X_min = X[y == 1]
    bases = np.repeat(np.arange(len(X_min)), counts)
    assert all(_on_segment_from(new, X_min[b], X_min) for new, b in zip(X_res[len(X):], bases))


@pytest.mark.parametrize("ratios, total, message", [
    ([0.0, 0.0], 5, "every ratio is 0"), ([0.5, 1.5], 5, "between 0 and 1"), ([0.5, np.nan], 5, "NaN"),
    ([0.5], -1, "n_total must be at least 0"),
])
def test_adasyn_allocation_rejects_bad_input(ratios, total, message):
    with pytest.raises(ValueError, match=message):
        adasyn_allocation(ratios, total)


def test_adasyn_counts_reject_bad_input():
    X, y = random_data(0, 40, 2, 0.3, 1.0)
    with pytest.raises(ValueError, match="the largest class"):
        adasyn_counts(X, y, 0)
    with pytest.raises(ValueError, match="beta must be >= 0"):
        adasyn_counts(X, y, 1, beta=-1.0)
    with pytest.raises(ValueError, match="n_neighbors=40 must be smaller"):
        adasyn_counts(X, y, 1, n_neighbors=40)


# --------------------------------------------------------------------------- Tomek links
def test_tomek_links_by_hand():
    X = np.array([[0.0], [1.0], [1.2], [5.0], [5.5], [9.0]])
    y = np.array([0, 0, 1, 1, 1, 0])
    # 1.0 and 1.2 are each other's nearest and differ: a link; 5.5's nearest is 5.0 (same class); 9.0 -> 5.5
    # but 5.5's nearest is 5.0: not mutual
    assert tomek_links(X, y).tolist() == [[1, 2]]


@PROPERTY
@given(data_params, st.booleans())
def test_tomek_links_equal_imblearns(params, duplicates):
    X, y = random_data(*params, duplicates=duplicates)
    links = tomek_links(X, y)
    assert (links[:, 0] < links[:, 1]).all() and (y[links[:, 0]] != y[links[:, 1]]).all()
    both = TomekLinks(sampling_strategy="all")
    both.fit_resample(X, y)
    assert sorted(set(range(len(y))) - set(both.sample_indices_)) == sorted(links.ravel().tolist())
    majority_only = TomekLinks()
    majority_only.fit_resample(X, y)
    removed = set(range(len(y))) - set(majority_only.sample_indices_)
    assert removed == {i for i in links.ravel() if y[i] == 0}


def test_smotetomek_removes_both_members_of_its_links():
    X, y = random_data(5, 120, 2, 0.25, 1.0)
    smote = SMOTE(random_state=0)
    X_s, y_s = smote.fit_resample(X, y)
    links = tomek_links(X_s, y_s)
    X_st, y_st = SMOTETomek(smote=SMOTE(random_state=0), random_state=0).fit_resample(X, y)
    assert len(X_st) == len(X_s) - links.size


def test_tomek_links_reject_one_class():
    with pytest.raises(ValueError, match="at least 2 classes"):
        tomek_links([[0.0], [1.0]], [1, 1])


# --------------------------------------------------------------------------- SMOTE-NC
def test_smotenc_distance_of_the_notes_example():
    d = smotenc_distance((1, 2, 3, "A", "B", "C"), (4, 6, 5, "A", "D", "E"), (0.5, 1, 1.3))
    assert d == pytest.approx(np.sqrt(31)) and round(d, 3) == 5.568
    assert smotenc_distance((1, 2, 3, "A", "B", "C"), (1, 2, 3, "A", "B", "C"), (0.5, 1, 1.3)) == 0
    assert smotenc_distance((0, "x"), (0, "y"), (2.0,)) == pytest.approx(2.0)  # one mismatch: the median


@PROPERTY
@given(st.integers(0, 10_000), st.integers(8, 25), st.integers(1, 3), st.integers(1, 2))
def test_smotenc_neighbours_follow_this_distance(seed, n_min, n_cont, n_cat):
    """With k_neighbors=1, every SMOTENC sample lies between a base and its nearest neighbour
    under smotenc_distance, and copies that neighbour's nominal values."""
    rng = np.random.default_rng(seed)
    n_maj = n_min + 10
    y = np.r_[np.ones(n_min, dtype=int), np.zeros(n_maj, dtype=int)]
    cont = rng.normal(size=(len(y), n_cont)) * rng.uniform(0.5, 3, n_cont)
    cat = rng.choice(list("abc"), size=(len(y), n_cat))
    X = np.empty((len(y), n_cont + n_cat), dtype=object)
    X[:, :n_cont], X[:, n_cont:] = cont, cat
    sampler = SMOTENC(categorical_features=list(range(n_cont, n_cont + n_cat)), k_neighbors=1, random_state=seed)
    X_res, _ = sampler.fit_resample(X, y)
    std = cont[:n_min].std(axis=0)
    assert sampler.median_std_[1] == pytest.approx(np.median(std))
    minority = [list(row) for row in X[:n_min]]
    nearest = []
    for i, row in enumerate(minority):
        d = [smotenc_distance(row, other, std) if j != i else np.inf for j, other in enumerate(minority)]
        nearest.append(int(np.argmin(d)))
        if sorted(d)[0] == pytest.approx(sorted(d)[1]):
            return  # a tie: either neighbour would be right
    for new in X_res[len(X):]:
        new_cont = new[:n_cont].astype(float)
        on_segment = []
        for i, j in enumerate(nearest):
            a, b = cont[i], cont[j]
            direction = b - a
            gap = np.dot(new_cont - a, direction) / np.dot(direction, direction) if direction.any() else 0.0
            close = np.allclose(a + gap * direction, new_cont) and -1e-9 <= gap < 1 + 1e-9
            on_segment.append(close and list(new[n_cont:]) == list(cat[j]))
        assert any(on_segment)


@pytest.mark.parametrize("a, b, std, message", [
    ((1, 2, "A"), (1, "A"), (1, 1), "different lengths"),
    ((1, "A"), (2, "A"), (1, 1, 1), "fewer than the 3 continuous"),
    ((1, "A"), (2, "A"), (-1,), "must not be negative"),
    ((np.nan, "A"), (2, "A"), (1,), "NaN"),
    ((1, "A"), (2, "A"), (np.nan,), "NaN"),
])
def test_smotenc_distance_rejects_bad_input(a, b, std, message):
    with pytest.raises(ValueError, match=message):
        smotenc_distance(a, b, std)


# --------------------------------------------------------------------------- shared checks
def test_new_validation_checks():
    X = np.array([[1, 2], [3, 4]])
    out = as_2d_floats(X)
    assert out.dtype == float and out is not X
    with pytest.raises(ValueError, match="two-dimensional"):
        as_2d_floats([1, 2])
    with pytest.raises(ValueError, match="must hold numbers"):
        as_2d_floats([["a"]])
    with pytest.raises(ValueError, match="X is empty"):
        as_2d_floats(np.empty((0, 2)))
    check_label(["a", "b"], "a")
    with pytest.raises(ValueError, match="minority_label='c' is not a label"):
        check_label(["a", "b"], "c")


# --------------------------------------------------------------------------- the SMOTE slider
def test_smote_state_equals_imblearn_with_a_float_strategy():
    X, y = toy_imbalanced(random_state=2)
    for k, ratio in [(1, 0.2), (5, 0.5), (10, 1.0)]:
        state = smote_state(X, y, k, ratio, random_state=7)
        X_res, y_res = SMOTE(sampling_strategy=ratio, k_neighbors=k, random_state=7).fit_resample(X, y)
        assert state["n_new"] == len(X_res) - len(X)
        assert np.allclose(state["X_new"], X_res[len(X):])
        assert state["per_base"].sum() == state["n_new"]


def test_describe_smote_state_prints_the_counts():
    X, y = toy_imbalanced(n_majority=150, n_minority=15)
    text = describe_smote_state(smote_state(X, y, 5, 0.5))
    assert "k_neighbors = 5 | ratio = 0.50" in text
    assert "minority 15 + 60 synthetic = 75 (majority 150, ratio after 0.500)" in text
    assert "<" not in text and "&" not in text  # shown inside an HTML <pre>


@pytest.mark.parametrize("k, ratio, message", [(5, 0.05, "increase the ratio"), (15, 0.5, "k_neighbors=15"),
                                               (5, -0.5, "ratio must be > 0")])
def test_smote_state_rejects_bad_input(k, ratio, message):
    X, y = toy_imbalanced()
    with pytest.raises(ValueError, match=message):
        smote_state(X, y, k, ratio)


def test_smote_state_returns_the_pieces_of_smote_by_hand():
    X, y = toy_imbalanced(n_majority=40, n_minority=8, random_state=3)
    state = smote_state(X, y, 3, 0.75, random_state=4)
    # 0.75 * 40 = 30 minority samples wanted, 8 present: 22 synthetic ones
    assert (state["n_majority"], state["n_minority"], state["n_new"]) == (40, 8, 22)
    assert state["k_neighbors"] == 3 and isinstance(state["k_neighbors"], int)
    assert state["ratio"] == 0.75 and isinstance(state["ratio"], float)
    assert np.array_equal(state["X_majority"], X[y == 0]) and np.array_equal(state["X_minority"], X[y == 1])
    X_new, base, neighbour, gap = smote_by_hand(X[y == 1], 22, 3, 4)
    for name, expected in [("X_new", X_new), ("base", base), ("neighbour", neighbour), ("gap", gap)]:
        assert np.array_equal(state[name], expected), name
    per_base = np.array([np.sum(base == i) for i in range(8)])
    assert np.array_equal(state["per_base"], per_base) and state["per_base"].size == 8
    assert state["unused_bases"] == np.sum(per_base == 0) and isinstance(state["unused_bases"], int)
    lengths = [np.sqrt(np.sum((X[y == 1][j] - X[y == 1][i]) ** 2)) for i, j in zip(base, neighbour)]
    assert state["mean_segment"] == pytest.approx(sum(lengths) / 22, rel=1e-12)


def test_smote_state_counts_a_base_sample_never_drawn():
    # 5 minority samples, 1 synthetic one: exactly 4 base samples are never drawn
    X, y = toy_imbalanced(n_majority=20, n_minority=5, random_state=0)
    state = smote_state(X, y, 2, 0.3)  # int(20 * 0.3 - 5) = 1
    assert state["n_new"] == 1 and state["unused_bases"] == 4
    assert state["per_base"].tolist().count(1) == 1 and state["per_base"].sum() == 1


def test_smote_state_uses_seed_0_and_label_1_by_default():
    X, y = toy_imbalanced(random_state=5)
    default = smote_state(X, y, 5, 0.5)
    assert np.array_equal(default["X_new"], smote_state(X, y, 5, 0.5, minority_label=1, random_state=0)["X_new"])
    assert not np.array_equal(default["X_new"], smote_state(X, y, 5, 0.5, random_state=1)["X_new"])


def test_smote_state_accepts_two_classes_of_equal_size():
    X, y = toy_imbalanced(n_majority=10, n_minority=10, random_state=1)
    state = smote_state(X, y, 3, 1.5)  # int(1.5 * 10 - 10) = 5
    assert (state["n_majority"], state["n_minority"], state["n_new"]) == (10, 10, 5)


def test_smote_state_messages_in_full():
    X, y = toy_imbalanced(n_majority=150, n_minority=15)
    # 0.1 * 150 = 15 minority samples: already there, no synthetic sample to make
    with pytest.raises(ValueError, match=r"^ratio=0\.10 asks for at most 15 minority samples, but there are "
                                         r"already 15: increase the ratio above 0\.10$"):
        smote_state(X, y, 5, 0.1)
    with pytest.raises(ValueError, match=r"^minority_label=0 is the larger class$"):
        smote_state(X, y, 5, 0.5, minority_label=0)
    with pytest.raises(ValueError, match=r"^the SMOTE slider needs two classes; y holds 3$"):
        smote_state(X, np.where(np.arange(y.size) < 50, 2, y), 5, 0.5)
    with pytest.raises(ValueError, match=r"^ratio must be > 0; got 0\.0$"):
        smote_state(X, y, 5, 0.0)


def test_smote_explorer_shows_the_state_and_follows_its_sliders():
    X, y = toy_imbalanced()
    explorer = smote_explorer(X, y)
    assert explorer.text.value == panel(describe_smote_state(smote_state(X, y, 5, 0.5)))
    first_image = explorer.image.value
    explorer.controls["k_neighbors"].value = 2
    explorer.controls["ratio"].value = 1.0
    assert explorer.text.value == panel(describe_smote_state(smote_state(X, y, 2, 1.0)))
    assert explorer.image.value != first_image
    assert explorer.controls["ratio"].options[0][1] == 0.2 and explorer.controls["k_neighbors"].options[-1][1] == 10


# --------------------------------------------------------------------------- figures
def test_plot_smote_draws_every_point_and_segment():
    X, y = toy_imbalanced()
    X_new, base, neighbour, _ = smote_by_hand(X[y == 1], 12, 3, random_state=0)
    ax = Figure().subplots()
    assert plot_smote(X, y, X_new, base, neighbour, ax=ax) is ax
    sizes = [len(c.get_offsets()) for c in ax.collections if hasattr(c, "get_offsets") and c.get_label() != ""
             and "segment" not in c.get_label()]
    assert sorted(sizes) == sorted([150, 15, 12])
    segments = [c for c in ax.collections if "segment" in c.get_label()]
    assert len(segments[0].get_segments()) == len(np.unique(np.column_stack([base, neighbour]), axis=0))
    with pytest.raises(ValueError, match="different lengths"):
        plot_smote(X, y, X_new, base[:3], neighbour, ax=Figure().subplots())


def test_plot_borderline_and_tomek_links():
    X, y = toy_imbalanced()
    categories = borderline_categories(X, y, 1, 5)
    ax = plot_borderline(X, y, categories, ax=Figure().subplots())
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(f"danger ({(categories == 'danger').sum()})" in label for label in labels)
    with pytest.raises(ValueError, match="one entry per minority sample"):
        plot_borderline(X, y, categories[:-1], ax=Figure().subplots())
    links = tomek_links(X, y)
    ax = plot_tomek_links(X, y, links, ax=Figure().subplots())
    assert any(f"Tomek link ({len(links)})" == t.get_text() for t in ax.get_legend().get_texts())


def test_plot_sampler_scores_places_each_sampler():
    index = pd.MultiIndex.from_product([["none", "SMOTE"], ["no", "yes"]])
    columns = pd.MultiIndex.from_product([["F1"], ["mean", "std"]])
    table = pd.DataFrame([[0.1, 0.01], [0.2, 0.02], [0.3, 0.03], [0.4, 0.04]], index=index, columns=columns)
    ax = plot_sampler_scores(table, "F1", ax=Figure().subplots())
    assert [t.get_text() for t in ax.get_yticklabels()] == ["none", "SMOTE"]
    means = [container.lines[0].get_xdata() for container in ax.containers]
    assert np.allclose(means, [[0.1, 0.3], [0.2, 0.4]])  # without weights, then with; one point per sampler


def test_no_helper_modifies_its_inputs():
    X, y = random_data(3, 80, 2, 0.3, 1.0)
    X_copy, y_copy = X.copy(), y.copy()
    borderline_categories(X, y, 1, 5)
    adasyn_counts(X, y, 1, 3)
    tomek_links(X, y)
    smote_state(X, y, 3, 1.0)
    ratios = np.array([0.2, 0.4, 0.0])
    adasyn_allocation(ratios, 7)
    std = np.array([0.5, 1.0, 1.3])
    smotenc_distance((1, 2, 3, "A"), (4, 6, 5, "B"), std)
    assert np.array_equal(X, X_copy) and np.array_equal(y, y_copy)
    assert np.array_equal(ratios, [0.2, 0.4, 0.0]) and np.array_equal(std, [0.5, 1.0, 1.3])


# --------------------------------------------------------------------------- gaps found by mutation testing
def _same(a, b) -> bool:
    return all(np.array_equal(x, z) for x, z in zip(a, b)) if isinstance(a, tuple) else np.array_equal(a, b)


def test_toy_imbalanced_is_exactly_the_documented_clouds():
    X, y = toy_imbalanced(20, 5, random_state=3)
    rng = np.random.RandomState(3)
    assert np.array_equal(X[:20], rng.normal(loc=(0.0, 0.0), scale=(1.0, 1.0), size=(20, 2)))
    assert np.array_equal(X[20:], rng.normal(loc=(1.6, 1.4), scale=(0.6, 0.5), size=(5, 2)))
    assert y.dtype.kind == "i" and y.tolist() == [0] * 20 + [1] * 5
    assert _same(toy_imbalanced(), toy_imbalanced(150, 15, random_state=0))  # the defaults
    assert toy_imbalanced(2, 2)[0].shape == (4, 2)  # the smallest classes allowed
    with pytest.raises(ValueError, match=r"^n_majority must be at least 2"):
        toy_imbalanced(1, 2)
    with pytest.raises(ValueError, match=r"^n_minority must be at least 2"):
        toy_imbalanced(2, 1)


def test_default_neighbour_counts_are_imbalanced_learns():
    X, y = toy_imbalanced()
    X_minority = X[y == 1]
    assert _same(smote_by_hand(X_minority, 10, random_state=0), smote_by_hand(X_minority, 10, 5, random_state=0))
    assert not _same(smote_by_hand(X_minority, 10, random_state=0), smote_by_hand(X_minority, 10, 6, random_state=0))
    assert np.array_equal(adasyn_counts(X, y, 1), adasyn_counts(X, y, 1, n_neighbors=5))
    assert not np.array_equal(adasyn_counts(X, y, 1), adasyn_counts(X, y, 1, n_neighbors=6))
    assert np.array_equal(borderline_categories(X, y, 1), borderline_categories(X, y, 1, m_neighbors=10))
    assert not np.array_equal(borderline_categories(X, y, 1), borderline_categories(X, y, 1, m_neighbors=11))


def test_resampling_messages_name_the_argument_and_what_is_missing():
    X, y = toy_imbalanced()
    cases = [
        (lambda: smote_by_hand([[np.nan, 1.0]] * 4, 3), r"^X_minority contains NaN"),
        (lambda: smote_by_hand(X[y == 1], 3, k_neighbors=15), r"number of minority samples \(15\)"),
        (lambda: adasyn_counts(X, y, 1, n_neighbors=165), r"number of samples \(165\)"),
        (lambda: borderline_categories(X, y, 1, m_neighbors=165), r"number of samples \(165\)"),
        (lambda: adasyn_allocation([np.nan], 3), r"^ratios contains NaN"),
        (lambda: adasyn_allocation([1.5], 3),
         r"^ratios must lie between 0 and 1 \(shares of a sample's neighbours\)$"),
        (lambda: adasyn_allocation([0.0, 0.0], 3),
         r"^every ratio is 0: no minority sample has a neighbour of another class, so ADASYN's normalisation "
         r"divides by zero \(use SMOTE instead\)$"),
        (lambda: smote_per_sample_counts(0, 1), r"^n_majority must be at least 1"),
        (lambda: smotenc_distance([1.0], [1.0], [np.nan]), r"^continuous_std contains NaN"),
        (lambda: smotenc_distance([1.0], [1.0], [-1.0]),
         r"^continuous_std must not be negative \(standard deviations\)$"),
        (lambda: smotenc_distance([1.0], [1.0], [1.0, 1.0]),
         r"^a and b have 1 values, fewer than the 2 continuous features continuous_std describes$"),
        (lambda: smotenc_distance(["x", "c"], [1.0, "c"], [1.0]), r"^a's continuous values"),
        (lambda: smotenc_distance([1.0, "c"], ["x", "c"], [1.0]), r"^b's continuous values"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=message):
            call()


def test_resampling_boundaries():
    # equal classes: nothing to generate, not an error
    assert smote_per_sample_counts(7, 7, random_state=0).tolist() == [0] * 7
    # the remainder goes to the samples random_state picks (5 of 10: 252 possible choices, for each seed)
    for seed in range(3):
        expected = np.full(10, 2)
        expected[np.random.RandomState(seed).choice(10, size=5, replace=False)] += 1
        assert np.array_equal(smote_per_sample_counts(35, 10, random_state=seed), expected)
    # a standard deviation of 0 is allowed; so are continuous features only
    assert smotenc_distance([1.0, "a"], [2.0, "b"], [0.0]) == 1.0
    assert smotenc_distance([1.0, 2.0], [1.0, 0.0], [1.0, 1.0]) == 2.0
    # Borderline-SMOTE: exactly half of the m neighbours of the other class is "danger" (m/2 <= n < m)
    X = np.array([[0.0, 0.0], [0.1, 0.0], [-0.15, 0.0], [5.0, 0.0], [5.1, 0.0], [5.2, 0.0]])
    y = np.array([1, 1, 0, 0, 0, 0])
    assert borderline_categories(X, y, 1, m_neighbors=2).tolist() == ["danger", "danger"]
    assert BorderlineSMOTE(m_neighbors=2, k_neighbors=1, random_state=0).fit_resample(X, y)[0].shape[0] > 6


def test_adasyn_beta_scales_the_total_and_mixed_labels_work():
    X, y = toy_imbalanced()
    full, half = adasyn_counts(X, y, 1).sum(), adasyn_counts(X, y, 1, beta=0.5).sum()
    assert abs(full - 135) <= 8 and abs(half - 67) <= 8  # G = (150 - 15) x beta, then rounding per sample
    mixed = np.array([0] * 150 + ["yes"] * 15, dtype=object)  # np.unique cannot sort 0 and "yes" together
    assert np.array_equal(adasyn_counts(X, mixed, "yes"), adasyn_counts(X, y, 1))


def test_smote_by_hand_equals_imblearn_with_many_neighbours_and_duplicates():
    # k + 1 > 16 neighbours per row: NumPy sorts such rows with an unstable sort unless told otherwise,
    # and the neighbours' order decides which one each synthetic sample uses
    rng = np.random.default_rng(0)
    X_min = np.repeat(rng.normal(size=(15, 2)), 2, axis=0)  # every point twice
    X = np.vstack([rng.normal(size=(60, 2)) + 3, X_min])
    y = np.r_[np.zeros(60, dtype=int), np.ones(30, dtype=int)]
    X_res, _ = SMOTE(k_neighbors=20, random_state=1).fit_resample(X, y)
    X_new, base, neighbour, _ = smote_by_hand(X_min, 30, k_neighbors=20, random_state=1)
    assert np.allclose(X_new, X_res[len(X):])
    assert (base != neighbour).all()


# --------------------------------------------------------------------------- synthetic_steps
def test_synthetic_steps_tell_interpolation_from_extrapolation():
    from helpers.resampling import synthetic_steps

    minority = np.array([[0.0, 0.0], [4.0, 0.0], [0.0, 3.0]])
    new = np.array([[1.0, 0.0],      # a quarter of the way from (0, 0) to (4, 0)
                    [0.0, 2.0],      # a third of the way from (0, 3) to (0, 0)
                    [-1.0, 0.0],     # beyond (0, 0), away from (4, 0): step -1/4
                    [4.8, -0.6]])    # beyond (4, 0), away from (0, 3): step -0.2 of the 5-long segment
    steps, residual = synthetic_steps(new, minority)
    assert np.allclose(steps, [0.25, 1 / 3, -0.25, -0.2])
    assert np.all(residual < 1e-12)
    assert synthetic_steps([[1.0, 1.0]], minority)[1][0] > 0.5  # (1, 1) lies on no segment's line


def test_synthetic_steps_recover_smote_by_hand_and_svmsmote_extrapolates():
    from imblearn.over_sampling import SVMSMOTE

    from helpers.resampling import smote_by_hand, synthetic_steps, toy_imbalanced

    X, y = toy_imbalanced(random_state=0)
    minority = X[y == 1]
    new, _, _, gap = smote_by_hand(minority, 40, k_neighbors=5, random_state=0)
    steps, residual = synthetic_steps(new, minority)
    assert np.all(residual < 1e-9)
    assert np.allclose(steps, np.minimum(gap, 1 - gap))
    X_res, _ = SVMSMOTE(random_state=0).fit_resample(X, y)
    svm_steps, svm_residual = synthetic_steps(X_res[len(X):], minority)
    assert np.all(svm_residual < 1e-9) and np.all(svm_steps >= -0.5)
    assert np.any(svm_steps < 0) and np.any(svm_steps > 0)
    with pytest.raises(ValueError, match="different numbers of features"):
        synthetic_steps([[1.0, 2.0, 3.0]], minority)
