"""jaxcheck reproducer: one jit(f) on float64 inputs, then on float32 ones.

Each output must have its dtype: a jitted function compiles again for inputs of another dtype.

Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.torch_func')

import numpy as np

jnp = sut.numpy

def body0(i, a0):
    return a0

def true1(a0):
    return a0

def custom4(b0, b1):
    d0 = jnp.diff(b1, axis=2)
    return d0

@sut.custom_jvp
def custom4_ruled(b0, b1):
    return custom4(sut.lax.stop_gradient(b0), sut.lax.stop_gradient(b1))

@custom4_ruled.defjvp
def custom4_rule(primals, tangents):
    return sut.jvp(custom4, primals, tangents)

def f(x0, x1):
    v0 = jnp.trapezoid(x1, axis=1)
    v1 = sut.lax.fori_loop(0, 0, body0, v0)
    v2 = jnp.add(x0, x0)
    v3 = x0 + v2
    def false2(a0):
        c0 = jnp.subtract(a0, x0)
        return c0
    v4 = sut.lax.cond(jnp.sum(v3) < 0.0, true1, false2, x1)
    v5 = jnp.arccos(x1)
    v6 = sut.lax.dynamic_update_slice(v0, v1, (0, 0))
    def inner3(a0):
        c0 = v3 + v5
        c1 = jnp.multiply(c0, x0)
        c2 = c1 ** 2
        c3 = custom4_ruled(c2, v4)
        c4 = jnp.sum(c3, axis=None)
        return c4
    v7 = sut.grad(inner3)(v6)
    return v7

def check(x0, x1, y0, y1):
    g = sut.jit(f)
    return g(x0, x1), g(y0, y1)

# Inputs, as exact literals.
x0 = np.array(1.929)
x1 = np.zeros((0, 5, 5))
y0 = np.array(1.9290000200271606, dtype=np.float32)
y1 = np.zeros((0, 5, 5), dtype=np.float32)

actual = check(x0, x1, y0, y1)

def leaves(tree):
    if isinstance(tree, dict):
        tree = [tree[key] for key in sorted(tree)]
    if isinstance(tree, tuple | list):
        return [leaf for item in tree for leaf in leaves(item)]
    return [tree]

expected = ['float64', 'float32']
got = [np.asarray(leaf).dtype.name for leaf in leaves(actual)]
for i, (g, e) in enumerate(zip(got, expected)):
    print(f"output {i}: {g}" + ("" if g == e else f", but should be {e}"))
print("dtypes as the contract says" if got == expected else "WRONG DTYPE")
sys.exit(0 if got == expected else 1)
