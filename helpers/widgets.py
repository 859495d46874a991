"""The course's sliders: wiring only.

Each slider calls a pure state function of a topic module (``helpers.metrics``,
``helpers.roc``, ``helpers.cv``, ...) that returns every number it shows, so
the numbers are tested without a browser, and draws on a
``matplotlib.figure.Figure`` of its own, never through pyplot: JupyterLab may
run widget callbacks on another thread while a cell executes. Every slider
starts exactly on a value of its grid.
"""

from __future__ import annotations

import threading
from io import BytesIO
from typing import Callable

import ipywidgets as widgets
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image as PILImage
from sklearn.metrics import ConfusionMatrixDisplay, PrecisionRecallDisplay, RocCurveDisplay

from helpers.cv import cv_spread_state, describe_cv_spread_state
from helpers.datasets import HIGH_PRECISION, HIGH_RECALL
from helpers.metrics import FBETA_NAMES, describe_fbeta_state, fbeta_state
from helpers.quiz import CHECKS, check_answer
from helpers.plotting import plot_cv_spread, plot_iso_fbeta, plot_score_histograms
from helpers.roc import (ThresholdSweep, auc_trapezoid, average_precision_by_hand, describe_threshold_state,
                         pr_table, sweep_state)
from helpers.validation import check_binary_scores


def png_bytes(canvas: FigureCanvasAgg) -> bytes:
    """The canvas's current pixels as PNG bytes (fast, lightly compressed)."""
    width, height = canvas.get_width_height()
    buffer = BytesIO()
    PILImage.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1) \
        .convert("RGB").save(buffer, format="png", compress_level=1)
    return buffer.getvalue()


def grid_slider(values, value, description: str, fmt: str = "{:.2f}", **kwargs) -> widgets.SelectionSlider:
    """A slider over an explicit grid of numbers: the browser can only send back one of them."""
    values = [float(v) if isinstance(v, (float, np.floating)) else v for v in values]
    if value not in values:
        raise ValueError(f"the start value {value!r} of {description} is not on its grid")
    return widgets.SelectionSlider(options=[(fmt.format(v), v) for v in values], value=value,
                                   description=description, **kwargs)


class Explorer(widgets.VBox):
    """Controls over one figure and a text panel, redrawn from a pure state function.

    On every change ``state(**values)`` computes the numbers, ``draw(state, figure)``
    draws them on a fresh ``Figure`` and ``describe(state)`` gives the text; the
    image and the text are replaced in place, so the text never vanishes while
    the figure redraws. A ``ValueError`` from ``state`` replaces the numbers by
    its message (never stale numbers). Callbacks are serialised by a lock.
    """

    def __init__(self, controls: dict[str, widgets.ValueWidget], state: Callable[..., dict],
                 draw: Callable[[dict, Figure], None], describe: Callable[[dict], str],
                 figsize=(6.4, 4.4), dpi: int = 80):
        self.controls, self._state, self._draw, self._describe = controls, state, draw, describe
        self.figsize, self.dpi = figsize, dpi
        self.image = widgets.Image(format="png", layout=widgets.Layout(max_width="100%", height="auto"))
        self.text = widgets.HTML(layout=widgets.Layout(min_width="22em"))
        self.message = widgets.HTML()
        self._lock = threading.Lock()
        self.state: dict | None = None
        super().__init__([widgets.HBox(list(controls.values()), layout=widgets.Layout(flex_flow="row wrap")),
                          self.message,
                          widgets.HBox([self.image, self.text], layout=widgets.Layout(flex_flow="row wrap"))])
        for control in controls.values():
            control.observe(self.refresh, names="value")
        self.refresh()

    def values(self) -> dict:
        return {name: control.value for name, control in self.controls.items()}

    def refresh(self, _change=None) -> dict | None:
        """Recompute, redraw and show; return the new state (``None`` after a bad input)."""
        with self._lock:
            try:
                state = self._state(**self.values())
            except ValueError as error:
                self.state = None
                self.message.value = f"<b>{error}</b>"
                self.text.value = "<pre>(no numbers: fix the input above)</pre>"
                return None
            figure = Figure(figsize=self.figsize, dpi=self.dpi, layout="constrained")
            canvas = FigureCanvasAgg(figure)
            self._draw(state, figure)
            canvas.draw()
            self.state = state
            self.message.value = ""
            self.image.value = png_bytes(canvas)
            self.text.value = f"<pre>{self._describe(state)}</pre>"
            return state


# --------------------------------------------------------------------------- F-beta (notebook 01)
BETA_GRID = np.round(np.arange(0.1, 5.0 + 1e-9, 0.05), 2)


def fbeta_explorer(counts_a=HIGH_RECALL, counts_b=HIGH_PRECISION, names=FBETA_NAMES) -> Explorer:
    """A beta slider (0.1 to 5 in steps of 0.05) over iso-F-beta curves with both classifiers marked."""

    def draw(state, figure):
        points = {f"{n} F={state['fbeta'][n]:.3f}": (state["recall"][n], state["precision"][n]) for n in names}
        plot_iso_fbeta(state["beta"], points, ax=figure.subplots())

    return Explorer({"beta": grid_slider(BETA_GRID, 1.0, "beta")},
                    lambda beta: fbeta_state(beta, counts_a, counts_b, names), draw, describe_fbeta_state,
                    figsize=(5.5, 4.5))


# --------------------------------------------------------------------------- threshold (notebook 02)
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
        state = sweep_state(self.sweep, threshold, cost_fp, cost_fn)
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
        return png_bytes(self.canvas)


def threshold_explorer(y_true, y_score, threshold=0.5, cost_fp=1.0, cost_fn=1.0, pos_label=1,
                       names=("negative", "positive")):
    """A threshold slider and two cost inputs over the score histograms, confusion
    matrix, metrics, ROC and PR curves of one scored data set."""
    return ThresholdExplorer(y_true, y_score, threshold, cost_fp, cost_fn, pos_label, names).widget



# --------------------------------------------------------------------------- cross-validation (notebook 03)
def cv_spread_explorer(estimator, X, y, ks=(2, 3, 5, 10, 20), scoring="roc_auc", random_state=0,
                       xlim=None, states: dict | None = None) -> Explorer:
    """Sliders for k and the number of repeats over the fold scores of repeated stratified k-fold.

    ``states`` maps ``(k, n_repeats)`` to states already computed with the same
    estimator, data, scoring and random state; the explorer reuses a copy of it.
    """
    ks = [int(k) for k in ks]
    cache = dict(states or {})

    def state(k, n_repeats):
        if (k, n_repeats) not in cache:
            cache[(k, n_repeats)] = cv_spread_state(estimator, X, y, k, n_repeats, scoring, random_state)
        return cache[(k, n_repeats)]

    # At most 5 repeats: k = 20 then costs 100 fits, and the slider stays responsive.
    controls = {"k": widgets.SelectionSlider(options=ks, value=5 if 5 in ks else ks[0], description="k",
                                             continuous_update=False),
                "n_repeats": widgets.IntSlider(value=5, min=2, max=5, description="repeats",
                                               continuous_update=False)}
    return Explorer(controls, state, lambda st, figure: plot_cv_spread(st, ax=figure.subplots(), xlim=xlim),
                    describe_cv_spread_state, figsize=(7, 3.2))


# --------------------------------------------------------------------------- concept checks (every notebook)
class ConceptCheckWidget(widgets.VBox):
    """A concept check from ``helpers.quiz.CHECKS``: pick an option, read why it is right or wrong."""

    def __init__(self, key: str):
        if key not in CHECKS:
            raise ValueError(f"unknown concept check {key!r}; known: {sorted(CHECKS)}")
        self.key, check = key, CHECKS[key]
        self.choices = widgets.RadioButtons(options=[(text, i) for i, text in enumerate(check.options)],
                                            value=None, layout=widgets.Layout(width="auto"))
        self.feedback = widgets.HTML()
        self.choices.observe(self._on_choice, names="value")
        super().__init__([widgets.HTML(f"<b>Concept check.</b> {check.question}"), self.choices, self.feedback],
                         layout=widgets.Layout(border="1px solid #bbb", padding="0.4em 0.8em", max_width="60em"))
        self._on_choice()

    def _on_choice(self, _change=None):
        result = check_answer(self.key, self.choices.value)
        colour = "#2e7d32" if result["correct"] else ("#b23c17" if result["answered"] else "#555")
        self.feedback.value = f'<div class="concept-feedback" style="color:{colour}">{result["feedback"]}</div>'


def concept_check(key: str) -> ConceptCheckWidget:
    """Show concept check ``key`` (ungraded; feedback as soon as an option is picked)."""
    return ConceptCheckWidget(key)


# ---- learning curves (notebook 05) ------------------------------------------------------------
from helpers.curves import DEGREES, complexity_states, describe_complexity_state  # noqa: E402
from helpers.plotting import plot_complexity, update_complexity  # noqa: E402


class ComplexityExplorer(Explorer):
    """An :class:`Explorer` whose figure is laid out and drawn once, then only blitted.

    Every state is computed up front, and between two degrees only the fitted
    curve, the line at the current degree and one title change. The first
    refresh draws the whole figure (constrained layout included), freezes the
    layout and keeps the pixels of everything that never changes; each later
    move restores those pixels and draws just the three changing artists and the
    two legends over them, so a move costs a few tens of milliseconds of CPU
    (bench/bench_curves.py) instead of a full layout and draw.
    """

    def __init__(self, controls, state, describe, figsize, noise=None):
        self._noise, self._figure, self._canvas, self._background, self._legends = noise, None, None, None, []
        super().__init__(controls, state, None, describe, figsize=figsize)

    def _first_draw(self, state) -> None:
        self._figure = Figure(figsize=self.figsize, dpi=self.dpi, layout="constrained")
        self._canvas = FigureCanvasAgg(self._figure)
        self._axes = plot_complexity(state, axes=self._figure.subplots(1, 2), noise=self._noise)
        self._canvas.draw()  # the layout, with every artist in place
        self._figure.set_layout_engine("none")  # frozen from now on
        # the legends are redrawn after the moving artists so that they stay on top
        self._legends = [ax.get_legend() for ax in self._axes]
        for artist in update_complexity(state, self._axes) + self._legends:
            artist.set_animated(True)
        self._canvas.draw()  # everything that never changes
        self._background = self._canvas.copy_from_bbox(self._figure.bbox)

    def refresh(self, _change=None) -> dict | None:
        with self._lock:
            state = self._state(**self.values())
            if self._figure is None:
                self._first_draw(state)
            self._canvas.restore_region(self._background)
            for artist in update_complexity(state, self._axes) + self._legends:
                self._figure.draw_artist(artist)
            self.state = state
            self.message.value = ""
            self.image.value = png_bytes(self._canvas)
            self.text.value = f"<pre>{self._describe(state)}</pre>"
            return state


def complexity_explorer(x_train, y_train, x_val, y_val, degrees=None, degree: int = 1,
                        noise: float | None = None) -> Explorer:
    """A polynomial-degree slider over the fitted curve and the training/validation errors.

    The numbers are those of ``helpers.curves.complexity_state`` (its text from
    ``describe_complexity_state``), computed once for every degree by
    ``complexity_states``: moving the slider only looks a state up and redraws the
    three artists that change (:class:`ComplexityExplorer`). ``noise`` (sigma^2),
    when known, is drawn as the floor.
    """
    degrees = [int(d) for d in (DEGREES if degrees is None else degrees)]
    states = complexity_states(x_train, y_train, x_val, y_val, degrees=degrees)

    def state(degree):
        return states[degree]

    return ComplexityExplorer({"degree": grid_slider(degrees, degree, "degree", fmt="{:d}",
                                                     continuous_update=False)},
                              state, describe_complexity_state, figsize=(10, 4), noise=noise)
