"""jaxcheck reproducer: grad of f, z (4, 4, 2).

A correct SUT returns here: z of shape (4, 4, 2) broadcasts with add's other operand.

Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.autograd')

import numpy as np

jnp = sut.numpy

def f(x0, z):
    v0 = jnp.sort(x0, axis=2)
    v2 = jnp.add(v0, z)
    return v2

def total(x0, z):
    return jnp.sum(f(x0, z))

def transformed(x0, z):
    return sut.grad(total, argnums=(0, 1))(x0, z)

# Inputs, as exact literals.
x0 = np.array([[[0.0, 0.05], [0.0, 0.05], [0.0, 0.05], [0.0, 0.05]], [[0.0, 0.05], [0.0, 0.05], [0.0, 0.05], [0.0, 0.05]], [[0.0, 0.05], [0.0, 0.05], [0.0, 0.05], [0.0, 0.05]], [[0.0, 0.05], [0.0, 0.05], [0.0, 0.05], [0.0, 0.05]]])
z = np.array([[[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]])

actual = transformed(x0, z)
print("returned, as a correct SUT must:")
print(actual)
