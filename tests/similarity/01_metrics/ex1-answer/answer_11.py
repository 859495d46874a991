def specificity_and_npv(tp, fp, fn, tn):
    # YOUR CODE HERE
    spec = np.nan
    npv = np.nan
    if (tn + fp) != 0:
        spec = tn / (tn + fp)
    if (tn + fn) != 0:
        npv = tn / (tn + fn)
    return spec, npv
