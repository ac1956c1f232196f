"""jaxcheck reproducer: jvp(f).

Each output must have its dtype: float32 with float64 promotes to float64 as in JAX; a tangent, cotangent or gradient has its primal's dtype.

Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.autograd')

import numpy as np

jnp = sut.numpy

def f(x0, x1):
    v0 = jnp.sort(x0, axis=None)
    return v0

def g0(x0, x1):
    return (f(x0, x1),)

def g1(x0, x1, t1_0, t1_1):
    out, tangent = sut.jvp(g0, (x0, x1), (t1_0, t1_1))
    return (*out, *tangent)

# Inputs, as exact literals.
x0 = np.array(0.0, dtype=np.float32)
x1 = np.array(0.0)
t1_0 = np.array(1.0, dtype=np.float32)
t1_1 = np.array(1.0)

actual = g1(x0, x1, t1_0, t1_1)

def leaves(tree):
    if isinstance(tree, dict):
        tree = [tree[key] for key in sorted(tree)]
    if isinstance(tree, tuple | list):
        return [leaf for item in tree for leaf in leaves(item)]
    return [tree]

expected = ['float32', 'float32']
got = [np.asarray(leaf).dtype.name for leaf in leaves(actual)]
for i, (g, e) in enumerate(zip(got, expected)):
    print(f"output {i}: {g}" + ("" if g == e else f", but should be {e}"))
print("dtypes as the contract says" if got == expected else "WRONG DTYPE")
sys.exit(0 if got == expected else 1)
