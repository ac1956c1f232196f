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

def inner1(b0):
    return b0

def inner2(b0):
    return b0

def body0(carry):
    count, a0 = carry
    c0 = inner1(a0)
    c1 = jnp.sin(c0)
    c2 = inner2(c1)
    c3 = count + 1.0
    return c3, c2

def body12(i, a0):
    return a0

def f(x0, x1):
    v0 = sut.lax.while_loop(lambda carry: carry[0] < 0.5, body0, (0.0, x1))[1]
    v1 = jnp.cos(v0)
    v2 = jnp.sin(v1)
    v3 = jnp.matmul(x0, v0)
    v4 = jnp.sin(v3)
    v5 = jnp.add(v4, v1)
    v6 = jnp.divide(v2, -1.5)
    v7 = jnp.multiply(v6, v3)
    v8 = jnp.expand_dims(v5, 1)
    v9 = v8 ** 2
    v10 = v9 ** 3
    v11 = jnp.where(jnp.greater(v10, 2.0), 2.0, v9)
    v12 = jnp.dot(x0, x1)
    v13 = v7 ** 2
    def inner7(a0):
        def step8(b0, b1):
            d0 = v13 ** 3
            return b1, d0
        c0, c1 = sut.lax.scan(step8, v0, v12)
        return c1
    v14 = inner7(v11)
    v15 = sut.lax.fori_loop(0, 2, body12, v14)
    return v15, v7

def transformed(x0, x1, u0, u1):
    out, pullback = sut.vjp(f, x0, x1)
    return out, pullback((u0, u1))

def transformed_of_jit(x0, x1, u0, u1):
    out, pullback = sut.vjp(sut.jit(f), x0, x1)
    return out, pullback((u0, u1))

# Inputs, as exact float64 literals.
x0 = np.array([[[0.464, 0.4, -0.715, -1.667], [1.056, -0.24, 0.747, -1.844], [0.871, 0.106, 0.274, 0.353], [-0.447, 1.086, 0.344, -1.999]], [[0.402, 1.057, -2.0, 0.069], [0.287, 0.104, 1.713, -0.506], [0.056, 0.792, 0.695, -1.546], [-0.167, -0.206, 0.019, -0.558]], [[-1.42, -0.339, -0.111, 0.501], [0.659, -0.311, 0.86, -0.947], [-0.728, 0.185, 2.0, -0.061], [0.271, 0.512, -0.921, 0.535]], [[-0.318, 0.3, 0.287, -0.394], [2.0, 0.582, -1.999, 0.1], [0.134, 0.547, -1.581, 1.591], [0.022, 1.024, 0.1, -1.162]]])
x1 = np.array([0.026, -0.721, -1.052, -0.709])
u0 = np.array([[[0.607, 0.836, 0.87, 0.903], [0.92, 0.28800000000000003, -0.31800000000000006, 0.373], [0.8220000000000001, 0.41400000000000003, 0.573, 0.521], [-0.504, 0.488, 0.7130000000000001, -0.32800000000000007]], [[0.927, -0.2629999999999999, -0.3680000000000001, 0.671], [0.6890000000000001, 0.655, 0.735, -0.17100000000000004], [0.74, 0.29300000000000004, 0.08299999999999996, 1.0], [-0.5049999999999999, -0.706, 0.6890000000000001, -0.44199999999999995]], [[0.823, 0.53, 0.632, 0.86], [-0.236, 0.931, 0.241, 0.35], [0.8, 0.994, 0.625, -0.518], [0.262, -0.05699999999999994, 0.973, 0.834]], [[0.7, 0.33599999999999997, 0.737, 0.835], [0.488, 0.488, 0.14200000000000002, 0.793], [-0.28400000000000003, 0.867, 0.946, 0.10699999999999998], [-1.0, 0.848, 0.5700000000000001, 0.21999999999999997]]])
u1 = np.array([[0.913, 0.889, 0.999, 1.0], [0.9, 0.06699999999999995, 0.654, 0.891], [0.833, 0.999, 0.635, 0.636], [0.08499999999999996, 0.14700000000000002, 0.139, 0.615]])

actual = sut.jit(transformed)(x0, x1, u0, u1)
expected = transformed_of_jit(x0, x1, u0, u1)
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
