"""The course's one look: a matplotlib style readable on a projector.

Every notebook calls :func:`use` once, right after its imports; the widgets
and :mod:`helpers.plotting` take their colours from here, so the positive
class has the same colour in every figure of the course.
"""

from __future__ import annotations

import matplotlib as mpl
from cycler import cycler

POSITIVE = "#c44e52"  # the positive (minority, interesting) class, in every figure
NEGATIVE = "#4c72b0"  # the negative class
SYNTHETIC = "#dd8452"  # samples a resampler made up
NEUTRAL = "0.55"  # chance lines, baselines, guides
CYCLE = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c")

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
}
MIN_FONT_POINTS = 10


def use() -> None:
    """Apply the course style to every figure drawn from now on (pyplot or ``Figure``)."""
    mpl.rcParams.update(RC)
