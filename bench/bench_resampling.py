"""smote_by_hand vs imbalanced-learn's SMOTE: 100,000 x 10 minority samples, the same number generated."""

import time

import numpy as np
from imblearn.over_sampling import SMOTE

from helpers.resampling import smote_by_hand

N_MINORITY, N_MAJORITY, N_FEATURES = 100_000, 200_000, 10


def best_of_interleaved(first, second, repeat: int = 3) -> tuple[float, float]:
    """Best time of each function, alternating them so both see the same machine load."""
    times = ([], [])
    for _ in range(repeat):
        for function, bucket in zip((first, second), times):
            start = time.perf_counter()
            function()
            bucket.append(time.perf_counter() - start)
    return min(times[0]), min(times[1])


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    X = rng.normal(size=(N_MINORITY + N_MAJORITY, N_FEATURES))
    y = np.r_[np.ones(N_MINORITY, dtype=int), np.zeros(N_MAJORITY, dtype=int)]
    X_minority = X[:N_MINORITY]
    n_new = N_MAJORITY - N_MINORITY
    # Same points: check once before timing.
    X_res, _ = SMOTE(random_state=0).fit_resample(X, y)
    assert np.allclose(smote_by_hand(X_minority, n_new, random_state=0)[0], X_res[len(X):])
    ours, theirs = best_of_interleaved(lambda: smote_by_hand(X_minority, n_new, random_state=0),
                                       lambda: SMOTE(random_state=0).fit_resample(X, y))
    print(f"  smote_by_hand ({N_MINORITY:,} x {N_FEATURES} minority, {n_new:,} new) {ours:8.2f} s")
    print(f"  imblearn SMOTE().fit_resample (same data, same output)      {theirs:8.2f} s")
    print(f"  ratio smote_by_hand / SMOTE                                  {ours / theirs:8.3f}  (target <= 1.5)")
