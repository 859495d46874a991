"""roc_table vs roc_curve on 1,000,000 scores; the threshold slider's latency on 10,000 scores."""

import statistics
import time

import matplotlib

matplotlib.use("Agg")  # no display: the slider renders its PNG off screen

import numpy as np  # noqa: E402
from sklearn.metrics import roc_curve  # noqa: E402

from helpers.roc import roc_table  # noqa: E402
from helpers.roc import threshold_state  # noqa: E402
from helpers.widgets import ThresholdExplorer  # noqa: E402


def best_of_interleaved(first, second, repeat: int = 5) -> tuple[float, float]:
    """Best time of each function, alternating them so both see the same machine load."""
    times = ([], [])
    for _ in range(repeat):
        for function, bucket in zip((first, second), times):
            start = time.perf_counter()
            function()
            bucket.append(time.perf_counter() - start)
    return min(times[0]), min(times[1])


def median_ms(function, arguments) -> float:
    times = []
    for argument in arguments:
        start = time.perf_counter()
        function(*argument)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def scores(n: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """Imbalanced labels (12 % positive) and overlapping scores in [0, 1], with ties."""
    y = (rng.random(n) < 0.12).astype(int)
    s = np.clip(rng.normal(0.3 + 0.25 * y, 0.15), 0, 1).round(6)
    return y, s


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    y, s = scores(1_000_000, rng)
    ours, theirs = best_of_interleaved(lambda: roc_table(y, s), lambda: roc_curve(y, s, drop_intermediate=False))
    print(f"  roc_table (1,000,000 scores)         {ours * 1000:8.1f} ms")
    print(f"  roc_curve(drop_intermediate=False)   {theirs * 1000:8.1f} ms")
    print(f"  ratio roc_table / roc_curve          {ours / theirs:8.3f}  (target <= 1.0)")

    y, s = scores(10_000, rng)
    thresholds = np.linspace(0.05, 0.95, 41)
    state_ms = median_ms(lambda t: threshold_state(y, s, t, 1.0, 5.0), [(t,) for t in thresholds])
    print(f"  threshold_state, 10,000 scores       {state_ms:8.2f} ms median  (target <= 5)")

    explorer = ThresholdExplorer(y, s, threshold=0.5, cost_fp=1.0, cost_fn=5.0)
    updates = [(t, 1.0, 5.0) for t in thresholds] + [(0.4, 1.0, c) for c in np.linspace(1, 20, 20)]
    update_ms = median_ms(explorer.update, updates)
    print(f"  slider update incl. redraw + PNG     {update_ms:8.1f} ms median  (target <= 150)")
    full_ms = median_ms(lambda: (explorer.canvas.draw(), explorer.render()), [()] * 5)
    print(f"  for comparison, a full figure draw   {full_ms:8.1f} ms median  (what blitting avoids)")
