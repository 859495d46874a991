def roc_point(y_true, y_score, threshold):
    labels = np.asarray(y_true).astype(int)
    hits = np.bincount(labels, weights=(np.asarray(y_score) >= threshold).astype(float), minlength=2)
    sizes = np.bincount(labels, minlength=2)
    rates = hits / sizes
    return rates[0], rates[1]
