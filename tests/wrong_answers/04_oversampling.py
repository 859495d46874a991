"""Plausible wrong answers to notebook 04's exercises, one or more per stated rule.

Each entry: the exercise's answer cell, the rule it breaks, the fragment of the
visible assertion message it must fail with, and the wrong answer's source.
tests/test_wrong_answers.py runs them against the visible tests.
"""

WRONG_ANSWERS = [
    # ---- Exercise 1: interpolate(p, p_prime, r) = p + r (p_prime - p), lists allowed, a NumPy array back
    dict(exercise="ex1-answer", rule="the correct sign, not the notes' p + r (p - p')", message="TOWARDS p_prime",
         source='''
def interpolate(p, p_prime, r):
    p, p_prime = np.asarray(p, dtype=float), np.asarray(p_prime, dtype=float)
    return p + r * (p - p_prime)
'''),
    dict(exercise="ex1-answer", rule="start from p", message="TOWARDS p_prime", source='''
def interpolate(p, p_prime, r):
    p, p_prime = np.asarray(p, dtype=float), np.asarray(p_prime, dtype=float)
    return r * (p_prime - p)
'''),
    dict(exercise="ex1-answer", rule="return a NumPy array", message="return a NumPy array", source='''
def interpolate(p, p_prime, r):
    return [a + r * (b - a) for a, b in zip(p, p_prime)]
'''),
    dict(exercise="ex1-answer", rule="p and p_prime may be lists", message="may be lists", source='''
def interpolate(p, p_prime, r):
    return p + r * (p_prime - p)
'''),
    # ---- Exercise 2: adasyn_numbers(ratios, G): normalise, times G, np.rint, integers, a NumPy array
    dict(exercise="ex2-answer", rule="normalise the ratios to sum to 1", message="the notes' example", source='''
def adasyn_numbers(ratios, G):
    return np.rint(np.asarray(ratios, dtype=float) * G).astype(int)
'''),
    dict(exercise="ex2-answer", rule="round with np.rint (halves to even)", message="rounds to the even", source='''
def adasyn_numbers(ratios, G):
    ratios = np.asarray(ratios, dtype=float)
    return np.floor(ratios / ratios.sum() * G + 0.5).astype(int)
'''),
    dict(exercise="ex2-answer", rule="round to the nearest, not down", message="the notes' example", source='''
def adasyn_numbers(ratios, G):
    ratios = np.asarray(ratios, dtype=float)
    return (ratios / ratios.sum() * G).astype(int)
'''),
    dict(exercise="ex2-answer", rule="integers", message="return integers", source='''
def adasyn_numbers(ratios, G):
    ratios = np.asarray(ratios, dtype=float)
    return np.rint(ratios / ratios.sum() * G)
'''),
    dict(exercise="ex2-answer", rule="a NumPy array", message="return a NumPy array", source='''
def adasyn_numbers(ratios, G):
    total = sum(ratios)
    return [int(np.rint(r / total * G)) for r in ratios]
'''),
    dict(exercise="ex2-answer", rule="use the G argument", message="multiply by G", source='''
def adasyn_numbers(ratios, G):
    ratios = np.asarray(ratios, dtype=float)
    return np.rint(ratios / ratios.sum() * 7).astype(int)
'''),
    dict(exercise="ex2-answer", rule="ratios may be a list", message="may be a list", source='''
def adasyn_numbers(ratios, G):
    return np.rint(ratios / ratios.sum() * G).astype(int)
'''),
    # ---- Exercise 3: is_danger(n_majority_neighbours, m): m/2 <= m' < m, a NumPy array of booleans
    dict(exercise="ex3-answer", rule="m/2 itself is danger (>=, not >)", message="5 to 9 majority neighbours", source='''
def is_danger(n_majority_neighbours, m):
    counts_ = np.asarray(n_majority_neighbours)
    return (counts_ > m / 2) & (counts_ < m)
'''),
    dict(exercise="ex3-answer", rule="m of m is noise, not danger", message="noise, not danger", source='''
def is_danger(n_majority_neighbours, m):
    counts_ = np.asarray(n_majority_neighbours)
    return (counts_ >= m / 2) & (counts_ <= m)
'''),
    dict(exercise="ex3-answer", rule="m/2, not m // 2 (odd m)", message="not m // 2", source='''
def is_danger(n_majority_neighbours, m):
    counts_ = np.asarray(n_majority_neighbours)
    return (counts_ >= m // 2) & (counts_ < m)
'''),
    dict(exercise="ex3-answer", rule="use the m argument", message="use the argument m", source='''
def is_danger(n_majority_neighbours, m):
    counts_ = np.asarray(n_majority_neighbours)
    return (counts_ >= 5) & (counts_ < 10)
'''),
    dict(exercise="ex3-answer", rule="a NumPy array of booleans", message="a NumPy array of booleans", source='''
def is_danger(n_majority_neighbours, m):
    return [m / 2 <= c < m for c in n_majority_neighbours]
'''),
    dict(exercise="ex3-answer", rule="the counts may be a list", message="may be a list", source='''
def is_danger(n_majority_neighbours, m):
    return (n_majority_neighbours >= m / 2) & (n_majority_neighbours < m)
'''),
    # ---- Exercise 4: honest_smote_model(k): imblearn pipeline, preprocessor, SMOTE(k, RANDOM_STATE), LR newton-cholesky
    dict(exercise="ex4-answer", rule="an imbalanced-learn Pipeline", message="imbalanced-learn Pipeline", source='''
def honest_smote_model(k):
    from sklearn.pipeline import Pipeline as SkPipeline
    return SkPipeline([("prep", bank_preprocessor()), ("smote", SMOTE(k_neighbors=k, random_state=RANDOM_STATE)),
                       ("model", LogisticRegression(solver="newton-cholesky"))])
'''),
    dict(exercise="ex4-answer", rule="the steps in this order", message="in this order", source='''
def honest_smote_model(k):
    return make_pipeline(SMOTE(k_neighbors=k, random_state=RANDOM_STATE), bank_preprocessor(),
                         LogisticRegression(solver="newton-cholesky"))
'''),
    dict(exercise="ex4-answer", rule="use the k argument", message="pass k to SMOTE", source='''
def honest_smote_model(k):
    return make_pipeline(bank_preprocessor(), SMOTE(random_state=RANDOM_STATE),
                         LogisticRegression(solver="newton-cholesky"))
'''),
    dict(exercise="ex4-answer", rule="random_state=RANDOM_STATE", message="random_state=RANDOM_STATE", source='''
def honest_smote_model(k):
    return make_pipeline(bank_preprocessor(), SMOTE(k_neighbors=k),
                         LogisticRegression(solver="newton-cholesky"))
'''),
    dict(exercise="ex4-answer", rule='solver="newton-cholesky"', message="newton-cholesky", source='''
def honest_smote_model(k):
    return make_pipeline(bank_preprocessor(), SMOTE(k_neighbors=k, random_state=RANDOM_STATE), LogisticRegression())
'''),
    dict(exercise="ex4-answer", rule="SMOTE's parameter is k_neighbors", message="k_neighbors=", source='''
def honest_smote_model(k):
    return make_pipeline(bank_preprocessor(), SMOTE(n_neighbors=k, random_state=RANDOM_STATE),
                         LogisticRegression(solver="newton-cholesky"))
'''),
]

# ---- appended for issue 20: the caller's arrays, rounding, and parameters the older visible tests did not check
WRONG_ANSWERS += [
    dict(exercise="ex1-answer", rule="never change the caller's arrays", message="do not change the caller's arrays",
         source='''
def interpolate(p, p_prime, r):
    p, p_prime = np.asarray(p, dtype=float), np.asarray(p_prime, dtype=float)
    p += r * (p_prime - p)
    return p
'''),
    dict(exercise="ex1-answer", rule="the new point is not rounded", message="do not round the new point", source='''
def interpolate(p, p_prime, r):
    p, p_prime = np.asarray(p, dtype=float), np.asarray(p_prime, dtype=float)
    return np.round(p + r * (p_prime - p), 2)
'''),
    dict(exercise="ex1-answer", rule="integer inputs still give decimals", message="do not round the new point",
         source='''
def interpolate(p, p_prime, r):
    new = np.array(p)
    new[:] = new + r * (np.asarray(p_prime) - new)
    return new
'''),
    dict(exercise="ex4-answer", rule="SMOTE exactly as stated (sampling_strategy left at its default)",
         message="SMOTE differs from the stated construction: sampling_strategy", source='''
def honest_smote_model(k):
    return make_pipeline(bank_preprocessor(), SMOTE(k_neighbors=k, random_state=RANDOM_STATE, sampling_strategy=0.5),
                         LogisticRegression(solver="newton-cholesky"))
'''),
    dict(exercise="ex4-answer", rule="LogisticRegression exactly as stated (C left at its default)",
         message="LogisticRegression differs from the stated construction: C=0.5", source='''
def honest_smote_model(k):
    return make_pipeline(bank_preprocessor(), SMOTE(k_neighbors=k, random_state=RANDOM_STATE),
                         LogisticRegression(solver="newton-cholesky", C=0.5))
'''),
]

# ---- appended for issue 30: the mistakes students made (students-and-accessibility review)
WRONG_ANSWERS += [
    dict(exercise="ex1-answer", rule="any number of features, not two", message="any number of features", source='''
def interpolate(p, p_prime, r):
    return np.array([p[0] + r * (p_prime[0] - p[0]), p[1] + r * (p_prime[1] - p[1])], dtype=float)
'''),
    dict(exercise="ex1-answer", rule="never change the caller's arrays (p_prime changed in place)",
         message="your function changed p_prime", source='''
def interpolate(p, p_prime, r):
    p, p_prime = np.asarray(p, dtype=float), np.asarray(p_prime, dtype=float)
    p_prime -= p
    return p + r * p_prime
'''),
    dict(exercise="ex2-answer", rule="never change the caller's ratios (normalised in place)",
         message="normalised them in place", source='''
def adasyn_numbers(ratios, G):
    r = np.asarray(ratios, dtype=float)
    r /= r.sum()
    return np.rint(r * G).astype(int)
'''),
]
