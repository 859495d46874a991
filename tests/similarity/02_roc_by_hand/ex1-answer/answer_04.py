def roc_point(y_true, y_score, threshold):
    frame = pd.DataFrame({"label": list(y_true), "called": np.asarray(y_score) >= threshold})
    rates = frame.groupby("label")["called"].mean()
    return float(rates.loc[0]), float(rates.loc[1])
