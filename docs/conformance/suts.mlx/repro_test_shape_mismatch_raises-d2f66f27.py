"""jaxcheck reproducer: eager of f, z (2,).

A correct SUT returns here: z of shape (2,) broadcasts with add's other operand.

Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.mlx')

import numpy as np

jnp = sut.numpy

def f(x0, z):
    v0 = jnp.add(x0, x0)
    v1 = v0 @ x0
    v2 = jnp.add(x0, v1)
    v5 = jnp.add(v2, z)
    return v5

def transformed(x0, z):
    return f(x0, z)

# Inputs, as exact float64 literals.
x0 = np.array([0.0, 0.0])
z = np.array([0.0, 0.0])

actual = transformed(x0, z)
print("returned, as a correct SUT must:")
print(actual)
