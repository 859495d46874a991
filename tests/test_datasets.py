"""Unit tests of helpers.datasets: the verified loaders and the lecture-note constants."""

from __future__ import annotations

import hashlib
import shutil
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from helpers.datasets import (
    BUY_COMPUTER,
    CANCER,
    DATA_DIR,
    EIGHT_PRED,
    EIGHT_TRUE,
    FLU_PRED,
    FLU_TRUE,
    HIGH_PRECISION,
    HIGH_RECALL,
    KAPPA_MATRIX,
    NOTES_CANCER_ACCURACY,
    NOTES_EIGHT_GMEAN_0,
    NOTES_EIGHT_WEIGHTED_F1,
    NOTES_KAPPA_P_E,
    NOTES_KAPPA_P_I,
    R2_EXAMPLE,
    R2_MEAN_PREDICTOR,
    R2_PERFECT,
    R2_REVERSED,
    ROC_TEN_LABELS,
    ROC_TEN_SCORES,
    SHA256,
    Counts,
    load_bank_marketing,
    load_power_plant,
    verified_path,
)

BANK_FEATURES = [
    "age", "job", "marital", "education", "default", "balance", "housing", "loan", "contact",
    "day", "month", "duration", "campaign", "pdays", "previous", "poutcome",
]
LOADERS = {"bank_marketing.csv": load_bank_marketing, "power_plant.csv": load_power_plant}


@pytest.fixture(scope="module")
def bank():
    return load_bank_marketing()


@pytest.fixture(scope="module")
def power():
    return load_power_plant()


@pytest.fixture
def data_copy(tmp_path):
    """A private copy of data/ that a test may alter or empty."""
    for name in SHA256:
        shutil.copyfile(DATA_DIR / name, tmp_path / name)
    return tmp_path


# =========================================================================== the published files
@pytest.mark.parametrize("name", sorted(SHA256))
def test_checked_in_files_have_the_published_checksums(name):
    assert hashlib.sha256((DATA_DIR / name).read_bytes()).hexdigest() == SHA256[name]
    assert verified_path(name) == DATA_DIR / name


def test_checksums_match_the_data_readme():
    readme = (DATA_DIR / "README.md").read_text(encoding="utf-8")
    for name, digest in SHA256.items():
        assert f"{digest}  {name}" in readme


# =========================================================================== bank marketing
def test_bank_marketing_shape_and_target(bank):
    X, y = bank
    assert isinstance(X, pd.DataFrame) and isinstance(y, pd.Series)
    assert X.shape == (4521, 15) and len(y) == 4521
    assert list(X.columns) == [c for c in BANK_FEATURES if c != "duration"]
    assert y.name == "y" and y.dtype.kind == "i"
    assert set(y.unique()) == {0, 1}
    assert int(y.sum()) == 521 and int((y == 0).sum()) == 4000
    assert (X.index == y.index).all()
    assert not X.isna().any().any()


def test_bank_marketing_first_row(bank):
    X, y = bank
    first = X.iloc[0]
    assert (first["age"], first["job"], first["marital"], first["balance"], first["month"]) == (
        30, "unemployed", "married", 1787, "oct"
    )
    assert y.iloc[0] == 0


def test_bank_marketing_keeps_duration_on_request():
    X, y = load_bank_marketing(drop_duration=False)
    assert list(X.columns) == BANK_FEATURES
    assert X.shape == (4521, 16) and int(y.sum()) == 521
    # The leak the README warns about: median call length 442 s for "yes", 167 s for "no".
    medians = X["duration"].groupby(y).median()
    assert medians.to_dict() == {0: 167, 1: 442}


def test_loaders_do_not_depend_on_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    X, y = load_bank_marketing()
    assert len(X) == 4521
    X, y = load_power_plant()
    assert len(X) == 9568


def test_loaders_return_fresh_frames(bank):
    X, y = bank
    X2, y2 = load_bank_marketing()
    X2.iloc[0, 0] = -1
    y2.iloc[0] = 1
    assert X.iloc[0, 0] == 30 and y.iloc[0] == 0


# =========================================================================== power plant
def test_power_plant_shape_and_target(power):
    X, y = power
    assert isinstance(X, pd.DataFrame) and isinstance(y, pd.Series)
    assert list(X.columns) == ["AT", "V", "AP", "RH"]
    assert X.shape == (9568, 4) and len(y) == 9568
    assert y.name == "PE" and y.dtype == float
    assert X.dtypes.map(lambda d: d.kind == "f").all()
    assert X.iloc[0].tolist() == [8.34, 40.77, 1010.84, 90.01] and y.iloc[0] == 480.48
    # Published figures (data/README.md).
    assert round(y.mean(), 2) == 454.37 and (y.min(), y.max()) == (420.26, 495.76)
    assert X.mean().round(2).tolist() == [19.65, 54.31, 1013.26, 73.31]
    assert not X.isna().any().any()


# =========================================================================== missing or altered files
@pytest.mark.parametrize("name", sorted(SHA256))
def test_a_missing_file_is_named(data_copy, name):
    (data_copy / name).unlink()
    with pytest.raises(FileNotFoundError, match=rf"data file {name} is missing"):
        LOADERS[name](data_dir=data_copy)
    with pytest.raises(FileNotFoundError, match=name):
        verified_path(name, data_copy)


@pytest.mark.parametrize("name", sorted(SHA256))
def test_an_altered_file_is_named(data_copy, name):
    path = data_copy / name
    text = path.read_text()
    path.write_text(text.replace(",", ";", 1))  # one character of the header changed
    with pytest.raises(ValueError, match=rf"data file {name} has been altered"):
        LOADERS[name](data_dir=data_copy)


@pytest.mark.parametrize("name", sorted(SHA256))
def test_a_truncated_or_reencoded_file_is_rejected(data_copy, name):
    path = data_copy / name
    data = path.read_bytes()
    path.write_bytes(data[:-1])  # the final newline removed: the same table to pandas
    with pytest.raises(ValueError, match=f"{name} has been altered"):
        LOADERS[name](data_dir=data_copy)
    path.write_bytes(data.replace(b"\n", b"\r\n"))  # CRLF line endings
    with pytest.raises(ValueError, match=f"{name} has been altered"):
        LOADERS[name](data_dir=data_copy)


def test_an_intact_copy_loads_and_only_the_altered_file_fails(data_copy):
    X, y = load_power_plant(data_dir=str(data_copy))  # a str is accepted too
    assert X.shape == (9568, 4)
    (data_copy / "bank_marketing.csv").write_text("age,y\n30,no\n")
    with pytest.raises(ValueError, match="bank_marketing.csv"):
        load_bank_marketing(data_dir=data_copy)
    assert load_power_plant(data_dir=data_copy)[0].shape == (9568, 4)


def test_unknown_data_file_is_rejected():
    with pytest.raises(ValueError, match="unknown data file 'iris.csv'"):
        verified_path("iris.csv")


# =========================================================================== lecture-note constants
@pytest.mark.parametrize(
    "counts, total, positives",
    [
        pytest.param(BUY_COMPUTER, 10_000, 7000, id="buy-computer"),
        pytest.param(CANCER, 10_000, 300, id="cancer"),
        pytest.param(HIGH_RECALL, 10_000, 300, id="high-recall"),
        pytest.param(HIGH_PRECISION, 10_000, 300, id="high-precision"),
    ],
)
def test_binary_matrices(counts, total, positives):
    assert isinstance(counts, Counts) and len(counts) == 4
    assert all(isinstance(c, int) and c >= 0 for c in counts)
    assert counts._fields == ("tp", "fp", "fn", "tn")
    assert sum(counts) == total
    assert counts.tp + counts.fn == positives


def test_cancer_constants():
    assert CANCER == (90, 140, 210, 9560)
    assert NOTES_CANCER_ACCURACY == 0.964
    assert (CANCER.tp + CANCER.tn) / sum(CANCER) == 0.965 != NOTES_CANCER_ACCURACY


def test_kappa_constants():
    matrix = np.array(KAPPA_MATRIX)
    assert matrix.shape == (3, 3) and matrix.sum() == 210
    assert matrix.sum(axis=1).tolist() == [100, 100, 10]
    assert matrix.sum(axis=0).tolist() == [91, 104, 15]
    assert np.trace(matrix) == 181
    # What lecture note 000 prints (its p_i do not even add up to its p_e).
    assert NOTES_KAPPA_P_I == (0.2021, 0.2303, 0.07)
    assert NOTES_KAPPA_P_E == 0.4352


def test_eight_sample_constants():
    assert len(EIGHT_TRUE) == len(EIGHT_PRED) == 8
    assert EIGHT_TRUE == (0, 0, 1, 1, 1, 2, 2, 2)
    assert EIGHT_PRED == (0, 0, 0, 1, 2, 1, 1, 2)
    assert (NOTES_EIGHT_GMEAN_0, NOTES_EIGHT_WEIGHTED_F1) == (0.8, 0.511)


def test_flu_constants():
    assert len(FLU_TRUE) == len(FLU_PRED) == 25
    assert Counter(FLU_TRUE) == {"Coronavirus": 6, "Flu": 10, "Ok": 9}
    assert Counter(FLU_PRED) == {"Coronavirus": 13, "Flu": 3, "Ok": 9}
    assert set(FLU_PRED) == set(FLU_TRUE)


def test_roc_ten_constants():
    assert len(ROC_TEN_LABELS) == len(ROC_TEN_SCORES) == 10
    assert set(ROC_TEN_LABELS) == {0, 1} and sum(ROC_TEN_LABELS) == 5
    assert list(ROC_TEN_SCORES) == sorted(ROC_TEN_SCORES, reverse=True)
    assert roc_auc_score(ROC_TEN_LABELS, ROC_TEN_SCORES) == pytest.approx(19 / 25, rel=1e-12)


@pytest.mark.parametrize("pair", [R2_EXAMPLE, R2_PERFECT, R2_MEAN_PREDICTOR, R2_REVERSED])
def test_r2_constants_are_pairs_of_equal_length(pair):
    y_true, y_pred = pair
    assert len(y_true) == len(y_pred) >= 3
    assert all(isinstance(v, (int, float)) for v in (*y_true, *y_pred))

