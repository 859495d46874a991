"""The course's one look: a matplotlib style readable on a projector.

Every notebook calls :func:`use` once, right after its imports; the widgets
and the figures of each topic (``helpers.*_plots``) take their colours from here, so the positive
class has the same colour in every figure of the course.
"""

from __future__ import annotations

import matplotlib as mpl
from cycler import cycler

# Colours that encode classes or groups stay apart (CIE76 Delta E >= 20) under simulated protanopia,
# deuteranopia and tritanopia, and every colour that draws a line or a marker has a contrast of at
# least 3:1 against the white background (WCAG 2.1, 1.4.11); tests/test_style.py checks both.
POSITIVE = "#c44e52"  # the positive (minority, interesting) class, in every figure
NEGATIVE = "#4c72b0"  # the negative class
SYNTHETIC = "#b07a00"  # samples a resampler made up (gold: apart from both classes under every simulation)
NEUTRAL = "0.55"  # chance lines, baselines, guides
CYCLE = ("#4c72b0", "#b8650a", "#2f8f4f", "#c44e52", "#8172b3", "#937860", "#a8508f", "#7a7a7a")
# The roles of a cross-validation figure's samples, shown beside the classes (NEGATIVE, POSITIVE).
SPLIT_COLOURS = {"unused": "#dddddd", "train": "#2b2b2b", "test": "#b07a00"}
# Groups of samples in one figure that only colour tells apart need markers too.
MARKERS = ("o", "^", "D", "s", "v", "P", "X", "*")
# Lines of several groups differ by dash as well as by colour.
LINE_STYLES = ("-", "--", "-.", ":")

# Sizes in points at the displayed size: nothing below 10 pt.
RC = {
    "figure.dpi": 100,
    "figure.figsize": (6.4, 4.2),
    "figure.constrained_layout.use": True,
    "font.size": 12,
    "axes.titlesize": 13,
    "axes.labelsize": 12,
    "xtick.labelsize": 11,
    "ytick.labelsize": 11,
    "legend.fontsize": 11,
    "legend.title_fontsize": 11,
    "figure.titlesize": 14,
    "lines.linewidth": 2.0,
    "lines.markersize": 7,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": cycler(color=list(CYCLE)),
    "savefig.bbox": "tight",
    "image.cmap": "Blues",
    # The backgrounds and ink the contrast ratios are measured against (tests/test_style.py), set here and not
    # left to whatever style ran before (Optuna's matplotlib plots apply ggplot's grey axes globally).
    "figure.facecolor": "white",
    "axes.facecolor": "white",
    "axes.edgecolor": "black",
    "axes.labelcolor": "black",
    "text.color": "black",
    "xtick.color": "black",
    "ytick.color": "black",
    "xtick.labelcolor": "inherit",
    "ytick.labelcolor": "inherit",
    "axes.titlecolor": "auto",
    "grid.color": "#b0b0b0",
}
MIN_FONT_POINTS = 10


def use() -> None:
    """Apply the course style to every figure drawn from now on (pyplot or ``Figure``)."""
    mpl.rcParams.update(RC)
