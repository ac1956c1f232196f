"""jaxcheck reproducer: vmap(f, in_axes=(None, -1), out_axes=-1).

Expected values come from f applied to each of 2 batch elements, stacked on axis -1.
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

def f(x0, x1):
    v0 = jnp.linalg.solve(x0, x1)
    return v0

def check(x0, x1):
    return sut.vmap(f, in_axes=(None, -1), out_axes=-1)(x0, x1)

# Inputs, as exact literals.
x0 = np.array([[[-1.3125, -1.8125], [1.8125, -0.3125]], [[1.0625, -0.8125], [0.3125, -1.0625]]])
x1 = np.array([[-0.4375, -0.4375], [-1.4375, -1.9375]])

actual = check(x0, x1)
expected = (
    np.array([[[-0.668076109936575, -0.9133192389006342], [0.7251585623678647, 0.9027484143763214]], [[0.8035714285714287, 1.267857142857143], [1.5892857142857144, 2.1964285714285716]]]),
)
error = (
    np.array([[[0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]]]),
)  # the oracle's own error estimate
RTOL, ATOL, ERROR_FACTOR = 1e-07, 1e-07, 0.0

def leaves(tree):
    if isinstance(tree, dict):
        tree = [tree[key] for key in sorted(tree)]
    if isinstance(tree, tuple | list):
        return [leaf for item in tree for leaf in leaves(item)]
    return [tree]



def compare(actual, expected, error):
    """Print expected against actual; True when they agree within tolerance."""
    actual, expected, error = ([np.asarray(leaf, dtype=np.float64) for leaf in leaves(tree)]
                               for tree in (actual, expected, error))
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
