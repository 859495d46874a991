import math

def cohen_kappa(cm):
    arr = np.asarray(cm, dtype=float)
    size = arr.sum()
    po = math.fsum(arr[k, k] for k in range(arr.shape[0])) / size
    pe = math.fsum(arr[k].sum() * arr[:, k].sum() for k in range(arr.shape[0])) / size**2
    return (po - pe) / (1 - pe)
