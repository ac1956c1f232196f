"""jaxcheck reproducer: <c, grad(f)>.

Expected values come from the NumPy meaning of grad(f): 1 terms, central finite differences up to order 1 (Richardson).
Tolerance: 1e-6 plus ten times the error bound of the (order <= 2) finite differences.
Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.autograd')

import numpy as np

jnp = sut.numpy

w1_0 = np.array([1.0, 1.0])

def f(x0):
    v0 = jnp.broadcast_to(x0, (2,))
    return v0

def g0(x0):
    return (f(x0),)

def loss1(x0):
    out = g0(x0)
    return jnp.sum(jnp.multiply(out[0], w1_0))

def g1(x0):
    return (sut.grad(loss1, argnums=0)(x0),)

def probe(x0, c0):
    return sum(np.vdot(c, y) for c, y in zip((c0,), g1(x0)))

# Inputs, as exact float64 literals.
x0 = np.array(0.0)
c0 = np.array(1.0)

actual = probe(x0, c0)
expected = (
    np.array(2.0),
)
error = (
    np.array(5.329070518200751e-12),
)  # the oracle's own error estimate
RTOL, ATOL, ERROR_FACTOR = 1e-06, 1e-06, 10.0

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
