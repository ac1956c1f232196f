"""jaxcheck reproducer: vmap(f).

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

def f(x0, x1):
    v0 = x0 + x0
    return v0

def g0(x0, x1):
    return (f(x0, x1),)

g1 = sut.vmap(g0, in_axes=(None, 1), out_axes=-2)

# Inputs, as exact literals.
x0 = np.zeros((1, 0), dtype=np.float32)
x1 = np.array([[[0.001], [0.001]], [[0.0], [0.0]]])

print("calling the SUT...", flush=True)
actual = g1(x0, x1)
print("returned:")
print(actual)
