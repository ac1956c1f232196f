"""jaxcheck reproducer: <vjp(u), v>, vjp(f, x)(u).

Expected values come from refimpl 0.1.0 (declares unsupported: clip_convention, tie_convention, while_loop_reverse).
Tolerance: float64 rounding differences between correct implementations are < 1e-11.
Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.autograd')

import numpy as np

jnp = sut.numpy

def f(x0, x1):
    v0 = jnp.kron(x0, x1)
    return v0

def along(x0, x1, u0, v0, v1):
    out, pullback = sut.vjp(f, x0, x1)
    cotangents = pullback(u0)
    return sum(np.vdot(c, v) for c, v in zip(cotangents, (v0, v1))), out, cotangents

# Inputs, as exact literals.
x0 = np.array([0.3125, 0.3125])
x1 = np.array([[[0.4375, 0.4375], [0.4375, 0.4375]], [[0.4375, 0.4375], [0.4375, 0.4375]]])
u0 = np.array([[[1.0, 1.0, 1.0, 1.0], [1.0, 0.999, 1.0, 1.0]], [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]])
v0 = np.array([1.0, 1.0])
v1 = np.array([[[1.0, 1.0], [1.0, 1.0]], [[1.0, 1.0], [1.0, 1.0]]])

actual = along(x0, x1, u0, v0, v1)
expected = (
    np.array(11.99925),
    np.array([[[0.13671875, 0.13671875, 0.13671875, 0.13671875], [0.13671875, 0.13671875, 0.13671875, 0.13671875]], [[0.13671875, 0.13671875, 0.13671875, 0.13671875], [0.13671875, 0.13671875, 0.13671875, 0.13671875]]]),
    np.array([3.4995625, 3.5]),
    np.array([[[0.625, 0.625], [0.625, 0.6246875000000001]], [[0.625, 0.625], [0.625, 0.625]]]),
)
error = (
    np.array(0.0),
    np.array([[[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]]),
    np.array([0.0, 0.0]),
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
