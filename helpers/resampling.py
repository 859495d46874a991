"""Resampling by hand (notebook 04): teaching versions checked against imbalanced-learn.

- :func:`smote_by_hand`: SMOTE's interpolation, vectorised (one neighbour query);
- :func:`smote_per_sample_counts`: the original paper's per-sample counts;
- :func:`borderline_categories`: safe / danger / noise, as ``BorderlineSMOTE`` sees them;
- :func:`adasyn_allocation` and :func:`adasyn_counts`: ADASYN's density-adaptive counts;
- :func:`tomek_links`: pairs of mutual nearest neighbours of different classes;
- :func:`smotenc_distance`: SMOTE-NC's distance with the median-standard-deviation penalty;
- :func:`toy_imbalanced`, :func:`smote_state` and :func:`describe_smote_state`: the 2-D
  toy set and the SMOTE slider's pure function.

Each function follows imbalanced-learn 0.14.2 exactly where the library computes
the same thing (the tests compare them on random data). Bad input raises
``ValueError`` naming the problem; inputs are never modified.
"""

from __future__ import annotations

import numpy as np
from sklearn.neighbors import NearestNeighbors
from sklearn.utils import check_random_state

from helpers.validation import (as_2d_floats, check_int, check_label, check_real, check_X_y,
                                finite_floats)

CATEGORIES = ("safe", "danger", "noise")


# --------------------------------------------------------------------------- helpers
def _check_neighbours(k: int, n_available: int, name: str, what: str) -> int:
    """``k`` as an int in [1, n_available - 1]: a sample cannot be its own neighbour."""
    k = check_int(k, name, 1)
    if k >= n_available:
        raise ValueError(f"{name}={k} must be smaller than the number of {what} ({n_available}): "
                         f"each sample needs {k} neighbours other than itself")
    return k


def _neighbours_without_self(X_fit, X_query, query_indices, k: int) -> np.ndarray:
    """The ``k`` nearest neighbours in ``X_fit`` of each row of ``X_query``, the row itself excluded.

    ``query_indices[i]`` is the index of query row ``i`` in ``X_fit``. One
    ``k + 1``-neighbour query, as imbalanced-learn does; the sample's own index
    is then dropped wherever it appears (with duplicated points it need not
    come first), otherwise the farthest of the ``k + 1``.
    """
    found = NearestNeighbors(n_neighbors=k + 1).fit(X_fit).kneighbors(X_query, return_distance=False)
    is_self = found == np.asarray(query_indices)[:, None]
    order = np.argsort(is_self, axis=1, kind="stable")  # self (True) moves to the end
    return np.take_along_axis(found, order, axis=1)[:, :k]


def _minority(X, y, minority_label):
    X, y = check_X_y(X, y, min_classes=2)
    check_label(y, minority_label)
    return X, y, y == minority_label


# --------------------------------------------------------------------------- SMOTE
def smote_by_hand(X_minority, n_new: int, k_neighbors: int = 5, random_state=None):
    """``n_new`` synthetic samples interpolated between minority samples and their neighbours.

    Returns ``(X_new, base, neighbour, gap)``: synthetic sample ``i`` is
    ``X_minority[base[i]] + gap[i] * (X_minority[neighbour[i]] - X_minority[base[i]])``,
    on the segment from the base sample towards one of its ``k_neighbors``
    nearest minority neighbours, with ``gap`` in [0, 1).

    As in imbalanced-learn, each synthetic sample draws one (base, neighbour)
    pair uniformly among the ``n_minority * k_neighbors`` pairs and then its
    gap, from ``sklearn.utils.check_random_state(random_state)``: with the same
    integer ``random_state``, ``X_new`` equals the samples ``SMOTE`` appends.
    Vectorised: one neighbour query, no Python loop over samples.
    """
    X = as_2d_floats(X_minority, "X_minority")
    n_new = check_int(n_new, "n_new", 0)
    k = _check_neighbours(k_neighbors, X.shape[0], "k_neighbors", "minority samples")
    neighbours = _neighbours_without_self(X, X, np.arange(X.shape[0]), k)
    rng = check_random_state(random_state)
    pair = rng.randint(low=0, high=neighbours.size, size=n_new)
    gap = rng.uniform(size=n_new)
    base, column = np.divmod(pair, k)
    neighbour = neighbours[base, column]
    X_new = X[base] + gap[:, None] * (X[neighbour] - X[base])
    return X_new, base, neighbour, gap


def smote_per_sample_counts(n_majority: int, n_minority: int, random_state=None) -> np.ndarray:
    """Synthetic samples per minority sample in the notes' and the original paper's scheme.

    Every minority sample gets ``s = (n_majority - n_minority) / n_minority``
    synthetic samples: the whole part of ``s`` each, and one more for a random
    subset of ``(n_majority - n_minority) mod n_minority`` samples (the
    fractional part spread over the class), so the classes end up balanced.
    imbalanced-learn instead fixes the total and draws each base sample at random.
    """
    n_majority = check_int(n_majority, "n_majority", 1)
    n_minority = check_int(n_minority, "n_minority", 1)
    if n_minority > n_majority:
        raise ValueError(f"n_minority ({n_minority}) must not exceed n_majority ({n_majority})")
    whole, remainder = divmod(n_majority - n_minority, n_minority)
    counts = np.full(n_minority, whole, dtype=int)
    rng = check_random_state(random_state)
    counts[rng.choice(n_minority, size=remainder, replace=False)] += 1
    return counts


# --------------------------------------------------------------------------- Borderline-SMOTE
def synthetic_steps(X_new, X_minority) -> tuple[np.ndarray, np.ndarray]:
    """Where each synthetic point lies on the line through two minority samples: its step, and the fit.

    Every SMOTE-like sampler makes ``p + step * (p' - p)`` from a minority sample
    ``p`` and a minority neighbour ``p'``. For each row of ``X_new`` this finds
    the pair of distinct minority samples whose line passes closest to it and
    returns its ``step``: in [0, 1] for a point between the two (interpolation;
    which end is the base cannot be told, so the step is measured from the
    nearer end, at most 0.5), negative for a point beyond an end (extrapolation:
    minus its distance beyond that end, in units of the segment's length). The
    second array is each point's distance to that line, about 0 when the point
    was made this way.
    """
    X_new = as_2d_floats(X_new, "X_new")
    X_minority = as_2d_floats(X_minority, "X_minority")
    if X_new.shape[1] != X_minority.shape[1]:
        raise ValueError(f"X_new and X_minority have different numbers of features: {X_new.shape[1]} and "
                         f"{X_minority.shape[1]}")
    if X_minority.shape[0] < 2:
        raise ValueError("X_minority needs at least 2 samples to make a segment")
    first, second = np.triu_indices(X_minority.shape[0], k=1)
    a, direction = X_minority[first], X_minority[second] - X_minority[first]  # pairs x features
    length2 = np.einsum("ij,ij->i", direction, direction)
    keep = length2 > 0  # duplicated minority samples make no line
    a, direction, length2 = a[keep], direction[keep], length2[keep]
    offsets = X_new[:, None, :] - a[None, :, :]                                   # points x pairs x features
    t = np.einsum("ijk,jk->ij", offsets, direction) / length2                    # position along each line
    residual = np.linalg.norm(offsets - t[:, :, None] * direction[None, :, :], axis=2)
    best = np.argmin(residual, axis=1)
    rows = np.arange(X_new.shape[0])
    t_best = t[rows, best]
    steps = np.where(t_best < 0, t_best, np.where(t_best > 1, 1 - t_best, np.minimum(t_best, 1 - t_best)))
    return steps, residual[rows, best]


def borderline_categories(X, y, minority_label, m_neighbors: int = 10) -> np.ndarray:
    """"safe", "danger" or "noise" for each minority sample, in the order they appear in ``y``.

    Among a minority sample's ``m_neighbors`` nearest neighbours (any class,
    itself excluded), ``m'`` belong to another class: ``m' = m`` is noise,
    ``m/2 <= m' < m`` is danger, fewer is safe. Borderline-SMOTE generates
    samples from the danger set only; this is the set imbalanced-learn's
    ``BorderlineSMOTE(m_neighbors=m)`` stores in ``in_danger_indices``.
    """
    X, y, is_minority = _minority(X, y, minority_label)
    m = _check_neighbours(m_neighbors, X.shape[0], "m_neighbors", "samples")
    rows = np.flatnonzero(is_minority)
    # As imbalanced-learn does: drop the first neighbour found, the sample itself
    # (or, when the point is duplicated, a copy at distance 0).
    found = NearestNeighbors(n_neighbors=m + 1).fit(X).kneighbors(X[rows], return_distance=False)[:, 1:]
    n_other = np.count_nonzero(y[found] != minority_label, axis=1)
    categories = np.full(rows.size, "safe", dtype=object)
    categories[(n_other >= m / 2) & (n_other < m)] = "danger"
    categories[n_other == m] = "noise"
    return categories


# --------------------------------------------------------------------------- ADASYN
def adasyn_allocation(ratios, n_total: int) -> np.ndarray:
    """ADASYN's counts: ``G = n_total`` shared in proportion to the ratios, rounded.

    ``ratios[j]`` is the share of minority sample ``j``'s neighbours that belong
    to another class; normalised to sum to 1 and multiplied by ``G``, then
    rounded to the nearest integer (halves to even, ``numpy.rint``, as
    imbalanced-learn does), so the total may differ from ``G`` by a few.
    """
    ratios = finite_floats(ratios, "ratios")
    if (ratios < 0).any() or (ratios > 1).any():
        raise ValueError("ratios must lie between 0 and 1 (shares of a sample's neighbours)")
    if not ratios.sum():
        raise ValueError("every ratio is 0: no minority sample has a neighbour of another class, "
                         "so ADASYN's normalisation divides by zero (use SMOTE instead)")
    n_total = check_int(n_total, "n_total", 0)
    return np.rint(ratios / ratios.sum() * n_total).astype(int)


def adasyn_counts(X, y, minority_label, n_neighbors: int = 5, beta: float = 1.0) -> np.ndarray:
    """Synthetic samples ADASYN generates from each minority sample (order of ``y``).

    ``G = int((n_majority - n_minority) * beta)`` with ``n_majority`` the largest
    class; ``r_j`` = share of the ``n_neighbors`` nearest neighbours of minority
    sample ``j`` (all classes, itself excluded) that are not minority; then
    :func:`adasyn_allocation`. With ``beta = 1`` this equals
    ``ADASYN(n_neighbors=n_neighbors)``; other ``beta`` equal ADASYN with
    ``sampling_strategy={minority_label: n_minority + G}``.
    """
    X, y, is_minority = _minority(X, y, minority_label)
    k = _check_neighbours(n_neighbors, X.shape[0], "n_neighbors", "samples")
    beta = check_real(beta, "beta", 0.0)
    _, sizes = np.unique(y.astype(str) if y.dtype.kind == "O" else y, return_counts=True)
    n_minority = int(is_minority.sum())
    if n_minority == sizes.max():
        raise ValueError(f"minority_label={minority_label!r} is the largest class: nothing to generate")
    n_total = int((sizes.max() - n_minority) * beta)
    rows = np.flatnonzero(is_minority)
    found = NearestNeighbors(n_neighbors=k + 1).fit(X).kneighbors(X[rows], return_distance=False)[:, 1:]
    ratios = np.count_nonzero(y[found] != minority_label, axis=1) / k
    return adasyn_allocation(ratios, n_total)


# --------------------------------------------------------------------------- Tomek links
def tomek_links(X, y) -> np.ndarray:
    """Index pairs ``(i, j)``, ``i < j``, of Tomek links: mutual nearest neighbours of different classes.

    Returns an integer array of shape ``(n_links, 2)`` sorted by ``i``. The
    stand-alone ``TomekLinks`` removes the majority member of each pair (its
    default ``sampling_strategy='auto'``); inside ``SMOTETomek`` both members go.
    """
    X, y = check_X_y(X, y, min_classes=2)
    nearest = NearestNeighbors(n_neighbors=2).fit(X).kneighbors(X, return_distance=False)[:, 1]
    i = np.arange(X.shape[0])
    linked = (y[nearest] != y) & (nearest[nearest] == i) & (i < nearest)
    return np.column_stack([i[linked], nearest[linked]]).astype(int)


# --------------------------------------------------------------------------- SMOTE-NC
def smotenc_distance(a, b, continuous_std) -> float:
    """SMOTE-NC's distance between two mixed samples.

    The first ``len(continuous_std)`` values of ``a`` and ``b`` are continuous,
    the rest nominal. Euclidean over the continuous values, plus ``median(std)**2``
    for each nominal value that differs, where ``continuous_std`` are the minority
    class's standard deviations of the continuous features (imbalanced-learn
    uses the population standard deviation, ``ddof=0``).
    """
    std = finite_floats(continuous_std, "continuous_std")
    if (std < 0).any():
        raise ValueError("continuous_std must not be negative (standard deviations)")
    a, b = list(a), list(b)
    if len(a) != len(b):
        raise ValueError(f"a and b have different lengths: {len(a)} and {len(b)}")
    n_continuous = std.size
    if len(a) < n_continuous:
        raise ValueError(f"a and b have {len(a)} values, fewer than the {n_continuous} continuous "
                         "features continuous_std describes")
    a_cont = finite_floats(a[:n_continuous], "a's continuous values")
    b_cont = finite_floats(b[:n_continuous], "b's continuous values")
    mismatches = sum(x != z for x, z in zip(a[n_continuous:], b[n_continuous:]))
    return float(np.sqrt(np.sum((a_cont - b_cont) ** 2) + mismatches * np.median(std) ** 2))


# --------------------------------------------------------------------------- the SMOTE slider
def toy_imbalanced(n_majority: int = 150, n_minority: int = 15, random_state=0):
    """A 2-D imbalanced toy set: ``(X, y)`` with ``y = 1`` for the minority class.

    The majority class is a wide Gaussian cloud; the minority class a smaller
    cloud beside it, partly overlapping, so that some minority points sit among
    majority points (the cases Borderline-SMOTE and ADASYN care about).
    """
    n_majority = check_int(n_majority, "n_majority", 2)
    n_minority = check_int(n_minority, "n_minority", 2)
    rng = check_random_state(random_state)
    majority = rng.normal(loc=(0.0, 0.0), scale=(1.0, 1.0), size=(n_majority, 2))
    minority = rng.normal(loc=(1.6, 1.4), scale=(0.6, 0.5), size=(n_minority, 2))
    X = np.vstack([majority, minority])
    y = np.r_[np.zeros(n_majority, dtype=int), np.ones(n_minority, dtype=int)]
    return X, y


def smote_state(X, y, k_neighbors: int, ratio: float, minority_label=1, random_state=0) -> dict:
    """Every number the SMOTE slider shows, for one ``k_neighbors`` and sampling ratio.

    ``ratio`` is imbalanced-learn's float ``sampling_strategy``: the minority
    class is grown to ``int(ratio * n_majority)`` samples, so
    ``n_new = int(ratio * n_majority - n_minority)`` synthetic ones, made by
    :func:`smote_by_hand` (the same points as ``SMOTE(sampling_strategy=ratio,
    k_neighbors=k_neighbors, random_state=random_state)``).
    """
    X, y, is_minority = _minority(X, y, minority_label)
    n_labels = len(set(y.tolist()))
    if n_labels != 2:
        raise ValueError(f"the SMOTE slider needs two classes; y holds {n_labels}")
    ratio = check_real(ratio, "ratio", 0.0, strict=True)
    n_minority = int(is_minority.sum())
    n_majority = y.size - n_minority
    if n_minority > n_majority:
        raise ValueError(f"minority_label={minority_label!r} is the larger class")
    n_new = int(n_majority * ratio - n_minority)
    if n_new <= 0:
        raise ValueError(f"ratio={ratio:.2f} asks for at most {int(n_majority * ratio)} minority samples, "
                         f"but there are already {n_minority}: increase the ratio "
                         f"above {n_minority / n_majority:.2f}")
    X_minority = X[is_minority]
    X_new, base, neighbour, gap = smote_by_hand(X_minority, n_new, k_neighbors, random_state)
    per_base = np.bincount(base, minlength=n_minority)
    return {"k_neighbors": int(k_neighbors), "ratio": ratio, "n_majority": n_majority, "n_minority": n_minority,
            "n_new": n_new, "X_majority": X[~is_minority], "X_minority": X_minority, "X_new": X_new,
            "base": base, "neighbour": neighbour, "gap": gap, "per_base": per_base,
            "unused_bases": int(np.count_nonzero(per_base == 0)),
            "mean_segment": float(np.linalg.norm(X_minority[neighbour] - X_minority[base], axis=1).mean())}


def describe_smote_state(state: dict) -> str:
    """The SMOTE slider's text panel for a :func:`smote_state`."""
    after = state["n_minority"] + state["n_new"]
    return (f"k_neighbors = {state['k_neighbors']} | ratio = {state['ratio']:.2f}\n"
            f"minority {state['n_minority']} + {state['n_new']} synthetic = {after} "
            f"(majority {state['n_majority']}, ratio after {after / state['n_majority']:.3f})\n"
            f"synthetic points per base sample: at most {state['per_base'].max()}, "
            f"{state['unused_bases']} base samples never drawn\n"
            f"mean segment length {state['mean_segment']:.3f}")
