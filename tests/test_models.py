"""The shared bank model equals the pipeline notebook 01 builds by hand."""

import warnings

import numpy as np
from sklearn.compose import make_column_transformer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

from helpers.datasets import load_bank_marketing
from helpers.models import bank_logistic_regression


def test_bank_model_matches_the_explicit_pipeline_and_is_quiet():
    X, y = load_bank_marketing()
    X_train, X_test, y_train, _ = train_test_split(X, y, test_size=0.25, stratify=y, random_state=0)
    categorical = X.select_dtypes(exclude="number").columns
    numeric = X.select_dtypes(include="number").columns
    explicit = make_pipeline(
        make_column_transformer((OneHotEncoder(handle_unknown="ignore"), categorical), (StandardScaler(), numeric)),
        LogisticRegression(max_iter=1000)).fit(X_train, y_train)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        shared = bank_logistic_regression(max_iter=1000).fit(X_train, y_train)
    assert shared[-1].max_iter == 1000
    assert shared[0].get_feature_names_out().tolist() == explicit[0].get_feature_names_out().tolist()
    assert np.allclose(shared.predict_proba(X_test), explicit.predict_proba(X_test), atol=1e-12)
