"""jaxcheck reproducer: jit(vmap(f)) with f rewritten by maximum_as_where, reshape_round_trip, product_as_power.

Expected values come from jit(vmap(f)) on suts.torch_func.
Tolerance: equal programs differ by rounding only (< 1e-11), at ties and kinks too.
Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.torch_func')

import numpy as np

jnp = sut.numpy

def body0(carry):
    count, a0 = carry
    c0 = count + 1.0
    return c0, a0

def f(x0):
    v0 = jnp.maximum(x0, 0.5)
    v1 = jnp.tanh(v0)
    v2 = sut.lax.while_loop(lambda carry: carry[0] < 0.5, body0, (0.0, v1))[1]
    v3 = v2 * v2
    return v3, v3

def f_rewritten(x0):
    v0 = jnp.where(jnp.greater(x0, 0.5), x0, 0.5)
    v1 = jnp.tanh(v0)
    v2 = sut.lax.while_loop(lambda carry: carry[0] < 0.5, body0, (0.0, v1))[1]
    v3 = v2 ** 2
    v4 = jnp.reshape(v3, (1, 4))
    v5 = jnp.reshape(v4, (4,))
    return v5, v5

def stack(f):
    g0 = f

    g1 = sut.vmap(g0, in_axes=1, out_axes=-2)

    g2 = sut.jit(g1)

    return g2

# Inputs, as exact float64 literals.
x0 = np.array([[0.211, -0.223], [0.2, -0.621], [1.4, -0.01], [-0.013, -1.148]])

actual = stack(f_rewritten)(x0)
expected = stack(f)(x0)
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
