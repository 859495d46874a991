def cohen_kappa(cm):
    """Kappa from the confusion matrix."""
    cm = np.asarray(cm, dtype=float)
    n = cm.sum()
    row_sums, col_sums = cm.sum(axis=1), cm.sum(axis=0)
    expected_diag = row_sums * col_sums / n
    return (np.trace(cm) - expected_diag.sum()) / (n - expected_diag.sum())
