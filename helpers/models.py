"""Models the notebooks share, so each is defined once."""

from __future__ import annotations

from sklearn.compose import make_column_selector, make_column_transformer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler


def bank_preprocessor():
    """One-hot encode the bank data's text columns and standardise its numeric ones."""
    return make_column_transformer(
        (OneHotEncoder(handle_unknown="ignore"), make_column_selector(dtype_exclude="number")),
        (StandardScaler(), make_column_selector(dtype_include="number")))


def bank_logistic_regression(**params):
    """``bank_preprocessor()`` followed by ``LogisticRegression(**params)`` (notebook 01 builds it step by step)."""
    return make_pipeline(bank_preprocessor(), LogisticRegression(**params))
