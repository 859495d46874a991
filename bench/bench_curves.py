"""The complexity slider's latency and the cost of the bias-variance simulation (notebook 05)."""

import statistics
import time

import matplotlib

matplotlib.use("Agg")  # no display: the slider renders its PNG off screen

import numpy as np  # noqa: E402
from sklearn.tree import DecisionTreeRegressor  # noqa: E402

from helpers.curves import bias_variance_decomposition, complexity_state, noisy_sample, polynomial_model  # noqa: E402
from helpers.widgets import complexity_explorer  # noqa: E402


def wave(x):
    return np.sin(2 * np.pi * x)


def median_ms(function, repeat: int = 7, clock=time.perf_counter) -> float:
    times = []
    for _ in range(repeat):
        start = clock()
        function()
        times.append(clock() - start)
    return statistics.median(times) * 1000


def main() -> None:
    x, y = noisy_sample(wave, 30, 0.3, random_state=0)
    x_val, y_val = noisy_sample(wave, 200, 0.3, random_state=1)
    state_ms = median_ms(lambda: complexity_state(7, x, y, x_val, y_val))
    box = complexity_explorer(x, y, x_val, y_val, noise=0.09)
    slider = box.controls["degree"]
    degrees = [value for _, value in slider.options]
    moves = iter(degrees[1:] * 3)
    move_ms = median_ms(lambda: setattr(slider, "value", next(moves)), repeat=len(degrees) - 1)
    move_cpu = median_ms(lambda: setattr(slider, "value", next(moves)), repeat=len(degrees) - 1,
                         clock=time.process_time)
    print(f"  complexity_state, 15 degrees fitted:      {state_ms:7.1f} ms (median of 7)")
    print(f"  slider move (look-up + blit + PNG + text): {move_ms:7.1f} ms wall, {move_cpu:5.1f} ms CPU "
          f"(medians of {len(degrees) - 1}; target well under 100 ms CPU)")
    x_test = np.linspace(0, 1, 51)
    for name, make in [("cubic pipeline", lambda: polynomial_model(3)),
                       ("decision tree", lambda: DecisionTreeRegressor(random_state=0))]:
        start = time.perf_counter()
        bias_variance_decomposition(make, wave, 0.3, x_test, 30, 100, random_state=0)
        print(f"  bias_variance_decomposition, 100 sets, {name:<15s} {time.perf_counter() - start:6.2f} s")


if __name__ == "__main__":
    main()
