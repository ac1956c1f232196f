"""jaxcheck reproducer: vmap(f, in_axes=(0, 0, None), out_axes=-1).

A correct SUT returns here: f is the same program, unpacked.

Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.torch_func')

import numpy as np

jnp = sut.numpy

def f(x0, x1, x2):
    v0 = jnp.divide(x2, 2.0)
    return v0

def check(x0, x1, x2):
    return sut.vmap(f, in_axes=(0, 0, None), out_axes=-1)(x0, x1, x2)

# Inputs, as exact float64 literals.
x0 = np.array([0.0, 0.0])
x1 = np.array([0.0, 0.0])
x2 = np.array(0.0)

actual = check(x0, x1, x2)
print("returned, as a correct SUT must:")
print(actual)
