"""jaxcheck reproducer: vmap(f, in_axes=(-1, None, None), out_axes=-2).

The SUT crashed or hung on this call, so no oracle judged it.
Running this script makes the same call; it should print the result.

Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.torch_func')

import numpy as np

jnp = sut.numpy

def inner0(a0):
    return a0

def f(x0, x1, x2):
    v0 = inner0(x1)
    return v0

def check(x0, x1, x2):
    return sut.vmap(f, in_axes=(-1, None, None), out_axes=-2)(x0, x1, x2)

# Inputs, as exact literals.
x0 = np.array([[0.0, 0.0], [0.0, 0.001]])
x1 = np.array([0.0, 0.0])
x2 = np.array(0.001)

print("calling the SUT...", flush=True)
actual = check(x0, x1, x2)
print("returned:")
print(actual)
