"""jaxcheck reproducer: f(x).

The SUT crashed or hung on this call, so no oracle judged it.
Running this script makes the same call; it should print the result.

Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.mlx')

import numpy as np

jnp = sut.numpy

def f(x0, x1, x2):
    def inner0(a0):
        def step1(b0, b1):
            d0 = jnp.add(b1, b0)
            d1 = d0 + x1
            return d0, d1
        c0, c1 = sut.lax.scan(step1, x2, a0)
        c2 = jnp.sum(c1, axis=None)
        return c2
    v0 = sut.grad(inner0)(x1)
    return v0

# Inputs, as exact literals.
x0 = np.zeros((0,))
x1 = np.zeros((2, 0))
x2 = np.zeros((0,))

print("calling the SUT...", flush=True)
actual = f(x0, x1, x2)
print("returned:")
print(actual)
