"""jaxcheck reproducer: vmap(grad(loss, argnums=0), in_axes=(-1,), out_axes=-1).

Expected values come from grad(loss) on each of 2 examples, stacked on axis -1 on suts.torch_func.
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

w0 = np.array(1.0)

def f(x0):
    v0 = jnp.add(x0, x0)
    return v0

def loss(x0):
    y0 = f(x0)
    return jnp.sum(jnp.multiply(y0, w0))

def batched(x0):
    return sut.vmap(sut.grad(loss, argnums=0), in_axes=(-1,), out_axes=-1)(x0)

def looped(x0):
    grads = [sut.grad(loss, argnums=0)(np.take(x0, i, -1)) for i in range(2)]
    return np.stack(grads, axis=-1)

# Inputs, as exact literals.
x0 = np.array([0.0, 0.0])

actual = batched(x0)
expected = looped(x0)
error = (
    np.array(0.0),
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
