"""The course's data: verified loaders for data/ and the lecture notes' worked examples.

Loaders resolve paths from the package (not from the working directory), check
each file's SHA-256 before reading it and never touch the network.

The worked examples are named constants. Binary confusion matrices are
:class:`Counts` in the order ``(tp, fp, fn, tn)`` returned by
:func:`helpers.metrics.confusion_counts`, so ``binary_metrics(*CANCER)`` works.
Matrices are rows = actual class, columns = predicted class.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import NamedTuple

import pandas as pd

# An installed wheel carries its own copy inside the package, helpers/data/ (pyproject.toml; the browser's
# JupyterLite site installs it); otherwise data/ beside the package (the repository, the hand-out, the hub).
REPOSITORY_DATA = Path(__file__).resolve().parent.parent / "data"
PACKAGED_DATA = Path(__file__).resolve().parent / "data"
DATA_DIR = PACKAGED_DATA if PACKAGED_DATA.is_dir() else REPOSITORY_DATA

SHA256 = {
    "bank_marketing.csv": "09de0bb208744ae3f9856b3cdf80c47bc249e651fb3f42d21aff19f927e61f5a",
    "power_plant.csv": "76855630b59fb9b2ef08e02d5907f8c73f18d97a476ac25f06cca6dd7fe2df21",
}


def verified_path(filename: str, data_dir: str | Path | None = None) -> Path:
    """Return the path of a course data file after checking its SHA-256.

    Raises ``FileNotFoundError`` when the file is missing and ``ValueError``
    when its content differs from the published file.
    """
    if filename not in SHA256:
        raise ValueError(f"unknown data file {filename!r}; known files: {sorted(SHA256)}")
    path = Path(data_dir if data_dir is not None else DATA_DIR) / filename
    if not path.is_file():
        raise FileNotFoundError(
            f"data file {filename} is missing: expected it at {path} (it ships in the repository's data/ folder)"
        )
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != SHA256[filename]:
        raise ValueError(
            f"data file {filename} has been altered: SHA-256 {digest} differs from the published "
            f"{SHA256[filename]}; restore it with `git checkout -- data/{filename}`"
        )
    return path


def load_bank_marketing(drop_duration: bool = True, data_dir: str | Path | None = None):
    """Bank-marketing campaign data (UCI, CC BY 4.0): 4,521 clients, 11.5 % subscribed.

    Returns ``(X, y)``: a DataFrame of the features and a 0/1 Series named ``y``
    (1 = subscribed to a term deposit). ``duration`` is dropped by default: it
    is only known after the call, so it leaks the outcome.
    """
    frame = pd.read_csv(verified_path("bank_marketing.csv", data_dir))
    y = (frame.pop("y") == "yes").astype(int).rename("y")
    if drop_duration:
        frame = frame.drop(columns="duration")
    return frame, y


def load_power_plant(data_dir: str | Path | None = None):
    """Combined-cycle power-plant data (UCI, CC BY 4.0): 9,568 hourly rows.

    Returns ``(X, y)``: the ambient features ``AT, V, AP, RH`` and the net
    electrical output ``PE`` in MW.
    """
    frame = pd.read_csv(verified_path("power_plant.csv", data_dir))
    y = frame.pop("PE")
    return frame, y


class Counts(NamedTuple):
    """A binary confusion matrix as counts, in ``confusion_counts`` order."""

    tp: int
    fp: int
    fn: int
    tn: int


# Binary confusion matrices of the lecture notes (000).
BUY_COMPUTER = Counts(tp=6954, fp=412, fn=46, tn=2588)
CANCER = Counts(tp=90, fp=140, fn=210, tn=9560)
# The two cancer classifiers of "recall vs precision": A is lenient, B strict.
HIGH_RECALL = Counts(tp=280, fp=420, fn=20, tn=9280)
HIGH_PRECISION = Counts(tp=50, fp=5, fn=250, tn=9695)
# What the notes print where they are wrong (see ERRATA.md), for side-by-side cells.
NOTES_CANCER_ACCURACY = 0.964

# The 3-class agreement matrix of the kappa example (rows actual, columns predicted).
KAPPA_MATRIX = ((90, 5, 5), (1, 90, 9), (0, 9, 1))
NOTES_KAPPA_P_I = (0.2021, 0.2303, 0.07)
NOTES_KAPPA_P_E = 0.4352

# The 8-sample, 3-class example of the multiclass metrics.
EIGHT_TRUE = (0, 0, 1, 1, 1, 2, 2, 2)
EIGHT_PRED = (0, 0, 0, 1, 2, 1, 1, 2)
NOTES_EIGHT_GMEAN_0 = 0.8
NOTES_EIGHT_WEIGHTED_F1 = 0.511
NOTES_EIGHT_WEIGHTED_GMEAN = 0.5895  # 4.716576 / 8 = 0.5896

# The notes' "three classifiers, same accuracy" on 100 samples with 10% positives.
SAME_ACCURACY = {
    "always negative": Counts(tp=0, fp=0, fn=10, tn=90),
    "half the positives": Counts(tp=5, fp=5, fn=5, tn=85),
    "every positive": Counts(tp=10, fp=10, fn=0, tn=80),
}

# The Coronavirus / Flu / Ok example (the notes spell the second class "Flue").
FLU_TRUE = ("Coronavirus",) * 6 + ("Flu",) * 10 + ("Ok",) * 9
FLU_PRED = (
    ("Coronavirus",) * 4 + ("Ok", "Flu")
    + ("Coronavirus",) * 6 + ("Ok", "Ok", "Flu", "Flu")
    + ("Coronavirus",) * 3 + ("Ok",) * 6
)

# The 10-tuple ROC example: labels (1 = P) and scores, sorted by decreasing score.
ROC_TEN_LABELS = (1, 1, 0, 1, 1, 0, 0, 0, 1, 0)
ROC_TEN_SCORES = (0.9, 0.8, 0.7, 0.6, 0.55, 0.54, 0.53, 0.51, 0.5, 0.4)

# Regression examples of the R^2 discussion (002): (y_true, y_pred) pairs.
R2_EXAMPLE = ((3, -0.5, 2, 7), (2.5, 0.0, 2, 8))
R2_PERFECT = ((1, 2, 3), (1, 2, 3))
R2_MEAN_PREDICTOR = ((1, 2, 3), (2, 2, 2))
R2_REVERSED = ((1, 2, 3), (3, 2, 1))
