def specificity_and_npv(tp, fp, fn, tn):
    """Specificity TN/(TN+FP) and negative predictive value TN/(TN+FN)."""
    negatives = fp + tn
    if negatives:
        spec_value = tn / negatives
    else:
        spec_value = float("nan")
    npv_den = fn + tn
    npv_value = float("nan") if not npv_den else tn / npv_den
    return spec_value, npv_value
