"""The course palette under colour blindness and against its background (helpers.style).

Colour-vision deficiency is simulated with colorspacious (Machado, Oliveira and
Fernandes 2009, severity 100 = protanopia, deuteranopia, tritanopia); distances
are CIE76 Delta E in CIELab. Contrast is WCAG 2.1's ratio of relative luminances.
"""

import itertools

import matplotlib

matplotlib.use("Agg")

import matplotlib as mpl  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from colorspacious import cspace_convert  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from sklearn.model_selection import StratifiedKFold  # noqa: E402

from helpers import curves_plots, cv_plots, resampling_plots, search_plots, style  # noqa: E402
from helpers.resampling import smote_by_hand, toy_imbalanced  # noqa: E402

DEFICIENCIES = ("protanomaly", "deuteranomaly", "tritanomaly")  # at severity 100: -anopia
MIN_DELTA_E = 20.0


def lab(colour, deficiency=None) -> np.ndarray:
    rgb = np.array(to_rgb(colour))
    if deficiency is not None:
        rgb = np.clip(cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100}, "sRGB1"),
                      0, 1)
    return cspace_convert(rgb, "sRGB1", "CIELab")


def delta_e(a, b, deficiency=None) -> float:
    return float(np.linalg.norm(lab(a, deficiency) - lab(b, deficiency)))


def luminance(colour) -> float:
    c = np.array(to_rgb(colour))
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(c @ [0.2126, 0.7152, 0.0722])


def contrast(a, b="white") -> float:
    low, high = sorted([luminance(a), luminance(b)])
    return (high + 0.05) / (low + 0.05)


def test_the_measures_themselves():
    assert contrast("black") == pytest.approx(21.0)
    assert contrast("white") == pytest.approx(1.0)
    assert contrast("#767676") == pytest.approx(4.54, abs=0.01)  # WCAG's well-known smallest AA grey
    assert delta_e("white", "black") == pytest.approx(100, abs=0.1)
    # Red and green that differ plainly for normal vision merge under deuteranopia: the simulation works.
    assert delta_e("#c44e52", "#55a868") > 80 and delta_e("#c44e52", "#55a868", "deuteranomaly") < 12


# Colours that tell classes or groups apart within one figure, figure by figure.
FIGURE_GROUPS = {
    "classes and synthetic samples (notebook 04)": (style.NEGATIVE, style.POSITIVE, style.SYNTHETIC),
    "cross-validation splits: roles and classes (notebook 03)": (*style.SPLIT_COLOURS.values(),
                                                                 *cv_plots.CLASS_COLOURS[:2]),
    "the default cycle's first two (training and validation, two models)": style.CYCLE[:2],
}


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
@pytest.mark.parametrize("figure", FIGURE_GROUPS)
def test_colours_of_one_figure_stay_apart_under_colour_blindness(figure, deficiency):
    colours = FIGURE_GROUPS[figure]
    close = [(a, b, round(delta_e(a, b, deficiency), 1)) for a, b in itertools.combinations(colours, 2)
             if delta_e(a, b, deficiency) < MIN_DELTA_E]
    assert not close, f"{figure} under {deficiency or 'normal vision'}: {close}"


@pytest.mark.parametrize("colour", [style.POSITIVE, style.NEGATIVE, style.SYNTHETIC, style.NEUTRAL, *style.CYCLE,
                                    style.SPLIT_COLOURS["train"], style.SPLIT_COLOURS["test"]])
def test_lines_and_markers_reach_3_to_1_against_the_background(colour):
    style.use()
    background = mpl.rcParams["axes.facecolor"]
    assert contrast(colour, background) >= 3.0, colour


def test_the_style_does_not_depend_on_what_ran_before():
    """Optuna's matplotlib plots apply ggplot's style (grey axes) globally; the course style undoes it."""
    with mpl.rc_context():
        mpl.style.use("ggplot")
        assert mpl.rcParams["axes.facecolor"] != "white"
        style.use()
        assert {key: mpl.rcParams[key] for key in ("axes.facecolor", "figure.facecolor", "text.color",
                                                   "xtick.color", "axes.labelcolor", "grid.color")} == \
            {"axes.facecolor": "white", "figure.facecolor": "white", "text.color": "black", "xtick.color": "black",
             "axes.labelcolor": "black", "grid.color": "#b0b0b0"}


def test_text_reaches_4_5_to_1_against_the_background():
    style.use()
    for key in ("text.color", "axes.labelcolor", "xtick.labelcolor", "ytick.labelcolor", "axes.titlecolor"):
        colour = mpl.rcParams[key]
        colour = mpl.rcParams["xtick.color" if key == "xtick.labelcolor" else "ytick.color"] if colour == "inherit" \
            else colour
        colour = mpl.rcParams["text.color"] if colour == "auto" else colour
        assert contrast(colour, mpl.rcParams["axes.facecolor"]) >= 4.5, key
        assert contrast(colour, mpl.rcParams["figure.facecolor"]) >= 4.5, key
    # Coloured text the course writes on its figures: the class labels of the score histograms.
    assert contrast(style.POSITIVE) >= 4.5 and contrast(style.NEGATIVE) >= 4.5


def test_classes_differ_by_marker_or_hatch_not_only_by_colour():
    X, y = toy_imbalanced(40, 8, random_state=0)
    X_new, base, neighbour, _ = smote_by_hand(X[y == 1], 6, k_neighbors=3, random_state=0)
    ax = resampling_plots.plot_smote(X, y, X_new, base, neighbour, ax=Figure().subplots())
    markers = [c.get_paths()[0].vertices.round(3).tobytes() for c in ax.collections if len(c.get_offsets())
               and c.get_label() != "segment base-neighbour"]
    assert len(markers) == 3 and len(set(markers)) == 3  # majority, minority, synthetic: three shapes
    ax = cv_plots.plot_cv_splits(StratifiedKFold(3), np.zeros((12, 1)), np.repeat([0, 1], 6), ax=Figure().subplots())
    hatches = {c.get_hatch() for c in ax.collections if c.get_hatch()}
    assert hatches == {cv_plots.TEST_HATCH, cv_plots.CLASS_HATCHES[1]}
    # the hatched rectangles cover every test cell (each sample is tested once) and every class-1 cell
    covered = {}
    for collection in ax.collections:
        if collection.get_hatch():
            for path in collection.get_paths():
                (x0, y0), (x1, y1) = path.get_extents().get_points()
                covered.setdefault(collection.get_hatch(), []).append((round(x1 - x0), round(y0 + 0.5)))
    assert sum(width for width, _ in covered[cv_plots.TEST_HATCH]) == 12
    assert covered[cv_plots.CLASS_HATCHES[1]] == [(6, 3)]  # one run of 6 cells in the class row (row 3)


def test_sampler_lines_differ_by_dash_and_models_by_marker():
    import pandas as pd
    table = pd.DataFrame({"sampler": np.repeat(["a", "b", "c", "d"], 4), "seed": np.tile([0, 0, 1, 1], 4),
                          "trial": np.tile([1, 2], 8), "best_so_far": np.arange(16, dtype=float)})
    ax = search_plots.plot_best_so_far(table, ax=Figure().subplots())
    assert len({line.get_linestyle() for line in ax.lines}) == 4
    ax = Figure().subplots()
    for marker in "o^":
        curves_plots.plot_error_curves([1, 2], np.ones((2, 2)), np.ones((2, 2)), ax=ax, marker=marker)
    assert {line.get_marker() for line in ax.lines} == {"o", "^"}
