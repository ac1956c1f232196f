"""jaxcheck reproducer: jit(jvp(f)).

Expected values come from jvp(jit(f)) on suts.torch_func.
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
    def inner0(a0):
        def inner1(b0):
            d0 = jnp.dot(b0, x0)
            d1 = jnp.add(d0, x0)
            d2 = jnp.add(d1, x0)
            return d2
        c0 = inner1(a0)
        return c0
    v0 = sut.jvp(inner0, (x1,), (x1,))[1]
    v1 = jnp.expm1(v0)
    return v1

def transformed(x0, x1, t0, t1):
    return sut.jvp(f, (x0, x1), (t0, t1))

def transformed_of_jit(x0, x1, t0, t1):
    return sut.jvp(sut.jit(f), (x0, x1), (t0, t1))

# Inputs, as exact float64 literals.
x0 = np.array([[[-0.362, -1.75, 0.302, 0.785, -0.087], [-0.011, 1.024, 0.96, -0.352, -0.145], [0.366, -0.359, 0.133, 0.342, -2.0], [0.085, 0.654, -0.6, 1.4, 0.5], [0.282, -0.636, 0.335, 1.077, -0.033]], [[0.256, 0.218, -0.544, 0.113, -1.011], [-0.346, 1.486, -0.148, 0.037, 0.204], [-0.663, -0.482, 0.054, 0.518, 0.339], [-1.058, -0.187, -0.368, -1.326, -0.238], [-0.769, 0.111, 0.798, 0.37, -0.417]], [[0.081, 0.557, 0.073, 0.243, -1.363], [-1.627, -0.196, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]]])
x1 = np.array(0.0)
t0 = np.array([[[1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0]], [[1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0]], [[1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0]], [[1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0]], [[1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0]]])
t1 = np.array(1.0)

actual = sut.jit(transformed)(x0, x1, t0, t1)
expected = transformed_of_jit(x0, x1, t0, t1)
error = (
    np.array([[[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]]]),
    np.array([[[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]]]),
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
