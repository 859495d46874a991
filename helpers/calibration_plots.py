"""Reliability diagrams with their counts (notebooks 02 and 04).

Follows ``helpers.figures``: draws on ``ax`` (``ax=None`` makes one), returns the
Axes, and describes what it drew with :func:`helpers.figures.describe`, from the
same :func:`helpers.calibration.reliability_table` it plotted. The curve itself
is scikit-learn's ``CalibrationDisplay``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from sklearn.calibration import CalibrationDisplay

from helpers.calibration import bin_edges, expected_calibration_error, reliability_table
from helpers.figures import describe

__all__ = ["plot_reliability"]


def plot_reliability(y_true, y_prob, name: str, *, n_bins: int = 10, strategy: str = "uniform", pos_label=1,
                     ax=None, counts_ax=None, marker: str = "o", linestyle: str = "-", color=None):
    """The reliability diagram of one model on ``ax`` (``CalibrationDisplay``); its bin counts on ``counts_ax``.

    Draw several models on the same Axes with different ``marker`` and
    ``linestyle`` (never colour alone). ``counts_ax`` (optional) gets the number
    of samples per bin as a step line on a log scale: a bin of five samples says
    little, however far it lies from the diagonal. Returns ``ax``.
    """
    table = reliability_table(y_true, y_prob, n_bins, strategy, pos_label)
    ece = expected_calibration_error(y_true, y_prob, n_bins, strategy, pos_label)
    if ax is None:
        _, ax = plt.subplots()
    has_reference = any(line.get_label() == "Perfectly calibrated" for line in ax.get_lines())
    CalibrationDisplay.from_predictions(y_true, y_prob, n_bins=n_bins, strategy=strategy, pos_label=pos_label,
                                        name=name, ax=ax, ref_line=not has_reference, marker=marker,
                                        linestyle=linestyle, color=color)
    _ = ax.set(xlabel="mean predicted probability (per bin)", ylabel="observed frequency of the positive class",
               xlim=(0, 1), ylim=(0, 1))
    worst = table["gap"].abs().idxmax()
    row = table.loc[worst]
    describe(ax, f"Reliability diagram of {name}: {len(table)} non-empty {strategy} bins of {int(table['count'].sum())} "
                 f"samples, mean predicted probability from {table['mean_predicted'].min():.3f} to "
                 f"{table['mean_predicted'].max():.3f}, observed frequency from "
                 f"{table['observed_frequency'].min():.3f} to {table['observed_frequency'].max():.3f}; "
                 f"expected calibration error {ece:.3f}; the largest gap, {row['gap']:+.3f}, is in the bin "
                 f"({row['lower']:.3f}, {row['upper']:.3f}] with {int(row['count'])} sample{'s' if row['count'] != 1 else ''}")
    if counts_ax is not None:
        edges = bin_edges(y_prob, n_bins, strategy)
        counts = table["count"].reindex(np.arange(len(edges) - 1), fill_value=0).to_numpy()
        counts_ax.stairs(counts, edges, label=name, linestyle=linestyle, color=ax.get_lines()[-1].get_color(),
                         linewidth=1.8)
        _ = counts_ax.set(xlabel="predicted probability", ylabel="samples per bin", xlim=(0, 1), yscale="log")
        describe(counts_ax, f"Samples per bin for {name}: " + ", ".join(
            f"{int(c)} in ({lo:.2f}, {hi:.2f}]" for lo, hi, c in zip(edges[:-1], edges[1:], counts) if c))
    return ax
