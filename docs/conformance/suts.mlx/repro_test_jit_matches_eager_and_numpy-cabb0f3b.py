"""jaxcheck reproducer: f(x) eagerly.

A correct SUT returns here: f eagerly, which jit must equal.

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
    v0 = jnp.add(x0, x0)
    v1 = jnp.add(x0, v0)
    v2 = jnp.add(v1, x0)
    def inner7(a0):
        c0 = jnp.add(x0, v2)
        return c0
    v3 = sut.jit(inner7)(v0)
    return v3

# Inputs, as exact literals.
x0 = np.array([0.0, 0.0, 0.0, 0.0, 0.0])

actual = f(x0)
print("returned, as a correct SUT must:")
print(actual)
