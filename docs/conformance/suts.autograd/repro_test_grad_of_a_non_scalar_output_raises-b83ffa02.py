"""jaxcheck reproducer: grad(sum of f).

A correct SUT returns here: the sum of f's output is a scalar.

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
    v0 = jnp.broadcast_to(x1, (2,))
    return v0

def total(x0, x1):
    return jnp.sum(f(x0, x1))

def control(x0, x1):
    return sut.grad(total, argnums=(1,))(x0, x1)

def check(x0, x1):
    return sut.grad(f, argnums=(1,))(x0, x1)

# Inputs, as exact float64 literals.
x0 = np.array([[[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]])
x1 = np.array(0.0)

actual = control(x0, x1)
print("returned, as a correct SUT must:")
print(actual)
