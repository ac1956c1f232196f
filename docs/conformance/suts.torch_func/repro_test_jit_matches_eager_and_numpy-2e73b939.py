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

def f(x0, x1):
    v0 = jnp.add(x0, x0)
    v1 = x0 % v0
    return v1

# Inputs, as exact literals.
x0 = np.array([0.125, 0.125, 0.125, 0.125])
x1 = np.array([0.0, 0.0, 0.0, 0.0])

actual = f(x0, x1)
print("returned, as a correct SUT must:")
print(actual)
