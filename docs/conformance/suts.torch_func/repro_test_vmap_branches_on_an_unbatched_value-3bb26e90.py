"""jaxcheck reproducer: vmap(f, in_axes=(None, None, -1), out_axes=2).

Expected values come from NumPy float64 on each of 2 batch elements, stacked on axis 2.
Tolerance: float64 rounding differences between correct implementations are < 1e-11.
Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.torch_func')

import numpy as np

jnp = sut.numpy

def f(x0, x1, x2):
    v0 = jnp.reshape(x1, (8, 1))
    v1 = jnp.tan(v0)
    if jnp.sum(x0) > -1.417:
        v3 = jnp.divide(v1, 2.0)
        v4 = jnp.tanh(v3)
        y = v4
    else:
        y = 1.0 - v1
    return y

def check(x0, x1, x2):
    return sut.vmap(f, in_axes=(None, None, -1), out_axes=2)(x0, x1, x2)

# Inputs, as exact float64 literals.
x0 = np.array([0.122, -0.289])
x1 = np.array([[[-0.341, 1.876], [0.386, -0.538]], [[0.033, -0.019], [0.614, -0.405]]])
x2 = np.array([-0.265, -0.009])

actual = check(x0, x1, x2)
expected = (
    np.array([[[-0.17559240212913796, -0.17559240212913796]], [[-0.9196979941604837, -0.9196979941604837]], [[0.2004423239130047, 0.2004423239130047]], [[-0.28980843515024585, -0.28980843515024585]], [[0.016504493266574653, 0.016504493266574653]], [[-0.009500857447222191, -0.009500857447222191]], [[0.33854190486117725, 0.33854190486117725]], [[-0.21112616820664776, -0.21112616820664776]]]),
)
error = (
    np.array([[[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]]]),
)  # the oracle's own error estimate
RTOL, ATOL, ERROR_FACTOR = 1e-07, 1e-07, 0.0

def leaves(tree):
    if isinstance(tree, dict):
        tree = [tree[key] for key in sorted(tree)]
    if isinstance(tree, tuple | list):
        return [leaf for item in tree for leaf in leaves(item)]
    return [np.asarray(tree, dtype=np.float64)]


def compare(actual, expected, error):
    """Print expected against actual; True when they agree within tolerance."""
    actual, expected, error = leaves(actual), leaves(expected), leaves(error)
    ok = len(actual) == len(expected)
    if not ok:
        print(f"got {len(actual)} outputs, but should be {len(expected)}")
    for i, (a, e, err) in enumerate(zip(actual, expected, error)):
        print(f"output {i}:\n  expected {e.tolist()}\n  actual   {a.tolist()}")
        if a.shape != e.shape:
            print(f"  shape {a.shape}, but should be {e.shape}")
            ok = False
            continue
        same = (a == e) | (np.isnan(a) & np.isnan(e))  # the same NaN or infinity agrees
        with np.errstate(invalid="ignore"):
            abs_err = np.where(same, 0.0, np.abs(a - e))
            rel_err = np.where(same, 0.0, abs_err / np.maximum(np.abs(e), np.finfo(float).tiny))
            allowed = ATOL + RTOL * np.abs(e) + ERROR_FACTOR * err
            times = np.where(same, 0.0, abs_err / allowed)
        print(f"  max abs error {abs_err.max(initial=0):.3g}, "
              f"max rel error {rel_err.max(initial=0):.3g}, "
              f"{times.max(initial=0):.3g} times the tolerance")
        ok &= bool(np.all(same | (abs_err <= allowed)))
    print("agree within tolerance" if ok else "MISMATCH")
    return ok


sys.exit(0 if compare(actual, expected, error) else 1)
