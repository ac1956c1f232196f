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

def false1(a0):
    return a0

def f(x0):
    def true0(a0):
        c0 = jnp.add(x0, x0)
        c1 = jnp.add(c0, x0)
        return c1
    v0 = sut.lax.cond(jnp.sum(x0) > 1.0, true0, false1, x0)
    v1 = jnp.add(v0, x0)
    v2 = jnp.add(v1, x0)
    v3 = jnp.add(v2, x0)
    v4 = jnp.add(v3, x0)
    v5 = jnp.add(v4, x0)
    v6 = jnp.add(v5, x0)
    v7 = jnp.add(v6, x0)
    v8 = jnp.add(v7, x0)
    v9 = jnp.add(v8, x0)
    v10 = jnp.add(v9, x0)
    v11 = jnp.add(v10, x0)
    v12 = jnp.add(v11, x0)
    v13 = jnp.add(v12, x0)
    v14 = jnp.add(v13, x0)
    v15 = jnp.add(v14, x0)
    v16 = jnp.add(v15, x0)
    v17 = jnp.add(v16, x0)
    v18 = jnp.add(v17, x0)
    v19 = jnp.add(v18, x0)
    v20 = jnp.add(v19, x0)
    v21 = jnp.add(v20, x0)
    v22 = jnp.add(v21, x0)
    v23 = jnp.add(v22, x0)
    v24 = jnp.add(v23, x0)
    v25 = jnp.add(v24, x0)
    return v25

def transformed(x0):
    return sut.vmap(f, in_axes=(0,), out_axes=0)(x0)

def transformed_of_jit(x0):
    return sut.vmap(sut.jit(f), in_axes=(0,), out_axes=0)(x0)

# Inputs, as exact float64 literals.
x0 = np.array([0.0, 0.0])

actual = sut.jit(transformed)(x0)
expected = transformed_of_jit(x0)
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
