"""jaxcheck reproducer: vmap(f, in_axes=(0,), out_axes=0).

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

def f(x0):
    v0 = jnp.add(x0, x0)
    return v0

def check(x0):
    return sut.vmap(f, in_axes=(0,), out_axes=0)(x0)

# Inputs, as exact literals.
x0 = np.array([0.0, 0.0])

actual = check(x0)
print("returned, as a correct SUT must:")
print(actual)
