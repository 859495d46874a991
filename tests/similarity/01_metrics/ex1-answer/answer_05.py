def specificity_and_npv(tp, fp, fn, tn):
    # 0 / 0 gives nan in numpy (tn is 0 whenever a denominator is)
    with np.errstate(divide="ignore", invalid="ignore"):
        values = np.divide(float(tn), np.array([tn + fp, tn + fn], dtype=float))
    spec, npv = (float(v) for v in values)
    return spec, npv
