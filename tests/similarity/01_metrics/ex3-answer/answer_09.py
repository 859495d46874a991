def macro_and_weighted_f1(y_true, y_pred):
    frame = pd.DataFrame({"t": list(y_true), "p": list(y_pred)})
    results = []
    for cls in pd.unique(frame[["t", "p"]].to_numpy().ravel()):
        hits = ((frame.t == cls) & (frame.p == cls)).sum()
        actual = (frame.t == cls).sum()
        predicted = (frame.p == cls).sum()
        results.append((2 * hits / (actual + predicted), actual))
    f1s = np.array([r[0] for r in results])
    weights = np.array([r[1] for r in results])
    return float(f1s.mean()), float((f1s * weights).sum() / len(frame))
