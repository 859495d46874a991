import math

def specificity_and_npv(tp, fp, fn, tn):
    actual_negatives = tn + fp
    predicted_negatives = tn + fn
    specificity = tn / actual_negatives if actual_negatives > 0 else math.nan
    npv = tn / predicted_negatives if predicted_negatives > 0 else math.nan
    return specificity, npv
