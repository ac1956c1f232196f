"""jaxcheck reproducer: jvp of f (x ** n at 0).

Expected values come from the contract's convention for x ** n at 0 (docs/sut-api.md, JAX's), as finite parts then kinds (0 finite, 1 NaN, 2 +inf, 3 -inf).
Tolerance: the convention's value by the same chain rule in NumPy; NaN and inf compared by kind.
Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.mlx')

import numpy as np

jnp = sut.numpy

def edges(*arrays):
    """Each array's finite part (NaN and inf as 0.0), then each array's kinds (0 finite,
    1 NaN, 2 +inf, 3 -inf): finite values that compare as numbers, edges as kinds."""
    arrays = [np.asarray(a, dtype=np.float64) for a in arrays]
    finite = [np.where(np.isfinite(a), a, 0.0) for a in arrays]
    kinds = [np.select([np.isnan(a), a == np.inf, a == -np.inf], [1.0, 2.0, 3.0], 0.0)
             for a in arrays]
    return (*finite, *kinds)

def as_tuple(value):
    """f's outputs as a tuple (a row's f returns one array or several)."""
    return value if isinstance(value, tuple) else (value,)

def f(x0):
    return x0 ** 0, x0 ** 1, x0 ** 2, x0 ** 3

def check(x0, t0):
    out, tangent = sut.jvp(f, (x0,), (t0,))
    return as_tuple(out) + as_tuple(tangent)

# Inputs, as exact literals.
x0 = np.array(0.0)
t0 = np.array(1.0)

actual = edges(*check(x0, t0))
expected = (
    np.array(1.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(1.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
)
error = (
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
    np.array(0.0),
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
