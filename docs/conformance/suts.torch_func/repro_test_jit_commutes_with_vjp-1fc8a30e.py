"""jaxcheck reproducer: jit(vjp(f)).

Expected values come from vjp(jit(f)) on suts.torch_func.
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

def inner3(a0):
    return a0

def inner4(a0):
    return a0

def true8(b0):
    return b0

def false10(a0):
    c0 = -a0
    return c0

def f(x0):
    v0 = 2.0 * x0
    v1 = jnp.negative(v0)
    v2 = jnp.tanh(v1)
    v3 = jnp.multiply(v2, x0)
    v4 = v3 - 0.5
    v5 = jnp.divide(2.0, v4)
    v6 = jnp.cos(v5)
    v7 = v6 - x0
    v8 = v7 / v4
    v9 = jnp.sin(v8)
    def body0(carry):
        count, a0 = carry
        c0 = jnp.add(a0, v7)
        c1 = count + 1.0
        return c1, c0
    v10 = sut.lax.while_loop(lambda carry: carry[0] < 3.5, body0, (0.0, v9))[1]
    v11 = jnp.tanh(v10)
    v12 = inner3(v11)
    v13 = sut.jvp(inner4, (v12,), (v0,))[1]
    v14 = jnp.dot(v8, v13)
    v15 = v14 ** 0
    v16 = jnp.reshape(v15, (1,))
    v17 = jnp.sqrt(v16)
    def true7(a0):
        c0 = jnp.subtract(v9, v9)
        def false9(b0):
            d0 = jnp.maximum(v1, v3)
            return d0
        c1 = sut.lax.cond(jnp.sum(a0) > 0.0, true8, false9, c0)
        return c1
    v18 = sut.lax.cond(jnp.sum(v17) < -1.0, true7, false10, x0)
    return v18

def transformed(x0, u0):
    out, pullback = sut.vjp(f, x0)
    return out, pullback(u0)

def transformed_of_jit(x0, u0):
    out, pullback = sut.vjp(sut.jit(f), x0)
    return out, pullback(u0)

# Inputs, as exact float64 literals.
x0 = np.array(-0.057)
u0 = np.array(-0.9990000000000001)

actual = sut.jit(transformed)(x0, u0)
expected = transformed_of_jit(x0, u0)
error = (
    np.array(0.0),
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
