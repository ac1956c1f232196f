"""jaxcheck reproducer: f(x) eagerly.

A correct SUT returns here: f eagerly, which jit must equal.

Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.torch_func')

import numpy as np

jnp = sut.numpy

def true0(a0):
    return a0

def f(x0, x1, x2):
    def false1(a0):
        c0 = jnp.add(x0, x0)
        return c0
    v0 = sut.lax.cond(jnp.sum(x0) > 1.0, true0, false1, x0)
    return v0

# Inputs, as exact float64 literals.
x0 = np.zeros((1, 0))
x1 = np.array(0.0)
x2 = np.array(0.0)

actual = f(x0, x1, x2)
print("returned, as a correct SUT must:")
print(actual)
