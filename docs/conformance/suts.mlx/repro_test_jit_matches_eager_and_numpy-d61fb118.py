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

def f(x0, x1):
    v0 = jnp.add(x0, x0)
    v1 = v0 @ x0
    v2 = jnp.add(x0, x0)
    v3 = jnp.add(v2, v1)
    return v3

# Inputs, as exact float64 literals.
x0 = np.array([0.0])
x1 = np.array(0.0)

actual = f(x0, x1)
print("returned, as a correct SUT must:")
print(actual)
