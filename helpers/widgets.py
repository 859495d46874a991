"""The course's sliders. Each widget draws through a pure function that returns
every number it shows, so the numbers are tested without a browser."""

from __future__ import annotations

import math

import ipywidgets as widgets
import matplotlib.pyplot as plt

from helpers.datasets import HIGH_PRECISION, HIGH_RECALL
from helpers.metrics import binary_metrics
from helpers.plotting import plot_iso_fbeta

FBETA_NAMES = ("A (high recall)", "B (high precision)")


# --------------------------------------------------------------------------- F-beta
def ranking_flip_beta(counts_a, counts_b) -> float:
    """The beta at which two classifiers' F-beta are equal (``nan`` if never).

    From (1+s)TP_a / ((1+s)TP_a + s FN_a + FP_a) = the same for b, with s = beta^2:
    s = (TP_b FP_a - TP_a FP_b) / (TP_a FN_b - TP_b FN_a).
    """
    tp_a, fp_a, fn_a, _ = counts_a
    tp_b, fp_b, fn_b, _ = counts_b
    numerator, denominator = tp_b * fp_a - tp_a * fp_b, tp_a * fn_b - tp_b * fn_a
    if denominator == 0 or numerator / denominator <= 0:
        return math.nan
    return math.sqrt(numerator / denominator)


def fbeta_state(beta: float, counts_a=HIGH_RECALL, counts_b=HIGH_PRECISION, names=FBETA_NAMES) -> dict:
    """Every number the F-beta slider shows for one beta."""
    rows = {name: binary_metrics(*counts, beta=beta) for name, counts in zip(names, (counts_a, counts_b))}
    scores = {name: m["fbeta"] for name, m in rows.items()}
    first, second = names
    tied = math.isclose(scores[first], scores[second], rel_tol=1e-9)
    leader = "tie" if tied else max(scores, key=scores.get)
    return {
        "beta": float(beta),
        "fbeta": scores,
        "recall": {name: m["recall"] for name, m in rows.items()},
        "precision": {name: m["precision"] for name, m in rows.items()},
        "leader": leader,
        "flip_beta": ranking_flip_beta(counts_a, counts_b),
    }


def describe_fbeta_state(state: dict) -> str:
    """One line of text for an ``fbeta_state``."""
    scores = ", ".join(f"{name}: {value:.3f}" for name, value in state["fbeta"].items())
    return (f"beta = {state['beta']:.2f} | F-beta {scores} | ranks first: {state['leader']} | "
            f"the ranking flips at beta = {state['flip_beta']:.3f}")


def fbeta_explorer(counts_a=HIGH_RECALL, counts_b=HIGH_PRECISION, names=FBETA_NAMES):
    """A beta slider (0.1 to 5) over iso-F-beta curves with both classifiers marked."""
    slider = widgets.FloatSlider(value=1.0, min=0.1, max=5.0, step=0.05, description="beta",
                                 continuous_update=True, readout_format=".2f")

    def update(beta):
        state = fbeta_state(beta, counts_a, counts_b, names)
        points = {f"{n} F={state['fbeta'][n]:.3f}": (state["recall"][n], state["precision"][n]) for n in names}
        fig, ax = plt.subplots(figsize=(5.5, 4.5))
        plot_iso_fbeta(beta, points, ax=ax)
        plt.show()
        print(describe_fbeta_state(state))

    output = widgets.interactive_output(update, {"beta": slider})
    return widgets.VBox([slider, output])


