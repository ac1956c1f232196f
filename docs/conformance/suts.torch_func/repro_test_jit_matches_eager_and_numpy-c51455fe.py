"""jaxcheck reproducer: jit(f)(x).

Expected values come from suts.torch_func eager.
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

def false6(b0):
    d0 = b0 ** 2
    return d0

def inner10(a0):
    c0 = jnp.sum(a0, axis=None)
    return c0

def f(x0, x1):
    v0 = x1 ** 1
    def inner0(a0):
        c0 = a0 - v0
        c1 = c0 ** 0
        return c1
    v1 = sut.jit(inner0)(x0)
    def inner2(a0):
        c0 = jnp.matmul(a0, x1)
        c1 = c0 ** 1
        def true5(b0):
            d0 = jnp.sin(c0)
            return d0
        c2 = sut.lax.cond(jnp.sum(c1) < 0.0, true5, false6, x0)
        return c2
    v2 = sut.grad(inner2)(v1)
    v3 = jnp.broadcast_to(v2, (2, 2))
    def step9(a0, a1):
        c0 = jnp.reshape(v1, (1, 2))
        return a1, c0
    v4, v5 = sut.lax.scan(step9, v2, v3)
    v6 = sut.grad(inner10)(v5)
    v7 = jnp.subtract(v6, x1)
    v8 = jnp.sqrt(v5)
    v9 = jnp.sqrt(v7)
    v10 = jnp.concatenate([v9, v8], axis=2)
    return v10

def check(x0, x1):
    return sut.jit(f)(x0, x1)

# Inputs, as exact float64 literals.
x0 = np.array(0.1)
x1 = np.array([0.085, -1.577])

actual = check(x0, x1)
expected = (
    np.array([[[0.9565563234854496, 1.605303709582707, 1.0, 1.0]], [[0.9565563234854496, 1.605303709582707, 1.0, 1.0]]]),
)
error = (
    np.array([[[0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0]]]),
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
        abs_err = np.abs(a - e)
        rel_err = abs_err / np.maximum(np.abs(e), np.finfo(np.float64).tiny)
        allowed = ATOL + RTOL * np.abs(e) + ERROR_FACTOR * err
        print(f"  max abs error {abs_err.max(initial=0):.3g}, "
              f"max rel error {rel_err.max(initial=0):.3g}, "
              f"{(abs_err / allowed).max(initial=0):.3g} times the tolerance")
        ok &= bool(np.all(abs_err <= allowed))
    print("agree within tolerance" if ok else "MISMATCH")
    return ok


sys.exit(0 if compare(actual, expected, error) else 1)
