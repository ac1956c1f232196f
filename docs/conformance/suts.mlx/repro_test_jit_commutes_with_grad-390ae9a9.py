"""jaxcheck reproducer of the shrunk example, before amplification: jit(grad(f)).

Expected values come from grad(jit(f)) on suts.mlx.
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

w0 = np.array([[-0.1439999999999999, -1.0, -0.909, 0.18799999999999994], [0.855, 0.993, 0.254, -0.050000000000000044], [0.95, 0.947, 0.692, -0.06699999999999995], [1.0, 0.8200000000000001, 0.722, 0.878]])

def inner6(a0):
    c0 = a0 ** 2
    c1 = jnp.reshape(c0, (4, 2, 2))
    c2 = jnp.sum(c1, axis=None)
    return c2

def true7(a0):
    c0 = jnp.tanh(a0)
    return c0

def inner10(b0):
    d0 = jnp.sum(b0, axis=None)
    return d0

def f(x0):
    v0 = jnp.dot(x0, x0)
    v1 = jnp.cosh(x0)
    v2 = sut.grad(inner6)(v0)
    def false8(a0):
        c0 = sut.grad(inner10)(v1)
        return c0
    v3 = sut.lax.cond(jnp.sum(v2) > 0.0, true7, false8, v2)
    v4 = 0.5 * v3
    return v4

def loss(x0):
    y0 = f(x0)
    return jnp.sum(jnp.multiply(y0, w0))

def transformed(x0):
    return sut.grad(loss, argnums=(0,))(x0)

def transformed_of_jit(x0):
    return sut.grad(sut.jit(loss), argnums=(0,))(x0)

# Inputs, as exact literals.
x0 = np.array([[-0.544, 1.174, 0.395, -1.356], [-0.328, 0.415, -2.0, -0.521], [0.171, -2.0, 0.466, 0.148], [1.638, -0.241, -0.954, -0.515]])

actual = sut.jit(transformed)(x0)
expected = transformed_of_jit(x0)
error = (
    np.array([[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]),
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
