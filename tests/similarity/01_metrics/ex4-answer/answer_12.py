def cohen_kappa(cm):
    df = pd.DataFrame(np.asarray(cm, dtype=float))
    n = df.values.sum()
    observed_agreement = sum(df.iat[i, i] for i in range(len(df))) / n
    expected_agreement = (df.sum(axis=1) * df.sum(axis=0)).sum() / n ** 2
    return (observed_agreement - expected_agreement) / (1 - expected_agreement)
