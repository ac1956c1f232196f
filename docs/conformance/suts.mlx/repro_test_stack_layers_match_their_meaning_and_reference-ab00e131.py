"""jaxcheck reproducer: vmap(f).

Expected values come from f on each of 2 batch elements on suts.mlx, stacked on axis 0.
Tolerance: float64 rounding differences between correct implementations are < 1e-11.
Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.mlx')

import numpy as np

jnp = sut.numpy

def f(x0, x1, x2):
    v0 = jnp.add(x0, x1)
    return v0, v0

g0 = f

g1 = sut.vmap(g0, in_axes=(0, 0, None), out_axes=0)

def looped(x0, x1, x2):
    outs = [g0(np.take(x0, i, 0), np.take(x1, i, 0), x2) for i in range(2)]
    return tuple(np.stack(ys, axis=0) for ys in zip(*outs))

# Inputs, as exact float64 literals.
x0 = np.array([0.0, 0.0])
x1 = np.zeros((2, 0))
x2 = np.array([0.0, 0.0])

actual = g1(x0, x1, x2)
expected = looped(x0, x1, x2)
error = (
    np.zeros((2, 0)),
    np.zeros((2, 0)),
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
