"""The course's sliders. Each widget draws through a pure function that returns
every number it shows, so the numbers are tested without a browser."""

from __future__ import annotations

import math
from io import BytesIO
from typing import NamedTuple

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image as PILImage
from sklearn.metrics import ConfusionMatrixDisplay, PrecisionRecallDisplay, RocCurveDisplay

from helpers.cv import cv_spread_state
from helpers.datasets import HIGH_PRECISION, HIGH_RECALL
from helpers.metrics import _ratio, binary_metrics
from helpers.plotting import plot_cv_spread, plot_iso_fbeta, plot_score_histograms
from helpers.roc import auc_trapezoid, average_precision_by_hand, check_binary_scores, pr_table, roc_counts

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


# --------------------------------------------------------------------------- threshold (notebook 02)
class ThresholdSweep(NamedTuple):
    """The counts of a ``roc_table`` as arrays (``helpers.roc.roc_counts``), computed once per data set."""

    thresholds: np.ndarray  # decreasing, thresholds[0] = inf
    tp: np.ndarray
    fp: np.ndarray
    positives: int
    negatives: int

    @classmethod
    def from_scores(cls, y_true, y_score, pos_label=1) -> "ThresholdSweep":
        thresholds, tp, fp = roc_counts(y_true, y_score, pos_label)
        return cls(thresholds, tp, fp, int(tp[-1]), int(fp[-1]))


def _check_threshold_inputs(threshold, cost_fp, cost_fn) -> tuple[float, float, float]:
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float, np.number)) or np.isnan(threshold):
        raise ValueError(f"threshold must be a number; got {threshold!r}")
    for name, cost in (("cost_fp", cost_fp), ("cost_fn", cost_fn)):
        if isinstance(cost, bool) or not isinstance(cost, (int, float, np.number)) \
                or not np.isfinite(cost) or cost < 0:
            raise ValueError(f"{name} must be a finite number >= 0; got {cost!r}")
    if cost_fp == 0 and cost_fn == 0:
        raise ValueError("cost_fp and cost_fn are both 0: every threshold would cost nothing")
    return float(threshold), float(cost_fp), float(cost_fn)


def _point(sweep: ThresholdSweep, k: int) -> dict:
    """Threshold and ROC / PR coordinates of row ``k`` of the sweep."""
    tp, fp = int(sweep.tp[k]), int(sweep.fp[k])
    return {"threshold": float(sweep.thresholds[k]), "tpr": tp / sweep.positives,
            "fpr": fp / sweep.negatives, "precision": _ratio(tp, tp + fp)}


def _sweep_state(sweep: ThresholdSweep, threshold, cost_fp=1.0, cost_fn=1.0) -> dict:
    """``threshold_state`` on a precomputed sweep (what the slider calls)."""
    threshold, cost_fp, cost_fn = _check_threshold_inputs(threshold, cost_fp, cost_fn)
    # The last row whose threshold is >= the chosen one: its counts are those of score >= threshold.
    k = int(np.searchsorted(-sweep.thresholds, -threshold, side="right")) - 1
    tp, fp = int(sweep.tp[k]), int(sweep.fp[k])
    fn, tn = sweep.positives - tp, sweep.negatives - fp
    n = sweep.positives + sweep.negatives
    metrics = binary_metrics(tp, fp, fn, tn)
    costs = cost_fp * sweep.fp + cost_fn * (sweep.positives - sweep.tp)
    youden = sweep.tp / sweep.positives - sweep.fp / sweep.negatives
    best_cost, best_j = int(np.argmin(costs)), int(np.argmax(youden))  # first = highest threshold
    total_cost = cost_fp * fp + cost_fn * fn
    return {
        "threshold": threshold, "cost_fp": cost_fp, "cost_fn": cost_fn,
        "tp": tp, "fp": fp, "tn": tn, "fn": fn,
        **{name: metrics[name] for name in ("precision", "recall", "specificity", "f1", "accuracy")},
        "tpr": metrics["recall"], "fpr": metrics["fpr"],
        "youden_j": metrics["recall"] - metrics["fpr"],
        "total_cost": total_cost, "expected_cost": total_cost / n,
        "cost_optimal": {**_point(sweep, best_cost), "total_cost": float(costs[best_cost]),
                         "expected_cost": float(costs[best_cost]) / n},
        "youden": {**_point(sweep, best_j), "youden_j": float(youden[best_j])},
    }


def threshold_state(y_true, y_score, threshold, cost_fp=1.0, cost_fn=1.0, pos_label=1) -> dict:
    """Every number the threshold slider shows, for one threshold and two unit costs.

    A sample is predicted positive when ``score >= threshold``. Returns the
    counts ``tp, fp, tn, fn``; ``precision`` (``nan`` when nothing is predicted
    positive), ``recall`` (= ``tpr``), ``specificity``, ``f1``, ``accuracy``,
    ``fpr`` and ``youden_j = tpr - fpr``; ``total_cost = cost_fp * FP + cost_fn * FN``
    on the whole set and ``expected_cost`` = total_cost / n, the average cost per
    sample. ``cost_optimal`` and ``youden`` describe the thresholds (among
    ``inf`` and the distinct scores) of least total cost and of largest
    ``tpr - fpr``, the highest one on ties: ``threshold, tpr, fpr, precision``
    plus their ``total_cost, expected_cost`` or ``youden_j``.
    """
    return _sweep_state(ThresholdSweep.from_scores(y_true, y_score, pos_label), threshold, cost_fp, cost_fn)


def describe_threshold_state(state: dict) -> str:
    """The slider's metrics as text, one quantity per line."""
    best, youden = state["cost_optimal"], state["youden"]
    return "\n".join([
        f"threshold     {state['threshold']:.3f}",
        f"TP {state['tp']}  FP {state['fp']}  FN {state['fn']}  TN {state['tn']}",
        f"precision     {state['precision']:.3f}",
        f"recall (TPR)  {state['recall']:.3f}",
        f"specificity   {state['specificity']:.3f}",
        f"F1            {state['f1']:.3f}",
        f"accuracy      {state['accuracy']:.3f}",
        f"cost          {state['cost_fp']:g} x FP + {state['cost_fn']:g} x FN",
        f"total cost    {state['total_cost']:.1f}",
        f"expected cost {state['expected_cost']:.3f} per sample",
        f"cost-optimal  t = {best['threshold']:.3f} (total {best['total_cost']:.1f})",
        f"Youden J max  t = {youden['threshold']:.3f} (J = {youden['youden_j']:.3f})",
    ])


class ThresholdExplorer:
    """The threshold slider: controls over one figure that is drawn once.

    The static parts (histograms, curves, axes, legends) are rendered a single
    time into a background; ``update`` restores it, redraws only the artists
    that move (threshold line, markers, confusion-matrix cells) and sends one
    PNG to an ``ipywidgets.Image``; the metrics are text in an
    ``ipywidgets.HTML`` beside it. ``widget`` is what the notebook shows.
    """

    def __init__(self, y_true, y_score, threshold=0.5, cost_fp=1.0, cost_fn=1.0, pos_label=1,
                 names=("negative", "positive"), dpi=80):
        is_positive, score = check_binary_scores(y_true, y_score, pos_label)
        self.sweep = ThresholdSweep.from_scores(is_positive, score, pos_label=True)
        self._build_figure(is_positive, score, names, dpi)
        low, high = float(score.min()), float(score.max())
        self.slider = widgets.FloatSlider(value=threshold, min=low, max=high, step=(high - low) / 200,
                                          description="threshold", readout_format=".3f",
                                          continuous_update=True)
        self.cost_fp = widgets.BoundedFloatText(value=cost_fp, min=0, max=1e6, step=0.5,
                                                description="cost of FP")
        self.cost_fn = widgets.BoundedFloatText(value=cost_fn, min=0, max=1e6, step=0.5,
                                                description="cost of FN")
        self.image = widgets.Image(format="png")
        self.metrics = widgets.HTML()
        self.message = widgets.HTML()
        for control in (self.slider, self.cost_fp, self.cost_fn):
            control.observe(self._on_change, names="value")
        self.widget = widgets.VBox([widgets.HBox([self.slider, self.cost_fp, self.cost_fn]), self.message,
                                    widgets.HBox([self.image, self.metrics])])
        self.state = self.update(threshold, cost_fp, cost_fn)

    def _build_figure(self, is_positive, score, names, dpi):
        fig = self.figure = Figure(figsize=(9.5, 7.2), dpi=dpi, layout="constrained")
        self.canvas = FigureCanvasAgg(fig)
        (ax_hist, ax_cm), (ax_roc, ax_pr) = fig.subplots(2, 2, width_ratios=(1.5, 1))
        plot_score_histograms(is_positive, score, pos_label=True, names=names, ax=ax_hist)
        self.threshold_line = ax_hist.axvline(0.5, color="k", lw=2)
        ax_hist.set_title("scores by class: right of the line is predicted positive")

        n = self.sweep.positives + self.sweep.negatives
        self.cm_display = ConfusionMatrixDisplay(np.zeros((2, 2), dtype=int), display_labels=list(names))
        self.cm_display.plot(ax=ax_cm, colorbar=False, values_format="d", cmap="Blues",
                             im_kw={"vmin": 0, "vmax": n})
        ax_cm.set_title("confusion matrix")

        sweep = self.sweep
        fpr, tpr = sweep.fp / sweep.negatives, sweep.tp / sweep.positives
        RocCurveDisplay(fpr=fpr, tpr=tpr, roc_auc=auc_trapezoid(fpr, tpr), name="model").plot(
            ax=ax_roc, plot_chance_level=True)
        pr = pr_table(is_positive, score, pos_label=True)
        PrecisionRecallDisplay(precision=pr["precision"].to_numpy()[::-1], recall=pr["recall"].to_numpy()[::-1],
                               average_precision=average_precision_by_hand(is_positive, score, pos_label=True),
                               name="model", prevalence_pos_label=sweep.positives / n).plot(
            ax=ax_pr, plot_chance_level=True)
        self.markers = {}
        for ax, kind in ((ax_roc, "roc"), (ax_pr, "pr")):
            for key, style, label in (("youden", "gD", "Youden J max"), ("cost_optimal", "r*", "cost-optimal"),
                                      ("current", "ko", "threshold")):
                (self.markers[kind, key],) = ax.plot([], [], style, ms=8 if key == "current" else 10,
                                                     label=label)
            ax.legend(loc="lower right" if kind == "roc" else "best", fontsize=7)
        self.moving = [self.threshold_line, self.cm_display.im_, *self.cm_display.text_.ravel(),
                       *self.markers.values()]
        for artist in self.moving:
            artist.set_animated(True)  # left out of the background, drawn by update
        self.canvas.draw()
        self.background = self.canvas.copy_from_bbox(fig.bbox)

    def _on_change(self, _change):
        try:
            self.state = self.update(self.slider.value, self.cost_fp.value, self.cost_fn.value)
            self.message.value = ""
        except ValueError as error:
            self.message.value = f"<b>{error}</b>"

    def update(self, threshold, cost_fp, cost_fn) -> dict:
        """Recompute the state, redraw the moving artists and the metrics; return the state."""
        state = _sweep_state(self.sweep, threshold, cost_fp, cost_fn)
        self.threshold_line.set_xdata([state["threshold"]] * 2)
        counts = np.array([[state["tn"], state["fp"]], [state["fn"], state["tp"]]])
        self.cm_display.im_.set_data(counts)
        half = (self.sweep.positives + self.sweep.negatives) / 2
        for (i, j), value in np.ndenumerate(counts):
            self.cm_display.text_[i, j].set(text=str(value), color="white" if value > half else "black")
        points = {"current": state, "cost_optimal": state["cost_optimal"], "youden": state["youden"]}
        for key, point in points.items():
            self.markers["roc", key].set_data([point["fpr"]], [point["tpr"]])
            self.markers["pr", key].set_data([point["tpr"]], [point["precision"]])
        self.metrics.value = f"<pre>{describe_threshold_state(state)}</pre>"
        self.image.value = self.render()
        return state

    def render(self) -> bytes:
        """Restore the background, draw the moving artists on it and encode a PNG."""
        self.canvas.restore_region(self.background)
        for artist in self.moving:
            self.figure.draw_artist(artist)
        width, height = self.canvas.get_width_height()
        buffer = BytesIO()
        PILImage.frombuffer("RGBA", (width, height), self.canvas.buffer_rgba(), "raw", "RGBA", 0, 1) \
            .convert("RGB").save(buffer, format="png", compress_level=1)
        return buffer.getvalue()


def threshold_explorer(y_true, y_score, threshold=0.5, cost_fp=1.0, cost_fn=1.0, pos_label=1,
                       names=("negative", "positive")):
    """A threshold slider and two cost inputs over the score histograms, confusion
    matrix, metrics, ROC and PR curves of one scored data set."""
    return ThresholdExplorer(y_true, y_score, threshold, cost_fp, cost_fn, pos_label, names).widget



# --------------------------------------------------------------------------- cross-validation (notebook 03)
def describe_cv_spread_state(state: dict) -> str:
    """One line of text for a ``helpers.cv.cv_spread_state``."""
    return (f"k = {state['k']} | {state['n_repeats']} repeats x {state['k']} folds = {state['n_fits']} fits, "
            f"{state['train_size']:.0f} training rows each | estimate {state['mean']:.3f}, "
            f"spread between repeats {state['spread']:.3f}, spread of single folds {state['fold_spread']:.3f} | "
            f"fitting took {state['fit_seconds']:.2f} s")


def cv_spread_explorer(estimator, X, y, ks=(2, 3, 5, 10, 20), scoring="roc_auc", random_state=0,
                       xlim=None, states: dict | None = None):
    """Sliders for k and the number of repeats over the fold scores of repeated stratified k-fold.

    ``states`` maps ``(k, n_repeats)`` to states already computed with the same
    estimator, data, scoring and random state; the explorer reuses a copy of it.
    """
    ks = [int(k) for k in ks]
    cache = dict(states or {})
    k_slider = widgets.SelectionSlider(options=ks, value=5 if 5 in ks else ks[0], description="k",
                                       continuous_update=False)
    # At most 5 repeats: k = 20 then costs 100 fits, and the slider stays responsive.
    repeats_slider = widgets.IntSlider(value=5, min=2, max=5, description="repeats", continuous_update=False)

    def update(k, n_repeats):
        if (k, n_repeats) not in cache:
            cache[(k, n_repeats)] = cv_spread_state(estimator, X, y, k, n_repeats, scoring, random_state)
        state = cache[(k, n_repeats)]
        fig, ax = plt.subplots(figsize=(7, 3.2))
        plot_cv_spread(state, ax=ax, xlim=xlim)
        plt.show()
        print(describe_cv_spread_state(state))

    output = widgets.interactive_output(update, {"k": k_slider, "n_repeats": repeats_slider})
    return widgets.VBox([widgets.HBox([k_slider, repeats_slider]), output])
