"""jaxcheck reproducer: vmap(f).

Each output must have its dtype: float32 inputs give float32 results, derivatives included.

Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.mlx')

import numpy as np

jnp = sut.numpy

def f(x0):
    def inner0(a0):
        c0 = jnp.add(x0, x0)
        return c0
    v0 = sut.checkpoint(inner0)(x0)
    return v0

def g0(x0):
    return (f(x0),)

g1 = sut.vmap(g0, in_axes=(0,), out_axes=0)

# Inputs, as exact literals.
x0 = np.array([[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]], dtype=np.float32)

actual = g1(x0)

def leaves(tree):
    if isinstance(tree, dict):
        tree = [tree[key] for key in sorted(tree)]
    if isinstance(tree, tuple | list):
        return [leaf for item in tree for leaf in leaves(item)]
    return [tree]

expected = ['float32']
got = [np.asarray(leaf).dtype.name for leaf in leaves(actual)]
for i, (g, e) in enumerate(zip(got, expected)):
    print(f"output {i}: {g}" + ("" if g == e else f", but should be {e}"))
print("dtypes as the contract says" if got == expected else "WRONG DTYPE")
sys.exit(0 if got == expected else 1)
