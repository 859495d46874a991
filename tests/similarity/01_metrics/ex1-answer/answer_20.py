def specificity_and_npv(tp, fp, fn, tn):
    true_negative_rate = tn / (tn + fp) if (tn + fp) > 0 else float('nan')
    negative_pv = tn / (tn + fn) if (tn + fn) > 0 else float('nan')
    return true_negative_rate, negative_pv
