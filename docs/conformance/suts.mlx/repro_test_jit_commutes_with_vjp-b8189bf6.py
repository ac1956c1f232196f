"""jaxcheck reproducer: jit(vjp(f)).

Expected values come from vjp(jit(f)) on suts.mlx.
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

def inner0(a0):
    return a0

def true9(a0):
    return a0

def f(x0):
    v0 = jnp.arctan(x0)
    v1 = jnp.add(x0, x0)
    v2 = jnp.subtract(-1.5, v0)
    v3 = jnp.expand_dims(x0, -3)
    v4 = sut.vmap(inner0)(v0)
    v5 = jnp.maximum(2.0, v4)
    v6 = jnp.matmul(v5, v4)
    v7 = jnp.where(jnp.greater(v0, v1), -1.5, 0.5)
    def true3(a0):
        c0 = jnp.add(x0, 0.5)
        return c0
    def false5(a0):
        def inner7(b0):
            d0 = b0 - v2
            d1 = jnp.sum(d0, axis=None)
            return d1
        c0 = sut.grad(inner7)(v7)
        return c0
    v8 = sut.lax.cond(jnp.sum(x0) > 1.0, true3, false5, x0)
    v9 = v8 ** 1
    v10 = jnp.tanh(v9)
    v11 = jnp.dot(v3, v0)
    v12 = jnp.sqrt(v10)
    v13 = v11 / v12
    def false10(a0):
        c0 = jnp.subtract(x0, x0)
        return c0
    v14 = sut.lax.cond(jnp.sum(v13) < 1.0, true9, false10, v6)
    return v14

def transformed(x0, u0):
    out, pullback = sut.vjp(f, x0)
    return out, pullback(u0)

def transformed_of_jit(x0, u0):
    out, pullback = sut.vjp(sut.jit(f), x0)
    return out, pullback(u0)

# Inputs, as exact float64 literals.
x0 = np.array([[0.546]])
u0 = np.array([[0.999]])

actual = sut.jit(transformed)(x0, u0)
expected = transformed_of_jit(x0, u0)
error = (
    np.array([[0.0]]),
    np.array([[0.0]]),
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
