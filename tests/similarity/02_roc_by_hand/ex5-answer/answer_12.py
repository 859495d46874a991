def calibration_error(y_true, y_prob, n_bins):
    y = np.asarray(y_true, dtype=float)
    p = np.asarray(y_prob, dtype=float)
    edges = np.linspace(0, 1, n_bins + 1)
    lower = edges[:-1].copy()
    lower[0] = -np.inf
    member = (p[:, None] > lower[None, :]) & (p[:, None] <= edges[None, 1:])
    counts = member.sum(axis=0)
    gaps = np.abs(member.T @ y - member.T @ p)
    return float(gaps[counts > 0].sum() / len(p))
