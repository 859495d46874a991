def specificity_and_npv(tp, fp, fn, tn):
    cm = np.array([[tn, fp], [fn, tp]], dtype=float)
    col_neg = cm[:, 0].sum()   # predicted negative
    row_neg = cm[0, :].sum()   # actual negative
    specificity = cm[0, 0] / row_neg if row_neg else float("nan")
    npv = cm[0, 0] / col_neg if col_neg else float("nan")
    return specificity, npv
