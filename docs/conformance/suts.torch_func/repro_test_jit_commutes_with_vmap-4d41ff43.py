"""jaxcheck reproducer: jit(vmap(f)).

Expected values come from vmap(jit(f)) on suts.torch_func.
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

def true0(a0):
    return a0

def false1(a0):
    return a0

def body2(i, a0):
    c0 = jnp.cumsum(a0, axis=-1)
    return c0

def inner7(a0):
    return a0

def body11(i, a0):
    c0 = jnp.expm1(a0)
    return c0

def inner13(a0):
    return a0

def inner15(b0):
    d0 = jnp.tanh(b0)
    return d0

def f(x0):
    v0 = sut.lax.cond(jnp.sum(x0) < -1.0, true0, false1, x0)
    v1 = jnp.sign(v0)
    v2 = x0 % -1.5
    v3 = v2 / -1.5
    v4 = sut.lax.fori_loop(0, 1, body2, v1)
    v5 = jnp.var(v3, axis=None, keepdims=True)
    v6 = sut.vmap(inner7)(v4)
    v7 = jnp.arccos(v5)
    v8 = sut.lax.fori_loop(0, 1, body11, v7)
    v9 = jnp.tan(v6)
    v10 = sut.vmap(inner13)(v9)
    def inner14(a0):
        c0 = jnp.log2(a0)
        c1 = jnp.take_along_axis(c0, jnp.argmax(v5, axis=-1, keepdims=True), axis=-1)
        c2 = sut.jit(inner15)(c1)
        c3 = jnp.sum(c2, axis=None)
        return c3
    v11 = sut.grad(inner14)(v8)
    v12 = jnp.pad(v11, ((0, 2),))
    v13 = jnp.dot(v10, v12)
    return v13

def transformed(x0):
    return sut.vmap(f, in_axes=(1,), out_axes=0)(x0)

def transformed_of_jit(x0):
    return sut.vmap(sut.jit(f), in_axes=(1,), out_axes=0)(x0)

# Inputs, as exact literals.
x0 = np.array([[0.206, -2.0], [1.213, -1.147], [-0.407, -0.173]])

actual = sut.jit(transformed)(x0)
expected = transformed_of_jit(x0)
error = (
    np.array([0.0, 0.0]),
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
